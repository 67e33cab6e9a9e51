package builtins

import (
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Date and time functions: date_trunc, extract / date_part, date_bin,
// make_date, make_timestamp(tz), make_interval, age, isfinite, justify_*,
// timezone (AT TIME ZONE), date, to_timestamp(double precision), and the
// clock functions. Functions over timestamptz read the calendar in the
// session's time zone and are stable; those over timestamp, date and
// interval are immutable and fold when their arguments are constants.

// Units of date_trunc and extract (PostgreSQL's DTK_* codes).
type dtUnit uint8

const (
	unitNone dtUnit = iota
	unitMicrosecond
	unitMillisecond
	unitSecond
	unitMinute
	unitHour
	unitDay
	unitWeek
	unitMonth
	unitQuarter
	unitYear
	unitDecade
	unitCentury
	unitMillennium
	unitTimezone
	unitTimezoneHour
	unitTimezoneMinute
	// Units of extract only (PostgreSQL's datetktbl, not deltatktbl).
	unitEpoch
	unitDow
	unitIsoDow
	unitDoy
	unitIsoYear
	unitJulian
)

// deltaUnits are the units PostgreSQL's DecodeUnits knows, by the name
// sqltypes.UnitName gives each of their spellings.
var deltaUnits = map[string]dtUnit{
	"microsecond": unitMicrosecond, "millisecond": unitMillisecond, "second": unitSecond, "minute": unitMinute,
	"hour": unitHour, "day": unitDay, "week": unitWeek, "month": unitMonth, "quarter": unitQuarter, "year": unitYear,
	"decade": unitDecade, "century": unitCentury, "millennium": unitMillennium,
	"timezone": unitTimezone, "timezone_hour": unitTimezoneHour, "timezone_minute": unitTimezoneMinute,
}

// specialUnits are the extract fields PostgreSQL finds with DecodeSpecial.
var specialUnits = map[string]dtUnit{
	"epoch": unitEpoch, "dow": unitDow, "isodow": unitIsoDow, "doy": unitDoy, "isoyear": unitIsoYear,
	"j": unitJulian, "jd": unitJulian, "julian": unitJulian,
}

// decodeUnit reads a unit name as PostgreSQL does: lower-cased and cut to
// 10 characters. special also looks up extract's extra fields.
func decodeUnit(name string, special bool) (dtUnit, string) {
	low := strings.ToLower(name)
	if u, ok := deltaUnits[sqltypes.UnitName(low)]; ok {
		return u, low
	}
	if special {
		if u, ok := specialUnits[low]; ok {
			return u, low
		}
	}
	return unitNone, low
}

func unitNotRecognized(unit string, t sqltypes.Type) error {
	return pgerr.New(pgerr.InvalidParameterValue, "unit %q not recognized for type %s", unit, t)
}

func unitNotSupported(unit string, t sqltypes.Type) error {
	return pgerr.New(pgerr.FeatureNotSupported, "unit %q not supported for type %s", unit, t)
}

// dayOfWeek is 0 (Sunday) to 6 of a day count (1970-01-01 was a Thursday).
func dayOfWeek(days int64) int64 { return ((days+4)%7 + 7) % 7 }

// isoWeek returns the ISO 8601 year and week of a day count: the week is
// the one holding that week's Thursday.
func isoWeek(days int64) (year, week int64) {
	thursday := days - (dayOfWeek(days)+6)%7 + 3
	y, _, _ := sqltypes.CivilFromDays(thursday)
	return y, (thursday-sqltypes.DaysFromCivil(y, 1, 1))/7 + 1
}

// truncYear applies PostgreSQL's millennium/century/decade truncation to
// an astronomical year (BC years count down from year 0 = 1 BC).
func truncYear(y int64, u dtUnit) int64 {
	switch u {
	case unitMillennium:
		if y > 0 {
			return ((y+999)/1000)*1000 - 999
		}
		return -((999-(y-1))/1000)*1000 + 1
	case unitCentury:
		if y > 0 {
			return ((y+99)/100)*100 - 99
		}
		return -((99-(y-1))/100)*100 + 1
	case unitDecade:
		if y > 0 {
			return (y / 10) * 10
		}
		return -((8 - (y - 1)) / 10) * 10
	}
	return y
}

// truncCivil truncates broken-down time to a unit; ok is false for units
// date_trunc does not support.
func truncCivil(c sqltypes.Civil, days int64, u dtUnit) (sqltypes.Civil, bool) {
	switch u {
	case unitWeek:
		monday := days - (dayOfWeek(days)+6)%7
		c.Year, c.Month, c.Day = sqltypes.CivilFromDays(monday)
		c.Hour, c.Minute, c.Second, c.Micro = 0, 0, 0, 0
		return c, true
	case unitMillennium, unitCentury, unitDecade, unitYear, unitQuarter, unitMonth, unitDay,
		unitHour, unitMinute, unitSecond, unitMillisecond, unitMicrosecond:
	default:
		return c, false
	}
	if u >= unitDecade {
		c.Year = truncYear(c.Year, u)
	}
	if u >= unitYear {
		c.Month = 1
	}
	if u == unitQuarter {
		c.Month = 3*((c.Month-1)/3) + 1
	}
	if u >= unitMonth {
		c.Day = 1
	}
	if u >= unitDay {
		c.Hour = 0
	}
	if u >= unitHour {
		c.Minute = 0
	}
	if u >= unitMinute {
		c.Second = 0
	}
	if u >= unitSecond {
		c.Micro = 0
	}
	if u == unitMillisecond {
		c.Micro = c.Micro / 1000 * 1000
	}
	return c, true
}

// TruncTimestamp is date_trunc(unit, timestamp).
func TruncTimestamp(unit string, us int64) (int64, error) {
	if !sqltypes.IsFiniteTimestamp(us) {
		return us, nil
	}
	u, low := decodeUnit(unit, false)
	if u == unitNone {
		return 0, unitNotRecognized(low, tTS)
	}
	c, ok := truncCivil(sqltypes.TimestampCivil(us), sqltypes.TimestampToDate(us), u)
	if !ok {
		return 0, unitNotSupported(low, tTS)
	}
	r, ok := sqltypes.CivilTimestamp(c)
	if !ok {
		return 0, sqltypes.ErrTimestampOutOfRange()
	}
	return r, nil
}

// TruncTimestampTZ is date_trunc(unit, timestamptz [, zone]): the wall
// clock in loc is truncated; for days and longer units the zone offset
// of the result is determined anew (midnight after a DST change has a
// different offset), for shorter ones the original offset is kept.
func TruncTimestampTZ(unit string, us int64, loc *time.Location) (int64, error) {
	if !sqltypes.IsFiniteTimestamp(us) {
		return us, nil
	}
	u, low := decodeUnit(unit, false)
	if u == unitNone {
		return 0, unitNotRecognized(low, tTSTZ)
	}
	off := ZoneOffset(us, loc) * 1e6
	local := us + off
	c, ok := truncCivil(sqltypes.TimestampCivil(local), sqltypes.TimestampToDate(local), u)
	if !ok {
		return 0, unitNotSupported(low, tTSTZ)
	}
	r, ok := sqltypes.CivilTimestamp(c)
	if !ok {
		return 0, sqltypes.ErrTimestampOutOfRange()
	}
	if u >= unitDay {
		return FromLocal(r, loc), nil
	}
	return r - off, nil
}

// intervalTm breaks an interval into PostgreSQL's interval2tm fields:
// years and months from the months, days, and hours (unbounded),
// minutes, seconds and µs from the time, each with the sign of its part.
type intervalTm struct {
	year, mon, mday, hour, min, sec, usec int64
}

func toIntervalTm(iv sqltypes.IntervalValue) intervalTm {
	t := intervalTm{year: int64(iv.Months) / 12, mon: int64(iv.Months) % 12, mday: int64(iv.Days)}
	us := iv.Micros
	t.hour = us / usPerHour
	us -= t.hour * usPerHour
	t.min = us / usPerMin
	us -= t.min * usPerMin
	t.sec = us / 1e6
	t.usec = us - t.sec*1e6
	return t
}

func (t intervalTm) interval() (sqltypes.IntervalValue, error) {
	months := t.year*12 + t.mon
	us := ((t.hour*60+t.min)*60+t.sec)*1e6 + t.usec
	if months > math.MaxInt32 || months < math.MinInt32 {
		return sqltypes.IntervalValue{}, sqltypes.ErrIntervalOutOfRange()
	}
	return sqltypes.IntervalValue{Months: int32(months), Days: int32(t.mday), Micros: us}, nil
}

// TruncInterval is date_trunc(unit, interval).
func TruncInterval(unit string, iv sqltypes.IntervalValue) (sqltypes.IntervalValue, error) {
	u, low := decodeUnit(unit, false)
	if u == unitNone {
		return iv, unitNotRecognized(low, tInterval)
	}
	t := toIntervalTm(iv)
	switch u {
	case unitMillennium:
		t.year = t.year / 1000 * 1000
	case unitCentury:
		t.year = t.year / 100 * 100
	case unitDecade:
		t.year = t.year / 10 * 10
	case unitQuarter:
		t.mon = 3 * (t.mon / 3)
	case unitYear, unitMonth, unitDay, unitHour, unitMinute, unitSecond, unitMillisecond, unitMicrosecond:
	default:
		return iv, unitNotSupported(low, tInterval)
	}
	if u >= unitYear {
		t.mon = 0
	}
	if u >= unitMonth {
		t.mday = 0
	}
	if u >= unitDay {
		t.hour = 0
	}
	if u >= unitHour {
		t.min = 0
	}
	if u >= unitMinute {
		t.sec = 0
	}
	if u >= unitSecond {
		t.usec = 0
	}
	if u == unitMillisecond {
		t.usec = t.usec / 1000 * 1000
	}
	return t.interval()
}

// part is one extracted field: the exact value i / 10^scale that extract
// returns as numeric, and the double date_part returns (PostgreSQL
// computes it with its own float formula, kept here). null marks a field
// of an infinite value that has none; inf ±1 an infinite field.
type part struct {
	i     int64
	scale int
	f     float64
	big   *apd.Decimal // an exact value past int64 (interval epochs)
	null  bool
	inf   int
}

func intPart(i int64) part { return part{i: i, f: float64(i)} }

// numeric is the field as extract returns it.
func (p part) numeric() sqltypes.Value {
	switch {
	case p.null:
		return sqltypes.Null
	case p.inf > 0:
		return sqltypes.NumericInf()
	case p.inf < 0:
		return sqltypes.NumericNegInf()
	case p.big != nil:
		return sqltypes.NewNumeric(p.big)
	}
	return sqltypes.NewNumeric(apd.New(p.i, int32(-p.scale)))
}

// float is the field as date_part returns it.
func (p part) float() sqltypes.Value {
	switch {
	case p.null:
		return sqltypes.Null
	case p.inf != 0:
		return sqltypes.NewFloat(math.Inf(p.inf))
	}
	return sqltypes.NewFloat(p.f)
}

// nonFinitePart is a field of ±infinity: monotonic fields are infinite
// too, periodic ones NULL, as PostgreSQL 15's NonFiniteTimestampTzPart.
func nonFinitePart(u dtUnit, neg bool) (part, bool) {
	switch u {
	case unitYear, unitDecade, unitCentury, unitMillennium, unitJulian, unitIsoYear, unitEpoch:
		if neg {
			return part{inf: -1}, true
		}
		return part{inf: 1}, true
	case unitMicrosecond, unitMillisecond, unitSecond, unitMinute, unitHour, unitDay, unitMonth,
		unitQuarter, unitWeek, unitDow, unitIsoDow, unitDoy, unitTimezone, unitTimezoneHour, unitTimezoneMinute:
		return part{null: true}, true
	}
	return part{}, false
}

// secondsPart is the microseconds, milliseconds or seconds field: the
// seconds of the minute with their fraction, in that unit.
func secondsPart(u dtUnit, sec, usec int64) (part, bool) {
	us := sec*1e6 + usec
	switch u {
	case unitMicrosecond:
		return part{i: us, f: float64(sec)*1e6 + float64(usec)}, true
	case unitMillisecond:
		return part{i: us, scale: 3, f: float64(sec)*1000 + float64(usec)/1000}, true
	case unitSecond:
		return part{i: us, scale: 6, f: float64(sec) + float64(usec)/1e6}, true
	}
	return part{}, false
}

// calendarPart is a field of the calendar of a broken-down date and time.
func calendarPart(u dtUnit, c sqltypes.Civil, days int64) (part, bool) {
	if p, ok := secondsPart(u, c.Second, c.Micro); ok {
		return p, true
	}
	switch u {
	case unitMinute:
		return intPart(c.Minute), true
	case unitHour:
		return intPart(c.Hour), true
	case unitDay:
		return intPart(c.Day), true
	case unitMonth:
		return intPart(c.Month), true
	case unitQuarter:
		return intPart((c.Month-1)/3 + 1), true
	case unitWeek:
		_, w := isoWeek(days)
		return intPart(w), true
	case unitYear:
		if c.Year > 0 {
			return intPart(c.Year), true
		}
		return intPart(c.Year - 1), true // no year 0: 1 BC is -1
	case unitDecade:
		if c.Year >= 0 {
			return intPart(c.Year / 10), true
		}
		return intPart(-((8 - (c.Year - 1)) / 10)), true
	case unitCentury:
		if c.Year > 0 {
			return intPart((c.Year + 99) / 100), true
		}
		return intPart(-((99 - (c.Year - 1)) / 100)), true
	case unitMillennium:
		if c.Year > 0 {
			return intPart((c.Year + 999) / 1000), true
		}
		return intPart(-((999 - (c.Year - 1)) / 1000)), true
	case unitDow:
		return intPart(dayOfWeek(days)), true
	case unitIsoDow:
		d := dayOfWeek(days)
		if d == 0 {
			d = 7
		}
		return intPart(d), true
	case unitDoy:
		return intPart(days - sqltypes.DaysFromCivil(c.Year, 1, 1) + 1), true
	case unitIsoYear:
		y, _ := isoWeek(days)
		if y <= 0 {
			y--
		}
		return intPart(y), true
	case unitJulian:
		jd := days + julianEpochDay
		tod := ((c.Hour*60+c.Minute)*60+c.Second)*1e6 + c.Micro
		if tod == 0 {
			return intPart(jd), true
		}
		frac, _ := sqltypes.DivNumeric(sqltypes.NumericFromInt(tod), sqltypes.NumericFromInt(usPerDay))
		sum, _ := sqltypes.AddNumeric(sqltypes.NumericFromInt(jd), frac)
		return part{big: sum.Numeric(), f: float64(jd) + (float64((c.Hour*60+c.Minute)*60+c.Second)+float64(c.Micro)/1e6)/86400}, true
	}
	return part{}, false
}

// julianEpochDay is the Julian day number of 1970-01-01.
const julianEpochDay = 2440588

const (
	usPerMin  = 60 * 1e6
	usPerHour = 60 * usPerMin
	usPerDay  = 24 * usPerHour
)

// timestampPart extracts a field of a timestamp (zone nil) or of a
// timestamptz seen in zone.
func timestampPart(unit string, us int64, zone *time.Location, t sqltypes.Type) (part, error) {
	u, low := decodeUnit(unit, true)
	if u == unitNone {
		return part{}, unitNotRecognized(low, t)
	}
	if !sqltypes.IsFiniteTimestamp(us) {
		if p, ok := nonFinitePart(u, us < 0); ok && (zone != nil || u < unitTimezone || u > unitTimezoneMinute) {
			return p, nil
		}
		return part{}, unitNotSupported(low, t)
	}
	if u == unitEpoch {
		// Seconds since 1970: past the int64 µs in the last thirty
		// years, where PostgreSQL divides numerics (at the division's
		// scale) and rounds to six digits, as zproxy does.
		if us < math.MaxInt64-sqltypes.PGEpochMicros { // PostgreSQL's test
			unix := us + sqltypes.PGEpochMicros
			return part{i: unix, scale: 6, f: float64(unix) / 1e6}, nil
		}
		sum, _ := sqltypes.AddNumeric(sqltypes.NumericFromInt(us), sqltypes.NumericFromInt(sqltypes.PGEpochMicros))
		secs, _ := sqltypes.DivNumeric(sum, sqltypes.NumericFromInt(1e6))
		secs, _ = sqltypes.RoundNumeric(secs, 6)
		return part{big: secs.Numeric(), f: (float64(us) + float64(sqltypes.PGEpochMicros)) / 1e6}, nil
	}
	local := us
	if zone != nil {
		off := ZoneOffset(us, zone)
		switch u {
		case unitTimezone:
			return intPart(off), nil
		case unitTimezoneHour:
			return intPart(off / 3600), nil
		case unitTimezoneMinute:
			return intPart(off / 60 % 60), nil
		}
		local = us + off*1e6
	}
	p, ok := calendarPart(u, sqltypes.TimestampCivil(local), sqltypes.TimestampToDate(local))
	if !ok {
		return part{}, unitNotSupported(low, t)
	}
	return p, nil
}

// datePart extracts a field of a date for extract (date_part reads a date
// as a timestamp): time fields are not supported.
func datePart(unit string, days int64) (part, error) {
	u, low := decodeUnit(unit, true)
	if u == unitNone {
		return part{}, unitNotRecognized(low, tDate)
	}
	switch u {
	case unitMicrosecond, unitMillisecond, unitSecond, unitMinute, unitHour,
		unitTimezone, unitTimezoneHour, unitTimezoneMinute:
		return part{}, unitNotSupported(low, tDate)
	}
	if !sqltypes.IsFiniteDate(days) {
		if p, ok := nonFinitePart(u, days < 0); ok {
			return p, nil
		}
		return part{}, unitNotSupported(low, tDate)
	}
	if u == unitEpoch {
		return intPart(days * 86400), nil
	}
	y, m, d := sqltypes.CivilFromDays(days)
	p, ok := calendarPart(u, sqltypes.Civil{Year: y, Month: m, Day: d}, days)
	if !ok {
		return part{}, unitNotSupported(low, tDate)
	}
	return p, nil
}

// intervalPart extracts a field of an interval.
func intervalPart(unit string, iv sqltypes.IntervalValue) (part, error) {
	u, low := decodeUnit(unit, true)
	if u == unitNone {
		return part{}, unitNotRecognized(low, tInterval)
	}
	t := toIntervalTm(iv)
	if p, ok := secondsPart(u, t.sec, t.usec); ok {
		return p, nil
	}
	switch u {
	case unitMinute:
		return intPart(t.min), nil
	case unitHour:
		return intPart(t.hour), nil
	case unitDay:
		return intPart(t.mday), nil
	case unitMonth:
		return intPart(t.mon), nil
	case unitQuarter:
		return intPart(t.mon/3 + 1), nil
	case unitYear:
		return intPart(t.year), nil
	case unitDecade:
		return intPart(t.year / 10), nil
	case unitCentury:
		return intPart(t.year / 100), nil
	case unitMillennium:
		return intPart(t.year / 1000), nil
	case unitEpoch:
		// A year is 365.25 days and a month 30, as PostgreSQL counts.
		m := int64(iv.Months)
		secs := (m/12)*31557600 + (m%12)*30*86400 + int64(iv.Days)*86400
		var x, y apd.Decimal
		x.SetInt64(secs)
		_, _ = exactCtx.Mul(&x, &x, apd.New(1000000, 0))
		y.SetInt64(iv.Micros)
		_, _ = exactCtx.Add(&x, &x, &y)
		x.Exponent -= 6
		f := float64(iv.Micros)/1e6 + 365.25*86400*float64(m/12) + 30*86400*float64(m%12) + 86400*float64(iv.Days)
		return part{big: &x, f: f}, nil
	}
	return part{}, unitNotSupported(low, tInterval)
}

// exactCtx does exact decimal arithmetic (no rounding).
var exactCtx = apd.Context{Precision: 0, MaxExponent: apd.MaxExponent, MinExponent: apd.MinExponent, Traps: apd.DefaultTraps}

// DateBin is date_bin(stride, source, origin) over µs timestamps.
func DateBin(stride sqltypes.IntervalValue, source, origin int64) (int64, error) {
	if !sqltypes.IsFiniteTimestamp(source) {
		return source, nil
	}
	if !sqltypes.IsFiniteTimestamp(origin) {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "origin out of range")
	}
	if stride.Months != 0 {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "timestamps cannot be binned into intervals containing months or years")
	}
	strideUs, ok := mulInt64(int64(stride.Days), usPerDay)
	if ok {
		strideUs, ok = addInt64(strideUs, stride.Micros)
	}
	if !ok {
		return 0, sqltypes.ErrIntervalOutOfRange()
	}
	if strideUs <= 0 {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "stride must be greater than zero")
	}
	diff, ok := addInt64(source, -origin)
	if !ok || origin == math.MinInt64 {
		return 0, sqltypes.ErrIntervalOutOfRange()
	}
	delta := diff - diff%strideUs
	// PostgreSQL 15 moves back a bin whenever the origin is later, even
	// when the source is on a bin boundary.
	if origin > source && strideUs > 1 {
		delta -= strideUs
	}
	r, ok := addInt64(origin, delta)
	if !ok || !sqltypes.InTimestampRange(r) {
		return 0, sqltypes.ErrTimestampOutOfRange()
	}
	return r, nil
}

