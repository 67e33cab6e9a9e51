package sqltypes

import (
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// IntervalValue is PostgreSQL's interval: months, days and microseconds
// kept apart, because a month and a day have no fixed length until the
// interval is added to a timestamp. Comparison and hashing treat a month
// as 30 days and a day as 24 hours, as PostgreSQL does.
type IntervalValue struct {
	Months int32
	Days   int32
	Micros int64
}

// IntervalFields is the field restriction of an interval type (interval
// day to second, ...): PostgreSQL's INTERVAL_MASK bits, so TypeMod can
// report PostgreSQL's typmod.
type IntervalFields uint16

// Interval field bits, and the full range.
const (
	IntervalMonth  IntervalFields = 1 << 1
	IntervalYear   IntervalFields = 1 << 2
	IntervalDay    IntervalFields = 1 << 3
	IntervalHour   IntervalFields = 1 << 10
	IntervalMinute IntervalFields = 1 << 11
	IntervalSecond IntervalFields = 1 << 12
	IntervalFull   IntervalFields = 0x7fff
)

// intervalFieldNames lists the qualifiers PostgreSQL accepts, with their
// masks, in format_type's spelling.
var intervalFieldNames = []struct {
	name string
	mask IntervalFields
}{
	{"year", IntervalYear},
	{"month", IntervalMonth},
	{"day", IntervalDay},
	{"hour", IntervalHour},
	{"minute", IntervalMinute},
	{"second", IntervalSecond},
	{"year to month", IntervalYear | IntervalMonth},
	{"day to hour", IntervalDay | IntervalHour},
	{"day to minute", IntervalDay | IntervalHour | IntervalMinute},
	{"day to second", IntervalDay | IntervalHour | IntervalMinute | IntervalSecond},
	{"hour to minute", IntervalHour | IntervalMinute},
	{"hour to second", IntervalHour | IntervalMinute | IntervalSecond},
	{"minute to second", IntervalMinute | IntervalSecond},
}

// IntervalFieldsByName resolves a qualifier such as "day to second"
// (lower case, single spaces).
func IntervalFieldsByName(name string) (IntervalFields, bool) {
	for _, f := range intervalFieldNames {
		if f.name == name {
			return f.mask, true
		}
	}
	return 0, false
}

// IntervalType returns interval with a field restriction (0 for none) and
// a fractional-second precision (-1 for the default, 6).
func IntervalType(fields IntervalFields, precision int) Type {
	t := Type{ID: Interval}
	if fields != IntervalFull {
		t.Width = int(fields)
	}
	if precision >= 0 {
		t.Scale = int16(precision + 1)
	}
	return t
}

// IntervalTypmod returns the field restriction and precision of an
// interval type (IntervalFull and -1 when unrestricted).
func (t Type) IntervalTypmod() (fields IntervalFields, precision int) {
	fields = IntervalFull
	if t.Width != 0 {
		fields = IntervalFields(t.Width)
	}
	return fields, int(t.Scale) - 1
}

func intervalTypeName(t Type) string {
	fields, prec := t.IntervalTypmod()
	s := "interval"
	if fields != IntervalFull {
		for _, f := range intervalFieldNames {
			if f.mask == fields {
				s += " " + f.name
			}
		}
	}
	if prec >= 0 {
		s += "(" + strconv.Itoa(prec) + ")"
	}
	return s
}

// int128 is a signed 128-bit integer for interval spans.
type int128 struct {
	hi int64
	lo uint64
}

func i128(v int64) int128 { return int128{hi: v >> 63, lo: uint64(v)} }

func (a int128) add(b int128) int128 {
	lo, carry := bits.Add64(a.lo, b.lo, 0)
	return int128{hi: a.hi + b.hi + int64(carry), lo: lo}
}

func i128Mul(a, b int64) int128 {
	hi, lo := mul64(a, b)
	return int128{hi: hi, lo: lo}
}

func (a int128) cmp(b int128) int {
	switch {
	case a.hi < b.hi:
		return -1
	case a.hi > b.hi:
		return 1
	case a.lo < b.lo:
		return -1
	case a.lo > b.lo:
		return 1
	}
	return 0
}

// span is PostgreSQL's interval_cmp_value: the interval in µs with 30-day
// months and 24-hour days, as a 128-bit number (high, low words).
func (iv IntervalValue) span() (int64, uint64) {
	s := i128(iv.Micros).add(i128Mul(int64(iv.Days), usPerDay)).add(i128Mul(int64(iv.Months), 30*usPerDay))
	return s.hi, s.lo
}

// IntervalSpan returns the 128-bit comparison value of an interval, high
// and low words; catalog's key encoding orders intervals by it.
func IntervalSpan(iv IntervalValue) (hi int64, lo uint64) { return iv.span() }

// CompareInterval orders intervals as PostgreSQL does ('1 mon' = '30 days').
func CompareInterval(a, b IntervalValue) int {
	ah, al := a.span()
	bh, bl := b.span()
	return int128{ah, al}.cmp(int128{bh, bl})
}

func errIntervalOutOfRange() error {
	return pgerr.New(pgerr.DatetimeValueOutOfRange, "interval out of range")
}

// ParseInterval parses PostgreSQL interval input in every spelling its
// interval_in accepts with the default IntervalStyle: '1 day 02:03:04',
// '1 year 2 mons', '-1 day +2 hours', '@ 1 minute ago', SQL-standard
// '1-2 3 4:05:06', ISO 8601 'P1Y2M3DT4H5M6S' and 'P0001-02-03T04:05:06',
// fractional units ('1.5 years'). t's field restriction and precision
// apply as for a typed column. Errors: 22007 bad syntax, 22015 a field out
// of range, 22008 the interval out of range.
func ParseInterval(s string, t Type) (IntervalValue, error) {
	return ParseIntervalStyled(s, t, IntervalStylePostgres)
}

// ParseIntervalStyled is ParseInterval under an IntervalStyle: in
// sql_standard a leading minus with no other sign negates every field
// ('-1 2:00:00' is -1 day -2 hours), as PostgreSQL's DecodeInterval reads
// it; the other styles read alike.
func ParseIntervalStyled(s string, t Type, style IntervalStyle) (IntervalValue, error) {
	fields, prec := t.IntervalTypmod()
	rng := fields
	r, e := decodeIntervalText(s, rng, style == IntervalStyleSQLStandard)
	if e == dtBadFormat {
		r, e = decodeISO8601Interval(s)
	}
	switch e {
	case dtBadFormat:
		return IntervalValue{}, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type interval: %q", s)
	case dtFieldOverflow:
		return IntervalValue{}, pgerr.New(pgerr.IntervalFieldOverflow, "interval field value out of range: %q", s)
	}
	iv, ok := r.toInterval()
	if !ok {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return adjustInterval(iv, fields, prec)
}

// itmIn accumulates parsed interval fields (PostgreSQL's pg_itm_in).
type itmIn struct {
	usec int64
	mday int32
	mon  int32
	year int32
}

func (r itmIn) toInterval() (IntervalValue, bool) {
	months := int64(r.year)*12 + int64(r.mon)
	if months > math.MaxInt32 || months < math.MinInt32 {
		return IntervalValue{}, false
	}
	return IntervalValue{Months: int32(months), Days: r.mday, Micros: r.usec}, true
}

func (r *itmIn) addFractMicros(frac float64, scale int64) bool {
	if frac == 0 {
		return true
	}
	frac *= float64(scale)
	us := int64(frac)
	frac -= float64(us)
	if frac > 0.5 {
		us++
	} else if frac < -0.5 {
		us--
	}
	var ok bool
	r.usec, ok = addInt64(r.usec, us)
	return ok
}

func (r *itmIn) addFractDays(frac float64, scale int) bool {
	if frac == 0 {
		return true
	}
	frac *= float64(scale)
	extra := int32(frac)
	var ok bool
	if r.mday, ok = addInt32(r.mday, int64(extra)); !ok {
		return false
	}
	frac -= float64(extra)
	return r.addFractMicros(frac, usPerDay)
}

func (r *itmIn) addFractYears(frac float64, scale int) bool {
	extra := math.RoundToEven(frac * float64(scale) * 12)
	var ok bool
	r.mon, ok = addInt32(r.mon, int64(extra))
	return ok
}

func (r *itmIn) addMicros(val int64, fval float64, scale int64) bool {
	hi, lo := mul64(val, scale)
	if hi != int64(lo)>>63 {
		return false
	}
	var ok bool
	if r.usec, ok = addInt64(r.usec, int64(lo)); !ok {
		return false
	}
	return r.addFractMicros(fval, scale)
}

func (r *itmIn) addDays(val int64, scale int) bool { return addScaled32(&r.mday, val, scale) }

// addScaled32 adds val·scale to *dst, false when val, the product or the
// sum leaves int32.
func addScaled32(dst *int32, val int64, scale int) bool {
	if val < math.MinInt32 || val > math.MaxInt32 {
		return false
	}
	d := val * int64(scale)
	if d < math.MinInt32 || d > math.MaxInt32 {
		return false
	}
	sum, ok := addInt32(*dst, d)
	if ok {
		*dst = sum
	}
	return ok
}

func (r *itmIn) addMonths(val int64) bool { return addScaled32(&r.mon, val, 1) }

func (r *itmIn) addYears(val int64, scale int) bool { return addScaled32(&r.year, val, scale) }

func addInt64(a, b int64) (int64, bool) {
	c := a + b
	if (c > a) != (b > 0) {
		return 0, false
	}
	return c, true
}

func addInt32(a int32, b int64) (int32, bool) {
	c := int64(a) + b
	if c < math.MinInt32 || c > math.MaxInt32 {
		return 0, false
	}
	return int32(c), true
}

// Interval input field kinds (PostgreSQL's ParseDateTime field types).
const (
	ivNumber  = 'n' // digits, maybe a fraction
	ivDate    = 'd' // digits with - or / (1-2: years-months)
	ivTime    = 't' // digits with ':'
	ivString  = 's' // a word
	ivSpecial = 'p' // a signed word
	ivTZ      = 'z' // a signed number or time
)

type ivField struct {
	kind byte
	s    string
}

// tokenizeInterval is PostgreSQL's ParseDateTime as interval input uses
// it: blanks and other punctuation separate fields, words are lower-cased.
func tokenizeInterval(s string) ([]ivField, bool) {
	var out []ivField
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isAlpha := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	isAlnum := func(c byte) bool { return isDigit(c) || isAlpha(c) }
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case isPGSpace(c):
			i++
		case isDigit(c):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			kind := byte(ivNumber)
			if j < len(s) && s[j] == ':' {
				kind = ivTime
				j++
				for j < len(s) && (isDigit(s[j]) || s[j] == ':' || s[j] == '.') {
					j++
				}
			} else if j < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.') {
				delim := s[j]
				j++
				if j < len(s) && isDigit(s[j]) {
					kind = ivDate
					if delim == '.' {
						kind = ivNumber
					}
					for j < len(s) && isDigit(s[j]) {
						j++
					}
					if j < len(s) && s[j] == delim {
						kind = ivDate
						for j < len(s) && (isDigit(s[j]) || s[j] == delim) {
							j++
						}
					}
				} else {
					kind = ivDate
					for j < len(s) && (isAlnum(s[j]) || s[j] == delim) {
						j++
					}
				}
			}
			out = append(out, ivField{kind, strings.ToLower(s[i:j])})
			i = j
		case c == '.':
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			out = append(out, ivField{ivNumber, s[i:j]})
			i = j
		case isAlpha(c):
			j := i
			for j < len(s) && isAlpha(s[j]) {
				j++
			}
			w := strings.ToLower(s[i:j])
			isDate := false
			if j < len(s) && (s[j] == '-' || s[j] == '/' || s[j] == '.') {
				isDate = true
			} else if j < len(s) && (s[j] == '+' || isDigit(s[j])) && !dateKeyword(w) {
				isDate = true
			}
			if isDate {
				for j < len(s) && (s[j] == '+' || s[j] == '-' || s[j] == '/' || s[j] == '_' || s[j] == '.' || s[j] == ':' || isAlnum(s[j])) {
					j++
				}
				out = append(out, ivField{ivDate, strings.ToLower(s[i:j])})
			} else {
				out = append(out, ivField{ivString, w})
			}
			i = j
		case c == '+' || c == '-':
			j := i + 1
			for j < len(s) && isPGSpace(s[j]) {
				j++
			}
			switch {
			case j < len(s) && isDigit(s[j]):
				k := j
				for k < len(s) && (isDigit(s[k]) || s[k] == ':' || s[k] == '.' || s[k] == '-') {
					k++
				}
				out = append(out, ivField{ivTZ, string(c) + s[j:k]})
				i = k
			case j < len(s) && isAlpha(s[j]):
				k := j
				for k < len(s) && isAlpha(s[k]) {
					k++
				}
				out = append(out, ivField{ivSpecial, string(c) + strings.ToLower(s[j:k])})
				i = k
			default:
				return nil, false
			}
		case c < 0x80 && c > ' ' && !isAlnum(c):
			i++ // other punctuation (@, ...) only separates
		default:
			return nil, false
		}
	}
	return out, true
}

