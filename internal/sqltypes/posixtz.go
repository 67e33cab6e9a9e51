package sqltypes

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"
)

// POSIX time zone specifications, as PostgreSQL's tzparse (its copy of the
// tz code's localtime.c) reads them when a zone name is not in the time
// zone database:
//
//	std offset [dst [offset] [,start[/time],end[/time]]]
//
// Names are any run of characters other than digits, ',', '-' and '+'
// (PostgreSQL, unlike POSIX, takes names of any length, std even empty),
// or anything between < and >. Offsets are [+-]hh[:mm[:ss]] west of
// Greenwich, hours up to 167 (the tz code's seven days less an hour),
// seconds up to 60. dst's offset defaults to an hour east of std's, and
// its rule to the US one, M3.2.0,M11.1.0 (PostgreSQL does not read the
// posixrules file). A rule is Jn (day 1..365, February 29 never counted),
// n (day 0..365, counting February 29) or Mm.w.d (weekday d of week w of
// month m, week 5 the last), with a local time of day that, extended as
// the tz code has it, may be negative or past 24 hours.
//
// Go's time.Location cannot carry daylight rules of its own (its zones
// from the tz database read only a TZ footer, and only past their last
// transition), so a zone with them is a *time.Location that stands for
// it, whose rules this file keeps aside: ZoneAt and the functions built
// on it evaluate them for any year, as PostgreSQL does (its table of
// transitions covers 400 years and repeats, which the Gregorian calendar
// makes exact).

// posixRule is one daylight-saving change of a POSIX zone.
type posixRule struct {
	kind byte  // 'J' (Julian day, no leap day), 'D' (zero-based day of year) or 'M'
	day  int   // J: 1..365; D: 0..365; M: weekday 0..6 (Sunday 0)
	week int   // M: 1..5, 5 the last such weekday of the month
	mon  int   // M: 1..12
	secs int64 // local time of day of the change, in seconds
}

// posixZone is a parsed POSIX zone specification.
type posixZone struct {
	std, dst       string // abbreviations (dst "" when there is no daylight time)
	stdOff, dstOff int64  // seconds east of UTC
	start, end     posixRule
}

// posixMaxLen is PostgreSQL's TZ_STRLEN_MAX: pg_tzset refuses longer names.
const posixMaxLen = 255

// parsePOSIXZone reads a POSIX zone specification as tzparse does. The
// caller has upper-cased it, as pg_tzset does, so the rules' J and M are
// read in either case and the abbreviations come out upper-case.
func parsePOSIXZone(s string) (posixZone, bool) {
	var z posixZone
	var ok bool
	if z.std, s, ok = posixName(s); !ok || s == "" {
		return z, false
	}
	west, s, ok := posixOffset(s)
	if !ok {
		return z, false
	}
	z.stdOff = -west
	if s == "" {
		return z, true
	}
	if z.dst, s, ok = posixName(s); !ok || z.dst == "" {
		return z, false
	}
	z.dstOff = z.stdOff + 3600
	if s != "" && s[0] != ',' && s[0] != ';' {
		if west, s, ok = posixOffset(s); !ok {
			return z, false
		}
		z.dstOff = -west
	}
	if s == "" {
		s = ",M3.2.0,M11.1.0" // PostgreSQL's TZDEFRULESTRING
	}
	if s[0] != ',' && s[0] != ';' {
		return z, false
	}
	if z.start, s, ok = posixParseRule(s[1:]); !ok || s == "" || s[0] != ',' {
		return z, false
	}
	if z.end, s, ok = posixParseRule(s[1:]); !ok || s != "" {
		return z, false
	}
	return z, true
}

// posixName reads a zone abbreviation: <...> or the characters up to a
// digit, ',', '-' or '+'.
func posixName(s string) (name, rest string, ok bool) {
	if s != "" && s[0] == '<' {
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return "", s, false
		}
		return s[1:end], s[end+1:], true
	}
	i := 0
	for i < len(s) && !isDigitByte(s[i]) && s[i] != ',' && s[i] != '-' && s[i] != '+' {
		i++
	}
	return s[:i], s[i:], true
}

