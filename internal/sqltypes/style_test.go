package sqltypes

import "testing"

// TestParseDateStyle checks SET DateStyle's reading against PostgreSQL
// 15's answers, each set after 'Postgres, DMY' (SHOW DateStyle, or the
// error detail).
func TestParseDateStyle(t *testing.T) {
	cur := Style{Date: DateStylePostgres, Order: DateOrderDMY}
	for _, c := range []struct{ in, want string }{
		{"SQL, DMY", "SQL, DMY"},
		{"European", "Postgres, DMY"},
		{"US", "Postgres, MDY"},
		{"NonEuropean", "Postgres, MDY"},
		{"German", "German, DMY"},
		{"YMD", "Postgres, YMD"},
		{"Postgres", "Postgres, DMY"},
		{"postgresfoo", "Postgres, DMY"},
		{"euroxyz", "Postgres, DMY"},
		{"default", "ISO, MDY"},
		{"sql,default", "SQL, MDY"},
		{"german, mdy", "German, MDY"},
		{`"SQL"`, "SQL, DMY"},
		{"", "Postgres, DMY"},
		{" sql ", "SQL, DMY"},
		{"sql, ymd", "SQL, YMD"},
		{"ISO, SQL", `Conflicting "datestyle" specifications.`},
		{"DMY, MDY", `Conflicting "datestyle" specifications.`},
		{"iso,,dmy", "List syntax is invalid."},
		{"iso,", "List syntax is invalid."},
		{"foo", `Unrecognized key word: "foo".`},
	} {
		style, order, detail, ok := ParseDateStyle(c.in, cur)
		got := detail
		if ok {
			got = FormatDateStyle(style, order)
		}
		if got != c.want {
			t.Errorf("DateStyle %q: got %q, PostgreSQL %q", c.in, got, c.want)
		}
	}
}

// TestAppendTextStyledDefaults checks that the zero Style prints as
// AppendText does, so sessions at PostgreSQL's defaults are unchanged.
func TestAppendTextStyledDefaults(t *testing.T) {
	for _, v := range []Value{
		NewFloat(0.1), NewFloat(1e15), NewDate(19786), NewTimestamp(1709546400500000), NewTimestampTZ(1709546400250000),
		NewBytes([]byte{0, '\\', 0xff}), NewText("x"), NewBool(true),
	} {
		if got, want := string(AppendTextStyled(nil, Type{}, v, Style{})), string(AppendText(nil, v)); got != want {
			t.Errorf("%v: styled %q, default %q", v, got, want)
		}
	}
}
