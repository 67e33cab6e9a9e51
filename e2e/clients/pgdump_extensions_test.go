package clients

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPgDumpExtensions moves a database that created PostGIS, citext,
// hstore and pgcrypto and uses their types (testdata/pgdump/extensions.sql)
// both ways: PostgreSQL 15's dump (its CREATE EXTENSION IF NOT EXISTS, its
// public.geometry(Point,4326) and public.citext, its empty COPY into
// spatial_ref_sys) into zproxy, and zproxy's dump of that into
// PostgreSQL, which needs zproxy's pg_extension to list the extensions
// the database created, so that pg_dump writes CREATE EXTENSION ahead of
// the tables.
func TestPgDumpExtensions(t *testing.T) {
	pgDumpBothWays(t, "extensions", "extensions.sql", "extensions_check.sql")
}

// TestPgDumpExtensionsUsedUncreated dumps a zproxy database whose table
// uses PostGIS's and citext's types without CREATE EXTENSION (zproxy's
// are built in): the dump must still create them, or it would not
// restore into PostgreSQL; and an extension neither created nor used
// stays out of it.
func TestPgDumpExtensionsUsedUncreated(t *testing.T) {
	pg, tools := pgdumpTools(t)
	s := startServer(t)
	zp := zproxyEndpoint(s)
	psqlRun(t, tools, zp, "-c", "CREATE TABLE spots (id int PRIMARY KEY, geom geometry(Point, 4326), label citext)",
		"-c", "INSERT INTO spots VALUES (1, ST_SetSRID(ST_MakePoint(5, 6), 4326), 'Hello')")
	dump := filepath.Join(t.TempDir(), "zproxy.sql")
	tool(t, tools["pg_dump"], append(zp.args(), "-O", "-f", dump)...)
	raw, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for _, want := range []string{"CREATE EXTENSION IF NOT EXISTS postgis WITH SCHEMA public;", "CREATE EXTENSION IF NOT EXISTS citext WITH SCHEMA public;",
		"geom public.geometry(Point,4326)", "label public.citext"} {
		if !strings.Contains(text, want) {
			t.Errorf("the dump lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "hstore") {
		t.Errorf("the dump creates hstore, which the database neither created nor uses:\n%s", text)
	}
	back := createPGDatabase(t, tools, pg, "extused")
	psqlRun(t, tools, back, "-f", dump)
	const q = "SELECT id, ST_AsEWKT(geom), label = 'HELLO' FROM spots"
	if got, want := psqlRun(t, tools, back, "-At", "-c", q), psqlRun(t, tools, zp, "-At", "-c", q); got != want || want != "1|SRID=4326;POINT(5 6)|t\n" {
		t.Errorf("restored into PostgreSQL: %q, zproxy: %q", got, want)
	}
}
