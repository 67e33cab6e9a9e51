package wire

import (
	"encoding/binary"
	"github.com/zproxy/zproxy/internal/geo"
	"math"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Wire format codes of Bind's parameter and result formats.
const (
	formatText   int16 = 0
	formatBinary int16 = 1
)

// PostgreSQL's binary formats count dates and timestamps from 2000-01-01;
// sqltypes counts from the Unix epoch.
const (
	pgEpochDays = 10957                         // days from 1970-01-01 to 2000-01-01
	pgEpochUS   = pgEpochDays * 86400 * 1000000 // the same in microseconds
)

// goNaN is math.NaN()'s bits, what zproxy's NaN literals and functions
// give; cNaN is C's NAN, what PostgreSQL's get_float8_nan gives for them
// and float8send sends. Other NaNs (inf - inf's, the hardware's) keep their
// bits, as PostgreSQL's do.
const (
	goNaN = 0x7ff8000000000001
	cNaN  = 0x7ff8000000000000
)

// errBadBinary is the error of a binary parameter whose length or content
// does not fit its type.
func errBadBinary(t sqltypes.Type, format string, args ...any) error {
	e := pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format for type %s", t)
	if format != "" {
		e.WithDetail(format, args...)
	}
	return e
}

func errInvalidUTF8() error {
	return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
}

// DecodeBinary decodes one parameter sent in binary format as a value of
// type t, applying t's modifiers. Malformed input is 22P03; a date or
// timestamp outside what sqltypes can hold is 22008; text that is not
// UTF-8 is 22021; an array of another element type is 42804; the input
// errors of the type's text form (json syntax, numeric field overflow) keep
// their codes. It never panics, whatever src holds.
func DecodeBinary(t sqltypes.Type, src []byte) (sqltypes.Value, error) {
	fixed := func(n int) error {
		if len(src) != n {
			return errBadBinary(t, "expected %d bytes, got %d", n, len(src))
		}
		return nil
	}
	switch t.ID {
	case sqltypes.Int2:
		if err := fixed(2); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewInt(int64(int16(binary.BigEndian.Uint16(src)))), nil
	case sqltypes.Int4:
		if err := fixed(4); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewInt(int64(int32(binary.BigEndian.Uint32(src)))), nil
	case sqltypes.Int8:
		if err := fixed(8); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewInt(int64(binary.BigEndian.Uint64(src))), nil
	case sqltypes.Float4:
		if err := fixed(4); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewFloat(float64(math.Float32frombits(binary.BigEndian.Uint32(src)))), nil
	case sqltypes.Float8:
		if err := fixed(8); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewFloat(math.Float64frombits(binary.BigEndian.Uint64(src))), nil
	case sqltypes.Bool:
		if err := fixed(1); err != nil {
			return sqltypes.Null, err
		}
		// PostgreSQL's boolrecv treats any non-zero byte as true.
		return sqltypes.NewBool(src[0] != 0), nil
	case sqltypes.Text, sqltypes.Varchar, sqltypes.Unknown:
		if !utf8.Valid(src) {
			return sqltypes.Null, errInvalidUTF8()
		}
		return sqltypes.NewText(string(src)), nil
	case sqltypes.Citext:
		// citext's binary form is text's (citextrecv is textrecv).
		if !utf8.Valid(src) {
			return sqltypes.Null, errInvalidUTF8()
		}
		return sqltypes.NewCitext(string(src)), nil
	case sqltypes.Enum:
		if !utf8.Valid(src) {
			return sqltypes.Null, errInvalidUTF8()
		}
		return sqltypes.ParseText(t, string(src)) // enum_recv reads the label
	case sqltypes.Hstore:
		h, err := sqltypes.DecodeHstoreBinary(src)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewHstore(h), nil
	case sqltypes.Bit, sqltypes.VarBit:
		return decodeBit(t, src)
	case sqltypes.Box2D:
		return sqltypes.Null, pgerr.New(pgerr.UndefinedFunction, "no binary input function available for type box2d")
	case sqltypes.Geometry, sqltypes.Geography:
		// geometry_recv and geography_recv: EWKB (or ISO WKB).
		g, err := geo.DecodeEWKB(src)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.GeomValue(t, g)
	case sqltypes.Money:
		if err := fixed(8); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewMoney(int64(binary.BigEndian.Uint64(src))), nil
	case sqltypes.Inet, sqltypes.Cidr:
		return decodeInet(t, src)
	case sqltypes.MacAddr:
		if err := fixed(6); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewMacAddr(src), nil
	case sqltypes.MacAddr8:
		// macaddr8_recv takes an EUI-48 too, as the cast from macaddr
		// widens it.
		if len(src) == 6 {
			return sqltypes.MacAddrTo8(string(src)), nil
		}
		if err := fixed(8); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewMacAddr(src), nil
	case sqltypes.TSVector:
		v, err := sqltypes.DecodeTSVectorBinary(src)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewTSVector(v), nil
	case sqltypes.TSQuery:
		q, err := sqltypes.DecodeTSQueryBinary(src)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewTSQuery(q), nil
	case sqltypes.Ltree, sqltypes.Lquery, sqltypes.Ltxtquery:
		// ltree_recv, lquery_recv, ltxtq_recv: a version byte, 1, then
		// the text, which the input function reads.
		if len(src) > 0 && src[0] == 1 && !utf8.Valid(src[1:]) {
			return sqltypes.Null, errInvalidUTF8()
		}
		return sqltypes.DecodeLtreeBinary(t, src)
	case sqltypes.JSONPath:
		// jsonpath_recv: a version byte, 1, then the text.
		if len(src) == 0 {
			return sqltypes.Null, pgerr.New(pgerr.ProtocolViolation, "insufficient data left in message")
		}
		if src[0] != 1 {
			return sqltypes.Null, pgerr.New(pgerr.InternalError, "unsupported jsonpath version number: %d", src[0])
		}
		if !utf8.Valid(src[1:]) {
			return sqltypes.Null, errInvalidUTF8()
		}
		return sqltypes.ParseJSONPathValue(string(src[1:]))
	case sqltypes.XML:
		// xml_recv: the text, checked as content.
		if !utf8.Valid(src) {
			return sqltypes.Null, errInvalidUTF8()
		}
		return sqltypes.ParseXML(string(src), false)
	case sqltypes.PgLSN, sqltypes.XID8:
		if err := fixed(8); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.Value{K: t.Kind(), I: int64(binary.BigEndian.Uint64(src))}, nil
	case sqltypes.XID:
		if err := fixed(4); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewXID(binary.BigEndian.Uint32(src)), nil
	case sqltypes.GeoPoint, sqltypes.GeoLSeg, sqltypes.GeoBox, sqltypes.GeoLine, sqltypes.GeoPath, sqltypes.GeoPolygon, sqltypes.GeoCircle:
		return sqltypes.DecodeGeoBinary(t.ID, src)
	case sqltypes.TID:
		// tidrecv: the block (uint32), then the offset (uint16).
		if err := fixed(6); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewTID(binary.BigEndian.Uint32(src), binary.BigEndian.Uint16(src[4:])), nil
	case sqltypes.Bytea:
		return sqltypes.NewBytes(src), nil
	case sqltypes.UUID:
		if err := fixed(16); err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewUUID([16]byte(src)), nil
	case sqltypes.Date:
		if err := fixed(4); err != nil {
			return sqltypes.Null, err
		}
		switch d := int32(binary.BigEndian.Uint32(src)); d {
		case math.MaxInt32:
			return sqltypes.NewDate(sqltypes.DateInfinity), nil
		case math.MinInt32:
			return sqltypes.NewDate(sqltypes.DateNegInfinity), nil
		default:
			days := int64(d) + pgEpochDays
			if days < sqltypes.MinDate || days > sqltypes.MaxDate {
				return sqltypes.Null, pgerr.New(pgerr.DatetimeFieldOverflow, "date out of range")
			}
			return sqltypes.NewDate(days), nil
		}
	case sqltypes.Timestamp, sqltypes.TimestampTZ:
		if err := fixed(8); err != nil {
			return sqltypes.Null, err
		}
		// µs from 2000, as zproxy counts them too.
		us := int64(binary.BigEndian.Uint64(src))
		if sqltypes.IsFiniteTimestamp(us) && !sqltypes.InTimestampRange(us) {
			return sqltypes.Null, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range")
		}
		if t.ID == sqltypes.TimestampTZ {
			return sqltypes.NewTimestampTZ(us), nil
		}
		return sqltypes.NewTimestamp(us), nil
	case sqltypes.Numeric:
		v, err := decodeNumeric(src)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.ApplyNumericTypmod(v, t)
	case sqltypes.Interval:
		if err := fixed(16); err != nil {
			return sqltypes.Null, err
		}
		iv := sqltypes.IntervalValue{
			Micros: int64(binary.BigEndian.Uint64(src)),
			Days:   int32(binary.BigEndian.Uint32(src[8:])),
			Months: int32(binary.BigEndian.Uint32(src[12:])),
		}
		iv, err := sqltypes.ApplyIntervalTypmod(iv, t)
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewInterval(iv), nil
	case sqltypes.BPChar:
		if !utf8.Valid(src) {
			return sqltypes.Null, errInvalidUTF8()
		}
		return sqltypes.CheckWidth(t, sqltypes.NewBPChar(string(src)))
	case sqltypes.JSON:
		if !utf8.Valid(src) {
			return sqltypes.Null, errInvalidUTF8()
		}
		return sqltypes.ParseText(t, string(src))
	case sqltypes.JSONB:
		// jsonb_send is a version byte (1) and the text.
		if len(src) == 0 || src[0] != 1 {
			return sqltypes.Null, errBadBinary(t, "unsupported jsonb version number")
		}
		if !utf8.Valid(src[1:]) {
			return sqltypes.Null, errInvalidUTF8()
		}
		return sqltypes.ParseText(t, string(src[1:]))
	case sqltypes.Array:
		return decodeArray(t, src)
	case sqltypes.Int4Range, sqltypes.Int8Range, sqltypes.NumRange, sqltypes.TsRange, sqltypes.TstzRange, sqltypes.DateRange, sqltypes.UserRange:
		return decodeRange(t, src)
	case sqltypes.Int4Multirange, sqltypes.Int8Multirange, sqltypes.NumMultirange, sqltypes.TsMultirange, sqltypes.TstzMultirange, sqltypes.DateMultirange, sqltypes.UserMultirange:
		return decodeMultirange(t, src)
	case sqltypes.Time, sqltypes.TimeTZ:
		// time_recv: µs since midnight; timetz_recv adds the zone, in
		// seconds west of UTC.
		n := 8
		if t.ID == sqltypes.TimeTZ {
			n = 12
		}
		if err := fixed(n); err != nil {
			return sqltypes.Null, err
		}
		us := int64(binary.BigEndian.Uint64(src))
		if us < 0 || us > sqltypes.USPerDay {
			return sqltypes.Null, pgerr.New(pgerr.DatetimeFieldOverflow, "time out of range")
		}
		if t.ID == sqltypes.Time {
			return sqltypes.NewTime(us), nil
		}
		west := int32(binary.BigEndian.Uint32(src[8:]))
		if west <= -16*3600 || west >= 16*3600 { // TZDISP_LIMIT
			return sqltypes.Null, pgerr.New(pgerr.InvalidTimeZoneDisplacementValue, "time zone displacement out of range")
		}
		return sqltypes.NewTimeTZ(sqltypes.TimeTZValue{Micros: us, Offset: -west}), nil
	}
	if t.ID.System() {
		return decodeSystem(t, src)
	}
	return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "binary format for type %s is not supported", t)
}

