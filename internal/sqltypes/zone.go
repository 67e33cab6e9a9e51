package sqltypes

//go:generate go run tzgen.go

import (
	"strconv"
	"strings"
	"sync"
	"time"
)

// Timestamps with time zone in a session's TimeZone. A timestamptz is an
// instant (µs since the epoch); PostgreSQL shows it in the session's zone
// with that zone's offset at that instant, and reads text without an
// offset as wall-clock time in the session's zone.

// zoneOffset is loc's offset east of UTC, in seconds, at the instant us.
func zoneOffset(us int64, loc *time.Location) int64 {
	_, off := ZoneAt(loc, TimestampUnixSeconds(us))
	return off
}

// ZoneOffset is loc's offset east of UTC, in seconds, at the instant us
// (a timestamp's µs).
func ZoneOffset(us int64, loc *time.Location) int64 { return zoneOffset(us, loc) }

// ZoneAbbrev is the abbreviation loc's clocks show at the instant us, as
// to_char's TZ and DateStyle SQL print it.
func ZoneAbbrev(us int64, loc *time.Location) string {
	name, _ := ZoneAt(loc, TimestampUnixSeconds(us))
	return name
}

// InZone is t as loc's clocks show it. A POSIX zone with daylight rules
// gives t in a fixed zone of its abbreviation and offset at t, since the
// location standing for it knows only its standard time.
func InZone(t time.Time, loc *time.Location) time.Time {
	if loc == nil {
		return t.UTC()
	}
	if ruleZone(loc) == nil {
		return t.In(loc)
	}
	name, off := ZoneAt(loc, t.Unix())
	return t.In(time.FixedZone(name, int(off)))
}

// AppendTimestampTZIn appends PostgreSQL's ISO output of a timestamptz
// shown in loc: the local date and time, then the offset as +hh, +hh:mm or
// +hh:mm:ss ("2024-07-01 14:00:00+02", "... 17:30:00+05:30").
func AppendTimestampTZIn(buf []byte, us int64, loc *time.Location) []byte {
	if !IsFiniteTimestamp(us) || loc == nil || loc == time.UTC {
		return AppendTimestamp(buf, us, true)
	}
	off := zoneOffset(us, loc)
	local := AppendTimestamp(nil, us+off*usPerSec, false)
	bc := len(local) > 3 && string(local[len(local)-3:]) == " BC"
	if bc {
		local = local[:len(local)-3]
	}
	buf = append(buf, local...)
	buf = appendZoneOffset(buf, off)
	if bc {
		buf = append(buf, " BC"...)
	}
	return buf
}

// appendZoneOffset appends an offset east of UTC as PostgreSQL prints it.
func appendZoneOffset(buf []byte, off int64) []byte {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	buf = append(buf, sign)
	buf = appendOffsetHours(buf, off/3600)
	if off%3600 != 0 {
		buf = append(buf, ':')
		buf = append2(buf, off/60%60)
		if off%60 != 0 {
			buf = append(buf, ':')
			buf = append2(buf, off%60)
		}
	}
	return buf
}

// appendOffsetHours appends the hours of a zone offset: two digits at
// least, three for the offsets of a week that POSIX zones reach (+167:59,
// and +168:59 in the daylight time of such a zone), as PostgreSQL's
// EncodeTimezone pads them.
func appendOffsetHours(buf []byte, h int64) []byte {
	if h < 100 {
		return append2(buf, h)
	}
	return strconv.AppendInt(buf, h, 10)
}

// ParseTimestampTZIn parses a timestamptz as PostgreSQL does in a session
// whose TimeZone is loc: text without a zone is wall-clock time in loc (at
// a daylight-saving change, the offset Go's time.Date picks).
func ParseTimestampTZIn(s string, loc *time.Location) (int64, error) {
	return ParseTimestampIn(s, true, loc)
}

