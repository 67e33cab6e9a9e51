package builtins

import "github.com/zproxy/zproxy/internal/sqltypes"

// PlanarPoint gives the coordinates of a value of a point type (a
// geometric point, a geometry that is a point), or ok false for a value
// that is no single finite-or-not point (NULL, an empty or non-point
// geometry).
type PlanarPoint func(v sqltypes.Value) (x, y float64, ok bool)

// PlanarType describes a planar point type: its distance operator <-> is
// the Euclidean distance between the coordinates Coords gives. A gist
// index over a column of such a type is a Z-order index over the key
// expressions X and Y (fmt verbs for the quoted column; planner/gist.go)
// with operator class Opclass, and ORDER BY col <-> constant LIMIT k is a
// nearest-neighbour search of it (optimizer/nearest.go).
type PlanarType struct {
	Coords  PlanarPoint
	Opclass string
	X, Y    string
}

// planarTypes holds the planar point types by type ID.
var planarTypes = map[sqltypes.TypeID]PlanarType{}

// RegisterPlanarPoint declares t a planar point type.
func RegisterPlanarPoint(t sqltypes.TypeID, pt PlanarType) { planarTypes[t] = pt }

// PlanarTypeOf returns what makes t a planar point type; ok is false for
// any other type.
func PlanarTypeOf(t sqltypes.Type) (pt PlanarType, ok bool) {
	if t.ID == sqltypes.Array {
		return pt, false
	}
	pt, ok = planarTypes[t.ID]
	return pt, ok
}

// PlanarPointOf returns the coordinates function of a planar point type,
// or nil for any other type.
func PlanarPointOf(t sqltypes.Type) PlanarPoint {
	pt, _ := PlanarTypeOf(t)
	return pt.Coords
}

func init() {
	// point <-> point is point_distance: the Euclidean distance (HYPOT).
	RegisterPlanarPoint(sqltypes.GeoPoint, PlanarType{Opclass: "point_ops", X: "(%s)[0]", Y: "(%s)[1]",
		Coords: func(v sqltypes.Value) (float64, float64, bool) {
			if v.IsNull() {
				return 0, 0, false
			}
			p := v.Point()
			return p.X, p.Y, true
		}})
	// PostGIS's geometry <-> geometry of two points is their Euclidean
	// distance (geography's is on the sphere: not planar).
	RegisterPlanarPoint(sqltypes.Geometry, PlanarType{Opclass: "gist_geometry_ops_2d", X: "st_x(%s)", Y: "st_y(%s)",
		Coords: func(v sqltypes.Value) (float64, float64, bool) {
			if v.IsNull() {
				return 0, 0, false
			}
			g, err := v.Geom()
			if err != nil {
				return 0, 0, false
			}
			return g.PointXY()
		}})
}
