package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// windowRef stands for the result of the level's i-th window call until the
// width of the row below the Window node is known (windowFixer).
type windowRef struct {
	i    int
	name string
	typ  sqltypes.Type
}

// windowRef is a placeholder the binder replaces before a plan leaves it: walks
// see it as a leaf.
func (e *windowRef) AppendChildren(dst []ir.Expr) []ir.Expr { return dst }
func (e *windowRef) WithChildren([]ir.Expr) ir.Expr         { return e }

func (w *windowRef) Type() sqltypes.Type { return w.typ }
func (w *windowRef) Eval(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.Null, pgerr.New(pgerr.InternalError, "window reference not resolved")
}
func (w *windowRef) String() string { return w.name }

// windowFixer maps window references to columns after base.
func windowFixer(base int) func(ir.Expr) ir.Expr {
	return func(e ir.Expr) ir.Expr {
		return ir.MapExpr(e, func(x ir.Expr) ir.Expr {
			if w, ok := x.(*windowRef); ok {
				return &ir.ColRef{Index: base + w.i, Name: w.name, Typ: w.typ}
			}
			return nil
		})
	}
}

func hasWindowRef(es []ir.Expr) bool {
	found := false
	for _, e := range es {
		ir.Walk(e, func(x ir.Expr) {
			if _, ok := x.(*windowRef); ok {
				found = true
			}
		})
	}
	return found
}

// fixer for aggregated levels: expressions are already over the aggregated
// row, nothing to do (kept as a hook for symmetry with windows).
func (a *aggBinder) fixer(int) func(ir.Expr) ir.Expr { return func(e ir.Expr) ir.Expr { return e } }

// fixWindow applies fix to every expression of a window call.
func fixWindow(w ir.WindowCall, fix func(ir.Expr) ir.Expr) ir.WindowCall {
	for i := range w.Args {
		w.Args[i] = fix(w.Args[i])
	}
	for i := range w.PartitionBy {
		w.PartitionBy[i] = fix(w.PartitionBy[i])
	}
	for i := range w.OrderBy {
		w.OrderBy[i].E = fix(w.OrderBy[i].E)
	}
	return w
}

// bindWindow binds f(...) OVER (...) in the current select level and
// returns a reference to its result.
func (b *Binder) bindWindow(ws windowSyntax, agg *aggBinder) (ir.Expr, error) {
	lv := b.level
	if lv == nil {
		return nil, b.notAllowedIn(pgerr.WindowingError, "window functions")
	}
	bind := b.windowExprBinder(lv)
	defer b.srfDenied(srfInWindowDef)()
	name := ws.name
	isAgg := b.isAggregate(name)
	win, isWin := builtins.LookupWindow(name)
	if len(ws.args) > 0 && !isAgg {
		// rank(1) OVER (): the window function takes no argument, the
		// ordered-set aggregate of its name does, and needs WITHIN GROUP.
		if err := orderedOrWindowWithout(name, len(ws.args)); err != nil {
			return nil, err.(*pgerr.Error).WithPosition(b.exprPosition(ws.at))
		}
	}
	switch {
	case !isWin && !isAgg:
		if fnExists(name) {
			return nil, pgerr.New(pgerr.WrongObjectType, "OVER specified, but %s is not a window function nor an aggregate function", name)
		}
		types := make([]sqltypes.Type, len(ws.args))
		for i, a := range ws.args {
			x, err := bind(a)
			if err != nil {
				return nil, err
			}
			types[i] = x.Type()
		}
		return nil, builtins.NoFunction(b.calledName(ws.at, name), types).WithPosition(b.exprPosition(ws.at))
	case ws.filter != nil && !isAgg:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "FILTER is not implemented for non-aggregate window functions")
	case ws.ordered:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "aggregate ORDER BY is not implemented for window functions")
	case ws.distinct:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "DISTINCT is not implemented for window functions")
	}
	call := ir.WindowCall{Func: name}
	spec, err := resolveWindow(ws.over, lv.named, 0)
	if err != nil {
		return nil, err
	}
	if err := b.bindWindowSpec(&call, spec, bind); err != nil {
		return nil, err
	}
	b.srf.where = srfInWindow
	if isAgg {
		ac, err := b.aggCall(lv.sc, name, b.calledName(ws.at, name), ws.args, false, ws.filter, nil, bind)
		if err != nil {
			// At the call: OVER wraps it in zproxy's syntax (parser's
			// zp_over), which places nothing.
			return nil, b.positioned(err, ws.at)
		}
		call.Agg, call.Typ = &ac, ac.Typ
	} else {
		for i, a := range ws.args {
			x, err := bind(a)
			if err != nil {
				return nil, err
			}
			if win.IntParam(i) && x.Type().ID == sqltypes.Unknown {
				// lag(x, NULL), ntile($1): the integer parameter's type.
				b.inferParam(x, sqltypes.TypeInt4)
				if x, err = b.coerceTo(x, sqltypes.TypeInt4, false); err != nil {
					return nil, err
				}
			}
			if i == 2 && (name == "lag" || name == "lead") && x.Type().ID == sqltypes.Unknown {
				// An untyped default takes the value's type (below).
				call.Args = append(call.Args, x)
				continue
			}
			call.Args = append(call.Args, b.finishUnknown(x))
		}
		types := make([]sqltypes.Type, len(call.Args))
		for i, a := range call.Args {
			types[i] = a.Type()
		}
		if call.Typ, err = win.Type(&builtins.Call{Args: types, Common: commonType}); err != nil {
			return nil, b.positioned(err, ws.at)
		}
		if (name == "lag" || name == "lead") && len(call.Args) == 3 {
			// The value and its default take their common type.
			for _, i := range []int{0, 2} {
				b.inferParam(call.Args[i], call.Typ)
				if call.Args[i], err = b.coerceTo(call.Args[i], call.Typ, false); err != nil {
					return nil, err
				}
			}
		}
	}
	lv.windows = append(lv.windows, call)
	lv.windowNotes = append(lv.windowNotes, ir.WindowNote{Ref: ws.over.ref, Bare: ws.over.bare, OwnOrder: ws.over.order != nil,
		OneBound: ws.over.frame != nil && ws.over.frame.single})
	return &windowRef{i: len(lv.windows) - 1, name: name, typ: call.Typ}, nil
}

