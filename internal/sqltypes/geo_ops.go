package sqltypes

import (
	"math"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// The geometry of geo_ops.c: PostgreSQL's fuzzy comparisons (FPeq and
// friends, within EPSILON), its float8 arithmetic with overflow,
// underflow and division-by-zero checks, and the distances, closest
// points and intersections its operators and functions are made of. The
// order of every computation is PostgreSQL's, so results agree to the
// last bit.

// geoPanic carries a float8 error out of a geometric computation; GeoCatch
// turns it back into the function's error.
type geoPanic struct{ err error }

// GeoCatch, deferred with the address of a function's error result,
// recovers the float8 errors (22003, 22012) a geometric computation
// raised and returns them as that error.
func GeoCatch(err *error) {
	if r := recover(); r != nil {
		p, ok := r.(geoPanic)
		if !ok {
			panic(r)
		}
		*err = p.err
	}
}

func floatOverflow() {
	panic(geoPanic{pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: overflow")})
}
func floatUnderflow() {
	panic(geoPanic{pgerr.New(pgerr.NumericValueOutOfRange, "value out of range: underflow")})
}

// fpl, fmi, fmul and fdiv are float8_pl, float8_mi, float8_mul and
// float8_div: an infinite result of finite operands overflows, a zero
// product or quotient of nonzero operands underflows.
func fpl(a, b float64) float64 {
	r := a + b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		floatOverflow()
	}
	return r
}

func fmi(a, b float64) float64 {
	r := a - b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		floatOverflow()
	}
	return r
}

func fmul(a, b float64) float64 {
	r := a * b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		floatOverflow()
	}
	if r == 0 && a != 0 && b != 0 {
		floatUnderflow()
	}
	return r
}

func fdiv(a, b float64) float64 {
	if b == 0 && !math.IsNaN(a) {
		panic(geoPanic{pgerr.New(pgerr.DivisionByZero, "division by zero")})
	}
	r := a / b
	if math.IsInf(r, 0) && !math.IsInf(a, 0) {
		floatOverflow()
	}
	if r == 0 && a != 0 && !math.IsInf(b, 0) {
		floatUnderflow()
	}
	return r
}

func fmin(a, b float64) float64 {
	if Float8Lt(a, b) {
		return a
	}
	return b
}

func fmax(a, b float64) float64 {
	if Float8Gt(a, b) {
		return a
	}
	return b
}

// The fuzzy comparisons of geo_decls.h.
func fpLt(a, b float64) bool { return b-a > geoEpsilon }
func fpLe(a, b float64) bool { return a-b <= geoEpsilon }
func fpGt(a, b float64) bool { return a-b > geoEpsilon }
func fpGe(a, b float64) bool { return b-a <= geoEpsilon }

// Hypot is pg_hypot: sqrt(x² + y²) computed without needless overflow,
// exactly as PostgreSQL computes it.
func Hypot(x, y float64) float64 {
	if math.IsInf(x, 0) || math.IsInf(y, 0) {
		return math.Inf(1)
	}
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.NaN()
	}
	x, y = math.Abs(x), math.Abs(y)
	if x < y {
		x, y = y, x
	}
	if y == 0 {
		return x
	}
	yx := y / x
	r := x * math.Sqrt(1.0+yx*yx)
	if math.IsInf(r, 0) {
		floatOverflow()
	}
	if r == 0 {
		floatUnderflow()
	}
	return r
}

// PointDist is point_dt.
func PointDist(p, q Point) float64 { return Hypot(fmi(p.X, q.X), fmi(p.Y, q.Y)) }

// PointAdd, PointSub, PointMul and PointDiv are point + point, point -
// point and the complex multiplication and division of * and /.
func PointAdd(p, q Point) Point { return Point{fpl(p.X, q.X), fpl(p.Y, q.Y)} }
func PointSub(p, q Point) Point { return Point{fmi(p.X, q.X), fmi(p.Y, q.Y)} }
func PointMul(p, q Point) Point {
	return Point{fmi(fmul(p.X, q.X), fmul(p.Y, q.Y)), fpl(fmul(p.X, q.Y), fmul(p.Y, q.X))}
}
func PointDiv(p, q Point) Point {
	div := fpl(fmul(q.X, q.X), fmul(q.Y, q.Y))
	return Point{fdiv(fpl(fmul(p.X, q.X), fmul(p.Y, q.Y)), div), fdiv(fmi(fmul(p.Y, q.X), fmul(p.X, q.Y)), div)}
}

// PointLeft and the rest are point << point, >>, <<| (and <^), |>> (and
// >^), ?| and ?-.
func PointLeft(p, q Point) bool  { return fpLt(p.X, q.X) }
func PointRight(p, q Point) bool { return fpGt(p.X, q.X) }
func PointAbove(p, q Point) bool { return fpGt(p.Y, q.Y) }
func PointBelow(p, q Point) bool { return fpLt(p.Y, q.Y) }
func PointVert(p, q Point) bool  { return GeoEq(p.X, q.X) }
func PointHoriz(p, q Point) bool { return GeoEq(p.Y, q.Y) }

