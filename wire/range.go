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
	sub := sqltypes.RangeSubtype(t.ID)
	bound := func(buf []byte, b sqltypes.Value) ([]byte, error) {
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		buf, err := AppendBinary(buf, sub, b)
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
		return buf, err
	}
	var err error
	if flags&(sqltypes.RangeFlagEmpty|sqltypes.RangeFlagLBInf) == 0 {
		if buf, err = bound(buf, r.Lower); err != nil {
			return buf, err
		}
	}
	if flags&(sqltypes.RangeFlagEmpty|sqltypes.RangeFlagUBInf) == 0 {
		buf, err = bound(buf, r.Upper)
	}
	return buf, err
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
	sub := sqltypes.RangeSubtype(t.ID)
	bound := func() (sqltypes.Value, error) {
		if len(src) < 4 {
			return sqltypes.Null, errBadBinary(t, "")
		}
		n := int64(int32(binary.BigEndian.Uint32(src)))
		if n < 0 || n > int64(len(src)-4) {
			return sqltypes.Null, errBadBinary(t, "")
		}
		v, err := DecodeBinary(sub, src[4:4+n])
		src = src[4+n:]
		return v, err
	}
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
	return sqltypes.RangeFromFlags(t.ID, flags, lower, upper)
}

// A multirange's binary form (multirange_send): the number of ranges as
// an int32, then each range as an int32 length and its binary form.

// appendMultirange appends v's binary form as a multirange of type t.
func appendMultirange(buf []byte, t sqltypes.Type, v sqltypes.Value) ([]byte, error) {
	m := v.Multirange()
	rt := sqltypes.MultirangeRange(t.ID)
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(m.Ranges)))
	for _, r := range m.Ranges {
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		var err error
		if buf, err = appendRange(buf, rt, sqltypes.NewRange(r)); err != nil {
			return buf, err
		}
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
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
	rt := sqltypes.MultirangeRange(t.ID)
	ranges := make([]*sqltypes.RangeValue, 0, n)
	for ; n > 0; n-- {
		if len(src) < 4 {
			return sqltypes.Null, errBadBinary(t, "")
		}
		k := int64(int32(binary.BigEndian.Uint32(src)))
		if k < 0 || k > int64(len(src)-4) {
			return sqltypes.Null, errBadBinary(t, "")
		}
		r, err := decodeRange(rt, src[4:4+k])
		if err != nil {
			return sqltypes.Null, err
		}
		ranges = append(ranges, r.Range())
		src = src[4+k:]
	}
	if len(src) != 0 {
		return sqltypes.Null, errBadBinary(t, "")
	}
	return sqltypes.MakeMultirange(t.ID, ranges)
}
