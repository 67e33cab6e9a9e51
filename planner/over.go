package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	driver "github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// A window call reaches the binder as the parser spells it (see
// parser/window.go): zp_over(call, zp_window(parts...)). Named windows of
// the WINDOW clause come as TiDB parsed them. Both become a windowDef.

// windowSyntax is a window call as written.
type windowSyntax struct {
	// at is the call (for calledName).
	at       ast.ExprNode
	name     string
	args     []ast.ExprNode
	distinct bool
	// filter is FILTER (WHERE ...), nil without.
	filter ast.ExprNode
	// ordered: the aggregate had its own ORDER BY (not allowed with OVER).
	ordered bool
	over    windowDef
}

// windowDef is a window specification: OVER (...) or a WINDOW clause entry.
type windowDef struct {
	// ref names the window this one builds on (OVER (w ORDER BY ...));
	// bare is OVER w, which takes that window as it is.
	ref          string
	bare         bool
	hasPartition bool
	partition    []ast.ExprNode
	order        []windowKey
	frame        *frameDef
}

type windowKey struct {
	expr  ast.ExprNode
	desc  bool
	nulls byte
}

type frameDef struct {
	mode       ir.WindowFrameMode
	start, end boundDef
	exclude    string
	// single: written with one bound, no BETWEEN (an inline window's;
	// TiDB's WINDOW clause does not tell).
	single bool
}

type boundDef struct {
	kind ir.FrameBoundKind
	expr ast.ExprNode
}

// decodeOver reads the parser's zp_over(call, zp_window(...)).
func decodeOver(n *ast.FuncCallExpr) (windowSyntax, error) {
	var ws windowSyntax
	bad := pgerr.New(pgerr.SyntaxError, "malformed window call")
	if len(n.Args) != 2 {
		return ws, bad
	}
	call := n.Args[0]
	if f, ok := call.(*ast.FuncCallExpr); ok && f.FnName.L == parser.AggFilterFunc && len(f.Args) == 2 {
		ws.filter, call = f.Args[1], f.Args[0]
	}
	if f, ok := call.(*ast.FuncCallExpr); ok && f.FnName.L == parser.AggOrderFunc && len(f.Args) >= 2 {
		ws.ordered, call = true, f.Args[0]
	}
	ws.at = call
	switch c := call.(type) {
	case *ast.AggregateFuncExpr:
		ws.name, ws.args, ws.distinct = strings.ToLower(c.F), c.Args, c.Distinct
	case *ast.FuncCallExpr:
		ws.name, ws.args = strings.TrimPrefix(c.FnName.L, parser.WindowFuncPrefix), c.Args
		if len(ws.args) > 0 && isDistinctArg(ws.args[0]) {
			// f(DISTINCT x) of an aggregate TiDB does not know.
			ws.distinct, ws.args = true, ws.args[1:]
		}
	default:
		return ws, bad
	}
	win, ok := n.Args[1].(*ast.FuncCallExpr)
	if !ok || win.FnName.L != parser.WindowFunc {
		return ws, bad
	}
	for _, part := range win.Args {
		p, ok := part.(*ast.FuncCallExpr)
		if !ok {
			return ws, bad
		}
		switch p.FnName.L {
		case parser.WindowRefFunc, parser.WindowNameFunc:
			cn, ok := p.Args[0].(*ast.ColumnNameExpr)
			if !ok || len(p.Args) != 1 {
				return ws, bad
			}
			ws.over.ref, ws.over.bare = cn.Name.Name.O, p.FnName.L == parser.WindowNameFunc
		case parser.PartitionFunc:
			ws.over.hasPartition, ws.over.partition = true, p.Args
		case parser.WindowOrderFunc:
			for _, a := range p.Args {
				e, desc, nulls := unwrapOrderKey(a)
				ws.over.order = append(ws.over.order, windowKey{e, desc, nulls})
			}
		case parser.FrameFunc:
			f, err := decodeFrame(p.Args)
			if err != nil {
				return ws, err
			}
			ws.over.frame = f
		default:
			return ws, bad
		}
	}
	return ws, nil
}

