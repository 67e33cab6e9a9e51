package sqltypes

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func TestParseLtree(t *testing.T) {
	for _, s := range []string{"", "a", "Top.Science.Astronomy", "a_b.C1.é.中.٣", strings.Repeat("x", 255)} {
		v, err := ParseLtree(s)
		if err != nil || v.S != s || v.K != KindLtree {
			t.Errorf("ParseLtree(%q) = %v, %v", s, v, err)
		}
	}
	for _, c := range []struct {
		in, code, msg string
	}{
		{"a..b", "42601", "ltree syntax error at character 3"},
		{"a.", "42601", "ltree syntax error"},
		{" a", "42601", "ltree syntax error at character 1"},
		{"a\u0301", "42601", "ltree syntax error at character 2"},
		{"é-", "42601", "ltree syntax error at character 2"},
		{strings.Repeat("x", 256), "42622", "label string is too long"},
		{strings.Repeat("a.", 65535), "54000", "number of ltree labels (65536) exceeds the maximum allowed (65535)"},
	} {
		_, err := ParseLtree(c.in)
		e, ok := err.(*pgerr.Error)
		if !ok || e.Code.String() != c.code || e.Message != c.msg {
			t.Errorf("ParseLtree(%.20q) = %v, want %s %s", c.in, err, c.code, c.msg)
		}
	}
}

func TestLqueryText(t *testing.T) {
	// Inputs and PostgreSQL 15's lquery_out of them.
	for in, want := range map[string]string{
		"*": "*", "*{0,}": "*", "a{,}": "a{,}", "a{1}.b{2,}.c{,3}.*{2,5}.!d|e@*%": "a{1}.b{2,}.c{,3}.*{2,5}.!d|e%@*",
		"a%*@": "a%@*", "*{3}.x{0,0}": "*{3}.x{0}", "a|b|c.*{,}": "a|b|c.*", "*.!foo_bar@|b*": "*.!foo_bar@|b*",
	} {
		q, err := ParseLquery(in)
		if err != nil || q.String() != want {
			t.Errorf("lquery %q: %v, %v; want %q", in, q, err, want)
		}
	}
	for in, detail := range map[string]string{
		"": "Unexpected end of input.", "!.a": "Empty labels are not allowed.",
		"*{70000}": "Low limit (70000) exceeds the maximum allowed (65535), at character 3.",
		"*{5,2}":   "Low limit (5) is greater than high limit (2), at character 5.",
	} {
		_, err := ParseLquery(in)
		if e, ok := err.(*pgerr.Error); !ok || e.Detail != detail {
			t.Errorf("lquery %q: %v, want detail %q", in, err, detail)
		}
	}
}

func TestLtxtqueryText(t *testing.T) {
	for in, want := range map[string]string{
		"a | b | c": "( a | b ) | c", "(a|b)&c": "( a | b ) & c", "!(a|b)": "!( a | b )", "!!a": "!( !a )",
		"a & (b | c) & !d%@*": "a & ( b | c ) & !d%@*", "  x  &y ": "x & y", "a|(b&c)": "a | b & c",
	} {
		q, err := ParseLtxtquery(in)
		if err != nil || q.String() != want {
			t.Errorf("ltxtquery %q: %v, %v; want %q", in, q, err, want)
		}
	}
	for in, msg := range map[string]string{
		"": "operand syntax error", "a b": "syntax error", "a@b": "modifiers syntax error", "(a": "syntax error",
		strings.Repeat("x", 256): "operand is too long", strings.Repeat("!", 33) + "a": "stack too short",
	} {
		_, err := ParseLtxtquery(in)
		if e, ok := err.(*pgerr.Error); !ok || e.Message != msg {
			t.Errorf("ltxtquery %.20q: %v, want %q", in, err, msg)
		}
	}
}

func TestLtreeMatch(t *testing.T) {
	// PostgreSQL 15's answers.
	for _, c := range []struct {
		path, query string
		want        bool
	}{
		{"Top.Science.Astronomy", "*.Astronomy", true}, {"Top.Science.Astronomy", "Top.*{1}", false},
		{"Top.Science.Astronomy", "top@.*", true}, {"Top.Science.Astronomy", "*.!Science.*", true},
		{"Top.Science.Astronomy", "Top.!Science|Art.Astronomy", false}, {"a.b.b.c", "a.b{2}.c", true},
		{"a.b.b.c", "a.b{1}.c", false}, {"a.b.b.c", "a.!c{2}.c", true}, {"foo_bar.baz", "bar%.*", true},
		{"foo_bar.baz", "FOO_B%@*.*", true}, {"", "*", true}, {"", "!a", false}, {"ÄB.x", "äb@.*", true},
	} {
		if got, err := LqueryMatch(c.path, c.query); err != nil || got != c.want {
			t.Errorf("%q ~ %q = %v, %v; want %v", c.path, c.query, got, err, c.want)
		}
	}
	for _, c := range []struct {
		path, query string
		want        bool
	}{
		{"Europe.Russia.Moscow", "Europe & Russia*@ & !Transportation", true}, {"Europe.Russia.Moscow", "europe", false},
		{"foo_bar.baz", "BAZ@ & (x | foo%)", true}, {"", "!a", true}, {"ÄB.x", "äb@", true},
	} {
		if got, err := LtxtqueryMatch(c.path, c.query); err != nil || got != c.want {
			t.Errorf("%q @ %q = %v, %v; want %v", c.path, c.query, got, err, c.want)
		}
	}
}

