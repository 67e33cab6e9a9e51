package sqltypes

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// ParseText converts PostgreSQL text input for type t into a Value. Errors
// carry SQLSTATE 22P02 (bad syntax), 22003 (out of range), 22007/22008 (bad
// date or time) or 22001 (too long for varchar(n)).
func ParseText(t Type, s string) (Value, error) {
	switch t.ID {
	case Int2, Int4, Int8:
		i, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return Null, outOfRange(t)
			}
			return Null, invalid(t, s)
		}
		return CheckRange(t, NewInt(i))
	case Float4, Float8:
		f, err := parseFloat(s)
		if err != nil {
			return Null, invalid(t, s)
		}
		if t.ID == Float4 {
			if !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) > math.MaxFloat32 {
				return Null, outOfRange(t)
			}
			f = float64(float32(f))
		}
		return NewFloat(f), nil
	case Text, Unknown:
		return NewText(s), nil
	case Varchar:
		return CheckWidth(t, NewText(s))
	case Bool:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "t", "true", "yes", "y", "on", "1":
			return NewBool(true), nil
		case "f", "false", "no", "n", "off", "0":
			return NewBool(false), nil
		}
		return Null, invalid(t, s)
	case Timestamp, TimestampTZ:
		us, err := ParseTimestamp(s, t.ID == TimestampTZ)
		if err != nil {
			return Null, err
		}
		if t.ID == TimestampTZ {
			return NewTimestampTZ(us), nil
		}
		return NewTimestamp(us), nil
	case Date:
		d, err := ParseDate(s)
		if err != nil {
			return Null, err
		}
		return NewDate(d), nil
	case Bytea:
		b, err := parseBytea(s)
		if err != nil {
			return Null, err
		}
		return NewBytes(b), nil
	case UUID:
		u, err := ParseUUID(s)
		if err != nil {
			return Null, err
		}
		return NewUUID(u), nil
	}
	return Null, pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported", t)
}

func invalid(t Type, s string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: %q", t, s)
}

func outOfRange(t Type) error {
	name := t.String()
	return pgerr.New(pgerr.NumericValueOutOfRange, "value out of range for type %s", name)
}

// CheckRange verifies an integer fits t (smallint, integer, bigint).
func CheckRange(t Type, v Value) (Value, error) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	switch t.ID {
	case Int2:
		lo, hi = math.MinInt16, math.MaxInt16
	case Int4:
		lo, hi = math.MinInt32, math.MaxInt32
	}
	if v.I < lo || v.I > hi {
		switch t.ID {
		case Int2:
			return Null, pgerr.New(pgerr.NumericValueOutOfRange, "smallint out of range")
		case Int4:
			return Null, pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
		}
		return Null, pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
	}
	return v, nil
}

// CheckWidth verifies a text value fits varchar(n), counting characters.
func CheckWidth(t Type, v Value) (Value, error) {
	if t.ID == Varchar && t.Width > 0 && utf8.RuneCountInString(v.S) > t.Width {
		// PostgreSQL trims trailing spaces that overflow before complaining.
		trimmed := strings.TrimRight(v.S, " ")
		if utf8.RuneCountInString(trimmed) <= t.Width {
			r := []rune(v.S)
			return NewText(string(r[:t.Width])), nil
		}
		return Null, pgerr.New(pgerr.StringDataRightTruncation, "value too long for type character varying(%d)", t.Width)
	}
	return v, nil
}

func parseFloat(s string) (float64, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "nan":
		return math.NaN(), nil
	case "infinity", "+infinity", "inf", "+inf":
		return math.Inf(1), nil
	case "-infinity", "-inf":
		return math.Inf(-1), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "%q is out of range for type double precision", s)
		}
		return 0, err
	}
	return f, nil
}

var unixEpochDate = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

// ParseDate parses an ISO date (YYYY-MM-DD) into days since the Unix epoch.
// Like PostgreSQL it also accepts a timestamp and keeps its date part.
func ParseDate(s string) (int64, error) {
	in := strings.TrimSpace(s)
	t, err := time.Parse("2006-01-02", in)
	if err != nil {
		us, terr := ParseTimestamp(in, false)
		if terr != nil {
			return 0, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type date: %q", s)
		}
		return floorDiv(us, 86400_000_000), nil
	}
	// Through Unix seconds, not time.Duration, which overflows before 1678.
	return floorDiv(t.Unix(), 86400), nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

var timestampLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00:00",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z07",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999Z07",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04Z07:00",
	"2006-01-02 15:04",
	"2006-01-02",
}

