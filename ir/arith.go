package ir

import (
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// castValue converts v, of type from, to type to, in a session whose
// TimeZone is loc (sqltypes.CastIn: timestamptz conversions). A real is a
// float32 in a float64: converted to numeric or to text it keeps the
// digits a real shows (1.1, not 1.100000023841858), as PostgreSQL converts
// float4. An explicit cast (CAST, ::) cuts strings to varchar(n) and
// char(n) where an assignment fails with 22001.
func CastValue(v sqltypes.Value, from, to sqltypes.Type, explicit bool, loc *time.Location) (sqltypes.Value, error) {
	return CastValueStyled(v, from, to, explicit, sqltypes.Style{Location: loc})
}

// CastValueStyled is CastValue in a session whose output settings are st
// (TimeZone: st.Location): a date, timestamp, timestamptz, interval, float
// or bytea (or an array or record of them) converted to text prints in
// them, and text converted to a date or timestamp reads ambiguous dates in
// st's DateStyle field order.
func CastValueStyled(v sqltypes.Value, from, to sqltypes.Type, explicit bool, st sqltypes.Style) (sqltypes.Value, error) {
	if from.Domain != nil || to.Domain != nil {
		// A domain's values are its base type's: cast to the base, then
		// check the target domain's constraints.
		r, err := CastValueStyled(v, from.StripDomain(), to.StripDomain(), explicit, st)
		if err != nil {
			return r, err
		}
		return r, sqltypes.CheckDomain(to, r, true)
	}
	if v.IsNull() {
		return sqltypes.CastIn(v, to, explicit, st.Location)
	}
	if from.ID == sqltypes.Char && to.ID == sqltypes.Int4 {
		return sqltypes.CharToInt(v), nil // its byte, not its text read as a number
	}
	if to.IsTextual() && printsStyled(from) {
		v = sqltypes.NewText(string(sqltypes.AppendTextStyled(nil, from, v, st)))
		from = sqltypes.TypeText
	}
	if st.XMLDocument && to.ID == sqltypes.XML && (v.K == sqltypes.KindText || v.K == sqltypes.KindBPChar) {
		return sqltypes.ParseXML(v.S, true) // xmloption document
	}
	if st.Order != sqltypes.DateOrderMDY && readsDates(to) || st.Interval == sqltypes.IntervalStyleSQLStandard && readsIntervals(to) {
		switch {
		case v.K == sqltypes.KindText || v.K == sqltypes.KindBPChar:
			return sqltypes.ParseTextStyled(to, v.S, st)
		case v.K == sqltypes.KindArray && from.ID == sqltypes.Array && from.ElemType().IsTextual() && to.ID == sqltypes.Array:
			// text[] to date[] or interval[]: each element read in the
			// style, as PostgreSQL's array_map runs the element cast.
			a := v.Array()
			out := *a
			out.Elem = to.ElemType()
			out.Elems = make([]sqltypes.Value, len(a.Elems))
			for i, e := range a.Elems {
				c, err := CastValueStyled(e, from.ElemType(), to.ElemType(), explicit, st)
				if err != nil {
					return sqltypes.Null, err
				}
				out.Elems[i] = c
			}
			return sqltypes.NewArray(&out), nil
		}
	}
	if from.ID == sqltypes.Float4 && v.K == sqltypes.KindFloat {
		switch {
		case to.ID == sqltypes.Numeric:
			n, err := sqltypes.FloatToNumeric(v.F, 32)
			if err != nil {
				return sqltypes.Null, err
			}
			return sqltypes.ApplyNumericTypmod(n, to)
		case to.IsTextual():
			v = sqltypes.NewText(string(sqltypes.AppendTextAs(nil, from, v)))
		}
	}
	r, err := sqltypes.CastIn(v, to, explicit, st.Location)
	if err != nil && v.K == sqltypes.KindInt && (from.ID == sqltypes.Int2 || from.ID == sqltypes.Int4) && pgerr.CodeOf(err) == pgerr.CannotCoerce {
		// An integer value does not tell its width, so the error names
		// its type: 1::date cannot cast integer (a literal that fits
		// int4 is one), not bigint.
		return r, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from, to)
	}
	return r, err
}

// printsStyled reports whether the text of a value of type t depends on
// the session's output settings (DateStyle, IntervalStyle, TimeZone,
// extra_float_digits, bytea_output): values of these types, arrays of
// them, and records, whose fields may be any of them.
func printsStyled(t sqltypes.Type) bool {
	for t.ID == sqltypes.Array {
		t = t.ElemType()
	}
	if t.ID == sqltypes.UserRange || t.ID == sqltypes.UserMultirange {
		return printsStyled(sqltypes.RangeSubtype(sqltypes.RangeOf(t.Range))) // its bounds'
	}
	switch t.ID {
	case sqltypes.Date, sqltypes.Timestamp, sqltypes.TimestampTZ, sqltypes.Interval,
		sqltypes.Float4, sqltypes.Float8, sqltypes.Bytea, sqltypes.Record,
		sqltypes.DateRange, sqltypes.TsRange, sqltypes.TstzRange,
		sqltypes.DateMultirange, sqltypes.TsMultirange, sqltypes.TstzMultirange:
		return true
	}
	return false
}

// readsDates reports whether text converted to t is read by the date/time
// decoder, whose reading of ambiguous dates depends on DateStyle.
func readsDates(t sqltypes.Type) bool {
	for t.ID == sqltypes.Array {
		t = t.ElemType()
	}
	if t.ID == sqltypes.UserRange || t.ID == sqltypes.UserMultirange {
		return readsDates(sqltypes.RangeSubtype(sqltypes.RangeOf(t.Range))) // its bounds'
	}
	switch t.ID {
	case sqltypes.Date, sqltypes.Timestamp, sqltypes.TimestampTZ, sqltypes.Time, sqltypes.TimeTZ,
		sqltypes.DateRange, sqltypes.TsRange, sqltypes.TstzRange,
		sqltypes.DateMultirange, sqltypes.TsMultirange, sqltypes.TstzMultirange:
		return true
	}
	return false
}

// readsIntervals reports whether text converted to t reads intervals,
// which IntervalStyle sql_standard reads its own way.
func readsIntervals(t sqltypes.Type) bool {
	for t.ID == sqltypes.Array {
		t = t.ElemType()
	}
	return t.ID == sqltypes.Interval
}

// StyleDependentCast reports whether converting from to to depends on the
// session's output settings, so a constant cannot be converted when a
// statement is bound. (Text read as a date depends on DateStyle too, but
// the binder converts such constants in the session's style, as
// PostgreSQL reads a literal when it parses the statement.)
func StyleDependentCast(from, to sqltypes.Type) bool {
	return to.IsTextual() && printsStyled(from)
}