// AppendBinary appends the binary wire form of v as a value of type t. A
// value whose kind differs from t's (an integer for a real column, say) is
// cast first. NULL has no binary form: the caller sends a NULL field.
func AppendBinary(buf []byte, t sqltypes.Type, v sqltypes.Value) ([]byte, error) {
	if v.K != t.Kind() && t.ID != sqltypes.Unknown {
		cv, err := sqltypes.CastExplicit(v, t)
		if err != nil {
			return buf, err
		}
		v = cv
	}
	switch t.ID {
	case sqltypes.Int2, sqltypes.Int4:
		if _, err := sqltypes.CheckRange(t, v); err != nil {
			return buf, err
		}
		if t.ID == sqltypes.Int2 {
			return binary.BigEndian.AppendUint16(buf, uint16(v.I)), nil
		}
		return binary.BigEndian.AppendUint32(buf, uint32(v.I)), nil
	case sqltypes.Int8:
		return binary.BigEndian.AppendUint64(buf, uint64(v.I)), nil
	case sqltypes.Float4:
		return binary.BigEndian.AppendUint32(buf, math.Float32bits(float32(v.F))), nil
	case sqltypes.Float8:
		bits := math.Float64bits(v.F)
		if bits == goNaN {
			bits = cNaN
		}
		return binary.BigEndian.AppendUint64(buf, bits), nil
	case sqltypes.Bool:
		if v.I != 0 {
			return append(buf, 1), nil
		}
		return append(buf, 0), nil
	case sqltypes.Text, sqltypes.Varchar, sqltypes.Bytea, sqltypes.UUID, sqltypes.BPChar, sqltypes.JSON, sqltypes.Citext, sqltypes.Enum:
		// An enum's binary form is its label's text (enum_send).
		return append(buf, v.S...), nil
	case sqltypes.Hstore:
		return sqltypes.AppendHstoreBinary(buf, v.Hstore()), nil
	case sqltypes.Bit, sqltypes.VarBit:
		// bit_send and varbit_send: the length in bits, then the bytes.
		buf = binary.BigEndian.AppendUint32(buf, uint32(v.BitLen()))
		return append(buf, v.S...), nil
	case sqltypes.Money, sqltypes.PgLSN, sqltypes.XID8:
		return binary.BigEndian.AppendUint64(buf, uint64(v.I)), nil
	case sqltypes.Inet, sqltypes.Cidr:
		// inet_send and cidr_send: family, mask length, is_cidr (the
		// type's, not the value's), address length, address.
		n := v.Inet()
		isCidr := byte(0)
		if t.ID == sqltypes.Cidr {
			isCidr = 1
		}
		buf = append(buf, n.Family, byte(n.Bits), isCidr, byte(n.Size()))
		return append(buf, n.Addr[:n.Size()]...), nil
	case sqltypes.MacAddr, sqltypes.MacAddr8:
		return append(buf, v.S...), nil
	case sqltypes.TSVector:
		return sqltypes.AppendTSVectorBinary(buf, v.TSVector()), nil
	case sqltypes.TSQuery:
		return sqltypes.AppendTSQueryBinary(buf, v.TSQuery()), nil
	case sqltypes.XML:
		return sqltypes.AppendXML(buf, v.S), nil // xml_send: xml_out's text
	case sqltypes.JSONPath:
		return append(append(buf, 1), v.S...), nil // jsonpath_send: version 1, then the text
	case sqltypes.Ltree, sqltypes.Lquery, sqltypes.Ltxtquery:
		return sqltypes.LtreeVersionedText(buf, v), nil // ltree_send ...: version 1, then the text
	case sqltypes.Geometry, sqltypes.Geography:
		return append(buf, v.S...), nil // geometry_send: the EWKB
	case sqltypes.Box2D:
		return buf, pgerr.New(pgerr.UndefinedFunction, "no binary output function available for type box2d")
	case sqltypes.XID:
		return binary.BigEndian.AppendUint32(buf, uint32(v.I)), nil
	case sqltypes.GeoPoint, sqltypes.GeoLSeg, sqltypes.GeoBox, sqltypes.GeoLine, sqltypes.GeoPath, sqltypes.GeoPolygon, sqltypes.GeoCircle:
		return sqltypes.AppendGeoBinary(buf, v), nil
	case sqltypes.TID:
		block, off := sqltypes.TIDParts(v)
		return binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint32(buf, block), off), nil
	case sqltypes.Date:
		switch v.I {
		case sqltypes.DateInfinity:
			return binary.BigEndian.AppendUint32(buf, math.MaxInt32), nil
		case sqltypes.DateNegInfinity:
			return binary.BigEndian.AppendUint32(buf, 1<<31), nil
		}
		return binary.BigEndian.AppendUint32(buf, uint32(int32(v.I-pgEpochDays))), nil
	case sqltypes.Timestamp, sqltypes.TimestampTZ:
		return binary.BigEndian.AppendUint64(buf, uint64(v.I)), nil
	case sqltypes.Numeric:
		return appendNumeric(buf, v), nil
	case sqltypes.Interval:
		iv := v.Interval()
		buf = binary.BigEndian.AppendUint64(buf, uint64(iv.Micros))
		buf = binary.BigEndian.AppendUint32(buf, uint32(iv.Days))
		return binary.BigEndian.AppendUint32(buf, uint32(iv.Months)), nil
	case sqltypes.JSONB:
		buf = append(buf, 1)
		return sqltypes.AppendJSONB(buf, v.JSONB())
	case sqltypes.Array:
		return appendArray(buf, t, v)
	case sqltypes.Int4Range, sqltypes.Int8Range, sqltypes.NumRange, sqltypes.TsRange, sqltypes.TstzRange, sqltypes.DateRange, sqltypes.UserRange:
		return appendRange(buf, t, v)
	case sqltypes.Int4Multirange, sqltypes.Int8Multirange, sqltypes.NumMultirange, sqltypes.TsMultirange, sqltypes.TstzMultirange, sqltypes.DateMultirange, sqltypes.UserMultirange:
		return appendMultirange(buf, t, v)
	case sqltypes.Time:
		return binary.BigEndian.AppendUint64(buf, uint64(v.I)), nil
	case sqltypes.TimeTZ:
		tz := v.TimeTZ()
		buf = binary.BigEndian.AppendUint64(buf, uint64(tz.Micros))
		return binary.BigEndian.AppendUint32(buf, uint32(-tz.Offset)), nil
	case sqltypes.Unknown:
		// unknownsend is textsend: the text form.
		return sqltypes.AppendText(buf, v), nil
	}
	if t.ID.System() {
		return appendSystem(buf, t, v)
	}
	return buf, pgerr.New(pgerr.FeatureNotSupported, "binary format for type %s is not supported", t)
}

