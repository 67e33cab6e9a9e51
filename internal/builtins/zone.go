package builtins

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Time zones. A timestamptz is an instant (µs since the epoch, UTC); the
// functions that look at its calendar fields (date_trunc, extract,
// to_char, timestamptz + interval) do so in the session's time zone,
// Context.Location, or in a zone named by an argument (AT TIME ZONE,
// date_trunc's third argument). Zone names are resolved as PostgreSQL
// resolves them: a time zone abbreviation first (EST is always -05), then
// a tz database name (America/New_York, in any case), then a POSIX
// offset, whose sign is west-positive ('UTC+3' and '+03' are three hours
// west of Greenwich).

// SessionLocation is the zone of the session a function runs in (UTC when
// none is set).
func SessionLocation(ctx *Context) *time.Location {
	if ctx == nil || ctx.Location == nil {
		return time.UTC
	}
	return ctx.Location
}

// zoneAbbrevs are the fixed-offset abbreviations of PostgreSQL's Default
// timezone_abbreviations set that are unambiguous (seconds east of UTC).
var zoneAbbrevs = map[string]int{
	"utc": 0, "gmt": 0, "ut": 0, "z": 0, "zulu": 0,
	"est": -5 * 3600, "edt": -4 * 3600, "cst": -6 * 3600, "cdt": -5 * 3600,
	"mst": -7 * 3600, "mdt": -6 * 3600, "pst": -8 * 3600, "pdt": -7 * 3600,
	"akst": -9 * 3600, "akdt": -8 * 3600, "hst": -10 * 3600,
	"cet": 3600, "cest": 2 * 3600, "met": 3600, "mest": 2 * 3600,
	"eet": 2 * 3600, "eest": 3 * 3600, "wet": 0, "west": 3600, "bst": 3600,
	"msk": 3 * 3600, "jst": 9 * 3600, "kst": 9 * 3600, "hkt": 8 * 3600, "sgt": 8 * 3600,
	"awst": 8 * 3600, "acst": 34200, "acdt": 37800, "aest": 10 * 3600, "aedt": 11 * 3600,
	"nzst": 12 * 3600, "nzdt": 13 * 3600,
}

var zoneCache sync.Map // lower-case name → *time.Location

// LookupZone resolves a time zone name as AT TIME ZONE and SET TIME ZONE
// read it; an unknown name is 22023 "time zone ... not recognized".
func LookupZone(name string) (*time.Location, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if l, ok := zoneCache.Load(key); ok {
		return l.(*time.Location), nil
	}
	loc := lookupZone(strings.TrimSpace(name), key)
	if loc == nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "time zone %q not recognized", name)
	}
	zoneCache.Store(key, loc)
	return loc, nil
}

func lookupZone(name, key string) *time.Location {
	if off, ok := zoneAbbrevs[key]; ok {
		if off == 0 {
			return time.UTC
		}
		return time.FixedZone(strings.ToUpper(key), off)
	}
	if key == "" || key == "local" || strings.Contains(key, "..") {
		return nil
	}
	for _, n := range []string{name, zoneCase(key)} {
		if l, err := time.LoadLocation(n); err == nil {
			return l
		}
	}
	if off, ok := posixOffset(key); ok {
		return time.FixedZone(name, off)
	}
	return nil
}

// zoneCase spells a lower-case tz database name the way the database does
// (america/new_york → America/New_York, etc/gmt+3 → Etc/GMT+3).
func zoneCase(key string) string {
	parts := strings.Split(key, "/")
	for i, p := range parts {
		if len(p) <= 3 || p == "etc" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
			if len(p) <= 3 && p != "etc" {
				parts[i] = strings.ToUpper(p)
			}
			continue
		}
		words := strings.Split(p, "_")
		for j, w := range words {
			if w != "" {
				words[j] = strings.ToUpper(w[:1]) + w[1:]
			}
		}
		parts[i] = strings.Join(words, "_")
	}
	return strings.Join(parts, "/")
}

