package builtins

import (
	"math"
	"math/big"
	"sync"
)

// Trigonometric and hyperbolic functions of double precision. PostgreSQL
// calls glibc's, whose results are the correctly rounded ones in all but
// vanishingly rare cases, while Go's math package is only within an ulp
// or two (a third to two thirds of Go's sines differ from glibc's in the
// last digit). So these are computed in big.Float, with enough bits for
// the reductions and cancellations involved, and rounded once.

// trigPrec is the working precision, in bits, beyond what an argument's
// exponent adds.
const trigPrec = 160

var (
	bigConstOnce sync.Once
	bigPi        *big.Float // π to bigPiPrec bits
	bigLn2       *big.Float // ln 2 to bigPiPrec bits
)

// bigPiPrec covers reducing the largest double (2^1024) by π/2 with
// trigPrec bits left over.
const bigPiPrec = 1024 + 2*trigPrec

func bigConsts() {
	bigConstOnce.Do(func() {
		p := uint(bigPiPrec + 64)
		// Machin: π = 16·atan(1/5) - 4·atan(1/239).
		a := atanSeries(newBig(p).Quo(newBig(p).SetInt64(1), newBig(p).SetInt64(5)), p)
		b := atanSeries(newBig(p).Quo(newBig(p).SetInt64(1), newBig(p).SetInt64(239)), p)
		a.Mul(a, newBig(p).SetInt64(16))
		b.Mul(b, newBig(p).SetInt64(4))
		bigPi = newBig(p).Sub(a, b)
		// ln 2 = 2·atanh(1/3).
		bigLn2 = atanhSeries(newBig(p).Quo(newBig(p).SetInt64(1), newBig(p).SetInt64(3)), p)
		bigLn2.Mul(bigLn2, newBig(p).SetInt64(2))
	})
}

func newBig(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

func bigOf(x float64, prec uint) *big.Float { return newBig(prec).SetFloat64(x) }

// precFor is the working precision for an argument x: its exponent's
// worth of bits more when large (reduction) or small (cancellation).
func precFor(x float64) uint {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return trigPrec
	}
	_, e := math.Frexp(x)
	if e < 0 {
		e = -e
	}
	return uint(trigPrec + e)
}

// seriesSum adds terms produced by next until they no longer change the
// sum at precision prec.
func seriesSum(first *big.Float, prec uint, next func(term *big.Float, n int)) *big.Float {
	sum := newBig(prec).Set(first)
	term := newBig(prec).Set(first)
	for n := 1; ; n++ {
		next(term, n)
		if term.Sign() == 0 || sum.Sign() != 0 && term.MantExp(nil) < sum.MantExp(nil)-int(prec)-2 {
			return sum
		}
		sum.Add(sum, term)
	}
}

// atanSeries is atan z for small |z|: z - z³/3 + z⁵/5 ...
func atanSeries(z *big.Float, prec uint) *big.Float {
	z2 := newBig(prec).Mul(z, z)
	pow := newBig(prec).Set(z)
	return seriesSum(z, prec, func(term *big.Float, n int) {
		pow.Mul(pow, z2)
		pow.Neg(pow)
		term.Quo(pow, newBig(prec).SetInt64(int64(2*n+1)))
	})
}

// atanhSeries is atanh z for |z| < 1: z + z³/3 + z⁵/5 ...
func atanhSeries(z *big.Float, prec uint) *big.Float {
	z2 := newBig(prec).Mul(z, z)
	pow := newBig(prec).Set(z)
	return seriesSum(z, prec, func(term *big.Float, n int) {
		pow.Mul(pow, z2)
		term.Quo(pow, newBig(prec).SetInt64(int64(2*n+1)))
	})
}

// invFactorials are 1/n! to trigPrec bits, enough terms for |r| <= π/4.
var invFactorials = sync.OnceValue(func() []*big.Float {
	f := make([]*big.Float, 48)
	fact := big.NewInt(1)
	for n := range f {
		if n > 0 {
			fact.Mul(fact, big.NewInt(int64(n)))
		}
		f[n] = newBig(trigPrec).Quo(newBig(trigPrec).SetInt64(1), newBig(trigPrec).SetInt(fact))
	}
	return f
})

