// Package kvprefix is one database's view of a store: every partition a
// request names is stored under the database's prefix, so databases that
// share one store (a Pebble directory, a DynamoDB table) never meet.
//
// Layout: a database numbered id stores partition p as Prefix(id) ‖ p.
// Prefix begins with 0xff, which begins no partition of the unprefixed
// layout (those begin with a tag letter: 'T', 'I', 'S', 'C'), so the first
// database, which keeps the unprefixed layout stores had before there were
// several, never meets another. A few items are the cluster's rather than
// a database's (roles, the registry of databases, the catalog's version
// markers); a request reaches them unprefixed by naming Shared(p).
//
// The view offers what the store offers among kv.Transactional (always
// required), kv.BulkWriter, kv.Compacter and kv.SizeEstimator. Items it
// returns carry the partitions the caller named. Close ends the view (its
// requests then fail with kv.ErrClosed) but not the store, which belongs
// to its opener.
package kvprefix

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"sync/atomic"

	"github.com/zproxy/zproxy/kv"
)

// prefixTag and sharedTag begin a database's prefix and a shared
// partition's name; no unprefixed partition begins with 0xff.
var (
	prefixTag = []byte{0xff, 'd'}
	sharedTag = []byte{0xff, 's'}
)

// Prefix is the prefix of database id's partitions. Its length is fixed,
// so no database's prefix is a prefix of another's.
func Prefix(id uint64) []byte {
	return binary.BigEndian.AppendUint64(bytes.Clone(prefixTag), id)
}

// Shared names partition p of the unprefixed layout through a view: the
// view passes it to the store as p.
func Shared(p []byte) []byte { return append(bytes.Clone(sharedTag), p...) }

// New returns database prefix's view of store (a kv.Transactional).
func New(store kv.Store, prefix []byte) kv.Store {
	s := &view{inner: store, prefix: prefix}
	_, bulk := store.(kv.BulkWriter)
	_, compact := store.(kv.Compacter)
	_, size := store.(kv.SizeEstimator)
	_, snap := store.(kv.Snapshotter)
	if bulk && compact && size && snap {
		return &fullView{s}
	}
	return s
}

// view is the view's kv.Store and kv.Transactional.
type view struct {
	inner  kv.Store
	prefix []byte
	closed atomic.Bool
}

// fullView adds the optional interfaces of a store that has them all
// (Pebble).
type fullView struct{ *view }

var (
	_ kv.Transactional = (*view)(nil)
	_ kv.BulkWriter    = (*fullView)(nil)
	_ kv.Compacter     = (*fullView)(nil)
	_ kv.SizeEstimator = (*fullView)(nil)
	_ kv.Snapshotter   = (*fullView)(nil)
)

// Snapshot implements kv.Snapshotter: the store's snapshot, seen through
// the view.
func (s *fullView) Snapshot(ctx context.Context) (kv.Snapshot, error) {
	if s.closed.Load() {
		return nil, kv.ErrClosed
	}
	inner, err := s.inner.(kv.Snapshotter).Snapshot(ctx)
	if inner == nil || err != nil {
		return nil, err
	}
	return &snapshot{s: s.view, inner: inner}, nil
}

// snapshot is a view's kv.Snapshot.
type snapshot struct {
	s     *view
	inner kv.Snapshot
}

func (v *snapshot) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	return v.s.getThrough(ctx, v.inner, req)
}

func (v *snapshot) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	return v.s.scanThrough(ctx, v.inner, req)
}

// reader is what the view reads through: its store, a transaction or a
// snapshot of the store.
type reader interface {
	Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error)
	Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator
}

// getThrough is Get of the view's keys through r.
func (s *view) getThrough(ctx context.Context, r reader, req kv.GetRequest) ([]kv.Item, error) {
	items, err := r.Get(ctx, s.getRequest(req))
	return found(req.Keys, items), err
}

// scanThrough is Scan of the view's partition through r.
func (s *view) scanThrough(ctx context.Context, r reader, req kv.ScanRequest) kv.Iterator {
	p := req.Partition
	req.Partition = s.partition(p)
	return wrapIterator(r.Scan(ctx, req), p)
}