// decodeText decodes one parameter sent in text format as a value of type
// t (Unknown parameters stay text), in a session whose settings are st
// (DateStyle's field order, TimeZone).
func decodeText(t sqltypes.Type, src []byte, st sqltypes.Style) (sqltypes.Value, error) {
	if !utf8.Valid(src) {
		return sqltypes.Null, errInvalidUTF8()
	}
	return sqltypes.ParseTextStyled(t, string(src), st)
}

// numeric_send's sign words.
const (
	numericPos  = 0x0000
	numericNeg  = 0x4000
	numericNaN  = 0xC000
	numericPInf = 0xD000
	numericNInf = 0xF000
)

// appendNumeric writes PostgreSQL's numeric binary form: ndigits, weight,
// sign, dscale (int16 each) and base-10000 digits aligned on the decimal
// point, without leading or trailing zero digits.
func appendNumeric(buf []byte, v sqltypes.Value) []byte {
	d := v.Numeric()
	put := func(ndigits, weight int, sign uint16, dscale int) {
		buf = binary.BigEndian.AppendUint16(buf, uint16(ndigits))
		buf = binary.BigEndian.AppendUint16(buf, uint16(int16(weight)))
		buf = binary.BigEndian.AppendUint16(buf, sign)
		buf = binary.BigEndian.AppendUint16(buf, uint16(dscale))
	}
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		put(0, 0, numericNaN, 0)
		return buf
	case apd.Infinite:
		// PostgreSQL sends the dscale bits of its short header, which
		// read 32 for the infinities.
		if d.Negative {
			put(0, 0, numericNInf, 32)
		} else {
			put(0, 0, numericPInf, 32)
		}
		return buf
	}
	dscale, _ := sqltypes.NumericScale(v)
	if d.IsZero() {
		put(0, 0, numericPos, dscale)
		return buf
	}
	groups, weight := sqltypes.NumericDigits(d)
	sign := uint16(numericPos)
	if d.Negative {
		sign = numericNeg
	}
	put(len(groups), weight, sign, dscale)
	for _, g := range groups {
		buf = binary.BigEndian.AppendUint16(buf, g)
	}
	return buf
}

