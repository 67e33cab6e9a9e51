package builtins

import (
	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostGIS 3.3's accessors of a geometry's members, vertices, rings,
// dimensions and box: ST_NumGeometries, ST_GeometryN, ST_NumPoints,
// ST_PointN, ST_StartPoint, ST_EndPoint, ST_ExteriorRing,
// ST_InteriorRingN, ST_NumInteriorRings (and its alias
// ST_NumInteriorRing), ST_NRings, ST_IsClosed, ST_Z, ST_M, ST_Dimension
// and ST_XMin ... ST_ZMax. All are strict; a kind an accessor does not
// read gives NULL, as in PostGIS, except ST_Z and ST_M of a non-point,
// which raise PostGIS's error. The geometry they return keeps the
// input's SRID. The shape logic is package geo's (accessors.go).

func init() {
	tGeom := sqltypes.TypeGeometry
	pGeom, i4 := T(tGeom), T(sqltypes.TypeInt4)
	tInt, tF8 := sqltypes.TypeInt4, sqltypes.TypeFloat8
	fn := func(params []Param, result sqltypes.Type, doc string, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a) }}
	}
	// shape makes an accessor of the shape and the call's other
	// arguments.
	shape := func(f func(g gis.Geom, a []sqltypes.Value) (sqltypes.Value, error)) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			return f(g, a)
		}
	}
	// part is a geometry accessor's answer: the part with the input's
	// SRID, or NULL when there is none.
	part := func(g gis.Geom, s *gis.Shape, ok bool) (sqltypes.Value, error) {
		if !ok {
			return sqltypes.Null, nil
		}
		return geomV(gis.Geom{SRID: g.SRID, Shape: s}), nil
	}
	count := func(n int, ok bool) (sqltypes.Value, error) {
		if !ok {
			return sqltypes.Null, nil
		}
		return sqltypes.NewInt(int64(n)), nil
	}
	// index is an int4 argument as an index: an out-of-range one finds
	// nothing, so its width does not matter.
	index := func(v sqltypes.Value) int { return int(v.I) }

	Register("st_numgeometries", fn([]Param{pGeom}, tInt, "the number of members of a collection (1 for a single geometry, 0 when empty)",
		shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) {
			return count(g.Shape.NumGeometries(), true)
		})))
	Register("st_geometryn", fn([]Param{pGeom, i4}, tGeom, "the nth member of a collection, from 1 (a single geometry is its own first)",
		shape(func(g gis.Geom, a []sqltypes.Value) (sqltypes.Value, error) {
			s, ok := g.Shape.GeometryN(index(a[1]))
			return part(g, s, ok)
		})))
	// ST_NumPoints, unlike ST_NPoints, counts a line string's vertices
	// only.
	Register("st_numpoints", fn([]Param{pGeom}, tInt, "the number of vertices of a line string",
		shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) {
			return count(g.Shape.NPoints(), g.Shape.Kind == gis.LineString)
		})))
	Register("st_pointn", fn([]Param{pGeom, i4}, tGeom, "the nth vertex of a line string, from 1 (negative: from the end)",
		shape(func(g gis.Geom, a []sqltypes.Value) (sqltypes.Value, error) {
			s, ok := g.Shape.PointN(index(a[1]))
			return part(g, s, ok)
		})))
	Register("st_startpoint", fn([]Param{pGeom}, tGeom, "the first vertex (of a collection, its first member's)",
		shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) {
			s, ok := g.Shape.StartPoint()
			return part(g, s, ok)
		})))
	Register("st_endpoint", fn([]Param{pGeom}, tGeom, "the last vertex of a line string",
		shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) {
			s, ok := g.Shape.EndPoint()
			return part(g, s, ok)
		})))
	Register("st_exteriorring", fn([]Param{pGeom}, tGeom, "the outer ring of a polygon, as a line string",
		shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) {
			s, ok := g.Shape.ExteriorRing()
			return part(g, s, ok)
		})))
	Register("st_interiorringn", fn([]Param{pGeom, i4}, tGeom, "the nth hole of a polygon, from 1, as a line string",
		shape(func(g gis.Geom, a []sqltypes.Value) (sqltypes.Value, error) {
			s, ok := g.Shape.InteriorRingN(index(a[1]))
			return part(g, s, ok)
		})))
	numInterior := shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) {
		return count(g.Shape.NumInteriorRings())
	})
	Register("st_numinteriorrings", fn([]Param{pGeom}, tInt, "the number of holes of a polygon", numInterior))
	Register("st_numinteriorring", fn([]Param{pGeom}, tInt, "the number of holes of a polygon", numInterior))
	Register("st_nrings", fn([]Param{pGeom}, tInt, "the number of rings of the polygons in the geometry",
		shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) { return count(g.Shape.NRings(), true) })))
	Register("st_isclosed", fn([]Param{pGeom}, sqltypes.TypeBool, "whether its lines and rings end where they start (in 3D when it has Z)",
		shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewBool(g.Shape.IsClosed()), nil
		})))
	Register("st_dimension", fn([]Param{pGeom}, tInt, "the topological dimension: 0 points, 1 lines, 2 polygons (a collection: its members' greatest)",
		shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) { return count(g.Shape.Dimension(), true) })))

	// ST_Z and ST_M, as ST_X and ST_Y: of points only; NULL when the
	// point is empty or lacks the ordinate.
	ordinate := func(name string, has func(s *gis.Shape) (int, bool)) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) {
			s := g.Shape
			if s.Kind != gis.Point {
				return sqltypes.Null, pgerr.Raised("Argument to %s() must have type POINT", name)
			}
			i, ok := has(s)
			if !ok || len(s.Coords) == 0 {
				return sqltypes.Null, nil
			}
			return sqltypes.NewFloat(s.Coords[i]), nil
		})
	}
	Register("st_z", fn([]Param{pGeom}, tF8, "a point's z", ordinate("ST_Z", func(s *gis.Shape) (int, bool) { return 2, s.Z })))
	Register("st_m", fn([]Param{pGeom}, tF8, "a point's m", ordinate("ST_M", func(s *gis.Shape) (int, bool) { return s.Stride() - 1, s.M })))

	// The box accessors. PostGIS declares them of box3d alone and a
	// geometry or a box2d reaches them by its implicit cast to box3d
	// (exact doubles, z 0 when there is none, NULL for an empty
	// geometry). zproxy has no box3d type, so they are registered of
	// geometry and of box2d (sqltypes.Box2D, a geometry value holding
	// the box's shape), whose answers are those of the casts, and
	// pg_proc lists them so. An untyped literal, which PostGIS reads as
	// box3d text ('BOX3D(...)'), matches both overloads here and is an
	// ambiguous call (42725).
	for _, b := range []struct {
		name, doc string
		min       bool
		axis      int
	}{
		{"st_xmin", "the least x", true, 0}, {"st_xmax", "the greatest x", false, 0},
		{"st_ymin", "the least y", true, 1}, {"st_ymax", "the greatest y", false, 1},
		{"st_zmin", "the least z (0 without z)", true, 2}, {"st_zmax", "the greatest z (0 without z)", false, 2},
	} {
		f := shape(func(g gis.Geom, _ []sqltypes.Value) (sqltypes.Value, error) {
			box, ok := g.Shape.Bounds3D()
			if !ok {
				return sqltypes.Null, nil
			}
			if b.min {
				return sqltypes.NewFloat(box.Min[b.axis]), nil
			}
			return sqltypes.NewFloat(box.Max[b.axis]), nil
		})
		Register(b.name, fn([]Param{pGeom}, tF8, b.doc+" of the bounding box", f),
			fn([]Param{T(sqltypes.TypeBox2D)}, tF8, b.doc+" of the box", f))
	}
}
