package clients

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/e2e/harness"
)

// pg_dump and pg_restore, both ways, as a team moving a database between
// PostgreSQL 15 and zproxy runs them: testdata/pgdump/app.sql (an ordinary
// application schema and its rows) is loaded into one side, dumped in
// every format pg_dump writes, restored into the other with
// ON_ERROR_STOP, and the two compared through testdata/pgdump/compare.sql
// (relations, columns, constraints, indexes, comments, sequences' current
// values, rows). PostgreSQL is a throw-away cluster of its own.

// endpoint is where a client tool connects: a zproxy or a PostgreSQL
// database.
type endpoint struct {
	host, port, user, db string
}

func (e endpoint) args() []string {
	return []string{"-h", e.host, "-p", e.port, "-U", e.user, "-d", e.db}
}

func zproxyEndpoint(s *server) endpoint { return endpoint{s.host, s.port, "zproxy", "zproxy"} }

// pgdumpTools finds pg_dump, pg_restore and psql, and starts PostgreSQL.
func pgdumpTools(t *testing.T) (pg *harness.Postgres, tools map[string]string) {
	t.Helper()
	tools = map[string]string{}
	for _, name := range []string{"pg_dump", "pg_restore", "psql"} {
		tools[name] = requireTool(t, name, "apt-get install -y postgresql-client")
	}
	bin, err := harness.FindPostgresBin(os.Getenv("POSTGRES_BIN"))
	if err != nil {
		missingClient(t, err.Error())
	}
	pg, err = harness.StartPostgres(bin, 0, "fsync=off")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Stop(false) })
	// The dumps of zproxy name its owner; the restores recreate it.
	psqlRun(t, tools, pgEndpoint(pg, "postgres"), "-c", "CREATE ROLE zproxy")
	return pg, tools
}

func pgEndpoint(pg *harness.Postgres, db string) endpoint {
	return endpoint{pg.Dir, "5432", "postgres", db}
}

// createPGDatabase makes an empty PostgreSQL database.
func createPGDatabase(t *testing.T, tools map[string]string, pg *harness.Postgres, name string) endpoint {
	t.Helper()
	psqlRun(t, tools, pgEndpoint(pg, "postgres"), "-c", "CREATE DATABASE "+name)
	return pgEndpoint(pg, name)
}

// psqlRun runs psql with ON_ERROR_STOP and returns what it printed; any
// error fails the test.
func psqlRun(t *testing.T, tools map[string]string, e endpoint, args ...string) string {
	t.Helper()
	return tool(t, tools["psql"], append(append(e.args(), "-X", "-q", "-v", "ON_ERROR_STOP=1"), args...)...)
}

func tool(t *testing.T, path string, args ...string) string {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Env = append(harness.CleanEnv(), "PGCONNECT_TIMEOUT=10")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(path), strings.Join(args, " "), err, out)
	}
	return string(out)
}

// snapshotOf runs compare.sql and returns its output, one answer per
// statement, for comparing two databases.
func snapshotOf(t *testing.T, tools map[string]string, e endpoint) string {
	t.Helper()
	return psqlRun(t, tools, e, "-At", "-F", "|", "-f", filepath.Join("testdata", "pgdump", "compare.sql"))
}

func sameSnapshot(t *testing.T, what, want, got string) {
	t.Helper()
	if want == got {
		return
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			t.Errorf("%s: first difference at line %d:\n want %q\n  got %q", what, i+1, wl, gl)
			return
		}
	}
}