// decodeFrame reads zp_frame(mode, kind, offset, kind, offset, exclusion).
func decodeFrame(args []ast.ExprNode) (*frameDef, error) {
	str := func(i int) string {
		if v, ok := args[i].(*driver.ValueExpr); ok && v.Kind() == driver.KindString {
			return v.GetString()
		}
		return "?"
	}
	if len(args) != 6 {
		return nil, pgerr.New(pgerr.SyntaxError, "malformed window frame")
	}
	f := &frameDef{exclude: str(5)}
	f.mode = map[string]ir.WindowFrameMode{"range": ir.FrameRange, "rows": ir.FrameRows, "groups": ir.FrameGroups}[str(0)]
	kinds := map[string]ir.FrameBoundKind{"up": ir.UnboundedPreceding, "p": ir.OffsetPreceding, "c": ir.CurrentRow, "f": ir.OffsetFollowing, "uf": ir.UnboundedFollowing,
		"ci": ir.CurrentRow}
	f.single = str(3) == "ci"
	for i, b := range []*boundDef{&f.start, &f.end} {
		k, ok := kinds[str(1+2*i)]
		if !ok {
			return nil, pgerr.New(pgerr.SyntaxError, "malformed window frame")
		}
		b.kind = k
		if k == ir.OffsetPreceding || k == ir.OffsetFollowing {
			b.expr = args[2+2*i]
		}
	}
	return f, nil
}

// defFromAST converts a WINDOW clause entry as TiDB parsed it.
func defFromAST(s *ast.WindowSpec) (windowDef, error) {
	d := windowDef{ref: s.Ref.O}
	if s.PartitionBy != nil {
		d.hasPartition = true
		for _, it := range s.PartitionBy.Items {
			d.partition = append(d.partition, it.Expr)
		}
	}
	if s.OrderBy != nil {
		for _, it := range s.OrderBy.Items {
			node, _, nulls := unwrapNulls(it.Expr)
			d.order = append(d.order, windowKey{node, it.Desc, nulls})
		}
	}
	if f := s.Frame; f != nil {
		if f.Extent.Start.Unit != 0 || f.Extent.End.Unit != 0 {
			return d, unsupported("INTERVAL frame offsets are not supported")
		}
		d.frame = &frameDef{mode: map[ast.FrameType]ir.WindowFrameMode{ast.Rows: ir.FrameRows, ast.Ranges: ir.FrameRange, ast.Groups: ir.FrameGroups}[f.Type]}
		for i, fb := range []ast.FrameBound{f.Extent.Start, f.Extent.End} {
			b := boundDef{kind: ir.CurrentRow}
			switch {
			case fb.Type == ast.CurrentRow:
			case fb.UnBounded && fb.Type == ast.Preceding:
				b.kind = ir.UnboundedPreceding
			case fb.UnBounded:
				b.kind = ir.UnboundedFollowing
			case fb.Type == ast.Preceding:
				b.kind, b.expr = ir.OffsetPreceding, fb.Expr
			default:
				b.kind, b.expr = ir.OffsetFollowing, fb.Expr
			}
			if i == 0 {
				d.frame.start = b
			} else {
				d.frame.end = b
			}
		}
	}
	return d, nil
}

// resolveWindow merges a window definition with the named window it builds
// on, by PostgreSQL's rules: OVER w copies w; OVER (w ...) copies its
// PARTITION BY and ORDER BY, may add an ORDER BY only where w has none, and
// may not copy a frame.
func resolveWindow(d windowDef, named map[string]*ast.WindowSpec, depth int) (windowDef, error) {
	if d.ref == "" {
		return d, nil
	}
	spec, ok := named[d.ref]
	if !ok || depth > len(named) {
		return d, pgerr.New(pgerr.UndefinedObject, "window %q does not exist", d.ref)
	}
	base, err := defFromAST(spec)
	if err != nil {
		return d, err
	}
	if base, err = resolveWindow(base, named, depth+1); err != nil {
		return d, err
	}
	if d.bare {
		return base, nil
	}
	out := base
	out.ref = ""
	if d.hasPartition {
		return d, pgerr.New(pgerr.WindowingError, "cannot override PARTITION BY clause of window %q", d.ref)
	}
	if d.order != nil {
		if base.order != nil {
			return d, pgerr.New(pgerr.WindowingError, "cannot override ORDER BY clause of window %q", d.ref)
		}
		out.order = d.order
	}
	if base.frame != nil {
		return d, pgerr.New(pgerr.WindowingError, "cannot copy window %q because it has a frame clause", d.ref).
			WithHint("Omit the parentheses in this OVER clause.")
	}
	out.frame = d.frame
	return out, nil
}

// bindOver binds the parser's spelling of a window call.
func (b *Binder) bindOver(n *ast.FuncCallExpr, agg *aggBinder) (ir.Expr, error) {
	ws, err := decodeOver(n)
	if err != nil {
		return nil, err
	}
	return b.bindWindow(ws, agg)
}
