package ir

import "github.com/zproxy/zproxy/internal/sqltypes"

// PlanErr is the error of the first constant of a query's plan whose
// folding failed (Failed) and which PostgreSQL's planner would fold,
// which running the query raises before it returns a row; nil when there
// is none. PostgreSQL folds the expressions its plan keeps: an output of
// a subquery in FROM that the query above never reads is replaced by
// NULL first (remove_unused_subquery_outputs), and so never folded, so
// SELECT 1 FROM (SELECT 1/0) s answers 1 where SELECT 1/0 fails. The
// walk follows, from the top, which columns each relation's parent reads
// (need), through the relations whose outputs map plainly onto their
// inputs' (projections, filters, sorts, limits, joins, one-row VALUES,
// aggregates, WITH queries inlined); below any other every column counts.
func PlanErr(r Rel) error {
	var err error
	planErrRel(r, nil, &err)
	return err
}

// planErrRel finds the first failed constant of r whose columns need
// marks as read (nil: all of them) into *err.
func planErrRel(r Rel, need []bool, err *error) {
	if r == nil || *err != nil {
		return
	}
	needs := func(i int) bool { return need == nil || i < len(need) && need[i] }
	switch n := r.(type) {
	case *Project:
		in := make([]bool, len(n.Input.Columns()))
		for i, e := range n.Exprs {
			if !needs(i) && !volatileIn(e) {
				continue // replaced by NULL, never folded
			}
			if !planErrExpr(e, in, err) {
				in = nil
			}
		}
		planErrRel(n.Input, in, err)
		return
	case *Filter:
		in := withCols(need, len(n.Input.Columns()), n.Pred)
		if !planErrExpr(n.Pred, in, err) {
			in = nil
		}
		planErrRel(n.Input, in, err)
		return
	case *Sort:
		var in []bool
		if need != nil {
			in = withCols(need, len(n.Input.Columns()))
			for _, k := range n.Keys {
				if k.Col < len(in) {
					in[k.Col] = true
				}
			}
		}
		planErrRel(n.Input, in, err)
		return
	case *Limit:
		planErrExpr(n.Count, nil, err)
		planErrExpr(n.Offset, nil, err)
		planErrRel(n.Input, need, err)
		return
	case *Values:
		for _, row := range n.Rows {
			for i, e := range row {
				// A one-row VALUES in FROM is a SELECT without FROM.
				if len(n.Rows) > 1 || needs(i) || volatileIn(e) {
					planErrExpr(e, nil, err)
				}
			}
		}
		return
	case *Aggregate:
		in := make([]bool, len(n.Input.Columns()))
		for _, e := range n.GroupBy {
			if !planErrExpr(e, in, err) {
				in = nil
			}
		}
		for i, a := range n.Aggs {
			es := a.Expressions()
			if !needs(len(n.GroupBy)+i) && !anyVolatile(es) {
				continue // replaced by NULL, never folded
			}
			for _, e := range es {
				if !planErrExpr(e, in, err) {
					in = nil
				}
			}
		}
		planErrRel(n.Input, in, err)
		return
	case *Join:
		if n.Lateral {
			break
		}
		lw := len(n.Left.Columns())
		w := lw + len(n.Right.Columns())
		var row []bool
		if need != nil {
			row = make([]bool, w)
			if n.Kind == SemiJoin || n.Kind == AntiJoin {
				copy(row, need[:min(len(need), lw)])
			} else {
				copy(row, need)
			}
			usedBy(n.On, row)
		}
		if !planErrExpr(n.On, row, err) {
			row = nil
		}
		if row == nil {
			planErrRel(n.Left, nil, err)
			planErrRel(n.Right, nil, err)
			return
		}
		planErrRel(n.Left, row[:lw], err)
		planErrRel(n.Right, row[lw:], err)
		return
	case *CTEScan:
		c := n.CTE
		if c.Plan != nil && c.Refs == 1 && !c.Materialized && !c.Recursive && c.Write == nil && !Escapes(c.Plan) && !anyVolatileRel(c.Plan) {
			// Read once: inlined as a subquery in FROM.
			planErrRel(c.Plan, need, err)
			return
		}
		planErrRel(c.Plan, nil, err)
		return
	}
	for _, e := range r.Expressions() {
		planErrExpr(e, nil, err)
	}
	switch n := r.(type) {
	case *Join:
		planErrRel(n.Left, nil, err)
		planErrRel(n.Right, nil, err)
		return
	case *RecursiveUnion:
		// Its CTE's plan, which it is.
	}
	for _, in := range r.Inputs() {
		planErrRel(in, nil, err)
	}
}

