package wire

import (
	"encoding/binary"
	"math"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Records in binary, as PostgreSQL 15's record_send and record_recv
// have them: an int32 count of fields, then per field its type's OID, an
// int32 length (-1 for NULL) and the field's own binary form.

// appendRecord is record_send. A field's type is the composite's when t
// names one, else the type the value carries for it.
func appendRecord(buf []byte, t sqltypes.Type, v sqltypes.Value) ([]byte, error) {
	a := v.Array()
	if !a.Record {
		return buf, pgerr.New(pgerr.DatatypeMismatch, "value of type %s is not a record", t)
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(a.Elems)))
	for i, f := range a.Elems {
		ft := a.RecordFieldType(i)
		if c := t.Composite; c != nil && i < len(c.Fields) {
			ft = c.Fields[i].Type
		}
		buf = binary.BigEndian.AppendUint32(buf, ft.OID())
		if f.IsNull() {
			buf = binary.BigEndian.AppendUint32(buf, math.MaxUint32)
			continue
		}
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		var err error
		if buf, err = AppendBinary(buf, ft, f); err != nil {
			return buf, err
		}
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf, nil
}

// decodeRecord is record_recv for the named composite type t: the count
// must be the type's, each field's OID its attribute's (42804 otherwise,
// as PostgreSQL checks).
func decodeRecord(t sqltypes.Type, src []byte) (sqltypes.Value, error) {
	c := t.Composite
	if !c.Named() {
		return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
	}
	if len(src) < 4 {
		return sqltypes.Null, errInsufficientData()
	}
	n := int32(binary.BigEndian.Uint32(src))
	src = src[4:]
	if int(n) != len(c.Fields) {
		return sqltypes.Null, pgerr.New(pgerr.DatatypeMismatch, "wrong number of columns: %d, expected %d", n, len(c.Fields))
	}
	fields := make([]sqltypes.Value, n)
	for i, f := range c.Fields {
		if len(src) < 8 {
			return sqltypes.Null, errInsufficientData()
		}
		oid := binary.BigEndian.Uint32(src)
		size := int32(binary.BigEndian.Uint32(src[4:]))
		src = src[8:]
		if oid != f.Type.OID() {
			return sqltypes.Null, pgerr.New(pgerr.DatatypeMismatch, "binary data has type %d (%s) instead of expected %d (%s) in record column %d",
				oid, typeNameByOID(oid), f.Type.OID(), f.Type, i+1)
		}
		if size == -1 {
			if err := sqltypes.CheckDomain(f.Type, sqltypes.Null, false); err != nil {
				return sqltypes.Null, err
			}
			continue
		}
		if size < 0 || int(size) > len(src) {
			return sqltypes.Null, errInsufficientData()
		}
		v, err := DecodeBinary(f.Type, src[:size])
		if err != nil {
			return sqltypes.Null, err
		}
		fields[i] = v
		src = src[size:]
	}
	if len(src) != 0 {
		return sqltypes.Null, pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format")
	}
	return sqltypes.NewRecordOf(fields, c.FieldTypes()), nil
}

// typeNameByOID names a built-in type for an error message.
func typeNameByOID(oid uint32) string {
	if t, ok := sqltypes.TypeByOID(oid); ok {
		return t.String()
	}
	return "unknown"
}
