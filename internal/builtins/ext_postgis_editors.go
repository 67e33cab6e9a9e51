package builtins

import (
	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostGIS 3.3's geometry constructors and editors: ST_Collect in its
// three forms (of two geometries, of an array, and the aggregate, which
// share the name as ST_MakeLine's do; the executor's collectAgg is the
// aggregate), ST_Multi, ST_Expand, ST_MakePolygon, ST_FlipCoordinates,
// ST_Force3D/3DZ/3DM/4D, ST_Reverse, ST_AddPoint, ST_RemovePoint,
// ST_SetPoint and ST_Translate. The shapes are built in package geo
// (editors.go).
func init() {
	tGeom, tBox := sqltypes.TypeGeometry, sqltypes.TypeBox2D
	pGeom, pBox := T(tGeom), T(tBox)
	f8, i4 := T(sqltypes.TypeFloat8), T(sqltypes.TypeInt4)
	fn := func(params []Param, result sqltypes.Type, doc string, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a) }}
	}
	// edit is a function of one geometry that keeps its SRID.
	edit := func(f func(s *gis.Shape, a []sqltypes.Value) (*gis.Shape, error)) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			s, err := f(g.Shape, a)
			if err != nil {
				return sqltypes.Null, err
			}
			return geomV(gis.Geom{SRID: g.SRID, Shape: s}), nil
		}
	}
	pure := func(f func(s *gis.Shape, a []sqltypes.Value) *gis.Shape) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return edit(func(s *gis.Shape, a []sqltypes.Value) (*gis.Shape, error) { return f(s, a), nil })
	}

	// ST_Collect(geometry, geometry) is not strict in PostGIS: of one
	// NULL it is the other geometry as it is.
	Register("st_collect",
		Overload{Params: []Param{pGeom, pGeom}, Result: Returns(tGeom), Volatility: Immutable, CalledOnNull: true,
			Doc: "the multi-geometry or collection of two geometries", Eval: collectPair},
		Overload{Params: []Param{T(sqltypes.ArrayOf(tGeom))}, Result: Returns(tGeom), Volatility: Immutable,
			Doc: "the multi-geometry or collection of an array's geometries", Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return CollectOf(a[0].Array().Elems)
			}})
	RegisterAggregate(&Func{Name: "st_collect", Overloads: []Overload{Sig("the multi-geometry or collection of the rows' geometries", tGeom, tGeom)},
		Type: func(c *Call) (sqltypes.Type, error) {
			if len(c.Args) != 1 || c.Args[0].ID != sqltypes.Geometry && c.Args[0].ID != sqltypes.Unknown {
				return errNoOverload()
			}
			return tGeom, nil
		}})

	Register("st_multi", fn([]Param{pGeom}, tGeom, "the geometry as a multi-geometry", pure(func(s *gis.Shape, _ []sqltypes.Value) *gis.Shape {
		return gis.Multi(s)
	})))

	// ST_Expand: of a geometry by one distance (x, y, and z and m when it
	// has them), by dx and dy, or by dx, dy, dz and dm (z and m only
	// when it has them); of a box2d by one distance or dx and dy.
	expand := pure(func(s *gis.Shape, a []sqltypes.Value) *gis.Shape {
		var d [4]float64
		if len(a) == 2 {
			d = [4]float64{a[1].F, a[1].F, a[1].F, a[1].F}
		} else {
			for i := 1; i < len(a); i++ {
				d[i-1] = a[i].F
			}
		}
		return gis.Expand(s, d)
	})
	expandBox := func(a []sqltypes.Value) (sqltypes.Value, error) {
		b, err := a[0].Box2D()
		if err != nil {
			return sqltypes.Null, err
		}
		dx, dy := a[1].F, a[1].F
		if len(a) > 2 {
			dy = a[2].F
		}
		b = gis.Box{MinX: b.MinX - dx, MinY: b.MinY - dy, MaxX: b.MaxX + dx, MaxY: b.MaxY + dy}
		if b.MinX > b.MaxX || b.MinY > b.MaxY {
			// PostGIS keeps the inside-out box; zproxy's box2d is held
			// as the geometry it casts to, which cannot say it.
			return sqltypes.Null, unsupportedGeo("ST_Expand of a box2d to a box with its minimum past its maximum is not supported")
		}
		return sqltypes.NewBox2D(b), nil
	}
	Register("st_expand",
		fn([]Param{pGeom, f8}, tGeom, "the bounding box grown by a distance in every dimension", expand),
		fn([]Param{pGeom, f8, f8}, tGeom, "the bounding box grown by dx and dy", expand),
		fn([]Param{pGeom, f8, f8, f8}, tGeom, "the bounding box grown by dx, dy and dz", expand),
		fn([]Param{pGeom, f8, f8, f8, f8}, tGeom, "the bounding box grown by dx, dy, dz and dm", expand),
		fn([]Param{pBox, f8}, tBox, "the box grown by a distance", expandBox),
		fn([]Param{pBox, f8, f8}, tBox, "the box grown by dx and dy", expandBox))

	Register("st_makepolygon",
		fn([]Param{pGeom}, tGeom, "the polygon of a closed line string", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return makePolygon(a[0], nil)
		}),
		fn([]Param{pGeom, T(sqltypes.ArrayOf(tGeom))}, tGeom, "the polygon of a closed line string and an array of holes", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return makePolygon(a[0], a[1].Array().Elems)
		}))

	Register("st_flipcoordinates", fn([]Param{pGeom}, tGeom, "the geometry with x and y swapped", pure(func(s *gis.Shape, _ []sqltypes.Value) *gis.Shape {
		return gis.FlipCoordinates(s)
	})))
	Register("st_reverse", fn([]Param{pGeom}, tGeom, "the geometry with its vertices in the opposite order", pure(func(s *gis.Shape, _ []sqltypes.Value) *gis.Shape {
		return gis.Reverse(s)
	})))

	// The ST_Force functions: their fill values default to 0, as PostGIS
	// declares them (one overload an arity here).
	force := func(z, m bool) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return pure(func(s *gis.Shape, a []sqltypes.Value) *gis.Shape {
			var fill [2]float64
			for i := 1; i < len(a); i++ {
				fill[i-1] = a[i].F
			}
			if !z {
				fill[1] = fill[0] // ST_Force3DM's one fill value is m's
			}
			return gis.ForceDims(s, z, m, fill[0], fill[1])
		})
	}
	for _, f := range []struct {
		name, fill string
		z, m       bool
	}{{"st_force3d", "zvalue", true, false}, {"st_force3dz", "zvalue", true, false}, {"st_force3dm", "mvalue", false, true}} {
		Register(f.name,
			fn([]Param{pGeom}, tGeom, "the geometry with exactly x, y and "+f.fill[:1]+", 0 where it lacked it", force(f.z, f.m)),
			fn([]Param{pGeom, f8}, tGeom, "the geometry with exactly x, y and "+f.fill[:1]+", the value given where it lacked it", force(f.z, f.m)))
		paramNames[f.name] = paramInfo{names: []string{"geom", f.fill}, optional: 1}
	}
	Register("st_force4d",
		fn([]Param{pGeom}, tGeom, "the geometry with x, y, z and m, 0 where it lacked one", force(true, true)),
		fn([]Param{pGeom, f8}, tGeom, "the geometry with x, y, z and m, z the value given and m 0 where it lacked them", force(true, true)),
		fn([]Param{pGeom, f8, f8}, tGeom, "the geometry with x, y, z and m, the values given where it lacked them", force(true, true)))
	paramNames["st_force4d"] = paramInfo{names: []string{"geom", "zvalue", "mvalue"}, optional: 2}

	// The point editors take a line string and a point; PostGIS checks
	// neither SRID (the line's is the result's), and the point takes the
	// line's dimensions.
	linePoint := func(a []sqltypes.Value, pointArg int, pointName string) (gis.Geom, *gis.Shape, error) {
		l, err := geomOf(a[0])
		if err != nil {
			return l, nil, err
		}
		if l.Shape.Kind != gis.LineString {
			return l, nil, pgerr.Raised("First argument must be a LINESTRING")
		}
		if pointArg < 0 {
			return l, nil, nil
		}
		p, err := geomOf(a[pointArg])
		if err != nil {
			return l, nil, err
		}
		if p.Shape.Kind != gis.Point {
			return l, nil, pgerr.Raised("%s argument must be a POINT", pointName)
		}
		return l, p.Shape, nil
	}
	addPoint := func(a []sqltypes.Value) (sqltypes.Value, error) {
		l, p, err := linePoint(a, 1, "Second")
		if err != nil {
			return sqltypes.Null, err
		}
		pos := int64(-1)
		if len(a) > 2 {
			pos = a[2].I
		}
		s, err := gis.AddPoint(l.Shape, p, pos)
		if err != nil {
			return sqltypes.Null, err
		}
		return geomV(gis.Geom{SRID: l.SRID, Shape: s}), nil
	}
	Register("st_addpoint",
		fn([]Param{pGeom, pGeom}, tGeom, "the line string with the point appended", addPoint),
		fn([]Param{pGeom, pGeom, i4}, tGeom, "the line string with the point inserted before a vertex (0-based; -1 appends)", addPoint))
	Register("st_removepoint", fn([]Param{pGeom, i4}, tGeom, "the line string without a vertex (0-based)", func(a []sqltypes.Value) (sqltypes.Value, error) {
		l, _, err := linePoint(a, -1, "")
		if err != nil {
			return sqltypes.Null, err
		}
		s, err := gis.RemovePoint(l.Shape, a[1].I)
		if err != nil {
			return sqltypes.Null, err
		}
		return geomV(gis.Geom{SRID: l.SRID, Shape: s}), nil
	}))
	Register("st_setpoint", fn([]Param{pGeom, i4, pGeom}, tGeom, "the line string with a vertex (0-based; negative from the end) replaced by the point", func(a []sqltypes.Value) (sqltypes.Value, error) {
		l, p, err := linePoint(a, 2, "Third")
		if err != nil {
			return sqltypes.Null, err
		}
		s, err := gis.SetPoint(l.Shape, p, a[1].I)
		if err != nil {
			return sqltypes.Null, err
		}
		return geomV(gis.Geom{SRID: l.SRID, Shape: s}), nil
	}))

	translate := pure(func(s *gis.Shape, a []sqltypes.Value) *gis.Shape {
		dz := 0.0
		if len(a) > 3 {
			dz = a[3].F
		}
		return gis.Translate(s, a[1].F, a[2].F, dz)
	})
	Register("st_translate",
		fn([]Param{pGeom, f8, f8}, tGeom, "the geometry moved by dx and dy", translate),
		fn([]Param{pGeom, f8, f8, f8}, tGeom, "the geometry moved by dx, dy and dz", translate))
}