// invSlope is point_invsl: the slope of the perpendicular to pq.
func invSlope(p, q Point) float64 {
	switch {
	case GeoEq(p.X, q.X):
		return 0
	case GeoEq(p.Y, q.Y):
		return math.Inf(1)
	}
	return fdiv(fmi(p.X, q.X), fmi(q.Y, p.Y))
}

// SlopeChecked is point_sl with float8_div's checks (slope()).
func SlopeChecked(p, q Point) float64 {
	switch {
	case GeoEq(p.X, q.X):
		return math.Inf(1)
	case GeoEq(p.Y, q.Y):
		return 0
	}
	return fdiv(fmi(p.Y, q.Y), fmi(p.X, q.X))
}

// --- lseg

func (l LSeg) slope() float64    { return SlopeChecked(l.P[0], l.P[1]) }
func (l LSeg) invSlope() float64 { return invSlope(l.P[0], l.P[1]) }

// Length is lseg_length (@-@ and length()).
func (l LSeg) Length() float64 { return PointDist(l.P[0], l.P[1]) }

// Center is lseg_center (@@ and point(lseg)).
func (l LSeg) Center() Point {
	return Point{fdiv(fpl(l.P[0].X, l.P[1].X), 2), fdiv(fpl(l.P[0].Y, l.P[1].Y), 2)}
}

// Contains is lseg_contain_point: p's distances to the ends sum to the
// length.
func (l LSeg) Contains(p Point) bool {
	return GeoEq(fpl(PointDist(p, l.P[0]), PointDist(p, l.P[1])), PointDist(l.P[0], l.P[1]))
}

// Parallel, Perp, Vertical, Horizontal: ?||, ?-|, ?| and ?- of lseg.
func (l LSeg) Parallel(m LSeg) bool { return GeoEq(l.slope(), m.slope()) }
func (l LSeg) Perp(m LSeg) bool     { return GeoEq(l.invSlope(), m.slope()) }
func (l LSeg) Vertical() bool       { return GeoEq(l.P[0].X, l.P[1].X) }
func (l LSeg) Horizontal() bool     { return GeoEq(l.P[0].Y, l.P[1].Y) }

// Eq is lseg_eq (=); lseg <> lseg is its negation.
func (l LSeg) Eq(m LSeg) bool { return PointEq(l.P[0], m.P[0]) && PointEq(l.P[1], m.P[1]) }

// InterLine is lseg_interpt_line: where the segment meets the line.
func (l LSeg) InterLine(line Line) (Point, bool) {
	tmp := LineWithSlope(l.P[0], l.slope())
	p, ok := tmp.Inter(line)
	if !ok || !l.Contains(p) {
		return Point{}, false
	}
	switch {
	case PointEq(l.P[0], p):
		return l.P[0], true
	case PointEq(l.P[1], p):
		return l.P[1], true
	}
	return p, true
}

// Inter is lseg_interpt_lseg (# and ?#).
func (l LSeg) Inter(m LSeg) (Point, bool) {
	tmp := LineWithSlope(m.P[0], m.slope())
	p, ok := l.InterLine(tmp)
	if !ok || !m.Contains(p) {
		return Point{}, false
	}
	return p, true
}

// ClosestToPoint is lseg_closept_point: the point of the segment closest
// to p, and its distance.
func (l LSeg) ClosestToPoint(p Point) (Point, float64) {
	tmp := LineWithSlope(p, l.invSlope())
	c, _ := l.ClosestToLine(tmp)
	return c, PointDist(c, p)
}

// ClosestToLine is lseg_closept_line.
func (l LSeg) ClosestToLine(line Line) (Point, float64) {
	if p, ok := l.InterLine(line); ok {
		return p, 0
	}
	_, d1 := line.ClosestToPoint(l.P[0])
	_, d2 := line.ClosestToPoint(l.P[1])
	if d1 < d2 {
		return l.P[0], d1
	}
	return l.P[1], d2
}

// ClosestToLSeg is lseg_closept_lseg: the point of l closest to m.
func (l LSeg) ClosestToLSeg(m LSeg) (Point, float64) {
	if p, ok := l.Inter(m); ok {
		return p, 0
	}
	res, dist := l.ClosestToPoint(m.P[0])
	if p, d := l.ClosestToPoint(m.P[1]); Float8Lt(d, dist) {
		res, dist = p, d
	}
	if _, d := m.ClosestToPoint(l.P[0]); Float8Lt(d, dist) {
		res, dist = l.P[0], d
	}
	if _, d := m.ClosestToPoint(l.P[1]); Float8Lt(d, dist) {
		res, dist = l.P[1], d
	}
	return res, dist
}

// --- line

// Slope is line_sl.
func (l Line) Slope() float64 {
	switch {
	case GeoZero(l.A):
		return 0
	case GeoZero(l.B):
		return math.Inf(1)
	}
	return fdiv(l.A, -l.B)
}

func (l Line) invSlope() float64 {
	switch {
	case GeoZero(l.A):
		return math.Inf(1)
	case GeoZero(l.B):
		return 0
	}
	return fdiv(l.B, l.A)
}

