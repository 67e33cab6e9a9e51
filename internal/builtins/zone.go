package builtins

import (
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
	key := strings.ToLower(name)
	if l, ok := zoneCache.Load(key); ok {
		return l.(*time.Location), nil
	}
	loc := lookupZone(name, key)
	if loc == nil {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "time zone %q not recognized", name)
	}
	zoneCache.Store(key, loc)
	return loc, nil
}

// lookupZone is timestamptz_zone's order: an abbreviation, else what
// pg_tzset finds (sqltypes.LoadZone: a time zone database name or a POSIX
// zone, daylight rules and all).
func lookupZone(name, key string) *time.Location {
	if off, ok := zoneAbbrevs[key]; ok {
		if off == 0 {
			return time.UTC
		}
		return time.FixedZone(strings.ToUpper(key), off)
	}
	if loc, _, ok := sqltypes.LoadZone(name); ok {
		return loc
	}
	return nil
}

// ZoneOffset is the offset east of UTC, in seconds, of loc at the instant
// us (a timestamp).
func ZoneOffset(us int64, loc *time.Location) int64 {
	return sqltypes.ZoneOffset(us, loc)
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
// after it, as PostgreSQL's DetermineTimeZoneOffset does
// (sqltypes.FromLocal, which timestamptz input uses too).
func FromLocal(local int64, loc *time.Location) int64 {
	return sqltypes.FromLocal(local, loc)
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
	return sqltypes.FixedZoneOffset(loc)
}
