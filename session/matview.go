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

// runRefreshMatview runs REFRESH MATERIALIZED VIEW in the block's
// transaction: outside a block it gets one of its own (needsTransaction).
// The view moves to fresh store partitions (executor.RefreshMatview) and
// its query's rows are written into them through the transaction, so that
// other sessions see the old rows until the commit and the new ones after
// it. CONCURRENTLY, which in PostgreSQL lets reads go on during the
// refresh, changes nothing here: reads always go on, reading the old rows.
func (st *statement) runRefreshMatview(ctx context.Context, x *ir.RefreshMatview, env *runEnv) (wire.Result, error) {
	s := st.sess
	if env.txn == nil {
		return nil, pgerr.New(pgerr.InternalError, "REFRESH MATERIALIZED VIEW outside a transaction")
	}
	cat, err := s.permCatalog(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	fresh, err := s.engine.exec.RefreshMatview(ctx, cat, x.Table.Name, !x.NoData)
	if err != nil {
		return nil, storeErr(err)
	}
	if x.Insert != nil {
		if err := st.refill(ctx, x, fresh, env); err != nil {
			return nil, err
		}
	}
	return tagResult("REFRESH MATERIALIZED VIEW"), nil
}

// refill writes the view's query's rows into its fresh partitions through
// the block's transaction, under the write gate as every write.
func (st *statement) refill(ctx context.Context, x *ir.RefreshMatview, fresh *catalog.Table, env *runEnv) error {
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
	res, err := e.exec.Write(ctx, plan, env.params, executor.RunOptions{KV: stats, WorkMem: st.sess.workMem(), TempFileLimit: st.sess.tempFileLimit(), Fn: env.opts.Fn, Txn: env.txn})
	if err != nil {
		return storeErr(err)
	}
	env.done(plan, stats, 0, res.Count)
	e.noteWrites(fresh, res.Count, false)
	return nil
}
