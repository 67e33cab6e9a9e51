// Package zpserver runs a zproxy process for the benchmark harnesses and
// reads its Prometheus metrics, so each harness only says which backend and
// flags it wants and which counters it reports.
package zpserver

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Server is a running zproxy process.
type Server struct {
	Port        int
	MetricsAddr string
	LogPath     string
	cmd         *exec.Cmd
	exited      chan error
}

// Start runs bin listening on port (and metrics on metricsPort), with its
// output in logPath and the extra flags args, and waits up to a minute until
// it accepts connections.
func Start(bin, logPath string, port, metricsPort int, args ...string) (*Server, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	s := &Server{Port: port, MetricsAddr: fmt.Sprintf("127.0.0.1:%d", metricsPort), LogPath: logPath, exited: make(chan error, 1)}
	s.cmd = exec.Command(bin, append([]string{
		"--listen", fmt.Sprintf("127.0.0.1:%d", port),
		"--metrics-listen", s.MetricsAddr,
		"--log-level", "warn",
	}, args...)...)
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	go func() { s.exited <- s.cmd.Wait(); logf.Close() }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return s, nil
		}
		select {
		case err := <-s.exited:
			log, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("zproxy exited: %v\n%s", err, log)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("zproxy did not accept connections on port %d within 60s (log: %s)", port, logPath)
		}
	}
}

// Pid is the zproxy process's id (to read its CPU time from /proc).
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// DSN is the connection string for pgx.
func (s *Server) DSN() string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=zproxy dbname=postgres sslmode=disable", s.Port)
}

// Stop ends the process with SIGTERM, killing it after 30 seconds.
func (s *Server) Stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
}

// Metrics is one scrape of /metrics.
type Metrics map[string]*dto.MetricFamily

// Scrape reads /metrics.
func (s *Server) Scrape(ctx context.Context) (Metrics, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+s.MetricsAddr+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	return parser.TextToMetricFamilies(resp.Body)
}

// Sum adds up the counter or gauge samples of family name whose labels
// include every pair in match.
func (m Metrics) Sum(name string, match map[string]string) float64 {
	fam, ok := m[name]
	if !ok {
		return 0
	}
	total := 0.0
next:
	for _, metric := range fam.GetMetric() {
		for k, v := range match {
			found := false
			for _, l := range metric.GetLabel() {
				found = found || (l.GetName() == k && l.GetValue() == v)
			}
			if !found {
				continue next
			}
		}
		switch {
		case metric.Counter != nil:
			total += metric.GetCounter().GetValue()
		case metric.Gauge != nil:
			total += metric.GetGauge().GetValue()
		case metric.Untyped != nil:
			total += metric.GetUntyped().GetValue()
		}
	}
	return total
}
