package zorder

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// boxDist is the Euclidean distance between two rectangles (0 when they
// meet), NaN when either has a NaN corner.
func boxDist(q, b [4]float64) float64 {
	for _, v := range append(q[:], b[:]...) {
		if math.IsNaN(v) {
			return math.NaN()
		}
	}
	dx := math.Max(0, math.Max(b[0]-q[2], q[0]-b[2]))
	dy := math.Max(0, math.Max(b[1]-q[3], q[1]-b[3]))
	return math.Hypot(dx, dy)
}

// kSmallest is the k smallest distances of ds, NaN last.
func kSmallest(ds []float64, k int) []float64 {
	ds = slices.Clone(ds)
	slices.SortFunc(ds, func(a, b float64) int {
		switch {
		case math.IsNaN(a) && math.IsNaN(b):
			return 0
		case math.IsNaN(a):
			return 1
		case math.IsNaN(b):
			return -1
		}
		return cmp.Compare(a, b)
	})
	return ds[:min(k, len(ds))]
}

// TestXZNearestAgainstBruteForce runs the ring search as the executor
// does (every rectangle whose code a ring hands out becomes a candidate;
// stop once the k-th is settled) over random rectangles, NaN and
// out-of-world ones included, around random points and query boxes, and
// checks that its k nearest are brute force's: the stop condition drawn
// from the enlarged elements never stops early.
func TestXZNearestAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < raceScale(400, 100); trial++ {
		levels := []int{0, 2, 8, 16, MaxXZLevels}[trial%5]
		s := XZ2{MinX: -100, MinY: -100, MaxX: 100, MaxY: 100, Levels: levels}
		rects := make([][4]float64, 1+r.IntN(1500))
		for i := range rects {
			rects[i] = randRect(r)
			if r.IntN(50) == 0 {
				rects[i][r.IntN(4)] = math.NaN()
			}
		}
		codes := make([]int64, len(rects))
		for i, b := range rects {
			codes[i] = s.Code(b[0], b[1], b[2], b[3])
		}
		q := randRect(r)
		if trial%3 == 0 {
			q[2], q[3] = q[0], q[1] // a point
		}
		k := 1 + r.IntN(40)
		want := make([]float64, len(rects))
		for i, b := range rects {
			want[i] = boxDist(q, b)
		}
		want = kSmallest(want, k)

		r0 := math.Pow(10, r.Float64()*6-4)
		search := s.NearestSearch(q[0], q[1], q[2], q[3], r0, []int{2, 8, 64, 256}[r.IntN(4)])
		read := make([]bool, len(rects))
		var cands []float64
		rings := 0
		for {
			ring, ok := search.Next()
			if !ok {
				t.Fatalf("trial %d: the search ended before settling", trial)
			}
			rings++
			for i, c := range codes {
				if inXZ(ring.Ranges, c) {
					if read[i] {
						t.Fatalf("trial %d: rect %v read twice", trial, rects[i])
					}
					read[i] = true
					cands = append(cands, boxDist(q, rects[i]))
				}
			}
			cands = kSmallest(cands, len(cands))
			if ring.Last {
				break
			}
			if len(cands) >= k && cands[k-1] <= search.Settled() {
				break
			}
			if len(cands) >= k && !math.IsNaN(cands[k-1]) {
				search.Within(cands[k-1] * (1 + 1e-6))
			}
			if rings > 200 {
				t.Fatalf("trial %d: %d rings", trial, rings)
			}
		}
		got := kSmallest(cands, k)
		if len(got) != len(want) {
			t.Fatalf("trial %d: %d nearest, want %d", trial, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Fatalf("trial %d (k %d, query %v): nearest %v, want %v", trial, k, q, got, want)
			}
		}
	}
}

// TestXZNearestLast: a query box that is no finite box, or no first
// radius, reads every code in one ring.
func TestXZNearestLast(t *testing.T) {
	s := XZ2{MinX: 0, MinY: 0, MaxX: 1, MaxY: 1, Levels: 2}
	for _, tc := range []struct{ x0, y0, x1, y1, r0 float64 }{
		{math.NaN(), 0, 0, 0, 1},
		{0, 0, math.Inf(1), 0, 1},
		{0.5, 0.5, 0.5, 0.5, 0},
		{0.5, 0.5, 0.5, 0.5, 10}, // the first ring holds the world
	} {
		n := s.NearestSearch(tc.x0, tc.y0, tc.x1, tc.y1, tc.r0, 8)
		ring, ok := n.Next()
		if !ok || !ring.Last || len(ring.Ranges) != 1 || ring.Ranges[0] != (XZRange{0, s.Codes()}) || !math.IsInf(n.Settled(), 1) {
			t.Errorf("%+v: first ring %+v, want the last, of every code", tc, ring)
		}
		if _, ok := n.Next(); ok {
			t.Errorf("%+v: a ring after the last", tc)
		}
	}
}
