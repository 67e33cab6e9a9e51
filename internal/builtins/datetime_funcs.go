package builtins

import (
	"math"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// partFuncs are the two functions that read a field of a date or time:
// extract returns numeric (PostgreSQL 14 and later), date_part double
// precision.
var partFuncs = []struct {
	name string
	typ  sqltypes.Type
	out  func(part) sqltypes.Value
}{{"extract", tNumeric, part.numeric}, {"date_part", tFloat8, part.float}}

// fixedOverload is an overload of concrete parameter types and one result
// type.
func fixedOverload(params []sqltypes.Type, res sqltypes.Type, vol Volatility, eval func(*Context, []sqltypes.Value) (sqltypes.Value, error)) Overload {
	ps := make([]Param, len(params))
	for i, p := range params {
		ps[i] = T(p)
	}
	return Overload{Params: ps, Result: Returns(res), Volatility: vol, Eval: eval}
}

func init() {
	f := fixedOverload
	tsv := func(us int64, err error) (sqltypes.Value, error) { return sqltypes.NewTimestamp(us), err }
	tstzv := func(us int64, err error) (sqltypes.Value, error) { return sqltypes.NewTimestampTZ(us), err }
	ivv := func(iv sqltypes.IntervalValue, err error) (sqltypes.Value, error) {
		return sqltypes.NewInterval(iv), err
	}

	Register("date_trunc",
		f([]sqltypes.Type{tText, tTS}, tTS, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return tsv(TruncTimestamp(a[0].S, a[1].I))
		}),
		f([]sqltypes.Type{tText, tTSTZ}, tTSTZ, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return tstzv(TruncTimestampTZ(a[0].S, a[1].I, SessionLocation(ctx)))
		}),
		f([]sqltypes.Type{tText, tTSTZ, tText}, tTSTZ, Stable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			loc, err := LookupZone(a[2].S)
			if err != nil {
				return sqltypes.Null, err
			}
			return tstzv(TruncTimestampTZ(a[0].S, a[1].I, loc))
		}),
		f([]sqltypes.Type{tText, tInterval}, tInterval, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return ivv(TruncInterval(a[0].S, a[1].Interval()))
		}),
	)

	for _, fn := range partFuncs {
		out := fn.out
		wrap := func(p part, err error) (sqltypes.Value, error) {
			if err != nil {
				return sqltypes.Null, err
			}
			return out(p), nil
		}
		date := f([]sqltypes.Type{tText, tDate}, fn.typ, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return wrap(datePart(a[0].S, a[1].I))
		})
		if fn.name == "date_part" {
			// date_part(text, date) is date_part(text, date::timestamp).
			date.Eval = func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				us, err := sqltypes.DateToTimestamp(a[1].I)
				if err != nil {
					return sqltypes.Null, err
				}
				return wrap(timestampPart(a[0].S, us, nil, tTS))
			}
		}
		Register(fn.name,
			f([]sqltypes.Type{tText, tTS}, fn.typ, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return wrap(timestampPart(a[0].S, a[1].I, nil, tTS))
			}),
			f([]sqltypes.Type{tText, tTSTZ}, fn.typ, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return wrap(timestampPart(a[0].S, a[1].I, SessionLocation(ctx), tTSTZ))
			}),
			date,
			f([]sqltypes.Type{tText, tInterval}, fn.typ, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return wrap(intervalPart(a[0].S, a[1].Interval()))
			}),
		)
	}

	binFn := func(t sqltypes.Type) Overload {
		return f([]sqltypes.Type{tInterval, t, t}, t, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			us, err := DateBin(a[0].Interval(), a[1].I, a[2].I)
			return sqltypes.Value{K: t.Kind(), I: us}, err
		})
	}
	Register("date_bin", binFn(tTS), binFn(tTSTZ))

	i4 := tInt4
	Register("make_date", f([]sqltypes.Type{i4, i4, i4}, tDate, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		d, err := makeDate(a[0].I, a[1].I, a[2].I)
		return sqltypes.NewDate(d), err
	}))
	Register("make_timestamp", f([]sqltypes.Type{i4, i4, i4, i4, i4, tFloat8}, tTS, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return tsv(makeTimestamp(a))
	}))
	Register("make_timestamptz",
		f([]sqltypes.Type{i4, i4, i4, i4, i4, tFloat8}, tTSTZ, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			local, err := makeTimestamp(a)
			return sqltypes.NewTimestampTZ(FromLocal(local, SessionLocation(ctx))), err
		}),
		f([]sqltypes.Type{i4, i4, i4, i4, i4, tFloat8, tText}, tTSTZ, Stable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			loc, err := LookupZone(a[6].S)
			if err != nil {
				return sqltypes.Null, err
			}
			local, err := makeTimestamp(a)
			return sqltypes.NewTimestampTZ(FromLocal(local, loc)), err
		}))
	// make_interval(years, months, weeks, days, hours, mins, secs): every
	// argument may be left off from the right (their defaults are zero).
	intervalParams := []sqltypes.Type{i4, i4, i4, i4, i4, i4, tFloat8}
	for n := 0; n <= len(intervalParams); n++ {
		Register("make_interval", f(intervalParams[:n], tInterval, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return ivv(makeIntervalOf(a))
		}))
	}

	Register("age",
		f([]sqltypes.Type{tTS, tTS}, tInterval, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return ivv(sqltypes.Age(a[0].I, a[1].I))
		}),
		f([]sqltypes.Type{tTSTZ, tTSTZ}, tInterval, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			loc := SessionLocation(ctx)
			return ivv(sqltypes.Age(ToLocal(a[0].I, loc), ToLocal(a[1].I, loc)))
		}),
		// age(x) is age(current_date at midnight, x).
		f([]sqltypes.Type{tTS}, tInterval, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return ivv(sqltypes.Age((currentDate(ctx)-sqltypes.PGEpochDays)*usPerDay, a[0].I))
		}),
		f([]sqltypes.Type{tTSTZ}, tInterval, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return ivv(sqltypes.Age((currentDate(ctx)-sqltypes.PGEpochDays)*usPerDay, ToLocal(a[0].I, SessionLocation(ctx))))
		}),
	)

	finite := func(t sqltypes.Type, ok func(sqltypes.Value) bool) Overload {
		return f([]sqltypes.Type{t}, sqltypes.TypeBool, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(ok(a[0])), nil
		})
	}
	Register("isfinite",
		finite(tDate, func(v sqltypes.Value) bool { return sqltypes.IsFiniteDate(v.I) }),
		finite(tTS, func(v sqltypes.Value) bool { return sqltypes.IsFiniteTimestamp(v.I) }),
		finite(tTSTZ, func(v sqltypes.Value) bool { return sqltypes.IsFiniteTimestamp(v.I) }),
		finite(tInterval, func(sqltypes.Value) bool { return true }), // PostgreSQL 15 intervals are finite
	)
	for name, fn := range map[string]func(sqltypes.IntervalValue) (sqltypes.IntervalValue, error){
		"justify_days": sqltypes.JustifyDays, "justify_hours": sqltypes.JustifyHours, "justify_interval": sqltypes.JustifyInterval,
	} {
		fn := fn
		Register(name, f([]sqltypes.Type{tInterval}, tInterval, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return ivv(fn(a[0].Interval()))
		}))
	}

	// timezone(zone, x) is x AT TIME ZONE zone: a timestamp read as wall
	// time in the zone becomes an instant, an instant becomes the zone's
	// wall time.
	for _, zt := range []sqltypes.Type{tText, tInterval} {
		Register("timezone",
			f([]sqltypes.Type{zt, tTS}, tTSTZ, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				loc, err := zoneArg(a[0])
				if err != nil {
					return sqltypes.Null, err
				}
				return sqltypes.NewTimestampTZ(FromLocal(a[1].I, loc)), nil
			}),
			f([]sqltypes.Type{zt, tTSTZ}, tTS, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				loc, err := zoneArg(a[0])
				if err != nil {
					return sqltypes.Null, err
				}
				return sqltypes.NewTimestamp(ToLocal(a[1].I, loc)), nil
			}))
	}
	Register("date",
		f([]sqltypes.Type{tTS}, tDate, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewDate(sqltypes.TimestampToDate(a[0].I)), nil
		}),
		f([]sqltypes.Type{tTSTZ}, tDate, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewDate(sqltypes.TimestampToDate(ToLocal(a[0].I, SessionLocation(ctx)))), nil
		}))

	Register("to_timestamp", f([]sqltypes.Type{tFloat8}, tTSTZ, Immutable, func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return tstzv(epochToTimestamp(a[0].F))
	}))

	Register("current_date", f(nil, tDate, Stable, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewDate(currentDate(ctx)), nil
	}))
	Register("current_timestamp", f([]sqltypes.Type{i4}, tTSTZ, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return tstzv(RoundTimestamp(sqltypes.TimestampFromTime(statementTime(ctx)), a[0].I))
	}))
	Register("localtimestamp", f([]sqltypes.Type{i4}, tTS, Stable, func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		return tsv(RoundTimestamp(ToLocal(sqltypes.TimestampFromTime(statementTime(ctx)), SessionLocation(ctx)), a[0].I))
	}))
	Register("timeofday", f(nil, tText, Volatile, func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
		t := sqltypes.InZone(time.Now(), SessionLocation(ctx))
		return sqltypes.NewText(t.Format("Mon Jan 02 15:04:05.000000 2006 MST")), nil
	}))
}

