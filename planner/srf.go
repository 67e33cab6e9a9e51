package planner

import (
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Set-returning functions (registered in package builtins with a SetFunc)
// may be called in two places, as in PostgreSQL 10 and later:
//
//   - as a FROM item (TableFunc), implicitly LATERAL;
//   - in a select list (and ORDER BY / DISTINCT ON, which extend it), where
//     a ProjectSet evaluates them between the windows and the projection:
//     every call of one level advances in lockstep, one output row per
//     step, NULL for a set already exhausted, none once all are. A call
//     whose arguments hold another call sits one level above it.
//
// Anywhere else a call is refused with PostgreSQL's error. The binder
// tracks where it is in Binder.srf: the select level collecting calls, a
// FROM function, or the clause to name in the refusal. Placement is denied
// unless a caller allows it, so a clause nobody thought of refuses
// set-returning functions rather than evaluating one as a scalar.

// srfPlace is where the expression being bound may put a set-returning
// function call.
type srfPlace struct {
	// lv collects the calls of its select list (only while it is the
	// level being bound: aggregate arguments and window calls bind with
	// no level and so refuse them).
	lv *selectLevel
	// from: the function of a FROM item is being bound.
	from bool
	// where names the clause for the error when neither holds (see
	// srfRefused).
	where string
}

// Places that refuse set-returning functions with messages of their own.
const (
	srfInAggregate = "aggregate"
	srfInWindow    = "window"
	srfInFromArgs  = "FROM arguments"
	srfInGroupBy   = "GROUP BY"
	srfInWindowDef = "window definitions"
)

// srfAt sets where set-returning functions may go while an expression is
// bound; the returned function restores the previous place.
func (b *Binder) srfAt(p srfPlace) func() {
	saved := b.srf
	b.srf = p
	return func() { b.srf = saved }
}

// srfDenied refuses set-returning functions in clause while it is bound;
// a clause of the statement (not an aggregate's arguments, CASE or
// COALESCE, which sit inside one) also names it for notAllowedIn.
func (b *Binder) srfDenied(clause string) func() {
	restore := b.srfAt(srfPlace{where: clause})
	switch clause {
	case srfInAggregate, srfInWindow, srfInFromArgs, srfInWindowDef, "CASE", "COALESCE":
		return restore
	}
	leave := b.inClause(clause)
	return func() { restore(); leave() }
}

// inClause names the clause being bound for notAllowedIn until the
// returned function restores the enclosing one.
func (b *Binder) inClause(clause string) func() {
	saved := b.clause
	b.clause = clause
	return func() { b.clause = saved }
}

// inSelectList marks a select list (or its ORDER BY and DISTINCT ON)
// being bound, where aggregates and window functions may stand.
func (b *Binder) inSelectList() func() { return b.inClause("") }

// notAllowedIn is PostgreSQL's error for an aggregate ("aggregate
// functions") or window function ("window functions") in the clause being
// bound (parse_agg.c's check_agglevels_and_constraints and
// transformWindowFuncCall).
func (b *Binder) notAllowedIn(code pgerr.Code, what string) *pgerr.Error {
	switch b.clause {
	case "":
		return pgerr.New(code, "%s are not allowed here", what)
	case "JOIN/ON":
		return pgerr.New(code, "%s are not allowed in JOIN conditions", what)
	case "CHECK":
		return pgerr.New(code, "%s are not allowed in check constraints", what)
	}
	return pgerr.New(code, "%s are not allowed in %s", what, b.clause)
}

// srfRefused is PostgreSQL's error for a set-returning function where it
// may not be called.
func srfRefused(where string) error {
	const hint = "You might be able to move the set-returning function into a LATERAL FROM item."
	switch where {
	case srfInAggregate:
		return pgerr.New(pgerr.FeatureNotSupported, "aggregate function calls cannot contain set-returning function calls").WithHint(hint)
	case srfInWindow:
		return pgerr.New(pgerr.FeatureNotSupported, "window function calls cannot contain set-returning function calls").WithHint(hint)
	case srfInFromArgs:
		return pgerr.New(pgerr.FeatureNotSupported, "set-returning functions must appear at top level of FROM")
	case srfInGroupBy, srfInWindowDef:
		// PostgreSQL evaluates these below the grouping or the window;
		// zproxy's ProjectSet sits above both.
		return pgerr.New(pgerr.FeatureNotSupported, "set-returning functions in %s are not supported", where).WithHint(hint)
	case "CASE", "COALESCE":
		return pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in %s", where).WithHint(hint)
	case "JOIN/ON":
		return pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in JOIN conditions")
	case "":
		return pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed here").WithHint(hint)
	}
	return pgerr.New(pgerr.FeatureNotSupported, "set-returning functions are not allowed in %s", where)
}

// srfRef stands for the value of a select level's i-th set-returning call
// until the ProjectSet that computes it is built (projectSets).
type srfRef struct {
	i    int
	call *ir.SetCall
}

// srfRef is a placeholder the binder replaces before a plan leaves it: walks
// see it as a leaf.
func (e *srfRef) AppendChildren(dst []ir.Expr) []ir.Expr { return dst }
func (e *srfRef) WithChildren([]ir.Expr) ir.Expr         { return e }

func (r *srfRef) Type() sqltypes.Type { return r.call.Typ }
func (r *srfRef) Eval(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.Null, pgerr.New(pgerr.InternalError, "set-returning function %s evaluated outside a ProjectSet", r.call.Name)
}
func (r *srfRef) String() string { return r.call.String() }

// levelCall is a select level's set-returning call and the ProjectSet
// level it belongs to (one more than the deepest call in its arguments).
type levelCall struct {
	call  ir.SetCall
	level int
}

// returnsSet reports whether e holds a set-returning call of this level.
func returnsSet(e ir.Expr) bool {
	found := false
	ir.Walk(e, func(x ir.Expr) {
		if _, ok := x.(*srfRef); ok {
			found = true
		}
	})
	return found
}

// notSet refuses a set-returning operand of a boolean operator, as
// PostgreSQL's coerce_to_boolean does (42804).
func notSet(e ir.Expr, op string) error {
	if returnsSet(e) {
		return pgerr.New(pgerr.DatatypeMismatch, "argument of %s must not return a set", op)
	}
	return nil
}

// setCall places a call of a set-returning overload (its arguments already
// cast to res.ArgTypes): a FROM item's function becomes a fromSet for
// bindTableFunc to unwrap, a select-list call a reference to its level's
// ProjectSet column; anywhere else it is refused.
func (b *Binder) setCall(name string, args []ir.Expr, res builtins.Resolved) (ir.Expr, error) {
	place := b.srf
	if place.from {
		return &fromSet{name: name, args: args, res: res}, nil
	}
	lv := place.lv
	if lv == nil || b.level != lv {
		return nil, srfRefused(place.where)
	}
	if len(res.Set.Columns) > 1 {
		// A function returning rows of several columns (hstore's each)
		// yields one record value per row in a select list, printed
		// (key,value) as PostgreSQL prints a record.
		call := ir.SetCall{Name: name, Args: args, Fn: recordRows(res.Overload), Typ: sqltypes.Type{ID: sqltypes.Record}}
		return lv.placeSetCall(call, res.Volatility != builtins.Volatile), nil
	}
	call := ir.SetCall{Name: name, Args: args, Fn: res.Overload, Typ: res.Result}
	return lv.placeSetCall(call, res.Volatility != builtins.Volatile), nil
}

// isNamedSRF reports whether name is a set-returning function computed by
// name (SetCall.TF).
func isNamedSRF(name string) bool { return selectListSRFs[name] || ir.IsJSONTableFunc(name) }

// namedSetCall places a select-list call of a function computed by name,
// typed as in FROM.
func (b *Binder) namedSetCall(name string, args []ir.Expr) (ir.Expr, error) {
	lv := b.srf.lv
	if b.srf.from || lv == nil || b.level != lv {
		return nil, srfRefused(b.srf.where)
	}
	tf, err := b.tableFunc(name, args)
	if err != nil {
		return nil, err
	}
	if len(tf.Cols) != 1 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "set-returning function %s returns a record; call it in FROM", name).
			WithHint("For example, SELECT * FROM t, %s(t.col).", name)
	}
	return lv.placeSetCall(ir.SetCall{Name: name, Args: tf.Args, TF: tf, Typ: tf.Cols[0].Type}, true), nil
}

