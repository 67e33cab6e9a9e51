package optimizer

import (
	"cmp"
	"math"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
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
func roundedBound(op ir.BinOp, v sqltypes.Value, k sqltypes.Kind) (ValueSet, bool) {
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
	case ir.OpEq:
		return ValueSet{}, true
	case ir.OpLt, ir.OpLe:
		return ValueSet{{Hi: sqltypes.NewInt(lo), HiInc: true, LoUnb: true}}, true
	case ir.OpGt, ir.OpGe:
		return ValueSet{{Lo: sqltypes.NewInt(lo + 1), LoInc: true, HiUnb: true}}, true
	}
	return nil, false
}

// truncation is a nondecreasing step function of a timestamp column
// compared with a constant: date_trunc(unit, col [, zone]), or col::date,
// where col may also be read at a fixed zone (col AT TIME ZONE 'UTC',
// which only shifts it), or that shifted column itself (a step of 1µs).
type truncation struct {
	col  int
	kind sqltypes.Kind // the column's (and the bounds') kind
	// resKind is the kind of the truncated values, which the shift
	// changes (timestamptz AT TIME ZONE is a timestamp, and back).
	resKind sqltypes.Kind
	// shift (µs) is added to a column value before it is truncated.
	shift int64
	// epoch: the expression is extract(epoch from col), compared with a
	// number of seconds rather than a timestamp.
	epoch bool
	// trunc maps a (shifted) column value to its step's start; next gives
	// the start of the following step.
	trunc func(int64) (int64, error)
	next  func(int64) (int64, error)
}

// shiftedColumn recognises col, or col AT TIME ZONE a constant zone of
// one fixed offset: the column, the kind of the expression's values and
// what it adds to the column's values.
func shiftedColumn(e ir.Expr) (cr *ir.ColRef, kind sqltypes.Kind, shift int64, ok bool) {
	if cr, ok = e.(*ir.ColRef); ok {
		return cr, cr.Typ.Kind(), 0, true
	}
	f, ok := e.(*ir.Func)
	if !ok || !fixedZoneShift(f) {
		return nil, 0, 0, false
	}
	if cr, ok = f.Args[1].(*ir.ColRef); !ok {
		return nil, 0, 0, false
	}
	off, _ := builtins.FixedZoneOffset(f.Args[0].(*ir.Const).V)
	switch cr.Typ.Kind() {
	case sqltypes.KindTimestampTZ: // the zone's wall clock
		return cr, sqltypes.KindTimestamp, off * 1e6, true
	case sqltypes.KindTimestamp: // the instant the zone's clock shows it
		return cr, sqltypes.KindTimestampTZ, -off * 1e6, true
	}
	return nil, 0, 0, false
}

