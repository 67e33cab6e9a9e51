package hostile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// slowQuery reads every row of table big and works on each (zproxy has no
// pg_sleep): a statement that runs for seconds without sending anything.
const slowQuery = "SELECT count(*) FROM big WHERE note || note || note || note LIKE '%nomatch%'"

// slowServer starts zproxy with table big, filled so that slowQuery takes
// at least a second, and returns how long slowQuery takes.
func slowServer(t *testing.T, extra ...string) (*server, time.Duration) {
	t.Helper()
	s := start(t, extra...)
	ctx := context.Background()
	conn := s.connect(t, "zproxy", "sslmode=disable")
	if _, err := conn.Exec(ctx, "CREATE TABLE big (id BIGINT PRIMARY KEY, note TEXT) WITH (shards = 4)"); err != nil {
		t.Fatal(err)
	}
	rows := 0
	for {
		var b strings.Builder
		b.WriteString("INSERT INTO big VALUES ")
		for i := range 1000 {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%d, '%s')", rows+i, strings.Repeat(fmt.Sprintf("row %d ", rows+i), 8))
		}
		if _, err := conn.Exec(ctx, b.String()); err != nil {
			t.Fatal(err)
		}
		rows += 1000
		if rows%20000 != 0 {
			continue
		}
		start := time.Now()
		if _, err := conn.Exec(ctx, slowQuery); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > time.Second || rows >= 400000 {
			t.Logf("slow query: %v over %d rows", d, rows)
			return s, d
		}
	}
}

// TestStatementTimeout: statement_timeout, set by SET, by the startup
// options or as a startup parameter, cancels the statement with 57014 and
// PostgreSQL's message; the session goes on.
func TestStatementTimeout(t *testing.T) {
	s, full := slowServer(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, conn, set string
	}{
		{"SET", "sslmode=disable", "SET statement_timeout = '200ms'"},
		{"options -c", "sslmode=disable options='-c statement_timeout=200ms'", ""},
		{"startup parameter", "sslmode=disable statement_timeout=200", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn := s.connect(t, "zproxy", tc.conn)
			if tc.set != "" {
				if _, err := conn.Exec(ctx, tc.set); err != nil {
					t.Fatal(err)
				}
			}
			var shown string
			if err := conn.QueryRow(ctx, "SHOW statement_timeout").Scan(&shown); err != nil || shown != "200ms" {
				t.Fatalf("SHOW statement_timeout = %q, %v", shown, err)
			}
			start := time.Now()
			_, err := conn.Exec(ctx, slowQuery)
			took := time.Since(start)
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to statement timeout" {
				t.Fatalf("slow query under a 200ms timeout: %v after %v (it takes %v)", err, took, full)
			}
			// The 57014 itself shows the timer fired: the query would
			// otherwise have succeeded. How soon the statement stops after
			// that is up to the executor's loops (and the machine's load).
			t.Logf("canceled after %v; the whole query took %v", took.Round(time.Millisecond), full.Round(time.Millisecond))
			var one int
			if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
				t.Errorf("after the timeout: %v", err)
			}
		})
	}
}

// TestCancelMessage: a CancelRequest gives PostgreSQL's message, without
// Go's wording of a canceled context.
func TestCancelMessage(t *testing.T) {
	s, _ := slowServer(t)
	conn := s.connect(t, "zproxy", "sslmode=disable")
	go func() {
		time.Sleep(300 * time.Millisecond)
		_ = conn.PgConn().CancelRequest(context.Background())
	}()
	_, err := conn.Exec(context.Background(), slowQuery)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to user request" {
		t.Fatalf("canceled query: %v", err)
	}
}

// TestIdleInTransactionTimeout: a session idle inside a transaction block
// is closed with FATAL 25P03; outside a block it is left alone.
func TestIdleInTransactionTimeout(t *testing.T) {
	s := start(t)
	ctx := context.Background()
	conn := s.connect(t, "zproxy", "sslmode=disable")
	if _, err := conn.Exec(ctx, "SET idle_in_transaction_session_timeout = '300ms'"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond)
	if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
		t.Fatalf("idle outside a block: %v", err)
	}
	time.Sleep(900 * time.Millisecond)
	_, err := conn.Exec(ctx, "SELECT 1")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "25P03" || pe.Severity != "FATAL" ||
		pe.Message != "terminating connection due to idle-in-transaction timeout" {
		t.Fatalf("after idling in a transaction: %v", err)
	}
	if !conn.IsClosed() {
		t.Error("the connection is still open")
	}
}

// TestClientDisconnectStopsStatement: when the client of a running
// statement hangs up, zproxy notices within a few of its 100 ms checks and
// cancels the statement (08006 "connection to client lost"), without
// waiting for it to end or to write; what a client still connected has
// pipelined is not lost to the checks.
func TestClientDisconnectStopsStatement(t *testing.T) {
	s, full := slowServer(t, "--log-level", "debug")
	c := dialRaw(t, s)
	c.startup("zproxy")
	c.untilReady()
	before := s.metric(t, "zproxy_errors_total", "sqlstate=08006")
	c.send(&pgproto3.Query{String: slowQuery})
	time.Sleep(200 * time.Millisecond)
	c.nc.Close()
	hungUp := time.Now()
	const noticed = "the client hung up; canceling its statement"
	for !strings.Contains(s.Log(), noticed) {
		if time.Since(hungUp) > 2*time.Second {
			t.Fatalf("zproxy did not notice within 2s that the client of a running statement hung up")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("noticed %v after the client hung up", time.Since(hungUp).Round(time.Millisecond))
	for s.metric(t, "zproxy_errors_total", "sqlstate=08006") == before {
		if time.Since(hungUp) > 4*full+10*time.Second {
			t.Fatalf("the statement of a client that hung up did not end with 08006")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// How soon the statement itself stops after its context is canceled is
	// the executor's: its loops check the context.
	t.Logf("the statement ended %v after the client hung up; it takes %v", time.Since(hungUp).Round(time.Millisecond), full.Round(time.Millisecond))

	c2 := dialRaw(t, s)
	c2.startup("zproxy")
	c2.untilReady()
	c2.send(&pgproto3.Query{String: "SELECT count(*) FROM big WHERE id < 10"}, &pgproto3.Query{String: "SELECT 2"})
	for i := range 2 {
		if errs, open := c2.untilReady(); !open || len(errs) > 0 {
			t.Fatalf("pipelined query %d: %v", i+1, describe(errs))
		}
	}
}
