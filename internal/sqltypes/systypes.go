package sqltypes

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// The system-information types a table may hold: pg_lsn (a WAL position,
// an unsigned 64-bit number printed as two hex halves), xid (a 32-bit
// transaction id), xid8 (a 64-bit one) and tid (a tuple's block and
// offset). Their values are in Value.I: pg_lsn and xid8 as the unsigned
// number's bits (Compare orders them unsigned), tid as block<<16|offset.

// sysInfoTypes are the types of the kinds of xml and the system
// information types (one type a kind).
var sysInfoTypes = map[Kind]TypeID{KindXML: XML, KindLSN: PgLSN, KindXID: XID, KindXID8: XID8, KindTID: TID}

// NewLSN returns a pg_lsn value.
func NewLSN(u uint64) Value { return Value{K: KindLSN, I: int64(u)} }

// NewXID returns an xid value.
func NewXID(u uint32) Value { return Value{K: KindXID, I: int64(u)} }

// NewXID8 returns an xid8 value.
func NewXID8(u uint64) Value { return Value{K: KindXID8, I: int64(u)} }

// NewTID returns a tid value.
func NewTID(block uint32, offset uint16) Value {
	return Value{K: KindTID, I: int64(block)<<16 | int64(offset)}
}

// TIDParts returns a tid value's block and offset.
func TIDParts(v Value) (block uint32, offset uint16) {
	return uint32(v.I >> 16), uint16(v.I)
}

// ParseLSN is pg_lsn_in: two hex numbers of up to 8 digits split by '/'.
func ParseLSN(s string) (Value, error) {
	bad := func() (Value, error) {
		return Null, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type pg_lsn: \"%s\"", s)
	}
	hi, lo, ok := strings.Cut(s, "/")
	if !ok || !isHexN(hi) || !isHexN(lo) {
		return bad()
	}
	h, _ := strconv.ParseUint(hi, 16, 32)
	l, _ := strconv.ParseUint(lo, 16, 32)
	return NewLSN(h<<32 | l), nil
}

func isHexN(s string) bool {
	if len(s) == 0 || len(s) > 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !(s[i] >= '0' && s[i] <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// AppendLSN appends pg_lsn_out's text: %X/%X.
func AppendLSN(buf []byte, u uint64) []byte {
	buf = append(buf, strings.ToUpper(strconv.FormatUint(u>>32, 16))...)
	buf = append(buf, '/')
	return append(buf, strings.ToUpper(strconv.FormatUint(u&0xffffffff, 16))...)
}

// ParseXID is xidin: PostgreSQL 15 reads it with strtoul(s, NULL, 0) and
// checks nothing, so junk after a number is ignored, no number is 0, a
// minus negates modulo 2^64, an overflow gives ULONG_MAX, and the result
// is cut to 32 bits.
func ParseXID(s string) (Value, error) {
	u, _, _ := strtoul(s, 0)
	return NewXID(uint32(u)), nil
}

// ParseXID8 is xid8in: strtou64(s, NULL, 0), unchecked as xidin.
func ParseXID8(s string) (Value, error) {
	u, _, _ := strtoul(s, 0)
	return NewXID8(u), nil
}

// strtoul is C's strtoul on a 64-bit platform: leading blanks, an optional
// sign, then digits of base (0: 0x for hex, a leading 0 for octal, else
// decimal). rest is what follows the number (all of s when none is
// there); an overflow gives 2^64-1 and ok false (errno ERANGE).
func strtoul(s string, base int) (u uint64, ok bool, rest string) {
	t := strings.TrimLeft(s, " \t\n\r\v\f")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	if (base == 0 || base == 16) && len(t) > 2 && t[0] == '0' && t[1]|0x20 == 'x' && digitValue(t[2]) < 16 {
		base, t = 16, t[2:]
	} else if base == 0 && len(t) > 1 && t[0] == '0' {
		base = 8
	} else if base == 0 {
		base = 10
	}
	end := 0
	for end < len(t) && digitValue(t[end]) < base {
		end++
	}
	if end == 0 {
		return 0, true, s
	}
	u, err := strconv.ParseUint(t[:end], base, 64)
	if err != nil {
		return ^uint64(0), false, t[end:]
	}
	if neg {
		u = -u
	}
	return u, true, t[end:]
}

func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'z':
		return int(c|0x20-'a') + 10
	}
	return 99
}

