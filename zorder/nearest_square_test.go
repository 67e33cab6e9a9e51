package zorder

import (
	"math"
	"math/rand"
	"testing"
)

// TestSquareAndPointDistance checks the two tests of the executor's square
// search against points: every point within half of the centre (by the
// Euclidean distance, as PostgreSQL's <-> computes it) has an address in
// Square's box, and PointDistance brackets every point's distance by
// the codes of its address, exactly where the codes keep all of a
// float's bits. NULL, NaN and infinite coordinates are never within a
// finite distance.
func TestSquareAndPointDistance(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	layouts := [][]Attr{
		{{Name: "x", Type: TypeFloat}, {Name: "y", Type: TypeFloat}},
		{{Name: "x", Type: TypeFloat, Nullable: true}, {Name: "y", Type: TypeFloat, Nullable: true}},
		{{Name: "y", Type: TypeFloat, Width: 24, Nullable: true}, {Name: "x", Type: TypeFloat, Width: 24, Nullable: true}},
	}
	for li, attrs := range layouts {
		s := MustSchema(attrs...)
		xi, yi := 0, 1
		if attrs[0].Name == "y" {
			xi, yi = 1, 0
		}
		exact := attrs[0].Width == 0
		for trial := 0; trial < 300; trial++ {
			scale := math.Pow(10, float64(rng.Intn(9)-4))
			off := (rng.Float64() - 0.5) * 1000 * scale
			cx, cy := off+rng.NormFloat64()*scale, off+rng.NormFloat64()*scale
			half := rng.ExpFloat64() * scale
			if trial%10 == 0 {
				half = 0 // the centre alone
			}
			box := s.Square(nil, xi, yi, cx, cy, half)
			for i := 0; i < 200; i++ {
				x, y := cx+(rng.Float64()*2-1)*half*1.5, cy+(rng.Float64()*2-1)*half*1.5
				switch rng.Intn(20) {
				case 0:
					x = cx // on the square's axis
				case 1:
					x, y = cx+half, cy // on its edge
				case 2:
					x = math.NaN()
				case 3:
					y = math.Inf(-1)
				}
				z := make([]uint64, 2)
				z[xi], z[yi] = s.Attr(xi).Float(x), s.Attr(yi).Float(y)
				addr := s.Encode(z)
				d := math.Hypot(x-cx, y-cy)
				if d <= half && !s.Contains(box, addr) {
					t.Fatalf("layout %d: (%g, %g) at %g within %g of (%g, %g) is outside the square", li, x, y, d, half, cx, cy)
				}
				near, far := s.PointDistance(addr, xi, yi, cx, cy)
				finite := !math.IsNaN(d) && !math.IsInf(d, 0)
				if !finite {
					if near != math.Inf(1) && !math.IsNaN(x) {
						t.Fatalf("layout %d: (%g, %g): near %g, want +Inf", li, x, y, near)
					}
					continue
				}
				if !(near <= d*(1+1e-15)) || !(d <= far*(1+1e-15)) {
					t.Fatalf("layout %d: (%g, %g) at %g from (%g, %g): bracket [%g, %g]", li, x, y, d, cx, cy, near, far)
				}
				if exact && (near != far || math.Abs(near-d) > d*1e-15) {
					t.Fatalf("layout %d: full-width codes: (%g, %g) at %g: bracket [%g, %g]", li, x, y, d, near, far)
				}
			}
		}
	}
}