// dateKeyword reports whether w is one of PostgreSQL's date/time keywords
// (which stop a word from being read as a zone name like "gmt+8").
func dateKeyword(w string) bool {
	switch w {
	case "ad", "allballs", "am", "at", "bc", "d", "dow", "doy", "dst", "epoch", "h", "infinity",
		"isodow", "isoyear", "j", "jd", "julian", "m", "mm", "now", "on", "pm", "s", "t", "today",
		"tomorrow", "y", "yesterday":
		return true
	}
	_, isMonth := monthNames[w]
	_, isDay := dayNames[w]
	return isMonth || isDay
}

var monthNames = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
	"september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
}

var dayNames = map[string]bool{
	"sun": true, "sunday": true, "mon": true, "monday": true, "tue": true, "tues": true, "tuesday": true,
	"wed": true, "weds": true, "wednesday": true, "thu": true, "thur": true, "thurs": true, "thursday": true,
	"fri": true, "friday": true, "sat": true, "saturday": true,
}

// Interval units (PostgreSQL's DTK_* for intervals).
type ivUnit uint8

const (
	unitNone ivUnit = iota
	unitMicrosecond
	unitMillisecond
	unitSecond
	unitMinute
	unitHour
	unitDay
	unitWeek
	unitMonth
	unitYear
	unitDecade
	unitCentury
	unitMillennium
	unitAgo
	unitIgnore
	unitOther // a known keyword that intervals reject
)

