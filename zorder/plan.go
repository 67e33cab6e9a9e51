package zorder

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// planWorkPerRange bounds the budgeted search: it expands at most
// planWorkBase + planWorkPerRange·budget subcubes, so planning time is
// bounded whatever the widths. The search usually stops far earlier, when
// no unexplored subcube can hold a gap larger than the gaps it keeps.
const (
	planWorkBase     = 256
	planWorkPerRange = 16
)

// tailBits is how many address bits, from the first one-bit on, a gap size
// sums: enough to rank gap sizes (relative error below 2^-31), few enough
// to keep planning fast.
const tailBits = 32

// maxWords is the longest Z-address in 64-bit words.
const maxWords = MaxAttrs * MaxWidth / 64

// The planner works on Z-addresses held as big-endian 64-bit words: address
// bit p (0 the most significant) is bit 63-p%64 of word p/64, and the bits
// past Bits are zero. In that form the questions the search asks of a
// subcube (where its clipped box first splits, whether it fills the
// subcube, how far an address lies from a subcube's end) are a few word
// operations instead of a walk over the interleaving tables.
//
// A planNode is a subcube of depth k (kept beside it, in the queue entry)
// stored as a run of 2·dims+2·words words of a flat arena, so a node costs
// only what its schema needs and splitting copies no fixed-size arrays:
//
//	[0, dims)                  lo: the clipped box's low code per attribute
//	[dims, 2·dims)             hi: its high code per attribute
//	[2·dims, 2·dims+words)     z(lo): its first in-box address
//	[2·dims+words, 2·dims+2·words) z(hi): its last in-box address
//
// The codes give the in-box volume (the search's bound); the addresses give
// everything else.
type planNode = []uint64

// fromMask is the mask of the address bits at positions >= p in word w.
func fromMask(p, w int) uint64 {
	switch {
	case w < p>>6:
		return 0
	case w > p>>6:
		return ^uint64(0)
	}
	return ^uint64(0) >> uint(p&63)
}

// loadAddr reads an AddrLen-byte address into words.
func (s *Schema) loadAddr(z []uint64, addr []byte) {
	for w := range z {
		if len(addr) >= 8 {
			z[w] = binary.BigEndian.Uint64(addr)
			addr = addr[8:]
			continue
		}
		var x uint64
		for i, c := range addr {
			x |= uint64(c) << uint(56-8*i)
		}
		z[w], addr = x, nil
	}
}

// appendWords appends the AddrLen bytes of the address z.
func (s *Schema) appendWords(dst []byte, z []uint64) []byte {
	n := s.addrLen
	for w := 0; n > 0; w++ {
		if n >= 8 {
			dst = binary.BigEndian.AppendUint64(dst, z[w])
			n -= 8
			continue
		}
		for i := 0; i < n; i++ {
			dst = append(dst, byte(z[w]>>uint(56-8*i)))
		}
		n = 0
	}
	return dst
}

// addrWords interleaves the codes into address words.
func (s *Schema) addrWords(z []uint64, v *codes) {
	var buf [maxWords * 8]byte
	s.loadAddr(z, s.appendAddr(buf[:0], v))
}

// tailOf is the value of the address bits in t, which has no bit set
// before position from, summed over tailBits bits from the first one-bit
// on: exactly 0 only when every bit is 0. It is the distance of an address
// from the start of its subcube at depth from, or, for an inverted address,
// from its end.
func (s *Schema) tailOf(t []uint64, from int) float64 {
	for w := from >> 6; w < s.words; w++ {
		if t[w] == 0 {
			continue
		}
		first := w<<6 + bits.LeadingZeros64(t[w])
		last := min(s.bits, first+tailBits)
		off := uint(first & 63)
		x := t[w] << off
		if off > 0 && w+1 < s.words {
			x |= t[w+1] >> (64 - off)
		}
		return float64(x>>uint(64-(last-first))) * pow2(s.bits-last)
	}
	return 0
}

// firstSplit is the first position >= k where z(lo) and z(hi) differ: the
// address bit at which the node's clipped box first meets both halves of
// its subcube. Before it, splitting leaves a single child holding the same
// box. It is Bits when the box is one address.
func (s *Schema) firstSplit(zlo, zhi []uint64, k int) int {
	for w := k >> 6; w < s.words; w++ {
		if x := (zlo[w] ^ zhi[w]) & fromMask(k, w); x != 0 {
			return w<<6 + bits.LeadingZeros64(x)
		}
	}
	return s.bits
}

// fillsAt reports whether the node's clipped box fills its subcube of depth
// k: every address bit from k on is 0 in z(lo) and 1 in z(hi).
func (s *Schema) fillsAt(zlo, zhi []uint64, k int) bool {
	for w := k >> 6; w < s.words; w++ {
		m := fromMask(k, w)
		if w == s.words-1 {
			m &= s.lastMask
		}
		if zlo[w]&m != 0 || ^zhi[w]&m != 0 {
			return false
		}
	}
	return true
}

