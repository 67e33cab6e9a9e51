package parser

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestNonStandardStrings: with standard_conforming_strings off, ordinary
// literals read their backslashes as escapes and become the standard
// literals of the same values, every other character staying in place
// (the text's length in characters is kept); each literal, continued or
// not, warns once at its start for its first escape, as PostgreSQL's
// scanner does; what is not an ordinary literal is left alone.
func TestNonStandardStrings(t *testing.T) {
	for _, c := range []struct {
		in, want string
		warnings []string // message@position
		err      string
	}{
		{in: `select 'plain', E'e\\x', $$d\n$$, "q\'id", B'01', X'1f'`, want: `select 'plain', E'e\\x', $$d\n$$, "q\'id", B'01', X'1f'`},
		{in: `select 'a\\b', 'it\'s'`, want: `select 'a\b' , 'it''s'`,
			warnings: []string{`nonstandard use of \\ in a string literal@8`, `nonstandard use of \' in a string literal@16`}},
		{in: `select 't\tx' -- 'c\\' in a comment`, want: "select 't\tx'  -- 'c\\\\' in a comment",
			warnings: []string{`nonstandard use of escape in a string literal@8`}},
		{in: `select /* 'x\\' */ 'é\101'`, want: `select /* 'x\\' */ 'éA'   `,
			warnings: []string{`nonstandard use of escape in a string literal@20`}},
		{in: "select 'a'\n  'b\\\\c'", want: "select 'a'\n  'b\\c' ",
			warnings: []string{`nonstandard use of \\ in a string literal@8`}},
		{in: "select 'a\\nb'\n  'c\\\\d'", want: "select 'a\nb' \n  'c\\d' ",
			warnings: []string{`nonstandard use of escape in a string literal@8`}},
		{in: `select N'n\\m', name'x'`, want: `select N'n\m' , name'x'`,
			warnings: []string{`nonstandard use of \\ in a string literal@8`}},
		{in: `select $1, 'x\'', $q$'\'$q$`, want: `select $1, 'x''', $q$'\'$q$`,
			warnings: []string{`nonstandard use of \' in a string literal@12`}},
		{in: `select U&'\0041'`, err: "unsafe use of string constant with Unicode escapes"},
		{in: `select U&"\0041"`, want: `select U&"\0041"`},
		{in: `select '\0'`, err: `invalid byte sequence for encoding "UTF8": 0x00`},
		{in: `select 'unterminated\'`, err: "unterminated quoted string"},
	} {
		got, warnings, err := NonStandardStrings(c.in, true)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.in, got, c.want)
		}
		if utf8.RuneCountInString(got) != utf8.RuneCountInString(c.in) {
			t.Errorf("%s: %d characters, was %d", c.in, utf8.RuneCountInString(got), utf8.RuneCountInString(c.in))
		}
		var ws []string
		for _, w := range warnings {
			if w.Code.String() != "22P06" || w.Severity != "WARNING" {
				t.Errorf("%s: warning %+v", c.in, w)
			}
			ws = append(ws, w.Message+"@"+strconv.Itoa(w.Position))
		}
		if strings.Join(ws, "; ") != strings.Join(c.warnings, "; ") {
			t.Errorf("%s: warnings %q, want %q", c.in, ws, c.warnings)
		}
		if _, quiet, _ := NonStandardStrings(c.in, false); len(quiet) != 0 {
			t.Errorf("%s: warned with escape_string_warning off", c.in)
		}
		if _, err := Parse(got); err != nil {
			t.Errorf("%s: the rewritten text does not parse: %v", c.in, err)
		}
	}
}

// FuzzNonStandardStrings: any text is rewritten without a panic, and what
// it rewrites keeps its length in characters.
func FuzzNonStandardStrings(f *testing.F) {
	for _, s := range []string{`select 'a\\b', E'\n', $$\$$, "x\"`, "'a'\n'b\\c'", `U&'x'`, `'\u00e9\101\x4'`, `/* '\' */ '\'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, _, err := NonStandardStrings(s, true)
		if err == nil && utf8.RuneCountInString(out) != utf8.RuneCountInString(s) {
			t.Fatalf("%q became %q", s, out)
		}
	})
}
