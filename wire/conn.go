package wire

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgenc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// connState tells Shutdown whether a connection may be closed now.
type connState uint8

const (
	stateStartup connState = iota // before ReadyForQuery: close at once
	stateIdle                     // waiting for the next query: close at once
	stateBusy                     // in a query cycle: let it finish
)

// keepSendBuffer is the send buffer a connection keeps between flushes; a
// larger one (a big row) is dropped after it is written. It is well above
// flushThreshold: a streamed result fills the buffer past the threshold by
// the message that crosses it, and append's growth then takes the capacity
// beyond 64 KiB; dropping that buffer at every flush made each 64 KiB sent
// cost a regrowth from nothing (about 256 KiB allocated and 128 KiB copied).
const keepSendBuffer = 4 * flushThreshold

// errQuietClose ends a connection without telling the client anything more
// (it hung up, or a CancelRequest was served).
var errQuietClose = errors.New("wire: connection closed")

// conn is one client connection, served by one goroutine.
type conn struct {
	srv *Server
	raw net.Conn // the accepted socket, watched for a client that hangs up
	nc  net.Conn // raw, or the TLS session over it
	rd  *frontendReader
	log *slog.Logger
	pid uint32

	secret    [4]byte
	encrypted bool // the session runs over TLS
	// starting and slot say whether the connection counts among the
	// startups or the sessions (Server.admit); Server.mu guards them.
	starting bool
	slot     bool

	// ctx lives as long as the connection; forceClose cancels it, which
	// cancels every statement.
	ctx       context.Context
	cancelCtx context.CancelCauseFunc

	// watcher watches the statement under way (watch); endStmt is
	// c.endStatement, bound once.
	watcher stmtWatch
	endStmt func()
	// logged is the command the statement log is told of (command).
	logged LoggedCommand

	// mu guards state and stmtCancel, which Shutdown and CancelRequests on
	// other goroutines look at, and what notify shares (notify.go).
	mu         sync.Mutex
	state      connState
	stmtCancel context.CancelCauseFunc
	// notifications wait for the client; idleStatus is the transaction
	// status of the last ReadyForQuery; idleWaiting says the connection
	// waits for its client in awaitMessage, and notifyWake that notify
	// set a read deadline to wake it.
	notifications []*Notification
	ended         bool // notifications are no longer taken
	idleStatus    byte
	idleWaiting   bool
	notifyWake    bool

	// sendMu lets the session's Notice and ParameterStatus callbacks send
	// from other goroutines.
	sendMu  sync.Mutex
	wbuf    []byte
	pending int // bytes sent since the last flush
	// complete is the CommandComplete the connection's goroutine sends
	// (commandComplete), its tag's bytes kept from one to the next.
	complete pgproto3.CommandComplete

	sess           Session
	user           string
	reg            *Registry // prepared statements and portals
	ignoreTillSync bool
	// implicitOpen: the session's implicit transaction of this cycle is
	// open (beginImplicit); cycleFailed: an error was sent in the cycle,
	// so sendReady rolls it back.
	implicitOpen, cycleFailed bool
	terminate                 bool // a FATAL error was sent: close after flushing
	// killed is set by Server.TerminateBackend, from another goroutine:
	// the connection ends with 57P01 at its next chance.
	killed      atomic.Bool
	readySent   bool       // ReadyForQuery went out: the next read starts a cycle
	idleTimeout pgerr.Code // the read deadline is this idle timeout's (25P03, 57P05); zero: none
	// cmdDeadline is when statement_timeout cancels the extended-protocol
	// command under way: set by its first Parse, Bind, Describe or
	// Execute, cleared when an Execute completes and at Sync (zero: none).
	cmdDeadline time.Time

	// clientEnc is the client's encoding when text must be converted to
	// and from it (encoding.go), nil for UTF8 and SQL_ASCII. Atomic: the
	// session's callbacks may send from other goroutines. encBuf is the
	// scratch space of a value's conversion.
	clientEnc atomic.Pointer[pgenc.Encoding]
	encBuf    []byte

	style sqltypes.Style // the session's output settings while rows are sent
	// rowBuf, rowSpan and rowVals are encodeRow's row (the fast-path
	// call's result); sendDataRow writes a row into wbuf directly.
	rowBuf  []byte
	rowSpan []int
	rowVals [][]byte
}

