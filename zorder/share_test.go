package zorder

import (
	"math"
	"math/rand/v2"
	"testing"
)

// CoverShare against brute force: with a sample per address it is exactly
// the share of the covered addresses inside the box; with fewer it stays
// within the stratification's error.
func TestCoverShareBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for i := 0; i < raceScale(200, 60); i++ {
		m := randSmall(r)
		cover := m.s.Ranges(m.randBox(r), 1+r.IntN(6))
		within := m.randBox(r)
		held := m.covered(t, cover)
		inside := m.inBox(within)
		n, both := 0, 0
		for z, c := range held {
			if c {
				n++
				if inside[z] {
					both++
				}
			}
		}
		if n == 0 {
			continue
		}
		want := float64(both) / float64(n)
		if got := m.s.CoverShare(cover, within, n); got != want {
			t.Fatalf("widths %v cover %v within %v: CoverShare with a sample per address %v, counted %d of %d", m.widths, cover, within, got, both, n)
		}
		// Evenly spread samples over a union of runs: each run of
		// addresses inside or outside the box misplaces at most one.
		if k := 64; n > k {
			if got := m.s.CoverShare(cover, within, k); math.Abs(got-want) > float64(2*len(cover)+2*countRuns(held, inside))/float64(k) {
				t.Fatalf("widths %v: CoverShare with %d samples %v, exact %v", m.widths, k, got, want)
			}
		}
	}
}

// countRuns counts the maximal runs of covered addresses that are inside
// the box.
func countRuns(held, inside []bool) int {
	runs, prev := 0, false
	for z := range held {
		cur := held[z] && inside[z]
		if cur && !prev {
			runs++
		}
		prev = cur
	}
	return runs
}

// On a 192-bit schema a cover of a small box lies within the smallest
// aligned subcube holding the box (here [base, base+8191] in every
// attribute), so wholly inside wider bounds; the same cover against a box
// beside it shares nothing.
func TestCoverShareWide(t *testing.T) {
	s := MustSchema(Attr{Type: TypeUint}, Attr{Type: TypeUint}, Attr{Type: TypeUint})
	base := uint64(1) << 62
	box := s.Universe()
	for d := range box {
		box[d] = Interval{Lo: base + 1000, Hi: base + 5000}
	}
	bounds := s.Universe()
	for d := range bounds {
		bounds[d] = Interval{Lo: base, Hi: base + 1<<20}
	}
	cover := s.Ranges(box, 16)
	if got := s.CoverShare(cover, box, 256); got <= 0 || got > 1 {
		t.Errorf("share of the box's own cover in the box: %v", got)
	}
	if got := s.CoverShare(cover, bounds, 256); got != 1 {
		t.Errorf("cover inside the bounds: share %v, want 1", got)
	}
	beside := s.Universe()
	for d := range beside {
		beside[d] = Interval{Lo: base + 1<<30, Hi: base + 1<<31}
	}
	if got := s.CoverShare(cover, beside, 256); got != 0 {
		t.Errorf("cover against a disjoint box: share %v, want 0", got)
	}
}
