package geo

import "math"

// Reading a filter's geometries once. A spatial filter compares each row's
// point with one constant geometry (a box, a polygon, a centre): decoding
// that geometry's EWKB again for every row, and each point's into a Shape,
// cost more than the test itself. PointEWKB reads a point's coordinates
// straight from its bytes, and a Prepared geometry keeps the decoded shape
// with its bounding box, which places most points without looking at an
// edge.

// PointEWKB reads a non-empty point's x, y and SRID from its EWKB (or ISO
// WKB) without building a Shape. ok is false for any other geometry, an
// empty point and malformed input, which DecodeEWKB reads (and reports).
func PointEWKB(s string) (x, y float64, srid int32, ok bool) {
	if len(s) < 5 {
		return 0, 0, 0, false
	}
	if s[0] > 1 {
		return 0, 0, 0, false
	}
	big := s[0] == 0
	t := u32At(s, 1, big)
	off := 5
	if t&ewkbSRID != 0 {
		if len(s) < 9 {
			return 0, 0, 0, false
		}
		srid = clampSRID(int32(u32At(s, 5, big)))
		off = 9
	}
	code := t &^ (ewkbZ | ewkbM | ewkbSRID)
	if code%1000 != uint32(Point) || code >= 4000 {
		return 0, 0, 0, false
	}
	stride := 2
	if t&ewkbZ != 0 || code/1000 == 1 || code/1000 == 3 {
		stride++
	}
	if t&ewkbM != 0 || code/1000 == 2 || code/1000 == 3 {
		stride++
	}
	if len(s)-off != 8*stride {
		return 0, 0, 0, false
	}
	x = math.Float64frombits(u64At(s, off, big))
	y = math.Float64frombits(u64At(s, off+8, big))
	if math.IsNaN(x) && math.IsNaN(y) {
		return 0, 0, 0, false // empty
	}
	return x, y, srid, true
}

// Prepared is a decoded geometry with its bounding box, for testing many
// points against it; an area's long rings also get an edge index.
type Prepared struct {
	Geom
	// Box is the 2D bounding box; HasBox is false when the shape is empty.
	Box    Box
	HasBox bool
	area   bool // a non-empty polygon or multipolygon
	// rings indexes each polygon's rings (the shell first), by polygon;
	// nil for a ring too short to be worth one.
	rings [][]*ringIndex
}

// Prepare returns g prepared.
func Prepare(g Geom) *Prepared {
	p := &Prepared{Geom: g}
	p.Box, p.HasBox = g.Shape.Bounds()
	p.area = (g.Shape.Kind == Polygon || g.Shape.Kind == MultiPolygon) && !g.Shape.IsEmpty()
	if p.area {
		polys := []*Shape{g.Shape}
		if g.Shape.Kind == MultiPolygon {
			polys = g.Shape.Parts
		}
		indexed := false
		p.rings = make([][]*ringIndex, len(polys))
		for i, poly := range polys {
			for _, r := range poly.Rings {
				ri := newRingIndex(r, poly.Stride())
				indexed = indexed || ri != nil
				p.rings[i] = append(p.rings[i], ri)
			}
		}
		if !indexed {
			p.rings = nil
		}
	}
	return p
}

// A ring index sorts a ring's edges into horizontal bands of equal height
// over its y-extent, each listing the edges whose y-range meets it: a
// point's crossing count needs only the edges whose y-range holds its y
// (edgeEffect), which are all in its band. A ring of thousands of
// vertices (a country's border) then costs a point a few dozen edges.
type ringIndex struct {
	ring   []float64
	stride int
	minY   float64
	height float64   // of a band
	bands  [][]int32 // vertex offsets of the edges meeting each band
}

// minIndexedVertices is the shortest ring given an index: below it a pass
// over the edges costs less than the band's lookup.
const minIndexedVertices = 32

