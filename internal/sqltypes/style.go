package sqltypes

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// A session's output settings decide how a value becomes text: DateStyle
// (dates and timestamps, and the field order ambiguous date input is read
// in), IntervalStyle, TimeZone (timestamptz), extra_float_digits and
// bytea_output. Style carries them from the session to every place a value
// is printed: result rows in text format, casts to text, array and record
// text, COPY TO. Its zero value is PostgreSQL's defaults in UTC.

// DateStyle is the output part of the DateStyle setting.
type DateStyle uint8

// The four date output styles, as PostgreSQL's DateStyle names them.
const (
	DateStyleISO DateStyle = iota
	DateStyleSQL
	DateStylePostgres
	DateStyleGerman
)

// DateStyleNames are the styles as SHOW DateStyle prints them, by style.
var DateStyleNames = [...]string{"ISO", "SQL", "Postgres", "German"}

// DateOrder is the field-order part of the DateStyle setting: how an
// ambiguous numeric date such as 04/03/2024 is read, and the order of day
// and month in the SQL and Postgres output styles.
type DateOrder uint8

// The three field orders; MDY is PostgreSQL's default.
const (
	DateOrderMDY DateOrder = iota
	DateOrderDMY
	DateOrderYMD
)

// DateOrderNames are the orders as SHOW DateStyle prints them, by order.
var DateOrderNames = [...]string{"MDY", "DMY", "YMD"}

// Style is a session's output settings. The zero value is PostgreSQL's
// default: DateStyle ISO, MDY; IntervalStyle postgres; TimeZone UTC;
// extra_float_digits 1 (floats in their shortest exact form); bytea_output
// hex.
type Style struct {
	Interval IntervalStyle
	Date     DateStyle
	Order    DateOrder
	// Location is the session's TimeZone, which timestamptz values are
	// shown in; nil is UTC.
	Location *time.Location
	// RoundFloats is set when extra_float_digits is 0 or below: floats
	// then print with 15 + ExtraFloatDigits significant digits (real: 6 +
	// ExtraFloatDigits), as printf's %g, instead of their shortest exact
	// form.
	RoundFloats      bool
	ExtraFloatDigits int8
	// ByteaEscape is bytea_output escape (else hex).
	ByteaEscape bool
	// XMLDocument is xmloption document: text cast to xml must be a
	// document (else content).
	XMLDocument bool
	// storedRecords reads composite values as the store keeps them
	// (ParseStoredRecord): fields added since they were written are NULL.
	storedRecords bool
}

// dateDefault reports whether dates, timestamps and timestamptz print as
// AppendText prints them (ISO in UTC).
func (st Style) dateDefault() bool {
	return st.Date == DateStyleISO && (st.Location == nil || st.Location == time.UTC)
}

// AppendDateStyled appends a date in st's DateStyle (PostgreSQL's
// EncodeDateOnly).
func AppendDateStyled(buf []byte, days int64, st Style) []byte {
	if st.Date == DateStyleISO || !IsFiniteDate(days) {
		return AppendDate(buf, days)
	}
	y, m, d := civilFromDays(days)
	buf = appendDayMonth(buf, m, d, st)
	buf = append(buf, dateSeparator(st.Date))
	buf = appendYear(buf, y)
	if y <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}

// dateSeparator is what separates the numeric fields of a date in style.
func dateSeparator(style DateStyle) byte {
	switch style {
	case DateStyleSQL:
		return '/'
	case DateStyleGerman:
		return '.'
	}
	return '-'
}

// appendDayMonth appends the day and month of the SQL, Postgres (date
// only) and German styles: day first in German and in DMY, else month
// first (YMD prints as MDY, as PostgreSQL does).
func appendDayMonth(buf []byte, m, d int64, st Style) []byte {
	sep := dateSeparator(st.Date)
	if st.Date == DateStyleGerman || st.Order == DateOrderDMY {
		buf = append2(buf, d)
		buf = append(buf, sep)
		return append2(buf, m)
	}
	buf = append2(buf, m)
	buf = append(buf, sep)
	return append2(buf, d)
}

var (
	weekdayAbbrevs = [...]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	monthAbbrevs   = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
)

