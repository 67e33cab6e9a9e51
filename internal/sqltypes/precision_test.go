package sqltypes

import "testing"

// The type names of every date/time type with a precision read back as
// the same type, plain and as arrays, and TypeMod is the precision.
func TestDatetimePrecisionNames(t *testing.T) {
	for _, id := range []TypeID{Timestamp, TimestampTZ, Time, TimeTZ} {
		for p := -1; p <= MaxDatetimePrecision; p++ {
			typ := DatetimeType(id, p)
			for _, x := range []Type{typ, ArrayOf(typ)} {
				back, ok := ParseTypeName(x.String())
				if !ok || back != x {
					t.Errorf("ParseTypeName(%q) = %v, %v; want %v", x.String(), back, ok, x)
				}
			}
			if got := typ.TypeMod(); got != int32(p) {
				t.Errorf("%s: TypeMod %d, want %d", typ, got, p)
			}
		}
	}
}

// Text input into a type with a precision rounds as a cast does (COPY and
// bound parameters read through ParseText).
func TestDatetimePrecisionParseText(t *testing.T) {
	cases := []struct {
		typ  Type
		in   string
		want string
	}{
		{DatetimeType(Timestamp, 0), "1999-12-31 23:59:59.5", "1999-12-31 23:59:59"},
		{DatetimeType(Timestamp, 0), "2000-01-01 00:00:00.5", "2000-01-01 00:00:01"},
		{DatetimeType(Timestamp, 0), "1970-06-01 00:00:00.5", "1970-06-01 00:00:00"},
		{DatetimeType(TimestampTZ, 2), "2024-01-01 10:00:00.125+00", "2024-01-01 10:00:00.13+00"},
		{DatetimeType(Time, 0), "23:59:59.9", "24:00:00"},
		{DatetimeType(Time, 3), "10:00:00.0005", "10:00:00.001"},
		{DatetimeType(Timestamp, 6), "2024-01-01 10:00:00.123456", "2024-01-01 10:00:00.123456"},
		{DatetimeType(Timestamp, 1), "infinity", "infinity"},
	}
	for _, c := range cases {
		v, err := ParseText(c.typ, c.in)
		if err != nil {
			t.Errorf("ParseText(%s, %q): %v", c.typ, c.in, err)
			continue
		}
		if got := string(AppendText(nil, v)); got != c.want {
			t.Errorf("ParseText(%s, %q) = %s, want %s", c.typ, c.in, got, c.want)
		}
		cast, err := Cast(NewText(c.in), c.typ)
		if err != nil || string(AppendText(nil, cast)) != c.want {
			t.Errorf("Cast(%q, %s) = %s, %v; want %s", c.in, c.typ, AppendText(nil, cast), err, c.want)
		}
	}
}