// Inter is line_interpt_line (# and ?#); parallel lines do not meet.
func (l Line) Inter(m Line) (Point, bool) {
	var x, y float64
	switch {
	case !GeoZero(l.B):
		if GeoEq(m.A, fmul(l.A, fdiv(m.B, l.B))) {
			return Point{}, false
		}
		x = fdiv(fmi(fmul(l.B, m.C), fmul(m.B, l.C)), fmi(fmul(l.A, m.B), fmul(m.A, l.B)))
		y = fdiv(-fpl(fmul(l.A, x), l.C), l.B)
	case !GeoZero(m.B):
		if GeoEq(l.A, fmul(m.A, fdiv(l.B, m.B))) {
			return Point{}, false
		}
		x = fdiv(fmi(fmul(m.B, l.C), fmul(l.B, m.C)), fmi(fmul(m.A, l.B), fmul(l.A, m.B)))
		y = fdiv(-fpl(fmul(m.A, x), m.C), m.B)
	default:
		return Point{}, false
	}
	if x == 0 {
		x = 0
	}
	if y == 0 {
		y = 0
	}
	return Point{x, y}, true
}

// ClosestToPoint is line_closept_point: the foot of the perpendicular
// from p, and its distance (NaN, with p, when there is none).
func (l Line) ClosestToPoint(p Point) (Point, float64) {
	tmp := LineWithSlope(p, l.invSlope())
	c, ok := tmp.Inter(l)
	if !ok {
		return p, math.NaN()
	}
	return c, PointDist(c, p)
}

// Contains is line_contain_point (point <@ line).
func (l Line) Contains(p Point) bool {
	return GeoZero(fpl(fpl(fmul(l.A, p.X), fmul(l.B, p.Y)), l.C))
}

// Perp is line_perp (?-|).
func (l Line) Perp(m Line) bool {
	switch {
	case GeoZero(l.A):
		return GeoZero(m.B)
	case GeoZero(m.A):
		return GeoZero(l.B)
	case GeoZero(l.B):
		return GeoZero(m.A)
	case GeoZero(m.B):
		return GeoZero(l.A)
	}
	return GeoEq(fdiv(fmul(l.A, m.A), fmul(l.B, m.B)), -1.0)
}

// Eq is line_eq: proportional coefficients (exactly equal with a NaN).
func (l Line) Eq(m Line) bool {
	if math.IsNaN(l.A) || math.IsNaN(l.B) || math.IsNaN(l.C) || math.IsNaN(m.A) || math.IsNaN(m.B) || math.IsNaN(m.C) {
		eq := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		return eq(l.A, m.A) && eq(l.B, m.B) && eq(l.C, m.C)
	}
	ratio := 1.0
	switch {
	case !GeoZero(m.A):
		ratio = fdiv(l.A, m.A)
	case !GeoZero(m.B):
		ratio = fdiv(l.B, m.B)
	case !GeoZero(m.C):
		ratio = fdiv(l.C, m.C)
	}
	return GeoEq(l.A, fmul(ratio, m.A)) && GeoEq(l.B, fmul(ratio, m.B)) && GeoEq(l.C, fmul(ratio, m.C))
}

// Distance is line_distance: 0 for lines that meet.
func (l Line) Distance(m Line) float64 {
	if _, ok := l.Inter(m); ok {
		return 0
	}
	ratio := 1.0
	switch {
	case !GeoZero(l.A) && !math.IsNaN(l.A) && !GeoZero(m.A) && !math.IsNaN(m.A):
		ratio = fdiv(l.A, m.A)
	case !GeoZero(l.B) && !math.IsNaN(l.B) && !GeoZero(m.B) && !math.IsNaN(m.B):
		ratio = fdiv(l.B, m.B)
	}
	return fdiv(math.Abs(fmi(l.C, fmul(ratio, m.C))), Hypot(l.A, l.B))
}

// InterBox is inter_lb (line ?# box): the line crosses a side.
func (l Line) InterBox(b Box) bool {
	p1 := b.Low
	p2 := Point{b.Low.X, b.High.Y}
	if _, ok := (LSeg{[2]Point{p1, p2}}).InterLine(l); ok {
		return true
	}
	p1 = b.High
	if _, ok := (LSeg{[2]Point{p1, p2}}).InterLine(l); ok {
		return true
	}
	p2 = Point{b.High.X, b.Low.Y}
	if _, ok := (LSeg{[2]Point{p1, p2}}).InterLine(l); ok {
		return true
	}
	p1 = b.Low
	_, ok := (LSeg{[2]Point{p1, p2}}).InterLine(l)
	return ok
}

// --- box

// Center is box_cn (@@, center(), point(box)).
func (b Box) Center() Point {
	return Point{fdiv(fpl(b.High.X, b.Low.X), 2), fdiv(fpl(b.High.Y, b.Low.Y), 2)}
}

// Width, Height and Area are box_wd, box_ht and box_ar.
func (b Box) Width() float64  { return fmi(b.High.X, b.Low.X) }
func (b Box) Height() float64 { return fmi(b.High.Y, b.Low.Y) }
func (b Box) Area() float64   { return fmul(b.Width(), b.Height()) }

// ContainsPoint is box_contain_point (exact, not fuzzy).
func (b Box) ContainsPoint(p Point) bool {
	return b.High.X >= p.X && b.Low.X <= p.X && b.High.Y >= p.Y && b.Low.Y <= p.Y
}