// AppendTimestampStyled appends a timestamp (zone false) or a timestamptz
// (zone true, shown in st.Location) in st's DateStyle, as PostgreSQL's
// EncodeDateTime: the ISO style ends in the numeric offset, the others in
// the zone's abbreviation at that instant ("EST", "-03", "LMT").
func AppendTimestampStyled(buf []byte, us int64, zone bool, st Style) []byte {
	if !IsFiniteTimestamp(us) {
		return AppendTimestamp(buf, us, zone)
	}
	if st.Date == DateStyleISO {
		if zone {
			return AppendTimestampTZIn(buf, us, st.Location)
		}
		return AppendTimestamp(buf, us, false)
	}
	local, abbrev := us, ""
	if zone {
		loc := st.Location
		if loc == nil {
			loc = time.UTC
		}
		name, off := ZoneAt(loc, TimestampUnixSeconds(us))
		local, abbrev = us+off*usPerSec, name
	}
	t := timestampToTm(local)
	clock := func(buf []byte) []byte {
		buf = append2(buf, t.hour)
		buf = append(buf, ':')
		buf = append2(buf, t.min)
		buf = append(buf, ':')
		buf = append2(buf, t.sec)
		return appendFraction(buf, t.usec)
	}
	if st.Date == DateStylePostgres {
		days := floorDiv(local, usPerDay) + PGEpochDays
		// 1970-01-01 was a Thursday.
		buf = append(buf, weekdayAbbrevs[((days%7)+7+4)%7]...)
		buf = append(buf, ' ')
		if st.Order == DateOrderDMY {
			buf = append2(buf, t.mday)
			buf = append(buf, ' ')
			buf = append(buf, monthAbbrevs[t.mon-1]...)
		} else {
			buf = append(buf, monthAbbrevs[t.mon-1]...)
			buf = append(buf, ' ')
			buf = append2(buf, t.mday)
		}
		buf = append(buf, ' ')
		buf = clock(buf)
		buf = append(buf, ' ')
		buf = appendYear(buf, t.year)
	} else {
		buf = appendDayMonth(buf, t.mon, t.mday, st)
		buf = append(buf, dateSeparator(st.Date))
		buf = appendYear(buf, t.year)
		buf = append(buf, ' ')
		buf = clock(buf)
	}
	if zone {
		buf = append(buf, ' ')
		buf = append(buf, abbrev...)
	}
	if t.year <= 0 {
		buf = append(buf, " BC"...)
	}
	return buf
}

// AppendFloatStyled appends a float8 (bits 64) or real (bits 32) as
// PostgreSQL's float8out and float4out do under st's extra_float_digits.
func AppendFloatStyled(buf []byte, f float64, bits int, st Style) []byte {
	if !st.RoundFloats || math.IsNaN(f) || math.IsInf(f, 0) {
		return AppendFloat(buf, f, bits)
	}
	digits := 15 // DBL_DIG
	if bits == 32 {
		digits = 6 // FLT_DIG
	}
	digits += int(st.ExtraFloatDigits)
	if digits < 1 {
		digits = 1
	}
	// strconv's 'g' with a precision is C's %.*g: the exponent form for
	// exponents below -4 or from the precision on, trailing zeros dropped.
	return strconv.AppendFloat(buf, f, 'g', digits, 64)
}

