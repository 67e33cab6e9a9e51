package zorder

import (
	"bytes"
	"math/bits"
)

// InteriorScan is a skip-scan's knowledge of where a region holds every
// point: a spatial filter's area (the polygon of ST_Within, the disc of
// ST_DWithin) over two float attributes. Inside answers, for an entry's
// key, whether the region holds the whole aligned Z-cell the key falls in,
// so that the scan may admit the entry without testing its point;
// Outside, whether the region misses the whole cell, so that the scan may
// seek past it. Each remembers the last cell it found so and the last one
// found cut by the region's edge (cellMemo), so a scan decides each cell
// once and the keys after the first in a cell cost two byte comparisons.
//
// The cells asked about are those smaller than the scan's box and no
// finer than about 1/64 of it on a side: a cell the region's edge cuts at
// that size is left to the entries' own tests. Among them, the largest
// the region holds is found by bisecting the depth, which the region's
// test makes sound, as a cell it holds holds every cell within it.
//
// An InteriorScan is for one scan: it is not safe for concurrent use.
type InteriorScan struct {
	s    *Schema
	x, y int
	// holds reports whether the region holds every point of the closed
	// box; it must hold every sub-box of a box it holds.
	holds func(minX, minY, maxX, maxY float64) bool
	// misses, when not nil, reports whether the region holds no point of
	// the closed box; it must miss every sub-box of a box it misses.
	misses func(minX, minY, maxX, maxY float64) bool
	// minDepth and maxDepth are the address depths of the cells asked
	// about (0: none).
	minDepth, maxDepth int
	// held and missed remember the cells the region holds, and misses.
	held, missed cellMemo
	// next is Outside's buffer for the address after a missed cell.
	next []byte
}

// interiorSplits is how many times the scan's box is halved, per
// attribute, to the finest cells asked about: a cell the region's edge
// cuts at that size is left to its entries' tests.
const interiorSplits = 6

// NewInteriorScan returns the interior test of a scan of box b over the
// float attributes x and y; holds is the region's test of a box of
// coordinates (minX, minY, maxX, maxY), which must be sound for closed
// boxes and monotone (a box held holds its sub-boxes), and misses, when not
// nil, its test that no point of a closed box is in the region (likewise
// sound and monotone). nil when x or y is not a float attribute or the box
// is empty.
func (s *Schema) NewInteriorScan(b Box, x, y int, holds, misses func(minX, minY, maxX, maxY float64) bool) *InteriorScan {
	if x == y || x < 0 || y < 0 || x >= len(s.attrs) || y >= len(s.attrs) || s.attrs[x].Type != TypeFloat || s.attrs[y].Type != TypeFloat {
		return nil
	}
	lo, hi, ok := s.clip(b)
	if !ok {
		return nil
	}
	// The deepest cell holding the whole box fixes at most the top bits
	// its bounds share in every attribute; the region, within the box,
	// can hold only deeper ones. The finest cells asked about are about
	// 1/2^interiorSplits of the box's side in every attribute: their
	// codes span that share of the box's.
	dims := len(s.attrs)
	var shared, fine [MaxAttrs]int
	for d, a := range s.attrs {
		w := a.w()
		shared[d] = min(bits.LeadingZeros64(lo[d]^hi[d])-(64-w), w)
		fine[d] = min(w, max(0, w-bits.Len64(hi[d]-lo[d])+interiorSplits+1))
	}
	k0, k1 := 0, s.bits
	for k := 1; k <= s.bits; k++ {
		contains, fineEnough := true, true
		for d := range s.attrs {
			c := int(s.consumed[k*dims+d])
			contains = contains && c <= shared[d]
			fineEnough = fineEnough && c >= fine[d]
		}
		if contains {
			k0 = k
		}
		if fineEnough {
			k1 = k
			break
		}
	}
	is := &InteriorScan{s: s, x: x, y: y, holds: holds, misses: misses, minDepth: k0 + 1, maxDepth: k1}
	if is.minDepth > is.maxDepth {
		return nil
	}
	return is
}

// Inside reports whether the region holds every point of a cell that the
// key's address (its first AddrLen bytes) lies in. A shorter key is not
// an entry's: false.
func (is *InteriorScan) Inside(key []byte) bool {
	return is.held.decide(is, key, is.cellHeld)
}