// ContainsBox is box_contain_box (@>).
func (b Box) ContainsBox(c Box) bool {
	return fpGe(b.High.X, c.High.X) && fpLe(b.Low.X, c.Low.X) && fpGe(b.High.Y, c.High.Y) && fpLe(b.Low.Y, c.Low.Y)
}

// Overlaps is box_ov (&& and ?#).
func (b Box) Overlaps(c Box) bool {
	return fpLe(b.Low.X, c.High.X) && fpLe(c.Low.X, b.High.X) && fpLe(b.Low.Y, c.High.Y) && fpLe(c.Low.Y, b.High.Y)
}

// Same is box_same (~=).
func (b Box) Same(c Box) bool { return PointEq(b.High, c.High) && PointEq(b.Low, c.Low) }

// Position is the box position operators by name: << &< >> &> <<| &<|
// |>> |&> <^ >^.
func (b Box) Position(op string, c Box) bool {
	switch op {
	case "<<":
		return fpLt(b.High.X, c.Low.X)
	case "&<":
		return fpLe(b.High.X, c.High.X)
	case ">>":
		return fpGt(b.Low.X, c.High.X)
	case "&>":
		return fpGe(b.Low.X, c.Low.X)
	case "<<|":
		return fpLt(b.High.Y, c.Low.Y)
	case "&<|":
		return fpLe(b.High.Y, c.High.Y)
	case "|>>":
		return fpGt(b.Low.Y, c.High.Y)
	case "|&>":
		return fpGe(b.Low.Y, c.Low.Y)
	case "<^":
		return fpLe(b.High.Y, c.Low.Y)
	case ">^":
		return fpGe(b.Low.Y, c.High.Y)
	}
	return false
}

// Intersect is box_intersect (#): the common box, if they overlap.
func (b Box) Intersect(c Box) (Box, bool) {
	if !b.Overlaps(c) {
		return Box{}, false
	}
	return Box{High: Point{fmin(b.High.X, c.High.X), fmin(b.High.Y, c.High.Y)},
		Low: Point{fmax(b.Low.X, c.Low.X), fmax(b.Low.Y, c.Low.Y)}}, true
}

// Bound is boxes_bound_box (bound_box).
func (b Box) Bound(c Box) Box {
	return Box{High: Point{fmax(b.High.X, c.High.X), fmax(b.High.Y, c.High.Y)},
		Low: Point{fmin(b.Low.X, c.Low.X), fmin(b.Low.Y, c.Low.Y)}}
}

// sides returns the four sides in box_closept_point's order.
func (b Box) sides() [4]LSeg {
	p := Point{b.Low.X, b.High.Y}
	q := Point{b.High.X, b.Low.Y}
	return [4]LSeg{{[2]Point{b.Low, p}}, {[2]Point{b.High, p}}, {[2]Point{b.Low, q}}, {[2]Point{b.High, q}}}
}

// ClosestToPoint is box_closept_point.
func (b Box) ClosestToPoint(p Point) (Point, float64) {
	if b.ContainsPoint(p) {
		return p, 0
	}
	s := b.sides()
	res, dist := s[0].ClosestToPoint(p)
	for _, l := range s[1:] {
		if c, d := l.ClosestToPoint(p); Float8Lt(d, dist) {
			res, dist = c, d
		}
	}
	return res, dist
}

// InterLSeg is box_interpt_lseg (lseg ?# box), with the point of the
// segment closest to the box's center.
func (b Box) InterLSeg(l LSeg) (Point, bool) {
	lbox := Box{High: Point{fmax(l.P[0].X, l.P[1].X), fmax(l.P[0].Y, l.P[1].Y)},
		Low: Point{fmin(l.P[0].X, l.P[1].X), fmin(l.P[0].Y, l.P[1].Y)}}
	if !lbox.Overlaps(b) {
		return Point{}, false
	}
	res, _ := l.ClosestToPoint(b.Center())
	if b.ContainsPoint(l.P[0]) || b.ContainsPoint(l.P[1]) {
		return res, true
	}
	for _, s := range b.sides() {
		if _, ok := s.Inter(l); ok {
			return res, true
		}
	}
	return Point{}, false
}

// ClosestToLSeg is box_closept_lseg.
func (b Box) ClosestToLSeg(l LSeg) (Point, float64) {
	if p, ok := b.InterLSeg(l); ok {
		return p, 0
	}
	s := b.sides()
	res, dist := s[0].ClosestToLSeg(l)
	for _, e := range s[1:] {
		if c, d := e.ClosestToLSeg(l); Float8Lt(d, dist) {
			res, dist = c, d
		}
	}
	return res, dist
}

// Polygon is box_poly (polygon(box)).
func (b Box) Polygon() Polygon {
	return Polygon{Points: []Point{b.Low, {b.Low.X, b.High.Y}, b.High, {b.High.X, b.Low.Y}}, Bound: b}
}

// Circle is box_circle (circle(box)).
func (b Box) Circle() Circle {
	c := Point{fdiv(fpl(b.High.X, b.Low.X), 2), fdiv(fpl(b.High.Y, b.Low.Y), 2)}
	return Circle{c, PointDist(c, b.High)}
}

