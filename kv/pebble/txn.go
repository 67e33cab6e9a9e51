package pebble

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtxn"
)

// Transactions (kv.Transactional).
//
// A transaction reads a Pebble snapshot taken by Begin, merged with its
// buffered writes (kv/kvtxn), and commits them as one synced Pebble batch:
// atomic and durable whatever its size, and never partly visible.
//
// Isolation is snapshot isolation with first-committer-wins, decided in
// memory because this process owns the directory. Every commit that may
// matter to a live transaction gets the next number of a commit sequence,
// and lastWrite remembers, per key, the sequence number of the last commit
// that wrote it. Begin notes the sequence number current when it takes its
// snapshot (startSeq); a transaction may commit only if no key it writes or
// locks was written by a commit numbered after its startSeq. The check,
// the batch commit and the recording of the new sequence number happen
// while holding the locks of every key involved (the same key locks
// plain writes take), so two committers of one key are serialized and the
// second sees the first's record.
//
// Plain writes (Store.Write) take part too: they record their keys when a
// read-write transaction is live, so a transaction conflicts with an
// autocommit statement as with another transaction. When none is live
// they record nothing, which keeps single writes as cheap as before: the
// only added cost is one atomic load. (A writer that finds no live
// transaction committed before any later Begin took its snapshot, so no
// transaction can miss it.)
//
// lastWrite only needs entries newer than the oldest live transaction's
// startSeq; older ones are pruned when the map has doubled, and all of it
// is dropped when the last read-write transaction ends. Read-only
// transactions are a snapshot and nothing else: they do not register.

// conflicts is the Store's first-committer-wins state.
type conflicts struct {
	// liveWriters counts read-write transactions between Begin and their
	// end; plain writes read it to decide whether to record their keys.
	liveWriters atomic.Int64

	// writes counts the writes and ingestions that returned (snapshot.go).
	writes atomic.Uint64

	txnMu     sync.Mutex
	seq       uint64            // the last commit sequence number handed out
	live      map[uint64]int    // startSeq -> live read-write transactions
	lastWrite map[string]uint64 // Pebble key -> sequence of its last write
	pruneAt   int               // prune lastWrite when it grows past this
	txns      map[*txnBackend]struct{}
	// snaps are the statements' open snapshots, and current the one a
	// statement starting now may share (snapshot.go).
	snaps   map[*sharedSnapshot]struct{}
	current *sharedSnapshot
	// exported maps the names open transactions exported their snapshots
	// under (ExportSnapshot) to them; exports numbers the names.
	exported map[string]*txnBackend
	exports  uint64

	// Serializable transactions (serial.go). serialMu is held by a
	// serializable commit from its validation until its keys are
	// recorded; liveSerial counts the live serializable transactions and
	// serialLog is the keys of the commits they may need (both under
	// txnMu); serialLogMax bounds the log (0: defaultSerialLogMax).
	serialMu     sync.Mutex
	liveSerial   int
	serialLog    commitLog
	serialLogMax int64
}

const minPruneAt = 1024

var (
	_ kv.Transactional      = (*Store)(nil)
	_ kvtxn.EachBackend     = (*txnBackend)(nil)
	_ kvtxn.SnapshotBackend = (*txnBackend)(nil)
)

