package geo

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestGeographyMeasuresAgainstPostGIS compares GeographyLength (spheroid
// and sphere), GeographySphereArea, GeographySpheroidArea and
// GeographyPointDistance with PostGIS's ST_Length, ST_Area(geography[,
// false]) and ST_Distance(point, shape[, false]) on random lines and
// polygons around the globe, from a few metres to continents across,
// and points near them, in them or anywhere: they must agree to 1e-9
// relative (the spheroid's lengths are Vincenty's against
// GeographicLib's), or to PostGIS's own rounding (absTol, and its
// distances' 1e-8 m; its sphere areas only from 1e9 m²). The worst
// errors are logged. It needs a
// database with PostGIS (postGISConn: GEO_POSTGIS_DSN, or a cluster of its own).
func TestGeographyMeasuresAgainstPostGIS(t *testing.T) {
	ctx := context.Background()
	conn := postGISConn(t)
	rng := rand.New(rand.NewSource(11))
	wrap := func(lon float64) float64 { return math.Remainder(lon, 360) }
	// ring is a star-shaped simple ring of n vertices round (lon, lat)
	// at radii up to r degrees (longitudes stretched by the latitude).
	ring := func(lon, lat, r float64, n int) []float64 {
		ang := make([]float64, n)
		for i := range ang {
			ang[i] = rng.Float64() * 2 * math.Pi
		}
		sort.Float64s(ang)
		var c []float64
		for _, a := range ang {
			d := r * (0.3 + 0.7*rng.Float64())
			y := math.Max(-89.9, math.Min(89.9, lat+d*math.Sin(a)))
			x := wrap(lon + d*math.Cos(a)/math.Max(0.2, math.Cos(lat*math.Pi/180)))
			c = append(c, x, y)
		}
		if rng.Intn(2) == 0 { // either orientation
			for i, j := 0, len(c)-2; i < j; i, j = i+2, j-2 {
				c[i], c[j], c[i+1], c[j+1] = c[j], c[i], c[j+1], c[i+1]
			}
		}
		return append(c, c[0], c[1])
	}
	seq := func(c []float64) string {
		var b strings.Builder
		for i := 0; i < len(c); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%s %s", strconv.FormatFloat(c[i], 'g', -1, 64), strconv.FormatFloat(c[i+1], 'g', -1, 64))
		}
		return b.String()
	}
	// The areas are allowed PostGIS's own rounding: GeographicLib's
	// (the spheroid's) is some 1e-5 m² (its I4 terms are differences of
	// two sums of about 3e11 m²·1e-16). PostGIS's sphere's is off by
	// up to 1e-3 of a small polygon's area, 1e-6 of a 1e5 m² one's and
	// 1e-7 of a 40 km² one's (zproxy's is the same to 1e-5 m² with the
	// polygon rotated about the sphere's centre, PostGIS's is not): the
	// sphere's areas agree to 1e-9 only for polygons of some 1e9 m² and
	// more, and only those are compared (a 21.396 m² triangle is 22.874
	// m² in PostGIS).
	absTol := [4]float64{0, 0, 0, 1e-4}
	large := [4]float64{1e5, 1e5, 1e9, 1e9} // metres, square metres
	var worst, worstAbs, worstLarge [4]float64
	var worstDist [2]float64
	var worstDistWKT [2]string
	var worstWKT [4]string
	const n = 400
	for iter := 0; iter < n; iter++ {
		lon, lat := rng.Float64()*360-180, rng.Float64()*170-85
		r := math.Pow(10, rng.Float64()*5-4) * 3 // 0.0003° to 30°
		if iter%4 == 0 {
			r = 5 + rng.Float64()*25 // continents
		}
		var wkt string
		var s *Shape
		if iter%2 == 0 {
			c := []float64{lon, lat}
			for k := 1 + rng.Intn(6); k > 0; k-- {
				lon = wrap(lon + (rng.Float64()*2-1)*r)
				lat = math.Max(-89.9, math.Min(89.9, lat+(rng.Float64()*2-1)*r))
				c = append(c, lon, lat)
			}
			wkt = "LINESTRING(" + seq(c) + ")"
			s = &Shape{Kind: LineString, Coords: c}
		} else {
			c := ring(lon, lat, r, 3+rng.Intn(8))
			wkt = "POLYGON((" + seq(c) + "))"
			s = &Shape{Kind: Polygon, Rings: [][]float64{c}}
		}
		sql := fmt.Sprintf("SELECT ST_Length(g), ST_Length(g, false), ST_Area(g, false), ST_Area(g) FROM (SELECT '%s'::geography AS g) t", wkt)
		res, err := conn.Exec(ctx, sql).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		// A point near the shape (or in it) and its distances.
		plon := wrap(lon + (rng.Float64()*2-1)*r*2)
		plat := math.Max(-89.9, math.Min(89.9, lat+(rng.Float64()*2-1)*r*2))
		if iter%8 == 1 { // far away too
			plon, plat = rng.Float64()*360-180, rng.Float64()*170-85
		}
		pt := fmt.Sprintf("POINT(%s %s)", strconv.FormatFloat(plon, 'g', -1, 64), strconv.FormatFloat(plat, 'g', -1, 64))
		dres, err := conn.Exec(ctx, fmt.Sprintf("SELECT ST_Distance('%s'::geography, '%s'::geography), ST_Distance('%s'::geography, '%s'::geography, false)", pt, wkt, pt, wkt)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range dres[0].Rows[0] {
			want, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := GeographyPointDistance(plon, plat, s, k == 0)
			// PostGIS rounds geography distances to 1e-8 m.
			e := math.Abs(got-want) / math.Max(1e-300, math.Abs(want))
			if want == 0 {
				e = math.Abs(got)
			}
			if e > worstDist[k] {
				worstDist[k], worstDistWKT[k] = e, pt+" "+wkt
			}
			if e > 1e-9 && math.Abs(got-want) > 1e-8 {
				t.Errorf("ST_Distance(%s, %s, %v) = %v, PostGIS %v (relative error %.3g)", pt, wkt, k == 0, got, want, e)
			}
		}
		sa, ok := GeographySpheroidArea(s)
		if !ok {
			t.Fatalf("%s: no spheroid area", wkt)
		}
		got := [4]float64{GeographyLength(s, true), GeographyLength(s, false), GeographySphereArea(s), sa}
		for k, v := range res[0].Rows[0] {
			want, err := strconv.ParseFloat(string(v), 64)
			if err != nil {
				t.Fatal(err)
			}
			e := math.Abs(got[k]-want) / math.Max(1e-300, math.Abs(want))
			if want == 0 {
				e = math.Abs(got[k])
			}
			if e > worst[k] {
				worst[k], worstWKT[k] = e, wkt
			}
			if math.Abs(want) >= large[k] && e > worstLarge[k] {
				worstLarge[k] = e
			}
			if abs := math.Abs(got[k] - want); abs > worstAbs[k] {
				worstAbs[k] = abs
			}
			if k == 2 && math.Abs(want) < 1e9 {
				continue
			}
			if e > 1e-9 && math.Abs(got[k]-want) > absTol[k] {
				t.Errorf("%s: measure %d = %v, PostGIS %v (relative error %.3g)", wkt, k, got[k], want, e)
			}
		}
	}
	for k, name := range []string{"ST_Length(spheroid)", "ST_Length(sphere)", "ST_Area(sphere)", "ST_Area(spheroid)"} {
		t.Logf("%s: worst relative error %.3g (%s), worst absolute %.3g, worst relative of at least %g %.3g", name, worst[k], worstWKT[k], worstAbs[k], large[k], worstLarge[k])
	}
	t.Logf("ST_Distance(point, shape) on the spheroid: worst relative error %.3g (%s)", worstDist[0], worstDistWKT[0])
	t.Logf("ST_Distance(point, shape) on the sphere: worst relative error %.3g (%s)", worstDist[1], worstDistWKT[1])
}
