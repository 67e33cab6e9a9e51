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
// lacks, refuses them with 0A000 as README says.

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

	// The process id of BackendKeyData (what CancelRequest names) is the
	// one the session reports and pg_stat_activity lists.
	var pid, listed uint32
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid(), (SELECT count(*) FROM pg_stat_activity WHERE pid = pg_backend_pid())").Scan(&pid, &listed); err != nil {
		t.Fatal(err)
	}
	if pid != conn.PgConn().PID() || listed != 1 {
		t.Errorf("pg_backend_pid() = %d (listed %d times in pg_stat_activity), BackendKeyData says %d", pid, listed, conn.PgConn().PID())
	}

	for _, tc := range []struct {
		driver, sql string
		// unsupported: zproxy refuses it on purpose (0A000).
		unsupported bool
	}{
		{driver: "pgjdbc connect", sql: "SET extra_float_digits = 3"},
		{driver: "pgjdbc connect", sql: "SET application_name = 'PostgreSQL JDBC Driver'"},
		{driver: "pgjdbc Connection.setReadOnly + setAutoCommit(false)", sql: "BEGIN READ ONLY"},
		// SERIALIZABLE is serializable on the embedded store (README,
		// Transactions); on DynamoDB it is 0A000 rather than run weaker.
		{driver: "psycopg2 set_session(isolation_level=SERIALIZABLE)", sql: "BEGIN ISOLATION LEVEL SERIALIZABLE"},
		{driver: "psycopg2 set_session(isolation_level=..., autocommit=True)", sql: "SET default_transaction_isolation TO 'serializable'"},
		{driver: "psycopg2 set_session(isolation_level=REPEATABLE READ)", sql: "BEGIN ISOLATION LEVEL REPEATABLE READ"},
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
			// psycopg2 declares it in the transaction it opened.
			driver: "psycopg2 named (server-side) cursor",
			sql:    `BEGIN; DECLARE "srv" CURSOR WITHOUT HOLD FOR SELECT 1`,
		},
	} {
		_, err := conn.Exec(ctx, tc.sql)
		var pgErr *pgconn.PgError
		if tc.unsupported && (!errors.As(err, &pgErr) || pgErr.Code != "0A000") {
			t.Errorf("%s: %q: %v, want 0A000", tc.driver, tc.sql, err)
		} else if !tc.unsupported && err != nil {
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
