package optimizer

import (
	"math"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
)

// readCapacity estimates the read capacity units a candidate's reads are
// charged on a store that charges by item size (unit bytes a unit,
// strongly consistent): a range read (DynamoDB's Query) is charged the
// total size of the items each request returns, rounded up to the unit; a
// point read (BatchGetItem) rounds up each item on its own; a
// non-covering index's lookups are point reads of the rows.
func (c *candidate) readCapacity(t *catalog.Table, ts *catalog.TableStats, unit float64) float64 {
	row := catalog.ItemBytes(t, ts, nil)
	entry := row
	if c.index != nil {
		entry = catalog.ItemBytes(t, ts, catalog.IndexEntryColumns(t, c.index))
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

// sourceRows estimates the rows a write's source yields: a VALUES list's
// count, or the estimate of the scan under single-input nodes; false when
// unknown.
func sourceRows(n Node) (float64, bool) {
	for {
		switch x := n.(type) {
		case *Values:
			return float64(len(x.Rows)), true
		case *Scan:
			if x.Estimated == nil {
				return 0, false
			}
			return x.Estimated.Rows, true
		}
		in := n.Inputs()
		if len(in) != 1 {
			return 0, false
		}
		n = in[0]
	}
}

// writeEstimate estimates what writing rows rows of t costs in write
// capacity units of unit bytes, transactional (twice the units): each row
// item and, per row, entriesPerRow index entries (an inverted index's
// entries are not counted: their number is the rows' tokens').
func writeEstimate(t *catalog.Table, ts *catalog.TableStats, rows, entriesPerRow float64, unit float64) *WriteEstimate {
	row := math.Ceil(catalog.ItemBytes(t, ts, nil) / unit)
	entry := 0.0
	for _, ix := range t.Indexes {
		if ix.Kind == catalog.KindGIN {
			continue
		}
		var cols []int
		for _, k := range ix.Columns {
			cols = append(cols, k.Column)
		}
		cols = append(append(cols, ix.Include...), ix.Stored...)
		entry = math.Max(entry, math.Ceil(catalog.ItemBytes(t, ts, cols)/unit))
	}
	return &WriteEstimate{Rows: rows, Items: rows * (1 + entriesPerRow), Capacity: 2 * rows * (row + entriesPerRow*entry)}
}

// indexCount is how many of t's indexes other than inverted ones a write
// of the columns set changes (nil: every one).
func indexCount(t *catalog.Table, set map[int]ir.Expr) float64 {
	n := 0.0
	for _, ix := range t.Indexes {
		if ix.Kind == catalog.KindGIN {
			continue
		}
		if set == nil {
			n++
			continue
		}
		for _, k := range ix.Columns {
			if _, ok := set[k.Column]; ok || k.Column < 0 {
				n++
				break
			}
		}
	}
	return n
}

// estimateWrite fills a write's estimate on a store that charges writes.
func (b *builder) estimateWrite(w Write) {
	unit := float64(b.opts.Caps.WriteUnitBytes)
	if unit <= 0 {
		return
	}
	var src Node
	switch x := w.(type) {
	case *Insert:
		src = x.Source
	case *Update:
		src = x.Source
	case *Delete:
		src = x.Source
	}
	if src == nil {
		return // a MERGE: its rows are decided as it runs
	}
	rows, ok := sourceRows(src)
	if !ok {
		return
	}
	t := w.Target()
	var ts *catalog.TableStats
	if b.opts.Stats != nil {
		ts = b.opts.Stats(t.ID)
	}
	switch x := w.(type) {
	case *Insert:
		x.Estimated = writeEstimate(t, ts, rows, indexCount(t, nil), unit)
	case *Update:
		// A changed index key deletes its old entry and puts the new one.
		x.Estimated = writeEstimate(t, ts, rows, 2*indexCount(t, x.Set), unit)
	case *Delete:
		x.Estimated = writeEstimate(t, ts, rows, indexCount(t, nil), unit)
	}
}
