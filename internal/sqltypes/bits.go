package sqltypes

import (
	"cmp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Bit strings (bit(n) and bit varying(n)) are KindBit values: the bits
// packed most significant first in S, the pad bits of the last byte zero,
// and the number of bits in I, as PostgreSQL's VarBit holds them. Keeping
// the pad bits zero makes == on the Value, Compare and the key encoding
// agree with PostgreSQL's bit_cmp.

// BitMaxLength is the longest bit(n) or bit varying(n) a type may declare
// (PostgreSQL's MaxAttrSize in bits).
const BitMaxLength = 83886080

// NewBit returns a bit string of n bits packed in b (the pad bits of the
// last byte are cleared).
func NewBit(b []byte, n int) Value {
	if n%8 != 0 && len(b) > 0 {
		b[len(b)-1] &= byte(0xff << (8 - n%8))
	}
	return Value{K: KindBit, I: int64(n), S: string(b)}
}

// BitLen returns the number of bits of a KindBit value.
func (v Value) BitLen() int { return int(v.I) }

// BitAt reports whether bit i (0 the leftmost) of a bit string is set.
func (v Value) BitAt(i int) bool { return v.S[i/8]&(0x80>>(i%8)) != 0 }

// bitBytes is the number of bytes n bits take.
func bitBytes(n int) int { return (n + 7) / 8 }

// ParseBit reads a bit string as bit_in and varbit_in do: binary digits,
// optionally after b or B, or hexadecimal digits after x or X. width is
// the type's length (0: none): a bit(n) needs exactly n bits (22026), a
// bit varying(n) at most n (22001).
func ParseBit(s string, width int, varying bool) (Value, error) {
	hex := false
	if s != "" {
		switch s[0] {
		case 'b', 'B':
			s = s[1:]
		case 'x', 'X':
			hex, s = true, s[1:]
		}
	}
	n := len(s)
	if hex {
		n *= 4
	}
	if err := checkBitWidth(n, width, varying); err != nil {
		return Null, err
	}
	b := make([]byte, bitBytes(n))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !hex {
			switch c {
			case '1':
				b[i/8] |= 0x80 >> (i % 8)
			case '0':
			default:
				return Null, pgerr.New(pgerr.InvalidTextRepresentation, "\"%s\" is not a valid binary digit", firstChar(s[i:]))
			}
			continue
		}
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return Null, pgerr.New(pgerr.InvalidTextRepresentation, "\"%s\" is not a valid hexadecimal digit", firstChar(s[i:]))
		}
		if i%2 == 0 {
			d <<= 4
		}
		b[i/2] |= d
	}
	return NewBit(b, n), nil
}

// firstChar is the first character of s, as PostgreSQL's messages quote
// the offending one (pg_mblen).
func firstChar(s string) string {
	_, size := utf8.DecodeRuneInString(s)
	return s[:size]
}

// checkBitWidth is the length rule of bit(width) (exact) and bit
// varying(width) (at most) for a string of n bits being stored.
func checkBitWidth(n, width int, varying bool) error {
	switch {
	case width <= 0:
	case varying && n > width:
		return pgerr.New(pgerr.StringDataRightTruncation, "bit string too long for type bit varying(%d)", width)
	case !varying && n != width:
		return pgerr.New(pgerr.StringDataLengthMismatch, "bit string length %d does not match type bit(%d)", n, width)
	}
	return nil
}

// AppendBit appends a bit string's text: one 0 or 1 per bit.
func AppendBit(buf []byte, v Value) []byte {
	for i := 0; i < v.BitLen(); i++ {
		if v.BitAt(i) {
			buf = append(buf, '1')
		} else {
			buf = append(buf, '0')
		}
	}
	return buf
}

// ResizeBit returns the first n bits of v, zero-padded on the right when
// v is shorter: an explicit cast to bit(n) (and to bit varying(n), which
// only ever shortens).
func ResizeBit(v Value, n int) Value {
	b := make([]byte, bitBytes(n))
	copy(b, v.S) // v's pad bits are zero: padding needs no more
	return NewBit(b, n)
}

// castBit converts to and from the bit-string types: between bit(n) and
// bit varying(n) by the length rules (an explicit cast cuts or pads,
// an assignment errs), from strings through bit_in, and between bit(n)
// and integer or bigint. ok is false for the conversions castValue does
// itself (a bit string to text).
func castBit(v Value, t Type, explicit bool) (Value, bool, error) {
	tb := t.ID == Bit || t.ID == VarBit
	switch {
	case tb && v.K == KindBit:
		r, err := coerceBit(v, t, explicit)
		return r, true, err
	case tb && (v.K == KindText || v.K == KindBPChar || v.K == KindCitext):
		s := v.S
		if v.K == KindBPChar {
			s = bpcharCompareForm(v)
		}
		if !explicit {
			r, err := ParseBit(s, t.Width, t.ID == VarBit)
			return r, true, err
		}
		r, err := ParseBit(s, 0, false)
		if err != nil {
			return Null, true, err
		}
		r, err = coerceBit(r, t, true)
		return r, true, err
	case t.ID == Bit && v.K == KindInt:
		n := t.Width
		if n <= 0 {
			n = 1 // bit without a length is bit(1) in a cast
		}
		b := make([]byte, bitBytes(n))
		for i := 0; i < n; i++ {
			// Bit i from the right of the integer, sign-extended past 64.
			shift := n - 1 - i
			if shift > 63 {
				shift = 63
			}
			if v.I>>shift&1 != 0 {
				b[i/8] |= 0x80 >> (i % 8)
			}
		}
		return NewBit(b, n), true, nil
	case v.K == KindBit && (t.ID == Int4 || t.ID == Int8):
		max, name := 32, "integer"
		if t.ID == Int8 {
			max, name = 64, "bigint"
		}
		if v.BitLen() > max {
			return Null, true, pgerr.New(pgerr.NumericValueOutOfRange, "%s out of range", name)
		}
		var u uint64
		for i := 0; i < v.BitLen(); i++ {
			u <<= 1
			if v.BitAt(i) {
				u |= 1
			}
		}
		if t.ID == Int4 {
			return NewInt(int64(int32(uint32(u)))), true, nil
		}
		return NewInt(int64(u)), true, nil
	}
	return Null, false, nil
}

// coerceBit applies t's length to a bit string.
func coerceBit(v Value, t Type, explicit bool) (Value, error) {
	n, width := v.BitLen(), t.Width
	if width <= 0 || n == width || t.ID == VarBit && n < width {
		return v, nil
	}
	if !explicit {
		return Null, checkBitWidth(n, width, t.ID == VarBit)
	}
	return ResizeBit(v, width), nil
}

// bitTypeName is format_type's spelling of bit(n) and bit varying(n).
func bitTypeName(t Type) string {
	name := "bit"
	if t.ID == VarBit {
		name = "bit varying"
	}
	if t.Width > 0 {
		return name + "(" + strconv.Itoa(t.Width) + ")"
	}
	return name
}

// CompareBit orders two bit strings as bit_cmp does: by their bytes over
// the shorter one's, then the shorter first.
func CompareBit(a, b Value) int {
	n := min(len(a.S), len(b.S))
	if c := strings.Compare(a.S[:n], b.S[:n]); c != 0 {
		return c
	}
	return cmp.Compare(a.I, b.I)
}
