package geo

import (
	"math"
	"math/rand"
	"testing"
)

// TestPointAreaMatchesOverlay checks the point-in-area fast path against
// the DE-9IM overlay on random points and random polygons (stars with
// holes, multipolygons), away from the edges where only exact arithmetic
// decides; and, on the edges and vertices, that the point is on the
// boundary.
func TestPointAreaMatchesOverlay(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	star := func(cx, cy, r float64, n int, reverse bool) []float64 {
		var ring []float64
		for i := 0; i < n; i++ {
			a := 2 * math.Pi * float64(i) / float64(n)
			if reverse {
				a = -a
			}
			rr := r * (0.4 + 0.6*rng.Float64())
			ring = append(ring, cx+rr*math.Cos(a), cy+rr*math.Sin(a))
		}
		return append(ring, ring[0], ring[1])
	}
	for trial := 0; trial < 300; trial++ {
		cx, cy := rng.Float64()*10, rng.Float64()*10
		poly := &Shape{Kind: Polygon, Rings: [][]float64{star(cx, cy, 5, 5+rng.Intn(20), rng.Intn(2) == 0)}}
		if rng.Intn(2) == 0 {
			poly.Rings = append(poly.Rings, star(cx, cy, 1, 4+rng.Intn(6), rng.Intn(2) == 0))
		}
		var area *Shape = poly
		if rng.Intn(3) == 0 {
			other := &Shape{Kind: Polygon, Rings: [][]float64{star(cx+20, cy, 3, 7, false)}}
			area = &Shape{Kind: MultiPolygon, Parts: []*Shape{poly, other}}
		}
		for q := 0; q < 50; q++ {
			pt := &Shape{Kind: Point, Coords: []float64{cx + (rng.Float64()-0.5)*14, cy + (rng.Float64()-0.5)*14}}
			for _, c := range []struct {
				p    Predicate
				a, b *Shape
			}{{Within, pt, area}, {Contains, area, pt}, {Intersects, pt, area}, {Intersects, area, pt}, {Covers, area, pt}} {
				fast, ok := relatePointArea(c.p, c.a, c.b)
				if !ok {
					t.Fatalf("predicate %d of a point and an area not decided", c.p)
				}
				x, err := toLibrary(c.a)
				if err != nil {
					t.Fatal(err)
				}
				y, err := toLibrary(c.b)
				if err != nil {
					t.Fatal(err)
				}
				var slow bool
				if slow, err = relateLibrary(c.p, x, y); err != nil {
					t.Fatal(err)
				}
				if fast != slow {
					t.Fatalf("trial %d: predicate %d of %v: fast %v, overlay %v", trial, c.p, pt.Coords, fast, slow)
				}
			}
		}
		// Every vertex and the midpoint of an axis-parallel edge lie on
		// the boundary.
		ring := poly.Rings[0]
		for i := 0; i+2 <= len(ring); i += 2 {
			if loc, _ := pointLocation(ring[i], ring[i+1], area); loc != boundary {
				t.Fatalf("vertex (%v, %v) is at %d, not on the boundary", ring[i], ring[i+1], loc)
			}
		}
	}
	square := &Shape{Kind: Polygon, Rings: [][]float64{{0, 0, 4, 0, 4, 4, 0, 4, 0, 0}}}
	for _, c := range []struct {
		x, y float64
		want location
	}{{2, 0, boundary}, {4, 2, boundary}, {2, 2, interior}, {5, 2, exterior}, {0, 4, boundary}, {-1, 0, exterior}, {2, 4, boundary}} {
		if loc, _ := pointLocation(c.x, c.y, square); loc != c.want {
			t.Errorf("(%v, %v): %d, want %d", c.x, c.y, loc, c.want)
		}
	}
	// Exact orientation: a point a hair off a long diagonal.
	if o := orientation(0, 0, 1e16, 1e16+2, 1e16/3, 1e16/3); o == 0 {
		t.Errorf("orientation of a point off the line taken as collinear")
	}
	if o := orientation(0.1, 0.1, 0.3, 0.3, 0.2, 0.2); o != orientation(0.1, 0.1, 0.3, 0.3, 0.2, 0.2) {
		t.Errorf("orientation is not deterministic")
	}
}
