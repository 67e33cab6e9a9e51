package parser

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// TestExpressionWithin: a CHECK lifted out of CREATE TABLE as text and
// parsed apart maps its nodes' offsets, through Within, to their places
// in the client's query string, also after another statement and past
// characters of more than one byte.
func TestExpressionWithin(t *testing.T) {
	for _, c := range []struct {
		query string
		want  int // position of the column the check's comparison reads
	}{
		{"CREATE TABLE t (a int, CHECK (nosuch > 0))", 31},
		{"CREATE TABLE t (a int CHECK ( nosuch > 0 ))", 31},
		{"SELECT 1; CREATE TABLE t (a int, CONSTRAINT c CHECK (nosuch > 0))", 54},
		{"SELECT 'é'; CREATE TABLE t (a int, CHECK (a::text || 'é' = nosuch))", 60},
	} {
		stmts, err := Parse(c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		st := &stmts[len(stmts)-1]
		var checks []NamedCheck
		for _, ext := range st.Columns {
			checks = append(checks, ext.Checks...)
		}
		checks = append(checks, st.Checks...)
		if len(checks) != 1 {
			t.Fatalf("%s: checks %v", c.query, checks)
		}
		sub, node, err := ParseExpression("(" + checks[0].SQL + ")")
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		sub.Within(st, checks[0].Offset-1)
		var col ast.ExprNode
		node.Accept(colFinder{&col})
		if col == nil {
			t.Fatalf("%s: no column", c.query)
		}
		if got := sub.Position(col.OriginTextPosition()); got != c.want {
			t.Errorf("%s: column at %d, want %d", c.query, got, c.want)
		}
	}
}

// colFinder keeps the last column name of an expression.
type colFinder struct{ col *ast.ExprNode }

func (v colFinder) Enter(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.ColumnNameExpr); ok && c.Name.Name.L == "nosuch" {
		*v.col = c
	}
	return n, false
}

func (v colFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
