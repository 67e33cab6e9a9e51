package geo

import (
	"math"
	"sort"
)

// PostGIS computes ST_Distance, ST_ClosestPoint, ST_ShortestLine,
// ST_LongestLine, ST_MaxDistance and ST_DFullyWithin with its own planar
// distance code, not GEOS: a walk over the members of both geometries
// that keeps the first pair of points found at the best distance so far
// (a later pair replaces it only when strictly better). Which pair it
// answers on a tie therefore depends on the order it visits vertices and
// segments, which this file follows as observed against PostGIS 3.3:
//
//   - members of multis and collections in order, the first's outermost;
//     an empty member ends the walk of the collection holding it (so a
//     leading empty member leaves no distance at all: NULL);
//   - two lines or polygons (outer rings) whose boxes do not meet are
//     compared by a pruned search over their vertices sorted along the
//     axis between the boxes' centres; anything else by every segment
//     pair, each segment's two ends against the other and then the
//     other's ends against it;
//   - a point strictly inside a segment and exactly on its line is a
//     touch at that point, which replaces an earlier touch; so does a
//     point inside a polygon (or on its boundary), and a line or polygon
//     whose first vertex lies inside the other polygon;
//   - the search for a smallest distance stops at the first 0 of an
//     exhaustive comparison; it starts from FLT_MAX, so a larger distance
//     is never found.

// distPt is a planar point.
type distPt struct{ x, y float64 }

// distLeaf is one non-empty point, line string or polygon of a
// geometry, in 2-D.
type distLeaf struct {
	kind  Kind
	pts   []distPt   // a point's or a line's vertices
	rings [][]distPt // a polygon's rings
	box   Box
}

// distState is the search's best pair so far.
type distState struct {
	max     bool // seeking the largest distance, not the smallest
	d       float64
	p1, p2  distPt
	twisted bool // the arguments are swapped: p1 belongs to the second
}

// better reports whether d improves on the best so far: strictly, so
// the first pair found at a distance is kept.
func (s *distState) better(d float64) bool {
	if s.max {
		return d > s.d
	}
	return d < s.d
}

// done reports whether a smallest-distance search can stop.
func (s *distState) done() bool { return !s.max && s.d <= 0 }

func (s *distState) ptPt(p, q distPt) {
	dx, dy := q.x-p.x, q.y-p.y
	d := math.Sqrt(dx*dx + dy*dy)
	if s.better(d) {
		s.d = d
		if s.twisted {
			s.p1, s.p2 = q, p
		} else {
			s.p1, s.p2 = p, q
		}
	}
}

// zero records a touch at p.
func (s *distState) zero(p distPt) {
	s.d, s.p1, s.p2 = 0, p, p
}

// ptSeg compares p with segment ab: its projection on the segment when
// seeking the smallest distance, the end farther from that projection
// when seeking the largest.
func (s *distState) ptSeg(p, a, b distPt) {
	if a == b {
		s.ptPt(p, a)
		return
	}
	bx, by := b.x-a.x, b.y-a.y
	r := ((p.x-a.x)*bx + (p.y-a.y)*by) / (bx*bx + by*by)
	if s.max {
		if r >= 0.5 {
			s.ptPt(p, a)
		} else {
			s.ptPt(p, b)
		}
		return
	}
	if r <= 0 {
		s.ptPt(p, a)
		return
	}
	if r >= 1 {
		s.ptPt(p, b)
		return
	}
	// Strictly inside the segment and exactly on its line (by this
	// product test, which is sturdier than the projection's arithmetic):
	// a touch at p itself, which replaces an earlier touch.
	if (a.y-p.y)*bx == (a.x-p.x)*by {
		s.zero(p)
	}
	s.ptPt(p, distPt{a.x + r*bx, a.y + r*by})
}

// swapped runs f with the arguments' roles swapped.
func (s *distState) swapped(f func()) {
	t := s.twisted
	s.twisted = !t
	f()
	s.twisted = t
}

