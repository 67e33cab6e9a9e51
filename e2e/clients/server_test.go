package clients

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zproxy/zproxy/e2e/harness"
)

// zproxyBin is the binary TestMain builds.
var zproxyBin string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	bin, cleanup, err := harness.BuildZproxy(raceEnabled)
	if err != nil {
		fmt.Fprintln(os.Stderr, "clients:", err)
		return 1
	}
	defer cleanup()
	zproxyBin = bin
	return m.Run()
}

// server is one running zproxy process.
type server struct {
	host, port string
	cmd        *exec.Cmd
	exited     chan struct{}
	waitErr    error

	mu  sync.Mutex
	log bytes.Buffer // the process's stderr
}

// The port range the tests listen on: below Linux's ephemeral range
// (32768-60999), where the kernel hands out ports to outgoing connections,
// so a port found free stays free.
const (
	lowPort  = 20000
	highPort = 32000
)

// startServer starts zproxy with a fresh data directory on a free port and
// waits until it listens. It is stopped with SIGTERM at the end of the test,
// which must end it cleanly.
func startServer(t *testing.T) *server {
	t.Helper()
	var lastLog string
	for attempt := 0; attempt < 8; attempt++ {
		s, err := tryStartServer(t, freePort(t))
		if err == nil {
			return s
		}
		if !errors.Is(err, errPortTaken) {
			t.Fatal(err)
		}
		lastLog = err.Error()
	}
	t.Fatalf("no free port found for zproxy: %s", lastLog)
	return nil
}

var errPortTaken = errors.New("port taken")

// freePort returns a port in [lowPort, highPort) that nothing listens on at
// the moment.
func freePort(t *testing.T) int {
	t.Helper()
	for range 100 {
		port := lowPort + rand.IntN(highPort-lowPort)
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err == nil {
			l.Close()
			return port
		}
	}
	t.Fatalf("no free port in [%d, %d) after 100 tries", lowPort, highPort)
	return 0
}

func tryStartServer(t *testing.T, port int) (*server, error) {
	s := &server{host: "127.0.0.1", port: strconv.Itoa(port), exited: make(chan struct{})}
	s.cmd = exec.Command(zproxyBin,
		"--listen", net.JoinHostPort(s.host, s.port),
		"--metrics-listen", "",
		"--data-dir", t.TempDir(),
		"--shutdown-timeout", "20s")
	s.cmd.Env = cleanEnv()
	ready := make(chan struct{})
	s.cmd.Stderr = &logWriter{s: s, ready: ready}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting zproxy: %v", err)
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	select {
	case <-ready:
	case <-s.exited:
		if strings.Contains(s.Log(), "address already in use") {
			return nil, fmt.Errorf("%w: %s", errPortTaken, s.Log())
		}
		return nil, fmt.Errorf("zproxy exited during start-up (%v); log:\n%s", s.waitErr, s.Log())
	case <-time.After(60 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
		return nil, fmt.Errorf("zproxy did not start listening within 60s; log:\n%s", s.Log())
	}
	t.Cleanup(func() { s.stop(t) })
	return s, nil
}

// stop sends SIGTERM and expects a clean exit.
func (s *server) stop(t *testing.T) {
	select {
	case <-s.exited:
		t.Errorf("zproxy exited before the end of the test (%v); log:\n%s", s.waitErr, s.Log())
		return
	default:
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Errorf("SIGTERM: %v", err)
	}
	select {
	case <-s.exited:
	case <-time.After(60 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
		t.Errorf("zproxy did not exit within 60s of SIGTERM; log:\n%s", s.Log())
		return
	}
	if s.waitErr != nil {
		t.Errorf("zproxy exited with %v after SIGTERM; log:\n%s", s.waitErr, s.Log())
	} else if t.Failed() {
		t.Logf("zproxy log:\n%s", s.Log())
	}
}

// cleanEnv is the test's environment without ZPROXY_* variables, so a
// developer's settings do not leak into the server under test.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ZPROXY_") {
			env = append(env, kv)
		}
	}
	return env
}

// logWriter keeps the process's stderr and closes ready at the start-up line
// that says zproxy listens.
type logWriter struct {
	s     *server
	ready chan<- struct{}
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.s.log.Write(p)
	if w.ready != nil && bytes.Contains(w.s.log.Bytes(), []byte(`msg="listening for PostgreSQL clients"`)) {
		close(w.ready)
		w.ready = nil
	}
	return len(p), nil
}

// Log returns what the process has written to stderr so far.
func (s *server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// pgxConnString is a libpq-style connection string for pgx.
func (s *server) pgxConnString() string {
	return fmt.Sprintf("host=%s port=%s user=zproxy dbname=zproxy sslmode=disable connect_timeout=10", s.host, s.port)
}

// requireTool returns the path of an executable, or skips the test when it
// is missing (fails it when CI=true).
func requireTool(t *testing.T, name, install string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		missingClient(t, fmt.Sprintf("%s is not installed (%s)", name, install))
	}
	return path
}

// requireFile is requireTool for a file at a fixed path.
func requireFile(t *testing.T, path, install string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		missingClient(t, fmt.Sprintf("%s is missing (%s)", path, install))
	}
}

// missingClient skips the test outside CI and fails it in CI, where
// scripts/install-client-deps.sh must have installed every client.
func missingClient(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s, and CI=true: scripts/install-client-deps.sh installs it", why)
	}
	t.Skipf("%s; scripts/install-client-deps.sh installs it", why)
}

// runClient runs a client program to completion within a minute, logs its
// output and fails the test unless it exits 0 having printed PASS.
func runClient(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s %s (%v):\n%s", filepath.Base(name), strings.Join(args, " "), time.Since(start).Round(time.Millisecond), out.String())
	if err != nil {
		t.Fatalf("%s failed: %v", filepath.Base(name), err)
	}
	if !strings.Contains(out.String(), "\nPASS\n") && !strings.HasPrefix(out.String(), "PASS\n") {
		t.Fatalf("%s exited 0 without printing PASS", filepath.Base(name))
	}
	return out.String()
}
