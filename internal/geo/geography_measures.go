package geo

import "math"

// PostGIS 3.3's ST_Length and ST_Area of a geography.

// GeographyLength is ST_Length of a geography: the geodesic length of
// its lines on the spheroid (or on the sphere of PostGIS's radius). A
// polygon or a multi-polygon measures 0, but PostGIS measures every
// ring and line of a collection, polygons' rings included, so that is
// what GeographyPerimeter's geodesicLength does for a collection too.
func GeographyLength(s *Shape, spheroid bool) float64 {
	switch s.Kind {
	case Polygon, MultiPolygon:
		return 0
	}
	return geodesicLength(s, spheroid)
}

// GeographySphereArea is ST_Area(geography, use_spheroid => false): the
// area in square metres of the polygons (outer rings less holes) with
// great-circle edges on the sphere of radius SphereRadius. Lines and
// points measure 0.
func GeographySphereArea(s *Shape) float64 {
	switch s.Kind {
	case Polygon:
		a := 0.0
		for i, r := range s.Rings {
			ra := ringSphereArea(r, s.Stride())
			if i == 0 {
				a += ra
			} else {
				a -= ra
			}
		}
		return a * SphereRadius * SphereRadius
	case MultiPolygon, GeometryCollection:
		a := 0.0
		for _, p := range s.Parts {
			a += GeographySphereArea(p)
		}
		return a
	}
	return 0
}

// ringSphereArea is the area on the unit sphere of a closed ring, the
// smaller of the two parts it splits the sphere into when it winds
// round a pole, otherwise the part it encloses (either orientation).
//
// Each edge adds the signed spherical excess of the quadrilateral
// between it and the equator, tan(E/2) = tan(Δλ/2)·(t1+t2)/(1+t1·t2)
// with t = tan(φ/2): exact for great-circle edges, and the terms of a
// small ring cancel only by its distance from the equator over its
// size, which keeps small rings far better than 1e-9 (an angle sum
// loses the excess of a small triangle to rounding).
func ringSphereArea(c []float64, stride int) float64 {
	if len(c) < 4*stride {
		return 0
	}
	rad := math.Pi / 180
	sum, wind := 0.0, 0.0
	for i := stride; i+1 < len(c); i += stride {
		dl := math.Remainder((c[i]-c[i-stride])*rad, 2*math.Pi)
		t1, t2 := math.Tan(c[i-stride+1]*rad/2), math.Tan(c[i+1]*rad/2)
		sum += 2 * math.Atan(math.Tan(dl/2)*(t1+t2)/(1+t1*t2))
		wind += dl
	}
	// A ring round a pole winds ±2π: its excesses sum to the area
	// between it and the equator, to which the hemisphere beyond adds
	// (or from which it takes) 2π.
	if math.Abs(wind) > math.Pi {
		sum -= math.Copysign(2*math.Pi, wind)
	}
	a := math.Abs(sum)
	if a > 2*math.Pi {
		a = 4*math.Pi - a
	}
	return a
}

// GeographySpheroidArea is ST_Area(geography): the area in square
// metres of the polygons (outer rings less holes) with geodesic edges
// on WGS84's spheroid; ok is false when an edge's geodesic could not be
// solved (Vincenty's iteration fails near antipodal vertices).
//
// It is Karney's ellipsoidal polygon area ("Algorithms for geodesics",
// J. Geodesy 2013, §6), as PostGIS's (GeographicLib's) is, but its own
// way: each edge adds the area S12 between its geodesic and the
// equator, S12 = c²·(α2−α1) + e²a²·cos α0·sin α0·(I4(σ2)−I4(σ1)), the
// geodesic solved by Vincenty's inverse iteration (whose λ is the
// longitude difference ω12 on the auxiliary sphere), α2−α1 taken as the
// auxiliary sphere's excess between the edge and the equator (so that
// a short edge's is exact to its last digits rather than the difference
// of two azimuths), and the I4 difference integrated along the edge
// from the power series of its integrand (see i4).
func GeographySpheroidArea(s *Shape) (float64, bool) {
	switch s.Kind {
	case Polygon:
		a := 0.0
		for i, r := range s.Rings {
			ra, ok := ringSpheroidArea(r, s.Stride())
			if !ok {
				return 0, false
			}
			if i == 0 {
				a += ra
			} else {
				a -= ra
			}
		}
		return a, true
	case MultiPolygon, GeometryCollection:
		a := 0.0
		for _, p := range s.Parts {
			pa, ok := GeographySpheroidArea(p)
			if !ok {
				return 0, false
			}
			a += pa
		}
		return a, true
	}
	return 0, true
}

// The constants of Karney's area: e², e'², the authalic c² and the
// power series coefficients of t(x) = x + √(1/x+1)·asinh(√x).
var (
	wgs84E2    = wgs84F * (2 - wgs84F)
	wgs84Ep2   = wgs84E2 / ((1 - wgs84F) * (1 - wgs84F))
	authalicC2 = wgs84A*wgs84A/2 + wgs84B*wgs84B/2*math.Atanh(math.Sqrt(wgs84E2))/math.Sqrt(wgs84E2)
	tSeries    = tCoefficients(12)
)

