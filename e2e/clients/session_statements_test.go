package clients

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestDriverSessionStatements sends, over pgx's simple protocol, the session
// statements the drivers send behind their APIs (found by reading the
// traffic), and checks that zproxy accepts them or, for the features it
// lacks, refuses them with 0A000 as DESIGN.md promises.
//
// An entry with a knownBug records a zproxy bug found by this package: while
// the bug is there the entry skips with its description instead of failing;
// once the statement behaves, the entry passes and the knownBug text should
// be removed.
func TestDriverSessionStatements(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg, err := pgx.ParseConfig(s.pgxConnString())
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())

	for _, tc := range []struct {
		driver, sql string
		// unsupported: the feature is not there yet; 0A000 is the right
		// answer, success would be too.
		unsupported bool
		knownBug    string
	}{
		{driver: "pgjdbc connect", sql: "SET extra_float_digits = 3"},
		{driver: "pgjdbc connect", sql: "SET application_name = 'PostgreSQL JDBC Driver'"},
		{driver: "pgjdbc Connection.setReadOnly + setAutoCommit(false)", sql: "BEGIN READ ONLY"},
		{driver: "psycopg2 set_session(isolation_level=SERIALIZABLE)", sql: "BEGIN ISOLATION LEVEL SERIALIZABLE"},
		{driver: "psycopg2 set_session(isolation_level=..., autocommit=True)", sql: "SET default_transaction_isolation TO 'serializable'"},
		{driver: "psql, pgjdbc, tools", sql: "SHOW TimeZone"},
		// Both failed with 42704 (the name LIKE-escaped, "server\\_version")
		// until fb3b234.
		{driver: "pgjdbc Connection.getTransactionIsolation", sql: "SHOW TRANSACTION ISOLATION LEVEL"},
		{driver: "tools reading settings", sql: "SHOW server_version"},
		{
			driver:   "pgjdbc Connection.setTransactionIsolation",
			sql:      "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE",
			knownBug: "42601 syntax error at or near \"AS\"; PostgreSQL accepts it, and pgjdbc sends it for every setTransactionIsolation outside a transaction",
		},
		{
			driver:   "psycopg2 set_session(readonly=True, autocommit=True)",
			sql:      "SET default_transaction_read_only TO on",
			knownBug: "42704 unrecognized configuration parameter \"default_transaction_read_only\" (default_transaction_isolation is accepted)",
		},
		{
			driver:      "psycopg2 named (server-side) cursor",
			sql:         `DECLARE "srv" CURSOR WITHOUT HOLD FOR SELECT 1`,
			unsupported: true,
			knownBug:    "42601 syntax error at or near \"DECLARE\" instead of 0A000 naming DECLARE CURSOR as unsupported",
		},
	} {
		_, err := conn.Exec(ctx, tc.sql)
		var pgErr *pgconn.PgError
		ok := err == nil || (tc.unsupported && errors.As(err, &pgErr) && pgErr.Code == "0A000")
		switch {
		case ok:
			if tc.knownBug != "" {
				t.Logf("%s: %q now works; remove its knownBug", tc.driver, tc.sql)
			}
		case tc.knownBug != "":
			t.Logf("known zproxy bug, %s: %q: %v (%s)", tc.driver, tc.sql, err, tc.knownBug)
		default:
			t.Errorf("%s: %q: %v", tc.driver, tc.sql, err)
		}
		// The session must go on after each statement, failed or not; end
		// the transactions the BEGINs opened.
		if conn.PgConn().TxStatus() != 'I' {
			if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
				t.Fatalf("ROLLBACK after %q: %v", tc.sql, err)
			}
		}
		var one int
		if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("after %q: SELECT 1 gave %d, %v", tc.sql, one, err)
		}
	}
}
