package kvsplit

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/zproxy/zproxy/kv"
)

// New returns a store whose requests for a partition isLocal accepts go to
// local and all others to main. isLocal must be cheap and safe for
// concurrent use; it is called once per key of every request.
//
// The store implements kv.Transactional when both stores do, kv.BulkWriter
// when both do, and kv.Compacter when main does. Its Capabilities are
// main's. Its Close closes local only: the split store owns local, while
// main belongs to its opener, who closes it after the split store.
func New(main, local kv.Store, isLocal func(partition []byte) bool) kv.Store {
	s := &store{main: main, local: local, isLocal: isLocal}
	_, mainTxn := main.(kv.Transactional)
	_, localTxn := local.(kv.Transactional)
	_, mainBulk := main.(kv.BulkWriter)
	_, localBulk := local.(kv.BulkWriter)
	_, compact := main.(kv.Compacter)
	t, b, c := txnPart{s}, bulkPart{s}, compactPart{s}
	switch txn, bulk := mainTxn && localTxn, mainBulk && localBulk; {
	case txn && bulk && compact:
		return &storeTBC{s, t, b, c}
	case txn && bulk:
		return &storeTB{s, t, b}
	case txn && compact:
		return &storeTC{s, t, c}
	case bulk && compact:
		return &storeBC{s, b, c}
	case txn:
		return &storeT{s, t}
	case bulk:
		return &storeB{s, b}
	case compact:
		return &storeC{s, c}
	}
	return s
}

// The store's concrete types, one per set of optional interfaces, so that
// a type assertion on the store answers truthfully.
type (
	storeTBC struct {
		*store
		txnPart
		bulkPart
		compactPart
	}
	storeTB struct {
		*store
		txnPart
		bulkPart
	}
	storeTC struct {
		*store
		txnPart
		compactPart
	}
	storeBC struct {
		*store
		bulkPart
		compactPart
	}
	storeT struct {
		*store
		txnPart
	}
	storeB struct {
		*store
		bulkPart
	}
	storeC struct {
		*store
		compactPart
	}
)

var (
	_ kv.Store         = (*store)(nil)
	_ kv.Transactional = (*storeTBC)(nil)
	_ kv.BulkWriter    = (*storeTBC)(nil)
	_ kv.Compacter     = (*storeTBC)(nil)
	_ kv.Transactional = (*storeTB)(nil)
	_ kv.BulkWriter    = (*storeTB)(nil)
	_ kv.Transactional = (*storeTC)(nil)
	_ kv.Compacter     = (*storeTC)(nil)
	_ kv.BulkWriter    = (*storeBC)(nil)
	_ kv.Compacter     = (*storeBC)(nil)
	_ kv.Transactional = (*storeT)(nil)
	_ kv.BulkWriter    = (*storeB)(nil)
	_ kv.Compacter     = (*storeC)(nil)
	_ kv.Txn           = (*txn)(nil)
	_ kv.Bulk          = (*bulk)(nil)
)

// store is the split store's kv.Store half; the optional interfaces are
// the parts embedded next to it.
type store struct {
	main, local kv.Store
	isLocal     func(partition []byte) bool
	closed      atomic.Bool
}

// countLocal returns how many of keys are local.
func (s *store) countLocal(keys []kv.Key) int {
	n := 0
	for _, k := range keys {
		if s.isLocal(k.Partition) {
			n++
		}
	}
	return n
}

// countLocalOps returns how many of ops write a local key.
func (s *store) countLocalOps(ops []kv.Op) int {
	n := 0
	for _, op := range ops {
		if s.isLocal(op.Key.Partition) {
			n++
		}
	}
	return n
}

// Snapshot implements kv.Snapshotter: the main store's snapshot, and the
// local store's when it takes them (else its partitions are read as they
// are: a proxy's temporary store is written only by the session owning
// each partition). Nil when the main store takes none.
func (s *store) Snapshot(ctx context.Context) (kv.Snapshot, error) {
	sn, ok := s.main.(kv.Snapshotter)
	if !ok {
		return nil, nil
	}
	if s.closed.Load() {
		return nil, kv.ErrClosed
	}
	main, err := sn.Snapshot(ctx)
	if main == nil || err != nil {
		return nil, err
	}
	v := &snapshot{s: s, main: main, local: s.local}
	if ls, ok := s.local.(kv.Snapshotter); ok {
		local, err := ls.Snapshot(ctx)
		if err != nil {
			main.Release()
			return nil, err
		}
		if local != nil {
			v.local, v.localSnap = local, local
		}
	}
	return v, nil
}

var _ kv.Snapshotter = (*store)(nil)

