package parser

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// ParseExpression parses one scalar expression written in PostgreSQL's
// syntax, such as a column's DEFAULT kept as text in the catalog. It
// returns the statement the expression was parsed in (its rewrites and
// positions belong to it) and the expression.
func ParseExpression(text string) (*Statement, ast.ExprNode, error) {
	stmts, err := Parse("SELECT " + text)
	if err != nil {
		return nil, nil, err
	}
	if len(stmts) != 1 {
		return nil, nil, pgerr.New(pgerr.SyntaxError, "syntax error in expression %q", text)
	}
	sel, ok := stmts[0].AST.(*ast.SelectStmt)
	if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 || sel.From != nil || sel.Where != nil ||
		sel.GroupBy != nil || sel.Having != nil || sel.OrderBy != nil || sel.Limit != nil || sel.Fields.Fields[0].Expr == nil {
		return nil, nil, pgerr.New(pgerr.SyntaxError, "syntax error in expression %q", text)
	}
	return &stmts[0], sel.Fields.Fields[0].Expr, nil
}
