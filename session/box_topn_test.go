package session_test

import (
	"fmt"
	"math/rand"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/wire"
)

// TestBoxTopNAgainstFullScan is the property test of the top-N search over
// a Z-order index's cells (executor/topn.go, zorder.TopNCells): ORDER BY ts
// [DESC] LIMIT k under a lat/lon box, over random data with ties on ts, in
// the default and the aligned layout, returns what a full scan and sort
// returns. Boxes are random, empty, at the data's edges and over all of
// it; k is 1, 10, 100 and 1000; some queries add a filter no key range
// enforces. On DynamoDB Local too when DYNAMODB_ENDPOINT is set (fewer
// rows and queries).
func TestBoxTopNAgainstFullScan(t *testing.T) {
	for _, be := range backends(t) {
		// The race detector slows each query several times over; it
		// gets a third of them (raceScale), the full count runs without.
		rows, queries := 3000, raceScale(160, 48)
		if be.name != "pebble" {
			rows, queries = 800, raceScale(48, 24)
		}
		t.Run(be.name, func(t *testing.T) {
			for _, layout := range []struct{ name, with string }{{"default", ""}, {"aligned", " WITH (align = 'data')"}} {
				t.Run(layout.name, func(t *testing.T) {
					_, sess := newSession(t, be.open(t))
					rng := rand.New(rand.NewSource(int64(len(layout.with) + rows)))
					boxTopNLoad(t, sess, rng, rows, layout.with)
					topn, deeper := 0, 0
					for i := 0; i < queries; i++ {
						if i == queries/2 {
							// Without statistics the first batch is a guess and
							// the search deepens; with them it is sized.
							mustExec(t, sess, `ANALYZE readings`)
						}
						where, k, dir := boxTopNQuery(rng, i)
						sel := fmt.Sprintf("sensor_id, ts FROM readings WHERE %s ORDER BY ts %s, sensor_id LIMIT %d", where, dir, k)
						got := mustExec(t, sess, "SELECT "+sel)
						want := mustExec(t, sess, "SELECT /*+ IGNORE_INDEX(readings, readings_by_place) */ "+sel)
						if !slices.Equal(got, want) {
							t.Fatalf("SELECT %s:\ngot  %d rows %v\nwant %d rows %v", sel, len(got), head(got), len(want), head(want))
						}
						plan := strings.Join(mustExec(t, sess, "EXPLAIN ANALYZE SELECT "+sel), "\n")
						if strings.Contains(plan, "top-n:") {
							topn++
							if m := batchesRE.FindStringSubmatch(plan); m != nil && m[1] != "1" {
								deeper++
							}
						}
					}
					if topn < queries/4 || deeper < queries/20 {
						t.Fatalf("%d of %d queries searched the cells, %d in more than one batch", topn, queries, deeper)
					}
				})
			}
		})
	}
}

var batchesRE = regexp.MustCompile(`batches=(\d+)`)

func head(rows []string) []string { return rows[:min(len(rows), 5)] }

// boxTopNLoad fills readings with n rows over a degree of lat and lon and a
// day of ts, a fifth of them on one of twenty shared timestamps (ties),
// then builds the Z-order index with the given WITH clause.
func boxTopNLoad(t *testing.T, sess wire.Session, rng *rand.Rand, n int, with string) {
	t.Helper()
	mustExec(t, sess, `CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION NOT NULL,
		lat DOUBLE PRECISION NOT NULL, lon DOUBLE PRECISION NOT NULL, PRIMARY KEY (sensor_id, ts))`)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	insertRows(t, sess, "readings", n, func(i int) string {
		ts := base.Add(time.Duration(rng.Int63n(int64(24*time.Hour/time.Microsecond))) * time.Microsecond)
		if rng.Intn(5) == 0 {
			ts = base.Add(time.Duration(rng.Intn(20)) * time.Hour)
		}
		return fmt.Sprintf("(%d, '%s', %.2f, %.6f, %.6f)", i, ts.Format("2006-01-02 15:04:05.999999"), 15+rng.Float64()*10, 40+rng.Float64(), -74.5+rng.Float64())
	})
	mustExec(t, sess, `CREATE INDEX readings_by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius)`+with)
}

// boxTopNQuery returns the i-th query's WHERE clause, k and direction: a
// box of random size and place, every eighth empty, at an edge or over
// everything, every third with a filter on celsius or on ts too.
func boxTopNQuery(rng *rand.Rand, i int) (where string, k int, dir string) {
	side := []float64{0.02, 0.1, 0.3, 1}[rng.Intn(4)]
	lat, lon := 40+rng.Float64()*(1-side), -74.5+rng.Float64()*(1-side)
	switch i % 8 {
	case 1: // empty: the box is upside down
		lat += side
		side = -side / 2
	case 2: // the data's corner and beyond
		lat, lon = 40.9, -73.6
	case 3: // everything
		lat, lon, side = 39, -75.5, 3
	}
	where = fmt.Sprintf("lat BETWEEN %.6f AND %.6f AND lon BETWEEN %.6f AND %.6f", lat, lat+side, lon, lon+side)
	switch i % 3 {
	case 1:
		where += fmt.Sprintf(" AND celsius > %.2f", 15+rng.Float64()*10)
	case 2:
		where += fmt.Sprintf(" AND ts < '2024-01-01 %02d:30:00'", 1+rng.Intn(22))
	}
	k = []int{1, 10, 100, 1000}[rng.Intn(4)]
	dir = []string{"ASC", "DESC"}[rng.Intn(2)]
	return where, k, dir
}
