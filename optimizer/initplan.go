package optimizer

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/planner"
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
func openTimeConjunct(c planner.Expr) bool {
	ok, any := true, false
	planner.Walk(c, func(x planner.Expr) {
		sq, is := x.(*planner.Subquery)
		if !is {
			return
		}
		any = true
		switch {
		case sq.Correlated:
			ok = false
		case sq.Kind == planner.ScalarSubquery, sq.Kind == planner.ExistsSubquery:
		case sq.Kind == planner.AnySubquery && sq.Op == planner.OpEq && !isRow(sq.Left):
		default:
			ok = false
		}
	})
	return ok && any
}

// foldConst evaluates an expression whose operands became constants (a
// cast of an InitPlan's value), so that it can bound a key: nil when it
// is not one, or may not be evaluated ahead (volatile).
func foldConst(x planner.Expr, ctx *planner.EvalContext) planner.Expr {
	kids := planner.Children(x)
	if len(kids) == 0 {
		return nil
	}
	if f, ok := x.(*planner.Func); ok && planner.IsVolatile(f) {
		return nil
	}
	for _, k := range kids {
		if _, ok := k.(*planner.Const); !ok {
			return nil
		}
	}
	v, err := x.Eval(ctx, nil)
	if err != nil {
		return nil // evaluated with the row, which reports it
	}
	return &planner.Const{V: v, Typ: x.Type()}
}

func isRow(e planner.Expr) bool {
	_, ok := e.(*planner.RowExpr)
	return ok
}

// hasSubPlan reports whether e holds a subplan.
func hasSubPlan(e planner.Expr) bool {
	found := false
	planner.Walk(e, func(x planner.Expr) {
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
func resolveOpenTime(e planner.Expr, ctx *planner.EvalContext) (planner.Expr, error) {
	var err error
	var resolve func(planner.Expr) planner.Expr
	resolve = func(e planner.Expr) planner.Expr {
		return planner.MapExpr(e, func(x planner.Expr) planner.Expr {
			if err != nil {
				return nil
			}
			switch y := x.(type) {
			case *planner.OuterRef:
				v, e := y.Eval(ctx, nil)
				err = e
				return &planner.Const{V: v, Typ: y.Typ}
			case *SubPlan:
				if y.Correlated {
					return nil
				}
				if y.Kind != planner.AnySubquery {
					v, e := y.Eval(ctx, nil)
					err = e
					return &planner.Const{V: v, Typ: y.Typ}
				}
				if err = y.fill(ctx, nil); err != nil {
					return nil
				}
				if len(y.rows) == 0 {
					return &planner.Const{V: sqltypes.NewBool(y.Neg), Typ: sqltypes.TypeBool}
				}
				list := make([]planner.Expr, len(y.rows))
				for i, r := range y.rows {
					list[i] = &planner.Const{V: r[0], Typ: y.Left.Type()}
				}
				return planner.NewInList(resolve(y.Left), list, y.Neg)
			}
			return foldConst(x, ctx)
		})
	}
	out := resolve(e)
	return out, err
}
