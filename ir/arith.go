package ir

import (
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// castValue converts v, of type from, to type to, in a session whose
// TimeZone is loc (sqltypes.CastIn: timestamptz conversions). A real is a
// float32 in a float64: converted to numeric or to text it keeps the
// digits a real shows (1.1, not 1.100000023841858), as PostgreSQL converts
// float4. An explicit cast (CAST, ::) cuts strings to varchar(n) and
// char(n) where an assignment fails with 22001.
func CastValue(v sqltypes.Value, from, to sqltypes.Type, explicit bool, loc *time.Location) (sqltypes.Value, error) {
	return CastValueStyled(v, from, to, explicit, loc, sqltypes.IntervalStylePostgres)
}

// CastValueStyled is CastValue in a session whose IntervalStyle is style:
// an interval (or an array of them) converted to text prints in it.
func CastValueStyled(v sqltypes.Value, from, to sqltypes.Type, explicit bool, loc *time.Location, style sqltypes.IntervalStyle) (sqltypes.Value, error) {
	if style != sqltypes.IntervalStylePostgres && to.IsTextual() && printsIntervals(from) && !v.IsNull() {
		v = sqltypes.NewText(string(sqltypes.AppendTextStyled(nil, from, v, style)))
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
	return sqltypes.CastIn(v, to, explicit, loc)
}

// printsIntervals reports whether the text of a value of type t holds
// intervals, whose form depends on IntervalStyle.
func printsIntervals(t sqltypes.Type) bool {
	for t.ID == sqltypes.Array {
		t = t.ElemType()
	}
	return t.ID == sqltypes.Interval
}

// StyleDependentCast reports whether converting from to to depends on the
// session's IntervalStyle, so a constant cannot be converted when a
// statement is bound.
func StyleDependentCast(from, to sqltypes.Type) bool {
	return to.IsTextual() && printsIntervals(from)
}
