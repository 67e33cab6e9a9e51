package builtins

import (
	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// ST_MakeLine in its three forms, as PostGIS 3.3 has them: of two
// geometries (LWGEOM_makeline), of an array (LWGEOM_makeline_garray), and
// the aggregate (pgis_geometry_makeline_finalfn, which makes the array of
// its rows and calls the array form; the executor's makeLineAgg), and the
// n-dimensional bounding-box operator &&& that GeoTools' BBOX3D filter
// sends with it.
func init() {
	tGeom := sqltypes.TypeGeometry
	Register("st_makeline",
		Overload{Params: []Param{T(tGeom), T(tGeom)}, Result: Returns(tGeom), Volatility: Immutable,
			Doc: "the line string through two points or lines", Eval: makeLinePair},
		Overload{Params: []Param{T(sqltypes.ArrayOf(tGeom))}, Result: Returns(tGeom), Volatility: Immutable,
			Doc: "the line string through an array's points, multipoints and lines", Eval: func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				return MakeLineOf(ctx, a[0].Array().Elems)
			}})
	RegisterAggregate(&Func{Name: "st_makeline", Overloads: []Overload{Sig("the line string through the rows' points, multipoints and lines, in order", tGeom, tGeom)},
		Type: func(c *Call) (sqltypes.Type, error) {
			if len(c.Args) != 1 || c.Args[0].ID != sqltypes.Geometry && c.Args[0].ID != sqltypes.Unknown {
				return errNoOverload()
			}
			return tGeom, nil
		}})
	RegisterOperator("&&&", binop(tGeom, tGeom, sqltypes.TypeBool, Immutable, func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) {
		x, err := geomOf(a)
		if err != nil {
			return sqltypes.Null, err
		}
		y, err := geomOf(b)
		if err != nil {
			return sqltypes.Null, err
		}
		// No SRID check, as PostGIS's gserialized_overlaps has none; an
		// empty geometry's box meets nothing.
		bx, ok1 := x.Shape.BoundsND()
		by, ok2 := y.Shape.BoundsND()
		return sqltypes.NewBool(ok1 && ok2 && bx.OverlapsND(by)), nil
	}))
}

// makeLinePair is ST_MakeLine(geometry, geometry): points and line
// strings only, of one SRID.
func makeLinePair(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
	gs := make([]gis.Geom, 2)
	for i, v := range a {
		g, err := geomOf(v)
		if err != nil {
			return sqltypes.Null, err
		}
		if k := g.Shape.Kind; k != gis.Point && k != gis.LineString {
			return sqltypes.Null, pgerr.Raised("Input geometries must be points or lines")
		}
		gs[i] = g
	}
	if err := gis.CheckSameSRID("LWGEOM_makeline", gs[0], gs[1]); err != nil {
		return sqltypes.Null, err
	}
	return makeLine(gs)
}

// MakeLineOf is ST_MakeLine of an array's elements, or of an aggregate's
// rows: the points, multipoints and line strings among them, in order,
// the NULLs and other kinds skipped; of one SRID (PostGIS's message
// names the first geometry of another, its SRID, then the first's).
// With none, it sends PostGIS's notice and is NULL; of no elements at
// all, NULL.
func MakeLineOf(ctx *Context, elems []sqltypes.Value) (sqltypes.Value, error) {
	if len(elems) == 0 {
		return sqltypes.Null, nil
	}
	var gs []gis.Geom
	for _, v := range elems {
		if v.IsNull() {
			continue
		}
		g, err := geomOf(v)
		if err != nil {
			return sqltypes.Null, err
		}
		if k := g.Shape.Kind; k != gis.Point && k != gis.LineString && k != gis.MultiPoint {
			continue
		}
		if len(gs) > 0 && g.SRID != gs[0].SRID {
			return sqltypes.Null, pgerr.Raised("LWGEOM_makeline_garray: Operation on mixed SRID geometries %s %d != %d", g.Shape.Kind, g.SRID, gs[0].SRID)
		}
		gs = append(gs, g)
	}
	if len(gs) == 0 {
		ctx.Notice(pgerr.Notice("No points or linestrings in input array"))
		return sqltypes.Null, nil
	}
	return makeLine(gs)
}

func makeLine(gs []gis.Geom) (sqltypes.Value, error) {
	g, err := gis.MakeLine(gs)
	if err != nil {
		return sqltypes.Null, err
	}
	return geomV(g), nil
}
