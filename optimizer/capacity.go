package optimizer

import (
	"math"

	"github.com/zproxy/zproxy/catalog"
)

// itemOverhead is what an item holds besides its columns' values: the
// partition and sort keys and the store's own attributes (the commit
// timestamp, attribute names' type tags), in bytes.
const itemOverhead = 64

// defaultWidth is the width assumed for a column without statistics.
const defaultWidth = 16

// readCapacity estimates the read capacity units a candidate's reads are
// charged on a store that charges by item size (unit bytes a unit,
// strongly consistent): a range read (DynamoDB's Query) is charged the
// total size of the items each request returns, rounded up to the unit; a
// point read (BatchGetItem) rounds up each item on its own; a
// non-covering index's lookups are point reads of the rows.
func (c *candidate) readCapacity(t *catalog.Table, ts *catalog.TableStats, unit float64) float64 {
	row := itemBytes(t, ts, nil)
	entry := row
	if c.index != nil {
		var cols []int
		for _, k := range c.index.Columns {
			cols = append(cols, k.Column)
		}
		cols = append(cols, c.index.Include...)
		for _, k := range t.PrimaryKey {
			cols = append(cols, k.Column)
		}
		entry = itemBytes(t, ts, cols)
	}
	var rcu float64
	if c.isPointGet() {
		rcu = c.entries * math.Ceil(entry/unit)
	} else {
		requests := float64(max(c.ranges, 1)) * float64(c.shards)
		rcu = math.Max(requests, math.Ceil(c.entries*entry/unit))
	}
	if c.index != nil && !c.covering {
		rcu += c.entries * math.Ceil(row/unit)
	}
	return rcu
}

// itemBytes estimates the size of an item holding the given columns of t
// (every column when cols is nil), from the columns' average widths and
// NULL fractions where the table has statistics.
func itemBytes(t *catalog.Table, ts *catalog.TableStats, cols []int) float64 {
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