// placeSetCall adds call to the level's set-returning calls (or finds the
// same stable call there) and returns the reference to its value.
func (lv *selectLevel) placeSetCall(call ir.SetCall, stable bool) ir.Expr {
	key := call.String()
	level := 0
	for _, a := range call.Args {
		ir.Walk(a, func(x ir.Expr) {
			if r, ok := x.(*srfRef); ok && lv.srfs[r.i].level+1 > level {
				level = lv.srfs[r.i].level + 1
			}
		})
	}
	for i := range lv.srfs {
		// The same call twice (SELECT f(x), f(x) or ORDER BY f(x)) is one
		// set: the two would advance in lockstep with the same values.
		if lv.srfs[i].call.String() == key && stable {
			return &srfRef{i: i, call: &lv.srfs[i].call}
		}
	}
	lv.srfs = append(lv.srfs, levelCall{call: call, level: level})
	return &srfRef{i: len(lv.srfs) - 1, call: &call}
}

// fromSet carries a FROM item's set-returning call from bindBuiltin back to
// bindTableFunc; it is never part of a bound plan.
type fromSet struct {
	name string
	args []ir.Expr
	res  builtins.Resolved
}

// fromSet is a placeholder the binder replaces before a plan leaves it: walks
// see it as a leaf.
func (e *fromSet) AppendChildren(dst []ir.Expr) []ir.Expr { return dst }
func (e *fromSet) WithChildren([]ir.Expr) ir.Expr         { return e }

