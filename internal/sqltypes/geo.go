package sqltypes

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// PostgreSQL's built-in geometric types (geo_ops.c): point, lseg, box,
// line, path, polygon and circle. A value is KindGeo with one of the Go
// types below in X; which SQL type it is follows from that Go type
// (GeoTypeID). The coordinates are float8s, printed as float8out prints
// them (extra_float_digits included) and read as float8in reads them.

// Point is a point of the plane (point).
type Point struct{ X, Y float64 }

// LSeg is a line segment (lseg) from P[0] to P[1].
type LSeg struct{ P [2]Point }

// Box is a box (box): High is its upper right corner, Low its lower left
// (the input's corners are reordered so).
type Box struct{ High, Low Point }

// Line is the infinite line Ax + By + C = 0 (line); A and B are not both
// zero.
type Line struct{ A, B, C float64 }

// Path is a path (path): open, or closed (its last point joined to its
// first).
type Path struct {
	Closed bool
	Points []Point
}

// Polygon is a polygon (polygon) with its bounding box, which PostgreSQL
// keeps beside the points.
type Polygon struct {
	Points []Point
	Bound  Box
}

// Circle is a circle (circle); Radius is not negative (or NaN).
type Circle struct {
	Center Point
	Radius float64
}

// NewGeo returns the value of a Point, LSeg, Box, Line, Path, Polygon or
// Circle.
func NewGeo(g any) Value { return Value{K: KindGeo, X: g} }

// NewPoint returns a point value.
func NewPoint(x, y float64) Value { return NewGeo(Point{x, y}) }

// Point returns the point of a point value.
func (v Value) Point() Point { return v.X.(Point) }

// LSeg returns the segment of an lseg value.
func (v Value) LSeg() LSeg { return v.X.(LSeg) }

// Box returns the box of a box value.
func (v Value) Box() Box { return v.X.(Box) }

// Line returns the line of a line value.
func (v Value) Line() Line { return v.X.(Line) }

// Path returns the path of a path value (read-only).
func (v Value) Path() Path { return v.X.(Path) }

// Polygon returns the polygon of a polygon value (read-only).
func (v Value) Polygon() Polygon { return v.X.(Polygon) }

// Circle returns the circle of a circle value.
func (v Value) Circle() Circle { return v.X.(Circle) }

// GeoTypeID is the SQL type of a KindGeo value.
func GeoTypeID(v Value) TypeID {
	switch v.X.(type) {
	case Point:
		return GeoPoint
	case LSeg:
		return GeoLSeg
	case Box:
		return GeoBox
	case Line:
		return GeoLine
	case Path:
		return GeoPath
	case Polygon:
		return GeoPolygon
	case Circle:
		return GeoCircle
	}
	return Unknown
}

// IsGeo reports whether id is one of the geometric types.
func IsGeo(id TypeID) bool { return id >= GeoPoint && id <= GeoCircle }

// BoxOf returns the box with corners p and q in either order
// (box_construct).
func BoxOf(p, q Point) Box {
	var b Box
	if Float8Gt(p.X, q.X) {
		b.High.X, b.Low.X = p.X, q.X
	} else {
		b.High.X, b.Low.X = q.X, p.X
	}
	if Float8Gt(p.Y, q.Y) {
		b.High.Y, b.Low.Y = p.Y, q.Y
	} else {
		b.High.Y, b.Low.Y = q.Y, p.Y
	}
	return b
}

// NewPolygon returns a polygon of the points with its bounding box
// (make_bound_box).
func NewPolygon(pts []Point) Polygon {
	p := Polygon{Points: pts}
	if len(pts) > 0 {
		lo, hi := pts[0], pts[0]
		for _, q := range pts[1:] {
			if Float8Lt(q.X, lo.X) {
				lo.X = q.X
			}
			if Float8Gt(q.X, hi.X) {
				hi.X = q.X
			}
			if Float8Lt(q.Y, lo.Y) {
				lo.Y = q.Y
			}
			if Float8Gt(q.Y, hi.Y) {
				hi.Y = q.Y
			}
		}
		p.Bound = BoxOf(hi, lo)
	}
	return p
}