// sinCosSeries is sin r (odd) or cos r (!odd) for |r| <= π/4, by the
// Taylor series Σ (-1)^k r^(2k+i) / (2k+i)!, i = 1 for sin and 0 for cos.
func sinCosSeries(r *big.Float, odd bool) *big.Float {
	inv := invFactorials()
	r2 := newBig(trigPrec).Mul(r, r)
	pow := newBig(trigPrec).SetInt64(1)
	n := 0
	if odd {
		pow.Set(r)
		n = 1
	}
	sum := newBig(trigPrec)
	term := newBig(trigPrec)
	for ; n < len(inv); n += 2 {
		term.Mul(pow, inv[n])
		if n%4 >= 2 {
			term.Neg(term)
		}
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-trigPrec-2 {
			break
		}
		pow.Mul(pow, r2)
	}
	return sum
}

// bigSinCos is sin x (wantSin) or cos x for a finite x: x = k·π/2 + r,
// |r| <= π/4, and the quadrant k picks ±sin r or ±cos r.
func bigSinCos(x float64, wantSin bool) *big.Float {
	bigConsts()
	prec := precFor(x)
	halfPi := newBig(prec).Quo(bigPi, newBig(prec).SetInt64(2))
	bx := bigOf(x, prec)
	q := newBig(prec).Quo(bx, halfPi)
	k, _ := roundBig(q).Int(nil)
	r := newBig(prec).Sub(bx, newBig(prec).Mul(halfPi, newBig(prec).SetInt(k)))
	r.SetPrec(trigPrec)
	quadrant := new(big.Int).And(k, big.NewInt(3)).Int64()
	if !wantSin {
		quadrant++ // cos x = sin(x + π/2)
	}
	v := sinCosSeries(r, quadrant%2 == 0)
	if quadrant%4 >= 2 {
		v.Neg(v)
	}
	return v
}

// roundBig is x rounded to the nearest integer (halves away from zero).
func roundBig(x *big.Float) *big.Float {
	h := newBig(x.Prec()).SetFloat64(0.5)
	if x.Sign() < 0 {
		h.Neg(h)
	}
	i, _ := newBig(x.Prec()).Add(x, h).Int(nil)
	return newBig(x.Prec()).SetInt(i)
}

// bigAtan is atan z: reflected past 1 (π/2 - atan(1/z)), then halved
// (atan z = 2·atan(z / (1 + √(1+z²)))) until the series converges fast.
func bigAtan(z *big.Float, prec uint) *big.Float {
	bigConsts()
	neg := z.Sign() < 0
	z = newBig(prec).Abs(z)
	reflect := z.Cmp(newBig(prec).SetInt64(1)) > 0
	if reflect {
		z.Quo(newBig(prec).SetInt64(1), z)
	}
	one := newBig(prec).SetInt64(1)
	halvings := 0
	for z.Sign() != 0 && z.MantExp(nil) > -6 {
		d := newBig(prec).Mul(z, z)
		d.Add(d, one)
		d.Sqrt(d)
		d.Add(d, one)
		z.Quo(z, d)
		halvings++
	}
	a := atanSeries(z, prec)
	a.SetMantExp(a, halvings)
	if reflect {
		a.Sub(newBig(prec).Quo(bigPi, newBig(prec).SetInt64(2)), a)
	}
	if neg {
		a.Neg(a)
	}
	return a
}

// bigExp is e^x for a finite x: x = k·ln 2 + r, e^(r/2^8) by its series,
// squared eight times, scaled by 2^k.
func bigExp(x *big.Float, prec uint) *big.Float {
	bigConsts()
	k, _ := roundBig(newBig(prec).Quo(x, bigLn2)).Int64()
	r := newBig(prec).Sub(x, newBig(prec).Mul(bigLn2, newBig(prec).SetInt64(k)))
	r.SetMantExp(r, -8)
	e := seriesSum(newBig(prec).SetInt64(1), prec, func(term *big.Float, n int) {
		term.Mul(term, r)
		term.Quo(term, newBig(prec).SetInt64(int64(n)))
	})
	for i := 0; i < 8; i++ {
		e.Mul(e, e)
	}
	return e.SetMantExp(e, int(k))
}

