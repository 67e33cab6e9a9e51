package builtins

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestRegexMore checks the regexp functions of PostgreSQL 15 against the
// answers PostgreSQL 15 gives (functions_more.slt runs them on both).
func TestRegexMore(t *testing.T) {
	s, i := sqltypes.NewText, func(v int64) sqltypes.Value { return sqltypes.NewInt(v) }
	cases := []struct {
		name string
		args []sqltypes.Value
		want string // text output; "NULL" for NULL
		code *pgerr.Code
	}{
		{"regexp_count", []sqltypes.Value{s("abcabc"), s("b")}, "2", nil},
		{"regexp_count", []sqltypes.Value{s("abcabc"), s("^b"), i(2)}, "0", nil},
		{"regexp_count", []sqltypes.Value{s("aaa"), s("a*")}, "2", nil},
		{"regexp_count", []sqltypes.Value{s("abc"), s("")}, "4", nil},
		{"regexp_count", []sqltypes.Value{s("ABCabc"), s("b"), i(1), s("i")}, "2", nil},
		{"regexp_count", []sqltypes.Value{s("abc"), s("b"), i(0)}, "", &pgerr.InvalidParameterValue},
		{"regexp_count", []sqltypes.Value{s("abc"), s("b"), i(1), s("g")}, "", &pgerr.InvalidParameterValue},
		{"regexp_instr", []sqltypes.Value{s("abcabc"), s("(b)(c)"), i(1), i(2), i(1), s(""), i(2)}, "7", nil},
		{"regexp_instr", []sqltypes.Value{s("héllo"), s("l")}, "3", nil},
		{"regexp_instr", []sqltypes.Value{s("abc"), s("b"), i(1), i(1), i(2)}, "", &pgerr.InvalidParameterValue},
		{"regexp_instr", []sqltypes.Value{s("abc"), s("(x)?b"), i(1), i(1), i(0), s(""), i(1)}, "0", nil},
		{"regexp_substr", []sqltypes.Value{s("abcabc"), s("b."), i(3)}, "bc", nil},
		{"regexp_substr", []sqltypes.Value{s("abc"), s("x")}, "NULL", nil},
		{"regexp_substr", []sqltypes.Value{s("Hello World"), s("[a-z]+"), i(1), i(2), s("i")}, "World", nil},
		{"regexp_like", []sqltypes.Value{s("Hello"), s("hel"), s("i")}, "t", nil},
		{"regexp_like", []sqltypes.Value{s("Hello"), s("hel")}, "f", nil},
		{"regexp_replace", []sqltypes.Value{s("aaaa"), s("a"), s("b"), i(2), i(2)}, "aaba", nil},
		{"regexp_replace", []sqltypes.Value{s("aaaa"), s("a"), s("b"), i(1), i(2), s("g")}, "abaa", nil},
		{"regexp_replace", []sqltypes.Value{s("aaa"), s("a*"), s("X"), s("g")}, "XX", nil},
		{"regexp_replace", []sqltypes.Value{s("abc"), s("(b)"), s(`[\1\&\\]`), i(1), i(1)}, `a[bb\]c`, nil},
		{"regexp_replace", []sqltypes.Value{s("héllo wörld"), s("[öé]"), s("X"), i(3), i(0)}, "héllo wXrld", nil},
		{"regexp_replace", []sqltypes.Value{s("abc"), s("b"), s("x"), i(1), i(-1)}, "", &pgerr.InvalidParameterValue},
	}
	for _, c := range cases {
		got, err := call(t, c.name, c.args...)
		if c.code != nil {
			if pgerr.CodeOf(err) != *c.code {
				t.Errorf("%s%v: error %v, want SQLSTATE %s", c.name, c.args, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s%v: %v", c.name, c.args, err)
			continue
		}
		out := "NULL"
		if !got.IsNull() {
			out = string(sqltypes.AppendText(nil, got))
		}
		if out != c.want {
			t.Errorf("%s%v = %s, want %s", c.name, c.args, out, c.want)
		}
	}
}
