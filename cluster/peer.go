package cluster

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"
)

// PeerRequestCode is the startup-packet code of a peer request.
// PostgreSQL's request codes are 1234.5678 (cancel), 1234.5679 (SSL) and
// 1234.5680 (GSS encryption); clients send no other code in 1234.x, and
// this one is 1234.5701.
const PeerRequestCode = 1234<<16 | 5701

// sslRequestCode is PostgreSQL's SSLRequest, which a peer sends first so
// that requests travel encrypted where the listener has TLS.
const sslRequestCode = 1234<<16 | 5679

// MaxRequestAge is how old a peer request may be (by the sender's clock)
// when it arrives; older ones, and ones from further in the future, are
// refused, so a captured request cannot be replayed later.
const MaxRequestAge = 30 * time.Second

// maxReply bounds a reply a peer reads (a proxy's sessions).
const maxReply = 64 << 20

// Peer request operations.
const (
	opCancel   = "cancel"   // a CancelRequest: process ID and secret key
	opSignal   = "signal"   // pg_cancel_backend / pg_terminate_backend
	opSessions = "sessions" // the proxy's sessions (pg_stat_activity)
	// opStatements and opResetStatements: the proxy's statement
	// statistics (pg_stat_statements) and pg_stat_statements_reset.
	opStatements      = "statements"
	opResetStatements = "reset_statements"
)

// request is what one proxy asks another.
type request struct {
	To        string `json:"to"` // the member ID it is meant for
	At        int64  `json:"at"` // the sender's clock, Unix ms
	Op        string `json:"op"`
	PID       uint32 `json:"pid,omitempty"`
	Secret    []byte `json:"secret,omitempty"`
	Terminate bool   `json:"terminate,omitempty"`
	// The arguments of pg_stat_statements_reset.
	UserID  uint32 `json:"userid,omitempty"`
	DBID    uint32 `json:"dbid,omitempty"`
	QueryID int64  `json:"queryid,omitempty"`
}

// reply is the answer to a request.
type reply struct {
	Found bool `json:"found,omitempty"`
	// Data is what the handler encoded (sessions, statements).
	Data  json.RawMessage `json:"data,omitempty"`
	Error string          `json:"error,omitempty"`
}

// Handler is what a proxy does for its peers' requests: the binary
// implements it over the wire server (cancel, terminate) and the session
// engine (its sessions).
type Handler interface {
	// Cancel serves a CancelRequest another proxy received for one of
	// this proxy's sessions: the statement is canceled if the secret
	// matches, as for a CancelRequest received here.
	Cancel(pid uint32, secret []byte)
	// Signal cancels the statement of, or terminates, one of this proxy's
	// sessions (the sender has checked the privilege), reporting whether
	// a session has that process ID.
	Signal(pid uint32, terminate bool) bool
	// Sessions encodes this proxy's sessions, as its session layer reads
	// them back on the asking proxy.
	Sessions() json.RawMessage
	// Statements encodes this proxy's statement statistics;
	// ResetStatements discards those matching (zero matches any).
	Statements() json.RawMessage
	ResetStatements(userID, dbID uint32, queryID int64)
}

// Node is this proxy's side of the cluster: its registry entry, the
// requests it sends to the others and its answers to theirs.
type Node struct {
	reg    *Registry
	logger *slog.Logger
	// timeout bounds one request to a peer.
	timeout time.Duration

	mu      sync.RWMutex
	handler Handler

	// forwards paces the CancelRequests forwarded to peers: guessing a
	// session's secret key through many proxies costs as much as through
	// one (CockroachDB rate-limits forwarded cancels the same way).
	forwards *bucket
}

// NewNode returns the node of a joined registry. SetHandler must be called
// before it serves requests.
func NewNode(reg *Registry, logger *slog.Logger) *Node {
	if logger == nil {
		logger = slog.Default()
	}
	return &Node{reg: reg, logger: logger, timeout: 5 * time.Second, forwards: newBucket(256, 256)}
}

// SetHandler sets what the node does for its peers' requests.
func (n *Node) SetHandler(h Handler) {
	n.mu.Lock()
	n.handler = h
	n.mu.Unlock()
}

// Registry is the node's registry.
func (n *Node) Registry() *Registry { return n.reg }

// Owns reports whether pid is a process ID this proxy gave out.
func (n *Node) Owns(pid uint32) bool { return SlotOf(pid) == n.reg.Self().Slot }

