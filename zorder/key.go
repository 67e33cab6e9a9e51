package zorder

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrCorrupt is wrapped by every error the tuple decoders return: the input
// is not a well-formed encoding of the requested kind and direction.
var ErrCorrupt = errors.New("zorder: corrupt key encoding")

// Column tags. Every encoded column starts with one tag byte so that NULL
// (the smallest tag) sorts before every value of the column, and so the
// decoder can tell a value of the wrong kind from a corrupt key. Values of
// one column always share a tag, so the tag never decides between two
// non-NULL values.
const (
	tagNull  byte = 0x00
	tagBool  byte = 0x10
	tagInt   byte = 0x20
	tagFloat byte = 0x30
	tagBytes byte = 0x40
	// tagDecimal and tagInt128 carry numeric and interval columns.
	tagDecimal byte = 0x50
	tagInt128  byte = 0x60
)

// Bytes escaping: 0x00 inside a value becomes 0x00 0xff and the value ends
// with 0x00 0x01. A terminator therefore sorts below any continuation
// (shorter strings first) and the encoding is prefix-free, so columns can be
// concatenated. Inverted for DESC, the pair becomes 0xff 0xfe / 0xff 0x00,
// which still delimits and still orders correctly.
const (
	bytesEscape     byte = 0x00
	bytesEscapedNul byte = 0xff
	bytesTerminator byte = 0x01
)

// KeyKind names the kinds of key column the tuple encoding knows. Integer-like
// SQL types (smallint, integer, bigint, timestamp µs, date days) are
// KeyInt; text, varchar, bytea and uuid are KeyBytes.
type KeyKind uint8

// Key column kinds.
const (
	KeyInt KeyKind = iota + 1
	KeyFloat
	KeyBool
	KeyBytes
	KeyDecimal
	KeyInt128
)

func (k KeyKind) String() string {
	switch k {
	case KeyInt:
		return "int"
	case KeyFloat:
		return "float"
	case KeyBool:
		return "bool"
	case KeyBytes:
		return "bytes"
	case KeyDecimal:
		return "decimal"
	case KeyInt128:
		return "int128"
	}
	return fmt.Sprintf("KeyKind(%d)", uint8(k))
}

func (k KeyKind) tag() byte {
	switch k {
	case KeyInt:
		return tagInt
	case KeyFloat:
		return tagFloat
	case KeyBool:
		return tagBool
	case KeyBytes:
		return tagBytes
	case KeyDecimal:
		return tagDecimal
	case KeyInt128:
		return tagInt128
	}
	return 0xff
}

// dirByte returns c as stored for the direction: DESC stores every byte
// inverted, which reverses the order of each column on its own.
func dirByte(c byte, desc bool) byte {
	if desc {
		return ^c
	}
	return c
}

// AppendNull appends a NULL column. NULL sorts before every value ascending
// and after every value descending.
func AppendNull(b []byte, desc bool) []byte {
	return append(b, dirByte(tagNull, desc))
}

// AppendInt appends a signed 64-bit integer: big-endian with the sign bit
// flipped. Used for smallint, integer, bigint, timestamps (µs since the
// epoch) and dates (days since the epoch).
func AppendInt(b []byte, v int64, desc bool) []byte {
	return appendUint64(append(b, dirByte(tagInt, desc)), uint64(v)^(1<<63), desc)
}

// tagPastMax follows AppendInt's math.MaxInt64-1 in AppendIntPastMax.
const tagPastMax byte = 0xff

// AppendIntPastMax appends a value from math.MaxInt64-1 on, of a column
// whose values run past int64 below a math.MaxInt64 sentinel (+infinity):
// AppendInt(math.MaxInt64-1), a marker, then excess (the value less
// math.MaxInt64-1), by which such values order among themselves. They
// sort after every smaller value and before the sentinel, in either
// direction; a column using it must not encode math.MaxInt64-1 itself by
// AppendInt (whose key would be a prefix of these). (Timestamps of
// PostgreSQL's last thirty years: their count from 1970 is past int64.)
func AppendIntPastMax(b []byte, excess uint64, desc bool) []byte {
	b = AppendInt(b, math.MaxInt64-1, desc)
	return appendUint64(append(b, dirByte(tagPastMax, desc)), excess, desc)
}

