package catalog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// Statistics. ANALYZE (and the automatic analysis after an index build or
// enough writes) reads a table and keeps, per table, its row count and, per
// column, the null fraction, the number of distinct values, the extremes,
// the most common values and an equi-depth histogram of the rest. They are
// stored in the catalog partition under "s/<table id>" and written by a
// catalog change (a new version marker), so every proxy over the store loads
// them with its next snapshot. Statistics only steer plan choice: a stale or
// missing one makes a plan slower, never a result wrong.

const statsPrefix = "s/"

// StatisticsTarget is PostgreSQL's default_statistics_target: at most this
// many most common values and histogram buckets per column, from a sample
// of 300 times as many rows (PostgreSQL's rule).
const StatisticsTarget = 100

// SampleRows is how many rows ANALYZE keeps in its reservoir sample.
const SampleRows = 300 * StatisticsTarget

// TableStats are one table's statistics as of its last analysis.
type TableStats struct {
	TableID uint64 `json:"table_id"`
	// Rows is the number of rows counted (pg_class.reltuples).
	Rows float64 `json:"rows"`
	// Sampled is how many rows the column statistics were computed from.
	Sampled    int       `json:"sampled"`
	AnalyzedAt time.Time `json:"analyzed_at"`
	// ReadAt is when the analysis began reading the rows: of two
	// analyses, the one that read later describes the newer rows, and
	// PutStats keeps it whichever finishes last.
	ReadAt time.Time `json:"read_at,omitempty"`
	// Auto tells an automatic analysis from an ANALYZE statement
	// (pg_stat_user_tables.last_autoanalyze vs last_analyze).
	Auto bool `json:"auto,omitempty"`
	// LastAnalyze and LastAutoAnalyze are when the table was last
	// analyzed by a statement and automatically, and AnalyzeCount and
	// AutoAnalyzeCount how often (pg_stat_user_tables), carried from one
	// analysis to the next.
	LastAnalyze      *time.Time    `json:"last_analyze,omitempty"`
	LastAutoAnalyze  *time.Time    `json:"last_autoanalyze,omitempty"`
	AnalyzeCount     int64         `json:"analyze_count,omitempty"`
	AutoAnalyzeCount int64         `json:"autoanalyze_count,omitempty"`
	Columns          []ColumnStats `json:"columns"`
}

// ColumnStats are one column's statistics. Values are kept as text in the
// store and typed when the snapshot loads them.
type ColumnStats struct {
	// Attr is the column's store attribute (Column.AttrName), which
	// survives renames; Name is the column's name when it was analyzed.
	Attr string        `json:"attr"`
	Name string        `json:"name"`
	Type sqltypes.Type `json:"type"`
	// NullFrac is the fraction of rows whose value is NULL.
	NullFrac float64 `json:"null_frac"`
	// Distinct is the estimated number of distinct non-NULL values
	// (exact when the sample was the whole table, else a HyperLogLog
	// sketch over every row).
	Distinct float64 `json:"distinct"`
	// AvgWidth is the average stored width of non-NULL values in bytes.
	AvgWidth int `json:"avg_width"`
	// Min and Max are the extremes over every row (unset when every value
	// is NULL or the type has no order).
	Min sqltypes.Value `json:"-"`
	Max sqltypes.Value `json:"-"`
	// MCV are the most common values, most frequent first, with the
	// fraction of all rows each one holds (MCVFreq).
	MCV     []sqltypes.Value `json:"-"`
	MCVFreq []float64        `json:"mcv_freq,omitempty"`
	// Histogram holds the bounds of equi-depth buckets over the sampled
	// values that are not among MCV: each bucket holds about the same
	// number of rows.
	Histogram []sqltypes.Value `json:"-"`
	// Extent is [xlo, xhi, ylo, yhi], the extent of the finite points of
	// a column of a planar point type (builtins.PlanarTypeOf) over every
	// row, nil for other types and where there is none. Over it the rows
	// give a nearest-neighbour search the density of the points
	// (optimizer's statsDensity): the data bounds a gist index keeps are
	// widened in coarse cells, a quarter to half again as large.
	Extent *[4]float64 `json:"extent,omitempty"`
	// Estimated is [xmin, ymin, xmax, ymax], a geometry column's
	// estimated extent as PostGIS's ANALYZE computes it from the sample
	// (ST_EstimatedExtent; EstimatedExtent in stats_geo.go), nil for
	// other types and where the sample holds no box.
	Estimated *[4]float64 `json:"estimated,omitempty"`
	// Bounds is [xmin, ymin, xmax, ymax], the union of every row's box of
	// a geometry column, each side rounded outward to float4: what a
	// gist index's root holds in PostGIS, which ST_EstimatedExtent reads
	// where the column has one. nil for other types and where no row
	// has a box.
	Bounds *[4]float64 `json:"bounds,omitempty"`

	// The text forms, as stored.
	MinText       *string  `json:"min,omitempty"`
	MaxText       *string  `json:"max,omitempty"`
	MCVText       []string `json:"mcv,omitempty"`
	HistogramText []string `json:"histogram,omitempty"`
}

