package hostile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// TestSlowStartups: 200 clients send their startup packet a byte a second
// (PostgreSQL's authentication_timeout closes them after a minute). They
// must not take max_connections' 100 slots: a real client still logs in
// and runs queries beside them, as it does in PostgreSQL, whose postmaster
// admits them apart from its backends.
func TestSlowStartups(t *testing.T) {
	s := start(t, "--users", "admin:adm1n-Secret")
	const slow = 200
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	// A startup packet whose length says 40 bytes, sent a byte at a time.
	packet := []byte{0, 0, 0, 40, 0, 3, 0, 0}
	refused := make(chan string, slow)
	for range slow {
		c := dialRaw(t, s)
		_ = c.nc.SetDeadline(time.Time{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				if _, err := c.nc.Write(packet[i%len(packet) : i%len(packet)+1]); err != nil {
					refused <- err.Error()
					return
				}
				select {
				case <-stop:
					return
				case <-time.After(time.Second):
				}
			}
		}()
	}
	// Give the server time to accept them all: the slow clients are
	// admitted at once, so a second or two is plenty even when loaded.
	time.Sleep(2 * time.Second)
	for i := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		conn, err := pgx.Connect(ctx, s.connString("admin", "password=adm1n-Secret sslmode=disable"))
		if err != nil {
			cancel()
			t.Fatalf("login %d beside %d slow startups: %v", i, slow, err)
		}
		var n int
		if err := conn.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
			t.Errorf("query beside slow startups: %v", err)
		}
		conn.Close(ctx)
		cancel()
	}
	select {
	case err := <-refused:
		t.Errorf("a slow startup was cut off before authentication_timeout: %s", err)
	default:
	}
}

// TestAuthenticationTimeout: a connection that has not completed startup
// and authentication within authentication_timeout is closed without a
// word, as PostgreSQL closes it: silent, trickling a byte at a time, or
// stalled at the password prompt. SHOW and pg_settings show the setting as
// PostgreSQL does.
func TestAuthenticationTimeout(t *testing.T) {
	s := start(t, "--users", "admin:adm1n-Secret", "--authentication-timeout", "2")
	admin := s.connect(t, "admin", "password=adm1n-Secret sslmode=disable")
	ctx := context.Background()
	var show, setting, unit, context string
	if err := admin.QueryRow(ctx, "SHOW authentication_timeout").Scan(&show); err != nil || show != "2s" {
		t.Errorf("SHOW authentication_timeout: %q, %v", show, err)
	}
	if err := admin.QueryRow(ctx, "SELECT setting, unit, context FROM pg_settings WHERE name = 'authentication_timeout'").Scan(&setting, &unit, &context); err != nil ||
		setting != "2" || unit != "s" || context != "sighup" {
		t.Errorf("pg_settings: %q %q %q, %v", setting, unit, context, err)
	}
	if _, err := admin.Exec(ctx, "SET authentication_timeout = 5"); sqlstate(err) != "55P02" {
		t.Errorf("SET authentication_timeout: %v", err)
	}

	closedAfter := func(c *raw) (time.Duration, []byte) {
		start := time.Now()
		b, _ := io.ReadAll(c.nc)
		return time.Since(start), b
	}
	var wg sync.WaitGroup
	report := make(chan string, 3)
	check := func(what string, c *raw, setup func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			setup()
			d, b := closedAfter(c)
			if d > 20*time.Second {
				report <- fmt.Sprintf("%s: closed after %v", what, d)
			} else if len(b) > 0 {
				report <- fmt.Sprintf("%s: got %q before the close, want nothing", what, b)
			}
		}()
	}
	silent := dialRaw(t, s)
	check("silent client", silent, func() {})
	trickle := dialRaw(t, s)
	stop := make(chan struct{})
	check("trickling client", trickle, func() {
		go func() {
			for _, b := range []byte{0, 0, 0, 40, 0, 3, 0, 0, 'u', 's', 'e', 'r', 0} {
				if _, err := trickle.nc.Write([]byte{b}); err != nil {
					return
				}
				select {
				case <-stop:
					return
				case <-time.After(300 * time.Millisecond):
				}
			}
		}()
	})
	// Timed from before the dial: the server's clock starts at accept.
	start := time.Now()
	stalled := dialRaw(t, s)
	stalled.startup("admin")
	if _, ok := stalled.next().(*pgproto3.AuthenticationSASL); !ok {
		t.Fatal("no password prompt")
	}
	check("client stalled at the password prompt", stalled, func() {})
	wg.Wait()
	close(stop)
	close(report)
	for r := range report {
		t.Error(r)
	}
	if d := time.Since(start); d < 2*time.Second {
		t.Errorf("stalled client closed after %v, before authentication_timeout", d)
	}
	// A session that has logged in is not subject to it.
	time.Sleep(time.Second)
	if _, err := admin.Exec(ctx, "SELECT 1"); err != nil {
		t.Errorf("session after authentication_timeout: %v", err)
	}
}

