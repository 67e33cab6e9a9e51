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
	overload := func(t sqltypes.Type, doc string, bounds func(v sqltypes.Value) (lo, hi sqltypes.Point, ok bool, err error)) Overload {
		return Overload{
			Params:     []Param{T(t), f8, f8, f8, f8, i4},
			Result:     Returns(sqltypes.TypeInt8),
			Volatility: Immutable,
			Doc:        "the XZ2 code of " + doc + "'s bounding box in a world (a gist index's key)",
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				lo, hi, ok, err := bounds(a[0])
				if err != nil || !ok {
					return sqltypes.Null, err
				}
				s := zorder.XZ2{MinX: a[1].AsFloat(), MinY: a[2].AsFloat(), MaxX: a[3].AsFloat(), MaxY: a[4].AsFloat(),
					Levels: min(max(int(a[5].I), 0), zorder.MaxXZLevels)}
				return sqltypes.NewInt(s.Code(lo.X, lo.Y, hi.X, hi.Y)), nil
			},
		}
	}
	Register(XZ2Func,
		overload(sqltypes.TypeGeometry, "a geometry", func(v sqltypes.Value) (lo, hi sqltypes.Point, ok bool, err error) {
			b, ok, err := boxOf(v)
			return sqltypes.Point{X: b.MinX, Y: b.MinY}, sqltypes.Point{X: b.MaxX, Y: b.MaxY}, ok, err
		}),
		// PostgreSQL's own shapes (gist box_ops, poly_ops, circle_ops).
		overload(tBox, "a box", func(v sqltypes.Value) (lo, hi sqltypes.Point, ok bool, err error) {
			b := v.X.(sqltypes.Box)
			return b.Low, b.High, true, nil
		}),
		overload(tPolygon, "a polygon", func(v sqltypes.Value) (lo, hi sqltypes.Point, ok bool, err error) {
			b := v.X.(sqltypes.Polygon).Bound
			return b.Low, b.High, true, nil
		}),
		overload(tCircle, "a circle", func(v sqltypes.Value) (lo, hi sqltypes.Point, ok bool, err error) {
			c := v.X.(sqltypes.Circle)
			r := c.Radius
			return sqltypes.Point{X: c.Center.X - r, Y: c.Center.Y - r}, sqltypes.Point{X: c.Center.X + r, Y: c.Center.Y + r}, true, nil
		}))
}
