package builtins

import (
	"math"
	"math/big"
	"sync"
)

// Fast paths of the correctly rounded sine and cosine in double-double
// arithmetic (about 104 bits): most arguments are rounded here; those
// whose reduction cancels too many bits, or whose result lies too near a
// rounding midpoint to decide, are left to the big.Float routines of
// trig.go.

type ddTrigConsts struct {
	halfPi  [3]float64 // π/2 as an unevaluated sum of three doubles
	invFact [28]dd     // 1/n!
}

var ddTrig = sync.OnceValue(func() ddTrigConsts {
	bigConsts()
	var c ddTrigConsts
	rest := newBig(bigPiPrec).Quo(bigPi, newBig(bigPiPrec).SetInt64(2))
	for i := range c.halfPi {
		c.halfPi[i], _ = rest.Float64()
		rest.Sub(rest, newBig(bigPiPrec).SetFloat64(c.halfPi[i]))
	}
	fact := big.NewInt(1)
	for n := range c.invFact {
		if n > 0 {
			fact.Mul(fact, big.NewInt(int64(n)))
		}
		f := newBig(trigPrec).Quo(newBig(trigPrec).SetInt64(1), newBig(trigPrec).SetInt(fact))
		c.invFact[n] = ddOf(f)
	}
	return c
})

// ddOf rounds a big.Float to a double-double.
func ddOf(f *big.Float) dd {
	hi, _ := f.Float64()
	lo, _ := newBig(f.Prec()).Sub(f, newBig(f.Prec()).SetFloat64(hi)).Float64()
	return dd{hi, lo}
}

// ddReduce is x - k·π/2 for the k nearest x/(π/2), and k mod 4; ok is
// false past 2^20 or when the remainder is too small to keep its bits.
func ddReduce(x float64) (r dd, quadrant int64, ok bool) {
	if math.Abs(x) > 0x1p20 {
		return dd{}, 0, false
	}
	c := ddTrig()
	k := math.Round(x / c.halfPi[0])
	r = dd{x, 0}
	for _, p := range c.halfPi {
		r = r.add(twoProd(-k, p))
	}
	if math.Abs(r.hi) < 0x1p-30 && x != 0 {
		return dd{}, 0, false
	}
	return r, int64(k) & 3, true
}

// ddSinSeries is sin r (odd) or cos r for |r| <= π/4, by Taylor series.
func ddSinSeries(r dd, odd bool) dd {
	c := ddTrig()
	r2 := r.mul(r)
	pow, n := dd{1, 0}, 0
	if odd {
		pow, n = r, 1
	}
	sum := dd{}
	for ; n < len(c.invFact); n += 2 {
		term := pow.mul(c.invFact[n])
		if n%4 >= 2 {
			term = term.neg()
		}
		sum = sum.add(term)
		if math.Abs(term.hi) < 0x1p-110*math.Abs(sum.hi) {
			break
		}
		pow = pow.mul(r2)
	}
	return sum
}

// roundDD is the double nearest v, when v's error (a relative 2^-98)
// cannot move it across a rounding midpoint.
func roundDD(v dd) (float64, bool) {
	v = quickTwoSum(v.hi, v.lo)
	if v.lo == 0 || math.IsInf(v.hi, 0) || v.hi == 0 {
		return v.hi, v.hi != 0 || v.lo == 0
	}
	// The midpoint that matters is the one between v.hi and its
	// neighbour on v.lo's side.
	toward := math.Nextafter(v.hi, math.Inf(1))
	if v.lo < 0 {
		toward = math.Nextafter(v.hi, math.Inf(-1))
	}
	half := math.Abs(toward-v.hi) / 2
	if math.Abs(math.Abs(v.lo)-half) <= 0x1p-98*math.Abs(v.hi) {
		return 0, false
	}
	return v.hi, true
}

// ddSinCos is sin x (wantSin) or cos x correctly rounded, when the fast
// path can decide it.
func ddSinCos(x float64, wantSin bool) (float64, bool) {
	r, q, ok := ddReduce(x)
	if !ok {
		return 0, false
	}
	if !wantSin {
		q++ // cos x = sin(x + π/2)
	}
	v := ddSinSeries(r, q%2 == 0)
	if q%4 >= 2 {
		v = v.neg()
	}
	return roundDD(v)
}

// ddTan is tan x correctly rounded, when the fast path can decide it.
func ddTan(x float64) (float64, bool) {
	r, q, ok := ddReduce(x)
	if !ok {
		return 0, false
	}
	s, c := ddSinSeries(r, true), ddSinSeries(r, false)
	if q%2 == 1 {
		// tan(r + π/2) = -cos r / sin r
		return roundDD(c.div(s).neg())
	}
	return roundDD(s.div(c))
}
