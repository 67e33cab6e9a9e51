package zorder

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"
)

// TestNearestCellsMatchesBruteForce runs the best-first search over a
// sorted model of an index, as the executor does (a probe, then batches:
// the first at a guessed radius, the next at the k-th candidate's
// distance or wider; stop once the k-th candidate is nearer than every
// unread cell), and compares the candidates it would hand to the sort
// with the brute-force k nearest, ties included. It also checks that no
// entry is read twice.
func TestNearestCellsMatchesBruteForce(t *testing.T) {
	// All trials even under the race detector: a third of them miss the
	// loosened stop condition that TestNearestCellsStopConditionMatters
	// plants.
	testNearestCells(t, distSlack, nnTrials, false)
}

// TestNearestCellsStopConditionMatters loosens the stop condition (a
// candidate as near as the nearest unread cell, or a little farther,
// counts as settled) and expects the brute-force comparison to catch it:
// the property test above is no test if it cannot fail.
func TestNearestCellsStopConditionMatters(t *testing.T) {
	if testNearestCells(t, 1.05, nnTrials, true) == 0 {
		t.Fatal("a loosened stop condition went unnoticed")
	}
}

// testNearestCells runs the property test with settled as the factor on
// Settled() a candidate must be below, over trials indexes per layout;
// with count it returns at the first query answered wrongly (1) instead
// of failing, or 0 when none is.
func testNearestCells(t *testing.T, settled float64, trials int, count bool) (wrong int) {
	rng := rand.New(rand.NewSource(42))
	probes := rand.New(rand.NewSource(43))
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
		{"yx32", func() []Attr {
			return []Attr{{Name: "y", Type: TypeFloat, Width: 32}, {Name: "x", Type: TypeFloat, Width: 32}}
		}},
	}
	for _, lay := range layouts {
		for trial := 0; trial < trials; trial++ {
			attrs := lay.attrs()
			xi, yi := 0, 1
			if attrs[0].Name == "y" {
				xi, yi = 1, 0
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
				case r == 2:
					p.x, p.y = math.Inf(1), rng.Float64()
				case r < 8 && i > 0 && !pts[i-1].null:
					p.x, p.y = pts[i-1].x, pts[i-1].y // ties
				default:
					// Integer grid points make exact distance ties too.
					p.x = off + math.Round(rng.NormFloat64()*20)*scale
					p.y = off + math.Round(rng.NormFloat64()*20)*scale
				}
				if !p.null && finite(p.x) {
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
				if pts[i].null {
					c[xi], c[yi] = s.Attr(xi).Null(), s.Attr(yi).Null()
				} else {
					c[xi], c[yi] = s.Attr(xi).Float(pts[i].x), s.Attr(yi).Float(pts[i].y)
				}
				pts[i].addr = s.Encode(c)
			}
			sort.Slice(pts, func(i, j int) bool { return bytes.Compare(pts[i].addr, pts[j].addr) < 0 })

			for q := 0; q < 5; q++ {
				cx := off + rng.NormFloat64()*30*scale
				cy := off + rng.NormFloat64()*30*scale
				if q == 4 {
					p := pts[rng.Intn(n)] // on a point
					cx, cy = p.x, p.y
					if p.null || !finite(cx) {
						cx, cy = off, off
					}
				}
				k := 1 + rng.Intn(min(n, 60))
				if rng.Intn(8) == 0 {
					k = n + rng.Intn(3) // more than there are
				}
				// A filter on the column bounds the search to a base box.
				var base Box
				if rng.Intn(3) == 0 {
					base = s.Universe()
					base.Narrow(xi, s.Attr(xi).FloatBetween(cx-rng.Float64()*40*scale, cx+rng.Float64()*40*scale))
				}
				inBase := func(p nnPoint) bool { return base == nil || s.Contains(base, p.addr) }
				search := s.NearestCells(base, xi, yi, cx, cy)
				seen := map[int]bool{}
				var read []Range // every range read, probe included
				var cands []nnCand
				readRange := func(r Range) {
					for _, p := range pts {
						if bytes.Compare(p.addr, r.Lo) < 0 || (r.Hi != nil && bytes.Compare(p.addr, r.Hi) >= 0) {
							continue
						}
						if seen[p.id] {
							t.Fatalf("point %d read twice", p.id)
						}
						seen[p.id] = true
						if inBase(p) {
							d, class := nnDist(p, cx, cy)
							cands = append(cands, nnCand{id: p.id, d: d, class: class})
						}
					}
				}
				kth := func() float64 {
					sort.SliceStable(cands, func(i, j int) bool { return nnLess(cands[i], cands[j]) })
					if len(cands) < k || cands[k-1].class != 0 || !finite(cands[k-1].d) {
						return -1
					}
					return cands[k-1].d
				}
				// The random draws of the original cases come first, so
				// that adding the executor's probe (from its own source)
				// left their queries as they were.
				stretch := rng.Intn(2) == 0
				var pr Range
				if stretch {
					i := rng.Intn(n)
					j := min(n, i+rng.Intn(k+1))
					pr = Range{Lo: pts[i].addr}
					if j < n {
						pr.Hi = pts[j].addr
						if bytes.Equal(pr.Hi, pr.Lo) {
							pr.Hi = nil
						}
					}
				}
				r := scale * math.Pow(2, float64(rng.Intn(12)-6))
				side := r / float64(1+rng.Intn(8))
				switch {
				case probes.Intn(3) == 0 && finite(cx) && finite(cy):
					// As the executor probes: p entries of the base box
					// (fewer or more than k) from the centre's address on,
					// then from the index's start, each stretch read whole
					// up to the address of the p-th, whose entries are left
					// for the batches; the first batch at the radius that
					// holds k at the density the probe found.
					c := make([]uint64, len(attrs))
					c[xi], c[yi] = s.Attr(xi).Float(cx), s.Attr(yi).Float(cy)
					centre := s.Encode(c)
					p := 1 + probes.Intn(k+8)
					from := []Range{{Lo: centre}, {Lo: make([]byte, s.AddrLen()), Hi: centre}}
					got, area, before := 0, 0.0, len(cands)
					for _, pr := range from {
						for _, q := range pts {
							in := bytes.Compare(q.addr, pr.Lo) >= 0 && (pr.Hi == nil || bytes.Compare(q.addr, pr.Hi) < 0)
							if in && inBase(q) {
								if got++; got == p {
									pr.Hi = q.addr
									break
								}
							}
						}
						readRange(pr)
						search.MarkRead(pr)
						read = UnionRanges(read, []Range{pr})
						area += s.RangeArea(pr, xi, yi)
						if got == p {
							break
						}
					}
					if m := len(cands) - before; m > 0 && area > 0 && finite(area) {
						r = math.Sqrt(float64(k) * area / (math.Pi * float64(m)))
						side = max(r/3, math.Sqrt(area/float64(m)))
					}
				case stretch:
					// A probe: a random stretch of the index, read whole.
					readRange(pr)
					search.MarkRead(pr)
					read = UnionRanges(read, []Range{pr})
				}
				if !finite(cx) || !finite(cy) {
					r = math.Inf(1)
				}
				batches := 0
				merge := probes.Intn(2) == 0
				for !search.Done() {
					batches++
					ranges := search.Batch(r, side)
					if merge {
						// As the executor may: two ranges read as one, the
						// gap between them marked read, unless it holds
						// anything read before.
						out := ranges[:0]
						for i, rg := range ranges {
							if i > 0 && out[len(out)-1].Hi != nil && probes.Intn(2) == 0 {
								gap := Range{Lo: out[len(out)-1].Hi, Hi: rg.Lo}
								if rest := SubtractRanges([]Range{gap}, read); len(rest) == 1 && bytes.Equal(rest[0].Lo, gap.Lo) && bytes.Equal(rest[0].Hi, gap.Hi) {
									search.MarkRead(gap)
									out[len(out)-1].Hi = rg.Hi
									continue
								}
							}
							out = append(out, rg)
						}
						ranges = out
					}
					for _, rg := range ranges {
						readRange(rg)
					}
					read = UnionRanges(read, ranges)
					d := kth()
					if d >= 0 && d < search.Settled()/distSlack*settled {
						break
					}
					switch {
					case d >= 0:
						r = d
					case batches > 30:
						r = math.Inf(1)
					default:
						r = max(r*2, side)
						side = max(side, r/4)
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
					if count {
						return 1
					}
					t.Fatalf("%s trial %d query %d (k=%d, centre %g,%g, %d batches): got %v, want %v",
						lay.name, trial, q, k, cx, cy, batches, got, want)
				}
			}
		}
	}
	return wrong
}

