package sqltypes

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Date/time input as PostgreSQL reads it (its ParseDateTime and
// DecodeDateTime): the text is split into typed fields, and each field is
// decoded by its type and by which parts of the date and time the fields
// before it have already set, so that the same forms are accepted and
// refused: ISO 8601 and its run-together forms (19970210 173201,
// 19970210T173201), month names in any position (Feb-10-1997, 10 Feb
// 1997, January 8, 1999), day of year (1997.041, 2024-001), Julian days
// (J2451187, J2451187.5), weekday names, AM/PM, AD/BC, time zone offsets,
// abbreviations (PST, CEST, MSK: timezone_abbreviations' Default set) and
// names (America/New_York, PST8PDT, POSIX forms such as GMT+8), the DST
// modifier, and the special words. Ambiguous numeric dates (04/03/2024)
// are read in DateStyle's field order (MDY, DMY or YMD).

// Field types of the split input (PostgreSQL's DTK_ field codes).
const (
	fieldNumber  = iota // digits, maybe with one embedded '.'
	fieldString         // a word
	fieldDate           // a date with - / . delimiters, or a zone name
	fieldTime           // h:m[:s[.f]]
	fieldZone           // a signed offset
	fieldSpecial        // a signed word: -infinity
)

type dtField struct {
	kind int
	s    string // lower-cased
}

// Bits of the field mask: which parts the fields so far have set.
const (
	fmYear = 1 << iota
	fmMonth
	fmDay
	fmHour
	fmMinute
	fmSecond
	fmSubsec // fractions of a second: a labelled whole second (s15) lacks it
	fmZone
	fmDOY
	fmDOW
	fmAMPM
	fmADBC
	fmReserved
	fmDSTMod
	fmDate = fmYear | fmMonth | fmDay
	fmTime = fmHour | fmMinute | fmSecond | fmSubsec
)

// Labels a word gives the next numeric field (PostgreSQL's ptype).
const (
	labelNone = iota
	labelYear
	labelMonth
	labelDay
	labelHour
	labelMinute
	labelSecond
	labelJulian
	labelISOTime // 't' before an ISO time
)

// tzAbbrev is one time zone abbreviation (tzabbrev_gen.go).
type tzAbbrev struct {
	offset int32 // seconds east of UTC
	dst    bool
	zone   string // dynamic: the offset of this zone at the time named
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
func isAlphaByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// splitDateTime splits input into fields as PostgreSQL's ParseDateTime,
// appending them to out (a caller's buffer). A field whose text is the
// input's own (digits and punctuation, lower-case words) is a substring
// of s, and a field is built in scratch memory on the stack: a timestamp
// parameter's text is parsed at every execution of a statement.
func splitDateTime(s string, out []dtField) ([]dtField, bool) {
	var scratch [64]byte
	i := 0
	for i < len(s) {
		c := s[i]
		b := scratch[:0]
		start := i
		kind := -1
		switch {
		case isDigitByte(c):
			for i < len(s) && isDigitByte(s[i]) {
				b = append(b, s[i])
				i++
			}
			switch {
			case i < len(s) && s[i] == ':':
				kind = fieldTime
				for i < len(s) && (isDigitByte(s[i]) || s[i] == ':' || s[i] == '.') {
					b = append(b, s[i])
					i++
				}
			case i < len(s) && (s[i] == '-' || s[i] == '/' || s[i] == '.'):
				delim := s[i]
				b = append(b, delim)
				i++
				if i < len(s) && isDigitByte(s[i]) {
					kind = fieldDate
					if delim == '.' {
						kind = fieldNumber
					}
					for i < len(s) && isDigitByte(s[i]) {
						b = append(b, s[i])
						i++
					}
					if i < len(s) && s[i] == delim {
						kind = fieldDate
						for i < len(s) && (isDigitByte(s[i]) || s[i] == delim) {
							b = append(b, s[i])
							i++
						}
					}
				} else {
					kind = fieldDate
					for i < len(s) && (isAlphaByte(s[i]) || isDigitByte(s[i]) || s[i] == delim) {
						b = append(b, lowerByte(s[i]))
						i++
					}
				}
			default:
				kind = fieldNumber
			}
		case c == '.':
			b = append(b, c)
			i++
			for i < len(s) && isDigitByte(s[i]) {
				b = append(b, s[i])
				i++
			}
			kind = fieldNumber
		case isAlphaByte(c):
			kind = fieldString
			for i < len(s) && isAlphaByte(s[i]) {
				b = append(b, lowerByte(s[i]))
				i++
			}
			// A date with a text month (jan-08-1999), or a zone name with
			// punctuation (america/new_york, pst8pdt, gmt+8); a keyword
			// followed by a digit (j2451187, t040506) stays a word.
			isDate := false
			if i < len(s) {
				switch n := s[i]; {
				case n == '-' || n == '/' || n == '.':
					isDate = true
				case n == '+' || isDigitByte(n):
					_, known := dtKeywords[string(b)]
					isDate = !known
				}
			}
			if isDate {
				kind = fieldDate
				for i < len(s) && (s[i] == '+' || s[i] == '-' || s[i] == '/' || s[i] == '_' || s[i] == '.' || s[i] == ':' ||
					isAlphaByte(s[i]) || isDigitByte(s[i])) {
					b = append(b, lowerByte(s[i]))
					i++
				}
			}
		case isPGSpace(c):
			i++
			continue
		case c == '+' || c == '-':
			b = append(b, c)
			i++
			for i < len(s) && isPGSpace(s[i]) {
				i++
			}
			switch {
			case i < len(s) && isDigitByte(s[i]):
				kind = fieldZone
				for i < len(s) && (isDigitByte(s[i]) || s[i] == ':' || s[i] == '.' || s[i] == '-') {
					b = append(b, s[i])
					i++
				}
			case i < len(s) && isAlphaByte(s[i]):
				kind = fieldSpecial
				for i < len(s) && isAlphaByte(s[i]) {
					b = append(b, lowerByte(s[i]))
					i++
				}
			default:
				return nil, false
			}
		case c < 0x80 && isPunct(c):
			i++ // other punctuation only delimits
			continue
		default:
			return nil, false
		}
		f := s[start:i]
		if string(b) != f {
			f = string(b)
		}
		out = append(out, dtField{kind: kind, s: f})
	}
	return out, true
}

// dtFieldsBuf is room for the fields of most inputs (splitDateTime).
type dtFieldsBuf [8]dtField

func isPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !isDigitByte(c) && !isAlphaByte(c)
}

// Kinds of keyword (PostgreSQL's datetktbl token types).
const (
	kwReserved = iota // epoch, infinity, now, today, allballs, ...
	kwMonth
	kwDOW
	kwAMPM
	kwADBC
	kwUnit
	kwISOTime
	kwIgnore
	kwDSTMod
)

type dtKeyword struct {
	kind int
	val  int
}

// dtKeywords are the words of date/time input besides zone
// abbreviations.
var dtKeywords = func() map[string]dtKeyword {
	m := map[string]dtKeyword{
		"-infinity": {kwReserved, 0}, "infinity": {kwReserved, 0}, "epoch": {kwReserved, 0}, "now": {kwReserved, 0},
		"today": {kwReserved, 0}, "tomorrow": {kwReserved, 0}, "yesterday": {kwReserved, 0}, "allballs": {kwReserved, 0},
		"am": {kwAMPM, 0}, "pm": {kwAMPM, 1}, "ad": {kwADBC, 0}, "bc": {kwADBC, 1},
		"at": {kwIgnore, 0}, "on": {kwIgnore, 0}, "t": {kwISOTime, labelISOTime}, "dst": {kwDSTMod, 3600},
		"y": {kwUnit, labelYear}, "m": {kwUnit, labelMonth}, "d": {kwUnit, labelDay}, "h": {kwUnit, labelHour},
		"mm": {kwUnit, labelMinute}, "s": {kwUnit, labelSecond}, "j": {kwUnit, labelJulian}, "jd": {kwUnit, labelJulian},
		"julian": {kwUnit, labelJulian},
		// Units that only EXTRACT reads: a label PostgreSQL refuses here.
		"dow": {kwUnit, -1}, "doy": {kwUnit, -1}, "isodow": {kwUnit, -1}, "isoyear": {kwUnit, -1},
	}
	months := [][]string{{"jan", "january"}, {"feb", "february"}, {"mar", "march"}, {"apr", "april"}, {"may"},
		{"jun", "june"}, {"jul", "july"}, {"aug", "august"}, {"sep", "sept", "september"}, {"oct", "october"},
		{"nov", "november"}, {"dec", "december"}}
	for i, names := range months {
		for _, n := range names {
			m[n] = dtKeyword{kwMonth, i + 1}
		}
	}
	days := [][]string{{"sun", "sunday"}, {"mon", "monday"}, {"tue", "tues", "tuesday"}, {"wed", "wednesday", "weds"},
		{"thu", "thur", "thurs", "thursday"}, {"fri", "friday"}, {"sat", "saturday"}}
	for i, names := range days {
		for _, n := range names {
			m[n] = dtKeyword{kwDOW, i}
		}
	}
	return m
}()

// dtResult is what decodeDateTime found.
type dtResult struct {
	special string // "infinity", "-infinity", "epoch", "now", ...
	tm      tmParts
	hasDate bool
	// The zone the input names: a fixed offset (hasZone, zoneSecs east of
	// UTC), or a zone whose offset at the wall-clock time applies (zoneLoc).
	hasZone  bool
	zoneSecs int64
	zoneLoc  *time.Location
	// timeOnly: a complete time and no date (PostgreSQL's return of 1 from
	// DecodeDateTime).
	timeOnly bool
	// unknownZone is the zone name that could not be found (dtUnknownZone).
	unknownZone string
}

// dtErr kinds: bad format (22007), field out of range (22008), time zone
// displacement out of range (22009), an unknown zone name (22023).
type dtErr int

const (
	dtOK dtErr = iota
	dtBadFormat
	dtFieldOverflow
	dtMDFieldOverflow // month or day out of range: PostgreSQL hints at DateStyle
	dtTZOverflow
	dtUnknownZone
)

// dtDecoder holds the state of one decodeDateTime.
type dtDecoder struct {
	r             dtResult
	fmask         int
	is2digits     bool
	haveTextMonth bool
	bc            bool
	julian        bool
	mer           int // -1 none, 0 am, 1 pm
	yday          int64
	abbrevZone    *time.Location
	abbrev        string
	// timeOnly decodes time and timetz input (PostgreSQL's
	// DecodeTimeOnly): a date is optional, and its zone resolves against
	// today when the input has none.
	timeOnly bool
	loc      *time.Location // the session's zone, for 'now'
	// order is DateStyle's field order, which places the numbers of an
	// ambiguous date (decodeNumber).
	order DateOrder
}

// decodeDateTime decodes date/time input as PostgreSQL's DecodeDateTime
// in a session whose TimeZone is loc (nil: UTC), where today is.
func decodeDateTime(s string, order DateOrder, loc *time.Location) (dtResult, dtErr) {
	var buf dtFieldsBuf
	fields, ok := splitDateTime(s, buf[:0])
	if !ok || len(fields) == 0 {
		return dtResult{}, dtBadFormat
	}
	d := &dtDecoder{mer: -1, order: order, loc: loc}
	e := d.decode(fields)
	return d.r, e
}

func (d *dtDecoder) decode(fields []dtField) dtErr {
	tm := &d.r.tm
	unit := labelNone
	for i, f := range fields {
		var tmask int
		switch f.kind {
		case fieldDate:
			if d.timeOnly {
				var e dtErr
				if tmask, e = d.timeOnlyDate(fields, i, f); e != dtOK {
					return e
				}
				break
			}
			switch {
			case unit == labelJulian:
				// A Julian day written after a J with a delimiter: J-2451187.
				return dtBadFormat
			case d.fmask&fmDate == fmDate || unit != labelNone:
				// A date already: a zone name (america/new_york) or a
				// run-together time with a zone (hhmmss-zz).
				if isDigitByte(f.s[0]) || unit != labelNone {
					if unit != labelNone && unit != labelISOTime {
						return dtBadFormat
					}
					unit = labelNone
					if d.fmask&fmTime == fmTime {
						return dtBadFormat
					}
					k := strings.IndexByte(f.s, '-')
					if k < 0 {
						return dtBadFormat
					}
					secs, e := decodeZoneOffset(f.s[k:])
					if e != dtOK {
						return e
					}
					var m int
					if m, e = d.numberField(f.s[:k], d.fmask); e != dtOK {
						return e
					}
					d.r.hasZone, d.r.zoneSecs = true, secs
					tmask = m | fmZone
				} else {
					loc, ok := loadZone(f.s)
					if !ok {
						d.r.unknownZone = f.s
						return dtUnknownZone
					}
					d.r.zoneLoc = loc
					tmask = fmZone
				}
			default:
				var e dtErr
				if tmask, e = d.decodeDate(f.s); e != dtOK {
					return e
				}
			}
		case fieldTime:
			if unit != labelNone {
				if unit != labelISOTime {
					return dtBadFormat
				}
				unit = labelNone
			}
			if e := decodeClock(f.s, tm); e != dtOK {
				return e
			}
			if timeOverflows(tm) {
				return dtFieldOverflow
			}
			tmask = fmTime
		case fieldZone:
			secs, e := decodeZoneOffset(f.s)
			if e != dtOK {
				return e
			}
			d.r.hasZone, d.r.zoneSecs = true, secs
			tmask = fmZone
		case fieldNumber:
			var e dtErr
			switch {
			case unit != labelNone:
				tmask, e = d.labelledNumber(f.s, unit)
				unit = labelNone
			case d.timeOnly:
				tmask, e = d.timeOnlyNumber(fields, i, f.s)
			default:
				tmask, e = d.plainNumber(f.s)
			}
			if e != dtOK {
				return e
			}
		case fieldString, fieldSpecial:
			if ab, ok := tzAbbrevs[f.s]; ok {
				tmask = fmZone
				switch {
				case ab.zone != "":
					loc, ok := loadZone(ab.zone)
					if !ok {
						return dtBadFormat
					}
					d.abbrevZone, d.abbrev = loc, f.s
				default:
					d.r.hasZone, d.r.zoneSecs = true, int64(ab.offset)
				}
				break
			}
			kw, ok := dtKeywords[f.s]
			if !ok {
				// An all-letter zone name (UTC, EST5EDT is a date field).
				loc, ok := loadZone(f.s)
				if !ok {
					return dtBadFormat
				}
				d.r.zoneLoc = loc
				tmask = fmZone
				break
			}
			switch kw.kind {
			case kwIgnore:
				continue
			case kwReserved:
				tmask = fmReserved
				switch f.s {
				case "now":
					if d.timeOnly {
						tmask = fmTime
						local := InZone(time.Now(), d.loc)
						tm.hour, tm.min, tm.sec = int64(local.Hour()), int64(local.Minute()), int64(local.Second())
						tm.usec = int64(local.Nanosecond() / 1000)
						break
					}
					tmask = fmDate | fmTime | fmZone
					d.r.special = "now"
					// The fields of now, as PostgreSQL's DecodeDateTime
					// fills them, so the date checks pass (the caller
					// takes the instant itself).
					loc := d.loc
					if loc == nil {
						loc = time.UTC
					}
					local := InZone(time.Now(), loc)
					tm.year, tm.mon, tm.mday = int64(local.Year()), int64(local.Month()), int64(local.Day())
					tm.hour, tm.min, tm.sec = int64(local.Hour()), int64(local.Minute()), int64(local.Second())
				case "today", "tomorrow", "yesterday":
					if d.timeOnly {
						return dtBadFormat
					}
					tmask = fmDate
					day := localDay(time.Now(), d.loc)
					if f.s == "tomorrow" {
						day++
					} else if f.s == "yesterday" {
						day--
					}
					tm.year, tm.mon, tm.mday = civilFromDays(day)
					d.julian = true // the year is astronomical already
				case "allballs":
					tmask = fmTime | fmZone
					tm.hour, tm.min, tm.sec, tm.usec = 0, 0, 0, 0
					d.r.hasZone, d.r.zoneSecs = true, 0
				default:
					if d.timeOnly {
						return dtBadFormat
					}
					d.r.special = f.s
				}
			case kwMonth:
				// A numeric month already and no day: it was the day.
				tmask = fmMonth
				if d.fmask&fmMonth != 0 && !d.haveTextMonth && d.fmask&fmDay == 0 && tm.mon >= 1 && tm.mon <= 31 {
					tm.mday = tm.mon
					tmask = fmDay
				}
				d.haveTextMonth = true
				tm.mon = int64(kw.val)
			case kwDSTMod:
				if !d.r.hasZone {
					return dtBadFormat
				}
				d.r.zoneSecs += int64(kw.val)
				tmask = fmDSTMod
			case kwAMPM:
				d.mer = kw.val
				tmask = fmAMPM
			case kwADBC:
				d.bc = kw.val == 1
				tmask = fmADBC
			case kwDOW:
				tmask = fmDOW
			case kwUnit:
				if unit != labelNone || kw.val < 0 {
					return dtBadFormat
				}
				unit = kw.val
			case kwISOTime:
				// 't': the next field is a time, after a complete date
				// (any date, in time input).
				if !d.timeOnly && d.fmask&fmDate != fmDate || i+1 >= len(fields) {
					return dtBadFormat
				}
				if k := fields[i+1].kind; k != fieldNumber && k != fieldTime && k != fieldDate {
					return dtBadFormat
				}
				unit = labelISOTime
			}
		}
		if tmask&d.fmask != 0 {
			return dtBadFormat
		}
		d.fmask |= tmask
	}
	if unit != labelNone {
		return dtBadFormat
	}
	if d.timeOnly {
		return d.finishTimeOnly()
	}
	if e := d.finishFields(); e != dtOK {
		return e
	}
	if d.r.special != "" {
		return dtOK
	}
	if d.fmask&fmDate != fmDate {
		if d.fmask&fmTime == fmTime {
			d.r.timeOnly = true
		}
		return dtBadFormat
	}
	d.r.hasDate = true
	if d.abbrevZone != nil {
		if d.fmask&fmDSTMod != 0 {
			return dtBadFormat
		}
		local, ok := tmToTimestamp(*tm)
		if !ok {
			return dtFieldOverflow
		}
		d.r.hasZone, d.r.zoneSecs = true, abbrevOffset(local, d.abbrev, d.abbrevZone)
	}
	if d.r.zoneLoc != nil && d.fmask&fmDSTMod != 0 {
		return dtBadFormat
	}
	return dtOK
}

// timeOnlyDate decodes a date field of time input: a date when it leads
// and a time or a zone name follows, else a run-together time with a
// zone (040506-08) or a zone name.
func (d *dtDecoder) timeOnlyDate(fields []dtField, i int, f dtField) (int, dtErr) {
	if i == 0 && len(fields) >= 2 && (fields[len(fields)-1].kind == fieldDate || fields[1].kind == fieldTime) {
		return d.decodeDate(f.s)
	}
	if !isDigitByte(f.s[0]) {
		loc, ok := loadZone(f.s)
		if !ok {
			d.r.unknownZone = f.s
			return 0, dtUnknownZone
		}
		d.r.zoneLoc = loc
		return fmZone, dtOK
	}
	if d.fmask&fmTime == fmTime {
		return 0, dtBadFormat
	}
	k := strings.IndexByte(f.s, '-')
	if k < 0 {
		return 0, dtBadFormat
	}
	secs, e := decodeZoneOffset(f.s[k:])
	if e != dtOK {
		return 0, e
	}
	m, e := d.numberField(f.s[:k], d.fmask|fmDate)
	if e != dtOK {
		return 0, e
	}
	d.r.hasZone, d.r.zoneSecs = true, secs
	return m | fmZone, dtOK
}

// timeOnlyNumber decodes an unlabelled number of time input: hhmmss[.f]
// or hhmm, or a leading date with a decimal point (1997.041) before a
// zone name.
func (d *dtDecoder) timeOnlyNumber(fields []dtField, i int, s string) (int, dtErr) {
	if k := strings.IndexByte(s, '.'); k >= 0 {
		switch {
		case i == 0 && len(fields) >= 2 && fields[len(fields)-1].kind == fieldDate:
			return d.decodeDate(s)
		case k > 2:
			return d.numberField(s, d.fmask|fmDate)
		}
		return 0, dtBadFormat
	}
	if len(s) > 4 {
		return d.numberField(s, d.fmask|fmDate)
	}
	return d.decodeNumber(s, d.fmask|fmDate)
}

// finishFields checks and adjusts the date's fields (ValidateDate) and
// applies AM/PM, as both decoders end.
func (d *dtDecoder) finishFields() dtErr {
	tm := &d.r.tm
	if e := d.validateDate(); e != dtOK {
		return e
	}
	if d.mer >= 0 && tm.hour > 12 {
		return dtFieldOverflow
	}
	if d.mer == 0 && tm.hour == 12 {
		tm.hour = 0
	} else if d.mer == 1 && tm.hour != 12 {
		tm.hour += 12
	}
	return dtOK
}

// finishTimeOnly checks decoded time input and resolves its zone
// (PostgreSQL's end of DecodeTimeOnly): a zone with daylight-saving
// rules, a dynamic abbreviation or the session's zone is read at the
// date given, or today when none is.
func (d *dtDecoder) finishTimeOnly() dtErr {
	tm := &d.r.tm
	if e := d.finishFields(); e != dtOK {
		return e
	}
	if timeOverflows(tm) {
		return dtFieldOverflow
	}
	if d.fmask&fmTime != fmTime {
		return dtBadFormat
	}
	// The wall-clock time a zone is resolved at: the date given, or today.
	at := func() (int64, dtErr) {
		day := d.r.tm
		switch d.fmask & fmDate {
		case 0:
			now := InZone(time.Now(), d.loc)
			day.year, day.mon, day.mday = int64(now.Year()), int64(now.Month()), int64(now.Day())
		case fmDate:
		default:
			return 0, dtBadFormat
		}
		local, ok := tmToTimestamp(day)
		if !ok {
			return 0, dtFieldOverflow
		}
		return local, dtOK
	}
	switch {
	case d.r.zoneLoc != nil:
		if d.fmask&fmDSTMod != 0 {
			return dtBadFormat
		}
		if off, fixed := fixedOffset(d.r.zoneLoc); fixed {
			d.r.hasZone, d.r.zoneSecs = true, off
			break
		}
		if d.fmask&fmDate != fmDate {
			return dtBadFormat // a zone with daylight-saving rules needs the date
		}
		local, e := at()
		if e != dtOK {
			return e
		}
		d.r.hasZone, d.r.zoneSecs = true, wallOffset(local, d.r.zoneLoc)
	case d.abbrevZone != nil:
		if d.fmask&fmDSTMod != 0 {
			return dtBadFormat
		}
		local, e := at()
		if e != dtOK {
			return e
		}
		d.r.hasZone, d.r.zoneSecs = true, abbrevOffset(local, d.abbrev, d.abbrevZone)
	case !d.r.hasZone:
		if d.fmask&fmDSTMod != 0 {
			return dtBadFormat
		}
		local, e := at()
		if e != dtOK {
			return e
		}
		d.r.hasZone, d.r.zoneSecs = true, wallOffset(local, d.loc)
	}
	return dtOK
}

// fixedOffset reports whether loc has had one offset throughout (no
// daylight-saving or other changes), as PostgreSQL's
// pg_get_timezone_offset, and that offset. The zone is sampled twice a
// year from 1900 to 2040.
func fixedOffset(loc *time.Location) (int64, bool) {
	_, first := ZoneAt(loc, time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	for y := 1900; y <= 2040; y++ {
		for _, m := range []time.Month{time.January, time.July} {
			if _, off := ZoneAt(loc, time.Date(y, m, 1, 0, 0, 0, 0, time.UTC).Unix()); off != first {
				return 0, false
			}
		}
	}
	return first, true
}

// ParseTime parses time or timetz input in a session whose TimeZone is
// UTC: see ParseTimeIn.
func ParseTime(s string, withZone bool) (Value, error) {
	return ParseTimeIn(s, withZone, time.UTC)
}

// ParseTimeIn parses time (withZone: timetz) input as PostgreSQL's
// time_in and timetz_in in a session whose TimeZone is loc: h:m[:s[.f]],
// hhmmss, hhmm, AM/PM, allballs, now, an optional date before the time, and
// for timetz a zone offset, abbreviation or name (a zone with
// daylight-saving rules needs the date); without one, timetz takes the
// session zone's offset today.
func ParseTimeIn(s string, withZone bool, loc *time.Location) (Value, error) {
	return ParseTimeStyled(s, withZone, Style{Location: loc})
}

// ParseTimeStyled is ParseTimeIn in a session whose TimeZone is
// st.Location and whose DateStyle field order is st.Order (for a date
// before the time).
func ParseTimeStyled(s string, withZone bool, st Style) (Value, error) {
	loc := st.Location
	typ := "time" // time_in's name for the type
	if withZone {
		typ = "time with time zone"
	}
	if loc == nil {
		loc = time.UTC
	}
	var buf dtFieldsBuf
	fields, ok := splitDateTime(s, buf[:0])
	if !ok || len(fields) == 0 {
		return Null, dateTimeParseError(dtBadFormat, dtResult{}, s, typ)
	}
	d := &dtDecoder{mer: -1, timeOnly: true, loc: loc, order: st.Order}
	if e := d.decode(fields); e != dtOK {
		return Null, dateTimeParseError(e, d.r, s, typ)
	}
	tm := d.r.tm
	us := ((tm.hour*60+tm.min)*60+tm.sec)*usPerSec + tm.usec
	if withZone {
		return NewTimeTZ(TimeTZValue{Micros: us, Offset: int32(d.r.zoneSecs)}), nil
	}
	return NewTime(us), nil
}

// decodeDate reads a date field (PostgreSQL's DecodeDate): its words must
// be month names, its numbers are placed by decodeNumber.
func (d *dtDecoder) decodeDate(s string) (int, dtErr) {
	var parts []string
	for i := 0; i < len(s); {
		for i < len(s) && !isDigitByte(s[i]) && !isAlphaByte(s[i]) {
			i++
		}
		if i == len(s) {
			return 0, dtBadFormat
		}
		j := i
		if isDigitByte(s[i]) {
			for j < len(s) && isDigitByte(s[j]) {
				j++
			}
		} else {
			for j < len(s) && isAlphaByte(s[j]) {
				j++
			}
		}
		parts = append(parts, s[i:j])
		i = j
		if i < len(s) {
			i++ // one delimiter
		}
	}
	fmask := d.fmask
	tmask := 0
	numeric := parts[:0:0]
	for _, p := range parts {
		if !isAlphaByte(p[0]) {
			numeric = append(numeric, p)
			continue
		}
		kw, ok := dtKeywords[p]
		if ok && kw.kind == kwIgnore {
			continue
		}
		if !ok || kw.kind != kwMonth {
			return 0, dtBadFormat
		}
		d.r.tm.mon = int64(kw.val)
		d.haveTextMonth = true
		if fmask&fmMonth != 0 {
			return 0, dtBadFormat
		}
		fmask |= fmMonth
		tmask |= fmMonth
	}
	for _, p := range numeric {
		m, e := d.decodeNumber(p, fmask)
		if e != dtOK {
			return 0, e
		}
		if fmask&m != 0 {
			return 0, dtBadFormat
		}
		fmask |= m
		tmask |= m
	}
	if fmask&^(fmDOY|fmZone) != fmDate {
		return 0, dtBadFormat
	}
	return tmask, dtOK
}

// decodeNumber places one number of a date by what is set already
// (PostgreSQL's DecodeNumber).
func (d *dtDecoder) decodeNumber(s string, fmask int) (int, dtErr) {
	tm := &d.r.tm
	digits, frac, hasFrac := strings.Cut(s, ".")
	if digits == "" {
		return 0, dtBadFormat
	}
	if hasFrac {
		if len(digits) > 2 {
			return d.numberField(s, fmask|fmDate)
		}
		us, e := parseFracUS("." + frac)
		if e != dtOK {
			return 0, e
		}
		tm.usec = us
	}
	val, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return 0, dtFieldOverflow
	}
	flen := len(s)
	if flen == 3 && fmask&fmDate == fmYear && val >= 1 && val <= 366 {
		d.yday = val
		return fmDOY | fmMonth | fmDay, dtOK
	}
	var tmask int
	switch fmask & fmDate {
	case 0:
		// YYYY-MM-DD (three or more digits), else DateStyle's order.
		switch {
		case flen >= 3 || d.order == DateOrderYMD:
			tmask, tm.year = fmYear, val
		case d.order == DateOrderDMY:
			tmask, tm.mday = fmDay, val
		default:
			tmask, tm.mon = fmMonth, val
		}
	case fmYear:
		tmask, tm.mon = fmMonth, val
	case fmMonth:
		// MON-DD-YYYY, DD-MON-YYYY and YYYY-MON-DD; YY-MON-DD in YMD.
		if d.haveTextMonth && (flen >= 3 || d.order == DateOrderYMD) {
			tmask, tm.year = fmYear, val
		} else {
			tmask, tm.mday = fmDay, val
		}
	case fmYear | fmMonth:
		if d.haveTextMonth && flen >= 3 && d.is2digits {
			// DD-MON-YYYY: the first number was the day, not the year.
			tmask = fmDay
			tm.mday, tm.year = tm.year, val
			d.is2digits = false
		} else {
			tmask, tm.mday = fmDay, val
		}
	case fmDay:
		tmask, tm.mon = fmMonth, val
	case fmMonth | fmDay:
		tmask, tm.year = fmYear, val
	case fmDate:
		return d.numberField(s, fmask)
	default:
		return 0, dtBadFormat
	}
	if tmask == fmYear {
		d.is2digits = flen <= 2
	}
	return tmask, dtOK
}

// numberField reads a run-together number (PostgreSQL's DecodeNumberField):
// YYYYMMDD or YYMMDD while the date is incomplete, else hhmmss or hhmm,
// with an optional fraction of a second.
func (d *dtDecoder) numberField(s string, fmask int) (int, dtErr) {
	tm := &d.r.tm
	if k := strings.IndexByte(s, '.'); k >= 0 {
		if k+1 < len(s) {
			f, err := strconv.ParseFloat("0"+s[k:], 64)
			if err != nil {
				return 0, dtBadFormat
			}
			tm.usec = int64(math.RoundToEven(f * 1e6))
		} else {
			tm.usec = 0
		}
		s = s[:k]
	} else if fmask&fmDate != fmDate && len(s) >= 6 {
		n := len(s)
		tm.mday = atoiPrefix(s[n-2:])
		tm.mon = atoiPrefix(s[n-4 : n-2])
		tm.year = atoiPrefix(s[:n-4])
		d.is2digits = n-4 == 2
		return fmDate, dtOK
	}
	if fmask&fmTime != fmTime {
		switch len(s) {
		case 6:
			tm.hour, tm.min, tm.sec = atoiPrefix(s[:2]), atoiPrefix(s[2:4]), atoiPrefix(s[4:])
			return fmTime, dtOK
		case 4:
			tm.hour, tm.min, tm.sec = atoiPrefix(s[:2]), atoiPrefix(s[2:]), 0
			return fmTime, dtOK
		}
	}
	return 0, dtBadFormat
}

// atoiPrefix is C's atoi: the leading digits' value, 0 for none.
func atoiPrefix(s string) int64 {
	var v int64
	for i := 0; i < len(s) && isDigitByte(s[i]); i++ {
		v = v*10 + int64(s[i]-'0')
		if v > math.MaxInt32 {
			return math.MaxInt32
		}
	}
	return v
}

// plainNumber decodes a number field with no label before it.
func (d *dtDecoder) plainNumber(s string) (int, dtErr) {
	k := strings.IndexByte(s, '.')
	switch {
	case k >= 0 && d.fmask&fmDate == 0:
		return d.decodeDate(s)
	case k >= 0 && k > 2:
		return d.numberField(s, d.fmask)
	case len(s) >= 6 && (d.fmask&fmDate == 0 || d.fmask&fmTime == 0):
		return d.numberField(s, d.fmask)
	}
	return d.decodeNumber(s, d.fmask)
}

// labelledNumber decodes a number after a unit word: J2451187, y2001m02d04,
// or an ISO time after 't'.
func (d *dtDecoder) labelledNumber(s string, unit int) (int, dtErr) {
	tm := &d.r.tm
	digits, frac, hasFrac := strings.Cut(s, ".")
	if hasFrac && unit != labelJulian && unit != labelISOTime && unit != labelSecond {
		return 0, dtBadFormat
	}
	if digits == "" {
		return 0, dtBadFormat
	}
	v, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return 0, dtFieldOverflow
	}
	switch unit {
	case labelYear:
		tm.year = v
		return fmYear, dtOK
	case labelMonth:
		if d.fmask&fmMonth != 0 && d.fmask&fmHour != 0 {
			tm.min = v
			return fmMinute, dtOK
		}
		tm.mon = v
		return fmMonth, dtOK
	case labelDay:
		tm.mday = v
		return fmDay, dtOK
	case labelHour:
		tm.hour = v
		return fmHour, dtOK
	case labelMinute:
		tm.min = v
		return fmMinute, dtOK
	case labelSecond:
		tm.sec = v
		if hasFrac {
			us, e := parseFracUS("." + frac)
			if e != dtOK {
				return 0, e
			}
			tm.usec = us
			return fmSecond | fmSubsec, dtOK
		}
		return fmSecond, dtOK
	case labelJulian:
		if v < 0 {
			return 0, dtFieldOverflow
		}
		tm.year, tm.mon, tm.mday = civilFromDays(v - unixEpochJulian)
		d.julian = true
		mask := fmDate
		if hasFrac {
			f, err := strconv.ParseFloat("0."+frac, 64)
			if err != nil {
				return 0, dtBadFormat
			}
			us := int64(math.RoundToEven(f * float64(usPerDay)))
			tm.hour, tm.min, tm.sec, tm.usec = splitTime(us)
			mask |= fmTime
		}
		return mask, dtOK
	case labelISOTime:
		m, e := d.numberField(s, d.fmask|fmDate)
		if e != dtOK {
			return 0, e
		}
		if m != fmTime {
			return 0, dtBadFormat
		}
		return m, dtOK
	}
	return 0, dtBadFormat
}

