package geo

import "math"

// This file holds ST_SimplifyPreserveTopology: GEOS 3.11's
// TopologyPreservingSimplifier (JTS's), which PostGIS 3 calls, written
// from its documented behaviour. Every line and ring is simplified by
// Douglas-Peucker, but a section is flattened to one segment only when
// that segment crosses no segment still in the input (other than the ones
// it replaces) and none already output; a closed line keeps at least four
// vertices. Lines are simplified in the order the geometry holds them,
// each against the segments its predecessors left, so the answer depends
// on that order as GEOS's does.

// tpsSeg is one segment of the simplifier's indexes: an input segment
// (line, index: its line and first vertex) or an output one (line -1).
type tpsSeg struct {
	x0, y0, x1, y1 float64
	line, index    int
	removed        bool
}

func (s *tpsSeg) box() (minX, minY, maxX, maxY float64) {
	return math.Min(s.x0, s.x1), math.Min(s.y0, s.y1), math.Max(s.x0, s.x1), math.Max(s.y0, s.y1)
}

// segGrid is a uniform grid over the geometry's extent holding the
// segments whose boxes meet each cell: the simplifier asks, for every
// candidate segment, which segments meet its box, and a feature of
// thousands of vertices would make a list quadratic.
type segGrid struct {
	minX, minY, cellW, cellH float64
	nx, ny                   int
	cells                    [][]int32
	segs                     []tpsSeg
	seen                     []uint32
	stamp                    uint32
}

func newSegGrid(minX, minY, maxX, maxY float64, nSegs int) *segGrid {
	side := int(math.Ceil(math.Sqrt(float64(nSegs) / 2)))
	if side < 1 {
		side = 1
	}
	if side > 512 {
		side = 512
	}
	g := &segGrid{minX: minX, minY: minY, nx: side, ny: side}
	w, h := maxX-minX, maxY-minY
	if !(w > 0) || math.IsInf(w, 0) || !(h > 0) || math.IsInf(h, 0) {
		// A degenerate or unbounded extent: one cell in that direction.
		if !(w > 0) || math.IsInf(w, 0) {
			g.nx = 1
		}
		if !(h > 0) || math.IsInf(h, 0) {
			g.ny = 1
		}
	}
	g.cellW, g.cellH = w/float64(g.nx), h/float64(g.ny)
	g.cells = make([][]int32, g.nx*g.ny)
	return g
}

// cellRange is the cells [i0, i1] of the coordinates [lo, hi] on one axis.
func cellRange(lo, hi, min, width float64, n int) (int, int) {
	if n == 1 || !(width > 0) {
		return 0, 0
	}
	clamp := func(v float64) int {
		c := math.Floor((v - min) / width)
		switch {
		case !(c >= 0):
			return 0
		case c >= float64(n-1):
			return n - 1
		}
		return int(c)
	}
	return clamp(lo), clamp(hi)
}

func (g *segGrid) add(s tpsSeg) {
	id := int32(len(g.segs))
	g.segs = append(g.segs, s)
	g.seen = append(g.seen, 0)
	x0, y0, x1, y1 := s.box()
	i0, i1 := cellRange(x0, x1, g.minX, g.cellW, g.nx)
	j0, j1 := cellRange(y0, y1, g.minY, g.cellH, g.ny)
	for j := j0; j <= j1; j++ {
		for i := i0; i <= i1; i++ {
			g.cells[j*g.nx+i] = append(g.cells[j*g.nx+i], id)
		}
	}
}

