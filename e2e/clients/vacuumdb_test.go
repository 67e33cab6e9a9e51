package clients

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestVacuumdb runs PostgreSQL's vacuumdb as a maintenance job would,
// against zproxy (and, with E2E_POSTGRES, PostgreSQL): the whole database,
// one table, --analyze-only (which analyzes pg_catalog's tables too),
// --full and --analyze; every run succeeds and the rows are untouched.
func TestVacuumdb(t *testing.T) {
	// Not parallel: against one PostgreSQL (E2E_POSTGRES) a whole-database
	// VACUUM FULL and REINDEX DATABASE running together contend.
	vacuumdb := requireTool(t, "vacuumdb", "Debian postgresql-client")
	ctx := context.Background()
	conn := maintenanceRuns(t, vacuumdb, []string{
		"DROP TABLE IF EXISTS vacuumdb_t",
		"CREATE TABLE vacuumdb_t (id INT PRIMARY KEY, note TEXT)",
		"CREATE INDEX vacuumdb_t_note ON vacuumdb_t (note)",
		"INSERT INTO vacuumdb_t SELECT g, 'n' || g FROM generate_series(1, 300) g",
		"DELETE FROM vacuumdb_t WHERE id > 100",
	}, [][]string{
		nil,
		{"-t", "vacuumdb_t"},
		{"--analyze-only"},
		{"--full", "-t", "vacuumdb_t"},
		{"--analyze", "--verbose", "-t", "vacuumdb_t"},
	})
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
	// Not parallel: against one PostgreSQL (E2E_POSTGRES) a whole-database
	// VACUUM FULL and REINDEX DATABASE running together contend.
	reindexdb := requireTool(t, "reindexdb", "Debian postgresql-client")
	ctx := context.Background()
	conn := maintenanceRuns(t, reindexdb, []string{
		"DROP TABLE IF EXISTS reindexdb_t",
		"CREATE TABLE reindexdb_t (id INT PRIMARY KEY, code INT UNIQUE, note TEXT)",
		"CREATE INDEX reindexdb_t_note ON reindexdb_t (note)",
		"INSERT INTO reindexdb_t SELECT g, g * 3, 'n' || (g % 10) FROM generate_series(1, 300) g",
	}, [][]string{
		nil,
		{"-t", "reindexdb_t"},
		{"-i", "reindexdb_t_note"},
		{"--concurrently", "-t", "reindexdb_t"},
		{"-s"},
		{"-S", "public"},
	})
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

// maintenanceRuns sets up a target with the setup statements, then runs
// the maintenance program (vacuumdb, reindexdb) against it once per
// argument list, failing the test on any run that fails or reports an
// error. It returns a connection to the target, closed with the test.
func maintenanceRuns(t *testing.T, program string, setup []string, runs [][]string) *pgx.Conn {
	t.Helper()
	tg := newClientTarget(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, tg.dsn())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	for _, q := range setup {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	base := []string{"-h", tg.host, "-p", tg.port, "-U", tg.user, "-d", tg.dbname}
	for _, extra := range runs {
		out := tool(t, program, append(append([]string(nil), base...), extra...)...)
		if strings.Contains(out, "error") {
			t.Errorf("%s %s: %s", filepath.Base(program), strings.Join(extra, " "), out)
		}
	}
	return conn
}