// validateDate adjusts and checks the year, month and day (PostgreSQL's
// ValidateDate).
func (d *dtDecoder) validateDate() dtErr {
	tm := &d.r.tm
	if d.fmask&fmYear != 0 {
		switch {
		case d.julian:
		case d.bc:
			if tm.year <= 0 {
				return dtFieldOverflow // there is no year zero in AD/BC notation
			}
			tm.year = -(tm.year - 1)
		case d.is2digits:
			if tm.year < 70 {
				tm.year += 2000
			} else if tm.year < 100 {
				tm.year += 1900
			}
		case tm.year <= 0:
			return dtFieldOverflow
		}
	}
	if d.fmask&fmDOY != 0 {
		tm.year, tm.mon, tm.mday = civilFromDays(daysFromCivil(tm.year, 1, 1) + d.yday - 1)
	}
	if d.fmask&fmMonth != 0 && (tm.mon < 1 || tm.mon > 12) {
		return dtMDFieldOverflow
	}
	if d.fmask&fmDay != 0 && (tm.mday < 1 || tm.mday > 31) {
		return dtMDFieldOverflow
	}
	if d.fmask&fmDate == fmDate && tm.mday > daysInMonth(tm.year, tm.mon) {
		return dtFieldOverflow
	}
	return dtOK
}

