package zorder

import (
	"math"
	"sort"
)

// XZ2 is an XZ-ordering of rectangles (Böhm, Klump and Kriegel's
// XZ-ordering; GeoMesa's XZ2 space-filling curve): the world square is
// split as a quadtree of Levels levels, each cell's "enlarged element" is
// the cell grown to twice its width up and to the right, and a rectangle
// is coded by the deepest cell whose enlarged element holds it (the cell
// holding its lower-left corner). Codes number the quadtree's cells in
// depth-first order, so the cells under one cell are one interval of
// codes, and a query box becomes the codes of the cells whose enlarged
// element meets it: a few intervals.
//
// A rectangle outside the world, or with a NaN corner, gets code 0, the
// root's, which every query's ranges hold: it is always read and the exact
// predicate decides, so a world too small costs reads, never answers.
type XZ2 struct {
	MinX float64 `json:"min_x"`
	MinY float64 `json:"min_y"`
	MaxX float64 `json:"max_x"`
	MaxY float64 `json:"max_y"`
	// Levels is the quadtree's depth g, at most MaxXZLevels.
	Levels int `json:"levels"`
}

// MaxXZLevels is the deepest XZ2 quadtree whose codes fit an int64
// ((4^(g+1)-1)/3 codes).
const MaxXZLevels = 30

// XZRange is a half-open interval [Lo, Hi) of XZ2 codes.
type XZRange struct{ Lo, Hi int64 }

// subtree is the number of cells of a subtree whose root is at level l
// (levels l..g): (4^(g-l+1)-1)/3.
func (s XZ2) subtree(l int) int64 { return (int64(1)<<(2*uint(s.Levels-l+1)) - 1) / 3 }

// Codes is the number of codes: every code lies in [0, Codes()).
func (s XZ2) Codes() int64 { return s.subtree(0) }

// norm maps x and y into the unit square (monotonically: IEEE subtraction
// and division round monotonically, so a rectangle that meets a query box
// still meets it once both are mapped).
func (s XZ2) norm(x, y float64) (float64, float64) {
	return (x - s.MinX) / (s.MaxX - s.MinX), (y - s.MinY) / (s.MaxY - s.MinY)
}

// Code returns the code of the rectangle [minx, maxx] × [miny, maxy].
func (s XZ2) Code(minx, miny, maxx, maxy float64) int64 {
	x0, y0 := s.norm(minx, miny)
	x1, y1 := s.norm(maxx, maxy)
	if !(x0 >= 0 && y0 >= 0 && x1 <= 1 && y1 <= 1 && x0 <= x1 && y0 <= y1) {
		return 0 // outside the world, or NaN: the root, read by every query
	}
	code := int64(0)
	cx, cy, w := 0.0, 0.0, 1.0 // the current cell's corner and width
	for l := 0; l < s.Levels; l++ {
		h := w / 2
		q := int64(0)
		nx, ny := cx, cy
		if x0 >= cx+h {
			q, nx = q+1, cx+h
		}
		if y0 >= cy+h {
			q, ny = q+2, cy+h
		}
		// The child's enlarged element is [nx, nx+2h] × [ny, ny+2h]:
		// stop at the deepest cell whose element holds the rectangle
		// (holding is monotone: a parent's element holds its children's).
		if x1 > nx+2*h || y1 > ny+2*h {
			break
		}
		code += 1 + q*s.subtree(l+1)
		cx, cy, w = nx, ny, h
	}
	return code
}

// Ranges returns sorted, disjoint code intervals holding the code of
// every rectangle that meets the box [minx, maxx] × [miny, maxy], the
// root's code among them, in at most max intervals (at least 2). Cells
// are refined level by level down to the finest unless that would make
// far more intervals than max (a large box's boundary), when the cells
// left are taken whole; then the intervals nearest in code space are
// merged, which are those of the finest cells: the coarse cells' codes,
// far apart, stay single, and the merged gaps hold few codes.
func (s XZ2) Ranges(minx, miny, maxx, maxy float64, max int) []XZRange {
	max = int(math.Max(float64(max), 2))
	x0, y0 := s.norm(minx, miny)
	x1, y1 := s.norm(maxx, maxy)
	out := []XZRange{{0, 1}}
	if !(x0 <= x1 && y0 <= y1) || x1 < 0 || y1 < 0 || x0 > 2 || y0 > 2 {
		return out // an empty box, NaN, or beyond every element: the root only
	}
	type cell struct {
		code   int64
		cx, cy float64
		l      int
	}
	// Breadth first, so that when the budget runs out the cells left are
	// the coarsest, taken whole.
	level := []cell{{0, 0, 0, 0}}
	for len(level) > 0 {
		var next []cell
		for _, c := range level {
			w := math.Ldexp(1, -c.l)
			for q := int64(0); q < 4; q++ {
				nx, ny := c.cx+float64(q&1)*w/2, c.cy+float64(q>>1)*w/2
				if c.l+1 > s.Levels {
					break
				}
				// The child's enlarged element [nx, nx+w] × [ny, ny+w].
				if nx > x1 || ny > y1 || nx+w < x0 || ny+w < y0 {
					continue
				}
				ch := cell{c.code + 1 + q*s.subtree(c.l+1), nx, ny, c.l + 1}
				if (nx >= x0 && ny >= y0 && nx+w <= x1 && ny+w <= y1) || ch.l == s.Levels {
					out = append(out, XZRange{ch.code, ch.code + s.subtree(ch.l)})
					continue
				}
				next = append(next, ch)
			}
		}
		if len(out)+4*len(next) > 16*max+1024 {
			// Refining would exceed the budget: take each cell whole.
			for _, c := range next {
				out = append(out, XZRange{c.code, c.code + s.subtree(c.l)})
			}
			break
		}
		for _, c := range next {
			out = append(out, XZRange{c.code, c.code + 1}) // the cell itself
		}
		level = next
	}
	return mergeXZ(out, max)
}

// mergeXZ sorts rs, joins overlapping and adjacent intervals, then closes
// the smallest gaps until at most max remain.
func mergeXZ(rs []XZRange, max int) []XZRange {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Lo < rs[j].Lo })
	out := rs[:0:0]
	for _, r := range rs {
		if n := len(out); n > 0 && r.Lo <= out[n-1].Hi {
			out[n-1].Hi = max64(out[n-1].Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	for len(out) > max {
		if len(out) > 2*max {
			// Close every gap up to the median in one pass.
			gaps := make([]int64, len(out)-1)
			for i := range gaps {
				gaps[i] = out[i+1].Lo - out[i].Hi
			}
			sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
			cut := gaps[len(gaps)-max]
			merged := out[:1]
			for _, r := range out[1:] {
				if n := len(merged); r.Lo-merged[n-1].Hi < cut {
					merged[n-1].Hi = r.Hi
					continue
				}
				merged = append(merged, r)
			}
			if len(merged) < len(out) {
				out = merged
				continue
			}
		}
		best := 0
		for i := 1; i+1 < len(out); i++ {
			if out[i+1].Lo-out[i].Hi < out[best+1].Lo-out[best].Hi {
				best = i
			}
		}
		out[best].Hi = out[best+1].Hi
		out = append(out[:best+1], out[best+2:]...)
	}
	return out
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
