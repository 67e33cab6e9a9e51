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