// decodeClock reads h:m, h:m:s[.f] or m:s.f (PostgreSQL's DecodeTime).
func decodeClock(s string, tm *tmParts) dtErr {
	num := func(p string) (int64, string, dtErr) {
		j := 0
		for j < len(p) && isDigitByte(p[j]) {
			j++
		}
		if j == 0 {
			return 0, p, dtBadFormat
		}
		v, err := strconv.ParseInt(p[:j], 10, 32)
		if err != nil {
			return 0, p, dtFieldOverflow
		}
		return v, p[j:], dtOK
	}
	h, rest, e := num(s)
	if e != dtOK {
		return e
	}
	if rest == "" || rest[0] != ':' {
		return dtBadFormat
	}
	m, rest, e := num(rest[1:])
	if e != dtOK {
		return e
	}
	var sec, us int64
	switch {
	case rest == "":
	case rest[0] == '.':
		// mm:ss.fff
		if us, e = parseFracUS(rest); e != dtOK {
			return e
		}
		h, m, sec = 0, h, m
	case rest[0] == ':':
		if sec, rest, e = num(rest[1:]); e != dtOK {
			return e
		}
		if rest != "" {
			if rest[0] != '.' {
				return dtBadFormat
			}
			if us, e = parseFracUS(rest); e != dtOK {
				return e
			}
		}
	default:
		return dtBadFormat
	}
	if h < 0 || m < 0 || m > 59 || sec < 0 || sec > 60 || us < 0 || us > usPerSec {
		return dtFieldOverflow
	}
	tm.hour, tm.min, tm.sec, tm.usec = h, m, sec, us
	return dtOK
}

