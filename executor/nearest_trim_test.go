package executor

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestNearestTrimAgainstStableSort checks the nearest-neighbour search's
// trim, which selects the k-th distance and sorts only the candidates no
// farther, against what it replaced: a stable sort of every candidate cut
// after the k-th and its ties. Batches of random distances (few distinct
// values, so many ties, with NaN, +Inf and NULL among them) are added and
// trimmed in turn, as the search does; the rows kept and their order must
// be the stable sort's, so that ties reach the Sort above in the same
// order.
func TestNearestTrimAgainstStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	dist := func(distinct int) sqltypes.Value {
		switch rng.IntN(20) {
		case 0:
			return sqltypes.Null
		case 1:
			return sqltypes.NewFloat(math.NaN())
		case 2:
			return sqltypes.NewFloat(math.Inf(1))
		}
		return sqltypes.NewFloat(float64(rng.IntN(distinct)) / 4)
	}
	byDist := func(a, b nearestCand) int { return compareDist(a.dist, b.dist) }
	next := int64(0)
	for iter := 0; iter < 2000; iter++ {
		k := 1 + rng.IntN(40)
		distinct := []int{1, 3, 10, 1000}[rng.IntN(4)]
		r := &nearestRows{}
		var want []nearestCand
		for batch := 0; batch < 1+rng.IntN(4); batch++ {
			for range rng.IntN(80) {
				c := nearestCand{row: []sqltypes.Value{sqltypes.NewInt(next)}, dist: dist(distinct)}
				next++
				r.cands = append(r.cands, c)
				want = append(want, c)
			}
			r.trim(k)
			slices.SortStableFunc(want, byDist)
			if len(want) > k {
				end := k
				for end < len(want) && compareDist(want[end].dist, want[k-1].dist) == 0 {
					end++
				}
				want = want[:end]
			}
			if len(r.cands) != len(want) {
				t.Fatalf("iter %d batch %d k=%d: kept %d, want %d", iter, batch, k, len(r.cands), len(want))
			}
			for i := range want {
				if r.cands[i].row[0].I != want[i].row[0].I {
					t.Fatalf("iter %d batch %d k=%d: candidate %d is row %d, want %d", iter, batch, k, i, r.cands[i].row[0].I, want[i].row[0].I)
				}
			}
		}
	}
}
