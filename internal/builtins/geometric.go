package builtins

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostgreSQL's operators and functions over the geometric types
// (geo_ops.c). The geometry itself is sqltypes' (geo_ops.go), computed
// in PostgreSQL's order with its fuzzy comparisons; each function here
// only unpacks its operands and turns float8 errors back into errors.

var (
	tPoint   = sqltypes.Type{ID: sqltypes.GeoPoint}
	tLSeg    = sqltypes.Type{ID: sqltypes.GeoLSeg}
	tBox     = sqltypes.Type{ID: sqltypes.GeoBox}
	tLine    = sqltypes.Type{ID: sqltypes.GeoLine}
	tPath    = sqltypes.Type{ID: sqltypes.GeoPath}
	tPolygon = sqltypes.Type{ID: sqltypes.GeoPolygon}
	tCircle  = sqltypes.Type{ID: sqltypes.GeoCircle}
)

// geoBin is an immutable infix operator whose computation may raise a
// float8 error (sqltypes.GeoCatch).
func geoBin(l, r, res sqltypes.Type, f func(a, b sqltypes.Value) sqltypes.Value) Overload {
	return binop(l, r, res, Immutable, func(_ *Context, a, b sqltypes.Value) (v sqltypes.Value, err error) {
		defer sqltypes.GeoCatch(&err)
		return f(a, b), nil
	})
}

// geoPred is geoBin for a boolean result.
func geoPred(l, r sqltypes.Type, f func(a, b sqltypes.Value) bool) Overload {
	return geoBin(l, r, sqltypes.TypeBool, func(a, b sqltypes.Value) sqltypes.Value { return sqltypes.NewBool(f(a, b)) })
}

// geoDist is geoBin for a float8 result.
func geoDist(l, r sqltypes.Type, f func(a, b sqltypes.Value) float64) Overload {
	return geoBin(l, r, sqltypes.TypeFloat8, func(a, b sqltypes.Value) sqltypes.Value { return sqltypes.NewFloat(f(a, b)) })
}

// geoFn is an immutable function of the geometric types.
func geoFn(params []sqltypes.Type, res sqltypes.Type, doc string, f func(a []sqltypes.Value) (sqltypes.Value, error)) Overload {
	ps := make([]Param, len(params))
	for i, p := range params {
		ps[i] = T(p)
	}
	return Overload{Params: ps, Result: Returns(res), Volatility: Immutable, Doc: doc,
		Eval: func(_ *Context, a []sqltypes.Value) (v sqltypes.Value, err error) {
			defer sqltypes.GeoCatch(&err)
			return f(a)
		}}
}

// geoUnary is a prefix operator (or one-argument function) of a
// geometric type.
func geoUnary(t, res sqltypes.Type, f func(v sqltypes.Value) sqltypes.Value) Overload {
	return geoFn([]sqltypes.Type{t}, res, "", func(a []sqltypes.Value) (sqltypes.Value, error) { return f(a[0]), nil })
}

func geo(g any) sqltypes.Value    { return sqltypes.NewGeo(g) }
func f8(f float64) sqltypes.Value { return sqltypes.NewFloat(f) }

// pointOr is a point, or NULL when ok is false (the operators and
// functions that return NULL where there is no answer).
func pointOr(p sqltypes.Point, ok bool) sqltypes.Value {
	if !ok {
		return sqltypes.Null
	}
	return geo(p)
}

// notNaN is a closest point, NULL when the distance computed with it
// is NaN (close_pl and friends).
func notNaN(p sqltypes.Point, d float64) sqltypes.Value { return pointOr(p, d == d) }