// outsideAt is the number of out-of-box addresses in a node's subcube of
// depth k, in float64: 2^(bits-k) minus the product of the clipped interval
// lengths. It bounds the size of any gap inside the node.
func (s *Schema) outsideAt(lo, hi []uint64, k int) float64 {
	in := 1.0
	for d := range lo {
		in *= float64(hi[d]-lo[d]) + 1
	}
	if out := pow2(s.bits-k) - in; out > 0 {
		return out
	}
	return 0
}

// pow2 is 2^e for 0 <= e <= 1023, exactly; multiplying by it is exact, so
// it is math.Ldexp without the general case's cost.
func pow2(e int) float64 { return math.Float64frombits(uint64(1023+e) << 52) }

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
	dims, nw := len(s.attrs), s.words
	stride := 2*dims + 2*nw
	zl, zh := 2*dims, 2*dims+nw // offsets of z(lo) and z(hi) in a node
	inBox := s.volume(&lo, &hi)
	keep := budget - 1

	sc := planScratchPool.Get().(*planScratch)
	defer planScratchPool.Put(sc)
	gaps := sc.gaps[:0]       // min-heap by size, at most keep entries
	gapAddr := sc.gapAddr[:0] // per gap slot: z(before), z(after)
	arena := sc.arena[:0]     // planNodes
	queue := sc.queue[:0]     // max-heap by bound of nodes in arena
	defer func() {
		sc.gaps, sc.gapAddr, sc.arena, sc.queue = gaps[:0], gapAddr[:0], arena[:0], queue[:0]
	}()

	arena = append(arena, make([]uint64, stride)...)
	root := planNode(arena[:stride])
	copy(root, lo[:dims])
	copy(root[dims:], hi[:dims])
	s.addrWords(root[zl:zh], &lo)
	s.addrWords(root[zh:], &hi)
	var rootLo, rootHi [maxWords]uint64
	copy(rootLo[:], root[zl:zh])
	copy(rootHi[:], root[zh:])

	// dropped records that some gap was left out of the cover, so it is
	// not exact.
	dropped := false
	if !s.fillsAt(root[zl:zh], root[zh:], 0) {
		if keep > 0 {
			queue = append(queue, entry{bound: s.outsideAt(root[:dims], root[dims:2*dims], 0)})
		} else {
			dropped = true
		}
	}
	c0, c1 := planNode(sc.child[0][:stride]), planNode(sc.child[1][:stride])
	var before, after [maxWords]uint64 // a gap's edges, bits after the split only
	work := planWorkBase + planWorkPerRange*budget
	for len(queue) > 0 && work > 0 {
		top := popMax(&queue)
		if len(gaps) == keep && top.bound <= gaps[0].size {
			dropped = true
			break
		}
		work--
		n := arena[int(top.idx)*stride:][:stride]
		// Skip the chain of splits where only one half meets the box; the
		// box cannot fill its subcube along it.
		k := s.firstSplit(n[zl:zh], n[zh:], int(top.k))
		if k == s.bits || k > int(top.k) && s.fillsAt(n[zl:zh], n[zh:], k) {
			continue
		}
		// Split at bit k of attribute d. The lower child's box ends at
		// code …0111 of d, the upper child's starts at …1000: in address
		// terms, bit k and the later bits of d.
		d := int(s.posDim[k])
		m := uint64(1) << s.posBit[k]
		copy(c0, n)
		copy(c1, n)
		c0[dims+d] = load0111(n[dims+d], m)
		c1[d] = load1000(n[d], m)
		z0hi, z1lo := c0[zh:], c1[zl:zh]
		dm := s.dimMask[d*nw : (d+1)*nw]
		kw, kbit := k>>6, uint64(1)<<uint(63-k&63)
		for w := kw; w < nw; w++ {
			later := dm[w] & fromMask(k+1, w)
			z0hi[w] |= later
			z1lo[w] &^= later
			rest := fromMask(k+1, w)
			if w == nw-1 {
				rest &= s.lastMask
			}
			before[w] = ^z0hi[w] & rest
			after[w] = z1lo[w] & rest
		}
		z0hi[kw] &^= kbit
		z1lo[kw] |= kbit
		// The gap runs from the end of the lower child's box to the end of
		// its subcube, then from the start of the upper subcube to its box.
		size := s.tailOf(before[:nw], k+1) + s.tailOf(after[:nw], k+1)
		if size > 0 {
			slot := int32(-1)
			switch {
			case len(gaps) < keep:
				slot = int32(len(gaps))
				gapAddr = append(gapAddr, make([]uint64, 2*nw)...)
				pushMinGap(&gaps, gapEntry{size: size, slot: slot})
			case size > gaps[0].size:
				slot = gaps[0].slot
				gaps[0].size = size
				fixMinGap(gaps, 0)
				dropped = true
			default:
				dropped = true
			}
			if slot >= 0 {
				g := gapAddr[int(slot)*2*nw:]
				copy(g[:nw], z0hi)
				copy(g[nw:2*nw], z1lo)
			}
		}
		for _, c := range [2]planNode{c0, c1} {
			if s.fillsAt(c[zl:zh], c[zh:], k+1) {
				continue
			}
			bound := s.outsideAt(c[:dims], c[dims:2*dims], k+1)
			if len(gaps) == keep && bound <= gaps[0].size {
				dropped = true
				continue
			}
			idx := int32(len(arena) / stride)
			arena = append(arena, c...)
			pushMax(&queue, entry{bound: bound, idx: idx, k: int32(k + 1)})
		}
	}

	// The kept gaps, in address order, split [z(lo), z(hi)] into at most
	// budget ranges.
	order := sc.order[:0]
	for _, g := range gaps {
		order = append(order, g)
	}
	sc.order = order[:0]
	afterOf := func(slot int32) []uint64 {
		return gapAddr[int(slot)*2*nw+nw:][:nw]
	}
	slices.SortFunc(order, func(a, b gapEntry) int {
		return slices.Compare(afterOf(a.slot), afterOf(b.slot))
	})
	// One buffer holds every address of the result, each capped so an
	// append by the caller cannot run into the next.
	buf := make([]byte, 0, (2*len(gaps)+2)*s.addrLen)
	addr := func(z []uint64) []byte {
		n := len(buf)
		buf = s.appendWords(buf, z)
		return buf[n:len(buf):len(buf)]
	}
	// Covered sums each range's length, first to last in-box address,
	// each computed exactly from the words before rounding to float64: the
	// span minus the gaps would cancel catastrophically for a small box
	// deep in a wide address space (both near 2^bits, their difference
	// tiny), and the gaps' sizes are ranked from 32 bits only.
	ranges := make([]Range, 0, len(order)+1)
	covered := 0.0
	startW := rootLo[:nw]
	start := addr(startW)
	for _, g := range order {
		endW := gapAddr[int(g.slot)*2*nw:][:nw]
		covered += s.runLength(startW, endW)
		end := addr(endW)
		s.step(end, +1) // cannot overflow: an in-box address follows
		ranges = append(ranges, Range{Lo: start, Hi: end})
		startW = afterOf(g.slot)
		start = addr(startW)
	}
	covered += s.runLength(startW, rootHi[:nw])
	last := addr(rootHi[:nw])
	if !s.step(last, +1) {
		last = nil
	}
	ranges = append(ranges, Range{Lo: start, Hi: last})

	exact := len(queue) == 0 && !dropped || covered <= inBox
	if covered < inBox || exact {
		// Rounding: the cover always holds the box.
		covered = inBox
	}
	return Cover{Ranges: ranges, InBox: inBox, Covered: covered, Exact: exact}
}

