package clients

import (
	"path/filepath"
	"testing"
)

// TestPgDumpTriggers loads a PostgreSQL 15 dump of a schema with every
// kind of trigger (testdata/pgdump/triggers.sql) into zproxy with psql and
// ON_ERROR_STOP; testdata/pgdump/triggers_check.sql (the triggers'
// pg_trigger rows and definitions, then writes that fire them) must
// answer alike on both.
func TestPgDumpTriggers(t *testing.T) {
	pg, tools := pgdumpTools(t)
	src := createPGDatabase(t, tools, pg, "triggers")
	psqlRun(t, tools, src, "-f", filepath.Join("testdata", "pgdump", "triggers.sql"))
	plain := filepath.Join(t.TempDir(), "triggers.sql")
	tool(t, tools["pg_dump"], append(src.args(), "-f", plain)...)
	check := func(e endpoint) string {
		return psqlRun(t, tools, e, "-At", "-F", "|", "-f", filepath.Join("testdata", "pgdump", "triggers_check.sql"))
	}
	want := check(src)

	s := startServer(t)
	zp := zproxyEndpoint(s)
	psqlRun(t, tools, zp, "-c", "CREATE ROLE postgres SUPERUSER LOGIN")
	psqlRun(t, tools, zp, "-f", plain)
	sameSnapshot(t, "PostgreSQL vs its restore into zproxy", want, check(zp))
}