// AppendFloat appends a float64 in IEEE total order:
//
//	-Inf < negatives < -0.0 < +0.0 < positives < +Inf < NaN
//
// Every NaN encodes the same (PostgreSQL's "NaN above every number").
// -0.0 and +0.0 encode distinctly but adjacently; SQL equality folds them,
// so the executor canonicalises -0.0 to +0.0 before it builds keys, or two
// "equal" keys would be stored apart.
func AppendFloat(b []byte, v float64, desc bool) []byte {
	return appendUint64(append(b, dirByte(tagFloat, desc)), floatOrderBits(v), desc)
}

// AppendBool appends a boolean; false sorts before true.
func AppendBool(b []byte, v bool, desc bool) []byte {
	var x byte
	if v {
		x = 1
	}
	return append(b, dirByte(tagBool, desc), dirByte(x, desc))
}

// AppendBytes appends a byte string (text, varchar, bytea, uuid) in
// bytewise order, shorter-is-smaller for prefixes. 0x00 bytes inside s are
// escaped, so any content is allowed.
func AppendBytes(b []byte, s []byte, desc bool) []byte {
	b = append(b, dirByte(tagBytes, desc))
	for _, c := range s {
		if c == bytesEscape {
			b = append(b, dirByte(bytesEscape, desc), dirByte(bytesEscapedNul, desc))
			continue
		}
		b = append(b, dirByte(c, desc))
	}
	return append(b, dirByte(bytesEscape, desc), dirByte(bytesTerminator, desc))
}

// AppendString is AppendBytes for a string, without copying it.
func AppendString(b []byte, s string, desc bool) []byte {
	b = append(b, dirByte(tagBytes, desc))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == bytesEscape {
			b = append(b, dirByte(bytesEscape, desc), dirByte(bytesEscapedNul, desc))
			continue
		}
		b = append(b, dirByte(c, desc))
	}
	return append(b, dirByte(bytesEscape, desc), dirByte(bytesTerminator, desc))
}

func appendUint64(b []byte, x uint64, desc bool) []byte {
	if desc {
		x = ^x
	}
	return binary.BigEndian.AppendUint64(b, x)
}

// floatOrderBits maps a float64 to a uint64 whose unsigned order is the IEEE
// total order above: positives get the sign bit set, negatives are inverted
// entirely, all NaNs become the largest value.
func floatOrderBits(v float64) uint64 {
	if math.IsNaN(v) {
		return math.MaxUint64
	}
	u := math.Float64bits(v)
	if u&(1<<63) != 0 {
		return ^u
	}
	return u | 1<<63
}

