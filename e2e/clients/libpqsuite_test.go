package clients

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zproxy/zproxy/e2e/harness"
)

// lib/pq's own test suite against zproxy, as pgx's (pgxsuite_test.go):
// its module source comes from the Go module proxy (this module's lib/pq),
// and its tests find the server through libpq's PG* variables, in a
// database named pqgo. testdata/libpq_expected_failures.txt lists the
// tests that fail on zproxy, each with its reason:
//
//   - "postgres too: ..." fails on PostgreSQL 15 as well (it needs SSL
//     roles and certificates, or a server on port 5432, that the suite's
//     own CI sets up): listed so that it may fail, whatever it does;
//   - "flaky: ..." may pass;
//   - any other reason is a difference from PostgreSQL, and the list may
//     only shrink: such a test that passes fails this test (remove it), as
//     does a failing test that is not listed.
//
// Regenerate the list, comparing with PostgreSQL 15, with
//
//	E2E_POSTGRES='host=... port=... user=postgres' go test ./e2e/clients -run TestLibPQSuite -update-libpq
//
// where the server has a database named pqgo.
var updateLibPQ = flag.Bool("update-libpq", false, "rewrite testdata/libpq_expected_failures.txt from runs on zproxy and on E2E_POSTGRES")

const libpqExpectedPath = "testdata/libpq_expected_failures.txt"

// postgresTooPrefix starts the reason of a listed test that fails on
// PostgreSQL as well.
const postgresTooPrefix = "postgres too: "

// libpqEnv is the environment lib/pq's tests find a server by.
func libpqEnv(host, port, user string) []string {
	return []string{"PGHOST=" + host, "PGPORT=" + port, "PGUSER=" + user, "PGDATABASE=pqgo", "PGSSLMODE=disable", "PGPASSWORD="}
}

func TestLibPQSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs lib/pq's whole test suite")
	}
	bin, cleanup, err := harness.BuildZproxy(false)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	p, err := harness.Start(bin, "--listen", "127.0.0.1:0", "--metrics-listen", "", "--data-dir", t.TempDir(), "--shutdown-timeout", "20s")
	if err != nil {
		t.Fatal(err)
	}
	s := watchServer(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("host=%s port=%s user=zproxy dbname=zproxy sslmode=disable", s.host, s.port))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE pqgo"); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)
	got := runGoSuite(t, "github.com/lib/pq/...", 500, libpqEnv(s.host, s.port, "zproxy")...)

	if *updateLibPQ {
		writeLibPQExpected(t, got)
		return
	}
	expected := readExpected(t, libpqExpectedPath)
	passed, failed := 0, 0
	var unexpected, fixed []string
	for k, r := range got {
		reason, listed := expected[k]
		switch r.action {
		case "pass":
			passed++
			if listed && !strings.HasPrefix(reason, flakyPrefix) && !strings.HasPrefix(reason, postgresTooPrefix) {
				fixed = append(fixed, k)
			}
		case "fail":
			failed++
			if !listed {
				unexpected = append(unexpected, k)
			}
		}
	}
	sort.Strings(unexpected)
	sort.Strings(fixed)
	for _, k := range unexpected {
		t.Errorf("%s fails and is not in %s:\n%s", k, libpqExpectedPath, got[k].output.String())
	}
	if len(fixed) > 0 {
		t.Errorf("these pass now: remove them from %s:\n%s", libpqExpectedPath, strings.Join(fixed, "\n"))
	}
	t.Logf("lib/pq suite on zproxy: %d passed, %d failed (%d listed)", passed, failed, len(expected))
}

// writeLibPQExpected runs the suite on E2E_POSTGRES and writes the list
// of the tests that fail on zproxy (got), each with why.
func writeLibPQExpected(t *testing.T, got map[string]*suiteOutcome) {
	t.Helper()
	dsn := os.Getenv("E2E_POSTGRES")
	if dsn == "" {
		t.Fatal("-update-libpq needs E2E_POSTGRES, a PostgreSQL 15 server with a database named pqgo")
	}
	conf := map[string]string{"host": "localhost", "port": "5432", "user": "postgres"}
	for _, kv := range strings.Fields(dsn) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			conf[k] = v
		}
	}
	onPG := runGoSuite(t, "github.com/lib/pq/...", 500, libpqEnv(conf["host"], conf["port"], conf["user"])...)
	old := readExpected(t, libpqExpectedPath)
	reasons := map[string]string{}
	for k, r := range got {
		if r.action != "fail" {
			continue
		}
		if pg := onPG[k]; pg == nil || pg.action != "pass" {
			reasons[k] = postgresTooPrefix + reasonOf(r.output.String())
		} else {
			reasons[k] = reasonOf(r.output.String())
		}
	}
	for k, reason := range old {
		if strings.HasPrefix(reason, flakyPrefix) {
			reasons[k] = reason
		}
	}
	var keys []string
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# lib/pq's tests that fail on zproxy, with the first error each printed: written by\n")
	b.WriteString("# go test ./e2e/clients -run TestLibPQSuite -update-libpq (see libpqsuite_test.go).\n")
	b.WriteString("# \"postgres too\": fails on PostgreSQL 15 as well. The others may only go.\n")
	for _, k := range keys {
		b.WriteString(k + "\t" + reasons[k] + "\n")
	}
	if err := os.WriteFile(libpqExpectedPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	passedPG, differ := 0, 0
	for _, r := range onPG {
		if r.action == "pass" {
			passedPG++
		}
	}
	for _, reason := range reasons {
		if !strings.HasPrefix(reason, postgresTooPrefix) {
			differ++
		}
	}
	t.Logf("%d of the %d tests that pass on PostgreSQL pass on zproxy", passedPG-differ, passedPG)
}
