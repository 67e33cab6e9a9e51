package builtins

import (
	"math"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// money's operators and functions (PostgreSQL 15's cash.c): sums and
// differences of amounts, products and quotients with integers and
// floats (the float ones rounded to the nearest cent, half to even as
// rint does), the ratio of two amounts as a float, comparisons (bound by
// the planner on sqltypes.Compare), cash_words, cashlarger and
// cashsmaller. Every result that leaves int64 is 22003 "money out of
// range"; a zero divisor is 22012.

var tMoney = sqltypes.Type{ID: sqltypes.Money}

// moneyAdd is cash_pl and cash_mi (sign -1).
func moneyAdd(a, b int64, sign int64) (sqltypes.Value, error) {
	if sign < 0 {
		if b == math.MinInt64 {
			if a >= 0 {
				return sqltypes.Null, sqltypes.ErrMoneyOutOfRange()
			}
			return sqltypes.NewMoney(a - b), nil
		}
		b = -b
	}
	s := a + b
	if (s > a) != (b > 0) {
		return sqltypes.Null, sqltypes.ErrMoneyOutOfRange()
	}
	return sqltypes.NewMoney(s), nil
}

// moneyMulInt is cash_mul_int8 and its kin.
func moneyMulInt(c, i int64) (sqltypes.Value, error) {
	if c != 0 && i != 0 {
		p := c * i
		if p/i != c || (c == -1 && i == math.MinInt64) || (i == -1 && c == math.MinInt64) {
			return sqltypes.Null, sqltypes.ErrMoneyOutOfRange()
		}
		return sqltypes.NewMoney(p), nil
	}
	return sqltypes.NewMoney(0), nil
}

// moneyFromFloat is float8's result as money: rounded half to even, in
// range or 22003 (NaN included).
func moneyFromFloat(f float64) (sqltypes.Value, error) {
	f = math.RoundToEven(f)
	if math.IsNaN(f) || f < -9.223372036854775808e18 || f >= 9.223372036854775807e18 {
		return sqltypes.Null, sqltypes.ErrMoneyOutOfRange()
	}
	return sqltypes.NewMoney(int64(f)), nil
}

func init() {
	mm := func(op string, f func(a, b int64) (sqltypes.Value, error)) {
		RegisterOperator(op, binop(tMoney, tMoney, tMoney, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return f(a.I, b.I)
		}))
	}
	mm("+", func(a, b int64) (sqltypes.Value, error) { return moneyAdd(a, b, 1) })
	mm("-", func(a, b int64) (sqltypes.Value, error) { return moneyAdd(a, b, -1) })
	RegisterOperator("/", binop(tMoney, tMoney, tFloat8, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		if b.I == 0 {
			return sqltypes.Null, errDivisionByZero()
		}
		return sqltypes.NewFloat(float64(a.I) / float64(b.I)), nil
	}))
	for _, t := range []sqltypes.Type{tInt2, tInt4, tInt8} {
		moneyScalar(t, func(c int64, x sqltypes.Value) (sqltypes.Value, error) { return moneyMulInt(c, x.I) },
			func(c int64, x sqltypes.Value) (sqltypes.Value, error) {
				if x.I == 0 {
					return sqltypes.Null, errDivisionByZero()
				}
				if x.I == -1 && c == math.MinInt64 {
					return sqltypes.Null, sqltypes.ErrMoneyOutOfRange()
				}
				return sqltypes.NewMoney(c / x.I), nil // truncated, as C divides
			})
	}
	for _, t := range []sqltypes.Type{tFloat4, tFloat8} {
		// A real is already a float8 of float4's value: cash_mul_flt4
		// widens it and computes in double precision too.
		moneyScalar(t, func(c int64, x sqltypes.Value) (sqltypes.Value, error) { return moneyFromFloat(float64(c) * x.F) },
			func(c int64, x sqltypes.Value) (sqltypes.Value, error) {
				if x.F == 0 {
					return sqltypes.Null, errDivisionByZero()
				}
				return moneyFromFloat(float64(c) / x.F)
			})
	}

	Register("cash_words", Overload{Params: []Param{T(tMoney)}, Result: Returns(tText),
		Doc: "the amount in English words",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewText(sqltypes.CashWords(a[0].I)), nil
		}})
	pick := func(name, doc string, larger bool) {
		Register(name, Overload{Params: []Param{T(tMoney), T(tMoney)}, Result: Returns(tMoney), Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				if (a[0].I > a[1].I) == larger {
					return a[0], nil
				}
				return a[1], nil
			}})
	}
	pick("cashlarger", "the larger of two amounts", true)
	pick("cashsmaller", "the smaller of two amounts", false)
}

// moneyScalar registers money * t, t * money (mul of the cents and the
// t operand) and money / t.
func moneyScalar(t sqltypes.Type, mul, div func(c int64, x sqltypes.Value) (sqltypes.Value, error)) {
	RegisterOperator("*",
		binop(tMoney, t, tMoney, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return mul(a.I, b) }),
		binop(t, tMoney, tMoney, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return mul(b.I, a) }))
	RegisterOperator("/", binop(tMoney, t, tMoney, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		return div(a.I, b)
	}))
}
