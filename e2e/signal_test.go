package e2e

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestSignalBackends: pg_cancel_backend and pg_terminate_backend reach
// another session as PostgreSQL's reach another backend: a cancel stops
// its statement and leaves it usable, a termination ends it with FATAL
// 57P01 (waiting for that with a timeout), an unknown process ID is false
// with a WARNING, and an ordinary role may signal only sessions of roles
// whose privileges it has, or any with pg_signal_backend, never a
// superuser's.
func TestSignalBackends(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	admin := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	pidOf := func(c *pgx.Conn) int32 {
		var pid int32
		if err := c.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
			t.Fatal(err)
		}
		return pid
	}
	codeOf := func(err error) string {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return pe.Severity + " " + pe.Code
		}
		return fmt.Sprint(err)
	}

	// A cancel stops the running statement only.
	victim := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	vpid := pidOf(victim)
	done := make(chan error, 1)
	go func() { _, err := victim.Exec(ctx, "SELECT pg_sleep(30)"); done <- err }()
	waitActive(t, admin, vpid)
	var ok bool
	if err := admin.QueryRow(ctx, "SELECT pg_cancel_backend($1)", vpid).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_cancel_backend: %v %v", ok, err)
	}
	if err := <-done; codeOf(err) != "ERROR 57014" {
		t.Errorf("the cancelled statement: %v, want ERROR 57014", err)
	}
	if _, err := victim.Exec(ctx, "SELECT 1"); err != nil {
		t.Errorf("the session after a cancel: %v", err)
	}

	// A termination of an idle session: its next statement finds it gone.
	if err := admin.QueryRow(ctx, "SELECT pg_terminate_backend($1)", vpid).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_terminate_backend: %v %v", ok, err)
	}
	if _, err := victim.Exec(ctx, "SELECT 1"); err == nil {
		t.Error("the terminated session still answers")
	}

	// A termination of a busy session, waited for.
	busy := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	bpid := pidOf(busy)
	go func() { _, err := busy.Exec(ctx, "SELECT pg_sleep(30)"); done <- err }()
	waitActive(t, admin, bpid)
	if err := admin.QueryRow(ctx, "SELECT pg_terminate_backend($1, 10000)", bpid).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_terminate_backend with a timeout: %v %v", ok, err)
	}
	if err := <-done; codeOf(err) != "FATAL 57P01" {
		t.Errorf("the terminated statement: %v, want FATAL 57P01", err)
	}
	var n int
	if err := admin.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", bpid).Scan(&n); err != nil || n != 0 {
		t.Errorf("the terminated session is still in pg_stat_activity: %d %v", n, err)
	}

	// A session that terminates itself ends with the FATAL error.
	self := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	if _, err := self.Exec(ctx, "SELECT pg_terminate_backend(pg_backend_pid())"); codeOf(err) != "FATAL 57P01" {
		t.Errorf("terminating itself: %v, want FATAL 57P01", err)
	}

	var warnings []string
	cfg, err := pgx.ParseConfig(tg.connString)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { warnings = append(warnings, n.Severity+": "+n.Message) }
	noticed, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer noticed.Close(context.Background())
	if err := noticed.QueryRow(ctx, "SELECT pg_cancel_backend(2147483647)").Scan(&ok); err != nil || ok {
		t.Errorf("pg_cancel_backend of no session: %v %v, want false", ok, err)
	}
	if len(warnings) != 1 || warnings[0] != "WARNING: PID 2147483647 is not a PostgreSQL backend process" {
		t.Errorf("warnings: %q", warnings)
	}
	if _, err := admin.Exec(ctx, "SELECT pg_terminate_backend(1, -1)"); codeOf(err) != "ERROR 22003" {
		t.Errorf("a negative timeout: %v, want 22003", err)
	}

	// Privileges.
	for _, r := range []string{"signal_a", "signal_b", "signal_c"} {
		mustExec(t, admin, "DROP ROLE IF EXISTS "+r)
		mustExec(t, admin, "CREATE ROLE "+r+" LOGIN")
		t.Cleanup(func() { _, _ = admin.Exec(context.Background(), "DROP ROLE IF EXISTS "+r) })
	}
	mustExec(t, admin, "GRANT pg_signal_backend TO signal_c")
	as := func(role string) *pgx.Conn {
		return (&target{connString: userRE.ReplaceAllString(tg.connString, "user="+role)}).Connect(t, pgx.QueryExecModeSimpleProtocol)
	}
	a, b, c := as("signal_a"), as("signal_b"), as("signal_c")
	apid, adminPID := pidOf(a), pidOf(admin)
	for _, tc := range []struct {
		who  *pgx.Conn
		sql  string
		pid  int32
		want string
	}{
		{b, "SELECT pg_cancel_backend($1)", apid, "must be a member of the role whose query is being canceled or member of pg_signal_backend"},
		{b, "SELECT pg_terminate_backend($1)", apid, "must be a member of the role whose process is being terminated or member of pg_signal_backend"},
		{b, "SELECT pg_cancel_backend($1)", adminPID, "must be a superuser to cancel superuser query"},
		{c, "SELECT pg_terminate_backend($1)", adminPID, "must be a superuser to terminate superuser process"},
		{c, "SELECT pg_cancel_backend($1)", apid, ""},
		{a, "SELECT pg_cancel_backend($1)", apid, "57014"}, // its own statement
	} {
		_, err := tc.who.Exec(ctx, tc.sql, tc.pid)
		var pe *pgconn.PgError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.sql, err)
		case tc.want == "57014":
			if codeOf(err) != "ERROR 57014" {
				t.Errorf("%s of its own session: %v, want 57014", tc.sql, err)
			}
		case tc.want != "" && (!errors.As(err, &pe) || pe.Code != "42501" || pe.Message != tc.want):
			t.Errorf("%s: %v, want 42501 %q", tc.sql, err, tc.want)
		}
	}
}

var userRE = regexp.MustCompile(`user=\S+`)

// waitActive waits until the session with process ID pid runs a
// statement, as pg_stat_activity shows.
func waitActive(t *testing.T, admin *pgx.Conn, pid int32) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var state string
		err := admin.QueryRow(context.Background(), "SELECT state FROM pg_stat_activity WHERE pid = $1", pid).Scan(&state)
		if err == nil && state == "active" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("session %d never became active", pid)
}