// timeOverflows is PostgreSQL's time_overflows: past 24:00:00.
func timeOverflows(tm *tmParts) bool {
	if tm.hour < 0 || tm.min < 0 || tm.min > 59 || tm.sec < 0 || tm.sec > 60 {
		return true
	}
	return ((tm.hour*60+tm.min)*60+tm.sec)*usPerSec+tm.usec > usPerDay
}

// decodeZoneOffset reads +hh, +hhmm, +hh:mm or +hh:mm:ss into seconds east
// of UTC (PostgreSQL's DecodeTimezone).
func decodeZoneOffset(s string) (int64, dtErr) {
	if len(s) < 2 || s[0] != '+' && s[0] != '-' {
		return 0, dtBadFormat
	}
	body := s[1:]
	num := func(p string) (int64, string, bool) {
		j := 0
		for j < len(p) && isDigitByte(p[j]) {
			j++
		}
		if j == 0 {
			return 0, p, true
		}
		v, err := strconv.ParseInt(p[:j], 10, 32)
		return v, p[j:], err == nil
	}
	h, rest, ok := num(body)
	if !ok {
		return 0, dtTZOverflow
	}
	var m, sec int64
	switch {
	case rest != "" && rest[0] == ':':
		if m, rest, ok = num(rest[1:]); !ok {
			return 0, dtTZOverflow
		}
		if rest != "" && rest[0] == ':' {
			if sec, rest, ok = num(rest[1:]); !ok {
				return 0, dtTZOverflow
			}
		}
	case rest == "" && len(s) > 3:
		h, m = h/100, h%100
	}
	if h > 15 || m >= 60 || sec >= 60 {
		return 0, dtTZOverflow
	}
	if rest != "" {
		return 0, dtBadFormat
	}
	off := (h*60+m)*60 + sec
	if s[0] == '-' {
		off = -off
	}
	return off, dtOK
}

