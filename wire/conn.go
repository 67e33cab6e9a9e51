package wire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Request codes of the startup packets that are not a StartupMessage.
const (
	sslRequestCode    = 80877103
	gssEncRequestCode = 80877104
	cancelRequestCode = 80877102
	maxStartupPacket  = 10000 // MAX_STARTUP_PACKET_LENGTH in PostgreSQL
)

// connState tells Shutdown whether a connection may be closed now.
type connState uint8

const (
	stateStartup connState = iota // before ReadyForQuery: close at once
	stateIdle                     // waiting for the next query: close at once
	stateBusy                     // in a query cycle: let it finish
)

// errQuietClose ends a connection without telling the client anything more
// (it hung up, or a CancelRequest was served).
var errQuietClose = errors.New("wire: connection closed")

// conn is one client connection, served by one goroutine.
type conn struct {
	srv    *Server
	nc     net.Conn
	be     *pgproto3.Backend
	log    *slog.Logger
	pid    uint32
	secret [4]byte

	// ctx lives as long as the connection; forceClose cancels it, which
	// cancels every statement.
	ctx       context.Context
	cancelCtx context.CancelFunc

	// mu guards state and stmtCancel, which Shutdown and CancelRequests on
	// other goroutines look at.
	mu         sync.Mutex
	state      connState
	stmtCancel context.CancelFunc

	// sendMu lets the session's Notice and ParameterStatus callbacks send
	// from other goroutines.
	sendMu  sync.Mutex
	pending int // bytes sent since the last flush

	sess           Session
	user           string
	stmts          map[string]*prepared
	portals        map[string]*portal
	ignoreTillSync bool
	terminate      bool // a FATAL error was sent: close after flushing
	readySent      bool // ReadyForQuery went out: the next read starts a cycle

	rowBuf  []byte
	rowSpan []int
	rowVals [][]byte
}

func newConn(s *Server, nc net.Conn, pid uint32) *conn {
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{
		srv:       s,
		nc:        nc,
		be:        pgproto3.NewBackend(nc, nc),
		pid:       pid,
		ctx:       ctx,
		cancelCtx: cancel,
		stmts:     map[string]*prepared{},
		portals:   map[string]*portal{},
	}
	c.log = s.log.With("pid", pid, "remote", nc.RemoteAddr().String())
	if _, err := rand.Read(c.secret[:]); err != nil {
		// crypto/rand does not fail on supported platforms; a zero secret
		// would only weaken cancellation, never break a connection.
		c.log.Warn("no random cancel secret", "err", err)
	}
	c.be.SetMaxBodyLen(s.cfg.MaxMessageSize)
	_ = nc.SetDeadline(time.Now().Add(s.cfg.AuthTimeout))
	return c
}

// serve runs the connection to its end.
func (c *conn) serve() {
	m := c.srv.cfg.Metrics
	m.ConnectionOpened()
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("panic in connection", "panic", r, "stack", string(debug.Stack()))
		}
		c.closeAll()
		c.cancelCtx()
		c.nc.Close()
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
	for name, p := range c.portals {
		c.closePortal(p)
		delete(c.portals, name)
	}
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
		_ = c.nc.SetReadDeadline(time.Now())
	}
}

// forceClose ends the connection now, canceling its statement.
func (c *conn) forceClose() {
	c.cancelCtx()
	c.nc.Close()
}

// enterIdle marks the connection as waiting for a new query cycle, unless
// the server is shutting down (then it returns false).
func (c *conn) enterIdle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.srv.isClosing() {
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

// beginStatement returns the context of one statement (or message) and
// registers its cancel function for CancelRequest. parent is the
// connection's context or a portal's.
func (c *conn) beginStatement(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	release := c.watchCancel(cancel)
	return ctx, func() {
		release()
		cancel()
	}
}

// watchCancel makes cancel the target of CancelRequests until the returned
// release is called.
func (c *conn) watchCancel(cancel context.CancelFunc) (release func()) {
	c.mu.Lock()
	c.stmtCancel = cancel
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		c.stmtCancel = nil
		c.mu.Unlock()
	}
}