// decodeNumeric reads numeric_recv's input, with its checks in its order:
// the header fields one at a time (the digit count is a uint16, any weight
// an int16 holds is accepted: 32768 base-10000 digits before the point is
// PostgreSQL's whole range), then each digit, so a short buffer fails at
// the first field it lacks (08P01) unless a field before it is invalid.
// Digits the dscale would hide are truncated, as PostgreSQL does; bytes
// after the digits are left over, which the caller reports.
func decodeNumeric(src []byte) (sqltypes.Value, error) {
	t := sqltypes.TypeNumeric
	if len(src) < 6 {
		return sqltypes.Null, errInsufficientData()
	}
	ndigits := int(binary.BigEndian.Uint16(src))
	weight := int(int16(binary.BigEndian.Uint16(src[2:])))
	sign := binary.BigEndian.Uint16(src[4:])
	switch sign {
	case numericPos, numericNeg, numericNaN, numericPInf, numericNInf:
	default:
		return sqltypes.Null, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid sign in external \"numeric\" value")
	}
	if len(src) < 8 {
		return sqltypes.Null, errInsufficientData()
	}
	dscale := int(binary.BigEndian.Uint16(src[6:]))
	if dscale > 0x3fff {
		return sqltypes.Null, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid scale in external \"numeric\" value")
	}
	// Every digit is read and checked, a special value's too.
	for i := 0; i < ndigits; i++ {
		if len(src) < 8+2*i+2 {
			return sqltypes.Null, errInsufficientData()
		}
		if binary.BigEndian.Uint16(src[8+2*i:]) > 9999 {
			return sqltypes.Null, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid digit in external \"numeric\" value")
		}
	}
	if extra := len(src) - 8 - 2*ndigits; extra > 0 {
		return sqltypes.Null, errBadBinary(t, "%d bytes left over", extra)
	}
	switch sign {
	case numericNaN:
		return sqltypes.NumericNaN(), nil
	case numericPInf:
		return sqltypes.NumericInf(), nil
	case numericNInf:
		return sqltypes.NumericNegInf(), nil
	}
	// Spell the value out in decimal: all holds the base-10000 digits as
	// decimal digits from 10^(4·weight+3) down; digits past dscale are
	// cut and missing ones padded, as numeric_recv's trunc_var does.
	all := make([]byte, 0, 4*ndigits)
	for i := 0; i < ndigits; i++ {
		g := binary.BigEndian.Uint16(src[8+2*i:])
		all = append(all, byte('0'+g/1000), byte('0'+g/100%10), byte('0'+g/10%10), byte('0'+g%10))
	}
	point := 4 * (weight + 1) // digits of all before the decimal point
	var intPart, frac []byte
	switch {
	case ndigits == 0:
	case point <= 0:
		frac = make([]byte, 0, min(-point+len(all), dscale))
		for i := 0; i < -point && len(frac) < dscale; i++ {
			frac = append(frac, '0')
		}
		frac = append(frac, all[:min(len(all), dscale-len(frac))]...)
	case point >= len(all):
		intPart = all
		for i := len(all); i < point; i++ {
			intPart = append(intPart, '0')
		}
	default:
		intPart = all[:point]
		frac = all[point:min(len(all), point+dscale)]
	}
	text := make([]byte, 0, len(intPart)+len(frac)+dscale+3)
	if sign == numericNeg {
		text = append(text, '-')
	}
	if len(intPart) == 0 {
		text = append(text, '0')
	}
	text = append(text, intPart...)
	if dscale > 0 {
		text = append(text, '.')
		text = append(text, frac...)
		for i := len(frac); i < dscale; i++ {
			text = append(text, '0')
		}
	}
	return sqltypes.ParseNumeric(string(text))
}