// Float8Lt is float8's <, NaN above every number (float8_lt).
func Float8Lt(a, b float64) bool { return !math.IsNaN(a) && (math.IsNaN(b) || a < b) }

// Float8Gt is float8's >, NaN above every number (float8_gt).
func Float8Gt(a, b float64) bool { return !math.IsNaN(b) && (math.IsNaN(a) || a > b) }

// pgNaN is the NaN float8in returns (C's NAN): its bits, not Go's
// math.NaN()'s, are what point_send sends.
var pgNaN = math.Float64frombits(0x7ff8000000000000)

// geoReader reads a geometric type's text input as geo_ops.c's
// pair_decode, path_decode and single_decode do: every syntax error is
// the type's 22P02 quoting the whole input.
type geoReader struct {
	s, orig, typ string
	p            int
}

func (r *geoReader) syntax() error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", r.typ, r.orig)
}

func (r *geoReader) spaces() {
	for r.p < len(r.s) && isPGSpace(r.s[r.p]) {
		r.p++
	}
}

func (r *geoReader) peek() byte {
	if r.p < len(r.s) {
		return r.s[r.p]
	}
	return 0
}

// float reads a float8 as float8in_internal does with an end pointer:
// spaces, the longest number strtod takes (or NaN, Infinity, inf with a
// sign), spaces.
func (r *geoReader) float() (float64, error) {
	r.spaces()
	if r.p >= len(r.s) {
		return 0, r.syntax()
	}
	start := r.p
	i := r.p
	if r.s[i] == '+' || r.s[i] == '-' {
		i++
	}
	rest := strings.ToLower(r.s[i:])
	var f float64
	switch {
	case strings.HasPrefix(rest, "infinity"), strings.HasPrefix(rest, "inf"):
		n := 3
		if strings.HasPrefix(rest, "infinity") {
			n = 8
		}
		f = math.Inf(1)
		if r.s[start] == '-' {
			f = math.Inf(-1)
		}
		r.p = i + n
	case strings.HasPrefix(rest, "nan"):
		f, r.p = pgNaN, i+3
	default:
		digits := 0
		for i < len(r.s) && r.s[i] >= '0' && r.s[i] <= '9' {
			i, digits = i+1, digits+1
		}
		if i < len(r.s) && r.s[i] == '.' {
			i++
			for i < len(r.s) && r.s[i] >= '0' && r.s[i] <= '9' {
				i, digits = i+1, digits+1
			}
		}
		if digits == 0 {
			return 0, r.syntax()
		}
		if i < len(r.s) && (r.s[i] == 'e' || r.s[i] == 'E') {
			j := i + 1
			if j < len(r.s) && (r.s[j] == '+' || r.s[j] == '-') {
				j++
			}
			if j < len(r.s) && r.s[j] >= '0' && r.s[j] <= '9' {
				for j < len(r.s) && r.s[j] >= '0' && r.s[j] <= '9' {
					j++
				}
				i = j
			}
		}
		num := r.s[start:i]
		var err error
		f, err = strconv.ParseFloat(num, 64)
		if err != nil && !math.IsInf(f, 0) {
			return 0, r.syntax()
		}
		if math.IsInf(f, 0) || f == 0 && nonzeroMantissa(num) {
			return 0, pgerr.New(pgerr.NumericValueOutOfRange, "\"%s\" is out of range for type double precision", num)
		}
		r.p = i
	}
	r.spaces()
	return f, nil
}

// pair reads "x,y" or "(x,y)" (pair_decode); spaces after a closing
// parenthesis are skipped.
func (r *geoReader) pair() (Point, error) {
	r.spaces()
	paren := r.peek() == '('
	if paren {
		r.p++
	}
	x, err := r.float()
	if err != nil {
		return Point{}, err
	}
	if r.peek() != ',' {
		return Point{}, r.syntax()
	}
	r.p++
	y, err := r.float()
	if err != nil {
		return Point{}, err
	}
	if paren {
		if r.peek() != ')' {
			return Point{}, r.syntax()
		}
		r.p++
		r.spaces()
	}
	return Point{x, y}, nil
}

