package spill

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Rows are kept as a count of values, then each value as its kind (one
// byte) and its datum: varints for the integer kinds (ints, booleans,
// timestamps, dates), 8 bytes for floats, length-prefixed bytes for the
// string kinds, PostgreSQL's text for numeric and jsonb (which keeps a
// numeric's display scale), the three parts of an interval, an array as
// its element type, dimensions and elements, and a range as its type, flags
// and bounds, and a multirange as its type and ranges.

var errCorrupt = errors.New("spill: corrupt row")

// AppendRow appends the encoding of row to buf; the user-defined range
// types its values name join ts.
func AppendRow(buf []byte, row []sqltypes.Value, ts *Types) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(row)))
	for _, v := range row {
		buf = appendValue(buf, v, ts)
	}
	return buf
}

func appendBytes(buf []byte, s string) []byte {
	return append(binary.AppendUvarint(buf, uint64(len(s))), s...)
}

func appendValue(buf []byte, v sqltypes.Value, ts *Types) []byte {
	buf = append(buf, byte(v.K))
	switch v.K {
	case sqltypes.KindNull:
	case sqltypes.KindInt, sqltypes.KindBool, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate, sqltypes.KindMoney,
		sqltypes.KindLSN, sqltypes.KindXID, sqltypes.KindXID8, sqltypes.KindTID:
		buf = binary.AppendVarint(buf, v.I)
	case sqltypes.KindBit:
		buf = binary.AppendVarint(buf, v.I)
		buf = appendBytes(buf, v.S)
	case sqltypes.KindFloat:
		buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(v.F))
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID, sqltypes.KindBPChar, sqltypes.KindJSON, sqltypes.KindCitext, sqltypes.KindMacAddr, sqltypes.KindXML, sqltypes.KindJSONPath, sqltypes.KindLtree, sqltypes.KindLquery, sqltypes.KindLtxtquery:
		buf = appendBytes(buf, v.S)
	case sqltypes.KindInet, sqltypes.KindGeometry:
		buf = binary.AppendVarint(buf, v.I) // 1 for a cidr, or a geography
		buf = appendBytes(buf, v.S)
	case sqltypes.KindHstore:
		buf = appendBytes(buf, string(sqltypes.AppendHstoreBinary(nil, v.Hstore())))
	case sqltypes.KindGeo:
		// The type, then its binary send form.
		buf = append(buf, byte(sqltypes.GeoTypeID(v)))
		buf = appendBytes(buf, string(sqltypes.AppendGeoBinary(nil, v)))
	case sqltypes.KindRange:
		// The type, the flags and the bounds (NULL where absent).
		r := v.Range()
		buf = append(ts.appendRangeType(buf, r.Typ), sqltypes.RangeFlags(r))
		buf = appendValue(appendValue(buf, r.Lower, ts), r.Upper, ts)
	case sqltypes.KindMultirange:
		m := v.Multirange()
		buf = binary.AppendUvarint(ts.appendRangeType(buf, m.Typ), uint64(len(m.Ranges)))
		for _, r := range m.Ranges {
			buf = appendValue(buf, sqltypes.NewRange(r), ts)
		}
	case sqltypes.KindTSVector:
		buf = appendBytes(buf, string(sqltypes.AppendTSVectorBinary(nil, v.TSVector())))
	case sqltypes.KindTSQuery:
		buf = appendBytes(buf, string(sqltypes.AppendTSQueryBinary(nil, v.TSQuery())))
	case sqltypes.KindEnum:
		// The label and its sort order; the type (X) stays behind: the
		// plan's column types carry it, and a spilled value only needs to
		// print and compare.
		buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(v.F))
		buf = appendBytes(buf, v.S)
	case sqltypes.KindNumeric:
		buf = appendBytes(buf, string(sqltypes.AppendNumeric(nil, v.Numeric())))
	case sqltypes.KindInterval:
		iv := v.Interval()
		buf = binary.AppendVarint(buf, int64(iv.Months))
		buf = binary.AppendVarint(buf, int64(iv.Days))
		buf = binary.AppendVarint(buf, iv.Micros)
	case sqltypes.KindJSONB:
		buf = appendBytes(buf, sqltypes.JSONBText(v.JSONB()))
	case sqltypes.KindArray:
		a := v.Array()
		buf = appendType(buf, a.Elem)
		buf = binary.AppendUvarint(buf, uint64(len(a.Dims)))
		for _, d := range a.Dims {
			buf = binary.AppendVarint(buf, int64(d))
		}
		buf = binary.AppendUvarint(buf, uint64(len(a.Lower)))
		for _, l := range a.Lower {
			buf = binary.AppendVarint(buf, int64(l))
		}
		// What prints it: an int2vector's or oidvector's spaces, a
		// record's parentheses and its fields' types (without the
		// definitions of user-defined types: a field's text and the
		// float4 precision need only the ID).
		var flags uint64
		if a.Vector {
			flags |= 1
		}
		if a.Record {
			flags |= 2
		}
		buf = binary.AppendUvarint(buf, flags)
		if a.Record {
			buf = binary.AppendUvarint(buf, uint64(len(a.FieldTypes)))
			for _, t := range a.FieldTypes {
				buf = appendType(buf, t)
			}
		}
		buf = AppendRow(buf, a.Elems, ts)
	}
	return buf
}

