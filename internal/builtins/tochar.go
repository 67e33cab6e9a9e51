package builtins

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// to_char for dates, times and intervals: PostgreSQL's template patterns
// (HH24, MI, YYYY, Month, Dy, IW, TZ, ...), their FM, TM, TH and th
// modifiers, double-quoted literal text, in the C locale.

// fmtKeyword is one template pattern: its spelling (matched with case
// where the table has both) and what it stands for.
type fmtKeyword struct {
	name string
	id   string // the pattern in its canonical spelling ("MONTH", "Month", "month" differ)
}

// dchKeywords are the date/time patterns, longest first among those that
// share a beginning, as PostgreSQL's search expects.
var dchKeywords = func() []fmtKeyword {
	upper := []string{"A.D.", "A.M.", "AD", "AM", "B.C.", "BC", "CC", "DAY", "DDD", "DD", "DY", "Day", "Dy", "D",
		"FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "FX", "HH24", "HH12", "HH", "IDDD", "ID", "IW", "IYYY", "IYY", "IY", "I",
		"J", "MI", "MM", "MONTH", "MON", "MS", "Month", "Mon", "OF", "P.M.", "PM", "Q", "RM", "SSSSS", "SSSS", "SS",
		"TZH", "TZM", "TZ", "US", "WW", "W", "Y,YYY", "YYYY", "YYY", "YY", "Y"}
	var out []fmtKeyword
	for _, k := range upper {
		id := k
		switch k {
		case "SSSSS":
			id = "SSSS"
		}
		out = append(out, fmtKeyword{k, id})
	}
	// The lower-case spellings: the numeric patterns mean the same; the
	// text ones print in lower case.
	for _, k := range upper {
		if k == "Day" || k == "Dy" || k == "Month" || k == "Mon" {
			continue
		}
		low := strings.ToLower(k)
		id := strings.ToUpper(k)
		switch id {
		case "DAY", "DY", "MONTH", "MON", "A.D.", "A.M.", "AD", "AM", "B.C.", "BC", "P.M.", "PM", "RM", "TZ":
			id = low
		case "SSSSS":
			id = "SSSS"
		}
		out = append(out, fmtKeyword{low, id})
	}
	return out
}()

// numKeywords are the number patterns.
var numKeywords = func() []fmtKeyword {
	var out []fmtKeyword
	for _, k := range []string{",", ".", "0", "9", "B", "C", "D", "EEEE", "FM", "G", "L", "MI", "PL", "PR", "RN", "SG", "SP", "S", "TH", "V"} {
		out = append(out, fmtKeyword{k, k})
	}
	for _, k := range []string{"b", "c", "d", "eeee", "fm", "g", "l", "mi", "pl", "pr", "rn", "sg", "sp", "s", "th", "v"} {
		id := strings.ToUpper(k)
		if k == "rn" || k == "th" {
			id = k // lower-case roman numerals and ordinals
		}
		out = append(out, fmtKeyword{k, id})
	}
	return out
}()

// Modifiers of a date/time pattern.
const (
	sufFM = 1 << iota // fill mode: no padding
	sufTH             // upper-case ordinal suffix
	sufth             // lower-case ordinal suffix
	sufSP             // spell mode (accepted, no effect, as in PostgreSQL)
	sufTM             // translation mode (the C locale's names)
)

// fmtNode is a parsed template element: a pattern or literal text.
type fmtNode struct {
	kw     *fmtKeyword
	lit    string
	suffix int
	quoted bool // lit came from "..." (text, not a separator, to jsonpath's strict reading)
}