// truncationOf recognises e as a truncation of a timestamp column.
func truncationOf(e ir.Expr, ctx *ir.EvalContext) (*truncation, bool) {
	constText := func(x ir.Expr) (string, bool) {
		if !ir.IsStatementConstant(x) {
			return "", false
		}
		v, err := x.Eval(ctx, nil)
		return v.S, err == nil && v.K == sqltypes.KindText
	}
	var cr *ir.ColRef
	var resKind sqltypes.Kind
	var shift int64
	unit := "day"
	var loc *time.Location
	if c, k, sh, ok := shiftedColumn(e); ok && (sh != 0 || k != c.Typ.Kind()) {
		cr, resKind, shift, unit = c, k, sh, "microseconds"
		e = nil
	}
	epoch := false
	switch x := e.(type) {
	case nil: // a shifted column
	case *ir.Func:
		if x.Name == "extract" && len(x.Args) == 2 {
			// extract(epoch from col): the column's µs over a million,
			// exactly (a numeric), so ordered as the column.
			var ok bool
			if u, isConst := constText(x.Args[0]); !isConst || strings.ToLower(u) != "epoch" {
				return nil, false
			}
			if cr, resKind, shift, ok = shiftedColumn(x.Args[1]); !ok {
				return nil, false
			}
			unit, epoch = "microseconds", true
			break
		}
		if x.Name != "date_trunc" || len(x.Args) < 2 || len(x.Args) > 3 {
			return nil, false
		}
		var ok bool
		if unit, ok = constText(x.Args[0]); !ok {
			return nil, false
		}
		if cr, resKind, shift, ok = shiftedColumn(x.Args[1]); !ok {
			return nil, false
		}
		if len(x.Args) == 3 {
			zone, ok := constText(x.Args[2])
			if !ok {
				return nil, false
			}
			var err error
			if loc, err = builtins.LookupZone(zone); err != nil {
				return nil, false
			}
		}
	case *ir.Cast:
		var ok bool
		if x.To.ID != sqltypes.Date {
			return nil, false
		}
		if cr, resKind, shift, ok = shiftedColumn(x.E); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	step, ok := builtins.TruncStep(unit)
	if !ok {
		return nil, false
	}
	t := &truncation{col: cr.Index, kind: cr.Typ.Kind(), resKind: resKind, shift: shift, epoch: epoch}
	switch t.resKind {
	case sqltypes.KindTimestamp:
		t.trunc = func(us int64) (int64, error) { return builtins.TruncTimestamp(unit, us) }
		t.next = func(us int64) (int64, error) { return sqltypes.TimestampAddInterval(us, step) }
	case sqltypes.KindTimestampTZ:
		if loc == nil {
			loc = builtins.SessionLocation(&ctx.Fn)
		}
		t.trunc = func(us int64) (int64, error) { return builtins.TruncTimestampTZ(unit, us, loc) }
		t.next = func(us int64) (int64, error) { return builtins.AddOnCalendar(us, step, loc) }
	default:
		return nil, false
	}
	return t, true
}

// epochMicros is a number of seconds in µs, rounded down; exact reports
// whether no rounding happened. Infinities and NaN have none.
func epochMicros(v sqltypes.Value) (us int64, exact, ok bool) {
	n, err := sqltypes.Cast(v, sqltypes.TypeNumeric)
	if err != nil || n.IsNull() {
		return 0, false, false
	}
	m, err := sqltypes.MulNumeric(n, sqltypes.NumericFromInt(1e6))
	if err != nil {
		return 0, false, false
	}
	if _, finite := sqltypes.NumericScale(m); !finite {
		return 0, false, false
	}
	f, err := sqltypes.FloorNumeric(m)
	if err != nil {
		return 0, false, false
	}
	i, err := sqltypes.NumericToInt(f, sqltypes.TypeInt8)
	if err != nil {
		return 0, false, false
	}
	return i.I, sqltypes.Compare(f, m) == 0, true
}

// truncationBound is the range of a timestamp column that satisfies
// "trunc(col) op c": for instance date_trunc('hour', ts) >= '10:30' is
// ts >= 11:00, and date_trunc('day', ts) = '2024-01-01' is ts in
// ['2024-01-01', '2024-01-02'). Each bound is checked against the
// function itself (the value just inside it satisfies the comparison, the
// one just outside does not), so a zone's irregular days cannot make the
// range drop a row; the comparison also stays as a residual filter.
func truncationBound(x *ir.Binary, ctx *ir.EvalContext) (int, ValueSet, bool) {
	op, fn, other := x.Op, x.L, x.R
	if !ir.IsStatementConstant(other) {
		op, fn, other = flip(x.Op), x.R, x.L
	}
	if !ir.IsStatementConstant(other) {
		return 0, nil, false
	}
	t, ok := truncationOf(fn, ctx)
	if !ok {
		return 0, nil, false
	}
	cv, err := other.Eval(ctx, nil)
	if err != nil || cv.IsNull() {
		return 0, nil, false
	}
	c := cv.I
	switch {
	case t.epoch:
		var exact bool
		if c, exact, ok = epochMicros(cv); !ok || c < math.MinInt64+sqltypes.PGEpochMicros {
			return 0, nil, false
		}
		c = sqltypes.TimestampFromUnixMicro(c) // the epoch counts from 1970
		if !exact {
			// Between two µs: none is equal, and the comparison is one
			// with the one below (x < 1.5 is x <= 1, x > 1.5 is x > 1).
			switch op {
			case ir.OpEq:
				return t.col, ValueSet{}, true
			case ir.OpLt:
				op = ir.OpLe
			case ir.OpGe:
				op = ir.OpGt
			}
		}
	case cv.K == sqltypes.KindDate: // col::date compared with a date: its midnight
		if c, err = sqltypes.DateToTimestamp(cv.I); err != nil {
			return 0, nil, false
		}
		if t.resKind == sqltypes.KindTimestampTZ {
			c = builtins.FromLocal(c, builtins.SessionLocation(&ctx.Fn))
		}
	case cv.K == sqltypes.KindTimestamp || cv.K == sqltypes.KindTimestampTZ:
	default:
		return 0, nil, false
	}
	if !sqltypes.IsFiniteTimestamp(c) {
		return 0, nil, false
	}
	tc, err1 := t.trunc(c)
	next, err2 := t.next(tc)
	if err1 != nil || err2 != nil || !sqltypes.IsFiniteTimestamp(next) {
		return 0, nil, false
	}
	ceil := next
	if tc == c {
		ceil = c
	}
	// holds reports whether trunc(v) op c for a column value v, for
	// checking a bound.
	holds := func(v int64, op ir.BinOp) bool {
		tv, err := t.trunc(v + t.shift)
		if err != nil {
			return false
		}
		return ir.CompareHolds(op, cmp.Compare(tv, c))
	}
	val := func(us int64) sqltypes.Value { return sqltypes.Value{K: t.kind, I: us} }
	// from: the first value that passes; to: the first one after that
	// fails (lo and hi are truncated values, shifted back to the column's).
	from := func(lo int64, op ir.BinOp) (Interval, bool) {
		lo -= t.shift
		return Interval{Lo: val(lo), LoInc: true, HiUnb: true}, holds(lo, op) && !holds(lo-1, op)
	}
	to := func(hi int64, op ir.BinOp) (Interval, bool) {
		hi -= t.shift
		return Interval{Hi: val(hi), LoUnb: true}, !holds(hi, op) && holds(hi-1, op)
	}
	var iv Interval
	switch op {
	case ir.OpEq:
		if tc != c {
			return t.col, ValueSet{}, true // no step starts at c
		}
		lo, ok1 := from(c, ir.OpEq)
		hi, ok2 := to(next, ir.OpEq)
		iv, ok = intersectIntervals(lo, hi), ok1 && ok2
	case ir.OpLt:
		iv, ok = to(ceil, op)
	case ir.OpLe:
		iv, ok = to(next, op)
	case ir.OpGt:
		iv, ok = from(next, op)
	case ir.OpGe:
		iv, ok = from(ceil, op)
	default:
		return 0, nil, false
	}
	if !ok {
		return 0, nil, false
	}
	return t.col, ValueSet{iv}, true
}
