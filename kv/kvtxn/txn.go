package kvtxn

import (
	"context"
	"errors"
	"fmt"

	"github.com/zproxy/zproxy/kv"
)

// Backend is what a store provides to a transaction: reads at the
// transaction's snapshot, and the commit of its net writes.
type Backend interface {
	// Get reads keys at the snapshot, with kv.Store.Get's contract.
	Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error)
	// Scan reads a range at the snapshot, with kv.Store.Scan's contract.
	Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator
	// Commit applies writes (one per key, in key order, at least one)
	// atomically, or returns an error and applies nothing: a
	// *kv.ConflictError when another transaction committed a write to one
	// of the keys (or changed a locked one) after the snapshot.
	Commit(ctx context.Context, writes []Write, stats *kv.Stats) error
	// Release frees the snapshot. It is called once, after Commit or
	// instead of it.
	Release()
}

// EachBackend is a Backend that takes the writes of a commit one at a
// time (kv/pebble): each yields the n writes in key order, each Write's
// memory valid only during its yield, so a large transaction's commit
// never holds every write decoded at once. The contract is Commit's.
type EachBackend interface {
	Backend
	CommitEach(ctx context.Context, n int, each func(yield func(Write) error) error, stats *kv.Stats) error
}

// KeyChecker is a Backend that refuses some keys (DynamoDB's longest):
// Write checks each op's key with CheckKey before buffering it, so the
// statement that writes one fails, not the commit.
type KeyChecker interface {
	Backend
	CheckKey(k kv.Key) error
}

// SnapshotBackend is a Backend whose snapshot other transactions can
// begin on (kv.SnapshotExporter).
type SnapshotBackend interface {
	Backend
	ExportSnapshot() (string, error)
}

// ErrUnknownSavepoint is returned for a savepoint that was released or
// rolled back past, or never existed.
var ErrUnknownSavepoint = errors.New("kv: no such savepoint")

// Txn is a kv.Txn over a Backend: it buffers writes, evaluates their
// conditions against the snapshot with the buffer applied, merges the
// buffer into reads, keeps savepoints, and hands the net writes to the
// Backend at commit.
type Txn struct {
	backend    Backend
	opts       kv.TxnOptions
	buf        buffer
	run        run // fresh batches' puts, applied on top of buf (run.go)
	savepoints []savepoint
	done       bool
}

// savepoint is the transaction's state at a Savepoint: the frozen treap
// and the run's length and fold point.
type savepoint struct {
	buf               buffer
	runLen, runFolded int
}

var (
	_ kv.Txn              = (*Txn)(nil)
	_ kv.SnapshotExporter = (*Txn)(nil)
)

// ExportSnapshot implements kv.SnapshotExporter through the backend, if it
// can share its snapshot.
func (t *Txn) ExportSnapshot() (string, error) {
	if t.done {
		return "", kv.ErrClosed
	}
	b, ok := t.backend.(SnapshotBackend)
	if !ok {
		return "", kv.ErrSnapshotsUnsupported
	}
	return b.ExportSnapshot()
}

// New starts a transaction over backend.
func New(backend Backend, opts kv.TxnOptions) *Txn {
	return &Txn{backend: backend, opts: opts}
}

// Len returns the number of keys the transaction writes or locks (an
// upper bound while fresh batches' puts are not folded: a key put twice
// counts twice).
func (t *Txn) Len() int { return t.buf.n + t.run.pending() }

// fold moves the run's unfolded puts into the treap, in key order (the
// last put of a key wins), so the treap alone is the transaction's view.
// With no savepoint to restore them, the run's memory is let go.
func (t *Txn) fold() {
	if t.run.pending() == 0 {
		return
	}
	for _, i := range t.run.sorted() {
		t.buf.setEncoded(string(t.run.key(int(i))), WritePut, t.run.val(int(i)))
	}
	t.run.folded = len(t.run.ents)
	clear(t.run.parts)
	if len(t.savepoints) == 0 {
		t.run = run{}
	}
}

// foldFor folds the run when one of keys lies in a partition it holds.
func (t *Txn) foldFor(keys []kv.Key) {
	if t.run.pending() == 0 {
		return
	}
	for _, k := range keys {
		if t.run.touches(k.Partition) {
			t.fold()
			return
		}
	}
}

// Get implements kv.Txn.
func (t *Txn) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	if t.done {
		return nil, kv.ErrTxnDone
	}
	t.foldFor(req.Keys)
	out := make([]kv.Item, len(req.Keys))
	var missIdx []int
	var missKeys []kv.Key
	for i, k := range req.Keys {
		n, ok := t.buf.get(encodeKey(k))
		switch {
		case ok && n.kind == WritePut:
			out[i] = foundItem(k, n.attrs())
		case ok && n.kind == WriteDelete:
		default:
			missIdx = append(missIdx, i)
			missKeys = append(missKeys, k)
		}
	}
	if len(missKeys) == 0 {
		return out, nil
	}
	sub := req
	sub.Keys = missKeys
	items, err := t.backend.Get(ctx, sub)
	if err != nil {
		return nil, err
	}
	for j, i := range missIdx {
		out[i] = items[j]
	}
	return out, nil
}