// --- path

// segments calls f with each segment of the path (the closing one
// first, for a closed path), as the loops of path_length and friends
// visit them.
func (p Path) segments(f func(LSeg)) {
	for i := range p.Points {
		prev := i - 1
		if i == 0 {
			if !p.Closed {
				continue
			}
			prev = len(p.Points) - 1
		}
		f(LSeg{[2]Point{p.Points[prev], p.Points[i]}})
	}
}

// Length is path_length.
func (p Path) Length() float64 {
	r := 0.0
	p.segments(func(l LSeg) { r = fpl(r, PointDist(l.P[0], l.P[1])) })
	return r
}

// Area is path_area: NULL (false) for an open path.
func (p Path) Area() (float64, bool) {
	if !p.Closed {
		return 0, false
	}
	area := 0.0
	n := len(p.Points)
	for i := range p.Points {
		j := (i + 1) % n
		area = fpl(area, fmul(p.Points[i].X, p.Points[j].Y))
		area = fmi(area, fmul(p.Points[i].Y, p.Points[j].X))
	}
	return fdiv(math.Abs(area), 2), true
}

// ContainsPoint is on_ppath (point <@ path, path @> point): on a segment
// of an open path, inside or on a closed one.
func (p Path) ContainsPoint(pt Point) bool {
	if !p.Closed {
		a := PointDist(pt, p.Points[0])
		for i := 0; i < len(p.Points)-1; i++ {
			b := PointDist(pt, p.Points[i+1])
			if GeoEq(fpl(a, b), PointDist(p.Points[i], p.Points[i+1])) {
				return true
			}
			a = b
		}
		return false
	}
	return pointInside(pt, p.Points) != 0
}

// DistPoint is dist_ppath.
func (p Path) DistPoint(pt Point) float64 {
	r, have := 0.0, false
	p.segments(func(l LSeg) {
		if _, d := l.ClosestToPoint(pt); !have || Float8Lt(d, r) {
			r, have = d, true
		}
	})
	return r
}

// Distance is path_distance: NULL (false) when either has no segment.
func (p Path) Distance(q Path) (float64, bool) {
	r, have := 0.0, false
	p.segments(func(a LSeg) {
		q.segments(func(b LSeg) {
			if _, d := a.ClosestToLSeg(b); !have || Float8Lt(d, r) {
				r, have = d, true
			}
		})
	})
	return r, have
}

// Inter is path_inter (?#).
func (p Path) Inter(q Path) bool {
	bound := func(pts []Point) Box {
		b := Box{High: pts[0], Low: pts[0]}
		for _, x := range pts[1:] {
			b.High.X, b.High.Y = fmax(x.X, b.High.X), fmax(x.Y, b.High.Y)
			b.Low.X, b.Low.Y = fmin(x.X, b.Low.X), fmin(x.Y, b.Low.Y)
		}
		return b
	}
	if !bound(p.Points).Overlaps(bound(q.Points)) {
		return false
	}
	found := false
	p.segments(func(a LSeg) {
		q.segments(func(b LSeg) {
			if !found {
				_, found = a.Inter(b)
			}
		})
	})
	return found
}

// MapPoints applies f to every point of a path (path + point and the
// rest).
func (p Path) MapPoints(f func(Point) Point) Path {
	out := Path{Closed: p.Closed, Points: make([]Point, len(p.Points))}
	for i, x := range p.Points {
		out.Points[i] = f(x)
	}
	return out
}

// --- polygon

const pointOnPolygon = math.MaxInt32

// pointInside is point_inside: 0 outside, 1 inside, 2 on the polygon
// of the points (a winding count of crossings of the positive x axis).
func pointInside(p Point, pts []Point) int {
	x0, y0 := fmi(pts[0].X, p.X), fmi(pts[0].Y, p.Y)
	px, py := x0, y0
	total := 0
	for _, q := range pts[1:] {
		x, y := fmi(q.X, p.X), fmi(q.Y, p.Y)
		c := lsegCrossing(x, y, px, py)
		if c == pointOnPolygon {
			return 2
		}
		total += c
		px, py = x, y
	}
	c := lsegCrossing(x0, y0, px, py)
	if c == pointOnPolygon {
		return 2
	}
	total += c
	if total != 0 {
		return 1
	}
	return 0
}

// lsegCrossing is lseg_crossing: how the segment from (prevX, prevY) to
// (x, y) crosses the positive x axis.
func lsegCrossing(x, y, prevX, prevY float64) int {
	if GeoZero(y) {
		switch {
		case GeoZero(x):
			return pointOnPolygon
		case fpGt(x, 0):
			if GeoZero(prevY) {
				if fpGt(prevX, 0) {
					return 0
				}
				return pointOnPolygon
			}
			if fpLt(prevY, 0) {
				return 1
			}
			return -1
		default:
			if GeoZero(prevY) {
				if fpLt(prevX, 0) {
					return 0
				}
				return pointOnPolygon
			}
			return 0
		}
	}
	ySign := -1
	if fpGt(y, 0) {
		ySign = 1
	}
	switch {
	case GeoZero(prevY):
		if fpLt(prevX, 0) {
			return 0
		}
		return ySign
	case ySign < 0 && fpLt(prevY, 0) || ySign > 0 && fpGt(prevY, 0):
		return 0
	}
	z := fmi(fmul(fmi(x, prevX), y), fmul(fmi(y, prevY), x))
	if GeoZero(z) {
		return pointOnPolygon
	}
	if ySign < 0 && fpLt(z, 0) || ySign > 0 && fpGt(z, 0) {
		return 0
	}
	return 2 * ySign
}

