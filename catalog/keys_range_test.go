package catalog_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestRangeKeyOrder: a range's key orders as range_cmp (empty first,
// then by lower bound, unbounded first and inclusive before exclusive,
// then by upper bound, exclusive before inclusive and unbounded last),
// ascending and descending, and is prefix-free.
func TestRangeKeyOrder(t *testing.T) {
	nums := []string{"empty", "(,)", "(,1)", "(,1]", "[1,1]", "[1,2)", "[1,2]", "(1,2)", "(1,2]", "[1,)", "(1,)",
		"[1.0,2.00)", "[-1e300,0)", "(0,NaN]", "[NaN,NaN]", "[2,3)", "(,2)", "[Infinity,Infinity]"}
	for _, x := range nums {
		for _, y := range nums {
			checkKeyOrder(t, parse(t, sqltypes.Type{ID: sqltypes.NumRange}, x), parse(t, sqltypes.Type{ID: sqltypes.NumRange}, y))
		}
	}
	dates := []string{"empty", "[-infinity,infinity]", "(-infinity,infinity)", "[2024-01-01,2024-01-02)", "(,2024-01-01)", "[2024-01-01,)"}
	for _, x := range dates {
		for _, y := range dates {
			checkKeyOrder(t, parse(t, sqltypes.Type{ID: sqltypes.DateRange}, x), parse(t, sqltypes.Type{ID: sqltypes.DateRange}, y))
		}
	}
	multis := []string{"{}", "{(,0)}", "{[1,3)}", "{[1,3),[4,5)}", "{[1,3),[5,7)}", "{[1,3),[5,)}", "{[1,4)}", "{[2,3)}"}
	for _, x := range multis {
		for _, y := range multis {
			checkKeyOrder(t, parse(t, sqltypes.Type{ID: sqltypes.Int4Multirange}, x), parse(t, sqltypes.Type{ID: sqltypes.Int4Multirange}, y))
		}
	}
	r := rand.New(rand.NewPCG(45, 46))
	bound := func() string {
		if r.IntN(5) == 0 {
			return ""
		}
		return fmt.Sprint(r.IntN(7) - 3)
	}
	for i := 0; i < 5000; i++ {
		var v [2]sqltypes.Value
		for k := range v {
			for {
				s := "[("[r.IntN(2):][:1] + bound() + "," + bound() + "])"[r.IntN(2):][:1]
				x, err := sqltypes.ParseText(sqltypes.Type{ID: sqltypes.Int8Range}, s)
				if err == nil {
					v[k] = x
					break
				}
			}
		}
		checkKeyOrder(t, v[0], v[1])
	}
}
