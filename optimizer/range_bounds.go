package optimizer

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// rangeOperatorSet bounds a range column by a containment or overlap
// with a constant, so its btree index (or key) serves the operator with a
// scan of part of the column's order and a residual check: a range that
// contains an element or a range, or overlaps a range, is not empty (the
// first in range order) and starts no later than a bound. In range order
// (range_cmp: by lower bound, then upper), every range whose lower bound
// is at most b sorts at or before the range [b, +infinity). The set is a
// superset, never exact: the operator stays as the residual filter.
func rangeOperatorSet(x *ir.Func, ctx *ir.EvalContext) (col int, set ValueSet, ok bool) {
	if !x.Infix || len(x.Args) != 2 {
		return 0, nil, false
	}
	op, colArg, other := x.Name, x.Args[0], x.Args[1]
	if op == "<@" {
		// elem <@ col and s <@ col are col @> elem and col @> s.
		op, colArg, other = "@>", other, colArg
	}
	cr, isCol := colArg.(*ir.ColRef)
	if !isCol || !cr.Typ.IsRange() || op != "@>" && op != "&&" || !ir.IsStatementConstant(other) {
		return 0, nil, false
	}
	v, err := other.Eval(ctx, nil)
	if err != nil {
		return 0, nil, false
	}
	if v.IsNull() {
		return cr.Index, ValueSet{}, true // a strict operator: never true
	}
	id := cr.Typ.StripDomain()
	var start sqltypes.RangeBound // the latest lower bound a match may have
	switch r := v.Range(); {
	case v.K != sqltypes.KindRange:
		start = sqltypes.RangeBound{Val: v, Inc: true}
	case op == "@>" && r.Empty:
		return 0, nil, false // every range contains the empty range
	case r.Empty:
		return cr.Index, ValueSet{}, true // nothing overlaps the empty range
	case op == "@>":
		start = sqltypes.RangeBound{Val: r.Lower, Inf: r.LowerInf, Inc: r.LowerInc}
	case r.UpperInf:
		return cr.Index, ValueSet{{Lo: sqltypes.EmptyRange(id), HiUnb: true}}, true
	default:
		// An overlap needs the column's lower bound at most s's upper
		// bound: at [u when that is inclusive, before it when not.
		start = sqltypes.RangeBound{Val: r.Upper, Inc: true}
		hi, err := rangeFrom(id, start)
		if err != nil {
			return 0, nil, false
		}
		return cr.Index, ValueSet{{Lo: sqltypes.EmptyRange(id), Hi: hi, HiInc: r.UpperInc}}, true
	}
	hi, err := rangeFrom(id, start)
	if err != nil {
		return 0, nil, false
	}
	return cr.Index, ValueSet{{Lo: sqltypes.EmptyRange(id), Hi: hi, HiInc: true}}, true
}

// rangeFrom is the last range in range order whose lower bound is b: b to
// an unbounded upper end.
func rangeFrom(id sqltypes.Type, b sqltypes.RangeBound) (sqltypes.Value, error) {
	b.Lower = true
	return sqltypes.MakeRange(id, b, sqltypes.RangeBound{Inf: true}, false)
}
