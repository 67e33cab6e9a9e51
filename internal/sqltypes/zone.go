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
