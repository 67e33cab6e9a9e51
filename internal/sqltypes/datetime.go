package sqltypes

import (
	"math"
	"math/bits"
	"strconv"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Timestamps are µs since 2000-01-01 00:00:00, PostgreSQL's own count,
// and dates days since 1970-01-01 (proleptic Gregorian, astronomical
// years: 1 BC is year 0). PostgreSQL's 'infinity' and '-infinity' are the
// extreme int64 values, so they sort after and before every finite value
// with no special case in comparisons.
//
// Finite timestamps run from 4714-11-24 00:00:00 BC (Julian day 0) to
// 294276-12-31 23:59:59.999999, dates from 4714-11-24 BC to 5874897-12-31,
// as in PostgreSQL. The stores keep a timestamp as µs since 1970, the
// count zproxy used before (StoredTimestamp, which also says what of the
// last thirty years a store holds).
const (
	TimestampInfinity    = math.MaxInt64
	TimestampNegInfinity = math.MinInt64
	DateInfinity         = math.MaxInt64
	DateNegInfinity      = math.MinInt64

	usPerSec  = 1_000_000
	usPerMin  = 60 * usPerSec
	usPerHour = 60 * usPerMin
	usPerDay  = 24 * usPerHour

	unixEpochJulian = 2440588 // Julian day of 1970-01-01
	// PGEpochDays is 2000-01-01 in days since 1970-01-01; PGEpochMicros
	// the same in µs: a timestamp's offset from the Unix count.
	PGEpochDays   = 10957
	PGEpochMicros = PGEpochDays * usPerDay
	// MinDate and MaxDate are the first and last finite dates (days).
	MinDate = -unixEpochJulian             // 4714-11-24 BC
	MaxDate = 2147483493 - unixEpochJulian // 5874897-12-31
	// MinTimestamp is the first finite timestamp (µs), EndTimestamp the
	// first after the last: 294277-01-01 (PostgreSQL's MIN_TIMESTAMP
	// and END_TIMESTAMP).
	MinTimestamp = (int64(MinDate) - PGEpochDays) * usPerDay
	EndTimestamp = int64(9223371331200000000)
)

// TimestampFromUnixMicro is the timestamp of µs since 1970-01-01 UTC
// (Go's UnixMicro).
func TimestampFromUnixMicro(us int64) int64 { return us - PGEpochMicros }

// StoredTimestamp is the integer the stores keep for timestamp us: µs
// since 1970, zproxy's count before it took PostgreSQL's (kept so that
// existing stores read unchanged: the key encoding of a timestamp orders
// rows); ±infinity are themselves. ok is false from 294247-01-10
// 04:00:54.775806 (MaxStoredTimestamp) on, the last thirty years, which
// that count cannot hold in an int64 below +infinity's: the result is
// then MaxStoredTimestamp, and the stores keep such a value in a form of
// their own (catalog.ValueAttr and AppendKeyValue).
func StoredTimestamp(us int64) (int64, bool) {
	switch {
	case !IsFiniteTimestamp(us):
		return us, true
	case us >= MaxStoredTimestamp-PGEpochMicros:
		return MaxStoredTimestamp, false
	}
	return us + PGEpochMicros, true
}

// MaxStoredTimestamp is the stored count (µs from 1970) from which on a
// timestamp is stored in the stores' own form: math.MaxInt64-1, the last
// before +infinity's.
const MaxStoredTimestamp = TimestampInfinity - 1

// TimestampFromStored is the timestamp a store's integer holds
// (StoredTimestamp's inverse).
func TimestampFromStored(s int64) int64 {
	if !IsFiniteTimestamp(s) {
		return s
	}
	return s - PGEpochMicros
}

// TimestampFromTime is the timestamp of a Go time's instant.
func TimestampFromTime(t time.Time) int64 { return TimestampFromUnixMicro(t.UnixMicro()) }

// TimestampTime is the instant of a finite timestamp as a Go time.
func TimestampTime(us int64) time.Time {
	return time.Unix(TimestampUnixSeconds(us), (us-floorDiv(us, usPerSec)*usPerSec)*1000)
}

// TimestampUnixSeconds is a finite timestamp in whole seconds since
// 1970-01-01 (floored), as time.Unix takes them; it cannot overflow.
func TimestampUnixSeconds(us int64) int64 { return floorDiv(us, usPerSec) + PGEpochMicros/usPerSec }

// InTimestampRange reports whether us is a finite timestamp PostgreSQL
// accepts.
func InTimestampRange(us int64) bool { return us >= MinTimestamp && us < EndTimestamp }

// IsFiniteTimestamp reports whether us is a finite timestamp.
func IsFiniteTimestamp(us int64) bool { return us != TimestampInfinity && us != TimestampNegInfinity }

// IsFiniteDate reports whether d is a finite date.
func IsFiniteDate(d int64) bool { return d != DateInfinity && d != DateNegInfinity }

// daysFromCivil returns days since 1970-01-01 of an astronomical y-m-d
// (Howard Hinnant's algorithm, valid for any int64-sized year).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysInMonth(y, m int64) int64 {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// tmParts is a broken-down timestamp (PostgreSQL's pg_tm).
type tmParts struct {
	year, mon, mday int64 // astronomical year
	hour, min, sec  int64
	usec            int64
}

func timestampToTm(us int64) tmParts {
	days := floorDiv(us, usPerDay)
	rem := us - days*usPerDay
	var t tmParts
	t.year, t.mon, t.mday = civilFromDays(days + PGEpochDays)
	t.hour, t.min, t.sec, t.usec = splitTime(rem)
	return t
}

// splitTime breaks µs into hours, minutes, seconds and µs, each carrying
// the sign of us (hours may exceed 24).
func splitTime(us int64) (h, m, s, frac int64) {
	h = us / usPerHour
	us -= h * usPerHour
	m = us / usPerMin
	us -= m * usPerMin
	s = us / usPerSec
	return h, m, s, us - s*usPerSec
}

// tmToTimestamp converts back, checking the timestamp range.
func tmToTimestamp(t tmParts) (int64, bool) {
	days := daysFromCivil(t.year, t.mon, t.mday)
	if days < MinDate || days > MaxDate {
		return 0, false
	}
	days -= PGEpochDays
	tod := ((t.hour*60+t.min)*60+t.sec)*usPerSec + t.usec
	hi, lo := mul64(days, usPerDay)
	sum := lo + uint64(tod)
	if sum < lo {
		hi++
	}
	us := int64(sum)
	if hi != us>>63 || !InTimestampRange(us) {
		return 0, false
	}
	return us, true
}

// mul64 is the 128-bit product of two int64s as (high, low) words.
func mul64(a, b int64) (int64, uint64) {
	neg := (a < 0) != (b < 0)
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = -ua
	}
	if b < 0 {
		ub = -ub
	}
	hi, lo := bits.Mul64(ua, ub)
	if neg {
		lo = ^lo + 1
		hi = ^hi
		if lo == 0 {
			hi++
		}
	}
	return int64(hi), lo
}