// tCoefficients is t(x)'s power series to x^(n-1): t(x) = x + √(1+x)·
// asinh(√x)/√x, asinh(√x)/√x = Σ (−1)^k (2k)!/(4^k (k!)² (2k+1)) x^k and
// √(1+x) = Σ binom(1/2, k) x^k. Terms beyond x^11 are below 1e-24 for
// x ≤ e'² ≈ 0.0067.
func tCoefficients(n int) []float64 {
	as := make([]float64, n)
	sq := make([]float64, n)
	c := 1.0 // (2k)!/(4^k (k!)²)
	b := 1.0 // binom(1/2, k)
	for k := 0; k < n; k++ {
		sign := 1.0
		if k%2 == 1 {
			sign = -1
		}
		as[k] = sign * c / float64(2*k+1)
		sq[k] = b
		c *= float64(2*k+1) / float64(2*k+2)
		b *= (0.5 - float64(k)) / float64(k+1)
	}
	t := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; i+j < n; j++ {
			t[i+j] += sq[i] * as[j]
		}
	}
	t[1]++
	return t
}

// hSeries is the power series of h(x) = (t(e'²) − t(x))/(e'² − x) =
// Σ τn·(e'^{2n} − x^n)/(e'² − x): its coefficient of x^m is
// Σ_{n>m} τn·e'^{2(n−1−m)}.
var hSeries = func() []float64 {
	h := make([]float64, len(tSeries)-1)
	for m := range h {
		ep := 1.0
		for n := m + 1; n < len(tSeries); n++ {
			h[m] += tSeries[n] * ep
			ep *= wgs84Ep2
		}
	}
	return h
}()

// i4 is I4(σ1+σ12) − I4(σ1), Karney's I4(σ) being
// −∫_{π/2}^{σ} h(k² sin² s)·sin s/2 ds: integrated over the edge's own
// arc by Gauss-Legendre quadrature, not as the difference of I4 at
// either end, which would lose a short edge's term (e²a²·I4 is some
// 3e11 m²) to rounding.
func i4(k2, sigma1, sigma12 float64) float64 {
	mid, half := sigma1+sigma12/2, sigma12/2
	sum := 0.0
	for i, x := range glNodes {
		s := math.Sin(mid + half*x)
		u := k2 * s * s
		h := 0.0
		for m := len(hSeries) - 1; m >= 0; m-- {
			h = h*u + hSeries[m]
		}
		sum += glWeights[i] * h * s
	}
	return -sum * half / 2
}

// ringSpheroidArea is the area of a closed ring on WGS84, the smaller
// of the two parts it splits the spheroid into when it winds round a
// pole, otherwise the part it encloses (either orientation).
func ringSpheroidArea(c []float64, stride int) (float64, bool) {
	if len(c) < 4*stride {
		return 0, true
	}
	sum, wind := 0.0, 0.0
	for i := stride; i+1 < len(c); i += stride {
		s12, ok := edgeArea(c[i-stride], c[i-stride+1], c[i], c[i+1])
		if !ok {
			return 0, false
		}
		sum += s12
		wind += math.Remainder(c[i]-c[i-stride], 360)
	}
	total := 4 * math.Pi * authalicC2
	if math.Abs(wind) > 180 {
		sum -= math.Copysign(total/2, wind)
	}
	a := math.Abs(sum)
	if a > total/2 {
		a = total - a
	}
	return a, true
}

