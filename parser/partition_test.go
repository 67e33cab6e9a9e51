package parser

import (
	"errors"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestPartitionKeyParts reads PARTITION BY's key parts as PostgreSQL's
// part_elem: columns, function calls and parenthesized expressions.
func TestPartitionKeyParts(t *testing.T) {
	for _, tc := range []struct {
		key   string
		cols  []string
		exprs []string
		code  pgerr.Code
	}{
		{key: "(a, b)", cols: []string{"a", "b"}, exprs: []string{"", ""}},
		{key: `("A")`, cols: []string{"A"}, exprs: []string{""}},
		{key: "((lower(name)))", cols: []string{""}, exprs: []string{"lower(name)"}},
		{key: "(lower(name))", cols: []string{""}, exprs: []string{"lower(name)"}},
		{key: "(date_trunc('day', ts))", cols: []string{""}, exprs: []string{"date_trunc('day', ts)"}},
		{key: "(pg_catalog.lower(s))", cols: []string{""}, exprs: []string{"pg_catalog.lower(s)"}},
		{key: "(a, (b + 1))", cols: []string{"a", ""}, exprs: []string{"", "b + 1"}},
		{key: "((a % 4), ((b)))", cols: []string{"", ""}, exprs: []string{"a % 4", "(b)"}},
		{key: "(a COLLATE \"C\")", code: pgerr.FeatureNotSupported},
		{key: "(lower(a) text_ops)", code: pgerr.FeatureNotSupported},
		{key: "((row_number() OVER ()))", code: pgerr.WindowingError},
		{key: "(())", code: pgerr.SyntaxError},
		{key: "(a.b)", code: pgerr.SyntaxError},
	} {
		sts, err := Parse("CREATE TABLE t (a int, b int) PARTITION BY RANGE " + tc.key)
		if tc.code != (pgerr.Code{}) {
			var pe *pgerr.Error
			if !errors.As(err, &pe) || pe.Code != tc.code {
				t.Errorf("%s: error %v, want %s", tc.key, err, tc.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.key, err)
			continue
		}
		ps := sts[0].Partition
		var exprs []string
		for _, e := range ps.KeyExprs {
			exprs = append(exprs, e.SQL)
		}
		if !slices.Equal(ps.KeyColumns, tc.cols) || !slices.Equal(exprs, tc.exprs) {
			t.Errorf("%s: columns %q, expressions %q; want %q, %q", tc.key, ps.KeyColumns, exprs, tc.cols, tc.exprs)
		}
	}
}