// loadZone finds a zone named in date/time input: LoadZone, PostgreSQL's
// pg_tzset (a time zone database name, or a POSIX zone such as GMT+8,
// whose sign counts west of UTC, or A1B with daylight rules).
func loadZone(name string) (*time.Location, bool) {
	loc, _, ok := LoadZone(name)
	return loc, ok
}

// ParseTimestamp parses a PostgreSQL timestamp into µs since the Unix
// epoch, in a session whose TimeZone is UTC: see ParseTimestampIn.
func ParseTimestamp(s string, withZone bool) (int64, error) {
	return ParseTimestampIn(s, withZone, time.UTC)
}

// ParseTimestampIn parses a timestamp (withZone: a timestamptz) as
// PostgreSQL does in a session whose TimeZone is loc. A timestamp ignores
// any zone in its input; a timestamptz's wall-clock time is in the zone
// the input names, else in loc. The special inputs are infinity,
// -infinity, epoch, now, today, tomorrow and yesterday. Errors are 22007
// (syntax), 22008 (out of range), 22009 (zone offset out of range) and
// 22023 (unknown zone name).
func ParseTimestampIn(s string, withZone bool, loc *time.Location) (int64, error) {
	return ParseTimestampStyled(s, withZone, Style{Location: loc})
}

// ParseTimestampStyled is ParseTimestampIn in a session whose TimeZone is
// st.Location and whose DateStyle field order, which ambiguous dates are
// read in, is st.Order.
func ParseTimestampStyled(s string, withZone bool, st Style) (int64, error) {
	loc := st.Location
	typ := "timestamp"
	if withZone {
		typ = "timestamp with time zone"
	}
	r, e := decodeDateTime(s, st.Order, loc)
	if e != dtOK {
		return 0, dateTimeParseError(e, r, s, typ)
	}
	switch r.special {
	case "infinity":
		return TimestampInfinity, nil
	case "-infinity":
		return TimestampNegInfinity, nil
	case "epoch":
		return -PGEpochMicros, nil
	case "now":
		now := time.Now()
		if !withZone {
			// A timestamp's now is the session's wall clock
			// (localtimestamp), as timestamp_in reads it.
			now = now.Add(time.Duration(wallOffsetAt(now, loc)) * time.Second)
		}
		return TimestampFromUnixMicro(now.UnixMicro()), nil
	case "":
	default:
		return 0, dateTimeParseError(dtBadFormat, r, s, typ)
	}
	local, ok := tmToTimestamp(r.tm)
	if !ok {
		return 0, pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range: %q", s)
	}
	if !withZone {
		return local, nil
	}
	var off int64
	switch {
	case r.hasZone:
		off = r.zoneSecs
	case r.zoneLoc != nil:
		off = wallOffset(local, r.zoneLoc)
	case loc != nil && loc != time.UTC:
		off = wallOffset(local, loc)
	}
	us := local - off*usPerSec
	if !InTimestampRange(us) {
		return 0, pgerr.New(pgerr.DatetimeValueOutOfRange, "timestamp out of range: %q", s)
	}
	return us, nil
}

