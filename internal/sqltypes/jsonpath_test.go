package sqltypes

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// jsonpathPrintCases are jsonpath_out's answers, from PostgreSQL 15.
var jsonpathPrintCases = []struct{ in, want string }{
	{`$.a + 1`, `($."a" + 1)`},
	{`1 - 2 - 3`, `((1 - 2) - 3)`},
	{`(1+2)*3`, `((1 + 2) * 3)`},
	{`1 + 2 * 3`, `(1 + 2 * 3)`},
	{`-1`, `-1`},
	{`- $.a`, `(-$."a")`},
	{`-(-1)`, `1`},
	{`+1`, `1`},
	{`--1`, `1`},
	{`$.a == 1`, `($."a" == 1)`},
	{`$.a ? (@ > 1)`, `$."a"?(@ > 1)`},
	{`$ ? (@.a > 1 && @.b < 2 || !(@.c == 3))`, `$?(@."a" > 1 && @."b" < 2 || !(@."c" == 3))`},
	{`($.a + 1).type()`, `($."a" + 1).type()`},
	{`$ ? ((@ + 1).type() == "number")`, `$?(@ + 1.type() == "number")`},
	{`(1 == 1).type()`, `(1 == 1).type()`},
	{`strict $`, `strict $`},
	{`lax $`, `$`},
	{`$a`, `$"a"`},
	{`$"a b"`, `$"a b"`},
	{`$."a b".c`, `$."a b"."c"`},
	{`$.*`, `$.*`},
	{`$[*]`, `$[*]`},
	{`$[1, 2 to 3, last, last - 1]`, `$[1,2 to 3,last,last - 1]`},
	{`$.**`, `$.**`},
	{`$.**{2}`, `$.**{2}`},
	{`$.**{2 to 5}`, `$.**{2 to 5}`},
	{`$.**{last}`, `$.**{last}`},
	{`$.**{2 to last}`, `$.**{2 to last}`},
	{`$.**{last to 2}`, `$.**{last to 2}`},
	{`$ ? (exists (@.a))`, `$?(exists (@."a"))`},
	{`$ ? (@ like_regex "^a.*" flag "ismq")`, `$?(@ like_regex "^a.*" flag "ismq")`},
	{`$ ? (@ starts with "x")`, `$?(@ starts with "x")`},
	{`$ ? ((@ > 1) is unknown)`, `$?((@ > 1) is unknown)`},
	{`$ ? (@ starts with $v)`, `$?(@ starts with $"v")`},
	{`$.type().size().double().ceiling().floor().abs().keyvalue()`, `$.type().size().double().ceiling().floor().abs().keyvalue()`},
	{`$.datetime()`, `$.datetime()`},
	{`$.datetime("HH24")`, `$.datetime("HH24")`},
	{`"a\nb\u0041\x41\t\"\\\/"`, `"a\nbAA\t\"\\/"`},
	{`true`, `true`},
	{`null`, `null`},
	{`1.50`, `1.50`},
	{`1e3`, `1000`},
	{`1.5e-2`, `0.015`},
	{`.5`, `0.5`},
	{`1.`, `1`},
	{`$.last.type.size.to.with`, `$."last"."type"."size"."to"."with"`},
	{`$ <> 1`, `($ != 1)`},
	{`1 % 2 / 3`, `((1 % 2) / 3)`},
	{`$.a[$.b]`, `$."a"[$."b"]`},
	{`$.a[1.5]`, `$."a"[1.5]`},
	{`$.a /* c */ . b`, `$."a"."b"`},
	{`$a.b`, `$"a"."b"`},
	{`$.a ? (@.b == $"x y")`, `$."a"?(@."b" == $"x y")`},
	{`$.a ? (@ > 1) ? (@ < 5)`, `$."a"?(@ > 1)?(@ < 5)`},
	{`$ ? (!(@ > 1))`, `$?(!(@ > 1))`},
	{`$ == 1 && $ == 2`, `($ == 1 && $ == 2)`},
	{`($ == 1) is unknown`, `($ == 1) is unknown`},
	{`exists($)`, `exists ($)`},
	{`$."\u00e9"`, `$."é"`},
	{`"\u263a"`, `"☺"`},
	{`$."\u0001"`, `$."\u0001"`},
	{`(1).type()`, `(1).type()`},
	{`$.a[1].b`, `$."a"[1]."b"`},
	{`"x".type()`, `"x".type()`},
	{`$[1 to last]`, `$[1 to last]`},
	{`-$.a.b`, `(-$."a"."b")`},
	{`-($.a + 1)`, `(-($."a" + 1))`},
	{`$ ? (-@ > 1)`, `$?(-@ > 1)`},
	{`1 * (2 + 3) - -4`, `(1 * (2 + 3) - -4)`},
	{`($.a).b`, `$."a"."b"`},
	{`$ like_regex "x"`, `($ like_regex "x")`},
	{`$.a like_regex "x" && $ starts with "a"`, `($."a" like_regex "x" && $ starts with "a")`},
	{`$.type[0]`, `$."type"[0]`},
	{`$.type ? (@ > 1)`, `$."type"?(@ > 1)`},
	{`$.size`, `$."size"`},
}

