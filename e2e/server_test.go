package e2e

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/zproxy/zproxy/e2e/harness"
)

// zproxyBin is the binary TestMain builds.
var zproxyBin string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	if os.Getenv("E2E_POSTGRES") != "" {
		return m.Run() // checking the tests against PostgreSQL: no zproxy
	}
	bin, cleanup, err := harness.BuildZproxy(raceEnabled)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer cleanup()
	zproxyBin = bin
	return m.Run()
}

// server is one running zproxy process under a test.
type server struct {
	*harness.Proc
	t       testing.TB
	dataDir string
}

// startServer starts zproxy on dataDir (a fresh temporary directory when
// empty) and waits until it accepts connections. Extra flags follow the
// defaults. The process is killed at the end of the test if still running.
func startServer(t testing.TB, dataDir string, extra ...string) *server {
	t.Helper()
	if dataDir == "" {
		dataDir = t.TempDir()
	}
	args := append([]string{
		"--listen", "127.0.0.1:0",
		"--metrics-listen", "127.0.0.1:0",
		"--data-dir", dataDir,
		"--shutdown-timeout", "20s",
	}, extra...)
	p, err := harness.Start(zproxyBin, args...)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{Proc: p, t: t, dataDir: dataDir}
	t.Cleanup(func() {
		_ = p.Kill()
		if t.Failed() {
			t.Logf("zproxy log (%s):\n%s", dataDir, p.Log())
		}
	})
	return s
}

// ConnString is a pgx connection string for user zproxy. pgx's default
// sslmode (prefer) makes it send an SSLRequest first, which zproxy declines.
func (s *server) ConnString() string {
	host, port := s.HostPort()
	return fmt.Sprintf("host=%s port=%s user=zproxy dbname=zproxy connect_timeout=10", host, port)
}

// Connect opens a pgx connection in its default mode, closed at the end of
// the test.
func (s *server) Connect(t testing.TB) *pgx.Conn {
	t.Helper()
	return s.ConnectMode(t, pgx.QueryExecModeCacheStatement)
}

// ConnectMode opens a pgx connection with the given default exec mode.
func (s *server) ConnectMode(t testing.TB, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(s.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connecting to zproxy at %s: %v", s.Addr(), err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// Stop sends SIGTERM and expects a clean exit.
func (s *server) Stop() {
	s.t.Helper()
	if err := s.Terminate(60 * time.Second); err != nil {
		s.t.Fatalf("%v; log:\n%s", err, s.Log())
	}
}

// Kill sends SIGKILL and waits for the process to die.
func (s *server) Kill() {
	s.t.Helper()
	if err := s.Proc.Kill(); err != nil {
		s.t.Fatal(err)
	}
}

// ctx returns a context bounded for one test step.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// mustExec runs statements that must succeed.
func mustExec(t testing.TB, conn *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := conn.Exec(testCtx(t), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// target is what the pgx tests run against: a fresh zproxy process, or, when
// E2E_POSTGRES holds a connection string, a real PostgreSQL, which checks
// that the tests' expectations are PostgreSQL's (zproxy-only DDL clauses are
// stripped for it).
type target struct {
	srv        *server // nil for PostgreSQL
	connString string
}

func newTarget(t *testing.T, extra ...string) *target {
	t.Helper()
	if pg := os.Getenv("E2E_POSTGRES"); pg != "" {
		return &target{connString: pg}
	}
	s := startServer(t, "", extra...)
	return &target{srv: s, connString: s.ConnString()}
}

// requireZproxy skips tests about zproxy itself (restarts, metrics) when the
// target is PostgreSQL.
func requireZproxy(t *testing.T) {
	if os.Getenv("E2E_POSTGRES") != "" {
		t.Skip("tests zproxy itself; E2E_POSTGRES is set")
	}
}

func (tg *target) Connect(t testing.TB, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(tg.connString)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = mode
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatalf("connecting to %s: %v", tg.connString, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

var (
	createTableName = regexp.MustCompile(`(?i)^\s*CREATE TABLE (\w+)`)
	shardsClause    = regexp.MustCompile(`(?i)\s*WITH \(shards = \d+\)`)
	descKeyColumn   = regexp.MustCompile(`(?i)(\w) DESC\b`)
)

// CreateTable runs a CREATE TABLE written for zproxy. On PostgreSQL it first
// drops a leftover table of the same name and strips the clauses PostgreSQL
// lacks (WITH (shards = N), DESC key columns).
func (tg *target) CreateTable(t testing.TB, conn *pgx.Conn, ddl string) {
	t.Helper()
	if tg.srv == nil {
		m := createTableName.FindStringSubmatch(ddl)
		if m == nil {
			t.Fatalf("no table name in %q", ddl)
		}
		mustExec(t, conn, "DROP TABLE IF EXISTS "+m[1])
		ddl = descKeyColumn.ReplaceAllString(shardsClause.ReplaceAllString(ddl, ""), "$1")
	}
	mustExec(t, conn, ddl)
}

// connectNoticing connects to tg with pgx, passing each notice the server
// sends to onNotice; mode, when set, is the connection's default query
// mode.
func connectNoticing(ctx context.Context, t *testing.T, tg *target, mode pgx.QueryExecMode, onNotice func(*pgconn.Notice)) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(tg.connString)
	if err != nil {
		t.Fatal(err)
	}
	if mode != 0 {
		cfg.DefaultQueryExecMode = mode
	}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { onNotice(n) }
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