// FromLocal is the instant (µs) at which loc's clocks show the wall-clock
// time local, read at wallOffset's offset. Infinities stay.
func FromLocal(local int64, loc *time.Location) int64 {
	if !IsFiniteTimestamp(local) || loc == nil || loc == time.UTC {
		return local
	}
	return local - wallOffset(local, loc)*usPerSec
}

// wallOffset is loc's offset east of UTC at the instant the wall-clock
// time local (µs) names, by PostgreSQL's rule (DetermineTimeZoneOffset)
// near a transition: a time that occurs twice (fall back) is read after
// the transition, a time that does not occur (spring forward) before it.
func wallOffset(local int64, loc *time.Location) int64 {
	if z := ruleZone(loc); z != nil {
		return z.wallOffset(TimestampUnixSeconds(local))
	}
	before := zoneOffset(local-usPerDay, loc)
	after := zoneOffset(local+usPerDay, loc)
	if before == after {
		return zoneOffset(local-before*usPerSec, loc)
	}
	beforeTime, afterTime := local-before*usPerSec, local-after*usPerSec
	beforeOK := zoneOffset(beforeTime, loc) == before
	afterOK := zoneOffset(afterTime, loc) == after
	switch {
	case beforeOK && !afterOK:
		return before
	case afterOK && !beforeOK:
		return after
	case beforeTime > afterTime:
		return before
	}
	return after
}

