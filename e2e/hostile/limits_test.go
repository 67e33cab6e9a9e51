package hostile

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// TestPreAuthMemory: unauthenticated clients announce 64 MiB password
// messages and send them. zproxy must refuse each after its 5-byte header,
// so its memory stays where it was; without limits, 12 such sockets cost
// the server the 768 MiB they send.
func TestPreAuthMemory(t *testing.T) {
	s := start(t, "--users", "admin:secret")
	const sockets, announced = 12, 64 << 20
	before := s.rss(t)
	var wg sync.WaitGroup
	refused := make(chan string, sockets)
	stopPeak := s.peakRSS(t)
	for range sockets {
		c := dialRaw(t, s)
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.startup("admin")
			if _, ok := c.next().(*pgproto3.AuthenticationOk); ok {
				refused <- "authenticated without a password"
				return
			}
			hdr := []byte{'p', 0, 0, 0, 0}
			binary.BigEndian.PutUint32(hdr[1:], announced)
			c.nc.Write(hdr)
			// The body, as long as the server takes it; the server's
			// answer is read concurrently.
			answer := make(chan pgproto3.BackendMessage, 1)
			go func() { answer <- c.next() }()
			chunk := make([]byte, 1<<20)
			for sent := 0; sent < announced-5; sent += len(chunk) {
				if _, err := c.nc.Write(chunk); err != nil {
					break
				}
			}
			msg := <-answer
			if e, ok := msg.(*pgproto3.ErrorResponse); ok {
				refused <- e.Severity + " " + e.Code
			} else {
				refused <- fmt.Sprintf("%T", msg)
			}
		}()
	}
	wg.Wait()
	after := s.rss(t)
	peak := stopPeak()
	close(refused)
	for r := range refused {
		if r != "FATAL 08P01" {
			t.Errorf("a socket got %s, want FATAL 08P01", r)
		}
	}
	grew := max(peak, after) - before
	t.Logf("RSS %.1f MiB before, %.1f MiB at the peak, %.1f MiB after %d sockets announced %d MiB each",
		before/(1<<20), (before+grew)/(1<<20), after/(1<<20), sockets, announced>>20)
	if grew > 64<<20 {
		t.Errorf("memory grew by %.1f MiB for %d unauthenticated sockets", grew/(1<<20), sockets)
	}
}

// TestManyConnections holds 500 idle sessions while 200 others run
// queries, then reports the memory they take.
func TestManyConnections(t *testing.T) {
	s := start(t, "--max-connections", "800")
	ctx := context.Background()
	admin := s.connect(t, "zproxy", "sslmode=disable")
	if _, err := admin.Exec(ctx, "CREATE TABLE kv (k INT PRIMARY KEY, v TEXT)"); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "INSERT INTO kv VALUES (1, 'one'), (2, 'two'), (3, 'three')"); err != nil {
		t.Fatal(err)
	}
	before := s.rss(t)
	for range 500 {
		c := dialRaw(t, s)
		c.startup("zproxy")
		if errs, open := c.untilReady(); !open || len(errs) > 0 {
			t.Fatalf("idle session: %v", describe(errs))
		}
	}
	idle := s.rss(t)
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			conn, err := pgx.Connect(cctx, s.connString("zproxy", "sslmode=disable"))
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close(ctx)
			for j := range 10 {
				var v string
				if err := conn.QueryRow(cctx, "SELECT v FROM kv WHERE k = $1", (i+j)%3+1).Scan(&v); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("active session: %v", err)
	}
	if n := s.metric(t, "zproxy_connections"); n < 500 {
		t.Errorf("%v connections open, want the 500 idle ones", n)
	}
	t.Logf("RSS %.1f MiB before, %.1f MiB with 500 idle sessions (%.1f KiB each), %.1f MiB after 200 active ones",
		before/(1<<20), idle/(1<<20), (idle-before)/500/1024, s.rss(t)/(1<<20))
}

// TestMaxConnections: the session past --max-connections gets PostgreSQL's
// 53300, and a slot comes free when a session ends.
func TestMaxConnections(t *testing.T) {
	s := start(t, "--max-connections", "3")
	ctx := context.Background()
	var conns []*pgx.Conn
	for range 3 {
		conns = append(conns, s.connect(t, "zproxy", "sslmode=disable"))
	}
	_, err := pgx.Connect(ctx, s.connString("zproxy", "sslmode=disable"))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "53300" || pe.Message != "sorry, too many clients already" {
		t.Fatalf("fourth session: %v, want 53300", err)
	}
	conns[0].Close(ctx)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := pgx.Connect(ctx, s.connString("zproxy", "sslmode=disable"))
		if err == nil {
			c.Close(ctx)
			break
		}
		if time.Now().After(deadline) || !strings.Contains(err.Error(), "53300") {
			t.Fatalf("after a session ended: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
