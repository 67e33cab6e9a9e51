package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

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

func (w *windowRef) Type() sqltypes.Type { return w.typ }
func (w *windowRef) Eval(*EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.Null, pgerr.New(pgerr.InternalError, "window reference not resolved")
}
func (w *windowRef) String() string { return w.name }

// windowFixer maps window references to columns after base.
func windowFixer(base int) func(Expr) Expr {
	return func(e Expr) Expr {
		return MapExpr(e, func(x Expr) Expr {
			if w, ok := x.(*windowRef); ok {
				return &ColRef{Index: base + w.i, Name: w.name, Typ: w.typ}
			}
			return nil
		})
	}
}

func hasWindowRef(es []Expr) bool {
	found := false
	for _, e := range es {
		Walk(e, func(x Expr) {
			if _, ok := x.(*windowRef); ok {
				found = true
			}
		})
	}
	return found
}

// fixer for aggregated levels: expressions are already over the aggregated
// row, nothing to do (kept as a hook for symmetry with windows).
func (a *aggBinder) fixer(int) func(Expr) Expr { return func(e Expr) Expr { return e } }

// fixWindow applies fix to every expression of a window call.
func fixWindow(w WindowCall, fix func(Expr) Expr) WindowCall {
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

// windowFuncTypes are the window functions proper (aggregates can also be
// used with OVER).
var windowFuncs = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true,
	"ntile": true, "lag": true, "lead": true, "first_value": true, "last_value": true, "nth_value": true,
}

// bindWindow binds f(...) OVER (...) in the current select level and
// returns a reference to its result.
func (b *Binder) bindWindow(n *ast.WindowFuncExpr, agg *aggBinder) (Expr, error) {
	lv := b.level
	if lv == nil {
		return nil, pgerr.New(pgerr.WindowingError, "window functions are not allowed here")
	}
	// Arguments, PARTITION BY and ORDER BY are evaluated on the row the
	// Window node reads: the aggregated row when the level aggregates.
	bind := func(node ast.ExprNode) (Expr, error) {
		saved := b.level
		b.level = nil // window calls do not nest
		defer func() { b.level = saved }()
		if lv.agg != nil {
			return lv.agg.bind(node)
		}
		return b.bindExpr(lv.sc, node)
	}
	name := strings.ToLower(n.Name)
	args, distinct := n.Args, n.Distinct
	if inner, ok := WindowAggOf(n); ok {
		name, args = inner.FnName.L, inner.Args
	}
	call := WindowCall{Func: name}
	spec, err := resolveWindowSpec(&n.Spec, lv.named)
	if err != nil {
		return nil, err
	}
	if spec.PartitionBy != nil {
		for _, it := range spec.PartitionBy.Items {
			x, err := bind(it.Expr)
			if err != nil {
				return nil, err
			}
			call.PartitionBy = append(call.PartitionBy, x)
		}
	}
	if spec.OrderBy != nil {
		for _, it := range spec.OrderBy.Items {
			node, _, nulls := unwrapNulls(it.Expr)
			x, err := bind(node)
			if err != nil {
				return nil, err
			}
			call.OrderBy = append(call.OrderBy, SortKeyExpr{E: x, Desc: it.Desc, NullsFirst: nullsFirst(it.Desc, nulls)})
		}
	}
	if call.Frame, err = b.bindFrame(spec.Frame, call.OrderBy, bind); err != nil {
		return nil, err
	}
	if windowFuncs[name] {
		for _, a := range args {
			x, err := bind(a)
			if err != nil {
				return nil, err
			}
			call.Args = append(call.Args, b.finishUnknown(x))
		}
		if call.Typ, err = windowType(name, call.Args); err != nil {
			return nil, err
		}
	} else if IsAggregateName(name) {
		ac, err := b.aggCall(lv.sc, name, args, distinct, nil, nil, bind)
		if err != nil {
			return nil, err
		}
		if ac.Distinct {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "DISTINCT is not implemented for window functions")
		}
		call.Agg, call.Typ = &ac, ac.Typ
	} else {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name)
	}
	lv.windows = append(lv.windows, call)
	return &windowRef{i: len(lv.windows) - 1, name: name, typ: call.Typ}, nil
}

// resolveWindowSpec merges a window specification with the named window it
// refers to (OVER w, OVER (w ORDER BY ...)).
func resolveWindowSpec(spec *ast.WindowSpec, named map[string]*ast.WindowSpec) (*ast.WindowSpec, error) {
	ref := spec.Ref.O
	if spec.OnlyAlias || (ref == "" && spec.Name.O != "" && spec.PartitionBy == nil && spec.OrderBy == nil && spec.Frame == nil) {
		ref = spec.Name.O
	}
	if ref == "" {
		return spec, nil
	}
	base, ok := named[ref]
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedObject, "window %q does not exist", ref)
	}
	base, err := resolveWindowSpec(base, named)
	if err != nil {
		return nil, err
	}
	out := *base
	if spec.PartitionBy != nil {
		return nil, pgerr.New(pgerr.WindowingError, "cannot override PARTITION BY clause of window %q", ref)
	}
	if spec.OrderBy != nil {
		if base.OrderBy != nil {
			return nil, pgerr.New(pgerr.WindowingError, "cannot override ORDER BY clause of window %q", ref)
		}
		out.OrderBy = spec.OrderBy
	}
	if spec.Frame != nil {
		out.Frame = spec.Frame
	}
	return &out, nil
}

