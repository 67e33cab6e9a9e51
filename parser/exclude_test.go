package parser

import (
	"reflect"
	"testing"
)

// TestExcludeLifted: an EXCLUDE constraint is lifted whole into
// ConstraintSyntax.Excludes and leaves a zp_exclude(n) CHECK behind.
func TestExcludeLifted(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want []ExcludeSyntax
	}{
		{`CREATE TABLE b (room int, during tstzrange, EXCLUDE USING gist (room WITH =, during WITH &&))`,
			[]ExcludeSyntax{{Method: "gist", Elements: []ExcludeElement{{SQL: "room", Op: "="}, {SQL: "during", Op: "&&"}}}}},
		{`CREATE TABLE b (r int4range, k text, CONSTRAINT x EXCLUDE (r WITH OPERATOR(pg_catalog.-|-)) WHERE (k <> 'free') DEFERRABLE INITIALLY DEFERRED, UNIQUE (k))`,
			[]ExcludeSyntax{{Method: "btree", Elements: []ExcludeElement{{SQL: "r", Op: "-|-"}}, Where: "k <> 'free'", Deferral: InitiallyDeferred}}},
		{`CREATE TABLE b (s timestamp, e timestamp, EXCLUDE USING gist (tsrange(s, e) WITH &&))`,
			[]ExcludeSyntax{{Method: "gist", Elements: []ExcludeElement{{SQL: "tsrange(s, e)", Expr: true, Op: "&&"}}}}},
		{`ALTER TABLE b ADD CONSTRAINT x EXCLUDE USING gist ((r) WITH &&)`,
			[]ExcludeSyntax{{Method: "gist", Elements: []ExcludeElement{{SQL: "r", Expr: true, Op: "&&"}}}}},
	} {
		sts, err := Parse(tc.sql)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		cs := sts[0].Constraints
		if cs == nil || !reflect.DeepEqual(cs.Excludes, tc.want) {
			t.Errorf("%s: lifted %+v, want %+v", tc.sql, cs, tc.want)
		}
	}
}
