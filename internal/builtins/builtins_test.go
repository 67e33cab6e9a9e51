package builtins

import (
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestResolveOperator checks operator result types against PostgreSQL 15's
// (pg_typeof of each expression).
func TestResolveOperator(t *testing.T) {
	U := sqltypes.TypeUnknown
	cases := []struct {
		op   string
		args []sqltypes.Type
		want string // result type, or the SQLSTATE of the error
	}{
		{"+", []sqltypes.Type{tInt2, tInt4}, "integer"},
		{"*", []sqltypes.Type{tInt2, tInt2}, "smallint"},
		{"+", []sqltypes.Type{tInt4, tInt8}, "bigint"},
		{"+", []sqltypes.Type{tFloat4, tInt4}, "double precision"},
		{"+", []sqltypes.Type{tFloat4, tFloat4}, "real"},
		{"+", []sqltypes.Type{tNumeric, tInt4}, "numeric"},
		{"+", []sqltypes.Type{tNumeric, tFloat8}, "double precision"},
		{"/", []sqltypes.Type{tInt8, tNumeric}, "numeric"},
		{"^", []sqltypes.Type{tInt4, tInt4}, "double precision"},
		{"^", []sqltypes.Type{tNumeric, tInt4}, "numeric"},
		{"-", []sqltypes.Type{tTSTZ, tInterval}, "timestamp with time zone"},
		{"-", []sqltypes.Type{tTS, tTS}, "interval"},
		{"-", []sqltypes.Type{tDate, tDate}, "integer"},
		{"+", []sqltypes.Type{tDate, tInt4}, "date"},
		{"+", []sqltypes.Type{tDate, tInterval}, "timestamp without time zone"},
		{"*", []sqltypes.Type{tInterval, tInt4}, "interval"},
		{"-", []sqltypes.Type{tInt2}, "smallint"},
		{"-", []sqltypes.Type{tNumeric}, "numeric"},
		{"%", []sqltypes.Type{tInt2, tInt2}, "smallint"},
		{"-", []sqltypes.Type{tTS, U}, "interval"}, // the unknown side is read as timestamp
		{"+", []sqltypes.Type{tTS, U}, "timestamp without time zone"},
		{"+", []sqltypes.Type{tDate, U}, pgerr.AmbiguousFunction.String()},
		{"+", []sqltypes.Type{U, U}, pgerr.AmbiguousFunction.String()},
		{"%", []sqltypes.Type{tFloat8, tFloat8}, pgerr.UndefinedFunction.String()},
		{"+", []sqltypes.Type{tDate, tDate}, pgerr.UndefinedFunction.String()},
		{"-", []sqltypes.Type{sqltypes.TypeText}, pgerr.UndefinedFunction.String()},
	}
	for _, c := range cases {
		got := ""
		res, err := ResolveOperator(c.op, c.args)
		if err != nil {
			got = pgerr.CodeOf(err).String()
		} else {
			got = res.Result.String()
		}
		if got != c.want {
			t.Errorf("%s %v = %s (%v), want %s", c.op, c.args, got, err, c.want)
		}
	}
}

// TestZones checks zone names, abbreviations and POSIX offsets (west is
// positive) and the reading of wall-clock times at daylight-saving changes.
func TestZones(t *testing.T) {
	jan := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC).UnixMicro()
	jul := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC).UnixMicro()
	for _, c := range []struct {
		name     string
		at       int64
		offHours float64
	}{
		{"UTC", jan, 0}, {"utc", jan, 0}, {"EST", jul, -5}, {"CET", jul, 1}, {"America/New_York", jul, -4},
		{"america/new_york", jan, -5}, {"Asia/Kolkata", jan, 5.5}, {"+03", jan, -3}, {"UTC+3", jan, -3},
		{"-05:30", jan, 5.5}, {"EST5EDT", jul, -4},
	} {
		loc, err := LookupZone(c.name)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := float64(ZoneOffset(c.at, loc)) / 3600; got != c.offHours {
			t.Errorf("%s: offset %v hours, want %v", c.name, got, c.offHours)
		}
	}
	if _, err := LookupZone("Nowhere/Foo"); pgerr.CodeOf(err) != pgerr.InvalidParameterValue {
		t.Errorf("unknown zone: %v", err)
	}
	ny, _ := LookupZone("America/New_York")
	local := func(y int, m time.Month, d, h, mi int) int64 {
		return sqltypes.TimestampFromTime(time.Date(y, m, d, h, mi, 0, 0, time.UTC))
	}
	for _, c := range []struct {
		local, want int64
	}{
		{local(2024, 3, 10, 2, 30), local(2024, 3, 10, 7, 30)}, // skipped: read with the offset before (EST)
		{local(2024, 11, 3, 1, 30), local(2024, 11, 3, 6, 30)}, // repeated: the offset after (EST)
		{local(2024, 7, 1, 12, 0), local(2024, 7, 1, 16, 0)},
	} {
		if got := FromLocal(c.local, ny); got != c.want {
			t.Errorf("FromLocal(%v) = %v, want %v", sqltypes.TimestampTime(c.local).UTC(), sqltypes.TimestampTime(got).UTC(), sqltypes.TimestampTime(c.want).UTC())
		}
	}
	// A day across the spring change is 23 hours long.
	start := FromLocal(local(2024, 3, 10, 0, 0), ny)
	next, err := AddOnCalendar(start, sqltypes.IntervalValue{Days: 1}, ny)
	if err != nil || next-start != 23*3600e6 {
		t.Errorf("a March 10 day in New York lasts %v, %v", time.Duration(next-start)*time.Microsecond, err)
	}
}

// FuzzTemplates runs to_char, to_timestamp and to_date over arbitrary
// templates and inputs: they may fail, never panic.
func FuzzTemplates(f *testing.F) {
	for _, s := range []string{"YYYY-MM-DD HH24:MI:SS.US TZ OF", "FMDay, DDth Month Y,YYY BC", "999G999D99S", "FM0.00EEEE", "RN",
		"\"quoted\\\" text\" IYYY-IW-ID", "PR9.9V99", "9.9.9", "FXYYYYMMDD", "SSSSS AM a.m.", "TZH:TZM J Q W WW CC"} {
		f.Add(s, "2024-03-05 14:07:09.5 +05:30")
	}
	f.Add("DD Mon YYYY", "05 Mar 2024")
	f.Add("Y,YYY", "1,99")
	f.Fuzz(func(t *testing.T, tmpl, input string) {
		_, _ = TimestampToChar(1709647629123456, time.UTC, tmpl)
		_, _ = TimestampToChar(-62135596800000000, nil, tmpl)
		_, _ = IntervalToChar(sqltypes.IntervalValue{Months: -14, Days: 3, Micros: -3723000001}, tmpl)
		for _, v := range []sqltypes.Value{sqltypes.NewInt(-12345), sqltypes.NewFloat(1.5e300), sqltypes.NumericFromInt(7)} {
			_, _ = NumberToChar(v, sqltypes.KindType(v.K), tmpl)
		}
		_, _ = ToTimestamp(input, tmpl, time.UTC)
		_, _ = ToDate(input, tmpl)
	})
}