func newConn(s *Server, nc net.Conn, pid uint32) *conn {
	ctx, cancel := context.WithCancelCause(context.Background())
	c := &conn{
		srv:       s,
		raw:       nc,
		nc:        nc,
		pid:       pid,
		ctx:       ctx,
		cancelCtx: cancel,
		reg:       NewRegistry(ctx),
	}
	c.endStmt = c.endStatement
	c.rd = newFrontendReader(nc, maxAuthMessage)
	c.log = s.log.With("pid", pid, "remote", nc.RemoteAddr().String())
	c.reg.log = c.log
	if _, err := rand.Read(c.secret[:]); err != nil {
		// crypto/rand does not fail on supported platforms; a zero secret
		// would only weaken cancellation, never break a connection.
		c.log.Warn("no random cancel secret", "err", err)
	}
	_ = nc.SetDeadline(time.Now().Add(s.cfg.AuthTimeout))
	return c
}

// serve runs the connection to its end.
func (c *conn) serve() {
	m := c.srv.cfg.Metrics
	m.ConnectionOpened()
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("panic in connection", "panic", pgerr.Redact(fmt.Sprint(r)), "stack", string(debug.Stack()))
		}
		c.closeAll()
		c.cancelCtx(errConnectionClosed)
		c.nc.Close()
		c.dropNotifications()
		m.ConnectionClosed()
		c.srv.removeConn(c)
	}()
	if err := c.startup(); err != nil {
		if !errors.Is(err, errQuietClose) {
			c.log.Debug("startup failed", "err", err)
		}
		return
	}
	if err := c.loop(); err != nil && !errors.Is(err, errQuietClose) {
		c.log.Debug("connection ended", "err", err)
	}
}

// closeAll releases the portals and the session.
func (c *conn) closeAll() {
	c.reg.ClosePortals(nil)
	if c.sess != nil {
		_ = c.guard("Session.Close", func() error { c.sess.Close(); return nil })
		c.sess = nil
	}
}

// wakeIfIdle is Shutdown's request to close the connection once it is not
// in a query cycle: a connection waiting for its client is woken through a
// read deadline; a busy one checks for shutdown before its next wait.
func (c *conn) wakeIfIdle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != stateBusy {
		_ = c.raw.SetReadDeadline(time.Now())
	}
}

// forceClose ends the connection now, canceling its statement.
func (c *conn) forceClose() {
	c.cancelCtx(errAdminShutdown())
	c.raw.Close()
}

// enterIdle marks the connection as waiting for a new query cycle, unless
// the server is shutting down (then it returns false).
func (c *conn) enterIdle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.srv.isClosing() || c.killed.Load() {
		return false
	}
	c.state = stateIdle
	return true
}

func (c *conn) leaveIdle() {
	if c.state != stateBusy { // only this goroutine writes state
		c.mu.Lock()
		c.state = stateBusy
		c.mu.Unlock()
	}
}

// guard runs f, turning a panic into XX000 for the statement at hand so the
// connection survives it.
func (c *conn) guard(what string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			// The log gets the panic's value without its quoted
			// spans and numbers, which may be the statement's constants.
			c.log.Error("panic in statement", "in", what, "panic", pgerr.Redact(fmt.Sprint(r)), "stack", string(debug.Stack()))
			err = pgerr.New(pgerr.InternalError, "internal error in %s: %v", what, r)
		}
	}()
	return f()
}

