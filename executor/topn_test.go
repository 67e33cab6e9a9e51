package executor

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
)

// TestTopNTrimAgainstSort checks selectNth and trim, which selects the
// first k candidates and the k-th's ties without sorting, against a sort: random
// candidates with few distinct values (many ties) and many, k from 1 past
// the count, both directions. The kept rows must be the sort's first k plus
// every row tied with the k-th, with the k-th at index k-1.
func TestTopNTrimAgainstSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 100))
	for iter := 0; iter < 3000; iter++ {
		n := rng.IntN(60)
		distinct := []int{1, 3, 10, 1000}[rng.IntN(4)]
		k := 1 + rng.IntN(70)
		desc := rng.IntN(2) == 0
		cands := make([][]sqltypes.Value, n)
		for i := range cands {
			// Column 1 is the ORDER BY's; column 0 tells rows apart.
			cands[i] = []sqltypes.Value{sqltypes.NewInt(int64(i)), sqltypes.NewInt(int64(rng.IntN(distinct)))}
		}
		want := slices.Clone(cands)
		slices.SortStableFunc(want, func(a, b []sqltypes.Value) int {
			c := sqltypes.Compare(a[1], b[1])
			if desc {
				return -c
			}
			return c
		})
		if n > 0 {
			// selectNth alone: rows[m] is the sort's, none before it later
			// and none after it earlier.
			m := rng.IntN(n)
			rows := slices.Clone(cands)
			cmp := func(a, b []sqltypes.Value) int {
				c := sqltypes.Compare(a[1], b[1])
				if desc {
					return -c
				}
				return c
			}
			selectNth(rows, m, cmp)
			if cmp(rows[m], want[m]) != 0 {
				t.Fatalf("n=%d m=%d desc=%v: selected %v, want %v", n, m, desc, rows[m][1], want[m][1])
			}
			for i, row := range rows {
				if (i < m && cmp(row, rows[m]) > 0) || (i > m && cmp(row, rows[m]) < 0) {
					t.Fatalf("n=%d m=%d desc=%v: row %d (%v) on the wrong side of %v", n, m, desc, i, row[1], rows[m][1])
				}
			}
		}
		r := &topNRows{q: &optimizer.TopNQuery{K: k, Column: 1, Desc: desc}, cands: cands}
		r.trim()
		if n < k {
			if len(r.cands) != n {
				t.Fatalf("n=%d k=%d: trim kept %d of fewer than k", n, k, len(r.cands))
			}
			continue
		}
		end := k
		for end < n && sqltypes.Compare(want[end][1], want[k-1][1]) == 0 {
			end++
		}
		if len(r.cands) != end {
			t.Fatalf("n=%d k=%d desc=%v: kept %d rows, want %d", n, k, desc, len(r.cands), end)
		}
		if sqltypes.Compare(r.cands[k-1][1], want[k-1][1]) != 0 {
			t.Fatalf("n=%d k=%d desc=%v: k-th %v, want %v", n, k, desc, r.cands[k-1][1], want[k-1][1])
		}
		ids := func(rows [][]sqltypes.Value) []int64 {
			out := make([]int64, len(rows))
			for i, row := range rows {
				out[i] = row[0].I
			}
			slices.Sort(out)
			return out
		}
		// Ties with the k-th are all kept, so the kept set is the sort's.
		if got, w := ids(r.cands), ids(want[:end]); !slices.Equal(got, w) {
			t.Fatalf("n=%d k=%d desc=%v: kept %v, want %v", n, k, desc, got, w)
		}
	}
}
