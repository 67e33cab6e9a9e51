package zorder

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestInterleaveWideMatchesRule checks Encode and Decode against the
// documented interleaving rule, bit by bit, on schemas of any widths, where
// an address spans several 64-bit blocks.
func TestInterleaveWideMatchesRule(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := 0; i < 300; i++ {
		dims := 1 + r.IntN(MaxAttrs)
		attrs := make([]Attr, dims)
		widths := make([]int, dims)
		leads := make([]int, dims)
		withLeads := r.IntN(2) == 0
		for d := range attrs {
			widths[d] = 1 + r.IntN(MaxWidth)
			if r.IntN(3) == 0 {
				widths[d] = MaxWidth
			}
			if withLeads {
				leads[d] = r.IntN(widths[d] + 1)
			}
			attrs[d] = Attr{Type: TypeUint, Width: widths[d], Lead: leads[d]}
		}
		s := MustSchema(attrs...)
		c := make([]uint64, dims)
		for d := range c {
			c[d] = r.Uint64() & maxOf(widths[d])
		}
		want := make([]byte, s.AddrLen())
		refDims, refBits := refInterleave(widths, leads)
		for p, d := range refDims {
			if c[d]>>uint(refBits[p])&1 == 1 {
				want[p/8] |= 0x80 >> uint(p%8)
			}
		}
		if got := s.Encode(c); !bytes.Equal(got, want) {
			t.Fatalf("widths %v leads %v codes %x: address %x, want %x", widths, leads, c, got, want)
		}
		// A key suffix is ignored; a short key reads as zero-padded.
		back, err := s.Decode(append(want, 0xff, 0xff))
		if err != nil || !slices.Equal(back, c) {
			t.Fatalf("widths %v: decode %x = %x, %v", widths, c, back, err)
		}
	}
}

// TestPlanWideAgainstExact compares budgeted covers of wide schemas, whose
// addresses span several words, with the optimum computed from the exact
// cover: boxes a few codes wide at random offsets have few exact ranges
// but long gaps between them.
func TestPlanWideAgainstExact(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	val := func(s *Schema, a []byte) *big.Int {
		if a == nil {
			return new(big.Int).Lsh(big.NewInt(1), uint(8*s.AddrLen()))
		}
		return new(big.Int).SetBytes(a)
	}
	size := func(s *Schema, rs []Range) *big.Int {
		n := new(big.Int)
		for _, rg := range rs {
			n.Add(n, new(big.Int).Sub(val(s, rg.Hi), val(s, rg.Lo)))
		}
		return n
	}
	tested := 0
	for i := 0; i < 400; i++ {
		dims := 2 + r.IntN(3)
		attrs := make([]Attr, dims)
		for d := range attrs {
			attrs[d] = Attr{Type: TypeUint, Width: 17 + r.IntN(48)}
			if r.IntN(2) == 0 {
				attrs[d].Width = MaxWidth
			}
		}
		s := MustSchema(attrs...)
		b := s.Universe()
		for d := range b {
			top := s.Attr(d).maxCode()
			lo := r.Uint64() & top
			if r.IntN(4) == 0 { // straddle a power-of-two boundary
				lo = (lo | 0xff) - uint64(r.IntN(4))
			}
			b[d] = Interval{lo, lo + min(top-lo, uint64(r.IntN(6)))}
		}
		exact, ok := s.ExactRanges(b, 1<<12)
		if !ok {
			continue
		}
		tested++
		span := new(big.Int).Sub(val(s, exact[len(exact)-1].Hi), val(s, exact[0].Lo))
		var gaps []*big.Int
		for j := 1; j < len(exact); j++ {
			gaps = append(gaps, new(big.Int).Sub(val(s, exact[j].Lo), val(s, exact[j-1].Hi)))
		}
		slices.SortFunc(gaps, func(x, y *big.Int) int { return y.Cmp(x) })
		for _, k := range []int{1, 2, 3, 5, 8, 16, len(exact)} {
			c := s.Plan(b, k)
			if len(c.Ranges) > k {
				t.Fatalf("budget %d: %d ranges", k, len(c.Ranges))
			}
			// Every exact range lies inside one planned range.
			j := 0
			for _, e := range exact {
				for j < len(c.Ranges) && c.Ranges[j].Hi != nil && val(s, c.Ranges[j].Hi).Cmp(val(s, e.Hi)) < 0 {
					j++
				}
				if j == len(c.Ranges) || val(s, c.Ranges[j].Lo).Cmp(val(s, e.Lo)) > 0 {
					t.Fatalf("widths %v box %v budget %d: exact range [%x, %x) not covered", s.Attrs(), b, k, e.Lo, e.Hi)
				}
			}
			// The optimum keeps the k-1 largest gaps; sizes are ranked in
			// float64 from 32 leading bits, so allow that much rounding.
			opt := new(big.Int).Set(span)
			for _, g := range gaps[:min(k-1, len(gaps))] {
				opt.Sub(opt, g)
			}
			got := size(s, c.Ranges)
			// Covered is the ranges' exact length in addresses (the
			// byte-aligned size shifted down to the schema's bits), to
			// float64 precision.
			exactCovered, _ := new(big.Float).SetInt(new(big.Int).Rsh(got, uint(8*s.AddrLen()-s.Bits()))).Float64()
			if math.Abs(c.Covered-exactCovered) > exactCovered*1e-12 {
				t.Fatalf("widths %v box %v budget %d: Covered %g, the ranges hold %g addresses", s.Attrs(), b, k, c.Covered, exactCovered)
			}
			slack := new(big.Int).Rsh(span, 30)
			if got.Cmp(opt) < 0 || new(big.Int).Sub(got, opt).Cmp(slack) > 0 {
				t.Fatalf("widths %v box %v budget %d: covers %v, optimum %v", s.Attrs(), b, k, got, opt)
			}
			// With a range per run the cover is the exact one, and says so.
			if k >= len(exact) && !slices.EqualFunc(c.Ranges, exact, func(x, y Range) bool {
				return bytes.Equal(x.Lo, y.Lo) && bytes.Equal(x.Hi, y.Hi)
			}) {
				t.Fatalf("budget %d >= %d exact ranges: got %d ranges, not the exact cover", k, len(exact), len(c.Ranges))
			}
			if k >= len(exact) && (!c.Exact || c.Covered != c.InBox) {
				t.Fatalf("budget %d >= %d exact ranges: Exact %v, Covered %g, InBox %g", k, len(exact), c.Exact, c.Covered, c.InBox)
			}
		}
	}
	if tested < 200 {
		t.Fatalf("only %d boxes had a small exact cover", tested)
	}
}