var tText = sqltypes.TypeText

// statementTime is the statement's timestamp (now()).
func statementTime(ctx *Context) time.Time {
	if ctx != nil && !ctx.Now.IsZero() {
		return ctx.Now
	}
	return time.Now()
}

// currentDate is current_date: today in the session's time zone.
func currentDate(ctx *Context) int64 {
	return sqltypes.TimestampToDate(ToLocal(sqltypes.TimestampFromTime(statementTime(ctx)), SessionLocation(ctx)))
}

// RoundTimestamp rounds a timestamp to p fractional digits of a second
// (half away from zero), as timestamp(p) and current_timestamp(p) do; p
// past 6 is 6.
func RoundTimestamp(us, p int64) (int64, error) {
	if p < 0 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "TIMESTAMP(%d) precision must not be negative", p)
	}
	if p >= 6 || !sqltypes.IsFiniteTimestamp(us) {
		return us, nil
	}
	scale := int64(math.Pow10(6 - int(p)))
	if us >= 0 {
		return (us + scale/2) / scale * scale, nil
	}
	return -((-us + scale/2) / scale * scale), nil
}

// makeDate is make_date: negative years are BC, year 0 does not exist.
func makeDate(y, m, d int64) (int64, error) {
	year := y
	if y < 0 {
		year = y + 1 // astronomical: 1 BC is year 0
	}
	if y == 0 || m < 1 || m > 12 || d < 1 || d > sqltypes.DaysInMonth(year, m) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, m, d)
	}
	days := sqltypes.DaysFromCivil(year, m, d)
	if days < sqltypes.MinDate || days > sqltypes.MaxDate {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: %d-%02d-%02d", y, m, d)
	}
	return days, nil
}