// intervalUnit resolves a unit word; PostgreSQL compares only the first
// ten characters, so "microseconds" matches "microsecon".
func intervalUnit(w string) ivUnit {
	if len(w) > 10 {
		w = w[:10]
	}
	switch w {
	case "@":
		return unitIgnore
	case "ago":
		return unitAgo
	case "c", "cent", "centuries", "century":
		return unitCentury
	case "d", "day", "days":
		return unitDay
	case "dec", "decade", "decades", "decs":
		return unitDecade
	case "h", "hour", "hours", "hr", "hrs":
		return unitHour
	case "m", "min", "mins", "minute", "minutes":
		return unitMinute
	case "microsecon", "us", "usec", "usecs", "useconds":
		return unitMicrosecond
	case "mil", "millennia", "millennium", "mils":
		return unitMillennium
	case "millisecon", "ms", "msec", "msecs", "mseconds":
		return unitMillisecond
	case "mon", "mons", "month", "months":
		return unitMonth
	case "s", "sec", "second", "seconds", "secs":
		return unitSecond
	case "w", "week", "weeks":
		return unitWeek
	case "y", "year", "years", "yr", "yrs":
		return unitYear
	case "qtr", "quarter", "timezone", "timezone_h", "timezone_m":
		return unitOther
	case "at", "on":
		return unitIgnore
	}
	if dateKeyword(w) {
		return unitOther
	}
	return unitNone
}

// Field masks for duplicate detection (PostgreSQL's DTK_M bits).
const (
	mMicro = 1 << iota
	mMilli
	mSecond
	mMinute
	mHour
	mDay
	mWeek
	mMonth
	mYear
	mDecade
	mCentury
	mMillennium
	mAllSecs = mSecond | mMilli | mMicro
	mTime    = mHour | mMinute | mAllSecs
)

// decodeIntervalText is PostgreSQL's DecodeInterval: the fields are read
// right to left so a unit word applies to the number before it.
func decodeIntervalText(s string, rng IntervalFields, sqlStandard bool) (itmIn, dtErr) {
	var r itmIn
	f, ok := tokenizeInterval(s)
	if !ok {
		return r, dtBadFormat
	}
	fmask := 0
	typ := unitNone
	isBefore := false
	for i := len(f) - 1; i >= 0; i-- {
		tmask := 0
		field := f[i]
		switch field.kind {
		case ivTime:
			us, tm, e := decodeTimeForInterval(field.s, rng)
			if e != dtOK {
				return r, e
			}
			if r.usec, ok = addInt64(r.usec, us); !ok {
				return r, dtFieldOverflow
			}
			tmask = tm
			typ = unitDay
		case ivTZ, ivDate, ivNumber:
			if field.kind == ivTZ && strings.Contains(field.s[1:], ":") {
				if us, tm, e := decodeTimeForInterval(field.s[1:], rng); e == dtOK {
					if field.s[0] == '-' {
						us = -us
					}
					if r.usec, ok = addInt64(r.usec, us); !ok {
						return r, dtFieldOverflow
					}
					tmask = tm
					typ = unitDay
					break
				}
			}
			if typ == unitNone {
				typ = defaultIntervalUnit(rng)
			}
			var e dtErr
			if typ, tmask, e = r.addNumberField(field.s, typ); e != dtOK {
				return r, e
			}
		case ivString, ivSpecial:
			// PostgreSQL 15 lets a unit word stand without a number ("1
			// day hour" is 1 day) and "ago" anywhere; a number right
			// before "ago" has no unit and is rejected.
			u := intervalUnit(field.s)
			switch u {
			case unitIgnore:
				continue
			case unitAgo:
				isBefore = true
				typ = unitAgo
			case unitNone, unitOther:
				return r, dtBadFormat
			default:
				typ = u
			}
		default:
			return r, dtBadFormat
		}
		if tmask&fmask != 0 {
			return r, dtBadFormat
		}
		fmask |= tmask
	}
	if fmask == 0 {
		return r, dtBadFormat
	}
	if sqlStandard && f[0].s[0] == '-' {
		// SQL's '-1 1:00:00' is minus one day and one hour; a value
		// whose other fields carry signs of their own (postgres-style
		// output) keeps them.
		more := false
		for _, x := range f[1:] {
			if x.s[0] == '-' || x.s[0] == '+' {
				more = true
				break
			}
		}
		if !more {
			r.usec, r.mday, r.mon, r.year = -abs(r.usec), -abs(r.mday), -abs(r.mon), -abs(r.year)
		}
	}
	if isBefore {
		if r.usec == math.MinInt64 || r.mday == math.MinInt32 || r.mon == math.MinInt32 || r.year == math.MinInt32 {
			return r, dtFieldOverflow
		}
		r.usec, r.mday, r.mon, r.year = -r.usec, -r.mday, -r.mon, -r.year
	}
	return r, dtOK
}