// collectPair is ST_Collect(geometry, geometry): NULL of two NULLs, the
// other geometry of one; else of one SRID and the same dimensions.
func collectPair(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
	switch {
	case a[0].IsNull():
		return a[1], nil
	case a[1].IsNull():
		return a[0], nil
	}
	x, y, err := twoGeoms("LWGEOM_collect", a[0], a[1])
	if err != nil {
		return sqltypes.Null, err
	}
	if x.Shape.Z != y.Shape.Z || x.Shape.M != y.Shape.M {
		return sqltypes.Null, pgerr.Raised("Cannot ST_Collect geometries with differing dimensionality.")
	}
	g, err := gis.Collect([]gis.Geom{x, y})
	if err != nil {
		return sqltypes.Null, err
	}
	return geomV(g), nil
}

// CollectOf is ST_Collect of an array's elements, or of an aggregate's
// rows: the non-NULL ones, of one SRID (PostGIS's message names the first
// geometry of another, its SRID, then the first's) and the first's
// dimensions; NULL when there is none.
func CollectOf(elems []sqltypes.Value) (sqltypes.Value, error) {
	var gs []gis.Geom
	for _, v := range elems {
		if v.IsNull() {
			continue
		}
		g, err := geomOf(v)
		if err != nil {
			return sqltypes.Null, err
		}
		if len(gs) > 0 && g.SRID != gs[0].SRID {
			return sqltypes.Null, pgerr.Raised("LWGEOM_collect_garray: Operation on mixed SRID geometries %s %d != %d", g.Shape.Kind, g.SRID, gs[0].SRID)
		}
		gs = append(gs, g)
	}
	if len(gs) == 0 {
		return sqltypes.Null, nil
	}
	g, err := gis.Collect(gs)
	if err != nil {
		return sqltypes.Null, err
	}
	return geomV(g), nil
}

// makePolygon is ST_MakePolygon: PostGIS checks the kinds of the shell
// and then of every hole (a NULL hole is not a line either) before
// anything else.
func makePolygon(shellV sqltypes.Value, holeVs []sqltypes.Value) (sqltypes.Value, error) {
	shell, err := geomOf(shellV)
	if err != nil {
		return sqltypes.Null, err
	}
	if shell.Shape.Kind != gis.LineString {
		return sqltypes.Null, pgerr.Raised("Shell is not a line")
	}
	holes := make([]gis.Geom, 0, len(holeVs))
	for i, v := range holeVs {
		var h gis.Geom
		if !v.IsNull() {
			if h, err = geomOf(v); err != nil {
				return sqltypes.Null, err
			}
		}
		if v.IsNull() || h.Shape.Kind != gis.LineString {
			return sqltypes.Null, pgerr.Raised("Hole %d is not a line", i)
		}
		holes = append(holes, h)
	}
	g, err := gis.MakePolygon(shell, holes)
	if err != nil {
		return sqltypes.Null, err
	}
	return geomV(g), nil
}
