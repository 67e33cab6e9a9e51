package zorder

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

func TestZZGoldenDump(t *testing.T) {
	path := os.Getenv("ZGOLD")
	if path == "" {
		t.Skip()
	}
	f, _ := os.Create(path)
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	r := rand.New(rand.NewPCG(42, 43))
	for _, dims := range []int{2, 3, 4} {
		s := uniformSchema(dims)
		for _, b := range benchBoxes(s, 101, uint64(dims)) {
			for _, k := range []int{1, 4, 8, 16, 64, 256, 1000} {
				c := s.Plan(b, k)
				fmt.Fprintf(w, "bbox %v k %d in %v cov %v exact %v n %d\n", b, k, c.InBox, c.Covered, c.Exact, len(c.Ranges))
				for _, rg := range c.Ranges {
					fmt.Fprintf(w, " %x-%x", rg.Lo, rg.Hi)
				}
				fmt.Fprintln(w)
			}
		}
	}
	for sc := 0; sc < 120; sc++ {
		dims := 1 + r.IntN(8)
		if sc < 40 {
			dims = 2 + sc%2
		}
		attrs := make([]Attr, dims)
		for d := range attrs {
			wd := 64
			switch {
			case sc < 40:
			case sc%3 == 0:
				wd = 1 + r.IntN(64)
			case sc%3 == 1:
				wd = []int{8, 16, 32, 64}[r.IntN(4)]
			default:
				wd = 1 + r.IntN(12)
			}
			attrs[d] = Attr{Type: TypeUint, Width: wd}
		}
		s := MustSchema(attrs...)
		fmt.Fprintf(w, "schema %d bits %d\n", sc, s.Bits())
		for bi := 0; bi < 12; bi++ {
			b := s.Universe()
			for d := range b {
				mc := s.Attr(d).maxCode()
				rnd := func() uint64 { return r.Uint64() & mc }
				switch r.IntN(6) {
				case 0:
				case 1:
					v := rnd()
					b[d] = Interval{v, v}
				case 2:
					b[d].Lo = rnd()
				case 3:
					b[d].Hi = rnd()
				case 4:
					frac := math.Pow(10, -1-2*r.Float64())
					side := uint64(frac * float64(mc))
					lo := rnd()
					if lo > mc-side {
						lo = mc - side
					}
					b[d] = Interval{lo, lo + side}
				default:
					x, y := rnd(), rnd()
					if x > y && r.IntN(10) != 0 {
						x, y = y, x
					}
					b[d] = Interval{x, y}
				}
			}
			for _, k := range []int{1, 2, 3, 4, 7, 8, 16, 64, 256} {
				c := s.Plan(b, k)
				fmt.Fprintf(w, "box %v k %d in %v cov %v exact %v n %d\n", b, k, c.InBox, c.Covered, c.Exact, len(c.Ranges))
				for _, rg := range c.Ranges {
					fmt.Fprintf(w, " %x-%x/%d", rg.Lo, rg.Hi, cap(rg.Lo))
				}
				fmt.Fprintln(w)
			}
			if ex, ok := s.ExactRanges(b, 50); ok {
				fmt.Fprintf(w, "exact %d %x\n", len(ex), ex)
			}
			fmt.Fprintf(w, "est %v cf %v\n", s.Estimate(b), s.CoverFraction(b, 8))
			for ki := 0; ki < 20; ki++ {
				key := make([]byte, s.AddrLen()+r.IntN(3)-1)
				for j := range key {
					key[j] = byte(r.Uint32())
				}
				if ki%4 == 0 {
					c := make([]uint64, dims)
					for d := range c {
						c[d] = max(b[d].Lo, min(b[d].Hi, r.Uint64()&s.Attr(d).maxCode()))
					}
					key = s.Encode(c)
				}
				in, nx, ok := s.NextInBox(b, key)
				bm, ok1 := s.BigMin(b, key)
				lm, ok2 := s.LitMax(b, key)
				dc, err := s.Decode(key)
				fmt.Fprintf(w, "key %x: %v %x %v | %x %v | %x %v | %x %v %v\n", key, in, nx, ok, bm, ok1, lm, ok2, dc, err, s.Contains(b, key))
				if err == nil {
					fmt.Fprintf(w, "enc %x\n", s.Encode(dc))
				}
			}
		}
	}
}
