package session_test

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// BenchmarkSelectPrepared runs the key lookups as prepared statements with
// parameters, the way the wire layer runs an extended-protocol client's
// Bind and Execute: after the first executions the plan cache serves them
// with a generic plan.
func BenchmarkSelectPrepared(b *testing.B) {
	sess := benchTable(b, 20000)
	ts := sqltypes.NewTimestamp(sqltypes.TimestampFromTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)))
	cases := []struct {
		name   string
		sql    string
		params []sqltypes.Value
	}{
		{"point", `SELECT * FROM readings WHERE sensor_id = $1 AND ts = $2`, []sqltypes.Value{sqltypes.NewInt(42), ts}},
		{"latest", `SELECT * FROM readings WHERE sensor_id = $1 ORDER BY ts DESC LIMIT 1`, []sqltypes.Value{sqltypes.NewInt(42)}},
		{"secondary_limit", `SELECT * FROM readings WHERE note = $1 ORDER BY ts LIMIT 5`, []sqltypes.Value{sqltypes.NewText("n7")}},
		// The harness's secondary eq: an index-only scan of one note's
		// entries in (note, ts) INCLUDE (celsius), some 200 rows.
		{"secondary_eq", `SELECT note, ts, celsius FROM readings WHERE note = $1`, []sqltypes.Value{sqltypes.NewText("n7")}},
		// A range scan without a LIMIT that finds a few rows.
		{"range5", `SELECT * FROM readings WHERE sensor_id = $1 AND ts >= $2 AND ts < $3`, []sqltypes.Value{sqltypes.NewInt(42), ts,
			sqltypes.NewTimestamp(sqltypes.TimestampFromTime(time.Date(2024, 1, 1, 0, 5, 0, 0, time.UTC)))}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) { benchQueryParams(b, sess, c.sql, c.params) })
	}
}

// BenchmarkWirePoint runs a point select through the wire server over
// loopback TCP with pgx's cached prepared statement, the side-by-side
// harness's point class in one process: its allocations include pgx's own
// (about a dozen a query) and its CPU profile the socket's system calls.
func BenchmarkWirePoint(b *testing.B) {
	conn := servePgx(b, wireReadings(b))
	ctx := context.Background()
	ts := time.Date(2024, 1, 1, 0, 7, 0, 0, time.UTC)
	var celsius float64
	var note string
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		if err := conn.QueryRow(ctx, `SELECT celsius, note FROM readings WHERE sensor_id = $1 AND ts = $2`, int64(i%200), ts).Scan(&celsius, &note); err != nil {
			b.Fatal(err)
		}
	}
	// Both ends' CPU, the server's and pgx's.
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkWireDescribe runs the key lookups through the wire server the
// way pgbench -M prepared does: Bind with text parameters, Describe of the
// portal, Execute and Sync every execution (pgconn's ExecPrepared), where
// pgx's cached statements leave the Describe out.
func BenchmarkWireDescribe(b *testing.B) {
	conn := servePgx(b, wireReadings(b)).PgConn()
	ctx := context.Background()
	ts := []byte("2024-01-01 00:07:00")
	cases := []struct {
		name, sql string
		params    func(id []byte) [][]byte
	}{
		{"point", `SELECT * FROM readings WHERE sensor_id = $1 AND ts = $2`, func(id []byte) [][]byte { return [][]byte{id, ts} }},
		{"latest", `SELECT * FROM readings WHERE sensor_id = $1 ORDER BY ts DESC LIMIT 1`, func(id []byte) [][]byte { return [][]byte{id} }},
	}
	for _, c := range cases {
		if _, err := conn.Prepare(ctx, c.name, c.sql, nil); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := processCPU()
			for i := 0; i < b.N; i++ {
				res := conn.ExecPrepared(ctx, c.name, c.params(strconv.AppendInt(nil, int64(i%200), 10)), nil, nil).Read()
				if res.Err != nil || len(res.Rows) != 1 {
					b.Fatal(res.Err, len(res.Rows))
				}
			}
			// Both ends' CPU, the server's and pgconn's.
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// wireReadings is an engine with the wire benchmarks' readings table,
// 200 sensors of 100 readings each.
func wireReadings(b *testing.B) *session.Engine {
	t := &testing.T{}
	eng, setup := newSession(t, memStore(t))
	for _, sql := range []string{
		`CREATE TABLE readings (sensor_id BIGINT NOT NULL, ts TIMESTAMP NOT NULL, celsius DOUBLE PRECISION, note TEXT, PRIMARY KEY (sensor_id, ts))`,
		`INSERT INTO readings SELECT g / 100, '2024-01-01'::timestamp + (g % 100) * interval '1 minute', g * 0.5, 'n' || g % 100 FROM generate_series(0, 19999) g`,
	} {
		if _, err := runSQL(context.Background(), setup, sql); err != nil {
			b.Fatal(err)
		}
	}
	return eng
}

// servePgx serves eng's sessions on a loopback port and connects pgx to
// it, as a client of the side-by-side harness connects; the connection
// and the server close when b ends.
func servePgx(b *testing.B, eng *session.Engine) *pgx.Conn {
	srv := wire.NewServer(wire.Config{Auth: wire.AuthTrust}, eng)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go srv.Serve(ln)
	b.Cleanup(func() { srv.Shutdown(context.Background()) })
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "postgres://zproxy@"+ln.Addr().String()+"/postgres?sslmode=disable")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close(ctx) })
	return conn
}
