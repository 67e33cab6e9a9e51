package sqltypes

import (
	"strings"
	"time"
)

// Timestamps with time zone in a session's TimeZone. A timestamptz is an
// instant (µs since the epoch); PostgreSQL shows it in the session's zone
// with that zone's offset at that instant, and reads text without an
// offset as wall-clock time in the session's zone.

// zoneOffset is loc's offset east of UTC, in seconds, at the instant us.
func zoneOffset(us int64, loc *time.Location) int64 {
	if loc == time.UTC {
		return 0
	}
	_, off := time.Unix(floorDiv(us, usPerSec), 0).In(loc).Zone()
	return int64(off)
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
	buf = append2(buf, off/3600)
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

// ParseTimestampTZIn parses a timestamptz as PostgreSQL does in a session
// whose TimeZone is loc: text without an offset is wall-clock time in loc
// (at a daylight-saving change, the offset Go's time.Date picks).
func ParseTimestampTZIn(s string, loc *time.Location) (int64, error) {
	if prefix, named, ok := splitZoneName(s); ok {
		// '2024-03-10 12:00 America/New_York': wall-clock time in the
		// named zone, whatever the session's.
		s, loc = prefix, named
	}
	if loc == nil || loc == time.UTC {
		return ParseTimestamp(s, true)
	}
	r, e := decodeDateTime(s)
	if e != dtOK || r.special != "" || r.hasZone {
		return ParseTimestamp(s, true)
	}
	local, ok := tmToTimestamp(r.tm)
	if !ok {
		return ParseTimestamp(s, true) // its range error
	}
	// The offset at the instant the wall-clock time names: try the
	// offset of the wall time read as UTC, then correct once.
	off := zoneOffset(local, loc)
	off = zoneOffset(local-off*usPerSec, loc)
	us := local - off*usPerSec
	if us < MinTimestamp || us >= TimestampInfinity {
		return 0, errTimestampOutOfRange()
	}
	return us, nil
}

// splitZoneName splits a time zone database name off the end of a
// timestamp ('2024-03-10 12:00 America/New_York'), which PostgreSQL reads
// as the zone of the wall-clock time before it; ok is false when s does
// not end in such a name or reads without splitting it off (offsets,
// 'Z', 'UTC' are decodeDateTime's).
func splitZoneName(s string) (prefix string, loc *time.Location, ok bool) {
	t := strings.TrimSpace(s)
	i := strings.LastIndexAny(t, " \t")
	if i < 0 {
		return "", nil, false
	}
	name := t[i+1:]
	if name == "" || strings.Contains(name, "..") || !strings.ContainsAny(name, "/") && !isAlpha(name) {
		return "", nil, false
	}
	if _, e := decodeDateTime(s); e == dtOK {
		return "", nil, false
	}
	r, e := decodeDateTime(t[:i])
	if e != dtOK || r.special != "" || r.hasZone {
		return "", nil, false
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return "", nil, false
	}
	return t[:i], loc, true
}

func isAlpha(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

// CastIn is Cast (explicit: CastExplicit) in a session whose TimeZone is
// loc. PostgreSQL makes these conversions in the session's zone: text
// without an offset to timestamptz (wall-clock time in loc), timestamp and
// date to timestamptz (their wall-clock time in loc), timestamptz to
// timestamp, date, time and text (the instant's wall-clock time in loc).
// Everything else converts as Cast does; a nil loc is UTC.
func CastIn(v Value, t Type, explicit bool, loc *time.Location) (Value, error) {
	if loc != nil && loc != time.UTC && v.K != KindNull {
		if r, ok, err := castZoned(v, t, loc); ok {
			return r, err
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
		if t.ID != TimestampTZ {
			return Null, false, nil
		}
		us, err := ParseTimestampTZIn(v.S, loc)
		if err != nil {
			return Null, true, err
		}
		return NewTimestampTZ(us), true, nil
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
		// The offset at the instant the wall-clock time names: the
		// offset of the wall time read as UTC, corrected once.
		off := zoneOffset(us, loc)
		off = zoneOffset(us-off*usPerSec, loc)
		us -= off * usPerSec
		if us < MinTimestamp || us >= TimestampInfinity {
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
