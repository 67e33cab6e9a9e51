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

// arith binds l op r as the binder does (operator resolution, casts,
// folding) and evaluates it.
func arith(op BinOp, l, r Expr) (sqltypes.Value, error) {
	var e Expr
	var err error
	if op == OpSub && l == nil {
		e, err = (&Binder{}).bindNeg(r)
	} else {
		e, err = (&Binder{}).bindArith(op, l, r)
	}
	if err != nil {
		return sqltypes.Null, err
	}
	return e.Eval(&EvalContext{}, nil)
}

func TestArithmetic(t *testing.T) {
	i8 := func(v int64) Expr { return &Const{V: sqltypes.NewInt(v), Typ: sqltypes.TypeInt8} }
	i4 := func(v int64) Expr { return &Const{V: sqltypes.NewInt(v), Typ: sqltypes.TypeInt4} }
	i2 := func(v int64) Expr { return &Const{V: sqltypes.NewInt(v), Typ: sqltypes.TypeInt2} }
	f8 := func(v float64) Expr { return &Const{V: sqltypes.NewFloat(v), Typ: sqltypes.TypeFloat8} }
	num := func(s string) Expr {
		v, err := sqltypes.ParseNumeric(s)
		if err != nil {
			t.Fatal(err)
		}
		return &Const{V: v, Typ: sqltypes.TypeNumeric}
	}
	lit := func(s string) Expr { return &Const{V: sqltypes.NewText(s), Typ: sqltypes.TypeUnknown} }
	typed := func(s string, typ sqltypes.Type) Expr {
		v, err := sqltypes.ParseText(typ, s)
		if err != nil {
			t.Fatal(err)
		}
		return &Const{V: v, Typ: typ}
	}
	cases := []struct {
		op   BinOp
		l, r Expr
		want string // the result's text, or the SQLSTATE of its error
	}{
		{OpAdd, i8(math.MaxInt64), i8(1), pgerr.NumericValueOutOfRange},
		{OpSub, i8(math.MinInt64), i8(1), pgerr.NumericValueOutOfRange},
		{OpMul, i8(math.MaxInt64 / 2), i8(3), pgerr.NumericValueOutOfRange},
		{OpDiv, i8(math.MinInt64), i8(-1), pgerr.NumericValueOutOfRange},
		{OpDiv, i8(1), i8(0), pgerr.DivisionByZero},
		{OpMod, i8(1), i8(0), pgerr.DivisionByZero},
		{OpAdd, i4(math.MaxInt32), i4(1), pgerr.NumericValueOutOfRange},
		{OpAdd, i2(32767), i2(1), pgerr.NumericValueOutOfRange},
		{OpAdd, i2(32767), i4(1), "32768"}, // int2 + int4 is int4
		{OpSub, nil, i8(math.MinInt64), pgerr.NumericValueOutOfRange},
		{OpSub, nil, i2(-32768), pgerr.NumericValueOutOfRange},
		{OpDiv, i8(-7), i8(2), "-3"}, // truncation
		{OpMod, i8(-7), i8(2), "-1"},
		{OpMod, i8(math.MinInt64), i8(-1), "0"},
		{OpAdd, num("1.5"), i4(1), "2.5"},
		{OpMul, num("1.50"), num("2"), "3.00"},
		{OpDiv, num("1"), num("3"), "0.33333333333333333333"},
		{OpDiv, num("1"), num("0"), pgerr.DivisionByZero},
		{OpMod, num("10.5"), i4(3), "1.5"},
		{OpAdd, num("1.5"), f8(1), "2.5"}, // numeric meets float8 as float8
		{OpMod, f8(1), f8(2), pgerr.UndefinedFunction},
		{OpDiv, f8(1), f8(0), pgerr.DivisionByZero},
		{OpMul, f8(1e300), f8(1e300), pgerr.NumericValueOutOfRange},
		{OpMul, f8(1e-300), f8(1e-300), pgerr.NumericValueOutOfRange},
		{OpPow, i4(2), i4(10), "1024"},
		{OpPow, num("2.0"), i4(3), "8.0000000000000000"},
		{OpPow, i4(0), i4(-1), pgerr.InvalidArgumentForPowerFunction},
		{OpPow, f8(-8), f8(0.5), pgerr.InvalidArgumentForPowerFunction},
		{OpAdd, typed("2024-01-31", sqltypes.TypeDate), i4(1), "2024-02-01"},
		{OpSub, typed("2024-03-01", sqltypes.TypeDate), typed("2024-02-01", sqltypes.TypeDate), "29"},
		{OpAdd, typed("2024-01-31", sqltypes.TypeDate), typed("1 month", sqltypes.TypeInterval), "2024-02-29 00:00:00"},
		{OpAdd, typed("2024-01-31", sqltypes.TypeDate), lit("1 month"), pgerr.AmbiguousFunction},
		{OpSub, typed("2024-01-31", sqltypes.TypeDate), lit("1 month"), pgerr.InvalidDatetimeFormat}, // date - date
		{OpSub, typed("2024-01-02 00:00", sqltypes.TypeTimestamp), lit("2024-01-01 12:00"), "12:00:00"},
		{OpAdd, typed("2024-01-01 10:00", sqltypes.TypeTimestamp), lit("1 day 2 hours"), "2024-01-02 12:00:00"},
		{OpMul, typed("1 day 2 hours", sqltypes.TypeInterval), num("1.5"), "1 day 15:00:00"},
		{OpDiv, typed("1 day", sqltypes.TypeInterval), i4(0), pgerr.DivisionByZero},
		{OpSub, nil, typed("1 day -2 hours", sqltypes.TypeInterval), "-1 days +02:00:00"},
		{OpAdd, typed("2024-01-01", sqltypes.TypeDate), typed("2024-01-01", sqltypes.TypeDate), pgerr.UndefinedFunction},
		{OpAdd, lit("1"), lit("2"), pgerr.AmbiguousFunction},
		{OpAdd, typed("x", sqltypes.TypeText), i4(1), pgerr.UndefinedFunction},
	}
	for _, c := range cases {
		v, err := arith(c.op, c.l, c.r)
		got := ""
		if err != nil {
			got = pgerr.CodeOf(err)
		} else {
			got = sqltypes.FormatText(v)
		}
		if got != c.want {
			t.Errorf("%v %s %v = %s (%v), want %s", c.l, c.op, c.r, got, err, c.want)
		}
	}
}

