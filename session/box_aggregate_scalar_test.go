package session_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestBoxAggregateScalarFeed: an in-scan aggregate of count(*), and count,
// sum and avg of a float column, fed from the Z-order entries' scalars
// (executor/scanagg_scalar.go), returns what the general path returns bit
// for bit (a FILTER on one more aggregate sends the query there: the feed
// takes no FILTER), over random readings with NULL, negative zero and
// large values, random and empty boxes, with and without a residual
// filter; its scan's EXPLAIN ANALYZE rows are the rows it counted.
func TestBoxAggregateScalarFeed(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE readings (id BIGINT PRIMARY KEY, celsius DOUBLE PRECISION, lat DOUBLE PRECISION NOT NULL, lon DOUBLE PRECISION NOT NULL)`)
	rng := rand.New(rand.NewSource(11))
	insertRows(t, sess, "readings", 4000, func(i int) string {
		c := fmt.Sprintf("%.17g", (rng.Float64()-0.3)*40)
		switch rng.Intn(10) {
		case 0:
			c = "NULL"
		case 1:
			c = "'-0'"
		case 2:
			c = fmt.Sprintf("%g", rng.NormFloat64()*1e300)
		}
		return fmt.Sprintf("(%d, %s, %.6f, %.6f)", i, c, 40+rng.Float64(), -74.5+rng.Float64())
	})
	mustExec(t, sess, `CREATE INDEX readings_by_place ON readings USING zorder (lat, lon) INCLUDE (celsius)`)
	mustExec(t, sess, `ANALYZE readings`)
	const aggs = "count(*), count(celsius), sum(celsius), avg(celsius)"
	for i := 0; i < 60; i++ {
		side := rng.Float64() * 0.5
		lat, lon := 40+rng.Float64()*(1-side), -74.5+rng.Float64()*(1-side)
		where := fmt.Sprintf("lat BETWEEN %g AND %g AND lon BETWEEN %g AND %g", lat, lat+side, lon, lon+side)
		if i%10 == 9 {
			where += " AND id % 3 = 0" // a residual filter: the row path
		}
		if i%15 == 14 {
			where = "lat BETWEEN 50 AND 51 AND lon BETWEEN 0 AND 1" // empty
		}
		got := mustExec(t, sess, "SELECT "+aggs+" FROM readings WHERE "+where)
		want := mustExec(t, sess, "SELECT "+aggs+", count(*) FILTER (WHERE true) FROM readings WHERE "+where)
		if len(got) != 1 || len(want) != 1 || !strings.HasPrefix(want[0], got[0]+"|") {
			t.Fatalf("%s: got %v, want %v", where, got, want)
		}
		plan := strings.Join(mustExec(t, sess, "EXPLAIN ANALYZE SELECT "+aggs+" FROM readings WHERE "+where), "\n")
		if !strings.Contains(plan, "z-order") || !strings.Contains(plan, "inside the scan") {
			t.Fatalf("%s: not an in-scan aggregate over the Z-order index:\n%s", where, plan)
		}
		if count := strings.SplitN(got[0], "|", 2)[0]; i%10 != 9 && !strings.Contains(plan, "rows="+count+" ") && !strings.Contains(plan, "rows="+count+")") {
			t.Fatalf("%s: count %s, not the scan's rows:\n%s", where, count, plan)
		}
	}
}
