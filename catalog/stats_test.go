package catalog_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

func statsTable() *catalog.Table {
	return &catalog.Table{ID: 7, Name: "s", Shards: 1, Columns: []catalog.Column{
		{Name: "id", Type: sqltypes.Type{ID: sqltypes.Int8}, NotNull: true},
		{Name: "g", Type: sqltypes.Type{ID: sqltypes.Int4}},
		{Name: "x", Type: sqltypes.Type{ID: sqltypes.Float8}},
		{Name: "note", Type: sqltypes.Type{ID: sqltypes.Text}},
	}, PrimaryKey: []catalog.KeyColumn{{Column: 0}}}
}

// statsRow is row i of the test data: unique ids, g in 0..49, x uniform in
// [0, 1000), note NULL for every tenth row and one of 7 values otherwise.
func statsRow(i int) []sqltypes.Value {
	note := sqltypes.NewText(string(rune('a' + i%7)))
	if i%10 == 0 {
		note = sqltypes.Null
	}
	return []sqltypes.Value{sqltypes.NewInt(int64(i)), sqltypes.NewInt(int64(i % 50)),
		sqltypes.NewFloat(float64((i * 7919) % 1000)), note}
}

// TestStatsCollector checks every figure against brute force, for a table
// sampled whole and for one larger than the sample.
func TestStatsCollector(t *testing.T) {
	for _, tc := range []struct {
		name         string
		rows, sample int
		tolerance    float64 // relative error allowed on sketch estimates
		selTol       float64 // and on selectivities (sampling error)
	}{
		{"whole", 2000, 0, 0, 0.02},
		{"sampled", 100_000, 3000, 0.05, 0.25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tbl := statsTable()
			c := catalog.NewStatsCollector(tbl, tc.sample)
			for i := 0; i < tc.rows; i++ {
				c.Add(statsRow(i))
			}
			ts := c.Finish(false)
			if ts.Rows != float64(tc.rows) {
				t.Fatalf("rows %v, want %d", ts.Rows, tc.rows)
			}
			near := func(what string, got, want float64) {
				t.Helper()
				if math.Abs(got-want) > tc.tolerance*math.Max(want, 1)+1e-9 {
					t.Errorf("%s = %v, want %v", what, got, want)
				}
			}
			id, g, x, note := ts.Column(&tbl.Columns[0]), ts.Column(&tbl.Columns[1]), ts.Column(&tbl.Columns[2]), ts.Column(&tbl.Columns[3])
			near("id distinct", id.Distinct, float64(tc.rows))
			near("g distinct", g.Distinct, 50)
			near("x distinct", x.Distinct, 1000)
			near("note distinct", note.Distinct, 7)
			if note.NullFrac != 0.1 || id.NullFrac != 0 {
				t.Errorf("null fractions %v %v", note.NullFrac, id.NullFrac)
			}
			near("id n_distinct", id.NDistinct(ts.Rows), -1)
			near("g n_distinct", g.NDistinct(ts.Rows), 50)
			if id.Min.I != 0 || id.Max.I != int64(tc.rows-1) {
				t.Errorf("id extremes %v %v", id.Min, id.Max)
			}
			if len(g.MCV) != 50 || len(g.Histogram) != 0 {
				t.Errorf("g: %d common values, %d bounds; want 50 and none", len(g.MCV), len(g.Histogram))
			}
			if len(id.MCV) != 0 || len(id.Histogram) != catalog.StatisticsTarget+1 {
				t.Errorf("id: %d common values, %d bounds; want none and %d", len(id.MCV), len(id.Histogram), catalog.StatisticsTarget+1)
			}
			// Selectivities against brute force over the rows.
			count := func(pred func(r []sqltypes.Value) bool) float64 {
				n := 0
				for i := 0; i < tc.rows; i++ {
					if pred(statsRow(i)) {
						n++
					}
				}
				return float64(n) / float64(tc.rows)
			}
			tol := tc.selTol
			checkSel := func(what string, got, want float64) {
				t.Helper()
				if math.Abs(got-want) > tol*math.Max(want, 0.01) {
					t.Errorf("%s selectivity %.5f, want %.5f", what, got, want)
				}
			}
			checkSel("g = 7", g.EqualSelectivity(sqltypes.NewInt(7)), count(func(r []sqltypes.Value) bool { return r[1].I == 7 }))
			checkSel("g = 99", g.EqualSelectivity(sqltypes.NewInt(99)), 0)
			lo, hi := sqltypes.NewFloat(100), sqltypes.NewFloat(300)
			checkSel("x in [100, 300)", x.RangeSelectivity(&lo, &hi, true, false), count(func(r []sqltypes.Value) bool { return r[2].F >= 100 && r[2].F < 300 }))
			checkSel("x >= 100", x.RangeSelectivity(&lo, nil, true, false), count(func(r []sqltypes.Value) bool { return r[2].F >= 100 }))
			id5 := sqltypes.NewInt(int64(tc.rows / 20))
			checkSel("id < rows/20", id.RangeSelectivity(nil, &id5, false, false), 0.05)
			checkSel("note = 'c'", note.EqualSelectivity(sqltypes.NewText("c")), count(func(r []sqltypes.Value) bool { return r[3].S == "c" }))
		})
	}
}

