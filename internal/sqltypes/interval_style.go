package sqltypes

import "strconv"

// IntervalStyle is the setting of that name: how interval values are
// printed. The zero value is PostgreSQL's default, postgres.
type IntervalStyle uint8

// The four styles, as PostgreSQL's IntervalStyle names them.
const (
	IntervalStylePostgres IntervalStyle = iota
	IntervalStylePostgresVerbose
	IntervalStyleSQLStandard
	IntervalStyleISO8601
)

// IntervalStyleNames are the styles' setting values, by style.
var IntervalStyleNames = [...]string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"}

// IntervalStyleByName finds a style by its setting value (lower case).
func IntervalStyleByName(name string) (IntervalStyle, bool) {
	for i, n := range IntervalStyleNames {
		if n == name {
			return IntervalStyle(i), true
		}
	}
	return 0, false
}

// AppendIntervalStyle appends iv as PostgreSQL's interval output prints it
// in style (EncodeInterval).
func AppendIntervalStyle(buf []byte, iv IntervalValue, style IntervalStyle) []byte {
	switch style {
	case IntervalStyleISO8601:
		return AppendIntervalISO(buf, iv)
	case IntervalStyleSQLStandard:
		return appendIntervalSQLStandard(buf, iv)
	case IntervalStylePostgresVerbose:
		return appendIntervalVerbose(buf, iv)
	}
	return AppendInterval(buf, iv)
}

// appendIntervalSQLStandard is the sql_standard style: "1-2" for years
// and months, "3 4:05:06" for days and time, one sign before a value whose
// fields all share it, and every field signed when they do not.
func appendIntervalSQLStandard(buf []byte, iv IntervalValue) []byte {
	t := iv.tm()
	neg := t.year < 0 || t.mon < 0 || t.mday < 0 || t.hour < 0 || t.min < 0 || t.sec < 0 || t.us < 0
	pos := t.year > 0 || t.mon > 0 || t.mday > 0 || t.hour > 0 || t.min > 0 || t.sec > 0 || t.us > 0
	yearMonth := t.year != 0 || t.mon != 0
	dayTime := t.mday != 0 || t.hour != 0 || t.min != 0 || t.sec != 0 || t.us != 0
	standard := !(neg && pos) && !(yearMonth && dayTime)
	if neg && standard {
		buf = append(buf, '-')
		t = intervalTm{year: -t.year, mon: -t.mon, mday: -t.mday, hour: -t.hour, min: -t.min, sec: -t.sec, us: -t.us}
	}
	seconds := func(buf []byte) []byte {
		buf = append2(buf, int64(abs64(t.sec)))
		return appendFraction(buf, int64(abs64(t.us)))
	}
	sign := func(negative bool) byte {
		if negative {
			return '-'
		}
		return '+'
	}
	switch {
	case !neg && !pos:
		return append(buf, '0')
	case !standard:
		buf = append(buf, sign(t.year < 0 || t.mon < 0))
		buf = strconv.AppendUint(buf, abs64(t.year), 10)
		buf = append(buf, '-')
		buf = strconv.AppendUint(buf, abs64(t.mon), 10)
		buf = append(buf, ' ', sign(t.mday < 0))
		buf = strconv.AppendUint(buf, abs64(t.mday), 10)
		buf = append(buf, ' ', sign(t.hour < 0 || t.min < 0 || t.sec < 0 || t.us < 0))
		buf = strconv.AppendUint(buf, abs64(t.hour), 10)
		buf = append(buf, ':')
		buf = append2(buf, int64(abs64(t.min)))
		buf = append(buf, ':')
		return seconds(buf)
	case yearMonth:
		buf = strconv.AppendInt(buf, t.year, 10)
		buf = append(buf, '-')
		return strconv.AppendInt(buf, t.mon, 10)
	case t.mday != 0:
		buf = strconv.AppendInt(buf, t.mday, 10)
		buf = append(buf, ' ')
	}
	buf = strconv.AppendInt(buf, t.hour, 10)
	buf = append(buf, ':')
	buf = append2(buf, t.min)
	buf = append(buf, ':')
	return seconds(buf)
}

// appendIntervalVerbose is the postgres_verbose style: "@ 1 year 2 mons 3
// days 4 hours 5 mins 6 secs", a value led by a negative field printed as
// its opposite followed by "ago".
func appendIntervalVerbose(buf []byte, iv IntervalValue) []byte {
	t := iv.tm()
	buf = append(buf, '@')
	isZero, isBefore := true, false
	part := func(v int64, unit string) {
		if v == 0 {
			return
		}
		if isZero {
			isBefore = v < 0
			if v < 0 {
				v = -v
			}
		} else if isBefore {
			v = -v
		}
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, v, 10)
		buf = append(buf, ' ')
		buf = append(buf, unit...)
		if v != 1 {
			buf = append(buf, 's')
		}
		isZero = false
	}
	part(t.year, "year")
	part(t.mon, "mon")
	part(t.mday, "day")
	part(t.hour, "hour")
	part(t.min, "min")
	if t.sec != 0 || t.us != 0 {
		buf = append(buf, ' ')
		if t.sec < 0 || t.sec == 0 && t.us < 0 {
			if isZero {
				isBefore = true
			} else if !isBefore {
				buf = append(buf, '-')
			}
		} else if isBefore {
			buf = append(buf, '-')
		}
		buf = strconv.AppendUint(buf, abs64(t.sec), 10)
		buf = appendFraction(buf, int64(abs64(t.us)))
		buf = append(buf, " sec"...)
		if abs64(t.sec) != 1 || t.us != 0 {
			buf = append(buf, 's')
		}
		isZero = false
	}
	if isZero {
		buf = append(buf, " 0"...)
	}
	if isBefore {
		buf = append(buf, " ago"...)
	}
	return buf
}
