package builtins

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/zorder"
)

// XZ2Func is the key expression of a gist index over geometries of any
// shape (planner/gist.go): zp_xz2(geom, minx, miny, maxx, maxy, levels)
// is the XZ2 code (zorder.XZ2) of geom's bounding box in that world, NULL
// for NULL or an empty geometry (which meets nothing). Its zp_ name keeps
// it out of pg_proc.
const XZ2Func = "zp_xz2"

func init() {
	f8, i4 := T(sqltypes.TypeFloat8), T(sqltypes.TypeInt4)
	Register(XZ2Func, Overload{
		Params:     []Param{T(sqltypes.TypeGeometry), f8, f8, f8, f8, i4},
		Result:     Returns(sqltypes.TypeInt8),
		Volatility: Immutable,
		Doc:        "the XZ2 code of a geometry's bounding box in a world (a gist index's key)",
		Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			b, ok, err := boxOf(a[0])
			if err != nil || !ok {
				return sqltypes.Null, err
			}
			s := zorder.XZ2{MinX: a[1].AsFloat(), MinY: a[2].AsFloat(), MaxX: a[3].AsFloat(), MaxY: a[4].AsFloat(),
				Levels: min(max(int(a[5].I), 0), zorder.MaxXZLevels)}
			return sqltypes.NewInt(s.Code(b.MinX, b.MinY, b.MaxX, b.MaxY)), nil
		},
	})
}
