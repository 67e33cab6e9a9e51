package zorder

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"
)

// nnPoint is one index entry of the brute-force model: a point (nil
// coordinates model a NULL) and its address.
type nnPoint struct {
	id     int
	x, y   float64
	null   bool
	addr   []byte
	zcodes []uint64
}

// nnDist is the distance in PostgreSQL's order: NaN above every number,
// NULL above NaN (ORDER BY ... ASC NULLS LAST).
func nnDist(p nnPoint, cx, cy float64) (float64, int) {
	if p.null {
		return 0, 2
	}
	d := math.Hypot(p.x-cx, p.y-cy)
	if math.IsNaN(d) {
		return 0, 1
	}
	return d, 0
}

type nnCand struct {
	id    int
	d     float64
	class int
}

func nnLess(a, b nnCand) bool {
	if a.class != b.class {
		return a.class < b.class
	}
	return a.d < b.d
}

func nnEqual(a, b nnCand) bool { return a.class == b.class && (a.class != 0 || a.d == b.d) }

// topWithTies is the first k candidates in distance order plus every
// candidate tied with the k-th: what a Sort and Limit over any tie-break
// can pick from.
func topWithTies(c []nnCand, k int) []int {
	sort.SliceStable(c, func(i, j int) bool { return nnLess(c[i], c[j]) })
	var ids []int
	for i, x := range c {
		if i >= k && !nnEqual(x, c[k-1]) {
			break
		}
		ids = append(ids, x.id)
	}
	sort.Ints(ids)
	return ids
}

