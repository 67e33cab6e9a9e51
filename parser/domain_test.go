package parser

import (
	"reflect"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

func TestDomainStatements(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want TypeStatement
	}{
		{`CREATE DOMAIN d AS integer`, TypeStatement{Action: TypeCreateDomain, Base: sqltypes.TypeInt4}},
		{`CREATE DOMAIN d int CHECK (value > 0) CHECK (VALUE < "value")`, TypeStatement{Action: TypeCreateDomain, Base: sqltypes.TypeInt4,
			Checks: []NamedCheck{{SQL: "VALUE > 0"}, {SQL: `VALUE < "value"`}}}},
		{`CREATE DOMAIN public.d AS varchar(3) COLLATE "default" DEFAULT 'a' || 'b' CONSTRAINT nn NOT NULL CONSTRAINT c CHECK (length(value) > 1) NOT NULL`,
			TypeStatement{Action: TypeCreateDomain, Base: sqltypes.Type{ID: sqltypes.Varchar, Width: 3}, Default: "'a' || 'b'", NotNull: true,
				Checks: []NamedCheck{{Name: "c", SQL: "length(VALUE) > 1"}}}},
		{`CREATE DOMAIN d AS int NOT NULL DEFAULT 5`, TypeStatement{Action: TypeCreateDomain, Base: sqltypes.TypeInt4, NotNull: true, Default: "5"}},
		{`CREATE DOMAIN d AS mood[]`, TypeStatement{Action: TypeCreateDomain, BaseName: "mood[]"}},
		{`ALTER DOMAIN d SET DEFAULT now() + interval '1 day'`, TypeStatement{Action: DomainSetDefault, Default: "now() + interval '1 day'"}},
		{`ALTER DOMAIN d DROP DEFAULT`, TypeStatement{Action: DomainSetDefault}},
		{`ALTER DOMAIN d SET NOT NULL`, TypeStatement{Action: DomainSetNotNull, NotNull: true}},
		{`ALTER DOMAIN d DROP NOT NULL`, TypeStatement{Action: DomainSetNotNull}},
		{`ALTER DOMAIN d ADD CHECK (value <> 3) NOT VALID`, TypeStatement{Action: DomainAddCheck, Checks: []NamedCheck{{SQL: "VALUE <> 3"}}, NotValid: true}},
		{`ALTER DOMAIN d ADD CONSTRAINT c CHECK ((value) IS NOT NULL)`, TypeStatement{Action: DomainAddCheck, Checks: []NamedCheck{{Name: "c", SQL: "(VALUE) IS NOT NULL"}}}},
		{`ALTER DOMAIN d DROP CONSTRAINT IF EXISTS c CASCADE`, TypeStatement{Action: DomainDropConstraint, Value: "c", MissingOK: true}},
		{`ALTER DOMAIN d RENAME CONSTRAINT c TO c2`, TypeStatement{Action: DomainRenameConstraint, Value: "c", NewName: "c2"}},
		{`ALTER DOMAIN d VALIDATE CONSTRAINT c`, TypeStatement{Action: DomainValidate, Value: "c"}},
		{`ALTER DOMAIN d RENAME TO e`, TypeStatement{Action: TypeRename, NewName: "e"}},
		{`ALTER DOMAIN d OWNER TO r`, TypeStatement{Action: TypeOwner, NewName: "r"}},
		{`DROP DOMAIN IF EXISTS d, e RESTRICT`, TypeStatement{Action: TypeDrop, MissingOK: true}},
	} {
		sts, err := Parse(tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		got := sts[0].Type
		if got == nil {
			t.Errorf("%s: no type statement", tc.sql)
			continue
		}
		want := tc.want
		want.Domain, want.Names, want.NamePos = true, got.Names, got.NamePos
		got.BasePos = 0
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.sql, *got, want)
		}
	}
}

func TestDomainStatementErrors(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		code pgerr.Code
		msg  string
	}{
		{`CREATE DOMAIN d AS int DEFAULT 1 DEFAULT 2`, pgerr.SyntaxError, "multiple default expressions"},
		{`CREATE DOMAIN d AS int NOT NULL NULL`, pgerr.SyntaxError, "conflicting NULL/NOT NULL constraints"},
		{`CREATE DOMAIN d AS int UNIQUE`, pgerr.SyntaxError, "unique constraints not possible for domains"},
		{`CREATE DOMAIN d AS int PRIMARY KEY`, pgerr.SyntaxError, "primary key constraints not possible for domains"},
		{`CREATE DOMAIN d AS text COLLATE "C"`, pgerr.FeatureNotSupported, `collations other than "default" are not supported`},
		{`CREATE DOMAIN d AS int CHECK ()`, pgerr.SyntaxError, ""},
		{`CREATE DOMAIN d AS int bogus`, pgerr.SyntaxError, ""},
		{`ALTER DOMAIN d ADD CONSTRAINT c NOT NULL`, pgerr.SyntaxError, ""},
		{`ALTER DOMAIN d SET SCHEMA s extra`, pgerr.SyntaxError, ""},
		{`ALTER DOMAIN d RESET x`, pgerr.FeatureNotSupported, "this form of ALTER DOMAIN is not supported"},
		{`ALTER DOMAIN d RENAME CONSTRAINT c c2`, pgerr.SyntaxError, ""},
	} {
		_, err := Parse(tc.sql)
		pe := pgerr.As(err)
		if pe == nil || pe.Code != tc.code || tc.msg != "" && pe.Message != tc.msg {
			t.Errorf("%s: %v, want %s %q", tc.sql, err, tc.code, tc.msg)
		}
	}
}
