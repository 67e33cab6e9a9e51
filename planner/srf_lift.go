package planner

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/parser"
)

// Set-returning functions in the select list (SELECT unnest(a) FROM t,
// pgJDBC's (information_schema._pg_expandarray(i.indkey)).n) are planned as
// the same function in FROM, joined laterally after the FROM items: each
// row of the FROM clause yields one row per row of the function, and none
// when the function yields none, as PostgreSQL's ProjectSet does. Calls
// written identically are one function (they would run in lockstep);
// different ones are zipped row by row (ROWS FROM), the shorter padded
// with NULLs, as PostgreSQL 10 and later run them. One in a grouped query
// (where PostgreSQL evaluates it after grouping) is refused with 0A000.

// selectListSRFs are the set-returning functions that may appear in a
// select list.
// generate_series is srf.go's (it may follow grouping).
var selectListSRFs = map[string]bool{"unnest": true, "_pg_expandarray": true, "generate_subscripts": true,
	"regexp_matches": true, "regexp_split_to_table": true}

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
	if n.GroupBy != nil || n.Having != nil {
		return unsupported("set-returning functions in the select list of a grouped query are not supported")
	}
	// One function in FROM, or ROWS FROM of them all, with a column per
	// function.
	alias := "zp_srf"
	var fn ast.ExprNode = v.calls[0]
	if len(v.calls) > 1 {
		args := make([]ast.ExprNode, len(v.calls))
		for i, c := range v.calls {
			args[i] = c
		}
		fn = &ast.FuncCallExpr{FnName: ast.NewCIStr(parser.RowsFromFunc), Args: args}
	}
	cols := make([]ast.CIStr, len(v.calls))
	for i := range v.calls {
		cols[i] = ast.NewCIStr(fmt.Sprintf("zp_srf_%d", i+1))
	}
	src := &ast.TableSource{
		Source: &ast.SelectStmt{SelectStmtOpts: &ast.SelectStmtOpts{SQLCache: true}, Kind: ast.SelectStmtKindSelect, Fields: &ast.FieldList{Fields: []*ast.SelectField{{
			Expr: &ast.FuncCallExpr{FnName: ast.NewCIStr(parser.TableFuncFunc), Args: []ast.ExprNode{fn}},
		}}}},
		AsName:      ast.NewCIStr(alias),
		ColumnNames: cols,
	}
	if n.From == nil || n.From.TableRefs == nil {
		n.From = &ast.TableRefsClause{TableRefs: &ast.Join{Left: src}}
	} else {
		n.From.TableRefs = &ast.Join{Left: n.From.TableRefs, Right: src, Tp: ast.CrossJoin}
	}
	// Each call becomes its function's column; the output keeps the
	// function's name, as PostgreSQL names it.
	for _, f := range n.Fields.Fields {
		if f.Expr == nil {
			continue
		}
		for i, key := range v.keys {
			if c, ok := f.Expr.(*ast.FuncCallExpr); ok && f.AsName.O == "" && restore(c) == key {
				f.AsName = ast.NewCIStr(c.FnName.L)
			}
			r := &srfReplacer{key: key, col: &ast.ColumnNameExpr{Name: &ast.ColumnName{Table: ast.NewCIStr(alias), Name: cols[i]}}}
			if out, ok := f.Expr.Accept(r); ok {
				f.Expr = out.(ast.ExprNode)
			}
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

// bindRowsFrom binds zp_rows_from(f1(...), f2(...)): the functions' rows
// zipped, their columns side by side.
func (b *Binder) bindRowsFrom(f *ast.FuncCallExpr, alias string, names []ast.CIStr, sc *scope, left *fromPart) (*fromPart, error) {
	ls := leftScope(sc, left)
	argScope := &scope{outer: ls, depthToOuter: 1, ctes: sc.ctes}
	if left == nil {
		argScope = ls
	}
	tf := &TableFunc{Name: "rows from"}
	for _, a := range f.Args {
		call, ok := a.(*ast.FuncCallExpr)
		if !ok {
			return nil, pgerr.New(pgerr.SyntaxError, "ROWS FROM takes function calls")
		}
		args := make([]Expr, len(call.Args))
		for i, x := range call.Args {
			e, err := b.bindExpr(argScope, x)
			if err != nil {
				return nil, err
			}
			args[i] = e
		}
		part, err := b.tableFunc(call.FnName.L, args)
		if err != nil {
			return nil, err
		}
		tf.Args = append(tf.Args, part.Args...)
		tf.Cols = append(tf.Cols, part.Cols...)
		tf.Parts = append(tf.Parts, TableFuncPart{Name: part.Name, Args: len(part.Args), NCols: len(part.Cols)})
	}
	if ls.correlated {
		sc.correlated = true
	}
	cols, err := renameColumns(tf.Cols, names, "function \"rows from\"")
	if err != nil {
		return nil, err
	}
	tf.Cols = cols
	return &fromPart{rel: tf, items: []*fromItem{{alias: alias, cols: cols}}}, nil
}
