package zorder

import (
	"bytes"
	"math/bits"
)

// BoxScan is a skip-scan's test of the keys it reads against one box: Next
// answers as Schema.NextInBox does, but remembers the largest aligned Z-cell
// wholly inside the box that held the last in-box key. The keys after it
// in the same cell are then inside without a test (two byte comparisons
// instead of de-interleaving the address), so a scan pays the full test only
// for the keys in cells the box's boundary cuts, and once per cell it
// enters. A box of a few hundred rows holds cells of tens of rows.
//
// A BoxScan is for one scan: it is not safe for concurrent use.
type BoxScan struct {
	s      *Schema
	lo, hi codes
	empty  bool
	// cellLo and cellHi are the first and last address (every used bit
	// 0, resp. 1, below the cell's prefix; unused low bits likewise) of
	// the cell of the last in-box key; nil when there is none.
	cellLo, cellHi []byte
	// next is the buffer Next's seek address is written into.
	next []byte
}

// NewBoxScan returns the test of keys against box b.
func (s *Schema) NewBoxScan(b Box) *BoxScan {
	bs := &BoxScan{s: s}
	var ok bool
	bs.lo, bs.hi, ok = s.clip(b)
	bs.empty = !ok
	return bs
}

// Next reports, as Schema.NextInBox, whether key's address (its first
// AddrLen bytes; a key suffix is allowed and a shorter key reads as
// zero-padded) is in the box; when it is not, next is the smallest in-box
// address above it, and ok false when none remains. next is valid until
// the following call.
func (bs *BoxScan) Next(key []byte) (inside bool, next []byte, ok bool) {
	s := bs.s
	if bs.empty {
		return false, nil, false
	}
	if bs.cellLo != nil && len(key) >= s.addrLen {
		addr := key[:s.addrLen]
		if bytes.Compare(addr, bs.cellLo) >= 0 && bytes.Compare(addr, bs.cellHi) <= 0 {
			return true, nil, true
		}
	}
	var z codes
	s.decode(key, &z)
	if s.inside(&bs.lo, &bs.hi, &z) {
		bs.setCell(key, &z)
		return true, nil, true
	}
	r, ok := s.atOrAfter(&bs.lo, &bs.hi, &z)
	if !ok {
		return false, nil, false
	}
	bs.next = s.appendAddr(bs.next[:0], &r)
	return false, bs.next, true
}

// setCell records the largest aligned cell that holds the in-box address z
// (key's) and lies wholly in the box. Each attribute keeps free the most
// low code bits whose every value stays in its interval (freeBits); the
// cell's prefix ends just after the lowest code bit some attribute must
// fix, so every attribute fixes at least its bits above its free ones.
func (bs *BoxScan) setCell(key []byte, z *codes) {
	s := bs.s
	if len(key) < s.addrLen {
		// A short (seek) key is not an entry's; it names no cell.
		bs.cellLo = nil
		return
	}
	depth := 0
	for d, a := range s.attrs {
		f := freeBits(z[d], bs.lo[d], bs.hi[d], a.Width)
		if f < a.Width {
			depth = max(depth, int(s.bitPos[d*MaxWidth+f])+1)
		}
	}
	bs.cellLo, bs.cellHi = s.cellBounds(bs.cellLo, bs.cellHi, key, depth)
}

// freeBits is the most low bits f (at most width) of the code z in [lo, hi]
// that may take every value with z's bits above them kept and the code
// stay in [lo, hi]: z with them cleared is >= lo and with them set <= hi.
func freeBits(z, lo, hi uint64, width int) int {
	return min(freeBelow(z, lo, bits.TrailingZeros64(lo)), freeBelow(^z, ^hi, bits.TrailingZeros64(^hi)), width)
}

// freeBelow is the most low bits of z >= lo that can be cleared with the
// result still >= lo, given tz, the trailing zeros of lo. Clearing bits
// below the highest bit h where z and lo differ (z has 1) keeps z > lo;
// clearing h too leaves lo's bits above h, so >= lo exactly when lo has no
// ones below: up to tz bits. On complemented codes the same gives the
// bits that can be set with z|mask <= hi.
func freeBelow(z, lo uint64, tz int) int {
	x := z ^ lo
	if x == 0 {
		return tz
	}
	h := 63 - bits.LeadingZeros64(x)
	if tz > h {
		return tz
	}
	return h
}
