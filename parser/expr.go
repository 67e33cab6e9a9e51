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
	stmts, err := Parse(exprPrefix + text)
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

// exprPrefix is what ParseExpression puts before the expression's text.
const exprPrefix = "SELECT "

// Within makes s, an expression's statement from ParseExpression of text
// that the client wrote at byte offset of outer's query (a CHECK
// constraint, lifted out of the statement as text), map the positions of
// its nodes into outer's query, as the parts parsed apart do: an error
// about a node then points at its place in the client's text. Offsets in
// the text ParseExpression put before it map to offset itself.
func (s *Statement) Within(outer *Statement, offset int) {
	if offset < 0 || offset > len(outer.query) {
		return
	}
	shift := func(o int) int {
		if o < len(exprPrefix) {
			return offset
		}
		return o - len(exprPrefix) + offset
	}
	segs := make([]seg, len(s.segs))
	for i, g := range s.segs {
		g.orig = shift(g.orig)
		segs[i] = g
	}
	s.segs = segs
	for i := range s.parts {
		part := make([]seg, len(s.parts[i]))
		for j, g := range s.parts[i] {
			g.orig = shift(g.orig)
			part[j] = g
		}
		s.parts[i] = part
	}
	for i, q := range s.catalogQualified {
		s.catalogQualified[i] = shift(q)
	}
	end := min(offset+len(s.Text)-len(exprPrefix), len(outer.query))
	s.query, s.Offset, s.Text = outer.query, offset, outer.query[offset:end]
}
