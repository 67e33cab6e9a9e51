package geo

import (
	"encoding/binary"
	"math"
	"math/rand"
	"testing"
)

// TestPointEWKBMatchesDecode reads points (2D, Z, M, ZM, with and without
// an SRID, both byte orders, ISO type codes, empty) and other geometries
// and malformed bytes: PointEWKB answers exactly when DecodeEWKB reads a
// non-empty point, with its coordinates and SRID.
func TestPointEWKBMatchesDecode(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var inputs [][]byte
	for i := 0; i < 400; i++ {
		s := &Shape{Kind: Point, Z: rng.Intn(2) == 0, M: rng.Intn(2) == 0}
		for range s.Stride() {
			s.Coords = append(s.Coords, rng.NormFloat64()*100)
		}
		if rng.Intn(10) == 0 {
			s.Coords = nil // empty
		}
		srid := []int32{0, 4326, 3857, -5, 2000000}[rng.Intn(5)]
		b := AppendEWKB(nil, Geom{SRID: srid, Shape: s})
		if rng.Intn(3) == 0 {
			b = AppendISOWKB(nil, s)
		}
		if rng.Intn(4) == 0 {
			b = bigEndian(b)
		}
		inputs = append(inputs, b)
		// Truncated and extended.
		inputs = append(inputs, b[:rng.Intn(len(b))], append(append([]byte(nil), b...), 0))
	}
	inputs = append(inputs,
		AppendEWKB(nil, Geom{Shape: &Shape{Kind: LineString, Coords: []float64{1, 2, 3, 4}}}),
		AppendEWKB(nil, Geom{Shape: BoxPolygon(Box{0, 0, 1, 1})}),
		AppendEWKB(nil, Geom{Shape: &Shape{Kind: MultiPoint, Parts: []*Shape{{Kind: Point, Coords: []float64{1, 2}}}}}),
		AppendEWKB(nil, Geom{Shape: &Shape{Kind: Point, Coords: []float64{math.NaN(), 2}}}),
		[]byte{2, 1, 0, 0, 0}, nil, []byte{1})
	for i, b := range inputs {
		x, y, srid, ok := PointEWKB(string(b))
		g, err := DecodeEWKB(b)
		want := err == nil && g.Shape.Kind == Point && len(g.Shape.Coords) >= 2
		if ok != want {
			t.Fatalf("input %d %x: PointEWKB ok %v, DecodeEWKB %v, %v", i, b, ok, g, err)
		}
		if !ok {
			continue
		}
		if math.Float64bits(x) != math.Float64bits(g.Shape.Coords[0]) || math.Float64bits(y) != math.Float64bits(g.Shape.Coords[1]) || srid != g.SRID {
			t.Fatalf("input %d: (%v %v) SRID %d, want (%v %v) SRID %d", i, x, y, srid, g.Shape.Coords[0], g.Shape.Coords[1], g.SRID)
		}
	}
}

// bigEndian rewrites a little-endian WKB of one point in big-endian order.
func bigEndian(b []byte) []byte {
	out := []byte{0}
	out = binary.BigEndian.AppendUint32(out, binary.LittleEndian.Uint32(b[1:]))
	off := 5
	if binary.LittleEndian.Uint32(b[1:])&ewkbSRID != 0 {
		out = binary.BigEndian.AppendUint32(out, binary.LittleEndian.Uint32(b[5:]))
		off = 9
	}
	for ; off+8 <= len(b); off += 8 {
		out = binary.BigEndian.AppendUint64(out, binary.LittleEndian.Uint64(b[off:]))
	}
	return out
}

