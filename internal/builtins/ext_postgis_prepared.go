package builtins

import (
	"math"

	"sync/atomic"

	gis "github.com/zproxy/zproxy/internal/geo"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The per-row path of the spatial filters. A call site (one ST_Within, one
// && in one statement) keeps the last geometry other than a point it was
// given, decoded and prepared (geo.Prepared): the filter's constant is then
// decoded once, however many rows the filter tests. Points are read
// straight from their bytes (geo.PointEWKB), so a row's point costs no
// allocation. A site given a new geometry at every call (a join's
// polygons) decodes each once, as it did before.

// geomCache is one argument position's last prepared geometry.
type geomCache struct {
	last atomic.Pointer[preparedValue]
}

type preparedValue struct {
	src string // the value's EWKB
	p   *gis.Prepared
}

// prepared returns v decoded and prepared, from the cache when v is the
// geometry it holds (the same string costs no comparison of its bytes).
func (c *geomCache) prepared(v sqltypes.Value) (*gis.Prepared, error) {
	if e := c.last.Load(); e != nil && e.src == v.S {
		return e.p, nil
	}
	g, err := geomOf(v)
	if err != nil {
		return nil, err
	}
	p := gis.Prepare(g)
	c.last.Store(&preparedValue{src: v.S, p: p})
	return p, nil
}

// geoArg is one geometry argument as the filters read it: a non-empty
// point's coordinates, or any other geometry prepared.
type geoArg struct {
	point bool
	x, y  float64
	srid  int32
	p     *gis.Prepared
}

func (a geoArg) kind() gis.Kind {
	if a.point {
		return gis.Point
	}
	return a.p.Shape.Kind
}

func (a geoArg) sridOf() int32 {
	if a.point {
		return a.srid
	}
	return a.p.SRID
}

// arg reads v: a point by its bytes, anything else through the cache.
func (c *geomCache) arg(v sqltypes.Value) (geoArg, error) {
	if x, y, srid, ok := gis.PointEWKB(v.S); ok {
		return geoArg{point: true, x: x, y: y, srid: srid}, nil
	}
	p, err := c.prepared(v)
	if err != nil {
		return geoArg{}, err
	}
	return geoArg{p: p}, nil
}

// box is the argument's 2D box (ok false when empty).
func (a geoArg) box() (gis.Box, bool) {
	if a.point {
		return gis.Box{MinX: a.x, MinY: a.y, MaxX: a.x, MaxY: a.y}, true
	}
	return a.p.Box, a.p.HasBox
}

// geoSite is a call site's two argument caches.
type geoSite struct{ a, b geomCache }

// args reads both arguments and checks their SRIDs agree (fn names the
// function in PostGIS's message).
func (s *geoSite) args(fn string, a, b sqltypes.Value) (geoArg, geoArg, error) {
	x, err := s.a.arg(a)
	if err != nil {
		return x, x, err
	}
	y, err := s.b.arg(b)
	if err != nil {
		return x, y, err
	}
	return x, y, gis.CheckSRIDs(fn, x.kind(), x.sridOf(), y.kind(), y.sridOf())
}

// sited builds an overload's implementation per call site: Typed gives
// each site its own geoSite; Eval, for callers without a site, a new one
// per call.
func sited(o Overload, f func(s *geoSite, a []sqltypes.Value) (sqltypes.Value, error)) Overload {
	o.Eval = func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(&geoSite{}, a) }
	o.Typed = func([]sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		s := &geoSite{}
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(s, a) }
	}
	return o
}

// sitedBinary is sited for an operator: Binary for callers without a site.
func sitedBinary(o Overload, f func(s *geoSite, a, b sqltypes.Value) (sqltypes.Value, error)) Overload {
	o.Binary = func(_ *Context, a, b sqltypes.Value) (sqltypes.Value, error) { return f(&geoSite{}, a, b) }
	o.Typed = func([]sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
		s := &geoSite{}
		return func(_ *Context, a []sqltypes.Value) (sqltypes.Value, error) { return f(s, a[0], a[1]) }
	}
	return o
}

// relateSited is p(a, b) for geometries: a point and an area by the
// prepared area, anything else as Relate decides.
func relateSited(s *geoSite, label string, p gis.Predicate, a, b sqltypes.Value) (sqltypes.Value, error) {
	x, y, err := s.args(label, a, b)
	if err != nil {
		return sqltypes.Null, err
	}
	switch {
	case x.point && !y.point:
		if r, ok := y.p.RelatePoint(p, x.x, x.y, true); ok {
			return sqltypes.NewBool(r), nil
		}
	case y.point && !x.point:
		if r, ok := x.p.RelatePoint(p, y.x, y.y, false); ok {
			return sqltypes.NewBool(r), nil
		}
	}
	g, h, err := twoGeoms(label, a, b)
	if err != nil {
		return sqltypes.Null, err
	}
	r, err := gis.Relate(p, g.Shape, h.Shape)
	return sqltypes.NewBool(r), err
}

// distanceSited is the planar distance (ok false when one is empty): two
// points by their coordinates, anything else as Distance computes it.
func distanceSited(s *geoSite, label string, a, b sqltypes.Value) (float64, bool, error) {
	x, y, err := s.args(label, a, b)
	if err != nil {
		return 0, false, err
	}
	if x.point && y.point {
		// PostGIS finds no distance from FLT_MAX up (NULL).
		d := gis.PointDistance(x.x, x.y, y.x, y.y)
		return d, d < math.MaxFloat32, nil
	}
	g, err := shapeOf(x, a)
	if err != nil {
		return 0, false, err
	}
	h, err := shapeOf(y, b)
	if err != nil {
		return 0, false, err
	}
	// PostGIS's own distance search (distance2d.go), so that ST_Distance
	// agrees with ST_ShortestLine to the last digit and in its NULLs.
	_, _, d, ok := gis.ClosestPair(g, h)
	return d, ok, nil
}

// shapeOf is the argument's shape (a point's decoded from its value).
func shapeOf(g geoArg, v sqltypes.Value) (*gis.Shape, error) {
	if !g.point {
		return g.p.Shape, nil
	}
	d, err := geomOf(v)
	return d.Shape, err
}

// boxSited compares two geometries' boxes as boxOp does, a point's box
// read from its bytes and any other geometry's kept with it prepared.
func boxSited(s *geoSite, a, b sqltypes.Value, f func(x, y gis.Box) bool) (sqltypes.Value, error) {
	x, err := s.a.arg(a)
	if err != nil {
		return sqltypes.Null, err
	}
	y, err := s.b.arg(b)
	if err != nil {
		return sqltypes.Null, err
	}
	bx, ok1 := x.box()
	by, ok2 := y.box()
	return sqltypes.NewBool(ok1 && ok2 && f(bx, by)), nil
}
