package catalog

import (
	"fmt"
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

// TestCommonValuesAsByComparison holds commonValues, which finds the
// picked values' runs by their index, to the definition: a distinct value
// is dropped from the histogram's sample when it compares equal to a
// picked one. Samples of few and of many distinct values, frequent and
// rare, over the StatisticsTarget bound, give the same MCVs, frequencies
// and rest.
func TestCommonValuesAsByComparison(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 300 {
		n := 1 + rng.IntN(4000)
		spread := 1 + rng.IntN(400)
		vals := make([]sqltypes.Value, n)
		for i := range vals {
			v := rng.IntN(spread)
			if rng.IntN(3) == 0 {
				v = rng.IntN(5) // a few very common values
			}
			vals[i] = sqltypes.NewInt(int64(v))
		}
		counts := distinctCounts(vals)
		distinct := float64(len(counts))
		mcv, freq, rest := commonValues(counts, vals, n, distinct)
		// The reference: pick as commonValues does, then drop by comparison.
		byFreq := append([]valueCount(nil), counts...)
		sort.SliceStable(byFreq, func(a, b int) bool { return byFreq[a].n > byFreq[b].n })
		var picked []valueCount
		if byFreq[len(byFreq)-1].n >= 2 && len(counts) <= StatisticsTarget {
			picked = byFreq
		} else {
			avg := float64(n) / distinct
			for _, vc := range byFreq {
				if len(picked) == StatisticsTarget || vc.n < 2 || float64(vc.n) <= 1.25*avg {
					break
				}
				picked = append(picked, vc)
			}
		}
		if len(mcv) != len(picked) {
			t.Fatalf("round %d: %d MCVs, want %d", round, len(mcv), len(picked))
		}
		for i, p := range picked {
			if sqltypes.Compare(mcv[i], p.v) != 0 || freq[i] != float64(p.n)/float64(n) {
				t.Fatalf("round %d: MCV %d is %v (%v), want %v (%v)", round, i, mcv[i], freq[i], p.v, float64(p.n)/float64(n))
			}
		}
		wantRest := vals
		if len(picked) > 0 {
			wantRest = nil
			for _, v := range vals {
				common := false
				for _, p := range picked {
					common = common || sqltypes.Compare(p.v, v) == 0
				}
				if !common {
					wantRest = append(wantRest, v)
				}
			}
		}
		if len(rest) != len(wantRest) {
			t.Fatalf("round %d: %d values left for the histogram, want %d", round, len(rest), len(wantRest))
		}
		for i := range rest {
			if sqltypes.Compare(rest[i], wantRest[i]) != 0 {
				t.Fatalf("round %d: histogram value %d is %v, want %v", round, i, rest[i], wantRest[i])
			}
		}
	}
}

// BenchmarkStatsFinish is the end of an ANALYZE of 100,000 readings rows
// (bench/sidebyside's shape and value spread): Finish sorts the 30,000-row
// sample of each column, counts its distinct values and picks MCVs and
// histogram bounds. One op is one Finish of a collector filled once.
func BenchmarkStatsFinish(b *testing.B) {
	tbl := &Table{ID: 3, Name: "readings", Columns: []Column{
		{Name: "sensor_id", Type: sqltypes.TypeInt8}, {Name: "ts", Type: sqltypes.TypeTimestamp},
		{Name: "celsius", Type: sqltypes.TypeFloat8}, {Name: "lat", Type: sqltypes.TypeFloat8},
		{Name: "lon", Type: sqltypes.TypeFloat8}, {Name: "note", Type: sqltypes.TypeText},
	}}
	rng := rand.New(rand.NewPCG(7, 8))
	c := NewStatsCollector(tbl, 0)
	for i := range 100_000 {
		c.Add([]sqltypes.Value{sqltypes.NewInt(int64(i % 1000)), sqltypes.NewTimestamp(int64(i/1000) * 60_000_000),
			sqltypes.NewFloat(15 + rng.NormFloat64()*8), sqltypes.NewFloat(40 + rng.Float64()), sqltypes.NewFloat(-74.5 + rng.Float64()),
			sqltypes.NewText(fmt.Sprintf("code-%05d", rng.IntN(1000)))})
	}
	b.ReportAllocs()
	for b.Loop() {
		c.Finish(true)
	}
}
