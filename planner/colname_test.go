package planner

import (
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/zproxy/zproxy/parser"
)

// TestOutputNames checks the names unaliased select-list items get,
// PostgreSQL's FigureColname (the expectations are PostgreSQL 15's).
func TestOutputNames(t *testing.T) {
	tests := []struct{ sql, want string }{
		{`SELECT a, t.b, count(*), lower(c) FROM t`, "a|b|count|lower"},
		{`SELECT EXISTS (SELECT 1), NOT EXISTS (SELECT 1), NOT (NOT EXISTS (SELECT 1))`, "exists|?column?|?column?"},
		{`SELECT CASE WHEN a THEN b ELSE c END, CASE WHEN a THEN 1 END, CASE WHEN a THEN 1 ELSE upper(c) END FROM t`, "c|case|upper"},
		{`SELECT CASE WHEN a THEN 1 ELSE CASE WHEN b THEN c END END FROM t`, "case"},
		{`SELECT CAST(a AS text), CAST(a + 1 AS text), '1'::int, CAST(CAST(a AS text) AS int), CAST(CASE WHEN a THEN 1 END AS int8) FROM t`,
			"a|text|int4|a|int8"},
		{`SELECT CAST(CASE WHEN a THEN 1 ELSE b END AS int8) FROM t`, "b"},
		{`SELECT (SELECT a FROM t UNION SELECT 1), (SELECT 1 AS k UNION ALL SELECT 2), (SELECT 3 UNION SELECT 3), ((SELECT b FROM t) INTERSECT (SELECT 2))`,
			"a|k|?column?|b"},
		{`SELECT a || b, (a), -a, concat(a, b), rank() OVER () FROM t`, "?column?|a|?column?|concat|rank"},
	}
	for _, tt := range tests {
		sts, err := parser.Parse(tt.sql)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.sql, err)
		}
		sel, ok := sts[0].AST.(*ast.SelectStmt)
		if !ok {
			t.Fatalf("%q: not a SELECT", tt.sql)
		}
		var names []string
		for _, f := range sel.Fields.Fields {
			names = append(names, outputName(f))
		}
		if got := strings.Join(names, "|"); got != tt.want {
			t.Errorf("%s\n got  %s\n want %s", tt.sql, got, tt.want)
		}
	}
}