// TestSuperuserReservedConnections: with max_connections 4 and 2 slots
// reserved, an ordinary role gets in while 3 slots are free, is refused
// with PostgreSQL's 53300 message when only the reserve remains, and a
// superuser still gets in; past all slots everyone is "too many clients".
func TestSuperuserReservedConnections(t *testing.T) {
	s := start(t, "--users", "admin:adm1n-Secret", "--max-connections", "4", "--superuser-reserved-connections", "2")
	ctx := context.Background()
	admin := s.connect(t, "admin", "password=adm1n-Secret sslmode=disable")
	if _, err := admin.Exec(ctx, "CREATE ROLE bob LOGIN PASSWORD 'b0b-Secret'"); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"superuser_reserved_connections": "2", "max_connections": "4"} {
		var got string
		if err := admin.QueryRow(ctx, "SHOW "+name).Scan(&got); err != nil || got != want {
			t.Errorf("SHOW %s: %q, %v", name, got, err)
		}
	}
	try := func(user, password string) (*pgx.Conn, error) {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(cctx, s.connString(user, "password="+password+" sslmode=disable"))
		if err == nil {
			t.Cleanup(func() { c.Close(context.Background()) })
		}
		return c, err
	}
	wantRefused := func(who string, err error, msg string) {
		t.Helper()
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "53300" || pe.Message != msg || pe.Severity != "FATAL" {
			t.Errorf("%s: %v, want FATAL 53300 %q", who, err, msg)
		}
	}
	if _, err := try("bob", "b0b-Secret"); err != nil {
		t.Fatalf("ordinary role with 3 slots free: %v", err)
	}
	_, err := try("bob", "b0b-Secret")
	wantRefused("ordinary role into the reserve", err, "remaining connection slots are reserved for non-replication superuser connections")
	for i := range 2 {
		if _, err := try("admin", "adm1n-Secret"); err != nil {
			t.Fatalf("superuser %d into the reserve: %v", i, err)
		}
	}
	_, err = try("admin", "adm1n-Secret")
	wantRefused("superuser past max_connections", err, "sorry, too many clients already")
	_, err = try("bob", "b0b-Secret")
	wantRefused("ordinary role past max_connections", err, "sorry, too many clients already")
	// A wrong password is still a wrong password, not a slot question.
	if _, err := try("bob", "wrong"); sqlstate(err) != "28P01" {
		t.Errorf("wrong password at the limit: %v", err)
	}
}