// ParseTimestamp parses an ISO 8601 / PostgreSQL timestamp into microseconds
// since the Unix epoch. A zone offset is honoured for timestamptz (the value
// becomes the UTC instant) and, as PostgreSQL does, ignored for timestamp.
func ParseTimestamp(s string, withZone bool) (int64, error) {
	in := strings.TrimSpace(s)
	in = strings.TrimSuffix(strings.TrimSuffix(in, " UTC"), " utc")
	if len(in) > 10 && (in[len(in)-1] == 'Z' || in[len(in)-1] == 'z') {
		in = in[:len(in)-1] + "+00"
	}
	for _, layout := range timestampLayouts {
		t, err := time.Parse(layout, in)
		if err != nil {
			continue
		}
		if !withZone {
			// Keep the wall clock, drop the zone.
			y, mo, d := t.Date()
			t = time.Date(y, mo, d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
		}
		return t.UnixMicro(), nil
	}
	return 0, pgerr.New(pgerr.InvalidDatetimeFormat, "invalid input syntax for type timestamp: %q", s)
}

func parseBytea(s string) ([]byte, error) {
	if strings.HasPrefix(s, `\x`) || strings.HasPrefix(s, `\X`) {
		b, err := hex.DecodeString(s[2:])
		if err != nil {
			return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid hexadecimal data for type bytea")
		}
		return b, nil
	}
	// Escape format: backslash followed by three octal digits or a backslash.
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '\\' {
			out = append(out, '\\')
			i++
			continue
		}
		if i+3 < len(s)+0 && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 3
			continue
		}
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type bytea")
	}
	return out, nil
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// ParseUUID parses the canonical 8-4-4-4-12 form, with or without hyphens
// and braces, in any case.
func ParseUUID(s string) ([16]byte, error) {
	var u [16]byte
	h := strings.NewReplacer("-", "", "{", "", "}", "").Replace(strings.TrimSpace(s))
	if len(h) != 32 {
		return u, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type uuid: %q", s)
	}
	if _, err := hex.Decode(u[:], []byte(h)); err != nil {
		return u, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type uuid: %q", s)
	}
	return u, nil
}

// FormatText renders v in PostgreSQL's text output format. NULL has no text
// form; callers send it as a NULL field.
func FormatText(v Value) string {
	return string(AppendText(nil, v))
}

// AppendText appends the PostgreSQL text output of v to buf.
func AppendText(buf []byte, v Value) []byte {
	switch v.K {
	case KindNull:
		return buf
	case KindInt:
		return strconv.AppendInt(buf, v.I, 10)
	case KindFloat:
		return AppendFloat(buf, v.F, 64)
	case KindBool:
		if v.I != 0 {
			return append(buf, 't')
		}
		return append(buf, 'f')
	case KindText:
		return append(buf, v.S...)
	case KindBytes:
		buf = append(buf, '\\', 'x')
		return hex.AppendEncode(buf, []byte(v.S))
	case KindTimestamp:
		return appendTimestamp(buf, time.UnixMicro(v.I).UTC(), false)
	case KindTimestampTZ:
		return appendTimestamp(buf, time.UnixMicro(v.I).UTC(), true)
	case KindDate:
		return unixEpochDate.AddDate(0, 0, int(v.I)).AppendFormat(buf, "2006-01-02")
	case KindUUID:
		var dst [36]byte
		b := []byte(v.S)
		hex.Encode(dst[0:8], b[0:4])
		dst[8] = '-'
		hex.Encode(dst[9:13], b[4:6])
		dst[13] = '-'
		hex.Encode(dst[14:18], b[6:8])
		dst[18] = '-'
		hex.Encode(dst[19:23], b[8:10])
		dst[23] = '-'
		hex.Encode(dst[24:], b[10:16])
		return append(buf, dst[:]...)
	}
	return buf
}

func appendTimestamp(buf []byte, t time.Time, zone bool) []byte {
	buf = t.AppendFormat(buf, "2006-01-02 15:04:05")
	if us := t.Nanosecond() / 1000; us != 0 {
		frac := strconv.Itoa(1000000 + us)[1:]
		frac = strings.TrimRight(frac, "0")
		buf = append(buf, '.')
		buf = append(buf, frac...)
	}
	if zone {
		buf = append(buf, '+', '0', '0')
	}
	return buf
}

// AppendFloat formats f as PostgreSQL 12+ does with extra_float_digits = 1:
// the shortest text that reads back exactly, in positional notation for
// decimal exponents in [-4, 15) and exponential otherwise.
func AppendFloat(buf []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(buf, "NaN"...)
	case math.IsInf(f, 1):
		return append(buf, "Infinity"...)
	case math.IsInf(f, -1):
		return append(buf, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(buf, "-0"...)
		}
		return append(buf, '0')
	}
	exp := int(math.Floor(math.Log10(math.Abs(f))))
	maxExp := 15
	if bits == 32 {
		maxExp = 6
	}
	if exp < -4 || exp >= maxExp {
		return strconv.AppendFloat(buf, f, 'e', -1, bits)
	}
	return strconv.AppendFloat(buf, f, 'f', -1, bits)
}
