package optimizer

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// randomSet draws a ValueSet over the small integer domain [-3, 3]: nil
// (unconstrained), points, or intervals with open, closed and missing ends.
func randomSet(rng *rand.Rand) ValueSet {
	v := func() sqltypes.Value { return sqltypes.NewInt(int64(rng.Intn(7) - 3)) }
	switch rng.Intn(4) {
	case 0:
		return nil
	case 1:
		var s ValueSet
		for n := 1 + rng.Intn(3); n > 0; n-- {
			x := v()
			s = append(s, Interval{Lo: x, Hi: x, LoInc: true, HiInc: true})
		}
		return normalize(s)
	default:
		var s ValueSet
		for n := 1 + rng.Intn(2); n > 0; n-- {
			iv := Interval{Lo: v(), Hi: v(), LoInc: rng.Intn(2) == 0, HiInc: rng.Intn(2) == 0,
				LoUnb: rng.Intn(4) == 0, HiUnb: rng.Intn(4) == 0}
			if !iv.empty() {
				s = append(s, iv)
			}
		}
		return normalize(s)
	}
}

// TestValueSetAlgebra checks intersect and union against membership.
func TestValueSetAlgebra(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 5000; i++ {
		a, b := randomSet(rng), randomSet(rng)
		in, un := intersect(a, b), union(a, b)
		for x := -4; x <= 4; x++ {
			v := sqltypes.NewInt(int64(x))
			if got, want := in.Contains(v), a.Contains(v) && b.Contains(v); got != want {
				t.Fatalf("%v ∩ %v ∋ %d: %v, want %v (got %v)", a, b, x, got, want, in)
			}
			if got, want := un.Contains(v), a.Contains(v) || b.Contains(v); got != want {
				t.Fatalf("%v ∪ %v ∋ %d: %v, want %v (got %v)", a, b, x, got, want, un)
			}
		}
	}
}

// TestKeyRangesMatchBruteForce builds the key ranges of random bounds on a
// three-column key with mixed directions and nullable columns, and checks
// that a key falls in a range exactly when its tuple satisfies the bounds
// of the key prefix the ranges enforce.
func TestKeyRangesMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	domain := []sqltypes.Value{sqltypes.Null}
	for x := -3; x <= 3; x++ {
		domain = append(domain, sqltypes.NewInt(int64(x)))
	}
	for i := 0; i < 3000; i++ {
		keyCols := []catalog.KeyColumn{{Column: 0, Desc: rng.Intn(2) == 0}, {Column: 1, Desc: rng.Intn(2) == 0}, {Column: 2, Desc: rng.Intn(2) == 0}}
		b := bounds{}
		for c := 0; c < 3; c++ {
			if s := randomSet(rng); s != nil {
				b[c] = s
			}
		}
		eqLen, hasRange := prefixOf(keyCols, b)
		ranges, ok := keyRanges(nil, keyCols, eqLen, hasRange, b, 4096)
		if !ok {
			t.Fatal("small bounds exceeded the range cap")
		}
		for j := 1; j < len(ranges); j++ {
			if ranges[j-1].End == nil || bytes.Compare(ranges[j-1].End, ranges[j].Start) > 0 {
				t.Fatalf("ranges overlap or are unsorted: %v", ranges)
			}
		}
		used := eqLen
		if hasRange {
			used++
		}
		for _, x := range domain {
			for _, y := range domain {
				for _, z := range domain {
					row := []sqltypes.Value{x, y, z}
					var key []byte
					for _, k := range keyCols {
						key = catalog.AppendKeyValue(key, row[k.Column], k.Desc)
					}
					want := true
					for _, k := range keyCols[:used] {
						want = want && b[k.Column].Contains(row[k.Column])
					}
					got := false
					for _, r := range ranges {
						if (r.Start == nil || bytes.Compare(key, r.Start) >= 0) && (r.End == nil || bytes.Compare(key, r.End) < 0) {
							got = true
						}
					}
					if got != want {
						t.Fatalf("bounds %v with key %v (prefix %d): tuple %v in ranges = %v, want %v", b, keyCols, used, row, got, want)
					}
				}
			}
		}
	}
}
