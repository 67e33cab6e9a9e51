package session

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/metrics"
	"github.com/zproxy/zproxy/internal/stmtstats"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// Cluster is what a session sees of the other proxies sharing its store
// (*cluster.Node implements it). Sessions are exchanged as the bytes
// Engine.EncodeSessions writes, so the transport knows nothing of them.
type Cluster interface {
	// Owns reports whether pid is a process ID this proxy gave out.
	Owns(pid uint32) bool
	// PeerSessions returns the encoded sessions of every other live
	// proxy.
	PeerSessions(ctx context.Context) ([]json.RawMessage, error)
	// SessionsOf returns the encoded sessions of the proxy that gave out
	// pid, false when no live proxy did.
	SessionsOf(ctx context.Context, pid uint32) (json.RawMessage, bool, error)
	// Signal cancels the statement of, or terminates, the session pid of
	// another proxy, false when it has none such.
	Signal(ctx context.Context, pid uint32, terminate bool) (bool, error)
	// Proxies lists the live proxies (zproxy_proxies).
	Proxies(ctx context.Context) ([]pgcatalog.Proxy, error)
	// PeerStatements returns the encoded statement statistics of every
	// other live proxy; ResetPeerStatements resets theirs.
	PeerStatements(ctx context.Context) ([]json.RawMessage, error)
	ResetPeerStatements(ctx context.Context, userID, dbID uint32, queryID int64) error
	// AdvisoryLocks is the store's advisory lock table, shared by every
	// proxy.
	AdvisoryLocks() pgcatalog.AdvisoryLockTable
}

// clusterLocks is the cluster's advisory lock table, nil without one.
func clusterLocks(c Cluster) pgcatalog.AdvisoryLockTable {
	if c == nil {
		return nil
	}
	return c.AdvisoryLocks()
}

// EncodeStatements encodes this proxy's statement statistics for another
// proxy's pg_stat_statements (cluster.Handler).
func (e *Engine) EncodeStatements() json.RawMessage {
	return encodeEntries(e.stmts.Entries())
}

// ResetStatements is pg_stat_statements_reset on this proxy's statistics,
// asked by another proxy (cluster.Handler).
func (e *Engine) ResetStatements(userID, dbID uint32, queryID int64) {
	e.stmts.Reset(userID, dbID, queryID)
}

// clusterStatements is the statement statistics of every proxy of the
// store, merged per statement, with every proxy's workload samples
// resolved in snap (nil: without the other proxies' samples, for
// pg_stat_statements); a proxy that does not answer is left out.
func (e *Engine) clusterStatements(snap *catalog.Snapshot) []stmtstats.Entry {
	local := e.stmts.Entries()
	if e.cfg.Cluster == nil {
		return local
	}
	ctx, cancel := context.WithTimeout(context.Background(), peerTimeout)
	defer cancel()
	peers, err := e.cfg.Cluster.PeerStatements(ctx)
	if err != nil {
		e.cfg.Logger.Warn("pg_stat_statements: the proxy registry could not be read", "err", err)
	}
	sets := [][]stmtstats.Entry{local}
	for _, b := range peers {
		if entries := decodeEntries(b, snap); entries != nil {
			sets = append(sets, entries)
		}
	}
	return stmtstats.Merge(sets...)
}

// resetClusterStatements is pg_stat_statements_reset on every proxy.
func (e *Engine) resetClusterStatements(userID, dbID uint32, queryID int64) error {
	e.stmts.Reset(userID, dbID, queryID)
	if e.cfg.Cluster == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), peerTimeout)
	defer cancel()
	return e.cfg.Cluster.ResetPeerStatements(ctx, userID, dbID, queryID)
}

// peerSession is one session as a proxy tells its peers: its
// pg_stat_activity row and whether its role authenticated (a session of
// no stored role under trust authentication is a superuser's).
type peerSession struct {
	pgcatalog.Activity
	Authenticated bool `json:"authenticated"`
}

// EncodeSessions encodes this proxy's sessions for another proxy's
// pg_stat_activity and signal checks (cluster.Handler).
func (e *Engine) EncodeSessions() json.RawMessage {
	rows := e.localActivity()
	b, _ := json.Marshal(rows)
	return b
}

// localActivity is this proxy's sessions, by process ID.
func (e *Engine) localActivity() []peerSession {
	c := e.cat
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]peerSession, 0, len(c.sessions))
	for s, a := range c.sessions {
		a.mu.Lock()
		state := "idle"
		switch {
		case a.active:
			state = "active"
		case a.txStatus == 'T':
			state = "idle in transaction"
		case a.txStatus == 'E':
			state = "idle in transaction (aborted)"
		}
		// Only immutable fields of the other sessions are read here:
		// their settings belong to their goroutines (activity keeps
		// copies).
		out = append(out, peerSession{Activity: pgcatalog.Activity{PID: a.pid, User: s.params.User, Database: s.params.Database,
			Client: s.params.ClientAddr, ApplicationName: a.appName, BackendStart: a.start, QueryStart: a.queryStart,
			StateChange: a.change, State: state, Query: a.query}, Authenticated: s.params.Authenticated})
		a.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// decodeSessions reads another proxy's EncodeSessions; rows it cannot
// read are none.
func decodeSessions(b json.RawMessage) []peerSession {
	var out []peerSession
	if err := json.Unmarshal(b, &out); err != nil {
		return nil
	}
	return out
}

// peerTimeout bounds what a catalog read waits for other proxies.
const peerTimeout = 3 * time.Second

// remoteSession finds the session pid on the proxy that owns it.
func (e *Engine) remoteSession(ctx context.Context, pid int32) (peerSession, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, peerTimeout)
	defer cancel()
	b, ok, err := e.cfg.Cluster.SessionsOf(ctx, uint32(pid))
	if err != nil || !ok {
		return peerSession{}, false, err
	}
	for _, ps := range decodeSessions(b) {
		if ps.PID == pid {
			return ps, true, nil
		}
	}
	return peerSession{}, false, nil
}

// remotePID reports whether pid belongs to another proxy of the cluster.
func (e *Engine) remotePID(pid int32) bool {
	return e.cfg.Cluster != nil && pid > 0 && !e.cfg.Cluster.Owns(uint32(pid))
}

// tableCapacity gathers, for one execution, the capacity units each
// table's reads consumed (executor.RunOptions.Capacity).
type tableCapacity struct {
	mu    sync.Mutex
	units map[string]float64
}

// adder is the executor's callback, nil when nothing is gathered (a store
// that charges no capacity), so scans make no call for it.
func (c *tableCapacity) adder() func(table string, units float64) {
	if c == nil {
		return nil
	}
	return c.add
}

// add records a scan's or lookup's capacity.
func (c *tableCapacity) add(table string, units float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.units == nil {
		c.units = map[string]float64{}
	}
	c.units[table] += units
}

// report adds the execution's capacity to the per-table metrics: each
// table's reads, and for a write the rest of the statement's capacity
// (its own writes and constraint checks) to its target table.
func (c *tableCapacity) report(m *metrics.Metrics, plan *optimizer.Plan, stats *kv.Stats) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	read := 0.0
	for table, units := range c.units {
		m.AddTableCapacity(table, units)
		read += units
	}
	if plan == nil {
		return
	}
	if w, ok := plan.Root.(optimizer.Write); ok && stats != nil {
		m.AddTableCapacity(w.Target().Name, stats.Capacity()-read)
	}
	c.units = nil
}
