package sqltypes

import "testing"

// TestParseDateStyle checks SET DateStyle's reading against PostgreSQL
// 15's answers, each set after 'Postgres, DMY' (SHOW DateStyle, or the
// error detail), DEFAULT being ISO, MDY, or SQL, DMY for a session that
// gave DateStyle=SQL,DMY at startup.
func TestParseDateStyle(t *testing.T) {
	cur := Style{Date: DateStylePostgres, Order: DateOrderDMY}
	startup := Style{Date: DateStyleSQL, Order: DateOrderDMY}
	for _, c := range []struct {
		in, want string
		def      Style
	}{
		{"SQL, DMY", "SQL, DMY", Style{}},
		{"European", "Postgres, DMY", Style{}},
		{"US", "Postgres, MDY", Style{}},
		{"NonEuropean", "Postgres, MDY", Style{}},
		{"German", "German, DMY", Style{}},
		{"YMD", "Postgres, YMD", Style{}},
		{"Postgres", "Postgres, DMY", Style{}},
		{"postgresfoo", "Postgres, DMY", Style{}},
		{"euroxyz", "Postgres, DMY", Style{}},
		{"default", "ISO, MDY", Style{}},
		{"sql,default", "SQL, MDY", Style{}},
		{"default", "SQL, DMY", startup},
		{"german, default", "German, DMY", startup},
		{"german, mdy", "German, MDY", Style{}},
		{`"SQL"`, "SQL, DMY", Style{}},
		{"", "Postgres, DMY", Style{}},
		{" sql ", "SQL, DMY", Style{}},
		{"sql, ymd", "SQL, YMD", Style{}},
		{"ISO, SQL", `Conflicting "datestyle" specifications.`, Style{}},
		{"DMY, MDY", `Conflicting "datestyle" specifications.`, Style{}},
		{"iso,,dmy", "List syntax is invalid.", Style{}},
		{"iso,", "List syntax is invalid.", Style{}},
		{"foo", `Unrecognized key word: "foo".`, Style{}},
	} {
		style, order, detail, ok := ParseDateStyle(c.in, cur, c.def)
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
		NewFloat(0.1), NewFloat(1e15), NewDate(19786), NewTimestamp(1709546400500000 - PGEpochMicros), NewTimestampTZ(1709546400250000 - PGEpochMicros),
		NewBytes([]byte{0, '\\', 0xff}), NewText("x"), NewBool(true),
	} {
		if got, want := string(AppendTextStyled(nil, Type{}, v, Style{})), string(AppendText(nil, v)); got != want {
			t.Errorf("%v: styled %q, default %q", v, got, want)
		}
	}
}
