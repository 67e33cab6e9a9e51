package zorder

import (
	"bytes"
	"math"
	"math/rand"
	"testing"
)

// rangeAreaByAddresses is RangeArea as first written: the same walk, each
// node's least and greatest addresses interleaved afresh from its codes.
// It is the definition the incremental walk must agree with.
func rangeAreaByAddresses(s *Schema, r Range, x, y int) float64 {
	return clippedAreaByAddresses(s, r, x, y, noClip)
}

// clippedAreaByAddresses is rangeAreaByAddresses counting each subcube's
// area within clip only (RangeAreaIn).
func clippedAreaByAddresses(s *Schema, r Range, x, y int, clip areaClip) float64 {
	lo, hi, _ := s.clip(s.Universe())
	var walk func(n *node) float64
	walk = func(n *node) float64 {
		a, b := s.appendAddr(nil, &n.lo), s.appendAddr(nil, &n.hi)
		if (r.Hi != nil && bytes.Compare(a, r.Hi) >= 0) || bytes.Compare(b, r.Lo) < 0 {
			return 0
		}
		if bytes.Compare(a, r.Lo) >= 0 && (r.Hi == nil || bytes.Compare(b, r.Hi) < 0) || n.k == s.bits {
			xlo, xhi := s.floatSpan(x, n.lo[x], n.hi[x])
			ylo, yhi := s.floatSpan(y, n.lo[y], n.hi[y])
			return clip.area(xlo, xhi, ylo, yhi)
		}
		c0, c1, _, _ := s.split(n)
		return walk(&c0) + walk(&c1)
	}
	return walk(&node{lo: lo, hi: hi})
}

// TestRangeAreaMatchesAddresses compares RangeArea with the walk that
// interleaves every node's addresses, bit for bit, over random ranges of
// several layouts: between two points' addresses (near each other, as a
// probe's, or far apart, as a batch's gaps), open above, from the start,
// bounds shorter or longer than an address, empty and reversed ones.
func TestRangeAreaMatchesAddresses(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	layouts := [][]Attr{
		{{Name: "x", Type: TypeFloat}, {Name: "y", Type: TypeFloat}},
		{{Name: "y", Type: TypeFloat, Width: 32}, {Name: "x", Type: TypeFloat, Width: 32}},
		{{Name: "x", Type: TypeFloat, Width: 24, Nullable: true}, {Name: "y", Type: TypeFloat, Width: 24, Nullable: true}},
		{{Name: "x", Type: TypeFloat, Width: 13}, {Name: "y", Type: TypeFloat, Width: 9}},
		{{Name: "x", Type: TypeFloat, Lead: 17}, {Name: "y", Type: TypeFloat, Lead: 18}},
		{{Name: "x", Type: TypeFloat, Width: 40}, {Name: "t", Type: TypeInt, Width: 20}, {Name: "y", Type: TypeFloat, Width: 40}},
	}
	for li, attrs := range layouts {
		s := MustSchema(attrs...)
		x, y := 0, len(attrs)-1
		if attrs[0].Name == "y" {
			x, y = 1, 0
		}
		addr := func() []byte {
			c := make([]uint64, len(attrs))
			base := rng.NormFloat64() * math.Pow(10, float64(rng.Intn(5)-2))
			for d, a := range attrs {
				switch {
				case a.Type == TypeFloat && rng.Intn(30) == 0:
					c[d] = a.Float(math.Inf(1 - 2*rng.Intn(2)))
				case a.Nullable && rng.Intn(30) == 0:
					c[d] = 0
				case a.Type == TypeFloat:
					c[d] = a.Float(base + rng.Float64()*math.Pow(10, float64(rng.Intn(6)-4)))
				default:
					c[d] = uint64(rng.Int63n(1 << 20))
				}
			}
			return s.Encode(c)
		}
		for trial := 0; trial < 2000; trial++ {
			r := Range{Lo: addr(), Hi: addr()}
			switch rng.Intn(12) {
			case 0:
				r.Hi = nil
			case 1:
				r.Lo = nil
			case 2:
				r.Lo = r.Lo[:rng.Intn(len(r.Lo))]
			case 3:
				r.Hi = append(r.Hi, byte(rng.Intn(256)))
			case 4:
				r.Hi = r.Lo
			case 5:
				// One address, or a few.
				r.Hi = append([]byte(nil), r.Lo...)
				for range 1 + rng.Intn(3) {
					if !s.step(r.Hi, +1) {
						r.Hi = nil
						break
					}
				}
			case 6:
				// From or to the first address, to the last.
				r.Lo = make([]byte, s.AddrLen())
				switch rng.Intn(3) {
				case 0:
					r.Hi = r.Lo
				case 1:
					r.Lo, r.Hi = nil, r.Lo
				}
			case 7:
				last := s.Encode(s.maxCodes)
				r.Lo, r.Hi = last, nil
				if rng.Intn(2) == 0 {
					r.Lo, r.Hi = nil, last
				}
			}
			if r.Hi != nil && bytes.Compare(r.Lo, r.Hi) > 0 && rng.Intn(4) > 0 {
				r.Lo, r.Hi = r.Hi, r.Lo
			}
			got, want := s.RangeArea(r, x, y), rangeAreaByAddresses(s, r, x, y)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("layout %d, range [%x, %x): RangeArea %v, by addresses %v", li, r.Lo, r.Hi, got, want)
			}
			// Within a random box of the data: the same sums, each
			// subcube's area cut to the box, and never more.
			box := s.Universe()
			for _, d := range []int{x, y} {
				a, b := rng.Uint64()&s.maxCodes[d], rng.Uint64()&s.maxCodes[d]
				box[d] = Interval{Lo: min(a, b), Hi: max(a, b)}
			}
			lo, hi, _ := s.clip(box)
			c := areaClip{}
			c.x0, c.x1 = s.floatSpan(x, lo[x], hi[x])
			c.y0, c.y1 = s.floatSpan(y, lo[y], hi[y])
			in, inWant := s.RangeAreaIn(r, x, y, box), clippedAreaByAddresses(s, r, x, y, c)
			if math.Float64bits(in) != math.Float64bits(inWant) && !(math.IsNaN(in) && math.IsNaN(inWant)) {
				t.Fatalf("layout %d, range [%x, %x) in %v: RangeAreaIn %v, by addresses %v", li, r.Lo, r.Hi, box, in, inWant)
			}
			if in > got {
				t.Fatalf("layout %d, range [%x, %x): RangeAreaIn %v above RangeArea %v", li, r.Lo, r.Hi, in, got)
			}
		}
	}
}

// TestRangeAreaAllocates nothing: the executor asks for the area of every
// probe and of every gap between a nearest-neighbour batch's ranges, and a
// new address per node of the walk was most of a kNN query's allocations.
func TestRangeAreaAllocates(t *testing.T) {
	s := MustSchema(Attr{Name: "x", Type: TypeFloat}, Attr{Name: "y", Type: TypeFloat})
	r := Range{Lo: s.Encode([]uint64{s.Attr(0).Float(-73.9), s.Attr(1).Float(40.7)}), Hi: s.Encode([]uint64{s.Attr(0).Float(-73.8), s.Attr(1).Float(40.75)})}
	if a := testing.AllocsPerRun(100, func() { s.RangeArea(r, 0, 1) }); a != 0 {
		t.Fatalf("RangeArea allocated %v times a call", a)
	}
}
