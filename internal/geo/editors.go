package geo

import "math"

// The geometry editors and constructors of PostGIS 3.3 that rebuild a
// shape's coordinates: ST_Collect, ST_Multi, ST_Expand, ST_MakePolygon,
// ST_FlipCoordinates, ST_Force3D/3DZ/3DM/4D, ST_Reverse, ST_AddPoint,
// ST_RemovePoint, ST_SetPoint and ST_Translate. Their behaviour (orders
// of checks, messages, which ordinates change) is PostGIS's as observed.

// ZMFlag is PostGIS's dimension code of a shape, as its messages print
// it: 2 for Z, plus 1 for M.
func (s *Shape) ZMFlag() int {
	f := 0
	if s.Z {
		f += 2
	}
	if s.M {
		f++
	}
	return f
}

// Collect is ST_Collect of geometries already checked to share an SRID
// (the first's is the result's): the multi-geometry of their kind when
// all are points, all line strings or all polygons, else a geometry
// collection of them as they are. Their dimensions must agree with the
// first's: PostGIS's lwcollection_construct error otherwise.
func Collect(gs []Geom) (Geom, error) {
	first := gs[0].Shape
	kind := first.Kind
	for _, g := range gs[1:] {
		if g.Shape.Kind != kind {
			kind = GeometryCollection
		}
	}
	if multi, ok := kind.multi(); ok {
		kind = multi
	} else {
		kind = GeometryCollection
	}
	out := &Shape{Kind: kind, Z: first.Z, M: first.M}
	for _, g := range gs {
		if g.Shape.Z != first.Z || g.Shape.M != first.M {
			return Geom{}, errInvalid("lwcollection_construct: mixed dimension geometries: %d/%d", first.ZMFlag(), g.Shape.ZMFlag())
		}
		out.Parts = append(out.Parts, g.Shape)
	}
	return Geom{SRID: gs[0].SRID, Shape: out}, nil
}

// Multi is ST_Multi: a point, line string or polygon as the one member
// of its multi-geometry (none when it is empty); other kinds as they are.
func Multi(s *Shape) *Shape {
	kind, ok := s.Kind.multi()
	if !ok {
		return s
	}
	out := &Shape{Kind: kind, Z: s.Z, M: s.M}
	if !s.IsEmpty() {
		out.Parts = []*Shape{s}
	}
	return out
}

