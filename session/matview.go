package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/wire"
)

func init() {
	runs((*statement).runRefreshMatview)
}

// runRefreshMatview runs REFRESH MATERIALIZED VIEW as one transaction:
// the block's, or its own outside a block. The view moves to fresh store
// partitions (executor.RefreshMatview) and its query's rows are written
// into them through the transaction, so that other sessions see the old
// rows until the commit and the new ones after it. CONCURRENTLY, which in
// PostgreSQL lets reads go on during the refresh, changes nothing here:
// reads always go on, reading the old rows.
func (st *statement) runRefreshMatview(ctx context.Context, x *ir.RefreshMatview, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := s.engine
	txn := env.txn
	own := txn == nil
	if own {
		var err error
		if txn, err = e.exec.Begin(ctx, false, nil); err != nil {
			return nil, storeErr(err)
		}
		txn.SetMemAccount(s.mem)
		defer txn.Rollback()
		ctx = executor.InBlock(ctx, txn)
	}
	cat, err := txn.SchemaCatalog(ctx, e.catalog)
	if err != nil {
		return nil, storeErr(err)
	}
	if !own {
		s.blockDDL = true // ROLLBACK undoes it
	}
	fresh, err := e.exec.RefreshMatview(ctx, cat, x.Table.Name, !x.NoData)
	if err != nil {
		return nil, storeErr(err)
	}
	if x.Insert != nil {
		if err := st.refill(ctx, x, fresh, txn, env); err != nil {
			return nil, err
		}
	}
	if own {
		if err := st.commitOwn(ctx, txn); err != nil {
			return nil, err
		}
	}
	return tagResult("REFRESH MATERIALIZED VIEW"), nil
}

// refill writes the view's query's rows into its fresh partitions through
// txn, under the write gate as every write.
func (st *statement) refill(ctx context.Context, x *ir.RefreshMatview, fresh *catalog.Table, txn *executor.Txn, env *runEnv) error {
	e := st.sess.engine
	e.exec.Gate.RLock()
	defer e.exec.Gate.RUnlock()
	ins := *x.Insert // the bound statement is cached: its table is the one as of binding
	ins.Table = fresh
	plan, err := st.optimize(&ins, env.params, env.opts)
	if err != nil {
		return err
	}
	st.sendNotices(plan)
	stats := &kv.Stats{}
	res, err := e.exec.Write(ctx, plan, env.params, executor.RunOptions{KV: stats, WorkMem: st.sess.workMem(), TempFileLimit: st.sess.tempFileLimit(), Fn: env.opts.Fn, Txn: txn})
	if err != nil {
		return storeErr(err)
	}
	env.done("", plan, stats, 0, res.Count)
	e.noteWrites(fresh, res.Count, false)
	return nil
}

// commitOwn commits a transaction a statement opened for itself, then
// finishes what its schema change left to after the commit (a failure of
// which is a WARNING: the statement's change is committed).
func (st *statement) commitOwn(ctx context.Context, txn *executor.Txn) error {
	s := st.sess
	e := s.engine
	e.exec.Gate.RLock()
	snap, err := e.catalog.Snapshot(ctx)
	if err == nil {
		err = txn.Commit(ctx, snap)
	}
	e.exec.Gate.RUnlock()
	if err != nil {
		return storeErr(err)
	}
	txn.Finish(context.WithoutCancel(ctx), func(err error) {
		e.cfg.Logger.Warn("finishing a refresh", "err", err)
		s.notice(&pgerr.Error{Code: pgerr.Warning, Severity: "WARNING", Message: err.Error()})
	})
	return nil
}
