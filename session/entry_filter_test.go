package session_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestResidualFilterOnIndexEntries: a scan of a secondary index that looks
// up its entries' rows applies its residual filter to each entry first,
// when the entries hold every column the filter reads (an INCLUDE column,
// a gist index's point), so a row the filter rejects is never read. The
// answers are the full scan's, and the scan reads about one item per entry
// and one per row kept (EXPLAIN ANALYZE), where fetching every entry's row
// read two per entry.
func TestResidualFilterOnIndexEntries(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel()
			_, sess := newSession(t, be.open(t))
			mustExec(t, sess, "CREATE EXTENSION IF NOT EXISTS postgis")
			mustExec(t, sess, "CREATE TABLE ef (id int PRIMARY KEY, a int, b int, c text, g geometry(Point, 4326))")
			var rows []string
			for i := 0; i < 600; i++ {
				rows = append(rows, fmt.Sprintf("(%d, %d, %d, 'c%d', 'SRID=4326;POINT(%d %d)')", i, i%200, i%13, i, i%30, i/30))
			}
			mustExec(t, sess, "INSERT INTO ef VALUES "+strings.Join(rows, ", "))
			mustExec(t, sess, "CREATE INDEX ef_a ON ef (a) INCLUDE (b)")
			mustExec(t, sess, "CREATE INDEX ef_g ON ef USING gist (g) WITH (covering = false)") // entries without c
			mustExec(t, sess, "ANALYZE ef")
			items := regexp.MustCompile(`Scan ef via .*index (ef_a|ef_g).*actual rows=(\d+) .*items read=(\d+)`)
			for _, q := range []string{
				"SELECT id, c FROM ef WHERE a BETWEEN 10 AND 69 AND b = 7 ORDER BY id",
				"SELECT id, c FROM ef WHERE a < 50 AND (b = 3 OR b > 11) ORDER BY id",
				"SELECT id, c FROM ef WHERE ST_DWithin(g, 'SRID=4326;POINT(10 10)', 4) ORDER BY id",
				"SELECT id, c FROM ef WHERE ST_Within(g, 'SRID=4326;POLYGON((2 2, 12 2, 2 12, 2 2))') AND id % 2 = 0 ORDER BY id",
			} {
				got := mustExec(t, sess, q)
				want := withoutIndexReads(t, sess, func() []string { return mustExec(t, sess, q) })
				if strings.Join(got, ",") != strings.Join(want, ",") || len(got) == 0 {
					t.Fatalf("%s\nthrough the index: %v\nfull scan:         %v", q, got, want)
				}
				readOf := func(q string) (kept, read int) {
					plan := strings.Join(mustExec(t, sess, "EXPLAIN ANALYZE "+q), "\n")
					m := items.FindStringSubmatch(plan)
					if m == nil {
						t.Fatalf("%s reads no secondary index:\n%s", q, plan)
					}
					kept, _ = strconv.Atoi(m[2])
					read, _ = strconv.Atoi(m[3])
					return kept, read
				}
				// The same rows' ids alone, which the entries hold: the
				// entries read.
				_, entries := readOf(strings.Replace(q, "SELECT id, c", "SELECT id", 1))
				kept, read := readOf(q)
				if read != entries+kept || kept >= entries {
					t.Fatalf("%s: %d items read for %d entries and %d rows kept, want one item an entry and one a row kept", q, read, entries, kept)
				}
			}
		})
	}
}