// Stats returns the statistics of the table with the given ID, or nil when
// it was never analyzed. The result is shared and must not be changed.
func (s *Snapshot) Stats(tableID uint64) *TableStats {
	return s.stats[tableID]
}

// Column returns the statistics of a column of t, or nil.
func (ts *TableStats) Column(c *Column) *ColumnStats {
	if ts == nil {
		return nil
	}
	for i := range ts.Columns {
		if ts.Columns[i].Attr == c.AttrName() && ts.Columns[i].Type.ID == c.Type.ID {
			return &ts.Columns[i]
		}
	}
	return nil
}

// NDistinct is the n_distinct figure pg_stats shows: the count itself, or,
// when the column's distinct values seem to grow with the table (more than
// a tenth of the rows, PostgreSQL's rule), minus their ratio to the rows.
func (cs *ColumnStats) NDistinct(rows float64) float64 {
	if rows > 0 && cs.Distinct > 0.1*rows {
		return -math.Min(cs.Distinct/rows, 1)
	}
	return cs.Distinct
}

// EqualSelectivity estimates the fraction of the table's rows whose value
// equals v: its own frequency when it is a common value, none when it lies
// outside the extremes, else an even share of the rest.
func (cs *ColumnStats) EqualSelectivity(v sqltypes.Value) float64 {
	if v.IsNull() {
		return 0
	}
	mcvSum := 0.0
	for i, m := range cs.MCV {
		if comparable(m, v) && sqltypes.Compare(m, v) == 0 {
			return cs.MCVFreq[i]
		}
		mcvSum += cs.MCVFreq[i]
	}
	if cs.outside(v) {
		return 0
	}
	rest := cs.Distinct - float64(len(cs.MCV))
	if rest < 1 {
		rest = 1
	}
	return math.Max(0, 1-cs.NullFrac-mcvSum) / rest
}

// RangeSelectivity estimates the fraction of rows whose value lies between
// lo and hi (an unset side is unbounded; loInc/hiInc say whether the bound
// itself counts), from the common values and the histogram.
func (cs *ColumnStats) RangeSelectivity(lo, hi *sqltypes.Value, loInc, hiInc bool) float64 {
	in := func(v sqltypes.Value) bool {
		if lo != nil {
			if c := sqltypes.Compare(v, *lo); c < 0 || c == 0 && !loInc {
				return false
			}
		}
		if hi != nil {
			if c := sqltypes.Compare(v, *hi); c > 0 || c == 0 && !hiInc {
				return false
			}
		}
		return true
	}
	sel, mcvSum := 0.0, 0.0
	for i, m := range cs.MCV {
		mcvSum += cs.MCVFreq[i]
		if in(m) {
			sel += cs.MCVFreq[i]
		}
	}
	rest := math.Max(0, 1-cs.NullFrac-mcvSum)
	if len(cs.Histogram) < 2 {
		if len(cs.MCV) == 0 && rest > 0 {
			// No histogram: the extremes alone.
			if cs.Min.IsNull() || lo == nil && hi == nil {
				return rest
			}
			return rest * cs.spanFraction(lo, hi)
		}
		return sel
	}
	from, to := 0.0, 1.0
	if lo != nil {
		from = cs.histPos(*lo)
	}
	if hi != nil {
		to = cs.histPos(*hi)
	}
	if to > from {
		sel += rest * (to - from)
	}
	return math.Min(sel, 1)
}

