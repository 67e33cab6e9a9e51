package wire

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

func pgxConnect(t *testing.T, addr, userinfo, extra string, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cfg, err := pgx.ParseConfig(fmt.Sprintf("postgres://%s@%s/db?%s", userinfo, addr, extra))
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

var execModes = []pgx.QueryExecMode{
	pgx.QueryExecModeCacheStatement, // pgx's default
	pgx.QueryExecModeCacheDescribe,
	pgx.QueryExecModeDescribeExec,
	pgx.QueryExecModeExec,
}

// TestPgxTypes round-trips a value of every type through pgx: parameters
// go in pgx's preferred format (binary for all but text), results come back
// in it too, and pgx's own codecs decode them.
func TestPgxTypes(t *testing.T) {
	ts := startServer(t, Config{})
	utc := func(y int, m time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, m, d, h, mi, s, ns, time.UTC)
	}
	tests := []struct {
		typ  string
		in   any
		out  func() any // pointer to scan into
		same func(in, got any) bool
	}{
		{"int2", int16(math.MinInt16), func() any { return new(int16) }, nil},
		{"int2", int16(math.MaxInt16), func() any { return new(int16) }, nil},
		{"int4", int32(math.MinInt32), func() any { return new(int32) }, nil},
		{"int4", int32(-7), func() any { return new(int32) }, nil},
		{"int8", int64(math.MaxInt64), func() any { return new(int64) }, nil},
		{"int8", int64(math.MinInt64), func() any { return new(int64) }, nil},
		{"float4", float32(1.5), func() any { return new(float32) }, nil},
		{"float4", float32(math.Inf(-1)), func() any { return new(float32) }, nil},
		{"float4", float32(math.SmallestNonzeroFloat32), func() any { return new(float32) }, nil},
		{"float8", 0.1, func() any { return new(float64) }, nil},
		{"float8", math.MaxFloat64, func() any { return new(float64) }, nil},
		{"float8", math.Copysign(0, -1), func() any { return new(float64) }, func(in, got any) bool {
			return math.Signbit(got.(float64)) && got.(float64) == 0
		}},
		{"float8", math.NaN(), func() any { return new(float64) }, func(in, got any) bool { return math.IsNaN(got.(float64)) }},
		{"bool", true, func() any { return new(bool) }, nil},
		{"bool", false, func() any { return new(bool) }, nil},
		{"text", "héllo, wörld ✓ 'quoted' \\ back", func() any { return new(string) }, nil},
		{"text", "", func() any { return new(string) }, nil},
		{"varchar", "vc", func() any { return new(string) }, nil},
		{"bytea", []byte{0, 1, 0xfe, 0xff}, func() any { return new([]byte) }, nil},
		{"bytea", []byte{}, func() any { return new([]byte) }, nil},
		// pgx cannot send [16]byte or time.Time for a date as text
		// (QueryExecModeExec), so these go as a string and a pgtype.Date.
		{"uuid", "12340000-0000-0000-0000-0000000000ff", func() any { return new([16]byte) }, func(in, got any) bool {
			return got.([16]byte) == [16]byte{0x12, 0x34, 15: 0xff}
		}},
		{"date", date(2024, 2, 29), func() any { return new(time.Time) }, sameDate},
		{"date", date(1969, 12, 31), func() any { return new(time.Time) }, sameDate},
		{"date", date(1800, 1, 1), func() any { return new(time.Time) }, sameDate}, // sqltypes.ParseDate overflows before 1678
		{"timestamp", utc(2024, 1, 1, 10, 0, 0, 123456000), func() any { return new(time.Time) }, nil},
		{"timestamp", utc(1900, 6, 30, 23, 59, 59, 999999000), func() any { return new(time.Time) }, nil},
		{"timestamptz", time.Date(2024, 7, 1, 12, 30, 0, 1000, time.FixedZone("x", 5*3600)), func() any { return new(time.Time) },
			func(in, got any) bool { return in.(time.Time).Equal(got.(time.Time)) }},
	}
	for _, mode := range execModes {
		t.Run(mode.String(), func(t *testing.T) {
			conn := pgxConnect(t, ts.addr, "zproxy", "sslmode=disable", mode)
			ctx := context.Background()
			for _, tt := range tests {
				dst := tt.out()
				if err := conn.QueryRow(ctx, "ECHO "+tt.typ, tt.in).Scan(dst); err != nil {
					t.Errorf("%s %v: %v", tt.typ, tt.in, err)
					continue
				}
				got := derefAny(dst)
				ok := tt.same != nil && tt.same(tt.in, got)
				if tt.same == nil {
					ok = fmt.Sprintf("%#v", got) == fmt.Sprintf("%#v", tt.in)
				}
				if !ok {
					t.Errorf("%s: sent %#v, got back %#v", tt.typ, tt.in, got)
				}
			}
			// NULL of every type.
			for _, typ := range []string{"int2", "int4", "int8", "float4", "float8", "bool", "text", "varchar", "bytea", "uuid", "date", "timestamp", "timestamptz"} {
				var got any = "not null"
				if err := conn.QueryRow(ctx, "ECHO "+typ, nil).Scan(&got); err != nil || got != nil {
					t.Errorf("NULL %s: got %v, %v", typ, got, err)
				}
			}
			// Several parameters and columns at once.
			var a int64
			var b string
			var c pgtype.UUID
			if err := conn.QueryRow(ctx, "ECHO int8 text uuid", 42, "x", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11").Scan(&a, &b, &c); err != nil {
				t.Fatal(err)
			}
			if a != 42 || b != "x" || fmt.Sprintf("%x", c.Bytes) != "a0eebc999c0b4ef8bb6d6bb9bd380a11" {
				t.Errorf("got %v %v %x", a, b, c.Bytes)
			}
		})
	}
}

