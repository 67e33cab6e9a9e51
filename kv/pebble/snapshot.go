package pebble

import (
	"context"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
)

// Statements' snapshots (kv.Snapshotter). A Pebble snapshot costs two
// rounds of the database's mutex and, when the earliest one closes, a
// pass of the compaction picker: a few microseconds, a quarter of an
// index lookup of five rows. So statements that start while nothing was
// written since the current snapshot was taken share it: the state it
// holds is the one a new snapshot would hold, but for writes still under
// way, which no client has been told of. writes counts the writes that
// have returned (commitBatch, ingest), and is loaded before a snapshot is
// taken: a write that returns after the load makes the next statement
// take a new one.

// sharedSnapshot is a Pebble snapshot and the statements reading it.
type sharedSnapshot struct {
	snap   *pebble.Snapshot
	stamp  uint64 // the row cache's stamp (rowcache.go), loaded before snap
	writes uint64 // Store.writes, loaded before snap
	users  int
}

// Snapshot implements kv.Snapshotter.
func (s *Store) Snapshot(ctx context.Context) (kv.Snapshot, error) {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if err := s.usable(ctx); err != nil {
		return nil, err
	}
	writes := s.writes.Load()
	s.txnMu.Lock()
	defer s.txnMu.Unlock()
	if c := s.current; c != nil && c.writes == writes {
		c.users++
		return &snapshot{s: s, c: c}, nil
	}
	c := &sharedSnapshot{stamp: s.rows.stamp(), writes: writes, users: 1}
	c.snap = s.db.NewSnapshot()
	s.snaps[c] = struct{}{}
	if old := s.current; old != nil && old.users == 0 {
		s.closeSnapshot(old)
	}
	s.current = c
	return &snapshot{s: s, c: c}, nil
}

// closeSnapshot closes c. The caller holds txnMu.
func (s *Store) closeSnapshot(c *sharedSnapshot) {
	if _, open := s.snaps[c]; open {
		delete(s.snaps, c)
		_ = c.snap.Close()
	}
	if s.current == c {
		s.current = nil
	}
}

// snapshot is Store's kv.Snapshot: its reads are a transaction's, from a
// Pebble snapshot and the row cache as of its stamp.
type snapshot struct {
	s        *Store
	c        *sharedSnapshot
	released bool
}

var _ kv.Snapshotter = (*Store)(nil)

func (v *snapshot) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	return v.s.get(ctx, req, v.c.snap, v.c.stamp)
}

func (v *snapshot) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	return v.s.scan(ctx, req, v.c.snap, v.c.stamp)
}

// Release implements kv.Snapshot. The current snapshot stays open for
// the next statement when its last reader is done; an older one closes.
// Store.Close closes those still open (closeTxns).
func (v *snapshot) Release() {
	s := v.s
	s.txnMu.Lock()
	defer s.txnMu.Unlock()
	if v.released {
		return
	}
	v.released = true
	v.c.users--
	if v.c.users == 0 && s.current != v.c {
		s.closeSnapshot(v.c)
	}
}
