package zorder

import (
	"bytes"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// NearestCells is a best-first k-nearest-neighbour search over the cells of
// a Z-order index: the aligned subcubes of its address space (every
// address sharing a prefix), each clipped to a base box, in a priority
// queue ordered by their least distance from a centre over two float
// attributes (the x and y of a point). No key-value store orders its keys
// by distance, but a cell's addresses are one contiguous range, so the
// search reads the index as the union of the cells that can still hold
// one of the k nearest: a disc around the centre, not a square.
//
// The caller asks for batches (Batch): every unread cell within a radius,
// split until each is no wider than a side (or lies wholly within the
// radius), handed out as sorted ranges with siblings merged, so that one
// batch is one multi-range read. After reading a batch the caller keeps
// its k best candidates; once the k-th is nearer than Settled(), the least
// distance of any unread cell, no unread point can beat it and the search
// is over. Batch(+Inf) reads every cell left (points with NaN or NULL
// coordinates, which no radius reaches, included), so the search can
// always end with an exact answer.
//
// The cells are the address space's own subcubes, so an attribute other
// than x and y splits them too without bringing them nearer: the search
// is meant for schemas of x and y alone (a gist index on points), where a
// batch of radius r splits on the order of (r/side)·4 cells along its
// edge. NearestSearch's square rings serve the others.
//
// Not safe for concurrent use.
type NearestCells struct {
	s      *Schema
	x, y   int
	cx, cy float64
	queue  cellQueue
	read   []Range // ranges the caller read outside the batches (a probe)
	cells  int     // cells handed out
	fine   float64 // the finest side a batch splits to
	work   []cell  // Batch's stack, kept for the next batch
	// offset is the base box's least distance from the centre: 0 for a
	// centre within it, more for one outside (Offset); diag is the box's
	// diagonal over x and y, its finite part.
	offset, diag float64
}

// cell is a node of the search: an aligned subcube clipped to the base
// box, with its least distance from the centre (+Inf when it holds no
// finite point).
type cell struct {
	n    node
	dist float64
}

// cellQueue is a binary min-heap of cells by distance.
type cellQueue []cell

func (q *cellQueue) push(c cell) {
	*q = append(*q, c)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !(h[i].dist < h[p].dist) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *cellQueue) pop() cell {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(h) && h[l].dist < h[m].dist {
			m = l
		}
		if l+1 < len(h) && h[l+1].dist < h[m].dist {
			m = l + 1
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}

// maxCellsPerRadius bounds how fine a batch splits its cells: no finer
// than its radius over this.
const maxCellsPerRadius = 64

// minCellSide is the finest side a batch splits to, relative to the
// centre's magnitude (at least 1).
const minCellSide = 1e-12

// distSlack allows for the caller's rounding of distances: a point at
// true distance d may be computed a few ulps nearer, so a cell counts as
// within r when its least distance, so lessened, is.
const distSlack = 1 - 1e-12

// NearestCells starts a search around (cx, cy) over attributes x and y,
// both float attributes of the schema, among the points of base (nil: the
// whole index). A centre with a NaN or infinite coordinate has no finite
// neighbourhood: call Batch(+Inf).
func (s *Schema) NearestCells(base Box, x, y int, cx, cy float64) *NearestCells {
	if base == nil {
		base = s.Universe()
	}
	n := &NearestCells{s: s, x: x, y: y, cx: cx, cy: cy}
	if b, ok := cellBuffers.Get().(*cellBuffer); ok {
		n.queue, n.work = b.queue[:0], b.work[:0]
	}
	if finite(cx) && finite(cy) {
		n.fine = max(math.Abs(cx), math.Abs(cy), 1) * minCellSide
	}
	if lo, hi, ok := s.clip(base); ok {
		root := node{lo: lo, hi: hi}
		n.queue = append(n.queue, cell{n: root, dist: n.distance(&root)})
		if d := n.queue[0].dist; finite(d) {
			n.offset = d
			xlo, xhi := s.finiteSpan(x, lo[x], hi[x])
			ylo, yhi := s.finiteSpan(y, lo[y], hi[y])
			n.diag = math.Hypot(xhi-xlo, yhi-ylo)
		}
	}
	return n
}

// cellBuffer is a finished search's queue and stack, kept for the next
// (Release): a batch queues every cell beyond its radius that a split
// leaves, 144 bytes each, which grown afresh were a seventh of a search's
// allocation.
type cellBuffer struct {
	queue cellQueue
	work  []cell
}

var cellBuffers sync.Pool

// Release hands the search's buffers on to a later search; n must not be
// used after.
func (n *NearestCells) Release() {
	if cap(n.queue) > maxKeptCells || cap(n.work) > maxKeptCells {
		return // a search that split far more than most: let it go
	}
	cellBuffers.Put(&cellBuffer{queue: n.queue[:0], work: n.work[:0]})
	n.queue, n.work = nil, nil
}

// maxKeptCells bounds the buffers Release keeps.
const maxKeptCells = 4096

// Offset is the least distance from the centre of any point the base box
// can hold: 0 when the centre lies within the box, the gap to its nearest
// side or corner when outside. A search's radii are this plus the reach
// into the data: a disc around a distant centre meets the box in a thin
// lens, so its radius says nothing of how finely to split the cells, nor
// of how many points it holds.
func (n *NearestCells) Offset() float64 { return n.offset }

// MarkRead records a range the caller read outside the batches (a probe
// for the search's scale): no batch reads it again. The caller must have
// read every entry of the base box in it.
func (n *NearestCells) MarkRead(r Range) {
	n.read = UnionRanges(n.read, []Range{r})
}

// CellAround is the aligned cell of the address space, clipped to base
// (nil: the whole index), that holds the point (cx, cy) of float
// attributes x and y: the deepest whose area over x and y is still at
// least area, so that a search's first read, sized by the rows it is
// expected to hold, is one range around the centre. ok is false when the
// point is no finite point of base. The other attributes' codes are
// base's whole span: the cell holds every address of the point's
// neighbourhood.
func (s *Schema) CellAround(base Box, x, y int, cx, cy, area float64) (r Range, ok bool) {
	if !finite(cx) || !finite(cy) {
		return Range{}, false
	}
	if base == nil {
		base = s.Universe()
	}
	lo, hi, ok := s.clip(base)
	if !ok {
		return Range{}, false
	}
	px, py := s.attrs[x].Float(cx), s.attrs[y].Float(cy)
	holds := func(n *node) bool {
		return n.lo[x] <= px && px <= n.hi[x] && n.lo[y] <= py && py <= n.hi[y]
	}
	n := node{lo: lo, hi: hi}
	if !holds(&n) {
		return Range{}, false
	}
	for n.k < s.bits {
		c0, c1, has0, has1 := s.split(&n)
		var next node
		switch {
		case has0 && holds(&c0):
			next = c0
		case has1 && holds(&c1):
			next = c1
		default:
			return s.cellRange(&n), true // unreachable: a child holds the point
		}
		xlo, xhi := s.floatSpan(x, next.lo[x], next.hi[x])
		ylo, yhi := s.floatSpan(y, next.lo[y], next.hi[y])
		if (xhi-xlo)*(yhi-ylo) < area {
			break
		}
		n = next
	}
	return s.cellRange(&n), true
}

// CellsAround are the aligned cells of the address space, clipped to
// base, around (cx, cy), or around the point of base nearest to it when
// it lies outside: nested, each of about a 64th of the next one's area
// over x and y, from about 64⁻² of base's down, the last base's whole
// clipped box, and none when the point is not finite or base holds no
// finite point; px and py are the point they are around. Read from the
// smallest out, they are a probe's
// neighbourhood of the centre along the Z-curve, on both sides of its
// address.
func (s *Schema) CellsAround(base Box, x, y int, cx, cy float64) (cells []Range, px, py float64) {
	if !finite(cx) || !finite(cy) {
		return nil, cx, cy
	}
	if base == nil {
		base = s.Universe()
	}
	lo, hi, ok := s.clip(base)
	if !ok {
		return nil, cx, cy
	}
	xlo, xhi := s.finiteSpan(x, lo[x], hi[x])
	ylo, yhi := s.finiteSpan(y, lo[y], hi[y])
	if !(xlo <= xhi && ylo <= yhi) {
		return nil, cx, cy
	}
	cx, cy = min(max(cx, xlo), xhi), min(max(cy, ylo), yhi)
	area := (xhi - xlo) * (yhi - ylo)
	var out []Range
	for _, f := range []float64{1 << 12, 1 << 6} {
		if r, ok := s.CellAround(base, x, y, cx, cy, area/f); ok && (len(out) == 0 || !bytes.Equal(out[len(out)-1].Lo, r.Lo) || !bytes.Equal(out[len(out)-1].Hi, r.Hi)) {
			out = append(out, r)
		}
	}
	root := node{lo: lo, hi: hi}
	return append(out, s.cellRange(&root)), cx, cy
}

// finiteSpan is the span of the finite values of float attribute d with
// codes in [loC, hiC] (lo > hi when there are none).
func (s *Schema) finiteSpan(d int, loC, hiC uint64) (lo, hi float64) {
	lo, hi = s.floatSpan(d, loC, hiC)
	if math.IsInf(lo, -1) || math.IsNaN(lo) {
		lo = -math.MaxFloat64
	}
	if math.IsInf(hi, 1) || math.IsNaN(hi) {
		hi = math.MaxFloat64
	}
	return lo, hi
}

// Settled is the least distance from the centre of any cell not yet
// handed out, lessened for rounding, and +Inf when none is left: a
// candidate nearer than this cannot be beaten, nor tied, by an unread
// point.
func (n *NearestCells) Settled() float64 {
	if len(n.queue) == 0 {
		return math.Inf(1)
	}
	return n.queue[0].dist * distSlack
}

// Cells is how many cells the batches have handed out so far (before
// siblings were merged into ranges): with the batches and their ranges,
// what EXPLAIN ANALYZE shows of the search.
func (n *NearestCells) Cells() int { return n.cells }

// Done reports that every cell has been handed out.
func (n *NearestCells) Done() bool { return len(n.queue) == 0 }

// Batch hands out, as sorted and disjoint address ranges, every unread
// cell whose least distance from the centre is at most r, after splitting
// each that is larger than a square of that side and not wholly within r (a cell
// wholly within r is read whole: all of it is needed), but none finer than
// r/64, which bounds the work, nor than minCellSide of the centre's
// magnitude. The ranges are read
// for good: the caller must keep every entry of the base box they hold.
// Batch(+Inf) hands out every cell left. The ranges the caller marked read
// are left out.
func (n *NearestCells) Batch(r, side float64) []Range {
	var out []Range
	all := math.IsInf(r, 1) || math.IsNaN(r)
	// The cells a batch splits grow as (r/side)²: bound the work. And no
	// finer than a trillionth of the centre's magnitude: float codes are
	// logarithmic, so a tiny disc at a zero coordinate spans a quarter of
	// that attribute's codes, and a side whose square underflows would
	// split every one of them (a disc from the density of a few points
	// tied there is that small).
	side = max(side, n.reach(r)/maxCellsPerRadius, n.fine)
	within := func(c *cell) bool { return all || c.dist*distSlack <= r }
	// The cells within r are all handed out or split, in whatever order:
	// they are worked off a stack, and only the cells beyond r, which
	// later batches and Settled need in order of distance, go back to the
	// queue (most cells of a batch are never queued, and none is boxed in
	// an interface as container/heap would).
	work := n.work[:0]
	var slab []byte // the handed-out cells' addresses (cellRangeIn)
	for len(n.queue) > 0 && within(&n.queue[0]) {
		work = append(work, n.queue.pop())
	}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if !all && c.n.k < n.s.bits && n.wide(&c.n, r, side) {
			c0, c1, has0, has1 := n.s.split(&c.n)
			for i, ch := range [2]*node{&c0, &c1} {
				if i == 0 && !has0 || i == 1 && !has1 {
					continue
				}
				cc := cell{n: *ch, dist: n.distance(ch)}
				if within(&cc) {
					work = append(work, cc)
				} else {
					n.queue.push(cc)
				}
			}
			continue
		}
		out = append(out, n.s.cellRangeIn(&slab, &c.n))
		n.cells++
	}
	n.work = work
	slices.SortFunc(out, func(a, b Range) int { return bytes.Compare(a.Lo, b.Lo) })
	out = UnionRanges(out, nil)
	if len(n.read) > 0 {
		out = SubtractRanges(out, n.read)
	}
	return out
}

// Descend finds the nearest cells that hold any point, for a centre far
// from the data: it takes the nearest cell not yet handed out, asks empty
// whether the base box has an entry in its range, drops it if not (no
// batch reads it), splits it if it is larger than a square of side side,
// and stops at the first that holds a point and is no larger (put back),
// or after asks questions. Every cell nearer than Settled() afterwards was
// found empty, so Settled is a floor of the nearest point's distance: the
// search's batches then reach out from there, not from the box's edge,
// across whatever empty margin lies between.
func (n *NearestCells) Descend(side float64, asks int, empty func(Range) (bool, error)) error {
	for ; asks > 0 && len(n.queue) > 0; asks-- {
		c := n.queue[0]
		if !finite(c.dist) {
			return nil // only NULL or NaN points are left: Batch(+Inf) reads them
		}
		c = n.queue.pop()
		none, err := empty(n.s.cellRange(&c.n))
		if err != nil {
			return err
		}
		switch {
		case none:
			continue
		case c.n.k < n.s.bits && n.wide(&c.n, -1, side):
			c0, c1, has0, has1 := n.s.split(&c.n)
			if has0 {
				n.queue.push(cell{n: c0, dist: n.distance(&c0)})
			}
			if has1 {
				n.queue.push(cell{n: c1, dist: n.distance(&c1)})
			}
		default:
			n.queue.push(c)
			return nil
		}
	}
	return nil
}

// reach is how far across the base box the disc of radius r reaches: r
// for a centre within the box; for one outside it, the half chord of the
// disc at the box's nearest point (the lens the disc cuts from the box is
// no wider), and no more than the box's diagonal, not r, which would make
// a distant centre's cells as coarse as the distance is long.
func (n *NearestCells) reach(r float64) float64 {
	if n.offset == 0 || math.IsInf(r, 1) {
		return r
	}
	return min(math.Sqrt(max(0, r*r-n.offset*n.offset)), n.diag)
}

// wide reports whether a cell is to be split rather than read: larger
// than a square of side side, and not wholly within distance r of the
// centre. It is the area that counts, not each width: float codes are
// logarithmic, so near zero a cell can be very narrow in one attribute
// while still wide in the other, and splitting it further would only
// split the narrow one into a great many cells of the same distance.
func (n *NearestCells) wide(c *node, r, side float64) bool {
	xlo, xhi := n.span(n.x, c)
	ylo, yhi := n.span(n.y, c)
	if (xhi-xlo)*(yhi-ylo) <= side*side {
		return false
	}
	// Its farthest corner: a cell within r is read whole.
	fx := max(math.Abs(xlo-n.cx), math.Abs(xhi-n.cx))
	fy := max(math.Abs(ylo-n.cy), math.Abs(yhi-n.cy))
	return !(math.Hypot(fx, fy) <= r)
}

// span is the range of values of float attribute d in the cell's clipped
// box.
func (n *NearestCells) span(d int, c *node) (lo, hi float64) {
	return n.s.floatSpan(d, c.lo[d], c.hi[d])
}

// floatSpan is the range of values of float attribute d with codes in
// [loC, hiC]: NULL (code 0 of a nullable attribute) counts as -Inf, and
// NaN as the infinity on its side, the ends no finite distance is drawn
// from.
func (s *Schema) floatSpan(d int, loC, hiC uint64) (lo, hi float64) {
	a := s.attrs[d]
	null := a.Nullable && loC == 0
	if a.Nullable {
		if hiC == 0 {
			return math.Inf(-1), math.Inf(-1)
		}
		loC, hiC = max(loC, 1)-1, hiC-1
	}
	shift := uint(64 - a.w())
	lo, hi = orderFloat(loC<<shift), orderFloat(hiC<<shift|(1<<shift-1))
	if null {
		lo = math.Inf(-1)
	}
	return lo, hi
}

// RangeArea is the area, over float attributes x and y, of the addresses
// in r: the sum of the areas of the aligned subcubes r is made of (at most
// two per address bit). Spread over that area, the entries a caller read
// in r give their density, the scale of a nearest-neighbour search. It is
// +Inf when r reaches NULL, NaN or infinite codes.
//
// Bounds that are whole addresses, the executor's, follow the bounds'
// paths alone (pathArea); others are walked. The walk starts from the
// whole address space, so every node it meets is a whole aligned subcube:
// its least address is its k-bit prefix followed by zeros, its greatest
// the prefix followed by ones. The walk keeps both
// as it splits, one bit set or cleared a step, rather than interleaving
// every node's codes again (that, and an allocation per address, was most
// of a kNN query's CPU: the executor asks for the area of every probe and
// of every gap between a batch's ranges).
func (s *Schema) RangeArea(r Range, x, y int) float64 {
	return s.rangeArea(r, x, y, noClip)
}

// RangeAreaIn is RangeArea within base's span of x and y (nil: the whole
// index): the area a range covers of the data, when base is the data's
// box, not of the address space around it (a Z-range between two corners
// of the data passes through much of the space outside).
func (s *Schema) RangeAreaIn(r Range, x, y int, base Box) float64 {
	if base == nil {
		return s.RangeArea(r, x, y)
	}
	lo, hi, ok := s.clip(base)
	if !ok {
		return 0
	}
	c := areaClip{}
	c.x0, c.x1 = s.floatSpan(x, lo[x], hi[x])
	c.y0, c.y1 = s.floatSpan(y, lo[y], hi[y])
	return s.rangeArea(r, x, y, c)
}

// areaClip is the box of x and y a range's area is counted within.
type areaClip struct{ x0, x1, y0, y1 float64 }

var noClip = areaClip{math.Inf(-1), math.Inf(1), math.Inf(-1), math.Inf(1)}

// area is the area of the span [xlo, xhi] × [ylo, yhi] within c.
func (c areaClip) area(xlo, xhi, ylo, yhi float64) float64 {
	if c == noClip {
		return (xhi - xlo) * (yhi - ylo)
	}
	w, h := min(xhi, c.x1)-max(xlo, c.x0), min(yhi, c.y1)-max(ylo, c.y0)
	if !(w > 0) || !(h > 0) {
		return 0
	}
	return w * h
}

func (s *Schema) rangeArea(r Range, x, y int, clip areaClip) float64 {
	if area, ok := s.pathArea(r, x, y, clip); ok {
		return area
	}
	w := areaWalk{s: s, r: r, x: x, y: y, clip: clip}
	for p := range s.bits {
		w.b[p>>3] |= 0x80 >> uint(p&7)
	}
	return w.walk(0, areaCell{xhi: s.maxCodes[x], yhi: s.maxCodes[y]})
}

// pathArea is RangeArea for a range whose bounds are whole addresses (or
// open), as the executor's are, without the walk's comparisons: below the
// bit where the bounds part, the walk splits only the subcubes on the
// path of each bound, and which child of them lies wholly inside is that
// bound's bit. It sums the same subcubes in the same order as the walk
// (each level's subcube added to the sum of those below it), so the area
// is the walk's to the bit. ok is false for other bounds.
func (s *Schema) pathArea(r Range, x, y int, clip areaClip) (area float64, ok bool) {
	l := s.addrLen
	unused := byte(1)<<uint(8*l-s.bits) - 1 // the last byte's bits past the address
	whole := func(b []byte) bool { return len(b) == l && l > 0 && b[l-1]&unused == 0 }
	if len(r.Lo) > 0 && !whole(r.Lo) || r.Hi != nil && !whole(r.Hi) {
		return 0, false
	}
	bit := func(b []byte, k int) bool { return len(b) > 0 && b[k>>3]&(0x80>>uint(k&7)) != 0 }
	// lastOne is the position of b's last 1 bit, -1 if none: b's bits
	// from k on are all zero (the subcube of b's first k bits starts at
	// b) when k > lastOne(b).
	lastOne := func(b []byte) int {
		for i := len(b) - 1; i >= 0; i-- {
			if b[i] != 0 {
				return 8*i + 7 - bits.TrailingZeros8(b[i])
			}
		}
		return -1
	}
	loEnd, hiEnd := lastOne(r.Lo), lastOne(r.Hi)
	if r.Hi != nil && bytes.Compare(r.Lo, r.Hi) >= 0 {
		return 0, true
	}
	c := areaCell{xhi: s.maxCodes[x], yhi: s.maxCodes[y]}
	child := func(c areaCell, k int, one bool) areaCell {
		d, m := int(s.posDim[k]), uint64(1)<<s.posBit[k]
		switch {
		case d == x && one:
			c.xlo |= m
		case d == x:
			c.xhi &^= m
		case d == y && one:
			c.ylo |= m
		case d == y:
			c.yhi &^= m
		}
		return c
	}
	cellArea := func(c areaCell) float64 {
		xlo, xhi := s.floatSpan(x, c.xlo, c.xhi)
		ylo, yhi := s.floatSpan(y, c.ylo, c.yhi)
		return clip.area(xlo, xhi, ylo, yhi)
	}
	// The bounds' common prefix: one child of each subcube on it is in
	// the range, the other outside.
	k := 0
	for ; r.Hi != nil && k < s.bits && bit(r.Lo, k) == bit(r.Hi, k); k++ {
		c = child(c, k, bit(r.Lo, k))
	}
	// lower is the area of [Lo, the end of subcube c) for the subcube c
	// of depth k that holds Lo; upper that of [the start of c, Hi) for
	// the one that holds Hi.
	var lower func(c areaCell, k int) float64
	lower = func(c areaCell, k int) float64 {
		if k == s.bits || k > loEnd {
			return cellArea(c)
		}
		if bit(r.Lo, k) {
			return 0 + lower(child(c, k, true), k+1)
		}
		return lower(child(c, k, false), k+1) + cellArea(child(c, k, true))
	}
	var upper func(c areaCell, k int) float64
	upper = func(c areaCell, k int) float64 {
		if k == s.bits || k > hiEnd {
			return 0
		}
		if bit(r.Hi, k) {
			return cellArea(child(c, k, false)) + upper(child(c, k, true), k+1)
		}
		return upper(child(c, k, false), k+1) + 0
	}
	switch {
	case r.Hi == nil:
		return lower(c, k), true
	case k == s.bits:
		return 0, true // [no bound, the least address): empty
	}
	// Lo's bit k is 0 and Hi's is 1.
	return lower(child(c, k, false), k+1) + upper(child(c, k, true), k+1), true
}

// areaWalk is RangeArea's walk over the subcubes of range r: a and b are
// the least and greatest addresses of the subcube being walked, each bit
// set or cleared on the way down and restored on the way up.
type areaWalk struct {
	s    *Schema
	r    Range
	x, y int
	clip areaClip
	a, b [maxWords * 8]byte
}

// areaCell is a subcube's codes of x and y, all the walk needs of it: the
// other attributes' bits split it too, but do not change its area.
type areaCell struct{ xlo, xhi, ylo, yhi uint64 }

// walk is the area of the addresses of r in the subcube of depth k with
// codes c, whose least and greatest addresses are w.a and w.b.
func (w *areaWalk) walk(k int, c areaCell) float64 {
	s, r := w.s, w.r
	a, b := w.a[:s.addrLen], w.b[:s.addrLen]
	if (r.Hi != nil && bytes.Compare(a, r.Hi) >= 0) || bytes.Compare(b, r.Lo) < 0 {
		return 0
	}
	if bytes.Compare(a, r.Lo) >= 0 && (r.Hi == nil || bytes.Compare(b, r.Hi) < 0) || k == s.bits {
		xlo, xhi := s.floatSpan(w.x, c.xlo, c.xhi)
		ylo, yhi := s.floatSpan(w.y, c.ylo, c.yhi)
		return w.clip.area(xlo, xhi, ylo, yhi)
	}
	// Address bit k is the code bit m of attribute d: 0 in the lower
	// child, 1 in the upper (a whole subcube's hi has it set, its lo
	// clear).
	d, m := int(s.posDim[k]), uint64(1)<<s.posBit[k]
	c0, c1 := c, c
	switch d {
	case w.x:
		c0.xhi &^= m
		c1.xlo |= m
	case w.y:
		c0.yhi &^= m
		c1.ylo |= m
	}
	i, bit := k>>3, byte(0x80)>>uint(k&7)
	w.b[i] &^= bit
	area := w.walk(k+1, c0)
	w.b[i] |= bit
	w.a[i] |= bit
	area += w.walk(k+1, c1)
	w.a[i] &^= bit
	return area
}

// orderFloat is the float of order bits u, with the NaNs at either end of
// the order (the codes below -Inf's, which FloatCode never gives, and the
// NaNs above +Inf) as the infinity on their side.
func orderFloat(u uint64) float64 {
	f := floatFromOrderBits(u)
	if math.IsNaN(f) {
		return math.Copysign(math.Inf(1), f)
	}
	return f
}

// distance is the least distance from the centre of a point the cell can
// hold with finite coordinates, +Inf when it can hold none (only NULL or
// NaN coordinates: their distances sort after every number).
func (n *NearestCells) distance(c *node) float64 {
	if !n.finiteIn(n.x, c) || !n.finiteIn(n.y, c) {
		return math.Inf(1)
	}
	xlo, xhi := n.span(n.x, c)
	ylo, yhi := n.span(n.y, c)
	dx := max(0, xlo-n.cx, n.cx-xhi)
	dy := max(0, ylo-n.cy, n.cy-yhi)
	return math.Hypot(dx, dy)
}

// finiteIn reports whether the cell holds any code of attribute d that is
// a number: neither NULL nor NaN only.
func (n *NearestCells) finiteIn(d int, c *node) bool {
	a := n.s.attrs[d]
	hiC := c.hi[d]
	if a.Nullable {
		if hiC == 0 {
			return false
		}
	}
	loC := c.lo[d]
	if a.Nullable {
		loC = max(loC, 1) - 1
	}
	shift := uint(64 - a.w())
	f := floatFromOrderBits(loC << shift)
	return !math.IsNaN(f) || math.Signbit(f)
}
