package builtins

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Mathematical functions with PostgreSQL's overloads: a double precision
// form computed with Go's math package (checked for overflow and underflow
// as PostgreSQL checks its libm results) and, where PostgreSQL has one, an
// exact numeric form computed with the numeric helpers of sqltypes.

// SQLSTATEs pgerr has no name for.
const ()

// Random is a session's generator for random(), which setseed seeds: after
// setseed(x) the session's random() values are PostgreSQL 15's for the
// same x (its pg_prng: xoroshiro128** seeded through splitmix64, doubles
// from the top 52 bits), so a script that seeds gets PostgreSQL's numbers.
// The zero Random, and a nil one, draw from the process's generator until
// seeded. Statements may evaluate random() on several goroutines, hence
// the lock.
type Random struct {
	mu     sync.Mutex
	seeded bool
	s0, s1 uint64
}

// Float64 returns the next value in [0, 1).
func (g *Random) Float64() float64 {
	if g == nil {
		return rand.Float64()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.seeded {
		return rand.Float64()
	}
	// xoroshiro128**, as pg_prng_double draws it.
	s0 := g.s0
	sx := g.s1 ^ s0
	v := bits.RotateLeft64(s0*5, 7) * 9
	g.s0 = bits.RotateLeft64(s0, 24) ^ sx ^ (sx << 16)
	g.s1 = bits.RotateLeft64(sx, 37)
	return math.Ldexp(float64(v>>(64-52)), -52)
}

// Seed restarts the sequence from seed in [-1, 1] as PostgreSQL's
// setseed does (pg_prng_fseed: the seed scaled to 52 bits, the state
// drawn from it with splitmix64).
func (g *Random) Seed(seed float64) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	state := uint64(int64(float64(uint64(1)<<52-1) * seed))
	splitmix := func() uint64 {
		state += 0x9E3779B97F4A7C15
		v := state
		v = (v ^ v>>30) * 0xBF58476D1CE4E5B9
		v = (v ^ v>>27) * 0x94D049BB133111EB
		return v ^ v>>31
	}
	g.s0 = splitmix()
	g.s1 = splitmix()
	if g.s0 == 0 && g.s1 == 0 {
		// pg_prng_seed_check's fallback for an all-zero state.
		g.s0, g.s1 = 0x5851F42D4C957F2D, 0x14057B7EF767814F
	}
	g.seeded = true
}

func numFn(f func(sqltypes.Value) (sqltypes.Value, error)) Overload {
	return Overload{Params: []Param{T(tNumeric)}, Result: Returns(tNumeric),
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a[0]) }}
}

func num2Fn(res sqltypes.Type, f func(a, b sqltypes.Value) (sqltypes.Value, error)) Overload {
	return Overload{Params: []Param{T(tNumeric), T(tNumeric)}, Result: Returns(res),
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a[0], a[1]) }}
}

// checkedFloatFn lifts a double precision function whose finite
// arguments must give a finite, nonzero-unless-zero-is-right result.
func checkedFloatFn(f func(float64) float64, zeroOK func(x float64) bool) Overload {
	return Overload{Params: []Param{float8}, Result: Returns(tFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		x := a[0].F
		r := f(x)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) {
			return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
		}
		if r == 0 && !zeroOK(x) {
			return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
		}
		return sqltypes.NewFloat(r), nil
	}}
}

