package builtins

import (
	"cmp"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// jsonpath's .datetime() and .datetime(template), as PostgreSQL 15's
// executeDateTimeMethod: a string item becomes a date, time, timetz,
// timestamp or timestamptz item, read by the template in to_timestamp's
// standard mode (parse_datetime with strict), or without a template by
// the first of a fixed list of ISO formats that reads the whole string.
// The item prints as its ISO string; inside the path it compares with
// other datetime items, converting between zoned and unzoned types only
// in the _tz functions (which read the session's time zone).

// jpDatetimeFormats is executeDateTimeMethod's fmt_str, in its order: the
// first format that reads the string decides the item's type.
var jpDatetimeFormats = []string{
	"yyyy-mm-dd",
	"HH24:MI:SS.USTZH:TZM",
	"HH24:MI:SS.USTZH",
	"HH24:MI:SSTZH:TZM",
	"HH24:MI:SSTZH",
	"HH24:MI:SS.US",
	"HH24:MI:SS",
	"yyyy-mm-dd HH24:MI:SS.USTZH:TZM",
	"yyyy-mm-dd HH24:MI:SS.USTZH",
	"yyyy-mm-dd HH24:MI:SSTZH:TZM",
	"yyyy-mm-dd HH24:MI:SSTZH",
	"yyyy-mm-dd HH24:MI:SS.US",
	"yyyy-mm-dd HH24:MI:SS",
	`yyyy-mm-dd"T"HH24:MI:SS.USTZH:TZM`,
	`yyyy-mm-dd"T"HH24:MI:SS.USTZH`,
	`yyyy-mm-dd"T"HH24:MI:SSTZH:TZM`,
	`yyyy-mm-dd"T"HH24:MI:SSTZH`,
	`yyyy-mm-dd"T"HH24:MI:SS.US`,
	`yyyy-mm-dd"T"HH24:MI:SS`,
}

// jpDatetimeFormatNodes are jpDatetimeFormats parsed once.
var jpDatetimeFormatNodes = func() [][]fmtNode {
	out := make([][]fmtNode, len(jpDatetimeFormats))
	for i, f := range jpDatetimeFormats {
		out[i] = parseTemplate(f, dchKeywords, true)
	}
	return out
}()

// datetime evaluates .datetime([template]) on one (unwrapped) item.
func (e *jpExec) datetime(it *sqltypes.JSONPathItem, jb *sqltypes.JSONValue, found *[]*sqltypes.JSONValue) (jpRes, error) {
	if jb.Kind != sqltypes.JSONString || jb.Datetime != nil {
		return jpNotFound, e.fail(pgerr.New(pgerr.InvalidArgumentForSQLJSONDatetimeFunction,
			"jsonpath item method .%s() can only be applied to a string", sqltypes.JSONPathOperator(it.Kind)))
	}
	var dt *sqltypes.JSONDatetime
	if it.Bool {
		nodes, err := jpDatetimeTemplate(it.Str)
		if err != nil {
			// parse_format raises its errors whatever the silent flag.
			return jpNotFound, err
		}
		if dt, err = parseDatetime(jb.Str, nodes); err != nil {
			return jpNotFound, e.fail(err)
		}
	} else {
		for _, nodes := range jpDatetimeFormatNodes {
			if d, err := parseDatetime(jb.Str, nodes); err == nil {
				dt = d
				break
			}
		}
		if dt == nil {
			return jpNotFound, e.fail(pgerr.New(pgerr.InvalidArgumentForSQLJSONDatetimeFunction,
				"datetime format is not recognized: \"%s\"", jb.Str).
				WithHint("Use a datetime template argument to specify the input data format."))
		}
	}
	v := &sqltypes.JSONValue{Kind: sqltypes.JSONString, Str: string(sqltypes.AppendJSONDatetime(nil, dt)), Datetime: dt}
	return e.next(it, v, found)
}

// jpDatetimeTemplate parses a template in standard mode (parse_format's
// STD_FLAG): outside quotes, only the separators -./,':; and space may
// stand between patterns.
func jpDatetimeTemplate(tmpl string) ([]fmtNode, error) {
	nodes := parseTemplate(tmpl, dchKeywords, true)
	for _, n := range nodes {
		if n.kw == nil && !n.quoted && !strings.Contains("-./,':; ", n.lit) {
			return nil, badFormat("invalid datetime format separator: \"%s\"", n.lit)
		}
	}
	return nodes, nil
}

// parseDatetime is parse_datetime in strict mode: the template's
// patterns decide the type (date fields, time fields, zone fields), the
// input must hold them all.
func parseDatetime(input string, nodes []fmtNode) (*sqltypes.JSONDatetime, error) {
	var dated, timed, zoned bool
	for _, n := range nodes {
		if n.kw == nil {
			continue
		}
		switch strings.ToUpper(n.kw.id) {
		case "FX":
		case "A.M.", "P.M.", "AM", "PM", "HH", "HH12", "HH24", "MI", "MS", "SS", "SSSS",
			"FF1", "FF2", "FF3", "FF4", "FF5", "FF6", "US":
			timed = true
		case "TZ", "TZH", "TZM", "OF":
			zoned = true
		default:
			dated = true
		}
	}
	if len(nodes) == 0 {
		// do_to_timestamp reads nothing with an empty template.
		return nil, badFormat("datetime format is not dated and not timed")
	}
	f, err := readFields(input, nodes, true)
	if err != nil {
		return nil, err
	}
	c, hasZone, off, err := f.toTm(input)
	if err != nil {
		return nil, err
	}
	round := func(us int64) (int64, error) {
		if f.ff != 0 {
			return RoundTimestamp(us, f.ff)
		}
		return us, nil
	}
	outOfRange := func(typ string) error {
		return pgerr.New(pgerr.DatetimeFieldOverflow, "%s out of range", typ)
	}
	missingZone := func(typ string) error {
		return badFormat("missing time zone in input string for type %s", typ)
	}
	clock := ((c.Hour*60+c.Minute)*60+c.Second)*1e6 + c.Micro
	switch {
	case dated && timed:
		local, ok := sqltypes.CivilTimestamp(c)
		if !zoned {
			if !ok {
				return nil, outOfRange("timestamp")
			}
			us, err := round(local)
			if err != nil {
				return nil, err
			}
			return &sqltypes.JSONDatetime{V: sqltypes.NewTimestamp(us)}, nil
		}
		if !hasZone {
			return nil, missingZone("timestamptz")
		}
		if !ok {
			return nil, outOfRange("timestamptz")
		}
		us, err := round(local - off*1e6)
		if err != nil {
			return nil, err
		}
		return &sqltypes.JSONDatetime{V: sqltypes.NewTimestampTZ(us), Offset: int32(off)}, nil
	case dated:
		if zoned {
			return nil, badFormat("datetime format is zoned but not timed")
		}
		days := sqltypes.DaysFromCivil(c.Year, c.Month, c.Day)
		if days < sqltypes.MinDate || days > sqltypes.MaxDate {
			return nil, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range: \"%s\"", input)
		}
		return &sqltypes.JSONDatetime{V: sqltypes.NewDate(days)}, nil
	case timed:
		us, err := round(clock)
		if err != nil {
			return nil, err
		}
		if !zoned {
			return &sqltypes.JSONDatetime{V: sqltypes.NewTime(us)}, nil
		}
		if !hasZone {
			return nil, missingZone("timetz")
		}
		return &sqltypes.JSONDatetime{V: sqltypes.NewTimeTZ(sqltypes.TimeTZValue{Micros: us, Offset: int32(off)})}, nil
	}
	return nil, badFormat("datetime format is not dated and not timed")
}

