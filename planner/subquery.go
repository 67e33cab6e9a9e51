package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// newSubqueryID numbers the statement's subqueries.
func (b *Binder) newSubqueryID() int {
	b.nextSubquery++
	return b.nextSubquery
}

// bindSubquery binds a subquery expression's query with sc as its outer
// scope (one row push away) and reports whether it reads any outer row.
func (b *Binder) bindSubquery(sc *scope, q ast.Node) (ir.Rel, bool, error) {
	saved := b.level
	b.level = nil
	defer func() { b.level = saved }()
	rel, err := b.bindQuery(q, env{outer: sc, depth: 1, ctes: sc.ctes})
	if err != nil {
		return nil, false, err
	}
	return rel, ir.Escapes(rel), nil
}

func (b *Binder) bindScalarSubquery(sc *scope, n *ast.SubqueryExpr) (ir.Expr, error) {
	rel, corr, err := b.bindSubquery(sc, n.Query)
	if err != nil {
		return nil, err
	}
	cols := rel.Columns()
	if len(cols) != 1 {
		return nil, pgerr.New(pgerr.SyntaxError, "subquery must return only one column")
	}
	return &ir.Subquery{Kind: ir.ScalarSubquery, Plan: rel, Correlated: corr, Typ: cols[0].Type, ID: b.newSubqueryID()}, nil
}

// bindCompareSubquery binds left op ANY|ALL (subquery), and IN / NOT IN
// (= ANY, negated).
func (b *Binder) bindCompareSubquery(sc *scope, leftNode ast.ExprNode, op ir.BinOp, all bool, q ast.ExprNode, neg bool, agg *aggBinder) (ir.Expr, error) {
	sq, ok := q.(*ast.SubqueryExpr)
	if !ok {
		return nil, unsupported("ANY/ALL needs a subquery")
	}
	kind := ir.AnySubquery
	if all {
		kind = ir.AllSubquery
	}
	if row, isRow := leftNode.(*ast.RowExpr); isRow {
		items, err := b.rowItems(sc, row, agg)
		if err != nil {
			return nil, err
		}
		return b.compareSubquery(sc, items, true, op, kind, sq, neg)
	}
	left, err := b.child(sc, leftNode, agg)
	if err != nil {
		return nil, err
	}
	return b.compareSubquery(sc, []ir.Expr{left}, false, op, kind, sq, neg)
}

// bindAggregateCall binds the calls that are aggregates although TiDB
// parses them as plain functions: aggregates it does not know
// (string_agg, bool_and ...), and the parser's spellings of FILTER
// (zp_agg_filter(agg, cond)), ORDER BY inside an aggregate
// (zp_agg_order(agg, keys...)) and WITHIN GROUP. ok is false for other
// functions.
func (b *Binder) bindAggregateCall(sc *scope, n *ast.FuncCallExpr, agg *aggBinder) (ir.Expr, bool, error) {
	name := n.FnName.L
	var filter ast.ExprNode
	var order []ast.ExprNode
	inner := n
	switch name {
	case parser.AggFilterFunc, parser.AggOrderFunc:
		if len(n.Args) < 2 {
			return nil, true, pgerr.New(pgerr.SyntaxError, "malformed aggregate clause")
		}
		if name == parser.AggFilterFunc {
			filter = n.Args[1]
		} else {
			order = n.Args[1:]
		}
		switch call := n.Args[0].(type) {
		case *ast.AggregateFuncExpr:
			if agg == nil {
				return nil, true, pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed here")
			}
			return wrapAgg(agg.bindAgg(call, call.F, call.Args, call.Distinct, filter, order))
		case *ast.FuncCallExpr:
			if call.FnName.L == parser.AggFilterFunc || call.FnName.L == parser.AggOrderFunc {
				// ORDER BY and FILTER on one call: zp_agg_filter(zp_agg_order(...), c)
				if call.FnName.L == parser.AggOrderFunc && len(call.Args) >= 2 {
					order = call.Args[1:]
				}
				a, ok := call.Args[0].(*ast.AggregateFuncExpr)
				if ok && agg != nil {
					return wrapAgg(agg.bindAgg(a, a.F, a.Args, a.Distinct, filter, order))
				}
				if f, ok := call.Args[0].(*ast.FuncCallExpr); ok {
					inner = f
				}
			} else {
				inner = call
			}
		}
	case parser.WithinGroupFunc:
		if agg == nil {
			return nil, true, pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed here")
		}
		return wrapAgg(agg.bindAgg(n, name, n.Args, false, nil, nil))
	}
	if inner.FnName.L == "grouping" && inner == n {
		return wrapAgg(b.bindGrouping(n, agg))
	}
	if inner == n && !b.isAggregateCall(n) || !b.isAggregate(inner.FnName.L) {
		if inner != n {
			clause := "FILTER"
			if order != nil {
				clause = "ORDER BY"
			}
			return nil, true, pgerr.New(pgerr.WrongObjectType, "%s specified, but %s is not an aggregate function", clause, inner.FnName.L)
		}
		return nil, false, nil
	}
	if agg == nil {
		return nil, true, pgerr.New(pgerr.GroupingError, "aggregate functions are not allowed here")
	}
	return wrapAgg(agg.bindAgg(inner, inner.FnName.L, inner.Args, false, filter, order))
}

func wrapAgg(e ir.Expr, err error) (ir.Expr, bool, error) { return e, true, err }
