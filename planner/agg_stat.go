package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// The ordered-set aggregates written f(direct args) WITHIN GROUP (ORDER BY
// x), which the parser spells zp_within_group(f(direct args), x); the
// registry of package builtins says which they are and types them.

// bindWithinGroup binds an ordered-set aggregate: args are the parser's
// zp_within_group arguments, the call with its direct arguments and then
// the WITHIN GROUP sort keys. The aggregate sees the sort key's values in
// order (Args[0], with OrderBy), followed by the direct arguments, which
// PostgreSQL evaluates once per group: they may read only grouped columns,
// so they are bound over the aggregated row and then read back over the
// input row, where every row of a group gives them the same value.
func (a *aggBinder) bindWithinGroup(args []ast.ExprNode, distinct bool, filter ast.ExprNode) (ir.Expr, error) {
	b := a.b
	if distinct {
		return nil, pgerr.New(pgerr.SyntaxError, "cannot use DISTINCT with WITHIN GROUP")
	}
	if len(args) < 2 {
		return nil, pgerr.New(pgerr.SyntaxError, "malformed WITHIN GROUP")
	}
	var name string
	var directNodes []ast.ExprNode
	switch f := args[0].(type) {
	case *ast.FuncCallExpr:
		name, directNodes = f.FnName.L, f.Args
	case *ast.AggregateFuncExpr:
		name, directNodes = strings.ToLower(f.F), f.Args
	default:
		return nil, pgerr.New(pgerr.SyntaxError, "malformed WITHIN GROUP")
	}
	if len(directNodes) > 0 {
		if m, ok := directNodes[0].(*ast.FuncCallExpr); ok && m.FnName.L == parser.DistinctArgFunc {
			// f(DISTINCT ...) of a call TiDB parses as a plain one.
			return nil, pgerr.New(pgerr.SyntaxError, "cannot use DISTINCT with WITHIN GROUP")
		}
	}
	def, ok := builtins.LookupAggregate(name)
	if !ok || !def.OrderedSet {
		// Not an ordered-set aggregate: no such function, with the
		// direct and ordering arguments as its arguments.
		var types []sqltypes.Type
		for _, n := range append(append([]ast.ExprNode(nil), directNodes...), args[1:]...) {
			node, _, _ := unwrapOrderKey(n)
			e, err := a.bindFromRow(node)
			if err != nil {
				return nil, err
			}
			types = append(types, e.Type())
		}
		return nil, builtins.NoFunction(name, types)
	}
	call := ir.AggCall{Func: ir.AggFunc(name)}
	var direct []ir.Expr
	for _, d := range directNodes {
		if inner := a.b.firstAggregate(d); inner != nil {
			return nil, a.b.at(pgerr.New(pgerr.GroupingError, "aggregate function calls cannot be nested"), inner)
		}
		e, err := a.bind(d)
		if err != nil {
			return nil, err
		}
		e = ir.MapExpr(e, func(x ir.Expr) ir.Expr {
			if c, ok := x.(*ir.ColRef); ok && c.Index < len(a.groups) {
				return a.groups[c.Index]
			}
			return x
		})
		direct = append(direct, e)
	}
	var keys []ir.SortKeyExpr
	for _, o := range args[1:] {
		node, desc, nulls := unwrapOrderKey(o)
		x, err := a.bindFromRow(node)
		if err != nil {
			return nil, err
		}
		keys = append(keys, ir.SortKeyExpr{E: b.finishUnknown(x), Desc: desc, NullsFirst: nullsFirst(desc, nulls)})
	}
	types := make([]sqltypes.Type, 0, len(direct)+len(keys))
	for _, d := range direct {
		types = append(types, d.Type())
	}
	for _, k := range keys {
		types = append(types, k.E.Type())
	}
	if def.Hypothetical {
		return a.bindHypothetical(call, def, direct, keys, types, filter)
	}
	if len(direct) != def.DirectArgs || len(keys) != 1 {
		return nil, builtins.NoFunction(name, types)
	}
	key := keys[0].E
	// A direct argument the aggregate declares with a type (a percentile's
	// fraction: double precision) takes it when untyped.
	argTypes := make([]sqltypes.Type, 0, len(direct)+1)
	for i, d := range direct {
		if p := def.Overloads[0].Params[i]; !p.Any {
			dt := d.Type()
			b.inferParam(d, p.Type)
			if dt.ID == sqltypes.Unknown {
				var err error
				if d, err = b.coerceTo(d, p.Type, false); err != nil {
					return nil, err
				}
			}
			direct[i] = d
		}
		argTypes = append(argTypes, d.Type())
	}
	typ, err := def.Type(&builtins.Call{Args: append(argTypes, key.Type()), Common: commonType})
	if err == builtins.ErrNoOverload {
		err = builtins.NoFunction(name, types)
	}
	if err != nil {
		return nil, err
	}
	call.Args = append([]ir.Expr{key}, direct...)
	call.Arg = key
	call.OrderBy = keys
	call.Typ = typ
	if call.Filter, err = b.bindFilter(filter, a.bindFromRow); err != nil {
		return nil, err
	}
	return a.addAgg(call), nil
}