// histPos is the fraction of the histogram's rows below v, interpolating
// linearly inside a bucket for numeric, date and time values.
func (cs *ColumnStats) histPos(v sqltypes.Value) float64 {
	h := cs.Histogram
	n := len(h) - 1
	if sqltypes.Compare(v, h[0]) <= 0 {
		return 0
	}
	if sqltypes.Compare(v, h[n]) >= 0 {
		return 1
	}
	i := sort.Search(len(h), func(i int) bool { return sqltypes.Compare(h[i], v) >= 0 }) - 1
	return (float64(i) + within(h[i], h[i+1], v)) / float64(n)
}

// spanFraction is the fraction of [Min, Max] between lo and hi, by linear
// interpolation where the type allows it.
func (cs *ColumnStats) spanFraction(lo, hi *sqltypes.Value) float64 {
	from, to := 0.0, 1.0
	if lo != nil {
		from = clampedWithin(cs.Min, cs.Max, *lo)
	}
	if hi != nil {
		to = clampedWithin(cs.Min, cs.Max, *hi)
	}
	return math.Max(0, to-from)
}

func clampedWithin(a, b, v sqltypes.Value) float64 {
	switch {
	case sqltypes.Compare(v, a) <= 0:
		return 0
	case sqltypes.Compare(v, b) >= 0:
		return 1
	}
	return within(a, b, v)
}

// within is where v lies between a and b (a <= v <= b), from 0 to 1: by
// value for numbers and times, else the middle.
func within(a, b, v sqltypes.Value) float64 {
	x, ok1 := numericPos(a)
	y, ok2 := numericPos(b)
	z, ok3 := numericPos(v)
	if !ok1 || !ok2 || !ok3 || y <= x {
		return 0.5
	}
	return math.Min(1, math.Max(0, (z-x)/(y-x)))
}

func numericPos(v sqltypes.Value) (float64, bool) {
	switch v.K {
	case sqltypes.KindInt, sqltypes.KindFloat, sqltypes.KindNumeric:
		f := v.AsFloat()
		return f, !math.IsNaN(f) && !math.IsInf(f, 0)
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate:
		return float64(v.I), true
	}
	return 0, false
}

// outside reports whether v lies beyond the column's extremes.
func (cs *ColumnStats) outside(v sqltypes.Value) bool {
	if cs.Min.IsNull() || !comparable(cs.Min, v) {
		return false
	}
	return sqltypes.Compare(v, cs.Min) < 0 || sqltypes.Compare(v, cs.Max) > 0
}

// comparable reports whether two values may be ordered by sqltypes.Compare
// (a statistic of another kind is ignored rather than misread).
func comparable(a, b sqltypes.Value) bool {
	num := func(k sqltypes.Kind) bool {
		return k == sqltypes.KindInt || k == sqltypes.KindFloat || k == sqltypes.KindNumeric
	}
	return a.K == b.K || num(a.K) && num(b.K)
}

// orderable reports whether statistics that order values (extremes,
// histograms) make sense for a type.
func orderable(t sqltypes.Type) bool {
	switch t.Kind() {
	case sqltypes.KindJSON, sqltypes.KindJSONB, sqltypes.KindArray:
		return false
	}
	return true
}

// statsKey is the store key of a table's statistics.
func statsKey(tableID uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(statsPrefix), tableID)
}

