package zorder

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// benchBoxes are query boxes over 64-bit attributes: each side keeps a
// log-uniform fraction between 1/1000 and 1/10 of its dimension at a random
// offset, like a lat/lon/time window.
func benchBoxes(s *Schema, n int, seed uint64) []Box {
	r := rand.New(rand.NewPCG(seed, 99))
	boxes := make([]Box, n)
	for i := range boxes {
		b := s.Universe()
		for d := range b {
			frac := math.Pow(10, -1-2*r.Float64())
			side := uint64(frac * math.Ldexp(1, 64))
			lo := r.Uint64N(math.MaxUint64 - side)
			b[d] = Interval{lo, lo + side}
		}
		boxes[i] = b
	}
	return boxes
}

func uniformSchema(dims int) *Schema {
	attrs := make([]Attr, dims)
	for i := range attrs {
		attrs[i] = Attr{Type: TypeUint}
	}
	return MustSchema(attrs...)
}

// BenchmarkPlan measures box → ranges for 2-D and 3-D boxes of 64-bit
// attributes and reports the over-cover (addresses covered / in box),
// median and 90th percentile over the boxes, and the ranges used.
func BenchmarkPlan(b *testing.B) {
	for _, dims := range []int{2, 3} {
		s := uniformSchema(dims)
		boxes := benchBoxes(s, 101, uint64(dims))
		for _, budget := range []int{1, 4, 8, 16, 64, 256} {
			b.Run(fmt.Sprintf("dims=%d/budget=%d", dims, budget), func(b *testing.B) {
				b.ReportAllocs()
				ratios := make([]float64, len(boxes))
				ranges := 0
				for i, box := range boxes {
					c := s.Plan(box, budget)
					ratios[i] = c.Covered / c.InBox
					ranges += len(c.Ranges)
				}
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					s.Plan(boxes[i%len(boxes)], budget)
				}
				slices.Sort(ratios)
				b.ReportMetric(ratios[len(ratios)/2], "overcover-median")
				b.ReportMetric(ratios[len(ratios)*9/10], "overcover-p90")
				b.ReportMetric(float64(ranges)/float64(len(boxes)), "ranges/op")
			})
		}
	}
}

// BenchmarkNextInBox measures the skip-scan step on a box of 64-bit
// attributes, for keys inside the box (the usual case: the scan has just
// sought to an in-box address) and outside it (a seek is computed).
func BenchmarkNextInBox(b *testing.B) {
	for _, dims := range []int{2, 3, 8} {
		s := uniformSchema(dims)
		box := benchBoxes(s, 1, 7)[0]
		r := rand.New(rand.NewPCG(1, 1))
		var inside, outside [][]byte
		for len(inside) < 256 || len(outside) < 256 {
			c := make([]uint64, dims)
			for d := range c {
				c[d] = r.Uint64()
			}
			if len(inside) < 256 {
				in := make([]uint64, dims)
				for d := range in {
					in[d] = box[d].Lo + c[d]%(box[d].Hi-box[d].Lo+1)
				}
				inside = append(inside, s.Encode(in))
			}
			// Outside: in the box but for one attribute, and below the
			// box's last address, so the step has a seek to compute.
			for d := range c {
				c[d] = box[d].Lo + c[d]%(box[d].Hi-box[d].Lo+1)
			}
			c[r.IntN(dims)] = r.Uint64()
			key := s.Encode(c)
			if _, ok := s.BigMin(box, key); ok && !s.Contains(box, key) && len(outside) < 256 {
				outside = append(outside, key)
			}
		}
		for _, tc := range []struct {
			name string
			keys [][]byte
			want bool
		}{{"inside", inside, true}, {"outside", outside, false}} {
			b.Run(fmt.Sprintf("dims=%d/%s", dims, tc.name), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if in, _, _ := s.NextInBox(box, tc.keys[i%len(tc.keys)]); in != tc.want {
						b.Fatalf("key %x: inside %v", tc.keys[i%len(tc.keys)], in)
					}
				}
			})
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	b.ReportAllocs()
	s := uniformSchema(3)
	c := []uint64{1 << 62, 12345678901, math.MaxUint64 / 3}
	dst := make([]byte, 0, s.AddrLen())
	for b.Loop() {
		dst = s.AppendAddress(dst[:0], c)
	}
}
