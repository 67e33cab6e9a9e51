package session_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestDropExtensionNamesItsDependent checks the DETAIL of DROP
// EXTENSION's 2BP01, which names the first object that uses one of the
// extension's types as PostgreSQL's dependency report does (the scripts
// see messages, not details: extensions.slt).
func TestDropExtensionNamesItsDependent(t *testing.T) {
	for _, c := range []struct {
		name, setup, ext, detail string
	}{
		{"column", "CREATE TABLE places (id int PRIMARY KEY, geom geometry(Point, 4326))", "postgis", "column geom of table places depends on type geometry"},
		{"array column", "CREATE TABLE words (id int PRIMARY KEY, w citext[])", "citext", "column w of table words depends on type citext"},
		{"domain", "CREATE DOMAIN tags AS hstore", "hstore", "type tags depends on type hstore"},
		{"column of a domain", "CREATE DOMAIN paths AS ltree[]", "ltree", "type paths depends on type ltree"},
		{"composite", "CREATE TYPE located AS (name text, at geography)", "postgis", "type located depends on type geography"},
		{"function", "CREATE FUNCTION lbl(q lquery, n int) RETURNS int AS 'SELECT n' LANGUAGE sql", "ltree", "function lbl(lquery, integer) depends on type lquery"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, sess := newSession(t, memStore(t))
			mustExec(t, sess, c.setup)
			_, err := runSQL(context.Background(), sess, "DROP EXTENSION "+c.ext)
			pe := pgerr.As(err)
			if pe == nil || pe.Code != pgerr.DependentObjectsStillExist || pe.Detail != c.detail ||
				pe.Hint != "Use DROP ... CASCADE to drop the dependent objects too." {
				t.Fatalf("DROP EXTENSION %s: %v (detail %q), want 2BP01 with detail %q", c.ext, err, detailOf(pe), c.detail)
			}
		})
	}
}

func detailOf(pe *pgerr.Error) string {
	if pe == nil {
		return ""
	}
	return pe.Detail
}