// TestNearestSearchMatchesBruteForce runs the ring search over a sorted
// model of an index, as the executor does (read each ring's ranges, keep
// every candidate, stop once k are settled), and compares the candidates it
// would hand to the sort with the brute-force k nearest, ties included. It
// also checks that no entry is read twice and that each ring's ranges hold
// every in-box entry.
func TestNearestSearchMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	layouts := []struct {
		name  string
		attrs func() []Attr
	}{
		{"xy64", func() []Attr {
			return []Attr{{Name: "x", Type: TypeFloat}, {Name: "y", Type: TypeFloat}}
		}},
		{"xy24-nullable", func() []Attr {
			return []Attr{{Name: "x", Type: TypeFloat, Width: 24, Nullable: true}, {Name: "y", Type: TypeFloat, Width: 24, Nullable: true}}
		}},
		{"yx-with-int", func() []Attr {
			return []Attr{{Name: "k", Type: TypeInt, Width: 8}, {Name: "y", Type: TypeFloat, Width: 32}, {Name: "x", Type: TypeFloat, Width: 32}}
		}},
	}
	for _, lay := range layouts {
		t.Run(lay.name, func(t *testing.T) {
			for trial := 0; trial < raceScale(40, 12); trial++ {
				attrs := lay.attrs()
				xi, yi := 0, 1
				if len(attrs) == 3 {
					xi, yi = 2, 1
				}
				n := 1 + rng.Intn(400)
				scale := math.Pow(10, float64(rng.Intn(7)-3))
				off := (rng.Float64() - 0.5) * 100 * scale
				pts := make([]nnPoint, n)
				xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
				for i := range pts {
					p := nnPoint{id: i}
					switch r := rng.Intn(40); {
					case r == 0 && attrs[xi].Nullable:
						p.null = true
					case r == 1:
						p.x, p.y = math.NaN(), rng.Float64()
					case r < 8 && i > 0 && !pts[i-1].null:
						p.x, p.y = pts[i-1].x, pts[i-1].y // ties
					default:
						// Integer grid points make exact distance ties too.
						p.x = off + math.Round(rng.NormFloat64()*20)*scale
						p.y = off + math.Round(rng.NormFloat64()*20)*scale
					}
					if !p.null && !math.IsNaN(p.x) {
						xlo, xhi, ylo, yhi = min(xlo, p.x), max(xhi, p.x), min(ylo, p.y), max(yhi, p.y)
					}
					pts[i] = p
				}
				if rng.Intn(2) == 0 && xlo <= xhi {
					// Align to the data, as USING gist indexes are built.
					attrs[xi].Lead = attrs[xi].DataLead(attrs[xi].Float(xlo), attrs[xi].Float(xhi))
					attrs[yi].Lead = attrs[yi].DataLead(attrs[yi].Float(ylo), attrs[yi].Float(yhi))
				}
				s := MustSchema(attrs...)
				for i := range pts {
					c := make([]uint64, len(attrs))
					if len(attrs) == 3 {
						c[0] = attrs[0].Int(int64(rng.Intn(5)))
					}
					if pts[i].null {
						c[xi], c[yi] = s.Attr(xi).Null(), s.Attr(yi).Null()
					} else {
						c[xi], c[yi] = s.Attr(xi).Float(pts[i].x), s.Attr(yi).Float(pts[i].y)
					}
					pts[i].zcodes = c
					pts[i].addr = s.Encode(c)
				}
				sort.Slice(pts, func(i, j int) bool { return bytes.Compare(pts[i].addr, pts[j].addr) < 0 })

				for q := 0; q < 5; q++ {
					cx := off + rng.NormFloat64()*30*scale
					cy := off + rng.NormFloat64()*30*scale
					if q == 4 {
						p := pts[rng.Intn(n)] // on a point
						cx, cy = p.x, p.y
						if p.null || math.IsNaN(cx) {
							cx, cy = off, off
						}
					}
					k := 1 + rng.Intn(min(n, 60))
					if rng.Intn(8) == 0 {
						k = n + rng.Intn(3) // more than there are
					}
					r0 := math.Sqrt(float64(k)/float64(n)*(xhi-xlo)*(yhi-ylo)/math.Pi) * 1.2
					if rng.Intn(4) == 0 {
						r0 = scale * math.Pow(2, float64(rng.Intn(12)-6))
					}
					budget := 1 + rng.Intn(32)
					// With an index of more attributes, a bound on another
					// one is the base box the rings stay in.
					var base Box
					if len(attrs) == 3 && rng.Intn(2) == 0 {
						base = s.Universe()
						lo := int64(rng.Intn(5))
						base.Narrow(0, s.Attr(0).IntBetween(lo, lo+int64(rng.Intn(3))))
					}
					inBase := func(p nnPoint) bool { return base == nil || s.Contains(base, p.addr) }
					search := s.NearestSearch(base, xi, yi, cx, cy, r0, budget)
					if rng.Intn(2) == 0 && xlo <= xhi {
						search.SetExtent(xlo, xhi, ylo, yhi)
					}
					seen := map[int]bool{}
					var cands []nnCand
					rings := 0
					for {
						ring, ok := search.Next()
						if !ok {
							t.Fatalf("search ran out of rings without settling")
						}
						rings++
						for _, p := range pts {
							inRanges := false
							for _, r := range ring.Ranges {
								if bytes.Compare(p.addr, r.Lo) >= 0 && (r.Hi == nil || bytes.Compare(p.addr, r.Hi) < 0) {
									inRanges = true
									break
								}
							}
							if !inRanges {
								if s.Contains(ring.Box, p.addr) && !seen[p.id] {
									t.Fatalf("point %d in ring box %v was neither read now nor before", p.id, ring.Box)
								}
								continue
							}
							if seen[p.id] {
								t.Fatalf("point %d read twice", p.id)
							}
							seen[p.id] = true
							if !inBase(p) {
								continue // a range's over-cover: the box check drops it
							}
							d, class := nnDist(p, cx, cy)
							cands = append(cands, nnCand{id: p.id, d: d, class: class})
						}
						if ring.Last {
							break
						}
						sort.SliceStable(cands, func(i, j int) bool { return nnLess(cands[i], cands[j]) })
						if len(cands) >= k && cands[k-1].class == 0 && cands[k-1].d <= search.Settled() {
							break
						}
						if len(cands) >= k && cands[k-1].class == 0 && rng.Intn(2) == 0 {
							search.Within(cands[k-1].d * (1 + 1e-6))
						}
					}
					var all []nnCand
					for _, p := range pts {
						if inBase(p) {
							d, class := nnDist(p, cx, cy)
							all = append(all, nnCand{id: p.id, d: d, class: class})
						}
					}
					if len(all) == 0 {
						if len(cands) != 0 {
							t.Fatalf("candidates %v from an empty base box", cands)
						}
						continue
					}
					kk := min(k, len(all))
					want := topWithTies(all, kk)
					got := topWithTies(cands, min(kk, len(cands)))
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("trial %d query %d (k=%d, centre %g,%g, r0 %g, budget %d, %d rings): got %v, want %v",
							trial, q, k, cx, cy, r0, budget, rings, got, want)
					}
				}
			}
		})
	}
}

