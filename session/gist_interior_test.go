package session_test

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// TestPointGistHeldCellsMatchFullScans is the property test of the scans
// that admit a gist index's points without their spatial test where the
// test's region holds a whole cell (optimizer.Scan.Interior): random
// points (dense, on a polygon's vertices and edges, NULL and empty) under
// random polygons (convex, concave, with a hole, multipolygons) and discs,
// through ST_Within, ST_Contains, ST_Covers, ST_Intersects and
// ST_DWithin either way round (and ST_Within and ST_Contains the wrong way
// round, which no point satisfies), alone, with another conjunct, counted
// inside the scan and through PREPARE. Each answer must be the full
// scan's, and across the queries the scans must have admitted rows in
// held cells (EXPLAIN ANALYZE).
func TestPointGistHeldCellsMatchFullScans(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			_, sess := newSession(t, be.open(t))
			mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
			mustExec(t, sess, "CREATE TABLE pts (id int PRIMARY KEY, g geometry(Point, 4326), tag int)")
			rng := rand.New(rand.NewSource(17))
			n := 4000
			if be.name == "dynamodb" {
				n = 1500
			}
			var rows []string
			for id := 0; id < n; id++ {
				g := fmt.Sprintf("'SRID=4326;POINT(%.6f %.6f)'", rng.Float64()*10, rng.Float64()*10)
				switch rng.Intn(40) {
				case 0:
					g = "NULL"
				case 1:
					g = "'SRID=4326;POINT EMPTY'"
				case 2, 3, 4:
					// On the grid the polygons' vertices lie on.
					g = fmt.Sprintf("'SRID=4326;POINT(%g %g)'", float64(rng.Intn(21))/2, float64(rng.Intn(21))/2)
				}
				rows = append(rows, fmt.Sprintf("(%d, %s, %d)", id, g, rng.Intn(3)))
				if len(rows) == 500 {
					mustExec(t, sess, "INSERT INTO pts VALUES "+strings.Join(rows, ", "))
					rows = nil
				}
			}
			mustExec(t, sess, "CREATE INDEX pts_g ON pts USING gist (g)")
			mustExec(t, sess, "ANALYZE pts")
			ring := func(cx, cy, r float64, k int) string {
				var pts []string
				for i := 0; i < k; i++ {
					a := 2 * math.Pi * float64(i) / float64(k)
					rr := r
					if i%2 == 1 && rng.Intn(2) == 0 {
						rr = r / 2 // concave
					}
					pts = append(pts, fmt.Sprintf("%g %g", math.Round((cx+rr*math.Cos(a))*2)/2, math.Round((cy+rr*math.Sin(a))*2)/2))
				}
				return "(" + strings.Join(append(pts, pts[0]), ",") + ")"
			}
			area := func() string {
				cx, cy, r := 2+rng.Float64()*6, 2+rng.Float64()*6, 1+rng.Float64()*2
				switch rng.Intn(4) {
				case 0:
					return fmt.Sprintf("'SRID=4326;POLYGON(%s,%s)'", ring(cx, cy, r, 8), ring(cx, cy, r/4, 4))
				case 1:
					return fmt.Sprintf("'SRID=4326;MULTIPOLYGON((%s),(%s))'", ring(cx, cy, r/2, 6), ring(10-cx, 10-cy, r/2, 5))
				default:
					return fmt.Sprintf("'SRID=4326;POLYGON(%s)'", ring(cx, cy, r, 4+rng.Intn(8)))
				}
			}
			held := 0
			steps := 80
			if be.name == "dynamodb" {
				steps = 20
			}
			for step := 0; step < steps; step++ {
				a := area()
				x, y, d := rng.Float64()*10, rng.Float64()*10, rng.Float64()*2
				pt := fmt.Sprintf("'SRID=4326;POINT(%g %g)'", x, y)
				var pred string
				switch rng.Intn(9) {
				case 7:
					pred = fmt.Sprintf("ST_Within(%s, g)", a) // never, for a point
				case 8:
					pred = fmt.Sprintf("ST_Contains(g, %s)", a)
				case 0:
					pred = fmt.Sprintf("ST_Within(g, %s)", a)
				case 1:
					pred = fmt.Sprintf("ST_Contains(%s, g)", a)
				case 2:
					pred = fmt.Sprintf("ST_Covers(%s, g)", a)
				case 3:
					pred = fmt.Sprintf("ST_Intersects(g, %s)", a)
				case 4:
					pred = fmt.Sprintf("ST_DWithin(g, %s, %g)", pt, d)
				case 5:
					pred = fmt.Sprintf("ST_DWithin(%s, g, %g)", a, d)
				default:
					pred = fmt.Sprintf("ST_Intersects(%s, g)", a)
				}
				if rng.Intn(3) == 0 {
					pred += fmt.Sprintf(" AND tag = %d", rng.Intn(3))
				}
				var q string
				switch rng.Intn(3) {
				case 0:
					q = "SELECT count(*) FROM pts WHERE " + pred
				default:
					q = "SELECT id FROM pts WHERE " + pred + " ORDER BY id"
				}
				got := mustExec(t, sess, q)
				want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q) })
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("step %d: %s\nthrough the index: %d rows %v\nfull scan:         %d rows %v", step, q, len(got), got, len(want), want)
				}
				plan := strings.Join(mustExec(t, sess, "EXPLAIN ANALYZE "+q), "\n")
				if !strings.Contains(plan, "pts_g") {
					t.Fatalf("step %d: %s does not read the gist index:\n%s", step, q, plan)
				}
				if strings.Contains(plan, "rows in held cells=") {
					held++
				}
				if step%10 == 0 {
					// A generic plan: the region is the parameter's.
					mustExec(t, sess, "PREPARE held_q(geometry) AS SELECT count(*) FROM pts WHERE ST_Within(g, $1)")
					got := mustExec(t, sess, "EXECUTE held_q("+a+")")
					want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, "EXECUTE held_q("+a+")") })
					if got[0] != want[0] {
						t.Fatalf("step %d: EXECUTE held_q(%s): %v, full scan %v", step, a, got, want)
					}
					mustExec(t, sess, "DEALLOCATE held_q")
				}
			}
			t.Logf("%d of %d queries admitted rows in held cells", held, steps)
			if held < steps/2 {
				t.Fatalf("%d of %d queries admitted rows in held cells", held, steps)
			}
		})
	}
}
