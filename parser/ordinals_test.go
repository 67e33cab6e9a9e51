package parser

import (
	"reflect"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// TestOrdinalPositions: each ORDER BY, GROUP BY or PARTITION BY ordinal
// maps to where the client wrote it, in AST order; a list the front end
// respells so that the ordinals cannot be paired leaves them all unknown.
func TestOrdinalPositions(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want []int
	}{
		{"SELECT * FROM t ORDER BY 9", []int{26}},
		{"SELECT a FROM t GROUP BY a, 2 ORDER BY 1 DESC, 3", []int{29, 40, 48}},
		{"SELECT 1; SELECT * FROM (SELECT a FROM t ORDER BY 1) s ORDER BY 2", []int{51, 65}},
		{"SELECT 'é', a FROM t ORDER BY 2", []int{31}},
		{"SELECT a FROM t ORDER BY a + 1, 2", []int{33}},
		{"SELECT a FROM t ORDER BY 2 NULLS FIRST", nil},
	} {
		stmts, err := Parse(c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		st := &stmts[len(stmts)-1]
		var nodes []*ast.PositionExpr
		st.AST.Accept(ordinalCollector{&nodes})
		var got []int
		for _, n := range nodes {
			if p := st.OrdinalPosition(n); p > 0 {
				got = append(got, p)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ordinals at %v, want %v", c.sql, got, c.want)
		}
	}
}
