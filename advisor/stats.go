package advisor

import (
	"math"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
)

// Statistics is what the advisor knows of one table's data. AnalyzedStats
// implements it from the catalog's ANALYZE statistics, SampleStats from a
// sample of the table's rows (for a table not analyzed yet).
type Statistics interface {
	// Rows is the table's row count.
	Rows() float64
	// Distinct is a column's number of distinct non-NULL values.
	Distinct(col int) float64
	// NullFrac is the fraction of rows whose column is NULL.
	NullFrac(col int) float64
	// Selectivity is the fraction of rows whose column lies in set.
	Selectivity(col int, set optimizer.ValueSet) float64
	// Bounds are a column's smallest and largest non-NULL values (ok false
	// when it has none).
	Bounds(col int) (lo, hi sqltypes.Value, ok bool)
}

// SampleStats estimates statistics from a uniform sample of a table's
// rows and its row count.
type SampleStats struct {
	rows     float64
	sample   [][]sqltypes.Value
	distinct map[int]float64
}

// NewSampleStats returns statistics for a table of rows rows of which
// sample is a uniform sample (each a full table row).
func NewSampleStats(rows int64, sample [][]sqltypes.Value) *SampleStats {
	return &SampleStats{rows: float64(rows), sample: sample, distinct: map[int]float64{}}
}

// Rows implements Statistics.
func (s *SampleStats) Rows() float64 { return s.rows }

// Distinct implements Statistics with Haas and Stokes' Duj1 estimator
// n·d / (n − f1 + f1·n/N), where the sample of n rows holds d distinct
// values, f1 of them once, out of N rows.
func (s *SampleStats) Distinct(col int) float64 {
	if d, ok := s.distinct[col]; ok {
		return d
	}
	counts := map[uint64]int{}
	n := 0
	for _, r := range s.sample {
		if col < len(r) && !r[col].IsNull() {
			counts[r[col].Hash(0)]++
			n++
		}
	}
	d, f1 := float64(len(counts)), 0.0
	for _, c := range counts {
		if c == 1 {
			f1++
		}
	}
	est := d
	if n > 0 && s.rows > float64(n) {
		nf := float64(n)
		est = nf * d / (nf - f1 + f1*nf/s.rows)
	}
	est = math.Max(1, math.Min(est, s.rows*(1-s.NullFrac(col))))
	s.distinct[col] = est
	return est
}

// NullFrac implements Statistics.
func (s *SampleStats) NullFrac(col int) float64 {
	if len(s.sample) == 0 {
		return 0
	}
	n := 0
	for _, r := range s.sample {
		if col >= len(r) || r[col].IsNull() {
			n++
		}
	}
	return float64(n) / float64(len(s.sample))
}

// Selectivity implements Statistics: the sample's fraction in set; a set
// of points counts each point as 1/Distinct when the sample holds none of
// it, and a range no sampled row falls in is taken to hold half a row of
// the sample, not none, as the sample is no proof of absence.
func (s *SampleStats) Selectivity(col int, set optimizer.ValueSet) float64 {
	if set == nil {
		return 1
	}
	if len(set) == 0 || len(s.sample) == 0 {
		return 0
	}
	if n, ok := set.Points(); ok {
		return math.Min(1, float64(n)/s.Distinct(col)*(1-s.NullFrac(col)))
	}
	in := 0
	for _, r := range s.sample {
		if col < len(r) && set.Contains(r[col]) {
			in++
		}
	}
	floor := 0.5 / float64(len(s.sample))
	return math.Max(float64(in)/float64(len(s.sample)), floor)
}

// Bounds implements Statistics.
func (s *SampleStats) Bounds(col int) (lo, hi sqltypes.Value, ok bool) {
	for _, r := range s.sample {
		if col >= len(r) || r[col].IsNull() {
			continue
		}
		if !ok || sqltypes.Compare(r[col], lo) < 0 {
			lo = r[col]
		}
		if !ok || sqltypes.Compare(r[col], hi) > 0 {
			hi = r[col]
		}
		ok = true
	}
	return lo, hi, ok
}

// AnalyzedStats are a table's ANALYZE statistics (catalog.TableStats) as
// Statistics: selectivities come from the same histograms and most common
// values the optimizer prices access paths with, so the advisor's
// estimates agree with EXPLAIN's.
type AnalyzedStats struct {
	t  *catalog.Table
	ts *catalog.TableStats
}

// NewAnalyzedStats returns ts as Statistics of t, or nil when ts lacks a
// column of t (one added after the last ANALYZE): then the caller samples.
func NewAnalyzedStats(t *catalog.Table, ts *catalog.TableStats) *AnalyzedStats {
	if ts == nil {
		return nil
	}
	for i := range t.Columns {
		if ts.Column(&t.Columns[i]) == nil {
			return nil
		}
	}
	return &AnalyzedStats{t: t, ts: ts}
}

// Rows implements Statistics.
func (a *AnalyzedStats) Rows() float64 { return a.ts.Rows }

// Distinct implements Statistics.
func (a *AnalyzedStats) Distinct(col int) float64 {
	return math.Max(1, a.ts.Column(&a.t.Columns[col]).Distinct)
}

// NullFrac implements Statistics.
func (a *AnalyzedStats) NullFrac(col int) float64 {
	return a.ts.Column(&a.t.Columns[col]).NullFrac
}

// Selectivity implements Statistics.
func (a *AnalyzedStats) Selectivity(col int, set optimizer.ValueSet) float64 {
	return optimizer.ColumnSelectivity(a.t, a.ts, col, set)
}

// Bounds implements Statistics.
func (a *AnalyzedStats) Bounds(col int) (lo, hi sqltypes.Value, ok bool) {
	cs := a.ts.Column(&a.t.Columns[col])
	if cs.Min.IsNull() || cs.Max.IsNull() {
		return sqltypes.Null, sqltypes.Null, false
	}
	return cs.Min, cs.Max, true
}

var (
	_ Statistics = (*AnalyzedStats)(nil)
	_ Statistics = (*SampleStats)(nil)
)
