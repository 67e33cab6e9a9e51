package kvsplit

import (
	"context"
	"errors"
	"sort"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtxn"
)

// txn is a split transaction: main's transaction, begun by Begin, and
// local's, begun at the first access to a local partition. See the
// package comment for its commit order.
type txn struct {
	s     *store
	opts  kv.TxnOptions
	main  kv.Txn
	local kv.Txn // nil until the first local access
	// localStart is a savepoint of local taken as it began, when local is
	// serializable: rolling back past local's beginning rolls back to it
	// rather than abandon local, whose reads must still count at its
	// commit (a read under a savepoint rolled back is still a read).
	localStart kv.Savepoint
	keepLocal  bool
	// sps are the split savepoints, numbered by their index. Those taken
	// before local began come first and have no local half; every one
	// after has a savepoint of the current local transaction. (Rolling
	// back to one of the first kind abandons local and drops the others.)
	sps  []savepoint
	done bool
}

// savepoint is a split savepoint: main's, and local's if local had begun.
type savepoint struct {
	main, local kv.Savepoint
	hasLocal    bool
}

// localTxn returns the local transaction, beginning it if need be.
func (t *txn) localTxn(ctx context.Context) (kv.Txn, error) {
	if t.local == nil {
		if t.done {
			return nil, kv.ErrTxnDone
		}
		opts := t.opts
		opts.Snapshot = "" // an exported snapshot is main's (ExportSnapshot)
		if !t.s.local.Capabilities().Serializable {
			// Local partitions are one session's temporary tables, which
			// no other transaction reads or writes: there is nothing to
			// validate against.
			opts.Serializable = false
		}
		l, err := t.s.local.(kv.Transactional).Begin(ctx, opts)
		if err != nil {
			return nil, err
		}
		t.local = l
		if opts.Serializable {
			t.localStart, t.keepLocal = l.Savepoint(), true
		}
	}
	return t.local, nil
}

// Get implements kv.Txn.
func (t *txn) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	n := t.s.countLocal(req.Keys)
	if n == 0 {
		return t.main.Get(ctx, req)
	}
	l, err := t.localTxn(ctx)
	if err != nil {
		return nil, err
	}
	if n == len(req.Keys) {
		return l.Get(ctx, req)
	}
	return t.s.splitGet(ctx, req, t.main, l)
}

// Scan implements kv.Txn.
func (t *txn) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	if !t.s.isLocal(req.Partition) {
		return t.main.Scan(ctx, req)
	}
	l, err := t.localTxn(ctx)
	if err != nil {
		return kv.FailedIterator(err)
	}
	return l.Scan(ctx, req)
}

// Write implements kv.Txn. A mixed batch buffers both halves or neither,
// and a *kv.ConditionFailedError names the batch's first failed op.
func (t *txn) Write(ctx context.Context, b kv.Batch) error {
	if t.done {
		return kv.ErrTxnDone
	}
	if t.opts.ReadOnly {
		return kv.ErrReadOnly
	}
	n := t.s.countLocalOps(b.Ops)
	if n == 0 {
		return t.main.Write(ctx, b)
	}
	l, err := t.localTxn(ctx)
	if err != nil {
		return err
	}
	if n == len(b.Ops) {
		return l.Write(ctx, b)
	}
	mainB, localB, mainIdx, localIdx := t.s.splitOps(b)
	sp := t.main.Savepoint()
	if err := t.main.Write(ctx, mainB); err != nil {
		if rerr := undo(t.main, sp); rerr != nil {
			return errors.Join(err, rerr)
		}
		var cf *kv.ConditionFailedError
		if !errors.As(err, &cf) {
			return err
		}
		// Conditions are checked in op order, and an op's depends only on
		// earlier ops of its key, all on its side: the batch's first
		// failure is main's unless a local op before it fails too.
		first := mainIdx[cf.Index]
		if k := sort.SearchInts(localIdx, first); k > 0 {
			lsp := l.Savepoint()
			lerr := l.Write(ctx, kv.Batch{Ops: localB.Ops[:k], Stats: b.Stats})
			if rerr := undo(l, lsp); rerr != nil {
				return errors.Join(lerr, rerr)
			}
			if lerr != nil {
				return renumber(lerr, localIdx)
			}
		}
		return &kv.ConditionFailedError{Index: first, Key: cf.Key}
	}
	if err := l.Write(ctx, localB); err != nil {
		if rerr := undo(t.main, sp); rerr != nil {
			return errors.Join(err, rerr)
		}
		return renumber(err, localIdx)
	}
	return t.main.Release(sp)
}

