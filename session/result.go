package session

import (
	"context"
	"fmt"
	"strconv"

	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/wire"
)

var (
	_ wire.Result    = (*rowsResult)(nil)
	_ wire.Result    = (*memResult)(nil)
	_ wire.Statement = (*statement)(nil)
)

// rowsResult streams the rows of a running plan.
type rowsResult struct {
	cols    []wire.Column
	rows    executor.Rows
	visible int
	n       int64
	ended   bool
	onDone  func(n int64)
	// onError is told when reading a row fails: the statement failed,
	// however far it got, and its transaction block with it.
	onError func()
	// A query's stream (runQuery) records its statement when it ends
	// (env.done with plan and stats) and fails failSess's block on an
	// error: fields, not closures, as a key lookup makes one per
	// execution.
	env      *runEnv
	plan     *optimizer.Plan
	stats    *kv.Stats
	failSess *Session
	// active, set by Execute, is the session whose pg_stat_activity row
	// shows the statement running until the rows end; then its
	// transaction, when not in a block, is done (activeCtx).
	active    *Session
	activeCtx context.Context
}

func (r *rowsResult) Columns() []wire.Column { return r.cols }

func (r *rowsResult) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if r.ended {
		return nil, false, nil
	}
	row, ok, err := r.rows.Next(ctx)
	if err != nil {
		r.finish()
		r.failed()
		return nil, false, storeErr(err)
	}
	if !ok {
		r.finish()
		return nil, false, nil
	}
	r.n++
	return row[:r.visible], true, nil
}

// push hands the rows to fn from the executor (executor.Pusher) rather
// than through Next, and reports whether it did: not when the plan is not
// one the executor pushes, or Next was called first. An error of the
// reading ends the statement as Next's does; one of fn's is returned as
// it is, and Close ends the statement, as after a row Next returned.
func (r *rowsResult) push(ctx context.Context, fn func(row []sqltypes.Value) error) (bool, error) {
	p, ok := r.rows.(executor.Pusher)
	if r.ended || !ok {
		return false, nil
	}
	var fnErr error
	visible := r.visible
	pushed, err := p.Push(ctx, func(row []sqltypes.Value) error {
		r.n++
		if err := fn(row[:visible]); err != nil {
			fnErr = err
			return err
		}
		return nil
	})
	switch {
	case !pushed:
		return false, nil
	case err != nil && err == fnErr:
		return true, err
	case err != nil:
		r.finish()
		r.failed()
		return true, storeErr(err)
	}
	r.finish()
	return true, nil
}

func (r *rowsResult) finish() {
	if !r.ended {
		r.ended = true
		r.rows.Close()
		if s := r.active; s != nil {
			s.engine.cat.idle(s)
		}
		if r.onDone != nil {
			r.onDone(r.n)
		}
		if r.env != nil {
			r.env.done(r.plan, r.stats, r.n, r.n)
		}
		if s := r.active; s != nil && s.txStatus == 'I' {
			s.transactionDone(r.activeCtx)
		}
	}
}

// failed tells the statement's owners that reading a row failed.
func (r *rowsResult) failed() {
	if r.onError != nil {
		r.onError()
	}
	if r.failSess != nil {
		r.failSess.failBlock()
	}
}

func (r *rowsResult) Tag() string { return "SELECT " + strconv.FormatInt(r.n, 10) }

func (r *rowsResult) Close() error {
	r.finish()
	return nil
}

// memResult returns rows held in memory (SHOW, EXPLAIN, CHECK) or none.
type memResult struct {
	recorded bool // the statement's metrics are already recorded
	cols     []wire.Column
	rows     [][]sqltypes.Value
	pos      int
	tag      string
	// closeErr is the error that follows the result (Close): a deferred
	// constraint's failure at the statement's commit.
	closeErr error
}

func staticResult(cols []wire.Column, rows [][]sqltypes.Value, tag string) *memResult {
	return &memResult{cols: cols, rows: rows, tag: tag}
}

func tagResult(tag string) *memResult { return &memResult{tag: tag} }

func (m *memResult) Columns() []wire.Column { return m.cols }

func (m *memResult) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if m.pos >= len(m.rows) {
		return nil, false, nil
	}
	m.pos++
	return m.rows[m.pos-1], true, nil
}

func (m *memResult) Tag() string {
	// PostgreSQL tags SHOW and EXPLAIN with their own names, no count;
	// zproxy's CHECK TABLE reads as a query.
	if m.tag == "CHECK TABLE" {
		return fmt.Sprintf("SELECT %d", len(m.rows))
	}
	return m.tag
}

func (m *memResult) Close() error { return m.closeErr }