// nnTrials is how many indexes each layout of the property test builds.
const nnTrials = 40

// TestNearestCellsBatchAllocations: a batch allocates for the ranges it
// hands out, not for each cell it splits on the way (the cells within the
// radius are worked off a stack, and the queue holds cells by value, not
// boxed in an interface): a first batch splits down from the base box's
// root through some sixty levels to cells of a thousandth of a degree.
func TestNearestCellsBatchAllocations(t *testing.T) {
	s := MustSchema(Attr{Name: "x", Type: TypeFloat}, Attr{Name: "y", Type: TypeFloat})
	base := s.Universe()
	base.Narrow(0, Interval{Lo: s.Attr(0).Float(-74.5), Hi: s.Attr(0).Float(-73.5)})
	base.Narrow(1, Interval{Lo: s.Attr(1).Float(40.2), Hi: s.Attr(1).Float(41.2)})
	var cells int
	var ranges int
	allocs := testing.AllocsPerRun(20, func() {
		n := s.NearestCells(base, 0, 1, -73.91, 40.73)
		out := n.Batch(0.004, 0.0013)
		cells, ranges = n.Cells(), len(out)
	})
	// Each cell handed out is one range of two addresses before siblings
	// are merged, cut from a slab of cellSlabAddrs addresses; the rest is
	// the search's own few slices.
	if limit := float64(2*cells/cellSlabAddrs + 40); allocs > limit {
		t.Fatalf("a batch of %d cells (%d ranges) allocated %v times, want at most %v", cells, ranges, allocs, limit)
	}
}

