package sqltypes

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// ParseText converts PostgreSQL text input for type t into a Value,
// applying t's modifiers (varchar(n) and char(n) length, numeric(p, s),
// interval fields and precision, the fractional-second precision of
// timestamp(p) and time(p)). Errors carry SQLSTATE 22P02 (bad syntax),
// 22003 (out of range), 22007/22008/22015 (bad date, time or interval) or
// 22001 (too long for varchar(n) or char(n)).
func ParseText(t Type, s string) (Value, error) {
	if t.DatetimePrecision() >= 0 {
		v, err := ParseText(t.withoutPrecision(), s)
		if err != nil {
			return Null, err
		}
		return applyDatetimePrecision(v, t)
	}
	switch t.ID {
	case Record:
		return parseRecordStyled(t, s, Style{})
	case Enum:
		return parseEnum(t, s)
	case Int2, Int4, Int8:
		i, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return Null, inputOutOfRange(t, s)
			}
			return Null, invalid(t, s)
		}
		if _, err := CheckRange(t, NewInt(i)); err != nil {
			return Null, inputOutOfRange(t, s)
		}
		return NewInt(i), nil
	case Float4, Float8:
		f, err := parseFloat(s, t)
		if err != nil {
			return Null, err
		}
		return NewFloat(f), nil
	case Text, Unknown, RefCursor:
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
	case Numeric:
		v, err := ParseNumeric(s)
		if err != nil {
			return Null, err
		}
		return ApplyNumericTypmod(v, t)
	case Interval:
		iv, err := ParseInterval(s, t)
		if err != nil {
			return Null, err
		}
		return NewInterval(iv), nil
	case BPChar:
		return CheckWidth(t, NewBPChar(s))
	case JSON:
		if err := ValidateJSON(s); err != nil {
			return Null, err
		}
		return NewJSON(s), nil
	case JSONB:
		return parseJSONBInput(s)
	case Array:
		a, err := ParseArray(s, t.ElemType())
		if err != nil {
			return Null, err
		}
		return NewArray(a), nil
	case Time, TimeTZ:
		return ParseTime(s, t.ID == TimeTZ)
	case Citext:
		return NewCitext(s), nil
	case Bit, VarBit:
		return ParseBit(s, t.Width, t.ID == VarBit)
	case Money:
		return ParseMoney(s)
	case XML:
		return ParseXML(s, false)
	case JSONPath:
		return ParseJSONPathValue(s)
	case Ltree:
		return ParseLtree(s)
	case Lquery:
		return ParseLqueryValue(s)
	case Ltxtquery:
		return ParseLtxtqueryValue(s)
	case PgLSN:
		return ParseLSN(s)
	case XID:
		return ParseXID(s)
	case XID8:
		return ParseXID8(s)
	case Geometry, Geography:
		return ParseGeometryText(t, s)
	case Box2D:
		return ParseBox2D(s)
	case TID:
		return ParseTID(s)
	case GeoPoint, GeoLSeg, GeoBox, GeoLine, GeoPath, GeoPolygon, GeoCircle:
		return ParseGeo(t.ID, s)
	case Hstore:
		h, err := ParseHstore(s)
		if err != nil {
			return Null, err
		}
		return NewHstore(h), nil
	case TSVector:
		v, err := ParseTSVector(s)
		if err != nil {
			return Null, err
		}
		return NewTSVector(v), nil
	case TSQuery:
		q, err := ParseTSQueryText(s)
		if err != nil {
			return Null, err
		}
		return NewTSQuery(q), nil
	case Inet, Cidr, MacAddr, MacAddr8:
		return parseNet(t, s)
	}
	if t.IsRange() {
		return parseRangeStyled(t, s, Style{})
	}
	if t.IsMultirange() {
		return parseMultirangeStyled(t, s, Style{})
	}
	if t.ID.System() {
		return parseSystem(t, s)
	}
	return Null, pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported", t)
}

func invalid(t Type, s string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: %q", t, s)
}

// inputOutOfRange is PostgreSQL's error for an integer's text that reads
// as a number its type cannot hold (pg_strtoint32's), which quotes the
// text; arithmetic that overflows says "integer out of range" instead.
func inputOutOfRange(t Type, s string) error {
	return pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, t.String())
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
		return Null, intOutOfRange(t)
	}
	return v, nil
}

// intOutOfRange is PostgreSQL's error for a value an integer type t
// cannot hold, as its casts and arithmetic word it.
func intOutOfRange(t Type) error {
	switch t.ID {
	case Int2:
		return pgerr.New(pgerr.NumericValueOutOfRange, "smallint out of range")
	case Int4:
		return pgerr.New(pgerr.NumericValueOutOfRange, "integer out of range")
	}
	return pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
}