// undo discards a transaction's writes since sp, and sp.
func undo(t kv.Txn, sp kv.Savepoint) error {
	return errors.Join(t.RollbackTo(sp), t.Release(sp))
}

// renumber gives a *kv.ConditionFailedError from a half batch the index of
// its op in the whole batch (idx maps the one onto the other).
func renumber(err error, idx []int) error {
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		return &kv.ConditionFailedError{Index: idx[cf.Index], Key: cf.Key}
	}
	return err
}

// Lock implements kv.Txn.
func (t *txn) Lock(ctx context.Context, keys []kv.Key, mode kv.LockMode) error {
	if t.done {
		return kv.ErrTxnDone
	}
	if t.opts.ReadOnly {
		return kv.ErrReadOnly
	}
	n := t.s.countLocal(keys)
	if n == 0 {
		return t.main.Lock(ctx, keys, mode)
	}
	l, err := t.localTxn(ctx)
	if err != nil {
		return err
	}
	if n == len(keys) {
		return l.Lock(ctx, keys, mode)
	}
	mainKeys, localKeys := make([]kv.Key, 0, len(keys)-n), make([]kv.Key, 0, n)
	for _, k := range keys {
		if t.s.isLocal(k.Partition) {
			localKeys = append(localKeys, k)
		} else {
			mainKeys = append(mainKeys, k)
		}
	}
	if err := t.main.Lock(ctx, mainKeys, mode); err != nil {
		return err
	}
	return l.Lock(ctx, localKeys, mode)
}

// Savepoint implements kv.Txn. It takes local's savepoint too if local
// has begun; if not, the split savepoint stands for local's empty start.
func (t *txn) Savepoint() kv.Savepoint {
	sp := savepoint{main: t.main.Savepoint()}
	if t.local != nil {
		sp.local, sp.hasLocal = t.local.Savepoint(), true
	}
	t.sps = append(t.sps, sp)
	return kv.Savepoint(len(t.sps) - 1)
}

// savepoint returns split savepoint i.
func (t *txn) savepoint(i kv.Savepoint) (savepoint, error) {
	if t.done {
		return savepoint{}, kv.ErrTxnDone
	}
	if i < 0 || int(i) >= len(t.sps) {
		return savepoint{}, kvtxn.ErrUnknownSavepoint
	}
	return t.sps[i], nil
}

// RollbackTo implements kv.Txn. Rolling back to a savepoint taken before
// local began rolls local back entirely: its transaction is abandoned and
// begun again at the next local access, as if it had never begun; a
// serializable one is rolled back to its beginning instead (localStart).
func (t *txn) RollbackTo(i kv.Savepoint) error {
	sp, err := t.savepoint(i)
	if err != nil {
		return err
	}
	if err := t.main.RollbackTo(sp.main); err != nil {
		return err
	}
	switch {
	case sp.hasLocal:
		err = t.local.RollbackTo(sp.local)
	case t.local != nil && t.keepLocal:
		err = t.local.RollbackTo(t.localStart)
	case t.local != nil:
		err = t.local.Rollback()
		t.local = nil
	}
	t.sps = t.sps[:i+1]
	return err
}

// Release implements kv.Txn.
func (t *txn) Release(i kv.Savepoint) error {
	sp, err := t.savepoint(i)
	if err != nil {
		return err
	}
	err = t.main.Release(sp.main)
	// Local's savepoints from i on begin with the first that has one.
	for _, later := range t.sps[i:] {
		if later.hasLocal {
			err = errors.Join(err, t.local.Release(later.local))
			break
		}
	}
	t.sps = t.sps[:i]
	return err
}

// Commit implements kv.Txn: main first, then local (see the package
// comment). When main's commit fails, local is rolled back and main's
// error returned.
func (t *txn) Commit(ctx context.Context) error {
	if t.done {
		return kv.ErrTxnDone
	}
	t.done = true
	if err := t.main.Commit(ctx); err != nil {
		if t.local != nil {
			t.local.Rollback()
		}
		return err
	}
	if t.local != nil {
		return t.local.Commit(ctx)
	}
	return nil
}

// Rollback implements kv.Txn.
func (t *txn) Rollback() error {
	if t.done {
		return nil
	}
	t.done = true
	err := t.main.Rollback()
	if t.local != nil {
		err = errors.Join(err, t.local.Rollback())
	}
	return err
}

// ExportSnapshot implements kv.SnapshotExporter: main's snapshot. The
// local store holds one session's temporary tables, which no other
// session reads, so a transaction beginning on the snapshot takes a fresh
// one of its own local store.
func (t *txn) ExportSnapshot() (string, error) { return kv.ExportSnapshot(t.main) }
