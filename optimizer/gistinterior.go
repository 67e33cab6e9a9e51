package optimizer

import (
	"math"

	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Spatial filters inside the cells they hold. A gist index over points is
// a Z-order index over their x and y (gistbounds.go), read in aligned
// cells; a filter such as ST_Within(geom, polygon) is the residual test of
// every entry the box around the polygon reads. Where the polygon's
// interior holds a whole cell, every entry in it passes, and the executor
// admits them without the test (zorder.InteriorScan): a point-in-polygon
// count then tests the points of the cells the polygon's edge cuts, not
// all of them.

// Interior is what a Z-order scan of a gist index over points knows of the
// spatial conjuncts of its residual filter: the region they all hold
// within, as a test of boxes of coordinates, and the filter's other
// conjuncts, which the entries inside it must still pass.
type Interior struct {
	// X and Y are the Z-order attributes of the point's coordinates.
	X, Y int
	// Holds reports whether every conjunct taken holds of every point of
	// the closed box; it holds every sub-box of a box it holds.
	Holds func(minX, minY, maxX, maxY float64) bool
	// Misses reports whether some conjunct taken holds of no point of the
	// closed box, so that no entry there passes the filter; it misses
	// every sub-box of a box it misses.
	Misses func(minX, minY, maxX, maxY float64) bool
	// Rest is the residual without the conjuncts taken (nil: none left).
	Rest ir.Expr
}

// Interior returns the spatial conjuncts of n's residual filter, as it
// is bound for this execution (its parameters computed), that a region of
// the point column holds: ok false when there are none, or n is not a
// Z-order scan of a gist index over a geometry(Point) column with an SRID.
//
// A conjunct is taken when it compares the column with a constant of the
// column's SRID (so that no row's test would have raised PostGIS's SRID
// mismatch) as one of:
//   - ST_Within(col, area), ST_Intersects(col, area) or either way round
//     ST_Contains(area, col), ST_Covers(area, col), ST_Intersects(area,
//     col): held where the area's interior holds the box;
//   - ST_DWithin(col, g, d), either way round, d >= 0: held where g is an
//     area holding the box, or g is a point no farther than d, less a
//     rounding margin, from the box's farthest corner.
func (n *Scan) Interior(residual ir.Expr, ctx *ir.EvalContext) (in Interior, ok bool) {
	if residual == nil || n.ZSchema == nil || n.Index == nil || n.Index.Gist == nil || n.ZSchema.Dims() != 2 {
		return in, false
	}
	g := n.Index.Gist
	if g.XZ != nil || g.Geography || g.Ordered() {
		return in, false
	}
	typ := n.Table.Columns[g.Column].Type
	if typ.ID != sqltypes.Geometry {
		return in, false
	}
	kind, srid, _, _ := typ.GeomTypmodParts()
	if kind != gis.Point || srid == 0 {
		return in, false
	}
	var holds, misses []boxTest
	var rest []ir.Expr
	for _, c := range ir.Conjuncts(residual) {
		if h, m := interiorTest(c, g.Column, srid, ctx); h != nil {
			holds, misses = append(holds, h), append(misses, m)
		} else {
			rest = append(rest, c)
		}
	}
	if len(holds) == 0 {
		return in, false
	}
	in = Interior{X: 0, Y: 1, Rest: andAll(rest)}
	in.Holds = func(minX, minY, maxX, maxY float64) bool {
		for _, h := range holds {
			if !h(minX, minY, maxX, maxY) {
				return false
			}
		}
		return true
	}
	in.Misses = func(minX, minY, maxX, maxY float64) bool {
		for _, m := range misses {
			if m(minX, minY, maxX, maxY) {
				return true
			}
		}
		return false
	}
	return in, true
}

// boxTest is a test of the closed box of coordinates (minX, minY, maxX,
// maxY).
type boxTest = func(minX, minY, maxX, maxY float64) bool

// interiorTest is the box tests of conjunct c (Interior): whether it holds
// of every point of a box, and whether of none; nil and nil when c is not
// one of those taken.
func interiorTest(c ir.Expr, col int, srid int32, ctx *ir.EvalContext) (holds, misses boxTest) {
	f, ok := c.(*ir.Func)
	if !ok || f.Routine || len(f.Args) < 2 {
		return nil, nil // (a user's function of the same name decides for itself)
	}
	colFirst := false
	var other ir.Expr
	for i := range 2 {
		if ref, isCol := columnOperand(f.Args[i]); isCol && ref.Index == col && ir.IsStatementConstant(f.Args[1-i]) {
			colFirst, other = i == 0, f.Args[1-i]
			break
		}
	}
	if other == nil {
		return nil, nil
	}
	v, err := other.Eval(ctx, nil)
	if err != nil || v.K != sqltypes.KindGeometry || v.IsGeography() {
		return nil, nil
	}
	geom, err := v.Geom()
	if err != nil || geom.SRID != srid {
		return nil, nil
	}
	p := gis.Prepare(geom)
	area := func(minX, minY, maxX, maxY float64) bool {
		return p.HoldsBox(gis.Box{MinX: minX, MinY: minY, MaxX: maxX, MaxY: maxY})
	}
	outside := func(minX, minY, maxX, maxY float64) bool {
		return p.MissesBox(gis.Box{MinX: minX, MinY: minY, MaxX: maxX, MaxY: maxY})
	}
	never := func(minX, minY, maxX, maxY float64) bool { return false }
	switch {
	case len(f.Args) == 2 && (f.Name == "st_intersects" ||
		colFirst && f.Name == "st_within" ||
		!colFirst && (f.Name == "st_contains" || f.Name == "st_covers")):
		return area, outside
	case len(f.Args) == 3 && f.Name == "st_dwithin" && ir.IsStatementConstant(f.Args[2]):
		dv, err := f.Args[2].Eval(ctx, nil)
		if err != nil || dv.IsNull() {
			return nil, nil
		}
		d := dv.AsFloat()
		if !(d >= 0) || math.IsInf(d, 1) {
			return nil, nil // a negative tolerance is the filter's error to raise
		}
		if geom.Shape.Kind != gis.Point || len(geom.Shape.Coords) < 2 {
			return area, never // (a point near an area's edge is within d)
		}
		cx, cy := geom.Shape.Coords[0], geom.Shape.Coords[1]
		// The filter computes sqrt(dx² + dy²) <= d for each point; the
		// box's farthest corner bounds every point's dx and dy from
		// above, its nearest point from below, and the margins cover
		// that computation's rounding.
		reach, beyond := d*(1-1e-12), d*(1+1e-12)
		return func(minX, minY, maxX, maxY float64) bool {
				dx := math.Max(math.Abs(minX-cx), math.Abs(maxX-cx))
				dy := math.Max(math.Abs(minY-cy), math.Abs(maxY-cy))
				return gis.PointDistance(0, 0, dx, dy) <= reach // NaN and Inf fail
			}, func(minX, minY, maxX, maxY float64) bool {
				dx := math.Max(0, math.Max(minX-cx, cx-maxX))
				dy := math.Max(0, math.Max(minY-cy, cy-maxY))
				return gis.PointDistance(0, 0, dx, dy) > beyond // NaN fails
			}
	}
	return nil, nil
}
