package geo

import (
	"math"
	"math/big"
)

// Points against areas without the DE-9IM overlay. A point's relation to
// a polygon is where it lies: inside, on the boundary or outside, which a
// ray-crossing count decides (GEOS's RayCrossingCounter: the crossings of
// a ray to the right of the point, a point on an edge being the
// boundary). The orientation test is exact, as GEOS's is (it computes in
// double-double): a float64 determinant when it is clear of its rounding
// error, exact rationals otherwise, so a point on an edge, or a hair off
// it, is placed as PostGIS places it. ST_Within, ST_Contains,
// ST_Intersects and ST_Covers of a point and a polygon, the common case
// of a spatial filter, then cost a pass over the polygon's vertices.

// location is where a point lies relative to an area.
type location int

const (
	exterior location = iota
	boundary
	interior
)

// orientErrBound is Shewchuk's ccwerrboundA: a float64 orientation
// determinant larger than this times its terms' magnitude has the exact
// sign.
const orientErrBound = (3 + 16*epsilon) * epsilon

const epsilon = 1.0 / (1 << 53)

// orientation is the sign of the turn a → b → p: +1 left
// (counter-clockwise), -1 right, 0 collinear, exactly.
func orientation(ax, ay, bx, by, px, py float64) int {
	l := (bx - ax) * (py - ay)
	r := (by - ay) * (px - ax)
	det := l - r
	if bound := orientErrBound * (math.Abs(l) + math.Abs(r)); det > bound || -det > bound {
		if det > 0 {
			return 1
		}
		return -1
	}
	if (px == ax && py == ay) || (px == bx && py == by) {
		return 0 // the usual near-zero case: p is an end (shared vertices)
	}
	// Near zero: decide exactly.
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	dx1 := new(big.Rat).Sub(rat(bx), rat(ax))
	dy1 := new(big.Rat).Sub(rat(py), rat(ay))
	dy2 := new(big.Rat).Sub(rat(by), rat(ay))
	dx2 := new(big.Rat).Sub(rat(px), rat(ax))
	return new(big.Rat).Sub(new(big.Rat).Mul(dx1, dy1), new(big.Rat).Mul(dy2, dx2)).Sign()
}

// ringLocation is where (x, y) lies relative to a closed ring of
// coordinates of the given stride: boundary, or interior or exterior by
// the parity of the crossings.
func ringLocation(x, y float64, ring []float64, stride int) location {
	return edgesLocation(x, y, ring, stride, nil)
}

// edgesLocation is ringLocation counting only the edges at the given
// vertex offsets (nil: every edge), which must include every edge whose
// y-range holds y.
func edgesLocation(x, y float64, ring []float64, stride int, edges []int32) location {
	crossings := 0
	for k := 0; ; k++ {
		i := k * stride
		if edges != nil {
			if k == len(edges) {
				break
			}
			i = int(edges[k])
		} else if i+2*stride > len(ring) {
			break
		}
		switch edgeEffect(x, y, ring, i, stride) {
		case onEdge:
			return boundary
		case crossing:
			crossings++
		}
	}
	if crossings%2 == 1 {
		return interior
	}
	return exterior
}

// An edge's effect on a point's ray-crossing count.
const (
	noEffect = iota
	crossing // the ray to the right of the point crosses it
	onEdge   // the point is on it
)

// edgeEffect is the effect of the ring's edge from vertex offset i to the
// next. Only an edge whose y-range holds the point's y has one.
func edgeEffect(x, y float64, ring []float64, i, stride int) int {
	x1, y1 := ring[i], ring[i+1]
	x2, y2 := ring[i+stride], ring[i+stride+1]
	if x1 < x && x2 < x {
		return noEffect // wholly to the left of the point
	}
	if x == x2 && y == y2 {
		return onEdge // a vertex
	}
	if y1 == y && y2 == y {
		// A horizontal edge: the point is on it or the ray runs
		// along it, which counts no crossing.
		if math.Min(x1, x2) <= x && x <= math.Max(x1, x2) {
			return onEdge
		}
		return noEffect
	}
	if (y1 > y && y2 <= y) || (y2 > y && y1 <= y) {
		o := orientation(x1, y1, x2, y2, x, y)
		if o == 0 {
			return onEdge
		}
		if y2 < y1 {
			o = -o // as if the edge ran upwards
		}
		if o > 0 {
			return crossing
		}
	}
	return noEffect
}

// pointLocation is where (x, y) lies relative to a polygon or
// multipolygon s (its rings closed, as PostGIS keeps them); ok is false
// for any other kind.
func pointLocation(x, y float64, s *Shape) (loc location, ok bool) {
	switch s.Kind {
	case Polygon:
		if len(s.Rings) == 0 {
			return exterior, true
		}
		stride := s.Stride()
		switch ringLocation(x, y, s.Rings[0], stride) {
		case exterior:
			return exterior, true
		case boundary:
			return boundary, true
		}
		for _, hole := range s.Rings[1:] {
			switch ringLocation(x, y, hole, stride) {
			case interior:
				return exterior, true
			case boundary:
				return boundary, true
			}
		}
		return interior, true
	case MultiPolygon:
		out := exterior
		for _, p := range s.Parts {
			l, ok := pointLocation(x, y, p)
			if !ok {
				return exterior, false
			}
			if l == interior {
				return interior, true
			}
			out = max(out, l)
		}
		return out, true
	}
	return exterior, false
}

// relatePointArea decides p(a, b) when one side is a non-empty point and
// the other a polygon or multipolygon; ok is false for any other case,
// which the overlay decides.
func relatePointArea(p Predicate, a, b *Shape) (r, ok bool) {
	point, area, pointFirst := a, b, true
	if b.Kind == Point {
		point, area, pointFirst = b, a, false
	}
	if point.Kind != Point || len(point.Coords) < 2 || area.IsEmpty() {
		return false, false
	}
	loc, ok := pointLocation(point.Coords[0], point.Coords[1], area)
	if !ok {
		return false, false
	}
	return predicateOfLocation(p, loc, pointFirst)
}

// predicateOfLocation is p of a point and an area, from where the point
// lies; ok is false for an area within a point (the overlay's case).
func predicateOfLocation(p Predicate, loc location, pointFirst bool) (r, ok bool) {
	switch {
	case p == Intersects:
		return loc != exterior, true
	case p == Within && pointFirst, p == Contains && !pointFirst:
		return loc == interior, true
	case p == Covers && !pointFirst:
		return loc != exterior, true
	}
	return false, false // an area within a point: the overlay's case
}
