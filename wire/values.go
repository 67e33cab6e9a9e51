package wire

import (
	"encoding/binary"
	"math"
	"unicode/utf8"

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

// characterNotInRepertoire is PostgreSQL's SQLSTATE for bytes that are not
// valid in the connection's encoding (UTF-8).
const characterNotInRepertoire = "22021"

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
	return pgerr.New(characterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
}

// DecodeBinary decodes one parameter sent in binary format as a value of
// type t. Malformed input is 22P03; a date or timestamp outside what
// sqltypes can hold (PostgreSQL's ±infinity among them) is 22008; text that
// is not UTF-8 is 22021. It never panics, whatever src holds.
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
		d := int32(binary.BigEndian.Uint32(src))
		if d == math.MaxInt32 || d == math.MinInt32 {
			return sqltypes.Null, pgerr.New(pgerr.DatetimeFieldOverflow, "date infinity is not supported")
		}
		return sqltypes.NewDate(int64(d) + pgEpochDays), nil
	case sqltypes.Timestamp, sqltypes.TimestampTZ:
		if err := fixed(8); err != nil {
			return sqltypes.Null, err
		}
		us := int64(binary.BigEndian.Uint64(src))
		if us == math.MaxInt64 || us == math.MinInt64 {
			return sqltypes.Null, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp infinity is not supported")
		}
		if us > math.MaxInt64-pgEpochUS {
			return sqltypes.Null, pgerr.New(pgerr.DatetimeFieldOverflow, "timestamp out of range")
		}
		if t.ID == sqltypes.TimestampTZ {
			return sqltypes.NewTimestampTZ(us + pgEpochUS), nil
		}
		return sqltypes.NewTimestamp(us + pgEpochUS), nil
	}
	return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "binary format for type %s is not supported", t)
}

// AppendBinary appends the binary wire form of v as a value of type t. A
// value whose kind differs from t's (an integer for a real column, say) is
// cast first. NULL has no binary form: the caller sends a NULL field.
func AppendBinary(buf []byte, t sqltypes.Type, v sqltypes.Value) ([]byte, error) {
	if v.K != t.Kind() && t.ID != sqltypes.Unknown {
		cv, err := sqltypes.Cast(v, t)
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
		return binary.BigEndian.AppendUint64(buf, math.Float64bits(v.F)), nil
	case sqltypes.Bool:
		if v.I != 0 {
			return append(buf, 1), nil
		}
		return append(buf, 0), nil
	case sqltypes.Text, sqltypes.Varchar, sqltypes.Bytea, sqltypes.UUID:
		return append(buf, v.S...), nil
	case sqltypes.Date:
		return binary.BigEndian.AppendUint32(buf, uint32(int32(v.I-pgEpochDays))), nil
	case sqltypes.Timestamp, sqltypes.TimestampTZ:
		return binary.BigEndian.AppendUint64(buf, uint64(v.I-pgEpochUS)), nil
	case sqltypes.Unknown:
		// unknownsend is textsend: the text form.
		return sqltypes.AppendText(buf, v), nil
	}
	return buf, pgerr.New(pgerr.FeatureNotSupported, "binary format for type %s is not supported", t)
}

// decodeText decodes one parameter sent in text format as a value of type
// t (Unknown parameters stay text).
func decodeText(t sqltypes.Type, src []byte) (sqltypes.Value, error) {
	if !utf8.Valid(src) {
		return sqltypes.Null, errInvalidUTF8()
	}
	return sqltypes.ParseText(t, string(src))
}
