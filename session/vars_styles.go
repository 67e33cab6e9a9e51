package session

import (
	"math"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The output-style settings. zproxy prints dates and times in the ISO
// style, reads ambiguous dates month first, prints intervals in the
// postgres, postgres_verbose or iso_8601 style (IntervalStyle) and floats
// in their shortest exact form; it accepts the settings that ask for that
// and refuses (0A000) the valid ones that ask for anything else, rather
// than accept them and print otherwise.

// styleVar checks and normalizes a value of DateStyle, IntervalStyle or
// extra_float_digits; ok is false for other settings.
func styleVar(name, value string) (normalized string, ok bool, err error) {
	switch name {
	case "datestyle":
		v, err := dateStyle(value)
		return v, true, err
	case "intervalstyle":
		switch v := strings.ToLower(strings.TrimSpace(value)); v {
		case "postgres", "postgres_verbose", "iso_8601":
			return v, true, nil
		case "sql_standard":
			// sql_standard also changes how interval input is read (a
			// leading minus negates every field), which zproxy does not.
			return "", true, pgerr.New(pgerr.FeatureNotSupported, "IntervalStyle %s is not supported", v).
				WithHint("zproxy prints intervals in the postgres, postgres_verbose and iso_8601 styles.")
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
		if n <= 0 {
			// Positive values all print the shortest exact form, as
			// PostgreSQL 12 and later do; zero and below round to fewer
			// digits, which zproxy does not.
			return "", true, pgerr.New(pgerr.FeatureNotSupported, "extra_float_digits %d is not supported", int(n)).
				WithHint("zproxy prints floating-point values in their shortest exact form, as extra_float_digits 1 to 3 do.")
		}
		return strconv.Itoa(int(n)), true, nil
	}
	return value, false, nil
}

// dateStyle reads DateStyle's comma-separated output style and field
// order, as PostgreSQL's check_datestyle does, keeping ISO and MDY.
func dateStyle(value string) (string, error) {
	for _, word := range strings.Split(value, ",") {
		w := strings.ToLower(strings.TrimSpace(word))
		switch w {
		case "iso", "mdy", "us", "noneuropean", "default":
		case "sql", "postgres", "german", "ymd", "dmy", "euro", "european":
			return "", pgerr.New(pgerr.FeatureNotSupported, "DateStyle %s is not supported", strings.TrimSpace(word)).
				WithHint("zproxy prints dates in the ISO style and reads ambiguous dates month first (DateStyle ISO, MDY).")
		default:
			return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"DateStyle\": %q", value).
				WithDetail("Unrecognized key word: %q.", strings.TrimSpace(word))
		}
	}
	return "ISO, MDY", nil
}

// IntervalStyle implements wire.Session: the IntervalStyle intervals are
// printed in.
func (s *Session) IntervalStyle() sqltypes.IntervalStyle {
	style, _ := sqltypes.IntervalStyleByName(s.varValue("intervalstyle"))
	return style
}
