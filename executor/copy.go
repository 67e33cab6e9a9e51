package executor

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/planner"
)

// BulkInsert writes a stream of rows into one table: COPY FROM's insert
// path. Each row is formed as INSERT forms it (the statement's
// column expressions over the copied values: defaults, coercions), checked
// (NOT NULL) and written with its index entries; uniqueness is the store's
// condition on each row put, as for INSERT. The rows are written batch by
// batch into one transaction (kv.Txn), committed by Commit, so either all
// of a COPY's rows are stored or none is: a bad row, a duplicate key or an
// abandoned COPY leaves nothing behind.
//
// Transactions: when the statement runs inside a session's transaction,
// pass that transaction in BulkOptions.Txn and the rows join it (Commit
// then commits nothing: the session's COMMIT does); otherwise BulkInsert
// begins and commits its own.
type BulkInsert struct {
	ex    *Executor
	t     *catalog.Table
	exprs []planner.Expr // one per table column, over the copied values ($n)
	ev    *planner.EvalContext
	txn   kv.Txn
	own   bool // txn was begun here: Commit commits it
	rowID int  // the hidden row id's column, or -1
	stats *kv.Stats
	n     int64
	done  bool
}

// BulkOptions configures a BulkInsert.
type BulkOptions struct {
	// Txn is the transaction the rows join; nil: BulkInsert runs its own.
	Txn kv.Txn
	// Run holds the statement's store statistics (KV) and what built-in
	// functions (defaults) see (Fn).
	Run RunOptions
}

// BulkRowError is an error about one row of a batch given to Add.
type BulkRowError struct {
	Index int
	// Formed says the row was refused as it was formed (NOT NULL, a bad
	// default), before any write; otherwise the store refused it (a
	// duplicate key).
	Formed bool
	Err    error
}

func (e *BulkRowError) Error() string { return e.Err.Error() }

// Unwrap returns the row's error.
func (e *BulkRowError) Unwrap() error { return e.Err }

// NewBulkInsert prepares the rows of plan, an INSERT of one row of
// parameters ($1..$n: the copied columns), for Add. The caller holds
// Gate shared from before it bound the statement until Commit or Rollback,
// as for any write.
func (e *Executor) NewBulkInsert(ctx context.Context, plan *optimizer.Plan, opts BulkOptions) (*BulkInsert, error) {
	ins, ok := plan.Root.(*optimizer.Insert)
	if !ok || ins.OnConflict != nil || ins.Returning != nil {
		return nil, pgerr.New(pgerr.InternalError, "executor: bulk insert needs a plain INSERT plan")
	}
	vals, ok := ins.Source.(*optimizer.Values)
	if !ok || len(vals.Rows) != 1 {
		return nil, pgerr.New(pgerr.InternalError, "executor: bulk insert needs INSERT ... VALUES of one row")
	}
	b := &BulkInsert{ex: e, t: ins.Table, exprs: vals.Rows[0], txn: opts.Txn, rowID: hiddenRowID(ins.Table), stats: opts.Run.KV}
	b.ev = e.newExecCtx(ctx, nil, opts.Run).eval
	if b.txn == nil {
		ts, ok := e.Store.(kv.Transactional)
		if !ok {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY FROM needs a store with transactions")
		}
		txn, err := ts.Begin(ctx, kv.TxnOptions{Stats: opts.Run.KV})
		if err != nil {
			return nil, ClassifyError(err)
		}
		b.txn, b.own = txn, true
	}
	return b, nil
}

// Add forms, checks and writes a batch of rows, each the values of the
// copied columns. An error about one row is a *BulkRowError; after any
// error the BulkInsert is done (Rollback it).
func (b *BulkInsert) Add(ctx context.Context, rows [][]sqltypes.Value) error {
	if b.done {
		return pgerr.New(pgerr.InternalError, "executor: bulk insert is over")
	}
	t := b.t
	full := make([][]sqltypes.Value, len(rows))
	slab := make([]sqltypes.Value, len(rows)*len(b.exprs))
	for i, in := range rows {
		b.ev.Params = in
		row := slab[i*len(b.exprs) : (i+1)*len(b.exprs) : (i+1)*len(b.exprs)]
		for c, x := range b.exprs {
			v, err := x.Eval(b.ev, nil)
			if err == nil {
				v, err = sqltypes.Cast(v, t.Columns[c].Type)
			}
			if err != nil {
				b.done = true
				return &BulkRowError{Index: i, Formed: true, Err: err}
			}
			row[c] = v
		}
		if err := checkRow(t, row); err != nil {
			b.done = true
			return &BulkRowError{Index: i, Formed: true, Err: err}
		}
		full[i] = row
	}
	for attempt := 0; ; attempt++ {
		w := &writeSet{t: t, ops: make([]kv.Op, 0, len(full)*(1+len(t.Indexes))),
			groups: make([]int, 0, len(full)), changes: make([]change, 0, len(full))}
		for _, row := range full {
			w.add(change{new: row})
		}
		err := b.txn.Write(ctx, kv.Batch{Ops: w.ops, Stats: b.stats})
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) {
			if b.rowID >= 0 && attempt < 3 {
				// A random row id met one already taken (rare): draw new
				// ones for the batch, which was not written.
				for _, row := range full {
					row[b.rowID] = sqltypes.NewInt(int64(rand.Uint64() >> 1))
				}
				continue
			}
			b.done = true
			idx := rowOfOp(w, cf.Index)
			return &BulkRowError{Index: idx, Err: finishWrite(t, &conflictError{op: w.ops[cf.Index]})}
		}
		if err != nil {
			b.done = true
			return ClassifyError(err)
		}
		b.n += int64(len(full))
		return nil
	}
}

// rowOfOp is the change (row) an op of w belongs to.
func rowOfOp(w *writeSet, op int) int {
	for i := len(w.groups) - 1; i >= 0; i-- {
		if w.groups[i] <= op {
			return i
		}
	}
	return 0
}

// Commit makes the rows durable, all at once, and returns their number.
func (b *BulkInsert) Commit(ctx context.Context) (int64, error) {
	if b.done {
		return 0, pgerr.New(pgerr.InternalError, "executor: bulk insert is over")
	}
	b.done = true
	if b.own {
		if err := b.txn.Commit(ctx); err != nil {
			return 0, ClassifyError(err)
		}
	}
	return b.n, nil
}

// Rollback abandons the rows (when the BulkInsert runs its own
// transaction; a session's transaction is the session's to roll back).
func (b *BulkInsert) Rollback() {
	b.done = true
	if b.own {
		_ = b.txn.Rollback()
	}
}