// Expand is ST_Expand of a geometry: its bounding box in x, y and the z
// and m it has, each side moved out by d (in by a negative d: the box
// may turn inside out, and is kept so), as the polygon PostGIS makes of
// a box: (min, min), (min x, max y), (max, max), (max x, min y) and back,
// z and m of the corner's low or high side as its x is. An empty shape
// is itself.
func Expand(s *Shape, d [4]float64) *Shape {
	lo := [4]float64{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [4]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	ok := false
	s.eachOrdinates(func(v [4]float64) {
		for i := range 4 {
			lo[i], hi[i] = math.Min(lo[i], v[i]), math.Max(hi[i], v[i])
		}
		ok = true
	})
	if !ok {
		return s
	}
	for i := range 4 {
		lo[i], hi[i] = lo[i]-d[i], hi[i]+d[i]
	}
	out := &Shape{Kind: Polygon, Z: s.Z, M: s.M}
	var ring []float64
	corner := func(x, y float64, zm [4]float64) {
		ring = append(ring, x, y)
		if s.Z {
			ring = append(ring, zm[2])
		}
		if s.M {
			ring = append(ring, zm[3])
		}
	}
	corner(lo[0], lo[1], lo)
	corner(lo[0], hi[1], lo)
	corner(hi[0], hi[1], hi)
	corner(hi[0], lo[1], hi)
	corner(lo[0], lo[1], lo)
	out.Rings = [][]float64{ring}
	return out
}

// MakePolygon is ST_MakePolygon of line strings already checked to be
// line strings: the shell and the holes, in PostGIS's order of checks
// (the shell's points, its closure in x and y, then each hole's SRID,
// points and closure, and last the rings' dimensions).
func MakePolygon(shell Geom, holes []Geom) (Geom, error) {
	st := shell.Shape.Stride()
	closed := func(c []float64, st int) bool {
		n := len(c)
		return c[0] == c[n-st] && c[1] == c[n-st+1]
	}
	if len(shell.Shape.Coords)/st < 4 {
		return Geom{}, errInvalid("lwpoly_from_lwlines: shell must have at least 4 points")
	}
	if !closed(shell.Shape.Coords, st) {
		return Geom{}, errInvalid("lwpoly_from_lwlines: shell must be closed")
	}
	out := &Shape{Kind: Polygon, Z: shell.Shape.Z, M: shell.Shape.M, Rings: [][]float64{shell.Shape.Coords}}
	for _, h := range holes {
		if h.SRID != shell.SRID {
			return Geom{}, errInvalid("lwpoly_from_lwlines: mixed SRIDs in input lines")
		}
		hst := h.Shape.Stride()
		if len(h.Shape.Coords)/hst < 4 {
			return Geom{}, errInvalid("lwpoly_from_lwlines: holes must have at least 4 points")
		}
		if !closed(h.Shape.Coords, hst) {
			return Geom{}, errInvalid("lwpoly_from_lwlines: holes must be closed")
		}
		out.Rings = append(out.Rings, h.Shape.Coords)
	}
	for _, h := range holes {
		if h.Shape.Z != out.Z || h.Shape.M != out.M {
			return Geom{}, errInvalid("lwpoly_construct: mixed dimensioned rings")
		}
	}
	return Geom{SRID: shell.SRID, Shape: out}, nil
}

// mapSeqs returns a copy of s with each coordinate sequence (a point's,
// a line string's, a ring) replaced by f's of it; z and m are the new
// shape's dimensions.
func (s *Shape) mapSeqs(z, m bool, f func(t *Shape, c []float64) []float64) *Shape {
	out := &Shape{Kind: s.Kind, Z: z, M: m}
	switch s.Kind {
	case Point, LineString:
		if len(s.Coords) > 0 {
			out.Coords = f(s, s.Coords)
		}
	case Polygon:
		for _, r := range s.Rings {
			out.Rings = append(out.Rings, f(s, r))
		}
	default:
		for _, p := range s.Parts {
			out.Parts = append(out.Parts, p.mapSeqs(z, m, f))
		}
	}
	return out
}

// vertex4 is vertex i of c (stride of t) as x, y, z, m, with zFill and
// mFill for the ordinates t lacks.
func vertex4(t *Shape, c []float64, i int, zFill, mFill float64) [4]float64 {
	v := [4]float64{c[i], c[i+1], zFill, mFill}
	j := i + 2
	if t.Z {
		v[2], j = c[j], j+1
	}
	if t.M {
		v[3] = c[j]
	}
	return v
}

// appendVertex appends v's x, y, and its z and m when z and m say.
func appendVertex(dst []float64, v [4]float64, z, m bool) []float64 {
	dst = append(dst, v[0], v[1])
	if z {
		dst = append(dst, v[2])
	}
	if m {
		dst = append(dst, v[3])
	}
	return dst
}

// ForceDims is ST_Force3DZ (z), ST_Force3DM (m) and ST_Force4D (both):
// s with exactly the dimensions z and m, an ordinate it lacks filled
// with zFill or mFill, one it has and the result lacks dropped.
func ForceDims(s *Shape, z, m bool, zFill, mFill float64) *Shape {
	return s.mapSeqs(z, m, func(t *Shape, c []float64) []float64 {
		st := t.Stride()
		out := make([]float64, 0, len(c)/st*4)
		for i := 0; i+st <= len(c); i += st {
			out = appendVertex(out, vertex4(t, c, i, zFill, mFill), z, m)
		}
		return out
	})
}

// FlipCoordinates is ST_FlipCoordinates: every vertex's x and y swapped.
func FlipCoordinates(s *Shape) *Shape {
	return s.mapSeqs(s.Z, s.M, func(t *Shape, c []float64) []float64 {
		out := append([]float64(nil), c...)
		for i := 0; i+1 < len(out); i += t.Stride() {
			out[i], out[i+1] = out[i+1], out[i]
		}
		return out
	})
}

// Reverse is ST_Reverse: the vertices of each line string and ring in
// the opposite order (points and multipoints unchanged).
func Reverse(s *Shape) *Shape {
	return s.mapSeqs(s.Z, s.M, func(t *Shape, c []float64) []float64 {
		st := t.Stride()
		out := make([]float64, 0, len(c))
		for i := len(c) - st; i >= 0; i -= st {
			out = append(out, c[i:i+st]...)
		}
		return out
	})
}

// Translate is ST_Translate, which PostGIS computes as the affine map of
// the identity matrix and the offsets: x·1 + y·0 (+ z·0) + dx, and so on,
// so that a NaN or an infinity in one ordinate spreads to the others as
// PostGIS's does; z moves only when the shape has Z, m never.
func Translate(s *Shape, dx, dy, dz float64) *Shape {
	return s.mapSeqs(s.Z, s.M, func(t *Shape, c []float64) []float64 {
		st := t.Stride()
		out := append([]float64(nil), c...)
		for i := 0; i+st <= len(out); i += st {
			x, y := c[i], c[i+1]
			if t.Z {
				z := c[i+2]
				out[i] = x*1 + y*0 + z*0 + dx
				out[i+1] = x*0 + y*1 + z*0 + dy
				out[i+2] = x*0 + y*0 + z*1 + dz
			} else {
				out[i] = x*1 + y*0 + dx
				out[i+1] = x*0 + y*1 + dy
			}
		}
		return out
	})
}

// pointVertex is a point's vertex in the dimensions of line l (0 for
// an ordinate the point lacks). PostGIS reads an empty point's missing
// vertex from memory it never set; zproxy's is NaN, what an empty
// point's ordinates are in EWKB.
func pointVertex(l, p *Shape) []float64 {
	v := [4]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	if len(p.Coords) > 0 {
		v = vertex4(p, p.Coords, 0, 0, 0)
	}
	return appendVertex(nil, v, l.Z, l.M)
}

// AddPoint is ST_AddPoint: line l with point p inserted before vertex
// pos (0 to the number of vertices; -1 appends).
func AddPoint(l, p *Shape, pos int64) (*Shape, error) {
	st := l.Stride()
	n := int64(len(l.Coords) / st)
	if pos == -1 {
		pos = n
	}
	if pos < 0 || pos > n {
		return nil, errInvalid("LWGEOM_addpoint: Invalid offset")
	}
	out := &Shape{Kind: LineString, Z: l.Z, M: l.M}
	out.Coords = append(out.Coords, l.Coords[:pos*int64(st)]...)
	out.Coords = append(out.Coords, pointVertex(l, p)...)
	out.Coords = append(out.Coords, l.Coords[pos*int64(st):]...)
	return out, nil
}

// RemovePoint is ST_RemovePoint: line l without vertex i. PostGIS checks
// the index first, its last index an unsigned number (4294967295 for an
// empty line), then that the line keeps two vertices.
func RemovePoint(l *Shape, i int64) (*Shape, error) {
	st := l.Stride()
	n := uint32(len(l.Coords) / st)
	if i < 0 || i > math.MaxInt32 || uint32(i) > n-1 {
		return nil, errInvalid("Point index out of range (0..%d)", n-1)
	}
	if n < 3 {
		return nil, errInvalid("Can't remove points from a single segment line")
	}
	out := &Shape{Kind: LineString, Z: l.Z, M: l.M}
	out.Coords = append(append(out.Coords, l.Coords[:i*int64(st)]...), l.Coords[(i+1)*int64(st):]...)
	return out, nil
}

// SetPoint is ST_SetPoint: line l with vertex i (counted from the end
// when negative, -1 the last) replaced by point p.
func SetPoint(l, p *Shape, i int64) (*Shape, error) {
	st := l.Stride()
	n := int64(len(l.Coords) / st)
	if n == 0 {
		return nil, errInvalid("Line has no points")
	}
	if i < 0 {
		i += n
	}
	if i < 0 || i >= n {
		return nil, errInvalid("abs(Point index) out of range (-)(0..%d)", n-1)
	}
	out := &Shape{Kind: LineString, Z: l.Z, M: l.M, Coords: append([]float64(nil), l.Coords...)}
	copy(out.Coords[i*int64(st):], pointVertex(l, p))
	return out, nil
}

// multi is the multi-geometry kind whose members are of kind k; ok is
// false for a kind that is none's member (a multi or a collection).
func (k Kind) multi() (Kind, bool) {
	switch k {
	case Point:
		return MultiPoint, true
	case LineString:
		return MultiLineString, true
	case Polygon:
		return MultiPolygon, true
	}
	return k, false
}
