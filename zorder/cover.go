package zorder

import (
	"bytes"
	"math"
	"math/bits"
	"slices"
	"sync"
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
// every attribute).
type node struct {
	k      int
	lo, hi codes
	// bound is an upper bound on the size of any gap inside the node: its
	// out-of-box address count.
	bound float64
}

// gap is a maximal run of out-of-box addresses between two in-box ones:
// after z(before) and up to z(after), exclusive.
type gap struct {
	before, after codes
	size          float64
}

// planWorkPerRange bounds the budgeted search: it expands at most
// planWorkBase + planWorkPerRange·budget subcubes, so planning time is
// bounded whatever the widths. The search usually stops far earlier, when
// no unexplored subcube can hold a gap larger than the gaps it keeps.
const (
	planWorkBase     = 256
	planWorkPerRange = 16
)

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

// outside is the number of out-of-box addresses in the node's subcube, in
// float64: 2^(bits-k) minus the product of the clipped interval lengths.
func (s *Schema) outside(n *node) float64 {
	in := 1.0
	for d := range s.attrs {
		in *= float64(n.hi[d]-n.lo[d]) + 1
	}
	return math.Max(0, math.Ldexp(1, s.bits-n.k)-in)
}

// tailBits is how many address bits, from the first one-bit on, tail
// sums: enough to rank gap sizes (relative error below 2^-31), few enough to
// keep planning fast.
const tailBits = 32

// tail is the value of the address bits after position k of z, inverted
// when invert is set: the distance of z from the start (or, inverted, from
// the end) of its subcube at depth k+1. It sums tailBits bits from the
// first one-bit on, so it is exactly 0 only when every bit is 0.
func (s *Schema) tail(z *codes, k int, invert bool) float64 {
	dims := len(s.attrs)
	// The first one-bit is the highest one among the attributes' bits
	// that are still free below position k.
	first := s.bits
	for d, a := range s.attrs {
		free := a.Width - int(s.consumed[(k+1)*dims+d])
		if free == 0 {
			continue
		}
		v := z[d]
		if invert {
			v = ^v
		}
		v &= maxOf(free)
		if v != 0 {
			first = min(first, int(s.bitPos[d*MaxWidth+bits.Len64(v)-1]))
		}
	}
	if first == s.bits {
		return 0
	}
	var acc uint64
	last := min(s.bits, first+tailBits)
	for p := first; p < last; p++ {
		bit := z[s.posDim[p]] >> s.posBit[p] & 1
		if invert {
			bit ^= 1
		}
		acc = acc<<1 | bit
	}
	return math.Ldexp(float64(acc), s.bits-last)
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

// Ranges covers the box with at most budget ranges (budget < 1 counts as
// 1): a superset of the in-box addresses that adds as few out-of-box ones
// as it can find. See Plan.
func (s *Schema) Ranges(b Box, budget int) []Range {
	return s.Plan(b, budget).Ranges
}

// Plan covers the box with at most budget ranges. The exact cover is a
// sorted list of in-box runs separated by gaps; merging across the smallest
// gaps first is optimal, so the cover keeps the budget-1 largest gaps.
// Every gap sits at a subcube whose two halves both meet the box, between
// the last in-box address of the lower half and the first of the upper, so
// a best-first search over subcubes, ordered by their out-of-box count
// (which bounds any gap inside them), finds the largest gaps without
// enumerating the exact cover. The search stops when no unexplored subcube
// can beat the kept gaps, or after a bounded amount of work; either way the
// result covers the box. Sizes are float64, so it is optimal up to
// rounding. budget >= 1; an empty box gives no ranges.
func (s *Schema) Plan(b Box, budget int) Cover {
	budget = max(budget, 1)
	lo, hi, ok := s.clip(b)
	if !ok {
		return Cover{Exact: true}
	}
	root := node{lo: lo, hi: hi}
	root.bound = s.outside(&root)
	inBox := s.volume(&lo, &hi)
	keep := budget - 1

	sc := planScratchPool.Get().(*planScratch)
	defer planScratchPool.Put(sc)
	gaps := sc.gaps[:0] // min-heap by size, at most keep entries
	arena := sc.arena[:0]
	queue := sc.queue[:0] // max-heap by bound of nodes in arena
	defer func() { sc.gaps, sc.arena, sc.queue = gaps[:0], arena[:0], queue[:0] }()
	// dropped records that some gap was left out of the cover, so it is
	// not exact.
	dropped := false
	if !s.full(&root) {
		if keep > 0 {
			arena = append(arena, root)
			queue = append(queue, entry{bound: root.bound, idx: 0})
		} else {
			dropped = true
		}
	}
	work := planWorkBase + planWorkPerRange*budget
	for len(queue) > 0 && work > 0 {
		top := popMax(&queue)
		n := arena[top.idx]
		if len(gaps) == keep && top.bound <= gaps[0].size {
			dropped = true
			break
		}
		work--
		// Follow the chain of splits where only one half meets the box
		// down to the split that has a gap.
		for n.k < s.bits {
			c0, c1, has0, has1 := s.split(&n)
			if !has0 || !has1 {
				if has0 {
					n = c0
				} else {
					n = c1
				}
				if s.full(&n) {
					break
				}
				continue
			}
			g := gap{before: c0.hi, after: c1.lo}
			g.size = s.tail(&c0.hi, n.k, true) + s.tail(&c1.lo, n.k, false)
			if g.size > 0 {
				switch {
				case len(gaps) < keep:
					pushMinGap(&gaps, g)
				case g.size > gaps[0].size:
					gaps[0] = g
					fixMinGap(gaps, 0)
					dropped = true
				default:
					dropped = true
				}
			}
			for _, c := range [2]*node{&c0, &c1} {
				if s.full(c) {
					continue
				}
				c.bound = s.outside(c)
				if len(gaps) == keep && c.bound <= gaps[0].size {
					dropped = true
					continue
				}
				arena = append(arena, *c)
				pushMax(&queue, entry{bound: c.bound, idx: int32(len(arena) - 1)})
			}
			break
		}
	}

	// The kept gaps split [z(lo), z(hi)] into at most budget ranges.
	type cut struct {
		end, start []byte // the range before ends at end, the next starts at start
		size       float64
	}
	// One buffer holds every address of the result, each capped so an
	// append by the caller cannot run into the next.
	buf := make([]byte, 0, (2*len(gaps)+2)*s.addrLen)
	addr := func(v *codes) []byte {
		n := len(buf)
		buf = s.appendAddr(buf, v)
		return buf[n:len(buf):len(buf)]
	}
	cuts := make([]cut, len(gaps))
	for i := range gaps {
		g := &gaps[i]
		end := addr(&g.before)
		s.step(end, +1) // cannot overflow: an in-box address follows
		cuts[i] = cut{end: end, start: addr(&g.after), size: g.size}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return bytes.Compare(a.start, b.start) })
	ranges := make([]Range, 0, len(cuts)+1)
	start := addr(&lo)
	for _, c := range cuts {
		ranges = append(ranges, Range{Lo: start, Hi: c.end})
		start = c.start
	}
	last := addr(&hi)
	if !s.step(last, +1) {
		last = nil
	}
	ranges = append(ranges, Range{Lo: start, Hi: last})

	// Covered = span - kept gaps, the span from z(lo) to z(hi).
	span := s.tail(&hi, -1, false) - s.tail(&lo, -1, false) + 1
	covered := span
	for _, c := range cuts {
		covered -= c.size
	}
	exact := len(queue) == 0 && !dropped || covered <= inBox
	if covered < inBox || exact {
		covered = inBox // float rounding; the cover always holds the box
	}
	return Cover{Ranges: ranges, InBox: inBox, Covered: covered, Exact: exact}
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

// entry is a queued subcube: its bound and its index in the arena, small so
// heap moves are cheap.
type entry struct {
	bound float64
	idx   int32
}

// planScratch is the reusable memory of one Plan call.
type planScratch struct {
	gaps  []gap
	arena []node
	queue []entry
}

var planScratchPool = sync.Pool{New: func() any { return new(planScratch) }}

// Heap helpers, written out so entries are not boxed into interfaces.

func pushMax(h *[]entry, n entry) {
	*h = append(*h, n)
	q := *h
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if q[p].bound >= q[i].bound {
			break
		}
		q[p], q[i] = q[i], q[p]
		i = p
	}
}

func popMax(h *[]entry) entry {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	i := 0
	for {
		l, r, big := 2*i+1, 2*i+2, i
		if l < len(q) && q[l].bound > q[big].bound {
			big = l
		}
		if r < len(q) && q[r].bound > q[big].bound {
			big = r
		}
		if big == i {
			break
		}
		q[i], q[big] = q[big], q[i]
		i = big
	}
	*h = q
	return top
}

func pushMinGap(h *[]gap, g gap) {
	*h = append(*h, g)
	q := *h
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if q[p].size <= q[i].size {
			break
		}
		q[p], q[i] = q[i], q[p]
		i = p
	}
}

func fixMinGap(q []gap, i int) {
	for {
		l, r, small := 2*i+1, 2*i+2, i
		if l < len(q) && q[l].size < q[small].size {
			small = l
		}
		if r < len(q) && q[r].size < q[small].size {
			small = r
		}
		if small == i {
			return
		}
		q[i], q[small] = q[small], q[i]
		i = small
	}
}
