package clients

import (
	"path/filepath"
	"testing"

	"github.com/zproxy/zproxy/e2e/harness"
)

// TestPgDumpTriggers loads a PostgreSQL 15 dump of a schema with every
// kind of trigger (testdata/pgdump/triggers.sql) into zproxy with psql and
// ON_ERROR_STOP; testdata/pgdump/triggers_check.sql (the triggers'
// pg_trigger rows and definitions, then writes that fire them) must
// answer alike on both.
func TestPgDumpTriggers(t *testing.T) {
	pgDumpIntoZproxy(t, "triggers", "triggers.sql", "triggers_check.sql")
}

// pgDumpIntoZproxy loads testdata/pgdump/fixture into a new PostgreSQL
// database db, dumps it with pg_dump (plain) and loads the dump into a
// new zproxy with psql and ON_ERROR_STOP; testdata/pgdump/checkFile must
// answer alike on both. It returns the PostgreSQL cluster, the tools, the
// zproxy, the check and PostgreSQL's answer to it.
func pgDumpIntoZproxy(t *testing.T, db, fixture, checkFile string) (pg *harness.Postgres, tools map[string]string, zp endpoint, check func(endpoint) string, want string) {
	t.Helper()
	pg, tools = pgdumpTools(t)
	src := createPGDatabase(t, tools, pg, db)
	psqlRun(t, tools, src, "-f", filepath.Join("testdata", "pgdump", fixture))
	plain := filepath.Join(t.TempDir(), db+".sql")
	tool(t, tools["pg_dump"], append(src.args(), "-f", plain)...)
	check = func(e endpoint) string {
		return psqlRun(t, tools, e, "-At", "-F", "|", "-f", filepath.Join("testdata", "pgdump", checkFile))
	}
	want = check(src)

	s := startServer(t)
	zp = zproxyEndpoint(s)
	psqlRun(t, tools, zp, "-c", "CREATE ROLE postgres SUPERUSER LOGIN")
	psqlRun(t, tools, zp, "-f", plain)
	sameSnapshot(t, "PostgreSQL vs its restore into zproxy", want, check(zp))
	return pg, tools, zp, check, want
}