// Begin starts a transaction on a snapshot of the store, or on the
// snapshot another open transaction exported (opts.Snapshot).
func (s *Store) Begin(ctx context.Context, opts kv.TxnOptions) (kv.Txn, error) {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if err := s.usable(ctx); err != nil {
		return nil, err
	}
	b := &txnBackend{s: s, rw: !opts.ReadOnly}
	if opts.Serializable && b.rw {
		// A read-only one needs no read set (serial.go).
		b.reads = &readSet{}
	}
	s.txnMu.Lock()
	defer s.txnMu.Unlock()
	if opts.Snapshot != "" {
		from := s.exported[opts.Snapshot]
		switch {
		case from == nil || from.ref == nil:
			return nil, kv.ErrUnknownSnapshot
		case b.rw && !from.rw:
			// A read-only transaction is not counted among the live
			// writers, so plain writes after its snapshot may not have
			// recorded their keys: a writer on that snapshot could
			// overwrite them unseen.
			return nil, kv.ErrSnapshotReadOnly
		}
		b.ref = from.ref
		b.ref.users++
		b.snap = b.ref.snap
		if b.rw {
			s.liveWriters.Add(1)
			b.startSeq = from.startSeq
			s.live[b.startSeq]++
		}
		s.beginSerial(b)
	} else {
		if b.rw {
			s.liveWriters.Add(1) // before the snapshot: see conflicts
			b.startSeq = s.seq
			s.live[b.startSeq]++
		}
		s.beginSerial(b)
		stamp := s.rows.stamp() // before the snapshot: see rowCache
		b.snap = s.db.NewSnapshot()
		b.ref = &snapshotRef{snap: b.snap, users: 1, stamp: stamp}
	}
	s.txns[b] = struct{}{}
	return kvtxn.New(b, opts), nil
}

// beginSerial counts b among the live serializable transactions if it is
// one. The first to begin starts the commit log empty: nothing committed
// so far was logged. (A transaction begun on an exported snapshot older
// than that fails its commit, serial.go.) The caller holds txnMu.
func (s *Store) beginSerial(b *txnBackend) {
	if b.reads == nil {
		return
	}
	if s.liveSerial == 0 {
		s.serialLog.reset(s.seq)
	}
	s.liveSerial++
}

// snapshotRef is a Pebble snapshot and the transactions reading it: one,
// or more once it was exported and other transactions began on it. The
// last to end closes it.
type snapshotRef struct {
	snap  *pebble.Snapshot // nil once closed
	users int
	stamp uint64 // the row cache's stamp of snap (rowcache.go)
}

// ExportSnapshot implements kvtxn.SnapshotBackend: a name other
// transactions can begin on b's snapshot with while b is open.
func (b *txnBackend) ExportSnapshot() (string, error) {
	s := b.s
	s.txnMu.Lock()
	defer s.txnMu.Unlock()
	if b.snap == nil {
		return "", kv.ErrClosed
	}
	s.exports++
	// The shape of PostgreSQL's names, which tools may print or parse.
	name := fmt.Sprintf("%08X-%08X-1", uint32(s.exports>>32), uint32(s.exports))
	s.exported[name] = b
	b.exportedAs = append(b.exportedAs, name)
	return name, nil
}

// recordBatch gives a committed plain batch the next sequence number for
// every key it wrote. The caller holds the keys' locks.
func (s *Store) recordBatch(batch *pebble.Batch) {
	s.txnMu.Lock()
	defer s.txnMu.Unlock()
	s.seq++
	r := batch.Reader()
	var logged []string
	for {
		_, ukey, _, ok, err := r.Next()
		if !ok || err != nil {
			break
		}
		k := string(ukey)
		s.lastWrite[k] = s.seq
		if s.liveSerial > 0 {
			logged = append(logged, k)
		}
	}
	s.logCommit(logged)
	s.maybePrune()
}

// maybePrune drops lastWrite entries no live transaction can conflict
// with. The caller holds txnMu.
func (s *Store) maybePrune() {
	if len(s.lastWrite) <= max(s.pruneAt, minPruneAt) {
		return
	}
	oldest := s.seq
	for start := range s.live {
		oldest = min(oldest, start)
	}
	for k, seq := range s.lastWrite {
		if seq <= oldest {
			delete(s.lastWrite, k)
		}
	}
	s.pruneAt = 2 * len(s.lastWrite)
}

// closeTxns releases the snapshots of transactions still open; the caller
// holds closeMu exclusively (Store.Close).
func (s *Store) closeTxns() {
	s.txnMu.Lock()
	defer s.txnMu.Unlock()
	for b := range s.txns {
		if b.ref.snap != nil {
			b.ref.snap.Close()
			b.ref.snap = nil
		}
		b.snap = nil
	}
	clear(s.txns)
	clear(s.exported)
	for v := range s.snaps {
		v.snap.Close()
	}
	clear(s.snaps)
	s.current = nil
}