// send queues a message; flush writes the queue out.
func (c *conn) send(msg pgproto3.BackendMessage) {
	if e := c.clientEncoding(); e != nil {
		msg = convertOut(e, msg)
	}
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	out, err := msg.Encode(c.wbuf)
	if err != nil {
		// Only a field over pgproto3's 1 GiB limit fails to encode; the
		// message is dropped rather than sent half-written.
		c.log.Error("encoding a message", "type", fmt.Sprintf("%T", msg), "err", err)
		return
	}
	c.wbuf = out
}

// commandComplete sends CommandComplete with tag through the connection's
// own message, which send encodes at once: a message and a copy of the tag
// were two allocations every statement. Only the connection's goroutine
// sends it.
func (c *conn) commandComplete(tag string) {
	c.complete.CommandTag = append(c.complete.CommandTag[:0], tag...)
	c.send(&c.complete)
}

func (c *conn) flush() error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	c.pending = 0
	_, err := c.nc.Write(c.wbuf)
	if cap(c.wbuf) > keepSendBuffer {
		c.wbuf = nil
	} else {
		c.wbuf = c.wbuf[:0]
	}
	return err
}

// sendError sends err as an ErrorResponse. This is the one place errors
// become protocol messages.
func (c *conn) sendError(err error) {
	c.cycleFailed = true
	pe := toPgError(err)
	if pe.Internal() {
		// An unclassified error may quote a value of the statement
		// (strconv's `parsing "..."`): the client gets it whole, the
		// log without its quoted spans and numbers.
		c.log.Error("internal error", "err", pgerr.Redact(err.Error()))
	}
	c.srv.cfg.Metrics.Error(pe.Code.String())
	if pe.Severity == "FATAL" || pe.Severity == "PANIC" {
		c.terminate = true
	}
	c.send(errorResponse(pe, ""))
}

// fatal sends a FATAL error and ends the connection.
func (c *conn) fatal(code pgerr.Code, format string, args ...any) error {
	return c.fatalError(pgerr.New(code, format, args...))
}

// fatalError sends pe as FATAL and ends the connection.
func (c *conn) fatalError(pe *pgerr.Error) error {
	c.srv.cfg.Metrics.Error(pe.Code.String())
	c.send(errorResponse(pe, "FATAL"))
	_ = c.flush()
	return fmt.Errorf("%w: FATAL %s %s", errQuietClose, pe.Code, pe.Message)
}

func (c *conn) notice(pe *pgerr.Error) {
	if pe != nil {
		c.send(noticeResponse(pe))
	}
}

func (c *conn) parameterStatus(name, value string) {
	if name == "client_encoding" {
		// The session changed it (SET, RESET, a rollback restoring it):
		// from now on text converts to and from the new encoding, this
		// message's value included, as PostgreSQL's does.
		c.setClientEncoding(value)
	}
	c.send(&pgproto3.ParameterStatus{Name: name, Value: value})
}

// loop serves query cycles until the client leaves or the server shuts
// down.
func (c *conn) loop() error {
	for {
		if c.terminate {
			_ = c.flush()
			return errQuietClose
		}
		if c.readySent {
			c.readySent = false
			// Armed before the connection counts as idle, so that
			// Shutdown's wake-up, which comes after, is not overridden.
			c.armIdleTimeout()
			if !c.enterIdle() {
				return c.fatalError(errAdminShutdown())
			}
		}
		err := c.awaitMessage()
		var msg pgproto3.FrontendMessage
		if err == nil {
			msg, err = c.rd.receive()
		}
		c.leaveIdle()
		idleTimed := c.disarmIdleTimeout()
		if err != nil {
			if err = c.receiveFailed(err, idleTimed); err != nil {
				return err
			}
			continue
		}
		if c.killed.Load() {
			// Terminated while the client's message was on its way: as
			// PostgreSQL's backend, which dies in its read, answer nothing.
			return c.fatalError(errAdminShutdown())
		}
		if c.ignoreTillSync {
			switch msg.(type) {
			case *pgproto3.Sync:
			case *pgproto3.Flush:
				// The error that started the skipping goes out now, as
				// in PostgreSQL: pipelining clients wait for it here.
				if err := c.flush(); err != nil {
					return errQuietClose
				}
				continue
			case *pgproto3.Terminate:
				return nil
			default:
				continue
			}
		}
		if err := c.dispatch(msg); err != nil {
			return err
		}
	}
}