func foundItem(k kv.Key, attrs []kv.Attr) kv.Item {
	if k.Partition == nil {
		k.Partition = []byte{} // kv.Found tells found items by a non-nil partition
	}
	return kv.Item{Key: k, Attrs: attrs}
}

// Scan implements kv.Txn.
func (t *Txn) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	if t.done {
		return kv.FailedIterator(kv.ErrTxnDone)
	}
	if t.run.touches(req.Partition) {
		t.fold()
	}
	prefix := partitionPrefix(req.Partition)
	lo := prefix + string(req.Start)
	hi := prefix + string(req.End)
	if req.End == nil {
		hi = string(kv.PrefixEnd([]byte(prefix)))
	}
	base := t.backend.Scan(ctx, req)
	if lo >= hi || !anyIn(t.buf.root, lo, hi) {
		return base // nothing buffered in range: no merging to do
	}
	return &mergeIter{base: base, root: t.buf.freeze().root, req: req, prefixLen: len(prefix), lo: lo, hi: hi, baseNeeded: true}
}

// Write implements kv.Txn.
func (t *Txn) Write(ctx context.Context, b kv.Batch) error {
	if t.done {
		return kv.ErrTxnDone
	}
	if t.opts.ReadOnly {
		return kv.ErrReadOnly
	}
	if kc, ok := t.backend.(KeyChecker); ok {
		for _, op := range b.Ops {
			if err := kc.CheckKey(op.Key); err != nil {
				return err
			}
		}
	}
	if runnable(b) {
		return t.writeRun(b)
	}
	keys := make([]string, len(b.Ops))
	for i, op := range b.Ops {
		if op.Kind != kv.OpPut && op.Kind != kv.OpDelete {
			return fmt.Errorf("kv: op %d has unknown kind %d", i, op.Kind)
		}
		if t.run.touches(op.Key.Partition) {
			t.fold()
		}
		keys[i] = encodeKey(op.Key)
	}
	if err := t.checkConditions(ctx, b, keys); err != nil {
		return err
	}
	for i, op := range b.Ops {
		if op.Kind == kv.OpPut {
			t.buf.set(keys[i], WritePut, op.Attrs)
		} else {
			t.buf.set(keys[i], WriteDelete, nil)
		}
	}
	return nil
}

// runnable reports whether batch b's ops go to the run: a fresh batch
// (its keys absent from the snapshot) of puts whose conditions, if any,
// are CondNotExists, which the run and the treap decide alone.
func runnable(b kv.Batch) bool {
	if !b.Fresh || len(b.Ops) == 0 {
		return false
	}
	for _, op := range b.Ops {
		if op.Kind != kv.OpPut || (op.Cond != kv.CondNone && op.Cond != kv.CondNotExists) {
			return false
		}
	}
	return true
}

// writeRun appends a runnable batch's puts to the run, checking each
// CondNotExists in op order against the run's earlier puts (this batch's
// included) and the treap; the snapshot holds none of a fresh batch's
// keys. A failed condition leaves the run as it was.
func (t *Txn) writeRun(b kv.Batch) error {
	start := len(t.run.ents)
	for i, op := range b.Ops {
		j := t.run.add(op.Key, op.Attrs)
		if op.Cond != kv.CondNotExists {
			continue
		}
		exists := t.run.putBefore(j)
		if !exists {
			n, ok := t.buf.get(t.run.keyString(j))
			exists = ok && n.kind == WritePut
		}
		if exists {
			t.run.truncate(start)
			return &kv.ConditionFailedError{Index: i, Key: op.Key}
		}
	}
	return nil
}

// keyState is a key's value in the transaction's view while a batch's
// conditions are evaluated.
type keyState struct {
	exists bool
	attrs  []kv.Attr
}

// checkConditions evaluates the batch's conditions in op order against the
// view (snapshot, buffer, then the batch's earlier ops), reading the
// snapshot once for every conditioned key the buffer does not decide
// (none for a fresh batch).
func (t *Txn) checkConditions(ctx context.Context, b kv.Batch, keys []string) error {
	state := map[string]keyState{}
	var fetch []kv.Key
	var fetchKeys []string
	for i, op := range b.Ops {
		if op.Cond == kv.CondNone {
			continue
		}
		if _, seen := state[keys[i]]; seen {
			continue
		}
		if n, ok := t.buf.get(keys[i]); ok && !n.kind.IsLock() {
			st := keyState{exists: n.kind == WritePut}
			if st.exists {
				st.attrs = n.attrs()
			}
			state[keys[i]] = st
			continue
		}
		state[keys[i]] = keyState{}
		fetch = append(fetch, op.Key)
		fetchKeys = append(fetchKeys, keys[i])
	}
	if len(state) == 0 {
		return nil
	}
	// A fresh batch's keys are absent from the snapshot (kv.Batch.Fresh):
	// those the buffer does not decide do not exist.
	if len(fetch) > 0 && !b.Fresh {
		items, err := t.backend.Get(ctx, kv.GetRequest{Keys: fetch, Consistent: true, Stats: b.Stats})
		if err != nil {
			return err
		}
		for j, it := range items {
			if kv.Found(it) {
				state[fetchKeys[j]] = keyState{exists: true, attrs: it.Attrs}
			}
		}
	}
	for i, op := range b.Ops {
		st, tracked := state[keys[i]]
		if !tracked {
			continue // no op on this key has a condition
		}
		holds := true
		switch op.Cond {
		case kv.CondNotExists:
			holds = !st.exists
		case kv.CondExists:
			holds = st.exists
		case kv.CondAttrEquals:
			holds = st.exists && kv.SameValue(kv.Lookup(st.attrs, op.CondAttr.Name), op.CondAttr)
		}
		if !holds {
			return &kv.ConditionFailedError{Index: i, Key: op.Key}
		}
		if op.Kind == kv.OpPut {
			state[keys[i]] = keyState{exists: true, attrs: op.Attrs}
		} else {
			state[keys[i]] = keyState{}
		}
	}
	return nil
}