func floatFromOrderBits(u uint64) float64 {
	if u == math.MaxUint64 {
		return math.NaN()
	}
	if u&(1<<63) != 0 {
		return math.Float64frombits(u &^ (1 << 63))
	}
	return math.Float64frombits(^u)
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// readTag consumes the tag of the next column and reports NULL. want is the
// tag of the expected kind.
func readTag(b []byte, want byte, desc bool) (null bool, rest []byte, err error) {
	if len(b) == 0 {
		return false, nil, corrupt("missing column")
	}
	t := dirByte(b[0], desc)
	switch t {
	case tagNull:
		return true, b[1:], nil
	case want:
		return false, b[1:], nil
	}
	return false, nil, corrupt("tag 0x%02x, want 0x%02x", t, want)
}

func readUint64(b []byte, desc bool) (uint64, []byte, error) {
	if len(b) < 8 {
		return 0, nil, corrupt("truncated 8-byte value")
	}
	x := binary.BigEndian.Uint64(b)
	if desc {
		x = ^x
	}
	return x, b[8:], nil
}

// DecodeNull consumes a column if it is NULL: null reports whether it was,
// and rest is b unchanged when it was not.
func DecodeNull(b []byte, desc bool) (null bool, rest []byte, err error) {
	if len(b) == 0 {
		return false, nil, corrupt("missing column")
	}
	if dirByte(b[0], desc) == tagNull {
		return true, b[1:], nil
	}
	return false, b, nil
}

// DecodeInt reads a column written by AppendInt or AppendNull.
func DecodeInt(b []byte, desc bool) (v int64, null bool, rest []byte, err error) {
	null, b, err = readTag(b, tagInt, desc)
	if err != nil || null {
		return 0, null, b, err
	}
	x, b, err := readUint64(b, desc)
	if err != nil {
		return 0, false, nil, err
	}
	return int64(x ^ (1 << 63)), false, b, nil
}

// DecodeFloat reads a column written by AppendFloat or AppendNull.
func DecodeFloat(b []byte, desc bool) (v float64, null bool, rest []byte, err error) {
	null, b, err = readTag(b, tagFloat, desc)
	if err != nil || null {
		return 0, null, b, err
	}
	x, b, err := readUint64(b, desc)
	if err != nil {
		return 0, false, nil, err
	}
	if x != math.MaxUint64 && math.IsNaN(floatFromOrderBits(x)) {
		// Only the canonical NaN is ever written; accepting others would
		// let two differently-encoded keys decode to "the same" value.
		return 0, false, nil, corrupt("non-canonical NaN")
	}
	return floatFromOrderBits(x), false, b, nil
}

// DecodeBool reads a column written by AppendBool or AppendNull.
func DecodeBool(b []byte, desc bool) (v bool, null bool, rest []byte, err error) {
	null, b, err = readTag(b, tagBool, desc)
	if err != nil || null {
		return false, null, b, err
	}
	if len(b) == 0 {
		return false, false, nil, corrupt("truncated bool")
	}
	switch dirByte(b[0], desc) {
	case 0:
		return false, false, b[1:], nil
	case 1:
		return true, false, b[1:], nil
	}
	return false, false, nil, corrupt("bool byte 0x%02x", dirByte(b[0], desc))
}

// DecodeBytes reads a column written by AppendBytes, AppendString or
// AppendNull, appending the value to dst (which may be nil).
func DecodeBytes(dst, b []byte, desc bool) (v []byte, null bool, rest []byte, err error) {
	null, b, err = readTag(b, tagBytes, desc)
	if err != nil || null {
		return dst, null, b, err
	}
	for i := 0; i < len(b); i++ {
		c := dirByte(b[i], desc)
		if c != bytesEscape {
			dst = append(dst, c)
			continue
		}
		if i+1 >= len(b) {
			return dst, false, nil, corrupt("truncated escape")
		}
		switch dirByte(b[i+1], desc) {
		case bytesTerminator:
			if dst == nil {
				dst = []byte{}
			}
			return dst, false, b[i+2:], nil
		case bytesEscapedNul:
			dst = append(dst, 0)
			i++
		default:
			return dst, false, nil, corrupt("bad escape 0x00 0x%02x", dirByte(b[i+1], desc))
		}
	}
	return dst, false, nil, corrupt("unterminated bytes")
}

// DecodeString is DecodeBytes returning a string.
func DecodeString(b []byte, desc bool) (v string, null bool, rest []byte, err error) {
	bs, null, rest, err := DecodeBytes(nil, b, desc)
	return string(bs), null, rest, err
}

// KeyColumn describes one column of an encoded tuple.
type KeyColumn struct {
	Kind KeyKind
	Desc bool
}

// KeyField is one decoded column. Exactly one of the value fields is
// meaningful, chosen by the column's kind, unless Null is set.
type KeyField struct {
	Null    bool
	Int     int64
	Float   float64
	Bool    bool
	Bytes   []byte
	Decimal Decimal // KeyDecimal
	Hi      int64   // KeyInt128: the high word (Int128 also uses Lo)
	Lo      uint64
}

// DecodeTuple reads one field per column from b and returns the fields and
// what follows the tuple (a sort key may carry more after the columns).
func DecodeTuple(b []byte, cols []KeyColumn) (fields []KeyField, rest []byte, err error) {
	fields = make([]KeyField, len(cols))
	for i, c := range cols {
		f := &fields[i]
		switch c.Kind {
		case KeyInt:
			f.Int, f.Null, b, err = DecodeInt(b, c.Desc)
		case KeyFloat:
			f.Float, f.Null, b, err = DecodeFloat(b, c.Desc)
		case KeyBool:
			f.Bool, f.Null, b, err = DecodeBool(b, c.Desc)
		case KeyBytes:
			f.Bytes, f.Null, b, err = DecodeBytes(nil, b, c.Desc)
		case KeyDecimal:
			f.Decimal, f.Null, b, err = DecodeDecimal(b, c.Desc)
		case KeyInt128:
			f.Hi, f.Lo, f.Null, b, err = DecodeInt128(b, c.Desc)
		default:
			return nil, nil, fmt.Errorf("zorder: column %d has unknown kind %v", i, c.Kind)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("column %d: %w", i, err)
		}
	}
	return fields, b, nil
}

// AppendTuple encodes fields as DecodeTuple reads them; the inverse of
// DecodeTuple, mostly useful to tests and tools.
func AppendTuple(b []byte, cols []KeyColumn, fields []KeyField) ([]byte, error) {
	if len(cols) != len(fields) {
		return b, fmt.Errorf("zorder: %d columns but %d fields", len(cols), len(fields))
	}
	for i, c := range cols {
		f := fields[i]
		if f.Null {
			b = AppendNull(b, c.Desc)
			continue
		}
		switch c.Kind {
		case KeyInt:
			b = AppendInt(b, f.Int, c.Desc)
		case KeyFloat:
			b = AppendFloat(b, f.Float, c.Desc)
		case KeyBool:
			b = AppendBool(b, f.Bool, c.Desc)
		case KeyBytes:
			b = AppendBytes(b, f.Bytes, c.Desc)
		case KeyDecimal:
			b = AppendDecimal(b, f.Decimal, c.Desc)
		case KeyInt128:
			b = AppendInt128(b, f.Hi, f.Lo, c.Desc)
		default:
			return b, fmt.Errorf("zorder: column %d has unknown kind %v", i, c.Kind)
		}
	}
	return b, nil
}

// SkipColumn steps over one encoded column of any kind without decoding it.
func SkipColumn(b []byte, desc bool) (rest []byte, err error) {
	if len(b) == 0 {
		return nil, corrupt("missing column")
	}
	switch dirByte(b[0], desc) {
	case tagNull:
		return b[1:], nil
	case tagInt, tagFloat:
		if len(b) < 9 {
			return nil, corrupt("truncated 8-byte value")
		}
		return b[9:], nil
	case tagBool:
		_, _, rest, err = DecodeBool(b, desc)
		return rest, err
	case tagDecimal:
		_, _, rest, err = DecodeDecimal(b, desc)
		return rest, err
	case tagInt128:
		if len(b) < 17 {
			return nil, corrupt("truncated 16-byte value")
		}
		return b[17:], nil
	case tagBytes:
		for i := 1; i+1 < len(b); i++ {
			if dirByte(b[i], desc) != bytesEscape {
				continue
			}
			switch dirByte(b[i+1], desc) {
			case bytesTerminator:
				return b[i+2:], nil
			case bytesEscapedNul:
				i++
			default:
				return nil, corrupt("bad escape")
			}
		}
		return nil, corrupt("unterminated bytes")
	}
	return nil, corrupt("unknown tag 0x%02x", dirByte(b[0], desc))
}

// DecimalClass orders the kinds of decimal numbers.
type DecimalClass uint8

// Decimal classes, in sort order (PostgreSQL puts NaN above +Infinity).
const (
	DecimalNegInf DecimalClass = iota + 1
	DecimalNeg
	DecimalZero
	DecimalPos
	DecimalPosInf
	DecimalNaN
)

// Decimal is a decimal number in the normalized scientific form the key
// encoding orders: for DecimalNeg and DecimalPos the value is
// ±0.d1d2d3… × 10^Exp, with Digits the ASCII digits d1d2… without leading
// or trailing zeros (so 1.5 and 1.50 encode alike). The other classes
// ignore Exp and Digits.
type Decimal struct {
	Class  DecimalClass
	Exp    int32
	Digits []byte
}

// Decimal encoding after the tag: the class byte; for non-zero finite
// numbers the exponent (4 bytes, sign bit flipped) and the digits two to a
// byte as 1 + (10·d1 + d2), a lone last digit padded with 0 (a trailing
// zero does not change the value), then a 0x00 terminator. Negative
// numbers store exponent, digit bytes and terminator inverted, so larger
// magnitudes sort first. The encoding is prefix-free, and memcomparable:
// comparing the pair bytes is comparing the fractions 0.d1d2….
const decimalEnd byte = 0x00

// AppendDecimal appends a decimal (numeric) column.
func AppendDecimal(b []byte, d Decimal, desc bool) []byte {
	b = append(b, dirByte(tagDecimal, desc), dirByte(byte(d.Class), desc))
	if d.Class != DecimalPos && d.Class != DecimalNeg {
		return b
	}
	neg := d.Class == DecimalNeg
	flip := func(c byte) byte {
		if neg {
			c = ^c
		}
		return dirByte(c, desc)
	}
	e := uint32(d.Exp) ^ 1<<31
	b = append(b, flip(byte(e>>24)), flip(byte(e>>16)), flip(byte(e>>8)), flip(byte(e)))
	for i := 0; i < len(d.Digits); i += 2 {
		hi := d.Digits[i] - '0'
		lo := byte(0)
		if i+1 < len(d.Digits) {
			lo = d.Digits[i+1] - '0'
		}
		b = append(b, flip(1+10*hi+lo))
	}
	return append(b, flip(decimalEnd))
}

// DecodeDecimal reads a column written by AppendDecimal or AppendNull.
// Digits come back without the padding zero.
func DecodeDecimal(b []byte, desc bool) (d Decimal, null bool, rest []byte, err error) {
	null, b, err = readTag(b, tagDecimal, desc)
	if err != nil || null {
		return d, null, b, err
	}
	if len(b) == 0 {
		return d, false, nil, corrupt("truncated decimal")
	}
	d.Class = DecimalClass(dirByte(b[0], desc))
	b = b[1:]
	switch d.Class {
	case DecimalNegInf, DecimalZero, DecimalPosInf, DecimalNaN:
		return d, false, b, nil
	case DecimalNeg, DecimalPos:
	default:
		return d, false, nil, corrupt("decimal class 0x%02x", byte(d.Class))
	}
	neg := d.Class == DecimalNeg
	get := func(c byte) byte {
		c = dirByte(c, desc)
		if neg {
			c = ^c
		}
		return c
	}
	if len(b) < 4 {
		return d, false, nil, corrupt("truncated decimal exponent")
	}
	e := uint32(get(b[0]))<<24 | uint32(get(b[1]))<<16 | uint32(get(b[2]))<<8 | uint32(get(b[3]))
	d.Exp = int32(e ^ 1<<31)
	b = b[4:]
	for i := 0; i < len(b); i++ {
		c := get(b[i])
		if c == decimalEnd {
			if len(d.Digits) == 0 {
				return d, false, nil, corrupt("decimal without digits")
			}
			if d.Digits[len(d.Digits)-1] == '0' {
				d.Digits = d.Digits[:len(d.Digits)-1]
				if d.Digits[len(d.Digits)-1] == '0' {
					return d, false, nil, corrupt("decimal with trailing zeros")
				}
			}
			if d.Digits[0] == '0' {
				return d, false, nil, corrupt("decimal with a leading zero")
			}
			return d, false, b[i+1:], nil
		}
		if c > 100 {
			return d, false, nil, corrupt("decimal digit byte 0x%02x", c)
		}
		c--
		d.Digits = append(d.Digits, '0'+c/10, '0'+c%10)
	}
	return d, false, nil, corrupt("unterminated decimal")
}

// AppendInt128 appends a signed 128-bit integer (high word signed, low
// word unsigned), as intervals encode their PostgreSQL comparison span.
func AppendInt128(b []byte, hi int64, lo uint64, desc bool) []byte {
	b = appendUint64(append(b, dirByte(tagInt128, desc)), uint64(hi)^(1<<63), desc)
	return appendUint64(b, lo, desc)
}

// DecodeInt128 reads a column written by AppendInt128 or AppendNull.
func DecodeInt128(b []byte, desc bool) (hi int64, lo uint64, null bool, rest []byte, err error) {
	null, b, err = readTag(b, tagInt128, desc)
	if err != nil || null {
		return 0, 0, null, b, err
	}
	h, b, err := readUint64(b, desc)
	if err != nil {
		return 0, 0, false, nil, err
	}
	lo, b, err = readUint64(b, desc)
	if err != nil {
		return 0, 0, false, nil, err
	}
	return int64(h ^ (1 << 63)), lo, false, b, nil
}