// posixOffset reads [+-]hh[:mm[:ss]], returning seconds (positive west of
// Greenwich for a zone's offset, after midnight for a rule's time).
func posixOffset(s string) (int64, string, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	secs, s, ok := posixSecs(s)
	if neg {
		secs = -secs
	}
	return secs, s, ok
}

// posixSecs reads hh[:mm[:ss]]: hours up to 167, minutes up to 59 and
// seconds up to 60 (room for a leap second), as the tz code's getsecs.
func posixSecs(s string) (int64, string, bool) {
	h, s, ok := posixNum(s, 0, 24*7-1)
	if !ok {
		return 0, s, false
	}
	secs := h * 3600
	if s == "" || s[0] != ':' {
		return secs, s, true
	}
	m, s, ok := posixNum(s[1:], 0, 59)
	if !ok {
		return 0, s, false
	}
	secs += m * 60
	if s == "" || s[0] != ':' {
		return secs, s, true
	}
	sec, s, ok := posixNum(s[1:], 0, 60)
	return secs + sec, s, ok
}

// posixNum reads a run of digits whose value is in [lo, hi]; leading zeros
// are allowed, as the tz code's getnum.
func posixNum(s string, lo, hi int64) (int64, string, bool) {
	i := 0
	var n int64
	for i < len(s) && isDigitByte(s[i]) {
		n = n*10 + int64(s[i]-'0')
		if n > hi {
			return 0, s, false
		}
		i++
	}
	if i == 0 || n < lo {
		return 0, s, false
	}
	return n, s[i:], true
}

// posixParseRule reads Jn, n or Mm.w.d, then an optional /time (2:00 when
// absent).
func posixParseRule(s string) (posixRule, string, bool) {
	var r posixRule
	var n int64
	var ok bool
	switch {
	case s != "" && s[0] == 'J':
		r.kind = 'J'
		n, s, ok = posixNum(s[1:], 1, 365)
		r.day = int(n)
	case s != "" && s[0] == 'M':
		r.kind = 'M'
		var mon, week, day int64
		if mon, s, ok = posixNum(s[1:], 1, 12); !ok || s == "" || s[0] != '.' {
			return r, s, false
		}
		if week, s, ok = posixNum(s[1:], 1, 5); !ok || s == "" || s[0] != '.' {
			return r, s, false
		}
		day, s, ok = posixNum(s[1:], 0, 6)
		r.mon, r.week, r.day = int(mon), int(week), int(day)
	case s != "" && isDigitByte(s[0]):
		r.kind = 'D'
		n, s, ok = posixNum(s, 0, 365)
		r.day = int(n)
	}
	if !ok {
		return r, s, false
	}
	r.secs = 2 * 3600
	if s != "" && s[0] == '/' {
		if r.secs, s, ok = posixOffset(s[1:]); !ok {
			return r, s, false
		}
	}
	return r, s, true
}

