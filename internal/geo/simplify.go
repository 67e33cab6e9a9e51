package geo

import (
	"math"
	"sort"
)

// This file holds PostGIS's vertex-removing functions: ST_Simplify
// (Douglas-Peucker, liblwgeom's lwgeom_simplify_in_place) and
// ST_RemoveRepeatedPoints (lwgeom_remove_repeated_points_in_place),
// written from their documented behaviour: the same vertex choices, the
// same minimum vertex counts, the same rules for what collapses. The
// arithmetic is liblwgeom's, operation for operation, with explicit
// float64 conversions so that no multiply-add is fused.

// dblEpsilon is C's DBL_EPSILON.
const dblEpsilon = 2.220446049250313e-16

func dist2(ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	return float64(dx*dx) + float64(dy*dy)
}

// dpSplit is the vertex of c strictly between first and last farthest
// from the segment first-last and farther than maxD2's square root;
// first when there is none.
func dpSplit(c []float64, st, first, last int, maxD2 float64) int {
	split := first
	ax, ay := c[first*st], c[first*st+1]
	bx, by := c[last*st], c[last*st+1]
	if dist2(ax, ay, bx, by) < dblEpsilon {
		for k := first + 1; k < last; k++ {
			if d := dist2(c[k*st], c[k*st+1], ax, ay); d > maxD2 {
				split, maxD2 = k, d
			}
		}
		return split
	}
	bax, bay := bx-ax, by-ay
	ab2 := float64(bax*bax) + float64(bay*bay)
	maxD2 *= ab2
	for k := first + 1; k < last; k++ {
		cx, cy := c[k*st], c[k*st+1]
		cax, cay := cx-ax, cy-ay
		dot := float64(cax*bax) + float64(cay*bay)
		var d float64
		switch {
		case dot <= 0:
			d = float64(dist2(cx, cy, ax, ay) * ab2)
		case dot >= ab2:
			d = float64(dist2(cx, cy, bx, by) * ab2)
		default:
			s := float64(cax*bay) - float64(cay*bax)
			d = s * s
		}
		if d > maxD2 {
			split, maxD2 = k, d
		}
	}
	return split
}

// simplifySeq is ptarray_simplify_in_place: c's vertices kept by
// Douglas-Peucker at tol, at least minPts of them.
func simplifySeq(c []float64, st int, tol float64, minPts int) []float64 {
	n := len(c) / st
	if n < 3 || n <= minPts {
		return c
	}
	keep := func(idx []int) []float64 {
		out := make([]float64, 0, len(idx)*st)
		for _, i := range idx {
			out = append(out, c[i*st:(i+1)*st]...)
		}
		return out
	}
	if tol == 0 && minPts <= 2 {
		idx := []int{0}
		kx, ky := c[0], c[1]
		for i := 1; i < n-1; i++ {
			cx, cy := c[i*st], c[i*st+1]
			nx, ny := c[(i+1)*st], c[(i+1)*st+1]
			bax, bay := nx-kx, ny-ky
			ab2 := float64(bax*bax) + float64(bay*bay)
			cax, cay := cx-kx, cy-ky
			dot := float64(cax*bax) + float64(cay*bay)
			s := float64(cax*bay) - float64(cay*bax)
			if dot < 0 || dot > ab2 || s != 0 {
				idx = append(idx, i)
				kx, ky = cx, cy
			}
		}
		return keep(append(idx, n-1))
	}
	kept := make([]bool, n)
	kept[0], kept[n-1] = true, true
	keptN := 2
	stack := []int{0}
	first, last := 0, n-1
	tol2 := tol * tol
	itTol := tol2
	if keptN < minPts {
		itTol = -1
	}
	for len(stack) > 0 {
		split := dpSplit(c, st, first, last, itTol)
		if split == first {
			first = last
			last = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			continue
		}
		kept[split] = true
		keptN++
		stack = append(stack, last)
		last = split
		itTol = tol2
		if keptN < minPts {
			itTol = -1
		}
	}
	var idx []int
	for i, k := range kept {
		if k {
			idx = append(idx, i)
		}
	}
	return keep(idx)
}

// Simplify is lwgeom_simplify_in_place on a copy of s: its lines and rings
// simplified by Douglas-Peucker with tolerance tol (lines keep their ends,
// rings at least 4 vertices or are dropped: with preserveCollapsed a line
// collapsed to one point keeps two and an outer ring keeps 4), collapsed
// parts dropped. modified reports whether any vertex was removed: PostGIS
// returns its input untouched when none was (ST_Simplify), and NULL when
// the result is empty.
func Simplify(s *Shape, tol float64, preserveCollapsed bool) (out *Shape, modified bool) {
	st := s.Stride()
	c := &Shape{Kind: s.Kind, Z: s.Z, M: s.M}
	switch s.Kind {
	case Point:
		c.Coords = s.Coords
		return c, false
	case LineString:
		n := len(s.Coords) / st
		pts := simplifySeq(s.Coords, st, tol, 2)
		m := len(pts) / st
		modified = n != m
		if m == 2 && !preserveCollapsed &&
			math.Abs(pts[0]-pts[st]) <= 1e-12 && math.Abs(pts[1]-pts[st+1]) <= 1e-12 {
			pts = nil
		}
		c.Coords = pts
		return c, modified
	case Polygon:
		for i, r := range s.Rings {
			minPts := 0
			if preserveCollapsed && i == 0 {
				minPts = 4
			}
			pts := simplifySeq(r, st, tol, minPts)
			if len(pts) != len(r) {
				modified = true
			}
			if len(pts)/st < 4 {
				if i == 0 {
					c.Rings = nil
					break
				}
				continue
			}
			c.Rings = append(c.Rings, pts)
		}
		return c, modified
	}
	for _, p := range s.Parts {
		q, m := Simplify(p, tol, preserveCollapsed)
		modified = modified || m
		if q.IsEmpty() {
			continue
		}
		c.Parts = append(c.Parts, q)
	}
	return c, modified
}

