package builtins

import (
	"math"
	"math/big"
)

// PostgreSQL's double precision exp, ln, log and power are glibc's, whose
// results are the correctly rounded ones in all but vanishingly rare cases;
// Go's math package is only within an ulp, and SQL shows the last digit.
// So these functions are computed here in double-double arithmetic (about
// 106 bits) and rounded once, which gives the correctly rounded result
// unless the exact value lies within about 2^-100 of a rounding midpoint.

// dd is an unevaluated sum hi + lo with |lo| <= ulp(hi)/2.
type dd struct{ hi, lo float64 }

func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

func quickTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

func (x dd) add(y dd) dd {
	s := twoSum(x.hi, y.hi)
	t := twoSum(x.lo, y.lo)
	s = quickTwoSum(s.hi, s.lo+t.hi)
	return quickTwoSum(s.hi, s.lo+t.lo)
}

func (x dd) neg() dd { return dd{-x.hi, -x.lo} }

func (x dd) mul(y dd) dd {
	p := twoProd(x.hi, y.hi)
	return quickTwoSum(p.hi, p.lo+(x.hi*y.lo+x.lo*y.hi))
}

func (x dd) mulF(f float64) dd {
	p := twoProd(x.hi, f)
	return quickTwoSum(p.hi, p.lo+x.lo*f)
}

func (x dd) div(y dd) dd {
	q1 := x.hi / y.hi
	r := x.add(y.mulF(q1).neg())
	q2 := r.hi / y.hi
	r = r.add(y.mulF(q2).neg())
	q3 := r.hi / y.hi
	return quickTwoSum(q1, q2).add(dd{q3, 0})
}

// ddLn2 is ln 2 as a double-double.
var ddLn2 = func() dd {
	v, _, _ := big.ParseFloat("0.693147180559945309417232121458176568075500134360255254120680009493393621969694715605863326996418687542001481021", 10, 256, big.ToNearestEven)
	hi, _ := v.Float64()
	lo, _ := new(big.Float).Sub(v, big.NewFloat(hi)).Float64()
	return dd{hi, lo}
}()

// ddLog is ln x for finite x > 0: x = m·2^e with m near 1, and
// ln m = 2·atanh((m-1)/(m+1)) by its series.
func ddLog(x float64) dd {
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	s := dd{m - 1, 0}.div(twoSum(m, 1)) // m-1 is exact for m in [1/2, 2]
	s2 := s.mul(s)
	sum, term := s, s
	for k := 3; k < 80; k += 2 {
		term = term.mul(s2)
		t := term.div(dd{float64(k), 0})
		sum = sum.add(t)
		if math.Abs(t.hi) < 1e-36*math.Abs(sum.hi) {
			break
		}
	}
	return sum.mulF(2).add(ddLn2.mulF(float64(e)))
}

// ddExp is e^x for a double-double x with |x| < 746: x = k·ln 2 + r,
// e^(r/256) by its series, squared eight times, scaled by 2^k.
func ddExp(x dd) float64 {
	k := math.Round(x.hi / ddLn2.hi)
	r := x.add(ddLn2.mulF(k).neg()).mulF(1.0 / 256)
	sum, term := dd{1, 0}, dd{1, 0}
	for n := 1; n <= 16; n++ {
		term = term.mul(r).div(dd{float64(n), 0})
		sum = sum.add(term)
		if math.Abs(term.hi) < 1e-36 {
			break
		}
	}
	for i := 0; i < 8; i++ {
		sum = sum.mul(sum)
	}
	// Scale in two steps so neither overflows before the result does; a
	// subnormal result is rounded from the full sum.
	k1 := int(k) / 2
	k2 := int(k) - k1
	if int(k) < -1000 {
		v, _ := new(big.Float).SetPrec(200).Add(big.NewFloat(sum.hi), big.NewFloat(sum.lo)).Float64()
		f := new(big.Float).SetPrec(200).SetMantExp(big.NewFloat(v), int(k))
		out, _ := f.Float64()
		return out
	}
	return math.Ldexp(math.Ldexp(sum.hi, k1), k2)
}

// crExp is e^x correctly rounded (for finite x inside the double range).
func crExp(x float64) float64 {
	switch {
	case x > 709.8:
		return math.Inf(1)
	case x < -745.2:
		return 0
	}
	return ddExp(dd{x, 0})
}

// crLog is ln x correctly rounded, for finite x > 0.
func crLog(x float64) float64 {
	if x == 1 {
		return 0
	}
	return ddLog(x).hi
}

// glibcLog10 is glibc's __ieee754_log10, which PostgreSQL's log(double
// precision) calls: not ln x / ln 10, but the exponent times log10(2) in
// two parts plus log10(e)·ln(mantissa).
func glibcLog10(x float64) float64 {
	const (
		two54     = 1.80143985094819840000e+16
		ivln10    = 4.34294481903251816668e-01
		log10_2hi = 3.01029995663611771306e-01
		log10_2lo = 3.69423907715893078616e-13
	)
	bits := math.Float64bits(x)
	hx := int32(bits >> 32)
	k := int32(0)
	if hx < 0x00100000 { // subnormal: scale up
		k -= 54
		x *= two54
		bits = math.Float64bits(x)
		hx = int32(bits >> 32)
	}
	k += (hx >> 20) - 1023
	i := int32(uint32(k) & 0x80000000 >> 31)
	hx = (hx & 0x000fffff) | ((0x3ff - i) << 20)
	y := float64(k + i)
	x = math.Float64frombits(uint64(uint32(hx))<<32 | bits&0xffffffff)
	z := float64(y*log10_2lo) + float64(ivln10*crLog(x))
	return z + float64(y*log10_2hi)
}

// crPow is x^y for the cases powFloat leaves to it: finite x > 0 or a
// negative x with an integral y, finite y. Overflow gives ±Inf and
// underflow ±0, for the caller to report.
func crPow(x, y float64) float64 {
	neg := false
	if x < 0 {
		x = -x
		neg = math.Mod(y, 2) != 0
	}
	if y == 0 {
		return 1
	}
	var r float64
	t := ddLog(x).mul(dd{y, 0})
	switch {
	case x == 1:
		r = 1 // (-1)^y keeps its sign below: -1 for an odd y
	case t.hi > 709.8:
		r = math.Inf(1)
	case t.hi < -745.2:
		r = 0
	default:
		r = ddExp(t)
	}
	if neg {
		return -r
	}
	return r
}