func newRingIndex(ring []float64, stride int) *ringIndex {
	n := len(ring)/stride - 1 // edges
	if n < minIndexedVertices {
		return nil
	}
	minY, maxY := math.Inf(1), math.Inf(-1)
	for i := 1; i < len(ring); i += stride {
		minY, maxY = math.Min(minY, ring[i]), math.Max(maxY, ring[i])
	}
	nb := int(math.Sqrt(float64(n)))
	if !(maxY > minY) || math.IsInf(maxY-minY, 0) {
		return nil // flat, or coordinates a band cannot divide
	}
	ri := &ringIndex{ring: ring, stride: stride, minY: minY, height: (maxY - minY) / float64(nb), bands: make([][]int32, nb)}
	for i := 0; i+2*stride <= len(ring); i += stride {
		lo, hi := ri.band(math.Min(ring[i+1], ring[i+stride+1])), ri.band(math.Max(ring[i+1], ring[i+stride+1]))
		for b := lo; b <= hi; b++ {
			ri.bands[b] = append(ri.bands[b], int32(i))
		}
	}
	return ri
}

// band is the band of y, clamped to the index: monotone in y, so an edge
// whose y-range holds y is listed in y's band.
func (ri *ringIndex) band(y float64) int {
	b := (y - ri.minY) / ri.height
	switch {
	case !(b >= 0):
		return 0
	case b >= float64(len(ri.bands)-1):
		return len(ri.bands) - 1
	}
	return int(b)
}

// location is ringLocation through the index.
func (ri *ringIndex) location(x, y float64) location {
	return edgesLocation(x, y, ri.ring, ri.stride, ri.bands[ri.band(y)])
}

// locate is pointLocation through the ring indexes.
func (p *Prepared) locate(x, y float64) location {
	polys := []*Shape{p.Shape}
	if p.Shape.Kind == MultiPolygon {
		polys = p.Shape.Parts
	}
	out := exterior
	for i, poly := range polys {
		l := exterior
		ring := func(j int) location {
			if ri := p.rings[i][j]; ri != nil {
				return ri.location(x, y)
			}
			return ringLocation(x, y, poly.Rings[j], poly.Stride())
		}
		if len(poly.Rings) > 0 {
			switch ring(0) {
			case interior:
				l = interior
				for j := 1; j < len(poly.Rings); j++ {
					if h := ring(j); h != exterior {
						l = exterior
						if h == boundary {
							l = boundary
						}
						break
					}
				}
			case boundary:
				l = boundary
			}
		}
		if l == interior {
			return interior
		}
		out = max(out, l)
	}
	return out
}

// RelatePoint decides pred(point, p) (pointFirst) or pred(p, point) for a
// non-empty 2D point (x, y) as Relate does; ok is false when p is not a
// non-empty area, which Relate decides. A point outside the bounding box
// is outside the area without a look at its rings.
func (p *Prepared) RelatePoint(pred Predicate, x, y float64, pointFirst bool) (r, ok bool) {
	if !p.area {
		return false, false
	}
	loc := exterior
	if p.Box.MinX <= x && x <= p.Box.MaxX && p.Box.MinY <= y && y <= p.Box.MaxY {
		if p.rings != nil {
			loc = p.locate(x, y)
		} else {
			loc, _ = pointLocation(x, y, p.Shape)
		}
	}
	return predicateOfLocation(pred, loc, pointFirst)
}

// PointDistance is the planar distance between two points, computed as
// Distance computes it (so that ST_DWithin's comparisons agree).
func PointDistance(x1, y1, x2, y2 float64) float64 {
	dx, dy := x1-x2, y1-y2
	return math.Sqrt(dx*dx + dy*dy)
}

// u32At and u64At read an unsigned integer of either byte order from a
// string (a value's bytes) without copying it.
func u32At(s string, off int, big bool) uint32 {
	_ = s[off+3]
	if big {
		return uint32(s[off])<<24 | uint32(s[off+1])<<16 | uint32(s[off+2])<<8 | uint32(s[off+3])
	}
	return uint32(s[off]) | uint32(s[off+1])<<8 | uint32(s[off+2])<<16 | uint32(s[off+3])<<24
}

func u64At(s string, off int, big bool) uint64 {
	hi, lo := u32At(s, off, big), u32At(s, off+4, big)
	if big {
		return uint64(hi)<<32 | uint64(lo)
	}
	return uint64(lo)<<32 | uint64(hi)
}