// segSeg compares segments ab (of the first) and cd.
func (s *distState) segSeg(a, b, c, d distPt) {
	if a == b {
		s.ptSeg(a, c, d)
		return
	}
	if c == d {
		s.swapped(func() { s.ptSeg(d, a, b) })
		return
	}
	rTop := (a.y-c.y)*(d.x-c.x) - (a.x-c.x)*(d.y-c.y)
	bot := (b.x-a.x)*(d.y-c.y) - (b.y-a.y)*(d.x-c.x)
	sTop := (a.y-c.y)*(b.x-a.x) - (a.x-c.x)*(b.y-a.y)
	if bot != 0 && !s.max {
		r, t := rTop/bot, sTop/bot
		if r >= 0 && r <= 1 && t >= 0 && t <= 1 {
			// They cross: at a shared end exactly, else where the
			// first's parameter puts it.
			switch {
			case a == c || a == d:
				s.zero(a)
			case b == c || b == d:
				s.zero(b)
			default:
				s.zero(distPt{a.x + r*(b.x-a.x), a.y + r*(b.y-a.y)})
			}
			return
		}
	}
	s.ptSeg(a, c, d)
	s.ptSeg(b, c, d)
	s.swapped(func() {
		s.ptSeg(c, a, b)
		s.ptSeg(d, a, b)
	})
}

// ptPts compares p with the vertices or segments of pts.
func (s *distState) ptPts(p distPt, pts []distPt) {
	s.ptPt(p, pts[0])
	for i := 1; i < len(pts); i++ {
		s.ptSeg(p, pts[i-1], pts[i])
		if s.done() {
			return
		}
	}
}

// ptsPts compares two vertex lists: every vertex pair when seeking the
// largest distance, every segment pair otherwise.
func (s *distState) ptsPts(l1, l2 []distPt) {
	if s.max {
		for _, p := range l1 {
			for _, q := range l2 {
				s.ptPt(p, q)
			}
		}
		return
	}
	for i := 1; i < len(l1); i++ {
		for j := 1; j < len(l2); j++ {
			s.segSeg(l1[i-1], l1[i], l2[j-1], l2[j])
			if s.done() {
				return
			}
		}
	}
}

// ringOutside reports whether p is strictly outside the ring (on its
// boundary counts as inside), by winding number.
func ringOutside(ring []distPt, p distPt) bool {
	wn := 0
	for i := 1; i < len(ring); i++ {
		a, b := ring[i-1], ring[i]
		side := (p.x-a.x)*(b.y-a.y) - (b.x-a.x)*(p.y-a.y)
		if side == 0 && ((p.x >= a.x && p.x <= b.x) || (p.x <= a.x && p.x >= b.x)) &&
			((p.y >= a.y && p.y <= b.y) || (p.y <= a.y && p.y >= b.y)) {
			return false
		}
		if side < 0 && a.y <= p.y && p.y < b.y {
			wn++
		} else if side > 0 && b.y <= p.y && p.y < a.y {
			wn--
		}
	}
	return wn == 0
}

// ptPoly compares point p with polygon rings.
func (s *distState) ptPoly(p distPt, rings [][]distPt) {
	if s.max || ringOutside(rings[0], p) {
		s.ptPts(p, rings[0])
		return
	}
	for _, h := range rings[1:] {
		if !ringOutside(h, p) {
			s.ptPts(p, h)
			return
		}
	}
	s.zero(p)
}

// linePoly compares line l with polygon rings.
func (s *distState) linePoly(l []distPt, rings [][]distPt) {
	// Unlike the other comparisons this one has no separate rule for the
	// largest distance: from a first vertex inside the shell it reads
	// the holes alone (none: no distance at all).
	p := l[0]
	if ringOutside(rings[0], p) {
		s.ptsPts(l, rings[0])
		return
	}
	for _, h := range rings[1:] {
		s.ptsPts(l, h)
		if s.done() {
			return
		}
	}
	for _, h := range rings[1:] {
		if !ringOutside(h, p) {
			return // in a hole: the holes' distance stands
		}
	}
	if !s.max {
		s.zero(p)
	}
}

// polyPoly compares two polygons' rings.
func (s *distState) polyPoly(r1, r2 [][]distPt) {
	if s.max {
		s.ptsPts(r1[0], r2[0])
		return
	}
	p1, p2 := r1[0][0], r2[0][0]
	if ringOutside(r2[0], p1) && ringOutside(r1[0], p2) {
		s.ptsPts(r1[0], r2[0])
		return
	}
	for _, h := range r1[1:] {
		if !ringOutside(h, p2) {
			s.ptsPts(h, r2[0])
			return
		}
	}
	for _, h := range r2[1:] {
		if !ringOutside(h, p1) {
			s.ptsPts(r1[0], h)
			return
		}
	}
	if !ringOutside(r2[0], p1) {
		s.zero(p1)
		return
	}
	s.zero(p2)
}