// snapshot is the split store's kv.Snapshot.
type snapshot struct {
	s    *store
	main kv.Snapshot
	// local reads the local partitions: localSnap, or the local store.
	local     reader
	localSnap kv.Snapshot
}

// reader is what a snapshot reads a side through.
type reader interface {
	getter
	Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator
}

func (v *snapshot) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	switch n := v.s.countLocal(req.Keys); n {
	case 0:
		return v.main.Get(ctx, req)
	case len(req.Keys):
		return v.local.Get(ctx, req)
	}
	return v.s.splitGet(ctx, req, v.main, v.local)
}

func (v *snapshot) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	if v.s.isLocal(req.Partition) {
		return v.local.Scan(ctx, req)
	}
	return v.main.Scan(ctx, req)
}

func (v *snapshot) Release() {
	v.main.Release()
	if v.localSnap != nil {
		v.localSnap.Release()
	}
}

// Get implements kv.Store.
func (s *store) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	if s.closed.Load() {
		return nil, kv.ErrClosed
	}
	switch n := s.countLocal(req.Keys); n {
	case 0:
		return s.main.Get(ctx, req)
	case len(req.Keys):
		return s.local.Get(ctx, req)
	}
	return s.splitGet(ctx, req, s.main, s.local)
}

// getter is the Get of a kv.Store or a kv.Txn.
type getter interface {
	Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error)
}

// splitGet reads req's main keys from main and its local keys from local,
// and puts the items back in request order.
func (s *store) splitGet(ctx context.Context, req kv.GetRequest, main, local getter) ([]kv.Item, error) {
	isLocal := make([]bool, len(req.Keys))
	var mainReq, localReq kv.GetRequest = req, req
	mainReq.Keys, localReq.Keys = nil, nil
	for i, k := range req.Keys {
		if isLocal[i] = s.isLocal(k.Partition); isLocal[i] {
			localReq.Keys = append(localReq.Keys, k)
		} else {
			mainReq.Keys = append(mainReq.Keys, k)
		}
	}
	mainItems, err := main.Get(ctx, mainReq)
	if err != nil {
		return nil, err
	}
	localItems, err := local.Get(ctx, localReq)
	if err != nil {
		return nil, err
	}
	out := make([]kv.Item, len(req.Keys))
	for i := range out {
		if isLocal[i] {
			out[i], localItems = localItems[0], localItems[1:]
		} else {
			out[i], mainItems = mainItems[0], mainItems[1:]
		}
	}
	return out, nil
}

// Scan implements kv.Store. The iterator is the owning store's own.
func (s *store) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	if s.closed.Load() {
		return kv.FailedIterator(kv.ErrClosed)
	}
	if s.isLocal(req.Partition) {
		return s.local.Scan(ctx, req)
	}
	return s.main.Scan(ctx, req)
}

// maxConflictRetries bounds how often a mixed atomic batch is retried
// after its split transaction lost a write-write conflict.
const maxConflictRetries = 8

// Write implements kv.Store. A mixed non-atomic batch is written as two,
// main's half first. A mixed atomic batch is written by a split
// transaction, retried when that loses a conflict with a concurrent write
// (as a plain atomic batch would have waited for it); without
// transactions it is an error.
func (s *store) Write(ctx context.Context, b kv.Batch) error {
	if s.closed.Load() {
		return kv.ErrClosed
	}
	n := s.countLocalOps(b.Ops)
	switch {
	case n == 0:
		return s.main.Write(ctx, b)
	case n == len(b.Ops):
		return s.local.Write(ctx, b)
	case !b.Atomic:
		mainB, localB, _, _ := s.splitOps(b)
		if err := s.main.Write(ctx, mainB); err != nil {
			return err
		}
		return s.local.Write(ctx, localB)
	}
	if limit := s.main.Capabilities().MaxAtomicOps; limit > 0 && len(b.Ops) > limit {
		return kv.ErrBatchTooLarge
	}
	if _, ok := s.local.(kv.Transactional); !ok {
		return errNoTxn
	}
	if _, ok := s.main.(kv.Transactional); !ok {
		return errNoTxn
	}
	for attempt := 0; ; attempt++ {
		t, err := s.begin(ctx, kv.TxnOptions{Stats: b.Stats})
		if err != nil {
			return err
		}
		err = t.Write(ctx, b)
		if err == nil {
			err = t.Commit(ctx)
		}
		t.Rollback()
		var ce *kv.ConflictError
		if !errors.As(err, &ce) || attempt == maxConflictRetries || ctx.Err() != nil {
			return err
		}
	}
}

var errNoTxn = errors.New("kvsplit: an atomic batch writes both main and local partitions, and the stores have no transactions")

