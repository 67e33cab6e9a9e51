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
	Null  bool
	Int   int64
	Float float64
	Bool  bool
	Bytes []byte
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
