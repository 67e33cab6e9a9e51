package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog/pgcatalog"
)

// Transaction-scoped advisory locks.
//
// pg_advisory_xact_lock and its friends take a lock in the same table as
// pg_advisory_lock (the proxy's, or the store's where proxies share it),
// under the session's process ID, and record it here; the end of the
// transaction (COMMIT, ROLLBACK, the end of a statement outside a block,
// the session's end) releases what was recorded, and ROLLBACK TO
// SAVEPOINT releases what was taken after the savepoint, as PostgreSQL
// releases a subtransaction's locks when it aborts.

// xactLock is one hold taken by a transaction-scoped advisory lock.
type xactLock struct {
	key    int64
	shared bool
}

var _ pgcatalog.XactLockHolder = pgSession{}

// HoldForTransaction implements pgcatalog.XactLockHolder.
func (p pgSession) HoldForTransaction(key int64, shared bool) {
	p.s.xactLocks = append(p.s.xactLocks, xactLock{key: key, shared: shared})
}

// releaseXactLocks releases the transaction-scoped advisory locks taken
// after the first n, latest first.
func (s *Session) releaseXactLocks(n int) {
	if len(s.xactLocks) <= n {
		return
	}
	l := s.engine.cat.locks
	pid := uint64(s.engine.cat.pid(s))
	for i := len(s.xactLocks) - 1; i >= n; i-- {
		h := s.xactLocks[i]
		if _, err := l.Unlock(context.Background(), pid, h.key, h.shared); err != nil {
			s.engine.cfg.Logger.Warn("releasing a transaction-scoped advisory lock", "key", h.key, "err", err)
		}
	}
	s.xactLocks = s.xactLocks[:n]
}
