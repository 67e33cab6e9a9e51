package builtins

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// to_date and to_timestamp(text, template): the template's patterns read
// fields of the input as PostgreSQL's DCH_from_char does (outside FX mode:
// blanks are skipped before fields, a separator in the template matches
// one separator or none, a numeric field takes as many characters as its
// pattern is long unless FM is set or a non-digit follows), then the
// fields become a date and time: 12-hour clocks, two-digit years toward
// 2020, centuries, ISO weeks, days of the year, Julian days, time zones.

// digitPatterns are the patterns that read digits (PostgreSQL's is_digit).
var digitPatterns = map[string]bool{
	"CC": true, "DDD": true, "DD": true, "D": true, "FF1": true, "FF2": true, "FF3": true, "FF4": true, "FF5": true, "FF6": true,
	"HH24": true, "HH12": true, "HH": true, "IDDD": true, "ID": true, "IW": true, "IYYY": true, "IYY": true, "IY": true, "I": true,
	"J": true, "MI": true, "MM": true, "MS": true, "Q": true, "SSSS": true, "SS": true, "TZM": true, "US": true, "WW": true, "W": true,
	"Y,YYY": true, "YYYY": true, "YYY": true, "YY": true, "Y": true,
}

// isoPatterns are the patterns of ISO 8601 week dates; gregorianPatterns
// those of calendar dates. A template may not mix them.
var (
	isoPatterns       = map[string]bool{"IDDD": true, "ID": true, "IW": true, "IYYY": true, "IYY": true, "IY": true, "I": true}
	gregorianPatterns = map[string]bool{"DDD": true, "DD": true, "D": true, "MM": true, "MONTH": true, "MON": true, "Month": true, "Mon": true,
		"month": true, "mon": true, "RM": true, "rm": true, "WW": true, "W": true, "Y,YYY": true, "YYYY": true, "YYY": true, "YY": true, "Y": true}
)

// fromChar holds the fields read from the input (0: not given).
type fromChar struct {
	iso, gregorian                                            bool
	hh, pm, mi, ss, ssss, d, dd, ddd, mm, ms, year, bc, ww, w int64
	cc, j, us, yysz, ff                                       int64
	clock12                                                   bool
	tzsign, tzh, tzm                                          int64
}

func badFormat(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, format, args...)
}

// fromCharReader walks the input.
type fromCharReader struct {
	s     string
	pos   int
	nodes []fmtNode
	k     int // current node
}

func isSeparator(c byte) bool {
	return c > 0x20 && c < 0x7f && !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9')
}

