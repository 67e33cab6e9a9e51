package session

import (
	"math"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The output-style settings: DateStyle, IntervalStyle, extra_float_digits
// and bytea_output, which Style hands to everything that prints a value
// (wire's rows and COPY, casts to text through builtins.Context.Style).
// IntervalStyle sql_standard also changes how interval text is read
// (sqltypes.ParseIntervalStyled).

// styleVar checks and normalizes a value of DateStyle, IntervalStyle or
// extra_float_digits; ok is false for other settings. cur is the
// setting's value now: DateStyle keeps the part a new value leaves out.
func styleVar(name, value, cur, reset string) (normalized string, ok bool, err error) {
	switch name {
	case "datestyle":
		v, err := dateStyle(value, cur, reset)
		return v, true, err
	case "intervalstyle":
		switch v := strings.ToLower(strings.TrimSpace(value)); v {
		case "postgres", "postgres_verbose", "sql_standard", "iso_8601":
			return v, true, nil
		}
		return "", true, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"intervalstyle\": %q", value).
			WithHint("Available values: postgres, postgres_verbose, sql_standard, iso_8601.")
	case "extra_float_digits":
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return "", true, pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"extra_float_digits\": %q", value)
		}
		n := math.RoundToEven(f)
		if n < -15 || n > 3 {
			return "", true, pgerr.New(pgerr.InvalidParameterValue, "%s is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)", strconv.FormatFloat(n, 'f', -1, 64))
		}
		return strconv.Itoa(int(n)), true, nil
	}
	return value, false, nil
}

// dateStyle reads DateStyle's comma-separated output style and field
// order as PostgreSQL's check_datestyle does; the part value leaves out
// stays as in cur, and DEFAULT is reset, the value RESET restores (the
// client's startup value, else ISO, MDY).
func dateStyle(value, cur, reset string) (string, error) {
	var now, def sqltypes.Style
	def.Date, def.Order, _, _ = sqltypes.ParseDateStyle(reset, sqltypes.Style{}, sqltypes.Style{})
	now.Date, now.Order, _, _ = sqltypes.ParseDateStyle(cur, def, def)
	style, order, detail, ok := sqltypes.ParseDateStyle(value, now, def)
	if !ok {
		return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"DateStyle\": \"%s\"", value).
			WithDetail("%s", detail)
	}
	return sqltypes.FormatDateStyle(style, order), nil
}

// Style implements wire.Session: the output settings values are printed
// in (its Location is left to the caller, which has TimeZone).
func (s *Session) Style() sqltypes.Style { return s.derived().style }

// styleOfVars makes the session's Style from its settings.
func (s *Session) styleOfVars() sqltypes.Style {
	key := styleKey{s.varValue("intervalstyle"), s.varValue("datestyle"), s.varValue("extra_float_digits"),
		s.varValue("bytea_output"), s.varValue("xmloption")}
	var st sqltypes.Style
	st.Interval, _ = sqltypes.IntervalStyleByName(key.interval)
	st.Date, st.Order, _, _ = sqltypes.ParseDateStyle(key.date, sqltypes.Style{}, sqltypes.Style{})
	if efd, err := strconv.Atoi(key.floatDigits); err == nil && efd <= 0 {
		st.RoundFloats, st.ExtraFloatDigits = true, int8(efd)
	}
	st.ByteaEscape = key.bytea == "escape"
	st.XMLDocument = key.xml == "document"
	return st
}

// styleKey are the settings a Style is made of.
type styleKey struct{ interval, date, floatDigits, bytea, xml string }
