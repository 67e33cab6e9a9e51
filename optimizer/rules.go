package optimizer

import (
	"sort"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// A logical rule rewrites the bound plan into an equivalent one that is
// cheaper to run. The rules run in this order, each over the whole tree,
// before the physical plan is chosen (go-mysql-server's analyzer is the
// model: an ordered list, each rule small and independent).
type logicalRule struct {
	name  string
	apply func(ir.Rel) ir.Rel
}

var logicalRules = []logicalRule{
	// An EXISTS subquery loses what cannot change whether it yields a row
	// (its select list, ORDER BY, DISTINCT, ...), which is then never
	// evaluated, as in PostgreSQL (exists.go).
	{"simplify EXISTS subqueries", simplifyExists},
	// Correlated EXISTS / NOT EXISTS / IN in WHERE become semi and anti
	// joins, which the join rules can then serve with lookups.
	{"decorrelate EXISTS and IN", decorrelate},
	// Every WHERE and ON conjunct moves as close to its tables as it can go,
	// where it can bound an access path; a WHERE conjunct that rejects the
	// NULLs of an outer join's inner side makes that join inner.
	{"push predicates down", func(r ir.Rel) ir.Rel { return push(r, nil) }},
}

func applyLogicalRules(r ir.Rel) ir.Rel {
	for _, rule := range logicalRules {
		r = rule.apply(r)
	}
	return r
}

// decorrelate turns WHERE conjuncts [NOT] EXISTS (correlated subquery) and
// x IN (correlated subquery) into semi and anti joins.
func decorrelate(r ir.Rel) ir.Rel {
	r = ir.MapInputs(r, decorrelate)
	f, ok := r.(*ir.Filter)
	if !ok {
		return r
	}
	var keep []ir.Expr
	input := f.Input
	for _, c := range ir.Conjuncts(f.Pred) {
		if j := semiJoinOf(input, c); j != nil {
			input = j
			continue
		}
		keep = append(keep, c)
	}
	if input == f.Input {
		return r
	}
	if len(keep) == 0 {
		return input
	}
	return &ir.Filter{Input: input, Pred: andAll(keep)}
}

// semiJoinOf returns left joined with the subquery of conjunct c, or nil
// when c is not a decorrelatable EXISTS / IN.
func semiJoinOf(left ir.Rel, c ir.Expr) ir.Rel {
	sq, ok := c.(*ir.Subquery)
	if !ok || !sq.Correlated {
		return nil
	}
	kind := ir.SemiJoin
	switch {
	case sq.Kind == ir.ExistsSubquery && sq.Neg:
		kind = ir.AntiJoin
	case sq.Kind == ir.ExistsSubquery:
	case sq.Kind == ir.AnySubquery && sq.Op == ir.OpEq && !sq.Neg:
		// x IN (...): a semi join on x = the column. NOT IN's NULL rules
		// (any NULL in the subquery makes it NULL) stay with the subplan.
	default:
		return nil
	}
	plan := sq.Plan
	lefts := []ir.Expr{sq.Left}
	if r, ok := sq.Left.(*ir.RowExpr); ok {
		lefts = r.Items // (a, b) IN (SELECT x, y ...)
	}
	var proj *ir.Project
	for {
		switch n := plan.(type) {
		case *ir.Project:
			if proj != nil || sq.Kind == ir.AnySubquery && len(n.Exprs) != len(lefts) {
				return nil
			}
			proj = n
			plan = n.Input
			continue
		case *ir.Sort:
			plan = n.Input
			continue
		}
		break
	}
	filter, ok := plan.(*ir.Filter)
	if !ok || ir.Escapes(filter.Input) {
		return nil
	}
	inner := filter.Input
	lw := len(left.Columns())
	var on, rest []ir.Expr
	for _, x := range ir.Conjuncts(filter.Pred) {
		if correlatedSubquery(x) {
			// A nested subquery reading our row would lose it once the
			// filter runs inside the join; keep the subplan.
			return nil
		}
		if !ir.HasOuterRef(x) {
			rest = append(rest, x)
			continue
		}
		mapped, ok := outerToJoin(x, lw)
		if !ok {
			return nil
		}
		on = append(on, mapped)
	}
	if len(on) == 0 {
		return nil
	}
	if proj != nil && sq.Kind == ir.AnySubquery {
		for _, e := range proj.Exprs {
			if ir.HasOuterRef(e) || ir.HasSubquery(e) {
				return nil
			}
		}
	}
	var right ir.Rel = inner
	if len(rest) > 0 {
		right = &ir.Filter{Input: inner, Pred: andAll(rest)}
	}
	if sq.Kind == ir.AnySubquery {
		if ir.HasOuterRef(sq.Left) || ir.HasSubquery(sq.Left) {
			return nil
		}
		for i, l := range lefts {
			var col ir.Expr
			if proj != nil {
				col = ir.ShiftCols(proj.Exprs[i], lw)
			} else {
				cols := inner.Columns()
				col = &ir.ColRef{Index: lw + i, Name: cols[i].Name, Typ: cols[i].Type}
			}
			on = append(on, &ir.Binary{Op: ir.OpEq, L: l, R: col, Typ: sqltypes.TypeBool})
		}
	}
	return ir.NewJoin(kind, left, right, andAll(on))
}

// correlatedSubquery reports whether e holds a subquery that reads an
// outer row.
func correlatedSubquery(e ir.Expr) bool {
	found := false
	ir.Walk(e, func(x ir.Expr) {
		if s, ok := x.(*ir.Subquery); ok && s.Correlated {
			found = true
		}
	})
	return found
}

// outerToJoin maps a correlated conjunct of a subquery onto the row of a
// join whose left side is the outer row: depth-1 outer references become
// left columns, the subquery's own columns move right by lw. Deeper
// references, or references inside nested subqueries, are not handled.
func outerToJoin(e ir.Expr, lw int) (ir.Expr, bool) {
	ok := true
	out := ir.MapExpr(e, func(x ir.Expr) ir.Expr {
		switch y := x.(type) {
		case *ir.OuterRef:
			if y.Depth != 1 {
				ok = false
				return nil
			}
			return &ir.ColRef{Index: y.Index, Name: y.Name, Typ: y.Typ}
		case *ir.ColRef:
			return &ir.ColRef{Index: y.Index + lw, Name: y.Name, Typ: y.Typ}
		case *ir.Subquery:
			ok = false
		}
		return nil
	})
	return out, ok
}

// push moves the conjuncts preds (over r's output row) down into r as far
// as they can go and returns the rewritten relation.
func push(r ir.Rel, preds []ir.Expr) ir.Rel {
	switch n := r.(type) {
	case *ir.Filter:
		return push(n.Input, append(preds, ir.Conjuncts(n.Pred)...))
	case *ir.Project:
		var down, keep []ir.Expr
		for _, p := range preds {
			if pushable(p) && !readsVolatile(p, n.Exprs) {
				down = append(down, substitute(p, n.Exprs))
			} else {
				keep = append(keep, p)
			}
		}
		c := *n
		c.Input = push(n.Input, down)
		return filtered(&c, keep)
	case *ir.Sort:
		c := *n
		c.Input = push(n.Input, preds)
		return &c
	case *ir.Distinct:
		if len(n.On) > 0 {
			return filtered(ir.MapInputs(n, func(x ir.Rel) ir.Rel { return push(x, nil) }), preds)
		}
		c := *n
		c.Input = push(n.Input, preds)
		return &c
	case *ir.Aggregate:
		var down, keep []ir.Expr
		for _, p := range preds {
			// Not below grouping sets: a row of a set without the column
			// has NULL there, whatever the input rows held.
			switch {
			case len(n.GroupBy) > 0 && n.GroupingSets == nil && pushable(p) && onlyBelow(p, len(n.GroupBy)) && !readsVolatile(p, n.GroupBy):
				down = append(down, substitute(p, n.GroupBy))
			case len(n.GroupBy) == 0 && havingGate(p):
				// An ungrouped query's HAVING conjunct that reads no
				// column of its row (an outer query's columns, constants)
				// is copied below as well, as PostgreSQL's
				// subquery_planner puts a copy in WHERE: there it gates
				// the scan, so the rows' expressions are not evaluated
				// when it is false. It stays above too: the aggregate
				// yields its one row even from no input.
				down = append(down, p)
				keep = append(keep, p)
			default:
				keep = append(keep, p)
			}
		}
		c := *n
		c.Input = push(n.Input, down)
		return filtered(&c, keep)
	case *ir.SetOp:
		var down, keep []ir.Expr
		for _, p := range preds {
			if movable(p) {
				down = append(down, p)
			} else {
				keep = append(keep, p)
			}
		}
		c := *n
		c.Left, c.Right = push(n.Left, down), push(n.Right, down)
		return filtered(&c, keep)
	case *ir.Join:
		return pushJoin(n, preds)
	case *ir.ProjectSet:
		return pushProjectSet(n, preds)
	case *ir.Window:
		return pushWindow(n, preds)
	case *ir.Scan, *ir.Virtual, *ir.Values, *ir.TableFunc, *ir.CTEScan, *ir.WorkTable:
		return filtered(r, preds)
	}
	return filtered(ir.MapInputs(r, func(x ir.Rel) ir.Rel { return push(x, nil) }), preds)
}

// pushWindow moves below a Window the conjuncts that read only columns
// every window call partitions by: they keep or drop whole partitions,
// which the windows compute independently, so filtering first gives the
// same rows (and may bound the scan). Others stay above.
func pushWindow(n *ir.Window, preds []ir.Expr) ir.Rel {
	part := map[int]bool{}
	for i, c := range n.Calls {
		mine := map[int]bool{}
		for _, e := range c.PartitionBy {
			if cr, ok := e.(*ir.ColRef); ok && (i == 0 || part[cr.Index]) {
				mine[cr.Index] = true
			}
		}
		part = mine
	}
	down, keep := splitPreds(preds, func(p ir.Expr) bool {
		cols := ir.Columns(p)
		ok := len(cols) > 0 && pushable(p)
		for _, c := range cols {
			ok = ok && part[c]
		}
		return ok
	})
	c := *n
	c.Input = push(n.Input, down)
	return filtered(&c, keep)
}

// splitPreds separates the conjuncts that may go below a node (below says
// which) from those that stay above it.
func splitPreds(preds []ir.Expr, below func(ir.Expr) bool) (down, keep []ir.Expr) {
	for _, p := range preds {
		if below(p) {
			down = append(down, p)
		} else {
			keep = append(keep, p)
		}
	}
	return down, keep
}

func filtered(r ir.Rel, preds []ir.Expr) ir.Rel {
	if len(preds) == 0 {
		return r
	}
	return &ir.Filter{Input: r, Pred: andAll(orderQuals(preds))}
}

// orderQuals orders a filter's conjuncts cheapest first, keeping the
// written order among equals, as PostgreSQL's order_qual_clauses does. It
// decides which conjunct stops a row first, and so which rows ever reach an
// expression that can fail: WHERE e = 2 AND (h + h)::integer > 0 must not
// raise 22003 for a row whose e is not 2, and PostgreSQL tests e first
// wherever it was written.
//
// A conjunct that reads no column of the row and nothing volatile (an
// enclosing query's columns, an InitPlan) comes first whatever its cost:
// PostgreSQL makes it a pseudoconstant qual, a one-time filter gating the
// scan, so no expression of the row runs when it is false.
func orderQuals(preds []ir.Expr) []ir.Expr {
	if len(preds) < 2 {
		return preds
	}
	costs := make(map[ir.Expr]int, len(preds))
	for _, p := range preds {
		costs[p] = qualCost(p)
		if pseudoconstant(p) {
			costs[p] = -1
		}
	}
	out := append([]ir.Expr(nil), preds...)
	sort.SliceStable(out, func(i, j int) bool { return costs[out[i]] < costs[out[j]] })
	return out
}

// qualCost counts an expression's evaluation cost in PostgreSQL's units of
// cpu_operator_cost: one per operator, function or cast, none for columns,
// constants and the boolean connectives, and a subquery dearer than any
// expression.
func qualCost(e ir.Expr) int {
	cost := 0
	ir.Walk(e, func(x ir.Expr) {
		switch y := x.(type) {
		case *ir.Binary:
			if y.Op != ir.OpAnd && y.Op != ir.OpOr {
				cost++
			}
		case *ir.Func, *ir.Cast, *ir.Like, *ir.Neg:
			cost++
		case *ir.InList:
			cost += len(y.List)
		case *ir.Subquery, *SubPlan:
			cost += 1000
		}
	})
	return cost
}

// pseudoconstant reports whether a conjunct reads no column of the row it
// filters and nothing volatile (PostgreSQL's pseudoconstant qual): its
// value is the same for every row, a gate.
func pseudoconstant(p ir.Expr) bool {
	return len(ir.Columns(p)) == 0 && pushable(p)
}

// havingGate reports whether a HAVING conjunct of an ungrouped aggregate
// may be copied into its WHERE, by PostgreSQL's rule: no aggregate (it
// reads no column of the aggregate's row), nothing volatile, no subplan. A
// subquery that reads no row of this query is an InitPlan there, not a
// subplan, unless it is an ANY or ALL one (a hashed subplan).
func havingGate(p ir.Expr) bool {
	if !pseudoconstant(p) {
		return false
	}
	ok := true
	ir.Walk(p, func(x ir.Expr) {
		if s, isSub := x.(*ir.Subquery); isSub && (s.Kind == ir.AnySubquery || s.Kind == ir.AllSubquery) {
			ok = false
		}
	})
	return ok
}

// movable reports whether a predicate may be evaluated on another row
// layout after substitution: no subqueries (their outer references point
// at this row) and nothing volatile.
func movable(p ir.Expr) bool {
	ok := true
	ir.Walk(p, func(x ir.Expr) {
		switch y := x.(type) {
		case *ir.Subquery, *SubPlan:
			ok = false
		case *ir.Func:
			ok = ok && !ir.IsVolatile(y)
		}
	})
	return ok
}

// pushable reports whether a WHERE conjunct may move down to another row
// layout: movable, or holding only uncorrelated subqueries (InitPlans,
// which read no row of this query and are computed once, so they may bound
// the scan they reach; see initplan.go). Set operations, which would copy
// it to both operands, still need movable.
func pushable(p ir.Expr) bool {
	if movable(p) {
		return true
	}
	ok := true
	ir.Walk(p, func(x ir.Expr) {
		switch y := x.(type) {
		case *ir.Subquery:
			ok = ok && !y.Correlated
		case *SubPlan:
			ok = false
		case *ir.Func:
			ok = ok && !ir.IsVolatile(y)
		}
	})
	return ok
}

// readsVolatile reports whether p reads a column whose expression is
// volatile (pushing p below would evaluate it again).
func readsVolatile(p ir.Expr, exprs []ir.Expr) bool {
	bad := false
	for _, c := range ir.Columns(p) {
		if c < len(exprs) && !movable(exprs[c]) {
			bad = true
		}
	}
	return bad
}

// substitute replaces the column references of p by the expressions they
// name.
func substitute(p ir.Expr, exprs []ir.Expr) ir.Expr {
	return ir.MapExpr(p, func(x ir.Expr) ir.Expr {
		if c, ok := x.(*ir.ColRef); ok {
			return exprs[c.Index]
		}
		return nil
	})
}

func onlyBelow(p ir.Expr, n int) bool {
	for _, c := range ir.Columns(p) {
		if c >= n {
			return false
		}
	}
	return true
}

// sides reports which sides of a join of left width lw a predicate reads.
func sides(p ir.Expr, lw int) (left, right bool) {
	for _, c := range ir.Columns(p) {
		if c < lw {
			left = true
		} else {
			right = true
		}
	}
	return left, right
}

// pushJoin distributes WHERE conjuncts and the join's own ON conjuncts.
func pushJoin(j *ir.Join, preds []ir.Expr) ir.Rel {
	lw := len(j.Left.Columns())
	kind := j.Kind
	// A WHERE conjunct that is never true when the NULL-extended side's
	// columns are NULL makes the outer join an inner one.
	for _, p := range preds {
		strict := nullRejected(p)
		rejectsRight, rejectsLeft := false, false
		for c := range strict {
			if c >= lw {
				rejectsRight = true
			} else {
				rejectsLeft = true
			}
		}
		switch {
		case kind == ir.LeftJoin && rejectsRight:
			kind = ir.InnerJoin
		case kind == ir.RightJoin && rejectsLeft:
			kind = ir.InnerJoin
		case kind == ir.FullJoin && rejectsRight && rejectsLeft:
			kind = ir.InnerJoin
		case kind == ir.FullJoin && rejectsRight:
			kind = ir.RightJoin
		case kind == ir.FullJoin && rejectsLeft:
			kind = ir.LeftJoin
		}
	}
	var leftPreds, rightPreds, on, keep []ir.Expr
	place := func(p ir.Expr, fromWhere bool) {
		l, r := sides(p, lw)
		sub := !pushable(p)
		switch {
		case kind == ir.SemiJoin || kind == ir.AntiJoin:
			if fromWhere {
				leftPreds = append(leftPreds, p) // the row is the left row
				return
			}
			if !l && !sub {
				rightPreds = append(rightPreds, ir.ShiftCols(p, -lw))
				return
			}
			on = append(on, p)
		case !r && !sub && (kind == ir.InnerJoin || kind == ir.LeftJoin && fromWhere || kind == ir.RightJoin && !fromWhere):
			leftPreds = append(leftPreds, p)
		case !l && !sub && (kind == ir.InnerJoin || kind == ir.RightJoin && fromWhere || kind == ir.LeftJoin && !fromWhere):
			rightPreds = append(rightPreds, ir.ShiftCols(p, -lw))
		case fromWhere && kind != ir.InnerJoin:
			keep = append(keep, p)
		default:
			on = append(on, p)
		}
	}
	for _, p := range ir.Conjuncts(j.On) {
		place(p, false)
	}
	for _, p := range preds {
		place(p, true)
	}
	if j.Lateral {
		// The right side sees the left row as its nearest outer row, so the
		// rows further out are one level further away there.
		for i, p := range rightPreds {
			rightPreds[i] = ir.DeepenOuter(p)
		}
	}
	out := ir.NewJoin(kind, push(j.Left, leftPreds), push(j.Right, rightPreds), andAll(on))
	out.Lateral, out.NullAware = j.Lateral, j.NullAware
	return filtered(out, keep)
}

// nullRejected returns the columns whose being NULL keeps predicate p from
// being true. A WHERE conjunct that rejects a column of an outer join's
// NULL-extended side drops every NULL-extended row, so the join may become
// an inner one (PostgreSQL's reduce_outer_joins). It is not the same set as
// nullYielding's: NOT (x IS NOT NULL) is true when x is NULL, and
// (false AND x < 5) IS NOT NULL is true whatever x is.
func nullRejected(p ir.Expr) map[int]bool {
	switch x := p.(type) {
	case *ir.Binary:
		switch x.Op {
		case ir.OpAnd:
			return colUnion(nullRejected(x.L), nullRejected(x.R))
		case ir.OpOr:
			return colIntersection(nullRejected(x.L), nullRejected(x.R))
		}
	case *ir.Not:
		// NOT false is true, so only a NULL operand keeps NOT e from being true.
		return nullYielding(x.E)
	case *ir.IsNull:
		if x.Neg {
			return nullYielding(x.E)
		}
		return map[int]bool{}
	}
	return nullYielding(p)
}

// nullYielding returns the columns whose being NULL makes e NULL (the
// strictness PostgreSQL's find_nonnullable_vars follows). Where unsure it
// leaves a column out: that only keeps an outer join outer.
func nullYielding(e ir.Expr) map[int]bool {
	switch x := e.(type) {
	case *ir.ColRef:
		return map[int]bool{x.Index: true}
	case *ir.Binary:
		switch x.Op {
		case ir.OpNotDistinct:
			// Never NULL.
			return map[int]bool{}
		case ir.OpAnd, ir.OpOr:
			// NULL AND false is false, NULL OR true is true: NULL only
			// when both sides are.
			return colIntersection(nullYielding(x.L), nullYielding(x.R))
		}
		// Every other binary operator is NULL when an operand is (Binary.Eval).
		return colUnion(nullYielding(x.L), nullYielding(x.R))
	case *ir.Not:
		return nullYielding(x.E)
	case *ir.Neg:
		return nullYielding(x.E)
	case *ir.Cast:
		return nullYielding(x.E)
	case *ir.Like:
		return colUnion(nullYielding(x.E), nullYielding(x.Pattern))
	case *ir.InList:
		return nullYielding(x.E)
	}
	return map[int]bool{}
}

// colUnion adds b's members to a and returns a.
func colUnion(a, b map[int]bool) map[int]bool {
	for c := range b {
		a[c] = true
	}
	return a
}

// colIntersection returns the members of both a and b.
func colIntersection(a, b map[int]bool) map[int]bool {
	out := map[int]bool{}
	for c := range a {
		if b[c] {
			out[c] = true
		}
	}
	return out
}

func andAll(es []ir.Expr) ir.Expr {
	var out ir.Expr
	for _, e := range es {
		if out == nil {
			out = e
		} else {
			out = &ir.Binary{Op: ir.OpAnd, L: out, R: e, Typ: sqltypes.TypeBool}
		}
	}
	return out
}
