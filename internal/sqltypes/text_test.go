package sqltypes

import (
	"math"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func TestParseFormatRoundTrip(t *testing.T) {
	cases := []struct {
		typ  Type
		in   string
		want string
	}{
		{TypeInt2, "-32768", "-32768"},
		{TypeInt8, " 42 ", "42"},
		{TypeFloat8, "1e20", "1e+20"},
		{TypeFloat8, "123456789012", "123456789012"},
		{TypeFloat8, "0.0001", "0.0001"},
		{TypeFloat8, "0.00001", "1e-05"},
		{TypeFloat8, "-0", "-0"},
		{TypeFloat8, "nan", "NaN"},
		{TypeFloat8, "-Infinity", "-Infinity"},
		{TypeFloat4, "3.14159265", "3.1415927"},
		{TypeBool, "yes", "t"},
		{TypeDate, "0001-01-01", "0001-01-01"},
		{TypeDate, "2024-02-29 13:00:00Z", "2024-02-29"},
		{TypeDate, "1969-12-31", "1969-12-31"},
		{TypeTimestamp, "2024-01-01T10:00:00.5", "2024-01-01 10:00:00.5"},
		{TypeTimestamp, "2024-01-01 10:00:00+05", "2024-01-01 10:00:00"},
		{TypeTimestampTZ, "2024-01-01 10:00:00+05", "2024-01-01 05:00:00+00"},
		{TypeTimestampTZ, "2024-01-01 10:00:00Z", "2024-01-01 10:00:00+00"},
		{TypeBytea, `\x00ff`, `\x00ff`},
		{TypeBytea, `a\\b\001`, `\x615c6201`},
		{TypeUUID, "{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{Type{ID: Varchar, Width: 3}, "ab  ", "ab "},
	}
	for _, c := range cases {
		v, err := ParseText(c.typ, c.in)
		if err != nil {
			t.Errorf("ParseText(%s, %q): %v", c.typ, c.in, err)
			continue
		}
		if got := string(AppendTextAs(nil, c.typ, v)); got != c.want {
			t.Errorf("ParseText(%s, %q) prints %q, want %q", c.typ, c.in, got, c.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		typ  Type
		in   string
		code string
	}{
		{TypeInt4, "abc", "22P02"},
		{TypeInt4, "2147483648", "22003"},
		{TypeInt8, "99999999999999999999", "22003"},
		{TypeFloat4, "1e39", "22003"},
		{TypeBool, "maybe", "22P02"},
		{TypeDate, "2024-13-01", "22008"},
		{TypeUUID, "xyz", "22P02"},
		{Type{ID: Varchar, Width: 2}, "abc", "22001"},
	}
	for _, c := range cases {
		_, err := ParseText(c.typ, c.in)
		if err == nil {
			t.Errorf("ParseText(%s, %q) succeeded", c.typ, c.in)
			continue
		}
		if code := errCode(err); code != c.code {
			t.Errorf("ParseText(%s, %q): code %s, want %s", c.typ, c.in, code, c.code)
		}
	}
}

func errCode(err error) string { return pgerr.CodeOf(err).String() }

func TestCompareTotalOrder(t *testing.T) {
	vals := []Value{NewFloat(math.Inf(-1)), NewInt(-3), NewFloat(-0.5), NewInt(0), NewFloat(0.5), NewInt(1), NewFloat(math.Inf(1)), NewFloat(math.NaN())}
	for i := range vals {
		for j := range vals {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := Compare(vals[i], vals[j]); got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", vals[i], vals[j], got, want)
			}
		}
	}
}