// bigLog is ln x for x > 0: x = m·2^e, ln m = 2·atanh((m-1)/(m+1)).
func bigLog(x *big.Float, prec uint) *big.Float {
	bigConsts()
	m := newBig(prec)
	e := x.MantExp(m) // m in [0.5, 1)
	one := newBig(prec).SetInt64(1)
	z := newBig(prec).Quo(newBig(prec).Sub(m, one), newBig(prec).Add(m, one))
	l := atanhSeries(z, prec)
	l.SetMantExp(l, 1)
	return l.Add(l, newBig(prec).Mul(bigLn2, newBig(prec).SetInt64(int64(e))))
}

func toFloat(x *big.Float) float64 {
	f, _ := x.Float64()
	return f
}

func crSin(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return math.Sin(x) // ±0, NaN
	}
	if v, ok := ddSinCos(x, true); ok {
		return v
	}
	return toFloat(bigSinCos(x, true))
}

func crCos(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.NaN()
	}
	if v, ok := ddSinCos(x, false); ok {
		return v
	}
	return toFloat(bigSinCos(x, false))
}

func crTan(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return math.Tan(x)
	}
	if v, ok := ddTan(x); ok {
		return v
	}
	s := bigSinCos(x, true)
	return toFloat(s.Quo(s, bigSinCos(x, false)))
}

func crAtan(x float64) float64 {
	switch {
	case x == 0 || math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return math.Copysign(halfPiFloat(), x)
	}
	p := precFor(x)
	return toFloat(bigAtan(bigOf(x, p), p))
}

func halfPiFloat() float64 {
	bigConsts()
	return toFloat(newBig(trigPrec).Quo(bigPi, newBig(trigPrec).SetInt64(2)))
}

// piMultiple is num/den·π rounded to double precision.
func piMultiple(num, den int64) float64 {
	bigConsts()
	p := newBig(trigPrec).Mul(bigPi, newBig(trigPrec).SetInt64(num))
	return toFloat(p.Quo(p, newBig(trigPrec).SetInt64(den)))
}

func crAsin(x float64) float64 {
	switch {
	case x == 0 || math.IsNaN(x):
		return x
	case math.Abs(x) == 1:
		return math.Copysign(halfPiFloat(), x)
	}
	p := precFor(x)
	bx := bigOf(x, p)
	d := newBig(p).Mul(bx, bx)
	d.Sub(newBig(p).SetInt64(1), d)
	d.Sqrt(d)
	return toFloat(bigAtan(d.Quo(bx, d), p))
}

// crAcos is 2·atan(√((1-x)/(1+x))), which keeps its bits near x = 1.
func crAcos(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x == -1:
		return piMultiple(1, 1)
	}
	p := precFor(x)
	bx := bigOf(x, p)
	one := newBig(p).SetInt64(1)
	q := newBig(p).Quo(newBig(p).Sub(one, bx), newBig(p).Add(one, bx))
	a := bigAtan(q.Sqrt(q), p)
	return toFloat(a.SetMantExp(a, 1))
}

// crAtan2 is atan2(y, x) with C99's special cases.
func crAtan2(y, x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case math.IsInf(y, 0) && math.IsInf(x, 0):
		if x > 0 {
			return math.Copysign(piMultiple(1, 4), y)
		}
		return math.Copysign(piMultiple(3, 4), y)
	case y == 0 || math.IsInf(x, 0):
		if x > 0 || x == 0 && !math.Signbit(x) {
			return math.Copysign(0, y)
		}
		return math.Copysign(piMultiple(1, 1), y)
	case x == 0 || math.IsInf(y, 0):
		return math.Copysign(halfPiFloat(), y)
	}
	_, ey := math.Frexp(y)
	_, ex := math.Frexp(x)
	p := uint(trigPrec + max(ey-ex, ex-ey))
	a := bigAtan(newBig(p).Quo(bigOf(y, p), bigOf(x, p)), p)
	if x < 0 {
		pi := newBig(p).Set(bigPi)
		if y < 0 {
			a.Sub(a, pi)
		} else {
			a.Add(a, pi)
		}
	}
	return toFloat(a)
}

