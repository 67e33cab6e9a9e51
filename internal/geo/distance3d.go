package geo

import (
	"math"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// ST_3DDistance of two geometries with Z, as PostGIS 3.3 computes it:
// every vertex and segment pair of the two in 3-D, a segment pair by the
// parameters of the two lines' nearest points, clamped to the segments
// by measuring from the ends that fall outside.

type dist3Pt struct{ x, y, z float64 }

// dist3State is the smallest distance found so far.
type dist3State struct{ d float64 }

func (s *dist3State) ptPt(p, q dist3Pt) {
	dx, dy, dz := q.x-p.x, q.y-p.y, q.z-p.z
	if d := math.Sqrt(dx*dx + dy*dy + dz*dz); d < s.d {
		s.d = d
	}
}

func (s *dist3State) ptSeg(p, a, b dist3Pt) {
	if a == b {
		s.ptPt(p, a)
		return
	}
	bx, by, bz := b.x-a.x, b.y-a.y, b.z-a.z
	r := ((p.x-a.x)*bx + (p.y-a.y)*by + (p.z-a.z)*bz) / (bx*bx + by*by + bz*bz)
	switch {
	case r < 0:
		s.ptPt(p, a)
	case r > 1:
		s.ptPt(p, b)
	default:
		s.ptPt(p, dist3Pt{a.x + r*bx, a.y + r*by, a.z + r*bz})
	}
}

// segSeg is segments ab and cd: the nearest points of their lines when
// both fall on the segments, else the ends outside measured against the
// other segment.
func (s *dist3State) segSeg(a, b, c, d dist3Pt) {
	if a == b {
		s.ptSeg(a, c, d)
		return
	}
	if c == d {
		s.ptSeg(c, a, b)
		return
	}
	u := dist3Pt{b.x - a.x, b.y - a.y, b.z - a.z}
	v := dist3Pt{d.x - c.x, d.y - c.y, d.z - c.z}
	w := dist3Pt{a.x - c.x, a.y - c.y, a.z - c.z}
	dot := func(p, q dist3Pt) float64 { return p.x*q.x + p.y*q.y + p.z*q.z }
	uu, uv, vv, uw, vw := dot(u, u), dot(u, v), dot(v, v), dot(u, w), dot(v, w)
	den := uu*vv - uv*uv
	var sk, tk float64
	if den < 1e-8 {
		// Nearly parallel: from the first segment's start.
		sk = 0
		if uv > vv {
			tk = uw / uv
		} else {
			tk = vw / vv
		}
	} else {
		sk = (uv*vw - vv*uw) / den
		tk = (uu*vw - uv*uw) / den
	}
	if sk < 0 || sk > 1 || tk < 0 || tk > 1 {
		if sk < 0 {
			s.ptSeg(a, c, d)
		}
		if sk > 1 {
			s.ptSeg(b, c, d)
		}
		if tk < 0 {
			s.ptSeg(c, a, b)
		}
		if tk > 1 {
			s.ptSeg(d, a, b)
		}
		return
	}
	s.ptPt(dist3Pt{a.x + sk*u.x, a.y + sk*u.y, a.z + sk*u.z}, dist3Pt{c.x + tk*v.x, c.y + tk*v.y, c.z + tk*v.z})
}

// leaf3 is a non-empty point's or line's vertices in 3-D; ok is false
// on a polygon, which zproxy does not measure in 3-D.
func leaf3(s *Shape) (l []dist3Pt, ok bool) {
	if s.Kind == Polygon {
		return nil, false
	}
	stride := s.Stride()
	for i := 0; i+2 < len(s.Coords); i += stride {
		l = append(l, dist3Pt{s.Coords[i], s.Coords[i+1], s.Coords[i+2]})
	}
	return l, true
}

// Distance3D is ST_3DDistance of two geometries that both have Z; ok is
// false when it found no distance (see distSearch: the same walk over
// members, with the same stops at empty members). Polygons in 3-D are
// not supported.
func Distance3D(a, b *Shape) (d float64, ok bool, err error) {
	init := float64(math.MaxFloat32)
	s := dist3State{d: init}
	if !s.recurse(a, b) {
		return 0, false, pgerr.New(pgerr.FeatureNotSupported, "ST_3DDistance of polygons with Z is not supported")
	}
	return s.d, s.d != init, nil
}

// recurse is distState.recurse in 3-D; false on a polygon.
func (s *dist3State) recurse(a, b *Shape) bool {
	for _, g := range members(a) {
		if g.IsEmpty() {
			return true
		}
		if isCollection(g.Kind) {
			if !s.recurse(g, b) {
				return false
			}
			continue
		}
		l1, ok := leaf3(g)
		if !ok {
			return false
		}
		for _, h := range members(b) {
			if isCollection(h.Kind) {
				if !s.recurse(g, h) {
					return false
				}
				continue
			}
			if h.IsEmpty() {
				return true
			}
			l2, ok := leaf3(h)
			if !ok {
				return false
			}
			s.compare(l1, l2)
			if s.d <= 0 {
				return true
			}
		}
	}
	return true
}

// compare measures two vertex lists: a point against each segment, two
// lines segment pair by segment pair.
func (s *dist3State) compare(l1, l2 []dist3Pt) {
	switch {
	case len(l1) == 1 && len(l2) == 1:
		s.ptPt(l1[0], l2[0])
	case len(l1) == 1:
		s.ptLine(l1[0], l2)
	case len(l2) == 1:
		s.ptLine(l2[0], l1)
	default:
		for i := 1; i < len(l1); i++ {
			for j := 1; j < len(l2); j++ {
				s.segSeg(l1[i-1], l1[i], l2[j-1], l2[j])
				if s.d <= 0 {
					return
				}
			}
		}
	}
}

func (s *dist3State) ptLine(p dist3Pt, l []dist3Pt) {
	for i := 1; i < len(l); i++ {
		s.ptSeg(p, l[i-1], l[i])
		if s.d <= 0 {
			return
		}
	}
}