func TestSubtractAndUnionRanges(t *testing.T) {
	b := func(v byte) []byte { return []byte{v} }
	r := func(lo byte, hi int) Range {
		if hi < 0 {
			return Range{Lo: b(lo)}
		}
		return Range{Lo: b(lo), Hi: b(byte(hi))}
	}
	cases := []struct {
		ranges, done, want []Range
	}{
		{[]Range{r(10, 20)}, nil, []Range{r(10, 20)}},
		{[]Range{r(10, 20)}, []Range{r(10, 20)}, nil},
		{[]Range{r(10, 20)}, []Range{r(12, 15)}, []Range{r(10, 12), r(15, 20)}},
		{[]Range{r(10, 20), r(30, 40)}, []Range{r(15, 35)}, []Range{r(10, 15), r(35, 40)}},
		{[]Range{r(10, -1)}, []Range{r(5, 12), r(50, 60)}, []Range{r(12, 50), r(60, -1)}},
		{[]Range{r(10, -1)}, []Range{r(20, -1)}, []Range{r(10, 20)}},
		{[]Range{r(10, 20), r(25, 30)}, []Range{r(0, 5), r(20, 25)}, []Range{r(10, 20), r(25, 30)}},
		{[]Range{r(10, 20), r(21, 30)}, []Range{r(15, -1)}, []Range{r(10, 15)}},
	}
	for i, c := range cases {
		if got := SubtractRanges(c.ranges, c.done); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("case %d: SubtractRanges = %v, want %v", i, got, c.want)
		}
		// The fresh part and the done part together cover the ranges.
		u := UnionRanges(c.done, SubtractRanges(c.ranges, c.done))
		if got := SubtractRanges(c.ranges, u); len(got) != 0 {
			t.Errorf("case %d: union %v leaves %v uncovered", i, u, got)
		}
	}
	if got := UnionRanges([]Range{r(1, 3), r(8, 9)}, []Range{r(3, 5), r(6, -1)}); fmt.Sprint(got) != fmt.Sprint([]Range{r(1, 5), r(6, -1)}) {
		t.Errorf("UnionRanges = %v", got)
	}
}

func TestFloatSpanHoldsItsValues(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, a := range []Attr{{Type: TypeFloat}, {Type: TypeFloat, Width: 20, Nullable: true}, {Type: TypeFloat, Width: 40}} {
		for i := 0; i < 2000; i++ {
			u, v := rng.NormFloat64()*1e3, rng.NormFloat64()*1e3
			if u > v {
				u, v = v, u
			}
			lo, hi, ok := a.FloatSpan(a.FloatBetween(u, v))
			if !ok || lo > u || hi < v {
				t.Fatalf("%+v: span of [%g, %g] is [%g, %g] (ok %v)", a, u, v, lo, hi, ok)
			}
			// Tight: no wider than the codes' runs.
			if c := a.Float(lo); c != a.Float(u) {
				t.Fatalf("%+v: span starts at %g (code %d), below the code of %g (%d)", a, lo, c, u, a.Float(u))
			}
			if c := a.Float(hi); c != a.Float(v) {
				t.Fatalf("%+v: span ends at %g (code %d), past the code of %g (%d)", a, hi, c, v, a.Float(v))
			}
		}
	}
	if _, _, ok := (Attr{Type: TypeFloat}).FloatSpan(Attr{Type: TypeFloat}.Full()); ok {
		t.Fatal("the full interval (infinities, NaN) has no finite span")
	}
}