// TestPgDumpZproxyToPostgres dumps a zproxy database with pg_dump in each
// of its formats and restores it into PostgreSQL 15 with ON_ERROR_STOP.
func TestPgDumpZproxyToPostgres(t *testing.T) {
	pg, tools := pgdumpTools(t)
	s := startServer(t)
	zp := zproxyEndpoint(s)
	psqlRun(t, tools, zp, "-f", filepath.Join("testdata", "pgdump", "app.sql"))
	want := snapshotOf(t, tools, zp)
	dir := t.TempDir()
	dump := func(name string, args ...string) string {
		path := filepath.Join(dir, name)
		tool(t, tools["pg_dump"], append(append(zp.args(), "-f", path), args...)...)
		return path
	}
	cases := []struct {
		name    string
		restore func(t *testing.T, into endpoint)
	}{
		{"plain", func(t *testing.T, into endpoint) { psqlRun(t, tools, into, "-f", dump("plain.sql")) }},
		{"inserts", func(t *testing.T, into endpoint) { psqlRun(t, tools, into, "-f", dump("inserts.sql", "--inserts")) }},
		{"custom", func(t *testing.T, into endpoint) {
			tool(t, tools["pg_restore"], append(into.args(), "--exit-on-error", dump("custom.dump", "-Fc"))...)
		}},
		{"directory", func(t *testing.T, into endpoint) {
			// Two connections each way: pg_dump -j's workers read the
			// leader's snapshot (pg_export_snapshot, SET TRANSACTION
			// SNAPSHOT).
			tool(t, tools["pg_restore"], append(into.args(), "--exit-on-error", "-j", "2", dump("dir.d", "-Fd", "-j", "2"))...)
		}},
		{"schema then data", func(t *testing.T, into endpoint) {
			psqlRun(t, tools, into, "-f", dump("schema.sql", "--schema-only"))
			psqlRun(t, tools, into, "-f", dump("data.sql", "--data-only"))
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			into := createPGDatabase(t, tools, pg, fmt.Sprintf("restored%d", i))
			c.restore(t, into)
			sameSnapshot(t, "zproxy vs its restore into PostgreSQL", want, snapshotOf(t, tools, into))
		})
	}
	t.Run("globals", func(t *testing.T) {
		psqlRun(t, tools, zp, "-c", "CREATE ROLE app_reader LOGIN")
		psqlRun(t, tools, zp, "-c", "ALTER ROLE app_reader SET statement_timeout = '5s'")
		path, err := exec.LookPath("pg_dumpall")
		if err != nil {
			missingClient(t, "pg_dumpall is not installed (apt-get install -y postgresql-client)")
		}
		out := tool(t, path, "-h", zp.host, "-p", zp.port, "-U", zp.user, "--globals-only")
		// The role's session defaults (pg_db_role_setting) come out as
		// PostgreSQL's pg_dumpall writes them.
		if !strings.Contains(out, "CREATE ROLE app_reader;") || !strings.Contains(out, "CREATE ROLE zproxy;") ||
			!strings.Contains(out, "ALTER ROLE app_reader SET statement_timeout TO '5s';") {
			t.Errorf("pg_dumpall --globals-only:\n%s", out)
		}
	})
	t.Run("one table", func(t *testing.T) {
		out := tool(t, tools["pg_dump"], append(zp.args(), "-t", "accounts")...)
		if !strings.Contains(out, "CREATE TABLE public.accounts") || strings.Contains(out, "CREATE TABLE public.tasks") {
			t.Errorf("pg_dump -t accounts:\n%s", out)
		}
	})
}

// TestPgDumpPostgresToZproxy loads a PostgreSQL 15 dump into zproxy (psql
// with ON_ERROR_STOP, and pg_restore), then dumps zproxy back into
// PostgreSQL: all three databases must agree. pg_restore
// --single-transaction loads the dump in one transaction block, so each
// table's primary key is added in the block that created the table and
// loaded its rows.
func TestPgDumpPostgresToZproxy(t *testing.T) {
	pg, tools := pgdumpTools(t)
	src := createPGDatabase(t, tools, pg, "source")
	psqlRun(t, tools, src, "-f", filepath.Join("testdata", "pgdump", "app.sql"))
	want := snapshotOf(t, tools, src)
	dir := t.TempDir()
	plain, custom := filepath.Join(dir, "pg.sql"), filepath.Join(dir, "pg.dump")
	tool(t, tools["pg_dump"], append(src.args(), "-f", plain)...)
	tool(t, tools["pg_dump"], append(src.args(), "-Fc", "-f", custom)...)

	for _, how := range []string{"psql", "pg_restore", "pg_restore_single"} {
		t.Run(how, func(t *testing.T) {
			s := startServer(t)
			zp := zproxyEndpoint(s)
			// PostgreSQL's dump names its owner.
			psqlRun(t, tools, zp, "-c", "CREATE ROLE postgres SUPERUSER LOGIN")
			switch how {
			case "psql":
				psqlRun(t, tools, zp, "-f", plain)
			case "pg_restore":
				tool(t, tools["pg_restore"], append(zp.args(), "--exit-on-error", custom)...)
			default:
				tool(t, tools["pg_restore"], append(zp.args(), "--exit-on-error", "--single-transaction", custom)...)
			}
			sameSnapshot(t, "PostgreSQL vs its restore into zproxy", want, snapshotOf(t, tools, zp))

			back := createPGDatabase(t, tools, pg, "back"+how)
			again := filepath.Join(dir, "again-"+how+".sql")
			tool(t, tools["pg_dump"], append(zp.args(), "-f", again)...)
			psqlRun(t, tools, back, "-f", again)
			sameSnapshot(t, "PostgreSQL vs the round trip through zproxy", want, snapshotOf(t, tools, back))
		})
	}
}