// CheckWidth applies the length of varchar(n) and char(n), counting
// characters, as storing into such a column does: a longer value is 22001
// unless only blanks overflow (they are cut); char(n) pads with blanks to
// n. For explicit casts, which truncate silently, use TruncateWidth. Text
// values given for char(n) become char values.
func CheckWidth(t Type, v Value) (Value, error) {
	switch t.ID {
	case Varchar:
		if t.Width > 0 && utf8.RuneCountInString(v.S) > t.Width {
			// PostgreSQL trims trailing spaces that overflow before complaining.
			cut := cutRunes(v.S, t.Width)
			if strings.TrimRight(v.S[len(cut):], " ") == "" {
				return NewText(cut), nil
			}
			return Null, pgerr.New(pgerr.StringDataRightTruncation, "value too long for type character varying(%d)", t.Width)
		}
		return v, nil
	case BPChar:
		if t.Width == 0 {
			return NewBPChar(v.S), nil
		}
		n := utf8.RuneCountInString(v.S)
		if n > t.Width {
			cut := cutRunes(v.S, t.Width)
			if strings.TrimRight(v.S[len(cut):], " ") != "" {
				return Null, pgerr.New(pgerr.StringDataRightTruncation, "value too long for type character(%d)", t.Width)
			}
			return NewBPChar(cut), nil
		}
		return NewBPChar(padBlanks(v.S, t.Width-n)), nil
	}
	return v, nil
}

// TruncateWidth is an explicit cast to varchar(n) or char(n): longer
// values are cut to n characters without error, char(n) pads.
func TruncateWidth(t Type, v Value) Value {
	switch t.ID {
	case Varchar:
		if t.Width > 0 {
			return NewText(cutRunes(v.S, t.Width))
		}
	case BPChar:
		if t.Width == 0 {
			return NewBPChar(v.S)
		}
		s := cutRunes(v.S, t.Width)
		return NewBPChar(padBlanks(s, t.Width-utf8.RuneCountInString(s)))
	}
	return v
}

// cutRunes returns the first n characters of s.
func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

func padBlanks(s string, n int) string {
	if n <= 0 {
		return s
	}
	return s + strings.Repeat(" ", n)
}

// BPCharToText is the cast of char(n) to text: trailing blanks go.
func BPCharToText(v Value) Value { return NewText(strings.TrimRight(v.S, " ")) }

// parseFloat reads a double precision (t float8) or real (float4) as
// PostgreSQL's float8in and float4in do: a value too large for the type,
// or a nonzero one too small for even a denormal, is 22003; denormals
// are kept.
func parseFloat(s string, t Type) (float64, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "nan":
		return math.NaN(), nil
	case "infinity", "+infinity", "inf", "+inf":
		return math.Inf(1), nil
	case "-infinity", "-inf":
		return math.Inf(-1), nil
	}
	bits := 64
	if t.ID == Float4 {
		// Rounded once, to float32, as float4in's strtof: 3.4028235e38
		// is FLT_MAX, not out of range.
		bits = 32
	}
	f, err := strconv.ParseFloat(s, bits)
	rangeErr := func() error {
		return pgerr.New(pgerr.NumericValueOutOfRange, "\"%s\" is out of range for type %s", s, t)
	}
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, rangeErr()
		}
		return 0, invalid(t, s)
	}
	if f == 0 && nonzeroMantissa(s) {
		return 0, rangeErr() // underflow
	}
	return f, nil
}

