package zorder

import (
	"bytes"
	"container/heap"
	"slices"
)

// TopNCells is a best-first search for the first k entries of a Z-order box
// along one of its attributes (ORDER BY that attribute LIMIT k): the
// address space's aligned subcubes (cells, each one contiguous range of
// addresses) clipped to the box, in a priority queue ordered by the best
// code of the attribute a cell can hold (its largest for a descending
// order, its least for an ascending one).
//
// A slab of the box along the attribute (the rows past some code) is not
// one range, nor a few: where the attribute's codes vary only in bits that
// come late in the address (a narrow span of a wide type, the default
// layout), a cell thin along the attribute is tiny along the others, so a
// thin slab is a great many cells and a skip-scan through it lands on an
// entry outside the slab at nearly every one. The search instead hands out
// the cells that can reach a bound along the attribute, each read whole
// unless it straddles the bound and would hold more than a share of the
// box: what it over-reads is the rows of those straddling cells short of
// the bound, which the share bounds, and the cells are few because only
// the ones crossing the bound are split.
//
// The caller asks for batches (Batch) at a bound, reads each batch's
// ranges for good (every entry of the box in them is a candidate), keeps
// its k best candidates, and stops once the k-th is strictly beyond Next,
// the best code of every unread cell: no unread entry can beat or tie it.
//
// Not safe for concurrent use.
type TopNCells struct {
	s     *Schema
	d     int
	desc  bool
	queue topQueue
	vol   float64 // the clipped base box's addresses
	cells int     // cells handed out
}

// topCell is a cell of the search with the best code of attribute d it can
// hold.
type topCell struct {
	n    node
	best uint64
}

type topQueue struct {
	cells []topCell
	desc  bool
}

func (q *topQueue) Len() int { return len(q.cells) }
func (q *topQueue) Less(i, j int) bool {
	if q.desc {
		return q.cells[i].best > q.cells[j].best
	}
	return q.cells[i].best < q.cells[j].best
}
func (q *topQueue) Swap(i, j int) { q.cells[i], q.cells[j] = q.cells[j], q.cells[i] }
func (q *topQueue) Push(x any)    { q.cells = append(q.cells, x.(topCell)) }
func (q *topQueue) Pop() any {
	c := q.cells[len(q.cells)-1]
	q.cells = q.cells[:len(q.cells)-1]
	return c
}

// pushCell is heap.Push of x onto the heap h kept in *s, and popCell
// heap.Pop, without boxing a cell in an interface value: container/heap's
// Push(any) and Pop() any allocate every cell pushed and popped (a
// top-100 box query pushed and popped hundreds, 200 kB a query).
func pushCell[T any](h heap.Interface, s *[]T, x T) {
	*s = append(*s, x)
	heap.Fix(h, len(*s)-1)
}

func popCell[T any](h heap.Interface, s *[]T) T {
	old := *s
	top, n := old[0], len(old)-1
	old[0] = old[n]
	*s = old[:n]
	if n > 0 {
		heap.Fix(h, 0) // sifts the last cell down from the top, as heap.Pop
	}
	return top
}

// TopNCells starts a search of box along attribute d, descending or
// ascending.
func (s *Schema) TopNCells(box Box, d int, desc bool) *TopNCells {
	t := &TopNCells{s: s, d: d, desc: desc, queue: topQueue{desc: desc}}
	if lo, hi, ok := s.clip(box); ok {
		t.vol = s.volume(&lo, &hi)
		t.push(node{lo: lo, hi: hi})
	}
	return t
}

func (t *TopNCells) push(n node) {
	best := n.lo[t.d]
	if t.desc {
		best = n.hi[t.d]
	}
	pushCell(&t.queue, &t.queue.cells, topCell{n: n, best: best})
}

// Next is the best code of attribute d any unread cell can hold; ok is
// false when every cell has been handed out.
func (t *TopNCells) Next() (code uint64, ok bool) {
	if len(t.queue.cells) == 0 {
		return 0, false
	}
	return t.queue.cells[0].best, true
}

// Cells is how many cells the batches have handed out (before adjacent
// ones were merged into ranges).
func (t *TopNCells) Cells() int { return t.cells }

// beyond reports whether code c is at bound or further along the order.
func (t *TopNCells) beyond(c, bound uint64) bool {
	if t.desc {
		return c >= bound
	}
	return c <= bound
}

// Batch hands out, as sorted and disjoint address ranges, every unread
// cell that can hold a code at bound or further along the order. A cell
// that straddles the bound, holding codes short of it too, is split while
// it holds more than share of the box's addresses (so that its entries
// short of the bound, read for nothing, stay few); with tight, a cell
// that sticks out of the box is split so too, for stores where every item
// of a range costs a read whether or not it is in the box. At most
// maxCells cells are handed out split finer than whole: past that the
// rest are read whole, which bounds the work and the ranges of one batch.
func (t *TopNCells) Batch(bound uint64, share float64, tight bool, maxCells int) []Range {
	var out []Range
	limit := share * t.vol
	for len(t.queue.cells) > 0 && t.beyond(t.queue.cells[0].best, bound) {
		c := popCell(&t.queue, &t.queue.cells)
		if len(out) < maxCells && c.n.k < t.s.bits && t.wide(&c.n, bound, limit, tight) {
			c0, c1, has0, has1 := t.s.split(&c.n)
			if has0 {
				t.push(c0)
			}
			if has1 {
				t.push(c1)
			}
			continue
		}
		out = append(out, t.s.cellRange(&c.n))
		t.cells++
	}
	slices.SortFunc(out, func(a, b Range) int { return bytes.Compare(a.Lo, b.Lo) })
	return UnionRanges(out, nil)
}

// wide reports whether a cell is to be split rather than read: with tight,
// one larger than limit addresses that does not fill its subcube; else one
// whose addresses short of the bound (its share of codes of attribute d
// short of it, times its volume) are more than limit.
func (t *TopNCells) wide(n *node, bound uint64, limit float64, tight bool) bool {
	vol := t.s.volume(&n.lo, &n.hi)
	if vol <= limit {
		return false
	}
	if tight && !t.s.full(n) {
		return true
	}
	lo, hi := n.lo[t.d], n.hi[t.d]
	var short uint64 // codes of the cell short of the bound
	switch {
	case t.desc && lo < bound:
		short = min(bound, hi+1) - lo
	case !t.desc && hi > bound:
		short = hi - max(bound, lo-1)
	}
	return vol*float64(short)/(float64(hi-lo)+1) > limit
}
