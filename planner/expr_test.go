package planner

import (
	"math"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

func TestLikeMatch(t *testing.T) {
	cases := []struct {
		s, pat string
		want   bool
	}{
		{"abc", "abc", true},
		{"abc", "a%", true},
		{"abc", "%c", true},
		{"abc", "%b%", true},
		{"abc", "a_c", true},
		{"abc", "a_", false},
		{"", "%", true},
		{"", "_", false},
		{"a%c", `a\%c`, true},
		{"abc", `a\%c`, false},
		{"a_c", `a\_c`, true},
		{"héllo", "h_llo", true},
		{"aaab", "%a%b", true},
		{"mississippi", "%iss%ppi", true},
		{"mississippi", "%iss%ppx", false},
	}
	for _, c := range cases {
		if got := likeMatch(c.s, c.pat, '\\'); got != c.want {
			t.Errorf("%q LIKE %q = %v, want %v", c.s, c.pat, got, c.want)
		}
	}
}

func TestLikePrefix(t *testing.T) {
	cases := []struct {
		pat, prefix string
		only        bool
	}{
		{"abc%", "abc", true},
		{"abc", "abc", false},
		{"ab%c", "ab", false},
		{"a_c%", "a", false},
		{`a\%b%`, "a%b", true},
		{"%x", "", false},
	}
	for _, c := range cases {
		p, only := LikePrefix(c.pat, '\\')
		if p != c.prefix || only != c.only {
			t.Errorf("LikePrefix(%q) = %q, %v; want %q, %v", c.pat, p, only, c.prefix, c.only)
		}
	}
}

func TestThreeValuedLogic(t *testing.T) {
	T := &Const{V: sqltypes.NewBool(true), Typ: sqltypes.TypeBool}
	F := &Const{V: sqltypes.NewBool(false), Typ: sqltypes.TypeBool}
	N := &Const{V: sqltypes.Null, Typ: sqltypes.TypeBool}
	str := func(v sqltypes.Value) string {
		if v.IsNull() {
			return "NULL"
		}
		return sqltypes.FormatText(v)
	}
	cases := []struct {
		e    Expr
		want string
	}{
		{&Binary{Op: OpAnd, L: N, R: F, Typ: sqltypes.TypeBool}, "f"},
		{&Binary{Op: OpAnd, L: N, R: T, Typ: sqltypes.TypeBool}, "NULL"},
		{&Binary{Op: OpOr, L: N, R: T, Typ: sqltypes.TypeBool}, "t"},
		{&Binary{Op: OpOr, L: N, R: F, Typ: sqltypes.TypeBool}, "NULL"},
		{&Not{E: N}, "NULL"},
		{&InList{E: &Const{V: sqltypes.NewInt(1)}, List: []Expr{&Const{V: sqltypes.NewInt(2)}, N}}, "NULL"},
		{&InList{E: &Const{V: sqltypes.NewInt(1)}, List: []Expr{&Const{V: sqltypes.NewInt(1)}, N}}, "t"},
		{&InList{E: &Const{V: sqltypes.NewInt(1)}, List: []Expr{&Const{V: sqltypes.NewInt(2)}}, Neg: true}, "t"},
		{&IsNull{E: N}, "t"},
		{&Binary{Op: OpEq, L: N, R: N, Typ: sqltypes.TypeBool}, "NULL"},
	}
	for _, c := range cases {
		v, err := c.e.Eval(&EvalContext{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.e, err)
		}
		if got := str(v); got != c.want {
			t.Errorf("%s = %s, want %s", c.e, got, c.want)
		}
	}
}

func TestArithmeticErrors(t *testing.T) {
	i := func(v int64) Expr { return &Const{V: sqltypes.NewInt(v), Typ: sqltypes.TypeInt8} }
	cases := []struct {
		e    Expr
		code string
	}{
		{&Binary{Op: OpAdd, L: i(math.MaxInt64), R: i(1), Typ: sqltypes.TypeInt8}, pgerr.NumericValueOutOfRange},
		{&Binary{Op: OpSub, L: i(math.MinInt64), R: i(1), Typ: sqltypes.TypeInt8}, pgerr.NumericValueOutOfRange},
		{&Binary{Op: OpMul, L: i(math.MaxInt64 / 2), R: i(3), Typ: sqltypes.TypeInt8}, pgerr.NumericValueOutOfRange},
		{&Binary{Op: OpDiv, L: i(math.MinInt64), R: i(-1), Typ: sqltypes.TypeInt8}, pgerr.NumericValueOutOfRange},
		{&Binary{Op: OpDiv, L: i(1), R: i(0), Typ: sqltypes.TypeInt8}, pgerr.DivisionByZero},
		{&Binary{Op: OpMod, L: i(1), R: i(0), Typ: sqltypes.TypeInt8}, pgerr.DivisionByZero},
		{&Binary{Op: OpAdd, L: i(math.MaxInt32), R: i(1), Typ: sqltypes.TypeInt4}, pgerr.NumericValueOutOfRange},
		{&Neg{E: i(math.MinInt64)}, pgerr.NumericValueOutOfRange},
	}
	for _, c := range cases {
		_, err := c.e.Eval(&EvalContext{}, nil)
		if got := pgerr.CodeOf(err); got != c.code {
			t.Errorf("%s: SQLSTATE %s (%v), want %s", c.e, got, err, c.code)
		}
	}
	v, err := (&Binary{Op: OpDiv, L: i(-7), R: i(2), Typ: sqltypes.TypeInt8}).Eval(nil, nil)
	if err != nil || v.I != -3 {
		t.Errorf("-7 / 2 = %v, %v; want -3 (truncation)", v, err)
	}
	v, err = (&Binary{Op: OpMod, L: i(-7), R: i(2), Typ: sqltypes.TypeInt8}).Eval(nil, nil)
	if err != nil || v.I != -1 {
		t.Errorf("-7 %% 2 = %v, %v; want -1", v, err)
	}
}
