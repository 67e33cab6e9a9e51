package builtins

import (
	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostGIS 3.3's planar distance family beyond ST_Distance:
// ST_ClosestPoint, ST_ShortestLine, ST_LongestLine, ST_MaxDistance,
// ST_DFullyWithin and ST_3DDistance, on geometry. PostGIS computes them
// with its own distance search rather than GEOS, and which pair of
// points it answers on a tie depends on that search's order, so package
// geo's distance2d.go follows it (ST_Distance, in ext_postgis.go, uses
// it too, so that the two agree). All are strict; an empty argument
// gives NULL (ST_DFullyWithin false). The points and lines they return
// are 2-D, with the first argument's SRID. The SRID errors name the C
// functions, as PostGIS's do.

func init() {
	tGeom := sqltypes.TypeGeometry
	pGeom, f8 := T(tGeom), T(sqltypes.TypeFloat8)
	fn := func(params []Param, result sqltypes.Type, doc string, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a) }}
	}
	point := func(srid int32, p [2]float64) sqltypes.Value {
		return geomV(gis.Geom{SRID: srid, Shape: &gis.Shape{Kind: gis.Point, Coords: []float64{p[0], p[1]}}})
	}
	line := func(srid int32, p, q [2]float64) sqltypes.Value {
		return geomV(gis.Geom{SRID: srid, Shape: &gis.Shape{Kind: gis.LineString, Coords: []float64{p[0], p[1], q[0], q[1]}}})
	}

	Register("st_closestpoint", fn([]Param{pGeom, pGeom}, tGeom, "the point of the first geometry closest to the second",
		func(a []sqltypes.Value) (sqltypes.Value, error) {
			x, y, err := twoGeoms("LWGEOM_closestpoint", a[0], a[1])
			if err != nil {
				return sqltypes.Null, err
			}
			p, _, _, ok := gis.ClosestPair(x.Shape, y.Shape)
			if !ok {
				return sqltypes.Null, nil
			}
			return point(x.SRID, p), nil
		}))
	Register("st_shortestline", fn([]Param{pGeom, pGeom}, tGeom, "the shortest line from the first geometry to the second",
		func(a []sqltypes.Value) (sqltypes.Value, error) {
			x, y, err := twoGeoms("LWGEOM_shortestline2d", a[0], a[1])
			if err != nil {
				return sqltypes.Null, err
			}
			p, q, _, ok := gis.ClosestPair(x.Shape, y.Shape)
			if !ok {
				return sqltypes.Null, nil
			}
			return line(x.SRID, p, q), nil
		}))
	// ST_LongestLine and ST_MaxDistance are SQL functions in PostGIS that
	// measure the two convex hulls, whose vertex order decides ties.
	farthest := func(label string, a []sqltypes.Value) (gis.Geom, [2]float64, [2]float64, float64, bool, error) {
		x, y, err := twoGeoms(label, a[0], a[1])
		if err != nil {
			return x, [2]float64{}, [2]float64{}, 0, false, err
		}
		p, q, d, ok := gis.FarthestPair(hullShape(x.Shape), hullShape(y.Shape))
		return x, p, q, d, ok, nil
	}
	Register("st_longestline", fn([]Param{pGeom, pGeom}, tGeom, "the longest line between the two geometries' vertices",
		func(a []sqltypes.Value) (sqltypes.Value, error) {
			x, p, q, _, ok, err := farthest("LWGEOM_longestline2d", a)
			if err != nil || !ok {
				return sqltypes.Null, err
			}
			return line(x.SRID, p, q), nil
		}))
	Register("st_maxdistance", fn([]Param{pGeom, pGeom}, sqltypes.TypeFloat8, "the largest planar distance between the two geometries",
		func(a []sqltypes.Value) (sqltypes.Value, error) {
			_, _, _, d, ok, err := farthest("LWGEOM_maxdistance2d_linestring", a)
			if err != nil || !ok {
				return sqltypes.Null, err
			}
			return sqltypes.NewFloat(d), nil
		}))
	Register("st_dfullywithin", fn([]Param{pGeom, pGeom, f8}, sqltypes.TypeBool, "whether every point of each is within the distance of every point of the other",
		func(a []sqltypes.Value) (sqltypes.Value, error) {
			// The tolerance is checked before the SRIDs, as in PostGIS.
			tol := a[2].F
			if tol < 0 {
				return sqltypes.Null, pgerr.Raised("Tolerance cannot be less than zero")
			}
			x, y, err := twoGeoms("LWGEOM_dfullywithin", a[0], a[1])
			if err != nil {
				return sqltypes.Null, err
			}
			_, _, d, ok := gis.FarthestPair(x.Shape, y.Shape)
			return sqltypes.NewBool(ok && tol >= d), nil
		}))
	Register("st_3ddistance", Overload{Params: []Param{pGeom, pGeom}, Result: Returns(sqltypes.TypeFloat8), Volatility: Immutable,
		Doc: "the smallest distance in 3-D (in 2-D when either lacks Z)",
		Eval: func(c *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			x, y, err := twoGeoms("ST_3DDistance", a[0], a[1])
			if err != nil {
				return sqltypes.Null, err
			}
			var d float64
			var ok bool
			if !x.Shape.Z || !y.Shape.Z {
				c.Notice(pgerr.Notice(`One or both of the geometries is missing z-value. The unknown z-value will be regarded as "any value"`))
				_, _, d, ok = gis.ClosestPair(x.Shape, y.Shape)
			} else {
				d, ok, err = gis.Distance3D(x.Shape, y.Shape)
				if err != nil {
					return sqltypes.Null, err
				}
			}
			if !ok {
				return sqltypes.Null, nil
			}
			return sqltypes.NewFloat(d), nil
		}})
}

// hullShape is the convex hull PostGIS's ST_ConvexHull gives s, in 2-D
// (its vertices are all the distance search reads).
func hullShape(s *gis.Shape) *gis.Shape {
	kind, pts := gis.ConvexHullVertices(s)
	h := &gis.Shape{Kind: kind}
	var flat []float64
	for _, p := range pts {
		flat = append(flat, p[0], p[1])
	}
	if kind == gis.Polygon {
		h.Rings = [][]float64{flat}
	} else {
		h.Coords = flat
	}
	return h
}
