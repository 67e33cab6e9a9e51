package optimizer

import "github.com/zproxy/zproxy/ir"

// inScanAggregate reports whether agg can be computed inside the scan it
// reads: no GROUP BY, an input that is a plain scan without a limit (a
// sink counts no rows against one) read on one goroutine (one shard, or a
// store whose reads are in-process calls), and only
// count, sum, avg, min and max without DISTINCT or an ORDER BY. Then each
// item the scan decodes feeds the aggregates directly from one reused row
// buffer, and no row is built, batched or handed over per item.
func inScanAggregate(agg *Aggregate, opts Options) bool {
	if len(agg.GroupBy) > 0 || agg.GroupingSets != nil {
		return false
	}
	s, ok := agg.Input.(*Scan)
	if !ok || s.Dynamic || s.Lock != ir.LockNone || s.Method == PointGet || s.Method == InvertedScan || s.Method == ZOrderNearest || s.Method == XZNearest || s.Limit > 0 {
		return false
	}
	if len(s.Shards) > 1 && !opts.Caps.CheapSeek {
		// Shards read in parallel hand over rows from their goroutines.
		return false
	}
	for _, a := range agg.Aggs {
		switch a.Func {
		case ir.AggCountStar, ir.AggCount, ir.AggSum, ir.AggAvg, ir.AggMin, ir.AggMax:
		default:
			return false
		}
		if a.Distinct || len(a.OrderBy) > 0 {
			return false
		}
	}
	return true
}