// Lock implements kv.Txn. Locks are buffered like writes and checked by
// the Backend at commit.
func (t *Txn) Lock(ctx context.Context, keys []kv.Key, mode kv.LockMode) error {
	if t.done {
		return kv.ErrTxnDone
	}
	if t.opts.ReadOnly {
		return kv.ErrReadOnly
	}
	t.foldFor(keys)
	kind := WriteLockShare
	switch mode {
	case kv.LockShare:
	case kv.LockUpdate:
		kind = WriteLockUpdate
	default:
		return fmt.Errorf("kv: unknown lock mode %d", mode)
	}
	for _, k := range keys {
		ks := encodeKey(k)
		if n, ok := t.buf.get(ks); ok && n.kind >= kind {
			continue // already written, or locked at least as strongly
		}
		t.buf.set(ks, kind, nil)
	}
	return nil
}

// Savepoint implements kv.Txn.
func (t *Txn) Savepoint() kv.Savepoint {
	t.savepoints = append(t.savepoints, savepoint{buf: t.buf.freeze(), runLen: len(t.run.ents), runFolded: t.run.folded})
	return kv.Savepoint(len(t.savepoints) - 1)
}

// RollbackTo implements kv.Txn.
func (t *Txn) RollbackTo(sp kv.Savepoint) error {
	if t.done {
		return kv.ErrTxnDone
	}
	if sp < 0 || int(sp) >= len(t.savepoints) {
		return ErrUnknownSavepoint
	}
	// The restored tree is the savepoint's, which stays valid: continue in
	// a generation newer than any node's, so nothing of it changes in place.
	gen := t.buf.gen + 1
	s := t.savepoints[sp]
	t.buf = s.buf
	t.buf.gen = gen
	t.run.rollback(s.runLen, s.runFolded)
	t.savepoints = t.savepoints[:sp+1]
	return nil
}

// Release implements kv.Txn.
func (t *Txn) Release(sp kv.Savepoint) error {
	if t.done {
		return kv.ErrTxnDone
	}
	if sp < 0 || int(sp) >= len(t.savepoints) {
		return ErrUnknownSavepoint
	}
	t.savepoints = t.savepoints[:sp]
	return nil
}

// Writes returns the transaction's net writes in key order.
func (t *Txn) Writes() []Write {
	t.fold()
	out := make([]Write, 0, t.buf.n)
	each(t.buf.root, func(n *node) { out = append(out, n.write()) })
	return out
}

// Commit implements kv.Txn.
func (t *Txn) Commit(ctx context.Context) error {
	if t.done {
		return kv.ErrTxnDone
	}
	t.done = true
	defer t.backend.Release()
	if t.Len() == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if eb, ok := t.backend.(EachBackend); ok {
		// The run, sorted once, is merged with the treap's walk; its
		// entries are yielded from its own memory, decoded without
		// copying (a Write is valid only during its yield).
		runs := t.run.sorted()
		return eb.CommitEach(ctx, t.buf.n+len(runs), func(yield func(Write) error) error {
			var scratch []kv.Attr
			next := 0
			yieldRun := func() error {
				w := t.run.write(int(runs[next]), scratch)
				scratch = w.Attrs
				next++
				return yield(w)
			}
			var err error
			each(t.buf.root, func(n *node) {
				for err == nil && next < len(runs) && t.run.keyString(int(runs[next])) < n.key {
					err = yieldRun()
				}
				if err != nil {
					return
				}
				if next < len(runs) && t.run.keyString(int(runs[next])) == n.key {
					err = yieldRun() // the run's put is the newer write
					return
				}
				err = yield(n.write())
			})
			for err == nil && next < len(runs) {
				err = yieldRun()
			}
			return err
		}, t.opts.Stats)
	}
	return t.backend.Commit(ctx, t.Writes(), t.opts.Stats)
}

// Rollback implements kv.Txn.
func (t *Txn) Rollback() error {
	if t.done {
		return nil
	}
	t.done = true
	t.backend.Release()
	return nil
}