// ContainsPoint is poly_contain_pt (@>, <@): inside or on the polygon.
func (p Polygon) ContainsPoint(pt Point) bool { return pointInside(pt, p.Points) != 0 }

// Same is poly_same (~=): the same points in a cycle, either way round.
func (p Polygon) Same(q Polygon) bool {
	n := len(p.Points)
	if n != len(q.Points) {
		return false
	}
	a, b := p.Points, q.Points
	for i := 0; i < n; i++ {
		if !PointEq(b[i], a[0]) {
			continue
		}
		ii, j := 1, i+1
		for ; ii < n; ii, j = ii+1, j+1 {
			if j >= n {
				j = 0
			}
			if !PointEq(b[j], a[ii]) {
				break
			}
		}
		if ii == n {
			return true
		}
		ii, j = 1, i-1
		for ; ii < n; ii, j = ii+1, j-1 {
			if j < 0 {
				j = n - 1
			}
			if !PointEq(b[j], a[ii]) {
				break
			}
		}
		if ii == n {
			return true
		}
	}
	return false
}

// Position is the polygon position operators by name, on the bounding
// boxes, compared exactly (poly_left and the rest).
func (p Polygon) Position(op string, q Polygon) bool {
	a, b := p.Bound, q.Bound
	switch op {
	case "<<":
		return a.High.X < b.Low.X
	case "&<":
		return a.High.X <= b.High.X
	case ">>":
		return a.Low.X > b.High.X
	case "&>":
		return a.Low.X >= b.Low.X
	case "<<|":
		return a.High.Y < b.Low.Y
	case "&<|":
		return a.High.Y <= b.High.Y
	case "|>>":
		return a.Low.Y > b.High.Y
	case "|&>":
		return a.Low.Y >= b.Low.Y
	}
	return false
}

// Overlaps is poly_overlap_internal (&&): an edge of one crosses an edge
// of the other, or one holds a vertex of the other.
func (p Polygon) Overlaps(q Polygon) bool {
	if !p.Bound.Overlaps(q.Bound) {
		return false
	}
	sa := LSeg{}
	sa.P[0] = p.Points[len(p.Points)-1]
	for _, a := range p.Points {
		sa.P[1] = a
		sb := LSeg{}
		sb.P[0] = q.Points[len(q.Points)-1]
		for _, b := range q.Points {
			sb.P[1] = b
			if _, ok := sa.Inter(sb); ok {
				return true
			}
			sb.P[0] = sb.P[1]
		}
		sa.P[0] = sa.P[1]
	}
	return pointInside(p.Points[0], q.Points) != 0 || pointInside(q.Points[0], p.Points) != 0
}

// lsegInside is lseg_inside_poly: whether the segment ab lies in the
// polygon, from its edge start on.
func (p Polygon) lsegInside(a, b Point, start int) bool {
	t := LSeg{[2]Point{a, b}}
	var s LSeg
	if start == 0 {
		s.P[0] = p.Points[len(p.Points)-1]
	} else {
		s.P[0] = p.Points[start-1]
	}
	res, intersection := true, false
	for i := start; i < len(p.Points) && res; i++ {
		s.P[1] = p.Points[i]
		switch {
		case s.Contains(t.P[0]):
			if s.Contains(t.P[1]) {
				return true
			}
			res = p.touchedInside(t.P[0], t.P[1], s, i+1)
		case s.Contains(t.P[1]):
			res = p.touchedInside(t.P[1], t.P[0], s, i+1)
		default:
			if ip, ok := t.Inter(s); ok {
				intersection = true
				res = p.lsegInside(t.P[0], ip, i+1)
				if res {
					res = p.lsegInside(t.P[1], ip, i+1)
				}
			}
		}
		s.P[0] = s.P[1]
	}
	if res && !intersection {
		mid := Point{fdiv(fpl(t.P[0].X, t.P[1].X), 2), fdiv(fpl(t.P[0].Y, t.P[1].Y), 2)}
		res = pointInside(mid, p.Points) != 0
	}
	return res
}

// touchedInside is touched_lseg_inside_poly: a is on the edge s, b not.
func (p Polygon) touchedInside(a, b Point, s LSeg, start int) bool {
	t := LSeg{[2]Point{a, b}}
	switch {
	case PointEq(a, s.P[0]):
		if t.Contains(s.P[1]) {
			return p.lsegInside(b, s.P[1], start)
		}
	case PointEq(a, s.P[1]):
		if t.Contains(s.P[0]) {
			return p.lsegInside(b, s.P[0], start)
		}
	case t.Contains(s.P[0]):
		return p.lsegInside(b, s.P[0], start)
	case t.Contains(s.P[1]):
		return p.lsegInside(b, s.P[1], start)
	}
	return true
}