// defaultIntervalUnit is the unit of a bare number: the lowest field of
// the type's restriction (seconds without one).
func defaultIntervalUnit(rng IntervalFields) ivUnit {
	switch rng {
	case IntervalYear:
		return unitYear
	case IntervalMonth, IntervalYear | IntervalMonth:
		return unitMonth
	case IntervalDay:
		return unitDay
	case IntervalHour, IntervalDay | IntervalHour:
		return unitHour
	case IntervalMinute, IntervalHour | IntervalMinute, IntervalDay | IntervalHour | IntervalMinute:
		return unitMinute
	}
	return unitSecond
}

// addNumberField adds one signed number (with an optional fraction, or a
// SQL years-months "y-m") in unit typ; it returns the unit for the next
// field to the left and the field's mask.
func (r *itmIn) addNumberField(s string, typ ivUnit) (ivUnit, int, dtErr) {
	neg := strings.HasPrefix(s, "-")
	j := 0
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		j++
	}
	k := j
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == j {
		return typ, 0, dtBadFormat
	}
	val, err := strconv.ParseInt(s[j:k], 10, 64)
	if err != nil {
		return typ, 0, dtFieldOverflow
	}
	if neg {
		val = -val
	}
	var fval float64
	rest := s[k:]
	switch {
	case strings.HasPrefix(rest, "-"):
		// SQL "years-months".
		m, err := strconv.ParseInt(rest[1:], 10, 32)
		if err != nil || rest[1:] == "" || rest[1] == '+' || rest[1] == '-' {
			if err != nil && len(rest) > 1 && allDigits(rest[1:]) {
				return typ, 0, dtFieldOverflow
			}
			return typ, 0, dtBadFormat
		}
		if m < 0 || m >= 12 {
			return typ, 0, dtFieldOverflow
		}
		if neg {
			m = -m
		}
		typ = unitMonth
		hi, lo := mul64(val, 12)
		if hi != int64(lo)>>63 {
			return typ, 0, dtFieldOverflow
		}
		var ok bool
		if val, ok = addInt64(int64(lo), m); !ok {
			return typ, 0, dtFieldOverflow
		}
	case strings.HasPrefix(rest, "."):
		if rest != "." {
			if !allDigits(rest[1:]) {
				return typ, 0, dtBadFormat
			}
			f, err := strconv.ParseFloat("0"+rest, 64)
			if err != nil {
				return typ, 0, dtBadFormat
			}
			fval = f
		}
		if neg {
			fval = -fval
		}
	case rest != "":
		return typ, 0, dtBadFormat
	}
	ok := true
	tmask := 0
	next := typ
	switch typ {
	case unitMicrosecond:
		ok, tmask = r.addMicros(val, fval, 1), mMicro
	case unitMillisecond:
		ok, tmask = r.addMicros(val, fval, 1000), mMilli
	case unitSecond:
		ok, tmask = r.addMicros(val, fval, usPerSec), mSecond
		if fval != 0 {
			tmask = mAllSecs
		}
	case unitMinute:
		ok, tmask = r.addMicros(val, fval, usPerMin), mMinute
	case unitHour:
		ok, tmask = r.addMicros(val, fval, usPerHour), mHour
		next = unitDay
	case unitDay:
		ok, tmask = r.addDays(val, 1) && r.addFractMicros(fval, usPerDay), mDay
	case unitWeek:
		ok, tmask = r.addDays(val, 7) && r.addFractDays(fval, 7), mWeek
	case unitMonth:
		ok, tmask = r.addMonths(val) && r.addFractDays(fval, 30), mMonth
	case unitYear:
		ok, tmask = r.addYears(val, 1) && r.addFractYears(fval, 1), mYear
	case unitDecade:
		ok, tmask = r.addYears(val, 10) && r.addFractYears(fval, 10), mDecade
	case unitCentury:
		ok, tmask = r.addYears(val, 100) && r.addFractYears(fval, 100), mCentury
	case unitMillennium:
		ok, tmask = r.addYears(val, 1000) && r.addFractYears(fval, 1000), mMillennium
	default:
		return typ, 0, dtBadFormat
	}
	if !ok {
		return typ, 0, dtFieldOverflow
	}
	return next, tmask, dtOK
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// decodeTimeForInterval reads h:m[:s[.f]] (or m:s.f, and m:s for
// "minute to second") into µs.
func decodeTimeForInterval(s string, rng IntervalFields) (int64, int, dtErr) {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || !allDigits(s[:colon]) {
		return 0, 0, dtBadFormat
	}
	hour, err := strconv.ParseInt(s[:colon], 10, 64)
	if err != nil {
		return 0, 0, dtFieldOverflow
	}
	rest := s[colon+1:]
	k := 0
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	if k == 0 {
		return 0, 0, dtBadFormat
	}
	if k > 9 {
		return 0, 0, dtFieldOverflow
	}
	minute, _ := strconv.ParseInt(rest[:k], 10, 64)
	rest = rest[k:]
	var sec, fsec int64
	switch {
	case rest == "":
		if rng == IntervalMinute|IntervalSecond {
			sec, minute, hour = minute, hour, 0
		}
	case rest[0] == '.':
		f, e := parseIntervalFraction(rest)
		if e != dtOK {
			return 0, 0, e
		}
		fsec = f
		sec, minute, hour = minute, hour, 0
	case rest[0] == ':':
		rest = rest[1:]
		k = 0
		for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			k++
		}
		if k > 9 {
			return 0, 0, dtFieldOverflow
		}
		if k > 0 {
			sec, _ = strconv.ParseInt(rest[:k], 10, 64)
		}
		rest = rest[k:]
		if k == 0 && rest == "" {
			return 0, 0, dtBadFormat
		}
		if rest != "" {
			if rest[0] != '.' {
				return 0, 0, dtBadFormat
			}
			f, e := parseIntervalFraction(rest)
			if e != dtOK {
				return 0, 0, e
			}
			fsec = f
		}
	default:
		return 0, 0, dtBadFormat
	}
	if hour < 0 || minute < 0 || minute > 59 || sec < 0 || sec > 60 || fsec < 0 || fsec > usPerSec {
		return 0, 0, dtFieldOverflow
	}
	hi, lo := mul64(hour, usPerHour)
	if hi != int64(lo)>>63 {
		return 0, 0, dtFieldOverflow
	}
	us, ok := addInt64(int64(lo), minute*usPerMin+sec*usPerSec+fsec)
	if !ok {
		return 0, 0, dtFieldOverflow
	}
	return us, mTime, dtOK
}

