package builtins

import (
	"math"
	"sync"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The trigonometric functions as PostgreSQL defines them over double
// precision (float.c): the radian forms around the correctly rounded
// functions of trig.go, and the degree forms by PostgreSQL's own
// reductions, which make sind(30) exactly 0.5 and tand(45) exactly 1.

func inputOutOfRange() error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "input is out of range")
}

// floatCheck is PostgreSQL's check_float8_val.
func floatCheck(r float64, infOK, zeroOK bool) (sqltypes.Value, error) {
	if math.IsInf(r, 0) && !infOK {
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
	}
	if r == 0 && !zeroOK {
		return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
	}
	return sqltypes.NewFloat(r), nil
}

// trigFn is a double precision function of one argument: NaN gives NaN,
// bad reports an argument out of its domain, and the result is checked
// as check_float8_val(result, infOK, true) checks it.
func trigFn(f func(float64) float64, bad func(float64) bool, infOK bool) Overload {
	return Overload{Params: []Param{float8}, Result: Returns(tFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		x := a[0].F
		if math.IsNaN(x) {
			return a[0], nil
		}
		if bad != nil && bad(x) {
			return sqltypes.Null, inputOutOfRange()
		}
		return floatCheck(f(x), infOK, true)
	}}
}

func trig2Fn(f func(y, x float64) float64) Overload {
	return Overload{Params: []Param{float8, float8}, Result: Returns(tFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return floatCheck(f(a[0].F, a[1].F), false, true)
	}}
}

func init() {
	infinite := func(x float64) bool { return math.IsInf(x, 0) }
	outsideUnit := func(x float64) bool { return x < -1 || x > 1 }
	Register("sin", trigFn(crSin, infinite, false))
	Register("cos", trigFn(crCos, infinite, false))
	Register("tan", trigFn(crTan, infinite, true))
	Register("cot", trigFn(func(x float64) float64 { return 1 / crTan(x) }, infinite, true))
	Register("asin", trigFn(crAsin, outsideUnit, false))
	Register("acos", trigFn(crAcos, outsideUnit, false))
	Register("atan", trigFn(crAtan, nil, false))
	Register("atan2", trig2Fn(crAtan2))
	Register("sinh", trigFn(crSinh, nil, true))
	Register("cosh", trigFn(crCosh, nil, true))
	Register("tanh", trigFn(crTanh, nil, false))
	Register("asinh", trigFn(crAsinh, nil, true))
	Register("acosh", trigFn(crAcosh, func(x float64) bool { return x < 1 }, true))
	Register("atanh", trigFn(crAtanh, outsideUnit, true))

	Register("sind", trigFn(sind, infinite, false))
	Register("cosd", trigFn(cosd, infinite, false))
	Register("tand", trigFn(tand, infinite, true))
	Register("cotd", trigFn(cotd, infinite, true))
	Register("asind", trigFn(func(x float64) float64 {
		if x >= 0 {
			return asindQ1(x)
		}
		return -asindQ1(-x)
	}, outsideUnit, false))
	Register("acosd", trigFn(func(x float64) float64 {
		if x >= 0 {
			return acosdQ1(x)
		}
		return 90 + asindQ1(-x)
	}, outsideUnit, false))
	Register("atand", trigFn(func(x float64) float64 { return crAtan(x) / degreeConsts().atan1 * 45 }, nil, false))
	Register("atan2d", trig2Fn(func(y, x float64) float64 { return crAtan2(y, x) / degreeConsts().atan1 * 45 }))
}

// radiansPerDegree is PostgreSQL's RADIANS_PER_DEGREE, a rounded literal
// (not pi/180 computed exactly, which can differ in the last bit).
const radiansPerDegree = 0.0174532925199432957692

// degreeConstants are the scale factors of the degree functions, computed
// (as PostgreSQL computes them at run time) with the same functions.
type degreeConstants struct {
	sin30, oneMinusCos60, asinHalf, acosHalf, atan1, tan45, cot45 float64
}

var degreeConsts = sync.OnceValue(func() degreeConstants {
	// Variables, not constants: Go computes constant expressions such as
	// 30 * radiansPerDegree exactly, where the functions multiply in
	// double precision, and the scale factors must match them.
	thirty, sixty := 30.0, 60.0
	d := degreeConstants{
		sin30:         crSin(thirty * radiansPerDegree),
		oneMinusCos60: 1 - crCos(sixty*radiansPerDegree),
		asinHalf:      crAsin(0.5),
		acosHalf:      crAcos(0.5),
		atan1:         crAtan(1),
	}
	d.tan45 = sindQ1(45, d) / cosdQ1(45, d)
	d.cot45 = cosdQ1(45, d) / sindQ1(45, d)
	return d
})

func sind0To30(x float64, c degreeConstants) float64 {
	return crSin(x*radiansPerDegree) / c.sin30 / 2
}

func cosd0To60(x float64, c degreeConstants) float64 {
	oneMinusCos := 1 - crCos(x*radiansPerDegree)
	return 1 - float64(oneMinusCos/c.oneMinusCos60/2)
}

// sindQ1 and cosdQ1 are sine and cosine in the first quadrant, stitched
// from the two ranges whose ends are exact.
func sindQ1(x float64, c degreeConstants) float64 {
	if x <= 30 {
		return sind0To30(x, c)
	}
	return cosd0To60(90-x, c)
}

func cosdQ1(x float64, c degreeConstants) float64 {
	if x <= 60 {
		return cosd0To60(x, c)
	}
	return sind0To30(90-x, c)
}

func asindQ1(x float64) float64 {
	c := degreeConsts()
	if x <= 0.5 {
		return crAsin(x) / c.asinHalf * 30
	}
	return 90 - float64(crAcos(x)/c.acosHalf*60) // no fused multiply-add
}

func acosdQ1(x float64) float64 {
	c := degreeConsts()
	if x <= 0.5 {
		return 90 - float64(crAsin(x)/c.asinHalf*30)
	}
	return crAcos(x) / c.acosHalf * 60
}

// quadrant1 reduces an angle in degrees to [0, 90], returning the signs
// the sine and the cosine take there.
func quadrant1(x float64) (q float64, sinSign, cosSign float64) {
	x = math.Mod(x, 360)
	sinSign, cosSign = 1, 1
	if x < 0 {
		x, sinSign = -x, -1
	}
	if x > 180 {
		x, sinSign = 360-x, -sinSign
	}
	if x > 90 {
		x, cosSign = 180-x, -1
	}
	return x, sinSign, cosSign
}

func sind(x float64) float64 {
	q, s, _ := quadrant1(x)
	return s * sindQ1(q, degreeConsts())
}

func cosd(x float64) float64 {
	q, _, c := quadrant1(x)
	return c * cosdQ1(q, degreeConsts())
}

func tand(x float64) float64 {
	q, s, c := quadrant1(x)
	d := degreeConsts()
	r := s * c * (sindQ1(q, d) / cosdQ1(q, d) / d.tan45)
	if r == 0 {
		return 0 // never minus zero
	}
	return r
}

func cotd(x float64) float64 {
	q, s, c := quadrant1(x)
	d := degreeConsts()
	r := s * c * (cosdQ1(q, d) / sindQ1(q, d) / d.cot45)
	if r == 0 {
		return 0
	}
	return r
}
