package wire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zproxy/zproxy/internal/auth"
	"github.com/zproxy/zproxy/internal/metrics"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// AuthMode selects how clients authenticate.
type AuthMode string

// Authentication modes.
const (
	// AuthTrust accepts every role without a password, with its
	// attributes (NOLOGIN refuses it, NOSUPERUSER limits it to its
	// privileges); a name that is no role is refused (28000), as
	// PostgreSQL refuses it whatever the method.
	AuthTrust AuthMode = "trust"
	// AuthSCRAM is SCRAM-SHA-256 (PostgreSQL's default password method):
	// the client proves it knows the password of a role that has one,
	// without sending it.
	AuthSCRAM AuthMode = "scram-sha-256"
)

// Defaults of Config's zero fields.
const (
	DefaultServerVersion  = "15.0 (zproxy)"
	DefaultMaxMessageSize = 64 << 20
	// DefaultAuthTimeout is PostgreSQL's authentication_timeout default.
	DefaultAuthTimeout = time.Minute
	// DefaultMaxConnections is PostgreSQL's max_connections default.
	DefaultMaxConnections = 100
	// DefaultSuperuserReservedConnections is PostgreSQL's
	// superuser_reserved_connections default (cmd/zproxy's; Config's zero
	// value reserves none).
	DefaultSuperuserReservedConnections = 3
	// startupHeadroom is added to twice MaxConnections to bound the
	// connections still in their startup (Config.MaxStartups' default):
	// PostgreSQL's postmaster allows twice its MaxBackends children, which
	// at its defaults is 2×(100+22); zproxy's sessions do not count
	// against this bound, so it is at least as generous.
	startupHeadroom = 64
)

// ErrServerClosed is returned by Serve and ListenAndServe after Shutdown.
var ErrServerClosed = errors.New("wire: server closed")

// Config configures a Server. The zero value is a trust-authentication server
// without TLS and with the defaults above.
type Config struct {
	// Addr is the address ListenAndServe listens on ("127.0.0.1:5433").
	Addr string
	// Auth is the authentication mode; empty means AuthTrust.
	Auth AuthMode
	// HBA, when set, chooses the method per connection instead of Auth:
	// its first rule matching the connection's kind, client address,
	// database and user (pg_hba.conf's rules).
	HBA *HBA
	// TLS, when not nil, lets clients encrypt their connection: an
	// SSLRequest is answered 'S' and the session continues over TLS.
	TLS *tls.Config
	// TLSRequired refuses unencrypted connections (28000), except from
	// loopback addresses.
	TLSRequired bool
	// MaxMessageSize bounds the body of one client message in bytes once the
	// client has authenticated; a larger message ends the connection with
	// 08P01. Before authentication the bounds are PostgreSQL's: 10000 bytes
	// for the startup packet, 65535 for a password or SASL message.
	MaxMessageSize int
	// MaxConnections bounds the authenticated client sessions; one more is
	// refused with 53300, as PostgreSQL's max_connections does.
	MaxConnections int
	// SuperuserReservedConnections are the last of MaxConnections' slots,
	// which only superusers may take (PostgreSQL's
	// superuser_reserved_connections): an ordinary role that would leave
	// fewer free is refused with 53300 once authenticated. It is kept
	// below MaxConnections.
	SuperuserReservedConnections int
	// MaxStartups bounds the connections that have not completed their
	// startup and authentication yet; one more is refused with 53300 at
	// once. They do not take MaxConnections' slots, so clients that
	// dawdle over their startup (until AuthTimeout closes them) cannot
	// lock authenticated sessions out. Zero means twice MaxConnections
	// plus 64.
	MaxStartups int
	// ServerVersion is reported as server_version; clients parse its
	// leading number, so keep it "15.x ...".
	ServerVersion string
	// AuthTimeout bounds the time from accepting a connection to the end of
	// authentication (PostgreSQL's authentication_timeout); a connection
	// still starting up then is closed without a message, as PostgreSQL
	// closes it.
	AuthTimeout time.Duration
	// NotifyQueueSize bounds, in bytes, the notifications waiting for
	// their listeners, all connections together (PostgreSQL's NOTIFY
	// queue, 8 GB there): a NOTIFY that would overflow it fails with
	// 54000. Zero means DefaultNotifyQueueSize.
	NotifyQueueSize int64
	// Metrics records connections and errors; nil records nothing.
	Metrics *metrics.Metrics
	// Logger receives connection failures, internal errors and recovered
	// panics; nil discards them.
	Logger *slog.Logger
	// PIDBits, when above 0, makes the process IDs given out PIDPrefix | n
	// with n below 1<<PIDBits: proxies sharing a store put their registry
	// slot in the high bits (package cluster), so the owner of a session
	// is known from its process ID.
	PIDPrefix uint32
	PIDBits   int
	// Peers, when set, serves the requests of the other proxies of the
	// store and receives the CancelRequests for their sessions.
	Peers Peers
}

