package geo

import (
	"errors"
	"fmt"
	"math"
)

// This file holds ST_AsMVTGeom's pipeline for points and lines and the
// Mapbox vector tile geometry encoding ST_AsMVT writes, as PostGIS 3.3
// produces them. The rules were found by experiment against PostGIS 3.3
// (GEOS 3.11): the geometry is reduced to its highest dimension, lines
// smaller than half a tile pixel are dropped, the affine map to tile space
// is applied, vertices are rounded half to even onto the integer grid,
// repeated and exactly collinear vertices are removed, and the result is
// clipped to the tile widened by the buffer the way GEOS's rectangle
// intersection clips (boundary-only parts vanish, parts are not merged),
// then rounded onto the grid again.

// ErrMVTPolygon is MVTGeom's answer for polygons, which PostGIS clips and
// repairs with wagyu and GEOS; zproxy does not reproduce those.
var ErrMVTPolygon = errors.New("ST_AsMVTGeom of polygons is not supported")

// MVTDimensionError is PostGIS's error for a clipped multi-line whose
// parts came out of GEOS with and without Z (lwcollection_construct).
type MVTDimensionError struct{ First, Other int }

// Error is PostGIS's message.
func (e MVTDimensionError) Error() string {
	return fmt.Sprintf("lwcollection_construct: mixed dimension geometries: %d/%d", e.First, e.Other)
}

// basicDim is the highest dimension among s's non-empty members: 0 for
// points, 1 for lines, 2 for polygons, -1 when s is empty.
func basicDim(s *Shape) int {
	switch s.Kind {
	case Point, MultiPoint:
		if s.IsEmpty() {
			return -1
		}
		return 0
	case LineString, MultiLineString:
		if s.IsEmpty() {
			return -1
		}
		return 1
	case Polygon, MultiPolygon:
		if s.IsEmpty() {
			return -1
		}
		return 2
	}
	d := -1
	for _, p := range s.Parts {
		d = max(d, basicDim(p))
	}
	return d
}

// collectDim appends the single points or lines of dimension dim in s.
func collectDim(s *Shape, dim int, out []*Shape) []*Shape {
	switch s.Kind {
	case Point:
		if dim == 0 && !s.IsEmpty() {
			out = append(out, s)
		}
	case LineString:
		if dim == 1 && !s.IsEmpty() {
			out = append(out, s)
		}
	case Polygon:
	default:
		for _, p := range s.Parts {
			out = collectDim(p, dim, out)
		}
	}
	return out
}

// toBasic is s as one point, multipoint, line or multiline of its highest
// dimension: a collection keeps only the members of that dimension.
func toBasic(s *Shape, dim int) *Shape {
	if s.Kind == Point || s.Kind == LineString || s.Kind == MultiPoint || s.Kind == MultiLineString {
		return s
	}
	kind := MultiPoint
	if dim == 1 {
		kind = MultiLineString
	}
	return &Shape{Kind: kind, Z: s.Z, M: s.M, Parts: collectDim(s, dim, nil)}
}

