package parser

import "testing"

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