// Peers is this proxy's side of the cluster of proxies sharing its store
// (package cluster): wire hands it what arrives here for another proxy.
type Peers interface {
	// PeerRequestCode is the startup-packet code of a peer's request.
	PeerRequestCode() uint32
	// ServePeer answers a peer's request (the packet after its code)
	// with the bytes to write back; nil closes the connection unanswered.
	ServePeer(body []byte) []byte
	// ForwardCancel sends on a CancelRequest for a process ID this proxy
	// did not give out.
	ForwardCancel(pid uint32, secret []byte)
}

// ownsPID reports whether pid is one this server gives out.
func (c Config) ownsPID(pid uint32) bool {
	return c.PIDBits <= 0 || pid>>c.PIDBits == c.PIDPrefix>>c.PIDBits
}

func (c Config) withDefaults() Config {
	if c.ServerVersion == "" {
		c.ServerVersion = DefaultServerVersion
	}
	if c.MaxMessageSize <= 0 {
		c.MaxMessageSize = DefaultMaxMessageSize
	}
	if c.AuthTimeout <= 0 {
		c.AuthTimeout = DefaultAuthTimeout
	}
	if c.MaxConnections <= 0 {
		c.MaxConnections = DefaultMaxConnections
	}
	c.SuperuserReservedConnections = max(0, min(c.SuperuserReservedConnections, c.MaxConnections-1))
	if c.MaxStartups <= 0 {
		c.MaxStartups = 2*c.MaxConnections + startupHeadroom
	}
	if c.NotifyQueueSize <= 0 {
		c.NotifyQueueSize = DefaultNotifyQueueSize
	}
	if c.Auth == "" {
		c.Auth = AuthTrust
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// Server serves the PostgreSQL protocol v3 to clients, one goroutine per
// connection, handing SQL to an Engine.
type Server struct {
	cfg Config
	eng Engine
	log *slog.Logger

	nextPID atomic.Uint32
	// notifyQueue holds the notifications waiting for listeners.
	notifyQueue *NotifyQueue
	// settings are the server's settings as sessions show them.
	settings map[string]string
	// channelBinding is the tls-server-end-point data of the certificate
	// (nil without TLS).
	channelBinding []byte
	// mockKey derives the salts shown to unknown users.
	mockKey [32]byte

	mu        sync.Mutex
	closing   bool
	listeners map[net.Listener]struct{}
	conns     map[uint32]*conn // by backend process ID
	done      chan struct{}    // closed when closing and conns is empty
	// startups counts the connections not yet authenticated (bounded by
	// MaxStartups), sessions those holding one of MaxConnections' slots.
	// Both are guarded by mu, so that a slot is taken and the reserve
	// checked at one time.
	startups int
	sessions int
}

// NewServer returns a server that runs SQL on eng.
func NewServer(cfg Config, eng Engine) *Server {
	cfg = cfg.withDefaults()
	s := &Server{
		cfg:       cfg,
		eng:       eng,
		log:       cfg.Logger,
		listeners: map[net.Listener]struct{}{},
		conns:     map[uint32]*conn{},
		done:      make(chan struct{}),
	}
	s.notifyQueue = NewNotifyQueue(cfg.NotifyQueueSize)
	s.settings = map[string]string{
		"authentication_timeout":         strconv.Itoa(int(max(1, cfg.AuthTimeout.Round(time.Second)/time.Second))),
		"max_connections":                strconv.Itoa(cfg.MaxConnections),
		"superuser_reserved_connections": strconv.Itoa(cfg.SuperuserReservedConnections),
		"server_version":                 cfg.ServerVersion,
		"ssl":                            "off",
	}
	if cfg.TLS != nil {
		s.settings["ssl"] = "on"
	}
	if host, port, err := net.SplitHostPort(cfg.Addr); err == nil {
		s.settings["listen_addresses"] = host
		s.settings["port"] = port
	}
	if cfg.TLS != nil && len(cfg.TLS.Certificates) > 0 {
		s.channelBinding = auth.ChannelBinding(&cfg.TLS.Certificates[0])
	}
	_, _ = rand.Read(s.mockKey[:])
	// Process IDs only need to be unique among open connections; a random
	// start keeps two servers' IDs apart in logs.
	var b [2]byte
	_, _ = rand.Read(b[:])
	s.nextPID.Store(uint32(binary.BigEndian.Uint16(b[:])) + 1000)
	return s
}

// ListenAndServe listens on Config.Addr and serves until Shutdown.
func (s *Server) ListenAndServe() error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

// Serve accepts connections on ln until Shutdown, and returns
// ErrServerClosed then. It closes ln.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	s.listeners[ln] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, ln)
		s.mu.Unlock()
		ln.Close()
	}()

	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if s.isClosing() {
				return ErrServerClosed
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			// Running out of file descriptors and the like pass; back
			// off instead of spinning.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("accept failed; retrying", "err", err, "backoff", backoff)
			time.Sleep(backoff)
			continue
		}
		backoff = 0
		c, refuse := s.newConn(nc)
		if c == nil {
			if refuse != nil {
				// Written without waiting for the startup packet, as
				// PostgreSQL's postmaster does when it cannot fork; the
				// socket buffer takes the few bytes.
				_ = nc.SetWriteDeadline(time.Now().Add(time.Second))
				_, _ = nc.Write(refuse)
			}
			nc.Close()
			continue
		}
		go c.serve()
	}
}