// ParseTID is tidin: the text after the first '(' (or ',') up to a ','
// is the block, read by strtoul and taken when it fits 32 bits unsigned
// or signed; the text after that ',' up to ')' is the offset (0..65535);
// what follows the ')' is ignored.
func ParseTID(s string) (Value, error) {
	bad := func() (Value, error) {
		return Null, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type tid: \"%s\"", s)
	}
	var coord [2]int
	n := 0
	for i := 0; i < len(s) && n < 2 && s[i] != ')'; i++ {
		if s[i] == ',' || s[i] == '(' && n == 0 {
			coord[n] = i + 1
			n++
		}
	}
	if n < 2 {
		return bad()
	}
	cvt, ok, rest := strtoul(s[coord[0]:], 10)
	if !ok || !strings.HasPrefix(rest, ",") {
		return bad()
	}
	block := uint32(cvt)
	if cvt != uint64(block) && cvt != uint64(int64(int32(block))) {
		return bad()
	}
	off, ok, rest := strtol(s[coord[1]:])
	if !ok || !strings.HasPrefix(rest, ")") || off > 0xffff || off < 0 {
		return bad()
	}
	return NewTID(block, uint16(off)), nil
}

// strtol is C's strtol in base 10: as strtoul, but signed, and an
// overflow is not ok.
func strtol(s string) (int64, bool, string) {
	t := strings.TrimLeft(s, " \t\n\r\v\f")
	sign := ""
	if t != "" && (t[0] == '+' || t[0] == '-') {
		sign, t = t[:1], t[1:]
	}
	end := 0
	for end < len(t) && t[end] >= '0' && t[end] <= '9' {
		end++
	}
	if end == 0 {
		return 0, true, s
	}
	i, err := strconv.ParseInt(sign+t[:end], 10, 64)
	return i, err == nil, t[end:]
}

// AppendTID appends tidout's text: (block,offset).
func AppendTID(buf []byte, v Value) []byte {
	block, off := TIDParts(v)
	buf = append(buf, '(')
	buf = strconv.AppendUint(buf, uint64(block), 10)
	buf = append(buf, ',')
	buf = strconv.AppendUint(buf, uint64(off), 10)
	return append(buf, ')')
}

// castSysInfo converts to and from xml, pg_lsn, xid, xid8 and tid: only
// the casts pg_cast has (xid8 to xid; xml, as text, from and to the
// string types) and the I/O conversions to and from strings. ok is false
// for pairs it does not handle.
func castSysInfo(v Value, t Type) (Value, bool, error) {
	tk := t.Kind()
	switch tk {
	case KindXML, KindLSN, KindXID, KindXID8, KindTID:
	default:
		switch v.K {
		case KindXML, KindLSN, KindXID, KindXID8, KindTID:
			// To a string type: through the value's text (an xml value
			// keeps its text as written, xmlserialize's and pg_cast's
			// binary-coercible cast to text).
			s := FormatText(v)
			if v.K == KindXML {
				s = v.S
			}
			switch tk {
			case KindText, KindBPChar, KindCitext:
				r, err := CastIn(NewText(s), t, true, nil)
				return r, true, err
			}
			return Null, true, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", KindType(v.K), t)
		}
		return Null, false, nil
	}
	switch {
	case v.K == tk:
		return v, true, nil
	case v.K == KindText || v.K == KindBPChar || v.K == KindCitext:
		s := v.S
		if v.K == KindBPChar {
			s = strings.TrimRight(s, " ")
		}
		r, err := ParseText(Type{ID: t.ID}, s)
		return r, true, err
	case v.K == KindXID8 && tk == KindXID:
		return NewXID(uint32(v.I)), true, nil
	}
	return Null, true, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", KindType(v.K), t)
}

// LSNToNumeric is a pg_lsn position as numeric (pg_lsn_mi's operands).
func LSNToNumeric(v Value) Value {
	d := new(apd.Decimal)
	d.Coeff.SetUint64(uint64(v.I))
	return NewNumeric(d)
}

// NumericToLSN is numeric_pg_lsn: the number rounded to an integer (half
// away from zero), which must lie in [0, 2^64); NaN and the infinities
// are refused with 0A000 as "cannot <verb> ... pg_lsn" (what names the
// operation: "convert NaN to", "add NaN to", "subtract NaN from").
func NumericToLSN(v Value, nanVerb string) (Value, error) {
	d := v.Numeric()
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return Null, pgerr.New(pgerr.FeatureNotSupported, "cannot %s pg_lsn", strings.Replace(nanVerb, "%s", "NaN", 1))
	case apd.Infinite:
		return Null, pgerr.New(pgerr.FeatureNotSupported, "cannot convert infinity to pg_lsn")
	}
	r := new(apd.Decimal)
	if _, err := apd.BaseContext.WithPrecision(1000).Quantize(r, d, 0); err != nil {
		return Null, err
	}
	if r.Negative && r.Coeff.Sign() != 0 || r.Coeff.BitLen() > 64 {
		return Null, pgerr.New(pgerr.InvalidParameterValue, "pg_lsn out of range")
	}
	return NewLSN(r.Coeff.Uint64()), nil
}
