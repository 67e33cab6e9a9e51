package sqltypes

import (
	"math"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// AppendTextAs appends the text output of v as a value of type t: a real
// (also as an array element) is printed with float32 precision, everything
// else as AppendText does.
func AppendTextAs(buf []byte, t Type, v Value) []byte {
	return AppendTextStyled(buf, t, v, Style{})
}

// AppendTextStyled is AppendTextAs in a session whose output settings are
// st: dates, timestamps, timestamptz, intervals, floats and bytea, also
// as array elements and record fields, print in them.
func AppendTextStyled(buf []byte, t Type, v Value, st Style) []byte {
	switch v.K {
	case KindFloat:
		bits := 64
		if t.ID == Float4 {
			bits = 32
		}
		return AppendFloatStyled(buf, v.F, bits, st)
	case KindArray:
		switch a := v.Array(); {
		case a.Vector:
			return appendVector(buf, a)
		case a.Record:
			return appendRecordStyled(buf, a, st)
		case t.ID == Array:
			return appendArrayAs(buf, a, t.ElemType(), st)
		default:
			return appendArrayAs(buf, a, a.Elem, st)
		}
	case KindInterval:
		return AppendIntervalStyle(buf, v.Interval(), st.Interval)
	case KindRange:
		return AppendRangeStyled(buf, v.Range(), st)
	case KindMultirange:
		return AppendMultirangeStyled(buf, v.Multirange(), st)
	case KindDate:
		return AppendDateStyled(buf, v.I, st)
	case KindTimestamp:
		return AppendTimestampStyled(buf, v.I, false, st)
	case KindTimestampTZ:
		return AppendTimestampStyled(buf, v.I, true, st)
	case KindBytes:
		if st.ByteaEscape {
			return AppendByteaEscape(buf, v.S)
		}
	case KindGeo:
		return appendGeo(buf, v, st)
	case KindInet:
		// The type says whether the /n always shows (a cidr value read
		// as inet, by max() say, prints as an inet).
		if t.ID == Inet || t.ID == Cidr {
			v = InetValueAs(v, t.ID == Cidr)
		}
	}
	return AppendText(buf, v)
}

// Cast converts v to type t following PostgreSQL's assignment cast rules
// (storing into a column): a string too long for varchar(n) or char(n) is
// 22001, numeric(p, s) rounds and checks its precision, interval fields and
// precision apply. NULL casts to NULL. Text converts to anything through
// ParseText; anything converts to text through its output form. A float
// converts to numeric as a float8 does; use FloatToNumeric(f, 32) for a
// real.
func Cast(v Value, t Type) (Value, error) { return castValue(v, t, false) }

// CastExplicit is CAST(v AS t) and v::t: like Cast, except that strings
// are cut to the length of varchar(n) and char(n) without error.
func CastExplicit(v Value, t Type) (Value, error) { return castValue(v, t, true) }

func hasModifiers(t Type) bool {
	switch t.ID {
	case Varchar, BPChar, Numeric, Interval:
		return t.Width != 0 || t.Scale != 0
	case Timestamp, TimestampTZ, Time, TimeTZ:
		return t.Scale != 0
	case Bit, VarBit, Geometry, Geography:
		return t.Width != 0
	case Int2, Int4, Float4, Array, Name, Char, Int2Vector, OidVector:
		return true
	}
	return false
}

func castValue(v Value, t Type, explicit bool) (Value, error) {
	if alreadyOf(v, t) {
		return v, nil
	}
	return castAny(v, t, explicit)
}

// alreadyOf reports whether v is a value of t, one of the plain scalar
// types without modifiers, so that a cast of v to t is v itself. castAny
// comes to the same answer after a dozen checks that cannot apply to these
// types (domains, typmods, system, enum, bit, money, range, network,
// geometric and PostGIS types), and a bulk INSERT casts every value twice:
// to its parameter's type at Bind, then to its column's type.
func alreadyOf(v Value, t Type) bool {
	if t.Domain != nil {
		return false
	}
	switch t.ID {
	case Int8:
		return v.K == KindInt && v.S == "" // an int with S is a reg* value
	case Float8:
		return v.K == KindFloat
	case Text:
		return v.K == KindText
	case Bool:
		return v.K == KindBool
	case Date:
		return v.K == KindDate
	case Timestamp:
		return v.K == KindTimestamp && t.Scale == 0
	case TimestampTZ:
		return v.K == KindTimestampTZ && t.Scale == 0
	}
	return false
}

// castAny is castValue for any value and type.
func castAny(v Value, t Type, explicit bool) (Value, error) {
	if t.Domain != nil {
		return castDomain(v, t, func(v Value, t Type) (Value, error) { return castValue(v, t, explicit) })
	}
	if v.K == KindNull {
		return Null, nil
	}
	if t.ID == Record && v.K == KindArray && v.Array().Record {
		return castRecord(v, t, explicit)
	}
	if t.DatetimePrecision() >= 0 {
		r, err := castValue(v, t.withoutPrecision(), explicit)
		if err != nil {
			return Null, err
		}
		return applyDatetimePrecision(r, t)
	}
	if t.ID == Array && t.ElemType().DatetimePrecision() >= 0 {
		loose := t
		loose.Scale = 0
		r, err := castValue(v, loose, explicit)
		if err != nil || r.K != KindArray {
			return r, err
		}
		return CastArray(r, t.ElemType(), explicit) // rounds each element
	}
	target := t.Kind()
	if t.ID.System() || v.K == KindInt && v.S != "" {
		if c, ok, err := castSystem(v, t); ok {
			return c, err
		}
	}
	if target == KindEnum || v.K == KindEnum {
		return castEnum(v, t)
	}
	if target == KindBit || v.K == KindBit {
		if r, ok, err := castBit(v, t, explicit); ok {
			return r, err
		}
	}
	if target == KindMoney || v.K == KindMoney {
		if r, ok, err := castMoney(v, t); ok {
			return r, err
		}
	}
	if target == KindRange && v.K == KindRange && !v.Range().Typ.Same(t.StripDomain()) ||
		target == KindMultirange && v.K == KindMultirange && !v.Multirange().Typ.Same(t.StripDomain()) {
		// No cast between range types (int4range to int8range).
		return Null, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", TypeOfValue(v), t)
	}
	if target == KindMultirange && v.K == KindRange && MultirangeOf(v.Range().Typ).Same(t.StripDomain()) {
		// A range's cast to its multirange type (multirange(range)).
		return MakeMultirange(t.StripDomain(), []*RangeValue{v.Range()})
	}
	if r, ok, err := castNet(v, t); ok {
		return r, err
	}
	if r, ok, err := castGeo(v, t); ok {
		return r, err
	}
	if r, ok, err := castSysInfo(v, t); ok {
		return r, err
	}
	if r, ok, err := castGeometry(v, t); ok {
		return r, err
	}
	if v.K == target && !hasModifiers(t) {
		return v, nil
	}
	// Strings convert to anything through the type's input function. An
	// explicit cast to arrays of varchar(n) or char(n) reads the elements
	// without their length and then cuts them, as PostgreSQL's length
	// coercion of an explicit cast does.
	if v.K == KindText || v.K == KindBPChar || v.K == KindCitext {
		switch target {
		case KindText, KindBPChar, KindCitext:
		case KindArray:
			if explicit && (t.Elem == Varchar || t.Elem == BPChar || t.Elem == Bit || t.Elem == VarBit) && t.Width > 0 {
				loose := t
				loose.Width = 0
				a, err := ParseText(loose, v.S)
				if err != nil {
					return Null, err
				}
				return CastArray(a, t.ElemType(), true)
			}
			return ParseText(t, v.S)
		default:
			return ParseText(t, v.S)
		}
	}
	switch target {
	case KindInt:
		switch v.K {
		case KindInt:
			if v.S != "" {
				v = NewInt(v.I) // a reg* value as a plain number
			}
			return CheckRange(t, v)
		case KindFloat:
			if math.IsNaN(v.F) || math.IsInf(v.F, 0) || v.F >= 9.223372036854775807e18 || v.F < -9.223372036854775808e18 {
				return Null, intOutOfRange(t) // float8_int4's wording

			}
			return CheckRange(t, NewInt(int64(math.RoundToEven(v.F))))
		case KindBool:
			return CheckRange(t, NewInt(v.I))
		case KindNumeric:
			return NumericToInt(v, t)
		case KindJSONB:
			return jsonbScalarCast(v, t)
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
					// float8_float4's overflow check (float_overflow_error).
					return Null, pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")
				}
				return NewFloat(float64(float32(v.F))), nil
			}
			return v, nil
		case KindNumeric:
			if t.ID == Float4 {
				return NumericToFloat(v, 32)
			}
			return NumericToFloat(v, 64)
		case KindJSONB:
			return jsonbScalarCast(v, t)
		}
	case KindNumeric:
		switch v.K {
		case KindInt:
			return ApplyNumericTypmod(NumericFromInt(v.I), t)
		case KindFloat:
			n, err := FloatToNumeric(v.F, 64)
			if err != nil {
				return Null, err
			}
			return ApplyNumericTypmod(n, t)
		case KindNumeric:
			return ApplyNumericTypmod(v, t)
		case KindJSONB:
			n, err := jsonbScalarCast(v, TypeNumeric)
			if err != nil {
				return Null, err
			}
			return ApplyNumericTypmod(n, t)
		}
	case KindText, KindBPChar:
		var s Value
		switch v.K {
		case KindText:
			s = v
		case KindCitext:
			s = NewText(v.S)
		case KindBPChar:
			if target == KindText {
				s = BPCharToText(v) // char(n) to text drops the padding
			} else {
				s = NewText(v.S)
			}
		case KindArray:
			s = NewText(string(AppendText(nil, v)))
		case KindBool:
			// bool's cast to text is booltext: "true", not boolout's "t".
			s = NewText(boolText(v.I != 0))
		case KindInet:
			// inet and cidr cast to the string types through text(inet),
			// which always shows the /n.
			s = NewText(InetText(v.Inet()))
		case KindJSONB:
			// jsonb_out, which fails past MaxAllocSize as PostgreSQL's.
			text, err := JSONBOut(v.JSONB())
			if err != nil {
				return Null, err
			}
			s = NewText(text)
		default:
			s = NewText(FormatText(v))
		}
		if explicit {
			return TruncateWidth(t, s), nil
		}
		return CheckWidth(t, s)
	case KindBool:
		switch v.K {
		case KindInt:
			return NewBool(v.I != 0), nil
		case KindJSONB:
			return jsonbScalarCast(v, t)
		}
	case KindTimestamp, KindTimestampTZ:
		switch v.K {
		case KindTimestamp, KindTimestampTZ:
			return Value{K: target, I: v.I}, nil
		case KindDate:
			us, err := DateToTimestamp(v.I)
			if err != nil {
				return Null, err
			}
			return Value{K: target, I: us}, nil
		}
	case KindDate:
		switch v.K {
		case KindTimestamp, KindTimestampTZ:
			return NewDate(TimestampToDate(v.I)), nil
		case KindDate:
			return v, nil
		}
	case KindInterval:
		if v.K == KindInterval {
			iv, err := ApplyIntervalTypmod(v.Interval(), t)
			if err != nil {
				return Null, err
			}
			return NewInterval(iv), nil
		}
		if v.K == KindTime { // time_interval
			return NewInterval(IntervalValue{Micros: v.I}), nil
		}
	case KindTime, KindTimeTZ:
		if r, ok, err := castTime(v, t); ok || err != nil {
			return r, err
		}
	case KindJSON:
		switch v.K {
		case KindJSONB:
			text, err := JSONBOut(v.JSONB())
			if err != nil {
				return Null, err
			}
			return NewJSON(text), nil
		case KindJSON:
			return v, nil
		}
	case KindJSONB:
		if v.K == KindJSON {
			return parseJSONBInput(v.S)
		}
	case KindArray:
		if v.K == KindArray {
			return CastArray(v, t.ElemType(), explicit)
		}
	case KindCitext:
		// citext takes any string as written (char(n) without its
		// padding, as bpchar's cast to citext rtrims it); other types
		// convert through their text output, as PostgreSQL's I/O
		// conversion casts to a string type do (a boolean is "true").
		switch v.K {
		case KindText, KindCitext:
			return NewCitext(v.S), nil
		case KindBPChar:
			return NewCitext(strings.TrimRight(v.S, " ")), nil
		case KindBool:
			return NewCitext(boolText(v.I != 0)), nil
		}
		return NewCitext(FormatText(v)), nil
	}
	if t.ID == Hstore || v.K == KindHstore {
		if r, ok, err := castHstore(v, t); ok {
			return r, err
		}
	}
	return Null, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", TypeOfValue(v), t)
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// KindType returns the natural type of a value kind, used to type the
// result of an expression whose declared type is not known. Arrays need
// their element type: see TypeOfValue.
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
	case KindNumeric:
		return TypeNumeric
	case KindInterval:
		return TypeInterval
	case KindBPChar:
		return TypeBPChar
	case KindJSON:
		return TypeJSON
	case KindJSONB:
		return TypeJSONB
	case KindArray:
		return Type{ID: Array}
	case KindTime:
		return TypeTime
	case KindTimeTZ:
		return TypeTimeTZ
	case KindCitext:
		return TypeCitext
	case KindHstore:
		return TypeHstore
	case KindBit:
		return Type{ID: VarBit}
	case KindMoney:
		return Type{ID: Money}
	case KindInet:
		return TypeInet
	case KindMacAddr:
		return TypeMacAddr
	case KindTSVector:
		return TypeTSVector
	case KindTSQuery:
		return TypeTSQuery
	case KindXML, KindLSN, KindXID, KindXID8, KindTID:
		return Type{ID: sysInfoTypes[k]}
	case KindGeometry:
		return TypeGeometry
	case KindJSONPath:
		return TypeJSONPath
	case KindLtree:
		return TypeLtree
	case KindLquery:
		return TypeLquery
	case KindLtxtquery:
		return TypeLtxtquery
	}
	return TypeUnknown
}

// TypeOfValue is KindType that also knows an array's element type.
func TypeOfValue(v Value) Type {
	if r := v.Range(); v.K == KindRange && r != nil {
		return r.Typ
	}
	if m := v.Multirange(); v.K == KindMultirange && m != nil {
		return m.Typ
	}
	if v.K == KindArray {
		if a := v.Array(); a != nil {
			return ArrayOf(a.Elem)
		}
	}
	if e := v.EnumTypeOf(); e != nil {
		return EnumOf(e)
	}
	switch {
	case v.K == KindGeo:
		return Type{ID: GeoTypeID(v)}
	case v.K == KindGeometry && v.I == 1:
		return TypeGeography
	case v.IsBox2D():
		return TypeBox2D
	case v.K == KindInet && v.I != 0:
		return TypeCidr
	case v.K == KindMacAddr && len(v.S) == 8:
		return TypeMacAddr8
	}
	return KindType(v.K)
}
