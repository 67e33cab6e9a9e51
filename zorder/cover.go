package zorder

import (
	"bytes"
	"math"
)

// Range is a half-open range [Lo, Hi) of Z-addresses. Hi nil means the end
// of the address space. As bounds on sort keys that start with the address
// (Z-address ‖ primary key), the same range selects exactly the keys whose
// address is in [Lo, Hi).
type Range struct {
	Lo, Hi []byte
}

// Cover is a set of ranges covering a box, with its size.
type Cover struct {
	Ranges []Range // sorted, non-overlapping, non-adjacent
	// InBox and Covered count addresses (as float64: they can exceed 2^64):
	// those in the box, and those the ranges hold. Covered/InBox is the
	// over-cover ratio, 1 for an exact cover.
	InBox, Covered float64
	// Exact reports that Covered == InBox: no out-of-box address is read.
	Exact bool
}

// node is an aligned subcube of the address space (all addresses sharing
// their first k bits), represented by the box clipped to it: lo and hi are
// per-attribute bounds within the subcube, so the subcube's smallest and
// largest in-box addresses are z(lo) and z(hi) (Z order is monotone in
// every attribute). ExactRanges walks these; Plan uses a compact form of
// the same subcube (see planNode).
type node struct {
	k      int
	lo, hi codes
}

// nodeSpan returns the bounds of the subcube of n in attribute d.
func (s *Schema) nodeSpan(n *node, d int) (lo, hi uint64) {
	free := s.attrs[d].Width - int(s.consumed[n.k*len(s.attrs)+d])
	if free >= 64 {
		return 0, math.MaxUint64
	}
	mask := uint64(1)<<uint(free) - 1
	return n.lo[d] &^ mask, n.lo[d] | mask
}

// full reports whether the node's clipped box fills its subcube.
func (s *Schema) full(n *node) bool {
	for d := range s.attrs {
		a, b := s.nodeSpan(n, d)
		if n.lo[d] != a || n.hi[d] != b {
			return false
		}
	}
	return true
}

// split divides the node at its next address bit into the lower and upper
// child, each clipped to the box; a child is absent when it misses the box.
func (s *Schema) split(n *node) (c0, c1 node, has0, has1 bool) {
	d := int(s.posDim[n.k])
	m := uint64(1) << s.posBit[n.k]
	base, _ := s.nodeSpan(n, d)
	mid := base | m // first code of the upper half
	has0 = n.lo[d] < mid
	has1 = n.hi[d] >= mid
	if has0 {
		c0 = node{k: n.k + 1, lo: n.lo, hi: n.hi}
		c0.hi[d] = min(n.hi[d], mid-1)
	}
	if has1 {
		c1 = node{k: n.k + 1, lo: n.lo, hi: n.hi}
		c1.lo[d] = max(n.lo[d], mid)
	}
	return
}

// cellRange is the range of a node's addresses, from its clipped box's
// least to its greatest.
func (s *Schema) cellRange(n *node) Range {
	lo := s.appendAddr(nil, &n.lo)
	hi := s.appendAddr(nil, &n.hi)
	if !s.step(hi, +1) {
		hi = nil
	}
	return Range{Lo: lo, Hi: hi}
}

// cellRangeIn is cellRange with both addresses cut from *slab, which it
// replaces with a new one of cellSlabAddrs addresses when full: the cells
// a search hands out, one range each, share an allocation per
// cellSlabAddrs addresses rather than two each (a kNN batch hands out
// dozens). Each bound is capped at its own length, so an append to one
// copies it, and nothing writes the others'.
func (s *Schema) cellRangeIn(slab *[]byte, n *node) Range {
	l := s.addrLen
	if cap(*slab)-len(*slab) < 2*l {
		*slab = make([]byte, 0, cellSlabAddrs*l)
	}
	at := len(*slab)
	b := s.appendAddr(s.appendAddr(*slab, &n.lo), &n.hi)
	*slab = b
	lo, hi := b[at:at+l:at+l], b[at+l:at+2*l:at+2*l]
	if !s.step(hi, +1) {
		hi = nil
	}
	return Range{Lo: lo, Hi: hi}
}

// cellSlabAddrs is how many addresses a slab of cellRangeIn holds.
const cellSlabAddrs = 64

// Ranges covers the box with at most budget ranges (budget < 1 counts as
// 1): a superset of the in-box addresses that adds as few out-of-box ones
// as it can find. See Plan.
func (s *Schema) Ranges(b Box, budget int) []Range {
	return s.Plan(b, budget).Ranges
}

// volume is the number of addresses in the clipped box, in float64.
func (s *Schema) volume(lo, hi *codes) float64 {
	v := 1.0
	for d := range s.attrs {
		v *= float64(hi[d]-lo[d]) + 1
	}
	return v
}

// ExactRanges is the exact cover: the in-box addresses as sorted maximal
// runs. The exact cover of a box over wide attributes can have astronomically
// many ranges, so it gives up (ok false) beyond limit ranges; use Ranges
// with a budget for query planning.
func (s *Schema) ExactRanges(b Box, limit int) (ranges []Range, ok bool) {
	lo, hi, ok := s.clip(b)
	if !ok {
		return nil, true
	}
	var out []Range
	var walk func(n *node) bool
	walk = func(n *node) bool {
		if s.full(n) {
			start := s.appendAddr(nil, &n.lo)
			end := s.appendAddr(nil, &n.hi)
			if !s.step(end, +1) {
				end = nil
			}
			if k := len(out); k > 0 && bytes.Equal(out[k-1].Hi, start) {
				out[k-1].Hi = end
				return true
			}
			if len(out) == limit {
				return false
			}
			out = append(out, Range{Lo: start, Hi: end})
			return true
		}
		c0, c1, has0, has1 := s.split(n)
		if has0 && !walk(&c0) {
			return false
		}
		return !has1 || walk(&c1)
	}
	if !walk(&node{lo: lo, hi: hi}) {
		return nil, false
	}
	return out, true
}

// Estimate is the fraction of the Z-order index's search space a query
// with this box probes: the design formula n^((a-b)/a) / n with each
// attribute counted by the fraction of its codes the box keeps. With a
// attributes of equal width w (n = 2^(a·w)) and b of them bound to one
// value, each bound one keeps 2^-w of its codes and the product is
// n^(-b/a); a range bound counts as the fraction of its dimension it keeps
// (a dimension kept to fraction f counts as b_d = log(1/f)/w), an
// unbounded one as 1. It assumes a cover close to exact; CoverFraction
// gives the fraction a budgeted cover really reads.
func (s *Schema) Estimate(b Box) float64 {
	lo, hi, ok := s.clip(b)
	if !ok {
		return 0
	}
	f := 1.0
	for d, a := range s.attrs {
		f *= (float64(hi[d]-lo[d]) + 1) / math.Ldexp(1, a.Width)
	}
	return f
}

// CoverFraction is the fraction of the search space the budgeted cover of
// the box reads: Plan(b, budget).Covered / 2^Bits.
func (s *Schema) CoverFraction(b Box, budget int) float64 {
	return s.Plan(b, budget).Covered / math.Ldexp(1, s.bits)
}
