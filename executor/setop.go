package executor

import (
	"context"

	"github.com/zproxy/zproxy/executor/spill"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
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
	if n.Op == ir.Union && n.All {
		return &appendRows{inputs: []Rows{l, r}}, nil
	}
	if n.Op == ir.Union {
		// UNION is DISTINCT over UNION ALL (which spills: distinctspill.go),
		// reading both operands whole before its first row, as
		// PostgreSQL's does.
		return &distinctRows{in: &appendRows{inputs: []Rows{l, r}}, ec: ec, node: n, seen: newRowSet(ec.opMem()), whole: true}, nil
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
	st := ec.ctes.shared[n.CTE.ID]
	if st == nil {
		st = &cteState{mem: ec.opMem()}
		ec.ctes.set(&ec.ctes.shared, n.CTE.ID, st)
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
// none (without ALL, rows already produced do not count). Rows stream out
// as they are made, as from PostgreSQL's WorkTable: only the round being
// read (the work table) and the round being made are kept, each spilling
// past work_mem like a shared WITH query; the set of rows seen, which
// UNION without ALL needs, stays in memory.
type recursiveRows struct {
	ec      *execCtx
	node    *optimizer.RecursiveUnion
	started bool
	done    bool
	rounds  int
	seen    *rowSet
	// cur reads the round being made into next; work is the previous
	// round, which cur's work table scan reads.
	cur        Rows
	next, work *cteState
}

func (r *recursiveRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !r.started {
		r.started = true
		if !r.node.All {
			r.seen = newRowSet(r.ec.mem)
		}
		in, err := r.ec.build(ctx, r.node.Anchor)
		if err != nil {
			return nil, false, err
		}
		r.cur, r.next = in, &cteState{mem: r.ec.opMem()}
	}
	for !r.done {
		row, ok, err := r.cur.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if ok {
			if r.seen != nil {
				_, fresh, err := r.seen.add(row)
				if err != nil {
					return nil, false, err
				}
				if !fresh {
					continue
				}
			}
			kept := copyRow(row)
			if err := r.next.add(r.ec, kept); err != nil {
				return nil, false, err
			}
			return kept, true, nil
		}
		if err := r.nextRound(ctx); err != nil {
			return nil, false, err
		}
	}
	return nil, false, nil
}

// nextRound ends the round cur has made: that round becomes the work
// table and the recursive term starts over it, or, when the round added
// nothing, the query is done.
func (r *recursiveRows) nextRound(ctx context.Context) error {
	r.cur.Close()
	r.cur = emptyRows{}
	if r.work != nil {
		r.work.release()
	}
	r.work, r.next = r.next, nil
	if r.work.run != nil {
		if err := r.work.run.Finish(); err != nil {
			return err
		}
		r.ec.spilled(r.node, r.work.run.Len(), r.work.run.Bytes())
	}
	if r.work.len() == 0 {
		r.done = true
		return nil
	}
	if r.rounds++; r.rounds > maxRecursion {
		return pgerr.New(pgerr.ProgramLimitExceeded, "recursive query ran more than %d rounds", maxRecursion)
	}
	r.ec.ctes.set(&r.ec.ctes.work, r.node.ID, r.work)
	in, err := r.ec.build(ctx, r.node.Recursive)
	if err != nil {
		return err
	}
	r.cur, r.next = in, &cteState{mem: r.ec.opMem()}
	return nil
}

func (r *recursiveRows) Close() {
	if r.cur != nil {
		r.cur.Close()
	}
	for _, st := range []*cteState{r.work, r.next} {
		if st != nil {
			st.release()
		}
	}
	delete(r.ec.ctes.work, r.node.ID)
}

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
		ec.ctes.set(&ec.ctes.shared, w.ID, &cteState{rows: res.Returning, done: true})
	}
	return nil
}
