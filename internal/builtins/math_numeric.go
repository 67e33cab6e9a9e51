package builtins

import (
	"math"
	"math/big"

	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// gcd, lcm, factorial, min_scale and trim_scale, with PostgreSQL's
// overloads (integer, bigint and numeric for gcd and lcm; note that
// PostgreSQL has no smallint form, so gcd(smallint, smallint) is
// ambiguous there and here) and errors.

// factorialMax is the largest n whose factorial fits numeric's 131072
// digits before the point (PostgreSQL's numeric_fac refuses larger ones).
const factorialMax = 32177

func init() {
	for _, t := range []sqltypes.Type{tInt4, tInt8} {
		t := t
		Register("gcd", Overload{Params: []Param{T(t), T(t)}, Result: Returns(t), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return gcdInt(a[0].I, a[1].I, t)
		}})
		Register("lcm", Overload{Params: []Param{T(t), T(t)}, Result: Returns(t), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return lcmInt(a[0].I, a[1].I, t)
		}})
	}
	Register("gcd", num2Fn(tNumeric, gcdNumeric))
	Register("lcm", num2Fn(tNumeric, lcmNumeric))
	Register("factorial", Overload{Params: []Param{T(tInt8)}, Result: Returns(tNumeric), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return factorial(a[0].I)
	}})
	Register("min_scale", Overload{Params: []Param{T(tNumeric)}, Result: Returns(tInt4), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		d := a[0].Numeric()
		if d.Form != apd.Finite {
			return sqltypes.Null, nil
		}
		return sqltypes.NewInt(int64(minScale(d))), nil
	}})
	Register("trim_scale", numFn(func(v sqltypes.Value) (sqltypes.Value, error) {
		d := v.Numeric()
		if d.Form != apd.Finite {
			return v, nil
		}
		return sqltypes.RoundNumeric(v, minScale(d))
	}))
}

// gcdInt is the greatest common divisor of two integers of type t, never
// negative: gcd(minimum, 0) and gcd(minimum, minimum) are out of range,
// as their answer is minus the minimum.
func gcdInt(a, b int64, t sqltypes.Type) (sqltypes.Value, error) {
	// Euclid on non-positive numbers, which cannot overflow.
	if a > 0 {
		a = -a
	}
	if b > 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	if a == math.MinInt64 {
		return sqltypes.Null, intOverflow(t)
	}
	return sqltypes.CheckRange(t, sqltypes.NewInt(-a))
}

// lcmInt is the least common multiple, |a / gcd(a, b) * b|.
func lcmInt(a, b int64, t sqltypes.Type) (sqltypes.Value, error) {
	if a == 0 || b == 0 {
		return sqltypes.NewInt(0), nil
	}
	g, err := gcdInt(a, b, sqltypes.TypeInt8)
	if err != nil || a == math.MinInt64 || b == math.MinInt64 {
		return sqltypes.Null, intOverflow(t)
	}
	p, err := IntArith('*', a/g.I, b, t)
	if err != nil {
		return sqltypes.Null, err
	}
	if p.I < 0 {
		return IntArith('-', 0, p.I, t)
	}
	return p, nil
}

// gcdNumeric is gcd of numerics, integral or not (the largest positive
// number both are whole multiples of), with the larger of the scales.
// NaN and infinities give NaN.
func gcdNumeric(x, y sqltypes.Value) (sqltypes.Value, error) {
	if x.Numeric().Form != apd.Finite || y.Numeric().Form != apd.Finite {
		return sqltypes.NumericNaN(), nil
	}
	scale := max(numericScale(x), numericScale(y))
	a, b := sqltypes.AbsNumeric(x), sqltypes.AbsNumeric(y)
	for !b.Numeric().IsZero() {
		r, err := sqltypes.ModNumeric(a, b)
		if err != nil {
			return sqltypes.Null, err
		}
		a, b = b, r
	}
	return sqltypes.RoundNumeric(a, scale)
}

// lcmNumeric is |x| / gcd(x, y) * |y|, with the larger of the scales; 0
// when either is 0.
func lcmNumeric(x, y sqltypes.Value) (sqltypes.Value, error) {
	if x.Numeric().Form != apd.Finite || y.Numeric().Form != apd.Finite {
		return sqltypes.NumericNaN(), nil
	}
	scale := max(numericScale(x), numericScale(y))
	if x.Numeric().IsZero() || y.Numeric().IsZero() {
		return sqltypes.RoundNumeric(sqltypes.NumericFromInt(0), scale)
	}
	g, err := gcdNumeric(x, y)
	if err != nil {
		return sqltypes.Null, err
	}
	q, err := sqltypes.DivNumeric(sqltypes.AbsNumeric(x), g)
	if err != nil {
		return sqltypes.Null, err
	}
	if q, err = sqltypes.TruncNumeric(q, 0); err != nil { // whole already
		return sqltypes.Null, err
	}
	p, err := sqltypes.MulNumeric(q, sqltypes.AbsNumeric(y))
	if err != nil {
		return sqltypes.Null, err
	}
	return sqltypes.RoundNumeric(p, scale)
}

func numericScale(v sqltypes.Value) int {
	s, _ := sqltypes.NumericScale(v)
	return s
}

// minScale is the fewest decimal places that represent a finite d
// exactly.
func minScale(d *apd.Decimal) int {
	if d.Coeff.Sign() == 0 || d.Exponent >= 0 {
		return 0
	}
	var c, r big.Int
	c.Set(d.Coeff.MathBigInt())
	ten := big.NewInt(10)
	scale := int(-d.Exponent)
	for scale > 0 {
		var q big.Int
		q.QuoRem(&c, ten, &r)
		if r.Sign() != 0 {
			break
		}
		c.Set(&q)
		scale--
	}
	return scale
}

// factorial is n! as a numeric.
func factorial(n int64) (sqltypes.Value, error) {
	switch {
	case n < 0:
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "factorial of a negative number is undefined")
	case n > factorialMax:
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value overflows numeric format")
	}
	p := new(big.Int).MulRange(1, n)
	if n == 0 {
		p.SetInt64(1)
	}
	d := new(apd.Decimal)
	d.Coeff.SetMathBigInt(p)
	return sqltypes.NewNumeric(d), nil
}