// Addr returns the address of a listener Serve is using, or nil.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ln := range s.listeners {
		return ln.Addr()
	}
	return nil
}

func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// Shutdown stops accepting connections, lets statements in flight finish,
// closes each connection once it is idle (waiting for the client's next
// query) with FATAL 57P01, and returns when every connection is gone. When
// ctx ends first it closes the remaining connections at once, canceling
// their statements, and returns ctx's error.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if !s.closing {
		s.closing = true
		for ln := range s.listeners {
			ln.Close()
		}
		if len(s.conns) == 0 {
			close(s.done)
		}
	}
	conns := make([]*conn, 0, len(s.conns))
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()

	for _, c := range conns {
		c.wakeIfIdle()
	}
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	conns = conns[:0]
	for _, c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.forceClose()
	}
	return ctx.Err()
}

// newConn registers a connection in its startup. It returns nil when
// shutting down, and nil with an ErrorResponse to write when MaxStartups
// connections are already in their startup.
func (s *Server) newConn(nc net.Conn) (*conn, []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return nil, nil
	}
	if s.startups >= s.cfg.MaxStartups {
		s.cfg.Metrics.Error(pgerr.TooManyConnections.String())
		msg, _ := errorResponse(errTooManyClients(), "FATAL").Encode(nil)
		return nil, msg
	}
	var pid uint32
	for {
		pid = s.nextPID.Add(1)
		if bits := s.cfg.PIDBits; bits > 0 {
			pid = s.cfg.PIDPrefix | pid&(1<<bits-1)
		}
		if _, taken := s.conns[pid]; !taken && pid != 0 && pid != s.cfg.PIDPrefix {
			break
		}
	}
	c := newConn(s, nc, pid)
	c.starting = true
	s.startups++
	s.conns[pid] = c
	return c, nil
}