// encode fills the text forms from the values.
func (ts *TableStats) encode() {
	txt := func(v sqltypes.Value) *string {
		if v.IsNull() {
			return nil
		}
		s := sqltypes.FormatText(v)
		return &s
	}
	for i := range ts.Columns {
		c := &ts.Columns[i]
		c.MinText, c.MaxText = txt(c.Min), txt(c.Max)
		c.MCVText, c.HistogramText = c.MCVText[:0], c.HistogramText[:0]
		for _, v := range c.MCV {
			c.MCVText = append(c.MCVText, sqltypes.FormatText(v))
		}
		for _, v := range c.Histogram {
			c.HistogramText = append(c.HistogramText, sqltypes.FormatText(v))
		}
	}
}

// decode types the text forms. A value that no longer parses drops that
// column's statistics rather than the snapshot.
func (ts *TableStats) decode() {
	keep := ts.Columns[:0]
	for _, c := range ts.Columns {
		if err := c.decode(); err == nil {
			keep = append(keep, c)
		}
	}
	ts.Columns = keep
}

func (c *ColumnStats) decode() error {
	parse := func(s string) (sqltypes.Value, error) { return sqltypes.ParseText(c.Type, s) }
	var err error
	c.Min, c.Max = sqltypes.Null, sqltypes.Null
	if c.MinText != nil {
		if c.Min, err = parse(*c.MinText); err != nil {
			return err
		}
	}
	if c.MaxText != nil {
		if c.Max, err = parse(*c.MaxText); err != nil {
			return err
		}
	}
	c.MCV, c.Histogram = nil, nil
	for _, s := range c.MCVText {
		v, err := parse(s)
		if err != nil {
			return err
		}
		c.MCV = append(c.MCV, v)
	}
	for _, s := range c.HistogramText {
		v, err := parse(s)
		if err != nil {
			return err
		}
		c.Histogram = append(c.Histogram, v)
	}
	if len(c.MCVFreq) != len(c.MCV) {
		return fmt.Errorf("catalog: statistics of %q: %d common values, %d frequencies", c.Name, len(c.MCV), len(c.MCVFreq))
	}
	return nil
}

// loadStats reads every table's statistics. A transaction block's catalog
// reads them from the store, not through the block's transaction:
// statistics are estimates, which ANALYZE (automatic or not) rewrites
// while blocks run, and reading them through the transaction would fail
// the block (40001) whenever that happens.
func (c *Catalog) loadStats(ctx context.Context) (map[uint64]*TableStats, error) {
	out := map[uint64]*TableStats{}
	start := []byte(statsPrefix)
	rw := c.rw
	if c.block != nil {
		rw = c.block.base.rw
	}
	it := rw.Scan(ctx, kv.ScanRequest{Partition: c.partition, Start: start, End: kv.PrefixEnd(start), Consistent: true})
	defer it.Close()
	for it.Next() {
		var ts TableStats
		if err := decodeDesc(it.Item(), &ts); err != nil {
			return nil, err
		}
		ts.decode()
		out[ts.TableID] = &ts
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("catalog: reading statistics: %w", err)
	}
	return out, nil
}

// statsOps are the writes of a change's statistics, including the removal
// of those of tables the change drops (not of a table it renames, which
// keeps its ID).
func (c *Catalog) statsOps(snap *Snapshot, ch Change) ([]kv.Op, error) {
	var ops []kv.Op
	kept := map[uint64]bool{}
	for _, t := range ch.Put {
		kept[t.ID] = true
	}
	for _, ts := range ch.PutStats {
		kept[ts.TableID] = true
	}
	for _, name := range ch.Delete {
		if t, ok := snap.tables[name]; ok && !kept[t.ID] && snap.stats[t.ID] != nil {
			ch.DeleteStats = append(ch.DeleteStats, t.ID)
		}
	}
	for _, ts := range ch.PutStats {
		ts.encode()
		op, err := c.putDescriptor(string(statsKey(ts.TableID)), ts)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	gone := map[uint64]bool{}
	for _, id := range ch.DeleteStats {
		if gone[id] || kept[id] {
			continue // DynamoDB refuses two writes of one item in a transaction
		}
		gone[id] = true
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: c.partition, Sort: statsKey(id)}})
	}
	return ops, nil
}