// splitOps splits b's ops into a main and a local batch, with each op's
// index in b.
func (s *store) splitOps(b kv.Batch) (mainB, localB kv.Batch, mainIdx, localIdx []int) {
	mainB, localB = kv.Batch{Atomic: b.Atomic, Stats: b.Stats}, kv.Batch{Atomic: b.Atomic, Stats: b.Stats}
	for i, op := range b.Ops {
		if s.isLocal(op.Key.Partition) {
			localB.Ops, localIdx = append(localB.Ops, op), append(localIdx, i)
		} else {
			mainB.Ops, mainIdx = append(mainB.Ops, op), append(mainIdx, i)
		}
	}
	return mainB, localB, mainIdx, localIdx
}

// Capabilities implements kv.Store: main's, the store the planner plans for.
func (s *store) Capabilities() kv.Capabilities { return s.main.Capabilities() }

// Close implements kv.Store. It closes local, not main (see New), and
// makes the split store refuse further requests.
func (s *store) Close() error {
	s.closed.Store(true)
	return s.local.Close()
}

// txnPart makes the store kv.Transactional.
type txnPart struct{ s *store }

// Begin implements kv.Transactional: main's transaction begins now,
// local's at the first access to a local partition.
func (p txnPart) Begin(ctx context.Context, opts kv.TxnOptions) (kv.Txn, error) {
	return p.s.begin(ctx, opts)
}

func (s *store) begin(ctx context.Context, opts kv.TxnOptions) (*txn, error) {
	if s.closed.Load() {
		return nil, kv.ErrClosed
	}
	m, err := s.main.(kv.Transactional).Begin(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &txn{s: s, opts: opts, main: m}, nil
}

// compactPart makes the store a kv.Compacter.
type compactPart struct{ s *store }

// CompactPartitions implements kv.Compacter: main's partitions are
// compacted by main, local ones by local if it is a kv.Compacter (and
// skipped if not).
func (p compactPart) CompactPartitions(ctx context.Context, partitions [][]byte) error {
	s := p.s
	if s.closed.Load() {
		return kv.ErrClosed
	}
	var mainParts, localParts [][]byte
	for _, part := range partitions {
		if s.isLocal(part) {
			localParts = append(localParts, part)
		} else {
			mainParts = append(mainParts, part)
		}
	}
	if len(mainParts) > 0 {
		if err := s.main.(kv.Compacter).CompactPartitions(ctx, mainParts); err != nil {
			return err
		}
	}
	if c, ok := s.local.(kv.Compacter); ok && len(localParts) > 0 {
		return c.CompactPartitions(ctx, localParts)
	}
	return nil
}

// bulkPart makes the store a kv.BulkWriter.
type bulkPart struct{ s *store }

// NewBulk implements kv.BulkWriter. The batch goes to the store of its
// first ops' partitions; ops of the other store are refused.
func (p bulkPart) NewBulk() kv.Bulk { return &bulk{s: p.s} }

// bulk is a kv.Bulk on the side its first Add chooses.
type bulk struct {
	s     *store
	b     kv.Bulk // nil until the first Add of some ops
	local bool
}

var errMixedBulk = errors.New("kvsplit: a bulk batch may not write both main and local partitions")

// Add implements kv.Bulk.
func (b *bulk) Add(ops []kv.Op) error {
	if len(ops) == 0 {
		if b.b == nil {
			return nil
		}
		return b.b.Add(ops)
	}
	n := b.s.countLocalOps(ops)
	if n != 0 && n != len(ops) {
		return errMixedBulk
	}
	local := n > 0
	switch {
	case b.b == nil && local:
		b.b, b.local = b.s.local.(kv.BulkWriter).NewBulk(), true
	case b.b == nil:
		b.b = b.s.main.(kv.BulkWriter).NewBulk()
	case local != b.local:
		return errMixedBulk
	}
	return b.b.Add(ops)
}

// Size implements kv.Bulk.
func (b *bulk) Size() int64 {
	if b.b == nil {
		return 0
	}
	return b.b.Size()
}

// FirstStored implements kv.Bulk.
func (b *bulk) FirstStored(ctx context.Context) (int, error) {
	if b.b == nil {
		return -1, nil
	}
	return b.b.FirstStored(ctx)
}

// Op implements kv.Bulk.
func (b *bulk) Op(i int) (kv.Op, bool) {
	if b.b == nil {
		return kv.Op{}, false
	}
	return b.b.Op(i)
}

// Commit implements kv.Bulk. A batch of no ops writes nothing.
func (b *bulk) Commit(ctx context.Context, stats *kv.Stats) error {
	if b.b == nil {
		return nil
	}
	return b.b.Commit(ctx, stats)
}

// Close implements kv.Bulk.
func (b *bulk) Close() {
	if b.b != nil {
		b.b.Close()
	}
}