func appendType(buf []byte, t sqltypes.Type) []byte {
	buf = binary.AppendUvarint(buf, uint64(t.ID))
	buf = binary.AppendUvarint(buf, uint64(t.Elem))
	buf = binary.AppendVarint(buf, int64(t.Scale))
	return binary.AppendVarint(buf, int64(t.Width))
}

// float64 reads 8 bytes written by AppendUint64(math.Float64bits(f)).
func (d *decoder) float64() float64 {
	if len(d.b) < 8 {
		if d.err == nil {
			d.err = errCorrupt
		}
		d.b = nil
		return 0
	}
	f := math.Float64frombits(binary.BigEndian.Uint64(d.b))
	d.b = d.b[8:]
	return f
}

// decoder reads what AppendRow wrote.
type decoder struct {
	b     []byte
	err   error
	types *Types
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err, d.b = errCorrupt, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err, d.b = errCorrupt, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes() string {
	n := d.uvarint()
	if uint64(len(d.b)) < n {
		d.err, d.b = errCorrupt, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// DecodeRow decodes a row AppendRow wrote with the same ts.
func DecodeRow(b []byte, ts *Types) ([]sqltypes.Value, error) {
	d := &decoder{b: b, types: ts}
	row := d.row()
	if d.err == nil && len(d.b) != 0 {
		d.err = errCorrupt
	}
	return row, d.err
}

func (d *decoder) row() []sqltypes.Value {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.err = errCorrupt
		return nil
	}
	row := make([]sqltypes.Value, n)
	for i := range row {
		row[i] = d.value()
	}
	return row
}

func (d *decoder) value() sqltypes.Value {
	if len(d.b) == 0 {
		d.err = errCorrupt
		return sqltypes.Null
	}
	k := sqltypes.Kind(d.b[0])
	d.b = d.b[1:]
	switch k {
	case sqltypes.KindNull:
		return sqltypes.Null
	case sqltypes.KindInt, sqltypes.KindBool, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate, sqltypes.KindMoney,
		sqltypes.KindLSN, sqltypes.KindXID, sqltypes.KindXID8, sqltypes.KindTID:
		return sqltypes.Value{K: k, I: d.varint()}
	case sqltypes.KindBit:
		n := d.varint()
		return sqltypes.Value{K: k, I: n, S: d.bytes()}
	case sqltypes.KindFloat:
		return sqltypes.NewFloat(d.float64())
	case sqltypes.KindText, sqltypes.KindBytes, sqltypes.KindUUID, sqltypes.KindBPChar, sqltypes.KindJSON, sqltypes.KindCitext, sqltypes.KindMacAddr, sqltypes.KindXML, sqltypes.KindJSONPath, sqltypes.KindLtree, sqltypes.KindLquery, sqltypes.KindLtxtquery:
		return sqltypes.Value{K: k, S: d.bytes()}
	case sqltypes.KindInet, sqltypes.KindGeometry:
		i := d.varint()
		return sqltypes.Value{K: k, I: i, S: d.bytes()}
	case sqltypes.KindEnum:
		f := d.float64()
		return sqltypes.Value{K: k, F: f, S: d.bytes()}
	case sqltypes.KindGeo:
		if len(d.b) < 1 {
			d.err = errCorrupt
			return sqltypes.Null
		}
		id := sqltypes.TypeID(d.b[0])
		d.b = d.b[1:]
		g, err := sqltypes.DecodeGeoBinary(id, []byte(d.bytes()))
		if err != nil {
			if d.err == nil {
				d.err = err
			}
			return sqltypes.Null
		}
		return g
	case sqltypes.KindHstore:
		h, err := sqltypes.DecodeHstoreBinary([]byte(d.bytes()))
		if err != nil {
			if d.err == nil {
				d.err = err
			}
			return sqltypes.Null
		}
		return sqltypes.NewHstore(h)
	case sqltypes.KindRange:
		id := d.rangeType()
		if len(d.b) < 1 {
			d.err = errCorrupt
			return sqltypes.Null
		}
		flags := d.b[0]
		d.b = d.b[1:]
		if !id.IsRange() {
			d.err = errCorrupt
			return sqltypes.Null
		}
		lower := d.value()
		upper := d.value()
		r, err := sqltypes.RangeFromFlags(id, flags, lower, upper)
		if err != nil && d.err == nil {
			d.err = err
		}
		return r
	case sqltypes.KindMultirange:
		id := d.rangeType()
		n := d.uvarint()
		if !id.IsMultirange() || n > uint64(len(d.b)) {
			d.err = errCorrupt
			return sqltypes.Null
		}
		ranges := make([]*sqltypes.RangeValue, 0, n)
		for ; n > 0 && d.err == nil; n-- {
			r := d.value()
			if r.K != sqltypes.KindRange {
				d.err = errCorrupt
				return sqltypes.Null
			}
			ranges = append(ranges, r.Range())
		}
		m, err := sqltypes.MakeMultirange(id, ranges)
		if err != nil && d.err == nil {
			d.err = err
		}
		return m
	case sqltypes.KindTSVector:
		v, err := sqltypes.DecodeTSVectorBinary([]byte(d.bytes()))
		if err != nil {
			if d.err == nil {
				d.err = err
			}
			return sqltypes.Null
		}
		return sqltypes.NewTSVector(v)
	case sqltypes.KindTSQuery:
		q, err := sqltypes.DecodeTSQueryBinary([]byte(d.bytes()))
		if err != nil {
			if d.err == nil {
				d.err = err
			}
			return sqltypes.Null
		}
		return sqltypes.NewTSQuery(q)
	case sqltypes.KindNumeric:
		v, err := sqltypes.ParseNumeric(d.bytes())
		if err != nil && d.err == nil {
			d.err = err
		}
		return v
	case sqltypes.KindInterval:
		m, days, us := d.varint(), d.varint(), d.varint()
		return sqltypes.NewInterval(sqltypes.IntervalValue{Months: int32(m), Days: int32(days), Micros: us})
	case sqltypes.KindJSONB:
		j, err := sqltypes.ParseJSONB(d.bytes())
		if err != nil {
			if d.err == nil {
				d.err = err
			}
			return sqltypes.Null
		}
		return sqltypes.NewJSONB(j)
	case sqltypes.KindArray:
		a := &sqltypes.ArrayValue{Elem: d.typ()}
		if n := d.uvarint(); n > 0 && n <= sqltypes.MaxArrayDims {
			a.Dims = make([]int32, n)
			for i := range a.Dims {
				a.Dims[i] = int32(d.varint())
			}
		}
		if n := d.uvarint(); n > 0 && n <= sqltypes.MaxArrayDims {
			a.Lower = make([]int32, n)
			for i := range a.Lower {
				a.Lower[i] = int32(d.varint())
			}
		}
		flags := d.uvarint()
		a.Vector, a.Record = flags&1 != 0, flags&2 != 0
		if a.Record {
			n := d.uvarint()
			if n > uint64(len(d.b)) {
				d.err = errCorrupt
				return sqltypes.Null
			}
			a.FieldTypes = make([]sqltypes.Type, n)
			for i := range a.FieldTypes {
				a.FieldTypes[i] = d.typ()
			}
		}
		a.Elems = d.row()
		return sqltypes.NewArray(a)
	}
	d.err = errCorrupt
	return sqltypes.Null
}

func (d *decoder) typ() sqltypes.Type {
	return sqltypes.Type{ID: sqltypes.TypeID(d.uvarint()), Elem: sqltypes.TypeID(d.uvarint()), Scale: int16(d.varint()), Width: int(d.varint())}
}

// Types are the definitions of the user-defined range types the rows of
// one run name, numbered in the order they were met: a spilled range
// stores its type's ID and, for a user-defined one, its number here. The
// run's rows come from one statement, so one catalog, where a type's OID
// is its own; across the process it is not (two databases' types may have
// the same OID), which is why nothing is kept beyond the run. A Types is
// filled while its run is written, read once the run is finished.
type Types struct {
	byOID map[uint32]uint64
	defs  []*sqltypes.RangeType
}

// appendRangeType appends a range or multirange type: its ID, and a
// user-defined one's number in ts.
func (ts *Types) appendRangeType(buf []byte, t sqltypes.Type) []byte {
	buf = append(buf, byte(t.ID))
	if t.Range != nil {
		n, ok := ts.byOID[t.Range.OID]
		if !ok {
			if ts.byOID == nil {
				ts.byOID = map[uint32]uint64{}
			}
			n = uint64(len(ts.defs))
			ts.byOID[t.Range.OID] = n
			ts.defs = append(ts.defs, t.Range)
		}
		return binary.AppendUvarint(buf, n)
	}
	return buf
}

// rangeType reads appendRangeType's type.
func (d *decoder) rangeType() sqltypes.Type {
	if len(d.b) < 1 {
		d.err = errCorrupt
		return sqltypes.TypeUnknown
	}
	t := sqltypes.Type{ID: sqltypes.TypeID(d.b[0])}
	d.b = d.b[1:]
	if t.ID == sqltypes.UserRange || t.ID == sqltypes.UserMultirange {
		n := d.uvarint()
		if d.types == nil || n >= uint64(len(d.types.defs)) {
			d.err = errCorrupt
			return sqltypes.TypeUnknown
		}
		t.Range = d.types.defs[n]
	}
	return t
}
