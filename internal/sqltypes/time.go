package sqltypes

import (
	"cmp"
	"time"
)

// time (time without time zone) is a time of day in µs since midnight,
// 00:00:00 to 24:00:00 inclusive, carried in Value.I. time with time zone
// adds a UTC offset; its Value carries a TimeTZValue in X. Both are
// PostgreSQL's: text input with optional AM/PM and zone, output
// HH:MM:SS[.ffffff][+ZZ], timetz compared by the UTC instant it stands for
// and then by offset.

// Common time types.
var (
	TypeTime   = Type{ID: Time}
	TypeTimeTZ = Type{ID: TimeTZ}
)

// USPerDay is 24 hours in µs: the last valid time, 24:00:00.
const USPerDay = usPerDay

// TimeTZValue is a time of day with its zone offset.
type TimeTZValue struct {
	Micros int64 // since midnight, local to the offset
	Offset int32 // seconds east of UTC
}

// NewTime returns a time value of µs since midnight.
func NewTime(us int64) Value { return Value{K: KindTime, I: us} }

// NewTimeTZ returns a time with time zone value.
func NewTimeTZ(t TimeTZValue) Value { return Value{K: KindTimeTZ, X: t} }

// TimeTZ returns the value of a KindTimeTZ value.
func (v Value) TimeTZ() TimeTZValue {
	t, _ := v.X.(TimeTZValue)
	return t
}

// UTCMicros is the instant-of-day a timetz stands for, as PostgreSQL's
// timetz_cmp_internal compares it (it may fall outside one day).
func (t TimeTZValue) UTCMicros() int64 { return t.Micros - int64(t.Offset)*usPerSec }

// CompareTimeTZ orders timetz values by their UTC time, then offset
// (PostgreSQL's zone, seconds west, ascending: larger east offsets first).
func CompareTimeTZ(a, b TimeTZValue) int {
	if c := cmp.Compare(a.UTCMicros(), b.UTCMicros()); c != 0 {
		return c
	}
	return cmp.Compare(b.Offset, a.Offset)
}

// AppendTime appends HH:MM:SS[.ffffff].
func AppendTime(buf []byte, us int64) []byte {
	h, m, s, frac := splitTime(us)
	buf = append2(buf, h)
	buf = append(buf, ':')
	buf = append2(buf, m)
	buf = append(buf, ':')
	buf = append2(buf, s)
	return appendFraction(buf, frac)
}

// AppendTimeTZ appends a timetz with its offset, +HH[:MM[:SS]].
func AppendTimeTZ(buf []byte, t TimeTZValue) []byte {
	buf = AppendTime(buf, t.Micros)
	off := int64(t.Offset)
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	buf = append(buf, sign)
	buf = appendOffsetHours(buf, off/3600)
	if m, s := off/60%60, off%60; m != 0 || s != 0 {
		buf = append(buf, ':')
		buf = append2(buf, m)
		if s != 0 {
			buf = append(buf, ':')
			buf = append2(buf, s)
		}
	}
	return buf
}

// TimeOfDay is the time of day of a timestamp's µs (±infinity are refused
// by the caller).
func TimeOfDay(us int64) int64 { return us - floorDiv(us, usPerDay)*usPerDay }

// castTime converts a value to time or timetz (PostgreSQL's casts from
// timestamp, timestamptz, interval, time and timetz); timestamptz and
// time are read in UTC, the expression layer handles the session's zone.
func castTime(v Value, t Type) (Value, bool, error) {
	var us int64
	off := int32(0)
	switch v.K {
	case KindTime:
		us = v.I
	case KindTimeTZ:
		us, off = v.TimeTZ().Micros, v.TimeTZ().Offset
	case KindTimestamp, KindTimestampTZ:
		if !IsFiniteTimestamp(v.I) {
			return Null, true, nil // an infinite timestamp has no time of day: NULL, as in PostgreSQL
		}
		us = TimeOfDay(v.I)
	case KindInterval:
		if t.ID != Time {
			return Null, false, nil
		}
		// interval_time: the time part, modulo a day.
		us = v.Interval().Micros % usPerDay
		if us < 0 {
			us += usPerDay
		}
	default:
		return Null, false, nil
	}
	if t.ID == TimeTZ {
		return NewTimeTZ(TimeTZValue{Micros: us, Offset: off}), true, nil
	}
	return NewTime(us), true, nil
}

// TimeToTimeTZ is PostgreSQL's time_timetz in a session whose TimeZone
// is loc (nil: UTC) at the instant now (the statement's time): the time of
// day us takes the offset loc's clocks have at that time of day on now's
// date in loc (GetCurrentDateTime, then DetermineTimeZoneOffset, which
// resolves a time skipped or repeated at a daylight-saving change as
// wallOffset does), so in America/New_York 12:00 becomes 12:00-05 in
// winter and 12:00-04 in summer. 24:00:00 is the next day's midnight.
func TimeToTimeTZ(us int64, now time.Time, loc *time.Location) TimeTZValue {
	if loc == nil || loc == time.UTC {
		return TimeTZValue{Micros: us}
	}
	day := InZone(now, loc)
	local := (daysFromCivil(int64(day.Year()), int64(day.Month()), int64(day.Day()))-PGEpochDays)*usPerDay + us
	return TimeTZValue{Micros: us, Offset: int32(wallOffset(local, loc))}
}