// points reads n points in path_decode's forms: "[...]" (an open path,
// when openType allows it), "((...),...)" or "(x,y,...)" with one outer
// parenthesis, or the bare pairs.
func (r *geoReader) points(n int, openType bool) (pts []Point, open bool, err error) {
	r.spaces()
	depth := 0
	switch r.peek() {
	case '[':
		if !openType {
			return nil, false, r.syntax()
		}
		open = true
		depth++
		r.p++
	case '(':
		cp := r.p + 1
		for cp < len(r.s) && isPGSpace(r.s[cp]) {
			cp++
		}
		if cp < len(r.s) && r.s[cp] == '(' || strings.LastIndexByte(r.s[r.p:], '(') == 0 {
			depth++
			r.p = cp
		}
	}
	pts = make([]Point, n)
	for i := range pts {
		if pts[i], err = r.pair(); err != nil {
			return nil, false, err
		}
		if r.peek() == ',' {
			r.p++
		}
	}
	for depth > 0 {
		if c := r.peek(); c == ')' || c == ']' && open && depth == 1 {
			depth--
			r.p++
			r.spaces()
		} else {
			return nil, false, r.syntax()
		}
	}
	return pts, open, nil
}

func (r *geoReader) end() error {
	if r.p != len(r.s) {
		return r.syntax()
	}
	return nil
}

// pairCount is pair_count: the number of points of a list of pairs
// with n commas, (n+1)/2, or -1 when n is even.
func pairCount(s string) int {
	n := strings.Count(s, ",")
	if n%2 == 0 {
		return -1
	}
	return (n + 1) / 2
}

// ParseGeo reads the text input of a geometric type (point_in,
// lseg_in, box_in, line_in, path_in, poly_in, circle_in).
func ParseGeo(id TypeID, s string) (Value, error) {
	r := &geoReader{s: s, orig: s, typ: infos[id].name}
	switch id {
	case GeoPoint:
		p, err := r.pair()
		if err != nil {
			return Null, err
		}
		return NewGeo(p), r.end()
	case GeoLSeg:
		pts, _, err := r.points(2, true)
		if err != nil {
			return Null, err
		}
		return NewGeo(LSeg{[2]Point{pts[0], pts[1]}}), r.end()
	case GeoBox:
		pts, _, err := r.points(2, false)
		if err != nil {
			return Null, err
		}
		b := Box{High: pts[0], Low: pts[1]}
		return NewGeo(b.normalized()), r.end()
	case GeoLine:
		return r.line()
	case GeoPath:
		n := pairCount(s)
		if n <= 0 {
			return Null, r.syntax()
		}
		r.spaces()
		depth := 0
		if r.peek() == '(' && strings.LastIndexByte(s[r.p:], '(') == 0 {
			r.p++
			depth++
		}
		pts, open, err := r.points(n, true)
		if err != nil {
			return Null, err
		}
		if depth > 0 {
			if r.peek() != ')' {
				return Null, r.syntax()
			}
			r.p++
			r.spaces()
		}
		return NewGeo(Path{Closed: !open, Points: pts}), r.end()
	case GeoPolygon:
		n := pairCount(s)
		if n <= 0 {
			return Null, r.syntax()
		}
		pts, _, err := r.points(n, false)
		if err != nil {
			return Null, err
		}
		return NewGeo(NewPolygon(pts)), r.end()
	case GeoCircle:
		return r.circle()
	}
	return Null, r.syntax()
}

// normalized reorders a box's corners so High is above and right of Low
// (box_in, box_recv).
func (b Box) normalized() Box {
	if Float8Lt(b.High.X, b.Low.X) {
		b.High.X, b.Low.X = b.Low.X, b.High.X
	}
	if Float8Lt(b.High.Y, b.Low.Y) {
		b.High.Y, b.Low.Y = b.Low.Y, b.High.Y
	}
	return b
}

// invalidLine is line_in's error (22P02) for a line that is none;
// line(point, point) reports the same text as 22023.
func invalidLine(what string) error {
	return pgerr.New(pgerr.InvalidTextRepresentation, "invalid line specification: %s", what)
}