// txnBackend is a transaction's snapshot and commit (kvtxn.Backend).
type txnBackend struct {
	s        *Store
	snap     *pebble.Snapshot // nil once released or closed by Store.Close
	ref      *snapshotRef     // snap and who else reads it
	rw       bool
	startSeq uint64
	// reads is a serializable transaction's read set (serial.go); nil
	// for the others.
	reads    *readSet
	released bool
	// exportedAs are the names ExportSnapshot gave b's snapshot; they
	// are forgotten when b ends.
	exportedAs []string
}

func (b *txnBackend) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	snap, err := b.snapshot()
	if err != nil {
		return nil, err
	}
	items, err := b.s.get(ctx, req, snap, b.ref.stamp)
	if err == nil && b.reads != nil {
		b.reads.addKeys(req.Keys)
	}
	return items, err
}

func (b *txnBackend) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	snap, err := b.snapshot()
	if err != nil {
		return &iterator{s: b.s, req: req, err: err, start: time.Now()}
	}
	it := b.s.scan(ctx, req, snap, b.ref.stamp)
	if b.reads != nil {
		switch it := it.(type) {
		case *iterator:
			// Its span grows as it reads; one that failed or has an
			// empty range reads nothing.
			if it.err == nil && it.pit != nil {
				it.reads, it.track = b.reads, b.reads.scan(it.lower, it.upper, req.Reverse)
			}
		case *rangeIter:
			// The range cache's copy of the whole range.
			lower, upper, _ := scanBounds(req)
			b.reads.addSpan(lower, upper)
		}
	}
	return it
}

// snapshot returns the transaction's snapshot, or kv.ErrClosed once the
// store closed it.
func (b *txnBackend) snapshot() (*pebble.Snapshot, error) {
	b.s.txnMu.Lock()
	defer b.s.txnMu.Unlock()
	if b.snap == nil {
		return nil, kv.ErrClosed
	}
	return b.snap, nil
}

// bigTxnKeys is the number of keys past which a commit holds every key
// lock at once (keyLocks.lockAll) rather than a map entry per key.
const bigTxnKeys = 1 << 16

// Commit checks that no key of writes was written after the snapshot and
// commits them in one synced batch, holding the keys' locks throughout.
func (b *txnBackend) Commit(ctx context.Context, writes []kvtxn.Write, stats *kv.Stats) error {
	return b.CommitEach(ctx, len(writes), func(yield func(kvtxn.Write) error) error {
		for _, w := range writes {
			if err := yield(w); err != nil {
				return err
			}
		}
		return nil
	}, stats)
}

