package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Row comparisons, as PostgreSQL has them: (a, b) = (c, d) and the other
// operators between two row constructors become comparisons of their items
// (= all equal, <> any unequal, < <= > >= lexicographic, stopping at the
// first unequal pair, NULL when that pair holds a NULL); IN lists of rows
// are ORs of row equalities; and a row compared with a subquery, (a, b) IN
// (SELECT x, y ...), = ANY/ALL, or = (SELECT x, y) for a single row, is a
// Subquery whose Left is a RowExpr, compared row by row when it runs.

// rowItems binds the items of a row constructor.
func (b *Binder) rowItems(sc *scope, row *ast.RowExpr, agg *aggBinder) ([]ir.Expr, error) {
	items := make([]ir.Expr, 0, len(row.Values))
	for _, v := range row.Values {
		if arg, ok := fieldStarOf(v); ok {
			// ROW(t.*, ...): t's fields, as PostgreSQL expands them.
			x, err := b.child(sc, arg, agg)
			if err != nil {
				return nil, err
			}
			fields, err := b.recordFields(x)
			if err != nil {
				return nil, err
			}
			items = append(items, fields...)
			continue
		}
		x, err := b.child(sc, v, agg)
		if err != nil {
			return nil, err
		}
		items = append(items, x)
	}
	return items, nil
}

// bindRowBinary binds op between two row constructors, or between a row
// constructor and a subquery returning one row.
func (b *Binder) bindRowBinary(sc *scope, n *ast.BinaryOperationExpr, op ir.BinOp, agg *aggBinder) (ir.Expr, error) {
	l, r := n.L, n.R
	_, lIsRow := l.(*ast.RowExpr)
	_, rIsRow := r.(*ast.RowExpr)
	_, lsub := l.(*ast.SubqueryExpr)
	_, rsub := r.(*ast.SubqueryExpr)
	if lIsRow != rIsRow && !lsub && !rsub {
		// A row constructor beside a record value: record = record.
		return b.compareRecordValues(sc, op, l, r, agg)
	}
	if _, ok := l.(*ast.RowExpr); !ok {
		l, r, op = r, l, flipped(op) // (SELECT x, y) = (a, b)
	}
	lrow, ok := l.(*ast.RowExpr)
	if !ok {
		return nil, unsupported("row constructors are not supported here")
	}
	ls, err := b.rowItems(sc, lrow, agg)
	if err != nil {
		return nil, err
	}
	if sq, ok := r.(*ast.SubqueryExpr); ok {
		return b.compareSubquery(sc, ls, true, op, ir.RowSubquery, sq, false)
	}
	rrow, ok := r.(*ast.RowExpr)
	if !ok {
		return b.compareRecordValues(sc, op, l, r, agg)
	}
	rs, err := b.rowItems(sc, rrow, agg)
	if err != nil {
		return nil, err
	}
	e, err := b.rowCompare(op, ls, rs)
	if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.SyntaxError && pe.Position == 0 && b.stmt != nil {
		// Rows of unequal length: at the operator (make_row_comparison_op).
		pe.WithPosition(b.stmt.OperatorPosition(n.R.OriginTextPosition()))
	}
	return e, err
}

// flipped is op with its operands swapped (a < b is b > a).
func flipped(op ir.BinOp) ir.BinOp {
	switch op {
	case ir.OpLt:
		return ir.OpGt
	case ir.OpLe:
		return ir.OpGe
	case ir.OpGt:
		return ir.OpLt
	case ir.OpGe:
		return ir.OpLe
	}
	return op
}