// decodeArray reads array_recv's format: ndim, has-null flag, element OID,
// (length, lower bound) per dimension, then each element as int32 length
// (-1 for NULL) and its binary form.
func decodeArray(t sqltypes.Type, src []byte) (sqltypes.Value, error) {
	elem := t.ElemType()
	if len(src) < 12 {
		return sqltypes.Null, errBadBinary(t, "expected at least 12 bytes, got %d", len(src))
	}
	ndim := int32(binary.BigEndian.Uint32(src))
	flags := int32(binary.BigEndian.Uint32(src[4:]))
	oid := binary.BigEndian.Uint32(src[8:])
	if ndim < 0 || ndim > sqltypes.MaxArrayDims {
		return sqltypes.Null, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid number of dimensions: %d", ndim)
	}
	if flags != 0 && flags != 1 {
		return sqltypes.Null, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid array flags")
	}
	if oid != elem.OID() {
		return sqltypes.Null, pgerr.New(pgerr.DatatypeMismatch, "binary data has array element type %d instead of expected %d (%s)", oid, elem.OID(), elem)
	}
	p := src[12:]
	if len(p) < int(ndim)*8 {
		return sqltypes.Null, errBadBinary(t, "truncated dimensions")
	}
	a := &sqltypes.ArrayValue{Elem: elem}
	n := int64(1)
	lower := make([]int32, ndim)
	dims := make([]int32, ndim)
	defaultBounds := true
	for i := range dims {
		dims[i] = int32(binary.BigEndian.Uint32(p))
		lower[i] = int32(binary.BigEndian.Uint32(p[4:]))
		p = p[8:]
		if dims[i] < 0 {
			return sqltypes.Null, errBadBinary(t, "negative dimension")
		}
		if int64(lower[i])+int64(dims[i])-1 > math.MaxInt32 {
			return sqltypes.Null, pgerr.New(pgerr.ProgramLimitExceeded, "array upper bound is too large")
		}
		if lower[i] != 1 {
			defaultBounds = false
		}
		n *= int64(dims[i])
		if n > int64(len(src)) {
			// Every element takes at least four bytes of src.
			return sqltypes.Null, errBadBinary(t, "array size exceeds the data")
		}
	}
	if ndim == 0 || n == 0 {
		if len(p) != 0 {
			return sqltypes.Null, errBadBinary(t, "junk after an empty array")
		}
		return sqltypes.NewArray(a), nil
	}
	a.Dims = dims
	if !defaultBounds {
		a.Lower = lower
	}
	a.Elems = make([]sqltypes.Value, n)
	for i := range a.Elems {
		if len(p) < 4 {
			return sqltypes.Null, errBadBinary(t, "insufficient data left in message")
		}
		l := int32(binary.BigEndian.Uint32(p))
		p = p[4:]
		if l == -1 {
			continue
		}
		if l < 0 || int(l) > len(p) {
			return sqltypes.Null, errBadBinary(t, "insufficient data left in message")
		}
		v, err := DecodeBinary(elem, p[:l])
		if err != nil {
			return sqltypes.Null, err
		}
		a.Elems[i] = v
		p = p[l:]
	}
	if len(p) != 0 {
		return sqltypes.Null, errBadBinary(t, "improper binary format in array element")
	}
	return sqltypes.NewArray(a), nil
}

