package catalog

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/cockroachdb/apd/v3"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestDistinctCountsOrderAsSortSlice holds distinctCounts to the order
// sort.Slice gave it before: over random samples with many repeats,
// including values equal but not identical (numeric 1.0 and 1.00), both
// sorts leave every value in the same place, so the distinct values,
// their representatives and counts, the MCVs and the histograms of an
// ANALYZE stay the same.
func TestDistinctCountsOrderAsSortSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	numeric := func(coef int64, exp int32) sqltypes.Value { return sqltypes.NewNumeric(apd.New(coef, exp)) }
	for round := range 300 {
		n := rng.IntN(3000)
		vals := make([]sqltypes.Value, n)
		for i := range vals {
			switch rng.IntN(3) {
			case 0:
				vals[i] = sqltypes.NewInt(int64(rng.IntN(40)))
			case 1:
				// 10 × 10^-1 and 100 × 10^-2 are both 1.0: equal, told apart by scale.
				k := int64(rng.IntN(20))
				if rng.IntN(2) == 0 {
					vals[i] = numeric(k*10, -1)
				} else {
					vals[i] = numeric(k*100, -2)
				}
			default:
				vals[i] = sqltypes.NewFloat(float64(rng.IntN(30)) / 4)
			}
		}
		if rng.IntN(2) == 0 {
			for i := range vals { // one kind only, as a column is
				vals[i] = numeric(int64(rng.IntN(50))*10, -1-int32(rng.IntN(2)))
			}
		}
		want := append([]sqltypes.Value(nil), vals...)
		sort.Slice(want, func(a, b int) bool { return sqltypes.Compare(want[a], want[b]) < 0 })
		distinctCounts(vals)
		for i := range vals {
			if sqltypes.FormatText(vals[i]) != sqltypes.FormatText(want[i]) || vals[i].K != want[i].K {
				t.Fatalf("round %d: value %d is %s, sort.Slice put %s there", round, i, sqltypes.FormatText(vals[i]), sqltypes.FormatText(want[i]))
			}
		}
	}
}
