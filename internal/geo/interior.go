package geo

import "math"

// Boxes inside areas. A Z-order scan reads its entries cell by cell, and
// a cell is a box of coordinates; when an area's interior holds the whole
// closed box, every point in the cell is within the area, and the scan
// need not test them one by one (zorder.InteriorScan). The test is exact:
// no edge of any ring meets the closed box (decided with the exact
// orientation, as a point's place is), so the box lies in one face of
// the area, which one corner's place names.

// HoldsBox reports whether every point of the closed box b lies in the
// interior of p, a non-empty polygon or multipolygon: then ST_Within,
// ST_Intersects and ST_DWithin of any of those points and p hold (and
// ST_Contains and ST_Covers of p and the point). It is false for any
// other shape, and for a box with an infinite or NaN side.
func (p *Prepared) HoldsBox(b Box) bool {
	if !p.area || !(p.Box.MinX < b.MinX && b.MaxX < p.Box.MaxX && p.Box.MinY < b.MinY && b.MaxY < p.Box.MaxY) {
		return false // (NaN fails every comparison)
	}
	if !(b.MinX <= b.MaxX && b.MinY <= b.MaxY) || p.edgesMeetBox(b) {
		return false
	}
	// No edge meets the box: it lies wholly in the interior or wholly
	// outside it, as its corner does.
	return p.cornerLocation(b) == interior
}

// MissesBox reports whether no point of the closed box b lies in p, a
// non-empty polygon or multipolygon, neither in its interior nor on its
// boundary: then ST_Within, ST_Intersects, ST_Contains and ST_Covers of
// any of those points and p are false. It is false for any other shape,
// for a box with a NaN side, and for one with an infinite side that p's
// bounding box does not clear.
func (p *Prepared) MissesBox(b Box) bool {
	if !p.area || !(b.MinX <= b.MaxX && b.MinY <= b.MaxY) {
		return false // (NaN fails every comparison)
	}
	if b.MaxX < p.Box.MinX || p.Box.MaxX < b.MinX || b.MaxY < p.Box.MinY || p.Box.MaxY < b.MinY {
		return true
	}
	if math.IsInf(b.MinX, 0) || math.IsInf(b.MaxX, 0) || math.IsInf(b.MinY, 0) || math.IsInf(b.MaxY, 0) || p.edgesMeetBox(b) {
		return false
	}
	return p.cornerLocation(b) == exterior
}

// edgesMeetBox reports whether an edge of any of p's rings meets the
// closed box b.
func (p *Prepared) edgesMeetBox(b Box) bool {
	polys := []*Shape{p.Shape}
	if p.Shape.Kind == MultiPolygon {
		polys = p.Shape.Parts
	}
	for i, poly := range polys {
		stride := poly.Stride()
		for j, ring := range poly.Rings {
			var ri *ringIndex
			if p.rings != nil {
				ri = p.rings[i][j]
			}
			if ringMeetsBox(ring, stride, ri, b) {
				return true
			}
		}
	}
	return false
}

// cornerLocation is where b's least corner lies in p: where the whole of
// b lies when no edge meets it.
func (p *Prepared) cornerLocation(b Box) location {
	if p.rings != nil {
		return p.locate(b.MinX, b.MinY)
	}
	loc, _ := pointLocation(b.MinX, b.MinY, p.Shape)
	return loc
}

// ringMeetsBox reports whether some edge of the ring meets the closed box
// b: only the edges of the bands b's y-range spans, when the ring is
// indexed (ri).
func ringMeetsBox(ring []float64, stride int, ri *ringIndex, b Box) bool {
	if ri == nil {
		for i := 0; i+2*stride <= len(ring); i += stride {
			if edgeMeetsBox(ring, i, stride, b) {
				return true
			}
		}
		return false
	}
	for band := ri.band(b.MinY); band <= ri.band(b.MaxY); band++ {
		for _, i := range ri.bands[band] {
			if edgeMeetsBox(ring, int(i), stride, b) {
				return true
			}
		}
	}
	return false
}

// edgeMeetsBox reports whether the edge from vertex offset i to the next
// meets the closed box b, by the separating axes of a segment and a box:
// x, y and the segment's normal. The edge misses the box when its own box
// lies clear of b on either axis, or when every corner of b lies strictly
// on one side of its line (exact orientation); otherwise they meet.
func edgeMeetsBox(ring []float64, i, stride int, b Box) bool {
	x1, y1 := ring[i], ring[i+1]
	x2, y2 := ring[i+stride], ring[i+stride+1]
	if max(x1, x2) < b.MinX || min(x1, x2) > b.MaxX || max(y1, y2) < b.MinY || min(y1, y2) > b.MaxY {
		return false
	}
	side := orientation(x1, y1, x2, y2, b.MinX, b.MinY)
	if side == 0 {
		return true
	}
	for _, c := range [3][2]float64{{b.MaxX, b.MinY}, {b.MaxX, b.MaxY}, {b.MinX, b.MaxY}} {
		if orientation(x1, y1, x2, y2, c[0], c[1]) != side {
			return true
		}
	}
	return false
}