// MVTGeom is ST_AsMVTGeom of a point or line geometry g for the tile
// bounds b (of positive width and height), extent > 0 and buffer (the
// int4 argument as the uint32 PostGIS reads it). ok is false where
// PostGIS returns NULL. Polygons give ErrMVTPolygon.
func MVTGeom(g Geom, b Box, extent int32, buffer uint32, clip bool) (out Geom, ok bool, err error) {
	dim := basicDim(g.Shape)
	if dim < 0 {
		return Geom{}, false, nil
	}
	s := toBasic(g.Shape, dim)
	width, height := b.MaxX-b.MinX, b.MaxY-b.MinY
	ext := float64(extent)
	resX, resY := width/ext, height/ext
	if k := g.Shape.Kind; k == LineString || k == MultiLineString || k == Polygon || k == MultiPolygon {
		// Lines smaller than half a pixel in both directions vanish,
		// measured by the box PostGIS keeps with the stored geometry;
		// PostGIS does not check collections.
		gb := storedBox(g.Shape)
		if gb.MaxX-gb.MinX < resX/2 && gb.MaxY-gb.MinY < resY/2 {
			return Geom{}, false, nil
		}
	}
	if dim == 2 {
		return Geom{}, false, ErrMVTPolygon
	}
	fx, fy := ext/width, -(ext / height)
	xoff, yoff := -b.MinX*fx, -b.MaxY*fy
	s = mapShape(s, func(x, y float64) (float64, float64) {
		return float64(x*fx) + xoff, float64(y*fy) + yoff
	})
	unit := Grid{SizeX: 1, SizeY: 1}
	s = SnapToGrid(s, unit)
	s = tidyMVT(s)
	if s.IsEmpty() {
		return Geom{}, false, nil
	}
	if clip {
		lo, hi := -float64(buffer), ext+float64(buffer)
		r := clipRect{lo, lo, hi, hi}
		sb, _ := s.Bounds()
		switch {
		case sb.MinX >= lo && sb.MaxX <= hi && sb.MinY >= lo && sb.MaxY <= hi:
			// Wholly inside: PostGIS does not clip.
		case sb.MaxX < lo || sb.MinX > hi || sb.MaxY < lo || sb.MinY > hi:
			return Geom{}, false, nil
		default:
			s, err = r.clip(s)
			if err != nil {
				return Geom{}, false, err
			}
			if s == nil {
				return Geom{}, false, nil
			}
		}
		// Clipping snaps to the grid once more, clipped or not: what the
		// collinear removal left repeated goes here, but only here.
		s = SnapToGrid(s, unit)
	}
	if s.IsEmpty() {
		return Geom{}, false, nil
	}
	if (s.Kind == MultiPoint || s.Kind == MultiLineString) && len(s.Parts) == 1 {
		s = s.Parts[0]
	}
	return Geom{SRID: g.SRID, Shape: s}, true, nil
}

// storedBox is the bounding box PostGIS reads off a stored geometry: in
// float4, rounded outwards, whether cached with the geometry or computed
// (PostGIS rounds a computed one the same way).
func storedBox(s *Shape) Box {
	b, _ := s.Bounds()
	return b.Float4()
}

// tidyMVT removes, after the snap to the grid, what PostGIS removes
// there: a multipoint's repeated points (its points then sorted by x,
// then y) and a line's exactly collinear middle vertices, a line left
// with two equal vertices vanishing.
func tidyMVT(s *Shape) *Shape {
	switch s.Kind {
	case MultiPoint:
		if out, _, err := RemoveRepeatedPoints(s, 0); err == nil {
			return out
		}
		return s
	case LineString, MultiLineString:
		out, _ := Simplify(s, 0, false)
		return out
	}
	return s
}

// mapShape is s with f applied to every vertex's x and y (z and m kept).
func mapShape(s *Shape, f func(x, y float64) (float64, float64)) *Shape {
	c := &Shape{Kind: s.Kind, Z: s.Z, M: s.M}
	st := s.Stride()
	mapSeq := func(in []float64) []float64 {
		out := append([]float64(nil), in...)
		for i := 0; i+1 < len(out); i += st {
			out[i], out[i+1] = f(out[i], out[i+1])
		}
		return out
	}
	c.Coords = mapSeq(s.Coords)
	for _, r := range s.Rings {
		c.Rings = append(c.Rings, mapSeq(r))
	}
	for _, p := range s.Parts {
		c.Parts = append(c.Parts, mapShape(p, f))
	}
	return c
}

// clipRect is the rectangle GEOS's ClipByRect clips to.
type clipRect struct{ minX, minY, maxX, maxY float64 }

// Positions of a point against a clipRect: inside, outside, or on one or
// two (a corner) of its edges.
const (
	posInside  = 1
	posOutside = 2
	posLeft    = 4
	posTop     = 8
	posRight   = 16
	posBottom  = 32
)

func (r clipRect) position(x, y float64) int {
	if x > r.minX && x < r.maxX && y > r.minY && y < r.maxY {
		return posInside
	}
	if x < r.minX || x > r.maxX || y < r.minY || y > r.maxY {
		return posOutside
	}
	p := 0
	if x == r.minX {
		p |= posLeft
	} else if x == r.maxX {
		p |= posRight
	}
	if y == r.minY {
		p |= posBottom
	} else if y == r.maxY {
		p |= posTop
	}
	return p
}

