package parser

import (
	"reflect"
	"strings"
	"testing"
)

func TestSchemaStatements(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want *SchemaStatement
		err  string
	}{
		{sql: `CREATE SCHEMA app`, want: &SchemaStatement{Action: "create", Names: []string{"app"}}},
		{sql: `CREATE SCHEMA IF NOT EXISTS "App" AUTHORIZATION bob`, want: &SchemaStatement{Action: "create", Names: []string{"App"}, MissingOK: true, Role: &RoleName{Name: "bob"}}},
		{sql: `CREATE SCHEMA AUTHORIZATION CURRENT_USER`, want: &SchemaStatement{Action: "create", Role: &RoleName{Name: "current_user", Current: true}}},
		{sql: `CREATE SCHEMA authorization`, want: &SchemaStatement{Action: "create", Names: []string{"authorization"}}, err: "syntax"},
		{sql: `CREATE SCHEMA s CREATE TABLE t (a int)`, want: &SchemaStatement{Action: "create", Names: []string{"s"}, Elements: []SchemaElement{{Kind: "table", SQL: "CREATE TABLE t (a int)"}}}},
		// PostgreSQL's order: sequences, tables, views, indexes, triggers,
		// grants (GRANT CREATE is a privilege, not an element).
		{sql: `CREATE SCHEMA s GRANT CREATE, USAGE ON SCHEMA s TO bob CREATE VIEW v AS SELECT (a) FROM t CREATE UNIQUE INDEX ON t (a) CREATE TABLE t (a int) CREATE SEQUENCE IF NOT EXISTS q`,
			want: &SchemaStatement{Action: "create", Names: []string{"s"}, Elements: []SchemaElement{
				{Kind: "sequence", SQL: "CREATE SEQUENCE IF NOT EXISTS q"}, {Kind: "table", SQL: "CREATE TABLE t (a int)"},
				{Kind: "view", SQL: "CREATE VIEW v AS SELECT (a) FROM t"}, {Kind: "index", SQL: "CREATE UNIQUE INDEX ON t (a)"},
				{Kind: "grant", SQL: "GRANT CREATE, USAGE ON SCHEMA s TO bob"}}}},
		{sql: `CREATE SCHEMA s CREATE TABLE s.t (a int) CREATE INDEX i ON s.t (a)`, want: &SchemaStatement{Action: "create", Names: []string{"s"}, Elements: []SchemaElement{
			{Kind: "table", SQL: "CREATE TABLE s.t (a int)"}, {Kind: "index", SQL: "CREATE INDEX i ON s.t (a)"}}}},
		{sql: `CREATE SCHEMA s CREATE TABLE other.t (a int)`, err: "CREATE specifies a schema (other) different from the one being created (s)"},
		{sql: `CREATE SCHEMA s CREATE INDEX i ON other.t (a)`, err: "CREATE specifies a schema (other)"},
		{sql: `CREATE SCHEMA s CREATE FUNCTION f() RETURNS int`, err: "syntax error"},
		{sql: `CREATE SCHEMA IF NOT EXISTS s CREATE TABLE t (a int)`, err: "cannot include schema elements"},
		{sql: `ALTER SCHEMA s RENAME TO t`, want: &SchemaStatement{Action: "rename", Names: []string{"s"}, NewName: "t"}},
		{sql: `ALTER SCHEMA s OWNER TO bob`, want: &SchemaStatement{Action: "owner", Names: []string{"s"}, Role: &RoleName{Name: "bob"}}},
		{sql: `DROP SCHEMA IF EXISTS a, b CASCADE`, want: &SchemaStatement{Action: "drop", Names: []string{"a", "b"}, MissingOK: true, Cascade: true}},
		{sql: `DROP SCHEMA a RESTRICT`, want: &SchemaStatement{Action: "drop", Names: []string{"a"}}},
		{sql: `CREATE SCHEMA pg_x`, err: "unacceptable schema name"},
		{sql: `DROP SCHEMA a b`, err: "syntax error"},
		{sql: `ALTER SCHEMA s SET x`, err: "syntax error"},
	} {
		stmts, err := Parse(tc.sql)
		if tc.err != "" && tc.want == nil {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v, want %q", tc.sql, err, tc.err)
			}
			continue
		}
		if err != nil {
			if tc.err == "" {
				t.Errorf("%s: %v", tc.sql, err)
			}
			continue
		}
		got := stmts[0].Schema
		if got == nil {
			t.Errorf("%s: not a schema statement", tc.sql)
			continue
		}
		got.Pos = 0
		if got.Role != nil {
			got.Role.Pos = 0
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.sql, got, tc.want)
		}
	}
}
