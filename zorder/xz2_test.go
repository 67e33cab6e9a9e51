package zorder

import (
	"math"
	"math/rand/v2"
	"testing"
)

// inXZ reports whether code lies in one of rs.
func inXZ(rs []XZRange, code int64) bool {
	for _, r := range rs {
		if r.Lo <= code && code < r.Hi {
			return true
		}
	}
	return false
}

// checkXZ checks the ranges of a query box against every rectangle of
// rects by brute force: each one meeting the box has its code in them;
// the ranges are sorted, disjoint, within the code space and within the
// budget.
func checkXZ(t *testing.T, s XZ2, q [4]float64, budget int, rects [][4]float64) {
	t.Helper()
	rs := s.Ranges(q[0], q[1], q[2], q[3], budget)
	if len(rs) > max(budget, 2) {
		t.Fatalf("box %v: %d ranges over a budget of %d", q, len(rs), budget)
	}
	for i, r := range rs {
		if r.Lo >= r.Hi || r.Lo < 0 || r.Hi > s.Codes() || (i > 0 && r.Lo <= rs[i-1].Hi) {
			t.Fatalf("box %v: ranges not sorted, disjoint and in [0, %d): %v", q, s.Codes(), rs)
		}
	}
	for _, b := range rects {
		code := s.Code(b[0], b[1], b[2], b[3])
		if code < 0 || code >= s.Codes() {
			t.Fatalf("rect %v: code %d outside [0, %d)", b, code, s.Codes())
		}
		meets := b[0] <= q[2] && q[0] <= b[2] && b[1] <= q[3] && q[1] <= b[3]
		if meets && !inXZ(rs, code) {
			t.Fatalf("rect %v (code %d) meets box %v but its code is in none of %v", b, code, q, rs)
		}
	}
}

// randRect is a rectangle of random size somewhere around the world
// [-100, 100]², now and then outside it, degenerate, or at its edges.
func randRect(r *rand.Rand) [4]float64 {
	coord := func() float64 {
		switch r.IntN(10) {
		case 0:
			return -100
		case 1:
			return 100
		case 2:
			return float64(r.IntN(9)-4) * 25 // cell edges
		}
		return r.Float64()*240 - 120
	}
	x, y := coord(), coord()
	size := math.Pow(10, r.Float64()*5-3)
	if r.IntN(8) == 0 {
		size = 0
	}
	return [4]float64{x, y, x + size*r.Float64(), y + size*r.Float64()}
}

// TestXZ2AgainstBruteForce: for random rectangles and query boxes, every
// rectangle meeting the box has its code in the box's ranges, at every
// budget.
func TestXZ2AgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, levels := range []int{0, 1, 3, 12, MaxXZLevels} {
		s := XZ2{MinX: -100, MinY: -100, MaxX: 100, MaxY: 100, Levels: levels}
		rects := make([][4]float64, 2000)
		for i := range rects {
			rects[i] = randRect(r)
		}
		for i := 0; i < 200; i++ {
			checkXZ(t, s, randRect(r), []int{1, 2, 8, 64, 1000}[i%5], rects)
		}
	}
}

// TestXZ2Code checks codes by hand: the root for what the world does not
// hold, and a small rectangle's code inside its cell's subtree.
func TestXZ2Code(t *testing.T) {
	s := XZ2{MinX: 0, MinY: 0, MaxX: 1, MaxY: 1, Levels: 2}
	if s.Codes() != 21 {
		t.Fatalf("Codes() = %d, want 21", s.Codes())
	}
	for _, tc := range []struct {
		r    [4]float64
		want int64
	}{
		{[4]float64{-1, 0, 0.5, 0.5}, 0},                        // outside the world
		{[4]float64{math.NaN(), 0, 0.5, 0.5}, 0},                // NaN
		{[4]float64{0, 0, 1, 1}, 1},                             // the world: in the lower-left quadrant's element
		{[4]float64{0, 0, 0.1, 0.1}, 2},                         // lower-left cell of level 2
		{[4]float64{0.6, 0.1, 0.7, 0.6}, 1 + 1*5},               // lower-right quadrant, wider than level 2's elements
		{[4]float64{0.76, 0.76, 0.8, 0.8}, 1 + 3*5 + 1 + 3*1},   // upper-right corner cell
		{[4]float64{0.3, 0.3, 0.9, 0.9}, 1},                     // held by the lower-left quadrant's element
		{[4]float64{0.6, 0.1, 0.7, 0.2}, 1 + 1*5 + 1},           // a level 2 element
		{[4]float64{0.75, 0.75, 0.75, 0.75}, 1 + 3*5 + 1 + 3*1}, // a point on a cell corner
	} {
		if got := s.Code(tc.r[0], tc.r[1], tc.r[2], tc.r[3]); got != tc.want {
			t.Errorf("Code(%v) = %d, want %d", tc.r, got, tc.want)
		}
	}
	// A box beyond every enlarged element reads the root only.
	if rs := s.Ranges(5, 5, 6, 6, 64); len(rs) != 1 || rs[0] != (XZRange{0, 1}) {
		t.Errorf("Ranges of a far box = %v, want the root only", rs)
	}
	// The whole world reads everything.
	if rs := s.Ranges(-1, -1, 3, 3, 64); len(rs) != 1 || rs[0] != (XZRange{0, 21}) {
		t.Errorf("Ranges of the world = %v, want [0, 21)", rs)
	}
}

// FuzzXZ2 checks that the ranges of a fuzzer-chosen box hold the code of
// a fuzzer-chosen rectangle meeting it.
func FuzzXZ2(f *testing.F) {
	f.Add(0.1, 0.2, 0.3, 0.4, 0.25, 0.25, 0.5, 0.5, uint8(12), uint8(8))
	f.Add(-5.0, -5.0, 5.0, 5.0, 0.0, 0.0, 0.0, 0.0, uint8(30), uint8(1))
	f.Add(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, uint8(3), uint8(64))
	f.Fuzz(func(t *testing.T, a, b, c, d, qa, qb, qc, qd float64, levels, budget uint8) {
		s := XZ2{MinX: -1, MinY: -1, MaxX: 1, MaxY: 1, Levels: int(levels) % (MaxXZLevels + 1)}
		rect := [4]float64{math.Min(a, c), math.Min(b, d), math.Max(a, c), math.Max(b, d)}
		q := [4]float64{math.Min(qa, qc), math.Min(qb, qd), math.Max(qa, qc), math.Max(qb, qd)}
		checkXZ(t, s, q, int(budget), [][4]float64{rect})
	})
}