func rectOnEdge(p int) bool               { return p > posOutside }
func onSameEdge(p, q int) bool            { return rectOnEdge(p & q) }
func differs(ax, ay, bx, by float64) bool { return ax != bx || ay != by }

// toEdges moves (x, y), outside r, along the segment towards (tx, ty)
// onto r's edges: first onto the vertical edge it lies beyond, then the
// horizontal one. A segment ending on that edge line moves to its end; a
// segment parallel to the edge does not move (GEOS leaves it so, no
// division by zero); otherwise the offset is the difference times the
// distance over the run, multiplied before dividing, as GEOS computes it.
func (r clipRect) toEdges(x, y, tx, ty float64) (float64, float64) {
	if x < r.minX {
		x, y = clipOneEdge(x, y, tx, ty, r.minX)
	} else if x > r.maxX {
		x, y = clipOneEdge(x, y, tx, ty, r.maxX)
	}
	if y < r.minY {
		y, x = clipOneEdge(y, x, ty, tx, r.minY)
	} else if y > r.maxY {
		y, x = clipOneEdge(y, x, ty, tx, r.maxY)
	}
	return x, y
}

// clipOneEdge moves (a, b) along the segment to (ta, tb) to a = limit.
func clipOneEdge(a, b, ta, tb, limit float64) (float64, float64) {
	if ta == limit {
		a, b = ta, tb
	}
	if a != ta {
		b += float64((tb-b)*(limit-a)) / (ta - a)
		a = limit
	}
	return a, b
}

// clip is GEOS's rectangle intersection of a point or line shape: points
// strictly inside kept, lines cut where they leave r with the parts
// lying on r's boundary dropped. nil when nothing is left. Lines lose M
// (GEOS has none) and keep Z only when their first vertex is an input
// vertex; the vertices GEOS makes have a NaN Z.
func (r clipRect) clip(s *Shape) (*Shape, error) {
	switch s.Kind {
	case Point, MultiPoint:
		var pts []*Shape
		for _, p := range pointsOf(s) {
			if r.position(p.Coords[0], p.Coords[1]) == posInside {
				pts = append(pts, dropM(p))
			}
		}
		switch len(pts) {
		case 0:
			return nil, nil
		case 1:
			return pts[0], nil
		}
		return &Shape{Kind: MultiPoint, Z: s.Z, Parts: pts}, nil
	}
	var lines []*Shape
	for _, l := range linesOf(s) {
		lines = r.clipLine(l, lines)
	}
	switch len(lines) {
	case 0:
		return nil, nil
	case 1:
		return lines[0], nil
	}
	// PostGIS reads the collection GEOS returns as having Z when its first
	// vertex has one, and each part likewise; a part without Z in a
	// collection with Z is its error, and no part has Z in one without.
	for i, l := range lines {
		switch {
		case !lines[0].Z:
			lines[i] = l.Force2D()
		case !l.Z:
			return nil, MVTDimensionError{2, 0}
		}
	}
	return &Shape{Kind: MultiLineString, Z: lines[0].Z, Parts: lines}, nil
}

func pointsOf(s *Shape) []*Shape {
	if s.Kind == Point {
		return []*Shape{s}
	}
	return s.Parts
}

func linesOf(s *Shape) []*Shape {
	if s.Kind == LineString {
		return []*Shape{s}
	}
	return s.Parts
}

// dropM is s without its M ordinate.
func dropM(s *Shape) *Shape {
	if !s.M {
		return s
	}
	st := s.Stride()
	keep := st - 1
	c := &Shape{Kind: s.Kind, Z: s.Z}
	for i := 0; i+st <= len(s.Coords); i += st {
		c.Coords = append(c.Coords, s.Coords[i:i+keep]...)
	}
	return c
}

// clipVertex is one vertex of a clipped line: x, y and (NaN for a
// made-up one) z.
type clipVertex struct{ x, y, z float64 }

