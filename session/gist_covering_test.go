package session_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestCoveringGistFollowsWrites: a gist index over points stores its rows'
// other columns (catalog.Index.Stored), so a box, a radius and a kNN
// search answer from its entries alone, with no row lookup. Through
// inserts, updates of the point, of the stored columns and of both,
// deletes, rolled-back transactions, a dropped and an added column, every
// query through the index returns what a full scan does, and EXPLAIN says
// the index covers (but not for the column added after the build).
func TestCoveringGistFollowsWrites(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			_, sess := newSession(t, be.open(t))
			mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
			mustExec(t, sess, "CREATE TABLE cv (id int PRIMARY KEY, g geometry(Point, 4326), kind int, name text, gone int)")
			rng := rand.New(rand.NewSource(5))
			point := func() string {
				if rng.Intn(30) == 0 {
					return "NULL"
				}
				return fmt.Sprintf("'SRID=4326;POINT(%.4f %.4f)'", rng.Float64()*10, rng.Float64()*10)
			}
			n := 800
			if be.name == "dynamodb" {
				n = 300
			}
			var rows []string
			for id := 0; id < n; id++ {
				rows = append(rows, fmt.Sprintf("(%d, %s, %d, 'n%d', %d)", id, point(), rng.Intn(5), id, id))
			}
			mustExec(t, sess, "INSERT INTO cv VALUES "+strings.Join(rows, ", "))
			mustExec(t, sess, "CREATE INDEX cv_g ON cv USING gist (g)")
			mustExec(t, sess, "ANALYZE cv")

			queries := func(cols string) []string {
				return []string{
					"SELECT " + cols + " FROM cv WHERE g && ST_MakeEnvelope(2, 2, 6, 5, 4326) ORDER BY id",
					"SELECT " + cols + " FROM cv WHERE ST_DWithin(g, 'SRID=4326;POINT(5 5)', 2.5) ORDER BY id",
					"SELECT " + cols + " FROM cv ORDER BY g <-> 'SRID=4326;POINT(3 7)', id LIMIT 25",
				}
			}
			check := func(step string, cols string, covered bool) {
				t.Helper()
				for _, q := range queries(cols) {
					plan := strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n")
					if !strings.Contains(plan, "index cv_g") {
						t.Fatalf("%s: %s does not read cv_g:\n%s", step, q, plan)
					}
					if strings.Contains(plan, "covering: yes") != covered {
						t.Fatalf("%s: %s: covering should be %v:\n%s", step, q, covered, plan)
					}
					got := mustExec(t, sess, q)
					want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q) })
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Fatalf("%s: %s\nthrough the index: %v\nfull scan:         %v", step, q, got, want)
					}
				}
			}
			check("built", "id, kind, name, gone", true)

			write := func() string {
				id := rng.Intn(n + n/4)
				switch rng.Intn(6) {
				case 0:
					return fmt.Sprintf("INSERT INTO cv (id, g, kind, name) VALUES (%d, %s, %d, 'i%d') ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name", id, point(), rng.Intn(5), rng.Intn(1000))
				case 1:
					return fmt.Sprintf("UPDATE cv SET kind = %d, name = 'u%d' WHERE id %% 17 = %d", rng.Intn(5), rng.Intn(1000), rng.Intn(17))
				case 2:
					return fmt.Sprintf("UPDATE cv SET g = %s WHERE id = %d", point(), id)
				case 3:
					return fmt.Sprintf("UPDATE cv SET g = %s, kind = kind + 1 WHERE id = %d", point(), id)
				case 4:
					return fmt.Sprintf("UPDATE cv SET name = NULL WHERE id BETWEEN %d AND %d", id, id+5)
				default:
					return fmt.Sprintf("DELETE FROM cv WHERE id = %d", id)
				}
			}
			for round := 0; round < 6; round++ {
				rollback := round%3 == 2
				mustExec(t, sess, "BEGIN")
				for i := 0; i < 12; i++ {
					mustExec(t, sess, write())
				}
				if rollback {
					mustExec(t, sess, "ROLLBACK")
				} else {
					mustExec(t, sess, "COMMIT")
				}
				for i := 0; i < 10; i++ {
					mustExec(t, sess, write())
				}
				check(fmt.Sprintf("round %d", round), "id, kind, name, gone", true)
			}

			// A dropped stored column leaves the index, which still covers
			// the rest; a column added later is no stored column.
			mustExec(t, sess, "ALTER TABLE cv DROP COLUMN gone")
			check("dropped", "id, kind, name", true)
			mustExec(t, sess, "ALTER TABLE cv ADD COLUMN later int DEFAULT 7")
			mustExec(t, sess, "UPDATE cv SET later = id % 3 WHERE id % 2 = 0")
			for i := 0; i < 10; i++ {
				mustExec(t, sess, write())
			}
			check("added", "id, kind, name", true)
			check("added, read", "id, kind, later", false)
		})
	}
}