func errTimestampOutOfRange() error {
	return pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range")
}

// parseFracUS rounds a ".ddd" fraction of a second to µs, half to even
// like PostgreSQL's rint.
func parseFracUS(f string) (int64, dtErr) {
	if f == "." {
		return 0, dtOK
	}
	v, err := strconv.ParseFloat("0"+f, 64)
	if err != nil {
		return 0, dtBadFormat
	}
	return int64(math.RoundToEven(v * 1e6)), dtOK
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// appendYear appends a year as PostgreSQL prints it: at least four digits,
// BC years as their positive AD/BC number (the caller adds " BC").
func appendYear(buf []byte, y int64) []byte {
	if y <= 0 {
		y = 1 - y
	}
	for p := int64(1000); p > 1 && y < p; p /= 10 {
		buf = append(buf, '0')
	}
	return strconv.AppendInt(buf, y, 10)
}

func append2(buf []byte, v int64) []byte {
	return append(buf, byte('0'+v/10), byte('0'+v%10))
}

// AppendDate appends PostgreSQL's ISO output of a date (days since the
// Unix epoch).
func AppendDate(buf []byte, days int64) []byte {
	switch days {
	case DateInfinity:
		return append(buf, "infinity"...)
	case DateNegInfinity:
		return append(buf, "-infinity"...)
	}
	y, m, d := civilFromDays(days)
	buf = appendYear(buf, y)
	buf = append(buf, '-')
	buf = append2(buf, m)
	buf = append(buf, '-')
	buf = append2(buf, d)
	if y <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}

// AppendTimestamp appends PostgreSQL's ISO output of a timestamp (zone
// false) or a timestamptz shown in UTC (zone true).
func AppendTimestamp(buf []byte, us int64, zone bool) []byte {
	switch us {
	case TimestampInfinity:
		return append(buf, "infinity"...)
	case TimestampNegInfinity:
		return append(buf, "-infinity"...)
	}
	t := timestampToTm(us)
	buf = appendYear(buf, t.year)
	buf = append(buf, '-')
	buf = append2(buf, t.mon)
	buf = append(buf, '-')
	buf = append2(buf, t.mday)
	buf = append(buf, ' ')
	buf = append2(buf, t.hour)
	buf = append(buf, ':')
	buf = append2(buf, t.min)
	buf = append(buf, ':')
	buf = append2(buf, t.sec)
	buf = appendFraction(buf, t.usec)
	if zone {
		buf = append(buf, '+', '0', '0')
	}
	if t.year <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}

// appendFraction appends .ffffff without trailing zeros (nothing for 0).
func appendFraction(buf []byte, us int64) []byte {
	if us == 0 {
		return buf
	}
	var d [7]byte
	d[0] = '.'
	for i := 6; i >= 1; i-- {
		d[i] = byte('0' + us%10)
		us /= 10
	}
	n := 7
	for d[n-1] == '0' {
		n--
	}
	return append(buf, d[:n]...)
}

// TimestampToDate is the date of a timestamp (±infinity map over).
func TimestampToDate(us int64) int64 {
	switch us {
	case TimestampInfinity:
		return DateInfinity
	case TimestampNegInfinity:
		return DateNegInfinity
	}
	return floorDiv(us, usPerDay) + PGEpochDays
}

// DateToTimestamp is midnight of a date; dates past the timestamp range
// are 22008 "date out of range for timestamp".
func DateToTimestamp(days int64) (int64, error) {
	switch days {
	case DateInfinity:
		return TimestampInfinity, nil
	case DateNegInfinity:
		return TimestampNegInfinity, nil
	}
	if days >= EndTimestamp/usPerDay+PGEpochDays || days < MinDate {
		return 0, pgerr.New(pgerr.DatetimeValueOutOfRange, "date out of range for timestamp")
	}
	return (days - PGEpochDays) * usPerDay, nil
}

// DateAddDays is date + integer (and date - integer with n negated), as
// PostgreSQL's date_pli: infinite dates stay infinite.
func DateAddDays(days, n int64) (int64, error) {
	if !IsFiniteDate(days) {
		return days, nil
	}
	r := days + n
	if (n > 0 && r < days) || (n < 0 && r > days) || r < MinDate || r > MaxDate {
		return 0, pgerr.New(pgerr.DatetimeValueOutOfRange, "date out of range")
	}
	return r, nil
}

// DateDiff is date - date in days; infinite dates are an error as in
// PostgreSQL ("cannot subtract infinite dates").
func DateDiff(a, b int64) (int64, error) {
	if !IsFiniteDate(a) || !IsFiniteDate(b) {
		return 0, pgerr.New(pgerr.DatetimeValueOutOfRange, "cannot subtract infinite dates")
	}
	return a - b, nil
}