// bruteLtreeCmp is ltree_compare written over label slices: label by
// label, bytes over the shorter label then the shorter first, then the
// path with fewer labels first.
func bruteLtreeCmp(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := []byte(a[i]), []byte(b[i])
		for j := 0; j < len(x) && j < len(y); j++ {
			if x[j] != y[j] {
				if x[j] < y[j] {
					return -1
				}
				return 1
			}
		}
		if len(x) != len(y) {
			if len(x) < len(y) {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// randomLtree is a path of up to four labels over characters chosen to
// meet at label ends: the lowest and highest ASCII label bytes and
// multibyte letters and digits.
func randomLtree(r *rand.Rand) []string {
	alphabet := []string{"0", "9", "A", "Z", "_", "a", "z", "é", "中", "٣", "ÿ"}
	labels := make([]string, r.Intn(5))
	for i := range labels {
		var sb strings.Builder
		for n := 1 + r.Intn(3); n > 0; n-- {
			sb.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		labels[i] = sb.String()
	}
	return labels
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// TestLtreeOrderIsTextOrder: the byte order of ltrees' dotted texts,
// which Compare and the key encoding use, is ltree_cmp's order, and
// LtreeCmp's sign agrees.
func TestLtreeOrderIsTextOrder(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		a, b := randomLtree(r), randomLtree(r)
		as, bs := strings.Join(a, "."), strings.Join(b, ".")
		for _, s := range []string{as, bs} {
			if _, err := ParseLtree(s); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
		}
		want := bruteLtreeCmp(a, b)
		if got := Compare(NewLtree(as), NewLtree(bs)); got != want {
			t.Fatalf("Compare(%q, %q) = %d, ltree_cmp's order %d", as, bs, got, want)
		}
		if got := sign(LtreeCmp(as, bs)); got != want {
			t.Fatalf("LtreeCmp(%q, %q) = %d, want the sign %d", as, bs, LtreeCmp(as, bs), want)
		}
		// The subtree of a is the key range [a, a + "/") (optimizer's
		// ltreeBound), and inner_isparent's answer.
		inRange := as == "" || bs >= as && bs < as+"/"
		isParent := len(a) <= len(b) && bruteLtreeCmp(a, b[:len(a)]) == 0
		if LtreeIsAncestor(as, bs) != isParent || inRange != isParent {
			t.Fatalf("%q @> %q: LtreeIsAncestor %v, key range %v, want %v", as, bs, LtreeIsAncestor(as, bs), inRange, isParent)
		}
	}
}

func TestDecodeLtreeBinary(t *testing.T) {
	v, err := DecodeLtreeBinary(TypeLquery, []byte("\x01a.*{1,}"))
	if err != nil || v.S != "a.*{1,}" {
		t.Errorf("lquery_recv: %v, %v", v, err)
	}
	for _, c := range []struct {
		typ  Type
		in   string
		code string
		msg  string
	}{
		{TypeLtree, "\x02a", "XX000", "unsupported ltree version number 2"},
		{TypeLtxtquery, "\x00a", "XX000", "unsupported ltxtquery version number 0"},
		{TypeLtree, "", "08P01", "insufficient data left in message"},
		{TypeLtree, "\x01a..b", "42601", "ltree syntax error at character 3"},
	} {
		_, err := DecodeLtreeBinary(c.typ, []byte(c.in))
		if e, ok := err.(*pgerr.Error); !ok || e.Code.String() != c.code || e.Message != c.msg {
			t.Errorf("recv %q as %s: %v, want %s %s", c.in, c.typ, err, c.code, c.msg)
		}
	}
}

func FuzzLtree(f *testing.F) {
	for _, s := range []string{"", "a.b", "a..b", "é.中", "a.", strings.Repeat("x", 256)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseLtree(s)
		if err != nil {
			if _, ok := err.(*pgerr.Error); !ok {
				t.Fatalf("ParseLtree(%q): %T %v, want a *pgerr.Error", s, err, err)
			}
			return
		}
		w, err := ParseLtree(FormatText(v))
		if err != nil || w.S != v.S || v.S != s {
			t.Fatalf("ParseLtree(%q) = %q, which reads back as %q, %v", s, v.S, w.S, err)
		}
	})
}

func FuzzLquery(f *testing.F) {
	for _, s := range []string{"*", "a{1}.b{2,}.c{,3}.*{2,5}.!d|e@*%", "!.a", "*{5,2}", "a|!b", "x%@*.*{0}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseLquery(s)
		if err != nil {
			if _, ok := err.(*pgerr.Error); !ok {
				t.Fatalf("ParseLquery(%q): %T %v, want a *pgerr.Error", s, err, err)
			}
			return
		}
		out := q.String()
		p, err := ParseLquery(out)
		if err != nil || p.String() != out {
			t.Fatalf("ParseLquery(%q) prints %q, which reads back as %v, %v", s, out, p, err)
		}
	})
}

func FuzzLtxtquery(f *testing.F) {
	for _, s := range []string{"a & (b | c) & !d%@*", "!!a", "a | b | c", "(a", "a@b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseLtxtquery(s)
		if err != nil {
			if _, ok := err.(*pgerr.Error); !ok {
				t.Fatalf("ParseLtxtquery(%q): %T %v, want a *pgerr.Error", s, err, err)
			}
			return
		}
		out := q.String()
		p, err := ParseLtxtquery(out)
		if err != nil || p.String() != out {
			t.Fatalf("ParseLtxtquery(%q) prints %q, which reads back as %v, %v", s, out, p, err)
		}
	})
}
