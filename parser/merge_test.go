package parser

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestMergeStatement: MERGE's structure is read from its tokens into
// Statement.Merge, its parts parsed apart; the AST is the stand-in the
// binder takes for the MERGE.
func TestMergeStatement(t *testing.T) {
	type when struct {
		matched bool
		cond    bool
		action  string
		set     int      // UPDATE's assignments
		cols    []string // INSERT's column list
		values  int      // INSERT's VALUES row
	}
	for _, c := range []struct {
		sql           string
		target, alias string
		only          bool
		whens         []when
	}{
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE", target: "t",
			whens: []when{{matched: true, action: "delete"}}},
		{sql: "MERGE INTO sch.t AS x USING (SELECT 1 AS a) AS s ON x.a = s.a WHEN MATCHED AND s.a > 0 THEN UPDATE SET b = s.a, c = DEFAULT WHEN NOT MATCHED THEN INSERT (a, b) VALUES (s.a, 1)",
			target: "t", alias: "x",
			whens: []when{{matched: true, cond: true, action: "update", set: 2}, {action: "insert", cols: []string{"a", "b"}, values: 2}}},
		{sql: "MERGE INTO ONLY t USING s JOIN u ON s.a = u.a ON t.a = s.a WHEN NOT MATCHED AND s.a IS NULL THEN DO NOTHING WHEN NOT MATCHED THEN INSERT DEFAULT VALUES",
			target: "t", only: true,
			whens: []when{{cond: true, action: "nothing"}, {action: "insert"}}},
		// UPDATE's respellings of a SET list: multiple-column and
		// subscripted assignments.
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET (a, b) = (s.a, 1), c[1] = 2",
			target: "t", whens: []when{{matched: true, action: "update", set: 3}}},
		// WHEN and THEN inside a CASE are the expression's.
		{sql: "MERGE INTO t USING s ON CASE WHEN s.a THEN true END WHEN MATCHED AND CASE WHEN s.b THEN true ELSE false END THEN DELETE",
			target: "t", whens: []when{{matched: true, cond: true, action: "delete"}}},
		{sql: "WITH q AS (SELECT 1 AS a) MERGE INTO t USING q ON t.a = q.a WHEN NOT MATCHED THEN INSERT OVERRIDING SYSTEM VALUE VALUES (q.a, $1)",
			target: "t", whens: []when{{action: "insert", values: 2}}},
	} {
		stmts, err := Parse(c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		st := stmts[0]
		m := st.Merge
		if m == nil {
			t.Errorf("%s: no Merge", c.sql)
			continue
		}
		if !m.IsStandIn(st.AST) {
			t.Errorf("%s: the AST is not the stand-in", c.sql)
		}
		if m.Target.Name.O != c.target || m.Alias != c.alias || st.TargetOnly != c.only {
			t.Errorf("%s: target %q alias %q only %v", c.sql, m.Target.Name.O, m.Alias, st.TargetOnly)
		}
		if m.Source == nil || m.On == nil || len(m.Whens) != len(c.whens) {
			t.Errorf("%s: source %v, on %v, %d clauses", c.sql, m.Source, m.On, len(m.Whens))
			continue
		}
		for i, w := range c.whens {
			g := m.Whens[i]
			if g.Matched != w.matched || (g.Cond != nil) != w.cond || g.Action != w.action || len(g.Set) != w.set ||
				strings.Join(g.Columns, ",") != strings.Join(w.cols, ",") || len(g.Values) != w.values {
				t.Errorf("%s: clause %d: %+v", c.sql, i+1, g)
			}
		}
	}
}

// TestMergeErrors: MERGE's syntax errors are PostgreSQL 15's, at its
// positions (at: the text the error points at, "" for the end).
func TestMergeErrors(t *testing.T) {
	for _, c := range []struct {
		sql, msg, at string
		code         pgerr.Code
	}{
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN UPDATE SET a = 1", msg: `syntax error at or near "UPDATE"`, at: "UPDATE"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN INSERT VALUES (1)", msg: `syntax error at or near "INSERT"`, at: "INSERT"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN DELETE", msg: `syntax error at or near "DELETE"`, at: "DELETE"},
		{sql: "MERGE INTO t USING s ON a WHEN MATCHED THEN DELETE RETURNING *", msg: `syntax error at or near "RETURNING"`, at: "RETURNING"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET a = 1 RETURNING *", msg: `syntax error at or near "RETURNING"`, at: "RETURNING"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT VALUES (1) RETURNING a", msg: `syntax error at or near "RETURNING"`, at: "RETURNING"},
		{sql: "MERGE INTO t USING s WHEN MATCHED THEN DELETE", msg: `syntax error at or near "WHEN"`, at: "WHEN"},
		{sql: "MERGE INTO t USING s ON t.a = s.a", msg: "syntax error at end of input"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED AND THEN DELETE", msg: `syntax error at or near "THEN"`, at: "THEN"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET", msg: "syntax error at end of input"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE a = 1", msg: `syntax error at or near "a"`, at: "a = 1"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED DELETE", msg: `syntax error at or near "DELETE"`, at: "DELETE"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT (a,) VALUES (1)", msg: `syntax error at or near ")"`, at: ") VALUES"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT VALUES ()", msg: `syntax error at or near ")"`, at: ")"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN NOT MATCHED THEN INSERT (a) DEFAULT VALUES", msg: `syntax error at or near "DEFAULT"`, at: "DEFAULT"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DO", msg: "syntax error at end of input"},
		{sql: "MERGE INTO t USING ON t.a = 1 WHEN MATCHED THEN DELETE", msg: `syntax error at or near "ON"`, at: "ON"},
		{sql: "MERGE INTO t USING s ON t.a = s.a, 1 WHEN MATCHED THEN DELETE", msg: `syntax error at or near ","`, at: ","},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE WHEN", msg: "syntax error at end of input"},
		{sql: "MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET a = 1 WHERE a = 2", msg: `syntax error at or near "WHERE"`, at: "WHERE"},
		{sql: "WITH m AS (MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE) SELECT 1", msg: "MERGE not supported in WITH query", at: "m AS", code: pgerr.FeatureNotSupported},
	} {
		_, err := Parse(c.sql)
		pe := pgerr.As(err)
		if pe == nil {
			t.Errorf("%s: %v, want an error", c.sql, err)
			continue
		}
		code := c.code
		if code == (pgerr.Code{}) {
			code = pgerr.SyntaxError
		}
		want := len([]rune(c.sql))
		if c.at != "" {
			want = len([]rune(c.sql[:strings.Index(c.sql, c.at)])) + 1
		}
		if pe.Code != code || !strings.Contains(pe.Message, c.msg) || c.at != "" && pe.Position != want {
			t.Errorf("%s: %s %q at %d, want %s %q at %d", c.sql, pe.Code, pe.Message, pe.Position, code, c.msg, want)
		}
	}
}
