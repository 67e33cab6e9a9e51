package zorder

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"
)

// TestTopNCellsMatchesBruteForce runs the top-N search over a sorted model
// of an index as the executor does (a first batch at a guessed bound, the
// next deeper while fewer than k are in, then at the k-th candidate's
// code; stop once the k-th is strictly beyond every unread cell) and
// compares the first k codes along the attribute, ascending and
// descending, with brute force, over data with many ties, in a plain and a
// led layout, with boxes empty, partial and whole. It also checks that no
// entry is read twice.
func TestTopNCellsMatchesBruteForce(t *testing.T) {
	if wrong := testTopNCells(t, false, 300); wrong > 0 {
		t.Fatalf("%d queries answered wrongly", wrong)
	}
}

// TestTopNCellsStopConditionMatters loosens the stop condition (a k-th
// candidate tied with the best unread cell, or up to two codes short of
// it, counts as settled) and expects the brute-force comparison to catch
// it: the property test is no test if it cannot fail.
func TestTopNCellsStopConditionMatters(t *testing.T) {
	if testTopNCells(t, true, 300) == 0 {
		t.Fatal("a loosened stop condition went unnoticed")
	}
}

// testTopNCells returns how many of the trials' queries got a wrong
// answer; loose ends the search when the k-th only ties the best unread
// cell or is up to two codes short of it.
func testTopNCells(t *testing.T, loose bool, trials int) (wrong int) {
	rng := rand.New(rand.NewSource(29))
	for trial := 0; trial < trials; trial++ {
		lead := 0
		if trial%2 == 1 {
			lead = 4
		}
		s, err := NewSchema(Attr{Name: "x", Type: TypeUint, Width: 10}, Attr{Name: "y", Type: TypeUint, Width: 10},
			Attr{Name: "t", Type: TypeUint, Width: 10, Lead: lead})
		if err != nil {
			t.Fatal(err)
		}
		type entry struct {
			addr []byte
			c    [3]uint64
		}
		// t crowds into a narrow band of its codes (a month of a wide
		// timestamp), with ties.
		n := 50 + rng.Intn(2000)
		tlo := uint64(rng.Intn(900))
		band := 1 + rng.Intn(1+rng.Intn(120))
		entries := make([]entry, n)
		for i := range entries {
			c := [3]uint64{uint64(rng.Intn(1024)), uint64(rng.Intn(1024)), tlo + uint64(rng.Intn(band))}
			entries[i] = entry{addr: s.Encode(c[:]), c: c}
		}
		slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.addr, b.addr) })
		for q := 0; q < 8; q++ {
			box := s.Universe()
			for d := 0; d < 2; d++ {
				lo := uint64(rng.Intn(1024))
				hi := lo + uint64(rng.Intn(1024-int(lo)))
				if q == 0 {
					lo, hi = 0, 1023 // everything
				}
				if q == 1 && d == 0 {
					lo, hi = 500, 400 // empty
				}
				box[d] = Interval{Lo: lo, Hi: hi}
			}
			box[2] = Interval{Lo: tlo, Hi: tlo + 127}
			k := []int{1, 10, 100, 1000}[rng.Intn(4)]
			desc := rng.Intn(2) == 0
			better := func(a, b uint64) int {
				if desc {
					return int(b) - int(a)
				}
				return int(a) - int(b)
			}
			// The sort above breaks ties by the other ORDER BY keys: here
			// the entry's place.
			order := func(i, j int) int {
				if c := better(entries[i].c[2], entries[j].c[2]); c != 0 {
					return c
				}
				return i - j
			}
			var want []int
			for i, e := range entries {
				if s.Contains(box, e.addr) {
					want = append(want, i)
				}
			}
			slices.SortFunc(want, order)
			want = want[:min(k, len(want))]

			cells := s.TopNCells(box, 2, desc)
			var got []int
			read := make([]bool, len(entries))
			lo, hi := box[2].Lo, box[2].Hi
			depth := uint64(1 + rng.Intn(64))
			bound := func(depth uint64) uint64 {
				depth = min(depth, hi-lo+1)
				if desc {
					return hi - depth + 1
				}
				return lo + depth - 1
			}
			b := bound(depth)
			for {
				for _, r := range cells.Batch(b, rng.Float64()*0.01, rng.Intn(2) == 0, 1+rng.Intn(64)) {
					for i, e := range entries {
						if bytes.Compare(e.addr, r.Lo) >= 0 && (r.Hi == nil || bytes.Compare(e.addr, r.Hi) < 0) && s.Contains(box, e.addr) {
							if read[i] {
								t.Fatalf("entry %v read twice", e.c)
							}
							read[i] = true
							got = append(got, i)
						}
					}
				}
				slices.SortFunc(got, order)
				next, ok := cells.Next()
				if !ok {
					break
				}
				if len(got) >= k {
					kth := entries[got[k-1]].c[2]
					if c := better(kth, next); c < 0 || (loose && c <= 2) {
						break
					}
					b = kth
					continue
				}
				depth *= 2
				b = bound(depth)
			}
			got = got[:min(k, len(got))]
			if !slices.Equal(got, want) {
				if !loose {
					t.Errorf("trial %d query %d (k %d desc %v box %v): got %v want %v", trial, q, k, desc, box, got, want)
				}
				wrong++
			}
		}
	}
	return wrong
}

// TestTopNCellsQueueAllocs: the search's queue of cells allocates nothing
// a cell pushed or popped (container/heap's Push(any) and Pop() any boxed
// each one): a batch that splits hundreds of cells allocates only the
// ranges it hands out, two addresses each, and a few growing slices.
func TestTopNCellsQueueAllocs(t *testing.T) {
	s, err := NewSchema(Attr{Name: "x", Type: TypeUint, Width: 20}, Attr{Name: "y", Type: TypeUint, Width: 20},
		Attr{Name: "t", Type: TypeUint, Width: 20})
	if err != nil {
		t.Fatal(err)
	}
	box := Box{{Lo: 1000, Hi: 900000}, {Lo: 5000, Hi: 700000}, {Lo: 12345, Hi: 1000000}}
	cells := 0
	allocs := testing.AllocsPerRun(10, func() {
		c := s.TopNCells(box, 2, true)
		c.Batch(990000, 1e-7, false, 1024)
		cells = c.Cells()
	})
	if cells < 100 {
		t.Fatalf("the batch handed out %d cells, want a search of hundreds", cells)
	}
	if limit := float64(2*cells + 40); allocs > limit {
		t.Errorf("%v allocations for %d cells, want at most %v", allocs, cells, limit)
	}
	t.Logf("%v allocations for %d cells", allocs, cells)
}
