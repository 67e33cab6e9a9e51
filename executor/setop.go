package executor

import (
	"context"

	"github.com/zproxy/zproxy/executor/spill"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/planner"
)

func (ec *execCtx) newSetOp(ctx context.Context, n *optimizer.SetOp) (Rows, error) {
	l, err := ec.build(ctx, n.Left)
	if err != nil {
		return nil, err
	}
	r, err := ec.build(ctx, n.Right)
	if err != nil {
		l.Close()
		return nil, err
	}
	if n.Op == planner.Union && n.All {
		return &appendRows{inputs: []Rows{l, r}}, nil
	}
	if n.Op == planner.Union {
		// UNION is DISTINCT over UNION ALL (which spills: distinctspill.go).
		return &distinctRows{in: &appendRows{inputs: []Rows{l, r}}, ec: ec, node: n, seen: newRowSet(ec.opMem())}, nil
	}
	return &setOpRows{ec: ec, mem: ec.opMem(), node: n, left: l, right: r}, nil
}

// appendRows yields its inputs one after the other (UNION ALL).
type appendRows struct {
	inputs []Rows
	cur    int
}

func (a *appendRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for a.cur < len(a.inputs) {
		row, ok, err := a.inputs[a.cur].Next(ctx)
		if err != nil || ok {
			return row, ok, err
		}
		a.cur++
	}
	return nil, false, nil
}

func (a *appendRows) Close() {
	for _, in := range a.inputs {
		in.Close()
	}
}

func drain(ctx context.Context, r Rows, fn func([]sqltypes.Value) error) error {
	for n := 1; ; n++ {
		row, ok, err := r.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if n%cancelCheckEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if err := fn(row); err != nil {
			return err
		}
	}
}

// cteState holds the rows of a shared WITH query once computed, in memory
// or, past work_mem, in a spill run (ctespill.go).
type cteState struct {
	rows [][]sqltypes.Value
	done bool
	mem  *memBudget
	held int64
	run  *spill.Run
}

func (ec *execCtx) newCTEScan(ctx context.Context, n *optimizer.CTEScan) (Rows, error) {
	if !n.CTE.Shared {
		return ec.build(ctx, n.CTE.Plan)
	}
	st := ec.ctes[n.CTE.ID]
	if st == nil {
		st = &cteState{mem: ec.opMem()}
		ec.ctes[n.CTE.ID] = st
	}
	if !st.done {
		in, err := ec.build(ctx, n.CTE.Plan)
		if err != nil {
			return nil, err
		}
		err = drain(ctx, in, func(row []sqltypes.Value) error { return st.add(ec, copyRow(row)) })
		in.Close()
		if err == nil && st.run != nil {
			if err = st.run.Finish(); err == nil {
				ec.spilled(n, st.run.Len(), st.run.Bytes())
			}
		}
		if err != nil {
			return nil, err
		}
		st.done = true
	}
	return st.scan()
}

// maxRecursion bounds the rounds of a recursive CTE; PostgreSQL has no
// bound, but a runaway query there runs until canceled, and a bound with a
// clear error is kinder to a proxy shared by many clients.
const maxRecursion = 1_000_000

// recursiveRows computes WITH RECURSIVE: the anchor's rows, then rounds of
// the recursive term over the previous round's rows until a round adds
// none (without ALL, rows already produced do not count).
type recursiveRows struct {
	ec   *execCtx
	node *optimizer.RecursiveUnion
	out  [][]sqltypes.Value
	pos  int
	done bool
}

func (r *recursiveRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !r.done {
		r.done = true
		if err := r.compute(ctx); err != nil {
			return nil, false, err
		}
	}
	if r.pos >= len(r.out) {
		return nil, false, nil
	}
	r.pos++
	return r.out[r.pos-1], true, nil
}

func (r *recursiveRows) compute(ctx context.Context) error {
	var seen *rowSet
	if !r.node.All {
		seen = newRowSet(r.ec.mem)
	}
	collect := func(in Rows) ([][]sqltypes.Value, error) {
		var round [][]sqltypes.Value
		err := drain(ctx, in, func(row []sqltypes.Value) error {
			if seen != nil {
				_, fresh, err := seen.add(row)
				if err != nil || !fresh {
					return err
				}
			}
			kept := copyRow(row)
			if err := r.ec.mem.grow(rowSize(kept)); err != nil {
				return err
			}
			round = append(round, kept)
			return nil
		})
		in.Close()
		return round, err
	}
	in, err := r.ec.build(ctx, r.node.Anchor)
	if err != nil {
		return err
	}
	round, err := collect(in)
	if err != nil {
		return err
	}
	for i := 0; len(round) > 0; i++ {
		if i == maxRecursion {
			return pgerr.New(pgerr.ProgramLimitExceeded, "recursive query ran more than %d rounds", maxRecursion)
		}
		r.out = append(r.out, round...)
		r.ec.work[r.node.ID] = round
		in, err := r.ec.build(ctx, r.node.Recursive)
		if err != nil {
			return err
		}
		if round, err = collect(in); err != nil {
			return err
		}
	}
	delete(r.ec.work, r.node.ID)
	return nil
}

func (r *recursiveRows) Close() {}

// runWrites runs a statement's data-modifying WITH queries, once each, in
// order, and keeps the rows each returned for the statement's CTE Scans.
func (ec *execCtx) runWrites(ctx context.Context, writes []*optimizer.CTEWrite, opts RunOptions) error {
	for _, w := range writes {
		res, err := ec.write(ctx, w.Plan, opts)
		if err != nil {
			return err
		}
		for _, r := range res.Returning {
			if err := ec.mem.grow(rowSize(r)); err != nil {
				return err
			}
		}
		ec.ctes[w.ID] = &cteState{rows: res.Returning, done: true}
	}
	return nil
}
