package planner_test

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/planner/plannertest"
)

// TestQualifiedBuiltins checks which schema finds a built-in function:
// pg_catalog (or none) finds every one; public, where zproxy's extensions
// live as CREATE EXTENSION puts them, finds the extensions' (pg_dump
// writes public.similarity(...)) and no core function; another schema
// none (the SQL script dialect_qualified_builtins checks the same against
// PostgreSQL where no extension is involved).
func TestQualifiedBuiltins(t *testing.T) {
	cat := plannertest.New()
	for _, c := range []struct {
		sql  string
		code pgerr.Code // zero: binds
	}{
		{"SELECT pg_catalog.now()", pgerr.Code{}},
		{"SELECT now()", pgerr.Code{}},
		{"SELECT public.similarity('abc', 'abd')", pgerr.Code{}},
		{"SELECT public.st_makepoint(1, 2)", pgerr.Code{}},
		{"SELECT public.now()", pgerr.UndefinedFunction},
		{"SELECT public.lower('A')", pgerr.UndefinedFunction},
		{"SELECT pg_temp.now()", pgerr.UndefinedFunction},
		{"SELECT nosuch_schema.now()", pgerr.InvalidSchemaName},
	} {
		_, err := cat.Bind(c.sql)
		if got := pgerr.CodeOf(err); err == nil && c.code != (pgerr.Code{}) || err != nil && got != c.code {
			t.Errorf("%s: got %v, want SQLSTATE %v", c.sql, err, c.code)
		}
	}
}
