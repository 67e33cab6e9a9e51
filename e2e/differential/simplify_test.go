package differential

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// TestSimplifyAgainstPostGIS compares ST_SimplifyPreserveTopology and
// ST_Simplify with PostGIS's on random geometries whose parts lie close
// enough for simplifying one to cross another: zigzags side by side,
// polygons with holes near their shells, rings of a multi-polygon that
// nearly touch, closed lines, collections, with and without Z and M,
// under tolerances from none to far more than the geometry's size. The
// answers (EWKT, so SRID, Z and the result's type count) and errors must
// be PostGIS's.
func TestSimplifyAgainstPostGIS(t *testing.T) {
	ctx := context.Background()
	pg, zc := postGISPair(t, ctx)
	g := &simplifyGen{rng: rand.New(rand.NewSource(int64(*seed)))}
	changed := 0
	for i := 0; i < 600; i++ {
		wkt := g.geometry()
		tol := []string{"0", "0.01", "0.05", "0.2", "0.5", "1", "3", "100", "-1", "'NaN'"}[g.rng.Intn(10)]
		sql := fmt.Sprintf(`SELECT ST_AsEWKT(ST_SimplifyPreserveTopology(g, %[2]s)), ST_AsEWKT(ST_Simplify(g, %[2]s)),
			ST_NPoints(ST_SimplifyPreserveTopology(g, %[2]s)) < ST_NPoints(g)
			FROM (SELECT '%[1]s'::geometry AS g) s`, wkt, tol)
		pgRes := sameAnswer(t, ctx, pg, zc, sql, orderSpec{})
		if !pgRes.failed() && len(pgRes.rows) == 1 && pgRes.rows[0][2] != nil && *pgRes.rows[0][2] == "t" {
			changed++
		}
	}
	// The comparison means little if the simplifier seldom removed a
	// vertex.
	if changed < 150 {
		t.Fatalf("only %d of 600 geometries lost a vertex", changed)
	}
	t.Logf("600 geometries compared, %d simplified", changed)
}

// simplifyGen makes TestSimplifyAgainstPostGIS's random geometries.
type simplifyGen struct {
	rng  *rand.Rand
	dims int // ordinates a vertex: 2, 3 (Z) or 4 (ZM)
	m    bool
}

func (g *simplifyGen) vertex(x, y float64) string {
	s := fmt.Sprintf("%.3f %.3f", x, y)
	switch {
	case g.dims == 4:
		s += fmt.Sprintf(" %d %d", g.rng.Intn(9), g.rng.Intn(9))
	case g.dims == 3:
		s += fmt.Sprintf(" %d", g.rng.Intn(9))
	}
	return s
}

// zigzag is a line from (x, y) eastwards with n vertices that wander by
// up to amp north and south.
func (g *simplifyGen) zigzag(x, y, amp float64, n int) []string {
	var pts []string
	for i := 0; i < n; i++ {
		pts = append(pts, g.vertex(x+float64(i)*0.3, y+amp*(2*g.rng.Float64()-1)))
	}
	return pts
}

// ring is a closed star around (cx, cy) of radius up to r.
func (g *simplifyGen) ring(cx, cy, r float64, n int, clockwise bool) []string {
	var pts []string
	for i := 0; i < n; i++ {
		a := (float64(i) + 0.8*g.rng.Float64()) * 2 * math.Pi / float64(n)
		if clockwise {
			a = -a
		}
		rr := r * (0.6 + 0.4*g.rng.Float64())
		pts = append(pts, g.vertex(cx+rr*math.Cos(a), cy+rr*math.Sin(a)))
	}
	return append(pts, pts[0])
}

func paren(pts []string) string { return "(" + strings.Join(pts, ", ") + ")" }

func (g *simplifyGen) polygon(cx, cy, r float64) string {
	rings := []string{paren(g.ring(cx, cy, r, 5+g.rng.Intn(40), false))}
	for h := g.rng.Intn(3); h > 0; h-- {
		// Holes near the shell's inner edge or near each other.
		a := g.rng.Float64() * 2 * math.Pi
		d := r * 0.35 * g.rng.Float64()
		rings = append(rings, paren(g.ring(cx+d*math.Cos(a), cy+d*math.Sin(a), r*0.25, 4+g.rng.Intn(20), true)))
	}
	return paren(rings)
}

func (g *simplifyGen) geometry() string {
	g.dims = []int{2, 2, 2, 3, 4}[g.rng.Intn(5)]
	tag := map[int]string{2: "", 3: " Z", 4: " ZM"}[g.dims]
	if g.dims == 3 && g.rng.Intn(3) == 0 {
		tag = " M"
	}
	x, y := 10*g.rng.Float64(), 10*g.rng.Float64()
	var body string
	switch g.rng.Intn(9) {
	case 0:
		body = "LINESTRING" + tag + paren(g.zigzag(x, y, 0.5, 3+g.rng.Intn(40)))
	case 1:
		// Two zigzags a little apart: flattening one crosses the other.
		gap := 0.05 + 0.3*g.rng.Float64()
		n := 3 + g.rng.Intn(30)
		body = "MULTILINESTRING" + tag + paren([]string{paren(g.zigzag(x, y, 0.3, n)), paren(g.zigzag(x, y+gap, 0.3, n))})
	case 2:
		body = "MULTILINESTRING" + tag + paren([]string{paren(g.zigzag(x, y, 0.4, 3+g.rng.Intn(20)))})
	case 3:
		body = "LINESTRING" + tag + paren(g.ring(x, y, 1+2*g.rng.Float64(), 3+g.rng.Intn(30), g.rng.Intn(2) == 0))
	case 4, 5:
		body = "POLYGON" + tag + g.polygon(x, y, 0.5+2*g.rng.Float64())
	case 6:
		r := 0.5 + g.rng.Float64()
		body = "MULTIPOLYGON" + tag + paren([]string{g.polygon(x, y, r), g.polygon(x+2*r+0.05*g.rng.Float64(), y, r)})
	case 7:
		body = "GEOMETRYCOLLECTION" + tag + paren([]string{
			"POINT" + tag + paren([]string{g.vertex(x, y)}),
			"LINESTRING" + tag + paren(g.zigzag(x, y, 0.5, 3+g.rng.Intn(20))),
			"POLYGON" + tag + g.polygon(x+1, y+0.2, 1),
			"MULTILINESTRING" + tag + paren([]string{paren(g.zigzag(x, y+0.1, 0.4, 3+g.rng.Intn(10)))}),
		})
	default:
		body = []string{"POINT" + tag + paren([]string{g.vertex(x, y)}), "MULTIPOINT" + tag + paren([]string{paren([]string{g.vertex(x, y)})}),
			"LINESTRING" + tag + " EMPTY", "POLYGON EMPTY"}[g.rng.Intn(4)]
	}
	if g.rng.Intn(2) == 0 {
		return "SRID=4326;" + body
	}
	return body
}
