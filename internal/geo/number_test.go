package geo

import (
	"math"
	"testing"
)

// TestAppendNumberAsPostGIS checks numbers against what PostGIS 3.3 prints
// for them (ST_AsText(geom, precision), run on PostgreSQL 15): the
// shortest digits rounded to the precision with halves to even, not the
// binary value rounded; exponents without leading zeros; a mantissa that
// rounds to 10 left so. e2e/differential's TestSpatialAgainstPostGIS
// compares many more against PostGIS itself.
func TestAppendNumberAsPostGIS(t *testing.T) {
	for _, c := range []struct {
		f    float64
		prec int
		want string
	}{
		{1.3989602337443565, 15, "1.398960233744356"}, // the binary value rounds to ...357
		{2.3228397662556435, 15, "2.322839766255644"},
		{0.125, 2, "0.12"}, {0.375, 2, "0.38"}, {2.5, 0, "2"}, {3.5, 0, "4"},
		{1.2345685, 6, "1.234568"}, {1.2345675, 6, "1.234568"}, {0.1234565, 6, "0.123456"},
		{9.96e-10, 1, "10e-10"}, {-9.96e-10, 1, "-10e-10"}, {1.25e-9, 1, "1.2e-9"},
		{5e-9, 15, "5e-9"}, {1e20, 15, "1e+20"}, {123456789012345.67, 15, "123456789012345.67"},
		{-0.0000004, 3, "0"}, {0.9999, 2, "1"}, {-0.9996, 3, "-1"}, {99.95, 1, "100"},
		{math.Inf(-1), 15, "-Infinity"}, {math.NaN(), 15, "NaN"},
	} {
		if got := string(AppendNumber(nil, c.f, c.prec)); got != c.want {
			t.Errorf("AppendNumber(%v, %d) = %q, want %q", c.f, c.prec, got, c.want)
		}
	}
}

// TestCircleUnitsAsLibm: the buffer's unit circle is the correctly
// rounded sine and cosine of each angle, as glibc's libm gives them,
// which Go's math.Sin and math.Cos are not everywhere: spot values from
// C's sin and cos, and agreement with math.Sincos to within two ulps, or
// 1e-15 near zero, where Go's reduction of the angle loses digits
// (sin(-π): glibc -1.2246467991473532e-16, Go -1.2246467991473515e-16).
func TestCircleUnitsAsLibm(t *testing.T) {
	u := circleUnits(32)
	// C: sin(-6 * (2 * M_PI / 32)), cos(-2 * (2 * M_PI / 32)).
	if u[2*6+1] != -0.9238795325112867 || u[2*2] != 0.9238795325112867 {
		t.Errorf("sin, cos: %v %v", u[2*6+1], u[2*2])
	}
	for i := range 32 {
		s, c := math.Sincos(-float64(i) * 2 * math.Pi / 32)
		for _, p := range [][2]float64{{s, u[2*i+1]}, {c, u[2*i]}} {
			if math.Abs(p[0]-p[1]) > 2*math.Abs(math.Nextafter(p[0], 0)-p[0])+1e-15 {
				t.Errorf("angle %d: %v against math's %v", i, p[1], p[0])
			}
		}
	}
}
