package clients

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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

// libpqEnv is the environment lib/pq's tests find a server by.
func libpqEnv(host, port, user string) []string {
	return []string{"PGHOST=" + host, "PGPORT=" + port, "PGUSER=" + user, "PGDATABASE=pqgo", "PGSSLMODE=disable", "PGPASSWORD="}
}

func TestLibPQSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs lib/pq's whole test suite")
	}
	s := startSuiteServer(t)
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
		writeExpected(t, libpqExpectedPath, "lib/pq", "TestLibPQSuite -update-libpq (see libpqsuite_test.go)", got, onPG)
		return
	}
	checkSuite(t, "lib/pq", got, libpqExpectedPath)
}
