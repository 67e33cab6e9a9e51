package ir

// BindParams returns e with each largest part that reads only the
// statement's parameters and constants, through immutable functions,
// casts and operators, replaced by its value in ctx (an execution's
// parameters). A prepared statement's filter then computes such a part
// once an execution instead of once a row: the box of
// geom && ST_MakeEnvelope($1, $2, $3, $4, 4326), or lower($1), which the
// binder could not fold because the values come later.
//
// A part whose evaluation fails is left as it is, to fail (or not) where
// and when the row-by-row evaluation would: folding changes no answer and
// no error. Parts with no parameter were folded by the binder already
// (planner's fold) and are not evaluated again. e itself is returned when
// nothing is replaced.
func BindParams(e Expr, ctx *EvalContext) Expr {
	if e == nil || ctx == nil || len(ctx.Params) == 0 {
		return e
	}
	out, _ := bindParams(e, ctx)
	return out
}

// paramState is what bindParams knows of a part.
type paramState uint8

const (
	readsRow   paramState = iota // a column, a subquery, a volatile call, a failure: not folded
	constantly                   // constants only: the binder's to fold
	fromParams                   // parameters and constants, a parameter among them
)

func bindParams(e Expr, ctx *EvalContext) (Expr, paramState) {
	switch x := e.(type) {
	case *Const:
		return e, constantly
	case *Param:
		return e, fromParams
	case *Func:
		if !x.Pure() {
			// Its arguments may still fold; the call is made each row.
			return bindKids(e, ctx), readsRow
		}
	case *Cast, *Binary, *Not, *Neg, *IsNull, *InList, *Like:
	default:
		// Column references, subqueries, aggregates and whatever else reads
		// the row or more than the parameters are left whole.
		return e, readsRow
	}
	kids := e.AppendChildren(nil)
	row, param, changed := false, false, false
	for i, k := range kids {
		nk, s := bindParams(k, ctx)
		if nk != k {
			kids[i], changed = nk, true
		}
		row, param = row || s == readsRow, param || s == fromParams
	}
	if changed {
		e = e.WithChildren(kids)
	}
	switch {
	case row:
		return e, readsRow
	case !param:
		return e, constantly
	}
	// Every kid is now a constant or a parameter: e is evaluated whole.
	v, err := e.Eval(ctx, nil)
	if err != nil {
		return e, readsRow // left to fail where a row's evaluation would
	}
	return &Const{V: v, Typ: e.Type()}, fromParams
}

// bindKids folds the parts of e's children that BindParams would.
func bindKids(e Expr, ctx *EvalContext) Expr {
	kids := e.AppendChildren(nil)
	changed := false
	for i, k := range kids {
		if nk, _ := bindParams(k, ctx); nk != k {
			kids[i], changed = nk, true
		}
	}
	if !changed {
		return e
	}
	return e.WithChildren(kids)
}
