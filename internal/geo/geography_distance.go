package geo

import "math"

// PostGIS 3.3's geography distance between points and lines or
// polygons: the nearest point of the edges is found on the sphere
// (great-circle edges), and the distance to it is then measured on the
// spheroid (or on the sphere with use_spheroid false); a point in a
// polygon (on the sphere) is at 0.

// vec3 is a point on the unit sphere.
type vec3 [3]float64

func unitVec(lon, lat float64) vec3 {
	rad := math.Pi / 180
	sl, cl := math.Sincos(lat * rad)
	so, co := math.Sincos(lon * rad)
	return vec3{cl * co, cl * so, sl}
}

func (a vec3) dot(b vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func (a vec3) cross(b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func (a vec3) norm() float64 { return math.Sqrt(a.dot(a)) }

// angle is the angle between two unit vectors, accurate at any size.
func (a vec3) angle(b vec3) float64 { return math.Atan2(a.cross(b).norm(), a.dot(b)) }

func (a vec3) lonLat() (float64, float64) {
	deg := 180 / math.Pi
	return math.Atan2(a[1], a[0]) * deg, math.Atan2(a[2], math.Hypot(a[0], a[1])) * deg
}

// crossLonLat is the cross product of the unit vectors of two lon/lat
// points (degrees). Taken from the vectors, a short edge's would keep
// only the digits its length leaves (the plane of a metre-long edge
// tilted by 1e-10, moving its nearest points by a millimetre); in the
// sum and difference angles (δ half the longitude difference, λm the
// mean longitude) it is exact:
//
//	x = sin λm cos δ sin(φ2−φ1) − cos λm sin δ sin(φ1+φ2)
//	y = −cos λm cos δ sin(φ2−φ1) − sin λm sin δ sin(φ1+φ2)
//	z = cos φ1 cos φ2 sin 2δ
func crossLonLat(lon1, lat1, lon2, lat2 float64) vec3 {
	rad := math.Pi / 180
	half := math.Remainder(lon2-lon1, 360) / 2
	sd, cd := math.Sincos(half * rad)
	sm, cm := math.Sincos((lon1 + half) * rad)
	sdl := math.Sin((lat2 - lat1) * rad)
	ssl := math.Sin((lat1 + lat2) * rad)
	return vec3{
		sm*cd*sdl - cm*sd*ssl,
		-cm*cd*sdl - sm*sd*ssl,
		math.Cos(lat1*rad) * math.Cos(lat2*rad) * math.Sin(2*half*rad),
	}
}

// nearestOnArc is the point of the great-circle arc from a to b
// nearest p: p's projection onto the arc's plane (normal n, a×b) when
// it falls within the arc (end −1), else the nearer end (0 for a, 1
// for b).
func nearestOnArc(p, a, b, n vec3) (vec3, int) {
	if nn := n.norm(); nn > 0 {
		n = vec3{n[0] / nn, n[1] / nn, n[2] / nn}
		d := p.dot(n)
		q := vec3{p[0] - d*n[0], p[1] - d*n[1], p[2] - d*n[2]}
		if qn := q.norm(); qn > 0 {
			q = vec3{q[0] / qn, q[1] / qn, q[2] / qn}
			if a.cross(q).dot(n) >= 0 && q.cross(b).dot(n) >= 0 {
				return q, -1
			}
		}
	}
	if p.angle(a) <= p.angle(b) {
		return a, 0
	}
	return b, 1
}

// geogSeqs calls f with each coordinate sequence of a shape: its
// lines, rings and points.
func geogSeqs(s *Shape, f func(c []float64, stride int)) {
	switch s.Kind {
	case LineString:
		f(s.Coords, s.Stride())
	case Polygon:
		for _, r := range s.Rings {
			f(r, s.Stride())
		}
	case MultiLineString, MultiPolygon, GeometryCollection, MultiPoint:
		for _, p := range s.Parts {
			geogSeqs(p, f)
		}
	case Point:
		f(s.Coords, s.Stride())
	}
}

// inSpherePolygon reports whether p is in a polygon with great-circle
// edges: the rings' winding numbers about p, from the signed angles
// their edges subtend at p, outer ring in and no hole.
func inSpherePolygon(p vec3, s *Shape) bool {
	wind := func(c []float64, stride int) bool {
		sum := 0.0
		for i := stride; i+1 < len(c); i += stride {
			a := unitVec(c[i-stride], c[i-stride+1])
			b := unitVec(c[i], c[i+1])
			sum += math.Atan2(a.cross(b).dot(p), a.dot(b)-a.dot(p)*b.dot(p))
		}
		return math.Abs(sum) > math.Pi
	}
	if len(s.Rings) == 0 || !wind(s.Rings[0], s.Stride()) {
		return false
	}
	for _, h := range s.Rings[1:] {
		if wind(h, s.Stride()) {
			return false
		}
	}
	return true
}

// GeographyPointDistance is the distance in metres from the point
// (lon, lat) to a geography of lines, polygons or points, as PostGIS
// measures it: 0 in a polygon; else the nearest point of the edges on
// the sphere, the distance to it on the spheroid (or on the sphere of
// SphereRadius). ok is false when the shape is empty.
func GeographyPointDistance(lon, lat float64, s *Shape, spheroid bool) (d float64, ok bool) {
	p := unitVec(lon, lat)
	var inside func(s *Shape) bool
	inside = func(s *Shape) bool {
		switch s.Kind {
		case Polygon:
			return inSpherePolygon(p, s)
		case MultiPolygon, GeometryCollection:
			for _, part := range s.Parts {
				if inside(part) {
					return true
				}
			}
		}
		return false
	}
	// The nearest point: bestQ, or the vertex at bestC[bestAt:] (its
	// own coordinates, not their round trip through bestQ).
	best, bestQ, bestAt := math.Inf(1), vec3{}, -1
	var bestC []float64
	geogSeqs(s, func(c []float64, stride int) {
		if len(c) < 2 {
			return
		}
		prev := unitVec(c[0], c[1])
		if len(c) <= stride {
			if a := p.angle(prev); a < best {
				best, bestQ, bestAt, bestC = a, prev, 0, c
			}
			return
		}
		for i := stride; i+1 < len(c); i += stride {
			b := unitVec(c[i], c[i+1])
			q, end := nearestOnArc(p, prev, b, crossLonLat(c[i-stride], c[i-stride+1], c[i], c[i+1]))
			if a := p.angle(q); a < best {
				best, bestQ, bestAt = a, q, -1
				if end >= 0 {
					bestAt = i - stride + end*stride
				}
				bestC = c
			}
			prev = b
		}
	})
	if math.IsInf(best, 1) {
		return 0, false
	}
	if inside(s) {
		return 0, true
	}
	if !spheroid {
		return best * SphereRadius, true
	}
	qlon, qlat := bestQ.lonLat()
	if bestAt >= 0 && bestC != nil {
		qlon, qlat = bestC[bestAt], bestC[bestAt+1]
	}
	return SpheroidDistance(lon, lat, qlon, qlat), true
}
