package clients

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/e2e/harness"
)

// pgx v5's own test suite against zproxy, as CockroachDB runs drivers'
// suites (issue 24). The suite's module source comes from the Go module
// proxy (it is this module's pgx); its setup (testsetup/postgresql_setup.sql)
// is applied with psql, statement by statement, what zproxy refuses left
// out. testdata/pgx_expected_failures.txt lists the tests that pass on
// PostgreSQL 15 but fail on zproxy, each with its reason; it may only
// shrink: a test failing that is not listed fails this test, and so does a
// listed test that passes (remove it from the list).
//
// Regenerate the list, comparing with PostgreSQL 15, with
//
//	E2E_POSTGRES='host=... user=postgres dbname=pgx_test' go test ./e2e/clients -run TestPgxSuite -update-pgx
//
// where the database named has had the same setup file applied.
var updatePgx = flag.Bool("update-pgx", false, "rewrite testdata/pgx_expected_failures.txt from runs on zproxy and on E2E_POSTGRES")

const pgxExpectedPath = "testdata/pgx_expected_failures.txt"

// flakyPrefix starts the reason of a listed test that sometimes passes on
// zproxy (its outcome depends on an order PostgreSQL fixes and zproxy
// does not): it may pass without leaving the list.
const flakyPrefix = "flaky: "

// suiteOutcome is one test's result in a suite run, with its output.
type suiteOutcome struct {
	action string
	output strings.Builder
}

// runPgxSuite runs pgx's tests against dsn and returns each test's
// outcome, by "package test".
func runPgxSuite(t *testing.T, dsn string) map[string]*suiteOutcome {
	t.Helper()
	return runGoSuite(t, "github.com/jackc/pgx/v5/...", 1000, "PGX_TEST_DATABASE="+dsn)
}

// runGoSuite runs a Go module's tests (pkgs, a go test pattern) with env
// added to the environment and returns each test's outcome, by "package
// test"; fewer than least outcomes means the suite did not run.
func runGoSuite(t *testing.T, pkgs string, least int, env ...string) map[string]*suiteOutcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-json", "-count=1", "-timeout", "10m", pkgs)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run() // failing tests make it exit 1; the events say which
	t.Logf("%s against %q: %v (%v)", pkgs, env, time.Since(start).Round(time.Second), err)
	results := map[string]*suiteOutcome{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var ev struct{ Action, Package, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" {
			continue
		}
		key := ev.Package + " " + ev.Test
		r := results[key]
		if r == nil {
			r = &suiteOutcome{}
			results[key] = r
		}
		switch ev.Action {
		case "pass", "fail", "skip":
			r.action = ev.Action
		case "output":
			if r.output.Len() < 4096 {
				r.output.WriteString(ev.Output)
			}
		}
	}
	if len(results) < least {
		t.Fatalf("%s reported %d tests; its output:\n%s", pkgs, len(results), out.String())
	}
	return results
}

// pgxSetup applies pgx's setup file to the database at e, going on past
// what zproxy refuses (hstore, ltree, domains, md5 passwords).
func pgxSetup(t *testing.T, e endpoint) {
	t.Helper()
	psql := requireTool(t, "psql", "apt-get install -y postgresql-client")
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/jackc/pgx/v5").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/jackc/pgx/v5: %v", err)
	}
	setup := filepath.Join(strings.TrimSpace(string(out)), "testsetup", "postgresql_setup.sql")
	// The superuser initdb makes, which pgx's aclitem test names
	// (postgres=arwdDxt/postgres): a cluster the suite runs on has it.
	role := exec.Command(psql, append(e.args(), "-X", "-q", "-c", "CREATE ROLE postgres SUPERUSER LOGIN")...)
	role.Env = harness.CleanEnv()
	if out, err := role.CombinedOutput(); err != nil {
		t.Fatalf("CREATE ROLE postgres: %v\n%s", err, out)
	}
	cmd := exec.Command(psql, append(e.args(), "-X", "-q", "-f", setup)...)
	cmd.Env = harness.CleanEnv()
	log, _ := cmd.CombinedOutput() // errors are expected: what zproxy lacks
	t.Logf("pgx setup:\n%s", log)
}

// reasonOf is why a failed test failed, from its output: the first
// server error it printed (ERROR: ... (SQLSTATE ...)), else testify's
// message, else the first message of a t.Error.
func reasonOf(output string) string {
	lines := strings.Split(output, "\n")
	clean := func(s string) string {
		s = strings.Join(strings.Fields(s), " ")
		if len(s) > 160 {
			s = s[:160]
		}
		return s
	}
	for _, l := range lines {
		if i := strings.Index(l, "ERROR: "); i >= 0 {
			return clean(l[i:])
		}
	}
	for i, l := range lines {
		if j := strings.Index(l, "Error: "); j >= 0 {
			msg := strings.TrimSpace(l[j+len("Error: "):])
			if strings.HasSuffix(msg, ":") && i+1 < len(lines) {
				msg += " " + strings.TrimSpace(lines[i+1])
			}
			return clean(msg)
		}
	}
	for _, l := range lines {
		if m := goMessage.FindStringSubmatch(l); m != nil && strings.TrimSpace(m[1]) != "" {
			return clean(m[1])
		}
	}
	return "fails (see the suite's output)"
}

// goMessage is a t.Error line: file.go:line: message.
var goMessage = regexp.MustCompile(`^\s*[A-Za-z0-9_]+\.go:\d+: (.*)$`)

// readExpected reads an expected-failures file: "package test<TAB>reason"
// lines.
func readExpected(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, _ := strings.Cut(line, "\t")
		out[key] = reason
	}
	return out
}

func TestPgxSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pgx's whole test suite")
	}
	s := startSuiteServer(t)
	zp := endpoint{s.host, s.port, "zproxy", "pgx_test"}
	pgxSetup(t, zp)
	got := runPgxSuite(t, fmt.Sprintf("host=%s port=%s user=zproxy dbname=pgx_test sslmode=disable", s.host, s.port))

	if *updatePgx {
		dsn := os.Getenv("E2E_POSTGRES")
		if dsn == "" {
			t.Fatal("-update-pgx needs E2E_POSTGRES, a PostgreSQL 15 database with pgx's setup applied")
		}
		writeExpected(t, pgxExpectedPath, "pgx v5", "TestPgxSuite -update-pgx (see pgxsuite_test.go)", got, runPgxSuite(t, dsn))
		return
	}
	checkSuite(t, "pgx", got, pgxExpectedPath)
}
