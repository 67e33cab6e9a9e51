package parser

import (
	"reflect"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestDatabaseStatements: CREATE, DROP and ALTER DATABASE in PostgreSQL's
// spellings, and the syntax errors of malformed ones; statements that
// merely name a database are left to their own parsers.
func TestDatabaseStatements(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want *DatabaseStatement // nil: not a database statement
		code pgerr.Code         // set: the error
	}{
		{sql: "CREATE DATABASE d", want: &DatabaseStatement{Action: "create", Name: "d", Pos: 17}},
		{sql: `create database "D" with owner = x template template0 encoding 'UTF8' connection limit = -1 is_template false`,
			want: &DatabaseStatement{Action: "create", Name: "D", Pos: 17, Options: []DatabaseOption{
				{Name: "owner", Value: "x", Pos: 26}, {Name: "template", Value: "template0", Pos: 36},
				{Name: "encoding", Value: "UTF8", Pos: 55}, {Name: "connection limit", Value: "-1", Pos: 71},
				{Name: "is_template", Value: "false", Pos: 93}}}},
		{sql: "CREATE DATABASE d LC_COLLATE DEFAULT", want: &DatabaseStatement{Action: "create", Name: "d", Pos: 17,
			Options: []DatabaseOption{{Name: "lc_collate", Default: true, Pos: 19}}}},
		{sql: "DROP DATABASE d", want: &DatabaseStatement{Action: "drop", Name: "d", Pos: 15}},
		{sql: "DROP DATABASE IF EXISTS d WITH (FORCE)", want: &DatabaseStatement{Action: "drop", Name: "d", Pos: 25, MissingOK: true, Force: true}},
		{sql: "DROP DATABASE d (force, force)", want: &DatabaseStatement{Action: "drop", Name: "d", Pos: 15, Force: true}},
		{sql: "ALTER DATABASE d RENAME TO e", want: &DatabaseStatement{Action: "rename", Name: "d", Pos: 16, NewName: "e"}},
		{sql: "ALTER DATABASE d OWNER TO r", want: &DatabaseStatement{Action: "owner", Name: "d", Pos: 16, Owner: &RoleName{Name: "r", Pos: 27}}},
		{sql: "ALTER DATABASE d SET search_path TO a, 'b c'", want: &DatabaseStatement{Action: "set", Name: "d", Pos: 16, Param: "search_path", Value: `a, "b c"`}},
		{sql: "ALTER DATABASE d SET work_mem = DEFAULT", want: &DatabaseStatement{Action: "reset", Name: "d", Pos: 16, Param: "work_mem"}},
		{sql: "ALTER DATABASE d RESET ALL", want: &DatabaseStatement{Action: "reset", Name: "d", Pos: 16, Param: "all"}},
		{sql: "ALTER DATABASE d WITH ALLOW_CONNECTIONS false", want: &DatabaseStatement{Action: "options", Name: "d", Pos: 16,
			Options: []DatabaseOption{{Name: "allow_connections", Value: "false", Pos: 23}}}},
		{sql: "DROP DATABASE d WITH (other)", code: pgerr.SyntaxError},
		{sql: "CREATE DATABASE d owner", code: pgerr.SyntaxError},
		{sql: "ALTER DATABASE d", code: pgerr.SyntaxError},
		{sql: "ALTER DATABASE d SET TABLESPACE t", code: pgerr.FeatureNotSupported},
		{sql: "REINDEX DATABASE d"},
		{sql: "CREATE TABLE database (a int)"},
	} {
		st, err := Parse(c.sql)
		if c.code != (pgerr.Code{}) {
			if pgerr.CodeOf(err) != c.code {
				t.Errorf("%s: %v, want %s", c.sql, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if len(st) != 1 || !reflect.DeepEqual(st[0].Database, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.sql, st[0].Database, c.want)
		}
	}
}