// any reports whether f holds for a segment still in g whose box meets
// the box of (x0, y0)-(x1, y1).
func (g *segGrid) any(x0, y0, x1, y1 float64, f func(*tpsSeg) bool) bool {
	minX, minY, maxX, maxY := math.Min(x0, x1), math.Min(y0, y1), math.Max(x0, x1), math.Max(y0, y1)
	g.stamp++
	i0, i1 := cellRange(minX, maxX, g.minX, g.cellW, g.nx)
	j0, j1 := cellRange(minY, maxY, g.minY, g.cellH, g.ny)
	for j := j0; j <= j1; j++ {
		for i := i0; i <= i1; i++ {
			for _, id := range g.cells[j*g.nx+i] {
				if g.seen[id] == g.stamp {
					continue
				}
				g.seen[id] = g.stamp
				s := &g.segs[id]
				if s.removed {
					continue
				}
				if sx0, sy0, sx1, sy1 := s.box(); sx1 < minX || sx0 > maxX || sy1 < minY || sy0 > maxY {
					continue
				}
				if f(s) {
					return true
				}
			}
		}
	}
	return false
}

// tpsLine is one line or ring being simplified: its vertices' offsets
// into coords, the minimum vertex count of its result, and the result's
// segments so far as the vertex indices they join.
type tpsLine struct {
	coords  []float64
	stride  int
	n       int
	minSize int
	result  []int // the first vertex of the result, then each segment's end
	inSegs  []int32
}

func (l *tpsLine) xy(i int) (float64, float64) {
	return l.coords[i*l.stride], l.coords[i*l.stride+1]
}

// resultSize is the number of vertices of the result so far.
func (l *tpsLine) resultSize() int { return len(l.result) }

func (l *tpsLine) addToResult(i, j int) {
	if len(l.result) == 0 {
		l.result = append(l.result, i)
	}
	l.result = append(l.result, j)
}

// pointSegmentDistance is JTS's Distance.pointToSegment, operation for
// operation.
func pointSegmentDistance(px, py, ax, ay, bx, by float64) float64 {
	if ax == bx && ay == by {
		return math.Sqrt(float64((px-ax)*(px-ax)) + float64((py-ay)*(py-ay)))
	}
	len2 := float64((bx-ax)*(bx-ax)) + float64((by-ay)*(by-ay))
	r := (float64((px-ax)*(bx-ax)) + float64((py-ay)*(by-ay))) / len2
	if r <= 0 {
		return math.Sqrt(float64((px-ax)*(px-ax)) + float64((py-ay)*(py-ay)))
	}
	if r >= 1 {
		return math.Sqrt(float64((px-bx)*(px-bx)) + float64((py-by)*(py-by)))
	}
	s := (float64((ay-py)*(bx-ax)) - float64((ax-px)*(by-ay))) / len2
	return math.Abs(s) * math.Sqrt(len2)
}

