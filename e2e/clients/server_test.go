package clients

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/e2e/harness"
)

// zproxyBin is the binary TestMain builds.
var zproxyBin string

func TestMain(m *testing.M) {
	os.Exit(harness.RunTests(m, raceEnabled, &zproxyBin, "clients"))
}

// server is one running zproxy process, with its PostgreSQL listener's
// host and port split for the clients' command lines.
type server struct {
	*harness.Proc
	host, port string
}

// startServer starts zproxy with a fresh data directory, listening on a port
// the kernel picks, and waits until it listens. It is stopped with SIGTERM at
// the end of the test, which must end it cleanly.
func startServer(t *testing.T) *server {
	t.Helper()
	p, err := harness.Start(zproxyBin,
		"--listen", "127.0.0.1:0",
		"--metrics-listen", "",
		"--data-dir", t.TempDir(),
		"--shutdown-timeout", "20s")
	if err != nil {
		t.Fatal(err)
	}
	return watchServer(t, p)
}

// watchServer wraps a started zproxy and stops it with SIGTERM at the end
// of the test, logging its output if the test failed.
func watchServer(t *testing.T, p *harness.Proc) *server {
	t.Helper()
	s := &server{Proc: p}
	s.host, s.port = p.HostPort()
	t.Cleanup(func() {
		if err := p.Terminate(60 * time.Second); err != nil {
			t.Errorf("%v; log:\n%s", err, p.Log())
		} else if t.Failed() {
			t.Logf("zproxy log:\n%s", p.Log())
		}
	})
	return s
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
	return runClientWithin(t, time.Minute, dir, env, name, args...)
}

// runClientWithin is runClient with another time limit.
func runClientWithin(t *testing.T, limit time.Duration, dir string, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	// The Python scripts import checks.py: no bytecode in the source tree.
	cmd.Env = append(append(harness.CleanEnv(), "PYTHONDONTWRITEBYTECODE=1"), env...)
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