// jpDatetimeTypeName is .type() of a datetime item.
func jpDatetimeTypeName(d *sqltypes.JSONDatetime) string {
	switch d.V.K {
	case sqltypes.KindDate:
		return "date"
	case sqltypes.KindTime:
		return "time without time zone"
	case sqltypes.KindTimeTZ:
		return "time with time zone"
	case sqltypes.KindTimestamp:
		return "timestamp without time zone"
	}
	return "timestamp with time zone"
}

// compare is compareItems with datetime items: two of them compare as
// compareDatetime does; one against a non-null item of another kind is
// unknown (a datetime is not its string).
func (e *jpExec) compare(op sqltypes.JSONPathKind, a, b *sqltypes.JSONValue) (jpBool, error) {
	if a.Datetime == nil && b.Datetime == nil {
		return jpCompare(op, a, b), nil
	}
	if a.Datetime == nil || b.Datetime == nil {
		if a.Kind == sqltypes.JSONNull || b.Kind == sqltypes.JSONNull {
			return jpCompare(op, a, b), nil
		}
		return jpUnknown, nil
	}
	c, ok, err := e.compareDatetime(a.Datetime.V, b.Datetime.V)
	if err != nil || !ok {
		return jpUnknown, err
	}
	return jpCmpResult(op, c), nil
}