func date(y int, m time.Month, d int) pgtype.Date {
	return pgtype.Date{Time: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), Valid: true}
}

func sameDate(in, got any) bool { return in.(pgtype.Date).Time.Equal(got.(time.Time)) }

func derefAny(p any) any {
	switch v := p.(type) {
	case *int16:
		return *v
	case *int32:
		return *v
	case *int64:
		return *v
	case *float32:
		return *v
	case *float64:
		return *v
	case *bool:
		return *v
	case *string:
		return *v
	case *[]byte:
		return *v
	case *[16]byte:
		return *v
	case *time.Time:
		return *v
	}
	panic(fmt.Sprintf("unexpected %T", p))
}

// TestPgxErrors checks codes, positions and fields pgx reports, and that the
// connection stays usable after each error.
func TestPgxErrors(t *testing.T) {
	ts := startServer(t, Config{})
	for _, mode := range execModes {
		t.Run(mode.String(), func(t *testing.T) {
			conn := pgxConnect(t, ts.addr, "zproxy", "sslmode=disable", mode)
			ctx := context.Background()
			tests := []struct {
				sql      string
				args     []any
				code     string
				position int32
			}{
				{sql: "FAIL 42703 8", code: "42703", position: 8},
				{sql: "SYNTAX here", code: "42601", position: 1},
				{sql: "DESCFAIL", code: "42P01", position: 10},
				{sql: "ECHO int4", args: []any{"abc"}, code: "22P02"},
				{sql: "ECHO int2", args: []any{int64(70000)}, code: "22003"},
				{sql: "JOIN", code: "0A000"},
				{sql: "PANIC", code: "XX000"},
				{sql: "INSERT; INSERT", code: "42601"},
			}
			for _, tt := range tests {
				var n int64
				err := conn.QueryRow(ctx, tt.sql, tt.args...).Scan(&n)
				var pe *pgconn.PgError
				if !errors.As(err, &pe) {
					// pgx itself may refuse some arguments before sending.
					if tt.code == "22P02" || tt.code == "22003" {
						continue
					}
					t.Errorf("%s: error %v is not a *pgconn.PgError", tt.sql, err)
					continue
				}
				if pe.Code != tt.code || pe.Position != tt.position || pe.Severity != "ERROR" {
					t.Errorf("%s: got %s %q at %d, want %s at %d", tt.sql, pe.Code, pe.Message, pe.Position, tt.code, tt.position)
				}
				if tt.code == "42703" && (pe.Detail != "some detail" || pe.Hint != "some hint") {
					t.Errorf("detail %q hint %q", pe.Detail, pe.Hint)
				}
				if err := conn.QueryRow(ctx, "SERIES 1").Scan(&n); err != nil || n != 1 {
					t.Errorf("after %s: %v, %d", tt.sql, err, n)
				}
			}
		})
	}
}

