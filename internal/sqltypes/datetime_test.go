package sqltypes

import (
	"strconv"
	"strings"
	"testing"
)

func mustInterval(t *testing.T, s string) IntervalValue {
	t.Helper()
	iv, err := ParseInterval(s, TypeInterval)
	if err != nil {
		t.Fatalf("ParseInterval(%q): %v", s, err)
	}
	return iv
}

func mustTimestamp(t *testing.T, s string) int64 {
	t.Helper()
	us, err := ParseTimestamp(s, false)
	if err != nil {
		t.Fatalf("ParseTimestamp(%q): %v", s, err)
	}
	return us
}

func parseFactor(s string) float64 {
	if n, d, ok := strings.Cut(s, "/"); ok {
		a, _ := strconv.ParseFloat(n, 64)
		b, _ := strconv.ParseFloat(d, 64)
		return a / b
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

func runDatetimeCase(t *testing.T, c pgCase) (string, error) {
	ivOut := func(iv IntervalValue, err error) (string, error) {
		return string(AppendInterval(nil, iv)), err
	}
	tsOut := func(us int64, err error) (string, error) {
		return string(AppendTimestamp(nil, us, false)), err
	}
	switch c.fn {
	case "timestamp", "timestamptz", "date", "time", "timetz":
		typ := map[string]Type{"timestamp": TypeTimestamp, "timestamptz": TypeTimestampTZ, "date": TypeDate, "time": TypeTime, "timetz": TypeTimeTZ}[c.fn]
		v, err := ParseText(typ, c.a)
		return FormatText(v), err
	case "interval":
		return ivOut(ParseInterval(c.a, TypeInterval))
	case "intervaltyp":
		typ, ok := ParseTypeName("interval" + map[bool]string{true: "", false: " "}[strings.HasPrefix(c.b, "(")] + c.b)
		if !ok {
			t.Fatalf("type interval %s", c.b)
		}
		return ivOut(ParseInterval(c.a, typ))
	case "ivmul":
		return ivOut(MulInterval(mustInterval(t, c.a), parseFactor(c.b)))
	case "ivdiv":
		return ivOut(DivInterval(mustInterval(t, c.a), parseFactor(c.b)))
	case "justify_days":
		return ivOut(JustifyDays(mustInterval(t, c.a)))
	case "justify_hours":
		return ivOut(JustifyHours(mustInterval(t, c.a)))
	case "justify_interval":
		return ivOut(JustifyInterval(mustInterval(t, c.a)))
	case "ivneg":
		return ivOut(NegInterval(mustInterval(t, c.a)))
	case "ivadd":
		return ivOut(AddInterval(mustInterval(t, c.a), mustInterval(t, c.b)))
	case "ivsub":
		return ivOut(SubInterval(mustInterval(t, c.a), mustInterval(t, c.b)))
	case "ivcmp":
		return strconv.Itoa(CompareInterval(mustInterval(t, c.a), mustInterval(t, c.b))), nil
	case "tsadd":
		return tsOut(TimestampAddInterval(mustTimestamp(t, c.a), mustInterval(t, c.b)))
	case "tssub":
		return tsOut(TimestampSubInterval(mustTimestamp(t, c.a), mustInterval(t, c.b)))
	case "dateadd":
		d, err := ParseDate(c.a)
		if err != nil {
			t.Fatal(err)
		}
		return tsOut(DateAddInterval(d, mustInterval(t, c.b)))
	case "tsdiff":
		return ivOut(TimestampDiff(mustTimestamp(t, c.a), mustTimestamp(t, c.b)))
	case "age":
		return ivOut(Age(mustTimestamp(t, c.a), mustTimestamp(t, c.b)))
	case "isoout":
		return string(AppendIntervalISO(nil, mustInterval(t, c.a))), nil
	}
	t.Fatalf("unknown case %q", c.fn)
	return "", nil
}

func TestDatetimeAgainstPostgres(t *testing.T) {
	for _, c := range datetimePGCases {
		got, err := runDatetimeCase(t, c)
		checkPGCase(t, c, got, err)
	}
}