// planErrExpr finds the first failed constant of e that PostgreSQL's
// eval_const_expressions reaches (foldErr), and of the plans of its
// subqueries, into *err, and marks in cols the input columns e reads.
// It reports false when e reads its row other than through column
// references (a correlated subquery): the caller then counts
// every input column as read.
func planErrExpr(e Expr, cols []bool, err *error) bool {
	if e == nil {
		return true
	}
	if *err == nil {
		*err = foldErr(e, func(q *Subquery) error {
			var need []bool
			if q.Kind == ExistsSubquery {
				// EXISTS reads no column of its query's rows.
				need = make([]bool, len(q.Plan.Columns()))
			}
			var qerr error
			planErrRel(q.Plan, need, &qerr)
			return qerr
		})
	}
	plain := true
	Walk(e, func(x Expr) {
		switch y := x.(type) {
		case *ColRef:
			if y.Index < len(cols) {
				cols[y.Index] = true
			}
		case *Subquery:
			if y.Correlated || y.RowMap != nil {
				plain = false
			}
		}
	})
	return plain
}

// foldErr is the error of the first failed constant in e that folding e
// as PostgreSQL's eval_const_expressions does meets: it folds operands
// left to right, and stops at what decides the whole (an AND's false, an
// OR's true, a CASE arm whose condition is true, COALESCE's first
// non-NULL constant), skipping a CASE arm whose condition is false or
// NULL; so SELECT 1 WHERE false AND 1/0 = 1 answers, where 1/0 = 1 AND
// false fails. sub checks the plan of a subquery it reaches.
func foldErr(e Expr, sub func(*Subquery) error) error {
	switch x := e.(type) {
	case nil:
		return nil
	case *Failed:
		return x.Err
	case *Subquery:
		if x.Left != nil {
			if err := foldErr(x.Left, sub); err != nil {
				return err
			}
		}
		return sub(x)
	case *Binary:
		if x.Op == OpAnd || x.Op == OpOr {
			for _, t := range splitOn(x, x.Op) {
				if err := foldErr(t, sub); err != nil {
					return err
				}
				if v, ok := boolConst(t); ok && v == (x.Op == OpOr) {
					return nil
				}
			}
			return nil
		}
	case *Func:
		switch {
		case x.Name == "case" && x.Lazy != nil:
			// cond1, result1, ..., else
			n := len(x.Args)
			for i := 0; i+1 < n; i += 2 {
				if err := foldErr(x.Args[i], sub); err != nil {
					return err
				}
				c, isConst := x.Args[i].(*Const)
				if isConst && !Truthy(c.V) {
					continue // never taken: dropped unfolded
				}
				if err := foldErr(x.Args[i+1], sub); err != nil {
					return err
				}
				if isConst {
					return nil // always taken: what follows is dropped
				}
			}
			return foldErr(x.Args[n-1], sub)
		case x.Name == "coalesce" && x.Lazy != nil:
			for _, a := range x.Args {
				if err := foldErr(a, sub); err != nil {
					return err
				}
				if c, ok := a.(*Const); ok && !c.V.IsNull() {
					return nil
				}
			}
			return nil
		}
	}
	for _, c := range e.AppendChildren(nil) {
		if err := foldErr(c, sub); err != nil {
			return err
		}
	}
	return nil
}

// FoldErr is the error of the first failed constant in e that folding e
// as PostgreSQL's planner does meets (the plans of its subqueries aside).
func FoldErr(e Expr) error {
	return foldErr(e, func(*Subquery) error { return nil })
}

// boolConst is the value of e when it is a boolean constant.
func boolConst(e Expr) (bool, bool) {
	c, ok := e.(*Const)
	if !ok || c.V.K != sqltypes.KindBool {
		return false, false
	}
	return c.V.I != 0, true
}

// withCols is need widened to width and marked with the columns es read
// (nil need: nil, every column).
func withCols(need []bool, width int, es ...Expr) []bool {
	if need == nil {
		return nil
	}
	out := make([]bool, width)
	copy(out, need)
	for _, e := range es {
		usedBy(e, out)
	}
	return out
}

// usedBy marks in cols the columns e reads through column references.
func usedBy(e Expr, cols []bool) {
	if e == nil {
		return
	}
	Walk(e, func(x Expr) {
		if c, ok := x.(*ColRef); ok && c.Index < len(cols) {
			cols[c.Index] = true
		}
	})
}

// volatileIn reports whether e calls a volatile function (an output
// PostgreSQL keeps though nothing reads it).
func volatileIn(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		if f, ok := x.(*Func); ok && IsVolatile(f) {
			found = true
		}
	})
	return found
}

func anyVolatile(es []Expr) bool {
	for _, e := range es {
		if e != nil && volatileIn(e) {
			return true
		}
	}
	return false
}

func anyVolatileRel(r Rel) bool {
	found := false
	VisitExprs(r, func(e Expr, _ int) {
		if !found && volatileIn(e) {
			found = true
		}
	})
	return found
}
