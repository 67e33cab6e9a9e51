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

// TestMakeTSVectorRepeatedWord: a word repeated n times gathers its
// positions in amortized appends (a handful of allocations, not one a
// repeat: copying them at every repeat made to_tsvector of 3M repeats run
// for minutes), without writing into the caller's position slices, and
// keeps PostgreSQL's first TSMaxNumPos positions.
func TestMakeTSVectorRepeatedWord(t *testing.T) {
	const n = 10_000
	build := func() []TSLexeme {
		// One backing array for every position, as a caller's lexemes
		// may share one: appending to a lexeme's slice in place would
		// overwrite the next lexeme's position.
		all := make([]TSPos, 2*n)
		lex := make([]TSLexeme, 0, 2*n)
		for i := range 2 * n {
			all[i] = MakeTSPos(i+1, 0)
			word := "ab"
			if i%2 == 1 {
				word = "cd"
			}
			lex = append(lex, TSLexeme{Word: word, Pos: all[i : i+1 : i+1]})
		}
		return lex
	}
	lex := build()
	allocs := testing.AllocsPerRun(5, func() { MakeTSVector(build()) })
	if allocs > 100 {
		t.Errorf("MakeTSVector of a word repeated %d times: %.0f allocations, want a handful beyond build's", n, allocs)
	}
	v := MakeTSVector(lex)
	if len(v.Lexemes) != 2 || v.Lexemes[0].Word != "ab" || v.Lexemes[1].Word != "cd" {
		t.Fatalf("lexemes %v", v.Lexemes)
	}
	for li, want := range []int{1, 2} {
		p := v.Lexemes[li].Pos
		if len(p) != TSMaxNumPos {
			t.Fatalf("%s: %d positions, want %d", v.Lexemes[li].Word, len(p), TSMaxNumPos)
		}
		for i, q := range p {
			if q.Pos() != want+2*i {
				t.Fatalf("%s: position %d is %d, want %d", v.Lexemes[li].Word, i, q.Pos(), want+2*i)
			}
		}
	}
}
