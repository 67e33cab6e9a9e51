package geo

import (
	"math"
	"math/rand"
	"testing"
)

// TestHoldsBoxAgainstPoints checks HoldsBox against the points of the
// boxes it is asked about, on random polygons (with holes, as parts of
// multipolygons, with short rings and with indexed long ones):
//   - sound: every point sampled from a box it holds (its corners, its
//     sides, a grid inside) is in the interior;
//   - useful: a box around an interior point, smaller than the point's
//     distance to every edge, is held;
//   - a box that holds a boundary or exterior point, or that is not a
//     finite box, is not.
func TestHoldsBoxAgainstPoints(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	ring := func(cx, cy, r float64, n int) []float64 { return randomRing(rng, cx, cy, r, n, 64) }
	held, missed, useful, usefulOut := 0, 0, 0, 0
	for trial := 0; trial < 120; trial++ {
		n := 3 + rng.Intn(12)
		if trial%3 == 2 {
			n = minIndexedVertices + rng.Intn(200)
		}
		poly := &Shape{Kind: Polygon, Rings: [][]float64{ring(5, 5, 5, n)}}
		if rng.Intn(2) == 0 {
			poly.Rings = append(poly.Rings, ring(5, 5, 1.5, 3+rng.Intn(2*minIndexedVertices)))
		}
		area := poly
		if rng.Intn(3) == 0 {
			area = &Shape{Kind: MultiPolygon, Parts: []*Shape{poly, {Kind: Polygon, Rings: [][]float64{ring(20, 5, 3, 3+rng.Intn(60))}}}}
		}
		p := Prepare(Geom{Shape: area})
		for q := 0; q < 300; q++ {
			x, y := rng.Float64()*28-2, rng.Float64()*12-1
			w := math.Pow(10, -rng.Float64()*4) * 2 // sides from 2 down to 2e-4
			h := w * (0.5 + rng.Float64())
			if rng.Intn(4) == 0 {
				w = 0 // a degenerate box: a segment or a point
			}
			b := Box{MinX: x, MinY: y, MaxX: x + w, MaxY: y + h}
			got, miss := p.HoldsBox(b), p.MissesBox(b)
			if got {
				held++
			}
			if miss {
				missed++
			}
			const grid = 6
			for i := 0; i <= grid; i++ {
				for j := 0; j <= grid; j++ {
					px := b.MinX + (b.MaxX-b.MinX)*float64(i)/grid
					py := b.MinY + (b.MaxY-b.MinY)*float64(j)/grid
					if i == grid {
						px = b.MaxX
					}
					if j == grid {
						py = b.MaxY
					}
					l := mustLocate(t, px, py, area)
					if got && l != interior {
						t.Fatalf("trial %d: box %+v held, but its point (%v %v) lies at %d", trial, b, px, py, l)
					}
					if miss && l != exterior {
						t.Fatalf("trial %d: box %+v missed, but its point (%v %v) lies at %d", trial, b, px, py, l)
					}
				}
			}
			// A box well inside, or well outside: the point's distance to
			// every edge exceeds the box's diagonal.
			switch loc := mustLocate(t, x, y, area); loc {
			case interior, exterior:
				d := math.Inf(1)
				for _, r := range ringsOf(area) {
					for i := 0; i+4 <= len(r); i += 2 {
						d = math.Min(d, segmentDistance(x, y, r[i], r[i+1], r[i+2], r[i+3]))
					}
				}
				s := d / 4
				b := Box{MinX: x - s, MinY: y - s, MaxX: x + s, MaxY: y + s}
				if loc == interior {
					useful++
					if s > 0 && !p.HoldsBox(b) {
						t.Fatalf("trial %d: (%v %v) lies %v from every edge, but the box of half side %v around it is not held", trial, x, y, d, s)
					}
				} else {
					usefulOut++
					if s > 0 && !p.MissesBox(b) {
						t.Fatalf("trial %d: (%v %v) lies %v outside every edge, but the box of half side %v around it is not missed", trial, x, y, d, s)
					}
				}
			}
		}
		for _, b := range []Box{{MinX: math.Inf(-1), MinY: 4, MaxX: 5, MaxY: 5}, {MinX: math.NaN(), MinY: 4, MaxX: 5, MaxY: 5}, {MinX: 5, MinY: 5, MaxX: 4, MaxY: 6}} {
			if p.HoldsBox(b) || p.MissesBox(b) {
				t.Fatalf("trial %d: %+v held or missed", trial, b)
			}
		}
	}
	if held < 1000 || useful < 1000 || missed < 1000 || usefulOut < 1000 {
		t.Fatalf("%d boxes held, %d missed, %d interior and %d exterior points checked: the test drew too few", held, missed, useful, usefulOut)
	}
	for _, s := range []*Shape{{Kind: Point, Coords: []float64{1, 1}}, {Kind: LineString, Coords: []float64{0, 0, 2, 2}}, {Kind: Polygon}} {
		if Prepare(Geom{Shape: s}).HoldsBox(Box{MinX: 0.9, MinY: 0.9, MaxX: 1.1, MaxY: 1.1}) {
			t.Fatalf("%v holds a box", s.Kind)
		}
	}
}

// segmentDistance is the distance from (x, y) to the segment (ax, ay)–(bx, by).
func segmentDistance(x, y, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	u := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		u = math.Max(0, math.Min(1, ((x-ax)*dx+(y-ay)*dy)/l))
	}
	return math.Hypot(x-(ax+u*dx), y-(ay+u*dy))
}

// ringsOf is every ring of a 2D polygon or multipolygon.
func ringsOf(s *Shape) [][]float64 {
	if s.Kind == Polygon {
		return s.Rings
	}
	var out [][]float64
	for _, p := range s.Parts {
		out = append(out, ringsOf(p)...)
	}
	return out
}