// armIdleTimeout starts idle_in_transaction_session_timeout when the
// session waits for its client inside a transaction block, and
// idle_session_timeout when it waits outside one.
func (c *conn) armIdleTimeout() {
	var status byte
	var limits Limits
	if err := c.guard("Session.Limits", func() error {
		status, limits = c.sess.TxStatus(), c.sess.Limits()
		return nil
	}); err != nil {
		return
	}
	code, after := pgerr.IdleInTransactionSessionTimeout, limits.IdleInTransactionTimeout
	if status == 'I' {
		code, after = pgerr.IdleSessionTimeout, limits.IdleSessionTimeout
	}
	if after <= 0 {
		return
	}
	c.idleTimeout = code
	_ = c.raw.SetReadDeadline(time.Now().Add(after))
}

// disarmIdleTimeout stops the idle timeout and returns which was running
// (the zero Code: none).
func (c *conn) disarmIdleTimeout() pgerr.Code {
	code := c.idleTimeout
	if code == (pgerr.Code{}) {
		return code
	}
	c.idleTimeout = pgerr.Code{}
	_ = c.raw.SetReadDeadline(time.Time{})
	return code
}

// receiveFailed decides what a failed read means: nil when the connection
// goes on (a malformed message whose framing was intact: an ERROR, as in
// PostgreSQL), otherwise the error ending it. idleTimed is the idle
// timeout the read ran under, if any.
func (c *conn) receiveFailed(err error, idleTimed pgerr.Code) error {
	var tooBig *messageTooLargeError
	var framing *framingError
	var malformed *malformedError
	switch {
	case errors.As(err, &malformed):
		if c.ignoreTillSync && malformed.msgType != 'S' {
			return nil // skipped unread, as PostgreSQL skips it
		}
		c.sendError(malformed.err)
		if malformed.msgType == 'Q' || malformed.msgType == 'S' {
			// Outside the extended protocol an error ends the cycle.
			c.ignoreTillSync = false
			return c.sendReady()
		}
		c.ignoreTillSync = true
		return nil
	case errors.As(err, &tooBig):
		return c.fatal(pgerr.ProtocolViolation, "%s", tooBig.Error())
	case errors.As(err, &framing):
		return c.fatalError(framing.err)
	case errors.Is(err, os.ErrDeadlineExceeded) && (c.srv.isClosing() || c.killed.Load()):
		return c.fatalError(errAdminShutdown())
	case errors.Is(err, os.ErrDeadlineExceeded) && idleTimed == pgerr.IdleInTransactionSessionTimeout:
		return c.fatal(pgerr.IdleInTransactionSessionTimeout, "terminating connection due to idle-in-transaction timeout")
	case errors.Is(err, os.ErrDeadlineExceeded) && idleTimed == pgerr.IdleSessionTimeout:
		return c.fatal(pgerr.IdleSessionTimeout, "terminating connection due to idle-session timeout")
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || errors.Is(err, os.ErrDeadlineExceeded) {
		return errQuietClose
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return errQuietClose
	}
	return fmt.Errorf("%w: reading: %v", errQuietClose, err)
}

// dispatch handles one message.
func (c *conn) dispatch(msg pgproto3.FrontendMessage) error {
	if e := c.clientEncoding(); e != nil {
		if err := convertIn(e, msg); err != nil {
			c.sendError(err)
			if _, ok := msg.(*pgproto3.Query); ok {
				return c.sendReady()
			}
			c.ignoreTillSync = true
			c.cmdDeadline = time.Time{}
			return nil
		}
	}
	var err error
	switch m := msg.(type) {
	case *pgproto3.Query:
		c.simpleQuery(m.String)
		return c.sendReady()
	case *pgproto3.Parse:
		err = c.handleParse(m)
	case *pgproto3.Bind:
		err = c.handleBind(m)
	case *pgproto3.Describe:
		err = c.handleDescribe(m)
	case *pgproto3.Execute:
		err = c.handleExecute(m)
	case *pgproto3.Close:
		err = c.handleClose(m)
	case *pgproto3.Sync:
		c.ignoreTillSync = false
		c.cmdDeadline = time.Time{}
		return c.sendReady()
	case *pgproto3.Flush:
		if err := c.flush(); err != nil {
			return errQuietClose
		}
		return nil
	case *pgproto3.Terminate:
		return errQuietClose
	case *pgproto3.FunctionCall:
		c.functionCall(m)
		return c.sendReady()
	case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
		// Outside COPY these are ignored, as the protocol specifies.
		return nil
	default:
		return c.fatal(pgerr.ProtocolViolation, "unexpected message %T", msg)
	}
	if err != nil {
		c.sendError(err)
		c.ignoreTillSync = true
		c.cmdDeadline = time.Time{}
	}
	if c.pending > flushThreshold {
		if err := c.flush(); err != nil {
			return errQuietClose
		}
	}
	return nil
}

// beginImplicit opens the session's implicit transaction for the rest of
// this cycle (ImplicitTransactor), if the session has them and is not in
// a transaction block.
func (c *conn) beginImplicit() {
	it, ok := c.sess.(ImplicitTransactor)
	if !ok || c.implicitOpen {
		return
	}
	_ = c.guard("Session.BeginImplicit", func() error {
		c.implicitOpen = it.BeginImplicit()
		return nil
	})
}

// endImplicit ends the cycle's implicit transaction: committed unless an
// error was sent in the cycle. A failed commit is the cycle's error.
func (c *conn) endImplicit() {
	failed := c.cycleFailed
	c.cycleFailed = false
	if !c.implicitOpen {
		return
	}
	c.implicitOpen = false
	it := c.sess.(ImplicitTransactor)
	if err := c.guard("Session.EndImplicit", func() error { return it.EndImplicit(c.ctx, !failed) }); err != nil {
		c.sendError(err)
		c.cycleFailed = false
	}
}

// pipelined reports whether the client has already sent another message
// of this cycle after the current one, other than Sync or Flush: the
// Execute being handled is one of several before a Sync, which PostgreSQL
// runs in one implicit transaction. Only what is already buffered is
// looked at (never waiting for the client).
func (c *conn) pipelined() bool {
	if c.rd == nil || c.rd.r.Buffered() < 1 {
		return false
	}
	next, err := c.rd.r.Peek(1)
	return err == nil && next[0] != 'S' && next[0] != 'H'
}

// sendReady ends a query cycle: portals die with the implicit transaction,
// then ReadyForQuery goes out with the session's transaction status.
func (c *conn) sendReady() error {
	if c.terminate {
		// A FATAL error ended the session: PostgreSQL's backend exits
		// after it, with no ReadyForQuery.
		return nil
	}
	c.endImplicit()
	status := byte('I')
	if err := c.guard("Session.TxStatus", func() error { status = c.sess.TxStatus(); return nil }); err != nil {
		c.sendError(err)
	}
	if status == 'I' {
		// Outside a transaction block only WITH HOLD cursors live on.
		c.reg.ClosePortals(Cursor.Holdable)
		if err := c.sendNotifications(); err != nil {
			return errQuietClose
		}
	}
	c.mu.Lock()
	c.idleStatus = status
	c.mu.Unlock()
	c.send(&pgproto3.ReadyForQuery{TxStatus: status})
	if err := c.flush(); err != nil {
		return errQuietClose
	}
	c.readySent = true
	return nil
}
