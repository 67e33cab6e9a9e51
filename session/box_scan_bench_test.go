package session_test

import (
	"context"
	"math"
	"math/rand"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

// boxScanSess is BenchmarkBoxScan's table, loaded by its first run.
var boxScanSess wire.Session

// BenchmarkBoxScan runs the side-by-side harness's box classes (cmd/zproxy-bench
// sidebyside/queries.go) on the readings of BenchmarkBoxTopN (200,000 rows,
// BOX_SCAN_ROWS to change it; the Z-order index in the default layout):
// the 2-D box of about 1,000 rows, the 3-D box (a third of ts as well) and
// the box aggregate of about 10,000 rows, a new box each iteration. cpu-ns/op
// (the process's CPU time, collector included) is the figure to compare on a
// loaded machine. The table is loaded, and compacted by VACUUM as the
// harness's tables are, once per process: run with -count 2 or more and
// compare the later counts.
func BenchmarkBoxScan(b *testing.B) {
	n := 200000
	if v, err := strconv.Atoi(os.Getenv("BOX_SCAN_ROWS")); err == nil && v > 0 {
		n = v
	}
	if boxScanSess == nil {
		boxScanSess = boxTopNTable(b, n, "")
		// The harness's VACUUM ANALYZE: the entries are read from
		// compacted sstables, as at 1M rows, not from the memtable the
		// load left them in, whose nodes lie in the order written, not
		// in key order.
		if _, err := runSQL(context.Background(), boxScanSess, "VACUUM readings"); err != nil {
			b.Fatal(err)
		}
	}
	sess := boxScanSess
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	span := 30 * 24 * time.Hour
	cases := []struct {
		name, sql string
		rows      float64
		ts        bool
	}{
		{"2-D", `SELECT sensor_id, ts, celsius FROM readings WHERE lat BETWEEN $1 AND $2 AND lon BETWEEN $3 AND $4`, 1000, false},
		{"3-D", `SELECT sensor_id, ts, celsius FROM readings WHERE lat BETWEEN $1 AND $2 AND lon BETWEEN $3 AND $4 AND ts >= $5 AND ts < $6`, 1000, true},
		{"aggregate", `SELECT count(*), avg(celsius) FROM readings WHERE lat BETWEEN $1 AND $2 AND lon BETWEEN $3 AND $4`, 10000, false},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			area := c.rows / float64(n)
			if c.ts {
				area *= 3 // a third of the time span
			}
			side := math.Sqrt(area)
			r := rand.New(rand.NewSource(1))
			benchQueryGen(b, sess, c.sql, func() []sqltypes.Value {
				lat, lon := 40+r.Float64()*(1-side), -74.5+r.Float64()*(1-side)
				params := []sqltypes.Value{sqltypes.NewFloat(lat), sqltypes.NewFloat(lat + side), sqltypes.NewFloat(lon), sqltypes.NewFloat(lon + side)}
				if c.ts {
					from := base.Add(time.Duration(r.Int63n(int64(span * 2 / 3))))
					params = append(params, sqltypes.NewTimestamp(sqltypes.TimestampFromTime(from)), sqltypes.NewTimestamp(sqltypes.TimestampFromTime(from.Add(span/3))))
				}
				return params
			})
		})
	}
}