func isBlank(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// nextIsSeparator is PostgreSQL's is_next_separator: whether the field
// ends at a non-digit, so it may take any number of digits.
func (r *fromCharReader) nextIsSeparator() bool {
	n := r.nodes[r.k]
	if n.kw != nil && n.suffix&(sufTH|sufth) != 0 {
		return true
	}
	if r.k+1 >= len(r.nodes) {
		return true
	}
	next := r.nodes[r.k+1]
	if next.kw != nil {
		return !digitPatterns[strings.ToUpper(next.kw.id)] && !digitPatterns[next.kw.id]
	}
	return !(len(next.lit) == 1 && next.lit[0] >= '0' && next.lit[0] <= '9')
}

// readInt reads an integer field of width characters (the whole run of
// digits with FM or before a separator), as from_char_parse_int_len.
func (r *fromCharReader) readInt(width int) (int64, int, error) {
	for r.pos < len(r.s) && isBlank(r.s[r.pos]) {
		r.pos++
	}
	n := r.nodes[r.k]
	name := n.kw.name
	start := r.pos
	var digits string
	if n.suffix&sufFM != 0 || r.nextIsSeparator() {
		end := r.pos
		if end < len(r.s) && (r.s[end] == '-' || r.s[end] == '+') {
			end++
		}
		for end < len(r.s) && r.s[end] >= '0' && r.s[end] <= '9' {
			end++
		}
		digits = r.s[r.pos:end]
		if digits == "-" || digits == "+" {
			digits = ""
		}
		r.pos += len(digits)
	} else {
		if len(r.s)-r.pos < width {
			return 0, 0, badFormat("source string too short for %q formatting field", name).
				WithDetail("Field requires %d characters, but only %d remain.", width, len(r.s)-r.pos).
				WithHint(`If your source string is not fixed-width, try using the "FM" modifier.`)
		}
		cp := r.s[r.pos : r.pos+width]
		end := 0
		if end < len(cp) && (cp[end] == '-' || cp[end] == '+') {
			end++
		}
		for end < len(cp) && cp[end] >= '0' && cp[end] <= '9' {
			end++
		}
		digits = cp[:end]
		if digits == "-" || digits == "+" {
			digits = ""
		}
		if len(digits) > 0 && len(digits) < width {
			return 0, 0, badFormat("invalid value %q for %q", cp, name).
				WithDetail("Field requires %d characters, but only %d could be parsed.", width, len(digits)).
				WithHint(`If your source string is not fixed-width, try using the "FM" modifier.`)
		}
		r.pos += len(digits)
	}
	if r.pos == start {
		shown := r.s[start:min(len(r.s), start+max(width, 1))]
		return 0, 0, badFormat("invalid value %q for %q", shown, name).WithDetail("Value must be an integer.")
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || v < math.MinInt32 || v > math.MaxInt32 {
		return 0, 0, pgerr.New(pgerr.DatetimeFieldOverflow, "value for %q in source string is out of range", name).
			WithDetail("Value must be in the range %d to %d.", math.MinInt32, math.MaxInt32)
	}
	return v, len(digits), nil
}

// set stores a field, refusing a second, different value.
func (r *fromCharReader) set(dest *int64, v int64) error {
	if *dest != 0 && *dest != v {
		return badFormat("conflicting values for %q field in formatting string", r.nodes[r.k].kw.name).
			WithDetail("This value contradicts a previous setting for the same field type.")
	}
	*dest = v
	return nil
}

// readWord matches one of words (case-insensitively) at the input,
// returning its index.
func (r *fromCharReader) readWord(words []string) (int, error) {
	rest := r.s[r.pos:]
	for i, w := range words {
		if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) {
			r.pos += len(w)
			return i, nil
		}
	}
	shown := rest
	if i := strings.IndexFunc(shown, func(c rune) bool { return c < 0x80 && isBlank(byte(c)) }); i >= 0 {
		shown = shown[:i]
	}
	return 0, badFormat("invalid value %q for %q", shown, r.nodes[r.k].kw.name).
		WithDetail("The given value did not match any of the allowed values for this field.")
}

// readFields reads the input by the template.
//
// std is the standard mode jsonpath's .datetime(template) reads in
// (DCH_from_char's std): a separator or space of the template must be
// that character of the input, and the input must hold every field and
// nothing after them but blanks.
func readFields(input string, nodes []fmtNode, std bool) (*fromChar, error) {
	out := &fromChar{}
	r := &fromCharReader{s: input, nodes: nodes}
	fx := false
	extraSkip := 0
	shortMonths := make([]string, 12)
	for i, m := range monthNames {
		shortMonths[i] = m[:3]
	}
	shortDays := make([]string, 7)
	for i, d := range dayNames {
		shortDays[i] = d[:3]
	}
	for r.k = 0; r.k < len(nodes) && r.pos < len(input); r.k++ {
		n := nodes[r.k]
		if !fx && (n.kw == nil || n.kw.id != "FX") && (n.kw != nil || r.k == 0) {
			for r.pos < len(input) && isBlank(input[r.pos]) {
				r.pos++
				extraSkip++
			}
		}
		if n.kw == nil {
			c := n.lit[0]
			switch {
			case std && !n.quoted:
				if input[r.pos] != c {
					return nil, badFormat("unmatched format separator \"%c\"", c)
				}
				r.pos++
			case len(n.lit) == 1 && (isSeparator(c) || isBlank(c)):
				if fx {
					r.pos += utf8Len(input[r.pos:])
				} else {
					extraSkip--
					if r.pos < len(input) && (isBlank(input[r.pos]) || isSeparator(input[r.pos])) {
						r.pos++
						extraSkip++
					}
				}
			case !fx && extraSkip > 0:
				extraSkip--
			default:
				r.pos += utf8Len(input[r.pos:])
			}
			continue
		}
		id := n.kw.id
		up := strings.ToUpper(id)
		if isoPatterns[up] {
			out.iso = true
		} else if gregorianPatterns[id] || gregorianPatterns[up] {
			out.gregorian = true
		}
		if out.iso && out.gregorian {
			return nil, badFormat("invalid combination of date conventions").
				WithHint("Do not mix Gregorian and ISO week date conventions in a formatting template.")
		}
		var err error
		var v int64
		var width int
		readInto := func(dest *int64, w int) {
			if err != nil {
				return
			}
			if v, width, err = r.readInt(w); err == nil {
				err = r.set(dest, v)
			}
		}
		switch up {
		case "FX":
			fx = true
		case "A.M.", "P.M.", "AM", "PM":
			var i int
			if i, err = r.readWord(markers(up, "AM", "PM")); err == nil {
				err = r.set(&out.pm, int64(i%2))
				out.clock12 = true
			}
		case "HH", "HH12":
			readInto(&out.hh, 2)
			out.clock12 = true
		case "HH24":
			readInto(&out.hh, 2)
		case "MI":
			readInto(&out.mi, 2)
		case "SS":
			readInto(&out.ss, 2)
		case "MS":
			readInto(&out.ms, 3)
			for i := width; err == nil && i < 3; i++ {
				out.ms *= 10 // "5" is 500 ms, "05" 50
			}
		case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "US":
			w := 6
			if up != "US" {
				w = int(up[2] - '0')
				out.ff = int64(w)
			}
			readInto(&out.us, w)
			if err == nil {
				for i := width; i < 6; i++ {
					out.us *= 10
				}
			}
		case "SSSS":
			readInto(&out.ssss, len(n.kw.name))
		case "TZ", "OF", "TZH":
			if up != "TZH" {
				// PostgreSQL 15's from_char reads no zone names or OF
				// offsets (to_char writes them; reading them came in 17).
				err = pgerr.New(pgerr.FeatureNotSupported, "formatting field \"%s\" is only supported in to_char", n.kw.name)
				break
			}
			switch {
			case r.pos < len(input) && (input[r.pos] == '+' || input[r.pos] == '-' || input[r.pos] == ' '):
				out.tzsign = 1
				if input[r.pos] == '-' {
					out.tzsign = -1
				}
				r.pos++
			case extraSkip > 0 && r.pos > 0 && input[r.pos-1] == '-':
				out.tzsign = -1
			default:
				out.tzsign = 1
			}
			readInto(&out.tzh, 2)
		case "TZM":
			if out.tzsign == 0 {
				out.tzsign = 1
			}
			readInto(&out.tzm, 2)
		case "A.D.", "B.C.", "AD", "BC":
			var i int
			if i, err = r.readWord(markers(up, "AD", "BC")); err == nil {
				err = r.set(&out.bc, int64(i%2))
			}
		case "MONTH", "MON":
			words := monthNames
			if up == "MON" {
				words = shortMonths
			}
			var i int
			if i, err = r.readWord(words); err == nil {
				err = r.set(&out.mm, int64(i+1))
			}
		case "MM":
			readInto(&out.mm, 2)
		case "DAY", "DY":
			words := dayNames
			if up == "DY" {
				words = shortDays
			}
			var i int
			if i, err = r.readWord(words); err == nil {
				err = r.set(&out.d, int64(i))
				out.d++
			}
		case "DDD", "IDDD":
			readInto(&out.ddd, 3)
		case "DD":
			readInto(&out.dd, 2)
		case "D":
			readInto(&out.d, 1)
		case "ID":
			readInto(&out.d, 1)
			if out.d++; out.d > 7 {
				out.d = 1 // Sunday is 1, as D counts
			}
		case "WW", "IW":
			readInto(&out.ww, 2)
		case "Q":
			var ignored int64
			readInto(&ignored, 1) // read but not used, as in PostgreSQL
		case "CC":
			readInto(&out.cc, 2)
		case "Y,YYY":
			rest := input[r.pos:]
			comma := strings.IndexByte(rest, ',')
			millennia, err1 := strconv.ParseInt(strings.TrimSpace(rest[:max(comma, 0)]), 10, 64)
			end := comma + 1
			for end < len(rest) && end < comma+4 && rest[end] >= '0' && rest[end] <= '9' {
				end++
			}
			years, err2 := strconv.ParseInt(rest[min(comma+1, len(rest)):end], 10, 64)
			if comma < 0 || err1 != nil || err2 != nil {
				err = badFormat(`invalid input string for "Y,YYY"`)
				break
			}
			r.pos += end
			err = r.set(&out.year, millennia*1000+years)
			out.yysz = 4
		case "YYYY", "IYYY", "YYY", "IYY", "YY", "IY", "Y", "I":
			w := map[string]int{"YYYY": 4, "IYYY": 4, "YYY": 3, "IYY": 3, "YY": 2, "IY": 2, "Y": 1, "I": 1}[up]
			readInto(&out.year, w)
			if err == nil && w < 4 && width < 4 {
				out.year = partialYear(out.year)
			}
			out.yysz = int64(w)
		case "RM":
			lower := []string{"xii", "xi", "x", "ix", "viii", "vii", "vi", "v", "iv", "iii", "ii", "i"}
			var i int
			if i, err = r.readWord(lower); err == nil {
				err = r.set(&out.mm, int64(12-i))
			}
		case "W":
			readInto(&out.w, 1)
		case "J":
			readInto(&out.j, 1)
		}
		if err != nil {
			return nil, err
		}
		if n.suffix&(sufTH|sufth) != 0 { // an ordinal suffix after the number
			r.pos = min(len(input), r.pos+2)
		}
		if !fx && !std { // std reads blanks only as the template's spaces or before a field
			extraSkip = 0
			for r.pos < len(input) && isBlank(input[r.pos]) {
				r.pos++
				extraSkip++
			}
		}
	}
	if std {
		if r.k < len(nodes) {
			return nil, badFormat("input string is too short for datetime format")
		}
		for r.pos < len(input) && isBlank(input[r.pos]) {
			r.pos++
		}
		if r.pos < len(input) {
			return nil, badFormat("trailing characters remain in input string after datetime format")
		}
	}
	return out, nil
}

// markers are the spellings a marker pattern reads, the first marker at
// even positions: with periods if the pattern has them.
func markers(pattern, first, second string) []string {
	var out []string
	for _, up := range []string{pattern, strings.ToLower(pattern)} {
		out = append(out, marker(up, first, second, false), marker(up, first, second, true))
	}
	return out
}

// partialYear is PostgreSQL's adjust_partial_year_to_2020.
func partialYear(y int64) int64 {
	switch {
	case y < 70:
		return y + 2000
	case y < 100:
		return y + 1900
	case y < 520:
		return y + 2000
	case y < 1000:
		return y + 1000
	}
	return y
}

// toTm turns the fields into a broken-down date and time, with PostgreSQL's
// rules and checks (do_to_timestamp). zoned reports a time zone field.
func (f *fromChar) toTm(input string) (c sqltypes.Civil, zoned bool, offset int64, err error) {
	c = sqltypes.Civil{Year: 0, Month: 1, Day: 1} // year 0 is 1 BC, as PostgreSQL leaves it
	overflow := func() error {
		return pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: %q", input)
	}
	if f.ssss != 0 {
		c.Hour, c.Minute, c.Second = f.ssss/3600, f.ssss%3600/60, f.ssss%60
	}
	if f.ss != 0 {
		c.Second = f.ss
	}
	if f.mi != 0 {
		c.Minute = f.mi
	}
	if f.hh != 0 {
		c.Hour = f.hh
	}
	if f.clock12 {
		if c.Hour < 1 || c.Hour > 12 {
			return c, false, 0, badFormat("hour \"%d\" is invalid for the 12-hour clock", c.Hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		if f.pm != 0 && c.Hour < 12 {
			c.Hour += 12
		} else if f.pm == 0 && c.Hour == 12 {
			c.Hour = 0
		}
	}
	dated := false
	switch {
	case f.year != 0:
		if f.cc != 0 && f.yysz <= 2 {
			cc := f.cc
			if f.bc != 0 {
				cc = -cc
			}
			c.Year = f.year % 100
			switch {
			case c.Year != 0 && cc >= 0:
				c.Year += (cc - 1) * 100
			case c.Year != 0:
				c.Year = (cc+1)*100 - c.Year + 1
			case cc >= 0:
				c.Year = cc * 100
			default:
				c.Year = cc*100 + 1
			}
		} else {
			c.Year = f.year
			if f.bc != 0 {
				c.Year = -c.Year
			}
			if c.Year < 0 {
				c.Year++
			}
		}
		dated = true
	case f.cc != 0:
		cc := f.cc
		if f.bc != 0 {
			cc = -cc
		}
		if cc >= 0 {
			c.Year = (cc-1)*100 + 1
		} else {
			c.Year = cc*100 + 1
		}
		dated = true
	}
	if f.j != 0 {
		c.Year, c.Month, c.Day = sqltypes.CivilFromDays(f.j - julianEpochDay)
		dated = true
	}
	if f.ww != 0 {
		if f.iso {
			jan4 := sqltypes.DaysFromCivil(c.Year, 1, 4)
			monday := jan4 - (dayOfWeek(jan4)+6)%7 + (f.ww-1)*7
			if f.d != 0 {
				monday += (f.d + 5) % 7 // Sunday (1) is the week's last day
			}
			c.Year, c.Month, c.Day = sqltypes.CivilFromDays(monday)
			dated = true
		} else {
			f.ddd = (f.ww-1)*7 + 1
		}
	}
	if f.w != 0 {
		f.dd = (f.w-1)*7 + 1
	}
	if f.dd != 0 {
		c.Day = f.dd
		dated = true
	}
	if f.mm != 0 {
		c.Month = f.mm
		dated = true
	}
	if f.ddd != 0 && (c.Month <= 1 || c.Day <= 1) {
		if c.Year == 0 && f.bc == 0 {
			return c, false, 0, badFormat("cannot calculate day of year without year information")
		}
		if f.iso {
			jan4 := sqltypes.DaysFromCivil(c.Year, 1, 4)
			c.Year, c.Month, c.Day = sqltypes.CivilFromDays(jan4 - (dayOfWeek(jan4)+6)%7 - 1 + f.ddd)
		} else {
			yd := f.ddd
			m := int64(1)
			for m < 12 && yd > sqltypes.DaysInMonth(c.Year, m) {
				yd -= sqltypes.DaysInMonth(c.Year, m)
				m++
			}
			if c.Month <= 1 {
				c.Month = m
			}
			if c.Day <= 1 {
				c.Day = yd
			}
		}
		dated = true
	}
	if f.ms != 0 {
		c.Micro += f.ms * 1000
	}
	c.Micro += f.us
	if dated && (c.Month < 1 || c.Month > 12 || c.Day < 1 || c.Day > sqltypes.DaysInMonth(c.Year, c.Month)) {
		return c, false, 0, overflow()
	}
	if c.Hour < 0 || c.Hour >= 24 || c.Minute < 0 || c.Minute >= 60 || c.Second < 0 || c.Second >= 60 || c.Micro < 0 || c.Micro >= 1e6 {
		return c, false, 0, overflow()
	}
	switch {
	case f.tzsign != 0:
		if f.tzh < 0 || f.tzh > 15 || f.tzm < 0 || f.tzm >= 60 {
			return c, false, 0, pgerr.New(pgerr.InvalidTimeZoneDisplacementValue, "time zone displacement out of range: %q", input)
		}
		offset = (f.tzh*60 + f.tzm) * 60
		if f.tzsign < 0 {
			offset = -offset
		}
		zoned = true
	}
	return c, zoned, offset, nil
}

// parseWithTemplate reads input by tmpl into broken-down time.
func parseWithTemplate(input, tmpl string) (sqltypes.Civil, bool, int64, int64, error) {
	f, err := readFields(input, parseTemplate(tmpl, dchKeywords, true), false)
	if err != nil {
		return sqltypes.Civil{}, false, 0, 0, err
	}
	c, zoned, off, err := f.toTm(input)
	return c, zoned, off, f.ff, err
}

// ToTimestamp is to_timestamp(text, template): the fields read from the
// input are wall-clock time in the session's zone unless the input gives
// an offset.
func ToTimestamp(input, tmpl string, loc *time.Location) (int64, error) {
	c, zoned, off, ff, err := parseWithTemplate(input, tmpl)
	if err != nil {
		return 0, err
	}
	local, ok := sqltypes.CivilTimestamp(c)
	if !ok {
		return 0, sqltypes.ErrTimestampOutOfRange()
	}
	us := local - off*1e6
	if !zoned {
		us = FromLocal(local, loc)
	}
	if ff != 0 {
		return RoundTimestamp(us, ff)
	}
	return us, nil
}

// ToDate is to_date(text, template).
func ToDate(input, tmpl string) (int64, error) {
	c, _, _, _, err := parseWithTemplate(input, tmpl)
	if err != nil {
		return 0, err
	}
	days := sqltypes.DaysFromCivil(c.Year, c.Month, c.Day)
	if days < sqltypes.MinDate || days > sqltypes.MaxDate {
		return 0, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: %q", input)
	}
	return days, nil
}