// Contains is poly_contain_poly (@>, <@).
func (p Polygon) Contains(q Polygon) bool {
	if !p.Bound.ContainsBox(q.Bound) {
		return false
	}
	var s LSeg
	s.P[0] = q.Points[len(q.Points)-1]
	for _, x := range q.Points {
		s.P[1] = x
		if !p.lsegInside(s.P[0], s.P[1], 0) {
			return false
		}
		s.P[0] = s.P[1]
	}
	return true
}

// DistPoint is dist_ppoly_internal.
func (p Polygon) DistPoint(pt Point) float64 {
	if pointInside(pt, p.Points) != 0 {
		return 0
	}
	n := len(p.Points)
	_, r := LSeg{[2]Point{p.Points[0], p.Points[n-1]}}.ClosestToPoint(pt)
	for i := 0; i < n-1; i++ {
		if _, d := (LSeg{[2]Point{p.Points[i], p.Points[i+1]}}).ClosestToPoint(pt); Float8Lt(d, r) {
			r = d
		}
	}
	return r
}

// Distance is poly_distance: 0 when they overlap, else the closest
// approach of their edges.
func (p Polygon) Distance(q Polygon) float64 {
	if p.Overlaps(q) {
		return 0
	}
	d, _ := Path{Closed: true, Points: p.Points}.Distance(Path{Closed: true, Points: q.Points})
	return d
}

// Circle is poly_to_circle (circle(polygon); its center is @@ and
// point(polygon)).
func (p Polygon) Circle() (Circle, error) {
	if len(p.Points) < 1 {
		return Circle{}, pgerr.New(pgerr.InvalidParameterValue, "cannot convert empty polygon to circle")
	}
	var c Circle
	for _, x := range p.Points {
		c.Center = PointAdd(c.Center, x)
	}
	n := float64(len(p.Points))
	c.Center = Point{fdiv(c.Center.X, n), fdiv(c.Center.Y, n)}
	for _, x := range p.Points {
		c.Radius = fpl(c.Radius, PointDist(x, c.Center))
	}
	c.Radius = fdiv(c.Radius, n)
	return c, nil
}

// --- circle

// Area is circle_ar.
func (c Circle) Area() float64 { return fmul(fmul(c.Radius, c.Radius), math.Pi) }

// ContainsPoint is circle_contain_pt (exact).
func (c Circle) ContainsPoint(p Point) bool { return PointDist(c.Center, p) <= c.Radius }

// DistPoint is dist_pc: from the rim, 0 inside.
func (c Circle) DistPoint(p Point) float64 {
	r := fmi(PointDist(p, c.Center), c.Radius)
	if r < 0 {
		r = 0
	}
	return r
}

// Distance is circle_distance.
func (c Circle) Distance(d Circle) float64 {
	r := fmi(PointDist(c.Center, d.Center), fpl(c.Radius, d.Radius))
	if r < 0 {
		r = 0
	}
	return r
}

// DistPolygon is dist_cpoly.
func (c Circle) DistPolygon(p Polygon) float64 {
	r := fmi(p.DistPoint(c.Center), c.Radius)
	if r < 0 {
		r = 0
	}
	return r
}

// Same is circle_same (~=).
func (c Circle) Same(d Circle) bool {
	return (math.IsNaN(c.Radius) && math.IsNaN(d.Radius) || GeoEq(c.Radius, d.Radius)) && PointEq(c.Center, d.Center)
}

// Position is the circle operators by name: && << &< >> &> <<| &<| |>>
// |&> @> <@.
func (c Circle) Position(op string, d Circle) bool {
	switch op {
	case "&&":
		return fpLe(PointDist(c.Center, d.Center), fpl(c.Radius, d.Radius))
	case "<<":
		return fpLt(fpl(c.Center.X, c.Radius), fmi(d.Center.X, d.Radius))
	case "&<":
		return fpLe(fpl(c.Center.X, c.Radius), fpl(d.Center.X, d.Radius))
	case ">>":
		return fpGt(fmi(c.Center.X, c.Radius), fpl(d.Center.X, d.Radius))
	case "&>":
		return fpGe(fmi(c.Center.X, c.Radius), fmi(d.Center.X, d.Radius))
	case "<<|":
		return fpLt(fpl(c.Center.Y, c.Radius), fmi(d.Center.Y, d.Radius))
	case "&<|":
		return fpLe(fpl(c.Center.Y, c.Radius), fpl(d.Center.Y, d.Radius))
	case "|>>":
		return fpGt(fmi(c.Center.Y, c.Radius), fpl(d.Center.Y, d.Radius))
	case "|&>":
		return fpGe(fmi(c.Center.Y, c.Radius), fmi(d.Center.Y, d.Radius))
	case "@>":
		return fpLe(PointDist(c.Center, d.Center), fmi(c.Radius, d.Radius))
	case "<@":
		return fpLe(PointDist(c.Center, d.Center), fmi(d.Radius, c.Radius))
	}
	return false
}

// geoSin and geoCos are the sine and cosine circle_poly uses: the C
// library's, correctly rounded, which package builtins provides
// (SetGeoTrig); Go's math.Sin and math.Cos differ in the last bit.
var geoSin, geoCos = math.Sin, math.Cos

