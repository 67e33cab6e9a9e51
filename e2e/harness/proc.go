package harness

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

var (
	listenLine  = regexp.MustCompile(`msg="listening for PostgreSQL clients" addr=(\S+)`)
	metricsLine = regexp.MustCompile(`msg="serving metrics" addr=(\S+)`)
)

// Proc is a running zproxy process. Its listening addresses come from its
// start-up log lines, so it can listen on port 0 and no port is ever chosen
// ahead of time (and found taken).
type Proc struct {
	cmd     *exec.Cmd
	exited  chan struct{}
	waitErr error

	mu      sync.Mutex
	log     bytes.Buffer
	partial []byte
	addr    string
	metrics string
	ready   chan struct{}
}

// Start runs bin with args and an environment without ZPROXY_* variables
// (so a developer's settings do not leak in), and waits up to a minute until
// it reports its PostgreSQL listener and, unless --metrics-listen is empty,
// its metrics endpoint.
func Start(bin string, args ...string) (*Proc, error) {
	return StartEnv(bin, nil, args...)
}

// StartEnv is Start with env (KEY=value entries) added to the process's
// environment, for settings a parallel test cannot put in its own
// environment with t.Setenv (DynamoDB Local's dummy credentials).
//
// The process runs with --any-database before args: the tests and the
// clients they drive connect with whatever database name suits them
// (zproxy, db, pgx_test ...) and mean the store's one database. A test of
// databases themselves passes --any-database=false, which wins.
func StartEnv(bin string, env []string, args ...string) (*Proc, error) {
	args = append([]string{"--any-database"}, args...)
	ready := make(chan struct{})
	p := &Proc{exited: make(chan struct{}), ready: ready}
	wantMetrics := true
	for i, a := range args {
		if a == "--metrics-listen" && i+1 < len(args) && args[i+1] == "" {
			wantMetrics = false
		}
	}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Env = append(CleanEnv(), env...)
	p.cmd.Stderr = &logWriter{p: p, wantMetrics: wantMetrics}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting zproxy: %w", err)
	}
	go func() {
		p.waitErr = p.cmd.Wait()
		close(p.exited)
	}()
	select {
	case <-ready: // the writer closes it, then clears p.ready under p.mu
		return p, nil
	case <-p.exited:
		return nil, fmt.Errorf("zproxy exited during start-up (%v); log:\n%s", p.waitErr, p.Log())
	case <-time.After(60 * time.Second):
		p.Kill()
		return nil, fmt.Errorf("zproxy did not report its listening address within 60s; log:\n%s", p.Log())
	}
}

func CleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ZPROXY_") {
			env = append(env, kv)
		}
	}
	return env
}

// logWriter receives the process's stderr (exec copies it, and Wait waits
// for the copy), keeps it and picks the addresses out of the start-up lines.
type logWriter struct {
	p           *Proc
	wantMetrics bool
}

func (w *logWriter) Write(b []byte) (int, error) {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log.Write(b)
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			break
		}
		line := string(p.partial[:i])
		p.partial = p.partial[i+1:]
		if m := listenLine.FindStringSubmatch(line); m != nil {
			p.addr = m[1]
		}
		if m := metricsLine.FindStringSubmatch(line); m != nil {
			p.metrics = m[1]
		}
	}
	if p.ready != nil && p.addr != "" && (p.metrics != "" || !w.wantMetrics) {
		close(p.ready)
		p.ready = nil
	}
	return len(b), nil
}

// Log returns what the process has written to stderr so far.
func (p *Proc) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// Addr returns host:port of the PostgreSQL listener.
func (p *Proc) Addr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addr
}

// MetricsURL returns the URL of the metrics endpoint.
func (p *Proc) MetricsURL() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return "http://" + p.metrics + "/metrics"
}

// HostPort splits Addr.
func (p *Proc) HostPort() (host, port string) {
	addr := p.Addr()
	i := strings.LastIndexByte(addr, ':')
	return addr[:i], addr[i+1:]
}

// Pid is the process's id (for /proc/<pid>/status: its peak RSS).
func (p *Proc) Pid() int { return p.cmd.Process.Pid }

// Exited is closed when the process has ended; ExitErr is then its status.
func (p *Proc) Exited() <-chan struct{} { return p.exited }

// ExitErr is the process's exit status once Exited is closed.
func (p *Proc) ExitErr() error { return p.waitErr }

// Terminate sends SIGTERM and waits up to timeout for a clean exit.
func (p *Proc) Terminate(timeout time.Duration) error {
	select {
	case <-p.exited:
		return fmt.Errorf("zproxy had already exited (%v)", p.waitErr)
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("SIGTERM: %w", err)
	}
	select {
	case <-p.exited:
	case <-time.After(timeout):
		p.Kill()
		return fmt.Errorf("zproxy did not exit within %v of SIGTERM", timeout)
	}
	if p.waitErr != nil {
		return fmt.Errorf("zproxy exited with %v after SIGTERM", p.waitErr)
	}
	return nil
}

// Kill sends SIGKILL and waits for the process to die; it reports an error
// unless the kill is what ended it.
func (p *Proc) Kill() error {
	select {
	case <-p.exited:
		return nil
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return fmt.Errorf("SIGKILL: %w", err)
	}
	<-p.exited
	var exitErr *exec.ExitError
	if !errors.As(p.waitErr, &exitErr) {
		return fmt.Errorf("zproxy after SIGKILL: %v, want killed", p.waitErr)
	}
	return nil
}
