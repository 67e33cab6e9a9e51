package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// Pushing a bare scan's rows. COPY t TO STDOUT (and COPY (SELECT cols
// FROM t) TO) reads every row of one table and hands each to the
// connection, which encodes it at once and is done with it. Pulled through
// Next, each row is decoded into a slab row of its own, gathered in a
// batch and passed up through the operators' Next one interface call at a
// time; pushed, each stored item is decoded into the scan's one scratch row
// (its sink, as an in-scan aggregate reads) and handed to the consumer's
// callback there and then. The scan is the one Next would have read
// (snapshot, transaction, residual filter, cancellation every
// cancelCheckEvery items, store statistics), so only the hand-over
// differs.

// Pusher is implemented by the Rows Run returns: Push hands every row to
// fn in turn instead of Next returning them. The row, and its values'
// strings (which may be the store's memory), are valid only until fn
// returns. pushed is false when the plan is not one Push serves (or
// RunOptions.Push was not set, or Next was called first): nothing was
// read, and Next serves the rows. An error from fn ends the push and is
// returned as it is.
type Pusher interface {
	Push(ctx context.Context, fn func(row []sqltypes.Value) error) (pushed bool, err error)
}

// pushRows is a plan Push can serve, opened only when one of Next or Push
// is first called: Push reads its scan with a sink, Next builds the plan
// as Run would have.
type pushRows struct {
	ec *execCtx
	// ctx is Run's, which the plan is built with for Next.
	ctx  context.Context
	root optimizer.Node
	scan *optimizer.Scan
	// cols are the table columns of the output row, in order (the
	// projection of plain column references above the scan); nil: the
	// scan's row as it is.
	cols []int
	in   Rows // the plan, opened by Next
	used bool // Push or Next has been called
}

// pushable reports whether Push serves root: a static full or range scan
// of a table (no index, lookup, limit, lock, merge of shards in key order,
// or partition choice), or such a scan under a projection of its columns.
// A residual filter is applied to each row as on the pulled path.
func pushable(root optimizer.Node) (*optimizer.Scan, []int, bool) {
	var cols []int
	if p, ok := root.(*optimizer.Project); ok {
		cols = make([]int, len(p.Exprs))
		for i, e := range p.Exprs {
			c, ok := e.(*ir.ColRef)
			if !ok {
				return nil, nil, false
			}
			cols[i] = c.Index
		}
		root = p.Input
	}
	s, ok := root.(*optimizer.Scan)
	if !ok || s.Dynamic || s.Index != nil || s.Lookup || s.Limit > 0 || s.TopN != nil || len(s.SortKeys) > 0 ||
		s.Lock != ir.LockNone || s.Partitions != nil || ((s.Ordered || s.InsertionOrder) && len(s.Shards) > 1) {
		return nil, nil, false
	}
	if s.Method != optimizer.FullScan && s.Method != optimizer.RangeScan {
		return nil, nil, false
	}
	for _, c := range cols {
		if c < 0 || c >= len(s.Table.Columns) {
			return nil, nil, false
		}
	}
	return s, cols, true
}

func (p *pushRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if p.in == nil {
		if p.used {
			return nil, false, nil // pushed already
		}
		p.used = true
		in, err := p.ec.build(p.ctx, p.root)
		if err != nil {
			return nil, false, err
		}
		p.in = in
	}
	return p.in.Next(ctx)
}

func (p *pushRows) Close() {
	if p.in != nil {
		p.in.Close()
	}
}

// push reads the scan into fn, each item decoded into the stream's one
// scratch row.
func (p *pushRows) push(ctx context.Context, fn func(row []sqltypes.Value) error) (bool, error) {
	if p.used {
		return false, nil
	}
	p.used = true
	if err := scannable(p.scan.Table); err != nil {
		return true, err
	}
	sink := fn
	if p.cols != nil {
		out := make([]sqltypes.Value, len(p.cols))
		cols := p.cols
		sink = func(row []sqltypes.Value) error {
			for i, c := range cols {
				out[i] = row[c]
			}
			return fn(out)
		}
	}
	// The consumer is done with each row when fn returns (Pusher).
	s := &scanRows{ec: p.ec, node: p.scan, statKey: p.scan, sink: sink, sinkAliases: true}
	err := s.start(ctx)
	for more := true; err == nil && more; {
		// Next returns at the end: every row went to the sink.
		_, more, err = s.Next(ctx)
	}
	s.Close()
	return true, err
}

// Push implements Pusher.
func (s *statementRows) Push(ctx context.Context, fn func(row []sqltypes.Value) error) (bool, error) {
	p, ok := s.Rows.(*pushRows)
	if !ok {
		return false, nil
	}
	return p.push(ctx, fn)
}
