package advisor

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
)

// TestAnalyzedStatsAgreeWithSample: the catalog's ANALYZE statistics and
// a sample of the same rows give the advisor the same picture (row count,
// distinct values, NULLs, selectivities, bounds), and a table with a
// column ANALYZE has not seen falls back to sampling.
func TestAnalyzedStatsAgreeWithSample(t *testing.T) {
	tab := readingsTable(1)
	rng := rand.New(rand.NewPCG(3, 4))
	const rows = 20_000
	collect := catalog.NewStatsCollector(tab, 0)
	var all [][]sqltypes.Value
	for i := 0; i < rows; i++ {
		note := sqltypes.Null
		if i%4 != 0 {
			note = sqltypes.NewText("n" + string(rune('a'+i%20)))
		}
		r := []sqltypes.Value{sqltypes.NewInt(int64(i)), sqltypes.NewInt(rng.Int64N(500)),
			sqltypes.NewFloat(rng.Float64() * 90), sqltypes.NewFloat(rng.Float64() * 180),
			sqltypes.NewTimestamp(rng.Int64N(365 * 86400e6)), note}
		collect.Add(r)
		all = append(all, r)
	}
	analyzed := NewAnalyzedStats(tab, collect.Finish(false))
	if analyzed == nil {
		t.Fatal("NewAnalyzedStats refused complete statistics")
	}
	sample := NewSampleStats(rows, all)
	near := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: analyzed %g, sampled %g", what, got, want)
		}
	}
	near("rows", analyzed.Rows(), sample.Rows(), 0)
	near("distinct sensor", analyzed.Distinct(colSensor), sample.Distinct(colSensor), 0.05)
	near("distinct note", analyzed.Distinct(colNote), sample.Distinct(colNote), 0.05)
	near("null fraction of note", analyzed.NullFrac(colNote), sample.NullFrac(colNote), 0.02)
	for _, c := range []struct {
		col int
		set optimizer.ValueSet
	}{
		{colLat, between(f(10), f(20))},
		{colLon, between(f(0), f(1.8))},
		{colSensor, point(sqltypes.NewInt(7))},
		{colNote, point(sqltypes.NewText("nc"))},
		{colLat, optimizer.ValueSet{{Lo: f(80), LoInc: true, HiUnb: true}}},
	} {
		near("selectivity", analyzed.Selectivity(c.col, c.set), sample.Selectivity(c.col, c.set), 0.15)
	}
	for _, col := range []int{colID, colLat, colTS} {
		alo, ahi, aok := analyzed.Bounds(col)
		slo, shi, sok := sample.Bounds(col)
		if aok != sok || sqltypes.Compare(alo, slo) != 0 || sqltypes.Compare(ahi, shi) != 0 {
			t.Errorf("bounds of column %d: analyzed [%v, %v] %v, sampled [%v, %v] %v", col, alo, ahi, aok, slo, shi, sok)
		}
	}

	// A column added after ANALYZE: no analyzed statistics.
	wider := readingsTable(1)
	wider.Columns = append(wider.Columns, catalog.Column{Name: "extra", Type: sqltypes.TypeInt4})
	if NewAnalyzedStats(wider, collect.Finish(false)) != nil {
		t.Error("statistics without the new column were used")
	}
	if NewAnalyzedStats(tab, nil) != nil {
		t.Error("a table never analyzed had statistics")
	}
}
