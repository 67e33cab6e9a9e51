package clients

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPgDumpViews dumps zproxy databases with pg_dump 15 and restores
// them into PostgreSQL with ON_ERROR_STOP. A fresh database's dump holds
// no ACL statement (PostgreSQL's own holds none: pg_dump leaves out the
// system objects' ACLs pg_init_privs records). A database of views of
// the shapes real schemas use (testdata/pgdump/views.sql) restores with
// the same definitions, as pg_get_viewdef and information_schema print
// them on either side (testdata/pgdump/views_check.sql), so schema-diff
// tools see no change.
func TestPgDumpViews(t *testing.T) {
	pg, tools := pgdumpTools(t)
	s := startServer(t)
	zp := zproxyEndpoint(s)
	dump := func() string {
		path := filepath.Join(t.TempDir(), "dump.sql")
		tool(t, tools["pg_dump"], append(zp.args(), "-f", path)...)
		return path
	}
	t.Run("fresh database", func(t *testing.T) {
		text, err := os.ReadFile(dump())
		if err != nil {
			t.Fatal(err)
		}
		if acl := regexp.MustCompile(`(?m)^(GRANT|REVOKE) .*$`).FindAllString(string(text), -1); len(acl) > 0 {
			t.Errorf("pg_dump of a fresh zproxy database has ACL statements:\n%s", strings.Join(acl, "\n"))
		}
	})
	psqlRun(t, tools, zp, "-f", filepath.Join("testdata", "pgdump", "views.sql"))
	check := func(e endpoint) string {
		return psqlRun(t, tools, e, "-At", "-F", "|", "-f", filepath.Join("testdata", "pgdump", "views_check.sql"))
	}
	want := check(zp)
	into := createPGDatabase(t, tools, pg, "views")
	psqlRun(t, tools, into, "-f", dump())
	sameSnapshot(t, "zproxy's views vs their restore into PostgreSQL", want, check(into))
}
