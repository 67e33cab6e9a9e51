package optimizer

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/planner"
)

// A logical rule rewrites the bound plan into an equivalent one that is
// cheaper to run. The rules run in this order, each over the whole tree,
// before the physical plan is chosen (go-mysql-server's analyzer is the
// model: an ordered list, each rule small and independent).
type logicalRule struct {
	name  string
	apply func(planner.Rel) planner.Rel
}

var logicalRules = []logicalRule{
	// Correlated EXISTS / NOT EXISTS / IN in WHERE become semi and anti
	// joins, which the join rules can then serve with lookups.
	{"decorrelate EXISTS and IN", decorrelate},
	// Every WHERE and ON conjunct moves as close to its tables as it can go,
	// where it can bound an access path; a WHERE conjunct that rejects the
	// NULLs of an outer join's inner side makes that join inner.
	{"push predicates down", func(r planner.Rel) planner.Rel { return push(r, nil) }},
}

func applyLogicalRules(r planner.Rel) planner.Rel {
	for _, rule := range logicalRules {
		r = rule.apply(r)
	}
	return r
}

// decorrelate turns WHERE conjuncts [NOT] EXISTS (correlated subquery) and
// x IN (correlated subquery) into semi and anti joins.
func decorrelate(r planner.Rel) planner.Rel {
	r = planner.MapInputs(r, decorrelate)
	f, ok := r.(*planner.Filter)
	if !ok {
		return r
	}
	var keep []planner.Expr
	input := f.Input
	for _, c := range planner.Conjuncts(f.Pred) {
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
	return &planner.Filter{Input: input, Pred: andAll(keep)}
}

// semiJoinOf returns left joined with the subquery of conjunct c, or nil
// when c is not a decorrelatable EXISTS / IN.
func semiJoinOf(left planner.Rel, c planner.Expr) planner.Rel {
	sq, ok := c.(*planner.Subquery)
	if !ok || !sq.Correlated {
		return nil
	}
	kind := planner.SemiJoin
	switch {
	case sq.Kind == planner.ExistsSubquery && sq.Neg:
		kind = planner.AntiJoin
	case sq.Kind == planner.ExistsSubquery:
	case sq.Kind == planner.AnySubquery && sq.Op == planner.OpEq && !sq.Neg:
		// x IN (...): a semi join on x = the column. NOT IN's NULL rules
		// (any NULL in the subquery makes it NULL) stay with the subplan.
	default:
		return nil
	}
	plan := sq.Plan
	lefts := []planner.Expr{sq.Left}
	if r, ok := sq.Left.(*planner.RowExpr); ok {
		lefts = r.Items // (a, b) IN (SELECT x, y ...)
	}
	var proj *planner.Project
	for {
		switch n := plan.(type) {
		case *planner.Project:
			if proj != nil || sq.Kind == planner.AnySubquery && len(n.Exprs) != len(lefts) {
				return nil
			}
			proj = n
			plan = n.Input
			continue
		case *planner.Sort:
			plan = n.Input
			continue
		}
		break
	}
	filter, ok := plan.(*planner.Filter)
	if !ok || planner.Escapes(filter.Input) {
		return nil
	}
	inner := filter.Input
	lw := len(left.Columns())
	var on, rest []planner.Expr
	for _, x := range planner.Conjuncts(filter.Pred) {
		if correlatedSubquery(x) {
			// A nested subquery reading our row would lose it once the
			// filter runs inside the join; keep the subplan.
			return nil
		}
		if !planner.HasOuterRef(x) {
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
	if proj != nil && sq.Kind == planner.AnySubquery {
		for _, e := range proj.Exprs {
			if planner.HasOuterRef(e) || planner.HasSubquery(e) {
				return nil
			}
		}
	}
	var right planner.Rel = inner
	if len(rest) > 0 {
		right = &planner.Filter{Input: inner, Pred: andAll(rest)}
	}
	if sq.Kind == planner.AnySubquery {
		if planner.HasOuterRef(sq.Left) || planner.HasSubquery(sq.Left) {
			return nil
		}
		for i, l := range lefts {
			var col planner.Expr
			if proj != nil {
				col = planner.ShiftCols(proj.Exprs[i], lw)
			} else {
				cols := inner.Columns()
				col = &planner.ColRef{Index: lw + i, Name: cols[i].Name, Typ: cols[i].Type}
			}
			on = append(on, &planner.Binary{Op: planner.OpEq, L: l, R: col, Typ: sqltypes.TypeBool})
		}
	}
	return planner.NewJoin(kind, left, right, andAll(on))
}

// correlatedSubquery reports whether e holds a subquery that reads an
// outer row.
func correlatedSubquery(e planner.Expr) bool {
	found := false
	planner.Walk(e, func(x planner.Expr) {
		if s, ok := x.(*planner.Subquery); ok && s.Correlated {
			found = true
		}
	})
	return found
}

// outerToJoin maps a correlated conjunct of a subquery onto the row of a
// join whose left side is the outer row: depth-1 outer references become
// left columns, the subquery's own columns move right by lw. Deeper
// references, or references inside nested subqueries, are not handled.
func outerToJoin(e planner.Expr, lw int) (planner.Expr, bool) {
	ok := true
	out := planner.MapExpr(e, func(x planner.Expr) planner.Expr {
		switch y := x.(type) {
		case *planner.OuterRef:
			if y.Depth != 1 {
				ok = false
				return nil
			}
			return &planner.ColRef{Index: y.Index, Name: y.Name, Typ: y.Typ}
		case *planner.ColRef:
			return &planner.ColRef{Index: y.Index + lw, Name: y.Name, Typ: y.Typ}
		case *planner.Subquery:
			ok = false
		}
		return nil
	})
	return out, ok
}

// push moves the conjuncts preds (over r's output row) down into r as far
// as they can go and returns the rewritten relation.
func push(r planner.Rel, preds []planner.Expr) planner.Rel {
	switch n := r.(type) {
	case *planner.Filter:
		return push(n.Input, append(preds, planner.Conjuncts(n.Pred)...))
	case *planner.Project:
		var down, keep []planner.Expr
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
	case *planner.Sort:
		c := *n
		c.Input = push(n.Input, preds)
		return &c
	case *planner.Distinct:
		if len(n.On) > 0 {
			return filtered(planner.MapInputs(n, func(x planner.Rel) planner.Rel { return push(x, nil) }), preds)
		}
		c := *n
		c.Input = push(n.Input, preds)
		return &c
	case *planner.Aggregate:
		var down, keep []planner.Expr
		for _, p := range preds {
			// Not below grouping sets: a row of a set without the column
			// has NULL there, whatever the input rows held.
			if len(n.GroupBy) > 0 && n.GroupingSets == nil && pushable(p) && onlyBelow(p, len(n.GroupBy)) && !readsVolatile(p, n.GroupBy) {
				down = append(down, substitute(p, n.GroupBy))
			} else {
				keep = append(keep, p)
			}
		}
		c := *n
		c.Input = push(n.Input, down)
		return filtered(&c, keep)
	case *planner.SetOp:
		var down, keep []planner.Expr
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
	case *planner.Join:
		return pushJoin(n, preds)
	case *planner.ProjectSet:
		return pushProjectSet(n, preds)
	case *planner.Window:
		return pushWindow(n, preds)
	case *planner.Scan, *planner.Virtual, *planner.Values, *planner.TableFunc, *planner.CTEScan, *planner.WorkTable:
		return filtered(r, preds)
	}
	return filtered(planner.MapInputs(r, func(x planner.Rel) planner.Rel { return push(x, nil) }), preds)
}

// pushWindow moves below a Window the conjuncts that read only columns
// every window call partitions by: they keep or drop whole partitions,
// which the windows compute independently, so filtering first gives the
// same rows (and may bound the scan). Others stay above.
func pushWindow(n *planner.Window, preds []planner.Expr) planner.Rel {
	part := map[int]bool{}
	for i, c := range n.Calls {
		mine := map[int]bool{}
		for _, e := range c.PartitionBy {
			if cr, ok := e.(*planner.ColRef); ok && (i == 0 || part[cr.Index]) {
				mine[cr.Index] = true
			}
		}
		part = mine
	}
	down, keep := splitPreds(preds, func(p planner.Expr) bool {
		cols := planner.Columns(p)
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
func splitPreds(preds []planner.Expr, below func(planner.Expr) bool) (down, keep []planner.Expr) {
	for _, p := range preds {
		if below(p) {
			down = append(down, p)
		} else {
			keep = append(keep, p)
		}
	}
	return down, keep
}

func filtered(r planner.Rel, preds []planner.Expr) planner.Rel {
	if len(preds) == 0 {
		return r
	}
	return &planner.Filter{Input: r, Pred: andAll(preds)}
}

// movable reports whether a predicate may be evaluated on another row
// layout after substitution: no subqueries (their outer references point
// at this row) and nothing volatile.
func movable(p planner.Expr) bool {
	ok := true
	planner.Walk(p, func(x planner.Expr) {
		switch y := x.(type) {
		case *planner.Subquery, *SubPlan:
			ok = false
		case *planner.Func:
			ok = ok && !planner.IsVolatile(y)
		}
	})
	return ok
}

// pushable reports whether a WHERE conjunct may move down to another row
// layout: movable, or holding only uncorrelated subqueries (InitPlans,
// which read no row of this query and are computed once, so they may bound
// the scan they reach; see initplan.go). Set operations, which would copy
// it to both operands, still need movable.
func pushable(p planner.Expr) bool {
	if movable(p) {
		return true
	}
	ok := true
	planner.Walk(p, func(x planner.Expr) {
		switch y := x.(type) {
		case *planner.Subquery:
			ok = ok && !y.Correlated
		case *SubPlan:
			ok = false
		case *planner.Func:
			ok = ok && !planner.IsVolatile(y)
		}
	})
	return ok
}

// readsVolatile reports whether p reads a column whose expression is
// volatile (pushing p below would evaluate it again).
func readsVolatile(p planner.Expr, exprs []planner.Expr) bool {
	bad := false
	for _, c := range planner.Columns(p) {
		if c < len(exprs) && !movable(exprs[c]) {
			bad = true
		}
	}
	return bad
}

// substitute replaces the column references of p by the expressions they
// name.
func substitute(p planner.Expr, exprs []planner.Expr) planner.Expr {
	return planner.MapExpr(p, func(x planner.Expr) planner.Expr {
		if c, ok := x.(*planner.ColRef); ok {
			return exprs[c.Index]
		}
		return nil
	})
}

func onlyBelow(p planner.Expr, n int) bool {
	for _, c := range planner.Columns(p) {
		if c >= n {
			return false
		}
	}
	return true
}

// sides reports which sides of a join of left width lw a predicate reads.
func sides(p planner.Expr, lw int) (left, right bool) {
	for _, c := range planner.Columns(p) {
		if c < lw {
			left = true
		} else {
			right = true
		}
	}
	return left, right
}

// pushJoin distributes WHERE conjuncts and the join's own ON conjuncts.
func pushJoin(j *planner.Join, preds []planner.Expr) planner.Rel {
	lw := len(j.Left.Columns())
	kind := j.Kind
	// A WHERE conjunct that is never true when the NULL-extended side's
	// columns are NULL makes the outer join an inner one.
	for _, p := range preds {
		strict := strictCols(p)
		rejectsRight, rejectsLeft := false, false
		for c := range strict {
			if c >= lw {
				rejectsRight = true
			} else {
				rejectsLeft = true
			}
		}
		switch {
		case kind == planner.LeftJoin && rejectsRight:
			kind = planner.InnerJoin
		case kind == planner.RightJoin && rejectsLeft:
			kind = planner.InnerJoin
		case kind == planner.FullJoin && rejectsRight && rejectsLeft:
			kind = planner.InnerJoin
		case kind == planner.FullJoin && rejectsRight:
			kind = planner.RightJoin
		case kind == planner.FullJoin && rejectsLeft:
			kind = planner.LeftJoin
		}
	}
	var leftPreds, rightPreds, on, keep []planner.Expr
	place := func(p planner.Expr, fromWhere bool) {
		l, r := sides(p, lw)
		sub := !pushable(p)
		switch {
		case kind == planner.SemiJoin || kind == planner.AntiJoin:
			if fromWhere {
				leftPreds = append(leftPreds, p) // the row is the left row
				return
			}
			if !l && !sub {
				rightPreds = append(rightPreds, planner.ShiftCols(p, -lw))
				return
			}
			on = append(on, p)
		case !r && !sub && (kind == planner.InnerJoin || kind == planner.LeftJoin && fromWhere || kind == planner.RightJoin && !fromWhere):
			leftPreds = append(leftPreds, p)
		case !l && !sub && (kind == planner.InnerJoin || kind == planner.RightJoin && fromWhere || kind == planner.LeftJoin && !fromWhere):
			rightPreds = append(rightPreds, planner.ShiftCols(p, -lw))
		case fromWhere && kind != planner.InnerJoin:
			keep = append(keep, p)
		default:
			on = append(on, p)
		}
	}
	for _, p := range planner.Conjuncts(j.On) {
		place(p, false)
	}
	for _, p := range preds {
		place(p, true)
	}
	if j.Lateral {
		// The right side sees the left row as its nearest outer row, so the
		// rows further out are one level further away there.
		for i, p := range rightPreds {
			rightPreds[i] = planner.DeepenOuter(p)
		}
	}
	out := planner.NewJoin(kind, push(j.Left, leftPreds), push(j.Right, rightPreds), andAll(on))
	out.Lateral, out.NullAware = j.Lateral, j.NullAware
	return filtered(out, keep)
}

// strictCols returns the columns whose being NULL makes p not true.
func strictCols(p planner.Expr) map[int]bool {
	switch x := p.(type) {
	case *planner.ColRef:
		return map[int]bool{x.Index: true}
	case *planner.Binary:
		l, r := strictCols(x.L), strictCols(x.R)
		if x.Op == planner.OpOr {
			out := map[int]bool{}
			for c := range l {
				if r[c] {
					out[c] = true
				}
			}
			return out
		}
		for c := range r {
			l[c] = true
		}
		return l
	case *planner.Not:
		return strictCols(x.E)
	case *planner.Neg:
		return strictCols(x.E)
	case *planner.Cast:
		return strictCols(x.E)
	case *planner.Like:
		l := strictCols(x.E)
		for c := range strictCols(x.Pattern) {
			l[c] = true
		}
		return l
	case *planner.InList:
		return strictCols(x.E)
	case *planner.IsNull:
		if x.Neg {
			return strictCols(x.E)
		}
	}
	return map[int]bool{}
}

func andAll(es []planner.Expr) planner.Expr {
	var out planner.Expr
	for _, e := range es {
		if out == nil {
			out = e
		} else {
			out = &planner.Binary{Op: planner.OpAnd, L: out, R: e, Typ: sqltypes.TypeBool}
		}
	}
	return out
}