// fnExists reports whether name is a function (for the error of OVER after
// one that is no window function).
func fnExists(name string) bool {
	switch name {
	case "coalesce", "nullif", "greatest", "least", "concat":
		return true
	}
	return builtins.Exists(name)
}

// bindFrame binds a frame clause; no clause is RANGE UNBOUNDED PRECEDING
// to CURRENT ROW (with ORDER BY; without, the whole partition, which the
// same frame means when every row is a peer). Offsets are constants of the
// statement (checked for sign when the window runs, as PostgreSQL does).
func (b *Binder) bindFrame(f *frameDef, order []ir.SortKeyExpr, bind func(ast.ExprNode) (ir.Expr, error)) (ir.WindowFrame, error) {
	fr := ir.WindowFrame{Mode: ir.FrameRange, Start: ir.FrameBound{Kind: ir.UnboundedPreceding}, End: ir.FrameBound{Kind: ir.CurrentRow}}
	if f == nil {
		return fr, nil
	}
	fr.Mode, fr.Exclude = f.mode, f.exclude
	if fr.Mode == ir.FrameGroups && len(order) == 0 {
		return fr, pgerr.New(pgerr.WindowingError, "GROUPS mode requires an ORDER BY clause")
	}
	mode := [...]string{"RANGE", "ROWS", "GROUPS"}[fr.Mode]
	bound := func(fb boundDef) (ir.FrameBound, error) {
		out := ir.FrameBound{Kind: fb.kind}
		if fb.expr == nil {
			return out, nil
		}
		x, err := bind(fb.expr)
		if err != nil {
			return out, err
		}
		if !ir.IsConstant(x) {
			return out, pgerr.New(pgerr.InvalidColumnReference, "argument of %s must not contain variables", mode)
		}
		if fr.Mode == ir.FrameRange {
			if len(order) != 1 {
				return out, pgerr.New(pgerr.WindowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
			}
			if !order[0].E.Type().IsNumeric() {
				return out, unsupported("RANGE with offset PRECEDING/FOLLOWING is supported for numeric ORDER BY columns only")
			}
			b.inferParam(x, order[0].E.Type())
		} else {
			b.inferParam(x, sqltypes.TypeInt8)
			if x.Type().Kind() != sqltypes.KindInt && x.Type().ID != sqltypes.Unknown {
				return out, pgerr.New(pgerr.DatatypeMismatch, "argument of %s must be type bigint, not type %s", mode, x.Type())
			}
		}
		out.Offset = x
		return out, nil
	}
	var err error
	if fr.Start, err = bound(f.start); err != nil {
		return fr, err
	}
	if fr.End, err = bound(f.end); err != nil {
		return fr, err
	}
	if fr.Start.Kind == ir.UnboundedFollowing {
		return fr, pgerr.New(pgerr.WindowingError, "frame start cannot be UNBOUNDED FOLLOWING")
	}
	if fr.End.Kind == ir.UnboundedPreceding {
		return fr, pgerr.New(pgerr.WindowingError, "frame end cannot be UNBOUNDED PRECEDING")
	}
	if fr.Start.Kind == ir.CurrentRow && fr.End.Kind == ir.OffsetPreceding {
		return fr, pgerr.New(pgerr.WindowingError, "frame starting from current row cannot have preceding rows")
	}
	if fr.Start.Kind == ir.OffsetFollowing && (fr.End.Kind == ir.OffsetPreceding || fr.End.Kind == ir.CurrentRow) {
		return fr, pgerr.New(pgerr.WindowingError, "frame starting from following row cannot have preceding rows")
	}
	return fr, nil
}

// containsWindow reports whether an expression calls a window function.
func containsWindow(node ast.ExprNode) bool {
	found := false
	node.Accept(&windowFinder{found: &found})
	return found
}

type windowFinder struct{ found *bool }

func (v *windowFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.FuncCallExpr:
		if x.FnName.L == parser.OverFunc {
			*v.found = true
			return n, true
		}
	case *ast.SubqueryExpr:
		return n, true
	}
	return n, false
}