// parseTemplate splits a template into patterns and literal text as
// PostgreSQL's parse_format does: at each position a modifier prefix
// (date/time templates only), then the first pattern of the table that
// matches, then a suffix; otherwise one literal character, with "..."
// quoting text and a backslash quoting a double quote.
func parseTemplate(tmpl string, kws []fmtKeyword, dch bool) []fmtNode {
	var out []fmtNode
	for i := 0; i < len(tmpl); {
		suffix := 0
		if dch {
			switch {
			case strings.HasPrefix(tmpl[i:], "FM"), strings.HasPrefix(tmpl[i:], "fm"):
				suffix, i = sufFM, i+2
			case strings.HasPrefix(tmpl[i:], "TM"), strings.HasPrefix(tmpl[i:], "tm"):
				suffix, i = sufTM, i+2
			}
			if i >= len(tmpl) {
				break
			}
		}
		if kw := matchKeyword(tmpl[i:], kws); kw != nil {
			i += len(kw.name)
			if dch && i < len(tmpl) {
				for _, s := range []struct {
					name string
					bit  int
				}{{"TH", sufTH}, {"th", sufth}, {"SP", sufSP}} {
					if strings.HasPrefix(tmpl[i:], s.name) {
						suffix |= s.bit
						i += 2
						break
					}
				}
			}
			out = append(out, fmtNode{kw: kw, suffix: suffix})
			continue
		}
		switch c := tmpl[i]; {
		case c == '"':
			i++
			for i < len(tmpl) && tmpl[i] != '"' {
				if tmpl[i] == '\\' && i+1 < len(tmpl) {
					i++
				}
				n := utf8Len(tmpl[i:])
				out = append(out, fmtNode{lit: tmpl[i : i+n], quoted: true})
				i += n
			}
			i++ // the closing quote
		default:
			if c == '\\' && i+1 < len(tmpl) && tmpl[i+1] == '"' {
				i++
			}
			n := utf8Len(tmpl[i:])
			out = append(out, fmtNode{lit: tmpl[i : i+n]})
			i += n
		}
	}
	return out
}

func utf8Len(s string) int {
	for n := 1; n < len(s) && n < 4; n++ {
		if s[n]&0xc0 != 0x80 {
			return n
		}
	}
	return min(len(s), 4)
}

// matchKeyword is PostgreSQL's index_seq_search: the table's first
// pattern with the same first character that s starts with, trying only
// the run of patterns that begins with that character.
func matchKeyword(s string, kws []fmtKeyword) *fmtKeyword {
	if s == "" {
		return nil
	}
	for i := range kws {
		if kws[i].name[0] != s[0] {
			continue
		}
		for j := i; j < len(kws) && kws[j].name[0] == s[0]; j++ {
			if strings.HasPrefix(s, kws[j].name) {
				return &kws[j]
			}
		}
		return nil
	}
	return nil
}

// dtFields are the calendar fields a date/time template prints: a
// timestamp broken down in its zone, or an interval's fields.
type dtFields struct {
	year, mon, mday int64 // astronomical year for timestamps; the interval's years
	hour            int64
	min, sec        int64
	usec            int64
	wday, yday      int64
	gmtoff          int64  // seconds east of UTC
	zone            string // zone abbreviation ("" for timestamp without time zone)
	interval        bool
}

func timestampFields(local int64) dtFields {
	c := sqltypes.TimestampCivil(local)
	days := sqltypes.TimestampToDate(local)
	return dtFields{year: c.Year, mon: c.Month, mday: c.Day, hour: c.Hour, min: c.Minute, sec: c.Second, usec: c.Micro,
		wday: dayOfWeek(days), yday: days - sqltypes.DaysFromCivil(c.Year, 1, 1) + 1}
}

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	dayNames   = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	romanMonth = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}
)

// ordinal is PostgreSQL's get_th: st, nd, rd or th for the number's last
// digit (th for the teens).
func ordinal(num string, upper bool) string {
	suf := "th"
	if n := len(num); n > 0 && (n < 2 || num[n-2] != '1') {
		switch num[n-1] {
		case '1':
			suf = "st"
		case '2':
			suf = "nd"
		case '3':
			suf = "rd"
		}
	}
	if upper {
		return strings.ToUpper(suf)
	}
	return suf
}

// padInt is C's %0*d: v zero-padded to width characters (a minus sign
// counts), or unpadded in fill mode.
func padInt(v int64, width int, fm bool) string {
	if fm {
		return strconv.FormatInt(v, 10)
	}
	return fmt.Sprintf("%0*d", width, v)
}

// signedWidth is PostgreSQL's width for fields that may be negative in an
// interval: one more when the value is.
func signedWidth(v int64, width int) int {
	if v < 0 {
		return width + 1
	}
	return width
}

// padText is C's %-9s, unpadded in fill mode.
func padText(s string, width int, fm bool) string {
	if fm || len(s) >= width {
		return s
	}
	return s + strings.Repeat(" ", width-len(s))
}

// adjustYear shows year 0 as 1 BC and so on; interval years stay.
func (f *dtFields) adjustYear(y int64) int64 {
	if f.interval || y > 0 {
		return y
	}
	return 1 - y
}

func errIntervalFormat() error {
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid format specification for an interval value").
		WithHint("Intervals are not tied to specific calendar dates.")
}

// isoYearWeekDay returns the ISO year and the ISO day of the year (1 on
// the Monday of week 1) of a date.
func isoYearDay(y, m, d int64) (int64, int64) {
	days := sqltypes.DaysFromCivil(y, m, d)
	iy, _ := isoWeek(days)
	jan4 := sqltypes.DaysFromCivil(iy, 1, 4)
	return iy, days - (jan4 - (dayOfWeek(jan4)+6)%7) + 1
}