// abbrevOffset is what a dynamic zone abbreviation (MSK, defined by the
// zone Europe/Moscow) means at the wall-clock time local, as PostgreSQL's
// DetermineTimeZoneAbbrevOffset: the zone's offset when the zone used the
// abbreviation then, else its offset the last time before (or, failing
// that, the first time after) it used it; else the zone's offset then.
func abbrevOffset(local int64, abbrev string, loc *time.Location) int64 {
	at := func(us int64) (string, int64) {
		return ZoneAt(loc, TimestampUnixSeconds(us))
	}
	guess := local - wallOffset(local, loc)*usPerSec
	if name, off := at(guess); strings.EqualFold(name, abbrev) {
		return off
	}
	// Transitions are months apart: a step of a week finds the last use
	// within decades in a few thousand lookups, which only this rare input
	// pays for.
	const week = 7 * usPerDay
	for _, dir := range []int64{-1, 1} {
		for i := int64(1); i <= 52*60; i++ {
			if name, off := at(guess + dir*i*week); strings.EqualFold(name, abbrev) {
				return off
			}
		}
	}
	return wallOffset(local, loc)
}

// ParseDate parses a PostgreSQL date into days since the Unix epoch. Like
// PostgreSQL it also accepts a timestamp and keeps its date part, and
// infinity, -infinity and epoch.
func ParseDate(s string) (int64, error) {
	return ParseDateStyled(s, Style{Order: DateOrderMDY})
}

