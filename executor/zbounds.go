package executor

import (
	"context"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// zboundsCache keeps the last Z-order bounds this process read or wrote per
// index. Bounds never narrow, so a cached copy that holds a row's codes
// proves the stored one does, and most writes need no store request.
type zboundsCache struct {
	m sync.Map // index ID → *catalog.ZBounds
}

func (c *zboundsCache) get(id uint64) *catalog.ZBounds {
	if v, ok := c.m.Load(id); ok {
		return v.(*catalog.ZBounds)
	}
	return nil
}

// widenZBounds makes the data bounds of t's Z-order indexes that keep them
// (of only, when set) hold the codes of rows, before the rows' entries are
// written (catalog.WidenZBounds): a query box clipped to the bounds then
// never misses a committed row. The widening goes to the store directly,
// outside any transaction: bounds wider than the data cost reads, never
// rows.
func (e *Executor) widenZBounds(ctx context.Context, t *catalog.Table, only *catalog.Index, rows [][]sqltypes.Value) error {
	if len(rows) == 0 {
		return nil
	}
	for _, ix := range t.Indexes {
		if ix.Kind != catalog.KindZOrder || !ix.Bounds || only != nil && ix != only {
			continue
		}
		s := t.ZSchema(ix)
		lo, hi := make([]uint64, len(ix.Columns)), make([]uint64, len(ix.Columns))
		first := true
		for _, row := range rows {
			erow, in, err := ir.IndexRow(t, ix, row)
			if err != nil {
				return err
			}
			if !in {
				continue
			}
			for d := range ix.Columns {
				c := catalog.ZCode(s.Attr(d), t.KeyValue(ix, d, erow))
				if first || c < lo[d] {
					lo[d] = c
				}
				if first || c > hi[d] {
					hi[d] = c
				}
			}
			first = false
		}
		if first {
			continue // no row has an entry
		}
		b, err := catalog.WidenZBounds(ctx, e.Store, ix, s, lo, hi, e.zbounds.get(ix.ID))
		if err != nil {
			return ClassifyError(err)
		}
		e.zbounds.m.Store(ix.ID, b)
	}
	return nil
}