// parseIntervalFraction reads ".ddd" (possibly just ".") into µs, rounded
// half to even like PostgreSQL's rint.
func parseIntervalFraction(s string) (int64, dtErr) {
	if s == "." {
		return 0, dtOK
	}
	if !allDigits(s[1:]) {
		return 0, dtBadFormat
	}
	f, err := strconv.ParseFloat("0"+s, 64)
	if err != nil {
		return 0, dtBadFormat
	}
	return int64(math.RoundToEven(f * 1e6)), dtOK
}

// iso8601Number reads a strtod-style number (sign, digits, point,
// exponent) at the start of s; PostgreSQL splits it into an integer part
// and a fraction and rejects magnitudes above 1e15.
func iso8601Number(s string) (ipart int64, fpart float64, rest string, e dtErr) {
	if s == "" || !(s[0] >= '0' && s[0] <= '9' || s[0] == '-' || s[0] == '.') {
		return 0, 0, s, dtBadFormat
	}
	i := 0
	if s[i] == '-' || s[i] == '+' {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0, s, dtBadFormat
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, 0, s, dtBadFormat
	}
	if math.IsNaN(v) || v < -1e15 || v > 1e15 {
		return 0, 0, s, dtFieldOverflow
	}
	if v >= 0 {
		ipart = int64(math.Floor(v))
	} else {
		ipart = -int64(math.Floor(-v))
	}
	return ipart, v - float64(ipart), s[i:], dtOK
}

