package sqltypes

// The calendar arithmetic of this package, for the date and time
// functions built on it (date_trunc, extract, to_char, make_date ...):
// proleptic Gregorian dates with astronomical years (1 BC is year 0).

// Civil is a timestamp broken into calendar fields.
type Civil struct {
	Year, Month, Day     int64
	Hour, Minute, Second int64
	Micro                int64
}

// TimestampCivil breaks a finite timestamp (µs since the epoch) into its
// fields.
func TimestampCivil(us int64) Civil {
	t := timestampToTm(us)
	return Civil{t.year, t.mon, t.mday, t.hour, t.min, t.sec, t.usec}
}

// CivilTimestamp is the timestamp of c; false when it is outside the
// timestamp range. Month and day must be valid; the time fields may run
// over (25 hours is the next day's 01:00).
func CivilTimestamp(c Civil) (int64, bool) {
	return tmToTimestamp(tmParts{c.Year, c.Month, c.Day, c.Hour, c.Minute, c.Second, c.Micro})
}

// DaysFromCivil returns days since 1970-01-01 of year-month-day.
func DaysFromCivil(y, m, d int64) int64 { return daysFromCivil(y, m, d) }

// CivilFromDays is the year, month and day of days since 1970-01-01.
func CivilFromDays(days int64) (y, m, d int64) { return civilFromDays(days) }

// DaysInMonth is the length of a month of year y.
func DaysInMonth(y, m int64) int64 { return daysInMonth(y, m) }

// IsLeapYear reports whether y (astronomical) is a leap year.
func IsLeapYear(y int64) bool { return isLeap(y) }

// ErrTimestampOutOfRange is 22008 "timestamp out of range".
func ErrTimestampOutOfRange() error { return errTimestampOutOfRange() }

// ErrIntervalOutOfRange is 22008 "interval out of range".
func ErrIntervalOutOfRange() error { return errIntervalOutOfRange() }

// FloorDiv divides rounding toward negative infinity.
func FloorDiv(a, b int64) int64 { return floorDiv(a, b) }

// FormatG prints a double as C's %.<digits>g does.
func FormatG(f float64, digits int) string { return formatG(f, digits) }

// UnitName resolves a date/time unit word (lower case) as PostgreSQL's
// DecodeUnits does for date_trunc, extract and interval input, comparing
// ten characters: "hrs" and "hour" are "hour", "microseconds" is
// "microsecond". It returns "" for a word that is no unit.
func UnitName(w string) string {
	if len(w) > 10 {
		w = w[:10]
	}
	switch w {
	case "qtr", "quarter":
		return "quarter"
	case "timezone":
		return "timezone"
	case "timezone_h":
		return "timezone_hour"
	case "timezone_m":
		return "timezone_minute"
	}
	switch intervalUnit(w) {
	case unitMicrosecond:
		return "microsecond"
	case unitMillisecond:
		return "millisecond"
	case unitSecond:
		return "second"
	case unitMinute:
		return "minute"
	case unitHour:
		return "hour"
	case unitDay:
		return "day"
	case unitWeek:
		return "week"
	case unitMonth:
		return "month"
	case unitYear:
		return "year"
	case unitDecade:
		return "decade"
	case unitCentury:
		return "century"
	case unitMillennium:
		return "millennium"
	}
	return ""
}
