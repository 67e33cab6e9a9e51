package executor

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// scanAggRows computes an Aggregate the optimizer placed inside its scan
// (Aggregate.InScan: no GROUP BY, count/sum/avg/min/max over a static
// scan). The scan decodes each item into one reused row, applies its
// residual filter and hands the row to the aggregates, so no row is
// built, batched or passed up through Next per item; the one output row
// is the aggregates' values.
type scanAggRows struct {
	ec   *execCtx
	node *optimizer.Aggregate
	scan *optimizer.Scan
	mem  *memBudget
	done bool
}

func (ec *execCtx) newScanAgg(x *optimizer.Aggregate) (Rows, error) {
	scan, ok := x.Input.(*optimizer.Scan)
	if !ok || scan.Dynamic {
		// The optimizer marks only aggregates over a static scan.
		return nil, pgerr.New(pgerr.InternalError, "executor: an in-scan aggregate over %T", x.Input)
	}
	if err := scannable(scan.Table); err != nil {
		return nil, err
	}
	return &scanAggRows{ec: ec, node: x, scan: scan, mem: ec.opMem()}, nil
}

func (a *scanAggRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if a.done {
		return nil, false, nil
	}
	a.done = true
	aggs := make([]*aggInstance, len(a.node.Aggs))
	for i := range a.node.Aggs {
		aggs[i] = newInstance(&a.node.Aggs[i], a.mem, a.ec.eval)
	}
	// The scan is not built as a node of its own: its EXPLAIN ANALYZE
	// record (which Close adds the store figures to) is made here, and
	// its rows are those that fed the aggregates.
	st := a.scanStats()
	s := &scanRows{ec: a.ec, node: a.ec.bindResidual(a.scan), statKey: a.scan, sink: func(row []sqltypes.Value) error {
		if st != nil {
			st.Rows++
		}
		for _, in := range aggs {
			if err := in.feed(a.ec.eval, row, a.mem); err != nil {
				return err
			}
		}
		return nil
	}}
	if feed := newScalarFeed(a.scan.Table, catalog.NewRowDecoder(a.scan.Table, s.decodedCols()).Columns(), aggs); feed != nil {
		s.scalarSink = func(sc []kv.Scalar) bool {
			if !feed.feed(sc) {
				return false
			}
			if st != nil {
				st.Rows++
			}
			return true
		}
	}
	err := s.start(ctx)
	for more := true; err == nil && more; {
		// Next returns at the end: every row went to the sink.
		_, more, err = s.Next(ctx)
	}
	s.Close()
	if err != nil {
		return nil, false, err
	}
	out := make([]sqltypes.Value, len(aggs))
	for i, in := range aggs {
		if out[i], err = in.value(); err != nil {
			return nil, false, err
		}
	}
	return out, true, nil
}

// scanStats is the scan's EXPLAIN ANALYZE record, started once more (nil
// without ANALYZE).
func (a *scanAggRows) scanStats() *optimizer.NodeStats {
	if a.ec.stats == nil {
		return nil
	}
	st := a.ec.stats[a.scan]
	if st == nil {
		st = &optimizer.NodeStats{}
		a.ec.stats[a.scan] = st
	}
	st.Loops++
	return st
}

func (a *scanAggRows) Close() {}