func iso8601IntegerWidth(s string) int {
	if strings.HasPrefix(s, "-") {
		s = s[1:]
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// decodeISO8601Interval reads the ISO 8601 "format with designators"
// (P1Y2M3DT4H5M6S, with a W for weeks) and the alternative format
// (P0001-02-03T04:05:06, basic or extended).
func decodeISO8601Interval(s string) (itmIn, dtErr) {
	var r itmIn
	if len(s) < 2 || s[0] != 'P' {
		return r, dtBadFormat
	}
	str := s[1:]
	datePart, haveField := true, false
	for str != "" {
		if str[0] == 'T' {
			datePart, haveField = false, false
			str = str[1:]
			continue
		}
		fieldStart := str
		val, fval, rest, e := iso8601Number(str)
		if e != dtOK {
			return r, e
		}
		var unit byte
		if rest != "" {
			unit, rest = rest[0], rest[1:]
		}
		str = rest
		ok := true
		if datePart {
			switch unit {
			case 'Y':
				ok = r.addYears(val, 1) && r.addFractYears(fval, 1)
			case 'M':
				ok = r.addMonths(val) && r.addFractDays(fval, 30)
			case 'W':
				ok = r.addDays(val, 7) && r.addFractDays(fval, 7)
			case 'D':
				ok = r.addDays(val, 1) && r.addFractMicros(fval, usPerDay)
			case 'T', 0, '-':
				if unit != '-' && iso8601IntegerWidth(fieldStart) == 8 && !haveField {
					if !r.addYears(val/10000, 1) || !r.addMonths(val/100%100) || !r.addDays(val%100, 1) || !r.addFractMicros(fval, usPerDay) {
						return r, dtFieldOverflow
					}
					if unit == 0 {
						return r, dtOK
					}
					datePart, haveField = false, false
					continue
				}
				if haveField {
					return r, dtBadFormat
				}
				if !r.addYears(val, 1) || !r.addFractYears(fval, 1) {
					return r, dtFieldOverflow
				}
				if unit == 0 {
					return r, dtOK
				}
				if unit == 'T' {
					datePart, haveField = false, false
					continue
				}
				val, fval, str, e = iso8601Number(str)
				if e != dtOK {
					return r, e
				}
				if !r.addMonths(val) || !r.addFractDays(fval, 30) {
					return r, dtFieldOverflow
				}
				if str == "" {
					return r, dtOK
				}
				if str[0] == 'T' {
					datePart, haveField = false, false
					str = str[1:]
					continue
				}
				if str[0] != '-' {
					return r, dtBadFormat
				}
				val, fval, str, e = iso8601Number(str[1:])
				if e != dtOK {
					return r, e
				}
				if !r.addDays(val, 1) || !r.addFractMicros(fval, usPerDay) {
					return r, dtFieldOverflow
				}
				if str == "" {
					return r, dtOK
				}
				if str[0] == 'T' {
					datePart, haveField = false, false
					str = str[1:]
					continue
				}
				return r, dtBadFormat
			default:
				return r, dtBadFormat
			}
		} else {
			switch unit {
			case 'H':
				ok = r.addMicros(val, fval, usPerHour)
			case 'M':
				ok = r.addMicros(val, fval, usPerMin)
			case 'S':
				ok = r.addMicros(val, fval, usPerSec)
			case 0, ':':
				if unit == 0 && iso8601IntegerWidth(fieldStart) == 6 && !haveField {
					if !r.addMicros(val/10000, 0, usPerHour) || !r.addMicros(val/100%100, 0, usPerMin) ||
						!r.addMicros(val%100, 0, usPerSec) || !r.addFractMicros(fval, 1) {
						return r, dtFieldOverflow
					}
					return r, dtOK
				}
				if haveField {
					return r, dtBadFormat
				}
				if !r.addMicros(val, fval, usPerHour) {
					return r, dtFieldOverflow
				}
				if unit == 0 {
					return r, dtOK
				}
				val, fval, str, e = iso8601Number(str)
				if e != dtOK {
					return r, e
				}
				if !r.addMicros(val, fval, usPerMin) {
					return r, dtFieldOverflow
				}
				if str == "" {
					return r, dtOK
				}
				if str[0] != ':' {
					return r, dtBadFormat
				}
				val, fval, str, e = iso8601Number(str[1:])
				if e != dtOK {
					return r, e
				}
				if !r.addMicros(val, fval, usPerSec) {
					return r, dtFieldOverflow
				}
				if str == "" {
					return r, dtOK
				}
				return r, dtBadFormat
			default:
				return r, dtBadFormat
			}
		}
		if !ok {
			return r, dtFieldOverflow
		}
		haveField = true
	}
	return r, dtOK
}

var intervalScales = [7]int64{1000000, 100000, 10000, 1000, 100, 10, 1}

// adjustInterval applies an interval type's field restriction (dropping
// the fields below the lowest one) and fractional-second precision
// (rounding half away from zero), as PostgreSQL's AdjustIntervalForTypmod.
func adjustInterval(iv IntervalValue, fields IntervalFields, prec int) (IntervalValue, error) {
	switch fields {
	case IntervalFull, IntervalSecond, IntervalDay | IntervalHour | IntervalMinute | IntervalSecond,
		IntervalHour | IntervalMinute | IntervalSecond, IntervalMinute | IntervalSecond:
	case IntervalYear:
		iv.Months = iv.Months / 12 * 12
		iv.Days, iv.Micros = 0, 0
	case IntervalMonth, IntervalYear | IntervalMonth:
		iv.Days, iv.Micros = 0, 0
	case IntervalDay:
		iv.Micros = 0
	case IntervalHour, IntervalDay | IntervalHour:
		iv.Micros = iv.Micros / usPerHour * usPerHour
	case IntervalMinute, IntervalDay | IntervalHour | IntervalMinute, IntervalHour | IntervalMinute:
		iv.Micros = iv.Micros / usPerMin * usPerMin
	default:
		return iv, pgerr.New(pgerr.InternalError, "unrecognized interval typmod fields %d", fields)
	}
	if prec >= 0 && prec < 6 {
		scale := intervalScales[prec]
		off := scale / 2
		if iv.Micros >= 0 {
			iv.Micros = (iv.Micros + off) / scale * scale
		} else {
			iv.Micros = -((-iv.Micros + off) / scale * scale)
		}
	}
	return iv, nil
}

// ApplyIntervalTypmod adjusts an interval to an interval type's fields and
// precision (a no-op for plain interval).
func ApplyIntervalTypmod(iv IntervalValue, t Type) (IntervalValue, error) {
	fields, prec := t.IntervalTypmod()
	return adjustInterval(iv, fields, prec)
}

// intervalTm is the interval broken into PostgreSQL's display fields.
type intervalTm struct {
	year, mon, mday    int64
	hour, min, sec, us int64
}

func (iv IntervalValue) tm() intervalTm {
	t := intervalTm{year: int64(iv.Months) / 12, mon: int64(iv.Months) % 12, mday: int64(iv.Days)}
	t.hour, t.min, t.sec, t.us = splitTime(iv.Micros)
	return t
}

func abs64(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

// AppendInterval appends PostgreSQL's default (IntervalStyle postgres)
// output: "1 year 2 mons -3 days +04:05:06.7".
func AppendInterval(buf []byte, iv IntervalValue) []byte {
	t := iv.tm()
	isZero, isBefore := true, false
	part := func(v int64, unit string) {
		if v == 0 {
			return
		}
		if !isZero {
			buf = append(buf, ' ')
		}
		if isBefore && v > 0 {
			buf = append(buf, '+')
		}
		buf = strconv.AppendInt(buf, v, 10)
		buf = append(buf, ' ')
		buf = append(buf, unit...)
		if v != 1 {
			buf = append(buf, 's')
		}
		isBefore = v < 0
		isZero = false
	}
	part(t.year, "year")
	part(t.mon, "mon")
	part(t.mday, "day")
	if isZero || t.hour != 0 || t.min != 0 || t.sec != 0 || t.us != 0 {
		minus := t.hour < 0 || t.min < 0 || t.sec < 0 || t.us < 0
		if !isZero {
			buf = append(buf, ' ')
		}
		if minus {
			buf = append(buf, '-')
		} else if isBefore {
			buf = append(buf, '+')
		}
		h := abs64(t.hour)
		if h < 10 {
			buf = append(buf, '0')
		}
		buf = strconv.AppendUint(buf, h, 10)
		buf = append(buf, ':')
		buf = append2(buf, int64(abs64(t.min)))
		buf = append(buf, ':')
		buf = append2(buf, int64(abs64(t.sec)))
		buf = appendFraction(buf, int64(abs64(t.us)))
	}
	return buf
}

// AppendIntervalISO appends the IntervalStyle iso_8601 form
// ("P1Y2M3DT4H5M6.7S", "PT0S"), which ParseInterval reads back exactly;
// rows store intervals in it.
func AppendIntervalISO(buf []byte, iv IntervalValue) []byte {
	t := iv.tm()
	if t == (intervalTm{}) {
		return append(buf, "PT0S"...)
	}
	buf = append(buf, 'P')
	part := func(v int64, c byte) {
		if v != 0 {
			buf = strconv.AppendInt(buf, v, 10)
			buf = append(buf, c)
		}
	}
	part(t.year, 'Y')
	part(t.mon, 'M')
	part(t.mday, 'D')
	if t.hour != 0 || t.min != 0 || t.sec != 0 || t.us != 0 {
		buf = append(buf, 'T')
	}
	part(t.hour, 'H')
	part(t.min, 'M')
	if t.sec != 0 || t.us != 0 {
		if t.sec < 0 || t.us < 0 {
			buf = append(buf, '-')
		}
		buf = strconv.AppendUint(buf, abs64(t.sec), 10)
		buf = appendFraction(buf, int64(abs64(t.us)))
		buf = append(buf, 'S')
	}
	return buf
}

// AddInterval returns a + b.
func AddInterval(a, b IntervalValue) (IntervalValue, error) {
	m, ok1 := addInt32(a.Months, int64(b.Months))
	d, ok2 := addInt32(a.Days, int64(b.Days))
	us, ok3 := addInt64(a.Micros, b.Micros)
	if !ok1 || !ok2 || !ok3 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return IntervalValue{m, d, us}, nil
}

// SubInterval returns a - b.
func SubInterval(a, b IntervalValue) (IntervalValue, error) {
	nb, err := NegInterval(b)
	if err != nil {
		return IntervalValue{}, err
	}
	return AddInterval(a, nb)
}

// NegInterval returns -a.
func NegInterval(a IntervalValue) (IntervalValue, error) {
	if a.Months == math.MinInt32 || a.Days == math.MinInt32 || a.Micros == math.MinInt64 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return IntervalValue{-a.Months, -a.Days, -a.Micros}, nil
}

// tsRound is PostgreSQL's TSROUND: round to µs resolution of a second.
func tsRound(x float64) float64 { return math.RoundToEven(x*1e6) / 1e6 }

func fitsInt32(f float64) bool { return f >= math.MinInt32 && f < -float64(math.MinInt32) }
func fitsInt64(f float64) bool { return f >= math.MinInt64 && f < -float64(math.MinInt64) }

// MulInterval returns iv * factor as PostgreSQL's interval_mul does: whole
// months and days stay, their fractions cascade down to days and time.
func MulInterval(iv IntervalValue, factor float64) (IntervalValue, error) {
	return scaleInterval(iv, factor, func(x float64) float64 { return x * factor })
}

// DivInterval returns iv / factor (22012 for zero).
func DivInterval(iv IntervalValue, factor float64) (IntervalValue, error) {
	if factor == 0 {
		return IntervalValue{}, errDivisionByZero()
	}
	return scaleInterval(iv, factor, func(x float64) float64 { return x / factor })
}

func scaleInterval(iv IntervalValue, factor float64, op func(float64) float64) (IntervalValue, error) {
	if math.IsNaN(factor) {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	var r IntervalValue
	m := op(float64(iv.Months))
	if math.IsNaN(m) || !fitsInt32(m) {
		return r, errIntervalOutOfRange()
	}
	r.Months = int32(m)
	d := op(float64(iv.Days))
	if math.IsNaN(d) || !fitsInt32(d) {
		return r, errIntervalOutOfRange()
	}
	r.Days = int32(d)
	monthRemainderDays := tsRound((m - float64(r.Months)) * 30)
	secRemainder := tsRound((d - float64(r.Days) + monthRemainderDays - float64(int32(monthRemainderDays))) * 86400)
	if math.Abs(secRemainder) >= 86400 {
		extra := int64(secRemainder / 86400)
		var ok bool
		if r.Days, ok = addInt32(r.Days, extra); !ok {
			return r, errIntervalOutOfRange()
		}
		secRemainder -= float64(extra) * 86400
	}
	var ok bool
	if r.Days, ok = addInt32(r.Days, int64(int32(monthRemainderDays))); !ok {
		return r, errIntervalOutOfRange()
	}
	t := math.RoundToEven(op(float64(iv.Micros)) + secRemainder*1e6)
	if math.IsNaN(t) || !fitsInt64(t) {
		return r, errIntervalOutOfRange()
	}
	r.Micros = int64(t)
	return r, nil
}

// JustifyHours moves whole 24-hour periods of the time into days.
func JustifyHours(iv IntervalValue) (IntervalValue, error) {
	r := iv
	whole := r.Micros / usPerDay
	r.Micros -= whole * usPerDay
	var ok bool
	if r.Days, ok = addInt32(r.Days, whole); !ok {
		return r, errIntervalOutOfRange()
	}
	if r.Days > 0 && r.Micros < 0 {
		r.Micros += usPerDay
		r.Days--
	} else if r.Days < 0 && r.Micros > 0 {
		r.Micros -= usPerDay
		r.Days++
	}
	return r, nil
}

// JustifyDays moves whole 30-day periods into months.
func JustifyDays(iv IntervalValue) (IntervalValue, error) {
	r := iv
	whole := r.Days / 30
	r.Days -= whole * 30
	var ok bool
	if r.Months, ok = addInt32(r.Months, int64(whole)); !ok {
		return r, errIntervalOutOfRange()
	}
	if r.Months > 0 && r.Days < 0 {
		r.Days += 30
		r.Months--
	} else if r.Months < 0 && r.Days > 0 {
		r.Days -= 30
		r.Months++
	}
	return r, nil
}

// JustifyInterval is justify_days(justify_hours(iv)) with all fields given
// one sign.
func JustifyInterval(iv IntervalValue) (IntervalValue, error) {
	r := iv
	var ok bool
	if r.Days > 0 && r.Micros > 0 || r.Days < 0 && r.Micros < 0 {
		whole := r.Days / 30
		r.Days -= whole * 30
		if r.Months, ok = addInt32(r.Months, int64(whole)); !ok {
			return r, errIntervalOutOfRange()
		}
	}
	wholeDay := r.Micros / usPerDay
	r.Micros -= wholeDay * usPerDay
	if r.Days, ok = addInt32(r.Days, wholeDay); !ok {
		return r, errIntervalOutOfRange()
	}
	whole := r.Days / 30
	r.Days -= whole * 30
	if r.Months, ok = addInt32(r.Months, int64(whole)); !ok {
		return r, errIntervalOutOfRange()
	}
	if r.Months > 0 && (r.Days < 0 || r.Days == 0 && r.Micros < 0) {
		r.Days += 30
		r.Months--
	} else if r.Months < 0 && (r.Days > 0 || r.Days == 0 && r.Micros > 0) {
		r.Days -= 30
		r.Months++
	}
	if r.Days > 0 && r.Micros < 0 {
		r.Micros += usPerDay
		r.Days--
	} else if r.Days < 0 && r.Micros > 0 {
		r.Micros -= usPerDay
		r.Days++
	}
	return r, nil
}

// TimestampAddInterval returns ts + iv for timestamps and timestamptz (in
// UTC): months first, keeping the day of month but clamping it to the
// month's length (Jan 31 + 1 mon = Feb 29 in a leap year), then days, then
// the time. Infinite timestamps stay infinite.
func TimestampAddInterval(ts int64, iv IntervalValue) (int64, error) {
	if !IsFiniteTimestamp(ts) {
		return ts, nil
	}
	// Work on (day since 1970, time of day) and check each step against
	// the timestamp range.
	inPGRange := func(days int64) bool { return days >= MinDate && days < pgEndTimestampDays }
	days := floorDiv(ts, usPerDay)
	tod := ts - days*usPerDay
	days += PGEpochDays
	if iv.Months != 0 {
		y, m, d := civilFromDays(days)
		mon := m + int64(iv.Months)
		if mon > 12 {
			y += (mon - 1) / 12
			mon = (mon-1)%12 + 1
		} else if mon < 1 {
			y += mon/12 - 1
			mon = mon%12 + 12
		}
		if dim := daysInMonth(y, mon); d > dim {
			d = dim
		}
		days = daysFromCivil(y, mon, d)
		if !inPGRange(days) {
			return 0, errTimestampOutOfRange()
		}
	}
	days += int64(iv.Days)
	if !inPGRange(days) {
		return 0, errTimestampOutOfRange()
	}
	hi, lo := mul64(days-PGEpochDays, usPerDay)
	if hi != int64(lo)>>63 {
		return 0, errTimestampOutOfRange()
	}
	r, ok := addInt64(int64(lo), tod)
	if ok {
		r, ok = addInt64(r, iv.Micros)
	}
	if !ok || !InTimestampRange(r) {
		return 0, errTimestampOutOfRange()
	}
	return r, nil
}

// pgEndTimestampDays is PostgreSQL's END_TIMESTAMP, 294277-01-01, in days
// since 1970.
var pgEndTimestampDays = daysFromCivil(294277, 1, 1)

// TimestampSubInterval returns ts - iv.
func TimestampSubInterval(ts int64, iv IntervalValue) (int64, error) {
	n, err := NegInterval(iv)
	if err != nil {
		return 0, err
	}
	return TimestampAddInterval(ts, n)
}

// DateAddInterval returns date + interval, a timestamp (date - interval
// is DateAddInterval with the interval negated).
func DateAddInterval(days int64, iv IntervalValue) (int64, error) {
	ts, err := DateToTimestamp(days)
	if err != nil {
		return 0, err
	}
	return TimestampAddInterval(ts, iv)
}

// TimestampDiff returns a - b for timestamps: the µs difference with whole
// days split out (justify_hours), as PostgreSQL's timestamp_mi.
func TimestampDiff(a, b int64) (IntervalValue, error) {
	if !IsFiniteTimestamp(a) || !IsFiniteTimestamp(b) {
		return IntervalValue{}, pgerr.New(pgerr.DatetimeValueOutOfRange, "cannot subtract infinite timestamps")
	}
	d, ok := addInt64(a, -b)
	if !ok || b == math.MinInt64 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return JustifyHours(IntervalValue{Micros: d})
}

// ageTm is the calendar fields age reads from a timestamp. PostgreSQL 15
// reads them from infinity's representation, the largest µs count from
// 2000, as if it were a date (294277-01-09 04:00:54.775807), and refuses
// -infinity's; age gives the same intervals.
func ageTm(us int64) (tmParts, error) {
	switch us {
	case TimestampNegInfinity:
		return tmParts{}, pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range")
	case TimestampInfinity:
		return tmParts{year: 294277, mon: 1, mday: 9, hour: 4, sec: 54, usec: 775807}, nil
	}
	return timestampToTm(us), nil
}

// Age is PostgreSQL's age(a, b): the symbolic difference in years, months
// and days (borrowing the length of the relevant month) plus the time.
func Age(a, b int64) (IntervalValue, error) {
	t1, err1 := ageTm(a)
	t2, err2 := ageTm(b)
	if err1 != nil || err2 != nil {
		return IntervalValue{}, pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range")
	}
	fsec := t1.usec - t2.usec
	sec := t1.sec - t2.sec
	min := t1.min - t2.min
	hour := t1.hour - t2.hour
	mday := t1.mday - t2.mday
	mon := t1.mon - t2.mon
	year := t1.year - t2.year
	flip := a < b
	if flip {
		fsec, sec, min, hour, mday, mon, year = -fsec, -sec, -min, -hour, -mday, -mon, -year
	}
	for fsec < 0 {
		fsec += usPerSec
		sec--
	}
	for sec < 0 {
		sec += 60
		min--
	}
	for min < 0 {
		min += 60
		hour--
	}
	for hour < 0 {
		hour += 24
		mday--
	}
	for mday < 0 {
		if flip {
			mday += daysInMonth(t1.year, t1.mon)
		} else {
			mday += daysInMonth(t2.year, t2.mon)
		}
		mon--
	}
	for mon < 0 {
		mon += 12
		year--
	}
	if flip {
		fsec, sec, min, hour, mday, mon, year = -fsec, -sec, -min, -hour, -mday, -mon, -year
	}
	months := year*12 + mon
	if months > math.MaxInt32 || months < math.MinInt32 || mday > math.MaxInt32 || mday < math.MinInt32 {
		return IntervalValue{}, errIntervalOutOfRange()
	}
	return IntervalValue{Months: int32(months), Days: int32(mday), Micros: ((hour*60+min)*60+sec)*usPerSec + fsec}, nil
}

func abs[T int32 | int64](v T) T {
	if v < 0 {
		return -v
	}
	return v
}
