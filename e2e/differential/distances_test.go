package differential

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"
)

// TestDistancesAgainstPostGIS compares ST_ClosestPoint, ST_ShortestLine,
// ST_LongestLine, ST_MaxDistance, ST_DFullyWithin, ST_Distance and
// ST_3DDistance with PostGIS's on random pairs of points, lines,
// polygons (with holes), multis and collections, on a coarse grid so
// that ties between candidate pairs are common (which pair PostGIS
// answers then depends on its search order), with boxes apart (its
// pruned search) and overlapping (its exhaustive one), sometimes with
// Z and M or empty members. The answers must be PostGIS's text exactly.
func TestDistancesAgainstPostGIS(t *testing.T) {
	ctx := context.Background()
	pg, zc := postGISPair(t, ctx)
	g := &distGen{rng: rand.New(rand.NewSource(int64(*seed)))}
	const pairs = 400
	touching := 0
	for i := 0; i < pairs; i++ {
		g.z = g.rng.Intn(6) == 0
		a := g.geometry(0, 0)
		off := []float64{0, 2, 5, 12}[g.rng.Intn(4)]
		if g.rng.Intn(5) == 0 {
			g.z = !g.z // one with Z, one without: ST_3DDistance in 2-D
		}
		b := g.geometry(off, float64(g.rng.Intn(3))*off/2)
		tol := []string{"0", "3", "10", "ST_MaxDistance(a, b)"}[g.rng.Intn(4)]
		sql := fmt.Sprintf(`SELECT ST_AsText(ST_ClosestPoint(a, b)), ST_AsText(ST_ClosestPoint(b, a)), ST_AsText(ST_ShortestLine(a, b)),
			ST_AsText(ST_ShortestLine(b, a)), ST_AsText(ST_LongestLine(a, b)), ST_AsText(ST_LongestLine(b, a)), ST_MaxDistance(a, b),
			ST_DFullyWithin(a, b, %[3]s), ST_DFullyWithin(b, a, %[3]s), ST_Distance(a, b), ST_3DDistance(a, b)
			FROM (SELECT '%[1]s'::geometry AS a, '%[2]s'::geometry AS b) s`, a, b, tol)
		pgRes := run(ctx, pg, sql, time.Minute)
		zpRes := run(ctx, zc, sql, time.Minute)
		if pgRes.failed() || zpRes.failed() {
			if pgRes.code != zpRes.code || !pgRes.failed() || !zpRes.failed() {
				t.Fatalf("%s\nPostgreSQL: %s\nzproxy:     %s", sql, formatResult(pgRes, 4), formatResult(zpRes, 4))
			}
			continue
		}
		// Exact text, floats too: PostGIS's arithmetic is followed
		// step by step.
		if formatResult(pgRes, 4) != formatResult(zpRes, 4) {
			t.Fatalf("%s\nPostgreSQL: %s\nzproxy:     %s", sql, formatResult(pgRes, 4), formatResult(zpRes, 4))
		}
		if r := pgRes.rows[0]; r[9] != nil && *r[9] == "0" {
			touching++
		}
	}
	// Both the touching and the apart cases must be well represented.
	if touching < pairs/10 || touching > pairs*9/10 {
		t.Fatalf("%d of %d pairs touch", touching, pairs)
	}
	t.Logf("%d pairs compared, %d touching", pairs, touching)
}

// distGen makes TestDistancesAgainstPostGIS's random geometries.
type distGen struct {
	rng *rand.Rand
	z   bool // vertices have Z
}

// coord is a grid coordinate, now and then an odd decimal.
func (g *distGen) coord(base float64) float64 {
	if g.rng.Intn(5) == 0 {
		return base + float64(g.rng.Intn(8000))/1000
	}
	return base + float64(g.rng.Intn(9))
}

func (g *distGen) vertex(x, y float64) string {
	s := fmt.Sprintf("%g %g", x, y)
	if g.z {
		// Mostly flat, so that polygons lie in a plane.
		if g.rng.Intn(4) == 0 {
			s += fmt.Sprintf(" %d", g.rng.Intn(5))
		} else {
			s += " 1"
		}
	}
	return s
}

