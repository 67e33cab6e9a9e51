package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/cluster"
	"github.com/zproxy/zproxy/internal/metrics"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// joinCluster enters this proxy into the registry of the proxies sharing
// the DynamoDB table, advertising the address they reach its listener at.
func joinCluster(ctx context.Context, cfg Config, store kv.Store, ln net.Listener, logger *slog.Logger) (*cluster.Node, error) {
	addr, err := advertiseAddr(cfg.AdvertiseAddr, ln.Addr())
	if err != nil {
		return nil, err
	}
	reg, err := cluster.Join(ctx, store, cluster.Options{Addr: addr, TTL: cfg.RegistryTTL, Logger: logger})
	if err != nil {
		return nil, fmt.Errorf("joining the proxy registry: %w", err)
	}
	return cluster.NewNode(reg, logger), nil
}

// advertiseAddr is --advertise-addr, or the listener's address with the
// host name in place of an unspecified host (0.0.0.0, ::).
func advertiseAddr(flag string, listen net.Addr) (string, error) {
	if flag != "" {
		if _, _, err := net.SplitHostPort(flag); err != nil {
			return "", fmt.Errorf("--advertise-addr: %w", err)
		}
		return flag, nil
	}
	host, port, err := net.SplitHostPort(listen.String())
	if err != nil {
		return "", err
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		if host, err = os.Hostname(); err != nil {
			return "", fmt.Errorf("--advertise-addr is needed: %w", err)
		}
	}
	return net.JoinHostPort(host, port), nil
}

// clusterPIDs are the wire server's process-ID settings for a node: its
// slot in the high bits.
func clusterPIDs(n *cluster.Node) (prefix uint32, bits int) {
	return uint32(n.Registry().Self().Slot) << cluster.SlotShift, cluster.SlotShift
}

// sessionCluster is the node as the session engine uses it.
type sessionCluster struct {
	*cluster.Node
	locks *cluster.Locks
}

var _ session.Cluster = sessionCluster{}

// AdvisoryLocks is the store's advisory lock table.
func (c sessionCluster) AdvisoryLocks() pgcatalog.AdvisoryLockTable { return storeLocks{c.locks} }

// storeLocks is package cluster's lock table as package pgcatalog's.
type storeLocks struct{ l *cluster.Locks }

func (s storeLocks) Lock(ctx context.Context, owner uint64, key int64, shared bool) error {
	return s.l.Lock(ctx, uint32(owner), key, shared)
}

func (s storeLocks) TryLock(ctx context.Context, owner uint64, key int64, shared bool) (bool, error) {
	return s.l.TryLock(ctx, uint32(owner), key, shared)
}

func (s storeLocks) Unlock(ctx context.Context, owner uint64, key int64, shared bool) (bool, error) {
	return s.l.Unlock(ctx, uint32(owner), key, shared)
}

func (s storeLocks) UnlockAll(ctx context.Context, owner uint64) error {
	return s.l.UnlockAll(ctx, uint32(owner))
}

func (s storeLocks) Held(ctx context.Context) ([]pgcatalog.HeldLock, error) {
	held, err := s.l.Held(ctx)
	out := make([]pgcatalog.HeldLock, len(held))
	for i, h := range held {
		out[i] = pgcatalog.HeldLock{Key: h.Key, Owner: uint64(h.PID), Shared: h.Shared}
	}
	return out, err
}

// Proxies lists the registry's live members as zproxy_proxies rows.
func (c sessionCluster) Proxies(ctx context.Context) ([]pgcatalog.Proxy, error) {
	members, err := c.Registry().Members(ctx)
	if err != nil {
		return nil, err
	}
	self := c.Registry().Self().ID
	out := make([]pgcatalog.Proxy, 0, len(members))
	for _, m := range members {
		out = append(out, pgcatalog.Proxy{Slot: int32(m.Slot), ID: m.ID, Address: m.Addr, Started: m.Started,
			Heartbeat: m.Heartbeat, Self: m.ID == self})
	}
	return out, nil
}

// peerHandler does for the other proxies what they ask of this one, through
// the wire server (cancel, terminate) and the session engine (sessions).
type peerHandler struct {
	srv *wire.Server
	eng peerEngine
}

// peerEngine is what the session engine answers for other proxies.
type peerEngine interface {
	EncodeSessions() json.RawMessage
	EncodeStatements() json.RawMessage
	ResetStatements(userID, dbID uint32, queryID int64)
}

var _ cluster.Handler = peerHandler{}

func (h peerHandler) Cancel(pid uint32, secret []byte) { h.srv.CancelLocal(pid, secret) }

func (h peerHandler) Signal(pid uint32, terminate bool) bool {
	if terminate {
		return h.srv.TerminateBackend(pid)
	}
	return h.srv.CancelBackend(pid)
}

func (h peerHandler) Sessions() json.RawMessage { return h.eng.EncodeSessions() }

func (h peerHandler) Statements() json.RawMessage { return h.eng.EncodeStatements() }

func (h peerHandler) ResetStatements(userID, dbID uint32, queryID int64) {
	h.eng.ResetStatements(userID, dbID, queryID)
}

// capacityStore is a store whose requests queue for a capacity budget
// (*dynamodb.Store).
type capacityStore interface {
	SetCapacityBudget(read, write float64)
	ProvisionedCapacity() (read, write float64)
}

// shareCapacity divides the table's capacity budget (the flags, or the
// table's provisioned capacity) among the live proxies of the registry:
// now, and every third of the registry's TTL until ctx ends, so a proxy
// that joins or dies shifts every share.
func shareCapacity(ctx context.Context, cfg Config, store kv.Store, node *cluster.Node, m *metrics.Metrics, logger *slog.Logger) {
	cs, ok := store.(capacityStore)
	if !ok {
		return
	}
	read, write := cs.ProvisionedCapacity()
	if cfg.DynamoDBReadCapacity > 0 {
		read = cfg.DynamoDBReadCapacity
	}
	if cfg.DynamoDBWriteCapacity > 0 {
		write = cfg.DynamoDBWriteCapacity
	}
	if read == 0 && write == 0 {
		return
	}
	proxies := 0
	apply := func() {
		mctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		members, err := node.Registry().Members(mctx)
		cancel()
		if err != nil {
			logger.Warn("capacity budget: the proxy registry could not be read", "err", err)
			return
		}
		n := max(len(members), 1)
		if n == proxies {
			return
		}
		proxies = n
		cs.SetCapacityBudget(read/float64(n), write/float64(n))
		m.SetCapacityBudget(read/float64(n), write/float64(n))
		logger.Info("capacity budget", "proxies", n, "read_units_per_second", read/float64(n), "write_units_per_second", write/float64(n))
	}
	apply()
	ttl := cfg.RegistryTTL
	if ttl <= 0 {
		ttl = cluster.DefaultTTL
	}
	go func() {
		t := time.NewTicker(ttl / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				apply()
			}
		}
	}()
}
