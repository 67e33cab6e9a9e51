package geo

import (
	"math"
	"math/big"
	"sync"

	"github.com/peterstace/simplefeatures/geom"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// CheckSameSRID is PostGIS's gserialized_error_if_srid_mismatch: fn names
// the function in the message, as PostGIS's does.
func CheckSameSRID(fn string, a, b Geom) error {
	return CheckSRIDs(fn, a.Shape.Kind, a.SRID, b.Shape.Kind, b.SRID)
}

// CheckSRIDs is CheckSameSRID of two geometries' kinds and SRIDs.
func CheckSRIDs(fn string, ak Kind, asrid int32, bk Kind, bsrid int32) error {
	if asrid == bsrid {
		return nil
	}
	return pgerr.Raised("%s: Operation on mixed SRID geometries (%s, %d) != (%s, %d)",
		fn, ak, asrid, bk, bsrid)
}

// recoverLibrary turns a panic of the geometry library on a degenerate
// input (PostGIS keeps invalid geometries, which the library's algorithms
// assume valid) into PostGIS's kind of error, so one odd row fails its
// statement rather than the session.
func recoverLibrary(err *error) {
	if r := recover(); r != nil {
		// A panic may also be a fault of the library's on valid input:
		// logged as zproxy's internal error, not Raised.
		*err = pgerr.New(pgerr.InternalError, "geometry operation failed on an invalid geometry: %v", r)
	}
}

// Predicate is one of the DE-9IM predicates.
type Predicate int

// The predicates.
const (
	Intersects Predicate = iota
	Contains
	Within
	Covers
	CoveredBy
	Equals
	Touches
	Crosses
	Overlaps
	Disjoint
)

// Relate evaluates p(a, b): a point against a polygon by where it lies
// (pip.go), anything else by simplefeatures' DE-9IM relate (Intersects by
// its dedicated test).
func Relate(p Predicate, a, b *Shape) (r bool, err error) {
	if r, ok := relatePointArea(p, a, b); ok {
		return r, nil // a point and an area: pip.go
	}
	defer recoverLibrary(&err)
	x, err := toLibrary(a)
	if err != nil {
		return false, err
	}
	y, err := toLibrary(b)
	if err != nil {
		return false, err
	}
	return relateLibrary(p, x, y)
}

// relateLibrary is p(x, y) by simplefeatures.
func relateLibrary(p Predicate, x, y geom.Geometry) (bool, error) {
	switch p {
	case Intersects:
		return geom.Intersects(x, y), nil
	case Contains:
		return geom.Contains(x, y)
	case Within:
		return geom.Within(x, y)
	case Covers:
		return geom.Covers(x, y)
	case CoveredBy:
		return geom.CoveredBy(x, y)
	case Equals:
		return geom.Equals(x, y)
	case Touches:
		return geom.Touches(x, y)
	case Crosses:
		return geom.Crosses(x, y)
	case Overlaps:
		return geom.Overlaps(x, y)
	default:
		return geom.Disjoint(x, y)
	}
}

// Distance is the planar distance between a and b; ok is false when one
// is empty (PostGIS's ST_Distance is NULL then).
func Distance(a, b *Shape) (d float64, ok bool, err error) {
	defer recoverLibrary(&err)
	x, err := toLibrary(a)
	if err != nil {
		return 0, false, err
	}
	y, err := toLibrary(b)
	if err != nil {
		return 0, false, err
	}
	d, ok = geom.Distance(x, y)
	return d, ok, nil
}

// Area is the planar area.
func Area(s *Shape) (a float64, err error) {
	defer recoverLibrary(&err)
	g, err := toLibrary(s)
	if err != nil {
		return 0, err
	}
	return g.Area(), nil
}

// Length is the planar length of the linear parts.
func Length(s *Shape) (l float64, err error) {
	defer recoverLibrary(&err)
	g, err := toLibrary(s)
	if err != nil {
		return 0, err
	}
	return g.Length(), nil
}

// Centroid is the centroid of the highest-dimension parts (an empty
// point for an empty geometry).
func Centroid(s *Shape) (c *Shape, err error) {
	defer recoverLibrary(&err)
	g, err := toLibrary(s)
	if err != nil {
		return nil, err
	}
	return fromLibrary(g.Centroid().AsGeometry())
}

// Envelope is ST_Envelope: the bounding box as a polygon, a point or a
// two-point line string when it is degenerate, as PostGIS returns it (the
// empty geometry itself when empty).
func Envelope(s *Shape) *Shape {
	b, ok := s.Bounds()
	if !ok {
		return s
	}
	return BoxShape(b)
}

// BoxShape is the geometry of a box, as ST_Envelope and PostGIS's cast
// of box2d to geometry make it: a point when it has no extent, a line
// when it has one dimension, else its polygon.
func BoxShape(b Box) *Shape {
	switch {
	case b.MinX == b.MaxX && b.MinY == b.MaxY:
		return &Shape{Kind: Point, Coords: []float64{b.MinX, b.MinY}}
	case b.MinX == b.MaxX || b.MinY == b.MaxY:
		return &Shape{Kind: LineString, Coords: []float64{b.MinX, b.MinY, b.MaxX, b.MaxY}}
	}
	return BoxPolygon(b)
}

// BoxPolygon is the polygon PostGIS makes of a box (ST_MakeEnvelope's
// ring: lower left, upper left, upper right, lower right).
func BoxPolygon(b Box) *Shape {
	return &Shape{Kind: Polygon, Rings: [][]float64{{
		b.MinX, b.MinY, b.MinX, b.MaxY, b.MaxX, b.MaxY, b.MaxX, b.MinY, b.MinX, b.MinY}}}
}

// BufferPoint is ST_Buffer of a point: GEOS's circle of 4·quadSegs
// segments, from (x+r, y) clockwise, as GEOS's OffsetSegmentGenerator
// builds it. A radius of zero or less gives an empty polygon.
func BufferPoint(x, y, r float64, quadSegs int) *Shape {
	if r <= 0 || quadSegs < 1 {
		return &Shape{Kind: Polygon}
	}
	n := 4 * quadSegs
	unit := circleUnits(n)
	ring := make([]float64, 0, 2*(n+1))
	ring = append(ring, x+r, y)
	for i := 1; i < n; i++ {
		ring = append(ring, x+r*unit[2*i], y+r*unit[2*i+1])
	}
	ring = append(ring, x+r, y)
	return &Shape{Kind: Polygon, Rings: [][]float64{ring}}
}

// circleUnits are the cosines and sines of GEOS's n angles of a circle,
// -i·(2π/n) for i < n, as glibc's libm gives them: correctly rounded
// (correctlyRoundedSinCos), where Go's math.Cos and math.Sin are an ulp
// off at 64 of the 152 angles of n = 20, 32 and 100, which ST_AsText's
// 15 decimals show. (glibc is an ulp off at one of them, the cosine at
// -π/2, 1.6e-16, which no coordinate shows.) They are computed once for
// each n.
func circleUnits(n int) []float64 {
	if u, ok := circleUnitCache.Load(n); ok {
		return u.([]float64)
	}
	inc := 2 * math.Pi / float64(n)
	u := make([]float64, 2*n)
	exact := n <= maxExactCircle
	for i := range n {
		if exact {
			u[2*i+1], u[2*i] = correctlyRoundedSinCos(-float64(i) * inc)
		} else {
			u[2*i+1], u[2*i] = math.Sincos(-float64(i) * inc)
		}
	}
	if exact {
		circleUnitCache.Store(n, u)
	}
	return u
}

// maxExactCircle bounds the circles whose angles are computed exactly and
// kept: quad_segs up to 64 (PostGIS's default is 8). A larger one, which a
// query's quad_segs may ask for without limit, takes Go's sine and cosine
// (an ulp off at some angles) rather than seconds of big-float series and
// a cache entry per size.
const maxExactCircle = 256

var circleUnitCache sync.Map // n → []float64 (circleUnits)

// correctlyRoundedSinCos returns sin a and cos a rounded to the nearest
// float64: their Taylor series in 256-bit floats, whose error is far
// below half an ulp of the result for |a| <= 2π (80 terms: the last is
// below 1e-100 of the first).
func correctlyRoundedSinCos(a float64) (sin, cos float64) {
	const prec = 256
	x := new(big.Float).SetPrec(prec).SetFloat64(a)
	x2 := new(big.Float).SetPrec(prec).Mul(x, x)
	s := new(big.Float).SetPrec(prec).Set(x) // the running sine term
	c := new(big.Float).SetPrec(prec).SetInt64(1)
	sumS := new(big.Float).SetPrec(prec).Set(s)
	sumC := new(big.Float).SetPrec(prec).Set(c)
	div := new(big.Float).SetPrec(prec)
	for k := int64(1); k <= 80; k++ {
		// s_k = -s_{k-1}·x²/((2k)(2k+1)), c_k = -c_{k-1}·x²/((2k-1)(2k))
		s.Mul(s, x2)
		s.Quo(s, div.SetInt64(2*k*(2*k+1)))
		s.Neg(s)
		sumS.Add(sumS, s)
		c.Mul(c, x2)
		c.Quo(c, div.SetInt64((2*k-1)*(2*k)))
		c.Neg(c)
		sumC.Add(sumC, c)
	}
	sin, _ = sumS.Float64()
	cos, _ = sumC.Float64()
	return sin, cos
}

// WGS84's spheroid, and the sphere PostGIS's geography uses with
// use_spheroid => false: of the spheroid's mean radius (2a+b)/3.
const (
	wgs84A       = 6378137.0
	wgs84F       = 1 / 298.257223563
	wgs84B       = wgs84A * (1 - wgs84F)
	SphereRadius = (2*wgs84A + wgs84B) / 3
)

// SphereDistance is the great-circle distance in metres between two
// lon/lat points on a sphere of the given radius (PostGIS's
// sphere_distance: the Vincenty special case of the haversine).
func SphereDistance(lon1, lat1, lon2, lat2, radius float64) float64 {
	rad := math.Pi / 180
	l1, l2 := lat1*rad, lat2*rad
	dl := (lon2 - lon1) * rad
	sl, cl := math.Sincos(dl)
	s1, c1 := math.Sincos(l1)
	s2, c2 := math.Sincos(l2)
	a := c2 * sl
	b := c1*s2 - s1*c2*cl
	return radius * math.Atan2(math.Sqrt(a*a+b*b), s1*s2+c1*c2*cl)
}

// SpheroidDistance is the geodesic distance in metres between two lon/lat
// points on WGS84, by Vincenty's inverse formula (agreeing with
// GeographicLib's, which PostGIS uses, to well under a millimetre but
// near antipodes, where Vincenty's iteration may not converge: then the
// sphere's distance scaled to the spheroid's mean radius is returned).
func SpheroidDistance(lon1, lat1, lon2, lat2 float64) float64 {
	if lon1 == lon2 && lat1 == lat2 {
		return 0
	}
	d, _, ok := vincentyInverse(lon1, lat1, lon2, lat2)
	if !ok {
		return SphereDistance(lon1, lat1, lon2, lat2, SphereRadius)
	}
	return d
}

// vincentyInverse is Vincenty's solution of the inverse geodesic problem
// on WGS84 between two lon/lat points: the distance in metres and the
// initial azimuth in radians (atan2's, in (-π, π]); ok is false when the
// iteration does not converge (near antipodes), with the azimuth of its
// last round.
func vincentyInverse(lon1, lat1, lon2, lat2 float64) (dist, azimuth float64, ok bool) {
	rad := math.Pi / 180
	L := (lon2 - lon1) * rad
	U1 := math.Atan((1 - wgs84F) * math.Tan(lat1*rad))
	U2 := math.Atan((1 - wgs84F) * math.Tan(lat2*rad))
	sinU1, cosU1 := math.Sincos(U1)
	sinU2, cosU2 := math.Sincos(U2)
	lambda := L
	// Once λ has converged, one more round evaluates σ and α with it:
	// those of the round that found it are of the previous λ, up to
	// 1e-13 off, which is 1e-8 of a few metres' distance.
	converged := false
	for range 200 {
		sinL, cosL := math.Sincos(lambda)
		azimuth = math.Atan2(cosU2*sinL, cosU1*sinU2-sinU1*cosU2*cosL)
		sinSigma := math.Hypot(cosU2*sinL, cosU1*sinU2-sinU1*cosU2*cosL)
		if sinSigma == 0 {
			return 0, azimuth, true
		}
		cosSigma := sinU1*sinU2 + cosU1*cosU2*cosL
		sigma := math.Atan2(sinSigma, cosSigma)
		sinAlpha := cosU1 * cosU2 * sinL / sinSigma
		cos2Alpha := 1 - sinAlpha*sinAlpha
		cos2SigmaM := 0.0
		if cos2Alpha != 0 {
			cos2SigmaM = cosSigma - 2*sinU1*sinU2/cos2Alpha
		}
		C := wgs84F / 16 * cos2Alpha * (4 + wgs84F*(4-3*cos2Alpha))
		prev := lambda
		lambda = L + (1-C)*wgs84F*sinAlpha*(sigma+C*sinSigma*(cos2SigmaM+C*cosSigma*(-1+2*cos2SigmaM*cos2SigmaM)))
		if converged {
			u2 := cos2Alpha * (wgs84A*wgs84A - wgs84B*wgs84B) / (wgs84B * wgs84B)
			A := 1 + u2/16384*(4096+u2*(-768+u2*(320-175*u2)))
			B := u2 / 1024 * (256 + u2*(-128+u2*(74-47*u2)))
			dSigma := B * sinSigma * (cos2SigmaM + B/4*(cosSigma*(-1+2*cos2SigmaM*cos2SigmaM)-
				B/6*cos2SigmaM*(-3+4*sinSigma*sinSigma)*(-3+4*cos2SigmaM*cos2SigmaM)))
			return wgs84B * A * (sigma - dSigma), azimuth, true
		}
		converged = math.Abs(lambda-prev) < 1e-13
	}
	return 0, azimuth, false
}

// Points lists the vertices of a point or multi-point; ok is false for
// any other shape (the geography distances zproxy computes are between
// points).
func Points(s *Shape) (xy [][2]float64, ok bool) {
	switch s.Kind {
	case Point:
		if len(s.Coords) >= 2 {
			xy = append(xy, [2]float64{s.Coords[0], s.Coords[1]})
		}
		return xy, true
	case MultiPoint:
		for _, p := range s.Parts {
			if len(p.Coords) >= 2 {
				xy = append(xy, [2]float64{p.Coords[0], p.Coords[1]})
			}
		}
		return xy, true
	}
	return nil, false
}

// ToMercator projects lon/lat degrees to EPSG:3857 metres, as PROJ's
// "+proj=merc +a=6378137 +b=6378137" does.
func ToMercator(lon, lat float64) (float64, float64) {
	rad := math.Pi / 180
	return wgs84A * lon * rad, wgs84A * math.Log(math.Tan(math.Pi/4+lat*rad/2))
}

// FromMercator is ToMercator's inverse.
func FromMercator(x, y float64) (float64, float64) {
	deg := 180 / math.Pi
	return x / wgs84A * deg, (math.Pi/2 - 2*math.Atan(math.Exp(-y/wgs84A))) * deg
}
