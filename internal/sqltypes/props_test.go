package sqltypes

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/zproxy/zproxy/internal/pgerr"
)

func randomInterval(r *rand.Rand) IntervalValue {
	pick := func(full int64) int64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return r.Int64N(100) - 50
		}
		return r.Int64N(2*full+1) - full
	}
	return IntervalValue{
		Months: int32(pick(math.MaxInt32)),
		Days:   int32(pick(math.MaxInt32)),
		Micros: pick(math.MaxInt64 / 2),
	}
}

// TestIntervalTextRoundTrip: both output styles read back to the same
// months, days and µs (rows store the ISO form).
func TestIntervalTextRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 20000; i++ {
		iv := randomInterval(r)
		for _, text := range []string{string(AppendInterval(nil, iv)), string(AppendIntervalISO(nil, iv))} {
			back, err := ParseInterval(text, TypeInterval)
			if err != nil || back != iv {
				t.Fatalf("%+v -> %q -> %+v, %v", iv, text, back, err)
			}
		}
	}
}

// TestIntervalCompareProperty: Compare and Hash agree with the exact span
// (30-day months, 24-hour days) computed with big integers.
func TestIntervalCompareProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	span := func(iv IntervalValue) *big.Int {
		s := big.NewInt(int64(iv.Months))
		s.Mul(s, big.NewInt(30*usPerDay))
		s.Add(s, new(big.Int).Mul(big.NewInt(int64(iv.Days)), big.NewInt(usPerDay)))
		return s.Add(s, big.NewInt(iv.Micros))
	}
	for i := 0; i < 20000; i++ {
		a, b := randomInterval(r), randomInterval(r)
		if i%3 == 0 {
			// Same span, other fields: a month for 30 days, a day for 24h.
			b = a
			if b.Months > math.MinInt32 && b.Days < math.MaxInt32-30 {
				b.Months--
				b.Days += 30
			}
		}
		want := span(a).Cmp(span(b))
		x, y := NewInterval(a), NewInterval(b)
		if got := Compare(x, y); got != want {
			t.Fatalf("Compare(%v, %v) = %d, want %d", FormatText(x), FormatText(y), got, want)
		}
		if want == 0 && x.Hash(0) != y.Hash(0) {
			t.Fatalf("equal intervals %v, %v hash apart", FormatText(x), FormatText(y))
		}
	}
}

// TestTimestampTextRoundTrip covers the whole range, BC dates and years
// past 9999 included.
func TestTimestampTextRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	values := []int64{MinTimestamp, EndTimestamp - 1, 0, -1, TimestampInfinity, TimestampNegInfinity}
	for i := 0; i < 20000; i++ {
		lo := int64(MinTimestamp)
		values = append(values, lo+int64(r.Uint64N(uint64(EndTimestamp-1)-uint64(lo))))
	}
	for _, us := range values {
		for _, tz := range []bool{false, true} {
			text := string(AppendTimestamp(nil, us, tz))
			back, err := ParseTimestamp(text, tz)
			if err != nil || back != us {
				t.Fatalf("%d -> %q -> %d, %v", us, text, back, err)
			}
		}
		d := TimestampToDate(us)
		text := string(AppendDate(nil, d))
		back, err := ParseDate(text)
		if err != nil || back != d {
			t.Fatalf("date %d -> %q -> %d, %v", d, text, back, err)
		}
	}
	if _, err := ParseDate(string(AppendDate(nil, MaxDate))); err != nil {
		t.Errorf("max date: %v", err)
	}
}

// TestCivilDays checks the calendar conversion against time.Date-free
// brute force: consecutive days advance the date by one.
func TestCivilDays(t *testing.T) {
	y, m, d := civilFromDays(MinDate)
	if y != -4713 || m != 11 || d != 24 {
		t.Fatalf("MinDate is %d-%d-%d", y, m, d)
	}
	for day := int64(MinDate); day < MinDate+3_000_000; day += 1 {
		ny, nm, nd := civilFromDays(day + 1)
		switch {
		case nd == d+1 && nm == m && ny == y:
		case nd == 1 && d == daysInMonth(y, m) && (nm == m+1 && ny == y || m == 12 && nm == 1 && ny == y+1):
		default:
			t.Fatalf("%d-%d-%d then %d-%d-%d", y, m, d, ny, nm, nd)
		}
		if daysFromCivil(ny, nm, nd) != day+1 {
			t.Fatalf("daysFromCivil(%d-%d-%d) != %d", ny, nm, nd, day+1)
		}
		y, m, d = ny, nm, nd
	}
}

