package zorder

import (
	"bytes"
	"math"
)

// NearestSearch plans a k-nearest-neighbour search around a point over two
// float attributes of a Z-order index (the x and y of a point, a geometry's
// coordinates). No key-value store orders its keys by distance, so the
// search reads the index outward ring by ring: each ring is a square box
// around the centre, twice as wide as the one before, and reads only the
// Z-address ranges of its box that no earlier ring read. After a ring, every
// point the index holds within the box's inscribed radius has been read,
// so a candidate at distance d <= Settled() is certain: no unread point is
// that close. The caller keeps the k best candidates and stops as soon as
// the k-th is settled; the last ring, reached when the box outgrows the
// data's extent or the float range, reads every address not yet read
// of the base box (points with NaN or NULL coordinates, which no square
// holds, included), so the search always ends with an exact answer.
//
// Every ring is intersected with a base box, the query's own bounds (the
// whole index when it has none): the search finds the nearest points
// among those in the base box, and the last ring is the base box itself.
// Not safe for concurrent use.
type NearestSearch struct {
	s      *Schema
	base   Box
	x, y   int
	cx, cy float64
	next   float64 // the next ring's half-width
	last   float64 // the last ring's half-width
	budget int
	// settled is the radius within which every point has been read.
	settled float64
	read    []Range // the union of every ring's ranges, sorted
	extent  *[4]float64
	done    bool
}

// Ring is one step of a NearestSearch.
type Ring struct {
	// Box is the ring's box, the base box within the ring's square: after
	// its Ranges are read, every address in it has been read.
	Box Box
	// Radius is the half-width of the square around the centre; +Inf for
	// the last ring, which reads the whole base box.
	Radius float64
	// Ranges are the parts of the box's cover no earlier ring read,
	// sorted and disjoint. They are read for good: the caller must keep
	// every entry of the base box they hold, those past the ring's box
	// (the cover's over-cover) included, or a later ring misses them.
	Ranges []Range
	// Last is set on the ring that reads every address not yet read.
	Last bool
}

// NearestSearch starts a search around (cx, cy) over attributes x and y,
// both float attributes of the schema, among the points of base (nil: the
// whole index). r0 is the first ring's half-width
// (a radius expected to hold about k points: the executor probes the
// index for one); budget
// bounds each ring's cover (see Plan). A centre with a NaN or infinite
// coordinate has no finite neighbourhood: the first ring is then the last.
func (s *Schema) NearestSearch(base Box, x, y int, cx, cy, r0 float64, budget int) *NearestSearch {
	if base == nil {
		base = s.Universe()
	}
	n := &NearestSearch{s: s, base: base, x: x, y: y, cx: cx, cy: cy, next: r0, budget: budget}
	if !(r0 > 0) || math.IsInf(r0, 0) || !finite(cx) || !finite(cy) {
		n.next = math.Inf(1)
	}
	return n
}

// SetExtent gives the data's extent in the two attributes (from the
// index's statistics): once a ring's box holds it, the next ring is the
// last. The extent only saves rings; a stale one (rows written outside it
// since) costs reads, never a wrong answer, because the last ring reads
// everything not yet read.
func (n *NearestSearch) SetExtent(xlo, xhi, ylo, yhi float64) {
	n.extent = &[4]float64{xlo, xhi, ylo, yhi}
}

// Settled is the radius within which every point of the index has been
// read by the rings so far: a candidate no farther than this (in the
// Euclidean distance over the two attributes) cannot be beaten by an
// unread point. It is +Inf after the last ring.
func (n *NearestSearch) Settled() float64 { return n.settled }

// Done reports that the last ring has been handed out.
func (n *NearestSearch) Done() bool { return n.done }