// TestStatsStored stores statistics through a catalog change and reads them
// back typed in another catalog's snapshot; dropping the table drops them.
func TestStatsStored(t *testing.T) {
	ctx := context.Background()
	store, cat, tbl := openStatsCatalog(t)
	c := catalog.NewStatsCollector(tbl, 0)
	for i := 0; i < 500; i++ {
		c.Add(statsRow(i))
	}
	if err := cat.PutStats(ctx, c.Finish(true)); err != nil {
		t.Fatal(err)
	}
	other, err := catalog.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := other.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ts := snap.Stats(tbl.ID)
	if ts == nil || ts.Rows != 500 || !ts.Auto {
		t.Fatalf("stats %+v", ts)
	}
	x := ts.Column(&tbl.Columns[2])
	if x.Min.K != sqltypes.KindFloat || x.Max.F != 999 || len(x.Histogram) == 0 || x.Histogram[0].K != sqltypes.KindFloat {
		t.Fatalf("x stats not typed back: %+v", x)
	}
	note := ts.Column(&tbl.Columns[3])
	if len(note.MCV) != 7 || note.MCV[0].K != sqltypes.KindText {
		t.Fatalf("note common values %+v", note.MCV)
	}
	if _, err := cat.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		return catalog.Change{Delete: []string{tbl.Name}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	snap, err = cat.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Stats(tbl.ID) != nil {
		t.Fatal("statistics outlived their table")
	}
}

// TestStatsOlderReadKeepsNewer stores an analysis that began reading
// before the one already stored (an automatic analysis overtaken by an
// ANALYZE statement): the newer rows' statistics stay, and both analyses
// are counted.
func TestStatsOlderReadKeepsNewer(t *testing.T) {
	ctx := context.Background()
	_, cat, tbl := openStatsCatalog(t)
	collect := func(rows int) *catalog.StatsCollector {
		c := catalog.NewStatsCollector(tbl, 0)
		for i := 0; i < rows; i++ {
			c.Add(statsRow(i))
		}
		return c
	}
	older := collect(100)
	time.Sleep(time.Millisecond) // the clock must tell the two reads apart
	newer := collect(300)
	if err := cat.PutStats(ctx, newer.Finish(false)); err != nil {
		t.Fatal(err)
	}
	if err := cat.PutStats(ctx, older.Finish(true)); err != nil {
		t.Fatal(err)
	}
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ts := snap.Stats(tbl.ID)
	if ts == nil || ts.Rows != 300 {
		t.Fatalf("the older read replaced the newer: %+v", ts)
	}
	if ts.AnalyzeCount != 1 || ts.AutoAnalyzeCount != 1 || ts.LastAnalyze == nil || ts.LastAutoAnalyze == nil {
		t.Fatalf("both analyses should count: %+v", ts)
	}
	// A later read replaces them, as it always has.
	if err := cat.PutStats(ctx, collect(50).Finish(true)); err != nil {
		t.Fatal(err)
	}
	if snap, err = cat.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	if ts := snap.Stats(tbl.ID); ts.Rows != 50 || ts.AutoAnalyzeCount != 2 {
		t.Fatalf("a later read did not replace them: %+v", ts)
	}
}

// openStatsCatalog opens a catalog on an in-memory Pebble store (closed
// when the test ends) holding statsTable.
func openStatsCatalog(t *testing.T) (*zpebble.Store, *catalog.Catalog, *catalog.Table) {
	t.Helper()
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	cat, err := catalog.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	tbl := statsTable()
	if _, err := cat.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
		return catalog.Change{Put: []*catalog.Table{tbl}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	return store, cat, tbl
}
