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
