package catalog

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// StatsCollector computes a table's statistics from its rows in one pass:
// exact row and NULL counts and extremes over every row, a HyperLogLog
// sketch of each column's distinct values, and a uniform reservoir sample
// (Vitter's algorithm R) of SampleRows rows from which the most common
// values and the histogram come.
type StatsCollector struct {
	t       *Table
	readAt  time.Time
	size    int
	rng     *rand.Rand
	rows    int64
	sample  [][]sqltypes.Value
	nulls   []int64
	width   []int64
	min     []sqltypes.Value
	max     []sqltypes.Value
	sketch  []*hyperLogLog
	ordered []bool
	// planar are the coordinates of the columns of a planar point type
	// (nil for others), extent their finite points' extent so far
	// (ColumnStats.Extent), unset while it has no point.
	planar []builtins.PlanarPoint
	extent []*[4]float64
	// bounds are the geometry columns' unions of every row's float4 box
	// so far (ColumnStats.Bounds), nil for other columns and while there
	// is none.
	bounds []*[4]float64
}

// NewStatsCollector starts collecting statistics of t from at most
// sampleSize sampled rows (SampleRows when sampleSize <= 0). Start it just
// before reading the rows: its start is the statistics' ReadAt.
func NewStatsCollector(t *Table, sampleSize int) *StatsCollector {
	if sampleSize <= 0 {
		sampleSize = SampleRows
	}
	n := len(t.Columns)
	c := &StatsCollector{t: t, readAt: time.Now().UTC(), size: sampleSize, rng: rand.New(rand.NewPCG(t.ID, 0x5eed)), // reproducible samples
		nulls: make([]int64, n), width: make([]int64, n), min: make([]sqltypes.Value, n), max: make([]sqltypes.Value, n),
		sketch: make([]*hyperLogLog, n), ordered: make([]bool, n), planar: make([]builtins.PlanarPoint, n), extent: make([]*[4]float64, n),
		bounds: make([]*[4]float64, n)}
	for i, col := range t.Columns {
		c.sketch[i] = newHyperLogLog()
		c.ordered[i] = orderable(col.Type)
		c.planar[i] = builtins.PlanarPointOf(col.Type)
	}
	return c
}

// Add counts one row (len(t.Columns) values; the collector keeps a copy
// only if it samples the row).
func (c *StatsCollector) Add(row []sqltypes.Value) {
	c.rows++
	for i, v := range row {
		if v.IsNull() {
			c.nulls[i]++
			continue
		}
		c.width[i] += int64(valueWidth(c.t.Columns[i].Type, v))
		c.sketch[i].add(mix64(v.Hash(14695981039346656037)))
		if c.planar[i] != nil {
			c.addPoint(i, v)
		}
		if c.t.Columns[i].Type.ID == sqltypes.Geometry {
			c.bounds[i] = unionFloat4Box(c.bounds[i], v)
		}
		if !c.ordered[i] {
			continue
		}
		if c.min[i].IsNull() || sqltypes.Compare(v, c.min[i]) < 0 {
			c.min[i] = v
		}
		if c.max[i].IsNull() || sqltypes.Compare(v, c.max[i]) > 0 {
			c.max[i] = v
		}
	}
	switch {
	case len(c.sample) < c.size:
		c.sample = append(c.sample, append([]sqltypes.Value(nil), row...))
	default:
		if j := c.rng.Int64N(c.rows); j < int64(c.size) {
			c.sample[j] = append(c.sample[j][:0], row...)
		}
	}
}

// addPoint widens column i's extent to its value v's point, if finite.
func (c *StatsCollector) addPoint(i int, v sqltypes.Value) {
	x, y, ok := c.planar[i](v)
	if !ok || math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(y) || math.IsInf(y, 0) {
		return
	}
	e := c.extent[i]
	if e == nil {
		c.extent[i] = &[4]float64{x, x, y, y}
		return
	}
	e[0], e[1], e[2], e[3] = min(e[0], x), max(e[1], x), min(e[2], y), max(e[3], y)
}

// Finish returns the statistics of the rows added.
func (c *StatsCollector) Finish(auto bool) *TableStats {
	ts := &TableStats{TableID: c.t.ID, Rows: float64(c.rows), Sampled: len(c.sample), AnalyzedAt: time.Now().UTC(), ReadAt: c.readAt, Auto: auto}
	whole := int64(len(c.sample)) == c.rows
	for i, col := range c.t.Columns {
		cs := ColumnStats{Attr: col.AttrName(), Name: col.Name, Type: col.Type, Min: c.min[i], Max: c.max[i], Extent: c.extent[i], Bounds: c.bounds[i]}
		nonNull := c.rows - c.nulls[i]
		if c.rows > 0 {
			cs.NullFrac = float64(c.nulls[i]) / float64(c.rows)
		}
		if nonNull > 0 {
			cs.AvgWidth = int(c.width[i] / nonNull)
		}
		vals := make([]sqltypes.Value, 0, len(c.sample))
		for _, r := range c.sample {
			if !r[i].IsNull() {
				vals = append(vals, r[i])
			}
		}
		if col.Type.ID == sqltypes.Geometry {
			cs.Estimated = EstimatedExtent(vals)
		}
		counts := distinctCounts(vals)
		switch {
		case whole:
			cs.Distinct = float64(len(counts))
		default:
			// The sketch saw every row; it cannot be below what the sample
			// proves nor above the non-NULL rows.
			cs.Distinct = math.Min(math.Max(c.sketch[i].estimate(), float64(len(counts))), float64(nonNull))
		}
		if c.ordered[i] && len(vals) > 0 {
			cs.MCV, cs.MCVFreq, vals = commonValues(counts, vals, len(c.sample), cs.Distinct)
			cs.Histogram = histogram(vals, StatisticsTarget)
		}
		ts.Columns = append(ts.Columns, cs)
	}
	return ts
}