// rowCompare expands a comparison of two rows of bound items.
func (b *Binder) rowCompare(op ir.BinOp, ls, rs []ir.Expr) (ir.Expr, error) {
	if len(ls) != len(rs) {
		return nil, pgerr.New(pgerr.SyntaxError, "unequal number of entries in row expressions")
	}
	if len(ls) == 0 {
		if op == ir.OpNotDistinct {
			// Two rows of no fields are not distinct (make_row_distinct_op).
			return &ir.Const{V: sqltypes.NewBool(true), Typ: sqltypes.TypeBool}, nil
		}
		// make_row_comparison_op has no operator to build of no pairs.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot compare rows of zero length")
	}
	cmp := func(op ir.BinOp, i int) (ir.Expr, error) { return b.compare(op, ls[i], rs[i]) }
	var terms []ir.Expr
	switch op {
	case ir.OpEq, ir.OpNotDistinct, ir.OpNe:
		for i := range ls {
			c, err := cmp(op, i)
			if err != nil {
				return nil, err
			}
			terms = append(terms, c)
		}
		if op == ir.OpNe {
			return fold(balanced(ir.OpOr, terms))
		}
		return fold(balanced(ir.OpAnd, terms))
	case ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		// From the last item back: f(i) = l_i strict r_i OR (l_i = r_i AND
		// f(i+1)); the last pair decides with op itself.
		strict := map[ir.BinOp]ir.BinOp{ir.OpLt: ir.OpLt, ir.OpLe: ir.OpLt, ir.OpGt: ir.OpGt, ir.OpGe: ir.OpGt}[op]
		acc, err := cmp(op, len(ls)-1)
		if err != nil {
			return nil, err
		}
		for i := len(ls) - 2; i >= 0; i-- {
			s, err := cmp(strict, i)
			if err != nil {
				return nil, err
			}
			eq, err := cmp(ir.OpEq, i)
			if err != nil {
				return nil, err
			}
			acc = &ir.Binary{Op: ir.OpOr, L: s, R: &ir.Binary{Op: ir.OpAnd, L: eq, R: acc, Typ: sqltypes.TypeBool}, Typ: sqltypes.TypeBool}
		}
		return fold(acc)
	}
	return nil, unsupported("operator %s is not supported for rows", op)
}

// bindRowInList binds (a, b) [NOT] IN ((1, 2), (3, 4)).
func (b *Binder) bindRowInList(sc *scope, row *ast.RowExpr, list []ast.ExprNode, neg bool, agg *aggBinder) (ir.Expr, error) {
	ls, err := b.rowItems(sc, row, agg)
	if err != nil {
		return nil, err
	}
	var alts []ir.Expr
	for _, item := range list {
		r, ok := item.(*ast.RowExpr)
		if !ok {
			return nil, pgerr.New(pgerr.SyntaxError, "cannot compare a row constructor with a single value")
		}
		rs, err := b.rowItems(sc, r, agg)
		if err != nil {
			return nil, err
		}
		eq, err := b.rowCompare(ir.OpEq, ls, rs)
		if err != nil {
			return nil, err
		}
		alts = append(alts, eq)
	}
	var out ir.Expr = balanced(ir.OpOr, alts)
	if neg {
		out = &ir.Not{E: out}
	}
	return fold(out)
}

// compareSubquery binds items (a value, or a row constructor's items when
// row) compared with a subquery's rows: kind is AnySubquery (IN, = ANY),
// AllSubquery or RowSubquery (one row). Each item and its column meet at
// their common type.
func (b *Binder) compareSubquery(sc *scope, items []ir.Expr, row bool, op ir.BinOp, kind ir.SubqueryKind, sq *ast.SubqueryExpr, neg bool) (ir.Expr, error) {
	rel, corr, err := b.bindSubquery(sc, sq.Query)
	if err != nil {
		return nil, err
	}
	cols := rel.Columns()
	switch {
	case len(cols) > len(items):
		return nil, pgerr.New(pgerr.SyntaxError, "subquery has too many columns")
	case len(cols) < len(items):
		return nil, pgerr.New(pgerr.SyntaxError, "subquery has too few columns")
	}
	want := make([]ir.Column, len(cols))
	for i, c := range cols {
		b.inferParam(items[i], c.Type)
		t, err := commonType(items[i].Type(), c.Type, "IN")
		if err != nil {
			return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s %s %s", items[i].Type().UnmodifiedName(), op, c.Type.UnmodifiedName()).
				WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
		}
		want[i] = ir.Column{Name: c.Name, Type: c.Type}
		if !(items[i].Type().IsNumeric() && c.Type.IsNumeric()) {
			if items[i], err = b.coerceTo(items[i], t, false); err != nil {
				return nil, err
			}
			want[i].Type = t
		}
	}
	if rel, err = b.castColumns(rel, want); err != nil {
		return nil, err
	}
	var left ir.Expr = &ir.RowExpr{Items: items}
	if !row {
		left = items[0]
	}
	return &ir.Subquery{Kind: kind, Plan: rel, Left: left, Op: op, Neg: neg, Correlated: corr, Typ: sqltypes.TypeBool, ID: b.newSubqueryID()}, nil
}