// TestWalkOrder checks Walk's in-place child pushes against the order
// Children gives: parents first, children left to right, nil ones skipped,
// over every kind of expression with children, nested past Walk's own
// stack.
func TestWalkOrder(t *testing.T) {
	leaf := func(i int) Expr { return &ColRef{Index: i} }
	n := 0
	next := func() Expr { n++; return leaf(n) }
	var deep Expr = next()
	for i := 0; i < 40; i++ {
		deep = &Binary{Op: "+", L: deep, R: &Not{E: next()}}
	}
	e := &Func{Name: "f", Args: []Expr{
		&InList{E: next(), List: []Expr{next(), &Neg{E: next()}, nil, next()}},
		&Like{E: next(), Pattern: &Cast{E: next()}},
		&IsNull{E: &RowExpr{Items: []Expr{next(), next()}}},
		&Subquery{Left: next()}, &Subquery{},
		deep,
	}}
	var want []Expr
	var ref func(Expr)
	ref = func(x Expr) {
		want = append(want, x)
		for _, k := range Children(x) {
			if k != nil {
				ref(k)
			}
		}
	}
	ref(e)
	var got []Expr
	Walk(e, func(x Expr) { got = append(got, x) })
	if len(got) != len(want) {
		t.Fatalf("Walk visited %d expressions, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("Walk's visit %d is %#v, want %#v", i, got[i], want[i])
		}
	}
}
