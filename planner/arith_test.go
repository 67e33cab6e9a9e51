package planner

import (
	"math"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// arith binds l op r as the binder does (operator resolution, casts,
// folding) and evaluates it.
func arith(op ir.BinOp, l, r ir.Expr) (sqltypes.Value, error) {
	var e ir.Expr
	var err error
	if op == ir.OpSub && l == nil {
		e, err = (&Binder{}).bindNeg(r)
	} else {
		e, err = (&Binder{}).bindArith(op, l, r)
	}
	if err != nil {
		return sqltypes.Null, err
	}
	return e.Eval(&ir.EvalContext{}, nil)
}

func TestArithmetic(t *testing.T) {
	i8 := func(v int64) ir.Expr { return &ir.Const{V: sqltypes.NewInt(v), Typ: sqltypes.TypeInt8} }
	i4 := func(v int64) ir.Expr { return &ir.Const{V: sqltypes.NewInt(v), Typ: sqltypes.TypeInt4} }
	i2 := func(v int64) ir.Expr { return &ir.Const{V: sqltypes.NewInt(v), Typ: sqltypes.TypeInt2} }
	f8 := func(v float64) ir.Expr { return &ir.Const{V: sqltypes.NewFloat(v), Typ: sqltypes.TypeFloat8} }
	num := func(s string) ir.Expr {
		v, err := sqltypes.ParseNumeric(s)
		if err != nil {
			t.Fatal(err)
		}
		return &ir.Const{V: v, Typ: sqltypes.TypeNumeric}
	}
	lit := func(s string) ir.Expr { return &ir.Const{V: sqltypes.NewText(s), Typ: sqltypes.TypeUnknown} }
	typed := func(s string, typ sqltypes.Type) ir.Expr {
		v, err := sqltypes.ParseText(typ, s)
		if err != nil {
			t.Fatal(err)
		}
		return &ir.Const{V: v, Typ: typ}
	}
	cases := []struct {
		op   ir.BinOp
		l, r ir.Expr
		want string // the result's text, or the SQLSTATE of its error
	}{
		{ir.OpAdd, i8(math.MaxInt64), i8(1), pgerr.NumericValueOutOfRange.String()},
		{ir.OpSub, i8(math.MinInt64), i8(1), pgerr.NumericValueOutOfRange.String()},
		{ir.OpMul, i8(math.MaxInt64 / 2), i8(3), pgerr.NumericValueOutOfRange.String()},
		{ir.OpDiv, i8(math.MinInt64), i8(-1), pgerr.NumericValueOutOfRange.String()},
		{ir.OpDiv, i8(1), i8(0), pgerr.DivisionByZero.String()},
		{ir.OpMod, i8(1), i8(0), pgerr.DivisionByZero.String()},
		{ir.OpAdd, i4(math.MaxInt32), i4(1), pgerr.NumericValueOutOfRange.String()},
		{ir.OpAdd, i2(32767), i2(1), pgerr.NumericValueOutOfRange.String()},
		{ir.OpAdd, i2(32767), i4(1), "32768"}, // int2 + int4 is int4
		{ir.OpSub, nil, i8(math.MinInt64), pgerr.NumericValueOutOfRange.String()},
		{ir.OpSub, nil, i2(-32768), pgerr.NumericValueOutOfRange.String()},
		{ir.OpDiv, i8(-7), i8(2), "-3"}, // truncation
		{ir.OpMod, i8(-7), i8(2), "-1"},
		{ir.OpMod, i8(math.MinInt64), i8(-1), "0"},
		{ir.OpAdd, num("1.5"), i4(1), "2.5"},
		{ir.OpMul, num("1.50"), num("2"), "3.00"},
		{ir.OpDiv, num("1"), num("3"), "0.33333333333333333333"},
		{ir.OpDiv, num("1"), num("0"), pgerr.DivisionByZero.String()},
		{ir.OpMod, num("10.5"), i4(3), "1.5"},
		{ir.OpAdd, num("1.5"), f8(1), "2.5"}, // numeric meets float8 as float8
		{ir.OpMod, f8(1), f8(2), pgerr.UndefinedFunction.String()},
		{ir.OpDiv, f8(1), f8(0), pgerr.DivisionByZero.String()},
		{ir.OpMul, f8(1e300), f8(1e300), pgerr.NumericValueOutOfRange.String()},
		{ir.OpMul, f8(1e-300), f8(1e-300), pgerr.NumericValueOutOfRange.String()},
		{ir.OpPow, i4(2), i4(10), "1024"},
		{ir.OpPow, num("2.0"), i4(3), "8.0000000000000000"},
		{ir.OpPow, i4(0), i4(-1), pgerr.InvalidArgumentForPowerFunction.String()},
		{ir.OpPow, f8(-8), f8(0.5), pgerr.InvalidArgumentForPowerFunction.String()},
		{ir.OpAdd, typed("2024-01-31", sqltypes.TypeDate), i4(1), "2024-02-01"},
		{ir.OpSub, typed("2024-03-01", sqltypes.TypeDate), typed("2024-02-01", sqltypes.TypeDate), "29"},
		{ir.OpAdd, typed("2024-01-31", sqltypes.TypeDate), typed("1 month", sqltypes.TypeInterval), "2024-02-29 00:00:00"},
		{ir.OpAdd, typed("2024-01-31", sqltypes.TypeDate), lit("1 month"), pgerr.AmbiguousFunction.String()},
		{ir.OpSub, typed("2024-01-31", sqltypes.TypeDate), lit("1 month"), pgerr.InvalidDatetimeFormat.String()}, // date - date
		{ir.OpSub, typed("2024-01-02 00:00", sqltypes.TypeTimestamp), lit("2024-01-01 12:00"), "12:00:00"},
		{ir.OpAdd, typed("2024-01-01 10:00", sqltypes.TypeTimestamp), lit("1 day 2 hours"), "2024-01-02 12:00:00"},
		{ir.OpMul, typed("1 day 2 hours", sqltypes.TypeInterval), num("1.5"), "1 day 15:00:00"},
		{ir.OpDiv, typed("1 day", sqltypes.TypeInterval), i4(0), pgerr.DivisionByZero.String()},
		{ir.OpSub, nil, typed("1 day -2 hours", sqltypes.TypeInterval), "-1 days +02:00:00"},
		{ir.OpAdd, typed("2024-01-01", sqltypes.TypeDate), typed("2024-01-01", sqltypes.TypeDate), pgerr.UndefinedFunction.String()},
		{ir.OpAdd, lit("1"), lit("2"), pgerr.AmbiguousFunction.String()},
		{ir.OpAdd, typed("x", sqltypes.TypeText), i4(1), pgerr.UndefinedFunction.String()},
	}
	for _, c := range cases {
		v, err := arith(c.op, c.l, c.r)
		got := ""
		if err != nil {
			got = pgerr.CodeOf(err).String()
		} else {
			got = sqltypes.FormatText(v)
		}
		if got != c.want {
			t.Errorf("%v %s %v = %s (%v), want %s", c.l, c.op, c.r, got, err, c.want)
		}
	}
}