// bruteForce compares two leaves segment by segment.
func (s *distState) bruteForce(g, h *distLeaf) {
	s.twisted = false
	switch g.kind {
	case Point:
		switch h.kind {
		case Point:
			s.ptPt(g.pts[0], h.pts[0])
		case LineString:
			s.ptPts(g.pts[0], h.pts)
		default:
			s.ptPoly(g.pts[0], h.rings)
		}
	case LineString:
		switch h.kind {
		case Point:
			s.twisted = true
			s.ptPts(h.pts[0], g.pts)
		case LineString:
			s.ptsPts(g.pts, h.pts)
		default:
			s.linePoly(g.pts, h.rings)
		}
	default:
		switch h.kind {
		case Point:
			s.twisted = true
			s.ptPoly(h.pts[0], g.rings)
		case LineString:
			s.twisted = true
			s.linePoly(h.pts, g.rings)
		default:
			s.polyPoly(g.rings, h.rings)
		}
	}
}

// measured is a vertex's place along the search axis.
type measured struct {
	m float64
	i int
}

// fast compares two lines or polygons' outer rings whose boxes do not
// meet: vertices are sorted by where the perpendicular to the line
// between the boxes' centres through them crosses an axis, and only
// segments next to vertices that close along that axis are compared.
func (s *distState) fast(g, h *distLeaf) {
	s.twisted = false
	l1, l2 := g.pts, h.pts
	if g.kind == Polygon {
		l1 = g.rings[0]
	}
	if h.kind == Polygon {
		l2 = h.rings[0]
	}
	c1 := distPt{g.box.MinX + (g.box.MaxX-g.box.MinX)/2, g.box.MinY + (g.box.MaxY-g.box.MinY)/2}
	c2 := distPt{h.box.MinX + (h.box.MaxX-h.box.MinX)/2, h.box.MinY + (h.box.MaxY-h.box.MinY)/2}
	dx, dy := c2.x-c1.x, c2.y-c1.y
	var k float64
	var measure func(p distPt) float64
	if dx*dx < dy*dy {
		k = -dx / dy
		measure = func(p distPt) float64 { return p.y - k*p.x }
	} else {
		k = -dy / dx
		measure = func(p distPt) float64 { return p.x - k*p.y }
	}
	list := func(l []distPt) []measured {
		out := make([]measured, len(l))
		for i, p := range l {
			out[i] = measured{measure(p), i}
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].m < out[j].m })
		return out
	}
	m1, m2 := list(l1), list(l2)
	if measure(c1) < measure(c2) {
		s.preSegSeg(l1, l2, m1, m2, k)
		return
	}
	s.twisted = true
	s.preSegSeg(l2, l1, m2, m1, k)
}

// preSegSeg is fast's pruned search, l1 lying before l2 along the axis.
func (s *distState) preSegSeg(l1, l2 []distPt, m1, m2 []measured, k float64) {
	n1, n2 := len(l1), len(l2)
	s.ptPt(l1[m1[0].i], l2[m2[0].i])
	reach := func() float64 { return math.Sqrt(s.d*s.d + s.d*s.d*k*k) }
	maxm := reach()
	twist := s.twisted
	for i := n1 - 1; i >= 0; i-- {
		if m2[0].m-m1[i].m > maxm {
			break
		}
		for r := -1; r <= 1; r += 2 {
			i1 := m1[i].i
			p1 := l1[i1]
			// The segment before and after the vertex; a closed list
			// wraps, an open one's end pairs with itself.
			i2 := i1 + r
			switch {
			case i2 < 0:
				i2 = i1
				if p1 == l1[n1-1] {
					i2 = n1 - 1
				}
			case i2 > n1-1:
				i2 = i1
				if p1 == l1[0] {
					i2 = 0
				}
			}
			p2 := l1[i2]
			for u := 0; u < n2; u++ {
				if m2[u].m-m1[i].m >= maxm {
					break
				}
				i3 := m2[u].i
				p3 := l2[i3]
				i4 := i3 - 1
				if i3 == 0 {
					i4 = i3
					if p3 == l2[n2-1] {
						i4 = n2 - 1
					}
				}
				s.twisted = twist
				s.selectedSegSeg(p1, p2, p3, l2[i4])
				i4 = i3 + 1
				if i3 >= n2-1 {
					i4 = i3
					if p3 == l2[0] {
						i4 = 0
					}
				}
				s.twisted = twist
				s.selectedSegSeg(p1, p2, p3, l2[i4])
				maxm = reach()
			}
		}
	}
}

