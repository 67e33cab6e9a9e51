package parser

import (
	"reflect"
	"strings"
	"testing"
)

// TestCurrentOf: WHERE CURRENT OF in UPDATE's and DELETE's own WHERE is
// taken apart (Statement.CurrentOf, WHERE TRUE for TiDB); anywhere else it
// stays a syntax error.
func TestCurrentOf(t *testing.T) {
	for _, c := range []struct {
		sql, cursor string
		err         bool
	}{
		{sql: "UPDATE t SET a = 1 WHERE CURRENT OF c", cursor: "c"},
		{sql: `DELETE FROM t WHERE CURRENT OF "My Cursor" RETURNING *`, cursor: "My Cursor"},
		{sql: "UPDATE t SET a = (SELECT 1) WHERE CURRENT OF c RETURNING a, b", cursor: "c"},
		{sql: "UPDATE t SET a = 1 WHERE a = 2"},
		{sql: "DELETE FROM t WHERE CURRENT OF c AND a = 1", err: true},
		{sql: "DELETE FROM t WHERE CURRENT OF", err: true},
		{sql: "SELECT * FROM t WHERE CURRENT OF c", err: true},
	} {
		stmts, err := Parse(c.sql)
		if (err != nil) != c.err {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if err == nil && stmts[0].CurrentOf != c.cursor {
			t.Errorf("%s: cursor %q, want %q", c.sql, stmts[0].CurrentOf, c.cursor)
		}
	}
}

// TestSearchCycleClauses: SEARCH and CYCLE after a WITH query are taken
// out of the text into Statement.SearchCycles, wherever the WITH is, while
// the words elsewhere keep their meaning.
func TestSearchCycleClauses(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want []SearchCycle
		err  string
	}{
		{sql: "WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t WHERE n < 3) SEARCH DEPTH FIRST BY n SET ord SELECT * FROM t",
			want: []SearchCycle{{CTE: "t", Search: true, SearchBy: []string{"n"}, SearchSet: "ord"}}},
		{sql: "WITH RECURSIVE t AS NOT MATERIALIZED (SELECT 1 AS n UNION ALL SELECT n+1 FROM t) SEARCH BREADTH FIRST BY n, m SET ord CYCLE n SET c TO 'Y' DEFAULT 'N' USING p SELECT * FROM t",
			want: []SearchCycle{{CTE: "t", Search: true, Breadth: true, SearchBy: []string{"n", "m"}, SearchSet: "ord", Cycle: true, CycleCols: []string{"n"}, CycleSet: "c",
				Mark: &SearchCycleValue{Text: "Y", String: true}, Default: &SearchCycleValue{Text: "N", String: true}, CyclePath: "p"}}},
		{sql: "SELECT * FROM (WITH RECURSIVE g(a, b) AS (SELECT 1, 2 UNION ALL SELECT b, a FROM g) CYCLE a, b SET is_cycle USING path SELECT a FROM g) s",
			want: []SearchCycle{{CTE: "g", Cycle: true, CycleCols: []string{"a", "b"}, CycleSet: "is_cycle", CyclePath: "path"}}},
		{sql: "SELECT (a) cycle, search FROM (SELECT 1 AS a, 2 AS search) s"},
		{sql: "WITH RECURSIVE t(n) AS (SELECT 1) CYCLE n SET c TO now() DEFAULT 'N' USING p SELECT 1", err: "cycle mark value"},
		{sql: "WITH RECURSIVE t(n) AS (SELECT 1) SEARCH DEPTH FIRST BY n SELECT 1", err: "syntax error"},
	} {
		stmts, err := Parse(c.sql)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.sql, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		got := stmts[0].SearchCycles
		for i := range got {
			got[i].Pos, got[i].CyclePos = 0, 0
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.sql, got, c.want)
		}
	}
}
