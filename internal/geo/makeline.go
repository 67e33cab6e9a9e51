package geo

import "math"

// MakeLine is PostGIS's lwline_from_lwgeom_array (ST_MakeLine): the line
// string through the vertices of gs in order, gs being points,
// multipoints and line strings (the caller refuses or skips the other
// kinds, as each form of ST_MakeLine does). A point adds its vertex and a
// multipoint each of its own, repeated or not; a line string adds its
// vertices but its first when that lies (in x and y) where the line so
// far ends; an empty geometry adds none. The line's SRID is the first
// geometry's, and it has Z (M) when any geometry has: a point without one
// gets 0, while a line string of other dimensions than the result's is
// PostGIS's error.
func MakeLine(gs []Geom) (Geom, error) {
	out := &Shape{Kind: LineString}
	for _, g := range gs {
		out.Z = out.Z || g.Shape.Z
		out.M = out.M || g.Shape.M
	}
	var coords []float64
	addVertex := func(s *Shape, c []float64) {
		x, y, z, m := c[0], c[1], 0.0, 0.0
		i := 2
		if s.Z {
			z, i = c[i], i+1
		}
		if s.M {
			m = c[i]
		}
		coords = append(coords, x, y)
		if out.Z {
			coords = append(coords, z)
		}
		if out.M {
			coords = append(coords, m)
		}
	}
	stride := out.Stride()
	for _, g := range gs {
		s := g.Shape
		if s.IsEmpty() {
			continue
		}
		switch s.Kind {
		case Point:
			addVertex(s, s.Coords)
		case MultiPoint:
			for _, p := range s.Parts {
				if !p.IsEmpty() {
					addVertex(p, p.Coords)
				}
			}
		case LineString:
			if s.Z != out.Z || s.M != out.M {
				return Geom{}, errInvalid("ptarray_append_ptarray: appending mixed dimensionality is not allowed")
			}
			c := s.Coords
			if n := len(coords); n > 0 && coords[n-stride] == c[0] && coords[n-stride+1] == c[1] {
				c = c[stride:]
			}
			coords = append(coords, c...)
		default:
			return Geom{}, errInvalid("lwline_from_ptarray: invalid input type: %s", s.Kind)
		}
	}
	out.Coords = coords
	srid := int32(0)
	if len(gs) > 0 {
		srid = gs[0].SRID
	}
	return Geom{SRID: srid, Shape: out}, nil
}

// BoxND is a geometry's n-dimensional bounding box as PostGIS's gist
// n-D operator class keeps it (GIDX, gserialized_get_gidx_p): x, y, and z
// and m when the geometry has them, each side rounded outward to a
// float4; a geometry with M but no Z has the widest z (±MaxFloat32),
// which the comparisons read as no bound.
type BoxND struct {
	Min, Max [4]float32
	Dims     int
}

// BoundsND returns s's BoxND; ok is false for an empty shape.
func (s *Shape) BoundsND() (b BoxND, ok bool) {
	b.Dims = 2
	switch {
	case s.M:
		b.Dims = 4
	case s.Z:
		b.Dims = 3
	}
	lo := [4]float64{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [4]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	s.eachOrdinates(func(v [4]float64) {
		for d := range 4 {
			lo[d], hi[d] = math.Min(lo[d], v[d]), math.Max(hi[d], v[d])
		}
		ok = true
	})
	if !ok {
		return BoxND{}, false
	}
	for d := range b.Dims {
		b.Min[d], b.Max[d] = Float4Down(lo[d]), Float4Up(hi[d])
	}
	if s.M && !s.Z {
		b.Min[2], b.Max[2] = -math.MaxFloat32, math.MaxFloat32
	}
	return b, true
}

// OverlapsND is PostGIS's gidx_overlaps (the &&& operator): the boxes
// meet in every dimension both have, a dimension either leaves unbounded
// (MaxFloat32) not counting.
func (b BoxND) OverlapsND(o BoxND) bool {
	for d := range min(b.Dims, o.Dims) {
		if b.Max[d] == math.MaxFloat32 || o.Max[d] == math.MaxFloat32 {
			continue
		}
		if b.Min[d] > o.Max[d] || o.Min[d] > b.Max[d] {
			return false
		}
	}
	return true
}

// eachOrdinates calls f with every vertex's x, y, z and m (0 for those
// the shape lacks).
func (s *Shape) eachOrdinates(f func(v [4]float64)) {
	s.eachSeq(func(t *Shape, c []float64) {
		st := t.Stride()
		for i := 0; i+st <= len(c); i += st {
			v := [4]float64{c[i], c[i+1]}
			j := i + 2
			if t.Z {
				v[2], j = c[j], j+1
			}
			if t.M {
				v[3] = c[j]
			}
			f(v)
		}
	})
}