func (v *snapshot) Release() { v.inner.Release() }

// partition maps a caller's partition to the store's.
func (s *view) partition(p []byte) []byte {
	if bytes.HasPrefix(p, sharedTag) {
		return p[len(sharedTag):]
	}
	out := make([]byte, 0, len(s.prefix)+len(p))
	return append(append(out, s.prefix...), p...)
}

func (s *view) key(k kv.Key) kv.Key { return kv.Key{Partition: s.partition(k.Partition), Sort: k.Sort} }

func (s *view) ops(ops []kv.Op) []kv.Op {
	out := make([]kv.Op, len(ops))
	for i, op := range ops {
		op.Key = s.key(op.Key)
		out[i] = op
	}
	return out
}

func (s *view) getRequest(req kv.GetRequest) kv.GetRequest {
	keys := make([]kv.Key, len(req.Keys))
	for i, k := range req.Keys {
		keys[i] = s.key(k)
	}
	req.Keys = keys
	return req
}

// found gives the items of a Get the caller's keys back.
func found(keys []kv.Key, items []kv.Item) []kv.Item {
	for i := range items {
		if kv.Found(items[i]) {
			items[i].Key = keys[i]
		}
	}
	return items
}

// condition gives a failed condition the caller's key back.
func condition(err error, ops []kv.Op) error {
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) && cf.Index >= 0 && cf.Index < len(ops) {
		return &kv.ConditionFailedError{Index: cf.Index, Key: ops[cf.Index].Key}
	}
	return err
}

// Get implements kv.Store.
func (s *view) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	if s.closed.Load() {
		return nil, kv.ErrClosed
	}
	return s.getThrough(ctx, s.inner, req)
}

// Scan implements kv.Store.
func (s *view) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	if s.closed.Load() {
		return kv.FailedIterator(kv.ErrClosed)
	}
	return s.scanThrough(ctx, s.inner, req)
}

// Write implements kv.Store.
func (s *view) Write(ctx context.Context, b kv.Batch) error {
	if s.closed.Load() {
		return kv.ErrClosed
	}
	ops := b.Ops
	b.Ops = s.ops(ops)
	return condition(s.inner.Write(ctx, b), ops)
}

// Capabilities implements kv.Store: the store's.
func (s *view) Capabilities() kv.Capabilities { return s.inner.Capabilities() }

// Close implements kv.Store: it ends the view; the store is its opener's
// to close.
func (s *view) Close() error { s.closed.Store(true); return nil }

// Begin implements kv.Transactional.
func (s *view) Begin(ctx context.Context, opts kv.TxnOptions) (kv.Txn, error) {
	if s.closed.Load() {
		return nil, kv.ErrClosed
	}
	t, err := s.inner.(kv.Transactional).Begin(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &txn{s: s, inner: t}, nil
}

// NewBulk implements kv.BulkWriter.
func (s *fullView) NewBulk() kv.Bulk {
	return &bulk{s: s.view, inner: s.inner.(kv.BulkWriter).NewBulk()}
}

// CompactPartitions implements kv.Compacter.
func (s *fullView) CompactPartitions(ctx context.Context, partitions [][]byte) error {
	return s.inner.(kv.Compacter).CompactPartitions(ctx, s.partitions(partitions))
}

// PartitionBytes implements kv.SizeEstimator.
func (s *fullView) PartitionBytes(ctx context.Context, partitions [][]byte) (int64, error) {
	return s.inner.(kv.SizeEstimator).PartitionBytes(ctx, s.partitions(partitions))
}

func (s *view) partitions(ps [][]byte) [][]byte {
	out := make([][]byte, len(ps))
	for i, p := range ps {
		out[i] = s.partition(p)
	}
	return out
}

// txn is a transaction through the view.
type txn struct {
	s     *view
	inner kv.Txn
}

// ExportSnapshot implements kv.SnapshotExporter: the store's snapshot.
func (t *txn) ExportSnapshot() (string, error) { return kv.ExportSnapshot(t.inner) }

func (t *txn) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	return t.s.getThrough(ctx, t.inner, req)
}

func (t *txn) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	return t.s.scanThrough(ctx, t.inner, req)
}