// sign returns mac ‖ payload for a request.
func (n *Node) sign(req request) ([]byte, error) {
	payload, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, n.reg.secret)
	m.Write(payload)
	return append(m.Sum(nil), payload...), nil
}

// ServePeer answers a peer request (the startup packet's bytes after its
// code) with the reply to write back, or nil to close the connection
// without one (a request that is not genuine).
func (n *Node) ServePeer(body []byte) []byte {
	if len(body) < sha256.Size {
		return nil
	}
	mac, payload := body[:sha256.Size], body[sha256.Size:]
	m := hmac.New(sha256.New, n.reg.secret)
	m.Write(payload)
	if !hmac.Equal(mac, m.Sum(nil)) {
		n.logger.Warn("refused a peer request with a wrong signature")
		return nil
	}
	var req request
	if err := json.Unmarshal(payload, &req); err != nil {
		return nil
	}
	self := n.reg.Self()
	if age := time.Since(time.UnixMilli(req.At)); age > MaxRequestAge || age < -MaxRequestAge {
		return encodeReply(reply{Error: "request too old"})
	}
	if req.To != self.ID {
		return encodeReply(reply{Error: "request for another member"})
	}
	n.mu.RLock()
	h := n.handler
	n.mu.RUnlock()
	if h == nil {
		return encodeReply(reply{Error: "not ready"})
	}
	switch req.Op {
	case opCancel:
		h.Cancel(req.PID, req.Secret)
		return encodeReply(reply{})
	case opSignal:
		return encodeReply(reply{Found: h.Signal(req.PID, req.Terminate)})
	case opSessions:
		return encodeReply(reply{Found: true, Data: h.Sessions()})
	case opStatements:
		return encodeReply(reply{Found: true, Data: h.Statements()})
	case opResetStatements:
		h.ResetStatements(req.UserID, req.DBID, req.QueryID)
		return encodeReply(reply{Found: true})
	}
	return encodeReply(reply{Error: "unknown operation " + req.Op})
}

func encodeReply(r reply) []byte {
	b, _ := json.Marshal(r)
	return append(binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(b)), uint32(len(b))), b...)
}

// ForwardCancel sends a CancelRequest this proxy received for another
// proxy's session to that proxy, in the background (a CancelRequest gets
// no answer). Forwards beyond the node's rate are dropped.
func (n *Node) ForwardCancel(pid uint32, secret []byte) {
	if !n.forwards.take() {
		n.logger.Warn("dropped a forwarded CancelRequest: too many", "pid", pid)
		return
	}
	secret = append([]byte(nil), secret...)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), n.timeout)
		defer cancel()
		m, ok, err := n.reg.Member(ctx, SlotOf(pid))
		if err != nil || !ok || m.ID == n.reg.Self().ID {
			return
		}
		if _, err := n.call(ctx, m, request{Op: opCancel, PID: pid, Secret: secret}); err != nil {
			n.logger.Warn("forwarding a CancelRequest failed", "pid", pid, "slot", m.Slot, "addr", m.Addr, "err", err)
		}
	}()
}

// Signal asks the proxy owning pid to cancel its statement or terminate
// it; false when no live proxy has a session of that ID.
func (n *Node) Signal(ctx context.Context, pid uint32, terminate bool) (bool, error) {
	m, ok, err := n.reg.Member(ctx, SlotOf(pid))
	if err != nil || !ok {
		return false, err
	}
	r, err := n.call(ctx, m, request{Op: opSignal, PID: pid, Terminate: terminate})
	return r.Found, err
}

// SessionsOf returns the encoded sessions of the proxy owning pid (false
// when none is alive).
func (n *Node) SessionsOf(ctx context.Context, pid uint32) (json.RawMessage, bool, error) {
	m, ok, err := n.reg.Member(ctx, SlotOf(pid))
	if err != nil || !ok {
		return nil, false, err
	}
	r, err := n.call(ctx, m, request{Op: opSessions})
	if err != nil {
		return nil, false, err
	}
	return r.Data, true, nil
}

// PeerSessions returns the encoded sessions of every other live proxy.
func (n *Node) PeerSessions(ctx context.Context) ([]json.RawMessage, error) {
	return n.askAll(ctx, request{Op: opSessions})
}

// PeerStatements returns the encoded statement statistics of every other
// live proxy.
func (n *Node) PeerStatements(ctx context.Context) ([]json.RawMessage, error) {
	return n.askAll(ctx, request{Op: opStatements})
}