// cancelStatement serves a CancelRequest aimed at this connection.
func (c *conn) cancelStatement() {
	c.mu.Lock()
	cancel := c.stmtCancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// guard runs f, turning a panic into XX000 for the statement at hand so the
// connection survives it.
func (c *conn) guard(what string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("panic in statement", "in", what, "panic", r, "stack", string(debug.Stack()))
			err = pgerr.New(pgerr.InternalError, "internal error in %s: %v", what, r)
		}
	}()
	return f()
}

func (c *conn) send(msg pgproto3.BackendMessage) {
	c.sendMu.Lock()
	c.be.Send(msg)
	c.sendMu.Unlock()
}

func (c *conn) flush() error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	c.pending = 0
	return c.be.Flush()
}

// sendError sends err as an ErrorResponse. This is the one place errors
// become protocol messages.
func (c *conn) sendError(err error) {
	pe := toPgError(err)
	if pe.Code == pgerr.InternalError {
		c.log.Error("internal error", "err", err)
	}
	c.srv.cfg.Metrics.Error(pe.Code)
	severity := ""
	if pe.Severity == "FATAL" || pe.Severity == "PANIC" {
		c.terminate = true
	}
	c.send(errorResponse(pe, severity))
}

// fatal sends a FATAL error and ends the connection.
func (c *conn) fatal(code, format string, args ...any) error {
	pe := pgerr.New(code, format, args...)
	c.srv.cfg.Metrics.Error(code)
	c.send(errorResponse(pe, "FATAL"))
	_ = c.flush()
	return fmt.Errorf("%w: FATAL %s %s", errQuietClose, code, pe.Message)
}

func (c *conn) notice(pe *pgerr.Error) {
	if pe != nil {
		c.send(noticeResponse(pe))
	}
}

func (c *conn) parameterStatus(name, value string) {
	c.send(&pgproto3.ParameterStatus{Name: name, Value: value})
}

// readStartupPacket reads one length-prefixed startup packet and returns
// its request code and the bytes after it.
func (c *conn) readStartupPacket() (uint32, []byte, error) {
	var hdr [8]byte
	if _, err := io.ReadFull(c.nc, hdr[:4]); err != nil {
		return 0, nil, errQuietClose
	}
	n := int(int32(binary.BigEndian.Uint32(hdr[:4])))
	if n < 8 || n > maxStartupPacket {
		return 0, nil, c.fatal(pgerr.ProtocolViolation, "invalid length of startup packet")
	}
	body := make([]byte, n-4)
	if _, err := io.ReadFull(c.nc, body); err != nil {
		return 0, nil, errQuietClose
	}
	return binary.BigEndian.Uint32(body[:4]), body[4:], nil
}