// jpDatetimeKindName names a datetime item's type in the conversion
// errors; jpDatetimeRank orders the types from unzoned and coarse to zoned
// (dates and timestamps, then times).
var (
	jpDatetimeKindName = map[sqltypes.Kind]string{sqltypes.KindDate: "date", sqltypes.KindTime: "time", sqltypes.KindTimeTZ: "timetz",
		sqltypes.KindTimestamp: "timestamp", sqltypes.KindTimestampTZ: "timestamptz"}
	jpDatetimeRank = map[sqltypes.Kind]int{sqltypes.KindDate: 0, sqltypes.KindTimestamp: 1, sqltypes.KindTimestampTZ: 2, sqltypes.KindTime: 3, sqltypes.KindTimeTZ: 4}
)

// compareDatetime is PostgreSQL's compareDatetime: dates and timestamps
// compare with each other, times with times; ok false for the others
// (date against time). A conversion between zoned and unzoned values
// needs the _tz functions' time zone, else it is 0A000 even where errors
// are suppressed, as checkTimezoneIsUsedForCast raises it.
func (e *jpExec) compareDatetime(a, b sqltypes.Value) (c int, ok bool, err error) {
	// The conversions go from the unzoned or coarser type to the other,
	// so order the pair that way and flip the answer back.
	sign := 1
	if jpDatetimeRank[a.K] > jpDatetimeRank[b.K] {
		a, b, sign = b, a, -1
	}
	if (a.K == sqltypes.KindTime || a.K == sqltypes.KindTimeTZ) != (b.K == sqltypes.KindTime || b.K == sqltypes.KindTimeTZ) {
		return 0, false, nil
	}
	zoned := func(k sqltypes.Kind) bool { return k == sqltypes.KindTimestampTZ || k == sqltypes.KindTimeTZ }
	if zoned(b.K) && !zoned(a.K) && e.tz == nil {
		return 0, false, pgerr.New(pgerr.FeatureNotSupported, "cannot convert value from %s to %s without time zone usage", jpDatetimeKindName[a.K], jpDatetimeKindName[b.K]).
			WithHint("Use *_tz() function for time zone support.")
	}
	switch {
	case a.K == b.K && a.K == sqltypes.KindTimeTZ:
		c = sqltypes.CompareTimeTZ(a.TimeTZ(), b.TimeTZ())
	case a.K == b.K:
		c = cmp.Compare(a.I, b.I)
	case a.K == sqltypes.KindTime: // against timetz: time_timetz, today's offset in the zone
		c = sqltypes.CompareTimeTZ(sqltypes.TimeToTimeTZ(a.I, time.Now(), e.tz), b.TimeTZ())
	default:
		at := a.I
		if a.K == sqltypes.KindDate {
			ts, err := sqltypes.DateToTimestamp(a.I)
			if err != nil {
				// Past timestamp's range, as date2timestamp_opt_overflow
				// reports it: after (or before) every timestamp.
				return sign * cmp.Compare(a.I, 0), true, nil
			}
			at = ts
		}
		if b.K == sqltypes.KindTimestampTZ {
			at = FromLocal(at, e.tz)
		}
		c = cmp.Compare(at, b.I)
	}
	return sign * c, true, nil
}