func TestJSONPathPrint(t *testing.T) {
	for _, c := range jsonpathPrintCases {
		p, err := ParseJSONPath(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		got := string(AppendJSONPath(nil, p))
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
			continue
		}
		// The printed form parses back to itself (but where PostgreSQL's
		// own printing loses the parentheses).
		if ambiguousPrint(p.Expr) {
			continue
		}
		p2, err := ParseJSONPath(got)
		if err != nil {
			t.Errorf("%s: reparse: %v", got, err)
		} else if again := string(AppendJSONPath(nil, p2)); again != got {
			t.Errorf("%s: reprinted as %s", got, again)
		}
	}
}

// jsonpathErrorCases are PostgreSQL 15's errors for invalid paths.
var jsonpathErrorCases = []struct {
	in   string
	code pgerr.Code
	msg  string
}{
	{`$ ? (@ == TRUE)`, pgerr.SyntaxError, ""},
	{`@`, pgerr.SyntaxError, "@ is not allowed in root expressions"},
	{`last`, pgerr.SyntaxError, "LAST is allowed only in array subscripts"},
	{`$.a[1.a]`, pgerr.SyntaxError, `trailing junk after numeric literal at or near "1.a" of jsonpath input`},
	{``, pgerr.InvalidTextRepresentation, `invalid input syntax for type jsonpath: ""`},
	{`  `, pgerr.InvalidTextRepresentation, `invalid input syntax for type jsonpath: "  "`},
	{`strict`, pgerr.SyntaxError, "syntax error at end of jsonpath input"},
	{`$.`, pgerr.SyntaxError, "syntax error at end of jsonpath input"},
	{`$ ? (@ like_regex "a" flag "z")`, pgerr.SyntaxError, "invalid input syntax for type jsonpath"},
	{`$ ? (@ like_regex "a" flag "x")`, pgerr.FeatureNotSupported, `XQuery "x" flag (expanded regular expressions) is not implemented`},
	{`1e`, pgerr.SyntaxError, `trailing junk after numeric literal at or near "1e" of jsonpath input`},
	{`01`, pgerr.SyntaxError, `trailing junk after numeric literal at or near "01" of jsonpath input`},
	{`$.a.1`, pgerr.SyntaxError, `syntax error at or near ".1" of jsonpath input`},
	{`$ ? (1 == 2 == 3)`, pgerr.SyntaxError, `syntax error at or near "==" of jsonpath input`},
	{`$ ? (@ = 1)`, pgerr.SyntaxError, `syntax error at or near "=" of jsonpath input`},
	{`0e20000000000000000`, pgerr.NumericValueOutOfRange, "value overflows numeric format"},
	{`($0\\)`, pgerr.SyntaxError, ""},
	{`$ ? (@.a)`, pgerr.SyntaxError, ""},
	{`$ && $`, pgerr.SyntaxError, ""},
}

func TestJSONPathErrors(t *testing.T) {
	for _, c := range jsonpathErrorCases {
		_, err := ParseJSONPath(c.in)
		var pe *pgerr.Error
		if !errors.As(err, &pe) {
			t.Errorf("%q: got %v, want %s", c.in, err, c.code)
			continue
		}
		if pe.Code != c.code || (c.msg != "" && pe.Message != c.msg) {
			t.Errorf("%q: got %s %q, want %s %q", c.in, pe.Code, pe.Message, c.code, c.msg)
		}
	}
}

// FuzzJSONPath checks that the jsonpath parser never panics, refuses with
// a SQLSTATE error only, and that what it accepts prints to a text that
// parses back to the same text.
func FuzzJSONPath(f *testing.F) {
	for _, c := range jsonpathPrintCases {
		f.Add(c.in)
	}
	for _, c := range jsonpathErrorCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseJSONPath(s)
		if err != nil {
			var pe *pgerr.Error
			if !errors.As(err, &pe) {
				t.Fatalf("%q: error without a SQLSTATE: %v", s, err)
			}
			return
		}
		out := string(AppendJSONPath(nil, p))
		// Text holds no NUL and only UTF-8 (the wire refuses others).
		if ambiguousPrint(p.Expr) || strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
			return
		}
		p2, err := ParseJSONPath(out)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, out, err)
		}
		if again := string(AppendJSONPath(nil, p2)); again != out {
			t.Fatalf("%q printed as %q, then as %q", s, out, again)
		}
	})
}

// ambiguousPrint reports a path that jsonpath_out prints without the
// parentheses it needs to parse back: an operator followed by an accessor,
// printed where PostgreSQL drops brackets ($?(@ + 1.type() == "number")).
func ambiguousPrint(it *JSONPathItem) bool {
	for ; it != nil; it = it.Next {
		if it.Next != nil && it.Kind >= JPAnd && it.Kind <= JPMinus || it.Next != nil && (it.Kind == JPStartsWith || it.Kind == JPLikeRegex) {
			return true
		}
		for _, c := range []*JSONPathItem{it.Left, it.Right} {
			if c != nil && ambiguousPrint(c) {
				return true
			}
		}
		for _, s := range it.Subs {
			if ambiguousPrint(s.From) || s.To != nil && ambiguousPrint(s.To) {
				return true
			}
		}
	}
	return false
}
