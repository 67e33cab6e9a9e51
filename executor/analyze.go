package executor

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// Analyze reads every row of each table once, computes its statistics
// (catalog.StatsCollector: exact counts and extremes, a HyperLogLog sketch
// per column, a reservoir sample for the common values and histograms) and
// stores them in one catalog change, which every proxy's next snapshot
// loads. auto marks an automatic analysis (pg_stat_user_tables tells the
// two apart). Rows are read as of the store's current state, outside any
// transaction, as PostgreSQL's ANALYZE reads its own snapshot.
func (e *Executor) Analyze(ctx context.Context, cat *catalog.Catalog, tables []*catalog.Table, auto bool) ([]*catalog.TableStats, error) {
	// Sampling whole tables is bulk work for a store's capacity budget.
	ctx = kv.WithBulkReads(ctx)
	var out []*catalog.TableStats
	for _, t := range tables {
		if t.Virtual != nil {
			continue
		}
		ts, err := e.collectStats(ctx, t, auto)
		if err != nil {
			return nil, err
		}
		out = append(out, ts)
	}
	if len(out) == 0 {
		return nil, nil
	}
	if err := cat.PutStats(ctx, out...); err != nil {
		return nil, ClassifyError(err)
	}
	return out, nil
}

func (e *Executor) collectStats(ctx context.Context, t *catalog.Table, auto bool) (*catalog.TableStats, error) {
	c := catalog.NewStatsCollector(t, 0)
	if err := e.forEachRow(ctx, e.Store, t, func(row []sqltypes.Value) bool { c.Add(row); return true }); err != nil {
		return nil, err
	}
	return c.Finish(auto), nil
}