// line reads "{A,B,C}" or two distinct points (line_in).
func (r *geoReader) line() (Value, error) {
	r.spaces()
	if r.peek() == '{' {
		r.p++
		var abc [3]float64
		for i := range abc {
			f, err := r.float()
			if err != nil {
				return Null, err
			}
			abc[i] = f
			want := byte(',')
			if i == 2 {
				want = '}'
			}
			if r.peek() != want {
				return Null, r.syntax()
			}
			r.p++
		}
		r.spaces()
		if err := r.end(); err != nil {
			return Null, err
		}
		l := Line{abc[0], abc[1], abc[2]}
		if GeoZero(l.A) && GeoZero(l.B) {
			return Null, invalidLine("A and B cannot both be zero")
		}
		return NewGeo(l), nil
	}
	pts, _, err := r.points(2, true)
	if err != nil {
		return Null, err
	}
	if err := r.end(); err != nil {
		return Null, err
	}
	if PointEq(pts[0], pts[1]) {
		return Null, invalidLine("must be two distinct points")
	}
	return NewGeo(LineThrough(pts[0], pts[1])), nil
}

// circle reads "<(x,y),r>", "((x,y),r)", "(x,y),r" or "x,y,r"
// (circle_in).
func (r *geoReader) circle() (Value, error) {
	r.spaces()
	depth := 0
	switch r.peek() {
	case '<':
		depth++
		r.p++
	case '(':
		cp := r.p + 1
		for cp < len(r.s) && isPGSpace(r.s[cp]) {
			cp++
		}
		if cp < len(r.s) && r.s[cp] == '(' {
			depth++
			r.p = cp
		}
	}
	c, err := r.pair()
	if err != nil {
		return Null, err
	}
	if r.peek() == ',' {
		r.p++
	}
	rad, err := r.float()
	if err != nil {
		return Null, err
	}
	if rad < 0 {
		return Null, r.syntax()
	}
	for depth > 0 {
		if ch := r.peek(); ch == ')' || ch == '>' && depth == 1 {
			depth--
			r.p++
			r.spaces()
		} else {
			return Null, r.syntax()
		}
	}
	return NewGeo(Circle{c, rad}), r.end()
}

// EPSILON is geo_decls.h's tolerance of the fuzzy comparisons.
const geoEpsilon = 1.0e-06

// GeoZero is FPzero: |a| within EPSILON of 0.
func GeoZero(a float64) bool { return math.Abs(a) <= geoEpsilon }

// GeoEq is FPeq: a and b equal (also both infinite alike) or within
// EPSILON.
func GeoEq(a, b float64) bool { return a == b || math.Abs(a-b) <= geoEpsilon }

// PointEq is point_eq_point: both coordinates FPeq, or, with a NaN
// among them, exactly equal (NaN equal to NaN).
func PointEq(p, q Point) bool {
	if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsNaN(q.X) || math.IsNaN(q.Y) {
		feq := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		return feq(p.X, q.X) && feq(p.Y, q.Y)
	}
	return GeoEq(p.X, q.X) && GeoEq(p.Y, q.Y)
}

// Slope is point_sl: the slope of the line through p and q, +Inf when
// they are (fuzzily) one above the other, 0 when level.
func Slope(p, q Point) float64 {
	switch {
	case GeoEq(p.X, q.X):
		return math.Inf(1)
	case GeoEq(p.Y, q.Y):
		return 0
	}
	return (p.Y - q.Y) / (p.X - q.X)
}

// LineThrough is the line through two points (line_construct with
// the slope of the segment between them).
func LineThrough(p, q Point) Line { return LineWithSlope(p, Slope(p, q)) }

// LineWithSlope is line_construct: the line through p with slope m.
func LineWithSlope(p Point, m float64) Line {
	switch {
	case math.IsInf(m, 0):
		// vertical: x = p.X
		return Line{A: -1, B: 0, C: p.X}
	case m == 0:
		// horizontal: y = p.Y
		return Line{A: 0, B: -1, C: p.Y}
	}
	c := p.Y - m*p.X
	if c == 0 {
		c = 0 // not -0
	}
	return Line{A: m, B: -1, C: c}
}