// nonzeroMantissa reports whether a decimal number's digits before its
// exponent are not all zero.
func nonzeroMantissa(s string) bool {
	for _, c := range s {
		switch {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

func parseBytea(s string) ([]byte, error) {
	if strings.HasPrefix(s, `\x`) { // (lower case only, as byteain)
		return DecodeHex(s[2:])
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

// DecodeHex reads hex data as PostgreSQL's hex_decode does (bytea's hex
// input after its \x, decode(s, 'hex')): pairs of hex digits in either
// case, blanks allowed between pairs but not inside one; a bad digit,
// whole character quoted, or a lone last digit is 22023.
func DecodeHex(s string) ([]byte, error) {
	out := make([]byte, 0, len(s)/2)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\n', '\t', '\r':
			continue
		}
		hi, err := hexDataDigit(s, i)
		if err != nil {
			return nil, err
		}
		if i++; i >= len(s) {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid hexadecimal data: odd number of digits")
		}
		lo, err := hexDataDigit(s, i)
		if err != nil {
			return nil, err
		}
		out = append(out, hi<<4|lo)
	}
	return out, nil
}

// hexDataDigit is the value of the hex digit at s[i], or 22023 naming the
// character there.
func hexDataDigit(s string, i int) (byte, error) {
	if d, ok := hexDigit(s[i]); ok {
		return d, nil
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return 0, pgerr.New(pgerr.InvalidParameterValue, "invalid hexadecimal digit: \"%c\"", r)
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
		if v.S != "" {
			return append(buf, v.S...) // a reg* value's name (oidtypes.go)
		}
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
		return AppendTimestamp(buf, v.I, false)
	case KindTimestampTZ:
		return AppendTimestamp(buf, v.I, true)
	case KindDate:
		return AppendDate(buf, v.I)
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
	case KindNumeric:
		return AppendNumeric(buf, v.Numeric())
	case KindInterval:
		return AppendInterval(buf, v.Interval())
	case KindBPChar, KindJSON, KindCitext, KindEnum:
		return append(buf, v.S...)
	case KindHstore:
		return AppendHstore(buf, v.Hstore())
	case KindBit:
		return AppendBit(buf, v)
	case KindMoney:
		return AppendMoney(buf, v.I)
	case KindRange:
		return AppendRangeStyled(buf, v.Range(), Style{})
	case KindMultirange:
		return AppendMultirangeStyled(buf, v.Multirange(), Style{})
	case KindInet, KindMacAddr:
		return appendNet(buf, v)
	case KindTSVector:
		return AppendTSVector(buf, v.TSVector())
	case KindTSQuery:
		return AppendTSQuery(buf, v.TSQuery())
	case KindXML:
		return AppendXML(buf, v.S)
	case KindJSONPath, KindLtree, KindLquery, KindLtxtquery:
		return append(buf, v.S...)
	case KindLSN:
		return AppendLSN(buf, uint64(v.I))
	case KindXID, KindXID8:
		return strconv.AppendUint(buf, uint64(v.I), 10)
	case KindTID:
		return AppendTID(buf, v)
	case KindGeo:
		return appendGeo(buf, v, Style{})
	case KindGeometry:
		return AppendGeometry(buf, v)
	case KindJSONB:
		// No error path here (a jsonb inside an array or a record): the
		// value's own output, which can fail, goes through AppendJSONB.
		return appendJSONBText(buf, v.JSONB())
	case KindArray:
		return AppendArray(buf, v.Array())
	case KindTime:
		return AppendTime(buf, v.I)
	case KindTimeTZ:
		return AppendTimeTZ(buf, v.TimeTZ())
	}
	return buf
}

// appendHundredths appends k/100 in positional notation without trailing
// zeros: 1.94, -0.5, 12.
func appendHundredths(buf []byte, k int64) []byte {
	if k < 0 {
		buf = append(buf, '-')
		k = -k
	}
	buf = strconv.AppendInt(buf, k/100, 10)
	switch c := k % 100; {
	case c == 0:
	case c%10 == 0:
		buf = append(buf, '.', byte('0'+c/10))
	default:
		buf = append(buf, '.', byte('0'+c/10), byte('0'+c%10))
	}
	return buf
}

// AppendFloat formats f as PostgreSQL 12+ does with extra_float_digits = 1:
// the shortest text that reads back exactly, in positional notation for
// decimal exponents in [-4, 15) (float4: [-4, 6)) and exponential otherwise,
// with at least two exponent digits (1e+20, 1e-05).
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
	if bits == 64 && math.Abs(f) < 1e13 {
		// A whole number of hundredths (a price, a reading): k/100 is
		// the shortest text when f is the double nearest it. The
		// division is exact-then-rounded, so the test is exact; a
		// decimal of at most 15 significant digits is the only one of
		// as few digits that reads back as its double (DBL_DIG), so no
		// shorter text exists, and |f| < 1e13 is in the positional
		// range.
		if k := math.Round(f * 100); k/100 == f {
			return appendHundredths(buf, int64(k))
		}
	}
	// The shortest digits are formatted once, in exponential form (the
	// decimal exponent of the shortest digits, not of log10, which rounds:
	// log10(1e15) is not always 15), into a scratch array that stays on
	// the stack; a positional result is laid out from the same digits,
	// which are those strconv's 'f' with precision -1 would print.
	var scratch [32]byte
	e := strconv.AppendFloat(scratch[:0], f, 'e', -1, bits)
	maxExp := 15
	if bits == 32 {
		maxExp = 6
	}
	// e is [-]d[.ddd]e(+|-)dd[d].
	neg := e[0] == '-'
	mant := e
	if neg {
		mant = e[1:]
	}
	x := len(mant) - 4 // the 'e' of a two-digit exponent
	if mant[x] != 'e' {
		x-- // a three-digit exponent
	}
	exp := int(mant[x+2]-'0')*10 + int(mant[x+3]-'0')
	if x+5 == len(mant) {
		exp = exp*10 + int(mant[x+4]-'0')
	}
	if mant[x+1] == '-' {
		exp = -exp
	}
	if exp < -4 || exp >= maxExp {
		return append(buf, e...)
	}
	if neg {
		buf = append(buf, '-')
	}
	// The digits without the point: d, then the fraction after "d.".
	lead, frac := mant[0], mant[:0]
	if x > 1 {
		frac = mant[2:x]
	}
	if exp < 0 {
		// 0.000ddd
		buf = append(buf, '0', '.')
		for i := -1; i > exp; i-- {
			buf = append(buf, '0')
		}
		buf = append(buf, lead)
		return append(buf, frac...)
	}
	// exp digits of frac join the integer part; the rest follow a point,
	// or zeros fill the integer part when frac is shorter.
	buf = append(buf, lead)
	if exp >= len(frac) {
		buf = append(buf, frac...)
		for i := len(frac); i < exp; i++ {
			buf = append(buf, '0')
		}
		return buf
	}
	buf = append(buf, frac[:exp]...)
	buf = append(buf, '.')
	return append(buf, frac[exp:]...)
}