// SetGeoTrig sets the sine and cosine of the geometric functions.
func SetGeoTrig(sin, cos func(float64) float64) { geoSin, geoCos = sin, cos }

// Box is circle_box (box(circle)): the box inscribed in the circle.
func (c Circle) Box() Box {
	delta := fdiv(c.Radius, math.Sqrt(2.0))
	return Box{High: Point{fpl(c.Center.X, delta), fpl(c.Center.Y, delta)},
		Low: Point{fmi(c.Center.X, delta), fmi(c.Center.Y, delta)}}
}

// Polygon is circle_poly (polygon(n, circle)): n points on the circle.
func (c Circle) Polygon(n int64) (Polygon, error) {
	if GeoZero(c.Radius) {
		return Polygon{}, pgerr.New(pgerr.FeatureNotSupported, "cannot convert circle with radius zero to polygon")
	}
	if n < 2 {
		return Polygon{}, pgerr.New(pgerr.InvalidParameterValue, "must request at least 2 points")
	}
	if n > maxGeoPoints {
		return Polygon{}, pgerr.New(pgerr.ProgramLimitExceeded, "too many points requested")
	}
	step := fdiv(2.0*math.Pi, float64(n))
	pts := make([]Point, n)
	for i := range pts {
		angle := fmul(step, float64(i))
		pts[i] = Point{fmi(c.Center.X, fmul(c.Radius, geoCos(angle))), fpl(c.Center.Y, fmul(c.Radius, geoSin(angle)))}
	}
	return NewPolygon(pts), nil
}

// castGeo converts to and from the geometric types: from and to the
// string types through text, and pg_cast's conversions among them.
func castGeo(v Value, t Type) (r Value, ok bool, err error) {
	if !IsGeo(t.ID) {
		if v.K != KindGeo {
			return Null, false, nil
		}
		switch t.Kind() {
		case KindText, KindBPChar, KindCitext:
			r, err := CastIn(NewText(FormatText(v)), t, true, nil)
			return r, true, err
		}
		return Null, true, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", TypeOfValue(v), t)
	}
	switch v.K {
	case KindText, KindBPChar, KindCitext:
		r, err := ParseGeo(t.ID, v.S)
		return r, true, err
	case KindGeo:
	default:
		return Null, true, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", TypeOfValue(v), t)
	}
	from := GeoTypeID(v)
	if from == t.ID {
		return v, true, nil
	}
	defer GeoCatch(&err)
	var g any
	switch g0 := v.X.(type) {
	case Point:
		if t.ID == GeoBox {
			g = Box{High: g0, Low: g0}
		}
	case LSeg:
		if t.ID == GeoPoint {
			g = g0.Center()
		}
	case Path:
		if t.ID == GeoPolygon {
			if !g0.Closed {
				return Null, true, pgerr.New(pgerr.InvalidParameterValue, "open path cannot be converted to polygon")
			}
			g = NewPolygon(g0.Points)
		}
	case Box:
		switch t.ID {
		case GeoPoint:
			g = g0.Center()
		case GeoLSeg:
			g = LSeg{[2]Point{g0.High, g0.Low}}
		case GeoPolygon:
			g = g0.Polygon()
		case GeoCircle:
			g = g0.Circle()
		}
	case Polygon:
		switch t.ID {
		case GeoPoint, GeoCircle:
			c, err := g0.Circle()
			if err != nil {
				return Null, true, err
			}
			if t.ID == GeoPoint {
				g = c.Center
			} else {
				g = c
			}
		case GeoPath:
			g = Path{Closed: true, Points: g0.Points}
		case GeoBox:
			g = g0.Bound
		}
	case Circle:
		switch t.ID {
		case GeoPoint:
			g = g0.Center
		case GeoBox:
			g = g0.Box()
		case GeoPolygon:
			p, err := g0.Polygon(12)
			if err != nil {
				return Null, true, err
			}
			g = p
		}
	}
	if g == nil {
		return Null, true, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", TypeOfValue(v), t)
	}
	return NewGeo(g), true, nil
}

// Mul8 and Div8 are float8_mul and float8_div with their errors, for
// computations outside this file (under GeoCatch).
func Mul8(a, b float64) float64 { return fmul(a, b) }
func Div8(a, b float64) float64 { return fdiv(a, b) }

// GeoLt, GeoLe, GeoGe and GeoGt are FPlt, FPle, FPge and FPgt.
func GeoLt(a, b float64) bool { return fpLt(a, b) }
func GeoLe(a, b float64) bool { return fpLe(a, b) }
func GeoGe(a, b float64) bool { return fpGe(a, b) }
func GeoGt(a, b float64) bool { return fpGt(a, b) }

// LSegSlope is lseg_sl.
func LSegSlope(l LSeg) float64 { return l.slope() }

// LineFromPoints is line(point, point) (line_construct_pp).
func LineFromPoints(p, q Point) (Value, error) {
	if PointEq(p, q) {
		return Null, pgerr.New(pgerr.InvalidParameterValue, "invalid line specification: must be two distinct points")
	}
	return NewGeo(LineWithSlope(p, SlopeChecked(p, q))), nil
}