// appendGeo appends a geometric value's text output.
func appendGeo(buf []byte, v Value, st Style) []byte {
	pt := func(buf []byte, p Point) []byte {
		buf = append(buf, '(')
		buf = AppendFloatStyled(buf, p.X, 64, st)
		buf = append(buf, ',')
		buf = AppendFloatStyled(buf, p.Y, 64, st)
		return append(buf, ')')
	}
	pts := func(buf []byte, ps []Point) []byte {
		for i, p := range ps {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = pt(buf, p)
		}
		return buf
	}
	switch g := v.X.(type) {
	case Point:
		return pt(buf, g)
	case LSeg:
		buf = append(buf, '[')
		return append(pts(buf, g.P[:]), ']')
	case Box:
		return pt(append(pt(buf, g.High), ','), g.Low)
	case Line:
		buf = append(buf, '{')
		buf = AppendFloatStyled(buf, g.A, 64, st)
		buf = append(buf, ',')
		buf = AppendFloatStyled(buf, g.B, 64, st)
		buf = append(buf, ',')
		buf = AppendFloatStyled(buf, g.C, 64, st)
		return append(buf, '}')
	case Path:
		if g.Closed {
			return append(pts(append(buf, '('), g.Points), ')')
		}
		return append(pts(append(buf, '['), g.Points), ']')
	case Polygon:
		return append(pts(append(buf, '('), g.Points), ')')
	case Circle:
		buf = pt(append(buf, '<'), g.Center)
		buf = append(buf, ',')
		buf = AppendFloatStyled(buf, g.Radius, 64, st)
		return append(buf, '>')
	}
	return buf
}

// AppendGeoBinary appends a geometric value's binary form (point_send,
// lseg_send, box_send, line_send, path_send, poly_send, circle_send):
// big-endian float8s, a path's closed byte and a path's and polygon's
// int32 point count before the points.
func AppendGeoBinary(buf []byte, v Value) []byte {
	f := func(buf []byte, x float64) []byte { return binary.BigEndian.AppendUint64(buf, math.Float64bits(x)) }
	pt := func(buf []byte, p Point) []byte { return f(f(buf, p.X), p.Y) }
	switch g := v.X.(type) {
	case Point:
		return pt(buf, g)
	case LSeg:
		return pt(pt(buf, g.P[0]), g.P[1])
	case Box:
		return pt(pt(buf, g.High), g.Low)
	case Line:
		return f(f(f(buf, g.A), g.B), g.C)
	case Path:
		c := byte(0)
		if g.Closed {
			c = 1
		}
		buf = binary.BigEndian.AppendUint32(append(buf, c), uint32(len(g.Points)))
		for _, p := range g.Points {
			buf = pt(buf, p)
		}
		return buf
	case Polygon:
		buf = binary.BigEndian.AppendUint32(buf, uint32(len(g.Points)))
		for _, p := range g.Points {
			buf = pt(buf, p)
		}
		return buf
	case Circle:
		return f(pt(buf, g.Center), g.Radius)
	}
	return buf
}

func invalidBinary(format string, args ...any) error {
	return pgerr.New(pgerr.InvalidBinaryRepresentation, format, args...)
}

// maxGeoPoints is the most points a path or polygon may have (its size
// within a varlena's 1 GB).
const maxGeoPoints = (1<<30 - 64) / 16