// AppendByteaEscape appends bytes in bytea_output escape's form (byteaout):
// a backslash doubled, bytes outside printable ASCII as \ooo.
func AppendByteaEscape(buf []byte, b string) []byte {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\\':
			buf = append(buf, '\\', '\\')
		case c < 0x20 || c > 0x7e:
			buf = append(buf, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// ParseTextStyled is ParseText in a session whose settings are st: dates,
// timestamps and times (also as array elements) read ambiguous numeric
// dates in st.Order, and timestamptz and timetz without a zone are
// wall-clock times in st.Location; intervals read a leading minus as
// IntervalStyle sql_standard does; xml is checked as xmloption says.
func ParseTextStyled(t Type, s string, st Style) (Value, error) {
	if t.ID == XML {
		return ParseXML(s, st.XMLDocument)
	}
	if t.ID == Record && t.Domain == nil {
		return parseRecord(t, s, st, st.storedRecords)
	}
	if st.Order == DateOrderMDY && (st.Location == nil || st.Location == time.UTC) && st.Interval != IntervalStyleSQLStandard && !st.storedRecords {
		return ParseText(t, s)
	}
	if t.DatetimePrecision() >= 0 {
		v, err := ParseTextStyled(t.withoutPrecision(), s, st)
		if err != nil {
			return Null, err
		}
		return applyDatetimePrecision(v, t)
	}
	switch t.ID {
	case Timestamp, TimestampTZ:
		us, err := ParseTimestampStyled(s, t.ID == TimestampTZ, st)
		if err != nil {
			return Null, err
		}
		if t.ID == TimestampTZ {
			return NewTimestampTZ(us), nil
		}
		return NewTimestamp(us), nil
	case Date:
		d, err := ParseDateStyled(s, st)
		if err != nil {
			return Null, err
		}
		return NewDate(d), nil
	case Time, TimeTZ:
		return ParseTimeStyled(s, t.ID == TimeTZ, st)
	case Interval:
		iv, err := ParseIntervalStyled(s, t, st.Interval)
		if err != nil {
			return Null, err
		}
		return NewInterval(iv), nil
	case Int4Range, Int8Range, NumRange, TsRange, TstzRange, DateRange, UserRange:
		return parseRangeStyled(t, s, st)
	case Int4Multirange, Int8Multirange, NumMultirange, TsMultirange, TstzMultirange, DateMultirange, UserMultirange:
		return parseMultirangeStyled(t, s, st)
	case Array:
		a, err := parseArrayStyled(s, t.ElemType(), st)
		if err != nil {
			return Null, err
		}
		return NewArray(a), nil
	}
	return ParseText(t, s)
}

// AppendValueStyled appends v's text output in st when its type is not at
// hand (a record's fields): floats print as float8.
func AppendValueStyled(buf []byte, v Value, st Style) []byte {
	return AppendTextStyled(buf, Type{}, v, st)
}

// ParseDateStyle reads a DateStyle setting as PostgreSQL's check_datestyle:
// comma-separated words naming an output style (ISO, SQL, Postgres,
// German), a field order (YMD; DMY or Euro...; MDY, US or NonEuro...) or
// DEFAULT (the parts of def, what RESET would restore); what the value
// leaves out stays as in cur, except that German alone also sets DMY.
// detail explains a refusal: an unknown word, conflicting words or an
// empty list element.
func ParseDateStyle(value string, cur, def Style) (style DateStyle, order DateOrder, detail string, ok bool) {
	style, order = cur.Date, cur.Order
	words, ok := splitIdentifierList(value)
	if !ok {
		return 0, 0, "List syntax is invalid.", false
	}
	haveStyle, haveOrder, conflict := false, false, false
	setStyle := func(s DateStyle) {
		if haveStyle && style != s {
			conflict = true
		}
		style, haveStyle = s, true
	}
	setOrder := func(o DateOrder) {
		if haveOrder && order != o {
			conflict = true
		}
		order, haveOrder = o, true
	}
	for _, word := range words {
		// Words compare without case, quoted ones too (pg_strcasecmp).
		w := strings.ToLower(word)
		switch {
		case w == "iso":
			setStyle(DateStyleISO)
		case w == "sql":
			setStyle(DateStyleSQL)
		case strings.HasPrefix(w, "postgres"):
			setStyle(DateStylePostgres)
		case w == "german":
			setStyle(DateStyleGerman)
			if !haveOrder {
				order = DateOrderDMY
			}
		case w == "ymd":
			setOrder(DateOrderYMD)
		case w == "dmy" || strings.HasPrefix(w, "euro"):
			setOrder(DateOrderDMY)
		case w == "mdy" || w == "us" || strings.HasPrefix(w, "noneuro"):
			setOrder(DateOrderMDY)
		case w == "default":
			if !haveStyle {
				style = def.Date
			}
			if !haveOrder {
				order = def.Order
			}
		default:
			return 0, 0, "Unrecognized key word: \"" + word + "\".", false
		}
	}
	if conflict {
		return 0, 0, "Conflicting \"datestyle\" specifications.", false
	}
	return style, order, "", true
}

// FormatDateStyle is DateStyle as SHOW prints it ("SQL, DMY").
func FormatDateStyle(style DateStyle, order DateOrder) string {
	return DateStyleNames[style] + ", " + DateOrderNames[order]
}

// splitIdentifierList is PostgreSQL's SplitIdentifierString with a comma:
// words separated by commas and optional spaces, unquoted ones lower-cased,
// double-quoted ones kept as written; an empty element is an error, an
// empty string no words.
func splitIdentifierList(s string) ([]string, bool) {
	var words []string
	i := 0
	skip := func() {
		for i < len(s) && isPGSpace(s[i]) {
			i++
		}
	}
	skip()
	if i == len(s) {
		return nil, true
	}
	for {
		var w string
		if s[i] == '"' {
			var b strings.Builder
			i++
			for {
				end := strings.IndexByte(s[i:], '"')
				if end < 0 {
					return nil, false
				}
				b.WriteString(s[i : i+end])
				i += end + 1
				if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				break
			}
			w = b.String()
		} else {
			start := i
			for i < len(s) && s[i] != ',' && !isPGSpace(s[i]) && s[i] != '"' {
				i++
			}
			if i == start {
				return nil, false
			}
			w = strings.ToLower(s[start:i])
		}
		words = append(words, w)
		skip()
		if i == len(s) {
			return words, true
		}
		if s[i] != ',' {
			return nil, false
		}
		i++
		skip()
		if i == len(s) {
			return nil, false
		}
	}
}

// JSONInputStyled is JSONInput in a session whose output settings are st.
// PostgreSQL's JSON text of a value comes from its type's output function
// except for dates and timestamps, which are ISO 8601 whatever DateStyle;
// so floats (extra_float_digits), bytea (bytea_output), intervals
// (IntervalStyle) and timestamptz (TimeZone) are rendered here, also as
// array elements: a finite float as a json number, the others as text.
func JSONInputStyled(t Type, v Value, st Style) Value {
	switch v.K {
	case KindFloat:
		if st.RoundFloats && !math.IsNaN(v.F) && !math.IsInf(v.F, 0) {
			bits := 64
			if t.ID == Float4 {
				bits = 32
			}
			return NewJSON(string(AppendFloatStyled(nil, v.F, bits, st)))
		}
	case KindBytes:
		if st.ByteaEscape {
			return NewText(string(AppendByteaEscape(nil, v.S)))
		}
	case KindRange:
		// range_out's text, its bounds in DateStyle and TimeZone.
		return NewText(string(AppendRangeStyled(nil, v.Range(), st)))
	case KindMultirange:
		return NewText(string(AppendMultirangeStyled(nil, v.Multirange(), st)))
	case KindInterval:
		if st.Interval != IntervalStylePostgres {
			return NewText(string(AppendIntervalStyle(nil, v.Interval(), st.Interval)))
		}
	case KindTimestampTZ:
		if st.Location != nil && st.Location != time.UTC && IsFiniteTimestamp(v.I) {
			return NewText(string(appendTimestampTZXSD(nil, v.I, st.Location)))
		}
	case KindArray:
		a := v.Array()
		if a.Record && t.ID == Record && t.Composite != nil && len(t.Composite.Fields) == len(a.Elems) {
			// composite_to_json: an object of the fields by name.
			c := t.Composite
			// A record inside another value has no error path here: it
			// prints unbounded, and the enclosing json text meets the
			// limit as it appends it.
			w := uncheckedJSONOut(nil)
			w.row(compositeNames(c), c.FieldTypes(), a.Elems, st)
			return NewJSON(string(w.b))
		}
		if a.Record || a.Vector {
			break
		}
		elem := a.Elem
		if t.ID == Array {
			elem = t.ElemType()
		}
		out := *a
		out.Elems = make([]Value, len(a.Elems))
		for i, e := range a.Elems {
			out.Elems[i] = JSONInputStyled(elem, e, st)
		}
		return NewArray(&out)
	}
	return JSONInput(t, v)
}

// appendTimestampTZXSD appends a finite timestamptz shown in loc as
// PostgreSQL's JSON prints it (EncodeDateTime's XSD style):
// 2024-03-04T05:00:00.5-05:00, the offset with minutes always and seconds
// when it has them, BC after it.
func appendTimestampTZXSD(buf []byte, us int64, loc *time.Location) []byte {
	return appendTimestampXSDOffset(buf, us, zoneOffset(us, loc))
}

// appendTimestampXSDOffset is appendTimestampTZXSD at a given offset
// (seconds east).
func appendTimestampXSDOffset(buf []byte, us, off int64) []byte {
	start := len(buf)
	buf = AppendTimestamp(buf, us+off*usPerSec, false)
	bc := len(buf)-start > 3 && string(buf[len(buf)-3:]) == " BC"
	if bc {
		buf = buf[:len(buf)-3]
	}
	if i := strings.IndexByte(string(buf[start:]), ' '); i >= 0 {
		buf[start+i] = 'T'
	}
	buf = appendXSDOffset(buf, off)
	if bc {
		buf = append(buf, " BC"...)
	}
	return buf
}

// appendXSDOffset appends a zone offset (seconds east) as XSD style
// writes it: +hh:mm, with :ss when it has seconds.
func appendXSDOffset(buf []byte, off int64) []byte {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	buf = append(buf, sign)
	buf = appendOffsetHours(buf, off/3600)
	buf = append(buf, ':')
	buf = append2(buf, off/60%60)
	if off%60 != 0 {
		buf = append(buf, ':')
		buf = append2(buf, off%60)
	}
	return buf
}
