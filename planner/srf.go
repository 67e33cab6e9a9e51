package planner

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"

	"github.com/zproxy/zproxy/parser"
)

// Set-returning functions in the select list (SELECT unnest(a) FROM t,
// pgJDBC's (information_schema._pg_expandarray(i.indkey)).n) are planned as
// the same function in FROM, joined laterally after the FROM items: each
// row of the FROM clause yields one row per row of the function, and none
// when the function yields none, as PostgreSQL's ProjectSet does. Calls
// written identically are one function (they would run in lockstep).
// Several different ones, or one in a grouped query (where PostgreSQL
// evaluates it after grouping), are refused with 0A000.

// selectListSRFs are the set-returning functions that may appear in a
// select list.
var selectListSRFs = map[string]bool{"unnest": true, "generate_series": true, "_pg_expandarray": true}

// liftSRFs rewrites the select list's set-returning calls of n into
// lateral FROM items, in place.
func liftSRFs(n *ast.SelectStmt) error {
	if n.Fields == nil {
		return nil
	}
	v := &srfFinder{}
	for _, f := range n.Fields.Fields {
		if f.Expr != nil {
			f.Expr.Accept(v)
		}
	}
	if len(v.calls) == 0 {
		return nil
	}
	if len(v.calls) > 1 {
		return unsupported("several different set-returning functions in one select list are not supported")
	}
	if n.GroupBy != nil || n.Having != nil {
		return unsupported("set-returning functions in the select list of a grouped query are not supported")
	}
	call := v.calls[0]
	alias := "zp_srf"
	src := &ast.TableSource{
		Source: &ast.SelectStmt{SelectStmtOpts: &ast.SelectStmtOpts{SQLCache: true}, Kind: ast.SelectStmtKindSelect, Fields: &ast.FieldList{Fields: []*ast.SelectField{{
			Expr: &ast.FuncCallExpr{FnName: ast.NewCIStr(parser.TableFuncFunc), Args: []ast.ExprNode{call}},
		}}}},
		AsName:      ast.NewCIStr(alias),
		ColumnNames: []ast.CIStr{ast.NewCIStr(call.FnName.L)},
	}
	if n.From == nil || n.From.TableRefs == nil {
		n.From = &ast.TableRefsClause{TableRefs: &ast.Join{Left: src}}
	} else {
		n.From.TableRefs = &ast.Join{Left: n.From.TableRefs, Right: src, Tp: ast.CrossJoin}
	}
	// Each call becomes the function's column; its output name stays the
	// function's name, as PostgreSQL names it.
	key := v.keys[0]
	for _, f := range n.Fields.Fields {
		if f.Expr == nil {
			continue
		}
		if c, ok := f.Expr.(*ast.FuncCallExpr); ok && f.AsName.O == "" && restore(c) == key {
			f.AsName = ast.NewCIStr(call.FnName.L)
		}
		r := &srfReplacer{key: key, col: &ast.ColumnNameExpr{Name: &ast.ColumnName{Table: ast.NewCIStr(alias), Name: ast.NewCIStr(call.FnName.L)}}}
		if out, ok := f.Expr.Accept(r); ok {
			f.Expr = out.(ast.ExprNode)
		}
	}
	return nil
}

func restore(n ast.Node) string {
	var sb strings.Builder
	if err := n.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &sb)); err != nil {
		return fmt.Sprintf("%p", n)
	}
	return sb.String()
}

// srfFinder collects the distinct set-returning calls of an expression
// (not looking into subqueries, which are queries of their own).
type srfFinder struct {
	calls []*ast.FuncCallExpr
	keys  []string
}

func (v *srfFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr:
		return n, true
	case *ast.FuncCallExpr:
		if selectListSRFs[x.FnName.L] {
			k := restore(x)
			for _, have := range v.keys {
				if have == k {
					return n, true
				}
			}
			v.calls, v.keys = append(v.calls, x), append(v.keys, k)
			return n, true
		}
	}
	return n, false
}

func (v *srfFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// srfReplacer replaces the calls written as key by the column col.
type srfReplacer struct {
	key string
	col *ast.ColumnNameExpr
}

func (r *srfReplacer) Enter(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(*ast.SubqueryExpr); ok {
		return n, true
	}
	return n, false
}

func (r *srfReplacer) Leave(n ast.Node) (ast.Node, bool) {
	if c, ok := n.(*ast.FuncCallExpr); ok && selectListSRFs[c.FnName.L] && restore(c) == r.key {
		return r.col, true
	}
	return n, true
}
