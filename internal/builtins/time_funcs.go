package builtins

import (
	"math"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Functions and operators of time and time with time zone: current_time,
// localtime, make_time, date + time, time ± interval, time - time, and
// the fields extract reads.

var (
	tTime   = sqltypes.TypeTime
	tTimeTZ = sqltypes.TypeTimeTZ
)

// wrapDay is a time of day after adding µs (time + interval wraps around
// midnight, as PostgreSQL's time_pl_interval).
func wrapDay(us int64) int64 {
	us %= sqltypes.USPerDay
	if us < 0 {
		us += sqltypes.USPerDay
	}
	return us
}

// roundTime rounds a time of day to p fractional digits (time(p)).
func roundTime(us, p int64) (int64, error) {
	if p < 0 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "TIME(%d) precision must not be negative", p)
	}
	if p >= 6 {
		return us, nil
	}
	scale := int64(math.Pow10(6 - int(p)))
	return (us + scale/2) / scale * scale, nil
}

// currentTime is the statement's time of day in the session's zone, with
// the zone's offset then.
func currentTime(ctx *Context) sqltypes.TimeTZValue {
	us := sqltypes.TimestampFromTime(statementTime(ctx))
	off := ZoneOffset(us, SessionLocation(ctx))
	return sqltypes.TimeTZValue{Micros: sqltypes.TimeOfDay(us + off*1e6), Offset: int32(off)}
}

// timePart extracts a field of a time (offset nil) or timetz.
func timePart(unit string, us int64, offset *int32) (part, error) {
	t := tTime
	if offset != nil {
		t = tTimeTZ
	}
	u, low := decodeUnit(unit, true)
	if u == unitNone {
		return part{}, unitNotRecognized(low, t)
	}
	h, m, sec := us/usPerHour, us/usPerMin%60, us/1e6%60
	if p, ok := secondsPart(u, sec, us%1e6); ok {
		return p, nil
	}
	switch u {
	case unitMinute:
		return intPart(m), nil
	case unitHour:
		return intPart(h), nil
	case unitEpoch:
		e := us
		if offset != nil {
			e -= int64(*offset) * 1e6
		}
		return part{i: e, scale: 6, f: float64(e) / 1e6}, nil
	}
	if offset != nil {
		switch u {
		case unitTimezone:
			return intPart(int64(*offset)), nil
		case unitTimezoneHour:
			return intPart(int64(*offset) / 3600), nil
		case unitTimezoneMinute:
			return intPart(int64(*offset) / 60 % 60), nil
		}
	}
	return part{}, unitNotSupported(low, t)
}