// TestCellsAround: the cells around a point are nested, each holding the
// address of the point (or of the box's point nearest to it, for one
// outside the box), the last the box's own range; and a non-finite point
// has none.
func TestCellsAround(t *testing.T) {
	s := MustSchema(Attr{Name: "x", Type: TypeFloat}, Attr{Name: "y", Type: TypeFloat})
	box := Box{{Lo: s.Attr(0).Float(-74.5), Hi: s.Attr(0).Float(-73.5)}, {Lo: s.Attr(1).Float(40), Hi: s.Attr(1).Float(41)}}
	rng := rand.New(rand.NewSource(3))
	in := func(r Range, a []byte) bool {
		return bytes.Compare(r.Lo, a) <= 0 && (r.Hi == nil || bytes.Compare(a, r.Hi) < 0)
	}
	for i := 0; i < 2000; i++ {
		cx, cy := -74.5+rng.Float64()*1.0, 40+rng.Float64()
		if i%3 == 0 {
			cx, cy = -80+rng.Float64()*12, 35+rng.Float64()*12 // often outside
		}
		cells, px, py := s.CellsAround(box, 0, 1, cx, cy)
		if len(cells) < 2 {
			t.Fatalf("(%g, %g): %d cells", cx, cy, len(cells))
		}
		if px != min(max(cx, -74.5), -73.5) || py != min(max(cy, 40), 41) {
			t.Fatalf("(%g, %g): around (%g, %g)", cx, cy, px, py)
		}
		a := s.Encode([]uint64{s.Attr(0).Float(px), s.Attr(1).Float(py)})
		lo, hi, _ := s.clip(box)
		root := node{lo: lo, hi: hi}
		if last := cells[len(cells)-1]; !bytes.Equal(last.Lo, s.cellRange(&root).Lo) || !bytes.Equal(last.Hi, s.cellRange(&root).Hi) {
			t.Fatalf("(%g, %g): last cell [%x, %x) is not the box", cx, cy, last.Lo, last.Hi)
		}
		for k, c := range cells {
			if !in(c, a) {
				t.Fatalf("(%g, %g): cell %d [%x, %x) misses the point's address %x", cx, cy, k, c.Lo, c.Hi, a)
			}
			if k > 0 {
				p := cells[k-1]
				if bytes.Compare(p.Lo, c.Lo) < 0 || (c.Hi != nil && (p.Hi == nil || bytes.Compare(p.Hi, c.Hi) > 0)) || bytes.Equal(p.Lo, c.Lo) && bytes.Equal(p.Hi, c.Hi) {
					t.Fatalf("(%g, %g): cell %d [%x, %x) not strictly within cell %d [%x, %x)", cx, cy, k-1, p.Lo, p.Hi, k, c.Lo, c.Hi)
				}
			}
		}
	}
	if cells, _, _ := s.CellsAround(box, 0, 1, math.NaN(), 40); cells != nil {
		t.Fatalf("NaN centre: %v", cells)
	}
}

