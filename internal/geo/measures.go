package geo

import (
	"errors"
	"math"
)

// Measurements along geometries as PostGIS 3.3 computes them:
// ST_Perimeter, ST_Azimuth, ST_LineInterpolatePoint, ST_LineLocatePoint
// and the geography forms on WGS84's spheroid (Vincenty's formulae, see
// SpheroidDistance). The arithmetic follows PostGIS's own order of
// operations (sqrt(dx²+dy²), not math.Hypot; fractions of the total
// length compared segment by segment) so that the last digit agrees.

// dist2D is PostGIS's distance2d_pt_pt.
func dist2D(x1, y1, x2, y2 float64) float64 {
	dx, dy := x2-x1, y2-y1
	return math.Sqrt(dx*dx + dy*dy)
}

// seqLength2D is the planar length of a flat coordinate sequence.
func seqLength2D(c []float64, stride int) float64 {
	l := 0.0
	for i := stride; i+1 < len(c); i += stride {
		l += dist2D(c[i-stride], c[i-stride+1], c[i], c[i+1])
	}
	return l
}

// Perimeter is ST_Perimeter of a geometry: the planar length of the
// rings of its polygons (lines and points count nothing), Z ignored.
func Perimeter(s *Shape) float64 {
	switch s.Kind {
	case Polygon:
		p := 0.0
		for _, r := range s.Rings {
			p += seqLength2D(r, s.Stride())
		}
		return p
	case MultiPolygon, GeometryCollection:
		p := 0.0
		for _, part := range s.Parts {
			p += Perimeter(part)
		}
		return p
	}
	return 0
}

// GeographyPerimeter is ST_Perimeter of a geography: 0 unless it is a
// polygon, a multi-polygon or a collection; then the geodesic length of
// every ring and line in it (PostGIS measures a collection's lines
// too), on the spheroid or on the sphere of its mean radius.
func GeographyPerimeter(s *Shape, spheroid bool) float64 {
	switch s.Kind {
	case Polygon, MultiPolygon, GeometryCollection:
		return geodesicLength(s, spheroid)
	}
	return 0
}

// exactSphereVertices bounds the sequences whose sphere lengths take
// correctly rounded sines and cosines (a few tenths of a second at most).
const exactSphereVertices = 4096

func geodesicLength(s *Shape, spheroid bool) float64 {
	// On the sphere PostGIS sums a sequence's angles and then scales
	// them by the radius, its degrees turned to radians as π·d/180 and
	// its sines and cosines glibc's, correctly rounded (Go's are an ulp
	// off at some angles, which the sum's last digit shows). Those cost
	// some 36µs each in big floats, so a long sequence (more than
	// exactSphereVertices) takes Go's instead.
	// PostGIS measures a Z segment as √(d²+Δz²), d its geodesic length.
	withZ := func(d float64, c []float64, i, stride int) float64 {
		if !s.Z {
			return d
		}
		dz := c[i+2] - c[i-stride+2]
		return math.Sqrt(d*d + dz*dz)
	}
	seq := func(c []float64, stride int) float64 {
		l := 0.0
		if spheroid {
			for i := stride; i+1 < len(c); i += stride {
				l += withZ(SpheroidDistance(c[i-stride], c[i-stride+1], c[i], c[i+1]), c, i, stride)
			}
			return l
		}
		rad := func(d float64) float64 { return math.Pi * d / 180 }
		sincos := correctlyRoundedSinCos
		if len(c)/stride > exactSphereVertices {
			sincos = math.Sincos
		}
		var s1, c1, lz float64
		for i := 0; i+1 < len(c); i += stride {
			s2, c2 := sincos(rad(c[i+1]))
			if i > 0 {
				sl, cl := sincos(rad(c[i]) - rad(c[i-stride]))
				a1 := c2 * sl
				a2 := c1*s2 - s1*c2*cl
				a := math.Atan2(math.Sqrt(a1*a1+a2*a2), s1*s2+c1*c2*cl)
				if s.Z {
					lz += withZ(a*SphereRadius, c, i, stride)
				} else {
					l += a
				}
			}
			s1, c1 = s2, c2
		}
		if s.Z {
			return lz
		}
		return l * SphereRadius
	}
	switch s.Kind {
	case LineString:
		return seq(s.Coords, s.Stride())
	case Polygon:
		l := 0.0
		for _, r := range s.Rings {
			l += seq(r, s.Stride())
		}
		return l
	}
	l := 0.0
	for _, p := range s.Parts {
		l += geodesicLength(p, spheroid)
	}
	return l
}