// edgeArea is S12 of the geodesic from (lon1, lat1) to (lon2, lat2)
// (degrees): the area between it and the equator, positive eastward.
func edgeArea(lon1, lat1, lon2, lat2 float64) (float64, bool) {
	rad := math.Pi / 180
	// The differences are taken in degrees, exact for near vertices.
	L := math.Remainder(lon2-lon1, 360) * rad
	if L == 0 && lat1 == lat2 {
		return 0, true
	}
	sp1, cp1 := math.Sincos(lat1 * rad)
	sp2, cp2 := math.Sincos(lat2 * rad)
	U1 := math.Atan((1 - wgs84F) * math.Tan(lat1*rad))
	U2 := math.Atan((1 - wgs84F) * math.Tan(lat2*rad))
	// sin(β2−β1) of tan(β2−β1) = (1−f)·sin(φ2−φ1)/(cos φ1 cos φ2 +
	// (1−f)² sin φ1 sin φ2), not of the difference of β2 and β1.
	sdU := math.Sin(math.Atan2((1-wgs84F)*math.Sin((lat2-lat1)*rad), cp1*cp2+(1-wgs84F)*(1-wgs84F)*sp1*sp2))
	sinU1, cosU1 := math.Sincos(U1)
	sinU2, cosU2 := math.Sincos(U2)
	// ω12, the longitude difference on the auxiliary sphere, solves
	// λ12 = ω12 − f·sin α0·∫σ1..σ2 (2−f)/(1+(1−f)√(1+k² sin² σ)) dσ
	// (Karney's eq. 8 with I3 integrated exactly, by Gauss-Legendre
	// quadrature): iterated as Vincenty's λ is, but Vincenty's series
	// for the integral stops at f³, some 1e-12 of an edge's S12, which
	// a small polygon's area, a difference of such, cannot afford.
	var e edgeGeodesic
	omega, converged, done := L, false, false
	for range 200 {
		if !e.solve(omega, sinU1, cosU1, sinU2, cosU2, sdU) {
			return 0, true
		}
		prev := omega
		omega = L + wgs84F*e.sinA0*i3(e.cosA0*e.cosA0*wgs84Ep2, e.sigma1, e.sigma12)
		if converged {
			done = true
			break
		}
		converged = math.Abs(omega-prev) <= 1e-15*math.Abs(omega)
	}
	if !done {
		return 0, false
	}
	e.solve(omega, sinU1, cosU1, sinU2, cosU2, sdU)
	// α2−α1: the excess of the auxiliary sphere's quadrilateral between
	// the edge and the equator, tan(E/2) = tan(ω12/2)·(t1+t2)/(1+t1·t2)
	// with t = tan(β/2).
	t1, t2 := math.Tan(U1/2), math.Tan(U2/2)
	alpha12 := 2 * math.Atan(math.Tan(omega/2)*(t1+t2)/(1+t1*t2))
	s12 := authalicC2 * alpha12
	if e.sinA0 != 0 && e.cosA0 != 0 {
		k2 := wgs84Ep2 * e.cosA0 * e.cosA0
		s12 += wgs84E2 * wgs84A * wgs84A * e.cosA0 * e.sinA0 * i4(k2, e.sigma1, e.sigma12)
	}
	return s12, true
}

// edgeGeodesic is the great circle on the auxiliary sphere between two
// reduced latitudes ω apart: α0 and the arc from its equator crossing.
type edgeGeodesic struct {
	sinA0, cosA0    float64
	sigma1, sigma12 float64
}

// solve fills e for ω (false when the ends coincide). The azimuth's
// cosine at the start, cos β1 sin β2 − sin β1 cos β2 cos ω, is taken as
// sin(β2−β1) + sin β1 cos β2·2sin²(ω/2): as written it loses all but a
// few digits to cancellation on a short east-west edge, and the I4
// terms (thousands of square metres a metre of edge) with it.
func (e *edgeGeodesic) solve(omega, sinU1, cosU1, sinU2, cosU2, sdU float64) bool {
	sinW := math.Sin(omega)
	sh := math.Sin(omega / 2)
	vers := 2 * sh * sh
	sa1, ca1 := cosU2*sinW, sdU+sinU1*cosU2*vers
	h1 := math.Hypot(sa1, ca1)
	if h1 == 0 {
		return false
	}
	sa1, ca1 = sa1/h1, ca1/h1
	// sin σ12 = h1 and cos σ12 = sin β1 sin β2 + cos β1 cos β2 cos ω.
	cosS := sinU1*sinU2 + cosU1*cosU2*(1-vers)
	e.sigma12 = math.Atan2(h1, cosS)
	// Clairaut: sin α0 = sin α1 cos β1; tan σ1 = tan β1 / cos α1.
	e.sinA0 = sa1 * cosU1
	e.cosA0 = math.Hypot(ca1, sa1*sinU1)
	e.sigma1 = math.Atan2(sinU1, ca1*cosU1)
	return true
}

// glNodes and glWeights are the 24-point Gauss-Legendre rule on
// [−1, 1]: I3's integrand is analytic and nearly constant (it varies by
// k²/4 at most), so that integrates it to rounding over any arc.
var glNodes, glWeights = gaussLegendre(24)

// gaussLegendre is the n-point Gauss-Legendre rule, its nodes the roots
// of Legendre's P_n by Newton's method.
func gaussLegendre(n int) ([]float64, []float64) {
	x, w := make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		z := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		var dp float64
		for range 100 {
			p0, p1 := 1.0, z
			for k := 2; k <= n; k++ {
				p0, p1 = p1, (float64(2*k-1)*z*p1-float64(k-1)*p0)/float64(k)
			}
			dp = float64(n) * (z*p1 - p0) / (z*z - 1)
			dz := p1 / dp
			z -= dz
			if math.Abs(dz) < 1e-16 {
				break
			}
		}
		x[i], w[i] = z, 2/((1-z*z)*dp*dp)
	}
	return x, w
}

// i3 is ∫σ1..σ1+σ12 (2−f)/(1+(1−f)√(1+k² sin² σ)) dσ.
func i3(k2, sigma1, sigma12 float64) float64 {
	mid, half := sigma1+sigma12/2, sigma12/2
	sum := 0.0
	for i, x := range glNodes {
		s := math.Sin(mid + half*x)
		sum += glWeights[i] * (2 - wgs84F) / (1 + (1-wgs84F)*math.Sqrt(1+k2*s*s))
	}
	return sum * half
}
