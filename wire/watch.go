package wire

import (
	"context"
	"sync"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// clientCheckInterval is how often a running statement checks that its
// client is still connected (PostgreSQL's client_connection_check_interval,
// which zproxy always enables).
const clientCheckInterval = 100 * time.Millisecond

// Why a statement's context was canceled: the context's cause, which is the
// error the client sees (pgerr.IsCancellation errors are replaced by it).
var (
	errCanceledByUser   = pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	errStatementTimeout = pgerr.New(pgerr.QueryCanceled, "canceling statement due to statement timeout")
	// errClientGone is FATAL: there is nobody left to serve.
	errClientGone       = &pgerr.Error{Code: pgerr.ConnectionFailure, Severity: "FATAL", Message: "connection to client lost"}
	errConnectionClosed = &pgerr.Error{Code: pgerr.ConnectionFailure, Severity: "FATAL", Message: "connection closed"}
)

func errAdminShutdown() *pgerr.Error {
	return &pgerr.Error{Code: pgerr.AdminShutdown, Severity: "FATAL", Message: "terminating connection due to administrator command"}
}

// statementError is the error to report for err, which ended a statement
// run under ctx: when the statement failed because ctx was canceled, the
// reason it was canceled (the client's CancelRequest, statement_timeout,
// the client hanging up, shutdown), not the wording of the layer that
// noticed.
func statementError(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && pgerr.IsCancellation(err) {
		if cause := context.Cause(ctx); cause != nil {
			return cause
		}
	}
	return err
}

// statementTimeout returns the session's current statement_timeout.
func (c *conn) statementTimeout() time.Duration {
	var d time.Duration
	_ = c.guard("Session.Limits", func() error { d = c.sess.Limits().StatementTimeout; return nil })
	return d
}

// deadlineAfter returns when a statement starting now times out, or zero.
func (c *conn) deadlineAfter() time.Time {
	if d := c.statementTimeout(); d > 0 {
		return time.Now().Add(d)
	}
	return time.Time{}
}

// beginStatement returns the context of one statement (or message) of the
// simple protocol, or of the extended protocol but Execute, watched until
// the returned function is called; see watch.
func (c *conn) beginStatement(deadline time.Time) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(c.ctx)
	release := c.watch(cancel, deadline)
	return ctx, func() {
		release()
		cancel(nil)
	}
}

// watch puts a running statement, whose context cancel cancels, under
// watch until release is called: a CancelRequest cancels it (57014, user
// request), so does reaching deadline unless it is zero (57014, statement
// timeout), and so does the client hanging up, which is checked every
// clientCheckInterval without consuming what it may have pipelined.
func (c *conn) watch(cancel context.CancelCauseFunc, deadline time.Time) (release func()) {
	c.mu.Lock()
	c.stmtCancel = cancel
	c.mu.Unlock()
	w := &stmtWatch{c: c, cancel: cancel}
	w.mu.Lock()
	if !deadline.IsZero() {
		w.timeout = time.AfterFunc(time.Until(deadline), func() { cancel(errStatementTimeout) })
	}
	if canPeek(c.raw) {
		w.check = time.AfterFunc(clientCheckInterval, w.checkClient)
	}
	w.mu.Unlock()
	return func() {
		w.stop()
		c.mu.Lock()
		c.stmtCancel = nil
		c.mu.Unlock()
	}
}

// stmtWatch holds the timers watching one statement.
type stmtWatch struct {
	c      *conn
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	stopped bool
	timeout *time.Timer
	check   *time.Timer
}

func (w *stmtWatch) checkClient() {
	if clientHungUp(w.c.raw) {
		w.c.log.Debug("the client hung up; canceling its statement")
		w.cancel(errClientGone)
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.stopped {
		w.check.Reset(clientCheckInterval)
	}
}

func (w *stmtWatch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.timeout != nil {
		w.timeout.Stop()
	}
	if w.check != nil {
		w.check.Stop()
	}
}

// cancelStatement cancels the running statement with cause, for a
// CancelRequest aimed at this connection.
func (c *conn) cancelStatement(cause error) {
	c.mu.Lock()
	cancel := c.stmtCancel
	c.mu.Unlock()
	if cancel != nil {
		cancel(cause)
	}
}