// sincosd is the sine and cosine of an angle in degrees, exact for
// multiples of 90° (so that a due north or east projection keeps its
// longitude or latitude exactly, as GeographicLib's does).
func sincosd(d float64) (float64, float64) {
	q := math.Round(d / 90)
	r := (d - 90*q) * math.Pi / 180
	s, c := math.Sincos(r)
	switch int64(math.Mod(q, 4)+4) % 4 {
	case 1:
		s, c = c, -s
	case 2:
		s, c = -s, -c
	case 3:
		s, c = -c, s
	}
	return s + 0, c + 0
}

// Azimuth is the planar azimuth from (x1, y1) to (x2, y2) in radians,
// clockwise from north in [0, 2π); ok is false when the points are the
// same (PostGIS's NULL).
func Azimuth(x1, y1, x2, y2 float64) (float64, bool) {
	if x1 == x2 && y1 == y2 {
		return 0, false
	}
	a := math.Atan2(x2-x1, y2-y1)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a, true
}

// SpheroidAzimuth is the initial azimuth in radians, in [0, 2π), of the
// geodesic on WGS84 from lon1/lat1 to lon2/lat2 (Vincenty's inverse
// formula); ok is false when the points are the same.
func SpheroidAzimuth(lon1, lat1, lon2, lat2 float64) (float64, bool) {
	if lon1 == lon2 && lat1 == lat2 {
		return 0, false
	}
	_, a, _ := vincentyInverse(lon1, lat1, lon2, lat2)
	if a < 0 {
		a += 2 * math.Pi
	}
	return a, true
}

// ErrProjectTooFar is SpheroidProject's error for a distance beyond half
// the sphere's circumference (PostGIS's limit).
var ErrProjectTooFar = errors.New("distance too far")

// MaxProjectDistance is the longest distance ST_Project accepts: half
// the circumference of the sphere of WGS84's mean radius.
const MaxProjectDistance = math.Pi * SphereRadius

// SpheroidProject is the point the geodesic on WGS84 from lon/lat
// reaches after distance metres at azimuth (radians, clockwise from
// north), by Vincenty's direct formula; a negative distance goes the
// other way. The longitude comes back in [-180, 180].
func SpheroidProject(lon, lat, distance, azimuth float64) (float64, float64, error) {
	if distance < 0 {
		distance, azimuth = -distance, azimuth+math.Pi
	}
	azimuth -= 2 * math.Pi * math.Floor(azimuth/(2*math.Pi))
	if distance > MaxProjectDistance {
		return 0, 0, ErrProjectTooFar
	}
	if distance == 0 {
		return lon, lat, nil
	}
	rad := math.Pi / 180
	sinA1, cosA1 := sincosd(azimuth * 180 / math.Pi)
	tanU1 := (1 - wgs84F) * math.Tan(lat*rad)
	cosU1 := 1 / math.Sqrt(1+tanU1*tanU1)
	sinU1 := tanU1 * cosU1
	sigma1 := math.Atan2(tanU1, cosA1)
	sinAlpha := cosU1 * sinA1
	cos2Alpha := 1 - sinAlpha*sinAlpha
	u2 := cos2Alpha * (wgs84A*wgs84A - wgs84B*wgs84B) / (wgs84B * wgs84B)
	A := 1 + u2/16384*(4096+u2*(-768+u2*(320-175*u2)))
	B := u2 / 1024 * (256 + u2*(-128+u2*(74-47*u2)))
	sigma := distance / (wgs84B * A)
	var sinSigma, cosSigma, cos2SigmaM float64
	for range 200 {
		cos2SigmaM = math.Cos(2*sigma1 + sigma)
		sinSigma, cosSigma = math.Sincos(sigma)
		dSigma := B * sinSigma * (cos2SigmaM + B/4*(cosSigma*(-1+2*cos2SigmaM*cos2SigmaM)-
			B/6*cos2SigmaM*(-3+4*sinSigma*sinSigma)*(-3+4*cos2SigmaM*cos2SigmaM)))
		prev := sigma
		sigma = distance/(wgs84B*A) + dSigma
		if math.Abs(sigma-prev) < 1e-14 {
			break
		}
	}
	cos2SigmaM = math.Cos(2*sigma1 + sigma)
	sinSigma, cosSigma = math.Sincos(sigma)
	x := sinU1*sinSigma - cosU1*cosSigma*cosA1
	lat2 := math.Atan2(sinU1*cosSigma+cosU1*sinSigma*cosA1, (1-wgs84F)*math.Sqrt(sinAlpha*sinAlpha+x*x))
	lambda := math.Atan2(sinSigma*sinA1, cosU1*cosSigma-sinU1*sinSigma*cosA1)
	C := wgs84F / 16 * cos2Alpha * (4 + wgs84F*(4-3*cos2Alpha))
	L := lambda - (1-C)*wgs84F*sinAlpha*(sigma+C*sinSigma*(cos2SigmaM+C*cosSigma*(-1+2*cos2SigmaM*cos2SigmaM)))
	lon2 := lon + L/rad
	for lon2 > 180 {
		lon2 -= 360
	}
	for lon2 < -180 {
		lon2 += 360
	}
	return lon2, lat2 / rad, nil
}