func (f *fromSet) Type() sqltypes.Type { return f.res.Result }
func (f *fromSet) Eval(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.Null, pgerr.New(pgerr.InternalError, "function %s in FROM evaluated as a scalar", f.name)
}
func (f *fromSet) String() string { return f.name }

// fixSRFArgs applies fix (a window fixer) to the arguments of the level's
// set-returning calls.
func (lv *selectLevel) fixSRFArgs(fix func(ir.Expr) ir.Expr) {
	for i := range lv.srfs {
		for j, a := range lv.srfs[i].call.Args {
			lv.srfs[i].call.Args[j] = fix(a)
		}
	}
}

// projectSets stacks the ProjectSets of the level's set-returning calls on
// rel, lowest level first, and rewrites exprs to read their columns.
func (lv *selectLevel) projectSets(rel ir.Rel, exprs []ir.Expr) (ir.Rel, []ir.Expr) {
	if len(lv.srfs) == 0 {
		return rel, exprs
	}
	col := make([]int, len(lv.srfs))
	fix := func(e ir.Expr) ir.Expr {
		return ir.MapExpr(e, func(x ir.Expr) ir.Expr {
			if r, ok := x.(*srfRef); ok {
				return &ir.ColRef{Index: col[r.i], Name: r.String(), Typ: r.Type()}
			}
			return nil
		})
	}
	top := 0
	for _, s := range lv.srfs {
		top = max(top, s.level)
	}
	for level := 0; level <= top; level++ {
		base := len(rel.Columns())
		var calls []ir.SetCall
		for i, s := range lv.srfs {
			if s.level != level {
				continue
			}
			c := s.call
			c.Args = make([]ir.Expr, len(s.call.Args))
			for j, a := range s.call.Args {
				c.Args[j] = fix(a)
			}
			col[i] = base + len(calls)
			calls = append(calls, c)
		}
		rel = ir.NewProjectSet(rel, calls)
	}
	out := make([]ir.Expr, len(exprs))
	for i, e := range exprs {
		out[i] = fix(e)
	}
	return rel, out
}

// recordRows is a set-returning overload of several columns made to
// return one column: each row as a record value.
func recordRows(o *builtins.Overload) *builtins.Overload {
	rec := *o
	inner := o.Set
	rec.Set = &builtins.SetFunc{Rows: func(ctx *builtins.Context, args []sqltypes.Value) (builtins.SetRows, error) {
		rows, err := inner.Rows(ctx, args)
		if err != nil {
			return nil, err
		}
		out := make([]sqltypes.Value, 1)
		return builtins.RowsFunc(func() ([]sqltypes.Value, bool, error) {
			row, ok, err := rows.Next()
			if !ok || err != nil {
				return nil, ok, err
			}
			// The row is only valid until the next one: the record keeps
			// a copy.
			out[0] = sqltypes.NewRecord(append([]sqltypes.Value(nil), row...))
			return out, true, nil
		}), nil
	}}
	return &rec
}