var posixMonthDays = [2][12]int64{
	{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
	{31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
}

func isLeapYear(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// yearSecs is the rule's change in year y, in seconds after 00:00 UTC of
// January 1, for a zone whose offset before the change is off (east).
func (r posixRule) yearSecs(y int64, off int64) int64 {
	leap := 0
	if isLeapYear(y) {
		leap = 1
	}
	var days int64
	switch r.kind {
	case 'J':
		days = int64(r.day - 1)
		if leap == 1 && r.day >= 60 {
			days++
		}
	case 'D':
		days = int64(r.day)
	case 'M':
		first := daysFromCivil(y, int64(r.mon), 1)
		dow := floorMod(first+4, 7) // 1970-01-01 was a Thursday
		d := floorMod(int64(r.day)-dow, 7)
		for i := 1; i < r.week && d+7 < posixMonthDays[leap][r.mon-1]; i++ {
			d += 7
		}
		days = first - daysFromCivil(y, 1, 1) + d
	}
	return days*86400 + r.secs - off
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// posixChange is one transition: from at (Unix seconds) on, the zone's
// daylight time (dst) or standard time.
type posixChange struct {
	at  int64
	dst bool
}

// changes appends year y's transitions, as tzparse lays them out: none
// when the two rules meet or daylight time would last the whole year.
func (z *posixZone) changes(buf []posixChange, y int64) []posixChange {
	jan1 := daysFromCivil(y, 1, 1) * 86400
	start, end := z.start.yearSecs(y, z.stdOff), z.end.yearSecs(y, z.dstOff)
	yearLen := int64(365 * 86400)
	if isLeapYear(y) {
		yearLen += 86400
	}
	reversed := end < start // southern hemisphere: daylight time spans the new year
	if reversed {
		start, end = end, start
	}
	if reversed || start < end && end-start < yearLen+(z.dstOff-z.stdOff) {
		buf = append(buf, posixChange{jan1 + start, !reversed}, posixChange{jan1 + end, reversed})
	}
	return buf
}

// sortChanges orders a few transitions by time, keeping the order of
// those at the same second (the later one wins), without allocating.
func sortChanges(cs []posixChange) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].at < cs[j-1].at; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// repeatYears is the Gregorian calendar's period: rules give the same
// transitions 400 years apart.
const repeatYears = 400

// at is the zone's abbreviation and offset east of UTC at Unix second sec:
// those of the last transition at or before it (the later of two at the
// same second), standard time before any.
func (z *posixZone) at(sec int64) (string, int64) {
	y, _, _ := civilFromDays(floorDiv(sec, 86400))
	// A rule's change can fall days outside its year (a time of day up to
	// a week, offsets up to a week), so the year before and after are
	// looked at too; years without changes send the search further back.
	var buf [6]posixChange
	for back := int64(1); back <= repeatYears+1; back++ {
		cs := buf[:0]
		if back == 1 {
			cs = z.changes(cs, y-1)
			cs = z.changes(cs, y)
			cs = z.changes(cs, y+1)
		} else {
			cs = z.changes(cs, y-back)
		}
		sortChanges(cs)
		for i := len(cs) - 1; i >= 0; i-- {
			if cs[i].at <= sec {
				if cs[i].dst {
					return z.dst, z.dstOff
				}
				return z.std, z.stdOff
			}
		}
	}
	return z.std, z.stdOff
}

// after is the first transition later than Unix second sec, with the
// offsets before and after it, as the tz code's pg_next_dst_boundary.
func (z *posixZone) after(sec int64) (boundary, before, after int64) {
	_, before = z.at(sec)
	y, _, _ := civilFromDays(floorDiv(sec, 86400))
	var buf [8]posixChange
	for from := y - 1; from <= y+repeatYears; from += 2 {
		cs := z.changes(z.changes(buf[:0], from), from+1)
		sortChanges(cs)
		for _, c := range cs {
			if c.at > sec {
				after = z.stdOff
				if c.dst {
					after = z.dstOff
				}
				return c.at, before, after
			}
		}
	}
	return sec + 1, before, before // no transitions: not reached for a rule zone
}

// wallOffset is the offset (east) at which the zone reads the wall-clock
// time localSec (its fields taken as UTC), by PostgreSQL's
// DetermineTimeZoneOffset: it tries the offsets before and after the
// first transition past a day before localSec; a time a spring-forward
// skips takes the offset before it, one a fall-back repeats the offset
// after it. PostgreSQL's search assumes offsets under a day; it is kept
// as it is, so that a zone of larger offsets reads wall-clock times near
// its transitions as PostgreSQL reads them.
func (z *posixZone) wallOffset(localSec int64) int64 {
	boundary, before, after := z.after(localSec - 86400)
	beforeTime, afterTime := localSec-before, localSec-after
	switch {
	case beforeTime < boundary && afterTime < boundary:
		return before
	case beforeTime > boundary && afterTime >= boundary:
		return after
	case beforeTime > afterTime:
		return before
	}
	return after
}

// hasChanges reports whether the rules give transitions in some year; a
// zone whose rules never do is on daylight time always, as tzparse has it.
func (z *posixZone) hasChanges() bool {
	var buf [2]posixChange
	for y := int64(2000); y < 2000+repeatYears; y++ {
		if len(z.changes(buf[:0], y)) > 0 {
			return true
		}
	}
	return false
}

// The zones made from specifications are kept while a session holds their
// location, and no longer: both maps hold it weakly, and a cleanup drops
// its entries once it is collected, so the specifications clients make up
// (each SET TIME ZONE '...' a new one) cannot grow them without bound.
var (
	ruleZones   sync.Map // weak.Pointer[time.Location] → *posixZone
	anyRuleZone atomic.Bool
	posixZones  sync.Map // upper-cased specification → weak.Pointer[time.Location]
)

// zoneEntry is what a collected location's cleanup deletes.
type zoneEntry struct {
	spec string
	loc  weak.Pointer[time.Location]
}

// posixLocation is the location of an upper-cased POSIX zone
// specification, made once per specification while a session holds it
// (PostgreSQL too keeps every zone it has loaded, for a backend's life). A
// zone with daylight rules is a location standing for it, of its standard
// time's offset, whose rules ZoneAt evaluates.
func posixLocation(spec string) (*time.Location, bool) {
	if w, ok := posixZones.Load(spec); ok {
		if l := w.(weak.Pointer[time.Location]).Value(); l != nil {
			return l, true
		}
	}
	if len(spec) > posixMaxLen {
		return nil, false
	}
	z, ok := parsePOSIXZone(spec)
	if !ok {
		return nil, false
	}
	var loc *time.Location
	switch {
	case z.dst == "":
		loc = time.FixedZone(z.std, int(z.stdOff))
	case !z.hasChanges():
		loc = time.FixedZone(z.dst, int(z.dstOff))
	default:
		// A location of its own, named by the specification: FixedZone
		// shares one location among unnamed zones of a whole hour, which
		// must not take these rules.
		loc = time.FixedZone(spec, int(z.stdOff))
		ruleZones.Store(weak.Make(loc), &z)
		anyRuleZone.Store(true)
	}
	w := weak.Make(loc)
	posixZones.Store(spec, w)
	runtime.AddCleanup(loc, func(e zoneEntry) {
		posixZones.CompareAndDelete(e.spec, e.loc)
		ruleZones.Delete(e.loc)
	}, zoneEntry{spec, w})
	return loc, true
}

// ruleZone is the POSIX rules loc stands for, if any.
func ruleZone(loc *time.Location) *posixZone {
	if !anyRuleZone.Load() {
		return nil
	}
	if z, ok := ruleZones.Load(weak.Make(loc)); ok {
		return z.(*posixZone)
	}
	return nil
}

// ZoneAt is the abbreviation and the offset east of UTC, in seconds, that
// loc's clocks show at Unix second sec. Every offset of a session's or a
// named zone is found here, so that a POSIX zone's daylight rules apply.
func ZoneAt(loc *time.Location, sec int64) (string, int64) {
	if loc == nil || loc == time.UTC {
		return "UTC", 0
	}
	if z := ruleZone(loc); z != nil {
		return z.at(sec)
	}
	name, off := time.Unix(sec, 0).In(loc).Zone()
	return name, int64(off)
}

// FixedZoneOffset reports loc's offset east of UTC, in seconds, when loc
// has that one offset at every instant (no transitions).
func FixedZoneOffset(loc *time.Location) (int64, bool) {
	if loc == nil || loc == time.UTC {
		return 0, true
	}
	if ruleZone(loc) != nil {
		return 0, false
	}
	t := time.Unix(0, 0).In(loc)
	if start, end := t.ZoneBounds(); !start.IsZero() || !end.IsZero() {
		return 0, false
	}
	_, off := t.Zone()
	return int64(off), true
}

// LoadZone finds a zone by name as PostgreSQL's pg_tzset: a time zone
// database name in any case (a leading ':' allowed), GMT, or else a POSIX
// zone specification. canon is the spelling SHOW TimeZone prints: the
// database's, or the specification upper-cased.
func LoadZone(name string) (loc *time.Location, canon string, ok bool) {
	if len(name) > posixMaxLen || name == "" {
		return nil, "", false
	}
	if n, ok := CanonicalZone(strings.TrimPrefix(name, ":")); ok {
		if loc, err := time.LoadLocation(n); err == nil {
			return loc, n, true
		}
	}
	upper := asciiUpper(name)
	if upper[0] == ':' {
		return nil, "", false
	}
	loc, ok = posixLocation(upper)
	return loc, upper, ok
}

// asciiUpper upper-cases ASCII letters only, as pg_toupper does in a UTF-8
// database.
func asciiUpper(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'a' && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