// clipLine appends to out the parts of line l inside r (l itself when it
// lies wholly inside or on r), walking its vertices: outside runs are
// skipped, a segment entering r starts a part at its entry point, a
// segment leaving r ends the part at its exit point, and runs along one
// edge end the part without adding to it.
func (r clipRect) clipLine(l *Shape, out []*Shape) []*Shape {
	st := l.Stride()
	n := len(l.Coords) / st
	if n < 1 {
		return out
	}
	nan := math.NaN()
	vx := func(i int) float64 { return l.Coords[i*st] }
	vy := func(i int) float64 { return l.Coords[i*st+1] }
	vert := func(i int) clipVertex {
		z := nan
		if l.Z {
			z = l.Coords[i*st+2]
		}
		return clipVertex{vx(i), vy(i), z}
	}
	emit := func(vs []clipVertex) {
		withZ := l.Z && !math.IsNaN(vs[0].z)
		c := &Shape{Kind: LineString, Z: withZ}
		for _, v := range vs {
			c.Coords = append(c.Coords, v.x, v.y)
			if withZ {
				c.Coords = append(c.Coords, v.z)
			}
		}
		out = append(out, c)
	}
	var startX, startY float64
	addStart := false
	part := func(from, to int) []clipVertex {
		var vs []clipVertex
		if addStart {
			vs = append(vs, clipVertex{startX, startY, nan})
			addStart = false
		}
		for k := from; k < to; k++ {
			vs = append(vs, vert(k))
		}
		return vs
	}
	i := 0
	for i < n {
		x, y := vx(i), vy(i)
		pos := r.position(x, y)
		if pos == posOutside {
			i++
			// Skip the vertices beyond the same side of r.
			switch {
			case x < r.minX:
				for i < n && vx(i) < r.minX {
					i++
				}
			case x > r.maxX:
				for i < n && vx(i) > r.maxX {
					i++
				}
			case y < r.minY:
				for i < n && vy(i) < r.minY {
					i++
				}
			case y > r.maxY:
				for i < n && vy(i) > r.maxY {
					i++
				}
			}
			if i >= n {
				return out
			}
			x, y = vx(i), vy(i)
			pos = r.position(x, y)
			x0, y0 := r.toEdges(vx(i-1), vy(i-1), x, y)
			startX, startY = x0, y0
			switch {
			case pos == posInside:
				addStart = true
			case pos == posOutside:
				// A segment from outside to outside may cross r.
				x1, y1 := r.toEdges(x, y, x0, y0)
				p0, p1 := r.position(x0, y0), r.position(x1, y1)
				if differs(x0, y0, x1, y1) && rectOnEdge(p0) && rectOnEdge(p1) && !onSameEdge(p0, p1) {
					emit([]clipVertex{{x0, y0, nan}, {x1, y1, nan}})
				}
			default:
				// Outside to an edge: through r unless it enters on the
				// edge it ends on.
				if !onSameEdge(pos, r.position(x0, y0)) {
					addStart = true
				}
			}
			continue
		}
		start := i
		goOutside := false
		for !goOutside {
			i++
			if i >= n {
				break
			}
			x, y = vx(i), vy(i)
			prev := pos
			pos = r.position(x, y)
			switch {
			case pos == posInside:
			case pos == posOutside:
				goOutside = true
				cx, cy := r.toEdges(x, y, vx(i-1), vy(i-1))
				pos = r.position(cx, cy)
				through := differs(cx, cy, x, y) && !onSameEdge(prev, pos)
				if start < i-1 || addStart || through {
					vs := part(start, i)
					if through {
						vs = append(vs, clipVertex{cx, cy, nan})
					}
					emit(vs)
				}
			default:
				if onSameEdge(prev, pos) {
					if start < i-1 || addStart {
						emit(part(start, i))
					}
					start = i
				}
			}
		}
		if start == 0 && i >= n {
			// Wholly inside or on r: the line itself.
			return append(out, dropM(l))
		}
		if !goOutside && (start < i-1 || addStart) {
			emit(part(start, i))
		}
	}
	return out
}

// MVT geometry types and commands (the vector tile spec's GeomType and
// command integers).
const (
	MVTPoint      = 1
	MVTLineString = 2
	MVTPolygon    = 3

	mvtMoveTo    = 1
	mvtLineTo    = 2
	mvtClosePath = 7
)