// startup negotiates encryption (none), reads the StartupMessage,
// authenticates, opens the session and sends the first ReadyForQuery.
func (c *conn) startup() error {
	var code uint32
	var body []byte
	for negotiations := 0; ; negotiations++ {
		var err error
		code, body, err = c.readStartupPacket()
		if err != nil {
			return err
		}
		if (code == sslRequestCode || code == gssEncRequestCode) && negotiations < 2 {
			// No TLS or GSS encryption: 'N' and the client carries on in
			// the clear with its StartupMessage.
			if _, err := c.nc.Write([]byte{'N'}); err != nil {
				return errQuietClose
			}
			continue
		}
		break
	}
	switch {
	case code == cancelRequestCode:
		if len(body) >= 8 {
			c.srv.cancel(binary.BigEndian.Uint32(body), body[4:])
		}
		return errQuietClose
	case code == sslRequestCode || code == gssEncRequestCode:
		return c.fatal(pgerr.ProtocolViolation, "too many encryption requests")
	case code>>16 != 3:
		return c.fatal(pgerr.ProtocolViolation, "unsupported frontend protocol %d.%d: server supports 3.0 to 3.0", code>>16, code&0xffff)
	}

	params, err := parseStartupParameters(body)
	if err != nil {
		return c.fatal(pgerr.ProtocolViolation, "%v", err)
	}
	var unknownOptions []string
	for k := range params {
		if strings.HasPrefix(k, "_pq_.") {
			unknownOptions = append(unknownOptions, k)
			delete(params, k)
		}
	}
	if code&0xffff != 0 || len(unknownOptions) > 0 {
		// A newer minor version or protocol options: tell the client we
		// speak 3.0 without them, as PostgreSQL does.
		c.send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: 0, UnrecognizedOptions: unknownOptions})
	}

	c.user = params["user"]
	if c.user == "" {
		return c.fatal(pgerr.InvalidAuthorization, "no PostgreSQL user name specified in startup packet")
	}
	database := params["database"]
	if database == "" {
		database = c.user
	}
	if enc, ok := params["client_encoding"]; ok && !acceptedClientEncoding(enc) {
		return c.fatal(pgerr.InvalidParameterValue, "invalid value for parameter \"client_encoding\": %q", enc)
	}
	if err := c.authenticate(); err != nil {
		return err
	}

	var sess Session
	err = c.guard("Engine.NewSession", func() error {
		var err error
		sess, err = c.srv.eng.NewSession(c.ctx, SessionParams{
			User:            c.user,
			Database:        database,
			Startup:         params,
			Notice:          c.notice,
			ParameterStatus: c.parameterStatus,
		})
		return err
	})
	if err != nil {
		pe := toPgError(err)
		c.srv.cfg.Metrics.Error(pe.Code)
		c.send(errorResponse(pe, "FATAL"))
		_ = c.flush()
		return fmt.Errorf("%w: new session: %v", errQuietClose, err)
	}
	c.sess = sess

	c.send(&pgproto3.AuthenticationOk{})
	for _, ps := range [][2]string{
		{"server_version", c.srv.cfg.ServerVersion},
		{"server_encoding", "UTF8"},
		{"client_encoding", "UTF8"},
		{"DateStyle", "ISO, MDY"},
		{"integer_datetimes", "on"},
		{"standard_conforming_strings", "on"},
		{"TimeZone", "UTC"},
		{"IntervalStyle", "postgres"},
		{"is_superuser", "on"},
		{"session_authorization", c.user},
		{"application_name", params["application_name"]},
	} {
		c.send(&pgproto3.ParameterStatus{Name: ps[0], Value: ps[1]})
	}
	c.send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secret[:]})

	c.mu.Lock()
	closing := c.srv.isClosing()
	if !closing {
		_ = c.nc.SetDeadline(time.Time{})
		c.state = stateBusy
	}
	c.mu.Unlock()
	if closing {
		return c.fatal(pgerr.AdminShutdown, "terminating connection due to administrator command")
	}
	return c.sendReady()
}

// authenticate checks the client's cleartext password when the server
// requires one.
func (c *conn) authenticate() error {
	if c.srv.cfg.Auth != AuthPassword {
		return nil
	}
	c.send(&pgproto3.AuthenticationCleartextPassword{})
	if err := c.flush(); err != nil {
		return errQuietClose
	}
	if err := c.be.SetAuthType(pgproto3.AuthTypeCleartextPassword); err != nil {
		return err
	}
	msg, err := c.be.Receive()
	if err != nil {
		// psql hangs up here to ask its user for the password.
		return errQuietClose
	}
	pm, ok := msg.(*pgproto3.PasswordMessage)
	if !ok {
		return c.fatal(pgerr.ProtocolViolation, "expected password response, got message type %T", msg)
	}
	want, known := c.srv.cfg.Users[c.user]
	if subtle.ConstantTimeCompare([]byte(want), []byte(pm.Password)) != 1 || !known {
		return c.fatal(pgerr.InvalidPassword, "password authentication failed for user %q", c.user)
	}
	return nil
}