// ParseDateStyled is ParseDate with ambiguous dates read in st.Order
// (DateStyle's field order) and now, today, tomorrow and yesterday taken
// in the session's TimeZone, st.Location.
func ParseDateStyled(s string, st Style) (int64, error) {
	r, e := decodeDateTime(s, st.Order, st.Location)
	if e != dtOK {
		return 0, dateTimeParseError(e, r, s, "date")
	}
	switch r.special {
	case "infinity":
		return DateInfinity, nil
	case "-infinity":
		return DateNegInfinity, nil
	case "epoch":
		return 0, nil
	case "now":
		return localDay(time.Now(), st.Location), nil
	case "":
	default:
		return 0, dateTimeParseError(dtBadFormat, r, s, "date")
	}
	d := daysFromCivil(r.tm.year, r.tm.mon, r.tm.mday)
	if d < MinDate || d > MaxDate {
		return 0, pgerr.New(pgerr.DatetimeValueOutOfRange, "date out of range: %q", s)
	}
	return d, nil
}

// dateTimeParseError is PostgreSQL's DateTimeParseError.
func dateTimeParseError(e dtErr, r dtResult, s, typ string) error {
	switch e {
	case dtFieldOverflow:
		return pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: %q", s)
	case dtMDFieldOverflow:
		return pgerr.New(pgerr.DatetimeFieldOverflow, "date/time field value out of range: %q", s).
			WithHint("Perhaps you need a different \"datestyle\" setting.")
	case dtTZOverflow:
		return pgerr.New(pgerr.InvalidTimeZoneDisplacementValue, "time zone displacement out of range: %q", s)
	case dtUnknownZone:
		return pgerr.New(pgerr.InvalidParameterValue, "time zone %q not recognized", r.unknownZone)
	}
	return pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type %s: %q", typ, s)
}

// wallOffsetAt is loc's offset east of UTC at instant t, in seconds (nil
// loc: UTC).
func wallOffsetAt(t time.Time, loc *time.Location) int64 {
	_, off := ZoneAt(loc, t.Unix())
	return off
}

// localDay is the day (since the Unix epoch) instant t falls on in loc
// (nil: UTC): the current_date of a session whose TimeZone is loc.
func localDay(t time.Time, loc *time.Location) int64 {
	return floorDiv(t.Unix()+wallOffsetAt(t, loc), 86400)
}
