package geo

import (
	"math"
	"strconv"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// ST_3DDistance of two geometries with Z, as PostGIS 3.3 computes it:
// every vertex and segment pair of the two in 3-D, a segment pair by the
// parameters of the two lines' nearest points, clamped to the segments
// by measuring from the ends that fall outside.

type dist3Pt struct{ x, y, z float64 }

// dist3State is the smallest distance found so far, or the error that
// ended the search.
type dist3State struct {
	d   float64
	err error
}

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

// leaf3 is a non-empty point, line or polygon in 3-D: a point's or a
// line's vertices, a polygon's rings.
type leaf3 struct {
	pts   []dist3Pt
	rings [][]dist3Pt
}

func leafOf3(s *Shape) leaf3 {
	stride := s.Stride()
	pts := func(c []float64) []dist3Pt {
		var l []dist3Pt
		for i := 0; i+2 < len(c); i += stride {
			l = append(l, dist3Pt{c[i], c[i+1], c[i+2]})
		}
		return l
	}
	if s.Kind == Polygon {
		var l leaf3
		for _, r := range s.Rings {
			l.rings = append(l.rings, pts(r))
		}
		return l
	}
	return leaf3{pts: pts(s.Coords)}
}

// Distance3D is ST_3DDistance of two geometries that both have Z; ok is
// false when it found no distance (see distSearch: the same walk over
// members, with the same stops at empty members).
func Distance3D(a, b *Shape) (d float64, ok bool, err error) {
	init := float64(math.MaxFloat32)
	s := dist3State{d: init}
	s.recurse(a, b)
	return s.d, s.d != init, s.err
}

// recurse is distState.recurse in 3-D.
func (s *dist3State) recurse(a, b *Shape) {
	for _, g := range members(a) {
		if g.IsEmpty() {
			return
		}
		if isCollection(g.Kind) {
			s.recurse(g, b)
			continue
		}
		x := leafOf3(g)
		for _, h := range members(b) {
			if isCollection(h.Kind) {
				s.recurse(g, h)
				continue
			}
			if h.IsEmpty() {
				return
			}
			s.compare(x, leafOf3(h))
			if s.d <= 0 || s.err != nil {
				return
			}
		}
	}
}

// compare measures two leaves: a point against each segment, two lines
// segment pair by segment pair, a point or a line against a polygon
// through the polygon's plane.
func (s *dist3State) compare(x, y leaf3) {
	switch {
	case x.rings != nil && y.rings != nil:
		s.polyPoly(x.rings, y.rings)
	case x.rings != nil:
		s.ptsPoly(y.pts, x.rings)
	case y.rings != nil:
		s.ptsPoly(x.pts, y.rings)
	default:
		s.ptsPts(x.pts, y.pts)
	}
}

// ptsPts measures two vertex lists (a single vertex is a point).
func (s *dist3State) ptsPts(l1, l2 []dist3Pt) {
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

// plane3 is a polygon's plane: a point on it (the mean of the shell's
// vertices) and a normal (a sum of normalised cross products of three
// spokes from that point).
type plane3 struct{ pop, pv dist3Pt }

func sub3(a, b dist3Pt) dist3Pt { return dist3Pt{a.x - b.x, a.y - b.y, a.z - b.z} }

func dot3(a, b dist3Pt) float64 { return a.x*b.x + a.y*b.y + a.z*b.z }

func isZero3(v dist3Pt) bool { return v.x == 0 && v.y == 0 && v.z == 0 }

// nearZero is PostGIS's FP_IS_ZERO.
func nearZero(f float64) bool { return math.Abs(f) <= 1e-12 }

// planeOf is the shell's plane; ok is false when the shell's vertices
// span none.
func planeOf(ring []dist3Pt) (pl plane3, ok bool) {
	if len(ring) < 3 {
		return pl, false
	}
	n := len(ring) - 1 // the closing vertex repeats the first
	for _, p := range ring[:n] {
		pl.pop.x += p.x
		pl.pop.y += p.y
		pl.pop.z += p.z
	}
	pl.pop.x /= float64(n)
	pl.pop.y /= float64(n)
	pl.pop.z /= float64(n)
	const breaks = 3
	for i := 0; i < breaks; i++ {
		n1 := i * n / breaks
		n2 := n1 + n/breaks
		if n1 == n2 {
			continue
		}
		v1 := sub3(ring[n1], pl.pop)
		if isZero3(v1) {
			continue
		}
		v2 := sub3(ring[n2], pl.pop)
		if isZero3(v2) {
			continue
		}
		vp := dist3Pt{v1.y*v2.z - v1.z*v2.y, v1.z*v2.x - v1.x*v2.z, v1.x*v2.y - v1.y*v2.x}
		if isZero3(vp) {
			continue
		}
		l := dot3(vp, vp)
		pl.pv.x += vp.x / l
		pl.pv.y += vp.y / l
		pl.pv.z += vp.z / l
	}
	return pl, !nearZero(pl.pv.x) || !nearZero(pl.pv.y) || !nearZero(pl.pv.z)
}

// project is p's foot on the plane and p's signed offset from it (in
// units of the normal's length). PostGIS leaves the foot of the plane's
// own point unset, and then measures that point to the shell as if its
// foot were outside (observed); unset reports that.
func (pl plane3) project(p dist3Pt) (q dist3Pt, f float64, unset bool) {
	v := sub3(p, pl.pop)
	if isZero3(v) {
		return p, 0, true
	}
	f = dot3(pl.pv, v)
	if nearZero(f) {
		return p, 0, false
	}
	f = -f / dot3(pl.pv, pl.pv)
	return dist3Pt{p.x + pl.pv.x*f, p.y + pl.pv.y*f, p.z + pl.pv.z*f}, f, false
}

// inRing reports whether p (on the plane) is inside the ring, by
// crossings in the axis plane the normal leans to most.
// A ring not closed in Z is PostGIS's error.
func (s *dist3State) inRing(pl plane3, p dist3Pt, ring []dist3Pt) bool {
	if first, last := ring[0], ring[len(ring)-1]; first != last {
		if s.err == nil {
			g := func(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }
			s.err = pgerr.Raised("pt_in_ring_3d: V[n] != V[0] (%s %s %s!= %s %s %s)",
				g(first.x), g(first.y), g(first.z), g(last.x), g(last.y), g(last.z))
		}
		return false
	}
	ax, ay, az := math.Abs(pl.pv.x), math.Abs(pl.pv.y), math.Abs(pl.pv.z)
	// u and v are the two coordinates kept.
	var u, v func(q dist3Pt) float64
	switch {
	case az >= ax && az >= ay:
		u, v = func(q dist3Pt) float64 { return q.x }, func(q dist3Pt) float64 { return q.y }
	case ay >= ax && ay >= az:
		u, v = func(q dist3Pt) float64 { return q.x }, func(q dist3Pt) float64 { return q.z }
	default:
		u, v = func(q dist3Pt) float64 { return q.y }, func(q dist3Pt) float64 { return q.z }
	}
	cn := 0
	for i := 0; i+1 < len(ring); i++ {
		a, b := ring[i], ring[i+1]
		if (v(a) <= v(p) && v(b) > v(p)) || (v(a) > v(p) && v(b) <= v(p)) {
			t := (v(p) - v(a)) / (v(b) - v(a))
			if u(p) < u(a)+t*(u(b)-u(a)) {
				cn++
			}
		}
	}
	return cn&1 == 1
}

// ptPoly measures p, whose foot on the polygon's plane is q (unset: see
// project).
func (s *dist3State) ptPoly(p, q dist3Pt, unset bool, rings [][]dist3Pt, pl plane3) {
	if unset || !s.inRing(pl, q, rings[0]) {
		s.ptLine(p, rings[0])
		return
	}
	for _, h := range rings[1:] {
		if s.inRing(pl, q, h) {
			s.ptLine(p, h)
			return
		}
	}
	s.ptPt(p, q)
}

// ptsPoly measures a point or a line against a polygon: each vertex
// against the polygon, each segment crossing the plane inside the
// polygon is a touch, then the line against every ring.
func (s *dist3State) ptsPoly(l []dist3Pt, rings [][]dist3Pt) {
	pl, ok := planeOf(rings[0])
	if !ok {
		s.ptsPts(l, rings[0])
		return
	}
	s.ptsPolyOn(l, rings, pl)
}

func (s *dist3State) ptsPolyOn(l []dist3Pt, rings [][]dist3Pt, pl plane3) {
	q1, s1, unset := pl.project(l[0])
	s.ptPoly(l[0], q1, unset, rings, pl)
	if len(l) == 1 {
		return
	}
	if s1 == 0 && s.d <= 0 {
		return
	}
	for i := 1; i < len(l); i++ {
		q2, s2, unset := pl.project(l[i])
		s.ptPoly(l[i], q2, unset, rings, pl)
		if s2 == 0 && s.d <= 0 {
			return
		}
		if s1*s2 < 0 {
			f := math.Abs(s1) / (math.Abs(s1) + math.Abs(s2))
			d := sub3(q2, q1)
			c := dist3Pt{q1.x + f*d.x, q1.y + f*d.y, q1.z + f*d.z}
			if s.inRing(pl, c, rings[0]) {
				in := true
				for _, h := range rings[1:] {
					if s.inRing(pl, c, h) {
						in = false
						break
					}
				}
				if in {
					s.d = 0
					return
				}
			}
		}
		q1, s1 = q2, s2
	}
	for _, r := range rings {
		s.ptsPts(l, r)
	}
}

// polyPoly measures the first shell against the second polygon, then
// the second shell against the first.
func (s *dist3State) polyPoly(r1, r2 [][]dist3Pt) {
	pl, ok := planeOf(r2[0])
	if !ok {
		s.ptsPoly(r2[0], r1)
		return
	}
	s.ptsPolyOn(r1[0], r2, pl)
	if s.d <= 0 {
		return
	}
	pl, ok = planeOf(r1[0])
	if !ok {
		s.ptsPts(r1[0], r2[0])
		return
	}
	s.ptsPolyOn(r2[0], r1, pl)
}

func (s *dist3State) ptLine(p dist3Pt, l []dist3Pt) {
	for i := 1; i < len(l); i++ {
		s.ptSeg(p, l[i-1], l[i])
		if s.d <= 0 {
			return
		}
	}
}