func (g *distGen) pt(ox, oy float64) string { return g.vertex(g.coord(ox), g.coord(oy)) }

func (g *distGen) line(ox, oy float64) string {
	n := 2 + g.rng.Intn(4)
	if g.rng.Intn(4) == 0 {
		n = 6 + g.rng.Intn(10) // enough vertices for the pruned search to skip some
	}
	var pts []string
	for i := 0; i < n; i++ {
		pts = append(pts, g.pt(ox, oy))
	}
	if g.rng.Intn(6) == 0 {
		pts = append(pts, pts[0]) // closed
	}
	return "(" + strings.Join(pts, ",") + ")"
}

// ring is a closed axis-aligned or diamond ring within [x0, x0+w].
func (g *distGen) ring(x0, y0, w float64, cw bool) string {
	var pts [][2]float64
	if g.rng.Intn(2) == 0 {
		pts = [][2]float64{{x0, y0}, {x0 + w, y0}, {x0 + w, y0 + w}, {x0, y0 + w}}
	} else {
		h := w / 2
		pts = [][2]float64{{x0 + h, y0}, {x0 + w, y0 + h}, {x0 + h, y0 + w}, {x0, y0 + h}}
	}
	if cw {
		pts[1], pts[3] = pts[3], pts[1]
	}
	s := make([]string, 0, 5)
	start := g.rng.Intn(4)
	for i := 0; i < 4; i++ {
		p := pts[(start+i)%4]
		s = append(s, g.vertex(p[0], p[1]))
	}
	s = append(s, s[0]) // closed in Z too
	return "(" + strings.Join(s, ",") + ")"
}

func (g *distGen) polygon(ox, oy float64) string {
	x0, y0 := g.coord(ox), g.coord(oy)
	w := float64(2 + 2*g.rng.Intn(4))
	s := g.ring(x0, y0, w, g.rng.Intn(2) == 0)
	if g.rng.Intn(3) == 0 {
		s += "," + g.ring(x0+1, y0+1, w/2, g.rng.Intn(2) == 0)
	}
	return "(" + s + ")"
}

// member is one point, line or polygon's text without its type's tag
// (the caller adds it), with its tag.
func (g *distGen) member(ox, oy float64) (tag, body string) {
	switch g.rng.Intn(3) {
	case 0:
		return "POINT", "(" + g.pt(ox, oy) + ")"
	case 1:
		return "LINESTRING", g.line(ox, oy)
	}
	return "POLYGON", g.polygon(ox, oy)
}

func (g *distGen) geometry(ox, oy float64) string {
	z := ""
	if g.z {
		z = " Z "
	}
	switch r := g.rng.Intn(12); {
	case r < 6:
		tag, body := g.member(ox, oy)
		return tag + z + body
	case r < 9:
		tag, _ := g.member(ox, oy)
		n := 1 + g.rng.Intn(3)
		var parts []string
		for i := 0; i < n; i++ {
			var body string
			switch tag {
			case "POINT":
				body = "(" + g.pt(ox, oy) + ")"
			case "LINESTRING":
				body = g.line(ox, oy)
			default:
				body = g.polygon(ox, oy)
			}
			if g.rng.Intn(12) == 0 {
				body = "EMPTY"
			}
			parts = append(parts, body)
		}
		return "MULTI" + tag + z + "(" + strings.Join(parts, ",") + ")"
	case r < 11:
		n := 1 + g.rng.Intn(3)
		var parts []string
		for i := 0; i < n; i++ {
			tag, body := g.member(ox, oy)
			if g.rng.Intn(12) == 0 {
				body = "EMPTY"
			}
			parts = append(parts, tag+z+" "+body)
		}
		return "GEOMETRYCOLLECTION" + z + "(" + strings.Join(parts, ",") + ")"
	}
	return []string{"POINT EMPTY", "LINESTRING EMPTY", "POLYGON EMPTY", "GEOMETRYCOLLECTION EMPTY"}[g.rng.Intn(4)]
}