// valueCount is one distinct sampled value and how often it occurs.
type valueCount struct {
	v sqltypes.Value
	n int
}

// distinctCounts sorts vals and counts each distinct value. The sort is
// slices.SortFunc, not sort.Slice: the same pattern-defeating quicksort
// (the same order, equal values included), without the reflective swap
// of 56-byte values and the closure that indexes them, which made sorting
// a 30,000-row sample per column most of an ANALYZE's CPU, and a bulk
// load starts an automatic one as the table doubles.
func distinctCounts(vals []sqltypes.Value) []valueCount {
	slices.SortFunc(vals, sqltypes.Compare)
	var out []valueCount
	for _, v := range vals {
		if len(out) > 0 && sqltypes.Compare(out[len(out)-1].v, v) == 0 {
			out[len(out)-1].n++
			continue
		}
		out = append(out, valueCount{v: v, n: 1})
	}
	return out
}

// commonValues picks the most common values as PostgreSQL does: values
// sampled more than once and clearly (25%) more often than the average
// value, at most StatisticsTarget of them, or every value when each recurs
// and they all fit.
// It returns them with their frequencies among all rows, and the sorted
// sample without them, for the histogram.
func commonValues(counts []valueCount, sorted []sqltypes.Value, sampleRows int, distinct float64) ([]sqltypes.Value, []float64, []sqltypes.Value) {
	nonNull := len(sorted)
	// The distinct values by index into counts, most frequent first
	// (stable: ties in value order), so a picked value's runs are found by
	// its index rather than by comparing it with every distinct value.
	byFreq := make([]int, len(counts))
	for i := range byFreq {
		byFreq[i] = i
	}
	slices.SortStableFunc(byFreq, func(a, b int) int { return counts[b].n - counts[a].n })
	var picked []int
	repeated := len(byFreq) > 0 && counts[byFreq[len(byFreq)-1]].n >= 2
	if repeated && len(counts) <= StatisticsTarget {
		picked = byFreq // every value recurs and fits: no histogram needed
	} else {
		avg := float64(nonNull) / math.Max(distinct, 1)
		for _, i := range byFreq {
			vc := counts[i]
			if len(picked) == StatisticsTarget || vc.n < 2 || float64(vc.n) <= 1.25*avg {
				break
			}
			picked = append(picked, i)
		}
	}
	if len(picked) == 0 {
		return nil, nil, sorted
	}
	mcv := make([]sqltypes.Value, len(picked))
	freq := make([]float64, len(picked))
	common := make([]bool, len(counts))
	for i, p := range picked {
		mcv[i], freq[i] = counts[p].v, float64(counts[p].n)/float64(sampleRows)
		common[p] = true
	}
	// The sample is sorted: drop the runs of the picked values.
	rest := make([]sqltypes.Value, 0, len(sorted))
	k := 0
	for i, vc := range counts {
		if !common[i] {
			rest = append(rest, sorted[k:k+vc.n]...)
		}
		k += vc.n
	}
	return mcv, freq, rest
}

// histogram returns up to buckets+1 bounds splitting sorted values into
// buckets of equal count (the first and last bounds are the extremes).
func histogram(sorted []sqltypes.Value, buckets int) []sqltypes.Value {
	if len(sorted) < 2 {
		return nil
	}
	if buckets > len(sorted)-1 {
		buckets = len(sorted) - 1
	}
	out := make([]sqltypes.Value, 0, buckets+1)
	for i := 0; i <= buckets; i++ {
		v := sorted[i*(len(sorted)-1)/buckets]
		if len(out) > 0 && sqltypes.Compare(out[len(out)-1], v) == 0 {
			continue
		}
		out = append(out, v)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// valueWidth is a value's width as PostgreSQL's avg_width counts it: the
// type's fixed length, else the text or bytes with their varlena header (1
// byte up to 126 bytes, else 4).
func valueWidth(t sqltypes.Type, v sqltypes.Value) int {
	if n := t.Size(); n > 0 {
		return int(n)
	}
	n := len(v.S)
	switch v.K {
	case sqltypes.KindNumeric, sqltypes.KindInterval, sqltypes.KindJSONB, sqltypes.KindArray, sqltypes.KindRange, sqltypes.KindMultirange:
		n = len(sqltypes.FormatText(v))
	}
	if n < 127 {
		return n + 1
	}
	return n + 4
}

// mix64 spreads a hash's bits (SplitMix64's finaliser): the sketch reads
// the leading bits, which FNV leaves poorly mixed.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// hllPrecision gives 2^12 registers: a standard error of about 1.6%.
const hllPrecision = 12

// hyperLogLog estimates the number of distinct hashes added (Flajolet et
// al., with linear counting for small cardinalities).
type hyperLogLog struct {
	reg [1 << hllPrecision]uint8
}

func newHyperLogLog() *hyperLogLog { return &hyperLogLog{} }

func (h *hyperLogLog) add(x uint64) {
	i := x >> (64 - hllPrecision)
	rank := uint8(bits.LeadingZeros64(x<<hllPrecision|1<<(hllPrecision-1)) + 1)
	if rank > h.reg[i] {
		h.reg[i] = rank
	}
}

func (h *hyperLogLog) estimate() float64 {
	m := float64(len(h.reg))
	sum, zeros := 0.0, 0
	for _, r := range h.reg {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		return m * math.Log(m/float64(zeros))
	}
	return e
}