// The hyperbolic functions are glibc's (fdlibm's) formulas over its exp
// and log, which are correctly rounded (crExp, crLog), and its expm1 and
// log1p, which Go's math package ports from the same fdlibm sources. They
// are not correctly rounded, so computing them exactly would disagree
// with PostgreSQL more often than this.

const ln2 = 6.93147180559945286227e-01 // fdlibm's ln2, the double nearest ln 2

func crSinh(x float64) float64 {
	ax := math.Abs(x)
	h := math.Copysign(0.5, x)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return x
	case ax < 22:
		if ax < 0x1p-28 {
			return x
		}
		t := math.Expm1(ax)
		if ax < 1 {
			return h * (2*t - float64(t*t)/(t+1))
		}
		return h * (t + t/(t+1))
	case ax < 7.09782712893383973096e+02: // ln(MaxFloat64)
		return h * crExp(ax)
	}
	w := crExp(0.5 * ax) // overflows to ±Inf past the threshold
	return h * w * w
}

func crCosh(x float64) float64 {
	ax := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return x
	case ax < 0.5*ln2:
		if ax < 0x1p-55 {
			return 1
		}
		t := math.Expm1(ax)
		w := 1 + t
		return 1 + float64(t*t)/(w+w)
	case ax < 22:
		t := crExp(ax)
		return float64(0.5*t) + 0.5/t
	case ax < 7.09782712893383973096e+02:
		return 0.5 * crExp(ax)
	}
	w := crExp(0.5 * ax)
	return 0.5 * w * w
}

func crTanh(x float64) float64 {
	ax := math.Abs(x)
	var z float64
	switch {
	case math.IsNaN(x):
		return x
	case ax < 0x1p-55:
		return x * (1 + x)
	case ax >= 22:
		z = 1
	case ax >= 1:
		t := math.Expm1(2 * ax)
		z = 1 - 2/(t+2)
	default:
		t := math.Expm1(-2 * ax)
		z = -t / (t + 2)
	}
	return math.Copysign(z, x)
}

func crAsinh(x float64) float64 {
	ax := math.Abs(x)
	var w float64
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0) || ax < 0x1p-28:
		return x
	case ax > 0x1p28:
		w = crLog(ax) + ln2
	case ax > 2:
		w = crLog(2*ax + 1/(math.Sqrt(float64(ax*ax)+1)+ax))
	default:
		t := ax * ax
		w = math.Log1p(ax + t/(1+math.Sqrt(1+t)))
	}
	return math.Copysign(w, x)
}

// crAcosh is acosh x for x >= 1.
func crAcosh(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x >= 0x1p28:
		return crLog(x) + ln2
	case x == 1:
		return 0
	case x > 2:
		t := x * x
		return crLog(2*x - 1/(x+math.Sqrt(t-1)))
	}
	t := x - 1
	return math.Log1p(t + math.Sqrt(2*t+float64(t*t)))
}

// crAtanh is atanh x for |x| <= 1.
func crAtanh(x float64) float64 {
	ax := math.Abs(x)
	var t float64
	switch {
	case math.IsNaN(x) || ax < 0x1p-28:
		return x
	case ax == 1:
		return math.Copysign(math.Inf(1), x)
	case ax < 0.5:
		t = ax + ax
		t = 0.5 * math.Log1p(t+float64(t*ax)/(1-ax))
	default:
		t = 0.5 * math.Log1p((ax+ax)/(1-ax))
	}
	return math.Copysign(t, x)
}
