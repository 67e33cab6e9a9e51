package parser

import (
	"reflect"
	"strings"
	"testing"
)

func TestIndexExpressionsLifted(t *testing.T) {
	for _, tc := range []struct {
		sql   string
		tidb  string
		exprs []string
		where string
	}{
		{`CREATE INDEX ON users (lower(email))`, "create index zp_unnamed_index on users (zp_index_expr_0)", []string{"lower(email)"}, ""},
		{`CREATE UNIQUE INDEX one_live ON users (email) WHERE deleted_at IS NULL`, "create unique index one_live on users (email)", nil, "deleted_at IS NULL"},
		{`CREATE INDEX i ON t (a, (b + 1) DESC, pg_catalog.upper(c) text_pattern_ops) INCLUDE (d) WHERE a::int > 3 AND (b OR c)`,
			"create index i on t (a, zp_index_expr_0 desc, zp_index_expr_1 )", []string{"b + 1", "pg_catalog.upper(c)"}, "a::int > 3 AND (b OR c)"},
		// A Z-order key's col(width) is a width, not a call.
		{`CREATE INDEX z ON t USING zorder (a(16), lower(b), (c * 2))`, "create index z on t (a(16), zp_index_expr_0, zp_index_expr_1 )", []string{"lower(b)", "c * 2"}, ""},
	} {
		st, err := Parse(tc.sql)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.sql, err)
		}
		var exprs []string
		for _, e := range st[0].IndexExprs {
			exprs = append(exprs, e.SQL)
		}
		if !reflect.DeepEqual(exprs, tc.exprs) || st[0].IndexWhere != tc.where {
			t.Errorf("Parse(%q): exprs %q where %q, want %q %q", tc.sql, exprs, st[0].IndexWhere, tc.exprs, tc.where)
		}
		if got := collapseSpaces(st[0].SQL); got != tc.tidb {
			t.Errorf("Parse(%q): TiDB text %q, want %q", tc.sql, got, tc.tidb)
		}
	}
}

func TestConflictTargetExpressions(t *testing.T) {
	st, err := Parse(`INSERT INTO t VALUES (1) ON CONFLICT (a, lower(b), (c + 1)) WHERE d IS NULL AND (e > 1) DO NOTHING`)
	if err != nil {
		t.Fatal(err)
	}
	oc := st[0].OnConflict
	var exprs []string
	for _, e := range oc.Exprs {
		exprs = append(exprs, e.SQL)
	}
	if !reflect.DeepEqual(oc.Columns, []string{"a"}) || !reflect.DeepEqual(exprs, []string{"lower(b)", "c + 1"}) || oc.Where == nil || oc.Where.SQL != "d IS NULL AND (e > 1)" || !oc.DoNothing {
		t.Errorf("ON CONFLICT = %+v, exprs %q", oc, exprs)
	}
}

// collapseSpaces folds the runs of blanks the rewriter leaves where it
// dropped tokens.
func collapseSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }
