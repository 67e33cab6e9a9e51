package builtins

import (
	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// generate_series, with PostgreSQL 15's overloads: integer, bigint and
// numeric series (step 1 by default), and timestamp and timestamptz series
// with an interval step. The series includes stop when a step lands on it
// and is empty when the step runs away from stop.
func init() {
	int4, int8, num := T(sqltypes.TypeInt4), T(sqltypes.TypeInt8), T(sqltypes.TypeNumeric)
	ts, tstz, iv := T(sqltypes.TypeTimestamp), T(sqltypes.TypeTimestampTZ), T(sqltypes.TypeInterval)
	series := func(result sqltypes.Type, rows func(*Context, []sqltypes.Value) (SetRows, error), params ...Param) Overload {
		return Overload{Params: params, Result: Returns(result), Set: &SetFunc{Rows: rows}}
	}
	Register("generate_series",
		series(sqltypes.TypeInt4, intSeries, int4, int4),
		series(sqltypes.TypeInt4, intSeries, int4, int4, int4),
		series(sqltypes.TypeInt8, intSeries, int8, int8),
		series(sqltypes.TypeInt8, intSeries, int8, int8, int8),
		series(sqltypes.TypeNumeric, numericSeries, num, num),
		series(sqltypes.TypeNumeric, numericSeries, num, num, num),
		series(sqltypes.TypeTimestamp, timestampSeries, ts, ts, iv),
		// Stable: a day or month step of timestamptz follows the session's zone.
		series(sqltypes.TypeTimestampTZ, timestampSeries, tstz, tstz, iv).WithVolatility(Stable),
	)
}

func errStepZero() error {
	return pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
}

// intSeries counts in int64, which holds every int4 series exactly and
// stops a bigint one where the next value would overflow, as PostgreSQL's
// does.
func intSeries(_ *Context, a []sqltypes.Value) (SetRows, error) {
	cur, stop, step := a[0].I, a[1].I, int64(1)
	if len(a) > 2 {
		step = a[2].I
	}
	if step == 0 {
		return nil, errStepZero()
	}
	done := step > 0 && cur > stop || step < 0 && cur < stop
	row := make([]sqltypes.Value, 1)
	return RowsFunc(func() ([]sqltypes.Value, bool, error) {
		if done {
			return nil, false, nil
		}
		row[0] = sqltypes.NewInt(cur)
		next := cur + step
		if step > 0 && (next > stop || next < cur) || step < 0 && (next < stop || next > cur) {
			done = true
		}
		cur = next
		return row, true, nil
	}), nil
}

// numericSeries refuses NaN and infinite bounds and steps, with
// PostgreSQL's messages.
func numericSeries(_ *Context, a []sqltypes.Value) (SetRows, error) {
	step := sqltypes.NumericFromInt(1)
	if len(a) > 2 {
		step = a[2]
	}
	for i, what := range []string{"start value", "stop value", "step size"} {
		v := step
		if i < 2 {
			v = a[i]
		}
		switch v.Numeric().Form {
		case apd.NaN, apd.NaNSignaling:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "%s cannot be NaN", what)
		case apd.Infinite:
			return nil, pgerr.New(pgerr.InvalidParameterValue, "%s cannot be infinity", what)
		}
	}
	dir := step.Numeric().Sign()
	if dir == 0 {
		return nil, errStepZero()
	}
	cur, stop := a[0], a[1]
	row := make([]sqltypes.Value, 1)
	return RowsFunc(func() ([]sqltypes.Value, bool, error) {
		if c := sqltypes.CompareNumeric(cur, stop); dir > 0 && c > 0 || dir < 0 && c < 0 {
			return nil, false, nil
		}
		row[0] = cur
		next, err := sqltypes.AddNumeric(cur, step)
		if err != nil {
			return nil, false, err
		}
		cur = next
		return row, true, nil
	}), nil
}

// timestampSeries adds the step to the previous value (not n steps to the
// start), so a month step from Jan 31 gives Feb 29, Mar 29, ... as in
// PostgreSQL. timestamptz series count in UTC, the only time zone zproxy
// sessions have.
func timestampSeries(_ *Context, a []sqltypes.Value) (SetRows, error) {
	step := a[2].Interval()
	dir := sqltypes.CompareInterval(step, sqltypes.IntervalValue{})
	if dir == 0 {
		return nil, errStepZero()
	}
	cur, stop, kind := a[0].I, a[1].I, a[0].K
	row := make([]sqltypes.Value, 1)
	return RowsFunc(func() ([]sqltypes.Value, bool, error) {
		// An infinite start never moves, so (as in PostgreSQL) its series
		// is endless unless it starts past stop.
		if dir > 0 && cur > stop || dir < 0 && cur < stop {
			return nil, false, nil
		}
		row[0] = sqltypes.Value{K: kind, I: cur}
		next, err := sqltypes.TimestampAddInterval(cur, step)
		if err != nil {
			return nil, false, err
		}
		cur = next
		return row, true, nil
	}), nil
}
