package zorder

import "math"

// XZNearest plans a k-nearest-neighbour search over an XZ2-ordered index
// of rectangles (the bounding boxes of shapes) around a query box (a
// point's degenerate box, or a query shape's bounding box). Like
// NearestSearch over points, it reads the index outward ring by ring:
// each ring is the query box grown by a radius, twice the last ring's,
// and reads the code ranges of that box (XZ2.Ranges) that no earlier ring
// read.
//
// The stop condition. A rectangle is coded by the cell whose enlarged
// element (the cell grown to twice its width up and right) holds it, so a
// rectangle's code may lie far, in code space, from the cells the
// rectangle meets: the ranges of a box are not the cells meeting the box
// but the cells whose enlarged elements meet it, every one of which is
// read (XZ2.Ranges holds the code of every rectangle meeting the box, the
// root's among them, which holds every rectangle outside the world or with
// a NaN corner). So once the ranges of the query box grown by r have been
// read, every rectangle meeting that grown box has been read, and an
// unread rectangle lies wholly outside it: farther than r from the query
// box along x or y, so more than r away in the Euclidean distance, and any
// shape inside the rectangle too. A candidate at distance d <= Settled() is
// therefore certain. The last ring, reached once the grown box holds the
// whole world (every cell's element then meets it) or overflows, reads
// every code not yet read.
//
// Not safe for concurrent use.
type XZNearest struct {
	s                    XZ2
	x0, y0, x1, y1       float64 // the query box
	next, last           float64 // the next and last rings' radii
	budget               int
	settled              float64
	read                 []XZRange
	done                 bool
	worldX, worldY       float64
	worldMaxX, worldMaxY float64
}

// XZRing is one step of an XZNearest search.
type XZRing struct {
	// Radius is how far the ring's box reaches beyond the query box;
	// +Inf for the last ring.
	Radius float64
	// Ranges are the code ranges of the ring's box no earlier ring read,
	// sorted and disjoint. The caller must keep every row they hold as a
	// candidate (the cover's over-cover included): they are never read
	// again.
	Ranges []XZRange
	// Last is set on the ring that reads every code not yet read; the
	// caller reads then too whatever its index holds outside the codes
	// (rows whose key is NULL).
	Last bool
}

// NearestSearch starts a search around the query box [x0, x1] × [y0, y1]
// with a first ring of radius r0 (a radius expected to hold about k
// shapes); budget bounds each ring's ranges. A query box that is not
// finite, or r0 not positive and finite, makes the first ring the last.
func (s XZ2) NearestSearch(x0, y0, x1, y1, r0 float64, budget int) *XZNearest {
	n := &XZNearest{s: s, x0: x0, y0: y0, x1: x1, y1: y1, next: r0, budget: budget,
		worldX: s.MinX, worldY: s.MinY, worldMaxX: s.MaxX, worldMaxY: s.MaxY}
	if !(r0 > 0) || math.IsInf(r0, 0) || !finite(x0) || !finite(y0) || !finite(x1) || !finite(y1) || !(x0 <= x1 && y0 <= y1) {
		n.next = math.Inf(1)
	}
	return n
}

// Settled is the distance from the query box within which every shape of
// the index has been read: +Inf after the last ring.
func (n *XZNearest) Settled() float64 { return n.settled }

// Done reports that the last ring has been handed out.
func (n *XZNearest) Done() bool { return n.done }

// MarkRead records codes the caller read outside the rings (a probe for
// the first ring's size), keeping every row they hold: no ring reads them
// again.
func (n *XZNearest) MarkRead(r XZRange) {
	if r.Lo < r.Hi {
		n.read = unionXZ(n.read, []XZRange{r})
	}
}

// Within tells the search that the caller holds enough candidates within
// distance d: the next ring need reach no farther than d (never less than
// the last ring).
func (n *XZNearest) Within(d float64) {
	if d > n.last && d < n.next && !math.IsInf(n.next, 1) {
		n.next = d
	}
}

// Next hands out the next ring, or ok false after the last.
func (n *XZNearest) Next() (ring XZRing, ok bool) {
	if n.done {
		return XZRing{}, false
	}
	r := n.next
	n.last = r
	n.next *= 2
	var cover []XZRange
	last := math.IsInf(r, 1)
	if !last {
		xlo, ylo, xhi, yhi := n.x0-r, n.y0-r, n.x1+r, n.y1+r
		switch {
		case !finite(xlo) || !finite(ylo) || !finite(xhi) || !finite(yhi):
			last = true
		case xlo <= n.worldX && ylo <= n.worldY && xhi >= n.worldMaxX && yhi >= n.worldMaxY:
			// Every cell's element meets the box: it reads every code.
			last = true
		default:
			// The distance the grown box reaches, as it was rounded, less
			// a few ulps for the caller's rounding of distances.
			inner := min(n.x0-xlo, xhi-n.x1, n.y0-ylo, yhi-n.y1)
			n.settled = inner * (1 - 1e-12)
			cover = n.s.Ranges(xlo, ylo, xhi, yhi, n.budget)
		}
	}
	if last {
		r = math.Inf(1)
		n.settled = math.Inf(1)
		n.done = true
		cover = []XZRange{{0, n.s.Codes()}}
	}
	fresh := subtractXZ(cover, n.read)
	n.read = unionXZ(n.read, fresh)
	return XZRing{Radius: r, Ranges: fresh, Last: last}, true
}

// subtractXZ returns the parts of rs (sorted, disjoint) that done (sorted,
// disjoint) does not hold.
func subtractXZ(rs, done []XZRange) []XZRange {
	var out []XZRange
	j := 0
	for _, r := range rs {
		lo := r.Lo
		for lo < r.Hi {
			for j < len(done) && done[j].Hi <= lo {
				j++
			}
			if j == len(done) || done[j].Lo >= r.Hi {
				out = append(out, XZRange{lo, r.Hi})
				break
			}
			if done[j].Lo > lo {
				out = append(out, XZRange{lo, done[j].Lo})
			}
			lo = done[j].Hi
		}
	}
	return out
}

// unionXZ merges two sorted, disjoint lists.
func unionXZ(a, b []XZRange) []XZRange {
	all := make([]XZRange, 0, len(a)+len(b))
	all = append(append(all, a...), b...)
	return mergeXZ(all, len(all)+1)
}