// PutStats stores statistics of tables (one catalog change), skipping any
// whose table was dropped meanwhile.
func (c *Catalog) PutStats(ctx context.Context, stats ...*TableStats) error {
	_, err := c.Update(ctx, func(s *Snapshot, _ uint64) (Change, error) {
		var ch Change
		for _, ts := range stats {
			if s.TableByID(ts.TableID) == nil {
				continue
			}
			at := ts.AnalyzedAt
			prev := s.stats[ts.TableID]
			if prev != nil && ts.ReadAt.Before(prev.ReadAt) {
				// An analysis overtaken by one that began reading later (an
				// automatic one still reading when an ANALYZE statement
				// started): PostgreSQL's lock would have made the statement
				// wait, so its newer rows stand; the older analysis still
				// counts as run.
				newer := *prev
				newer.Auto = ts.Auto
				ts = &newer
			}
			ts.LastAnalyze, ts.LastAutoAnalyze, ts.AnalyzeCount, ts.AutoAnalyzeCount = nil, nil, 0, 0
			if prev != nil {
				ts.LastAnalyze, ts.LastAutoAnalyze = prev.LastAnalyze, prev.LastAutoAnalyze
				ts.AnalyzeCount, ts.AutoAnalyzeCount = prev.AnalyzeCount, prev.AutoAnalyzeCount
			}
			if ts.Auto {
				ts.LastAutoAnalyze = &at
				ts.AutoAnalyzeCount++
			} else {
				ts.LastAnalyze = &at
				ts.AnalyzeCount++
			}
			ch.PutStats = append(ch.PutStats, ts)
		}
		if len(ch.PutStats) == 0 {
			// No table is in this catalog (one a transaction block
			// created and has not committed): no change to write, and no
			// version marker, which the block would take for a
			// concurrent change.
			return ch, errNoStats
		}
		return ch, nil
	})
	if errors.Is(err, errNoStats) {
		return nil
	}
	return err
}

// errNoStats ends a PutStats that has nothing to write.
var errNoStats = errors.New("catalog: no statistics to write")

// itemOverhead is what an item holds besides its columns' values: the
// partition and sort keys and the store's own attributes (the commit
// timestamp, attribute names' type tags), in bytes.
const itemOverhead = 64

// defaultWidth is the width assumed for a column without statistics.
const defaultWidth = 16

// ItemBytes estimates the size of an item holding the given columns of t
// (every column when cols is nil), from the columns' average widths and
// NULL fractions where the table has statistics (ts may be nil): the
// optimizer's capacity estimates and the sizes of relations on a store
// that cannot measure them use it.
func ItemBytes(t *Table, ts *TableStats, cols []int) float64 {
	if cols == nil {
		cols = make([]int, len(t.Columns))
		for i := range cols {
			cols[i] = i
		}
	}
	seen := map[int]bool{}
	size := float64(itemOverhead)
	for _, i := range cols {
		if i < 0 || i >= len(t.Columns) || seen[i] {
			continue
		}
		seen[i] = true
		col := &t.Columns[i]
		width := float64(defaultWidth)
		if cs := ts.Column(col); cs != nil {
			width = float64(cs.AvgWidth) * (1 - cs.NullFrac)
		}
		size += width + float64(len(col.AttrName())) + 1
	}
	return size
}

// IndexEntryColumns are the columns an entry of ix holds: its key
// columns, included and stored columns and the table's primary key.
func IndexEntryColumns(t *Table, ix *Index) []int {
	var cols []int
	for _, k := range ix.Columns {
		cols = append(cols, k.Column)
	}
	cols = append(cols, ix.Include...)
	cols = append(cols, ix.Stored...)
	for _, k := range t.PrimaryKey {
		cols = append(cols, k.Column)
	}
	return cols
}
