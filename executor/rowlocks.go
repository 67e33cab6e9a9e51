package executor

import (
	"encoding/binary"
	"slices"
	"sync"

	"github.com/zproxy/zproxy/kv"
)

// Row locks that other sessions can see. zproxy's row locks are taken in
// the store's transaction and checked when it commits (a conflict fails
// the later COMMIT with 40001): they never wait, and until the commit no
// other transaction knows of them. NOWAIT and SKIP LOCKED ask exactly
// that, whether another transaction holds a row locked now, so every
// locking read in a transaction block also records its rows here, in the
// executor the proxy's sessions share, until the transaction ends: a
// SKIP LOCKED read leaves out the rows another open transaction of this
// proxy holds in a conflicting mode (FOR UPDATE against any, FOR SHARE
// against FOR UPDATE), and a NOWAIT read fails on them with 55P03. A job
// queue's workers (SELECT ... FOR UPDATE SKIP LOCKED LIMIT n) then take
// different rows. The table is the proxy's: transactions on other proxies
// over the same store are not in it, and a row two of them lock still
// fails the later COMMIT.

// rowLocks is the executor's table of the row locks open transactions
// hold.
type rowLocks struct {
	mu   sync.Mutex
	held map[string][]rowLockHolder
	// byTxn lists the locks each transaction recorded, in order, to
	// release them.
	byTxn map[*Txn][]heldRow
}

// heldRow is one lock a transaction recorded.
type heldRow struct {
	key  string
	mode kv.LockMode
}

// rowLockHolder is one transaction's lock on a row.
type rowLockHolder struct {
	txn  *Txn
	mode kv.LockMode
}

// lockKey is a row key's entry in the table: the partition's length, the
// partition, the sort key.
func lockKey(k kv.Key) string {
	b := binary.AppendUvarint(make([]byte, 0, 2+len(k.Partition)+len(k.Sort)), uint64(len(k.Partition)))
	b = append(b, k.Partition...)
	return string(append(b, k.Sort...))
}

// lockConflicts reports whether a lock in mode by one transaction conflicts
// with another's in held: FOR UPDATE with any, FOR SHARE with FOR UPDATE.
func lockConflicts(mode, held kv.LockMode) bool {
	return mode == kv.LockUpdate || held == kv.LockUpdate
}

// take records txn's lock on key in mode unless check is set and another
// transaction holds the row in a conflicting mode, which it reports
// (false) without recording anything. A nil txn (a statement outside a
// block, whose locks end with it) only checks.
func (l *rowLocks) take(key kv.Key, txn *Txn, mode kv.LockMode, check bool) bool {
	k := lockKey(key)
	l.mu.Lock()
	defer l.mu.Unlock()
	holders := l.held[k]
	mine := false
	for _, h := range holders {
		if h.txn == txn {
			mine = mine || h.mode == mode || h.mode == kv.LockUpdate
			continue
		}
		if check && lockConflicts(mode, h.mode) {
			return false
		}
	}
	if txn == nil || mine {
		return true
	}
	if l.held == nil {
		l.held, l.byTxn = map[string][]rowLockHolder{}, map[*Txn][]heldRow{}
	}
	l.held[k] = append(holders, rowLockHolder{txn: txn, mode: mode})
	l.byTxn[txn] = append(l.byTxn[txn], heldRow{key: k, mode: mode})
	return true
}

// count is how many locks txn has recorded, which releaseAfter can go
// back to.
func (l *rowLocks) count(txn *Txn) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.byTxn[txn])
}

// release forgets every lock txn recorded: it committed or rolled back.
func (l *rowLocks) release(txn *Txn) { l.releaseAfter(txn, 0) }

// releaseAfter forgets the locks txn recorded after its first n (it
// rolled back to a savepoint taken then).
func (l *rowLocks) releaseAfter(txn *Txn, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	keys := l.byTxn[txn]
	if n >= len(keys) {
		return
	}
	for _, r := range keys[n:] {
		holders := slices.DeleteFunc(l.held[r.key], func(h rowLockHolder) bool { return h.txn == txn && h.mode == r.mode })
		if len(holders) == 0 {
			delete(l.held, r.key)
		} else {
			l.held[r.key] = holders
		}
	}
	if n == 0 {
		delete(l.byTxn, txn)
	} else {
		l.byTxn[txn] = keys[:n]
	}
}
