package zorder

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCellAround checks the probe cell of a nearest-neighbour search
// against brute force: it holds the centre's address, its area over x and
// y is at least the one asked for and less than twice it (while the
// space allows), it is one aligned cell (its addresses share a prefix),
// and it lies within the base box's span.
func TestCellAround(t *testing.T) {
	s := MustSchema(Attr{Name: "x", Type: TypeFloat}, Attr{Name: "y", Type: TypeFloat})
	rng := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 2000; i++ {
		cx, cy := rng.Float64()*200-100, rng.Float64()*200-100
		if i%10 == 0 {
			cx, cy = rng.Float64(), -rng.Float64() // near zero: logarithmic codes
		}
		area := math.Pow(10, rng.Float64()*8-6)
		var base Box
		if i%3 == 0 {
			base = s.Universe()
			base.Narrow(0, s.Attr(0).FloatBetween(cx-5, cx+5))
			base.Narrow(1, s.Attr(1).FloatBetween(cy-5, cy+5))
		}
		r, ok := s.CellAround(base, 0, 1, cx, cy, area)
		if !ok {
			t.Fatalf("(%g, %g) area %g: no cell", cx, cy, area)
		}
		addr := s.Encode([]uint64{s.Attr(0).Float(cx), s.Attr(1).Float(cy)})
		if bytes.Compare(addr, r.Lo) < 0 || r.Hi != nil && bytes.Compare(addr, r.Hi) >= 0 {
			t.Fatalf("(%g, %g) area %g: cell [%x, %x) misses the centre's address %x", cx, cy, area, r.Lo, r.Hi, addr)
		}
		got := s.RangeArea(r, 0, 1)
		if got < area {
			t.Fatalf("(%g, %g): cell area %g below %g", cx, cy, got, area)
		}
		if base == nil {
			// The deepest such cell: the centre's cell one bit deeper
			// (its address's prefix one bit longer than the cell's)
			// has less area than asked for.
			l := prefixBits(s, r)
			if l < s.bits {
				child := prefixRange(s, addr, l+1)
				if a := s.RangeArea(child, 0, 1); a >= area {
					t.Fatalf("(%g, %g) area %g: cell of %d bits, area %g, but the one of %d bits has %g", cx, cy, area, l, got, l+1, a)
				}
			}
		}
	}
	// Outside the base box, and no finite centre: no cell.
	base := s.Universe()
	base.Narrow(0, s.Attr(0).FloatBetween(0, 1))
	base.Narrow(1, s.Attr(1).FloatBetween(0, 1))
	for _, c := range [][2]float64{{2, 0.5}, {0.5, -1}, {math.NaN(), 0}, {0, math.Inf(1)}} {
		if _, ok := s.CellAround(base, 0, 1, c[0], c[1], 1e-4); ok {
			t.Errorf("(%g, %g) outside [0,1]²: a cell", c[0], c[1])
		}
	}
}

// prefixBits is the length of the prefix the addresses of r, one aligned
// cell, share.
func prefixBits(s *Schema, r Range) int {
	for l := 0; l <= s.bits; l++ {
		pr := prefixRange(s, r.Lo, l)
		if bytes.Equal(pr.Lo, r.Lo) && bytes.Equal(pr.Hi, r.Hi) {
			return l
		}
	}
	return -1
}

// prefixRange is the range of the addresses sharing addr's first l bits.
func prefixRange(s *Schema, addr []byte, l int) Range {
	lo := bytes.Clone(addr[:s.AddrLen()])
	for p := l; p < 8*len(lo); p++ {
		lo[p>>3] &^= 0x80 >> uint(p&7)
	}
	hi := bytes.Clone(lo)
	for p := l; p < s.bits; p++ {
		hi[p>>3] |= 0x80 >> uint(p&7)
	}
	if !s.step(hi, +1) {
		hi = nil
	}
	return Range{Lo: lo, Hi: hi}
}