// runLength is the number of addresses from lo to hi inclusive (address
// words, lo <= hi), in float64: the difference is taken exactly, word by
// word with borrow, and only then rounded, so a short run of long addresses
// keeps its length.
func (s *Schema) runLength(lo, hi []uint64) float64 {
	var diff [maxWords]uint64
	var borrow uint64
	for w := s.words - 1; w >= 0; w-- {
		diff[w], borrow = bits.Sub64(hi[w], lo[w], borrow)
	}
	// The words hold the address in their top bits: the value of the
	// word array is the address shifted left by pad bits.
	pad := 64*s.words - s.bits
	for w := 0; w < s.words; w++ {
		if diff[w] == 0 {
			continue
		}
		// Two words hold at least 65 significant bits, more than float64
		// keeps; the rest cannot change the rounded result by more than
		// an ulp.
		v := float64(diff[w])
		if w+1 < s.words {
			v = v*0x1p64 + float64(diff[w+1])
		} else {
			v *= 0x1p64
		}
		// v is diff's words w and w+1 as one 128-bit number; scale it to
		// its place (the words after w+1 are below its precision).
		return math.Ldexp(v, 64*(s.words-w-2)-pad) + 1
	}
	return 1
}

// entry is a queued subcube: its bound, its depth and its index in the
// arena, small so heap moves are cheap.
type entry struct {
	bound float64
	idx   int32
	k     int32
}

// gapEntry is a kept gap: its size and the slot of its edge addresses.
type gapEntry struct {
	size float64
	slot int32
}

// planScratch is the reusable memory of one Plan call.
type planScratch struct {
	gaps    []gapEntry
	order   []gapEntry
	gapAddr []uint64
	arena   []uint64
	queue   []entry
	child   [2][2*MaxAttrs + 2*maxWords]uint64
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

// popMax moves the last entry down from the root: a hole moves instead of
// swapped entries, with the same comparisons as a swapping sift-down.
func popMax(h *[]entry) entry {
	q := *h
	top := q[0]
	last := len(q) - 1
	x := q[last]
	q = q[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(q) {
			break
		}
		big, bb := i, x.bound
		if q[l].bound > bb {
			big, bb = l, q[l].bound
		}
		if r := l + 1; r < len(q) && q[r].bound > bb {
			big = r
		}
		if big == i {
			break
		}
		q[i] = q[big]
		i = big
	}
	if last > 0 {
		q[i] = x
	}
	*h = q
	return top
}

func pushMinGap(h *[]gapEntry, g gapEntry) {
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

func fixMinGap(q []gapEntry, i int) {
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