func (v *windowFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// windowExprBinder binds a window call's arguments, PARTITION BY and
// ORDER BY on the row the Window node reads: the aggregated row when the
// level aggregates.
func (b *Binder) windowExprBinder(lv *selectLevel) func(ast.ExprNode) (ir.Expr, error) {
	return func(node ast.ExprNode) (ir.Expr, error) {
		saved := b.level
		b.level = nil // window calls do not nest
		defer func() { b.level = saved }()
		if lv.agg != nil {
			e, err := lv.agg.bind(node)
			return e, b.positioned(err, node)
		}
		return b.bindExpr(lv.sc, node)
	}
}

// bindWindowSpec binds a resolved window definition into call's
// PartitionBy, OrderBy and Frame.
func (b *Binder) bindWindowSpec(call *ir.WindowCall, spec windowDef, bind func(ast.ExprNode) (ir.Expr, error)) error {
	for _, node := range spec.partition {
		x, err := bind(node)
		if err != nil {
			return err
		}
		call.PartitionBy = append(call.PartitionBy, x)
	}
	for _, k := range spec.order {
		x, err := bind(k.expr)
		if err != nil {
			return err
		}
		call.OrderBy = append(call.OrderBy, ir.SortKeyExpr{E: x, Desc: k.desc, NullsFirst: nullsFirst(k.desc, k.nulls)})
	}
	var err error
	call.Frame, err = b.bindFrame(spec.frame, call.OrderBy, bind)
	return err
}

// noteWindows notes, for pg_get_viewdef, the level's WINDOW clause
// (specs, bound as its calls are) and how each call named its window;
// w is the level's Window node.
func (b *Binder) noteWindows(lv *selectLevel, specs []ast.WindowSpec, w *ir.Window) error {
	bind := b.windowExprBinder(lv)
	var named []ir.NamedWindow
	for i := range specs {
		own, err := defFromAST(&specs[i])
		if err != nil {
			return err
		}
		spec, err := resolveWindow(own, lv.named, 0)
		if err != nil {
			return err
		}
		nw := ir.NamedWindow{Name: specs[i].Name.O, Ref: own.ref, OwnOrder: own.order != nil, OneBound: own.frame != nil && (own.frame.single || b.stmt != nil && b.stmt.OneBoundWindows[specs[i].Name.L])}
		if err := b.bindWindowSpec(&nw.Spec, spec, bind); err != nil {
			return err
		}
		named = append(named, nw)
	}
	b.notes.NoteWindows(w, named, lv.windowNotes)
	return nil
}
