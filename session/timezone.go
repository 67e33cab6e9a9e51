package session

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // the tz database travels in the binary: a fresh machine needs nothing

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The session's TimeZone, read as PostgreSQL's check_timezone reads it:
//
//   - "interval '...' [fields]" (SET TIME ZONE INTERVAL '+02:00' HOUR TO
//     MINUTE): that offset east of UTC;
//   - a number (SET TIME ZONE -7, or '5.5'): hours east of UTC;
//   - a tz database name in any case (europe/paris is Europe/Paris);
//   - a POSIX zone ("UTC+3", "+02:00", "EST5EDT,M3.2.0,M11.1.0"): its
//     offsets are west-positive, as POSIX has it (sqltypes.LoadZone).
//
// Offsets become PostgreSQL's POSIX spelling, which SHOW prints
// ("<+02>-02"); names their canonical spelling (a POSIX zone upper-cased). The location is what
// timestamptz values are shown in (wire, in text) and what the time
// functions read (builtins.Context.Location).

// parseTimeZone checks a TimeZone value and returns the spelling SHOW
// prints and the location.
func parseTimeZone(value string) (string, *time.Location, error) {
	v := strings.TrimSpace(value)
	invalid := func() error {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%s\"", value)
	}
	if len(v) >= 8 && strings.EqualFold(v[:8], "interval") {
		secs, err := intervalZone(v[8:])
		if err != nil {
			return "", nil, err
		}
		return offsetZone(secs)
	}
	if hours, err := strconv.ParseFloat(v, 64); err == nil {
		return offsetZone(int64(hours * 3600))
	}
	// A zone name is taken as written, spaces and all, as pg_tzset takes
	// it (' UTC' is no zone; 'A 1' is the POSIX zone of abbreviation "A ").
	loc, canon, ok := sqltypes.LoadZone(value)
	if !ok {
		return "", nil, invalid()
	}
	// pg_tz_acceptable: a zone whose clocks do not show :00 seconds at
	// midnight UTC of 2000-01-01 is taken for one that counts leap
	// seconds, which PostgreSQL refuses (a POSIX zone 'XXX5:00:30').
	if _, off := sqltypes.ZoneAt(loc, 946684800); off%60 != 0 {
		return "", nil, pgerr.New(pgerr.InvalidParameterValue, "time zone \"%s\" appears to use leap seconds", value).
			WithDetail("PostgreSQL does not support leap seconds.")
	}
	return canon, loc, nil
}

// intervalZone reads the " '...' [fields]" after INTERVAL as an offset in
// seconds east of UTC; months and days are refused as in PostgreSQL.
func intervalZone(rest string) (int64, error) {
	rest = strings.TrimSpace(rest)
	end := strings.LastIndexByte(rest, '\'')
	if !strings.HasPrefix(rest, "'") || end <= 0 {
		return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"interval %s\"", rest)
	}
	lit := strings.ReplaceAll(rest[1:end], "''", "'")
	typ := sqltypes.TypeInterval
	if fields := strings.TrimSpace(rest[end+1:]); fields != "" {
		f, ok := sqltypes.IntervalFieldsByName(strings.ToLower(fields))
		if !ok {
			return 0, pgerr.New(pgerr.SyntaxError, "invalid interval fields %q", fields)
		}
		typ = sqltypes.IntervalType(f, -1)
	}
	iv, err := sqltypes.ParseInterval(lit, typ)
	if err != nil {
		return 0, err
	}
	bad := func(what string) error {
		return pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"INTERVAL '%s'\"", lit).
			WithDetail("Cannot specify %s in time zone interval.", what)
	}
	switch {
	case iv.Months != 0:
		return 0, bad("months")
	case iv.Days != 0:
		return 0, bad("days")
	}
	return iv.Micros / 1e6, nil
}

// offsetZone is pg_tzset_offset: a fixed zone secs east of UTC, named in
// PostgreSQL's POSIX spelling ("<+05:30>-05:30").
func offsetZone(secs int64) (string, *time.Location, error) {
	abs := secs
	if abs < 0 {
		abs = -abs
	}
	if abs >= 168*3600 {
		return "", nil, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%d\"", secs/3600)
	}
	off := fmt.Sprintf("%02d", abs/3600)
	if abs%3600 != 0 {
		off += fmt.Sprintf(":%02d", abs/60%60)
		if abs%60 != 0 {
			off += fmt.Sprintf(":%02d", abs%60)
		}
	}
	name := "<-" + off + ">+" + off
	if secs > 0 {
		name = "<+" + off + ">-" + off
	}
	return name, time.FixedZone(posixAbbrev(name), int(secs)), nil
}

// posixAbbrev is the zone abbreviation of a POSIX zone without daylight
// rules, which DateStyle SQL, Postgres and German print after a
// timestamptz: its leading letters ("UTC" of "UTC+5"), or what is between
// < and > ("+05:30" of "<+05:30>-05:30"); "" for a bare offset ("+05:30"),
// as PostgreSQL prints nothing there.
func posixAbbrev(zone string) string {
	if strings.HasPrefix(zone, "<") {
		if end := strings.IndexByte(zone, '>'); end > 0 {
			return zone[1:end]
		}
	}
	i := 0
	for i < len(zone) && (zone[i] >= 'a' && zone[i] <= 'z' || zone[i] >= 'A' && zone[i] <= 'Z') {
		i++
	}
	return zone[:i]
}

// location is the session's time zone.
func (s *Session) location() *time.Location {
	if s.ext.loc == nil {
		return time.UTC
	}
	return s.ext.loc
}

// bindStyle is the session's settings statements are bound in: TimeZone
// and DateStyle's field order, which text constants are read in.
func (s *Session) bindStyle() sqltypes.Style {
	st := s.Style()
	st.Location = s.location()
	return st
}

// TimeZone implements wire.Session: timestamptz values are shown in it.
func (s *Session) TimeZone() *time.Location { return s.location() }