// ResetPeerStatements applies pg_stat_statements_reset on every other live
// proxy.
func (n *Node) ResetPeerStatements(ctx context.Context, userID, dbID uint32, queryID int64) error {
	_, err := n.askAll(ctx, request{Op: opResetStatements, UserID: userID, DBID: dbID, QueryID: queryID})
	return err
}

// askAll sends req to every other live proxy at once and returns the data
// of their replies. A proxy that does not answer in time is left out
// (logged), so one that hangs cannot stop a cluster-wide view everywhere.
func (n *Node) askAll(ctx context.Context, req request) ([]json.RawMessage, error) {
	members, err := n.reg.Members(ctx)
	if err != nil {
		return nil, err
	}
	self := n.reg.Self().ID
	out := make([]json.RawMessage, len(members))
	var wg sync.WaitGroup
	for i, m := range members {
		if m.ID == self {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := n.call(ctx, m, req)
			if err != nil {
				n.logger.Warn("a peer did not answer", "op", req.Op, "slot", m.Slot, "addr", m.Addr, "err", err)
				return
			}
			if r.Data == nil {
				r.Data = json.RawMessage("null")
			}
			out[i] = r.Data
		}()
	}
	wg.Wait()
	live := out[:0]
	for _, s := range out {
		if s != nil {
			live = append(live, s)
		}
	}
	return live, nil
}

// call sends one request to a member and reads its reply.
func (n *Node) call(ctx context.Context, m Member, req request) (reply, error) {
	req.To, req.At = m.ID, time.Now().UnixMilli()
	body, err := n.sign(req)
	if err != nil {
		return reply{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, n.timeout)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", m.Addr)
	if err != nil {
		return reply{}, err
	}
	defer nc.Close()
	if dl, ok := ctx.Deadline(); ok {
		nc.SetDeadline(dl)
	}
	conn, err := startTLS(nc, m.Addr)
	if err != nil {
		return reply{}, err
	}
	pkt := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
	pkt = binary.BigEndian.AppendUint32(pkt, PeerRequestCode)
	if _, err := conn.Write(append(pkt, body...)); err != nil {
		return reply{}, err
	}
	rd := bufio.NewReader(conn)
	var hdr [4]byte
	if _, err := io.ReadFull(rd, hdr[:]); err != nil {
		return reply{}, fmt.Errorf("peer %s refused the request: %w", m.Addr, err)
	}
	size := binary.BigEndian.Uint32(hdr[:])
	if size > maxReply {
		return reply{}, fmt.Errorf("peer %s: reply of %d bytes", m.Addr, size)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(rd, b); err != nil {
		return reply{}, err
	}
	var r reply
	if err := json.Unmarshal(b, &r); err != nil {
		return reply{}, err
	}
	if r.Error != "" {
		return r, fmt.Errorf("peer %s: %s", m.Addr, r.Error)
	}
	return r, nil
}

// startTLS asks for TLS as a PostgreSQL client does and uses it when the
// peer has it. The peer's certificate is not verified: requests are
// authenticated by their signature, TLS keeps them private.
func startTLS(nc net.Conn, addr string) (net.Conn, error) {
	var pkt [8]byte
	binary.BigEndian.PutUint32(pkt[:4], 8)
	binary.BigEndian.PutUint32(pkt[4:], sslRequestCode)
	if _, err := nc.Write(pkt[:]); err != nil {
		return nil, err
	}
	var answer [1]byte
	if _, err := io.ReadFull(nc, answer[:]); err != nil {
		return nil, err
	}
	switch answer[0] {
	case 'N':
		return nc, nil
	case 'S':
		host, _, _ := net.SplitHostPort(addr)
		tc := tls.Client(nc, &tls.Config{ServerName: host, InsecureSkipVerify: true, MinVersion: tls.VersionTLS12})
		return tc, tc.Handshake()
	}
	return nil, errors.New("unexpected answer to SSLRequest")
}

// bucket is a token bucket: rate tokens a second, up to burst.
type bucket struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func newBucket(rate, burst float64) *bucket {
	return &bucket{rate: rate, burst: burst, tokens: burst, last: time.Now()}
}

func (b *bucket) take() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// PeerRequestCode returns the request code of peer requests (wire.Peers).
func (n *Node) PeerRequestCode() uint32 { return PeerRequestCode }
