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
// lacks, refuses them with 0A000 as ARCHITECTURE.md promises.

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
			driver: "pgjdbc Connection.setTransactionIsolation",
			sql:    "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE",
		},
		{
			driver: "psycopg2 set_session(readonly=True, autocommit=True)",
			sql:    "SET default_transaction_read_only TO on",
		},
		{
			driver:      "psycopg2 named (server-side) cursor",
			sql:         `DECLARE "srv" CURSOR WITHOUT HOLD FOR SELECT 1`,
			unsupported: true,
		},
	} {
		_, err := conn.Exec(ctx, tc.sql)
		var pgErr *pgconn.PgError
		ok := err == nil || (tc.unsupported && errors.As(err, &pgErr) && pgErr.Code == "0A000")
		if !ok {
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
