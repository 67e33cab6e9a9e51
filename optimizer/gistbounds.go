package optimizer

import (
	"math"

	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/zorder"
)

// Spatial predicates on a gist index's column. The index is a Z-order
// index over the column's x and y (catalog.GistKey), and the access-path
// rules reason about bounds on those two expressions; a predicate such as
// p <@ box '((0,0),(1,1))' bounds neither as written. gistConjuncts
// derives from each such conjunct the box it confines the point to, as
// conjuncts on x and y that it implies: the index view (indexexpr.go) adds
// them to the scan's conjuncts, so the rules see a Z-order box, while the
// spatial conjunct itself stays the residual check.

// geoEpsilon is PostgreSQL's EPSILON (geo_decls.h): its fuzzy comparisons
// (~=, polygon and circle containment, the positional operators) admit
// points this far past the exact bound.
const geoEpsilon = 1e-6

// gistBound is what one spatial conjunct implies of the index's x and y:
// bounds on them, and whether they are the conjunct itself on every row
// the index holds (exact), so that a box enforcing them exactly leaves
// nothing to check again.
type gistBound struct {
	conjunct int // its index in the conjuncts
	bounds   []ir.Expr
	exact    bool
}

// gistConjuncts returns, for each conjunct of conj that relates column col
// to a constant, the conjuncts over x and y (the index's key expressions
// over the table row) it implies.
func gistConjuncts(conj []ir.Expr, col int, x, y ir.Expr, geog bool, ctx *ir.EvalContext) []gistBound {
	var out []gistBound
	for i, c := range conj {
		f, ok := c.(*ir.Func)
		if !ok {
			continue
		}
		var lo, hi sqltypes.Point
		exact := false
		switch {
		case geog:
			// Longitude and latitude: only ST_DWithin in metres bounds them.
			if lo, hi, ok = geographyBox(f, col, ctx); !ok {
				continue
			}
		case len(f.Args) == 2:
			op, other, ok := gistOperand(f, col)
			if !ok {
				continue
			}
			v, err := other.Eval(ctx, nil)
			if err != nil || v.IsNull() {
				continue
			}
			switch v.K {
			case sqltypes.KindGeo:
				lo, hi, ok = gistBox(op, v)
			case sqltypes.KindGeometry:
				if op == "&&" {
					lo, hi, ok = overlapBox(v)
					exact = ok
				} else {
					lo, hi, ok = geometryBox(op, v, 0)
				}
			}
			if !ok {
				continue
			}
		case f.Name == "st_dwithin" && len(f.Args) == 3 && ir.IsStatementConstant(f.Args[2]):
			_, other, ok := gistOperand(&ir.Func{Name: f.Name, Args: f.Args[:2]}, col)
			if !ok {
				continue
			}
			v, err := other.Eval(ctx, nil)
			d, derr := f.Args[2].Eval(ctx, nil)
			if err != nil || derr != nil || v.K != sqltypes.KindGeometry || d.IsNull() {
				continue
			}
			if lo, hi, ok = geometryBox(f.Name, v, d.AsFloat()); !ok {
				continue
			}
		default:
			continue
		}
		g := gistBound{conjunct: i, exact: exact}
		bound := func(e ir.Expr, bop ir.BinOp, at float64) {
			if math.IsInf(at, 0) || math.IsNaN(at) {
				g.exact = false // the box no longer excludes an infinite or NaN coordinate
				return
			}
			g.bounds = append(g.bounds, &ir.Binary{Op: bop, L: e, R: &ir.Const{V: sqltypes.NewFloat(at), Typ: sqltypes.TypeFloat8}, Typ: sqltypes.TypeBool})
		}
		bound(x, ir.OpGe, lo.X)
		bound(x, ir.OpLe, hi.X)
		bound(y, ir.OpGe, lo.Y)
		bound(y, ir.OpLe, hi.Y)
		if len(g.bounds) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// overlapBox is the box of the points p for which p && v holds, exactly.
// PostGIS decides && on float4 boxes rounded outward (geo.Box.Float4, as
// the operator does): p's box [down(x), up(x)] meets v's [m, M] when down(x) <= M
// and m <= up(x), that is when x is below the float4 after M and above the
// float4 before m; the bounds returned are the float8s just inside those
// two, so that the closed box holds the same points.
func overlapBox(v sqltypes.Value) (lo, hi sqltypes.Point, ok bool) {
	g, err := v.Geom()
	if err != nil {
		return lo, hi, false
	}
	b, ok := g.Shape.Bounds()
	if !ok {
		return lo, hi, false
	}
	// An infinite side bounds nothing: returned as such, the bound is
	// dropped and the conjunct stays the check.
	below := func(m float64) float64 { // the least x with m <= up(x)
		f := gis.Float4Down(m)
		if math.IsInf(float64(f), 0) {
			return float64(f)
		}
		return math.Nextafter(float64(math.Nextafter32(f, float32(math.Inf(-1)))), math.Inf(1))
	}
	above := func(m float64) float64 { // the greatest x with down(x) <= M
		f := gis.Float4Up(m)
		if math.IsInf(float64(f), 0) {
			return float64(f)
		}
		return math.Nextafter(float64(math.Nextafter32(f, float32(math.Inf(1)))), math.Inf(-1))
	}
	return sqltypes.Point{X: below(b.MinX), Y: below(b.MinY)}, sqltypes.Point{X: above(b.MaxX), Y: above(b.MaxY)}, true
}

// gistOperand recognises f as column col compared with a constant and
// returns the operator as if the column were on its left (box @> p is
// p <@ box).
func gistOperand(f *ir.Func, col int) (op string, other ir.Expr, ok bool) {
	if f.Routine {
		return "", nil, false // a user's function of the same name bounds nothing
	}
	mirror := map[string]string{"<@": "@>", "@>": "<@", "<<": ">>", ">>": "<<", "<^": ">^", ">^": "<^", "~=": "~=",
		// PostGIS's: for a point, each confines it to the other's box
		// whichever side it is on (a shape within a point is that point).
		"&&": "&&", "st_intersects": "st_intersects", "st_within": "st_within", "st_contains": "st_contains",
		"st_covers": "st_covers", "st_dwithin": "st_dwithin"}
	for i, a := range f.Args {
		ref, isCol := columnOperand(a)
		if !isCol || ref.Index != col || !ir.IsStatementConstant(f.Args[1-i]) {
			continue
		}
		op := f.Name
		if i == 1 {
			if op, ok = mirror[op]; !ok {
				return "", nil, false
			}
		}
		return op, f.Args[1-i], true
	}
	return "", nil, false
}

// gistBox is the box that "point op v" confines the point to, or ok false
// for a predicate that confines it to none.
func gistBox(op string, v sqltypes.Value) (lo, hi sqltypes.Point, ok bool) {
	inf := math.Inf(1)
	// fuzzy widens an exact box by PostgreSQL's tolerance, and by a few
	// ulps of its coordinates for the rounding of computed corners.
	fuzzy := func(lo, hi sqltypes.Point) (sqltypes.Point, sqltypes.Point, bool) {
		w := func(a float64) float64 { return geoEpsilon + math.Abs(a)*1e-12 }
		return sqltypes.Point{X: lo.X - w(lo.X), Y: lo.Y - w(lo.Y)}, sqltypes.Point{X: hi.X + w(hi.X), Y: hi.Y + w(hi.Y)}, true
	}
	switch op {
	case "<@":
		switch g := v.X.(type) {
		case sqltypes.Box:
			return g.Low, g.High, true // box_contain_point is exact
		case sqltypes.Polygon:
			return fuzzy(g.Bound.Low, g.Bound.High)
		case sqltypes.Circle:
			c, r := g.Center, g.Radius
			if math.IsNaN(r) {
				return lo, hi, false
			}
			return fuzzy(sqltypes.Point{X: c.X - r, Y: c.Y - r}, sqltypes.Point{X: c.X + r, Y: c.Y + r})
		}
	case "~=":
		if p, isPoint := v.X.(sqltypes.Point); isPoint {
			return fuzzy(p, p)
		}
	case "<<", ">>", "<^", ">^":
		p, isPoint := v.X.(sqltypes.Point)
		if !isPoint {
			return lo, hi, false
		}
		lo, hi = sqltypes.Point{X: -inf, Y: -inf}, sqltypes.Point{X: inf, Y: inf}
		switch op {
		case "<<": // left of: x < p.x
			hi.X = p.X
		case ">>":
			lo.X = p.X
		case "<^": // below: y < p.y
			hi.Y = p.Y
		case ">^":
			lo.Y = p.Y
		}
		return lo, hi, true
	}
	return lo, hi, false
}

// geometryBox is the box that a PostGIS predicate between a point column
// and the constant geometry v confines the point to: v's bounding box,
// grown by d for ST_DWithin, and by a float4's rounding for &&, which
// PostGIS decides on float4 boxes.
func geometryBox(op string, v sqltypes.Value, d float64) (lo, hi sqltypes.Point, ok bool) {
	switch op {
	case "&&", "st_intersects", "st_within", "st_contains", "st_covers", "st_dwithin":
	default:
		return lo, hi, false
	}
	g, err := v.Geom()
	if err != nil {
		return lo, hi, false
	}
	b, ok := g.Shape.Bounds()
	if !ok || math.IsNaN(d) || d < 0 {
		return lo, hi, false
	}
	// A float4 has 24 bits of mantissa: widen by more than its rounding,
	// and by a few ulps for the arithmetic of d.
	w := func(a float64) float64 { return d + math.Abs(a)*1e-6 + 1e-9 }
	return sqltypes.Point{X: b.MinX - w(b.MinX), Y: b.MinY - w(b.MinY)}, sqltypes.Point{X: b.MaxX + w(b.MaxX), Y: b.MaxY + w(b.MaxY)}, true
}

// xzConjuncts returns, for each spatial conjunct of conj relating column
// col (indexed by XZ-ordering: catalog.GistKey.XZ) to a constant, the
// conjunct that key, the index's XZ2 code expression, lies in the code
// ranges of the box every geometry satisfying it meets (the constant's
// box, grown as geometryBox grows it): a disjunction of ranges, which the
// rules read as one key range each. Every predicate served (&&,
// ST_Intersects, ST_Within, ST_Contains, ST_Covers, ST_DWithin) holds only
// of geometries whose boxes meet that box, whichever side the column is
// on; the conjunct itself stays the residual check.
func xzConjuncts(conj []ir.Expr, col int, key ir.Expr, s zorder.XZ2, budget int, ctx *ir.EvalContext) []ir.Expr {
	var out []ir.Expr
	for _, c := range conj {
		lo, hi, ok := xzBox(c, col, ctx)
		if !ok {
			continue
		}
		var terms []ir.Expr
		code := func(v int64) ir.Expr { return &ir.Const{V: sqltypes.NewInt(v), Typ: sqltypes.TypeInt8} }
		cmp := func(op ir.BinOp, v int64) ir.Expr {
			return &ir.Binary{Op: op, L: key, R: code(v), Typ: sqltypes.TypeBool}
		}
		for _, r := range s.Ranges(lo.X, lo.Y, hi.X, hi.Y, budget) {
			if r.Hi == r.Lo+1 {
				terms = append(terms, cmp(ir.OpEq, r.Lo))
				continue
			}
			terms = append(terms, &ir.Binary{Op: ir.OpAnd, L: cmp(ir.OpGe, r.Lo), R: cmp(ir.OpLt, r.Hi), Typ: sqltypes.TypeBool})
		}
		out = append(out, anyOf(terms))
	}
	return out
}

// xzBox is the box a geometry in column col meets when conjunct c holds,
// for a PostGIS predicate between the column and a constant.
func xzBox(c ir.Expr, col int, ctx *ir.EvalContext) (lo, hi sqltypes.Point, ok bool) {
	f, isFunc := c.(*ir.Func)
	if !isFunc {
		return lo, hi, false
	}
	d := 0.0
	args := f.Args
	switch {
	case len(args) == 2:
	case f.Name == "st_dwithin" && len(args) == 3 && ir.IsStatementConstant(args[2]):
		dv, err := args[2].Eval(ctx, nil)
		if err != nil || dv.IsNull() {
			return lo, hi, false
		}
		d, args = dv.AsFloat(), args[:2]
	default:
		return lo, hi, false
	}
	op, other, ok := gistOperand(&ir.Func{Name: f.Name, Args: args}, col)
	if !ok {
		return lo, hi, false
	}
	v, err := other.Eval(ctx, nil)
	switch {
	case err != nil || v.IsNull():
		return lo, hi, false
	case v.K == sqltypes.KindGeo && len(args) == 2:
		return shapeBox(op, v)
	case v.K != sqltypes.KindGeometry:
		return lo, hi, false
	}
	return geometryBox(op, v, d)
}

// shapeBox is the box that a box, polygon or circle column meets when it
// overlaps, contains, is contained by or is the same as (&&, @>, <@, ~=)
// the constant shape v: v's bounding box grown by PostgreSQL's fuzzy
// tolerance, twice, and by a few ulps of its coordinates.
func shapeBox(op string, v sqltypes.Value) (lo, hi sqltypes.Point, ok bool) {
	switch op {
	case "&&", "@>", "<@", "~=":
	default:
		return lo, hi, false
	}
	switch g := v.X.(type) {
	case sqltypes.Box:
		lo, hi = g.Low, g.High
	case sqltypes.Polygon:
		lo, hi = g.Bound.Low, g.Bound.High
	case sqltypes.Circle:
		r := g.Radius
		if math.IsNaN(r) {
			return lo, hi, false
		}
		lo, hi = sqltypes.Point{X: g.Center.X - r, Y: g.Center.Y - r}, sqltypes.Point{X: g.Center.X + r, Y: g.Center.Y + r}
	case sqltypes.Point:
		lo, hi = g, g
	default:
		return lo, hi, false
	}
	w := func(a float64) float64 { return 2*geoEpsilon + math.Abs(a)*1e-9 }
	return sqltypes.Point{X: lo.X - w(lo.X), Y: lo.Y - w(lo.Y)}, sqltypes.Point{X: hi.X + w(hi.X), Y: hi.Y + w(hi.Y)}, true
}

// anyOf is the disjunction of terms as a balanced tree: a chain hundreds
// deep would make every walk that keys its subexpressions (ir.ExprKey)
// quadratic.
func anyOf(terms []ir.Expr) ir.Expr {
	if len(terms) == 1 {
		return terms[0]
	}
	m := len(terms) / 2
	return &ir.Binary{Op: ir.OpOr, L: anyOf(terms[:m]), R: anyOf(terms[m:]), Typ: sqltypes.TypeBool}
}

// spatialBoxes returns the bounds on x and y that the spatial conjuncts of
// conj relating column col to a constant imply, over placeholder x and y
// expressions: none when no conjunct confines the column to a box (the
// index advisor asks whether a gist index would serve a read).
func spatialBoxes(conj []ir.Expr, col int, ctx *ir.EvalContext) []ir.Expr {
	x := &ir.Const{V: sqltypes.Null, Typ: sqltypes.TypeFloat8}
	var out []ir.Expr
	for _, g := range gistConjuncts(conj, col, x, x, false, ctx) {
		out = append(out, g.bounds...)
	}
	return out
}

// minEarthRadius is below every radius of curvature of WGS84's ellipsoid
// (the meridional radius at the equator is 6,335,439 m) and the sphere's
// 6,371,008.8 m: an arc of d metres on either subtends at most
// d/minEarthRadius radians.
const minEarthRadius = 6_335_000.0

// geographyBox is the longitude/latitude box (degrees) holding every point
// within the distance of ST_DWithin(col, constant, metres[, spheroid]) of
// the constant geography point: the spherical cap of angular radius
// d/minEarthRadius (grown by a part in 10⁶ for the spheroid's flattening
// and the floats), whose latitudes span ±the radius and longitudes
// ±asin(sin r / cos lat); a cap reaching a pole or across the antimeridian
// takes every longitude. ok is false for any other conjunct.
func geographyBox(f *ir.Func, col int, ctx *ir.EvalContext) (lo, hi sqltypes.Point, ok bool) {
	if f.Name != "st_dwithin" || len(f.Args) < 3 || len(f.Args) > 4 {
		return lo, hi, false
	}
	for _, a := range f.Args[2:] {
		if !ir.IsStatementConstant(a) {
			return lo, hi, false
		}
	}
	_, other, ok := gistOperand(&ir.Func{Name: f.Name, Args: f.Args[:2]}, col)
	if !ok {
		return lo, hi, false
	}
	v, err := other.Eval(ctx, nil)
	dv, derr := f.Args[2].Eval(ctx, nil)
	if err != nil || derr != nil || v.IsNull() || dv.IsNull() || !v.IsGeography() {
		return lo, hi, false
	}
	g, err := v.Geom()
	if err != nil {
		return lo, hi, false
	}
	lon, lat, isPoint := g.PointXY()
	d := dv.AsFloat()
	if !isPoint || math.IsNaN(d) || d < 0 || math.IsNaN(lon) || math.IsNaN(lat) {
		return lo, hi, false
	}
	r := d/minEarthRadius*(1+1e-6) + 1e-12 // radians
	deg := r * 180 / math.Pi
	lo, hi = sqltypes.Point{X: math.Inf(-1), Y: lat - deg}, sqltypes.Point{X: math.Inf(1), Y: lat + deg}
	if lat+deg >= 90 || lat-deg <= -90 || r >= math.Pi/2 {
		return lo, hi, true // the cap holds a pole: every longitude
	}
	s := math.Sin(r) / math.Cos(lat*math.Pi/180)
	if s >= 1 {
		return lo, hi, true
	}
	dlon := math.Asin(s)*180/math.Pi*(1+1e-9) + 1e-9
	if lon-dlon < -180 || lon+dlon > 180 {
		return lo, hi, true // across the antimeridian
	}
	lo.X, hi.X = lon-dlon, lon+dlon
	return lo, hi, true
}