// TestNotifyFlood: NOTIFYs to a listener that never reads fill the NOTIFY
// queue (16 MiB by default) and then fail with PostgreSQL's 54000, instead
// of growing the server by the size of the flood (799 MB for 100,000 8 kB
// NOTIFYs before the queue had a bound). The notifying session and the
// others go on; once the listener reads, or hangs up, NOTIFY works again.
func TestNotifyFlood(t *testing.T) {
	const queue = 16 << 20 // the default
	s := start(t)
	ctx := context.Background()
	listener := dialRaw(t, s)
	_ = listener.nc.SetDeadline(time.Time{})
	listener.startup("zproxy")
	if errs, open := listener.untilReady(); !open || len(errs) > 0 {
		t.Fatalf("listener: %v", describe(errs))
	}
	listener.send(&pgproto3.Query{String: "LISTEN flood"})
	if errs, open := listener.untilReady(); !open || len(errs) > 0 {
		t.Fatalf("LISTEN: %v", describe(errs))
	}
	notifier := s.connect(t, "zproxy", "sslmode=disable")
	bystander := s.connect(t, "zproxy", "sslmode=disable")
	payload := strings.Repeat("n", 7999)
	before := s.rss(t)

	// flood NOTIFYs until the queue is full and a hundred more fail;
	// it returns how many went through.
	flood := func() int {
		t.Helper()
		sent, failed := 0, 0
		for failed < 100 {
			_, err := notifier.Exec(ctx, "NOTIFY flood, '"+payload+"'")
			switch {
			case err == nil && failed == 0:
				sent++
				if sent > 100000 {
					t.Fatalf("%d NOTIFYs of 8 kB to a listener that does not read, and no 54000", sent)
				}
			case err == nil:
				t.Fatalf("a NOTIFY went through after the queue was full")
			default:
				var pe *pgconn.PgError
				if !errors.As(err, &pe) || pe.Code != "54000" || pe.Message != "too many notifications in the NOTIFY queue" {
					t.Fatalf("NOTIFY %d: %v, want 54000", sent, err)
				}
				failed++
			}
		}
		return sent
	}
	sent := flood()
	grew := s.rss(t) - before
	t.Logf("%d NOTIFYs of 8 kB queued, then 54000; RSS grew %.1f MiB", sent, grew/(1<<20))
	// The Go collector lets the heap grow to five times what is live
	// (--gc-percent 400) before it collects the flood's garbage; the race
	// detector's shadow memory would blur the figure.
	if grew > queue+112<<20 && !raceEnabled {
		t.Errorf("RSS grew %.1f MiB for a %d MiB NOTIFY queue", grew/(1<<20), queue>>20)
	}
	var usage float64
	if err := bystander.QueryRow(ctx, "SELECT pg_notification_queue_usage()").Scan(&usage); err != nil || usage < 0.9 || usage > 1 {
		t.Errorf("pg_notification_queue_usage(): %v, %v", usage, err)
	}
	// The queue is everyone's: another session's NOTIFY fails too, but
	// its other statements and the notifier's do not.
	if _, err := bystander.Exec(ctx, "NOTIFY flood, '"+payload+"'"); sqlstate(err) != "54000" {
		t.Errorf("another session's NOTIFY into the full queue: %v", err)
	}
	for _, c := range []*pgx.Conn{notifier, bystander} {
		var n int
		if err := c.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil {
			t.Errorf("a session beside the full queue: %v", err)
		}
	}
	fresh := s.connect(t, "zproxy", "sslmode=disable")
	if _, err := fresh.Exec(ctx, "CREATE TABLE t (k INT PRIMARY KEY)"); err != nil {
		t.Errorf("a new session beside the full queue: %v", err)
	}

	// The listener reads them all, in order; the room comes back.
	_ = listener.nc.SetDeadline(time.Now().Add(120 * time.Second))
	for i := range sent {
		n, ok := listener.next().(*pgproto3.NotificationResponse)
		if !ok || n.Channel != "flood" || n.Payload != payload {
			t.Fatalf("notification %d of %d did not arrive", i, sent)
		}
	}
	waitEmpty := func(what string) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			if err := notifier.QueryRow(ctx, "SELECT pg_notification_queue_usage()").Scan(&usage); err != nil {
				t.Fatal(err)
			}
			if usage == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("queue still %.3f full after %s", usage, what)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if _, err := notifier.Exec(ctx, "NOTIFY flood, 'again'"); err != nil {
			t.Errorf("NOTIFY after %s: %v", what, err)
		}
	}
	waitEmpty("the listener read")
	if n, ok := listener.next().(*pgproto3.NotificationResponse); !ok || n.Payload != "again" {
		t.Errorf("the listener did not get the NOTIFY after the flood")
	}

	// Flood again; this time the listener hangs up.
	flood()
	listener.nc.Close()
	waitEmpty("the listener hung up")
}
