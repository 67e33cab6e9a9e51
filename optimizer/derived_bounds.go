package optimizer

import (
	"math"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/planner"
)

// wholeInt returns the int64 a numeric or float value equals, if any.
func wholeInt(v sqltypes.Value) (int64, bool) {
	var f float64
	switch v.K {
	case sqltypes.KindFloat:
		f = v.F
	case sqltypes.KindNumeric:
		i, err := sqltypes.NumericToInt(v, sqltypes.TypeInt8)
		if err != nil || sqltypes.Compare(i, v) != 0 {
			return 0, false
		}
		return i.I, true
	default:
		return 0, false
	}
	if f != math.Trunc(f) || f < -9.223372036854775808e18 || f >= 9.223372036854775808e18 {
		return 0, false
	}
	return int64(f), true
}

// roundedBound is the set of an integer column's values that satisfy
// "column op v" for a finite number v that is not a whole number: none
// for =, up to floor(v) for < and <=, from ceil(v) for > and >=.
func roundedBound(op planner.BinOp, v sqltypes.Value, k sqltypes.Kind) (ValueSet, bool) {
	if k != sqltypes.KindInt || v.K != sqltypes.KindNumeric && v.K != sqltypes.KindFloat {
		return nil, false
	}
	f := v.AsFloat()
	if math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) >= 9e18 {
		return nil, false
	}
	// Between two consecutive integers: floor and ceil by comparison, so
	// a numeric's digits beyond float precision cannot mislead.
	lo := int64(math.Floor(f))
	for sqltypes.Compare(sqltypes.NewInt(lo), v) > 0 {
		lo--
	}
	for sqltypes.Compare(sqltypes.NewInt(lo+1), v) < 0 {
		lo++
	}
	switch op {
	case planner.OpEq:
		return ValueSet{}, true
	case planner.OpLt, planner.OpLe:
		return ValueSet{{Hi: sqltypes.NewInt(lo), HiInc: true, LoUnb: true}}, true
	case planner.OpGt, planner.OpGe:
		return ValueSet{{Lo: sqltypes.NewInt(lo + 1), LoInc: true, HiUnb: true}}, true
	}
	return nil, false
}
