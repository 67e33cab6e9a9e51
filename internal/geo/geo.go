// Package geo holds the values of the PostGIS-compatible geometry and
// geography types: their extended well-known binary (EWKB) form, which is
// what zproxy stores and what PostGIS sends, the text forms PostGIS reads
// and prints (hex EWKB, EWKT, WKT, GeoJSON), and the geometry algorithms
// of the ST_ functions.
//
// The algorithms (DE-9IM predicates, distance, area, length, centroid)
// and the WKT and GeoJSON readers are github.com/peterstace/simplefeatures:
// it is pure Go (no GEOS through cgo, so zproxy stays one static binary),
// maintained, and implements the OGC simple features model PostGIS follows,
// with an exact DE-9IM relate. github.com/twpayne/go-geom was the other
// candidate: it has EWKB and EWKT encoders but no polygon predicates or
// relate, which ST_Contains and ST_Intersects need. simplefeatures reads
// and writes ISO WKB only, so the EWKB framing (SRID, PostGIS's Z/M flag
// bits) is this package's own (ewkb.go), over a Shape tree that also keeps
// a point's coordinates one slice index away for the spatial index.
package geo

import (
	"math"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Kind is a geometry's type code, as WKB numbers them.
type Kind uint32

// The geometry kinds.
const (
	Point Kind = 1 + iota
	LineString
	Polygon
	MultiPoint
	MultiLineString
	MultiPolygon
	GeometryCollection
)

var kindNames = [...]string{"", "Point", "LineString", "Polygon", "MultiPoint", "MultiLineString", "MultiPolygon", "GeometryCollection"}

// String is the kind's name as PostGIS's typmods spell it (Point, ...).
func (k Kind) String() string {
	if k == 0 || int(k) >= len(kindNames) {
		return "Geometry"
	}
	return kindNames[k]
}

// Shape is one geometry: a point's or a line string's coordinates in
// Coords (x, y, then z and m when it has them: Stride values a vertex;
// an empty point has none), a polygon's rings in Rings, the members of a
// multi-geometry or a collection in Parts.
type Shape struct {
	Kind   Kind
	Z, M   bool
	Coords []float64
	Rings  [][]float64
	Parts  []*Shape
}

// Geom is a geometry or geography value: its SRID (0: unknown) and shape.
type Geom struct {
	SRID  int32
	Shape *Shape
}

// Stride is the number of coordinates of a vertex.
func (s *Shape) Stride() int {
	n := 2
	if s.Z {
		n++
	}
	if s.M {
		n++
	}
	return n
}

// IsEmpty reports whether s has no vertices.
func (s *Shape) IsEmpty() bool {
	switch s.Kind {
	case Point, LineString:
		return len(s.Coords) == 0
	case Polygon:
		return len(s.Rings) == 0
	}
	for _, p := range s.Parts {
		if !p.IsEmpty() {
			return false
		}
	}
	return true
}

// Force2D returns s without its Z and M ordinates (ST_Force2D): a copy
// when it has any, s itself when it has none.
func (s *Shape) Force2D() *Shape {
	if !s.Z && !s.M && !s.hasZMParts() {
		return s
	}
	stride := s.Stride()
	flat := func(c []float64) []float64 {
		if c == nil {
			return nil
		}
		out := make([]float64, 0, len(c)/stride*2)
		for i := 0; i+1 < len(c); i += stride {
			out = append(out, c[i], c[i+1])
		}
		return out
	}
	t := &Shape{Kind: s.Kind, Coords: flat(s.Coords)}
	for _, r := range s.Rings {
		t.Rings = append(t.Rings, flat(r))
	}
	for _, p := range s.Parts {
		t.Parts = append(t.Parts, p.Force2D())
	}
	return t
}

// hasZMParts reports whether a part of s has Z or M.
func (s *Shape) hasZMParts() bool {
	for _, p := range s.Parts {
		if p.Z || p.M || p.hasZMParts() {
			return true
		}
	}
	return false
}

// NPoints is the number of vertices (ST_NPoints).
func (s *Shape) NPoints() int {
	switch s.Kind {
	case Point, LineString:
		return len(s.Coords) / s.Stride()
	case Polygon:
		n := 0
		for _, r := range s.Rings {
			n += len(r) / s.Stride()
		}
		return n
	}
	n := 0
	for _, p := range s.Parts {
		n += p.NPoints()
	}
	return n
}

// Box is a 2D bounding box.
type Box struct{ MinX, MinY, MaxX, MaxY float64 }

// Union is the box holding both b and o.
func (b Box) Union(o Box) Box {
	return Box{MinX: math.Min(b.MinX, o.MinX), MinY: math.Min(b.MinY, o.MinY), MaxX: math.Max(b.MaxX, o.MaxX), MaxY: math.Max(b.MaxY, o.MaxY)}
}

// Float4 is b as PostGIS keeps it for its box operators (BOX2DF,
// gserialized_get_gbox_p and box2df_from_gbox_p): each side rounded
// outward to a float4.
func (b Box) Float4() Box {
	return Box{MinX: float64(Float4Down(b.MinX)), MinY: float64(Float4Down(b.MinY)), MaxX: float64(Float4Up(b.MaxX)), MaxY: float64(Float4Up(b.MaxY))}
}

// Float4Down is d rounded down to a float4 (PostGIS's next_float_down).
func Float4Down(d float64) float32 {
	f := float32(d)
	if float64(f) > d {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

// Float4Up is d rounded up to a float4 (PostGIS's next_float_up).
func Float4Up(d float64) float32 {
	f := float32(d)
	if float64(f) < d {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// Bounds returns s's 2D bounding box; ok is false for an empty shape.
func (s *Shape) Bounds() (b Box, ok bool) {
	b = Box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	s.eachVertex(func(x, y float64) {
		b.MinX, b.MinY = math.Min(b.MinX, x), math.Min(b.MinY, y)
		b.MaxX, b.MaxY = math.Max(b.MaxX, x), math.Max(b.MaxY, y)
		ok = true
	})
	return b, ok
}

func (s *Shape) eachVertex(f func(x, y float64)) {
	s.eachSeq(func(t *Shape, c []float64) {
		st := t.Stride()
		for i := 0; i+1 < len(c); i += st {
			f(c[i], c[i+1])
		}
	})
}

// eachSeq calls f with each coordinate sequence of s (a point's or a line
// string's, a polygon's rings, its parts'), and the shape it belongs to.
func (s *Shape) eachSeq(f func(t *Shape, c []float64)) {
	switch s.Kind {
	case Point, LineString:
		f(s, s.Coords)
	case Polygon:
		for _, r := range s.Rings {
			f(s, r)
		}
	default:
		for _, p := range s.Parts {
			p.eachSeq(f)
		}
	}
}

// MapXY returns a copy of s with every vertex's x and y mapped by f.
func (s *Shape) MapXY(f func(x, y float64) (float64, float64)) *Shape {
	c := &Shape{Kind: s.Kind, Z: s.Z, M: s.M}
	st := s.Stride()
	seq := func(in []float64) []float64 {
		out := append([]float64(nil), in...)
		for i := 0; i+1 < len(out); i += st {
			out[i], out[i+1] = f(out[i], out[i+1])
		}
		return out
	}
	if len(s.Coords) > 0 {
		c.Coords = seq(s.Coords)
	}
	for _, r := range s.Rings {
		c.Rings = append(c.Rings, seq(r))
	}
	for _, p := range s.Parts {
		c.Parts = append(c.Parts, p.MapXY(f))
	}
	return c
}

// mapCoords replaces every ordinate of s (x, y, z and m) with f's, in
// place.
func (s *Shape) mapCoords(f func(float64) float64) {
	for i := range s.Coords {
		s.Coords[i] = f(s.Coords[i])
	}
	for _, r := range s.Rings {
		for i := range r {
			r[i] = f(r[i])
		}
	}
	for _, p := range s.Parts {
		p.mapCoords(f)
	}
}

// PointXY returns a non-empty point's x and y: the coordinates a spatial
// index of points keys by.
func (g Geom) PointXY() (x, y float64, ok bool) {
	if g.Shape.Kind != Point || len(g.Shape.Coords) < 2 {
		return 0, 0, false
	}
	return g.Shape.Coords[0], g.Shape.Coords[1], true
}

// NewPoint returns a 2D point.
func NewPoint(x, y float64, srid int32) Geom {
	return Geom{SRID: srid, Shape: &Shape{Kind: Point, Coords: []float64{x, y}}}
}

// errInvalid is PostGIS's error for input it cannot read (XX000, as
// lwgeom_pg's errors are).
func errInvalid(format string, args ...any) error {
	return pgerr.Raised(format, args...)
}
