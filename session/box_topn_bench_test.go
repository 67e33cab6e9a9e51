package session_test

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

// BenchmarkBoxTopN is the side-by-side's "box top-100" class (bench/
// sidebyside/queries.go) at 200,000 readings (BOX_TOPN_ROWS to change it):
// lat and lon uniform over a degree each, ts uniform over 30 days to the
// microsecond, a Z-order index over (lat, lon, ts) in the default layout and
// WITH (align = 'data'), and SELECT sensor_id, ts, celsius ... WHERE <box
// holding about 1,000 rows> ORDER BY ts DESC LIMIT 100 over random boxes.
// items/row is the store items read per row returned (EXPLAIN ANALYZE of 50
// boxes, untimed), the figure issue 29 holds to 2; ns/op and allocs/op are
// the query's, a new box each iteration.
func BenchmarkBoxTopN(b *testing.B) {
	n := 200000
	if v, err := strconv.Atoi(os.Getenv("BOX_TOPN_ROWS")); err == nil && v > 0 {
		n = v
	}
	side := math.Sqrt(1000 / float64(n))
	box := func(r *rand.Rand) (float64, float64, float64, float64) {
		lat := 40 + r.Float64()*(1-side)
		lon := -74.5 + r.Float64()*(1-side)
		return lat, lat + side, lon, lon + side
	}
	const sql = `SELECT sensor_id, ts, celsius FROM readings WHERE lat BETWEEN $1 AND $2 AND lon BETWEEN $3 AND $4 ORDER BY ts DESC LIMIT 100`
	for _, layout := range []struct{ name, with string }{{"default", ""}, {"aligned", " WITH (align = 'data')"}} {
		// Loaded once per layout, not once per run of the sub-benchmark.
		var sess wire.Session
		var items, rows float64
		b.Run(layout.name, func(b *testing.B) {
			if sess == nil {
				sess = boxTopNTable(b, n, layout.with)
				items, rows = boxTopNItems(b, sess, rand.New(rand.NewSource(7)), 50, box, sql)
			}
			r := rand.New(rand.NewSource(1))
			params := make([]sqltypes.Value, 4)
			benchQueryGen(b, sess, sql, func() []sqltypes.Value {
				a, c, d, e := box(r)
				params[0], params[1], params[2], params[3] = sqltypes.NewFloat(a), sqltypes.NewFloat(c), sqltypes.NewFloat(d), sqltypes.NewFloat(e)
				return params
			})
			b.ReportMetric(items/rows, "items/row")
		})
	}
}

// boxTopNTable loads n readings as the side-by-side generates them into an
// in-memory store, with the Z-order index built after the load (with is
// its WITH clause), analyzed.
func boxTopNTable(b *testing.B, n int, with string) wire.Session {
	b.Helper()
	_, sess := newSession(&testing.T{}, memStore(&testing.T{}))
	run := func(sql string) {
		if _, err := runSQL(context.Background(), sess, sql); err != nil {
			b.Fatalf("%s: %v", sql[:min(len(sql), 80)], err)
		}
	}
	run(`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION NOT NULL,
		lat DOUBLE PRECISION NOT NULL, lon DOUBLE PRECISION NOT NULL, note TEXT, PRIMARY KEY (sensor_id, ts))`)
	rng := rand.New(rand.NewSource(1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	span := int64(30 * 24 * time.Hour / time.Microsecond)
	insertRows(b, sess, "readings", n, func(i int) string {
		ts := base.Add(time.Duration(rng.Int63n(span)) * time.Microsecond)
		return fmt.Sprintf("(%d, '%s', %.2f, %.6f, %.6f, 'n%d')", i, ts.Format("2006-01-02 15:04:05.999999"),
			15+rng.Float64()*10, 40+rng.Float64(), -74.5+rng.Float64(), rng.Intn(100))
	})
	run(`CREATE INDEX readings_by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)` + with)
	run(`ANALYZE readings`)
	return sess
}

// boxTopNItems runs EXPLAIN ANALYZE of sql over k random boxes and returns
// the items the Z-order scan read and the rows the query returned.
func boxTopNItems(b *testing.B, sess wire.Session, r *rand.Rand, k int, box func(*rand.Rand) (float64, float64, float64, float64), sql string) (items, rows float64) {
	b.Helper()
	figures := regexp.MustCompile(`z-order.*items read=(\d+)`)
	limit := regexp.MustCompile(`^\s*Limit .*actual rows=(\d+)`)
	for i := 0; i < k; i++ {
		a, c, d, e := box(r)
		q := sql
		for j, v := range []float64{a, c, d, e} {
			q = strings.Replace(q, "$"+strconv.Itoa(j+1), strconv.FormatFloat(v, 'g', -1, 64), 1)
		}
		out, err := runSQL(context.Background(), sess, "EXPLAIN ANALYZE "+q)
		if err != nil {
			b.Fatal(err)
		}
		found := false
		for _, line := range out {
			if m := figures.FindStringSubmatch(line); m != nil {
				v, _ := strconv.ParseFloat(m[1], 64)
				items += v
				found = true
			}
			if m := limit.FindStringSubmatch(line); m != nil {
				v, _ := strconv.ParseFloat(m[1], 64)
				rows += v
			}
		}
		if !found {
			b.Fatalf("no z-order scan:\n%s", strings.Join(out, "\n"))
		}
		if i == 0 && testing.Verbose() {
			b.Logf("%s", strings.Join(out, "\n"))
		}
	}
	return items, rows
}
