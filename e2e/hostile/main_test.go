package hostile

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/zproxy/zproxy/e2e/harness"
)

// zproxyBin is the binary under test.
var zproxyBin string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	if bin := os.Getenv("HOSTILE_ZPROXY_BIN"); bin != "" {
		zproxyBin = bin
		return m.Run()
	}
	bin, cleanup, err := harness.BuildZproxy(raceEnabled)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		return 1
	}
	defer cleanup()
	zproxyBin = bin
	return m.Run()
}

// server is one zproxy process under a test.
type server struct {
	*harness.Proc
	dataDir string
}

// start runs zproxy on a fresh data directory with a loopback listener and
// a metrics endpoint, plus extra flags; it is killed at the end of the test.
func start(t testing.TB, extra ...string) *server {
	t.Helper()
	s, err := tryStart(t, extra...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tryStart is start returning the error of a process that does not start.
// Later flags win, so extra may override the defaults.
func tryStart(t testing.TB, extra ...string) (*server, error) {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--data-dir", dir,
		"--shutdown-timeout", "10s"}, extra...)
	p, err := harness.Start(zproxyBin, args...)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() {
		_ = p.Kill()
		if t.Failed() {
			t.Logf("zproxy log:\n%s", p.Log())
		}
	})
	return &server{Proc: p, dataDir: dir}, nil
}

// hostPort is the listener's host and port; a wildcard listener is
// reached through loopback.
func (s *server) hostPort() (string, string) {
	host, port := s.HostPort()
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return host, port
}

// connString is a libpq connection string for user with extra settings.
func (s *server) connString(user, extra string) string {
	host, port := s.hostPort()
	return fmt.Sprintf("host=%s port=%s user=%s dbname=zproxy connect_timeout=10 %s", host, port, user, extra)
}

// connect opens a pgx connection, closed at the end of the test.
func (s *server) connect(t testing.TB, user, extra string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.connString(user, extra))
	if err != nil {
		t.Fatalf("connecting as %s: %v", user, err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// metric returns the sum of a metric's samples whose labels include all of
// labels ("sqlstate=57014").
func (s *server) metric(t testing.TB, name string, labels ...string) float64 {
	t.Helper()
	v, err := s.scrape(name, labels...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// metricsClient opens a connection per scrape: a reused one may meet a
// server that just closed it.
var metricsClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}

// scrape is metric returning its error, for goroutines other than the
// test's.
func (s *server) scrape(name string, labels ...string) (float64, error) {
	resp, err := metricsClient.Get(s.MetricsURL())
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return 0, err
	}
	total := 0.0
	mf := families[name]
	if mf == nil {
		return 0, nil
	}
	for _, m := range mf.Metric {
		have := map[string]string{}
		for _, l := range m.Label {
			have[l.GetName()] = l.GetValue()
		}
		match := true
		for _, l := range labels {
			k, v, _ := strings.Cut(l, "=")
			match = match && have[k] == v
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			total += m.Counter.GetValue()
		case m.Gauge != nil:
			total += m.Gauge.GetValue()
		case m.Untyped != nil:
			total += m.Untyped.GetValue()
		}
	}
	return total, nil
}

// rss is the server's resident memory in bytes.
func (s *server) rss(t testing.TB) float64 {
	return s.metric(t, "process_resident_memory_bytes")
}

// peakRSS samples the server's resident memory every 50 ms until stop is
// called, which returns the highest sample.
func (s *server) peakRSS(t *testing.T) (stop func() float64) {
	peak := s.rss(t)
	var mu sync.Mutex
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
				if r, err := s.scrape("process_resident_memory_bytes"); err == nil {
					mu.Lock()
					peak = max(peak, r)
					mu.Unlock()
				}
			}
		}
	}()
	return func() float64 {
		close(done)
		<-finished
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// sqlstate returns err's SQLSTATE, or "".
func sqlstate(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// raw is a client speaking the protocol byte by byte.
type raw struct {
	t  testing.TB
	nc net.Conn
	fe *pgproto3.Frontend
}

func dialRaw(t testing.TB, s *server) *raw {
	t.Helper()
	host, port := s.hostPort()
	nc, err := net.Dial("tcp", net.JoinHostPort(host, port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	return &raw{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
}

// startup sends a StartupMessage for user with extra parameters.
func (c *raw) startup(user string, params ...string) {
	c.t.Helper()
	p := map[string]string{"user": user, "database": "zproxy"}
	for i := 0; i+1 < len(params); i += 2 {
		p[params[i]] = params[i+1]
	}
	c.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30, Parameters: p})
}

func (c *raw) send(msgs ...pgproto3.FrontendMessage) {
	c.t.Helper()
	for _, m := range msgs {
		c.fe.Send(m)
	}
	if err := c.fe.Flush(); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

func (c *raw) write(b []byte) {
	c.t.Helper()
	if _, err := c.nc.Write(b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// next reads one message; nil when the connection ended.
func (c *raw) next() pgproto3.BackendMessage {
	msg, err := c.fe.Receive()
	if err != nil {
		return nil
	}
	return msg
}

// untilReady reads up to ReadyForQuery and returns the errors seen on the
// way and whether the connection is still open.
func (c *raw) untilReady() (errs []*pgproto3.ErrorResponse, open bool) {
	c.t.Helper()
	for {
		switch m := c.next().(type) {
		case nil:
			return errs, false
		case *pgproto3.ErrorResponse:
			cp := *m
			errs = append(errs, &cp)
		case *pgproto3.ReadyForQuery:
			return errs, true
		}
	}
}

// requireTool returns the path of an executable, or skips the test (fails
// it when CI=true).
func requireTool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed, and CI=true (scripts/install-test-deps.sh installs it)", name)
		}
		t.Skipf("%s is not installed", name)
	}
	return path
}