// Next hands out the next ring, or ok false after the last.
func (n *NearestSearch) Next() (ring Ring, ok bool) {
	if n.done {
		return Ring{}, false
	}
	r := n.next
	n.last = r
	n.next *= 2
	var box Box
	last := math.IsInf(r, 1)
	if !last {
		xlo, xhi, ylo, yhi := n.cx-r, n.cx+r, n.cy-r, n.cy+r
		if math.IsInf(xlo, 0) || math.IsInf(xhi, 0) || math.IsInf(ylo, 0) || math.IsInf(yhi, 0) {
			last = true
		} else {
			box = append(Box(nil), n.base...)
			box.Narrow(n.x, n.s.attrs[n.x].FloatBetween(xlo, xhi))
			box.Narrow(n.y, n.s.attrs[n.y].FloatBetween(ylo, yhi))
			// The inscribed radius as the box was rounded: the distance
			// from the centre to its nearest side, less a few ulps for
			// the caller's own rounding of distances.
			inner := min(n.cx-xlo, xhi-n.cx, n.cy-ylo, yhi-n.cy)
			n.settled = inner * (1 - 1e-12)
			if e := n.extent; e != nil && xlo <= e[0] && xhi >= e[1] && ylo <= e[2] && yhi >= e[3] {
				n.next = math.Inf(1)
			}
		}
	}
	if last {
		box = n.base
		r = math.Inf(1)
		n.settled = math.Inf(1)
		n.done = true
	}
	var cover []Range
	if !box.Empty() {
		cover = n.s.Ranges(box, n.budget)
	}
	fresh := SubtractRanges(cover, n.read)
	n.read = UnionRanges(n.read, fresh)
	return Ring{Box: box, Radius: r, Ranges: fresh, Last: last}, true
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// hiLess orders range ends, nil (the end of the address space) last.
func hiLess(a, b []byte) bool {
	switch {
	case a == nil:
		return false
	case b == nil:
		return true
	}
	return bytes.Compare(a, b) < 0
}

// startsBefore reports whether address a comes before range end hi.
func startsBefore(a, hi []byte) bool { return hi == nil || bytes.Compare(a, hi) < 0 }

// SubtractRanges returns the parts of ranges that done does not cover;
// both lists are sorted and disjoint, and so is the result.
func SubtractRanges(ranges, done []Range) []Range {
	var out []Range
	j := 0
	for _, r := range ranges {
		lo := r.Lo
		for {
			// Skip done ranges that end at or before lo.
			for j < len(done) && done[j].Hi != nil && bytes.Compare(done[j].Hi, lo) <= 0 {
				j++
			}
			if j == len(done) || !startsBefore(done[j].Lo, r.Hi) {
				out = append(out, Range{Lo: lo, Hi: r.Hi})
				break
			}
			d := done[j]
			if bytes.Compare(d.Lo, lo) > 0 {
				out = append(out, Range{Lo: lo, Hi: d.Lo})
			}
			if !hiLess(d.Hi, r.Hi) {
				break // the rest of r is done
			}
			lo = d.Hi
			j++
		}
	}
	return out
}

// UnionRanges merges two sorted, disjoint lists into one, joining
// overlapping and adjacent ranges.
func UnionRanges(a, b []Range) []Range {
	out := make([]Range, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var r Range
		if j == len(b) || (i < len(a) && bytes.Compare(a[i].Lo, b[j].Lo) <= 0) {
			r, i = a[i], i+1
		} else {
			r, j = b[j], j+1
		}
		if k := len(out); k > 0 && !hiLess(out[k-1].Hi, r.Lo) {
			if hiLess(out[k-1].Hi, r.Hi) {
				out[k-1].Hi = r.Hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// FloatSpan is the range of float values whose codes lie in iv, for a
// float attribute: from the first value of iv.Lo's code to the last value
// of iv.Hi's (a code narrower than 64 bits stands for a run of floats).
// ok is false when the span is not finite numbers (an empty interval, or
// one reaching NULL, infinities or NaN): no extent can be drawn from it.
func (a Attr) FloatSpan(iv Interval) (lo, hi float64, ok bool) {
	if iv.Empty() || a.Type != TypeFloat {
		return 0, 0, false
	}
	w := a.w()
	loC, hiC := iv.Lo, iv.Hi
	if a.Nullable {
		if loC == 0 {
			return 0, 0, false
		}
		loC, hiC = loC-1, hiC-1
	}
	shift := uint(64 - w)
	lo = floatFromOrderBits(loC << shift)
	// The last float of hiC's run: its bits followed by all ones.
	hi = floatFromOrderBits(hiC<<shift | (1<<shift - 1))
	if !finite(lo) || !finite(hi) {
		return 0, 0, false
	}
	return lo, hi, true
}

// MarkRead records a range the caller read outside the rings (a probe for
// the first ring's size): no ring reads it again. The caller must have read
// every entry of the base box in it.
func (n *NearestSearch) MarkRead(r Range) {
	n.read = UnionRanges(n.read, []Range{r})
}

// Within tells the search that the caller holds enough candidates within
// distance d: the next ring need not be wider than d to settle them, so it
// is the ring of half-width d rather than the doubled one (never narrower
// than the last ring).
func (n *NearestSearch) Within(d float64) {
	if d > n.last && d < n.next && !math.IsInf(n.next, 1) {
		n.next = d
	}
}
