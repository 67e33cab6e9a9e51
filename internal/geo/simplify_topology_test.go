package geo

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

func TestInteriorIntersection(t *testing.T) {
	for _, c := range []struct {
		name string
		s    [8]float64 // p1, p2, q1, q2
		want bool
	}{
		{"proper crossing", [8]float64{0, 0, 2, 2, 0, 2, 2, 0}, true},
		{"disjoint", [8]float64{0, 0, 1, 0, 0, 1, 1, 1}, false},
		{"boxes meet, lines do not", [8]float64{0, 0, 2, 2, 2, 0, 1.5, 0.4}, false},
		{"shared endpoint", [8]float64{0, 0, 1, 1, 1, 1, 2, 0}, false},
		{"shared endpoint, reversed", [8]float64{1, 1, 0, 0, 2, 0, 1, 1}, false},
		{"endpoint on the other's interior", [8]float64{0, 0, 2, 0, 1, 0, 1, 1}, true},
		{"interior under the other's endpoint", [8]float64{1, 0, 1, 1, 0, 0, 2, 0}, true},
		{"collinear overlap", [8]float64{0, 0, 2, 0, 1, 0, 3, 0}, true},
		{"collinear, one inside the other", [8]float64{0, 0, 3, 0, 1, 0, 2, 0}, true},
		{"collinear, meeting at an end", [8]float64{0, 0, 1, 0, 1, 0, 2, 0}, false},
		{"collinear, apart", [8]float64{0, 0, 1, 0, 2, 0, 3, 0}, false},
		{"the same segment", [8]float64{0, 0, 1, 1, 0, 0, 1, 1}, false},
		{"the same segment reversed", [8]float64{0, 0, 1, 1, 1, 1, 0, 0}, false},
		{"parallel", [8]float64{0, 0, 2, 0, 0, 1, 2, 1}, false},
		// Exactly collinear only in exact arithmetic: 0.1 + 0.2 is not 0.3.
		{"near-collinear touch", [8]float64{0, 0, 0.3, 0.3, 0.1, 0.1, 5, -3}, true},
	} {
		s := c.s
		if got := interiorIntersection(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		// The answer is symmetric in the two segments and their directions.
		if got := interiorIntersection(s[6], s[7], s[4], s[5], s[2], s[3], s[0], s[1]); got != c.want {
			t.Errorf("%s, swapped: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSimplifyPreserveTopologyKeepsTopology checks, on random zigzags
// laid side by side, what the simplifier promises: no two result
// segments meet at a point interior to either unless the input's did,
// rings keep four vertices, every result vertex is an input vertex in the
// input's order, and ends stay.
func TestSimplifyPreserveTopologyKeepsTopology(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for iter := 0; iter < 300; iter++ {
		s := &Shape{Kind: MultiLineString}
		for l := 0; l < 3; l++ {
			n := 3 + rng.Intn(40)
			var c []float64
			for i := 0; i < n; i++ {
				c = append(c, float64(i)*0.3, float64(l)*0.2+0.3*(2*rng.Float64()-1))
			}
			s.Parts = append(s.Parts, &Shape{Kind: LineString, Coords: c})
		}
		ring := &Shape{Kind: LineString}
		for i := 0; i < 12; i++ {
			a := float64(i) * 2 * math.Pi / 12
			r := 0.5 + 0.3*rng.Float64()
			ring.Coords = append(ring.Coords, 5+r*math.Cos(a), 0.2+r*math.Sin(a))
		}
		ring.Coords = append(ring.Coords, ring.Coords[0], ring.Coords[1])
		s.Parts = append(s.Parts, ring)
		tol := []float64{0.05, 0.2, 1, 100}[rng.Intn(4)]
		out := SimplifyPreserveTopology(s, tol)
		if len(out.Parts) != len(s.Parts) {
			t.Fatalf("%d parts from %d", len(out.Parts), len(s.Parts))
		}
		crossings := func(sh *Shape) int {
			type seg [4]float64
			var segs []seg
			for _, p := range sh.Parts {
				for i := 0; i+3 < len(p.Coords); i += 2 {
					segs = append(segs, seg{p.Coords[i], p.Coords[i+1], p.Coords[i+2], p.Coords[i+3]})
				}
			}
			n := 0
			for i := range segs {
				for j := i + 1; j < len(segs); j++ {
					a, b := segs[i], segs[j]
					if interiorIntersection(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]) {
						n++
					}
				}
			}
			return n
		}
		if in := crossings(s); in == 0 {
			if got := crossings(out); got != 0 {
				t.Fatalf("tolerance %g: %d crossings where the input had none:\n%s\n%s", tol, got, FormatWKT(s, 17), FormatWKT(out, 17))
			}
		}
		for k, p := range out.Parts {
			in := s.Parts[k].Coords
			c := p.Coords
			if c[0] != in[0] || c[1] != in[1] || c[len(c)-2] != in[len(in)-2] || c[len(c)-1] != in[len(in)-1] {
				t.Fatalf("part %d's ends moved", k)
			}
			if k == 3 && len(c)/2 < 4 {
				t.Fatalf("ring of %d vertices", len(c)/2)
			}
			j := 0
			for i := 0; i < len(c); i += 2 {
				for j < len(in) && (in[j] != c[i] || in[j+1] != c[i+1]) {
					j += 2
				}
				if j == len(in) {
					t.Fatalf("part %d: vertex %d is not the input's next", k, i/2)
				}
			}
		}
	}
}

// BenchmarkSimplifyPreserveTopology simplifies a ring of 20,000 vertices.
func BenchmarkSimplifyPreserveTopology(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	var c []float64
	const n = 20000
	for i := 0; i < n; i++ {
		a := float64(i) * 2 * math.Pi / n
		r := 10 + rng.Float64()
		c = append(c, r*math.Cos(a), r*math.Sin(a))
	}
	c = append(c, c[0], c[1])
	s := &Shape{Kind: Polygon, Rings: [][]float64{c}}
	for _, tol := range []float64{0.1, 1} {
		b.Run(fmt.Sprint(tol), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				SimplifyPreserveTopology(s, tol)
			}
		})
	}
}
