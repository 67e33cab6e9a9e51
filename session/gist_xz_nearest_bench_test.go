package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkXZNearest measures kNN over an XZ gist index: 100,000 small
// polygons (squares and triangles, one to three times the mean spacing)
// in a one-degree square of SRID 4326, and ORDER BY geom <-> point LIMIT
// k for k = 1, 10 and 100 around random centres. It reports the index
// entries and rows read per row returned and the store requests per query
// (from EXPLAIN ANALYZE), the figures bench/README.md records.
func BenchmarkXZNearest(b *testing.B) {
	t := &testing.T{}
	_, sess := newSession(t, memStore(t))
	ctx := context.Background()
	run := func(sql string) []string {
		out, err := runSQL(ctx, sess, sql)
		if err != nil {
			b.Fatalf("%s: %v", sql[:min(len(sql), 80)], err)
		}
		return out
	}
	run(`CREATE EXTENSION IF NOT EXISTS postgis`)
	run(`CREATE TABLE zones (id BIGINT PRIMARY KEY, geom geometry(Polygon, 4326), kind INT)`)
	rng := rand.New(rand.NewSource(1))
	const n = 100000
	const spacing = 1.0 / 316 // one degree over sqrt(n)
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if sb.Len() == 0 {
			sb.WriteString("INSERT INTO zones VALUES ")
		} else {
			sb.WriteString(", ")
		}
		x, y := 10+rng.Float64(), 50+rng.Float64()
		w := spacing * (1 + 2*rng.Float64())
		if i%2 == 0 {
			fmt.Fprintf(&sb, "(%d, ST_MakeEnvelope(%.9f, %.9f, %.9f, %.9f, 4326), %d)", i, x, y, x+w, y+w, rng.Intn(10))
		} else {
			fmt.Fprintf(&sb, "(%d, 'SRID=4326;POLYGON((%.9f %.9f,%.9f %.9f,%.9f %.9f,%.9f %.9f))', %d)", i, x, y, x+w, y, x, y+w, x, y, rng.Intn(10))
		}
		if i%1000 == 999 || i == n-1 {
			run(sb.String())
			sb.Reset()
		}
	}
	run(`CREATE INDEX zones_geom ON zones USING gist (geom)`)
	run(`ANALYZE zones`)
	figures := regexp.MustCompile(`actual rows=(\d+) .*items read=(\d+) store requests=(\d+) rings=(\d+) ranges=(\d+)`)
	for _, k := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			var rows, items, requests, rings float64
			for i := 0; i < b.N; i++ {
				x, y := 10+rng.Float64(), 50+rng.Float64()
				q := fmt.Sprintf("EXPLAIN ANALYZE SELECT id, kind FROM zones ORDER BY geom <-> 'SRID=4326;POINT(%.9f %.9f)'::geometry LIMIT %d", x, y, k)
				found := false
				for _, line := range run(q) {
					if m := figures.FindStringSubmatch(line); m != nil && strings.Contains(line, "xz nearest") {
						f := func(i int) float64 { v, _ := strconv.ParseFloat(m[i], 64); return v }
						items += f(2)
						requests += f(3)
						rings += f(4)
						rows += float64(k)
						found = true
					}
				}
				if !found {
					b.Fatalf("%s: no xz nearest scan", q)
				}
			}
			b.ReportMetric(items/rows, "items/row")
			b.ReportMetric(requests/float64(b.N), "requests/query")
			b.ReportMetric(rings/float64(b.N), "rings/query")
		})
	}
}