// posixOffset reads a POSIX zone without daylight rules: an optional name
// of three or more letters and an offset [+-]hh[:mm[:ss]], west-positive.
func posixOffset(key string) (int, bool) {
	i := 0
	for i < len(key) && key[i] >= 'a' && key[i] <= 'z' {
		i++
	}
	if i > 0 && i < 3 {
		return 0, false
	}
	rest := key[i:]
	if rest == "" {
		return 0, false
	}
	sign := 1
	switch rest[0] {
	case '+':
		rest = rest[1:]
	case '-':
		sign, rest = -1, rest[1:]
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return 0, false
	}
	secs := 0
	for j, unit := range []int{3600, 60, 1}[:len(parts)] {
		p := parts[j]
		n, err := strconv.Atoi(p)
		if err != nil || p == "" || p[0] < '0' || p[0] > '9' || (j > 0 && (len(p) != 2 || n > 59)) || (j == 0 && n > 168) {
			return 0, false
		}
		secs += n * unit
	}
	return -sign * secs, true
}

// ZoneOffset is the offset east of UTC, in seconds, of loc at the instant
// us (a timestamp).
func ZoneOffset(us int64, loc *time.Location) int64 {
	if loc == time.UTC {
		return 0
	}
	_, off := time.Unix(sqltypes.TimestampUnixSeconds(us), 0).In(loc).Zone()
	return int64(off)
}

// ToLocal is the wall-clock time in loc of the instant us, as a timestamp
// without time zone. Infinities stay.
func ToLocal(us int64, loc *time.Location) int64 {
	if !sqltypes.IsFiniteTimestamp(us) || loc == time.UTC {
		return us
	}
	return us + ZoneOffset(us, loc)*1e6
}

// FromLocal is the instant at which loc's clocks show the wall-clock time
// local. A time skipped by a forward transition is read with the offset
// before it, a time repeated by a backward transition with the offset
// after it, as PostgreSQL's DetermineTimeZoneOffset does.
func FromLocal(local int64, loc *time.Location) int64 {
	if !sqltypes.IsFiniteTimestamp(local) || loc == time.UTC {
		return local
	}
	const day = 86400 * 1e6
	before := ZoneOffset(local-day, loc) * 1e6
	after := ZoneOffset(local+day, loc) * 1e6
	if before == after {
		if at := local - before; ZoneOffset(at, loc)*1e6 == before {
			return at
		}
	}
	ib, ia := local-before, local-after
	okB, okA := ZoneOffset(ib, loc)*1e6 == before, ZoneOffset(ia, loc)*1e6 == after
	switch {
	case okB && !okA:
		return ib
	case okA && !okB:
		return ia
	case okA && okB:
		return ia // repeated time: the later offset
	}
	return ib // skipped time: the earlier offset
}

// zoneArg resolves a zone given as text or as an interval (AT TIME ZONE
// INTERVAL '-08:00', east-positive, no months or days).
func zoneArg(v sqltypes.Value) (*time.Location, error) {
	if v.K == sqltypes.KindInterval {
		iv := v.Interval()
		if iv.Months != 0 || iv.Days != 0 {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "interval time zone %q must not include months or days", sqltypes.FormatText(v))
		}
		return time.FixedZone("", int(iv.Micros/1e6)), nil
	}
	return LookupZone(v.S)
}

// FixedZoneOffset reports the offset east of UTC, in seconds, of a zone
// given as AT TIME ZONE takes it (text or interval), when the zone has
// that one offset at every instant (UTC, an abbreviation, a POSIX or
// interval offset, a tz database zone without transitions). Only then is
// x AT TIME ZONE zone a shift, which keeps the order of x.
func FixedZoneOffset(zone sqltypes.Value) (int64, bool) {
	loc, err := zoneArg(zone)
	if err != nil {
		return 0, false
	}
	t := time.Unix(0, 0).In(loc)
	if start, end := t.ZoneBounds(); !start.IsZero() || !end.IsZero() {
		return 0, false // the zone has transitions
	}
	_, off := t.Zone()
	return int64(off), true
}
