package catalog_test

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestLtreeKeyOrder: an ltree's key (its dotted text, zorder's string
// encoding) sorts as ltree_cmp orders the paths, ascending and
// descending, over labels of PostgreSQL 15's label alphabet (ASCII
// letters, digits and '_', and non-ASCII letters and digits), so a btree
// index over an ltree column is ltree's btree order.
func TestLtreeKeyOrder(t *testing.T) {
	alphabet := []string{"0", "9", "A", "Z", "_", "a", "z", "é", "中", "٣"}
	path := func(r *rand.Rand) string {
		labels := make([]string, r.Intn(5))
		for i := range labels {
			var sb strings.Builder
			for n := 1 + r.Intn(3); n > 0; n-- {
				sb.WriteString(alphabet[r.Intn(len(alphabet))])
			}
			labels[i] = sb.String()
		}
		return strings.Join(labels, ".")
	}
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 100000; i++ {
		a, b := path(r), path(r)
		want := sqltypes.LtreeCmp(a, b)
		switch {
		case want < 0:
			want = -1
		case want > 0:
			want = 1
		}
		va, vb := sqltypes.NewLtree(a), sqltypes.NewLtree(b)
		if got := bytes.Compare(catalog.AppendKeyValue(nil, va, false), catalog.AppendKeyValue(nil, vb, false)); got != want {
			t.Fatalf("keys of %q and %q compare %d, ltree_cmp %d", a, b, got, want)
		}
		if got := bytes.Compare(catalog.AppendKeyValue(nil, va, true), catalog.AppendKeyValue(nil, vb, true)); got != -want {
			t.Fatalf("descending keys of %q and %q compare %d, want %d", a, b, got, -want)
		}
	}
}