func init() {
	f := fixedOverload
	// timezone(zone, timetz), timetz AT TIME ZONE zone (a time converts
	// to timetz first): the same instant of the day at the zone's offset,
	// which for a zone with daylight rules is the offset in effect at the
	// statement's time, as in PostgreSQL's timetz_zone.
	for _, zt := range []sqltypes.Type{tText, tInterval} {
		Register("timezone", f([]sqltypes.Type{zt, tTimeTZ}, tTimeTZ, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			loc, err := zoneArg(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			off := ZoneOffset(sqltypes.TimestampFromTime(statementTime(ctx)), loc)
			t := a[1].TimeTZ()
			return sqltypes.NewTimeTZ(sqltypes.TimeTZValue{Micros: wrapDay(t.UTCMicros() + off*1e6), Offset: int32(off)}), nil
		}))
	}
	Register("current_time",
		f(nil, tTimeTZ, Stable, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewTimeTZ(currentTime(ctx)), nil
		}),
		f([]sqltypes.Type{tInt4}, tTimeTZ, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			t := currentTime(ctx)
			var err error
			t.Micros, err = roundTime(t.Micros, a[0].I)
			return sqltypes.NewTimeTZ(t), err
		}))
	Register("localtime",
		f(nil, tTime, Stable, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewTime(currentTime(ctx).Micros), nil
		}),
		f([]sqltypes.Type{tInt4}, tTime, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			us, err := roundTime(currentTime(ctx).Micros, a[0].I)
			return sqltypes.NewTime(us), err
		}))
	Register("make_time", f([]sqltypes.Type{tInt4, tInt4, tFloat8}, tTime, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		h, m, sec := a[0].I, a[1].I, a[2].F
		if h < 0 || h > 24 || m < 0 || m > 59 || math.IsNaN(sec) || sec < 0 || sec > 60 ||
			h == 24 && (m > 0 || sec > 0) || float64((h*60+m)*60)+sec > 86400 {
			return sqltypes.Null, pgerr.New(pgerr.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%02s", h, m, formatG(sec))
		}
		return sqltypes.NewTime((h*60+m)*usPerMin + int64(math.RoundToEven(sec*1e6))), nil
	}))
	for _, fn := range partFuncs {
		out := fn.out
		Register(fn.name,
			f([]sqltypes.Type{tText, tTime}, fn.typ, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				p, err := timePart(a[0].S, a[1].I, nil)
				return out(p), err
			}),
			f([]sqltypes.Type{tText, tTimeTZ}, fn.typ, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				t := a[1].TimeTZ()
				p, err := timePart(a[0].S, t.Micros, &t.Offset)
				return out(p), err
			}))
	}

	tm := func(us int64) (sqltypes.Value, error) { return sqltypes.NewTime(wrapDay(us)), nil }
	tmtz := func(t sqltypes.TimeTZValue, us int64) (sqltypes.Value, error) {
		t.Micros = wrapDay(us)
		return sqltypes.NewTimeTZ(t), nil
	}
	RegisterOperator("+",
		binop(tTime, tInterval, tTime, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return tm(a.I + b.Interval().Micros) }),
		binop(tInterval, tTime, tTime, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return tm(b.I + a.Interval().Micros) }),
		binop(tTimeTZ, tInterval, tTimeTZ, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return tmtz(a.TimeTZ(), a.TimeTZ().Micros+b.Interval().Micros)
		}),
		binop(tInterval, tTimeTZ, tTimeTZ, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return tmtz(b.TimeTZ(), b.TimeTZ().Micros+a.Interval().Micros)
		}),
		binop(tDate, tTime, tTS, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			us, err := dateTime(a, b.I)
			return sqltypes.NewTimestamp(us), err
		}),
		binop(tTime, tDate, tTS, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			us, err := dateTime(b, a.I)
			return sqltypes.NewTimestamp(us), err
		}),
		binop(tDate, tTimeTZ, tTSTZ, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return dateTimeTZ(a, b)
		}),
		binop(tTimeTZ, tDate, tTSTZ, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return dateTimeTZ(b, a) // timetzdate_pl, the commutator
		}),
	)
	RegisterOperator("-",
		binop(tTime, tInterval, tTime, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return tm(a.I - b.Interval().Micros) }),
		binop(tTimeTZ, tInterval, tTimeTZ, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return tmtz(a.TimeTZ(), a.TimeTZ().Micros-b.Interval().Micros)
		}),
		binop(tTime, tTime, tInterval, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewInterval(sqltypes.IntervalValue{Micros: a.I - b.I}), nil
		}),
	)
}

// dateTimeTZ is date + time with time zone: the timestamptz of that wall
// time on that day in the value's zone (datetimetz_pl).
func dateTimeTZ(date, timetz sqltypes.Value) (sqltypes.Value, error) {
	t := timetz.TimeTZ()
	us, err := dateTime(date, t.Micros)
	if err == nil && sqltypes.IsFiniteTimestamp(us) {
		us -= int64(t.Offset) * 1e6
	}
	return sqltypes.NewTimestampTZ(us), err
}

// dateTime is date + time: the timestamp of that day at that time (us
// microseconds after midnight).
func dateTime(d sqltypes.Value, us int64) (int64, error) {
	ts, err := sqltypes.DateToTimestamp(d.I)
	if err != nil || !sqltypes.IsFiniteTimestamp(ts) {
		return ts, err
	}
	return sqltypes.TimestampAddInterval(ts, sqltypes.IntervalValue{Micros: us})
}
