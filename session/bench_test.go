package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

// benchTable loads n readings-shaped rows with a btree and a Z-order index
// into an in-memory store and returns a session over it.
func benchTable(b *testing.B, n int) wire.Session {
	b.Helper()
	t := &testing.T{}
	_, sess := newSession(t, memStore(t))
	run := func(sql string) {
		if _, err := runSQL(context.Background(), sess, sql); err != nil {
			b.Fatalf("%s: %v", sql[:min(len(sql), 80)], err)
		}
	}
	run(`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
		lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts))`)
	run(`CREATE INDEX by_note ON readings (note, ts) INCLUDE (celsius)`)
	run(`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)`)
	rng := rand.New(rand.NewSource(1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var sb strings.Builder
	for i := 0; i < n; i++ {
		if sb.Len() == 0 {
			sb.WriteString("INSERT INTO readings VALUES ")
		} else {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "(%d, '%s', %.2f, %.6f, %.6f, 'n%d')",
			i/100, base.Add(time.Duration(i%100)*time.Minute).Format("2006-01-02 15:04:05"), 15+rng.Float64()*10, 40+rng.Float64(), -74+rng.Float64(), rng.Intn(100))
		if i%500 == 499 || i == n-1 {
			run(sb.String())
			sb.Reset()
		}
	}
	return sess
}

func benchQuery(b *testing.B, sess wire.Session, sql string) {
	benchQueryParams(b, sess, sql, nil)
}

// benchQueryParams runs sql with the parameters, reporting allocations and
// the rows it returns.
func benchQueryParams(b *testing.B, sess wire.Session, sql string, params []sqltypes.Value) {
	ctx := context.Background()
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	rows := 0
	for i := 0; i < b.N; i++ {
		res, err := stmts[0].Execute(ctx, params)
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, ok, err := res.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if !ok {
				break
			}
			rows++
		}
		res.Close()
	}
	b.ReportMetric(float64(rows)/float64(b.N), "rows/op")
	// The process's CPU time (collector included) says more than the
	// elapsed time on a loaded machine.
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkSelect(b *testing.B) {
	sess := benchTable(b, 20000)
	cases := []struct{ name, sql string }{
		{"point", `SELECT * FROM readings WHERE sensor_id = 42 AND ts = '2024-01-01 00:00:00'`},
		{"prefix", `SELECT * FROM readings WHERE sensor_id = 42`},
		{"latest", `SELECT * FROM readings WHERE sensor_id = 42 ORDER BY ts DESC LIMIT 1`},
		{"secondary", `SELECT sensor_id, celsius FROM readings WHERE note = 'n7'`},
		{"box2d", `SELECT sensor_id, celsius FROM readings WHERE lat BETWEEN 40.2 AND 40.5 AND lon BETWEEN -73.8 AND -73.5`},
		{"box3d", `SELECT sensor_id, celsius FROM readings WHERE lat BETWEEN 40.2 AND 40.5 AND lon BETWEEN -73.8 AND -73.5 AND ts >= '2024-01-01 00:20:00' AND ts < '2024-01-01 00:50:00'`},
		{"box_top100", `SELECT sensor_id, ts, celsius FROM readings WHERE lat BETWEEN 40.2 AND 40.5 AND lon BETWEEN -73.8 AND -73.5 ORDER BY ts DESC LIMIT 100`},
		{"secondary_limit", `SELECT * FROM readings WHERE note = 'n7' ORDER BY ts LIMIT 5`},
		{"box_aggregate", `SELECT count(*), avg(celsius) FROM readings WHERE lat BETWEEN 40.1 AND 40.9 AND lon BETWEEN -73.9 AND -73.1`},
		{"full_scan_aggregate", `SELECT count(*), avg(celsius) FROM readings WHERE celsius > 20`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchQuery(b, sess, c.sql) })
	}
}

// BenchmarkInsert500 inserts 500 rows per statement with parameters, as a
// bulk-loading client would, into a table with two indexes.
func BenchmarkInsert500(b *testing.B) {
	t := &testing.T{}
	_, sess := newSession(t, memStore(t))
	ctx := context.Background()
	for _, sql := range []string{
		`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
			lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts))`,
		`CREATE INDEX by_note ON readings (note, ts) INCLUDE (celsius)`,
		`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)`,
	} {
		if _, err := runSQL(ctx, sess, sql); err != nil {
			b.Fatal(err)
		}
	}
	stmts, err := sess.Parse(ctx, insertPlaceholders(500), nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := stmts[0].Describe(ctx); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	params := make([]sqltypes.Value, 3000)
	b.ReportAllocs()
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		for i := 0; i < 500; i++ {
			p := params[i*6:]
			p[0] = sqltypes.NewInt(int64(it))
			p[1] = sqltypes.NewTimestamp(int64(i) * 60_000_000)
			p[2] = sqltypes.NewFloat(20 + rng.Float64())
			p[3] = sqltypes.NewFloat(40 + rng.Float64())
			p[4] = sqltypes.NewFloat(-74 + rng.Float64())
			p[5] = sqltypes.NewText(fmt.Sprintf("n%d", rng.Intn(100)))
		}
		res, err := stmts[0].Execute(ctx, params)
		if err != nil {
			b.Fatal(err)
		}
		res.Close()
	}
	b.ReportMetric(float64(b.N*500)/b.Elapsed().Seconds(), "rows/s")
}
