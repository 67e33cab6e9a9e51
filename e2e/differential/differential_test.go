package differential

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/e2e/harness"
)

// The short campaign is what `make test` runs; scripts/difftest.sh passes
// these flags for a long one, e.g. -args -seed 7 -duration 20m -repro-dir d.
var (
	seed      = flag.Uint64("seed", 20240601, "seed of the schemas, rows and statements")
	queries   = flag.Int("queries", 600, "statements to compare (0: no limit, see -duration)")
	duration  = flag.Duration("duration", 0, "run for this long (0: until -queries)")
	maxRows   = flag.Int("max-rows", 10, "rows per table at most")
	depth     = flag.Int("depth", 2, "subquery nesting")
	round     = flag.Int("round", 40, "statements per schema")
	minimize  = flag.Duration("minimize", 30*time.Second, "time to shrink each mismatch (0: none)")
	maxMin    = flag.Int("max-minimized", 5, "mismatches to shrink at most (0: all)")
	maxPerSig = flag.Int("max-per-signature", 4, "mismatches of one signature (kind, SQLSTATE) to shrink at most (0: all)")
	reproDir  = flag.String("repro-dir", "", "write minimised repros to this directory")
	maxCost   = flag.Float64("max-cost", 1e5, "skip statements PostgreSQL estimates to cost more (0: no limit)")
	verbose   = flag.Bool("log-statements", false, "log every statement with both servers' times")
	pgBin     = flag.String("pg-bin", "", "directory of PostgreSQL 15's initdb and pg_ctl (default: /usr/lib/postgresql/15/bin or PATH)")
)

// servers starts a throw-away PostgreSQL cluster and builds zproxy (with
// the race detector when the tests run with it); both go at the end of the
// test. Without PostgreSQL the test is skipped, except under CI=true,
// where that is a failure: CI installs it.
func servers(t *testing.T) (pgDSN, zproxyBin string) {
	t.Helper()
	dsn := harness.ThrowawayPostgres(t, *pgBin)
	zbin, cleanup, err := harness.BuildZproxy(raceEnabled)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	return dsn, zbin
}

// startZproxy starts zproxy on a fresh data directory; the process is
// killed at the end of the test.
func startZproxy(t *testing.T, zproxyBin string) *harness.Proc {
	return startZproxyWith(t, zproxyBin, nil)
}

// startZproxyWith is startZproxy with more environment variables and
// flags (a DynamoDB backend's).
func startZproxyWith(t *testing.T, zproxyBin string, env []string, args ...string) *harness.Proc {
	t.Helper()
	dir, err := os.MkdirTemp("", "zproxy-difftest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	args = append([]string{"--listen", "127.0.0.1:0", "--metrics-listen", "", "--data-dir", filepath.Join(dir, "data"), "--shutdown-timeout", "5s"}, args...)
	p, err := harness.StartEnv(zproxyBin, env, args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("zproxy log:\n%s", tail(p.Log(), 4000))
		}
		_ = p.Kill()
	})
	return p
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

func dsnOf(p *harness.Proc) string {
	host, port := p.HostPort()
	return fmt.Sprintf("host=%s port=%s user=zproxy dbname=zproxy sslmode=disable connect_timeout=10", host, port)
}

// TestCampaign compares zproxy with PostgreSQL on random statements. With
// the default flags it is the short campaign `make test` runs (a fixed
// seed, a few hundred statements, under a minute); every mismatch fails it
// with the minimised repro.
func TestCampaign(t *testing.T) {
	pgDSN, zproxyBin := servers(t)
	zp := startZproxy(t, zproxyBin)
	opts := Options{
		Seed:            *seed,
		Statements:      *queries,
		Duration:        *duration,
		MaxRows:         *maxRows,
		Depth:           *depth,
		RoundStatements: *round,
		Minimize:        *minimize,
		MaxMinimized:    *maxMin,
		MaxPerSignature: *maxPerSig,
		ReproDir:        *reproDir,
		Verbose:         *verbose,
		MaxCost:         *maxCost,
		Logf:            t.Logf,
	}
	opts.Restart = func() (string, string, error) {
		_ = zp.Kill()
		last := zp.Log()
		zp = startZproxy(t, zproxyBin)
		return dsnOf(zp), last, nil
	}
	ctx := context.Background()
	if dl, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-30*time.Second))
		defer cancel()
	}
	stats, err := Run(ctx, pgDSN, dsnOf(zp), opts)
	if stats != nil {
		t.Logf("seed %d:\n%s", *seed, stats.Summary())
		for _, i := range stats.Informational {
			t.Logf("informational: %s", i)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if *reproDir != "" {
		writeSummary(t, stats)
	}
	for i, f := range stats.Findings {
		t.Errorf("mismatch %d of %d (%v):\n%s", i+1, len(stats.Findings), f.Kinds, f.Repro)
	}
}

// writeSummary writes the figures, the mismatches' first lines and the
// slow statements to summary.txt in the repro directory.
func writeSummary(t *testing.T, stats *Stats) {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d\n%s", *seed, stats.Summary())
	for i, f := range stats.Findings {
		fmt.Fprintf(&b, "mismatch %d: %v\n  %s\n", i+1, f.Kinds, f.SQL)
	}
	for _, s := range stats.Slow {
		fmt.Fprintf(&b, "slow: %s\n", s)
	}
	if err := os.MkdirAll(*reproDir, 0o755); err != nil {
		t.Error(err)
		return
	}
	path := filepath.Join(*reproDir, "summary.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Error(err)
	}
	t.Logf("summary and repros in %s", *reproDir)
}
