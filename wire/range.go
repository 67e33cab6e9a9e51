package wire

import (
	"encoding/binary"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// A range's binary form (range_send): its flags byte, then each bound
// that is there (not infinite, range not empty) as an int32 length and
// the subtype's binary form.

// appendRange appends v's binary form as a range of type t.
func appendRange(buf []byte, t sqltypes.Type, v sqltypes.Value) ([]byte, error) {
	r := v.Range()
	flags := sqltypes.RangeFlags(r)
	buf = append(buf, flags)
	sub := sqltypes.RangeSubtype(t.StripDomain())
	var err error
	if flags&(sqltypes.RangeFlagEmpty|sqltypes.RangeFlagLBInf) == 0 {
		if buf, err = appendPrefixed(buf, sub, r.Lower, AppendBinary); err != nil {
			return buf, err
		}
	}
	if flags&(sqltypes.RangeFlagEmpty|sqltypes.RangeFlagUBInf) == 0 {
		buf, err = appendPrefixed(buf, sub, r.Upper, AppendBinary)
	}
	return buf, err
}

// appendPrefixed appends v's binary form as a t, written by enc, after
// its length as an int32.
func appendPrefixed(buf []byte, t sqltypes.Type, v sqltypes.Value, enc func([]byte, sqltypes.Type, sqltypes.Value) ([]byte, error)) ([]byte, error) {
	at := len(buf)
	buf, err := enc(append(buf, 0, 0, 0, 0), t, v)
	binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	return buf, err
}

// readPrefixed reads an int32 length and that many bytes off *src, and
// decodes them as a t with dec.
func readPrefixed(src *[]byte, t sqltypes.Type, dec func(sqltypes.Type, []byte) (sqltypes.Value, error)) (sqltypes.Value, error) {
	b := *src
	if len(b) < 4 {
		return sqltypes.Null, errBadBinary(t, "")
	}
	n := int64(int32(binary.BigEndian.Uint32(b)))
	if n < 0 || n > int64(len(b)-4) {
		return sqltypes.Null, errBadBinary(t, "")
	}
	*src = b[4+n:]
	return dec(t, b[4:4+n])
}

// decodeRange reads a range's binary form as range_recv: flags other
// than the five of a stored range are ignored, and the bounds go through
// the checks and canonicalisation of the text form.
func decodeRange(t sqltypes.Type, src []byte) (sqltypes.Value, error) {
	if len(src) == 0 {
		return sqltypes.Null, errBadBinary(t, "")
	}
	flags := src[0] & (sqltypes.RangeFlagEmpty | sqltypes.RangeFlagLBInc | sqltypes.RangeFlagUBInc | sqltypes.RangeFlagLBInf | sqltypes.RangeFlagUBInf)
	src = src[1:]
	sub := sqltypes.RangeSubtype(t.StripDomain())
	bound := func() (sqltypes.Value, error) { return readPrefixed(&src, sub, DecodeBinary) }
	var lower, upper sqltypes.Value
	var err error
	if flags&(sqltypes.RangeFlagEmpty|sqltypes.RangeFlagLBInf) == 0 {
		if lower, err = bound(); err != nil {
			return sqltypes.Null, err
		}
	}
	if flags&(sqltypes.RangeFlagEmpty|sqltypes.RangeFlagUBInf) == 0 {
		if upper, err = bound(); err != nil {
			return sqltypes.Null, err
		}
	}
	if len(src) != 0 {
		return sqltypes.Null, errBadBinary(t, "")
	}
	return sqltypes.RangeFromFlags(t.StripDomain(), flags, lower, upper)
}

// A multirange's binary form (multirange_send): the number of ranges as
// an int32, then each range as an int32 length and its binary form.

// appendMultirange appends v's binary form as a multirange of type t.
func appendMultirange(buf []byte, t sqltypes.Type, v sqltypes.Value) ([]byte, error) {
	m := v.Multirange()
	rt := sqltypes.MultirangeRange(t.StripDomain())
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(m.Ranges)))
	for _, r := range m.Ranges {
		var err error
		if buf, err = appendPrefixed(buf, rt, sqltypes.NewRange(r), appendRange); err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// decodeMultirange reads a multirange's binary form as multirange_recv:
// its ranges are made canonical as the text form's are.
func decodeMultirange(t sqltypes.Type, src []byte) (sqltypes.Value, error) {
	if len(src) < 4 {
		return sqltypes.Null, errBadBinary(t, "")
	}
	n := int64(binary.BigEndian.Uint32(src))
	src = src[4:]
	if n < 0 || n > int64(len(src))/5 {
		return sqltypes.Null, errBadBinary(t, "")
	}
	rt := sqltypes.MultirangeRange(t.StripDomain())
	ranges := make([]*sqltypes.RangeValue, 0, n)
	for ; n > 0; n-- {
		r, err := readPrefixed(&src, rt, decodeRange)
		if err != nil {
			return sqltypes.Null, err
		}
		ranges = append(ranges, r.Range())
	}
	if len(src) != 0 {
		return sqltypes.Null, errBadBinary(t, "")
	}
	return sqltypes.MakeMultirange(t.StripDomain(), ranges)
}