// makeTimestamp is make_timestamp(year, month, day, hour, min, sec).
func makeTimestamp(a []sqltypes.Value) (int64, error) {
	days, err := makeDate(a[0].I, a[1].I, a[2].I)
	if err != nil {
		return 0, err
	}
	h, mi, sec := a[3].I, a[4].I, a[5].F
	// PostgreSQL's float_time_overflows: 24:00:00 is the latest time.
	if h < 0 || h > 24 || mi < 0 || mi > 59 || math.IsNaN(sec) || sec < 0 || sec > 60 ||
		h == 24 && (mi > 0 || sec > 0) || float64((h*60+mi)*60)+sec > 86400 {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%02s", h, mi, formatG(sec))
	}
	tod := (h*60+mi)*usPerMin + int64(math.RoundToEven(sec*1e6))
	us, ok := mulInt64(days-sqltypes.PGEpochDays, usPerDay)
	if ok {
		us, ok = addInt64(us, tod)
	}
	if !ok || !sqltypes.InTimestampRange(us) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: %d-%02d-%02d %d:%02d:%02s", a[0].I, a[1].I, a[2].I, h, mi, formatG(sec))
	}
	return us, nil
}

// makeIntervalOf is make_interval over up to seven arguments.
func makeIntervalOf(a []sqltypes.Value) (sqltypes.IntervalValue, error) {
	arg := func(i int) int64 {
		if i < len(a) {
			return a[i].I
		}
		return 0
	}
	secs := 0.0
	if len(a) > 6 {
		secs = a[6].F
	}
	if math.IsInf(secs, 0) || math.IsNaN(secs) {
		return sqltypes.IntervalValue{}, sqltypes.ErrIntervalOutOfRange()
	}
	// PostgreSQL 15 computes the fields in 32- and 64-bit integers that
	// wrap around on overflow (make_interval(years => 2147483647) is
	// -1 years there), and converts seconds past the 64-bit range to its
	// minimum, as C's cast does on x86-64; zproxy gives the same values.
	months := int32(arg(0))*12 + int32(arg(1))
	days := int32(arg(2))*7 + int32(arg(3))
	us := math.RoundToEven(secs * 1e6)
	usInt := int64(math.MinInt64)
	if us >= -9.2233720368547758e18 && us < 9.2233720368547758e18 {
		usInt = int64(us)
	}
	micros := arg(4)*3600e6 + arg(5)*60e6 + usInt
	return sqltypes.IntervalValue{Months: months, Days: days, Micros: micros}, nil
}

