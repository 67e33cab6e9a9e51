package clients

import (
	"path/filepath"
	"testing"
)

// TestPgDumpSchemaObjects moves a database whose schema app holds an
// enum, a domain, a composite type and functions (used by a table's
// columns and default and by a view; testdata/pgdump/schema_objects.sql)
// both ways: PostgreSQL 15's dump into zproxy, and zproxy's dump of that
// into PostgreSQL, each loaded by psql with ON_ERROR_STOP;
// testdata/pgdump/schema_objects_check.sql must answer alike on all three.
func TestPgDumpSchemaObjects(t *testing.T) {
	pgDumpBothWays(t, "schemaobjects", "schema_objects.sql", "schema_objects_check.sql")
}

// pgDumpBothWays loads fixture into PostgreSQL, restores its dump into
// zproxy and zproxy's dump into another PostgreSQL database (db+"back"),
// checking each with checkFile.
func pgDumpBothWays(t *testing.T, db, fixture, checkFile string) {
	t.Helper()
	pg, tools, zp, check, want := pgDumpIntoZproxy(t, db, fixture, checkFile)
	back := createPGDatabase(t, tools, pg, db+"back")
	again := filepath.Join(t.TempDir(), "zproxy.sql")
	tool(t, tools["pg_dump"], append(zp.args(), "-f", again)...)
	psqlRun(t, tools, back, "-f", again)
	sameSnapshot(t, "PostgreSQL vs the round trip through zproxy", want, check(back))
}