func init() {
	Register("abs", numFn(func(v sqltypes.Value) (sqltypes.Value, error) { return sqltypes.AbsNumeric(v), nil }))
	// round and trunc of numeric: half away from zero, and toward zero.
	Register("round", numFn(func(v sqltypes.Value) (sqltypes.Value, error) { return sqltypes.RoundNumeric(v, 0) }),
		Overload{Params: []Param{T(tNumeric), T(tInt4)}, Result: Returns(tNumeric), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.RoundNumeric(a[0], int(a[1].I))
		}})
	Register("trunc", numFn(func(v sqltypes.Value) (sqltypes.Value, error) { return sqltypes.TruncNumeric(v, 0) }),
		Overload{Params: []Param{T(tNumeric), T(tInt4)}, Result: Returns(tNumeric), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.TruncNumeric(a[0], int(a[1].I))
		}})
	Register("ceil", numFn(sqltypes.CeilNumeric))
	Register("ceiling", numFn(sqltypes.CeilNumeric))
	Register("floor", numFn(sqltypes.FloorNumeric))
	Register("sign", numFn(func(v sqltypes.Value) (sqltypes.Value, error) { return sqltypes.SignNumeric(v), nil }),
		Overload{Params: []Param{float8}, Result: Returns(tFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			switch x := a[0].F; {
			case x > 0:
				return sqltypes.NewFloat(1), nil
			case x < 0:
				return sqltypes.NewFloat(-1), nil
			}
			return sqltypes.NewFloat(0), nil
		}})
	Register("sqrt", numFn(sqltypes.SqrtNumeric))
	Register("cbrt", checkedFloatFn(cbrt, func(x float64) bool { return x == 0 }))
	Register("exp", numFn(sqltypes.ExpNumeric),
		Overload{Params: []Param{float8}, Result: Returns(tFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			x := a[0].F
			switch {
			case math.IsNaN(x):
				return a[0], nil
			case math.IsInf(x, 1):
				return a[0], nil
			case math.IsInf(x, -1):
				return sqltypes.NewFloat(0), nil // per POSIX
			}
			r := crExp(x)
			if math.IsInf(r, 0) {
				return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
			}
			if r == 0 {
				return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")
			}
			return sqltypes.NewFloat(r), nil
		}})
	logFloat := func(f func(float64) float64) Overload {
		return Overload{Params: []Param{float8}, Result: Returns(tFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			x := a[0].F
			if x == 0 {
				return sqltypes.Null, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of zero")
			}
			if x < 0 {
				return sqltypes.Null, pgerr.New(pgerr.InvalidArgumentForLog, "cannot take logarithm of a negative number")
			}
			return sqltypes.NewFloat(f(x)), nil
		}}
	}
	log10 := numFn(func(v sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.LogNumeric(sqltypes.NumericFromInt(10), v)
	})
	Register("ln", logFloat(crLog), numFn(sqltypes.LnNumeric))
	Register("log", logFloat(glibcLog10), log10, num2Fn(tNumeric, sqltypes.LogNumeric))
	Register("log10", logFloat(glibcLog10), log10)
	pow := []Overload{
		{Params: []Param{float8, float8}, Result: Returns(tFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return powFloat(a[0].F, a[1].F)
		}},
		num2Fn(tNumeric, sqltypes.PowerNumeric),
	}
	Register("power", pow...)
	Register("pow", pow...)
	for _, t := range []sqltypes.Type{tInt2, tInt4, tInt8} {
		t := t
		Register("mod", Overload{Params: []Param{T(t), T(t)}, Result: Returns(t), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return IntArith('%', a[0].I, a[1].I, t)
		}})
	}
	Register("mod", num2Fn(tNumeric, sqltypes.ModNumeric))
	Register("div", num2Fn(tNumeric, divNumeric))
	Register("pi", Overload{Result: Returns(tFloat8), Eval: func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewFloat(math.Pi), nil
	}})
	Register("random", Overload{Result: Returns(tFloat8), Volatility: Volatile, Eval: func(c *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewFloat(c.Random.Float64()), nil
	}})
	Register("setseed", Overload{Params: []Param{float8}, Result: Returns(sqltypes.TypeVoid), Volatility: Volatile, Eval: func(c *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		seed := a[0].F
		if !(seed >= -1 && seed <= 1) {
			return sqltypes.Null, pgerr.New(pgerr.InvalidParameterValue, "setseed parameter %s is out of allowed range [-1,1]", strconv.FormatFloat(seed, 'g', 6, 64))
		}
		c.Random.Seed(seed)
		return sqltypes.NewText(""), nil
	}})
	Register("width_bucket",
		Overload{Params: []Param{float8, float8, float8, T(tInt4)}, Result: Returns(tInt4), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return widthBucketFloat(a[0].F, a[1].F, a[2].F, a[3].I)
		}},
		Overload{Params: []Param{T(tNumeric), T(tNumeric), T(tNumeric), T(tInt4)}, Result: Returns(tInt4), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return widthBucketNumeric(a[0], a[1], a[2], a[3].I)
		}})
	Register("scale", Overload{Params: []Param{T(tNumeric)}, Result: Returns(tInt4), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		s, ok := sqltypes.NumericScale(a[0])
		if !ok {
			return sqltypes.Null, nil
		}
		return sqltypes.NewInt(int64(s)), nil
	}})

	Register("degrees", Overload{Params: []Param{float8}, Result: Returns(tFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return FloatArith('/', a[0].F, radiansPerDegree, 64)
	}})
	Register("radians", Overload{Params: []Param{float8}, Result: Returns(tFloat8), Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return FloatArith('*', a[0].F, radiansPerDegree, 64)
	}})
}

// divNumeric is div(x, y): the integer quotient, truncated toward zero.
// The remainder is exact, and x - remainder divides by y exactly.
func divNumeric(a, b sqltypes.Value) (sqltypes.Value, error) {
	x, y := a.Numeric(), b.Numeric()
	if x.Form != apd.Finite || y.Form != apd.Finite {
		switch {
		case x.Form == apd.NaN || y.Form == apd.NaN:
			return sqltypes.NumericNaN(), nil
		case x.Form == apd.Infinite && y.Form == apd.Infinite:
			return sqltypes.NumericNaN(), nil
		case x.Form == apd.Infinite:
			if y.IsZero() {
				return sqltypes.Null, errDivisionByZero()
			}
			if x.Negative != y.Negative {
				return sqltypes.NumericNegInf(), nil
			}
			return sqltypes.NumericInf(), nil
		}
		return sqltypes.NumericFromInt(0), nil // finite / infinity
	}
	rem, err := sqltypes.ModNumeric(a, b)
	if err != nil {
		return sqltypes.Null, err
	}
	whole, err := sqltypes.SubNumeric(a, rem)
	if err != nil {
		return sqltypes.Null, err
	}
	return sqltypes.DivNumericScale(whole, b, 0)
}

