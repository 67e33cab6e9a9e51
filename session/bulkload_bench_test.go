package session_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// BenchmarkBulkLoad is the side-by-side harness's load below the protocol:
// two sessions of one engine insert readings-shaped rows into a table with
// a btree and a Z-order index on an on-disk store, 500 rows per prepared
// INSERT, slot by slot as a fleet reports (each statement's keys scattered
// over the table). One op loads bulkLoadRows rows into a fresh store.
// Besides rows/s it reports the process's CPU time per row (user + system,
// background flushes and compactions included), which a shared machine's
// neighbours disturb far less than wall time.
func BenchmarkBulkLoad(b *testing.B) {
	bulkLoadRows := *bulkLoadRowsFlag
	const (
		perStmt = 500
		conns   = 2
		sensors = 2000
	)
	ctx := context.Background()
	insert := insertPlaceholders(perStmt)
	params := bulkLoadParams(bulkLoadRows, sensors)
	var cpu time.Duration
	var flushed, compacted, ingested, walBytes uint64
	var l0Sublevels int32
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		t := &testing.T{}
		store, eng, _ := readingsStore(b, t)
		m0 := store.LSMMetrics()
		stmts := make(chan int)
		var wg sync.WaitGroup
		errs := make(chan error, conns)
		for range conns {
			sess := openSession(t, eng)
			st, err := sess.Parse(ctx, insert, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := st[0].Describe(ctx); err != nil {
				b.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for from := range stmts {
					res, err := st[0].Execute(ctx, params[from*6:(from+perStmt)*6])
					if err != nil {
						errs <- err
						for range stmts {
						}
						return
					}
					res.Close()
				}
			}()
		}
		cpu0 := processCPU()
		b.StartTimer()
		for from := 0; from < bulkLoadRows; from += perStmt {
			stmts <- from
		}
		close(stmts)
		wg.Wait()
		b.StopTimer()
		settle()
		cpu += processCPU() - cpu0
		m := store.LSMMetrics()
		for l := range m.Levels {
			flushed += m.Levels[l].BytesFlushed - m0.Levels[l].BytesFlushed
			compacted += m.Levels[l].BytesCompacted - m0.Levels[l].BytesCompacted
			ingested += m.Levels[l].BytesIngested - m0.Levels[l].BytesIngested
		}
		walBytes += m.WAL.BytesWritten - m0.WAL.BytesWritten
		l0Sublevels += m.Levels[0].Sublevels
		select {
		case err := <-errs:
			b.Fatal(err)
		default:
		}
		eng.Close()
		store.Close()
	}
	b.ReportMetric(float64(bulkLoadRows*b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(bulkLoadRows*b.N), "cpu-µs/row")
	// The LSM's write amplification over the load, as Pebble's Metrics
	// total counts it: bytes written to the write-ahead log and to
	// sstables (flushed, compacted, ingested) per byte the log took in.
	b.ReportMetric(float64(walBytes+flushed+compacted+ingested)/float64(walBytes), "write-amp")
	b.ReportMetric(float64(flushed)/float64(bulkLoadRows*b.N), "flushed-B/row")
	b.ReportMetric(float64(compacted)/float64(bulkLoadRows*b.N), "compacted-B/row")
	// What the load leaves for reads: the L0 sublevels every scan merges
	// and every point read probes, once the store is idle.
	b.ReportMetric(float64(l0Sublevels)/float64(b.N), "l0-sublevels")
}

var bulkLoadRowsFlag = flag.Int("bulkload-rows", 100_000, "rows BenchmarkBulkLoad loads into each fresh store")

// readingsStore opens an on-disk store holding the readings table with a
// btree and a Z-order index, in one shard, and an engine over it.
func readingsStore(b *testing.B, t *testing.T) (*zpebble.Store, *session.Engine, wire.Session) {
	store, err := zpebble.Open(b.TempDir(), zpebble.Options{})
	if err != nil {
		b.Fatal(err)
	}
	eng, sess := newSession(t, store)
	for _, sql := range []string{
		`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
			lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts)) WITH (shards = 1)`,
		`CREATE INDEX by_note ON readings (note, ts) INCLUDE (celsius)`,
		`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)`,
	} {
		if _, err := runSQL(context.Background(), sess, sql); err != nil {
			b.Fatal(err)
		}
	}
	return store, eng, sess
}

// insertPlaceholders is a multi-row INSERT of the readings columns with n
// rows of parameters.
func insertPlaceholders(n int) string {
	var sb strings.Builder
	sb.WriteString("INSERT INTO readings (sensor_id, ts, celsius, lat, lon, note) VALUES ")
	for i := range n {
		if i > 0 {
			sb.WriteString(", ")
		}
		p := i*6 + 1
		fmt.Fprintf(&sb, "($%d, $%d, $%d, $%d, $%d, $%d)", p, p+1, p+2, p+3, p+4, p+5)
	}
	return sb.String()
}

// bulkLoadParams are rows readings rows in the harness's order: every
// sensor once per time slot, slot after slot.
func bulkLoadParams(rows, sensors int) []sqltypes.Value {
	rng := rand.New(rand.NewSource(1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	const slot = int64(7.2 * 3600e6)
	out := make([]sqltypes.Value, 0, rows*6)
	for i := range rows {
		sensor, j := i%sensors, i/sensors
		note := sqltypes.Null
		if rng.Intn(50) != 0 {
			note = sqltypes.NewText(fmt.Sprintf("code-%05d", rng.Intn(rows/100)))
		}
		out = append(out, sqltypes.NewInt(int64(sensor)), sqltypes.NewTimestamp(base+int64(j)*slot+rng.Int63n(slot)),
			sqltypes.NewFloat(15+rng.NormFloat64()*8), sqltypes.NewFloat(40+rng.Float64()), sqltypes.NewFloat(-74.5+rng.Float64()), note)
	}
	return out
}

// settle waits until the process is idle: less than 2 ms of CPU in
// 100 ms, so a benchmark's CPU time includes the store's background
// flushes and compactions that its writes started.
func settle() {
	for {
		c := processCPU()
		time.Sleep(100 * time.Millisecond)
		if processCPU()-c < 2*time.Millisecond {
			return
		}
	}
}

// processCPU is the CPU time (user + system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWireInsert500 sends the side-by-side harness's INSERT through
// the wire server over loopback TCP with pgx, as the harness does: 500
// rows of 6 parameters a statement (bigint, timestamp and double in
// binary, text as text), Bind decoding 3,000 parameters each time, into
// the readings table with a btree and a Z-order index on an in-memory
// store. One op is one statement. Its allocations include pgx's own; its
// CPU (cpu-µs/row, both ends) includes the client's encoding.
func BenchmarkWireInsert500(b *testing.B) {
	t := &testing.T{}
	eng, setup := newSession(t, memStore(t))
	for _, sql := range []string{
		`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION,
			lat DOUBLE PRECISION, lon DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts))`,
		`CREATE INDEX by_note ON readings (note, ts) INCLUDE (celsius)`,
		`CREATE INDEX by_place ON readings USING zorder (lat, lon, ts) INCLUDE (celsius, note)`,
	} {
		if _, err := runSQL(context.Background(), setup, sql); err != nil {
			b.Fatal(err)
		}
	}
	conn := servePgx(b, eng)
	ctx := context.Background()
	const perStmt = 500
	sql := insertPlaceholders(perStmt)
	rng := rand.New(rand.NewSource(1))
	notes := make([]string, 100)
	for i := range notes {
		notes[i] = fmt.Sprintf("n%d", i)
	}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	args := make([]any, perStmt*6)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for it := 0; it < b.N; it++ {
		for i := 0; i < perStmt; i++ {
			a := args[i*6:]
			a[0], a[1] = int64(it), base.Add(time.Duration(i)*time.Minute)
			a[2], a[3], a[4] = 20+rng.Float64(), 40+rng.Float64(), -74+rng.Float64()
			a[5] = notes[rng.Intn(len(notes))]
		}
		if _, err := conn.Exec(ctx, sql, args...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N*perStmt), "cpu-µs/row")
}