// removeRepeatedSeq is ptarray_remove_repeated_points_in_place: c without
// the vertices within tol of the last one kept (tol <= 0: identical in
// every ordinate), keeping the last vertex and at least minPts.
func removeRepeatedSeq(c []float64, st int, tol float64, minPts int) []float64 {
	n := len(c) / st
	if n <= minPts {
		return c
	}
	tol2 := tol * tol
	out := append(make([]float64, 0, len(c)), c[:st]...)
	last := c[:st]
	nOut := 1
	dsq := float64(math.MaxFloat32)
	for i := 1; i < n; i++ {
		isLast := i == n-1
		pt := c[i*st : (i+1)*st]
		if n+nOut > minPts+i {
			if tol > 0 {
				dsq = dist2(last[0], last[1], pt[0], pt[1])
				if !isLast && dsq <= tol2 {
					continue
				}
			} else if sameBits(pt, last) {
				continue
			}
			if isLast && nOut > 1 && tol > 0 && dsq <= tol2 {
				nOut--
				out = out[:len(out)-st]
			}
		}
		out = append(out, pt...)
		nOut++
		last = pt
	}
	return out
}

func sameBits(a, b []float64) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// ErrMultiPointEmptyMember is RemoveRepeatedPoints's error for a
// multi-point with an empty member, which PostGIS 3.3 cannot process.
var ErrMultiPointEmptyMember = errMultiPointEmpty{}

type errMultiPointEmpty struct{}

func (errMultiPointEmpty) Error() string { return "a MultiPoint with an EMPTY member" }

// RemoveRepeatedPoints is lwgeom_remove_repeated_points_in_place on a copy
// of s: consecutive vertices within tol of each other merged (lines keep 2
// vertices at least and are emptied below that; rings 4, or are dropped);
// a multi-point loses the points within tol of another, and when it does
// its points come out sorted by x then y, as PostGIS sorts them. modified
// reports whether anything changed (PostGIS then returns its input).
func RemoveRepeatedPoints(s *Shape, tol float64) (out *Shape, modified bool, err error) {
	st := s.Stride()
	c := &Shape{Kind: s.Kind, Z: s.Z, M: s.M}
	switch s.Kind {
	case Point:
		c.Coords = s.Coords
		return c, false, nil
	case LineString:
		pts := removeRepeatedSeq(s.Coords, st, tol, 2)
		modified = len(pts) != len(s.Coords)
		if len(pts)/st < 2 {
			pts, modified = nil, true
		}
		c.Coords = pts
		return c, modified, nil
	case Polygon:
		for _, r := range s.Rings {
			pts := removeRepeatedSeq(r, st, tol, 4)
			if len(pts) != len(r) {
				modified = true
			}
			if len(pts)/st < 4 {
				modified = true
				continue
			}
			c.Rings = append(c.Rings, pts)
		}
		return c, modified, nil
	case MultiPoint:
		pts := append([]*Shape(nil), s.Parts...)
		for _, p := range pts {
			if len(p.Coords) < 2 {
				return nil, false, ErrMultiPointEmptyMember
			}
		}
		tol2 := tol * tol
		for dim := 0; dim < 2; dim++ {
			key := 1 - dim // sort by y, then by x
			sort.SliceStable(pts, func(i, j int) bool { return pts[i].Coords[key] < pts[j].Coords[key] })
			for i := range pts {
				if pts[i] == nil {
					continue
				}
				pi := pts[i].Coords
				for j := i + 1; j < len(pts); j++ {
					if pts[j] == nil {
						continue
					}
					pj := pts[j].Coords
					if pj[key]-pi[key] > tol {
						break
					}
					if dist2(pi[0], pi[1], pj[0], pj[1]) <= tol2 {
						pts[j] = nil
						modified = true
					}
				}
			}
			k := 0
			for _, p := range pts {
				if p != nil {
					pts[k] = p
					k++
				}
			}
			pts = pts[:k]
		}
		c.Parts = pts
		return c, modified, nil
	}
	for _, p := range s.Parts {
		q, m, err := RemoveRepeatedPoints(p, tol)
		if err != nil {
			return nil, false, err
		}
		modified = modified || m
		if q.IsEmpty() {
			continue
		}
		c.Parts = append(c.Parts, q)
	}
	return c, modified, nil
}