// acceptedClientEncoding reports whether zproxy can talk to a client in
// encoding enc. zproxy only speaks UTF-8; SQL_ASCII (what libpq sends under
// the C locale) is accepted and treated as UTF-8, as its bytes pass
// through unchanged.
func acceptedClientEncoding(enc string) bool {
	switch strings.ToUpper(strings.NewReplacer("-", "", "_", "").Replace(strings.TrimSpace(enc))) {
	case "UTF8", "UNICODE", "SQLASCII":
		return true
	}
	return false
}

// parseStartupParameters decodes the name/value pairs of a StartupMessage.
func parseStartupParameters(b []byte) (map[string]string, error) {
	params := map[string]string{}
	for {
		i := strings.IndexByte(string(b), 0)
		if i < 0 {
			return nil, errors.New("invalid startup packet layout: expected terminator as last byte")
		}
		if i == 0 {
			if len(b) != 1 {
				return nil, errors.New("invalid startup packet layout: data after the terminator")
			}
			return params, nil
		}
		name := string(b[:i])
		b = b[i+1:]
		j := strings.IndexByte(string(b), 0)
		if j < 0 {
			return nil, errors.New("invalid startup packet layout: expected terminator as last byte")
		}
		params[name] = string(b[:j])
		b = b[j+1:]
	}
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
			if !c.enterIdle() {
				return c.fatal(pgerr.AdminShutdown, "terminating connection due to administrator command")
			}
		}
		msg, err := c.be.Receive()
		c.leaveIdle()
		if err != nil {
			return c.receiveFailed(err)
		}
		if c.ignoreTillSync {
			switch msg.(type) {
			case *pgproto3.Sync:
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

// receiveFailed decides how a failed read ends the connection.
func (c *conn) receiveFailed(err error) error {
	var tooBig *pgproto3.ExceededMaxBodyLenErr
	switch {
	case errors.As(err, &tooBig):
		return c.fatal(pgerr.ProtocolViolation, "message of %d bytes exceeds the limit of %d bytes", tooBig.ActualBodyLen, tooBig.MaxExpectedBodyLen)
	case errors.Is(err, os.ErrDeadlineExceeded) && c.srv.isClosing():
		return c.fatal(pgerr.AdminShutdown, "terminating connection due to administrator command")
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, os.ErrDeadlineExceeded):
		return errQuietClose
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return errQuietClose
	}
	return c.fatal(pgerr.ProtocolViolation, "invalid frontend message: %v", err)
}

// dispatch handles one message.
func (c *conn) dispatch(msg pgproto3.FrontendMessage) error {
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
		return c.sendReady()
	case *pgproto3.Flush:
		if err := c.flush(); err != nil {
			return errQuietClose
		}
		return nil
	case *pgproto3.Terminate:
		return errQuietClose
	case *pgproto3.FunctionCall:
		c.sendError(pgerr.New(pgerr.FeatureNotSupported, "the function call protocol is not supported"))
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
	}
	if c.pending > flushThreshold {
		if err := c.flush(); err != nil {
			return errQuietClose
		}
	}
	return nil
}

// sendReady ends a query cycle: portals die with the implicit transaction,
// then ReadyForQuery goes out with the session's transaction status.
func (c *conn) sendReady() error {
	status := byte('I')
	if err := c.guard("Session.TxStatus", func() error { status = c.sess.TxStatus(); return nil }); err != nil {
		c.sendError(err)
	}
	if status == 'I' {
		for name, p := range c.portals {
			c.closePortal(p)
			delete(c.portals, name)
		}
	}
	c.send(&pgproto3.ReadyForQuery{TxStatus: status})
	if err := c.flush(); err != nil {
		return errQuietClose
	}
	c.readySent = true
	return nil
}
