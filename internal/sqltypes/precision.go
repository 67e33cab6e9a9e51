package sqltypes

import (
	"strconv"
	"strings"
)

// Fractional-second precision of timestamp(p), timestamptz(p), time(p) and
// timetz(p): a type with a precision keeps p decimal digits of the second,
// rounding what it stores or casts to, as PostgreSQL's
// AdjustTimestampForTypmod and AdjustTimeForTypmod do. The precision is
// held in Type.Scale as p+1, 0 meaning none (six digits), as for interval.

// MaxDatetimePrecision is the most digits of a second a type can keep.
const MaxDatetimePrecision = 6

// DatetimeType returns timestamp, timestamptz, time or timetz with
// precision p (-1 for none).
func DatetimeType(id TypeID, p int) Type {
	t := Type{ID: id}
	if p >= 0 {
		t.Scale = int16(p + 1)
	}
	return t
}

// hasDatetimePrecision reports whether id is a type with a
// fractional-second precision modifier other than interval.
func hasDatetimePrecision(id TypeID) bool {
	return id == Timestamp || id == TimestampTZ || id == Time || id == TimeTZ
}

// DatetimePrecision is t's fractional-second precision, -1 when it has
// none.
func (t Type) DatetimePrecision() int {
	if !hasDatetimePrecision(t.ID) || t.Scale == 0 {
		return -1
	}
	return int(t.Scale) - 1
}

// datetimeTypeName is format_type's spelling: "timestamp(3) without time
// zone", "time(0) with time zone".
func datetimeTypeName(t Type) string {
	name := infos[t.ID].name
	p := t.DatetimePrecision()
	if p < 0 {
		return name
	}
	base, zone := "timestamp", " without time zone"
	if t.ID == Time || t.ID == TimeTZ {
		base = "time"
	}
	if t.ID == TimestampTZ || t.ID == TimeTZ {
		zone = " with time zone"
	}
	return base + "(" + strconv.Itoa(p) + ")" + zone
}

// roundMicros rounds us to a multiple of 10^(6-p), halves away from zero.
func roundMicros(us int64, p int) int64 {
	scale := int64(1)
	for i := p; i < MaxDatetimePrecision; i++ {
		scale *= 10
	}
	if scale == 1 {
		return us
	}
	if us >= 0 {
		return (us + scale/2) / scale * scale
	}
	return -((-us + scale/2) / scale * scale)
}

// applyDatetimePrecision rounds a timestamp, timestamptz, time or timetz
// value to t's precision.
func applyDatetimePrecision(v Value, t Type) (Value, error) {
	p := t.DatetimePrecision()
	if p < 0 || p >= MaxDatetimePrecision {
		return v, nil
	}
	switch v.K {
	case KindTimestamp, KindTimestampTZ:
		if !IsFiniteTimestamp(v.I) {
			return v, nil
		}
		// Symmetric around 2000, as PostgreSQL's AdjustTimestampForTypmod,
		// which does not check the range after: 294276-12-31
		// 23:59:59.9::timestamp(0) is 294277-01-01 there too.
		v.I = roundMicros(v.I, p)
	case KindTime:
		v.I = roundMicros(v.I, p)
	case KindTimeTZ:
		tz := v.TimeTZ()
		tz.Micros = roundMicros(tz.Micros, p)
		v = NewTimeTZ(tz)
	}
	return v, nil
}

// withoutPrecision is t with its fractional-second precision removed.
func (t Type) withoutPrecision() Type {
	if hasDatetimePrecision(t.ID) {
		t.Scale = 0
	}
	return t
}

// DatetimeTypeWithPrecision is DatetimeType for a precision a statement
// wrote: more than six is used as six, as PostgreSQL does (it also warns).
// A negative precision is a syntax error of the grammar, before this.
func DatetimeTypeWithPrecision(id TypeID, p int) Type {
	return DatetimeType(id, min(p, MaxDatetimePrecision))
}

// WithoutTypmod is t without its type modifier (a length, a numeric's
// precision and scale, a datetime's precision, an interval's fields):
// the type an operator or function declared on the base type takes, as
// PostgreSQL's pg_operator and pg_proc name types without modifiers. An
// array loses its elements' modifier. PostGIS's geometry and geography
// keep theirs (their typmod is a subtype and SRID, not a bound).
func (t Type) WithoutTypmod() Type {
	id := t.ID
	if id == Array {
		id = t.Elem
	}
	switch id {
	case Varchar, BPChar, Bit, VarBit, Numeric, Interval, Timestamp, TimestampTZ, Time, TimeTZ:
		t.Width, t.Scale = 0, 0
	}
	return t
}

// UnmodifiedName is t's name as PostgreSQL's errors about operators name
// an operand's type (format_type_be): without its modifier, and char's
// as "character". A domain is named as itself.
func (t Type) UnmodifiedName() string {
	if t.IsDomain() {
		return t.String()
	}
	t = t.WithoutTypmod()
	switch {
	case t.ID == BPChar:
		return "character"
	case t.ID == Array && t.Elem == BPChar:
		return "character[]"
	}
	return t.String()
}

// UnmodifiedNames lists ts as PostgreSQL's errors about a call list its
// argument types (func_signature_string): each by UnmodifiedName, joined
// by ", ".
func UnmodifiedNames(ts ...Type) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.UnmodifiedName())
	}
	return b.String()
}

// OperatorCallName is an operator applied to operands of types ts as
// PostgreSQL's errors name it (op_signature_string): "l op r", or "op r"
// for a prefix operator (one type).
func OperatorCallName(op string, ts ...Type) string {
	if len(ts) == 1 {
		return op + " " + ts[0].UnmodifiedName()
	}
	return ts[0].UnmodifiedName() + " " + op + " " + ts[1].UnmodifiedName()
}