// selectedSegSeg compares two segments known not to cross.
func (s *distState) selectedSegSeg(a, b, c, d distPt) {
	if a == b {
		s.ptSeg(a, c, d)
		return
	}
	if c == d {
		s.swapped(func() { s.ptSeg(d, a, b) })
		return
	}
	s.ptSeg(a, c, d)
	s.ptSeg(b, c, d)
	s.swapped(func() {
		s.ptSeg(c, a, b)
		s.ptSeg(d, a, b)
	})
}

// boxesMeet reports whether two boxes overlap or touch.
func boxesMeet(a, b Box) bool {
	return !(a.MaxX < b.MinX || a.MinX > b.MaxX || a.MaxY < b.MinY || a.MinY > b.MaxY)
}

// distLeaves lists s's non-empty points, lines and polygons in order,
// flattening multis and collections. A top-level line of more than two
// vertices or polygon carries the box PostGIS stores with it, widened to
// float32; members' boxes are exact.
func distLeaves(s *Shape, top bool, out []*distLeaf) []*distLeaf {
	stride := s.Stride()
	pts := func(c []float64) []distPt {
		p := make([]distPt, 0, len(c)/stride)
		for i := 0; i+1 < len(c); i += stride {
			p = append(p, distPt{c[i], c[i+1]})
		}
		return p
	}
	boxOf := func(l []distPt) Box {
		b := Box{MinX: l[0].x, MaxX: l[0].x, MinY: l[0].y, MaxY: l[0].y}
		for _, p := range l[1:] {
			b.MinX, b.MaxX = math.Min(b.MinX, p.x), math.Max(b.MaxX, p.x)
			b.MinY, b.MaxY = math.Min(b.MinY, p.y), math.Max(b.MaxY, p.y)
		}
		return b
	}
	switch s.Kind {
	case Point, LineString:
		if len(s.Coords) < 2 {
			return out
		}
		l := &distLeaf{kind: s.Kind, pts: pts(s.Coords)}
		l.box = boxOf(l.pts)
		if top && s.Kind == LineString && len(l.pts) > 2 {
			l.box = floatBox(l.box)
		}
		return append(out, l)
	case Polygon:
		if len(s.Rings) == 0 || len(s.Rings[0]) < 2 {
			return out
		}
		l := &distLeaf{kind: Polygon}
		for _, r := range s.Rings {
			l.rings = append(l.rings, pts(r))
		}
		l.box = boxOf(l.rings[0])
		if top {
			l.box = floatBox(l.box)
		}
		return append(out, l)
	}
	for _, p := range s.Parts {
		out = distLeaves(p, false, out)
	}
	return out
}

// floatBox widens b to float32 bounds, as PostGIS stores a box.
func floatBox(b Box) Box {
	down := func(v float64) float64 {
		f := float32(v)
		if float64(f) > v {
			f = math.Nextafter32(f, float32(math.Inf(-1)))
		}
		return float64(f)
	}
	up := func(v float64) float64 {
		f := float32(v)
		if float64(f) < v {
			f = math.Nextafter32(f, float32(math.Inf(1)))
		}
		return float64(f)
	}
	return Box{MinX: down(b.MinX), MinY: down(b.MinY), MaxX: up(b.MaxX), MaxY: up(b.MaxY)}
}

// distSearch runs PostGIS's search between a and b for the smallest
// (max false) or largest distance; ok is false when it found none: when
// either is empty, when a collection's member is empty before any pair
// was measured, and, for the smallest, when that is beyond float32's
// range (PostGIS starts from FLT_MAX).
func distSearch(a, b *Shape, max bool) (s distState, ok bool) {
	s.max = max
	init := float64(math.MaxFloat32)
	if max {
		init = -1
	}
	s.d = init
	s.recurse(a, b, true, true)
	return s, s.d != init
}

// isCollection reports whether k holds members.
func isCollection(k Kind) bool { return k >= MultiPoint }

// members is s's members, or s itself when it is not a collection.
func members(s *Shape) []*Shape {
	if isCollection(s.Kind) {
		return s.Parts
	}
	return []*Shape{s}
}