// DecodeGeoBinary reads a geometric value's binary form, as the types'
// recv functions do (box corners reordered, a line's A and B not both
// zero, a circle's radius not negative).
func DecodeGeoBinary(id TypeID, src []byte) (Value, error) {
	short := func() error { return invalidBinary("insufficient data left in message") }
	off := 0
	f := func() (float64, error) {
		if len(src)-off < 8 {
			return 0, short()
		}
		x := math.Float64frombits(binary.BigEndian.Uint64(src[off:]))
		off += 8
		return x, nil
	}
	pt := func() (Point, error) {
		x, err := f()
		if err != nil {
			return Point{}, err
		}
		y, err := f()
		return Point{x, y}, err
	}
	npts := func(name string) ([]Point, error) {
		if len(src)-off < 4 {
			return nil, short()
		}
		n := int32(binary.BigEndian.Uint32(src[off:]))
		off += 4
		if n <= 0 || n > maxGeoPoints {
			return nil, invalidBinary("invalid number of points in external \"%s\" value", name)
		}
		if int64(len(src)-off) < int64(n)*16 {
			return nil, short()
		}
		pts := make([]Point, n)
		for i := range pts {
			pts[i], _ = pt()
		}
		return pts, nil
	}
	var g any
	var err error
	switch id {
	case GeoPoint:
		g, err = pt()
	case GeoLSeg:
		var l LSeg
		if l.P[0], err = pt(); err == nil {
			l.P[1], err = pt()
		}
		g = l
	case GeoBox:
		var b Box
		if b.High, err = pt(); err == nil {
			b.Low, err = pt()
		}
		g = b.normalized()
	case GeoLine:
		var l Line
		if l.A, err = f(); err == nil {
			if l.B, err = f(); err == nil {
				l.C, err = f()
			}
		}
		if err == nil && GeoZero(l.A) && GeoZero(l.B) {
			err = invalidBinary("invalid line specification: A and B cannot both be zero")
		}
		g = l
	case GeoPath:
		if len(src) < 1 {
			return Null, short()
		}
		closed := src[0] != 0
		off = 1
		var pts []Point
		pts, err = npts("path")
		g = Path{Closed: closed, Points: pts}
	case GeoPolygon:
		var pts []Point
		pts, err = npts("polygon")
		g = NewPolygon(pts)
	case GeoCircle:
		var c Circle
		if c.Center, err = pt(); err == nil {
			c.Radius, err = f()
		}
		if err == nil && c.Radius < 0 {
			err = invalidBinary("invalid radius in external \"circle\" value")
		}
		g = c
	}
	if err != nil {
		return Null, err
	}
	if off != len(src) {
		return Null, invalidBinary("incorrect binary data format")
	}
	return NewGeo(g), nil
}

// geoDatumSize is the stored size of a geometric value, as PostgreSQL's
// pg_column_size reports it.
func geoDatumSize(v Value) int64 {
	switch g := v.X.(type) {
	case Point:
		return 16
	case LSeg, Box:
		return 32
	case Line, Circle:
		return 24
	case Path:
		return 16 + 16*int64(len(g.Points))
	case Polygon:
		return 40 + 16*int64(len(g.Points))
	}
	return 0
}

// compareGeo orders geometric values by type and then by their binary
// form: total and consistent with Hash, which is all that is asked of
// types PostgreSQL has no btree order for.
func compareGeo(a, b Value) int {
	if x, y := GeoTypeID(a), GeoTypeID(b); x != y {
		return int(x) - int(y)
	}
	return strings.Compare(string(AppendGeoBinary(nil, a)), string(AppendGeoBinary(nil, b)))
}

// GeoElemType is the element type of the geometric types PostgreSQL
// subscripts as fixed-length arrays (point[0] is x; box[1] its low
// corner): float8 for point and line, point for lseg and box.
func GeoElemType(id TypeID) (Type, bool) {
	switch id {
	case GeoPoint, GeoLine:
		return TypeFloat8, true
	case GeoLSeg, GeoBox:
		return Type{ID: GeoPoint}, true
	}
	return Type{}, false
}

// GeoElem is element i of a subscriptable geometric value (GeoElemType),
// NULL outside its bounds, from 0.
func GeoElem(v Value, i int64) Value {
	var elems []Value
	switch g := v.X.(type) {
	case Point:
		elems = []Value{NewFloat(g.X), NewFloat(g.Y)}
	case Line:
		elems = []Value{NewFloat(g.A), NewFloat(g.B), NewFloat(g.C)}
	case LSeg:
		elems = []Value{NewGeo(g.P[0]), NewGeo(g.P[1])}
	case Box:
		elems = []Value{NewGeo(g.High), NewGeo(g.Low)}
	}
	if i < 0 || i >= int64(len(elems)) {
		return Null
	}
	return elems[i]
}
