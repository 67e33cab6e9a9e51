package zorder

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestInteriorScanAgainstPoints reads random points, nullable and not,
// under full-width and narrow float attributes with and without data
// leads, through an InteriorScan per disc-shaped region, in key order (a
// scan) and in random order:
//   - sound: a point Inside admits satisfies the region, and so does every
//     point whose address lies in the cell Inside remembered for it;
//   - useful: most points well inside the region (farther than 1/32 of its
//     radius from its edge) are admitted without their own test;
//   - NULL coordinates and NaN are never inside;
//   - Outside is sound and useful likewise: no point whose address lies in
//     the cell it skips satisfies the region, the address it skips to
//     follows that cell, and most points well outside the disc are skipped.
func TestInteriorScanAgainstPoints(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for iter := 0; iter < raceScale(60, 10); iter++ {
		width := []int{64, 64, 40, 24}[r.IntN(4)]
		nullable := r.IntN(3) == 0
		ax := Attr{Name: "x", Type: TypeFloat, Width: width, Nullable: nullable}
		ay := Attr{Name: "y", Type: TypeFloat, Width: width, Nullable: nullable}
		x0, y0 := -74.5+r.Float64(), 40+r.Float64()
		if iter%2 == 0 {
			// Aligned to data in [x0, x0+1] x [y0, y0+1], as a gist index is.
			ax.Lead = ax.DataLead(ax.Float(x0), ax.Float(x0+1))
			ay.Lead = ay.DataLead(ay.Float(y0), ay.Float(y0+1))
		}
		s := MustSchema(ax, ay)
		type pt struct {
			x, y float64
			key  []byte
		}
		var pts []pt
		for range 3000 {
			x, y := x0+r.Float64(), y0+r.Float64()
			switch r.IntN(100) {
			case 0:
				x = math.NaN()
			case 1:
				if nullable {
					x = math.Inf(-1) // stands for NULL below
				}
			}
			cx, cy := ax.Float(x), ay.Float(y)
			if nullable && math.IsInf(x, -1) {
				cx = ax.Null()
			}
			key := s.AppendAddress(nil, []uint64{cx, cy})
			key = append(key, byte(r.IntN(256))) // a primary-key suffix
			pts = append(pts, pt{x, y, key})
		}
		// The region: a disc, and the scan's box around it.
		cx, cy, rad := x0+0.2+0.6*r.Float64(), y0+0.2+0.6*r.Float64(), 0.01+0.2*r.Float64()
		within := func(x, y float64) bool { return math.Hypot(x-cx, y-cy) <= rad }
		holds := func(minX, minY, maxX, maxY float64) bool {
			dx := math.Max(math.Abs(minX-cx), math.Abs(maxX-cx))
			dy := math.Max(math.Abs(minY-cy), math.Abs(maxY-cy))
			return math.Hypot(dx, dy) <= rad // NaN and Inf fail
		}
		misses := func(minX, minY, maxX, maxY float64) bool {
			dx := math.Max(0, math.Max(minX-cx, cx-maxX))
			dy := math.Max(0, math.Max(minY-cy, cy-maxY))
			return math.Hypot(dx, dy) > rad // NaN fails
		}
		box := s.Universe()
		box.Narrow(0, ax.FloatBetween(cx-rad, cx+rad))
		box.Narrow(1, ay.FloatBetween(cy-rad, cy+rad))
		byKey := slices.Clone(pts)
		slices.SortFunc(byKey, func(a, b pt) int { return bytes.Compare(a.key, b.key) })
		for oi, order := range [][]pt{byKey, shuffled(r, pts)} {
			is := s.NewInteriorScan(box, 0, 1, holds, misses)
			if is == nil {
				t.Fatalf("iter %d: no interior scan", iter)
			}
			deep, missed, far, kept := 0, 0, 0, 0
			for _, p := range order {
				next, out := is.Outside(p.key)
				if out {
					if within(p.x, p.y) {
						t.Fatalf("iter %d order %d: (%v %v) skipped inside the disc (%v %v) r %v", iter, oi, p.x, p.y, cx, cy, rad)
					}
					if next != nil && bytes.Compare(next, is.missed.yesHi) <= 0 || bytes.Compare(p.key[:s.AddrLen()], is.missed.yesLo) < 0 {
						t.Fatalf("iter %d: skip to %x from %x past the cell [%x, %x]", iter, next, p.key, is.missed.yesLo, is.missed.yesHi)
					}
					for _, q := range pts {
						a := q.key[:s.AddrLen()]
						if bytes.Compare(a, is.missed.yesLo) >= 0 && (next == nil || bytes.Compare(a, next) < 0) && within(q.x, q.y) {
							t.Fatalf("iter %d: skipped cell [%x, %x] of (%v %v) holds (%v %v), inside the disc", iter, is.missed.yesLo, is.missed.yesHi, p.x, p.y, q.x, q.y)
						}
					}
				}
				if d := math.Hypot(p.x-cx, p.y-cy); d > rad*(1+1.0/8) && d < rad*1.3 {
					far++
					if !out {
						kept++
					}
				}
				in := is.Inside(p.key)
				if in {
					if !within(p.x, p.y) {
						t.Fatalf("iter %d order %d: (%v %v) admitted outside the disc (%v %v) r %v", iter, oi, p.x, p.y, cx, cy, rad)
					}
					for _, q := range pts {
						a := q.key[:s.AddrLen()]
						if bytes.Compare(a, is.held.yesLo) >= 0 && bytes.Compare(a, is.held.yesHi) <= 0 && !within(q.x, q.y) {
							t.Fatalf("iter %d: cell [%x, %x] of (%v %v) holds (%v %v), outside the disc", iter, is.held.yesLo, is.held.yesHi, p.x, p.y, q.x, q.y)
						}
					}
				}
				if math.Hypot(p.x-cx, p.y-cy) < rad*(1-1.0/8) {
					deep++
					if !in {
						missed++
					}
				}
			}
			if width >= 40 && deep > 20 && float64(missed) > 0.1*float64(deep) {
				t.Fatalf("iter %d order %d: %d of %d points well inside the disc not admitted (depths %d..%d)", iter, oi, missed, deep, is.minDepth, is.maxDepth)
			}
			if width >= 40 && far > 20 && float64(kept) > 0.1*float64(far) {
				t.Fatalf("iter %d order %d: %d of %d points well outside the disc not skipped (depths %d..%d)", iter, oi, kept, far, is.minDepth, is.maxDepth)
			}
		}
	}
}

func shuffled[T any](r *rand.Rand, s []T) []T {
	out := slices.Clone(s)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
