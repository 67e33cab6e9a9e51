package sqltypes

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// The text forms of tsvector and tsquery, as PostgreSQL 15 reads and
// prints them.
func TestTSVectorText(t *testing.T) {
	for _, c := range []struct{ in, out, code string }{
		{in: "a fat  cat sat on a mat and ate a fat rat", out: "'a' 'and' 'ate' 'cat' 'fat' 'mat' 'on' 'rat' 'sat'"},
		{in: "'a' 'b':3,1,2A 'b':1C,7 c:5B,4d,6*", out: "'a' 'b':1C,2A,3,7 'c':4,5B,6A"},
		{in: `'don''t' 'a\\b' "x" 'sp ace':1`, out: `'"x"' 'a\\b' 'don''t' 'sp ace':1`},
		{in: "a:1,1,1 b:3,2,1", out: "'a':1 'b':1,2,3"},
		{in: "x:20000", out: "'x':16383"},
		{in: "", out: ""},
		{in: `a\ b`, out: "'a b'"},
		{in: "a:0", code: "42601"},
		{in: "a:1Q", code: "42601"},
		{in: "'abc", code: "42601"},
		{in: "a:1AB", code: "42601"},
		{in: `a\`, code: "42601"},
	} {
		v, err := ParseTSVector(c.in)
		if c.code != "" {
			if pgerr.CodeOf(err).String() != c.code {
				t.Errorf("%q: %v, want %s", c.in, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := string(AppendTSVector(nil, v)); got != c.out {
			t.Errorf("%q: %s, want %s", c.in, got, c.out)
		}
	}
}

func TestTSQueryText(t *testing.T) {
	for _, c := range []struct{ in, out, code string }{
		{in: "fat & (rat | cat)", out: "'fat' & ( 'rat' | 'cat' )"},
		{in: "!!a", out: "!!'a'"},
		{in: "a | b & c", out: "'a' | 'b' & 'c'"},
		{in: "!(a & b)", out: "!( 'a' & 'b' )"},
		{in: "a <-> (b <-> c)", out: "'a' <-> ( 'b' <-> 'c' )"},
		{in: "(a <-> b) <-> c", out: "'a' <-> 'b' <-> 'c'"},
		{in: "a <0> b", out: "'a' <0> 'b'"},
		{in: "a:*dA", out: "'a':*AD"},
		{in: "'x y':B & 'it''s'", out: "'x y':B & 'it''s'"},
		{in: "a & !b <-> c | d", out: "'a' & !'b' <-> 'c' | 'd'"},
		{in: "", out: ""},
		{in: "a &", code: "42601"},
		{in: "a b", code: "42601"},
		{in: "(a", code: "42601"},
		{in: "a)", code: "42601"},
		{in: "&a", code: "42601"},
		{in: "a <20000> b", code: "22023"},
		{in: "a <-", code: "42601"},
	} {
		q, err := ParseTSQueryText(c.in)
		if c.code != "" {
			if pgerr.CodeOf(err).String() != c.code {
				t.Errorf("%q: %v, want %s", c.in, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := TSQueryString(q); got != c.out {
			t.Errorf("%q: %s, want %s", c.in, got, c.out)
		}
	}
}

// FuzzParseTSQuery: tsquery input never panics, fails only with
// PostgreSQL's codes, and what it prints reads back to the same query.
func FuzzParseTSQuery(f *testing.F) {
	for _, s := range []string{"a & b", "!(a | b:*A) <-> c", "'x y':BC <3> !!d", "a <-> (b | c) & d", "", "((a))", "a:", "\\&", "'a''b'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
			return // not a text value
		}
		q, err := ParseTSQueryText(s)
		if err != nil {
			switch pgerr.CodeOf(err) {
			case pgerr.SyntaxError, pgerr.ProgramLimitExceeded, pgerr.InvalidParameterValue, pgerr.StatementTooComplex, pgerr.InternalError:
			default:
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		out := TSQueryString(q)
		back, err := ParseTSQueryText(out)
		if err != nil {
			t.Fatalf("%q printed %q, which does not read back: %v", s, out, err)
		}
		if again := TSQueryString(back); again != out {
			t.Fatalf("%q printed %q, read back as %q", s, out, again)
		}
		bin := AppendTSQueryBinary(nil, q)
		dec, err := DecodeTSQueryBinary(bin)
		if err != nil || TSQueryString(dec) != out {
			t.Fatalf("%q: binary %x decoded as %v, %v", s, bin, dec, err)
		}
	})
}
