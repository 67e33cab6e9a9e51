package kvlog

import (
	"context"
	"errors"

	"github.com/zproxy/zproxy/kv"
)

// ErrNoTransactions is returned by Begin when the wrapped store does not
// implement kv.Transactional.
var ErrNoTransactions = errors.New("kvlog: the wrapped store has no transactions")

var _ kv.Transactional = (*Store)(nil)

// Begin implements kv.Transactional by beginning a transaction on the
// wrapped store and recording it; the requests of the transaction are
// recorded with their Entry.Txn set. A transaction is recorded even when
// the test ignores the partitions it touches, since Begin names none.
func (s *Store) Begin(ctx context.Context, opts kv.TxnOptions) (kv.Txn, error) {
	inner, ok := s.inner.(kv.Transactional)
	if !ok {
		return nil, ErrNoTransactions
	}
	txn, err := inner.Begin(ctx, opts)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.txns++
	id := s.txns
	s.entries = append(s.entries, &Entry{Op: OpBegin, Txn: id, TxnOptions: kv.TxnOptions{ReadOnly: opts.ReadOnly, Serializable: opts.Serializable}})
	s.mu.Unlock()
	return &loggedTxn{Txn: txn, s: s, id: id}, nil
}

// loggedTxn records a transaction's requests; savepoints are forwarded
// unrecorded (they make no store requests).
type loggedTxn struct {
	kv.Txn
	s    *Store
	id   int
	done bool // committed or rolled back: a later Rollback is not recorded
}

// ExportSnapshot implements kv.SnapshotExporter, unrecorded (it makes no
// store request).
func (t *loggedTxn) ExportSnapshot() (string, error) { return kv.ExportSnapshot(t.Txn) }

func (t *loggedTxn) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	return t.s.get(ctx, req, t.id, t.Txn.Get)
}

func (t *loggedTxn) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	return t.s.scan(ctx, req, t.id, t.Txn.Scan)
}

func (t *loggedTxn) Write(ctx context.Context, b kv.Batch) error {
	return t.s.write(ctx, b, t.id, t.Txn.Write)
}

func (t *loggedTxn) Lock(ctx context.Context, keys []kv.Key, mode kv.LockMode) error {
	e := &Entry{Op: OpLock, Txn: t.id, LockMode: mode}
	parts := make([][]byte, len(keys))
	for i, k := range keys {
		e.Keys = append(e.Keys, cloneKey(k))
		parts[i] = k.Partition
	}
	t.s.record(parts, e)
	return t.Txn.Lock(ctx, keys, mode)
}

func (t *loggedTxn) Commit(ctx context.Context) error {
	err := t.Txn.Commit(ctx)
	if t.done {
		return err
	}
	t.done = true
	t.s.mu.Lock()
	t.s.entries = append(t.s.entries, &Entry{Op: OpCommit, Txn: t.id, Err: err})
	t.s.mu.Unlock()
	return err
}

func (t *loggedTxn) Rollback() error {
	err := t.Txn.Rollback()
	if t.done {
		return err
	}
	t.done = true
	t.s.mu.Lock()
	t.s.entries = append(t.s.entries, &Entry{Op: OpRollback, Txn: t.id})
	t.s.mu.Unlock()
	return err
}