// Outside reports whether the region holds no point of a cell that the
// key's address lies in, and if so returns the first address after the
// largest such cell among those asked about (nil when the cell ends the
// address space): a scan may skip to it, as no entry before it passes.
// The slice is valid until the next call. Without a misses test, or for a
// shorter key, false.
func (is *InteriorScan) Outside(key []byte) (next []byte, ok bool) {
	if is.misses == nil || !is.missed.decide(is, key, is.cellMissed) {
		return nil, false
	}
	return is.after(is.missed.yesHi)
}

// cellMemo remembers a monotone test's last answers over the cells a
// scan asks about: the last cell it passed (the largest there, by
// bisecting the depth) and the last cell of the finest depth it failed,
// so the keys after the first in a cell cost two byte comparisons.
type cellMemo struct {
	yesLo, yesHi, noLo, noHi []byte // nil: none yet
}

// decide reports whether test passes for a cell the key's address lies
// in, among is's depths. test must be monotone: a cell's sub-cells pass
// when it does.
func (m *cellMemo) decide(is *InteriorScan, key []byte, test func(z *codes, k int) bool) bool {
	s := is.s
	if len(key) < s.addrLen {
		return false
	}
	addr := key[:s.addrLen]
	if m.yesLo != nil && bytes.Compare(addr, m.yesLo) >= 0 && bytes.Compare(addr, m.yesHi) <= 0 {
		return true
	}
	if m.noLo != nil && bytes.Compare(addr, m.noLo) >= 0 && bytes.Compare(addr, m.noHi) <= 0 {
		return false
	}
	var z codes
	s.decode(addr, &z)
	if !test(&z, is.maxDepth) {
		m.noLo, m.noHi = s.cellBounds(m.noLo, m.noHi, addr, is.maxDepth)
		return false
	}
	lo, hi := is.minDepth, is.maxDepth // the cell at hi passes
	for lo < hi {
		if mid := (lo + hi) / 2; test(&z, mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	m.yesLo, m.yesHi = s.cellBounds(m.yesLo, m.yesHi, addr, hi)
	return true
}

// after returns the address that follows last (a cell's last address),
// nil and true when none does.
func (is *InteriorScan) after(last []byte) ([]byte, bool) {
	is.next = append(is.next[:0], last...)
	for i := len(is.next) - 1; i >= 0; i-- {
		if is.next[i]++; is.next[i] != 0 {
			return is.next, true
		}
	}
	return nil, true
}

// cellMissed reports whether the region misses the cell of depth k that
// the codes z lie in.
func (is *InteriorScan) cellMissed(z *codes, k int) bool {
	minX, maxX := is.span(z, is.x, k)
	minY, maxY := is.span(z, is.y, k)
	return is.misses(minX, minY, maxX, maxY)
}

// cellHeld reports whether the region holds the cell of depth k that the
// codes z lie in.
func (is *InteriorScan) cellHeld(z *codes, k int) bool {
	minX, maxX := is.span(z, is.x, k)
	minY, maxY := is.span(z, is.y, k)
	return is.holds(minX, minY, maxX, maxY)
}

// span is the range of values of float attribute d over the cell of depth
// k holding the codes z: the codes with z's top bits that the cell fixes.
func (is *InteriorScan) span(z *codes, d, k int) (lo, hi float64) {
	s := is.s
	w := s.attrs[d].w()
	free := w - int(s.consumed[k*len(s.attrs)+d])
	var mask uint64
	if free > 0 {
		mask = maxOf(free)
	}
	return s.floatSpan(d, z[d]&^mask, z[d]|mask)
}

// cellBounds writes into lo and hi (reusing their memory) the first and
// last address of the cell of depth k holding addr: every bit from
// position k on cleared, resp. set, unused low bits likewise.
func (s *Schema) cellBounds(lo, hi, addr []byte, k int) ([]byte, []byte) {
	lo = append(lo[:0], addr[:s.addrLen]...)
	hi = append(hi[:0], addr[:s.addrLen]...)
	i := k >> 3
	if i < s.addrLen {
		m := byte(0xff) >> uint(k&7)
		lo[i] &^= m
		hi[i] |= m
		for j := i + 1; j < s.addrLen; j++ {
			lo[j], hi[j] = 0, 0xff
		}
	}
	return lo, hi
}
