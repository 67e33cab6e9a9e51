package parser

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
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

// TestSearchCycleRefused: SEARCH and CYCLE after a WITH query are 0A000
// (record values), while the words elsewhere keep their meaning.
func TestSearchCycleRefused(t *testing.T) {
	for _, c := range []struct {
		sql     string
		refused bool
	}{
		{"WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t WHERE n < 3) SEARCH DEPTH FIRST BY n SET ord SELECT * FROM t", true},
		{"WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t) SEARCH BREADTH FIRST BY n SET ord SELECT * FROM t", true},
		{"WITH RECURSIVE g(a, b) AS (SELECT 1, 2 UNION ALL SELECT b, a FROM g) CYCLE a, b SET is_cycle USING path SELECT * FROM g", true},
		{"SELECT * FROM (WITH RECURSIVE g(a) AS (SELECT 1 UNION ALL SELECT a FROM g) CYCLE a SET c TO 'Y' DEFAULT 'N' USING p SELECT a FROM g) s", true},
		{"SELECT (a) cycle, search FROM (SELECT 1 AS a, 2 AS search) s", false},
		{"SELECT cycle FROM (SELECT 1 AS cycle) s", false},
	} {
		_, err := Parse(c.sql)
		if got := pgerr.CodeOf(err) == pgerr.FeatureNotSupported; got != c.refused {
			t.Errorf("%s: %v, want refused %v", c.sql, err, c.refused)
		}
	}
}
