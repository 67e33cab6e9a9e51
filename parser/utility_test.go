package parser

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func TestUtilityStatements(t *testing.T) {
	for _, tc := range []struct {
		sql   string
		check func(t *testing.T, u *UtilityStatement)
	}{
		{"PREPARE p (int, text) AS SELECT $1, $2", func(t *testing.T, u *UtilityStatement) {
			if u.Kind != "prepare" || u.Name != "p" || len(u.ParamTypes) != 2 || u.Inner == nil || u.Inner.AST == nil || u.Inner.NumParams != 2 {
				t.Errorf("%+v", u)
			}
		}},
		{`EXECUTE "P"(1, 'x' || 'y')`, func(t *testing.T, u *UtilityStatement) {
			if u.Kind != "execute" || u.Name != "P" || u.Args == nil || u.Args.AST == nil {
				t.Errorf("%+v", u)
			}
		}},
		{"EXECUTE p", func(t *testing.T, u *UtilityStatement) {
			if u.Args != nil {
				t.Errorf("%+v", u)
			}
		}},
		{"DEALLOCATE PREPARE ALL", func(t *testing.T, u *UtilityStatement) {
			if u.Kind != "deallocate" || !u.All {
				t.Errorf("%+v", u)
			}
		}},
		{"DEALLOCATE all_x", func(t *testing.T, u *UtilityStatement) {
			if u.All || u.Name != "all_x" {
				t.Errorf("%+v", u)
			}
		}},
		{"DISCARD TEMPORARY", func(t *testing.T, u *UtilityStatement) {
			if u.Discard != "temp" {
				t.Errorf("%+v", u)
			}
		}},
		{"DECLARE c BINARY NO SCROLL CURSOR WITH HOLD FOR SELECT 1", func(t *testing.T, u *UtilityStatement) {
			if u.Name != "c" || !u.Cursor.Binary || !u.Cursor.NoScroll || u.Cursor.Scroll || !u.Cursor.Hold || u.Inner == nil {
				t.Errorf("%+v", u)
			}
		}},
		{"FETCH c", func(t *testing.T, u *UtilityStatement) {
			if u.Fetch != (FetchDirection{Kind: FetchForward, Count: 1}) || u.Name != "c" {
				t.Errorf("%+v", u)
			}
		}},
		{"FETCH -3 IN c", func(t *testing.T, u *UtilityStatement) {
			if u.Fetch != (FetchDirection{Kind: FetchBackward, Count: 3}) {
				t.Errorf("%+v", u)
			}
		}},
		{"FETCH FORWARD ALL FROM c", func(t *testing.T, u *UtilityStatement) {
			if u.Fetch != (FetchDirection{Kind: FetchForward, Count: 1, All: true}) {
				t.Errorf("%+v", u)
			}
		}},
		{"MOVE LAST c", func(t *testing.T, u *UtilityStatement) {
			if u.Kind != "move" || u.Fetch != (FetchDirection{Kind: FetchAbsolute, Count: -1}) {
				t.Errorf("%+v", u)
			}
		}},
		{"FETCH RELATIVE -2 c", func(t *testing.T, u *UtilityStatement) {
			if u.Fetch != (FetchDirection{Kind: FetchRelative, Count: -2}) {
				t.Errorf("%+v", u)
			}
		}},
		{"CLOSE ALL", func(t *testing.T, u *UtilityStatement) {
			if u.Kind != "close" || !u.All {
				t.Errorf("%+v", u)
			}
		}},
		{"UNLISTEN *", func(t *testing.T, u *UtilityStatement) {
			if u.Kind != "unlisten" || !u.All {
				t.Errorf("%+v", u)
			}
		}},
		{"NOTIFY chan, 'hello'", func(t *testing.T, u *UtilityStatement) {
			if u.Kind != "notify" || u.Name != "chan" || u.Payload != "hello" {
				t.Errorf("%+v", u)
			}
		}},
		{"COPY public.t (a, b) FROM STDIN WITH (FORMAT csv, HEADER, FORCE_NOT_NULL (a), DELIMITER ';')", func(t *testing.T, u *UtilityStatement) {
			c := u.Copy
			if c.Table != "public.t" || len(c.Columns) != 2 || !c.From || !c.Stdio || len(c.Options) != 4 ||
				c.Options[0].Value != "csv" || c.Options[1].HasValue || c.Options[2].Columns[0] != "a" || c.Options[3].Value != ";" {
				t.Errorf("%+v", c)
			}
		}},
		{"COPY t FROM STDIN CSV HEADER DELIMITER AS '|' FORCE NOT NULL a, b", func(t *testing.T, u *UtilityStatement) {
			c := u.Copy
			if len(c.Options) != 4 || c.Options[0].Value != "csv" || c.Options[1].Name != "header" || c.Options[2].Value != "|" ||
				c.Options[3].Name != "force_not_null" || len(c.Options[3].Columns) != 2 {
				t.Errorf("%+v", c.Options)
			}
		}},
		{"COPY (SELECT 1) TO STDOUT WITH CSV FORCE QUOTE *", func(t *testing.T, u *UtilityStatement) {
			c := u.Copy
			if c.Query == nil || c.From || len(c.Options) != 2 || !c.Options[1].Star {
				t.Errorf("%+v", c)
			}
		}},
		{"COPY BINARY t TO STDOUT", func(t *testing.T, u *UtilityStatement) {
			if u.Copy.Options[0].Value != "binary" {
				t.Errorf("%+v", u.Copy)
			}
		}},
		{"COPY t FROM STDIN WHERE a > 1", func(t *testing.T, u *UtilityStatement) {
			if u.Copy.Where == nil || u.Copy.Where.AST == nil {
				t.Errorf("%+v", u.Copy)
			}
		}},
		{"COPY t FROM '/tmp/x'", func(t *testing.T, u *UtilityStatement) {
			if u.Copy.Stdio || u.Copy.File != "/tmp/x" {
				t.Errorf("%+v", u.Copy)
			}
		}},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			stmts, err := Parse(tc.sql)
			if err != nil {
				t.Fatal(err)
			}
			if len(stmts) != 1 || stmts[0].Utility == nil || stmts[0].AST != nil {
				t.Fatalf("%+v", stmts)
			}
			tc.check(t, stmts[0].Utility)
		})
	}
}