// ErrFractionRange is LineInterpolatePoint's error for a fraction
// outside [0, 1].
var ErrFractionRange = errors.New("fraction out of range")

// LineInterpolatePoint is ST_LineInterpolatePoint: the point at the
// fraction of a line string's planar length, its Z and M interpolated
// along the segment it falls on; an empty line gives an empty point.
func LineInterpolatePoint(line *Shape, fraction float64) (*Shape, error) {
	if fraction < 0 || fraction > 1 {
		return nil, ErrFractionRange
	}
	st := line.Stride()
	out := &Shape{Kind: Point, Z: line.Z, M: line.M}
	c := line.Coords
	n := len(c) / st
	if n == 0 {
		return out, nil
	}
	vertex := func(i int) []float64 { return append([]float64(nil), c[i*st:(i+1)*st]...) }
	if fraction == 0 || n == 1 {
		out.Coords = vertex(0)
		return out, nil
	}
	if fraction == 1 {
		out.Coords = vertex(n - 1)
		return out, nil
	}
	length := seqLength2D(c, st)
	t := 0.0
	for i := 0; i+1 < n; i++ {
		p, q := c[i*st:(i+1)*st], c[(i+1)*st:(i+2)*st]
		seg := dist2D(p[0], p[1], q[0], q[1]) / length
		// A fraction short of the running total falls on this segment.
		if fraction < t+seg {
			f := (fraction - t) / seg
			pt := make([]float64, st)
			for k := range pt {
				pt[k] = p[k] + (q[k]-p[k])*f
			}
			out.Coords = pt
			return out, nil
		}
		t += seg
	}
	out.Coords = vertex(n - 1)
	return out, nil
}

// closestOnSegment is the fraction along a-b of the point nearest p, in
// [0, 1] (0 for a degenerate segment).
func closestOnSegment(px, py, ax, ay, bx, by float64) float64 {
	if ax == bx && ay == by {
		return 0
	}
	r := ((px-ax)*(bx-ax) + (py-ay)*(by-ay)) / ((bx-ax)*(bx-ax) + (by-ay)*(by-ay))
	return max(0, min(1, r))
}

// distToSegment is PostGIS's distance2d_pt_seg.
func distToSegment(px, py, ax, ay, bx, by float64) float64 {
	if ax == bx && ay == by {
		return dist2D(px, py, ax, ay)
	}
	l2 := (bx-ax)*(bx-ax) + (by-ay)*(by-ay)
	r := ((px-ax)*(bx-ax) + (py-ay)*(by-ay)) / l2
	if r < 0 {
		return dist2D(px, py, ax, ay)
	}
	if r > 1 {
		return dist2D(px, py, bx, by)
	}
	s := ((ay-py)*(bx-ax) - (ax-px)*(by-ay)) / l2
	return math.Abs(s) * math.Sqrt(l2)
}

// LineLocatePoint is ST_LineLocatePoint: the fraction of a line
// string's planar length at the point of it nearest (px, py): the first
// nearest segment's, 1 when that is the line's last vertex.
func LineLocatePoint(line *Shape, px, py float64) float64 {
	st := line.Stride()
	c := line.Coords
	n := len(c) / st
	if n == 0 {
		return 0
	}
	seg, best := 0, math.Inf(1)
	for i := 0; i+1 < n; i++ {
		d := distToSegment(px, py, c[i*st], c[i*st+1], c[(i+1)*st], c[(i+1)*st+1])
		if i == 0 || d < best {
			seg, best = i, d
		}
		if best == 0 {
			break
		}
	}
	ax, ay := c[seg*st], c[seg*st+1]
	bx, by := ax, ay
	if n > 1 {
		bx, by = c[(seg+1)*st], c[(seg+1)*st+1]
	}
	r := closestOnSegment(px, py, ax, ay, bx, by)
	qx, qy := ax+r*(bx-ax), ay+r*(by-ay)
	if r == 1 {
		qx, qy = bx, by
	}
	if qx == c[(n-1)*st] && qy == c[(n-1)*st+1] {
		return 1
	}
	plen := 0.0
	for i := 0; i < seg; i++ {
		plen += dist2D(c[i*st], c[i*st+1], c[(i+1)*st], c[(i+1)*st+1])
	}
	plen += dist2D(qx, qy, ax, ay)
	return plen / seqLength2D(c, st)
}
