package geo

import "math"

// The shape accessors of PostGIS's ST_NumGeometries, ST_GeometryN,
// ST_PointN, ST_StartPoint, ST_EndPoint, ST_ExteriorRing,
// ST_InteriorRingN, ST_NRings, ST_IsClosed, ST_Dimension and the
// box3d accessors (ST_XMin ... ST_ZMax), written from PostGIS 3.3's
// documentation and its observed answers: which kinds each one reads,
// and what an empty geometry or an index out of range gives (ok false:
// SQL's NULL).

// NumGeometries is ST_NumGeometries: 0 for an empty geometry (a
// collection of empties too), 1 for a single one, else a collection's
// number of members, empty ones counted.
func (s *Shape) NumGeometries() int {
	if s.IsEmpty() {
		return 0
	}
	switch s.Kind {
	case Point, LineString, Polygon:
		return 1
	}
	return len(s.Parts)
}

// GeometryN is ST_GeometryN: a collection's nth member (from 1), or a
// single geometry itself for n 1. An empty geometry (a collection of
// empties included) has none.
func (s *Shape) GeometryN(n int) (*Shape, bool) {
	if s.IsEmpty() {
		return nil, false
	}
	switch s.Kind {
	case Point, LineString, Polygon:
		return s, n == 1
	}
	if n < 1 || n > len(s.Parts) {
		return nil, false
	}
	return s.Parts[n-1], true
}

// vertex is the point of the ordinates c (one vertex), with s's
// dimensions.
func (s *Shape) vertex(c []float64) *Shape {
	return &Shape{Kind: Point, Z: s.Z, M: s.M, Coords: append([]float64(nil), c...)}
}

// PointN is ST_PointN: a line string's nth vertex, counted from 1, or
// from the end when n is negative (-1 the last). Other kinds have none.
func (s *Shape) PointN(n int) (*Shape, bool) {
	if s.Kind != LineString {
		return nil, false
	}
	st := s.Stride()
	count := len(s.Coords) / st
	if n < 0 {
		n += count + 1
	}
	if n < 1 || n > count {
		return nil, false
	}
	return s.vertex(s.Coords[(n-1)*st : n*st]), true
}

// StartPoint is ST_StartPoint, which in PostGIS 3.3 reads any kind: a
// point itself, a line string's first vertex, a polygon's outer ring's,
// and a collection's first member's start, which an empty first member
// leaves without one.
func (s *Shape) StartPoint() (*Shape, bool) {
	switch s.Kind {
	case Point, LineString:
		if len(s.Coords) == 0 {
			return nil, false
		}
		return s.vertex(s.Coords[:s.Stride()]), true
	case Polygon:
		if len(s.Rings) == 0 || len(s.Rings[0]) == 0 {
			return nil, false
		}
		return s.vertex(s.Rings[0][:s.Stride()]), true
	}
	if len(s.Parts) == 0 {
		return nil, false
	}
	return s.Parts[0].StartPoint()
}

// EndPoint is ST_EndPoint: a line string's last vertex; unlike
// StartPoint, no other kind has one.
func (s *Shape) EndPoint() (*Shape, bool) {
	if s.Kind != LineString || len(s.Coords) == 0 {
		return nil, false
	}
	return s.vertex(s.Coords[len(s.Coords)-s.Stride():]), true
}

// ring is the line string of a polygon's ring.
func (s *Shape) ring(r []float64) *Shape {
	return &Shape{Kind: LineString, Z: s.Z, M: s.M, Coords: append([]float64(nil), r...)}
}

// ExteriorRing is ST_ExteriorRing: a polygon's outer ring, an empty line
// string of its dimensions for an empty polygon. Other kinds (multi-
// polygons too) have none.
func (s *Shape) ExteriorRing() (*Shape, bool) {
	if s.Kind != Polygon {
		return nil, false
	}
	if len(s.Rings) == 0 {
		return &Shape{Kind: LineString, Z: s.Z, M: s.M}, true
	}
	return s.ring(s.Rings[0]), true
}

// InteriorRingN is ST_InteriorRingN: a polygon's nth hole, from 1.
func (s *Shape) InteriorRingN(n int) (*Shape, bool) {
	if s.Kind != Polygon || n < 1 || n >= len(s.Rings) {
		return nil, false
	}
	return s.ring(s.Rings[n]), true
}

// NumInteriorRings is ST_NumInteriorRings: a polygon's number of holes
// (0 when empty); ok is false for the other kinds.
func (s *Shape) NumInteriorRings() (int, bool) {
	if s.Kind != Polygon {
		return 0, false
	}
	return max(len(s.Rings)-1, 0), true
}

// NRings is ST_NRings: the rings of the polygons in s, at any depth.
func (s *Shape) NRings() int {
	switch s.Kind {
	case Point, LineString:
		return 0
	case Polygon:
		return len(s.Rings)
	}
	n := 0
	for _, p := range s.Parts {
		n += p.NRings()
	}
	return n
}

// closedSeq reports whether a vertex sequence ends where it starts: in x
// and y, and in z when the shape has one (M is never compared).
func (s *Shape) closedSeq(c []float64) bool {
	st := s.Stride()
	last := c[len(c)-st:]
	if c[0] != last[0] || c[1] != last[1] {
		return false
	}
	return !s.Z || c[2] == last[2]
}

// IsClosed is ST_IsClosed: an empty geometry is not closed; a line
// string is when it ends at its start, a polygon when every ring does;
// a collection when every member is (an empty member is not); points
// and multi-points always are.
func (s *Shape) IsClosed() bool {
	if s.IsEmpty() {
		return false
	}
	switch s.Kind {
	case Point:
		return true
	case LineString:
		return s.closedSeq(s.Coords)
	case Polygon:
		for _, r := range s.Rings {
			if len(r) > 0 && !s.closedSeq(r) {
				return false
			}
		}
		return true
	}
	for _, p := range s.Parts {
		if !p.IsClosed() {
			return false
		}
	}
	return true
}

// Dimension is ST_Dimension: 0 for points, 1 for lines, 2 for polygons,
// empty or not; a collection's is its members' greatest (0 with none).
func (s *Shape) Dimension() int {
	switch s.Kind {
	case Point, MultiPoint:
		return 0
	case LineString, MultiLineString:
		return 1
	case Polygon, MultiPolygon:
		return 2
	}
	d := 0
	for _, p := range s.Parts {
		d = max(d, p.Dimension())
	}
	return d
}

// Box3D is PostGIS's box3d: the least and greatest x, y and z, in
// doubles (z 0 when the geometry has none).
type Box3D struct{ Min, Max [3]float64 }

// Bounds3D is the box3d a geometry casts to (ST_XMin ... ST_ZMax read
// it); ok is false for an empty shape, which has none.
func (s *Shape) Bounds3D() (b Box3D, ok bool) {
	b = Box3D{Min: [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, Max: [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}}
	s.eachOrdinates(func(v [4]float64) {
		for d := range 3 {
			b.Min[d], b.Max[d] = math.Min(b.Min[d], v[d]), math.Max(b.Max[d], v[d])
		}
		ok = true
	})
	if !ok {
		return Box3D{}, false
	}
	return b, true
}
