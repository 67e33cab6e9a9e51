package builtins

import (
	"math"
	"testing"
)

// TestPowFloat: float8 ^ float8 as PostgreSQL's dpow answers (its values
// checked against PostgreSQL 15), the sign of a negative base's odd
// integral powers included, and against math.Pow for integral powers of
// small integers, which both compute exactly.
func TestPowFloat(t *testing.T) {
	for _, c := range []struct{ x, y, want float64 }{
		{-1, 1, -1}, {-1, 2, 1}, {-1, 3, -1}, {-1, 0, 1}, {-1, -1, -1}, {-1, -2, 1},
		{1, 5, 1}, {1, -7.5, 1}, {-2, 3, -8}, {-2, 2, 4}, {2, 10, 1024}, {-0.5, -3, -8},
		{4, 0.5, 2}, {0, 0, 1}, {0, 3, 0},
	} {
		v, err := powFloat(c.x, c.y)
		if err != nil || v.F != c.want {
			t.Errorf("%v ^ %v = %v, %v; want %v", c.x, c.y, v.F, err, c.want)
		}
	}
	for x := -9.0; x <= 9; x++ {
		for y := -6.0; y <= 12; y++ {
			if x == 0 && y < 0 {
				continue
			}
			v, err := powFloat(x, y)
			if want := math.Pow(x, y); err != nil || math.Abs(v.F-want) > math.Abs(want)*1e-15 {
				t.Errorf("%v ^ %v = %v, %v; want %v", x, y, v.F, err, want)
			}
		}
	}
}