// interiorIntersection reports whether segments p1-p2 and q1-q2 meet at a
// point that is not an endpoint of both (JTS's LineIntersector,
// isInteriorIntersection): a crossing, an endpoint on the other's
// interior, or an overlap beyond shared endpoints. Orientations are exact.
func interiorIntersection(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y float64) bool {
	if math.Max(q1x, q2x) < math.Min(p1x, p2x) || math.Min(q1x, q2x) > math.Max(p1x, p2x) ||
		math.Max(q1y, q2y) < math.Min(p1y, p2y) || math.Min(q1y, q2y) > math.Max(p1y, p2y) {
		return false
	}
	pq1 := orientation(p1x, p1y, p2x, p2y, q1x, q1y)
	pq2 := orientation(p1x, p1y, p2x, p2y, q2x, q2y)
	if pq1*pq2 > 0 {
		return false
	}
	qp1 := orientation(q1x, q1y, q2x, q2y, p1x, p1y)
	qp2 := orientation(q1x, q1y, q2x, q2y, p2x, p2y)
	if qp1*qp2 > 0 {
		return false
	}
	type pt struct{ x, y float64 }
	p1, p2, q1, q2 := pt{p1x, p1y}, pt{p2x, p2y}, pt{q1x, q1y}, pt{q2x, q2y}
	interior := func(pts ...pt) bool {
		for _, v := range pts {
			if (v != p1 && v != p2) || (v != q1 && v != q2) {
				return true
			}
		}
		return false
	}
	if pq1 == 0 && pq2 == 0 && qp1 == 0 && qp2 == 0 {
		within := func(a, b, v pt) bool {
			return v.x >= math.Min(a.x, b.x) && v.x <= math.Max(a.x, b.x) && v.y >= math.Min(a.y, b.y) && v.y <= math.Max(a.y, b.y)
		}
		q1inP, q2inP := within(p1, p2, q1), within(p1, p2, q2)
		p1inQ, p2inQ := within(q1, q2, p1), within(q1, q2, p2)
		// One shared point and no more is a point intersection: only the
		// first of the pair counts.
		pair := func(a, b pt, alone bool) bool {
			if a == b && alone {
				return interior(a)
			}
			return interior(a, b)
		}
		switch {
		case q1inP && q2inP:
			return interior(q1, q2)
		case p1inQ && p2inQ:
			return interior(p1, p2)
		case q1inP && p1inQ:
			return pair(q1, p1, !q2inP && !p2inQ)
		case q1inP && p2inQ:
			return pair(q1, p2, !q2inP && !p1inQ)
		case q2inP && p1inQ:
			return pair(q2, p1, !q1inP && !p2inQ)
		case q2inP && p2inQ:
			return pair(q2, p2, !q1inP && !p1inQ)
		}
		return false
	}
	if pq1 == 0 || pq2 == 0 || qp1 == 0 || qp2 == 0 {
		var at pt
		switch {
		case p1 == q1 || p1 == q2:
			at = p1
		case p2 == q1 || p2 == q2:
			at = p2
		case pq1 == 0:
			at = q1
		case pq2 == 0:
			at = q2
		case qp1 == 0:
			at = p1
		default:
			at = p2
		}
		return interior(at)
	}
	return true // a proper crossing
}

// topologySimplifier is TaggedLinesSimplifier: the segments of every line
// not yet flattened away (input) and the flattened segments (output).
type topologySimplifier struct {
	tol           float64
	input, output *segGrid
	lines         []*tpsLine
}

func (ts *topologySimplifier) simplifySection(lineID, i, j, depth int) {
	l := ts.lines[lineID]
	depth++
	if i+1 == j {
		l.addToResult(i, j)
		return
	}
	valid := true
	if l.resultSize() < l.minSize && depth+1 < l.minSize {
		valid = false
	}
	ax, ay := l.xy(i)
	bx, by := l.xy(j)
	furthest, maxDist := i, -1.0
	for k := i + 1; k < j; k++ {
		px, py := l.xy(k)
		if d := pointSegmentDistance(px, py, ax, ay, bx, by); d > maxDist {
			furthest, maxDist = k, d
		}
	}
	if maxDist > ts.tol {
		valid = false
	}
	if valid && ts.badIntersection(lineID, i, j, ax, ay, bx, by) {
		valid = false
	}
	if valid {
		for k := i; k < j; k++ {
			ts.input.segs[l.inSegs[k]].removed = true
		}
		ts.output.add(tpsSeg{x0: ax, y0: ay, x1: bx, y1: by, line: -1})
		l.addToResult(i, j)
		return
	}
	ts.simplifySection(lineID, i, furthest, depth)
	ts.simplifySection(lineID, furthest, j, depth)
}

// badIntersection reports whether the segment a-b that would replace
// line's vertices i..j crosses an output segment, or an input segment
// other than the ones it replaces.
func (ts *topologySimplifier) badIntersection(lineID, i, j int, ax, ay, bx, by float64) bool {
	if ts.output.any(ax, ay, bx, by, func(s *tpsSeg) bool {
		return interiorIntersection(s.x0, s.y0, s.x1, s.y1, ax, ay, bx, by)
	}) {
		return true
	}
	return ts.input.any(ax, ay, bx, by, func(s *tpsSeg) bool {
		if !interiorIntersection(s.x0, s.y0, s.x1, s.y1, ax, ay, bx, by) {
			return false
		}
		return s.line != lineID || s.index < i || s.index >= j
	})
}