// bindFrame binds a frame clause; no clause is RANGE UNBOUNDED PRECEDING
// to CURRENT ROW (with ORDER BY; without, the whole partition, which the
// same frame means when every row is a peer).
func (b *Binder) bindFrame(f *ast.FrameClause, order []SortKeyExpr, bind func(ast.ExprNode) (Expr, error)) (WindowFrame, error) {
	fr := WindowFrame{Mode: FrameRange, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}
	if f == nil {
		return fr, nil
	}
	switch f.Type {
	case ast.Rows:
		fr.Mode = FrameRows
	case ast.Ranges:
		fr.Mode = FrameRange
	case ast.Groups:
		fr.Mode = FrameGroups
		if len(order) == 0 {
			return fr, pgerr.New(pgerr.WindowingError, "GROUPS mode requires an ORDER BY clause")
		}
	}
	bound := func(fb ast.FrameBound) (FrameBound, error) {
		switch {
		case fb.Type == ast.CurrentRow:
			return FrameBound{Kind: CurrentRow}, nil
		case fb.UnBounded && fb.Type == ast.Preceding:
			return FrameBound{Kind: UnboundedPreceding}, nil
		case fb.UnBounded:
			return FrameBound{Kind: UnboundedFollowing}, nil
		}
		if fb.Unit != 0 {
			return FrameBound{}, unsupported("INTERVAL frame offsets are not supported")
		}
		x, err := bind(fb.Expr)
		if err != nil {
			return FrameBound{}, err
		}
		if !IsConstant(x) {
			return FrameBound{}, pgerr.New(pgerr.WindowingError, "argument of ROWS must not contain variables")
		}
		kind := OffsetPreceding
		if fb.Type == ast.Following {
			kind = OffsetFollowing
		}
		if fr.Mode == FrameRange {
			if len(order) != 1 {
				return FrameBound{}, pgerr.New(pgerr.WindowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
			}
			if !order[0].E.Type().IsNumeric() {
				return FrameBound{}, unsupported("RANGE with offset PRECEDING/FOLLOWING is supported for numeric ORDER BY columns only")
			}
			b.inferParam(x, order[0].E.Type())
		} else {
			b.inferParam(x, sqltypes.TypeInt8)
			if x.Type().Kind() != sqltypes.KindInt {
				return FrameBound{}, pgerr.New(pgerr.DatatypeMismatch, "argument of ROWS must be type bigint, not type %s", x.Type())
			}
		}
		return FrameBound{Kind: kind, Offset: x}, nil
	}
	var err error
	if fr.Start, err = bound(f.Extent.Start); err != nil {
		return fr, err
	}
	if fr.End, err = bound(f.Extent.End); err != nil {
		return fr, err
	}
	if fr.Start.Kind == UnboundedFollowing {
		return fr, pgerr.New(pgerr.WindowingError, "frame start cannot be UNBOUNDED FOLLOWING")
	}
	if fr.End.Kind == UnboundedPreceding {
		return fr, pgerr.New(pgerr.WindowingError, "frame end cannot be UNBOUNDED PRECEDING")
	}
	if fr.Start.Kind > fr.End.Kind && !(fr.Start.Kind == OffsetPreceding && fr.End.Kind == OffsetPreceding) && !(fr.Start.Kind == OffsetFollowing && fr.End.Kind == OffsetFollowing) {
		if fr.Start.Kind == CurrentRow && fr.End.Kind == OffsetPreceding {
			return fr, pgerr.New(pgerr.WindowingError, "frame starting from current row cannot have preceding rows")
		}
		if fr.Start.Kind == OffsetFollowing {
			return fr, pgerr.New(pgerr.WindowingError, "frame starting from following row cannot have preceding rows")
		}
	}
	return fr, nil
}

// windowType types a window function call.
func windowType(name string, args []Expr) (sqltypes.Type, error) {
	want := func(lo, hi int) error {
		if len(args) < lo || len(args) > hi {
			return pgerr.New(pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(args))
		}
		return nil
	}
	switch name {
	case "row_number", "rank", "dense_rank":
		return sqltypes.TypeInt8, want(0, 0)
	case "percent_rank", "cume_dist":
		return sqltypes.TypeFloat8, want(0, 0)
	case "ntile":
		if err := want(1, 1); err != nil {
			return sqltypes.Type{}, err
		}
		if args[0].Type().Kind() != sqltypes.KindInt && args[0].Type().ID != sqltypes.Unknown {
			return sqltypes.Type{}, pgerr.New(pgerr.UndefinedFunction, "function ntile(%s) does not exist", args[0].Type())
		}
		return sqltypes.TypeInt4, nil
	case "lag", "lead":
		if err := want(1, 3); err != nil {
			return sqltypes.Type{}, err
		}
		if len(args) >= 2 && args[1].Type().Kind() != sqltypes.KindInt {
			return sqltypes.Type{}, pgerr.New(pgerr.UndefinedFunction, "function %s(%s, %s) does not exist", name, args[0].Type(), args[1].Type())
		}
		if len(args) == 3 {
			if _, err := commonType(args[0].Type(), args[2].Type(), name); err != nil {
				return sqltypes.Type{}, err
			}
		}
		return args[0].Type(), nil
	case "first_value", "last_value":
		return argOrText(args), want(1, 1)
	case "nth_value":
		if err := want(2, 2); err != nil {
			return sqltypes.Type{}, err
		}
		return argOrText(args), nil
	}
	return sqltypes.Type{}, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name)
}

func argOrText(args []Expr) sqltypes.Type {
	if len(args) == 0 {
		return sqltypes.TypeText
	}
	return args[0].Type()
}

// containsWindow reports whether an expression calls a window function.
func containsWindow(node ast.ExprNode) bool {
	found := false
	node.Accept(&windowFinder{found: &found})
	return found
}

type windowFinder struct{ found *bool }

func (v *windowFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.WindowFuncExpr:
		*v.found = true
		return n, true
	case *ast.SubqueryExpr:
		return n, true
	}
	return n, false
}

func (v *windowFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
