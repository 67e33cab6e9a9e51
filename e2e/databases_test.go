package e2e

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestDatabases runs databases over the wire through pgx on Pebble: two
// databases with a table of one name and different rows, each connection
// in its own, 3D000 for a database the store lacks, DROP DATABASE refused
// while another session is connected (55006) and forced with FORCE.
func TestDatabases(t *testing.T) {
	requireZproxy(t)
	testDatabasesOver(t, startServer(t, "", "--any-database=false"))
}

// TestDatabasesDynamoDB is TestDatabases on DynamoDB Local.
func TestDatabasesDynamoDB(t *testing.T) {
	requireZproxy(t)
	ep := dynamoEndpoint(t)
	dynamoCreds(t)
	args := append(dynamoArgs(ep, fmt.Sprintf("e2e_databases_%d", os.Getpid())), "--any-database=false")
	testDatabasesOver(t, startServer(t, "", args...))
}

func testDatabasesOver(t *testing.T, s *server) {
	host, port := s.HostPort()
	connectTo := func(db string) (*pgx.Conn, error) {
		conn, err := pgx.Connect(testCtx(t), fmt.Sprintf("host=%s port=%s user=zproxy dbname=%s connect_timeout=10", host, port, db))
		if err == nil {
			t.Cleanup(func() { _ = conn.Close(testCtx(t)) })
		}
		return conn, err
	}
	mustConnect := func(db string) *pgx.Conn {
		t.Helper()
		conn, err := connectTo(db)
		if err != nil {
			t.Fatalf("connecting to %s: %v", db, err)
		}
		return conn
	}
	code := func(err error) string {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return pe.Code
		}
		return fmt.Sprint(err)
	}
	rows := func(conn *pgx.Conn, sql string) string {
		t.Helper()
		var out []string
		for _, r := range queryAll(t, conn, sql) {
			parts := make([]string, len(r))
			for i, v := range r {
				parts[i] = fmt.Sprint(v)
			}
			out = append(out, strings.Join(parts, "|"))
		}
		return strings.Join(out, ";")
	}

	if _, err := connectTo("zproxy"); code(err) != "3D000" || !strings.Contains(err.Error(), `database "zproxy" does not exist`) {
		t.Fatalf("connecting to a database the store lacks: %v", err)
	}
	admin := mustConnect("postgres")
	mustExec(t, admin, "CREATE DATABASE app_a")
	mustExec(t, admin, "CREATE DATABASE app_b ENCODING 'UTF8' TEMPLATE template0")
	a, b := mustConnect("app_a"), mustConnect("app_b")
	for _, c := range []struct {
		conn *pgx.Conn
		rows string
	}{{a, "(1, 'a one'), (2, 'a two')"}, {b, "(1, 'b one')"}} {
		mustExec(t, c.conn, "CREATE TABLE items (id int PRIMARY KEY, name text)")
		mustExec(t, c.conn, "CREATE INDEX items_name ON items (name)")
		mustExec(t, c.conn, "INSERT INTO items VALUES "+c.rows)
	}
	for _, c := range []struct {
		conn      *pgx.Conn
		sql, want string
	}{
		{a, "SELECT id, name FROM items ORDER BY id", "1|a one;2|a two"},
		{b, "SELECT id, name FROM items ORDER BY id", "1|b one"},
		{b, "SELECT id FROM items WHERE name = 'b one'", "1"},
		{a, "SELECT current_database()", "app_a"},
		{admin, "SELECT count(*) FROM pg_class WHERE relname = 'items'", "0"},
		{admin, "SELECT datname FROM pg_database ORDER BY datname", "app_a;app_b;postgres"},
	} {
		if got := rows(c.conn, c.sql); got != c.want {
			t.Errorf("%s: %q, want %q", c.sql, got, c.want)
		}
	}
	// \c: a new connection to the other database sees its own rows.
	a2 := mustConnect("app_b")
	if got := rows(a2, "SELECT count(*) FROM items"); got != "1" {
		t.Errorf("a second connection to app_b counts %s rows", got)
	}
	a2.Close(testCtx(t))

	_, err := admin.Exec(testCtx(t), "DROP DATABASE app_a")
	if code(err) != "55006" || !strings.Contains(err.Error(), `database "app_a" is being accessed by other users`) {
		t.Fatalf("DROP DATABASE with a session connected: %v", err)
	}
	if got := rows(a, "SELECT count(*) FROM items"); got != "2" {
		t.Errorf("app_a after the refused drop: %s rows", got)
	}
	if _, err := a.Exec(testCtx(t), "DROP DATABASE app_a"); code(err) != "55006" {
		t.Fatalf("dropping the current database: %v", err)
	}
	mustExec(t, admin, "DROP DATABASE app_a WITH (FORCE)")
	if _, err := a.Exec(testCtx(t), "SELECT 1"); err == nil {
		t.Error("a session of a database dropped WITH (FORCE) lives on")
	}
	if _, err := connectTo("app_a"); code(err) != "3D000" {
		t.Fatalf("connecting to a dropped database: %v", err)
	}
	b.Close(testCtx(t))
	mustExec(t, admin, "DROP DATABASE app_b")
	// A new database of a dropped one's name is empty.
	mustExec(t, admin, "CREATE DATABASE app_a")
	a = mustConnect("app_a")
	if _, err := a.Exec(testCtx(t), "SELECT * FROM items"); code(err) != "42P01" {
		t.Fatalf("a recreated database holds the old one's table: %v", err)
	}
}
