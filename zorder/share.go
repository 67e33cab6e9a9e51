package zorder

import (
	"math"
	"math/bits"
)

// CoverShare estimates the fraction of the addresses of the ranges rs that
// lie in the box within, from samples addresses spread over the ranges: the
// i-th at a point of the i-th of samples equal strata of their total
// length, placed by a fixed hash of i (jittered, not evenly spaced: Z order
// repeats at power-of-two periods, and evenly spaced samples can fall in
// step with them and see only one phase). The estimate is deterministic
// and, with a sample per address, exact. 0 when rs is empty or within is.
//
// The optimizer weighs a cover by the rows it reads, not the addresses it
// holds: a cover's ranges run through stretches of address space where no
// row can be (codes outside the index's data bounds), and the share of its
// addresses inside the data bounds turns an address over-cover into a row
// over-cover.
func (s *Schema) CoverShare(rs []Range, within Box, samples int) float64 {
	lo, hi, ok := s.clip(within)
	if !ok || len(rs) == 0 || samples < 1 {
		return 0
	}
	nw := s.words
	var last [maxWords]uint64 // the last address of the space
	for w := range nw {
		last[w] = ^uint64(0)
	}
	last[nw-1] = s.lastMask
	lens := make([]float64, len(rs))
	total := 0.0
	var a, b [maxWords]uint64
	for i, r := range rs {
		s.loadAddr(a[:nw], r.Lo)
		if r.Hi == nil {
			lens[i] = s.runLength(a[:nw], last[:nw])
		} else {
			s.loadAddr(b[:nw], r.Hi)
			lens[i] = s.runLength(a[:nw], b[:nw]) - 1
		}
		total += lens[i]
	}
	if total <= 0 {
		return 0
	}
	pad := 64*nw - s.bits
	buf := make([]byte, 0, maxWords*8)
	var z codes
	in, j, start := 0, 0, 0.0 // start: the addresses before range j
	for i := range samples {
		u := (float64(i) + jitter(uint64(i))) / float64(samples) * total
		for j < len(rs)-1 && u >= start+lens[j] {
			start += lens[j]
			j++
		}
		s.loadAddr(a[:nw], rs[j].Lo)
		addWords(a[:nw], math.Min(math.Floor(u-start), lens[j]-1), pad)
		buf = s.appendWords(buf[:0], a[:nw])
		s.decode(buf, &z)
		if s.inside(&lo, &hi, &z) {
			in++
		}
	}
	return float64(in) / float64(samples)
}

// addWords adds the whole number o (in address units, o >= 0) to the
// address words z, which hold the address shifted left by pad bits. o keeps
// its 53 significant bits; below them the sum is truncated, which only
// moves a sample within its range.
func addWords(z []uint64, o float64, pad int) {
	if o < 1 {
		return
	}
	frac, exp := math.Frexp(o) // o = frac · 2^exp, frac in [½, 1)
	m := uint64(math.Ldexp(frac, 64))
	t := exp - 64 + pad // m is to be added shifted left by t bits
	if t < 0 {
		m >>= uint(-t)
		t = 0
	}
	w := len(z) - 1 - t/64
	r := uint(t % 64)
	var carry uint64
	z[w], carry = bits.Add64(z[w], m<<r, 0)
	hiPart := uint64(0)
	if r > 0 {
		hiPart = m >> (64 - r)
	}
	for w--; w >= 0 && (carry != 0 || hiPart != 0); w-- {
		z[w], carry = bits.Add64(z[w], hiPart, carry)
		hiPart = 0
	}
}

// jitter is a fixed pseudo-random number in [0, 1) for i (SplitMix64).
func jitter(i uint64) float64 {
	z := i*0x9e3779b97f4a7c15 + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) * 0x1p-53
}
