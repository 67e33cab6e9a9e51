package sqltypes

import "time"

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