// epochToTimestamp is to_timestamp(double precision): seconds since the
// epoch, rounded to µs; ±Infinity are the infinite timestamps.
func epochToTimestamp(secs float64) (int64, error) {
	switch {
	case math.IsNaN(secs):
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp cannot be NaN")
	case math.IsInf(secs, 1):
		return sqltypes.TimestampInfinity, nil
	case math.IsInf(secs, -1):
		return sqltypes.TimestampNegInfinity, nil
	}
	// PostgreSQL's check: seconds within the range, as a double, then
	// rounded µs from 2000.
	if secs < float64(sqltypes.MinTimestamp+sqltypes.PGEpochMicros)/1e6 || secs >= (float64(sqltypes.EndTimestamp)+float64(sqltypes.PGEpochMicros))/1e6 {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", formatG(secs))
	}
	us := math.RoundToEven((secs - float64(sqltypes.PGEpochMicros/1e6)) * 1e6)
	if us < float64(sqltypes.MinTimestamp) || us >= float64(sqltypes.EndTimestamp) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", formatG(secs))
	}
	return int64(us), nil
}

// formatG prints a double as C's %g does (six significant digits).
func formatG(f float64) string { return sqltypes.FormatG(f, 6) }

func init() {
	tmplFn := func(t sqltypes.Type, vol Volatility, f func(*Context, sqltypes.Value, string) (sqltypes.Value, error)) Overload {
		return Overload{Params: []Param{T(t), T(tText)}, Result: Returns(tText), Volatility: vol,
			Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				if a[1].S == "" && t.Kind() != sqltypes.KindInt && t.Kind() != sqltypes.KindFloat && t.Kind() != sqltypes.KindNumeric {
					// to_char of a time or interval with an empty template
					// is NULL; of a number, an empty string.
					return sqltypes.Null, nil
				}
				return f(ctx, a[0], a[1].S)
			}}
	}
	number := func(t sqltypes.Type) Overload {
		// to_char is stable in PostgreSQL: its templates may read the
		// locale (lc_numeric, lc_time).
		return tmplFn(t, Stable, func(_ *Context, v sqltypes.Value, tmpl string) (sqltypes.Value, error) {
			return NumberToChar(v, t, tmpl)
		})
	}
	Register("to_char",
		tmplFn(tTS, Stable, func(_ *Context, v sqltypes.Value, tmpl string) (sqltypes.Value, error) {
			return TimestampToChar(v.I, nil, tmpl)
		}),
		tmplFn(tTSTZ, Stable, func(ctx *Context, v sqltypes.Value, tmpl string) (sqltypes.Value, error) {
			return TimestampToChar(v.I, SessionLocation(ctx), tmpl)
		}),
		tmplFn(tInterval, Stable, func(_ *Context, v sqltypes.Value, tmpl string) (sqltypes.Value, error) {
			return IntervalToChar(v.Interval(), tmpl)
		}),
		number(tInt4), number(tInt8), number(tFloat4), number(tFloat8), number(tNumeric),
	)
	Register("to_timestamp", Overload{Params: []Param{T(tText), T(tText)}, Result: Returns(tTSTZ), Volatility: Stable,
		Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			us, err := ToTimestamp(a[0].S, a[1].S, SessionLocation(ctx))
			return sqltypes.NewTimestampTZ(us), err
		}})
	Register("to_date", Overload{Params: []Param{T(tText), T(tText)}, Result: Returns(tDate), Volatility: Stable,
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			d, err := ToDate(a[0].S, a[1].S)
			return sqltypes.NewDate(d), err
		}})
}

// paramNames are the parameter names of the functions PostgreSQL declares
// with them, for calls that name their arguments (make_interval(days =>
// 3)), and how many trailing parameters have defaults (zero).
var paramNames = map[string]paramInfo{
	"make_interval":    {names: []string{"years", "months", "weeks", "days", "hours", "mins", "secs"}, optional: 7},
	"make_date":        {names: []string{"year", "month", "day"}, optional: 0},
	"make_timestamp":   {names: []string{"year", "month", "mday", "hour", "min", "sec"}, optional: 0},
	"make_timestamptz": {names: []string{"year", "month", "mday", "hour", "min", "sec", "timezone"}, optional: 1},
}

// paramInfo is a function's parameter names, how many trailing ones have
// defaults, and those defaults when they are not zero (the jsonpath
// functions' vars '{}' and silent false).
type paramInfo struct {
	names        []string
	optional     int
	defaults     []sqltypes.Value
	defaultTypes []sqltypes.Type
}

// ParamNames returns a function's parameter names and how many trailing
// ones may be left out; nil when its arguments cannot be named.
func ParamNames(name string) ([]string, int) {
	p := paramNames[name]
	return p.names, p.optional
}

// ParamDefault returns the default of a function's parameter i, when it
// is one of the trailing optional ones and not zero; ok false otherwise.
func ParamDefault(name string, i int) (v sqltypes.Value, t sqltypes.Type, ok bool) {
	p := paramNames[name]
	k := i - (len(p.names) - p.optional)
	if k < 0 || k >= len(p.defaults) {
		return sqltypes.Null, sqltypes.TypeUnknown, false
	}
	return p.defaults[k], p.defaultTypes[k], true
}
