package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// The statistical, bitwise and json aggregates, and the ordered-set
// aggregates written f(direct args) WITHIN GROUP (ORDER BY x), which the
// parser spells zp_within_group(f(direct args), x).

var regrAggs = map[string]bool{
	"corr": true, "covar_pop": true, "covar_samp": true, "regr_avgx": true, "regr_avgy": true,
	"regr_count": true, "regr_intercept": true, "regr_r2": true, "regr_slope": true, "regr_sxx": true,
	"regr_sxy": true, "regr_syy": true,
}

func init() {
	for name := range regrAggs {
		aggregateNames[name] = true
	}
	for _, name := range []string{"bit_and", "bit_or", "bit_xor", "json_agg", "jsonb_agg", "json_object_agg",
		"jsonb_object_agg", parser.WithinGroupFunc} {
		aggregateNames[name] = true
	}
}

func noAggFunc(name string, args []sqltypes.Type) error {
	ts := make([]string, len(args))
	for i, t := range args {
		ts[i] = t.String()
	}
	return pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(ts, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// statAggType types the aggregates of this file as PostgreSQL does; ok is
// false for the others.
func statAggType(c ir.AggCall) (t sqltypes.Type, ok bool, err error) {
	name := string(c.Func)
	types := make([]sqltypes.Type, len(c.Args))
	for i, a := range c.Args {
		types[i] = a.Type()
	}
	fail := func() (sqltypes.Type, bool, error) { return sqltypes.Type{}, true, noAggFunc(name, types) }
	switch {
	case (c.Func == ir.AggMin || c.Func == ir.AggMax) && len(types) == 1:
		// PostgreSQL has no min or max of these types.
		switch types[0].ID {
		case sqltypes.Bool, sqltypes.Bytea, sqltypes.UUID, sqltypes.JSON, sqltypes.JSONB:
			return fail()
		}
	case name == "stddev" || name == "stddev_samp" || name == "stddev_pop" || name == "variance" ||
		name == "var_samp" || name == "var_pop":
		if len(types) != 1 || !types[0].IsNumeric() {
			return fail()
		}
		if types[0].Kind() == sqltypes.KindFloat {
			return sqltypes.TypeFloat8, true, nil
		}
		return sqltypes.TypeNumeric, true, nil // integers and numerics, exactly
	case regrAggs[name]:
		// (Y, X) as double precision.
		if len(types) != 2 || !types[0].IsNumeric() || !types[1].IsNumeric() {
			return fail()
		}
		if name == "regr_count" {
			return sqltypes.TypeInt8, true, nil
		}
		return sqltypes.TypeFloat8, true, nil
	case name == "bit_and" || name == "bit_or" || name == "bit_xor":
		if len(types) != 1 || types[0].Kind() != sqltypes.KindInt {
			return fail()
		}
		return types[0], true, nil
	case name == "json_agg" || name == "jsonb_agg":
		if len(types) != 1 {
			return fail()
		}
		return map[bool]sqltypes.Type{true: sqltypes.TypeJSON, false: sqltypes.TypeJSONB}[name == "json_agg"], true, nil
	case name == "json_object_agg" || name == "jsonb_object_agg":
		if len(types) != 2 {
			return fail()
		}
		return map[bool]sqltypes.Type{true: sqltypes.TypeJSON, false: sqltypes.TypeJSONB}[name == "json_object_agg"], true, nil
	}
	return sqltypes.Type{}, false, nil
}

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
	if _, ok := ir.OrderedSetAggs[name]; !ok {
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
		return nil, noAggFunc(name, types)
	}
	call := ir.AggCall{Func: ir.AggFunc(name)}
	var direct []ir.Expr
	for _, d := range directNodes {
		found := false
		d.Accept(&aggFinder{found: &found})
		if found {
			return nil, pgerr.New(pgerr.GroupingError, "aggregate function calls cannot be nested")
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
	want, ok := ir.OrderedSetAggs[name]
	if !ok || len(direct) != want || len(keys) != 1 {
		return nil, noAggFunc(name, types)
	}
	key := keys[0].E
	typ := key.Type()
	if want == 1 {
		// The fraction: double precision, or an array of them.
		frac := direct[0]
		ft := frac.Type()
		b.inferParam(frac, sqltypes.TypeFloat8)
		switch {
		case ft.ID == sqltypes.Unknown:
			var err error
			if frac, err = b.coerceTo(frac, sqltypes.TypeFloat8, false); err != nil {
				return nil, err
			}
		case ft.IsArray() && ft.ElemType().IsNumeric(), ft.IsNumeric():
		default:
			return nil, noAggFunc(name, types)
		}
		direct[0] = frac
		if name == "percentile_cont" {
			switch {
			case typ.IsNumeric():
				typ = sqltypes.TypeFloat8
			case typ.ID == sqltypes.Interval:
			default:
				return nil, noAggFunc(name, types)
			}
		}
		if frac.Type().IsArray() {
			typ = sqltypes.ArrayOf(typ)
		}
	}
	call.Args = append([]ir.Expr{key}, direct...)
	call.Arg = key
	call.OrderBy = keys
	call.Typ = typ
	var err error
	if call.Filter, err = b.bindFilter(filter, a.bindFromRow); err != nil {
		return nil, err
	}
	return a.addAgg(call), nil
}