func (t *txn) Write(ctx context.Context, b kv.Batch) error {
	ops := b.Ops
	b.Ops = t.s.ops(ops)
	return condition(t.inner.Write(ctx, b), ops)
}

func (t *txn) Lock(ctx context.Context, keys []kv.Key, mode kv.LockMode) error {
	mapped := make([]kv.Key, len(keys))
	for i, k := range keys {
		mapped[i] = t.s.key(k)
	}
	return t.inner.Lock(ctx, mapped, mode)
}

func (t *txn) Savepoint() kv.Savepoint          { return t.inner.Savepoint() }
func (t *txn) RollbackTo(sp kv.Savepoint) error { return t.inner.RollbackTo(sp) }
func (t *txn) Release(sp kv.Savepoint) error    { return t.inner.Release(sp) }
func (t *txn) Commit(ctx context.Context) error { return t.inner.Commit(ctx) }
func (t *txn) Rollback() error                  { return t.inner.Rollback() }

// bulk is an atomic batch through the view.
type bulk struct {
	s     *view
	inner kv.Bulk
	// partitions are the caller's partitions of the ops added, by op
	// number, so Op returns them.
	partitions [][]byte
}

func (b *bulk) Add(ops []kv.Op) error {
	err := b.inner.Add(b.s.ops(ops))
	n := len(ops) // the ops now in the batch
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		// Ops are numbered over every Add; those before the failed one
		// are in the batch.
		if i := cf.Index - len(b.partitions); i >= 0 && i < len(ops) {
			n = i
			err = &kv.ConditionFailedError{Index: cf.Index, Key: ops[i].Key}
		}
	} else if err != nil {
		n = 0
	}
	for _, op := range ops[:n] {
		b.partitions = append(b.partitions, op.Key.Partition)
	}
	return err
}

func (b *bulk) Size() int64 { return b.inner.Size() }

func (b *bulk) FirstStored(ctx context.Context) (int, error) { return b.inner.FirstStored(ctx) }

func (b *bulk) Op(i int) (kv.Op, bool) {
	op, ok := b.inner.Op(i)
	if ok && i < len(b.partitions) {
		op.Key.Partition = b.partitions[i]
	}
	return op, ok
}

func (b *bulk) Commit(ctx context.Context, stats *kv.Stats) error {
	err := b.inner.Commit(ctx, stats)
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) && cf.Index >= 0 && cf.Index < len(b.partitions) {
		return &kv.ConditionFailedError{Index: cf.Index, Key: kv.Key{Partition: b.partitions[cf.Index], Sort: cf.Key.Sort}}
	}
	return err
}

func (b *bulk) Close() { b.inner.Close() }

// iterator gives a scan's items the caller's partition back.
type iterator struct {
	kv.Iterator
	partition []byte
}

// keyIterator is an iterator over a kv.KeyIterator, still one.
type keyIterator struct{ iterator }

func wrapIterator(it kv.Iterator, partition []byte) kv.Iterator {
	w := iterator{Iterator: it, partition: partition}
	if _, ok := it.(kv.KeyIterator); ok {
		return &keyIterator{w}
	}
	return &w
}

// SortKeys forwards to the view's store's iterator (kv.KeyLister): sort
// keys are the same in a view, only partitions move.
func (it *iterator) SortKeys() (kv.KeyList, bool) { return kv.ListSortKeys(it.Iterator) }

// Prefetch forwards to the view's store's iterator.
func (it *iterator) Prefetch() bool { return kv.Prefetch(it.Iterator) }

// Rescan forwards to the view's store's iterator (kv.Rescanner), which
// refuses when it is not one: a view moves a request's partition, never
// its range.
func (it *iterator) Rescan(start, end []byte) bool {
	r, ok := it.Iterator.(kv.Rescanner)
	return ok && r.Rescan(start, end)
}

func (it *iterator) Item() kv.Item {
	item := it.Iterator.Item()
	item.Key.Partition = it.partition
	return item
}

func (it *keyIterator) Key() kv.Key {
	k := it.Iterator.(kv.KeyIterator).Key()
	k.Partition = it.partition
	return k
}