// recurse compares the members of a with those of b, as PostGIS's walk
// does: an empty member ends the walk of the collection it is in (an
// empty first-argument member before recursing into it, an empty
// second-argument one after), and a touch found segment by segment
// ends it too. topA and topB say whether a and b are the arguments
// themselves, whose boxes PostGIS stores.
func (s *distState) recurse(a, b *Shape, topA, topB bool) {
	topA = topA && !isCollection(a.Kind)
	topB = topB && !isCollection(b.Kind)
	for _, g := range members(a) {
		if g.IsEmpty() {
			return
		}
		if isCollection(g.Kind) {
			s.recurse(g, b, false, topB)
			continue
		}
		x := leafOf(g, topA)
		for _, h := range members(b) {
			if isCollection(h.Kind) {
				s.recurse(g, h, topA, false)
				continue
			}
			if h.IsEmpty() {
				return
			}
			y := leafOf(h, topB)
			if !s.max && x.kind != Point && y.kind != Point && !boxesMeet(x.box, y.box) {
				s.fast(x, y)
				continue
			}
			s.bruteForce(x, y)
			if s.done() {
				return
			}
		}
	}
}

// leafOf is a non-empty point, line or polygon for the search.
func leafOf(s *Shape, top bool) *distLeaf {
	return distLeaves(s, top, nil)[0]
}

// ClosestPair is the pair of points, one of a and one of b, at the
// smallest planar distance between them as PostGIS's ST_ShortestLine
// finds it (its first point is ST_ClosestPoint); ok is false when either
// is empty.
func ClosestPair(a, b *Shape) (p1, p2 [2]float64, d float64, ok bool) {
	s, ok := distSearch(a, b, false)
	return [2]float64{s.p1.x, s.p1.y}, [2]float64{s.p2.x, s.p2.y}, s.d, ok
}

// FarthestPair is the pair of vertices at the largest planar distance
// between a and b as PostGIS finds it (ST_LongestLine compares the two
// convex hulls; ST_DFullyWithin the geometries themselves).
func FarthestPair(a, b *Shape) (p1, p2 [2]float64, d float64, ok bool) {
	s, ok := distSearch(a, b, true)
	return [2]float64{s.p1.x, s.p1.y}, [2]float64{s.p2.x, s.p2.y}, s.d, ok
}

// ConvexHullVertices is the vertex list of GEOS's convex hull of s as
// PostGIS's ST_ConvexHull returns it, which ST_LongestLine and
// ST_MaxDistance measure: no vertex for an empty geometry; one, or two
// in the order first seen, for so few distinct vertices; the two
// extremes, the lowest (least y, then x) first, for collinear ones; else
// the ring's strictly convex vertices clockwise from the lowest, closed.
// A lone polygon's holes are not read (not even one that strays outside
// its shell), a collection's members' holes are.
func ConvexHullVertices(s *Shape) (kind Kind, pts [][2]float64) {
	var all []distPt
	seen := map[distPt]bool{}
	for _, l := range distLeaves(s, false, nil) {
		add := func(ps []distPt) {
			for _, p := range ps {
				if !seen[p] {
					seen[p] = true
					all = append(all, p)
				}
			}
		}
		add(l.pts)
		for i, r := range l.rings {
			if i > 0 && s.Kind == Polygon {
				break // GEOS reads a lone polygon's shell alone
			}
			add(r)
		}
	}
	out := func(ps ...distPt) [][2]float64 {
		r := make([][2]float64, len(ps))
		for i, p := range ps {
			r[i] = [2]float64{p.x, p.y}
		}
		return r
	}
	switch len(all) {
	case 0:
		return Point, nil
	case 1:
		return Point, out(all[0])
	case 2:
		return LineString, out(all[0], all[1])
	}
	sorted := append([]distPt(nil), all...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].x != sorted[j].x {
			return sorted[i].x < sorted[j].x
		}
		return sorted[i].y < sorted[j].y
	})
	cross := func(o, a, b distPt) float64 { return (a.x-o.x)*(b.y-o.y) - (a.y-o.y)*(b.x-o.x) }
	// Andrew's monotone chain, counter-clockwise, collinear vertices
	// dropped.
	var hull []distPt
	for _, p := range sorted {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	for i, lo := len(sorted)-2, len(hull)+1; i >= 0; i-- {
		p := sorted[i]
		for len(hull) >= lo && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	hull = hull[:len(hull)-1]
	low := 0
	for i, p := range hull {
		if p.y < hull[low].y || (p.y == hull[low].y && p.x < hull[low].x) {
			low = i
		}
	}
	if len(hull) < 3 {
		other := hull[1-low]
		return LineString, out(hull[low], other)
	}
	ring := make([]distPt, 0, len(hull)+1)
	for i := 0; i <= len(hull); i++ {
		ring = append(ring, hull[(low-i+len(hull))%len(hull)])
	}
	return Polygon, out(ring...)
}