// admit ends the startup of an authenticated connection and gives it one
// of MaxConnections' slots, or says why not: none is free, or only the
// superusers' reserve is and the role is no superuser. As in PostgreSQL
// (InitPostgres), the reserve is checked once the role is known, and it
// holds when taking this slot would leave fewer than
// SuperuserReservedConnections free.
func (s *Server) admit(c *conn, superuser bool) *pgerr.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endStartup(c)
	free := s.cfg.MaxConnections - s.sessions
	if free <= 0 {
		return errTooManyClients()
	}
	if !superuser && free-1 < s.cfg.SuperuserReservedConnections {
		return pgerr.New(pgerr.TooManyConnections, "remaining connection slots are reserved for non-replication superuser connections")
	}
	s.sessions++
	c.slot = true
	return nil
}

// endStartup takes c out of the connections in their startup; s.mu is
// held.
func (s *Server) endStartup(c *conn) {
	if c.starting {
		c.starting = false
		s.startups--
	}
}

func errTooManyClients() *pgerr.Error {
	return pgerr.New(pgerr.TooManyConnections, "sorry, too many clients already")
}

// removeConn forgets a connection that has ended, freeing its slot.
func (s *Server) removeConn(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endStartup(c)
	if c.slot {
		c.slot = false
		s.sessions--
	}
	delete(s.conns, c.pid)
	if s.closing && len(s.conns) == 0 {
		select {
		case <-s.done:
		default:
			close(s.done)
		}
	}
}

// cancel cancels the running statement of the connection with the given
// process ID and secret. Like PostgreSQL it reports nothing back: a wrong
// secret and an idle connection are silently ignored.
func (s *Server) cancel(pid uint32, secret []byte) {
	if !s.cfg.ownsPID(pid) {
		if s.cfg.Peers != nil {
			s.cfg.Peers.ForwardCancel(pid, secret)
		}
		return
	}
	s.mu.Lock()
	c := s.conns[pid]
	s.mu.Unlock()
	if c == nil || subtle.ConstantTimeCompare(c.secret[:], secret) != 1 {
		return
	}
	c.cancelStatement(errCanceledByUser)
}

// CancelLocal serves a CancelRequest another proxy received for one of
// this server's connections (Peers.ForwardCancel on that proxy): as one
// received here, except that it is never forwarded again.
func (s *Server) CancelLocal(pid uint32, secret []byte) {
	if s.cfg.ownsPID(pid) {
		s.cancel(pid, secret)
	}
}

var _ Backends = (*Server)(nil)

// CancelBackend implements Backends.
func (s *Server) CancelBackend(pid uint32) bool {
	c := s.conn(pid)
	if c == nil {
		return false
	}
	c.cancelStatement(errCanceledByUser)
	return true
}

// TerminateBackend implements Backends: the connection's statement is
// canceled with the FATAL error its client will see, and a connection
// waiting for its client is woken to send it.
func (s *Server) TerminateBackend(pid uint32) bool {
	c := s.conn(pid)
	if c == nil {
		return false
	}
	c.killed.Store(true)
	c.cancelStatement(errAdminShutdown())
	c.wakeIfIdle()
	return true
}

// BackendAlive implements Backends.
func (s *Server) BackendAlive(pid uint32) bool { return s.conn(pid) != nil }

// conn is the connection with process ID pid, nil if there is none.
func (s *Server) conn(pid uint32) *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns[pid]
}

// String describes the server for logs.
func (s *Server) String() string {
	if a := s.Addr(); a != nil {
		return "zproxy wire server on " + a.String()
	}
	return "zproxy wire server (not listening)"
}

// sessionCount is the number of sessions holding a slot.
func (s *Server) sessionCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions
}