// TestPreparedRelatePointMatchesRelate places random points (inside,
// outside, on vertices and edges, on the bounding box's sides) against
// random polygons and multipolygons, prepared and not: the answers agree,
// and a prepared non-area is left to Relate.
func TestPreparedRelatePointMatchesRelate(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	ring := func(cx, cy, r float64, n int) []float64 { return randomRing(rng, cx, cy, r, n, 4) }
	for trial := 0; trial < 160; trial++ {
		// Short rings, and long ones, which get an edge index.
		n := 4 + rng.Intn(12)
		if trial%2 == 1 {
			n = minIndexedVertices + rng.Intn(300)
		}
		poly := &Shape{Kind: Polygon, Rings: [][]float64{ring(5, 5, 5, n)}}
		if rng.Intn(2) == 0 {
			poly.Rings = append(poly.Rings, ring(5, 5, 1.5, 4+rng.Intn(2*minIndexedVertices)))
		}
		var area = poly
		if rng.Intn(3) == 0 {
			area = &Shape{Kind: MultiPolygon, Parts: []*Shape{poly, {Kind: Polygon, Rings: [][]float64{ring(20, 5, 3, 6+rng.Intn(60))}}}}
		}
		p := Prepare(Geom{SRID: 4326, Shape: area})
		if (p.rings != nil) != (n >= minIndexedVertices) && area == poly && len(poly.Rings) == 1 {
			t.Fatalf("trial %d: a ring of %d vertices indexed: %v", trial, n, p.rings != nil)
		}
		var verts [][2]float64
		area.eachVertex(func(x, y float64) { verts = append(verts, [2]float64{x, y}) })
		for q := 0; q < 80; q++ {
			var x, y float64
			switch rng.Intn(4) {
			case 0: // a vertex
				v := verts[rng.Intn(len(verts))]
				x, y = v[0], v[1]
			case 1: // a midpoint of an edge (exact on axis-aligned and many others)
				i := rng.Intn(len(verts) - 1)
				x, y = (verts[i][0]+verts[i+1][0])/2, (verts[i][1]+verts[i+1][1])/2
			case 2: // on the box's sides
				x, y = p.Box.MinX, p.Box.MinY+rng.Float64()*(p.Box.MaxY-p.Box.MinY)
				if rng.Intn(2) == 0 {
					x, y = p.Box.MinX+rng.Float64()*(p.Box.MaxX-p.Box.MinX), p.Box.MaxY
				}
			default:
				x, y = rng.Float64()*30-3, rng.Float64()*14-2
			}
			if p.rings != nil {
				// The edge index places the point as a pass over every
				// edge does.
				if got, want := p.locate(x, y), mustLocate(t, x, y, area); got != want {
					t.Fatalf("trial %d: (%v %v) located %d through the index, %d without", trial, x, y, got, want)
				}
			}
			if trial%2 == 1 {
				continue // long rings: the overlay is slow, and pip_test.go checks pointLocation against it
			}
			pt := &Shape{Kind: Point, Coords: []float64{x, y}}
			for _, pred := range []Predicate{Intersects, Contains, Within, Covers} {
				for _, pointFirst := range []bool{true, false} {
					a, b := pt, area
					if !pointFirst {
						a, b = area, pt
					}
					want, err := Relate(pred, a, b)
					if err != nil {
						t.Fatal(err)
					}
					got, ok := p.RelatePoint(pred, x, y, pointFirst)
					if !ok {
						continue // an area within a point: Relate's
					}
					if got != want {
						t.Fatalf("trial %d: predicate %d of (%v %v) and %v (point first %v): %v, want %v", trial, pred, x, y, area.Rings, pointFirst, got, want)
					}
				}
			}
		}
	}
	for _, s := range []*Shape{{Kind: Point, Coords: []float64{1, 1}}, {Kind: LineString, Coords: []float64{0, 0, 1, 1}}, {Kind: Polygon}} {
		if _, ok := Prepare(Geom{Shape: s}).RelatePoint(Intersects, 1, 1, true); ok {
			t.Fatalf("%v decided as an area", s.Kind)
		}
	}
}

// TestPointDistanceMatchesDistance: the two points' distance is Distance's
// to the bit.
func TestPointDistanceMatchesDistance(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	for i := 0; i < 2000; i++ {
		x1, y1, x2, y2 := rng.NormFloat64()*1e3, rng.NormFloat64(), rng.NormFloat64()*1e-3, rng.NormFloat64()*1e6
		if i%7 == 0 {
			x2, y2 = x1, y1
		}
		want, ok, err := Distance(&Shape{Kind: Point, Coords: []float64{x1, y1}}, &Shape{Kind: Point, Coords: []float64{x2, y2}})
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		if got := PointDistance(x1, y1, x2, y2); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("(%v %v) (%v %v): %v, want %v", x1, y1, x2, y2, got, want)
		}
	}
}

// randomRing is a closed ring of n vertices around (cx, cy), at random
// radii between 0.4r and r, each coordinate rounded to a 1/grid.
func randomRing(rng *rand.Rand, cx, cy, r float64, n int, grid float64) []float64 {
	var c []float64
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		rr := r * (0.4 + 0.6*rng.Float64())
		c = append(c, math.Round((cx+rr*math.Cos(a))*grid)/grid, math.Round((cy+rr*math.Sin(a))*grid)/grid)
	}
	return append(c, c[0], c[1])
}

func mustLocate(t *testing.T, x, y float64, area *Shape) location {
	t.Helper()
	l, ok := pointLocation(x, y, area)
	if !ok {
		t.Fatalf("%v is not an area", area.Kind)
	}
	return l
}

// BenchmarkPointInPolygon places points against a polygon of 1,000
// vertices: decoded for every point (as before call sites kept it), its
// rings scanned whole, and prepared with its box and edge index.
func BenchmarkPointInPolygon(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	var ring []float64
	for i := 0; i < 1000; i++ {
		a := 2 * math.Pi * float64(i) / 1000
		r := 1 + 0.3*rng.Float64()
		ring = append(ring, r*math.Cos(a), r*math.Sin(a))
	}
	ring = append(ring, ring[0], ring[1])
	g := Geom{SRID: 4326, Shape: &Shape{Kind: Polygon, Rings: [][]float64{ring}}}
	wkb := AppendEWKB(nil, g)
	pts := make([][2]float64, 1024)
	for i := range pts {
		pts[i] = [2]float64{rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5}
	}
	b.Run("decoded_per_point", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			d, _ := DecodeEWKB(wkb)
			p := pts[i%len(pts)]
			pointLocation(p[0], p[1], d.Shape)
		}
	})
	b.Run("scanned", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			p := pts[i%len(pts)]
			pointLocation(p[0], p[1], g.Shape)
		}
	})
	b.Run("prepared", func(b *testing.B) {
		pr := Prepare(g)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			p := pts[i%len(pts)]
			pr.RelatePoint(Within, p[0], p[1], true)
		}
	})
}