// SimplifyPreserveTopology is ST_SimplifyPreserveTopology (GEOS's
// TopologyPreservingSimplifier) of s with tolerance tol >= 0: its lines
// and rings simplified so that none crosses another or itself where it
// did not. The result keeps Z but not M, as PostGIS's round trip through
// GEOS does, and a multi-geometry of one part comes back as that part, as
// GEOS builds it.
func SimplifyPreserveTopology(s *Shape, tol float64) *Shape {
	if s.IsEmpty() {
		return s
	}
	ts := &topologySimplifier{tol: tol}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	nSegs := 0
	var collect func(sh *Shape)
	addLine := func(c []float64, st int) {
		n := len(c) / st
		if n == 0 {
			return
		}
		l := &tpsLine{coords: c, stride: st, n: n, minSize: 2}
		if c[0] == c[(n-1)*st] && c[1] == c[(n-1)*st+1] {
			l.minSize = 4
		}
		for i := 0; i < n; i++ {
			x, y := l.xy(i)
			minX, minY, maxX, maxY = math.Min(minX, x), math.Min(minY, y), math.Max(maxX, x), math.Max(maxY, y)
		}
		nSegs += n - 1
		ts.lines = append(ts.lines, l)
	}
	collect = func(sh *Shape) {
		st := sh.Stride()
		switch sh.Kind {
		case LineString:
			addLine(sh.Coords, st)
		case Polygon:
			for _, r := range sh.Rings {
				addLine(r, st)
			}
		}
		for _, p := range sh.Parts {
			collect(p)
		}
	}
	collect(s)
	ts.input = newSegGrid(minX, minY, maxX, maxY, nSegs)
	ts.output = newSegGrid(minX, minY, maxX, maxY, nSegs)
	for id, l := range ts.lines {
		l.inSegs = make([]int32, l.n-1)
		for i := 0; i+1 < l.n; i++ {
			x0, y0 := l.xy(i)
			x1, y1 := l.xy(i + 1)
			l.inSegs[i] = int32(len(ts.input.segs))
			ts.input.add(tpsSeg{x0: x0, y0: y0, x1: x1, y1: y1, line: id, index: i})
		}
	}
	for id, l := range ts.lines {
		ts.simplifySection(id, 0, l.n-1, 0)
	}
	next := 0
	return ts.rebuild(s, &next)
}

// rebuild is s with each line's result in place of its vertices, without
// M, and each multi-geometry of one part replaced by the part (GEOS's
// buildGeometry); a collection stays a collection.
func (ts *topologySimplifier) rebuild(s *Shape, next *int) *Shape {
	st := s.Stride()
	out := &Shape{Kind: s.Kind, Z: s.Z}
	keep := func(c []float64) []float64 {
		if len(c) == 0 {
			return nil
		}
		l := ts.lines[*next]
		*next++
		w := 2
		if s.Z {
			w = 3
		}
		res := make([]float64, 0, len(l.result)*w)
		for _, i := range l.result {
			res = append(res, c[i*st:i*st+w]...)
		}
		return res
	}
	switch s.Kind {
	case Point:
		if len(s.Coords) > 0 {
			out.Coords = append([]float64(nil), s.Coords[:2]...)
			if s.Z {
				out.Coords = append(out.Coords, s.Coords[2])
			}
		}
		return out
	case LineString:
		out.Coords = keep(s.Coords)
		return out
	case Polygon:
		for _, r := range s.Rings {
			out.Rings = append(out.Rings, keep(r))
		}
		return out
	}
	for _, p := range s.Parts {
		q := ts.rebuild(p, next)
		if q.IsEmpty() {
			continue
		}
		out.Parts = append(out.Parts, q)
	}
	if s.Kind != GeometryCollection && len(out.Parts) == 1 {
		return out.Parts[0]
	}
	return out
}
