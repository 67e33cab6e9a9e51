package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestXZNearestMatchesFullScans is the property test of nearest-neighbour
// scans over XZ gist indexes: random polygons, lines, points, empty and
// NULL geometries (some outside the index's world), and PostgreSQL
// boxes, polygons and circles, under random writes, and random ORDER BY
// col <-> constant, id LIMIT k queries (with filters, query shapes and
// offsets) answered through the index and again ordered by the distance plus
// zero, which no search answers: every row sorted. The answers must be the same.
func TestXZNearestMatchesFullScans(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel() // the stores are the legs' own: DynamoDB Local's round trips overlap Pebble's work
			_, sess := newSession(t, be.open(t))
			mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
			// Sharded: the probe reads its ranges in key order across shards.
			mustExec(t, sess, "CREATE TABLE xn (id int PRIMARY KEY, g geometry, b box, pg polygon, c circle, tag int) WITH (shards = 3)")
			mustExec(t, sess, "CREATE INDEX xn_g ON xn USING gist (g)")
			mustExec(t, sess, "CREATE INDEX xn_b ON xn USING gist (b)")
			mustExec(t, sess, "CREATE INDEX xn_pg ON xn USING gist (pg)")
			mustExec(t, sess, "CREATE INDEX xn_c ON xn USING gist (c)")
			rng := rand.New(rand.NewSource(11))
			coord := func() float64 {
				switch rng.Intn(8) {
				case 0:
					return float64(rng.Intn(4)) // a dense corner: ties
				case 1:
					return float64(rng.Intn(9) * 25) // on cell edges
				}
				return float64(rng.Intn(20000))/100 - 10
			}
			row := func(id int) string {
				x, y := coord(), coord()
				w, h := float64(rng.Intn(3000))/100, float64(rng.Intn(3000))/100
				if rng.Intn(10) != 0 {
					w, h = w/100, h/100 // mostly small shapes, so rings settle early
				}
				var g string
				switch rng.Intn(12) {
				case 0:
					g = "NULL"
				case 1:
					g = "'POLYGON EMPTY'"
				case 2:
					g = fmt.Sprintf("'POINT(%g %g)'", x*1e5, y) // outside the world
				case 3, 4:
					g = fmt.Sprintf("'POINT(%g %g)'", x, y)
				case 5, 6:
					g = fmt.Sprintf("'LINESTRING(%g %g,%g %g)'", x, y, x+w, y-h)
				default:
					g = fmt.Sprintf("'POLYGON((%g %g,%g %g,%g %g,%g %g))'", x, y, x+w, y, x+w/2, y+h, x, y)
				}
				b := fmt.Sprintf("box '((%g,%g),(%g,%g))'", x, y, x+w, y+h)
				pg := fmt.Sprintf("polygon '((%g,%g),(%g,%g),(%g,%g))'", x, y, x+w, y, x+w/2, y+h)
				c := fmt.Sprintf("circle '<(%g,%g),%g>'", x, y, w/2)
				if rng.Intn(15) == 0 {
					b, pg, c = "NULL", "NULL", "NULL"
				}
				return fmt.Sprintf("(%d, %s, %s, %s, %s, %d)", id, g, b, pg, c, rng.Intn(5))
			}
			// DynamoDB Local answers each full scan and each rewritten row
			// with round trips: a smaller table keeps its leg as long as
			// Pebble's (the search's logic is the same; the store's part is
			// the ranges and pages it reads). The race detector slows every
			// step several times over: it gets a third of them (raceScale).
			size, steps := 2000, raceScale(160, 50)
			if be.name == "dynamodb" {
				size, steps = raceScale(600, 300), 20
			}
			var rows []string
			for id := 0; id < size; id++ {
				rows = append(rows, row(id))
			}
			mustExec(t, sess, "INSERT INTO xn VALUES "+strings.Join(rows, ", "))
			ctx := context.Background()
			nearest := 0
			for step := 0; step < steps; step++ {
				id := rng.Intn(size + size/50)
				var write string
				switch rng.Intn(3) {
				case 0:
					write = fmt.Sprintf("INSERT INTO xn VALUES %s ON CONFLICT (id) DO UPDATE SET g = excluded.g, b = excluded.b, pg = excluded.pg, c = excluded.c", row(id))
				case 1:
					write = fmt.Sprintf("UPDATE xn SET b = b + point(%d, 0), c = c + point(0, %d) WHERE id %% 13 = %d", rng.Intn(20)-10, rng.Intn(20)-10, id%13)
				default:
					write = fmt.Sprintf("DELETE FROM xn WHERE id = %d", id)
				}
				if _, err := runSQL(ctx, sess, write); err != nil {
					t.Fatalf("step %d: %s: %v", step, write, err)
				}
				x, y := rng.NormFloat64()*60+80, rng.NormFloat64()*60+80
				if rng.Intn(5) == 0 {
					x, y = float64(rng.Intn(4)), float64(rng.Intn(4)) // on the ties
				}
				col := []string{"g", "b", "pg", "c"}[rng.Intn(4)]
				centre := fmt.Sprintf("point '(%g,%g)'", x, y)
				if col == "g" {
					centre = fmt.Sprintf("'POINT(%g %g)'::geometry", x, y)
					if rng.Intn(4) == 0 {
						centre = fmt.Sprintf("'LINESTRING(%g %g,%g %g)'::geometry", x, y, x+rng.Float64()*20, y-rng.Float64()*20)
					}
				}
				where := ""
				switch rng.Intn(4) {
				case 0:
					where = fmt.Sprintf(" WHERE tag = %d", rng.Intn(5))
				case 1:
					if col == "g" {
						where = fmt.Sprintf(" WHERE g && ST_MakeEnvelope(%d, %d, %d, %d)", rng.Intn(60)-10, rng.Intn(60)-10, rng.Intn(60)+60, rng.Intn(60)+60)
					} else {
						// The column's own type: box, polygon(box) or circle(box).
						cast := map[string]string{"b": "", "pg": "polygon", "c": "circle"}[col]
						where = fmt.Sprintf(" WHERE %s && %s(box '((%d,%d),(%d,%d))')", col, cast, rng.Intn(60)-10, rng.Intn(60)-10, rng.Intn(60)+60, rng.Intn(60)+60)
					}
				}
				k := []int{1, 3, 10, 50, 400}[rng.Intn(5)]
				q := fmt.Sprintf("SELECT id, tag, %[1]s <-> %[2]s FROM xn%[3]s ORDER BY %[1]s <-> %[2]s, id LIMIT %[4]d", col, centre, where, k)
				if rng.Intn(4) == 0 {
					q += fmt.Sprintf(" OFFSET %d", rng.Intn(20))
				}
				plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n")
				if strings.Contains(plan, "xz nearest") {
					nearest++
				}
				got := mustExec(t, sess, q)
				// The same order by an expression no search answers: every
				// row sorted.
				sorted := strings.Replace(q, "ORDER BY "+col+" <-> "+centre, "ORDER BY ("+col+" <-> "+centre+") + 0", 1)
				if p := strings.Join(mustExec(t, sess, "EXPLAIN "+sorted), "\n"); strings.Contains(p, "nearest") {
					t.Fatalf("%s: a nearest-neighbour scan:\n%s", sorted, p)
				}
				want := mustExec(t, sess, sorted)
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("step %d: %s\nthrough the index: %v\nsorted:            %v\nplan:\n%s", step, q, got, want, plan)
				}
			}
			checkConsistent(t, sess, "xn")
			t.Logf("%d of %d queries used an xz nearest scan", nearest, steps)
			if nearest < steps*3/4 {
				t.Fatalf("only %d of %d queries used an xz nearest scan", nearest, steps)
			}
		})
	}
}
