package builtins

import "github.com/zproxy/zproxy/internal/sqltypes"

// PlanarPoint gives the coordinates of a value of a point type (a
// geometric point, a geometry that is a point), or ok false for a value
// that is no single finite-or-not point (NULL, an empty or non-point
// geometry).
type PlanarPoint func(v sqltypes.Value) (x, y float64, ok bool)

// planarPoints holds the point types whose distance operator <-> is the
// Euclidean distance between their coordinates, by type ID. A gist index
// over a column of such a type is a Z-order index over its x and y, and
// ORDER BY col <-> constant LIMIT k is answered by a nearest-neighbour
// search of that index (optimizer/nearest.go).
var planarPoints = map[sqltypes.TypeID]PlanarPoint{}

// RegisterPlanarPoint declares t a planar point type: its <-> is the
// Euclidean distance between the coordinates coords gives.
func RegisterPlanarPoint(t sqltypes.TypeID, coords PlanarPoint) { planarPoints[t] = coords }

// PlanarPointOf returns the coordinates function of a planar point type,
// or nil for any other type.
func PlanarPointOf(t sqltypes.Type) PlanarPoint {
	if t.ID == sqltypes.Array {
		return nil
	}
	return planarPoints[t.ID]
}

func init() {
	// point <-> point is point_distance: the Euclidean distance (HYPOT).
	RegisterPlanarPoint(sqltypes.GeoPoint, func(v sqltypes.Value) (float64, float64, bool) {
		if v.IsNull() {
			return 0, 0, false
		}
		p := v.Point()
		return p.X, p.Y, true
	})
	// PostGIS's geometry <-> geometry of two points is their Euclidean
	// distance (geography's is on the sphere: not planar).
	RegisterPlanarPoint(sqltypes.Geometry, func(v sqltypes.Value) (float64, float64, bool) {
		if v.IsNull() {
			return 0, 0, false
		}
		g, err := v.Geom()
		if err != nil {
			return 0, 0, false
		}
		return g.PointXY()
	})
}
