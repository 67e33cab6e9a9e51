package pgcatalog

import (
	"context"
	"sync"
	"time"
)

// AdvisoryLockTable is where advisory locks live: in the proxy's memory on
// an exclusive store (AdvisoryLocks), in the store itself where proxies
// share it (the binary wires package cluster's), so that they exclude the
// sessions of every proxy. Owners are sessions' process IDs.
type AdvisoryLockTable interface {
	// Lock waits until key can be taken (or ctx ends).
	Lock(ctx context.Context, owner uint64, key int64, shared bool) error
	// TryLock takes key if it is free now.
	TryLock(ctx context.Context, owner uint64, key int64, shared bool) (bool, error)
	// Unlock releases one hold of key; false if owner held none.
	Unlock(ctx context.Context, owner uint64, key int64, shared bool) (bool, error)
	// UnlockAll releases every lock owner holds.
	UnlockAll(ctx context.Context, owner uint64) error
	// Held lists the locks held (pg_locks).
	Held(ctx context.Context) ([]HeldLock, error)
}

var _ AdvisoryLockTable = (*AdvisoryLocks)(nil)

// AdvisoryLocks is a proxy's table of advisory locks (pg_advisory_lock and
// friends): session-level, re-entrant, exclusive or shared, held until
// unlocked or until the session ends. It lives in the proxy's memory, so it
// serialises the sessions of one proxy: it serves an exclusive store.
type AdvisoryLocks struct {
	mu      sync.Mutex
	changed chan struct{} // closed and replaced at every release
	held    map[int64]*advisory
}

type advisory struct {
	exclusive map[uint64]int // holder session → count
	shared    map[uint64]int
}

// NewAdvisoryLocks returns an empty lock table.
func NewAdvisoryLocks() *AdvisoryLocks {
	return &AdvisoryLocks{changed: make(chan struct{}), held: map[int64]*advisory{}}
}

// tryLock takes key for owner if no other session holds it in a
// conflicting mode.
func (l *AdvisoryLocks) tryLock(owner uint64, key int64, shared bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.held[key]
	if a == nil {
		a = &advisory{exclusive: map[uint64]int{}, shared: map[uint64]int{}}
		l.held[key] = a
	}
	for o := range a.exclusive {
		if o != owner {
			return false
		}
	}
	if !shared {
		for o := range a.shared {
			if o != owner {
				return false
			}
		}
		a.exclusive[owner]++
	} else {
		a.shared[owner]++
	}
	return true
}

// Lock waits until key can be taken (or ctx ends).
func (l *AdvisoryLocks) Lock(ctx context.Context, owner uint64, key int64, shared bool) error {
	for {
		l.mu.Lock()
		ch := l.changed
		l.mu.Unlock()
		if l.tryLock(owner, key, shared) {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return context.Cause(ctx)
		case <-time.After(time.Second):
		}
	}
}

// TryLock takes key if it is free now.
func (l *AdvisoryLocks) TryLock(_ context.Context, owner uint64, key int64, shared bool) (bool, error) {
	return l.tryLock(owner, key, shared), nil
}

// Unlock releases one hold of key; false if owner held none.
func (l *AdvisoryLocks) Unlock(_ context.Context, owner uint64, key int64, shared bool) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.held[key]
	if a == nil {
		return false, nil
	}
	m := a.exclusive
	if shared {
		m = a.shared
	}
	if m[owner] == 0 {
		return false, nil
	}
	m[owner]--
	if m[owner] == 0 {
		delete(m, owner)
	}
	if len(a.exclusive) == 0 && len(a.shared) == 0 {
		delete(l.held, key)
	}
	l.wake()
	return true, nil
}

// UnlockAll releases every lock owner holds (pg_advisory_unlock_all, and
// the end of a session).
func (l *AdvisoryLocks) UnlockAll(_ context.Context, owner uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for key, a := range l.held {
		delete(a.exclusive, owner)
		delete(a.shared, owner)
		if len(a.exclusive) == 0 && len(a.shared) == 0 {
			delete(l.held, key)
		}
	}
	l.wake()
	return nil
}

// Held lists the locks held, for pg_locks: key, owner, shared.
func (l *AdvisoryLocks) Held(context.Context) ([]HeldLock, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []HeldLock
	for key, a := range l.held {
		for o := range a.exclusive {
			out = append(out, HeldLock{Key: key, Owner: o})
		}
		for o := range a.shared {
			out = append(out, HeldLock{Key: key, Owner: o, Shared: true})
		}
	}
	return out, nil
}

// HeldLock is one advisory lock a session holds.
type HeldLock struct {
	Key    int64
	Owner  uint64
	Shared bool
}

func (l *AdvisoryLocks) wake() {
	close(l.changed)
	l.changed = make(chan struct{})
}
