package session_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestZOrderTopNAgreesWithSort: ORDER BY an attribute of a Z-order index
// LIMIT k over a box reads the box's Z-cells best first along the attribute
// (optimizer.TopNQuery, executor/topn.go); its answers must be those of
// reading every row and sorting, for both directions, ties across batch
// bounds, boxes from empty to whole, LIMIT with OFFSET, and a residual
// filter, on every backend. Most of the plans must be the top-N search.
func TestZOrderTopNAgreesWithSort(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			_, sess := newSession(t, be.open(t))
			rows, queries := 3000, 40
			if be.name != "pebble" {
				// Loading the table is most of DynamoDB's leg, and each
				// answer to compare with is a full scan, a round trip per
				// page: the search's reads show on fewer rows and queries.
				rows, queries = 1500, 16
			}
			for _, sql := range []string{
				`CREATE TABLE pts (id int PRIMARY KEY, x float8 NOT NULL, y float8 NOT NULL, t int NOT NULL, w int)`,
				`CREATE INDEX pts_z ON pts USING zorder (x, y, t) INCLUDE (w)`,
				// t has 40 values: many ties, some at every batch's bound.
				fmt.Sprintf(`INSERT INTO pts SELECT i, (i * 7919 %% 1000) / 10.0, (i * 104729 %% 1000) / 10.0, i * 31 %% 40, i %% 7 FROM generate_series(1, %d) i`, rows),
				`ANALYZE pts`,
			} {
				if _, err := runSQL(ctx, sess, sql); err != nil {
					t.Fatalf("%s: %v", sql, err)
				}
			}
			rng := rand.New(rand.NewPCG(3, 4))
			searched := 0 // boxes the statistics say hold fewer than K rows are read whole
			for i := 0; i < queries; i++ {
				x0, y0 := rng.Float64()*100, rng.Float64()*100
				x1, y1 := x0+rng.Float64()*60, y0+rng.Float64()*60
				dir := []string{"ASC", "DESC"}[rng.IntN(2)]
				k := 1 + rng.IntN(60)
				extra := ""
				if rng.IntN(3) == 0 {
					extra = " AND w <> 3"
				}
				offset := ""
				if rng.IntN(4) == 0 {
					offset = fmt.Sprintf(" OFFSET %d", rng.IntN(10))
				}
				q := fmt.Sprintf("SELECT t, id FROM pts WHERE x BETWEEN %g AND %g AND y BETWEEN %g AND %g%s ORDER BY t %s, id LIMIT %d%s",
					x0, x1, y0, y1, extra, dir, k, offset)
				got, err := runSQL(ctx, sess, q)
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				plan, err := runSQL(ctx, sess, "EXPLAIN "+q)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(strings.Join(plan, "\n"), "top-n: ORDER BY t "+dir) {
					searched++
				}
				if _, err := runSQL(ctx, sess, "SET enable_indexscan = off; SET enable_bitmapscan = off"); err != nil {
					t.Fatal(err)
				}
				want, err := runSQL(ctx, sess, q)
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				if _, err := runSQL(ctx, sess, "RESET enable_indexscan; RESET enable_bitmapscan"); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s:\n got %v\nwant %v", q, got, want)
				}
			}
			t.Logf("%d of %d queries were top-N searches", searched, queries)
			if searched*2 < queries {
				t.Fatalf("%d of %d queries were top-N searches; the boxes hold enough rows for most", searched, queries)
			}
		})
	}
}