// MVTKindError is MVTEncode's error for a kind a tile cannot hold; its
// message names the kind as PostGIS does.
type MVTKindError struct{ Kind string }

// Error is PostGIS's message.
func (e MVTKindError) Error() string {
	return fmt.Sprintf("encode_feature_geometry: '%s' geometry type not supported", e.Kind)
}

// mvtInt is a tile coordinate as PostGIS takes it: the double truncated
// to an int32, NaN and out-of-range values becoming math.MinInt32 as the
// x86 conversion makes them.
func mvtInt(v float64) int32 {
	if math.IsNaN(v) || v >= 2147483648 || v <= -2147483649 {
		return math.MinInt32
	}
	return int32(v)
}

func mvtZigZag(v int32) uint32 { return uint32(v<<1) ^ uint32(v>>31) }

func mvtCommand(id, count int) uint32 { return uint32(id&7) | uint32(count)<<3 }

// mvtWriter accumulates a feature's geometry commands, with the cursor
// the deltas are taken from (int32 arithmetic, wrapping as PostGIS's).
type mvtWriter struct {
	cmds   []uint32
	cx, cy int32
}

func (w *mvtWriter) seq(c []float64, st, from, to int) {
	for i := from; i < to; i++ {
		x, y := mvtInt(c[i*st]), mvtInt(c[i*st+1])
		w.cmds = append(w.cmds, mvtZigZag(x-w.cx), mvtZigZag(y-w.cy))
		w.cx, w.cy = x, y
	}
}

// line writes a line string (or a ring without its closing vertex):
// MoveTo its first vertex, LineTo the rest.
func (w *mvtWriter) line(c []float64, st, n int) {
	if n == 0 {
		return
	}
	w.cmds = append(w.cmds, mvtCommand(mvtMoveTo, 1))
	w.seq(c, st, 0, 1)
	w.cmds = append(w.cmds, mvtCommand(mvtLineTo, n-1))
	w.seq(c, st, 1, n)
}

// MVTEncode is a geometry's vector tile feature type and geometry
// commands, as ST_AsMVT writes them: coordinates truncated to integers,
// each relative to the one before, rings without their closing vertex and
// ended by ClosePath, empty members left out. An empty point is PostGIS's
// MoveTo of no vertex followed by two zeros.
func MVTEncode(s *Shape) (typ uint32, cmds []uint32, err error) {
	var w mvtWriter
	st := s.Stride()
	switch s.Kind {
	case Point:
		if s.IsEmpty() {
			return MVTPoint, []uint32{mvtCommand(mvtMoveTo, 0), 0, 0}, nil
		}
		w.cmds = append(w.cmds, mvtCommand(mvtMoveTo, 1))
		w.seq(s.Coords, st, 0, 1)
		return MVTPoint, w.cmds, nil
	case MultiPoint:
		var pts []float64
		for _, p := range s.Parts {
			if !p.IsEmpty() {
				pts = append(pts, p.Coords[:st]...)
			}
		}
		if n := len(pts) / st; n > 0 {
			w.cmds = append(w.cmds, mvtCommand(mvtMoveTo, n))
			w.seq(pts, st, 0, n)
		}
		return MVTPoint, w.cmds, nil
	case LineString:
		w.line(s.Coords, st, len(s.Coords)/st)
		return MVTLineString, w.cmds, nil
	case MultiLineString:
		for _, p := range s.Parts {
			w.line(p.Coords, st, len(p.Coords)/st)
		}
		return MVTLineString, w.cmds, nil
	case Polygon, MultiPolygon:
		polys := []*Shape{s}
		if s.Kind == MultiPolygon {
			polys = s.Parts
		}
		for _, p := range polys {
			for _, r := range p.Rings {
				n := len(r) / st
				if n == 0 {
					continue
				}
				w.line(r, st, n-1)
				w.cmds = append(w.cmds, mvtCommand(mvtClosePath, 1))
			}
		}
		return MVTPolygon, w.cmds, nil
	}
	return 0, nil, MVTKindError{s.Kind.String()}
}
