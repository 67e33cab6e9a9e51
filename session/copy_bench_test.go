package session_test

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/wire"
)

// BenchmarkCopyFrom measures COPY FROM's path below the protocol: rows of
// the readings shape, already decoded, formed and written by the session's
// copy-in result into a table with a btree and a Z-order index, on an
// on-disk store (bench/copy compares the whole path with PostgreSQL).
// Besides rows/s it reports the process's CPU time per row until the
// store is idle again (its flushes and compactions included) and closed.
func BenchmarkCopyFrom(b *testing.B) {
	const rows = 100000
	ctx := context.Background()
	rng := rand.New(rand.NewSource(1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	data := make([][]sqltypes.Value, rows)
	for i := range data {
		data[i] = []sqltypes.Value{sqltypes.NewInt(int64(i % 10000)), sqltypes.NewTimestamp(base + int64(i/10000)*26e9 + rng.Int63n(26e9)),
			sqltypes.NewFloat(15 + rng.NormFloat64()*8), sqltypes.NewFloat(40 + rng.Float64()), sqltypes.NewFloat(-74.5 + rng.Float64()),
			sqltypes.NewText("code-" + string(rune('a'+rng.Intn(26))))}
	}
	var cpu time.Duration
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		t := &testing.T{}
		store, _, sess := readingsStore(b, t)
		settle()
		cpu0 := processCPU()
		b.StartTimer()
		stmts, err := sess.Parse(ctx, "COPY readings FROM STDIN", nil)
		if err != nil {
			b.Fatal(err)
		}
		res, err := stmts[0].Execute(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		in := res.(wire.CopyIn)
		for from := 0; from < rows; from += 4096 {
			if err := in.Rows(ctx, data[from:min(from+4096, rows)]); err != nil {
				b.Fatal(err)
			}
		}
		if err := in.Finish(ctx); err != nil {
			b.Fatal(err)
		}
		res.Close()
		b.StopTimer()
		settle()
		store.Close()
		cpu += processCPU() - cpu0
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(rows*b.N), "cpu-µs/row")
}

// BenchmarkCopyFromInBlock is BenchmarkCopyFrom as a restore runs it:
// BEGIN; CREATE TABLE; CREATE INDEX ...; COPY; COMMIT, the rows buffered
// in the block's transaction and committed with it. It reports the
// process's CPU time per row as BenchmarkCopyFrom does.
func BenchmarkCopyFromInBlock(b *testing.B) {
	const rows = 100000
	ctx := context.Background()
	rng := rand.New(rand.NewSource(1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	data := make([][]sqltypes.Value, rows)
	for i := range data {
		data[i] = []sqltypes.Value{sqltypes.NewInt(int64(i % 10000)), sqltypes.NewTimestamp(base + int64(i/10000)*26e9 + rng.Int63n(26e9)),
			sqltypes.NewFloat(15 + rng.NormFloat64()*8), sqltypes.NewFloat(40 + rng.Float64()), sqltypes.NewFloat(-74.5 + rng.Float64()),
			sqltypes.NewText("code-" + string(rune('a'+rng.Intn(26))))}
	}
	var cpu time.Duration
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		t := &testing.T{}
		store, err := zpebble.Open(b.TempDir(), zpebble.Options{})
		if err != nil {
			b.Fatal(err)
		}
		_, sess := newSession(t, store)
		settle()
		cpu0 := processCPU()
		b.StartTimer()
		for _, sql := range []string{"BEGIN",
			`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
			lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts)) WITH (shards = 1)`,
			`CREATE INDEX by_note ON readings (note, ts) INCLUDE (celsius)`,
			`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)`,
		} {
			if _, err := runSQL(ctx, sess, sql); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := copyIn(ctx, sess, "COPY readings FROM STDIN", data, 4096); err != nil {
			b.Fatal(err)
		}
		if _, err := runSQL(ctx, sess, "COMMIT"); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		settle()
		store.Close()
		cpu += processCPU() - cpu0
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(rows*b.N), "cpu-µs/row")
}

// BenchmarkCopyTo measures COPY TO's path below the protocol, from the
// store to the connection's encoder (which BenchmarkCopyEncode in wire
// measures): 100,000 rows of the readings shape on an on-disk store,
// handed over pulled through Next (the path before the push, and of every
// plan not a bare scan) or pushed from the scan (wire.CopyPusher). One op
// is one COPY; besides the wall time it reports the process's CPU time
// per row (bench/README.md, issue 29: COPY TO).
func BenchmarkCopyTo(b *testing.B) {
	const rows = 100000
	ctx := context.Background()
	rng := rand.New(rand.NewSource(1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	data := make([][]sqltypes.Value, rows)
	for i := range data {
		data[i] = []sqltypes.Value{sqltypes.NewInt(int64(i % 10000)), sqltypes.NewTimestamp(base + int64(i/10000)*26e9 + rng.Int63n(26e9)),
			sqltypes.NewFloat(15 + rng.NormFloat64()*8), sqltypes.NewFloat(40 + rng.Float64()), sqltypes.NewFloat(-74.5 + rng.Float64()),
			sqltypes.NewText("code-" + string(rune('a'+rng.Intn(26))))}
	}
	t := &testing.T{}
	store, _, sess := readingsStore(b, t)
	defer store.Close()
	if _, err := copyIn(ctx, sess, "COPY readings FROM STDIN", data, 4096); err != nil {
		b.Fatal(err)
	}
	settle()
	for _, push := range []bool{false, true} {
		name := "pull"
		if push {
			name = "push"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				got, _, _, err := copyOutCount(ctx, sess, "COPY readings TO STDOUT", push)
				if err != nil || got != rows {
					b.Fatalf("%d rows, %v", got, err)
				}
				n += got
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(n), "cpu-ns/row")
		})
	}
}

// copyOutCount runs COPY ... TO STDOUT through the session, pushed where
// the result can push when push is set, and counts the rows and their
// values' string bytes (so that every value is looked at).
func copyOutCount(ctx context.Context, sess wire.Session, sql string, push bool) (rows, size int, pushed bool, err error) {
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		return 0, 0, false, err
	}
	res, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		return 0, 0, false, err
	}
	defer res.Close()
	take := func(row []sqltypes.Value) error {
		rows++
		for _, v := range row {
			size += len(v.S)
		}
		return nil
	}
	if p, ok := res.(wire.CopyPusher); ok && push {
		if pushed, err = p.PushRows(ctx, take); err != nil {
			return rows, size, pushed, err
		}
	}
	for !pushed {
		row, ok, err := res.Next(ctx)
		if err != nil {
			return rows, size, false, err
		}
		if !ok {
			break
		}
		take(row)
	}
	return rows, size, pushed, nil
}