// appendArray writes array_send's format for t's element type (elements of
// another type are cast).
func appendArray(buf []byte, t sqltypes.Type, v sqltypes.Value) ([]byte, error) {
	a := v.Array()
	elem := t.ElemType()
	hasNull := int32(0)
	for _, e := range a.Elems {
		if e.IsNull() {
			hasNull = 1
			break
		}
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(a.Dims)))
	buf = binary.BigEndian.AppendUint32(buf, uint32(hasNull))
	buf = binary.BigEndian.AppendUint32(buf, elem.OID())
	for d := range a.Dims {
		buf = binary.BigEndian.AppendUint32(buf, uint32(a.Dims[d]))
		buf = binary.BigEndian.AppendUint32(buf, uint32(a.LowerBound(d)))
	}
	for _, e := range a.Elems {
		if e.IsNull() {
			buf = binary.BigEndian.AppendUint32(buf, math.MaxUint32)
			continue
		}
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		var err error
		if buf, err = AppendBinary(buf, elem, e); err != nil {
			return buf, err
		}
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf, nil
}

// decodeBit is bit_recv and varbit_recv: an int32 length in bits, then
// the bits packed in bytes (the pad bits of the last are cleared), the
// length checked against t's.
func decodeBit(t sqltypes.Type, src []byte) (sqltypes.Value, error) {
	if len(src) < 4 {
		return sqltypes.Null, errInsufficientData()
	}
	n := int32(binary.BigEndian.Uint32(src))
	if n < 0 || n > sqltypes.BitMaxLength {
		return sqltypes.Null, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid length in external bit string")
	}
	if t.Width > 0 && int(n) != t.Width && !(t.ID == sqltypes.VarBit && int(n) < t.Width) {
		if t.ID == sqltypes.VarBit {
			return sqltypes.Null, pgerr.New(pgerr.StringDataRightTruncation, "bit string too long for type bit varying(%d)", t.Width)
		}
		return sqltypes.Null, pgerr.New(pgerr.StringDataLengthMismatch, "bit string length %d does not match type bit(%d)", n, t.Width)
	}
	size := (int(n) + 7) / 8
	switch {
	case len(src)-4 < size:
		return sqltypes.Null, errInsufficientData()
	case len(src)-4 > size:
		return sqltypes.Null, errBadBinary(t, "%d bytes left over", len(src)-4-size)
	}
	return sqltypes.NewBit(append([]byte(nil), src[4:]...), int(n)), nil
}