func init() {
	sqltypes.SetGeoTrig(crSin, crCos)
	boolean, float8, int4 := sqltypes.TypeBool, sqltypes.TypeFloat8, sqltypes.TypeInt4
	pt := func(v sqltypes.Value) sqltypes.Point { return v.Point() }

	// Translation, scaling and rotation by a point.
	type pointOp func(p, q sqltypes.Point) sqltypes.Point
	arith := map[string]pointOp{"+": sqltypes.PointAdd, "-": sqltypes.PointSub, "*": sqltypes.PointMul, "/": sqltypes.PointDiv}
	for op, f := range arith {
		f := f
		RegisterOperator(op,
			geoBin(tPoint, tPoint, tPoint, func(a, b sqltypes.Value) sqltypes.Value { return geo(f(pt(a), pt(b))) }),
			geoBin(tPath, tPoint, tPath, func(a, b sqltypes.Value) sqltypes.Value {
				q := pt(b)
				return geo(a.Path().MapPoints(func(p sqltypes.Point) sqltypes.Point { return f(p, q) }))
			}))
		switch op {
		case "+", "-":
			RegisterOperator(op,
				geoBin(tBox, tPoint, tBox, func(a, b sqltypes.Value) sqltypes.Value {
					x, q := a.Box(), pt(b)
					return geo(sqltypes.Box{High: f(x.High, q), Low: f(x.Low, q)})
				}),
				geoBin(tCircle, tPoint, tCircle, func(a, b sqltypes.Value) sqltypes.Value {
					c := a.Circle()
					return geo(sqltypes.Circle{Center: f(c.Center, pt(b)), Radius: c.Radius})
				}))
		default:
			mul := op == "*"
			RegisterOperator(op,
				geoBin(tBox, tPoint, tBox, func(a, b sqltypes.Value) sqltypes.Value {
					x, q := a.Box(), pt(b)
					return geo(sqltypes.BoxOf(f(x.High, q), f(x.Low, q)))
				}),
				geoBin(tCircle, tPoint, tCircle, func(a, b sqltypes.Value) sqltypes.Value {
					c, q := a.Circle(), pt(b)
					r := sqltypes.Circle{Center: f(c.Center, q)}
					if mul {
						r.Radius = sqltypes.Mul8(c.Radius, sqltypes.Hypot(q.X, q.Y))
					} else {
						r.Radius = sqltypes.Div8(c.Radius, sqltypes.Hypot(q.X, q.Y))
					}
					return geo(r)
				}))
		}
	}
	RegisterOperator("+", geoBin(tPath, tPath, tPath, func(a, b sqltypes.Value) sqltypes.Value {
		p, q := a.Path(), b.Path()
		if p.Closed || q.Closed {
			return sqltypes.Null
		}
		pts := append(append(make([]sqltypes.Point, 0, len(p.Points)+len(q.Points)), p.Points...), q.Points...)
		return geo(sqltypes.Path{Points: pts})
	}))

	// Intersection (#) and closest points (##).
	RegisterOperator("#",
		geoBin(tLSeg, tLSeg, tPoint, func(a, b sqltypes.Value) sqltypes.Value { return pointOr(a.LSeg().Inter(b.LSeg())) }),
		geoBin(tBox, tBox, tBox, func(a, b sqltypes.Value) sqltypes.Value {
			x, ok := a.Box().Intersect(b.Box())
			if !ok {
				return sqltypes.Null
			}
			return geo(x)
		}),
		geoBin(tLine, tLine, tPoint, func(a, b sqltypes.Value) sqltypes.Value { return pointOr(a.Line().Inter(b.Line())) }),
		geoUnary(tPath, int4, func(v sqltypes.Value) sqltypes.Value { return sqltypes.NewInt(int64(len(v.Path().Points))) }),
		geoUnary(tPolygon, int4, func(v sqltypes.Value) sqltypes.Value { return sqltypes.NewInt(int64(len(v.Polygon().Points))) }))
	RegisterOperator("##",
		geoBin(tPoint, tLSeg, tPoint, func(a, b sqltypes.Value) sqltypes.Value { return notNaN(b.LSeg().ClosestToPoint(pt(a))) }),
		geoBin(tPoint, tBox, tPoint, func(a, b sqltypes.Value) sqltypes.Value { return notNaN(b.Box().ClosestToPoint(pt(a))) }),
		geoBin(tPoint, tLine, tPoint, func(a, b sqltypes.Value) sqltypes.Value { return notNaN(b.Line().ClosestToPoint(pt(a))) }),
		geoBin(tLSeg, tLSeg, tPoint, func(a, b sqltypes.Value) sqltypes.Value {
			l, m := a.LSeg(), b.LSeg()
			if sqltypes.LSegSlope(l) == sqltypes.LSegSlope(m) {
				return sqltypes.Null
			}
			return notNaN(m.ClosestToLSeg(l))
		}),
		geoBin(tLSeg, tBox, tPoint, func(a, b sqltypes.Value) sqltypes.Value { return notNaN(b.Box().ClosestToLSeg(a.LSeg())) }),
		geoBin(tLine, tLSeg, tPoint, func(a, b sqltypes.Value) sqltypes.Value {
			l, s := a.Line(), b.LSeg()
			if sqltypes.LSegSlope(s) == l.Slope() {
				return sqltypes.Null
			}
			return notNaN(s.ClosestToLine(l))
		}))

	// Distances.
	RegisterOperator("<->",
		geoDist(tPoint, tPoint, func(a, b sqltypes.Value) float64 { return sqltypes.PointDist(pt(a), pt(b)) }),
		geoDist(tPoint, tLSeg, func(a, b sqltypes.Value) float64 { _, d := b.LSeg().ClosestToPoint(pt(a)); return d }),
		geoDist(tPoint, tPath, func(a, b sqltypes.Value) float64 { return b.Path().DistPoint(pt(a)) }),
		geoDist(tPoint, tBox, func(a, b sqltypes.Value) float64 { _, d := b.Box().ClosestToPoint(pt(a)); return d }),
		geoDist(tPoint, tPolygon, func(a, b sqltypes.Value) float64 { return b.Polygon().DistPoint(pt(a)) }),
		geoDist(tPoint, tLine, func(a, b sqltypes.Value) float64 { _, d := b.Line().ClosestToPoint(pt(a)); return d }),
		geoDist(tPoint, tCircle, func(a, b sqltypes.Value) float64 { return b.Circle().DistPoint(pt(a)) }),
		geoDist(tLSeg, tPoint, func(a, b sqltypes.Value) float64 { _, d := a.LSeg().ClosestToPoint(pt(b)); return d }),
		geoDist(tLSeg, tLSeg, func(a, b sqltypes.Value) float64 { _, d := a.LSeg().ClosestToLSeg(b.LSeg()); return d }),
		geoDist(tLSeg, tBox, func(a, b sqltypes.Value) float64 { _, d := b.Box().ClosestToLSeg(a.LSeg()); return d }),
		geoDist(tLSeg, tLine, func(a, b sqltypes.Value) float64 { _, d := a.LSeg().ClosestToLine(b.Line()); return d }),
		geoDist(tPath, tPoint, func(a, b sqltypes.Value) float64 { return a.Path().DistPoint(pt(b)) }),
		geoBin(tPath, tPath, float8, func(a, b sqltypes.Value) sqltypes.Value {
			d, ok := a.Path().Distance(b.Path())
			if !ok {
				return sqltypes.Null
			}
			return f8(d)
		}),
		geoDist(tBox, tPoint, func(a, b sqltypes.Value) float64 { _, d := a.Box().ClosestToPoint(pt(b)); return d }),
		geoDist(tBox, tLSeg, func(a, b sqltypes.Value) float64 { _, d := a.Box().ClosestToLSeg(b.LSeg()); return d }),
		geoDist(tBox, tBox, func(a, b sqltypes.Value) float64 { return sqltypes.PointDist(a.Box().Center(), b.Box().Center()) }),
		geoDist(tPolygon, tPoint, func(a, b sqltypes.Value) float64 { return a.Polygon().DistPoint(pt(b)) }),
		geoDist(tPolygon, tPolygon, func(a, b sqltypes.Value) float64 { return a.Polygon().Distance(b.Polygon()) }),
		geoDist(tPolygon, tCircle, func(a, b sqltypes.Value) float64 { return b.Circle().DistPolygon(a.Polygon()) }),
		geoDist(tLine, tPoint, func(a, b sqltypes.Value) float64 { _, d := a.Line().ClosestToPoint(pt(b)); return d }),
		geoDist(tLine, tLSeg, func(a, b sqltypes.Value) float64 { _, d := b.LSeg().ClosestToLine(a.Line()); return d }),
		geoDist(tLine, tLine, func(a, b sqltypes.Value) float64 { return a.Line().Distance(b.Line()) }),
		geoDist(tCircle, tPoint, func(a, b sqltypes.Value) float64 { return a.Circle().DistPoint(pt(b)) }),
		geoDist(tCircle, tPolygon, func(a, b sqltypes.Value) float64 { return a.Circle().DistPolygon(b.Polygon()) }),
		geoDist(tCircle, tCircle, func(a, b sqltypes.Value) float64 { return a.Circle().Distance(b.Circle()) }))

	// Containment.
	RegisterOperator("<@",
		geoPred(tPoint, tLSeg, func(a, b sqltypes.Value) bool { return b.LSeg().Contains(pt(a)) }),
		geoPred(tPoint, tPath, func(a, b sqltypes.Value) bool { return b.Path().ContainsPoint(pt(a)) }),
		geoPred(tPoint, tBox, func(a, b sqltypes.Value) bool { return b.Box().ContainsPoint(pt(a)) }),
		geoPred(tPoint, tPolygon, func(a, b sqltypes.Value) bool { return b.Polygon().ContainsPoint(pt(a)) }),
		geoPred(tPoint, tLine, func(a, b sqltypes.Value) bool { return b.Line().Contains(pt(a)) }),
		geoPred(tPoint, tCircle, func(a, b sqltypes.Value) bool { return b.Circle().ContainsPoint(pt(a)) }),
		geoPred(tLSeg, tBox, func(a, b sqltypes.Value) bool {
			l, x := a.LSeg(), b.Box()
			return x.ContainsPoint(l.P[0]) && x.ContainsPoint(l.P[1])
		}),
		geoPred(tLSeg, tLine, func(a, b sqltypes.Value) bool {
			l, x := a.LSeg(), b.Line()
			return x.Contains(l.P[0]) && x.Contains(l.P[1])
		}),
		geoPred(tBox, tBox, func(a, b sqltypes.Value) bool { return b.Box().ContainsBox(a.Box()) }),
		geoPred(tPolygon, tPolygon, func(a, b sqltypes.Value) bool { return b.Polygon().Contains(a.Polygon()) }),
		geoPred(tCircle, tCircle, func(a, b sqltypes.Value) bool { return a.Circle().Position("<@", b.Circle()) }))
	RegisterOperator("@>",
		geoPred(tPath, tPoint, func(a, b sqltypes.Value) bool { return a.Path().ContainsPoint(pt(b)) }),
		geoPred(tBox, tPoint, func(a, b sqltypes.Value) bool { return a.Box().ContainsPoint(pt(b)) }),
		geoPred(tBox, tBox, func(a, b sqltypes.Value) bool { return a.Box().ContainsBox(b.Box()) }),
		geoPred(tPolygon, tPoint, func(a, b sqltypes.Value) bool { return a.Polygon().ContainsPoint(pt(b)) }),
		geoPred(tPolygon, tPolygon, func(a, b sqltypes.Value) bool { return a.Polygon().Contains(b.Polygon()) }),
		geoPred(tCircle, tPoint, func(a, b sqltypes.Value) bool { return a.Circle().ContainsPoint(pt(b)) }),
		geoPred(tCircle, tCircle, func(a, b sqltypes.Value) bool { return a.Circle().Position("@>", b.Circle()) }))

	// Position of boxes, polygons and circles (and points).
	RegisterOperator("&&",
		geoPred(tBox, tBox, func(a, b sqltypes.Value) bool { return a.Box().Overlaps(b.Box()) }),
		geoPred(tPolygon, tPolygon, func(a, b sqltypes.Value) bool { return a.Polygon().Overlaps(b.Polygon()) }),
		geoPred(tCircle, tCircle, func(a, b sqltypes.Value) bool { return a.Circle().Position("&&", b.Circle()) }))
	for _, op := range []string{"<<", "&<", ">>", "&>", "<<|", "&<|", "|>>", "|&>"} {
		op := op
		RegisterOperator(op,
			geoPred(tBox, tBox, func(a, b sqltypes.Value) bool { return a.Box().Position(op, b.Box()) }),
			geoPred(tPolygon, tPolygon, func(a, b sqltypes.Value) bool { return a.Polygon().Position(op, b.Polygon()) }),
			geoPred(tCircle, tCircle, func(a, b sqltypes.Value) bool { return a.Circle().Position(op, b.Circle()) }))
	}
	RegisterOperator("<<", geoPred(tPoint, tPoint, func(a, b sqltypes.Value) bool { return sqltypes.PointLeft(pt(a), pt(b)) }))
	RegisterOperator(">>", geoPred(tPoint, tPoint, func(a, b sqltypes.Value) bool { return sqltypes.PointRight(pt(a), pt(b)) }))
	for _, op := range []string{"<<|", "<^"} {
		RegisterOperator(op, geoPred(tPoint, tPoint, func(a, b sqltypes.Value) bool { return sqltypes.PointBelow(pt(a), pt(b)) }))
	}
	for _, op := range []string{"|>>", ">^"} {
		RegisterOperator(op, geoPred(tPoint, tPoint, func(a, b sqltypes.Value) bool { return sqltypes.PointAbove(pt(a), pt(b)) }))
	}
	for _, op := range []string{"<^", ">^"} {
		op := op
		RegisterOperator(op, geoPred(tBox, tBox, func(a, b sqltypes.Value) bool { return a.Box().Position(op, b.Box()) }))
	}

	// Intersects, parallel, perpendicular, vertical, horizontal.
	RegisterOperator("?#",
		geoPred(tLSeg, tLSeg, func(a, b sqltypes.Value) bool { _, ok := a.LSeg().Inter(b.LSeg()); return ok }),
		geoPred(tLSeg, tBox, func(a, b sqltypes.Value) bool { _, ok := b.Box().InterLSeg(a.LSeg()); return ok }),
		geoPred(tLSeg, tLine, func(a, b sqltypes.Value) bool { _, ok := a.LSeg().InterLine(b.Line()); return ok }),
		geoPred(tPath, tPath, func(a, b sqltypes.Value) bool { return a.Path().Inter(b.Path()) }),
		geoPred(tBox, tBox, func(a, b sqltypes.Value) bool { return a.Box().Overlaps(b.Box()) }),
		geoPred(tLine, tBox, func(a, b sqltypes.Value) bool { return a.Line().InterBox(b.Box()) }),
		geoPred(tLine, tLine, func(a, b sqltypes.Value) bool { _, ok := a.Line().Inter(b.Line()); return ok }))
	RegisterOperator("?-",
		geoUnary(tLSeg, boolean, func(v sqltypes.Value) sqltypes.Value { return sqltypes.NewBool(v.LSeg().Horizontal()) }),
		geoUnary(tLine, boolean, func(v sqltypes.Value) sqltypes.Value { return sqltypes.NewBool(sqltypes.GeoZero(v.Line().A)) }),
		geoPred(tPoint, tPoint, func(a, b sqltypes.Value) bool { return sqltypes.PointHoriz(pt(a), pt(b)) }))
	RegisterOperator("?|",
		geoUnary(tLSeg, boolean, func(v sqltypes.Value) sqltypes.Value { return sqltypes.NewBool(v.LSeg().Vertical()) }),
		geoUnary(tLine, boolean, func(v sqltypes.Value) sqltypes.Value { return sqltypes.NewBool(sqltypes.GeoZero(v.Line().B)) }),
		geoPred(tPoint, tPoint, func(a, b sqltypes.Value) bool { return sqltypes.PointVert(pt(a), pt(b)) }))
	RegisterOperator("?-|",
		geoPred(tLSeg, tLSeg, func(a, b sqltypes.Value) bool { return a.LSeg().Perp(b.LSeg()) }),
		geoPred(tLine, tLine, func(a, b sqltypes.Value) bool { return a.Line().Perp(b.Line()) }))
	RegisterOperator("?||",
		geoPred(tLSeg, tLSeg, func(a, b sqltypes.Value) bool { return a.LSeg().Parallel(b.LSeg()) }),
		geoPred(tLine, tLine, func(a, b sqltypes.Value) bool { _, ok := a.Line().Inter(b.Line()); return !ok }))

	// Same as (~=) and the comparisons (of lengths, areas, numbers of
	// points; line's = is proportional coefficients).
	RegisterOperator("~=",
		geoPred(tPoint, tPoint, func(a, b sqltypes.Value) bool { return sqltypes.PointEq(pt(a), pt(b)) }),
		geoPred(tBox, tBox, func(a, b sqltypes.Value) bool { return a.Box().Same(b.Box()) }),
		geoPred(tPolygon, tPolygon, func(a, b sqltypes.Value) bool { return a.Polygon().Same(b.Polygon()) }),
		geoPred(tCircle, tCircle, func(a, b sqltypes.Value) bool { return a.Circle().Same(b.Circle()) }))
	RegisterOperator("<>",
		geoPred(tPoint, tPoint, func(a, b sqltypes.Value) bool { return !sqltypes.PointEq(pt(a), pt(b)) }),
		geoPred(tLSeg, tLSeg, func(a, b sqltypes.Value) bool {
			l, m := a.LSeg(), b.LSeg()
			return !sqltypes.PointEq(l.P[0], m.P[0]) || !sqltypes.PointEq(l.P[1], m.P[1])
		}),
		geoPred(tCircle, tCircle, func(a, b sqltypes.Value) bool {
			return !sqltypes.GeoEq(a.Circle().Area(), b.Circle().Area())
		}))
	RegisterOperator("=",
		geoPred(tLSeg, tLSeg, func(a, b sqltypes.Value) bool { return a.LSeg().Eq(b.LSeg()) }),
		geoPred(tLine, tLine, func(a, b sqltypes.Value) bool { return a.Line().Eq(b.Line()) }))
	measures := []struct {
		t sqltypes.Type
		m func(sqltypes.Value) float64
	}{
		{tLSeg, func(v sqltypes.Value) float64 { return v.LSeg().Length() }},
		{tBox, func(v sqltypes.Value) float64 { return v.Box().Area() }},
		{tCircle, func(v sqltypes.Value) float64 { return v.Circle().Area() }},
		{tPath, func(v sqltypes.Value) float64 { return float64(len(v.Path().Points)) }},
	}
	for _, c := range []struct {
		op  string
		cmp func(a, b float64) bool
	}{{"<", sqltypes.GeoLt}, {"<=", sqltypes.GeoLe}, {"=", sqltypes.GeoEq}, {">=", sqltypes.GeoGe}, {">", sqltypes.GeoGt}} {
		for _, m := range measures {
			c, m := c, m
			if c.op == "=" && m.t.ID == sqltypes.GeoLSeg {
				continue // lseg = lseg compares the ends
			}
			cmp := c.cmp
			if m.t.ID == sqltypes.GeoPath {
				// path_n_lt and friends compare the numbers of points
				// exactly.
				cmp = map[string]func(a, b float64) bool{
					"<": func(a, b float64) bool { return a < b }, "<=": func(a, b float64) bool { return a <= b },
					"=": func(a, b float64) bool { return a == b }, ">=": func(a, b float64) bool { return a >= b },
					">": func(a, b float64) bool { return a > b }}[c.op]
			}
			RegisterOperator(c.op, geoPred(m.t, m.t, func(a, b sqltypes.Value) bool { return cmp(m.m(a), m.m(b)) }))
		}
	}

	// Lengths, centers and numbers of points as prefix operators.
	RegisterOperator("@-@",
		geoUnary(tLSeg, float8, func(v sqltypes.Value) sqltypes.Value { return f8(v.LSeg().Length()) }),
		geoUnary(tPath, float8, func(v sqltypes.Value) sqltypes.Value { return f8(v.Path().Length()) }))
	centers := []Overload{
		geoUnary(tLSeg, tPoint, func(v sqltypes.Value) sqltypes.Value { return geo(v.LSeg().Center()) }),
		geoUnary(tBox, tPoint, func(v sqltypes.Value) sqltypes.Value { return geo(v.Box().Center()) }),
		geoFn([]sqltypes.Type{tPolygon}, tPoint, "", func(a []sqltypes.Value) (sqltypes.Value, error) {
			c, err := a[0].Polygon().Circle()
			return geo(c.Center), err
		}),
		geoUnary(tCircle, tPoint, func(v sqltypes.Value) sqltypes.Value { return geo(v.Circle().Center) }),
	}
	RegisterOperator("@@", centers...)

	// Functions.
	fn1 := func(name string, t, res sqltypes.Type, doc string, f func(v sqltypes.Value) sqltypes.Value) {
		o := geoUnary(t, res, f)
		o.Doc = doc
		Register(name, o)
	}
	fn1("area", tBox, float8, "area of the box", func(v sqltypes.Value) sqltypes.Value { return f8(v.Box().Area()) })
	fn1("area", tPath, float8, "area of the closed path (NULL for an open one)", func(v sqltypes.Value) sqltypes.Value {
		a, ok := v.Path().Area()
		if !ok {
			return sqltypes.Null
		}
		return f8(a)
	})
	fn1("area", tCircle, float8, "area of the circle", func(v sqltypes.Value) sqltypes.Value { return f8(v.Circle().Area()) })
	fn1("center", tBox, tPoint, "center of the box", func(v sqltypes.Value) sqltypes.Value { return geo(v.Box().Center()) })
	fn1("center", tCircle, tPoint, "center of the circle", func(v sqltypes.Value) sqltypes.Value { return geo(v.Circle().Center) })
	fn1("diameter", tCircle, float8, "diameter of the circle", func(v sqltypes.Value) sqltypes.Value {
		return f8(sqltypes.Mul8(v.Circle().Radius, 2))
	})
	fn1("radius", tCircle, float8, "radius of the circle", func(v sqltypes.Value) sqltypes.Value { return f8(v.Circle().Radius) })
	fn1("height", tBox, float8, "vertical size of the box", func(v sqltypes.Value) sqltypes.Value { return f8(v.Box().Height()) })
	fn1("width", tBox, float8, "horizontal size of the box", func(v sqltypes.Value) sqltypes.Value { return f8(v.Box().Width()) })
	fn1("isclosed", tPath, boolean, "whether the path is closed", func(v sqltypes.Value) sqltypes.Value { return sqltypes.NewBool(v.Path().Closed) })
	fn1("isopen", tPath, boolean, "whether the path is open", func(v sqltypes.Value) sqltypes.Value { return sqltypes.NewBool(!v.Path().Closed) })
	fn1("length", tLSeg, float8, "length of the segment", func(v sqltypes.Value) sqltypes.Value { return f8(v.LSeg().Length()) })
	fn1("length", tPath, float8, "total length of the path", func(v sqltypes.Value) sqltypes.Value { return f8(v.Path().Length()) })
	fn1("npoints", tPath, int4, "number of points of the path", func(v sqltypes.Value) sqltypes.Value { return sqltypes.NewInt(int64(len(v.Path().Points))) })
	fn1("npoints", tPolygon, int4, "number of points of the polygon", func(v sqltypes.Value) sqltypes.Value {
		return sqltypes.NewInt(int64(len(v.Polygon().Points)))
	})
	fn1("pclose", tPath, tPath, "the path, closed", func(v sqltypes.Value) sqltypes.Value {
		return geo(sqltypes.Path{Closed: true, Points: v.Path().Points})
	})
	fn1("popen", tPath, tPath, "the path, open", func(v sqltypes.Value) sqltypes.Value {
		return geo(sqltypes.Path{Closed: false, Points: v.Path().Points})
	})
	Register("slope", geoFn([]sqltypes.Type{tPoint, tPoint}, float8, "slope of the line through the two points",
		func(a []sqltypes.Value) (sqltypes.Value, error) {
			return f8(sqltypes.SlopeChecked(pt(a[0]), pt(a[1]))), nil
		}))
	Register("bound_box", geoFn([]sqltypes.Type{tBox, tBox}, tBox, "the smallest box holding both",
		func(a []sqltypes.Value) (sqltypes.Value, error) { return geo(a[0].Box().Bound(a[1].Box())), nil }))

	// The function spellings of operators (isvertical is ?|, ...).
	Register("diagonal", geoFn([]sqltypes.Type{tBox}, tLSeg, "the box's diagonal from its upper right corner", func(a []sqltypes.Value) (sqltypes.Value, error) {
		b := a[0].Box()
		return geo(sqltypes.LSeg{P: [2]sqltypes.Point{b.High, b.Low}}), nil
	}))
	for name, op := range map[string]string{"isvertical": "?|", "ishorizontal": "?-", "isparallel": "?||", "isperp": "?-|"} {
		for _, ov := range operators[op] {
			if !sqltypes.IsGeo(ov.Params[0].Type.ID) {
				continue // jsonb's ?|
			}
			ov.Doc = "same as the " + op + " operator"
			Register(name, ov)
		}
	}

	// Constructors, and the cast functions of pg_cast (the cast itself).
	cast := func(from, to sqltypes.Type) Overload {
		return geoFn([]sqltypes.Type{from}, to, "convert "+from.String()+" to "+to.String(), func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.CastExplicit(a[0], to)
		})
	}
	Register("box", cast(tPoint, tBox), cast(tPolygon, tBox), cast(tCircle, tBox),
		geoFn([]sqltypes.Type{tPoint, tPoint}, tBox, "box with the two points as opposite corners", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return geo(sqltypes.BoxOf(pt(a[0]), pt(a[1]))), nil
		}))
	Register("circle", cast(tBox, tCircle), cast(tPolygon, tCircle),
		geoFn([]sqltypes.Type{tPoint, float8}, tCircle, "circle of the center and radius", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return geo(sqltypes.Circle{Center: pt(a[0]), Radius: a[1].F}), nil
		}))
	Register("line", geoFn([]sqltypes.Type{tPoint, tPoint}, tLine, "the line through the two points", func(a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.LineFromPoints(pt(a[0]), pt(a[1]))
	}))
	Register("lseg", cast(tBox, tLSeg),
		geoFn([]sqltypes.Type{tPoint, tPoint}, tLSeg, "segment between the two points", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return geo(sqltypes.LSeg{P: [2]sqltypes.Point{pt(a[0]), pt(a[1])}}), nil
		}))
	Register("path", cast(tPolygon, tPath))
	Register("point", cast(tBox, tPoint), cast(tCircle, tPoint), cast(tLSeg, tPoint), cast(tPolygon, tPoint),
		geoFn([]sqltypes.Type{float8, float8}, tPoint, "point of the coordinates", func(a []sqltypes.Value) (sqltypes.Value, error) {
			return sqltypes.NewPoint(a[0].F, a[1].F), nil
		}))
	Register("polygon", cast(tBox, tPolygon), cast(tCircle, tPolygon), cast(tPath, tPolygon),
		geoFn([]sqltypes.Type{int4, tCircle}, tPolygon, "polygon of n points on the circle", func(a []sqltypes.Value) (sqltypes.Value, error) {
			p, err := a[1].Circle().Polygon(a[0].I)
			if err != nil {
				return sqltypes.Null, err
			}
			return geo(p), nil
		}))
}