// TestJSONBEqualHash: documents that normalize alike compare equal and
// hash alike; json text is kept verbatim.
func TestJSONBEqualHash(t *testing.T) {
	groups := [][]string{
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, ` { "b" : 2 , "a" : 0, "a": 1 } `},
		{`[1.0, 2]`, `[1.00,2.0]`},
		{`"é"`, `"\u00e9"`},
	}
	for _, g := range groups {
		for _, a := range g {
			for _, b := range g {
				x, y := mustJSONB(t, a), mustJSONB(t, b)
				if !Equal(x, y) || x.Hash(0) != y.Hash(0) {
					t.Errorf("%s vs %s: equal %v", a, b, Equal(x, y))
				}
			}
		}
	}
	j, _ := ParseText(TypeJSON, ` {"b": 1,  "a" : 2} `)
	if FormatText(j) != ` {"b": 1,  "a" : 2} ` {
		t.Errorf("json text changed: %q", FormatText(j))
	}
}

// TestArrayRoundTrip: random arrays of text print and parse back equal,
// whatever characters the elements hold.
func TestArrayRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	alphabet := []string{"a", " ", "\"", "\\", "{", "}", ",", "NULL", "null", "é", "\t", "x"}
	for i := 0; i < 3000; i++ {
		n := r.IntN(6)
		elems := make([]Value, n)
		for k := range elems {
			if r.IntN(5) == 0 {
				continue
			}
			var b strings.Builder
			for j := r.IntN(4); j > 0; j-- {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			elems[k] = NewText(b.String())
		}
		v := NewArray1(TypeText, elems)
		text := FormatText(v)
		back, err := ParseText(ArrayOf(TypeText), text)
		if err != nil || !Equal(back, v) || FormatText(back) != text {
			t.Fatalf("%q -> %v, %v", text, FormatText(back), err)
		}
	}
}

// TestValueSize pins Value's size: it is copied on every hot path.
func TestValueSize(t *testing.T) {
	if s := unsafe.Sizeof(Value{}); s != 56 {
		t.Errorf("Value is %d bytes", s)
	}
	// Type holds an enum's, a domain's, a composite type's and a
	// user-defined range's definition pointers besides its ID and
	// modifiers.
	if s := unsafe.Sizeof(Type{}); s != 48 {
		t.Errorf("Type is %d bytes", s)
	}
}

// The fuzz targets feed arbitrary text to each new input function: no
// panic, only the documented SQLSTATEs, and what is accepted prints to a
// form that reads back as the same value.

func fuzzCodes(t *testing.T, what, s string, err error, codes ...string) {
	code := pgerr.CodeOf(err)
	for _, c := range codes {
		if c == code.String() {
			return
		}
	}
	t.Fatalf("%s(%q): code %s: %v", what, s, code, err)
}

func FuzzParseInterval(f *testing.F) {
	for _, c := range datetimePGCases {
		if c.fn == "interval" {
			f.Add(c.a)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		iv, err := ParseInterval(s, TypeInterval)
		if err != nil {
			fuzzCodes(t, "ParseInterval", s, err, pgerr.InvalidDatetimeFormat.String(), pgerr.IntervalFieldOverflow.String(), pgerr.DatetimeValueOutOfRange.String())
			return
		}
		for _, text := range []string{string(AppendInterval(nil, iv)), string(AppendIntervalISO(nil, iv))} {
			back, err := ParseInterval(text, TypeInterval)
			if err != nil || back != iv {
				t.Fatalf("%q -> %+v -> %q -> %+v, %v", s, iv, text, back, err)
			}
		}
	})
}

func FuzzParseTimestamp(f *testing.F) {
	for _, c := range datetimePGCases {
		if c.fn == "timestamp" {
			f.Add(c.a)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tz := range []bool{false, true} {
			us, err := ParseTimestamp(s, tz)
			if err != nil {
				fuzzCodes(t, "ParseTimestamp", s, err, pgerr.InvalidDatetimeFormat.String(), pgerr.DatetimeFieldOverflow.String(), pgerr.InvalidTimeZoneDisplacementValue.String(), pgerr.InvalidParameterValue.String())
				continue
			}
			if strings.Contains(strings.ToLower(s), "now") || strings.Contains(strings.ToLower(s), "day") {
				continue // relative to the clock
			}
			text := string(AppendTimestamp(nil, us, tz))
			if back, err := ParseTimestamp(text, tz); err != nil || back != us {
				t.Fatalf("%q -> %d -> %q -> %d, %v", s, us, text, back, err)
			}
		}
		if d, err := ParseDate(s); err == nil {
			text := string(AppendDate(nil, d))
			if back, err := ParseDate(text); err != nil || back != d {
				t.Fatalf("date %q -> %q -> %d, %v", s, text, back, err)
			}
		}
	})
}

