package optimizer

import "github.com/zproxy/zproxy/ir"

// WITH queries are inlined into the query that reads them, as PostgreSQL 12
// and later do, so the reader's predicates reach the query's tables (WITH
// eu AS (SELECT ... FROM sensors WHERE region = 'eu') SELECT ... FROM eu
// WHERE id = 3 reads one key): a query read once, or any number of times
// when written AS NOT MATERIALIZED, unless it is written AS MATERIALIZED,
// is recursive, calls a volatile function, or reads an enclosing query's
// row (its outer references would point elsewhere once moved). The others
// are computed once and read through CTE Scans.

// cteRefs counts the scans of each WITH query in a statement's plan,
// subqueries and the WITH queries themselves included (each body once).
func cteRefs(r ir.Rel) map[int]int {
	refs := map[int]int{}
	seen := map[int]bool{}
	var walk func(ir.Rel)
	walk = func(r ir.Rel) {
		ir.WalkRel(r, func(x ir.Rel) {
			cs, ok := x.(*ir.CTEScan)
			if !ok {
				return
			}
			refs[cs.CTE.ID]++
			if !seen[cs.CTE.ID] {
				seen[cs.CTE.ID] = true
				walk(cs.CTE.Plan)
			}
		})
		ir.VisitExprs(r, func(e ir.Expr, _ int) {
			ir.Walk(e, func(x ir.Expr) {
				if sq, ok := x.(*ir.Subquery); ok {
					walk(sq.Plan)
				}
			})
		})
	}
	walk(r)
	return refs
}

// inlinable reports whether a WITH query read refs times is inlined.
func inlinable(c *ir.CTE, refs int) bool {
	if c.Write != nil || c.Recursive || c.Materialized || refs == 0 || refs > 1 && !c.NotMaterialized {
		return false
	}
	if ir.Escapes(c.Plan) {
		return false
	}
	volatile := false
	ir.VisitExprs(c.Plan, func(e ir.Expr, _ int) {
		ir.Walk(e, func(x ir.Expr) {
			if f, ok := x.(*ir.Func); ok && ir.IsVolatile(f) {
				volatile = true
			}
		})
	})
	return !volatile
}

// inlineCTEs replaces the scans of inlinable WITH queries by their plans
// (renamed to the scan's columns), in r and in what it inlines.
func (b *builder) inlineCTEs(r ir.Rel) ir.Rel {
	if len(b.cteRefs) == 0 {
		return r
	}
	if cs, ok := r.(*ir.CTEScan); ok {
		if !inlinable(cs.CTE, b.cteRefs[cs.CTE.ID]) {
			return r
		}
		return renamed(b.inlineCTEs(cs.CTE.Plan), cs.Columns())
	}
	return ir.MapInputs(r, b.inlineCTEs)
}

// renamed gives r the column names of cols (the same layout), through a
// projection when they differ.
func renamed(r ir.Rel, cols []ir.Column) ir.Rel {
	have := r.Columns()
	same := len(have) == len(cols)
	for i := 0; same && i < len(cols); i++ {
		same = have[i].Name == cols[i].Name
	}
	if same {
		return r
	}
	exprs := make([]ir.Expr, len(cols))
	for i, c := range have {
		exprs[i] = &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type}
	}
	return &ir.Project{Input: r, Exprs: exprs, Cols: cols}
}