func TestPgxSession(t *testing.T) {
	ts := startServer(t, Config{})
	var notices []string
	ctx := context.Background()
	cfg, err := pgx.ParseConfig("postgres://zproxy@" + ts.addr + "/db?sslmode=prefer&application_name=pgxtest")
	if err != nil {
		t.Fatal(err)
	}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Severity+" "+n.Message) }
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)

	if v := conn.PgConn().ParameterStatus("server_version"); v != DefaultServerVersion {
		t.Errorf("server_version %q", v)
	}
	if v := conn.PgConn().ParameterStatus("application_name"); v != "pgxtest" {
		t.Errorf("application_name %q", v)
	}
	rows, err := conn.Query(ctx, "NOTICE careful")
	if err != nil {
		t.Fatal(err)
	}
	ns, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil || len(ns) != 2 {
		t.Fatalf("rows %v, %v", ns, err)
	}
	if len(notices) != 1 || notices[0] != "NOTICE careful" {
		t.Errorf("notices %q", notices)
	}

	tag, err := conn.Exec(ctx, "INSERT")
	if err != nil || tag.String() != "INSERT 0 1" || tag.RowsAffected() != 1 {
		t.Errorf("Exec: %v, %v", tag, err)
	}
	if _, err := conn.Exec(ctx, "SET search_path myschema"); err != nil {
		t.Fatal(err)
	}
	if v := conn.PgConn().ParameterStatus("search_path"); v != "myschema" {
		t.Errorf("search_path after SET: %q", v)
	}

	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s := conn.PgConn().TxStatus(); s != 'T' {
		t.Errorf("in transaction: status %c", s)
	}
	if _, err := tx.Exec(ctx, "FAIL 23505"); err == nil {
		t.Error("FAIL succeeded")
	}
	if s := conn.PgConn().TxStatus(); s != 'E' {
		t.Errorf("after a failure: status %c", s)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if s := conn.PgConn().TxStatus(); s != 'I' {
		t.Errorf("after rollback: status %c", s)
	}

	// Batches pipeline several statements in one round trip.
	batch := &pgx.Batch{}
	for i := 1; i <= 3; i++ {
		batch.Queue("ECHO int4", i)
	}
	br := conn.SendBatch(ctx, batch)
	for i := 1; i <= 3; i++ {
		var n int32
		if err := br.QueryRow().Scan(&n); err != nil || n != int32(i) {
			t.Errorf("batch %d: %d, %v", i, n, err)
		}
	}
	if err := br.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestPgxPassword(t *testing.T) {
	ts := startServer(t, Config{Auth: AuthSCRAM})
	ts.eng.addRole(t, "zproxy", "s3cret", true, true)
	conn := pgxConnect(t, ts.addr, "zproxy:s3cret", "sslmode=disable", pgx.QueryExecModeCacheStatement)
	var n int64
	if err := conn.QueryRow(context.Background(), "SERIES 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d, %v", n, err)
	}
	_, err := pgx.Connect(context.Background(), "postgres://zproxy:wrong@"+ts.addr+"/db?sslmode=disable")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "28P01" || pe.Severity != "FATAL" {
		t.Errorf("wrong password: %v", err)
	}
}

func TestPgxCancel(t *testing.T) {
	ts := startServer(t, Config{})
	conn := pgxConnect(t, ts.addr, "zproxy", "sslmode=disable", pgx.QueryExecModeCacheStatement)
	ctx := context.Background()
	done := make(chan error, 1)
	go func() {
		_, err := conn.Exec(ctx, "SLEEP")
		done <- err
	}()
	<-ts.eng.started
	if err := conn.PgConn().CancelRequest(ctx); err != nil {
		t.Fatal(err)
	}
	var pe *pgconn.PgError
	if err := <-done; !errors.As(err, &pe) || pe.Code != "57014" {
		t.Fatalf("canceled statement: %v", err)
	}
	var n int64
	if err := conn.QueryRow(ctx, "SERIES 1").Scan(&n); err != nil || n != 1 {
		t.Errorf("after cancel: %d, %v", n, err)
	}
}
