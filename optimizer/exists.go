package optimizer

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// simplifyExists rewrites the EXISTS subqueries of r, and of the plans of
// every subquery below it, as PostgreSQL's simplify_EXISTS_query does: the
// subquery keeps only what decides whether it yields a row, so its select
// list, ORDER BY, DISTINCT, GROUP BY without aggregates and a LIMIT that is
// a positive constant or NULL are never evaluated (an expression there that
// would fail does not, and a volatile one does not run).
func simplifyExists(r ir.Rel) ir.Rel {
	r = ir.MapInputs(r, simplifyExists)
	exprs := r.Expressions()
	var out []ir.Expr
	for i, e := range exprs {
		if e == nil || !ir.HasSubquery(e) {
			continue
		}
		m := ir.MapExpr(e, func(x ir.Expr) ir.Expr {
			sq, ok := x.(*ir.Subquery)
			if !ok {
				return nil
			}
			plan := simplifyExists(sq.Plan)
			if sq.Kind == ir.ExistsSubquery {
				plan = existsBody(plan)
			}
			if plan == sq.Plan {
				return nil
			}
			c := *sq
			c.Plan = plan
			return &c
		})
		if m != e {
			if out == nil {
				out = append([]ir.Expr(nil), exprs...)
			}
			out[i] = m
		}
	}
	if out == nil {
		return r
	}
	return r.WithExpressions(out)
}

// existsBody returns the part of an EXISTS subquery's plan that decides
// whether it yields a row, under a projection of no columns: its FROM and
// WHERE, without the layers of its query level that cannot turn rows into
// none or none into rows. The plan is returned whole where PostgreSQL keeps it: set operations,
// aggregates, grouping sets, window functions, set-returning functions in
// the select list, HAVING, OFFSET, a LIMIT that is not a positive constant
// or NULL, and row locks.
func existsBody(plan ir.Rel) ir.Rel {
	r := plan
	// Above the select list: the projection dropping hidden ORDER BY
	// columns, LIMIT, ORDER BY, DISTINCT [ON] (and its sort).
top:
	for {
		switch n := r.(type) {
		case *ir.Project:
			if !n.DropsOrderKeys {
				break top
			}
			r = n.Input
		case *ir.Limit:
			if n.Offset != nil || !positiveOrNull(n.Count) {
				return plan
			}
			r = n.Input
		case *ir.Sort:
			r = n.Input
		case *ir.Distinct:
			r = n.Input
		default:
			break top
		}
	}
	p, ok := r.(*ir.Project)
	if !ok || len(p.Exprs) == 0 {
		return plan // not a SELECT, or simplified already
	}
	r = p.Input
	switch n := r.(type) {
	case *ir.ProjectSet, *ir.Window:
		return plan
	case *ir.Filter:
		if _, having := n.Input.(*ir.Aggregate); having {
			return plan
		}
	case *ir.Aggregate:
		if len(n.Aggs) > 0 || n.GroupingSets != nil {
			return plan
		}
		r = n.Input // GROUP BY without aggregates
	}
	locked := false
	ir.WalkRel(r, func(x ir.Rel) {
		if s, ok := x.(*ir.Scan); ok && s.Lock != ir.LockNone {
			locked = true
		}
	})
	if locked {
		return plan
	}
	// An empty select list, as PostgreSQL leaves it: what it reads of the
	// rows below is only whether they come.
	return &ir.Project{Input: r}
}

// positiveOrNull reports whether a LIMIT count is a constant that is NULL
// or above zero (LIMIT 0 keeps its meaning: no row).
func positiveOrNull(e ir.Expr) bool {
	c, ok := e.(*ir.Const)
	if !ok {
		return false
	}
	if c.V.IsNull() {
		return true
	}
	v, err := sqltypes.Cast(c.V, sqltypes.TypeInt8)
	return err == nil && v.I > 0
}
