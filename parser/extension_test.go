package parser

import (
	"reflect"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func TestExtensionStatements(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want ExtensionStatement
	}{
		{"CREATE EXTENSION pg_stat_statements", ExtensionStatement{Names: []string{"pg_stat_statements"}, NamePos: 18}},
		{"create extension if not exists \"PgX\" with schema public version '1.0' cascade",
			ExtensionStatement{Names: []string{"PgX"}, NamePos: 32, MissingOK: true, Schema: "public", Version: "1.0", Cascade: true}},
		{"CREATE EXTENSION x VERSION v1 SCHEMA s", ExtensionStatement{Names: []string{"x"}, NamePos: 18, Schema: "s", Version: "v1"}},
		{"DROP EXTENSION a, B CASCADE", ExtensionStatement{Drop: true, Names: []string{"a", "b"}, NamePos: 16, Cascade: true}},
		{"DROP EXTENSION IF EXISTS a RESTRICT", ExtensionStatement{Drop: true, Names: []string{"a"}, NamePos: 26, MissingOK: true}},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			sts, err := Parse(tc.sql)
			if err != nil {
				t.Fatal(err)
			}
			if got := sts[0].Extension; got == nil || !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestExtensionStatementErrors(t *testing.T) {
	for _, sql := range []string{
		"CREATE EXTENSION",
		"CREATE EXTENSION a, b",
		"CREATE EXTENSION IF EXISTS a",
		"CREATE EXTENSION a VERSION",
		"CREATE EXTENSION a RESTRICT",
		"DROP EXTENSION a,",
		"DROP EXTENSION a SCHEMA s",
	} {
		t.Run(sql, func(t *testing.T) {
			_, err := Parse(sql)
			if got := pgerr.CodeOf(err); got != pgerr.SyntaxError {
				t.Errorf("got %v (%s), want %s", err, got, pgerr.SyntaxError)
			}
		})
	}
}