// formatDateTime is to_char over broken-down date/time fields.
func formatDateTime(f dtFields, tmpl string) (string, error) {
	var b strings.Builder
	for _, n := range parseTemplate(tmpl, dchKeywords, true) {
		if n.kw == nil {
			b.WriteString(n.lit)
			continue
		}
		fm := n.suffix&sufFM != 0
		num := "" // a numeric field, which may take an ordinal suffix
		switch id := n.kw.id; id {
		case "A.M.", "P.M.", "AM", "PM", "a.m.", "p.m.", "am", "pm":
			b.WriteString(marker(id, "AM", "PM", f.hour%24 >= 12))
		case "HH", "HH12":
			h := f.hour % 12
			if h == 0 {
				h = 12
			}
			num = padInt(h, signedWidth(f.hour, 2), fm)
		case "HH24":
			num = padInt(f.hour, signedWidth(f.hour, 2), fm)
		case "MI":
			num = padInt(f.min, signedWidth(f.min, 2), fm)
		case "SS":
			num = padInt(f.sec, signedWidth(f.sec, 2), fm)
		case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "MS", "US":
			digits := map[string]int{"FF1": 1, "FF2": 2, "FF3": 3, "FF4": 4, "FF5": 5, "FF6": 6, "MS": 3, "US": 6}[id]
			v := f.usec
			for i := digits; i < 6; i++ {
				v /= 10
			}
			num = fmt.Sprintf("%0*d", digits, v)
		case "SSSS":
			num = strconv.FormatInt(f.hour*3600+f.min*60+f.sec, 10)
		case "TZ", "tz", "TZH", "TZM", "OF":
			if f.interval {
				return "", errIntervalFormat()
			}
			off := f.gmtoff
			sign := "+"
			if off < 0 {
				sign, off = "-", -off
			}
			switch id {
			case "TZ":
				b.WriteString(f.zone)
			case "tz":
				b.WriteString(strings.ToLower(f.zone))
			case "TZH":
				b.WriteString(sign + fmt.Sprintf("%02d", off/3600))
			case "TZM":
				b.WriteString(fmt.Sprintf("%02d", off%3600/60))
			case "OF":
				b.WriteString(sign + padInt(off/3600, 2, fm))
				if off%3600 != 0 {
					b.WriteString(fmt.Sprintf(":%02d", off%3600/60))
				}
			}
		case "A.D.", "B.C.", "AD", "BC", "a.d.", "b.c.", "ad", "bc":
			if f.interval {
				return "", errIntervalFormat()
			}
			b.WriteString(marker(id, "AD", "BC", f.year <= 0))
		case "MONTH", "Month", "month", "MON", "Mon", "mon", "DAY", "Day", "day", "DY", "Dy", "dy":
			if f.interval {
				return "", errIntervalFormat()
			}
			var s string
			switch strings.ToUpper(id) {
			case "MONTH", "MON":
				if f.mon < 1 || f.mon > 12 {
					continue
				}
				s = monthNames[f.mon-1]
			default:
				s = dayNames[f.wday]
			}
			if strings.ToUpper(id) == "MON" || strings.ToUpper(id) == "DY" {
				s = s[:3]
			}
			switch {
			case id == strings.ToUpper(id):
				s = strings.ToUpper(s)
			case id == strings.ToLower(id):
				s = strings.ToLower(s)
			}
			if strings.ToUpper(id) == "MONTH" || strings.ToUpper(id) == "DAY" {
				s = padText(s, 9, fm || n.suffix&sufTM != 0)
			}
			b.WriteString(s)
		case "MM":
			num = padInt(f.mon, signedWidth(f.mon, 2), fm)
		case "DDD":
			num = padInt(f.yday, 3, fm)
		case "IDDD":
			_, yd := isoYearDay(f.year, f.mon, f.mday)
			num = padInt(yd, 3, fm)
		case "DD":
			num = padInt(f.mday, 2, fm)
		case "D", "ID":
			if f.interval {
				return "", errIntervalFormat()
			}
			d := f.wday + 1
			if id == "ID" {
				d = f.wday
				if d == 0 {
					d = 7
				}
			}
			num = strconv.FormatInt(d, 10)
		case "WW":
			num = padInt((f.yday-1)/7+1, 2, fm)
		case "IW":
			_, w := isoWeek(sqltypes.DaysFromCivil(f.year, f.mon, f.mday))
			num = padInt(w, 2, fm)
		case "Q":
			if f.mon == 0 {
				continue
			}
			num = strconv.FormatInt((f.mon-1)/3+1, 10)
		case "CC":
			var c int64
			switch {
			case f.interval:
				c = f.year / 100
			case f.year > 0:
				c = (f.year-1)/100 + 1
			default:
				c = f.year/100 - 1
			}
			if c <= 99 && c >= -99 {
				num = padInt(c, signedWidth(c, 2), fm)
			} else {
				num = strconv.FormatInt(c, 10)
			}
		case "Y,YYY":
			y := f.adjustYear(f.year)
			num = fmt.Sprintf("%d,%03d", y/1000, y-y/1000*1000)
		case "YYYY", "IYYY", "YYY", "IYY", "YY", "IY", "Y", "I":
			y := f.year
			if id[0] == 'I' {
				y, _ = isoYearDay(f.year, f.mon, f.mday)
			}
			y = f.adjustYear(y)
			switch width := map[string]int{"YYYY": 4, "IYYY": 4, "YYY": 3, "IYY": 3, "YY": 2, "IY": 2, "Y": 1, "I": 1}[id]; width {
			case 4:
				num = padInt(y, signedWidth(y, 4), fm)
			case 1:
				num = strconv.FormatInt(y%10, 10)
			default:
				mod := int64(1000)
				if width == 2 {
					mod = 100
				}
				num = padInt(y%mod, signedWidth(y, width), fm)
			}
		case "RM", "rm":
			if f.mon == 0 && f.year == 0 {
				continue
			}
			var s string
			switch {
			case f.mon == 0 && f.year >= 0:
				s = romanMonth[11] // whole years of an interval
			case f.mon == 0:
				s = romanMonth[0]
			case f.mon < 0:
				s = romanMonth[12+f.mon]
			default:
				s = romanMonth[f.mon-1]
			}
			if id == "rm" {
				s = strings.ToLower(s)
			}
			b.WriteString(padText(s, 4, fm))
		case "W":
			num = strconv.FormatInt((f.mday-1)/7+1, 10)
		case "J":
			num = strconv.FormatInt(sqltypes.DaysFromCivil(f.year, f.mon, f.mday)+julianEpochDay, 10)
		case "FX":
		}
		if num != "" {
			b.WriteString(num)
			if n.suffix&(sufTH|sufth) != 0 {
				b.WriteString(ordinal(num, n.suffix&sufTH != 0))
			}
		}
	}
	return b.String(), nil
}