func widthBucketArgs(count int64, nan, infinite, equal bool) error {
	switch {
	case count <= 0:
		return pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "count must be greater than zero")
	case nan:
		return pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "operand, lower bound, and upper bound cannot be NaN")
	case infinite:
		return pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "lower and upper bounds must be finite")
	case equal:
		return pgerr.New(pgerr.InvalidArgumentForWidthBucketFunction, "lower bound cannot equal upper bound")
	}
	return nil
}

// widthBucketFloat is width_bucket(operand, low, high, count) over doubles,
// as PostgreSQL's width_bucket_float8.
func widthBucketFloat(x, lo, hi float64, count int64) (sqltypes.Value, error) {
	if err := widthBucketArgs(count, math.IsNaN(x) || math.IsNaN(lo) || math.IsNaN(hi), math.IsInf(lo, 0) || math.IsInf(hi, 0), lo == hi); err != nil {
		return sqltypes.Null, err
	}
	var r int64
	switch {
	case lo < hi && x < lo, lo > hi && x > lo:
		r = 0
	case lo < hi && x >= hi, lo > hi && x <= hi:
		if count == math.MaxInt32 {
			return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
		}
		r = count + 1
	default:
		// PostgreSQL 15's formula, as it computes it: count·(x - lo) first,
		// and a quotient that is not a number (an overflowing span) or
		// out of range converts to the minimum integer, as C's cast does
		// on x86-64.
		a, b := x-lo, hi-lo
		if lo > hi {
			a, b = lo-x, lo-hi
		}
		q := float64(float64(count)*a)/b + 1
		if !(q > -2147483649 && q < 2147483648) {
			r = math.MinInt32
		} else {
			r = int64(q)
		}
	}
	return sqltypes.NewInt(r), nil
}

// widthBucketNumeric is width_bucket over numerics, computed exactly.
func widthBucketNumeric(x, lo, hi sqltypes.Value, count int64) (sqltypes.Value, error) {
	nan := func(v sqltypes.Value) bool { return v.Numeric().Form == apd.NaN }
	infinite := func(v sqltypes.Value) bool { return v.Numeric().Form == apd.Infinite }
	if err := widthBucketArgs(count, nan(x) || nan(lo) || nan(hi), infinite(lo) || infinite(hi), sqltypes.Compare(lo, hi) == 0); err != nil {
		return sqltypes.Null, err
	}
	asc := sqltypes.Compare(lo, hi) < 0
	below, above := sqltypes.Compare(x, lo) < 0, sqltypes.Compare(x, hi) >= 0
	if !asc {
		below, above = sqltypes.Compare(x, lo) > 0, sqltypes.Compare(x, hi) <= 0
	}
	switch {
	case below:
		return sqltypes.NewInt(0), nil
	case above:
		if count == math.MaxInt32 {
			return sqltypes.Null, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
		}
		return sqltypes.NewInt(count + 1), nil
	}
	// bucket = floor(count * (x - lo) / (hi - lo)) + 1, exactly: the
	// quotient's remainder is dropped by div.
	num, err := sqltypes.SubNumeric(x, lo)
	if err != nil {
		return sqltypes.Null, err
	}
	den, err := sqltypes.SubNumeric(hi, lo)
	if err != nil {
		return sqltypes.Null, err
	}
	if num, err = sqltypes.MulNumeric(num, sqltypes.NumericFromInt(count)); err != nil {
		return sqltypes.Null, err
	}
	q, err := divNumeric(num, den)
	if err != nil {
		return sqltypes.Null, err
	}
	b, err := sqltypes.NumericToInt(q, tInt8)
	if err != nil {
		return sqltypes.Null, err
	}
	return sqltypes.NewInt(b.I + 1), nil
}

// cbrt is glibc's cbrt, which PostgreSQL calls: its results are not always
// the nearest double (cbrt(27) is 3.0000000000000004), and PostgreSQL's
// output shows it. The explicit float64 conversions keep Go from fusing
// multiplications and additions, which C on amd64 does not do either.
func cbrt(x float64) float64 {
	// Typed variables: Go would divide the untyped constants exactly,
	// where C divides the rounded doubles.
	var cbrt2, sqrCbrt2 float64 = 1.2599210498948731648, 1.5874010519681994748
	factor := [5]float64{1.0 / sqrCbrt2, 1.0 / cbrt2, 1.0, cbrt2, sqrCbrt2}
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x + x
	}
	xm, xe := math.Frexp(math.Abs(x))
	u := float64(0.354895765043919860 + float64(float64(1.50819193781584896+float64(float64(-2.11499494167371287+float64(float64(2.44693122563534430+float64(float64(-1.83469277483613086+float64(float64(0.784932344976639262-float64(0.145263899385486377*xm))*xm))*xm))*xm))*xm))*xm))
	t2 := float64(float64(u*u) * u)
	ym := float64(float64(float64(u*float64(t2+float64(2.0*xm)))/float64(float64(2.0*t2)+xm)) * factor[2+xe%3])
	if x < 0 {
		ym = -ym
	}
	return math.Ldexp(ym, xe/3)
}
