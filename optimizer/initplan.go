package optimizer

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Uncorrelated subqueries are InitPlans: one value (or set of values) per
// execution. A table read whose conjuncts compare a column with one
// (id = (SELECT max(...)), id IN (SELECT ...)) is planned like the dynamic
// scans of correlated subqueries: when it opens, the InitPlans run and
// become constants, and the access path is chosen with them, so the
// subquery's value bounds the read (a point get, a key range) instead of
// filtering a full scan.

// openTimeConjunct reports whether every subquery in c can be turned into
// constants when a scan opens: uncorrelated scalar, EXISTS and IN
// subqueries (other ANY/ALL comparisons stay with the Filter above).
func openTimeConjunct(c ir.Expr) bool {
	ok, any := true, false
	ir.Walk(c, func(x ir.Expr) {
		sq, is := x.(*ir.Subquery)
		if !is {
			return
		}
		any = true
		switch {
		case sq.Correlated:
			ok = false
		case sq.Kind == ir.ScalarSubquery, sq.Kind == ir.ExistsSubquery:
		case sq.Kind == ir.AnySubquery && sq.Op == ir.OpEq && !isRow(sq.Left):
		default:
			ok = false
		}
	})
	return ok && any
}

// foldConst evaluates an expression whose operands became constants (a
// cast of an InitPlan's value), so that it can bound a key: nil when it
// is not one, or may not be evaluated ahead (volatile).
func foldConst(x ir.Expr, ctx *ir.EvalContext) ir.Expr {
	kids := ir.Children(x)
	if len(kids) == 0 {
		return nil
	}
	if f, ok := x.(*ir.Func); ok && ir.IsVolatile(f) {
		return nil
	}
	for _, k := range kids {
		if _, ok := k.(*ir.Const); !ok {
			return nil
		}
	}
	v, err := x.Eval(ctx, nil)
	if err != nil {
		return nil // evaluated with the row, which reports it
	}
	return &ir.Const{V: v, Typ: x.Type()}
}

func isRow(e ir.Expr) bool {
	_, ok := e.(*ir.RowExpr)
	return ok
}

// hasSubPlan reports whether e (nil: none) holds a subplan.
func hasSubPlan(e ir.Expr) bool {
	if e == nil {
		return false
	}
	found := false
	ir.Walk(e, func(x ir.Expr) {
		if _, ok := x.(*SubPlan); ok {
			found = true
		}
	})
	return found
}

// resolveOpenTime replaces the outer references of e with the current
// outer values and its uncorrelated subplans with their results: a scalar
// or EXISTS subplan becomes its value, x IN (subplan) the list of its
// values (exact under SQL's NULL rules: NULL values stay in the list; an
// empty subquery makes IN false even for a NULL x).
func resolveOpenTime(e ir.Expr, ctx *ir.EvalContext) (ir.Expr, error) {
	var err error
	var resolve func(ir.Expr) ir.Expr
	resolve = func(e ir.Expr) ir.Expr {
		return ir.MapExpr(e, func(x ir.Expr) ir.Expr {
			if err != nil {
				return nil
			}
			switch y := x.(type) {
			case *ir.OuterRef:
				v, e := y.Eval(ctx, nil)
				err = e
				return &ir.Const{V: v, Typ: y.Typ}
			case *SubPlan:
				if y.Correlated {
					return nil
				}
				if y.Kind != ir.AnySubquery {
					v, e := y.Eval(ctx, nil)
					err = e
					return &ir.Const{V: v, Typ: y.Typ}
				}
				if err = y.fill(ctx, nil); err != nil {
					return nil
				}
				if len(y.rows) == 0 {
					return &ir.Const{V: sqltypes.NewBool(y.Neg), Typ: sqltypes.TypeBool}
				}
				list := make([]ir.Expr, len(y.rows))
				for i, r := range y.rows {
					list[i] = &ir.Const{V: r[0], Typ: y.Left.Type()}
				}
				return ir.NewInList(resolve(y.Left), list, y.Neg)
			}
			return foldConst(x, ctx)
		})
	}
	out := resolve(e)
	return out, err
}
