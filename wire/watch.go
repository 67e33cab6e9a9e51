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
	c.watch(cancel, deadline)
	return ctx, c.endStmt
}

// endStatement ends the statement beginStatement began: its watch is
// released and its context canceled. It is a method value bound once per
// connection (conn.endStmt, set by newConn), so a statement allocates no closure for it.
func (c *conn) endStatement() {
	cancel := c.watcher.cancel
	c.release()
	cancel(nil)
}

// watch puts a running statement, whose context cancel cancels, under
// watch until release is called: a CancelRequest cancels it (57014, user
// request), so does reaching deadline unless it is zero (57014, statement
// timeout), and so does the client hanging up, which is checked every
// clientCheckInterval without consuming what it may have pipelined.
//
// One statement runs at a time on a connection, so its watch and timers
// are the connection's own, armed and stopped again for each statement
// rather than made anew (a key lookup's round trip is a few microseconds;
// a timer and its closures per statement showed in its allocations).
func (c *conn) watch(cancel context.CancelCauseFunc, deadline time.Time) {
	c.mu.Lock()
	c.stmtCancel = cancel
	c.mu.Unlock()
	c.watcher.arm(c, cancel, deadline)
}

// release ends the watch of the statement under way.
func (c *conn) release() {
	c.watcher.disarm()
	c.mu.Lock()
	c.stmtCancel = nil
	c.mu.Unlock()
}

// stmtWatch holds the timers watching a connection's running statement.
// A timer's function may already be running when disarm stops it, and
// then runs late, maybe while the next statement is under way: the
// timeout acts only when the current statement's deadline has passed,
// and a late client check is a true check of the current statement.
type stmtWatch struct {
	c *conn

	mu       sync.Mutex
	armed    bool
	cancel   context.CancelCauseFunc
	deadline time.Time
	timeout  *time.Timer
	check    *time.Timer
}

func (w *stmtWatch) arm(c *conn, cancel context.CancelCauseFunc, deadline time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.c, w.armed, w.cancel, w.deadline = c, true, cancel, deadline
	if !deadline.IsZero() {
		if w.timeout == nil {
			w.timeout = time.AfterFunc(time.Until(deadline), w.timedOut)
		} else {
			w.timeout.Reset(time.Until(deadline))
		}
	}
	if canPeek(c.raw) {
		if w.check == nil {
			w.check = time.AfterFunc(clientCheckInterval, w.checkClient)
		} else {
			w.check.Reset(clientCheckInterval)
		}
	}
}

func (w *stmtWatch) disarm() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.armed = false
	if w.timeout != nil {
		w.timeout.Stop()
	}
	if w.check != nil {
		w.check.Stop()
	}
}

// current returns the cancel function of the statement under watch, nil
// when none is.
func (w *stmtWatch) current() context.CancelCauseFunc {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.armed {
		return nil
	}
	return w.cancel
}

func (w *stmtWatch) timedOut() {
	w.mu.Lock()
	cancel := w.cancel
	due := w.armed && !w.deadline.IsZero() && !time.Now().Before(w.deadline)
	w.mu.Unlock()
	if due {
		cancel(errStatementTimeout)
	}
}

func (w *stmtWatch) checkClient() {
	// The connection is read under the lock as arm writes it: a late check
	// can run while the next statement arms the watch.
	w.mu.Lock()
	c, cancel := w.c, w.cancel
	if !w.armed {
		cancel = nil
	}
	w.mu.Unlock()
	if cancel == nil {
		return
	}
	if clientHungUp(c.raw) {
		c.log.Debug("the client hung up; canceling its statement")
		cancel(errClientGone)
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.armed {
		w.check.Reset(clientCheckInterval)
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