func addInt64(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	return p, p/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}

// TruncStep is the length of one unit of date_trunc (1 hour, 1 day, 3
// months ...): the next boundary after a truncated value is that value
// plus the step. ok is false for a unit date_trunc does not know.
func TruncStep(unit string) (step sqltypes.IntervalValue, ok bool) {
	u, _ := decodeUnit(unit, false)
	switch u {
	case unitMicrosecond:
		return sqltypes.IntervalValue{Micros: 1}, true
	case unitMillisecond:
		return sqltypes.IntervalValue{Micros: 1000}, true
	case unitSecond:
		return sqltypes.IntervalValue{Micros: 1e6}, true
	case unitMinute:
		return sqltypes.IntervalValue{Micros: usPerMin}, true
	case unitHour:
		return sqltypes.IntervalValue{Micros: usPerHour}, true
	case unitDay:
		return sqltypes.IntervalValue{Days: 1}, true
	case unitWeek:
		return sqltypes.IntervalValue{Days: 7}, true
	case unitMonth:
		return sqltypes.IntervalValue{Months: 1}, true
	case unitQuarter:
		return sqltypes.IntervalValue{Months: 3}, true
	case unitYear:
		return sqltypes.IntervalValue{Months: 12}, true
	case unitDecade:
		return sqltypes.IntervalValue{Months: 120}, true
	case unitCentury:
		return sqltypes.IntervalValue{Months: 1200}, true
	case unitMillennium:
		return sqltypes.IntervalValue{Months: 12000}, true
	}
	return step, false
}