// CastIn is Cast (explicit: CastExplicit) in a session whose TimeZone is
// loc. PostgreSQL makes these conversions in the session's zone: text
// without an offset to timestamptz (wall-clock time in loc), timestamp and
// date to timestamptz (their wall-clock time in loc), timestamptz to
// timestamp, date, time, timetz and text (the instant's wall-clock time
// in loc), time to timetz (loc's offset today), and arrays of these
// element by element. Everything else converts as Cast does; a nil loc is UTC.
func CastIn(v Value, t Type, explicit bool, loc *time.Location) (Value, error) {
	if t.Domain != nil {
		return castDomain(v, t, func(v Value, t Type) (Value, error) { return CastIn(v, t, explicit, loc) })
	}
	if loc != nil && loc != time.UTC && v.K == KindArray && t.ID == Array {
		// Each element converts in the session's zone, as array_map runs
		// the element type's cast (timestamp[] to timestamptz[]).
		elem := t.ElemType()
		return castArrayWith(v, elem, func(e Value) (Value, error) { return CastIn(e, elem, explicit, loc) })
	}
	if loc != nil && loc != time.UTC && v.K != KindNull {
		if r, ok, err := castZoned(v, t.withoutPrecision(), loc); ok {
			if err != nil {
				return Null, err
			}
			return applyDatetimePrecision(r, t)
		}
	}
	return castValue(v, t, explicit)
}

// castZoned is the part of CastIn that depends on the zone; ok is false
// for conversions that do not.
func castZoned(v Value, t Type, loc *time.Location) (Value, bool, error) {
	target := t.Kind()
	switch v.K {
	case KindText, KindBPChar:
		if t.ID == TimeTZ {
			r, err := ParseTimeIn(v.S, true, loc)
			return r, true, err
		}
		if t.ID == TstzRange {
			r, err := parseRangeStyled(t, v.S, Style{Location: loc})
			return r, true, err
		}
		if t.ID == TstzMultirange {
			r, err := parseMultirangeStyled(t, v.S, Style{Location: loc})
			return r, true, err
		}
		if t.ID == Date || t.ID == Timestamp {
			// now, today, tomorrow and yesterday are the session's.
			r, err := ParseTextStyled(t, v.S, Style{Location: loc})
			return r, true, err
		}
		if t.ID != TimestampTZ {
			return Null, false, nil
		}
		us, err := ParseTimestampTZIn(v.S, loc)
		if err != nil {
			return Null, true, err
		}
		return NewTimestampTZ(us), true, nil
	case KindTime:
		if target != KindTimeTZ {
			return Null, false, nil
		}
		// time_timetz: the session zone's offset at that time of day
		// today (a cast has no statement time here; text input without
		// a zone reads today as time.Now too).
		return NewTimeTZ(TimeToTimeTZ(v.I, time.Now(), loc)), true, nil
	case KindTimestamp, KindDate:
		if target != KindTimestampTZ {
			return Null, false, nil
		}
		us := v.I
		if v.K == KindDate {
			var err error
			if us, err = DateToTimestamp(v.I); err != nil {
				return Null, true, err
			}
		}
		if !IsFiniteTimestamp(us) {
			return NewTimestampTZ(us), true, nil
		}
		us -= wallOffset(us, loc) * usPerSec
		if !InTimestampRange(us) {
			return Null, true, errTimestampOutOfRange()
		}
		return NewTimestampTZ(us), true, nil
	case KindTimestampTZ:
		if !IsFiniteTimestamp(v.I) {
			return Null, false, nil
		}
		local := v.I + zoneOffset(v.I, loc)*usPerSec
		switch target {
		case KindTimestamp:
			return NewTimestamp(local), true, nil
		case KindDate:
			return NewDate(TimestampToDate(local)), true, nil
		case KindTime:
			return NewTime(TimeOfDay(local)), true, nil
		case KindTimeTZ:
			return NewTimeTZ(TimeTZValue{Micros: TimeOfDay(local), Offset: int32(zoneOffset(v.I, loc))}), true, nil
		case KindText, KindBPChar:
			r, err := castValue(NewText(string(AppendTimestampTZIn(nil, v.I, loc))), t, false)
			return r, true, err
		}
	}
	return Null, false, nil
}

var (
	tzOnce  sync.Once
	tzLower map[string]string // lower-case name → tz database spelling
)

// CanonicalZone finds a tz database name whatever its case.
func CanonicalZone(name string) (string, bool) {
	tzOnce.Do(func() {
		tzLower = map[string]string{}
		for _, n := range strings.Fields(tzNames) {
			tzLower[strings.ToLower(n)] = n
		}
	})
	n, ok := tzLower[strings.ToLower(name)]
	return n, ok
}
