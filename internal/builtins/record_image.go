package builtins

import (
	"bytes"
	gocmp "cmp"
	"encoding/binary"
	"math"

	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The record image comparisons (*=, *<>, *<, *<=, *>, *>=; record_image_eq
// and the rest), PostgreSQL's btrecordimagecmp: two records compare field
// by field by the binary images PostgreSQL would store for the fields, not
// by their types' own comparisons. So 1.0 and 1.00 differ (numeric keeps
// its display scale), and the order is the images': a pass-by-value field
// (integers, floats, dates, timestamps) compares as the unsigned machine
// word holding it, sign-extended, so -1 sorts after 1; a fixed-length
// field by reference (uuid, interval, time with time zone) by its bytes in
// little-endian memory order; a variable-length one (text, bytea, numeric)
// by its bytes, then by length. A field of a type whose image zproxy does
// not lay out is 0A000.

// fieldImage is a field's image: the machine word of a pass-by-value type,
// or the bytes of one passed by reference.
type fieldImage struct {
	byValue bool
	word    uint64
	bytes   []byte
}

// RecordImageCompare compares records l and r as btrecordimagecmp does:
// field pairs of one type each (42804 otherwise), a NULL after every value
// and equal to a NULL, the first unequal pair deciding; records of
// different lengths whose common fields are equal are 42804. types gives
// the fields' types, each side's (nil entries or a short list: the type
// the value's record knows).
func RecordImageCompare(l, r *sqltypes.ArrayValue, ltypes, rtypes []sqltypes.Type) (int, error) {
	fieldType := func(a *sqltypes.ArrayValue, types []sqltypes.Type, i int) sqltypes.Type {
		if i < len(types) && types[i].ID != sqltypes.Unknown {
			return types[i]
		}
		return a.RecordFieldType(i)
	}
	return CompareRecords(l.Elems, r.Elems, func(i int) error {
		if lt, rt := fieldType(l, ltypes, i), fieldType(r, rtypes, i); lt.OID() != rt.OID() {
			return pgerr.New(pgerr.DatatypeMismatch, "cannot compare dissimilar column types %s and %s at record column %d", lt.UnmodifiedName(), rt.UnmodifiedName(), i+1)
		}
		return nil
	}, func(i int, x, y sqltypes.Value) (int, error) {
		t := fieldType(l, ltypes, i)
		xi, err := imageOf(x, t)
		if err != nil {
			return 0, err
		}
		yi, err := imageOf(y, t)
		if err != nil {
			return 0, err
		}
		return compareImages(xi, yi), nil
	})
}

// CompareRecords walks two records' fields as PostgreSQL's record
// comparisons do (record_cmp, btrecordimagecmp): for each pair it reaches,
// check's error is raised, two NULLs are equal, a NULL sorts after a
// value, and cmp compares two values; the first unequal pair decides.
// Records of different lengths whose common fields are equal are 42804.
func CompareRecords(l, r []sqltypes.Value, check func(i int) error, cmp func(i int, x, y sqltypes.Value) (int, error)) (int, error) {
	for i := 0; i < len(l) && i < len(r); i++ {
		if err := check(i); err != nil {
			return 0, err
		}
		x, y := l[i], r[i]
		switch {
		case x.IsNull() && y.IsNull():
			continue
		case x.IsNull():
			return 1, nil
		case y.IsNull():
			return -1, nil
		}
		if c, err := cmp(i, x, y); err != nil || c != 0 {
			return c, err
		}
	}
	if len(l) != len(r) {
		return 0, pgerr.New(pgerr.DatatypeMismatch, "cannot compare record types with different numbers of columns")
	}
	return 0, nil
}

func compareImages(x, y fieldImage) int {
	if x.byValue {
		return gocmp.Compare(x.word, y.word)
	}
	// memcmp over the shorter, then the shorter first: for fixed-length
	// images the lengths are equal anyway.
	return bytes.Compare(x.bytes, y.bytes)
}

// imageOf is the image PostgreSQL stores for non-NULL v of type t.
func imageOf(v sqltypes.Value, t sqltypes.Type) (fieldImage, error) {
	signed := func(i int64) (fieldImage, error) { return fieldImage{byValue: true, word: uint64(i)}, nil }
	switch {
	case t.IsOIDLike() || t.ID == sqltypes.XID:
		return fieldImage{byValue: true, word: uint64(uint32(v.I))}, nil // zero-extended
	}
	switch t.ID {
	case sqltypes.Bool:
		return signed(v.I)
	case sqltypes.Int2, sqltypes.Int4, sqltypes.Int8, sqltypes.Money, sqltypes.Time, sqltypes.PgLSN, sqltypes.XID8:
		// Int16GetDatum and Int32GetDatum sign-extend.
		return signed(v.I)
	case sqltypes.Float8:
		return fieldImage{byValue: true, word: math.Float64bits(v.F)}, nil
	case sqltypes.Float4:
		return signed(int64(int32(math.Float32bits(float32(v.F)))))
	case sqltypes.Date:
		switch v.I {
		case sqltypes.DateInfinity:
			return signed(math.MaxInt32)
		case sqltypes.DateNegInfinity:
			return signed(math.MinInt32)
		}
		return signed(v.I - sqltypes.PGEpochDays)
	case sqltypes.Timestamp, sqltypes.TimestampTZ:
		if !sqltypes.IsFiniteTimestamp(v.I) {
			return signed(v.I)
		}
		return signed(v.I - sqltypes.PGEpochMicros)
	case sqltypes.Char:
		if v.S == "" {
			return signed(0)
		}
		c := int64(v.S[0])
		if c >= 0x80 {
			c -= 0x100 // a C char, signed
		}
		return signed(c)
	case sqltypes.Text, sqltypes.Varchar, sqltypes.BPChar, sqltypes.Name, sqltypes.Bytea, sqltypes.UUID,
		sqltypes.Citext, sqltypes.JSON, sqltypes.XML:
		// name's 64 bytes are the string and zero padding, which
		// compares as the string alone does.
		return fieldImage{bytes: []byte(v.S)}, nil
	case sqltypes.Interval:
		iv := v.Interval()
		b := binary.LittleEndian.AppendUint64(nil, uint64(iv.Micros))
		b = binary.LittleEndian.AppendUint32(b, uint32(iv.Days))
		return fieldImage{bytes: binary.LittleEndian.AppendUint32(b, uint32(iv.Months))}, nil
	case sqltypes.TimeTZ:
		tz := v.TimeTZ()
		// TimeTzADT's zone is seconds west of UTC.
		b := binary.LittleEndian.AppendUint64(nil, uint64(tz.Micros))
		return fieldImage{bytes: binary.LittleEndian.AppendUint32(b, uint32(-tz.Offset))}, nil
	case sqltypes.Numeric:
		return fieldImage{bytes: numericImage(v)}, nil
	}
	return fieldImage{}, pgerr.New(pgerr.FeatureNotSupported, "record image comparison of a field of type %s is not supported", t.UnmodifiedName())
}

// numericImage is numeric v as PostgreSQL stores it (NumericData after the
// length word): the two-byte short header when the display scale and
// weight fit it (make_result), else the sign-and-scale word and the weight,
// then the base-10000 digits, every word little-endian.
func numericImage(v sqltypes.Value) []byte {
	d := v.Numeric()
	switch {
	case d.Form == apd.Infinite && d.Negative:
		return binary.LittleEndian.AppendUint16(nil, 0xF000)
	case d.Form == apd.Infinite:
		return binary.LittleEndian.AppendUint16(nil, 0xD000)
	case d.Form != apd.Finite:
		return binary.LittleEndian.AppendUint16(nil, 0xC000) // NaN
	}
	dscale, _ := sqltypes.NumericScale(v)
	var groups []uint16
	weight := 0
	if !d.IsZero() {
		groups, weight = sqltypes.NumericDigits(d)
	}
	var b []byte
	if dscale <= 63 && weight >= -64 && weight <= 63 {
		h := uint16(0x8000) | uint16(dscale)<<7
		if d.Negative {
			h |= 0x2000
		}
		if weight < 0 {
			h |= 0x0040
		}
		h |= uint16(weight) & 0x003F
		b = binary.LittleEndian.AppendUint16(nil, h)
	} else {
		h := uint16(dscale) & 0x3FFF
		if d.Negative {
			h |= 0x4000
		}
		b = binary.LittleEndian.AppendUint16(nil, h)
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(weight)))
	}
	for _, g := range groups {
		b = binary.LittleEndian.AppendUint16(b, g)
	}
	return b
}
