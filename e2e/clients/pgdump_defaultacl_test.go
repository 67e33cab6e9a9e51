package clients

import (
	"path/filepath"
	"testing"
)

// TestPgDumpDefaultPrivileges moves ALTER DEFAULT PRIVILEGES both ways:
// PostgreSQL 15's dump of testdata/pgdump/default_privileges.sql into
// zproxy, and zproxy's dump of that back into PostgreSQL, each loaded by
// psql with ON_ERROR_STOP; pg_default_acl and what the defaults granted
// must read alike on all three.
func TestPgDumpDefaultPrivileges(t *testing.T) {
	pg, tools := pgdumpTools(t)
	psqlRun(t, tools, pgEndpoint(pg, "postgres"), "-c", "CREATE ROLE acl24_ro")
	src := createPGDatabase(t, tools, pg, "defaultacl")
	psqlRun(t, tools, src, "-f", filepath.Join("testdata", "pgdump", "default_privileges.sql"))
	plain := filepath.Join(t.TempDir(), "defaultacl.sql")
	tool(t, tools["pg_dump"], append(src.args(), "-f", plain)...)
	check := func(e endpoint) string {
		return psqlRun(t, tools, e, "-At", "-F", "|", "-f", filepath.Join("testdata", "pgdump", "default_privileges_check.sql"))
	}
	want := check(src)

	s := startServer(t)
	zp := zproxyEndpoint(s)
	psqlRun(t, tools, zp, "-c", "CREATE ROLE postgres SUPERUSER LOGIN", "-c", "CREATE ROLE acl24_ro")
	psqlRun(t, tools, zp, "-f", plain)
	sameSnapshot(t, "PostgreSQL vs its restore into zproxy", want, check(zp))

	back := createPGDatabase(t, tools, pg, "defaultaclback")
	again := filepath.Join(t.TempDir(), "zproxy.sql")
	tool(t, tools["pg_dump"], append(zp.args(), "-f", again)...)
	psqlRun(t, tools, back, "-f", again)
	sameSnapshot(t, "PostgreSQL vs the round trip through zproxy", want, check(back))
}