func TestUtilityStatementErrors(t *testing.T) {
	for _, tc := range []struct{ sql, code string }{
		{"PREPARE p AS", pgerr.SyntaxError.String()},
		{"PREPARE p (nosuchtype) AS SELECT 1", pgerr.UndefinedObject.String()},
		{"EXECUTE p()", pgerr.SyntaxError.String()},
		{"EXECUTE p(1", pgerr.SyntaxError.String()},
		{"DEALLOCATE", pgerr.SyntaxError.String()},
		{"DISCARD everything", pgerr.SyntaxError.String()},
		{"DECLARE c SCROLL NO SCROLL CURSOR FOR SELECT 1", pgerr.InvalidCursorDefinition.String()},
		{"DECLARE c CURSOR SELECT 1", pgerr.SyntaxError.String()},
		{"DECLARE c CURSOR FOR INSERT INTO t VALUES (1)", pgerr.SyntaxError.String()},
		{"FETCH", pgerr.SyntaxError.String()},
		{"FETCH ABSOLUTE FROM c", pgerr.SyntaxError.String()},
		{"NOTIFY c, 1", pgerr.SyntaxError.String()},
		{"COPY t", pgerr.SyntaxError.String()},
		{"COPY (SELECT 1) FROM STDIN", pgerr.SyntaxError.String()},
		{"COPY t FROM STDOUT", pgerr.SyntaxError.String()},
		{"COPY t TO STDOUT WITH OIDS", pgerr.SyntaxError.String()},
		{"COPY t TO STDOUT WHERE a = 1", pgerr.FeatureNotSupported.String()},
		{"COPY t FROM STDIN (FORMAT csv", pgerr.SyntaxError.String()},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			_, err := Parse(tc.sql)
			if got := pgerr.CodeOf(err).String(); got != tc.code {
				t.Errorf("got %v (%s), want %s", err, got, tc.code)
			}
		})
	}
}
