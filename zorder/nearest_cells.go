package zorder

import (
	"bytes"
	"math"
	"slices"
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
}

// cell is a node of the search: an aligned subcube clipped to the base
// box, with its least distance from the centre (+Inf when it holds no
// finite point).
type cell struct {
	n    node
	dist float64
}

type cellQueue []cell

func (q cellQueue) Len() int           { return len(q) }
func (q cellQueue) Less(i, j int) bool { return q[i].dist < q[j].dist }
func (q cellQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *cellQueue) Push(x any)        { *q = append(*q, x.(cell)) }
func (q *cellQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
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
	if finite(cx) && finite(cy) {
		n.fine = max(math.Abs(cx), math.Abs(cy), 1) * minCellSide
	}
	if lo, hi, ok := s.clip(base); ok {
		root := node{lo: lo, hi: hi}
		n.queue = cellQueue{{n: root, dist: n.distance(&root)}}
	}
	return n
}

// MarkRead records a range the caller read outside the batches (a probe
// for the search's scale): no batch reads it again. The caller must have
// read every entry of the base box in it.
func (n *NearestCells) MarkRead(r Range) {
	n.read = UnionRanges(n.read, []Range{r})
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
	side = max(side, r/maxCellsPerRadius, n.fine)
	for len(n.queue) > 0 && (all || n.queue[0].dist*distSlack <= r) {
		c := popCell(&n.queue, (*[]cell)(&n.queue))
		if !all && c.n.k < n.s.bits && n.wide(&c.n, r, side) {
			c0, c1, has0, has1 := n.s.split(&c.n)
			if has0 {
				pushCell(&n.queue, (*[]cell)(&n.queue), cell{n: c0, dist: n.distance(&c0)})
			}
			if has1 {
				pushCell(&n.queue, (*[]cell)(&n.queue), cell{n: c1, dist: n.distance(&c1)})
			}
			continue
		}
		out = append(out, n.s.cellRange(&c.n))
		n.cells++
	}
	slices.SortFunc(out, func(a, b Range) int { return bytes.Compare(a.Lo, b.Lo) })
	out = UnionRanges(out, nil)
	if len(n.read) > 0 {
		out = SubtractRanges(out, n.read)
	}
	return out
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
func (s *Schema) RangeArea(r Range, x, y int) float64 {
	lo, hi, _ := s.clip(s.Universe())
	var walk func(n *node) float64
	walk = func(n *node) float64 {
		a, b := s.appendAddr(nil, &n.lo), s.appendAddr(nil, &n.hi)
		if (r.Hi != nil && bytes.Compare(a, r.Hi) >= 0) || bytes.Compare(b, r.Lo) < 0 {
			return 0
		}
		if bytes.Compare(a, r.Lo) >= 0 && (r.Hi == nil || bytes.Compare(b, r.Hi) < 0) || n.k == s.bits {
			xlo, xhi := s.floatSpan(x, n.lo[x], n.hi[x])
			ylo, yhi := s.floatSpan(y, n.lo[y], n.hi[y])
			return (xhi - xlo) * (yhi - ylo)
		}
		c0, c1, _, _ := s.split(n)
		return walk(&c0) + walk(&c1)
	}
	return walk(&node{lo: lo, hi: hi})
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
