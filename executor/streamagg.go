package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
)

// streamAggRows aggregates an input whose groups arrive as runs of
// consecutive rows (optimizer.Aggregate.StreamOrder): it keeps one group
// at a time and emits it when the next begins, so it holds no hash table
// and a LIMIT above it stops the scan early.
type streamAggRows struct {
	in   Rows
	node *optimizer.Aggregate
	ec   *execCtx
	cur  *group
	mem  *memBudget // the current group's DISTINCT and ORDER BY rows
	key  []sqltypes.Value
	n    int
	done bool
}

func newStreamAgg(in Rows, node *optimizer.Aggregate, ec *execCtx) *streamAggRows {
	return &streamAggRows{in: in, node: node, ec: ec, key: make([]sqltypes.Value, len(node.GroupBy))}
}

// startGroup begins a group. Its aggregates charge a budget of their own
// that starts where the statement's stands, so a group may use what the
// statement has left, and what it used is returned when it ends.
func (a *streamAggRows) startGroup(key []sqltypes.Value) {
	a.ec.mem.mu.Lock()
	a.mem = &memBudget{used: a.ec.mem.used, limit: a.ec.mem.limit}
	a.ec.mem.mu.Unlock()
	a.cur = &group{key: copyRow(key), aggs: make([]*aggInstance, len(a.node.Aggs))}
	for i := range a.node.Aggs {
		a.cur.aggs[i] = newInstance(&a.node.Aggs[i], a.mem, a.ec.eval)
	}
}

func (a *streamAggRows) finish() ([]sqltypes.Value, error) {
	out := append(copyRow(a.cur.key), make([]sqltypes.Value, len(a.node.Aggs))...)
	for i, in := range a.cur.aggs {
		v, err := in.value()
		if err != nil {
			return nil, err
		}
		out[len(a.cur.key)+i] = v
	}
	a.cur = nil
	return out, nil
}

func (a *streamAggRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for !a.done {
		row, ok, err := a.in.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			a.done = true
			if a.cur == nil {
				return nil, false, nil
			}
			out, err := a.finish()
			return out, err == nil, err
		}
		if a.n++; a.n%cancelCheckEvery == 0 && ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		for i, g := range a.node.GroupBy {
			if a.key[i], err = g.Eval(a.ec.eval, row); err != nil {
				return nil, false, err
			}
		}
		var out []sqltypes.Value
		if a.cur != nil && !rowsEqual(a.cur.key, a.key) {
			if out, err = a.finish(); err != nil {
				return nil, false, err
			}
		}
		if a.cur == nil {
			a.startGroup(a.key)
		}
		for _, in := range a.cur.aggs {
			if err := in.feed(a.ec.eval, row, a.mem); err != nil {
				return nil, false, err
			}
		}
		if out != nil {
			return out, true, nil
		}
	}
	return nil, false, nil
}

func (a *streamAggRows) Close() { a.in.Close() }
