package builtins

import (
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The date, timestamp and interval operators of PostgreSQL's catalog.
// timestamptz ± interval adds months and days on the session's calendar
// (a day is 23 or 25 hours across a daylight-saving change), so it is
// stable, not immutable.
func registerDateTimeOperators() {
	ts := func(us int64, err error) (sqltypes.Value, error) { return sqltypes.NewTimestamp(us), err }
	iv := func(v sqltypes.IntervalValue, err error) (sqltypes.Value, error) { return sqltypes.NewInterval(v), err }
	date := func(d int64, err error) (sqltypes.Value, error) { return sqltypes.NewDate(d), err }
	neg := func(v sqltypes.Value) (sqltypes.IntervalValue, error) { return sqltypes.NegInterval(v.Interval()) }

	RegisterOperator("+",
		binop(tDate, tInt4, tDate, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return date(sqltypes.DateAddDays(a.I, b.I))
		}),
		binop(tInt4, tDate, tDate, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return date(sqltypes.DateAddDays(b.I, a.I))
		}),
		binop(tDate, tInterval, tTS, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return ts(sqltypes.DateAddInterval(a.I, b.Interval()))
		}),
		binop(tInterval, tDate, tTS, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return ts(sqltypes.DateAddInterval(b.I, a.Interval()))
		}),
		binop(tTS, tInterval, tTS, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return ts(sqltypes.TimestampAddInterval(a.I, b.Interval()))
		}),
		binop(tInterval, tTS, tTS, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return ts(sqltypes.TimestampAddInterval(b.I, a.Interval()))
		}),
		binop(tTSTZ, tInterval, tTSTZ, Stable, func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return TimestampTZAddInterval(ctx, a.I, b.Interval())
		}),
		binop(tInterval, tTSTZ, tTSTZ, Stable, func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return TimestampTZAddInterval(ctx, b.I, a.Interval())
		}),
		binop(tInterval, tInterval, tInterval, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return iv(sqltypes.AddInterval(a.Interval(), b.Interval()))
		}),
	)
	RegisterOperator("-",
		binop(tDate, tInt4, tDate, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return date(sqltypes.DateAddDays(a.I, -b.I))
		}),
		binop(tDate, tDate, tInt4, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			d, err := sqltypes.DateDiff(a.I, b.I)
			return sqltypes.NewInt(d), err
		}),
		binop(tDate, tInterval, tTS, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			n, err := neg(b)
			if err != nil {
				return sqltypes.Null, err
			}
			return ts(sqltypes.DateAddInterval(a.I, n))
		}),
		binop(tTS, tInterval, tTS, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return ts(sqltypes.TimestampSubInterval(a.I, b.Interval()))
		}),
		binop(tTSTZ, tInterval, tTSTZ, Stable, func(ctx *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			n, err := neg(b)
			if err != nil {
				return sqltypes.Null, err
			}
			return TimestampTZAddInterval(ctx, a.I, n)
		}),
		binop(tTS, tTS, tInterval, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return iv(sqltypes.TimestampDiff(a.I, b.I))
		}),
		binop(tTSTZ, tTSTZ, tInterval, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return iv(sqltypes.TimestampDiff(a.I, b.I))
		}),
		binop(tInterval, tInterval, tInterval, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return iv(sqltypes.SubInterval(a.Interval(), b.Interval()))
		}),
	)
	RegisterOperator("*",
		binop(tInterval, tFloat8, tInterval, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return iv(sqltypes.MulInterval(a.Interval(), b.F))
		}),
		binop(tFloat8, tInterval, tInterval, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return iv(sqltypes.MulInterval(b.Interval(), a.F))
		}),
	)
	RegisterOperator("/",
		binop(tInterval, tFloat8, tInterval, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return iv(sqltypes.DivInterval(a.Interval(), b.F))
		}),
	)
}

// TimestampTZAddInterval is timestamptz + interval: the months, then the
// days, are added to the wall-clock time in the session's zone (so
// '2024-03-09 12:00 America/New_York' + '1 day' is noon again, 23 hours
// later), then the time part as elapsed time.
func TimestampTZAddInterval(ctx *Context, us int64, span sqltypes.IntervalValue) (sqltypes.Value, error) {
	loc := SessionLocation(ctx)
	r, err := AddOnCalendar(us, span, loc)
	return sqltypes.NewTimestampTZ(r), err
}

// AddOnCalendar adds an interval to an instant as timestamptz + interval
// does in the zone loc.
func AddOnCalendar(us int64, span sqltypes.IntervalValue, loc *time.Location) (int64, error) {
	if !sqltypes.IsFiniteTimestamp(us) {
		return us, nil
	}
	var err error
	for _, step := range []sqltypes.IntervalValue{{Months: span.Months}, {Days: span.Days}} {
		if step.Months == 0 && step.Days == 0 {
			continue
		}
		local := ToLocal(us, loc)
		if local, err = sqltypes.TimestampAddInterval(local, step); err != nil {
			return 0, err
		}
		us = FromLocal(local, loc)
	}
	return sqltypes.TimestampAddInterval(us, sqltypes.IntervalValue{Micros: span.Micros})
}
