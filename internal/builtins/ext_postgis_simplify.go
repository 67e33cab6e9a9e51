package builtins

import (
	"errors"

	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostGIS's vertex-reducing functions and Tiny WKB output: ST_Simplify,
// ST_RemoveRepeatedPoints, ST_SnapToGrid and ST_AsTWKB, as PostGIS 3.3
// computes them (the algorithms are in package geo: simplify.go,
// grid.go, twkb.go) and ST_SimplifyPreserveTopology, GEOS's
// TopologyPreservingSimplifier (simplify_topology.go).

func init() {
	tGeom := sqltypes.TypeGeometry
	pGeom := T(tGeom)
	f8, i4, boolean := T(sqltypes.TypeFloat8), T(sqltypes.TypeInt4), T(sqltypes.TypeBool)
	fn := func(params []Param, result sqltypes.Type, doc string, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
		return Overload{Params: params, Result: Returns(result), Volatility: Immutable, Doc: doc,
			Eval: func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(a) }}
	}

	// ST_Simplify: points and multi-points, and anything left unchanged,
	// come back as they went in; a result with nothing left is NULL.
	simplify := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		if k := g.Shape.Kind; k == gis.Point || k == gis.MultiPoint {
			return a[0], nil
		}
		preserve := len(a) > 2 && a[2].Bool()
		out, modified := gis.Simplify(g.Shape, a[1].F, preserve)
		if !modified {
			return a[0], nil
		}
		if out.IsEmpty() {
			return sqltypes.Null, nil
		}
		return geomV(gis.Geom{SRID: g.SRID, Shape: out}), nil
	}
	Register("st_simplify",
		fn([]Param{pGeom, f8}, tGeom, "the geometry simplified by Douglas-Peucker within the tolerance", simplify),
		fn([]Param{pGeom, f8, boolean}, tGeom, "the geometry simplified by Douglas-Peucker, collapsed lines and outer rings kept at their minimum when asked", simplify))

	// ST_SimplifyPreserveTopology: an empty geometry comes back as it
	// went in; anything else goes through GEOS in PostGIS, which keeps Z,
	// drops M and builds a multi-geometry of one part as that part.
	Register("st_simplifypreservetopology",
		fn([]Param{pGeom, f8}, tGeom, "the geometry simplified by Douglas-Peucker without changing its topology (GEOS's TopologyPreservingSimplifier)", func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			if g.Shape.IsEmpty() {
				return a[0], nil
			}
			if a[1].F < 0 {
				return sqltypes.Null, pgerr.Raised("GEOSTopologyPreserveSimplify: IllegalArgumentException: Tolerance must be non-negative")
			}
			return geomV(gis.Geom{SRID: g.SRID, Shape: gis.SimplifyPreserveTopology(g.Shape, a[1].F)}), nil
		}))

	removeRepeated := func(a []sqltypes.Value) (sqltypes.Value, error) {
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		if g.Shape.Kind == gis.Point {
			return a[0], nil
		}
		tol := 0.0
		if len(a) > 1 {
			tol = a[1].F
		}
		out, modified, err := gis.RemoveRepeatedPoints(g.Shape, tol)
		if errors.Is(err, gis.ErrMultiPointEmptyMember) {
			return sqltypes.Null, unsupportedGeo("ST_RemoveRepeatedPoints of %s is not supported", err.Error())
		}
		if err != nil {
			return sqltypes.Null, err
		}
		if !modified {
			return a[0], nil
		}
		return geomV(gis.Geom{SRID: g.SRID, Shape: out}), nil
	}
	Register("st_removerepeatedpoints",
		fn([]Param{pGeom}, tGeom, "the geometry without consecutive repeated vertices", removeRepeated),
		fn([]Param{pGeom, f8}, tGeom, "the geometry without consecutive vertices within the tolerance", removeRepeated))

	snapToGrid := func(grid func(a []sqltypes.Value) (gis.Grid, error)) func(a []sqltypes.Value) (sqltypes.Value, error) {
		return func(a []sqltypes.Value) (sqltypes.Value, error) {
			g, err := geomOf(a[0])
			if err != nil {
				return sqltypes.Null, err
			}
			if g.Shape.IsEmpty() {
				return a[0], nil
			}
			gr, err := grid(a)
			if err != nil {
				return sqltypes.Null, err
			}
			if gr.Meaningless() {
				return a[0], nil
			}
			return geomV(gis.Geom{SRID: g.SRID, Shape: gis.SnapToGrid(g.Shape, gr)}), nil
		}
	}
	Register("st_snaptogrid",
		fn([]Param{pGeom, f8}, tGeom, "the geometry's vertices snapped to a grid of the cell size", snapToGrid(func(a []sqltypes.Value) (gis.Grid, error) {
			return gis.Grid{SizeX: a[1].F, SizeY: a[1].F}, nil
		})),
		fn([]Param{pGeom, f8, f8}, tGeom, "the geometry's vertices snapped to a grid of the cell sizes in x and y", snapToGrid(func(a []sqltypes.Value) (gis.Grid, error) {
			return gis.Grid{SizeX: a[1].F, SizeY: a[2].F}, nil
		})),
		fn([]Param{pGeom, f8, f8, f8, f8}, tGeom, "the geometry's vertices snapped to a grid of the origin and cell sizes", snapToGrid(func(a []sqltypes.Value) (gis.Grid, error) {
			return gis.Grid{IPX: a[1].F, IPY: a[2].F, SizeX: a[3].F, SizeY: a[4].F}, nil
		})),
		fn([]Param{pGeom, pGeom, f8, f8, f8, f8}, tGeom, "the geometry's vertices snapped to a grid of the point's origin and the x, y, z and m cell sizes", snapToGrid(func(a []sqltypes.Value) (gis.Grid, error) {
			o, err := geomOf(a[1])
			if err != nil {
				return gis.Grid{}, err
			}
			if o.Shape.Kind != gis.Point {
				return gis.Grid{}, pgerr.Raised("Offset geometry must be a point")
			}
			gr := gis.Grid{SizeX: a[2].F, SizeY: a[3].F, SizeZ: a[4].F, SizeM: a[5].F}
			if c := o.Shape.Coords; len(c) >= 2 {
				gr.IPX, gr.IPY = c[0], c[1]
				if o.Shape.Z {
					gr.IPZ = c[2]
				}
				if o.Shape.M {
					gr.IPM = c[len(c)-1]
				}
			} else {
				return gis.Grid{}, unsupportedGeo("ST_SnapToGrid with an empty offset point is not supported")
			}
			return gr, nil
		})))

	// ST_AsTWKB is not strict in PostGIS (its optional arguments default
	// to NULL): a NULL geometry is NULL, another NULL argument its default.
	asTWKB := func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		if a[0].IsNull() {
			return sqltypes.Null, nil
		}
		g, err := geomOf(a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		var prec [3]int64
		switch g.SRID {
		case 0, 3857:
		case 4326:
			prec[0] = 5
		default:
			return sqltypes.Null, pgerr.Raised("Cannot find SRID (%d) in spatial_ref_sys", g.SRID)
		}
		for i := 1; i <= 3 && i < len(a); i++ {
			if !a[i].IsNull() {
				prec[i-1] = a[i].I
			}
		}
		var variant uint8
		if len(a) > 4 && !a[4].IsNull() && a[4].Bool() {
			variant |= gis.TWKBSize
		}
		if len(a) > 5 && !a[5].IsNull() && a[5].Bool() {
			variant |= gis.TWKBBBox
		}
		b, err := gis.AppendTWKB(nil, g.Shape, variant, prec[0], prec[1], prec[2])
		var pe *gis.TWKBPrecisionError
		if errors.As(err, &pe) {
			return sqltypes.Null, pgerr.Raised("%s", pe.Msg)
		}
		if err != nil {
			return sqltypes.Null, err
		}
		return sqltypes.NewBytes(b), nil
	}
	twkbParams := []Param{pGeom, i4, i4, i4, boolean, boolean}
	docs := []string{"the Tiny WKB", "the Tiny WKB, to so many decimals", "the Tiny WKB, xy and z decimals",
		"the Tiny WKB, xy, z and m decimals", "the Tiny WKB, with sizes", "the Tiny WKB, with sizes and bounding boxes"}
	var ovs []Overload
	for n := 1; n <= len(twkbParams); n++ {
		ovs = append(ovs, Overload{Params: twkbParams[:n], Result: Returns(sqltypes.TypeBytea), Volatility: Immutable,
			CalledOnNull: true, Doc: docs[n-1], Eval: asTWKB})
	}
	Register("st_astwkb", ovs...)
}
