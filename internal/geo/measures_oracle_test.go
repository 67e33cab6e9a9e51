package geo

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestMeasuresAgainstPostGIS compares the geography measurements
// (SpheroidProject, SpheroidAzimuth, GeographyPerimeter) and the planar
// ones (LineInterpolatePoint, LineLocatePoint, Perimeter, GeoHash, the
// relative SVG path) with PostGIS on random inputs. PostGIS solves the
// geodesic problems with GeographicLib, zproxy with Vincenty's formulae:
// those must agree to 1e-9 (relative, or degrees). The planar numbers
// must agree to 1e-14 (relative): most agree to the last digit, but
// PostGIS's sums and interpolations differ from these in the last digit
// now and then (see the logged counts); the perimeter of a geometry, the
// geohashes and the SVG paths must agree exactly. It needs a
// database with PostGIS (postGISConn: GEO_POSTGIS_DSN, or a cluster of its own).
func TestMeasuresAgainstPostGIS(t *testing.T) {
	ctx := context.Background()
	conn := postGISConn(t)
	query := func(sql string) []string {
		t.Helper()
		res, err := conn.Exec(ctx, sql).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		var out []string
		for _, v := range res[0].Rows[0] {
			out = append(out, string(v))
		}
		return out
	}
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return f
	}
	close := func(a, b, tol float64) bool {
		return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
	}
	// f prints a float8 as PostgreSQL does (shortest, exponent outside
	// [1e-4, 1e15)).
	f := func(x float64) string {
		if a := math.Abs(x); a != 0 && (a < 1e-4 || a >= 1e15) {
			return strconv.FormatFloat(x, 'e', -1, 64)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	rng := rand.New(rand.NewSource(7))
	lonlat := func() (float64, float64) {
		return math.Round((rng.Float64()*360-180)*1e4) / 1e4, math.Round((rng.Float64()*178-89)*1e4) / 1e4
	}
	var exact, total [3]int
	var planar [5]struct{ exact, total int }
	const n = 300
	for iter := 0; iter < n; iter++ {
		// ST_Project and ST_Azimuth on geography.
		lon, lat := lonlat()
		lon2, lat2 := lonlat()
		if iter%3 == 0 { // short distances too
			lon2, lat2 = lon+rng.Float64()-0.5, math.Max(-89, math.Min(89, lat+rng.Float64()-0.5))
		}
		dist := rng.Float64() * 1.9e7
		if iter%4 == 0 {
			dist = rng.Float64() * 1000
		}
		az := rng.Float64()*4*math.Pi - math.Pi
		row := query(fmt.Sprintf("SELECT ST_X(p::geometry), ST_Y(p::geometry), ST_Azimuth('POINT(%s %s)'::geography, 'POINT(%s %s)'::geography) FROM (SELECT ST_Project('POINT(%s %s)'::geography, %s, %s) AS p) s",
			f(lon), f(lat), f(lon2), f(lat2), f(lon), f(lat), f(dist), f(az)))
		px, py, err := SpheroidProject(lon, lat, dist, az)
		if err != nil {
			t.Fatal(err)
		}
		wx, wy := num(row[0]), num(row[1])
		total[0]++
		if px == wx && py == wy {
			exact[0]++
		}
		dx := math.Abs(px - wx)
		if dx > 180 {
			dx = 360 - dx // either side of the antimeridian
		}
		if dx > 1e-9 && math.Abs(wy) < 89.9 || math.Abs(py-wy) > 1e-9 {
			t.Errorf("ST_Project(POINT(%s %s), %s, %s) = %s %s, PostGIS %s %s", f(lon), f(lat), f(dist), f(az), f(px), f(py), row[0], row[1])
		}
		a, _ := SpheroidAzimuth(lon, lat, lon2, lat2)
		total[1]++
		if f(a) == row[2] {
			exact[1]++
		}
		if !close(a, num(row[2]), 1e-9) {
			t.Errorf("ST_Azimuth(POINT(%s %s), POINT(%s %s)) = %s, PostGIS %s", f(lon), f(lat), f(lon2), f(lat2), f(a), row[2])
		}

		// ST_Perimeter on geography, and the planar functions, on a
		// random ring.
		k := 3 + rng.Intn(6)
		cx, cy := lonlat()
		cx, cy = math.Max(-170, math.Min(170, cx)), math.Max(-80, math.Min(80, cy))
		var pts []string
		var coords []float64
		for i := 0; i < k; i++ {
			x := math.Round((cx+rng.Float64()*4-2)*1e3) / 1e3
			y := math.Round((cy+rng.Float64()*4-2)*1e3) / 1e3
			pts = append(pts, f(x)+" "+f(y))
			coords = append(coords, x, y)
		}
		ring := append(append([]float64(nil), coords...), coords[0], coords[1])
		poly := "POLYGON((" + strings.Join(pts, ",") + "," + pts[0] + "))"
		line := "LINESTRING(" + strings.Join(pts, ",") + ")"
		frac := []float64{0, 1, 0.5, rng.Float64(), rng.Float64()}[rng.Intn(5)]
		qx, qy := lonlat()
		if iter%2 == 0 {
			qx, qy = cx+rng.Float64()*6-3, cy+rng.Float64()*6-3
		}
		prec := rng.Intn(4)
		row = query(fmt.Sprintf("SELECT ST_Perimeter('%[1]s'::geography), ST_Perimeter('%[1]s'::geography, false), ST_Perimeter('%[1]s'::geometry), ST_X(ST_LineInterpolatePoint('%[2]s'::geometry, %[3]s)), ST_Y(ST_LineInterpolatePoint('%[2]s'::geometry, %[3]s)), ST_LineLocatePoint('%[2]s'::geometry, 'POINT(%[4]s %[5]s)'), ST_GeoHash('%[2]s'::geometry), ST_GeoHash('POINT(%[4]s %[5]s)'::geometry), ST_AsSVG('%[1]s'::geometry, 1, %[6]d), ST_AsSVG('%[2]s'::geometry, 0, %[6]d)",
			poly, line, f(frac), f(qx), f(qy), prec))
		ps := &Shape{Kind: Polygon, Rings: [][]float64{ring}}
		ls := &Shape{Kind: LineString, Coords: coords}
		total[2]++
		if f(GeographyPerimeter(ps, true)) == row[0] {
			exact[2]++
		}
		if got := GeographyPerimeter(ps, true); !close(got, num(row[0]), 1e-9) {
			t.Errorf("ST_Perimeter(%s::geography) = %s, PostGIS %s", poly, f(got), row[0])
		}
		ip, _ := LineInterpolatePoint(ls, frac)
		floats := []struct {
			what string
			got  float64
			tol  float64
		}{
			{"ST_Perimeter(geography, false)", GeographyPerimeter(ps, false), 1e-14},
			{"ST_Perimeter(geometry)", Perimeter(ps), 0},
			{"ST_LineInterpolatePoint x", ip.Coords[0], 1e-14},
			{"ST_LineInterpolatePoint y", ip.Coords[1], 1e-14},
			{"ST_LineLocatePoint", LineLocatePoint(ls, qx, qy), 1e-14},
		}
		for i, c := range floats {
			want := num(row[i+1])
			planar[i].total++
			if c.got == want {
				planar[i].exact++
			}
			if !close(c.got, want, c.tol) {
				t.Errorf("%s of %s (%s, POINT(%s %s)) = %s, PostGIS %s", c.what, poly, f(frac), f(qx), f(qy), f(c.got), row[i+1])
			}
		}
		texts := []struct {
			what, got string
		}{
			{"ST_GeoHash(line)", func() string { h, _ := GeoHash(ls, 0); return h }()},
			{"ST_GeoHash(point)", func() string { h, _ := GeoHash(&Shape{Kind: Point, Coords: []float64{qx, qy}}, 0); return h }()},
			{"ST_AsSVG(polygon, rel)", func() string { s, _ := FormatSVG(ps, true, prec); return s }()},
			{"ST_AsSVG(line)", func() string { s, _ := FormatSVG(ls, false, prec); return s }()},
		}
		for i, c := range texts {
			if c.got != row[i+len(floats)+1] {
				t.Errorf("%s of %s (POINT(%s %s), %d) = %s, PostGIS %s", c.what, poly, f(qx), f(qy), prec, c.got, row[i+len(floats)+1])
			}
		}
	}
	for i, what := range []string{"ST_Perimeter(geography, false)", "ST_Perimeter(geometry)", "ST_LineInterpolatePoint x", "ST_LineInterpolatePoint y", "ST_LineLocatePoint"} {
		t.Logf("%s to the last digit: %d/%d", what, planar[i].exact, planar[i].total)
	}
	t.Logf("to the last digit: ST_Project %d/%d, ST_Azimuth %d/%d, ST_Perimeter(geography) %d/%d",
		exact[0], total[0], exact[1], total[1], exact[2], total[2])
}
