package clients

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestVacuumdb runs PostgreSQL's vacuumdb as a maintenance job would,
// against zproxy (and, with E2E_POSTGRES, PostgreSQL): the whole database,
// one table, --analyze-only (which analyzes pg_catalog's tables too),
// --full and --analyze; every run succeeds and the rows are untouched.
func TestVacuumdb(t *testing.T) {
	t.Parallel()
	vacuumdb := requireTool(t, "vacuumdb", "Debian postgresql-client")
	tg := newClientTarget(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, tg.dsn())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		"DROP TABLE IF EXISTS vacuumdb_t",
		"CREATE TABLE vacuumdb_t (id INT PRIMARY KEY, note TEXT)",
		"CREATE INDEX vacuumdb_t_note ON vacuumdb_t (note)",
		"INSERT INTO vacuumdb_t SELECT g, 'n' || g FROM generate_series(1, 300) g",
		"DELETE FROM vacuumdb_t WHERE id > 100",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	base := []string{"-h", tg.host, "-p", tg.port, "-U", tg.user, "-d", tg.dbname}
	for _, extra := range [][]string{
		nil,
		{"-t", "vacuumdb_t"},
		{"--analyze-only"},
		{"--full", "-t", "vacuumdb_t"},
		{"--analyze", "--verbose", "-t", "vacuumdb_t"},
	} {
		out := tool(t, vacuumdb, append(append([]string(nil), base...), extra...)...)
		if strings.Contains(out, "error") {
			t.Errorf("vacuumdb %s: %s", strings.Join(extra, " "), out)
		}
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM vacuumdb_t WHERE note LIKE 'n%'").Scan(&n); err != nil || n != 100 {
		t.Errorf("rows after vacuumdb: %d %v, want 100", n, err)
	}
	if _, err := conn.Exec(ctx, "DROP TABLE vacuumdb_t"); err != nil {
		t.Fatal(err)
	}
}

// TestReindexdb runs PostgreSQL's reindexdb against zproxy (and, with
// E2E_POSTGRES, PostgreSQL): the database, one table, one index,
// concurrently, the system catalogs and a schema; each run succeeds and
// the indexes answer as before.
func TestReindexdb(t *testing.T) {
	t.Parallel()
	reindexdb := requireTool(t, "reindexdb", "Debian postgresql-client")
	tg := newClientTarget(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, tg.dsn())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		"DROP TABLE IF EXISTS reindexdb_t",
		"CREATE TABLE reindexdb_t (id INT PRIMARY KEY, code INT UNIQUE, note TEXT)",
		"CREATE INDEX reindexdb_t_note ON reindexdb_t (note)",
		"INSERT INTO reindexdb_t SELECT g, g * 3, 'n' || (g % 10) FROM generate_series(1, 300) g",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	base := []string{"-h", tg.host, "-p", tg.port, "-U", tg.user, "-d", tg.dbname}
	for _, extra := range [][]string{
		nil,
		{"-t", "reindexdb_t"},
		{"-i", "reindexdb_t_note"},
		{"--concurrently", "-t", "reindexdb_t"},
		{"-s"},
		{"-S", "public"},
	} {
		out := tool(t, reindexdb, append(append([]string(nil), base...), extra...)...)
		if strings.Contains(out, "error") {
			t.Errorf("reindexdb %s: %s", strings.Join(extra, " "), out)
		}
	}
	var n, id int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM reindexdb_t WHERE note = 'n3'").Scan(&n); err != nil || n != 30 {
		t.Errorf("rows through the rebuilt index: %d %v, want 30", n, err)
	}
	if err := conn.QueryRow(ctx, "SELECT id FROM reindexdb_t WHERE code = 300").Scan(&id); err != nil || id != 100 {
		t.Errorf("a row through the rebuilt unique index: %d %v, want 100", id, err)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO reindexdb_t VALUES (1000, 3, 'dup')"); err == nil {
		t.Error("the rebuilt unique index let a duplicate in")
	}
	if _, err := conn.Exec(ctx, "DROP TABLE reindexdb_t"); err != nil {
		t.Fatal(err)
	}
}