// marker spells AM/PM or AD/BC (second when useSecond) the way the
// pattern id is written: with periods (A.M.) and in its case.
func marker(id, first, second string, useSecond bool) string {
	s := first
	if useSecond {
		s = second
	}
	if strings.Contains(id, ".") {
		s = s[:1] + "." + s[1:] + "."
	}
	if id[0] >= 'a' {
		s = strings.ToLower(s)
	}
	return s
}

// zoneAbbrev is the abbreviation a zone's clocks show at an instant, as
// PostgreSQL's to_char TZ prints it.
func zoneAbbrev(us int64, loc *time.Location) string {
	return sqltypes.ZoneAbbrev(us, loc)
}

// TimestampToChar is to_char(timestamp, template) (loc nil) and
// to_char(timestamptz, template), shown in loc. Infinite timestamps give
// NULL, as in PostgreSQL.
func TimestampToChar(us int64, loc *time.Location, tmpl string) (sqltypes.Value, error) {
	if !sqltypes.IsFiniteTimestamp(us) {
		return sqltypes.Null, nil
	}
	local, zone, off := us, "", int64(0)
	if loc != nil {
		off = ZoneOffset(us, loc)
		local = us + off*1e6
		zone = zoneAbbrev(us, loc)
	}
	f := timestampFields(local)
	f.gmtoff, f.zone = off, zone
	s, err := formatDateTime(f, tmpl)
	return sqltypes.NewText(s), err
}

// IntervalToChar is to_char(interval, template).
func IntervalToChar(iv sqltypes.IntervalValue, tmpl string) (sqltypes.Value, error) {
	t := toIntervalTm(iv)
	f := dtFields{year: t.year, mon: t.mon, mday: t.mday, hour: t.hour, min: t.min, sec: t.sec, usec: t.usec, interval: true}
	f.yday = (t.year*12+t.mon)*30 + t.mday // the total span in days, roughly, as PostgreSQL counts it
	s, err := formatDateTime(f, tmpl)
	return sqltypes.NewText(s), err
}