// errInsufficientData is pq_getmsg*'s error when a recv function reads
// past the end of its buffer.
func errInsufficientData() error {
	return pgerr.New(pgerr.ProtocolViolation, "insufficient data left in message")
}

// decodeInet reads the binary form of an inet or cidr (network_recv):
// family, mask length, an is_cidr byte it ignores (the type decides),
// address length and address, with PostgreSQL's checks and errors.
func decodeInet(t sqltypes.Type, src []byte) (sqltypes.Value, error) {
	name := t.String()
	bad := func(what string) error {
		return pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid %s in external \"%s\" value", what, name)
	}
	if len(src) < 4 {
		return sqltypes.Null, errBadBinary(t, "expected at least 4 bytes, got %d", len(src))
	}
	n := sqltypes.InetAddr{Family: src[0], Bits: int(src[1]), Cidr: t.ID == sqltypes.Cidr}
	if n.Family != sqltypes.InetFamily4 && n.Family != sqltypes.InetFamily6 {
		return sqltypes.Null, bad("address family")
	}
	if n.Bits > n.MaxBits() {
		return sqltypes.Null, bad("bits")
	}
	if int(src[3]) != n.Size() {
		return sqltypes.Null, bad("length")
	}
	if len(src) != 4+n.Size() {
		return sqltypes.Null, errBadBinary(t, "expected %d bytes, got %d", 4+n.Size(), len(src))
	}
	copy(n.Addr[:], src[4:])
	if n.Cidr && !n.HostClean() {
		return sqltypes.Null, pgerr.New(pgerr.InvalidBinaryRepresentation, "invalid external \"cidr\" value").
			WithDetail("Value has bits set to right of mask.")
	}
	return sqltypes.NewInet(n), nil
}
