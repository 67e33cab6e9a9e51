package zorder

import (
	"math"
	"slices"
)

// Square is base narrowed, on float attributes x and y, to the square of
// half-side half around (cx, cy): every point within half of the centre
// lies in it, as a disc lies in its square, so a nearest-neighbour search
// that has read the square has read every point within half. Its float
// bounds are rounded outward, so that rounding leaves out no such point.
func (s *Schema) Square(base Box, x, y int, cx, cy, half float64) Box {
	var b Box
	if base == nil {
		b = s.Universe()
	} else {
		b = slices.Clone(base)
	}
	for _, a := range [2]struct {
		d int
		c float64
	}{{x, cx}, {y, cy}} {
		lo := math.Nextafter(a.c-half, math.Inf(-1))
		hi := math.Nextafter(a.c+half, math.Inf(1))
		b.Narrow(a.d, s.attrs[a.d].FloatBetween(lo, hi))
	}
	return b
}

// PointDistance is the least and the greatest distance from (cx, cy) of a
// point whose coordinates have the codes that address addr gives float
// attributes x and y: the same but for rounding where the codes keep every
// bit of a float, as a gist index's do; both +Inf for a NULL or NaN
// coordinate, whose distance sorts after every number.
func (s *Schema) PointDistance(addr []byte, x, y int, cx, cy float64) (lo, hi float64) {
	var z codes
	s.decode(addr, &z)
	xlo, xhi := s.floatSpan(x, z[x], z[x])
	ylo, yhi := s.floatSpan(y, z[y], z[y])
	if math.IsInf(xlo, -1) && math.IsInf(xhi, -1) || math.IsInf(ylo, -1) && math.IsInf(yhi, -1) {
		return math.Inf(1), math.Inf(1) // NULL
	}
	near := func(lo, hi, c float64) float64 { return max(lo-c, c-hi, 0) }
	far := func(lo, hi, c float64) float64 { return max(math.Abs(lo-c), math.Abs(hi-c)) }
	return math.Hypot(near(xlo, xhi, cx), near(ylo, yhi, cy)), math.Hypot(far(xlo, xhi, cx), far(ylo, yhi, cy))
}