// TestNearestCellsDescend: after Descend, with emptiness answered by brute
// force over random clustered points, no point lies nearer the centre
// than Settled() (the floor the search reaches out from), and the cells
// it dropped held no point: the batches after it read every point.
// Centres inside, beside and far from the cluster.
func TestNearestCellsDescend(t *testing.T) {
	s := MustSchema(Attr{Name: "x", Type: TypeFloat}, Attr{Name: "y", Type: TypeFloat})
	rng := rand.New(rand.NewSource(9))
	for trial := 0; trial < 200; trial++ {
		type pt struct {
			x, y float64
			a    []byte
		}
		var pts []pt
		cx0, cy0 := rng.Float64()*100, rng.Float64()*100
		for i := 0; i < 300; i++ {
			x, y := cx0+rng.NormFloat64()*3, cy0+rng.NormFloat64()*3
			pts = append(pts, pt{x, y, s.Encode([]uint64{s.Attr(0).Float(x), s.Attr(1).Float(y)})})
		}
		box := s.Universe()
		cx, cy := cx0+rng.NormFloat64()*[]float64{1, 10, 1000}[trial%3], cy0+rng.NormFloat64()*10
		n := s.NearestCells(box, 0, 1, cx, cy)
		asked := 0
		empty := func(r Range) (bool, error) {
			asked++
			for _, p := range pts {
				if bytes.Compare(r.Lo, p.a) <= 0 && (r.Hi == nil || bytes.Compare(p.a, r.Hi) < 0) {
					return false, nil
				}
			}
			return true, nil
		}
		side := []float64{0.01, 0.3, 5}[rng.Intn(3)]
		if err := n.Descend(side, 256, empty); err != nil {
			t.Fatal(err)
		}
		floor := n.Settled()
		nearest := math.Inf(1)
		for _, p := range pts {
			nearest = min(nearest, math.Hypot(p.x-cx, p.y-cy))
		}
		if nearest < floor {
			t.Fatalf("trial %d: a point at %v, nearer than the floor %v (%d asks)", trial, nearest, floor, asked)
		}
		// The batches after it read every point the dropped cells did not hold: all.
		var got []float64
		for !n.Done() {
			for _, r := range n.Batch(math.Inf(1), side) {
				for _, p := range pts {
					if bytes.Compare(r.Lo, p.a) <= 0 && (r.Hi == nil || bytes.Compare(p.a, r.Hi) < 0) {
						got = append(got, math.Hypot(p.x-cx, p.y-cy))
					}
				}
			}
		}
		if len(got) != len(pts) {
			t.Fatalf("trial %d: the batches after Descend read %d of %d points", trial, len(got), len(pts))
		}
	}
}