// FuzzParseTime: time and timetz input never panics, fails only with
// PostgreSQL's codes, and what it accepts prints as text that parses back
// to the same value.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"10:30", "23:59:59.999999", "24:00", "1:2:3.25", "04:05 PM", "12:00 AM", "allballs",
		"10:00+02", "10:00:30.5-05:30", "2024-01-01 10:00 Z", "101112", "10:00 UTC", "24:00:00.000001", "10:00+15:59:59"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tz := range []bool{false, true} {
			v, err := ParseTime(s, tz)
			if err != nil {
				// 22023: a zone name no zone has ('12:00 A+'), as timetz_in
				// reports it.
				fuzzCodes(t, "ParseTime", s, err, pgerr.InvalidDatetimeFormat.String(), pgerr.DatetimeFieldOverflow.String(), pgerr.InvalidTimeZoneDisplacementValue.String(), pgerr.InvalidParameterValue.String())
				continue
			}
			typ := TypeTime
			if tz {
				typ = TypeTimeTZ
				if off := v.TimeTZ().Offset; off > 16*3600-1 || off < -(16*3600-1) {
					// A POSIX zone name gives offsets up to 167:59
					// ('0:0 A20' is -20), which PostgreSQL prints
					// but does not read back as offsets.
					continue
				}
			}
			text := FormatText(v)
			back, err := ParseTime(text, tz)
			if err != nil || !Identical(back, v) {
				t.Fatalf("%s %q -> %q -> %q, %v", typ, s, text, FormatText(back), err)
			}
		}
	})
}

func FuzzParseJSON(f *testing.F) {
	for _, c := range jsonPGCases {
		if c.fn == "json" {
			f.Add(c.a)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		jsonErr := ValidateJSON(s)
		if jsonErr != nil {
			fuzzCodes(t, "ValidateJSON", s, jsonErr, pgerr.InvalidTextRepresentation.String(), pgerr.StatementTooComplex.String())
		}
		j, err := ParseJSONB(s)
		if err != nil {
			fuzzCodes(t, "ParseJSONB", s, err, pgerr.InvalidTextRepresentation.String(), pgerr.UntranslatableCharacter.String(), pgerr.NumericValueOutOfRange.String(), pgerr.StatementTooComplex.String())
			return
		}
		if jsonErr != nil {
			t.Fatalf("%q is jsonb but not json: %v", s, jsonErr)
		}
		text := JSONBText(j)
		back, err := ParseJSONB(text)
		if err != nil || JSONBText(back) != text || CompareJSONB(j, back) != 0 {
			t.Fatalf("%q -> %q -> %v", s, text, err)
		}
	})
}

func FuzzParseArray(f *testing.F) {
	for _, c := range jsonPGCases {
		if c.fn == "array" {
			f.Add(c.a, c.b == "int")
		}
	}
	f.Fuzz(func(t *testing.T, s string, ints bool) {
		typ := ArrayOf(TypeText)
		if ints {
			typ = ArrayOf(TypeInt8)
		}
		v, err := ParseText(typ, s)
		if err != nil {
			fuzzCodes(t, "ParseArray", s, err, pgerr.InvalidTextRepresentation.String(), pgerr.NumericValueOutOfRange.String(),
				pgerr.ProgramLimitExceeded.String(), pgerr.InvalidParameterValue.String())
			return
		}
		text := FormatText(v)
		back, err := ParseText(typ, text)
		if err != nil || !Equal(back, v) || FormatText(back) != text {
			t.Fatalf("%q -> %q -> %v", s, text, err)
		}
	})
}

func TestIdentical(t *testing.T) {
	n := func(s string) Value { return mustNumeric(t, s) }
	pairs := []struct {
		a, b      Value
		identical bool
	}{
		{n("1.0"), n("1.00"), false},
		{n("1.0"), n("1.0"), true},
		{NewInterval(IntervalValue{Months: 1}), NewInterval(IntervalValue{Days: 30}), false},
		{NewFloat(0), NewFloat(math.Copysign(0, -1)), false},
		{NewFloat(math.NaN()), NewFloat(math.NaN()), true},
		{mustJSONB(t, `{"a":1,"b":2}`), mustJSONB(t, `{"b":2,"a":1}`), true},
		{mustJSONB(t, `[1.0]`), mustJSONB(t, `[1]`), false},
		{NewArray1(TypeNumeric, []Value{n("1.0")}), NewArray1(TypeNumeric, []Value{n("1")}), false},
		{NewArray1(TypeInt8, []Value{NewInt(1), Null}), NewArray1(TypeInt8, []Value{NewInt(1), Null}), true},
		{NewText("a"), NewText("a"), true},
		{NewBPChar("a  "), NewBPChar("a "), false},
	}
	for _, p := range pairs {
		if got := Identical(p.a, p.b); got != p.identical {
			t.Errorf("Identical(%s, %s) = %v", FormatText(p.a), FormatText(p.b), got)
		}
		if !Equal(p.a, p.b) {
			t.Errorf("%s and %s not Equal", FormatText(p.a), FormatText(p.b))
		}
	}
}