// bindHypothetical binds a hypothetical-set aggregate (rank(a, b) WITHIN
// GROUP (ORDER BY x, y)): a direct argument per sort key, each pair taken
// to their common type as PostgreSQL's unify_hypothetical_args does. The
// aggregate sees every row's sort key values after its arguments
// (executor's hypotheticalAgg).
func (a *aggBinder) bindHypothetical(call ir.AggCall, def *builtins.Func, direct []ir.Expr, keys []ir.SortKeyExpr, types []sqltypes.Type, filter ast.ExprNode) (ir.Expr, error) {
	b := a.b
	if len(direct) != len(keys) {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", def.Name, typeNames(types)).
			WithHint("To use the hypothetical-set aggregate %s, the number of hypothetical direct arguments (here %d) must match the number of ordering columns (here %d).",
				def.Name, len(direct), len(keys))
	}
	for i := range direct {
		t, err := commonType(keys[i].E.Type(), direct[i].Type(), "WITHIN GROUP")
		if err != nil {
			return nil, err
		}
		b.inferParam(direct[i], t)
		b.inferParam(keys[i].E, t)
		if direct[i], err = b.coerceTo(direct[i], t, false); err != nil {
			return nil, err
		}
		if keys[i].E, err = b.coerceTo(keys[i].E, t, false); err != nil {
			return nil, err
		}
	}
	typ, err := def.Type(&builtins.Call{Args: types, Common: commonType})
	if err != nil {
		return nil, err
	}
	call.Args = append([]ir.Expr{keys[0].E}, direct...)
	call.Arg = keys[0].E
	call.OrderBy = keys
	call.Typ = typ
	if call.Filter, err = b.bindFilter(filter, a.bindFromRow); err != nil {
		return nil, err
	}
	return a.addAgg(call), nil
}

// orderedOrWindowWithout is PostgreSQL's 42809 for a plain call (nargs
// arguments) of an ordered-set aggregate, which needs WITHIN GROUP, or of
// a window function (the parser marks those TiDB cannot parse bare with
// parser.WindowFuncPrefix), which needs OVER; nil for other calls.
func orderedOrWindowWithout(name string, nargs int) error {
	base, marked := strings.CutPrefix(name, parser.WindowFuncPrefix)
	if def, ok := builtins.LookupAggregate(base); ok && def.OrderedSet && nargs > 0 {
		for _, o := range def.Overloads {
			if o.Variadic || len(o.Params) == nargs {
				return pgerr.New(pgerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", base)
			}
		}
	}
	if marked {
		return pgerr.New(pgerr.WrongObjectType, "window function %s requires an OVER clause", base)
	}
	return nil
}