// CommitEach implements kvtxn.EachBackend: Commit with the writes yielded
// one at a time. What it keeps of each is its Pebble key (in one buffer),
// its kind and its lock hash, besides the batch.
func (b *txnBackend) CommitEach(ctx context.Context, n int, each func(yield func(kvtxn.Write) error) error, stats *kv.Stats) (err error) {
	s := b.s
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return kv.ErrClosed
	}
	start := time.Now()
	defer func() { s.observe("commit", start, err) }()
	batch := s.db.NewBatch()
	defer batch.Close()
	var keys opKeys
	keys.grow(n)
	kinds := make([]kvtxn.WriteKind, 0, n)
	var valBuf []byte
	written := 0
	// A large transaction's entries gather in a bulk batch (off the heap,
	// spilling to a file) and become the batch's representation in one
	// allocation of its size; appended to a Pebble batch, which grows by
	// doubling, they cost up to three times that at once.
	var bk *bulk
	if n > bigTxnKeys {
		bk = &bulk{s: s, rchunk: -1}
		defer bk.Close()
	}
	op := make([]kv.Op, 1)
	err = each(func(w kvtxn.Write) error {
		key := keys.add(s, w.Key)
		kinds = append(kinds, w.Kind)
		var err error
		switch {
		case bk != nil && (w.Kind == kvtxn.WritePut || w.Kind == kvtxn.WriteDelete):
			op[0] = kv.Op{Kind: kv.OpPut, Key: w.Key, Attrs: w.Attrs}
			if w.Kind == kvtxn.WriteDelete {
				op[0] = kv.Op{Kind: kv.OpDelete, Key: w.Key}
			}
			err = bk.Add(op)
			written++
		case w.Kind == kvtxn.WritePut:
			if valBuf, err = appendValue(valBuf[:0], w.Attrs); err != nil {
				return err
			}
			err = batch.Set(key, valBuf, nil)
			written++
		case w.Kind == kvtxn.WriteDelete:
			err = batch.Delete(key, nil)
			written++
		}
		if err != nil {
			return fmt.Errorf("kv/pebble: commit: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var repr []byte
	if bk != nil && written > 0 {
		if repr, err = bk.repr(); err != nil {
			return err
		}
	}
	var spans readSpans
	if b.reads != nil {
		// Before the key locks, which a serializable commit takes after
		// serialMu (another serializable commit may hold them meanwhile).
		spans = b.reads.merged()
		s.serialMu.Lock()
		defer s.serialMu.Unlock()
	}
	if len(kinds) > bigTxnKeys {
		s.locks.lockAll()
		defer s.locks.unlockAll()
	} else {
		keys.locks.lock(s.locks)
		defer keys.locks.unlock(s.locks)
	}

	s.txnMu.Lock()
	for i := range kinds {
		if s.lastWrite[string(keys.key(i))] > b.startSeq {
			s.txnMu.Unlock()
			return &kv.ConflictError{Key: decodeKey(keys.key(i)), Reason: "another transaction wrote this key after this transaction's snapshot"}
		}
	}
	if b.reads != nil {
		if err := s.validateReads(b.startSeq, spans); err != nil {
			s.txnMu.Unlock()
			return err
		}
	}
	s.txnMu.Unlock()
	if written > 0 {
		// A large transaction's entries may be ingested as sstables
		// (ingest.go); the record of its keys is kept below.
		if repr != nil {
			err = s.commitRepr(repr, false)
		} else if err = s.commitBatch(batch, s.sync); err != nil {
			err = fmt.Errorf("kv/pebble: commit: %w", err)
		}
		if err != nil {
			return err
		}
		s.unflushed.Store(true)
		stats.AddRequest()
		stats.AddWritten(written)
	}
	s.txnMu.Lock()
	s.seq++
	// Only another live transaction (begun before this point: Begin
	// counts itself under txnMu) can conflict with these keys; when this
	// is the only one, recording them would cost a map entry per key
	// (a million for a large COPY in a block) for nothing.
	if s.liveWriters.Load() > 1 {
		var logged []string
		for i, k := range kinds {
			if k != kvtxn.WriteLockShare {
				key := string(keys.key(i))
				s.lastWrite[key] = s.seq
				if s.liveSerial > 0 {
					logged = append(logged, key)
				}
			}
		}
		s.logCommit(logged)
		s.maybePrune()
	}
	s.txnMu.Unlock()
	return nil
}

// Release ends the transaction: it closes the snapshot and, for a
// read-write transaction, stops counting it among the live ones.
func (b *txnBackend) Release() {
	s := b.s
	s.txnMu.Lock()
	defer s.txnMu.Unlock()
	if b.released {
		return
	}
	b.released = true
	for _, name := range b.exportedAs {
		delete(s.exported, name)
	}
	if b.snap != nil {
		if b.ref.users--; b.ref.users == 0 {
			b.ref.snap.Close()
			b.ref.snap = nil
		}
		b.snap = nil
		delete(s.txns, b)
	}
	if b.rw {
		if s.live[b.startSeq]--; s.live[b.startSeq] == 0 {
			delete(s.live, b.startSeq)
		}
		if len(s.live) == 0 {
			clear(s.lastWrite)
			s.pruneAt = 0
		}
		s.liveWriters.Add(-1)
	}
	if b.reads != nil {
		if s.liveSerial--; s.liveSerial == 0 {
			s.serialLog.reset(s.seq)
		}
	}
}
