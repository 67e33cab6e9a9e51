package geo

import "math"

// Grid is PostGIS's gridspec: the origin and the cell size of each
// ordinate (a size of 0 or less leaves that ordinate as it is).
type Grid struct {
	IPX, IPY, IPZ, IPM         float64
	SizeX, SizeY, SizeZ, SizeM float64
}

// Meaningless reports whether every size is 0: ST_SnapToGrid then returns
// its input.
func (g Grid) Meaningless() bool {
	return g.SizeX == 0 && g.SizeY == 0 && g.SizeZ == 0 && g.SizeM == 0
}

func snap(v, origin, size float64) float64 {
	return float64(math.RoundToEven((v-origin)/size)*size) + origin
}

// gridSeq is ptarray_grid_in_place: every vertex snapped, and a vertex
// equal in every ordinate to the one before it dropped.
func gridSeq(c []float64, st int, z, m bool, g Grid) []float64 {
	out := make([]float64, 0, len(c))
	p := make([]float64, st)
	for i := 0; i+st <= len(c); i += st {
		copy(p, c[i:i+st])
		if g.SizeX > 0 {
			p[0] = snap(p[0], g.IPX, g.SizeX)
		}
		if g.SizeY > 0 {
			p[1] = snap(p[1], g.IPY, g.SizeY)
		}
		if z && g.SizeZ > 0 {
			p[2] = snap(p[2], g.IPZ, g.SizeZ)
		}
		if m && g.SizeM > 0 {
			p[st-1] = snap(p[st-1], g.IPM, g.SizeM)
		}
		if n := len(out); n > 0 {
			same := true
			for j := 0; j < st; j++ {
				if out[n-st+j] != p[j] {
					same = false
					break
				}
			}
			if same {
				continue
			}
		}
		out = append(out, p...)
	}
	return out
}

// SnapToGrid is lwgeom_grid: s's vertices snapped to the grid, repeated
// vertices dropped, lines left with fewer than 2 vertices emptied, rings
// with fewer than 4 dropped (the polygon emptied when its outer ring is),
// empty members of collections dropped.
func SnapToGrid(s *Shape, g Grid) *Shape {
	c := &Shape{Kind: s.Kind, Z: s.Z, M: s.M}
	if s.IsEmpty() {
		return copyShape(s)
	}
	st := s.Stride()
	switch s.Kind {
	case Point:
		c.Coords = gridSeq(s.Coords, st, s.Z, s.M, g)
		return c
	case LineString:
		c.Coords = gridSeq(s.Coords, st, s.Z, s.M, g)
		if len(c.Coords)/st < 2 {
			c.Coords = nil
		}
		return c
	case Polygon:
		for i, r := range s.Rings {
			pts := gridSeq(r, st, s.Z, s.M, g)
			if len(pts)/st < 4 {
				if i == 0 {
					return c
				}
				continue
			}
			c.Rings = append(c.Rings, pts)
		}
		return c
	}
	for _, p := range s.Parts {
		q := SnapToGrid(p, g)
		if q.IsEmpty() {
			continue
		}
		c.Parts = append(c.Parts, q)
	}
	return c
}

func copyShape(s *Shape) *Shape {
	c := &Shape{Kind: s.Kind, Z: s.Z, M: s.M, Coords: append([]float64(nil), s.Coords...)}
	for _, r := range s.Rings {
		c.Rings = append(c.Rings, append([]float64(nil), r...))
	}
	for _, p := range s.Parts {
		c.Parts = append(c.Parts, copyShape(p))
	}
	return c
}
