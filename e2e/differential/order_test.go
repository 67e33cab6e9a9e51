package differential

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestOrderedScanLimitFixed: a LIMIT on an ordered scan keeps a set of
// rows the SQL fixes (its ORDER BY is the whole primary key or names every
// column of the table), spelled as expressions; positional keys name
// output columns that exist.
func TestOrderedScanLimitFixed(t *testing.T) {
	for _, tc := range []struct {
		name       string
		seed       uint64
		maxRows    int
		scans      int
		wantLimits int // at least this many limited scans are drawn
	}{
		{"small tables", 1, 4, 300, 50},
		{"default rows", 2, 10, 300, 50},
		{"other schemas", 3, 12, 300, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			limits := 0
			for round := uint64(0); round < 5; round++ {
				rng := rand.New(rand.NewPCG(tc.seed, round))
				g := &gen{rng: rng, sch: genSchema(rng, rand.New(rand.NewPCG(tc.seed, round+100)), tc.maxRows)}
				for i := 0; i < tc.scans/5; i++ {
					g.reset()
					o := g.orderedScanOf(g.pickKeyTable(), nil, true)
					sql := queryString(o.s)
					for _, it := range o.s.orderBy {
						if it.e == nil && (it.pos < 1 || it.pos > len(o.s.items)) {
							t.Fatalf("ORDER BY position %d of %d items: %s", it.pos, len(o.s.items), sql)
						}
					}
					if o.s.limit < 0 {
						continue
					}
					limits++
					var keys []string
					for _, it := range o.s.orderBy {
						if it.e == nil {
							t.Fatalf("a limited scan ordered by position: %s", sql)
						}
						keys = append(keys, it.e.String())
					}
					var pk, all []string
					for _, p := range o.t.pk {
						pk = append(pk, o.qual+"."+o.t.cols[p].name)
					}
					for _, c := range o.t.cols {
						all = append(all, o.qual+"."+c.name)
					}
					byPK := len(pk) > 0 && len(keys) >= len(pk) && slices.Equal(keys[:len(pk)], pk)
					byAll := !slices.ContainsFunc(all, func(c string) bool { return !slices.Contains(keys, c) })
					if !byPK && !byAll {
						t.Fatalf("a LIMIT whose rows depend on ties (pk %v): %s", pk, sql)
					}
				}
			}
			if limits < tc.wantLimits {
				t.Errorf("%d limited scans, want at least %d", limits, tc.wantLimits)
			}
		})
	}
}

// TestOrderQueryShapes: the ordered-scan statements draw each of their
// shapes, and a top-level one is compared in order whenever it has an
// ORDER BY of positions.
func TestOrderQueryShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	g := &gen{rng: rng, sch: genSchema(rng, rand.New(rand.NewPCG(5, 6)), 8)}
	seen := map[string]bool{}
	for i := 0; i < 600; i++ {
		g.reset()
		q := g.orderQuery(2)
		for tag := range g.tags {
			seen[tag] = true
		}
		if strings.Contains(queryString(q), " ORDER BY ") && len(orderOf(q).keys) == 0 {
			if s, ok := q.(*selectStmt); ok && len(s.orderBy) > 0 {
				t.Fatalf("top-level ORDER BY not positional: %s", queryString(q))
			}
		}
	}
	for _, tag := range []string{
		"order.scan", "order.scan-desc", "order.scan-mixed", "order.scan-limit", "order.scan-offset", "order.scan-range",
		"order.derived", "order.cte", "order.join", "order.setop",
		"order.outer-same", "order.outer-reverse", "order.outer-mixed", "order.outer-longer", "order.outer-shorter", "order.outer-limit",
		"order.group", "order.distinct", "order.aggregate", "order.string_agg",
		"order.window-along", "order.window-against", "order.window-partition",
	} {
		if !seen[tag] {
			t.Errorf("no statement drew %s", tag)
		}
	}
}
