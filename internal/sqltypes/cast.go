package sqltypes

import (
	"math"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// AppendTextAs appends the text output of v as a value of type t: a real is
// printed with float32 precision, everything else as AppendText does.
func AppendTextAs(buf []byte, t Type, v Value) []byte {
	if t.ID == Float4 && v.K == KindFloat {
		return AppendFloat(buf, v.F, 32)
	}
	return AppendText(buf, v)
}

// Cast converts v to type t following PostgreSQL's assignment and explicit
// cast rules for the supported types. NULL casts to NULL. Text converts to
// anything through ParseText; anything converts to text through its output
// form.
func Cast(v Value, t Type) (Value, error) {
	if v.K == KindNull {
		return Null, nil
	}
	target := t.Kind()
	if v.K == target && t.ID != Varchar && t.ID != Int2 && t.ID != Int4 && t.ID != Float4 {
		return v, nil
	}
	switch target {
	case KindInt:
		switch v.K {
		case KindInt:
			return CheckRange(t, v)
		case KindFloat:
			if math.IsNaN(v.F) || math.IsInf(v.F, 0) || v.F >= 9.223372036854775807e18 || v.F < -9.223372036854775808e18 {
				return Null, outOfRange(t)
			}
			return CheckRange(t, NewInt(int64(math.RoundToEven(v.F))))
		case KindBool:
			return CheckRange(t, NewInt(v.I))
		case KindText:
			return ParseText(t, v.S)
		}
	case KindFloat:
		switch v.K {
		case KindInt:
			f := float64(v.I)
			if t.ID == Float4 {
				f = float64(float32(f))
			}
			return NewFloat(f), nil
		case KindFloat:
			if t.ID == Float4 {
				if !math.IsInf(v.F, 0) && !math.IsNaN(v.F) && math.Abs(v.F) > math.MaxFloat32 {
					return Null, outOfRange(t)
				}
				return NewFloat(float64(float32(v.F))), nil
			}
			return v, nil
		case KindText:
			return ParseText(t, v.S)
		}
	case KindText:
		if v.K == KindText {
			return CheckWidth(t, v)
		}
		return CheckWidth(t, NewText(FormatText(v)))
	case KindBool:
		switch v.K {
		case KindInt:
			return NewBool(v.I != 0), nil
		case KindText:
			return ParseText(t, v.S)
		}
	case KindTimestamp, KindTimestampTZ:
		switch v.K {
		case KindTimestamp, KindTimestampTZ:
			return Value{K: target, I: v.I}, nil
		case KindDate:
			return Value{K: target, I: v.I * int64(24*time.Hour/time.Microsecond)}, nil
		case KindText:
			return ParseText(t, v.S)
		}
	case KindDate:
		switch v.K {
		case KindTimestamp, KindTimestampTZ:
			day := int64(24 * time.Hour / time.Microsecond)
			d := v.I / day
			if v.I%day < 0 {
				d--
			}
			return NewDate(d), nil
		case KindText:
			return ParseText(t, v.S)
		}
	case KindBytes:
		if v.K == KindText {
			return ParseText(t, v.S)
		}
	case KindUUID:
		if v.K == KindText {
			return ParseText(t, v.S)
		}
	}
	return Null, pgerr.New(pgerr.CannotCoerce, "cannot cast %s to %s", kindName(v.K), t)
}

func kindName(k Kind) string {
	switch k {
	case KindInt:
		return "bigint"
	case KindFloat:
		return "double precision"
	case KindBool:
		return "boolean"
	case KindText:
		return "text"
	case KindBytes:
		return "bytea"
	case KindTimestamp:
		return "timestamp without time zone"
	case KindTimestampTZ:
		return "timestamp with time zone"
	case KindDate:
		return "date"
	case KindUUID:
		return "uuid"
	}
	return "unknown"
}

// KindType returns the natural type of a value kind, used to type the
// result of an expression whose declared type is not known.
func KindType(k Kind) Type {
	switch k {
	case KindInt:
		return TypeInt8
	case KindFloat:
		return TypeFloat8
	case KindBool:
		return TypeBool
	case KindText:
		return TypeText
	case KindBytes:
		return TypeBytea
	case KindTimestamp:
		return TypeTimestamp
	case KindTimestampTZ:
		return TypeTimestampTZ
	case KindDate:
		return TypeDate
	case KindUUID:
		return TypeUUID
	}
	return TypeUnknown
}
