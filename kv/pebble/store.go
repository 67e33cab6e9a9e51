package pebble

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"log"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/bloom"
	"github.com/cockroachdb/pebble/vfs"

	"github.com/zproxy/zproxy/kv"
)

// Name is the backend name in Capabilities and metrics.
const Name = "pebble"

// Options configures Open. The zero value opens an on-disk store with a
// 64 MiB block cache.
type Options struct {
	// InMemory keeps the whole store in memory (Pebble's vfs.NewMem); dir is
	// then only a name. For tests.
	InMemory bool
	// FS, when set, is the file system to use (overrides InMemory). Tests use
	// vfs.NewStrictMem to simulate a crash that loses unsynced writes.
	FS vfs.FS
	// CacheSize is the block cache size in bytes (0: 64 MiB): what it
	// holds of sstable blocks, on top of the memtables (see memTableSize).
	CacheSize int64
	// Observer, when set, receives one call per request.
	Observer kv.Observer
	// Logger receives Pebble's log output (nil: informational messages are
	// dropped, fatal ones go to the standard logger).
	Logger pebble.Logger
	// Ephemeral is for a store whose contents need not outlive the process
	// (the proxy's store of temporary tables): no write-ahead log, and
	// writes return without waiting for the disk.
	Ephemeral bool
	// IngestMinBytes is the encoded size from which an atomic bulk batch
	// or a transaction's commit is written as sstables and ingested
	// (ingest.go) rather than committed as a Pebble batch: 0 is
	// defaultIngestMinBytes, a negative value never ingests.
	IngestMinBytes int64
	// RowCacheSize is the size in bytes of the cache of values read by
	// point gets (rowcache.go): 0 is defaultRowCacheSize, a negative
	// value keeps no such cache.
	RowCacheSize int64
}

const defaultCacheSize = 64 << 20

// memTableSize is the size of a memtable. A larger one flushes (and
// compacts) less often under bulk inserts. Pebble charges its memtables,
// the one being filled and those waiting to be flushed, to the block
// cache, so Open sizes the cache for two of them on top of CacheSize:
// with a 64 MiB cache and 32 MiB memtables, the memtables reserved all of
// it and no block was ever cached (every condition check and point read
// went to the file system).
const memTableSize = 32 << 20

// l0CompactionThreshold is the L0 read amplification (sublevels) from
// which Pebble compacts L0 into the base level (Open says why 8).
const l0CompactionThreshold = 8

// Store is a kv.Store on an embedded Pebble database.
//
// Durability: every Write commits with pebble.Sync, so the write-ahead log is
// on stable storage before Write returns.
//
// Concurrency: reads never lock; a Pebble batch becomes visible to readers
// all at once. Every write (conditional or not) locks all its keys at once
// (keyLocks, by hash), checks its conditions, commits, and unlocks.
// Two writes that share a key are therefore serialized end to end, which is
// what makes a condition check and the commit that depends on it one
// critical section: an unconditional put cannot slip in between a
// CondNotExists check and its commit. Writes with disjoint keys run
// concurrently, and their syncs share Pebble's group commit.
type Store struct {
	db *pebble.DB
	// sync is how writes commit: pebble.Sync, or NoSync when Ephemeral.
	sync *pebble.WriteOptions
	// tempDir is where bulk batches spill (bulk.go): the data directory
	// on the operating system's file system, whose disk holds the data
	// anyway (the system's temporary directory may be memory, tmpfs);
	// "" for the system's temporary directory (an in-memory store).
	tempDir  string
	observer kv.Observer
	seed     maphash.Seed
	locks    *keyLocks

	// closeMu is held shared by every operation and exclusively by Close,
	// so Close never pulls the database out from under a running call.
	closeMu sync.RWMutex
	closed  bool

	itersMu sync.Mutex
	iters   map[*iterator]struct{} // open iterators, closed by Close

	conflicts // first-committer-wins bookkeeping for transactions (txn.go)

	// fs, dir and popts are the database's file system, directory and
	// options, with which ingest.go writes the sstables it ingests;
	// ingestMin is Options.IngestMinBytes resolved (0: never).
	fs          vfs.FS
	dir         string
	popts       *pebble.Options
	ingestMin   int64
	ingests     atomic.Int64  // commits ingested (IngestCount)
	ingestFiles atomic.Uint64 // names ingestion files

	// rows caches the values point gets read (rowcache.go); nil when
	// Options.RowCacheSize is negative.
	rows *rowCache

	// unflushed says a batch was committed since PartitionBytes last
	// flushed the memtable (size.go).
	unflushed atomic.Bool
}

// nonAtomicChunk bounds how much of a non-atomic batch is committed (and
// holds its key locks) at once.
const (
	nonAtomicChunkOps   = 1000
	nonAtomicChunkBytes = 4 << 20
)

var _ kv.Store = (*Store)(nil)

// Open opens (creating if needed) the store in dir.
func Open(dir string, opts Options) (*Store, error) {
	fs := opts.FS
	if fs == nil {
		if opts.InMemory {
			fs = vfs.NewMem()
		} else {
			fs = vfs.Default
		}
	}
	cacheSize := opts.CacheSize
	if cacheSize <= 0 {
		cacheSize = defaultCacheSize
	}
	logger := opts.Logger
	if logger == nil {
		logger = quietLogger{}
	}
	if err := createDurably(fs, dir); err != nil {
		return nil, fmt.Errorf("kv/pebble: create %s: %w", dir, err)
	}
	cache := pebble.NewCache(cacheSize + 2*memTableSize)
	defer cache.Unref() // the DB holds its own reference
	popts := &pebble.Options{
		FS:           fs,
		Cache:        cache,
		Logger:       logger,
		Comparer:     comparer,
		MemTableSize: memTableSize,
		// Bulk INSERTs' keys (rows and index entries) are scattered over
		// their tables, so each flushed L0 file overlaps the whole of the
		// base level and an L0 compaction rewrites all of it: Pebble's
		// default of compacting from 4 L0 sublevels rewrote the base
		// level every 4 flushes: 2.3-2.8 bytes compacted per byte
		// flushed over a 1M-row load with both indexes
		// (BenchmarkBulkLoad), 1.6-2.2 from 8. Reads then probe up to 8
		// L0 files' bloom filters instead of 4. Writes stop at 3 times
		// the threshold, Pebble's default ratio.
		L0CompactionThreshold: l0CompactionThreshold,
		L0StopWritesThreshold: 3 * l0CompactionThreshold,
	}
	// Bloom filters on whole keys let point reads of absent keys skip
	// sstables: every INSERT checks that its rows do not exist yet, and
	// point selects and index lookups are point reads too.
	popts.Levels = make([]pebble.LevelOptions, 7)
	for i := range popts.Levels {
		popts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		popts.Levels[i].FilterType = pebble.TableFilter
	}
	sync := pebble.Sync
	if opts.Ephemeral {
		popts.DisableWAL = true
		sync = pebble.NoSync
	}
	db, err := pebble.Open(dir, popts)
	if err != nil {
		return nil, fmt.Errorf("kv/pebble: open %s: %w", dir, err)
	}
	removeStaleIngestFiles(fs, dir)
	ingestMin := opts.IngestMinBytes
	switch {
	case ingestMin == 0:
		ingestMin = defaultIngestMinBytes
	case ingestMin < 0:
		ingestMin = 0
	}
	tempDir := ""
	if fs == vfs.Default {
		tempDir = dir
	}
	return &Store{
		db:        db,
		sync:      sync,
		tempDir:   tempDir,
		fs:        fs,
		dir:       dir,
		popts:     popts,
		ingestMin: ingestMin,
		rows:      newRowCache(opts.RowCacheSize),
		observer:  opts.Observer,
		seed:      maphash.MakeSeed(),
		locks:     newKeyLocks(),
		iters:     map[*iterator]struct{}{},
		conflicts: conflicts{
			live:      map[uint64]int{},
			lastWrite: map[string]uint64{},
			txns:      map[*txnBackend]struct{}{},
			snaps:     map[*sharedSnapshot]struct{}{},
			exported:  map[string]*txnBackend{},
		},
	}, nil
}

// createDurably creates dir if missing and syncs its parent, so that a
// crash right after the first acknowledged write cannot lose the directory
// entry itself (Pebble syncs the data directory, not its parent).
func createDurably(fs vfs.FS, dir string) error {
	if _, err := fs.Stat(dir); err == nil {
		return nil
	}
	if err := fs.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	parent, err := fs.OpenDir(fs.PathDir(dir))
	if err != nil {
		return err
	}
	return errors.Join(parent.Sync(), parent.Close())
}

type quietLogger struct{}

func (quietLogger) Infof(string, ...any)              {}
func (quietLogger) Fatalf(format string, args ...any) { log.Fatalf(format, args...) }

// Capabilities reports an embedded LSM: no batch limit, cheap seeks.
func (s *Store) Capabilities() kv.Capabilities {
	return kv.Capabilities{
		Name:           Name,
		MaxAtomicOps:   0,
		MaxGetKeys:     0,
		CheapSeek:      true,
		RequestLatency: 20 * time.Microsecond,
		Exclusive:      true,
		Isolation:      kv.IsolationSnapshot,
		KeepsVersions:  true,
		AttrIDs:        true,
		Serializable:   true,
	}
}

// usable returns why an operation cannot start: the store is closed or
// the context is done. The caller holds closeMu shared.
func (s *Store) usable(ctx context.Context) error {
	if s.closed {
		return kv.ErrClosed
	}
	return ctx.Err()
}

func (s *Store) observe(op string, start time.Time, err error) {
	if s.observer != nil {
		s.observer.ObserveRequest(Name, op, time.Since(start), err)
	}
}

// Get reads keys from one consistent snapshot. Found items carry the
// caller's Key (not a copy) and freshly allocated attributes.
func (s *Store) Get(ctx context.Context, req kv.GetRequest) (items []kv.Item, err error) {
	return s.get(ctx, req, nil, 0)
}

// get reads keys from snap, whose row cache stamp is stamp (rowcache.go),
// or from a snapshot of its own when snap is nil.
func (s *Store) get(ctx context.Context, req kv.GetRequest, snap *pebble.Snapshot, stamp uint64) (items []kv.Item, err error) {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if err := s.usable(ctx); err != nil {
		return nil, err
	}
	start := time.Now()
	defer func() { s.observe("get", start, err) }()
	req.Stats.AddRequest()

	var r pebble.Reader = s.db
	switch {
	case snap != nil:
		r = snap
	case len(req.Keys) > 1:
		stamp = s.rows.stamp() // before the snapshot: see rowCache
		snap := s.db.NewSnapshot()
		defer snap.Close()
		r = snap
	default:
		stamp = s.rows.stamp()
	}
	items = make([]kv.Item, len(req.Keys))
	if len(req.Keys) >= iterGetMin {
		return s.getSorted(r, req, items, stamp)
	}
	var keyBuf []byte
	found, readBytes := 0, 0
	proj := newProjection(req.Attrs, req.AttrIDs)
	if len(req.Keys) > 0 {
		// Room for the first key and then some: appending the partition's
		// length, the partition and the sort key to nothing grew it three
		// times, an allocation each, in every key lookup.
		k := req.Keys[0]
		keyBuf = make([]byte, 0, binary.MaxVarintLen64+len(k.Partition)+len(k.Sort)+16)
	}
	for i, k := range req.Keys {
		keyBuf = appendKey(keyBuf[:0], k)
		v, cached := s.rows.lookup(keyBuf, stamp)
		var closer io.Closer
		if !cached {
			v, closer, err = r.Get(keyBuf)
			if errors.Is(err, pebble.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("kv/pebble: get: %w", err)
			}
			s.rows.insert(keyBuf, v, stamp)
		}
		attrs, err := decodeValueOf(v, proj)
		if closer != nil {
			closer.Close()
		}
		if err != nil {
			return nil, fmt.Errorf("kv/pebble: get (%x, %x): %w", k.Partition, k.Sort, err)
		}
		items[i] = kv.Item{Key: k, Attrs: attrs}
		found++
		readBytes += len(keyBuf) + len(v)
	}
	req.Stats.AddRead(found, readBytes)
	return items, nil
}

// iterGetMin is how many keys make a get read them through one iterator
// in key order (getSorted) rather than one Get each: a Get sets up an
// iterator of its own, which dominates the cost of reading a row, while
// one iterator seeking forward from key to key reuses its position and
// the blocks it has loaded.
const iterGetMin = 8

// getSorted reads req's keys through one iterator over r, seeking to them
// in key order; items[i] is the item of req.Keys[i] (a zero item when it
// is absent).
func (s *Store) getSorted(r pebble.Reader, req kv.GetRequest, items []kv.Item, stamp uint64) (_ []kv.Item, err error) {
	sc := getScratchPool.Get().(*getScratch)
	defer sc.release()
	n := len(req.Keys)
	// One buffer holds every encoded key.
	buf := sc.buf[:0]
	ends, order := grown(sc.ends, n), grown(sc.order, n)
	for i, k := range req.Keys {
		buf = appendKey(buf, k)
		ends[i], order[i] = len(buf), i
	}
	sc.buf = buf
	enc := grown(sc.enc, n)
	for i := range enc {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		enc[i] = buf[start:ends[i]:ends[i]]
	}
	slices.SortFunc(order, func(a, b int) int { return bytes.Compare(enc[a], enc[b]) })
	cached, hit := grown(sc.cached, n), grown(sc.hit, n)
	sc.ends, sc.order, sc.enc, sc.cached, sc.hit = ends, order, enc, cached, hit
	s.rows.lookupMany(enc, stamp, cached, hit, &sc.lookup)
	// The iterator is opened at the first key the row cache does not
	// hold: a get whose rows are all cached seeks nothing.
	var it *pebble.Iterator
	defer func() {
		if it != nil {
			if cerr := it.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("kv/pebble: get: %w", cerr)
			}
		}
	}()
	exhausted := false // the iterator passed the last key stored
	found, readBytes := 0, 0
	proj := newProjection(req.Attrs, req.AttrIDs)
	var arena valueArena
	for n, i := range order {
		v := cached[i]
		if !hit[i] {
			if exhausted {
				continue
			}
			if it == nil {
				if it, err = r.NewIter(nil); err != nil {
					it = nil
					return nil, fmt.Errorf("kv/pebble: get: %w", err)
				}
			}
			if !it.SeekGE(enc[i]) {
				if err := it.Error(); err != nil {
					return nil, fmt.Errorf("kv/pebble: get: %w", err)
				}
				exhausted = true // every later key is past the last one stored
				continue
			}
			if !bytes.Equal(it.Key(), enc[i]) {
				continue
			}
			if v, err = it.ValueAndErr(); err != nil {
				return nil, fmt.Errorf("kv/pebble: get: %w", err)
			}
			s.rows.insert(enc[i], v, stamp)
		}
		arena.rows = len(order) - n
		attrs, err := decodeValueIn(v, proj, &arena)
		if err != nil {
			return nil, fmt.Errorf("kv/pebble: get (%x, %x): %w", req.Keys[i].Partition, req.Keys[i].Sort, err)
		}
		items[i] = kv.Item{Key: req.Keys[i], Attrs: attrs}
		found++
		readBytes += len(enc[i]) + len(v)
	}
	if it != nil {
		if err := it.Error(); err != nil {
			return nil, fmt.Errorf("kv/pebble: get: %w", err)
		}
	}
	req.Stats.AddRead(found, readBytes)
	return items, nil
}

// getScratch is getSorted's working memory, kept between gets in
// getScratchPool: a gin scan's row get reads a hundred or more keys, and
// their encodings, order and cache lookups were seven allocations a get.
// Nothing in it outlives the get: the items' attributes are copied out.
type getScratch struct {
	buf         []byte
	ends, order []int
	enc, cached [][]byte
	hit         []bool
	lookup      lookupScratch
}

var getScratchPool = sync.Pool{New: func() any { return new(getScratch) }}

// release returns sc to the pool, dropping its references into the row
// cache's arenas (which would keep a rotated generation alive) and any
// buffer grown past what a usual get needs.
func (sc *getScratch) release() {
	const keepKeys, keepBytes = 4096, 256 << 10
	if cap(sc.enc) > keepKeys || cap(sc.buf) > keepBytes {
		return
	}
	clear(sc.cached)
	getScratchPool.Put(sc)
}

// grown returns s resized to n elements, reallocated when it is smaller.
// The elements' values are left as they were: callers set each.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// errConditionNotAtomic rejects a condition in a non-atomic batch.
var errConditionNotAtomic = errors.New("kv/pebble: write conditions are only allowed in atomic batches")

// Write applies a batch durably. An atomic batch is one Pebble batch whose
// conditions are checked against the state before it; ops apply in order,
// so the last op on a key wins. A non-atomic batch is committed in chunks.
func (s *Store) Write(ctx context.Context, b kv.Batch) (err error) {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return kv.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err // nothing written; once a commit starts it is not interrupted
	}
	if len(b.Ops) == 0 {
		return nil
	}
	start := time.Now()
	defer func() { s.observe("write", start, err) }()
	if !b.Atomic {
		for _, op := range b.Ops {
			if op.Cond != kv.CondNone {
				return errConditionNotAtomic
			}
		}
	}

	var (
		batch    = s.db.NewBatch()
		keys     opKeys
		valBuf   []byte
		chunkLo  int // first op of the current chunk
		hasConds bool
	)
	defer func() { batch.Close() }()
	if b.Atomic {
		keys.grow(len(b.Ops))
	} else {
		keys.grow(min(len(b.Ops), nonAtomicChunkOps))
	}
	for i := range b.Ops {
		op := &b.Ops[i]
		key := keys.add(s, op.Key)
		hasConds = hasConds || op.Cond != kv.CondNone
		switch op.Kind {
		case kv.OpPut:
			if valBuf, err = appendValue(valBuf[:0], op.Attrs); err != nil {
				return err
			}
			err = batch.Set(key, valBuf, nil)
		case kv.OpDelete:
			err = batch.Delete(key, nil)
		default:
			return fmt.Errorf("kv/pebble: op %d has unknown kind %d", i, op.Kind)
		}
		if err != nil {
			return fmt.Errorf("kv/pebble: write: %w", err)
		}
		last := i == len(b.Ops)-1
		if !last && (b.Atomic || (i+1-chunkLo < nonAtomicChunkOps && batch.Len() < nonAtomicChunkBytes)) {
			continue
		}
		var conds []kv.Op
		if hasConds {
			conds = b.Ops[chunkLo : i+1]
		}
		if err := s.commit(batch, &keys, conds, chunkLo); err != nil {
			return err
		}
		b.Stats.AddRequest()
		b.Stats.AddWritten(i + 1 - chunkLo)
		if !last {
			batch.Close()
			batch = s.db.NewBatch()
			keys.reset()
			chunkLo = i + 1
		}
	}
	return nil
}

// commit checks the conditions of ops (indexes offset by base; nil when
// none has a condition) and commits batch with a WAL sync, all while
// holding the locks of the keys in ks.
func (s *Store) commit(batch *pebble.Batch, ks *opKeys, ops []kv.Op, base int) error {
	ks.locks.lock(s.locks)
	defer ks.locks.unlock(s.locks)
	if ops != nil {
		if err := s.checkConditions(ks, ops, base); err != nil {
			return err
		}
	}
	if err := s.commitBatch(batch, s.sync); err != nil {
		return fmt.Errorf("kv/pebble: commit: %w", err)
	}
	s.unflushed.Store(true)
	if s.liveWriters.Load() > 0 {
		s.recordBatch(batch)
	}
	return nil
}

// Scan opens an iterator over one partition's range. See iterator for the
// lifetime of returned items.
func (s *Store) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	return s.scan(ctx, req, nil, 0)
}

// scan opens an iterator on snap, whose row cache stamp is stamp
// (rowcache.go), or on the latest state when snap is nil.
func (s *Store) scan(ctx context.Context, req kv.ScanRequest, snap *pebble.Snapshot, stamp uint64) kv.Iterator {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	it := &iterator{s: s, req: req, start: time.Now(), proj: newProjection(req.Attrs, req.AttrIDs), rescannable: snap == nil}
	if s.closed {
		it.err = kv.ErrClosed
		return it
	}
	if err := ctx.Err(); err != nil {
		it.err = err
		return it
	}
	req.Stats.AddRequest()
	if req.Start != nil && req.End != nil && bytes.Compare(req.Start, req.End) >= 0 {
		it.exhausted = true // an empty range; Pebble wants lower <= upper
		return it
	}
	it.lower, it.upper, it.prefixLen = scanBounds(req)
	keep := req.Reread && !req.Reverse && s.rows != nil
	if snap == nil {
		stamp = s.rows.stamp() // before the iterator's view: see rowCache
	}
	if keep {
		part := it.lower[:it.prefixLen]
		if cr := s.rows.ranges.lookup(part, it.lower, it.upper, stamp); cr != nil {
			s.rows.rangeHits.Add(1)
			return &rangeIter{s: s, req: req, cr: cr, proj: it.proj, start: it.start}
		}
		s.rows.rangeMisses.Add(1)
		keep = !s.rows.ranges.knownTooLarge(part, it.lower, it.upper) && !s.rows.ranges.coolingDown(part, it.lower, it.upper)
	}
	opts := &pebble.IterOptions{LowerBound: it.lower, UpperBound: it.upper}
	var pit *pebble.Iterator
	var err error
	if snap != nil {
		pit, err = snap.NewIter(opts)
	} else {
		pit, err = s.db.NewIter(opts)
	}
	if err != nil {
		it.err = fmt.Errorf("kv/pebble: scan: %w", err)
		return it
	}
	if keep {
		// The whole range is read now and kept, unless it is too large:
		// then the iterator starts again from its first item.
		cr, err := s.rows.ranges.fill(pit, it.lower, it.upper, it.prefixLen, stamp, req.Stats)
		if err != nil {
			pit.Close()
			it.err = fmt.Errorf("kv/pebble: scan: %w", err)
			return it
		}
		if cr != nil {
			if err := pit.Close(); err != nil {
				it.err = fmt.Errorf("kv/pebble: scan: %w", err)
				return it
			}
			s.rows.ranges.insert(it.lower[:it.prefixLen], cr)
			return &rangeIter{s: s, req: req, cr: cr, proj: it.proj, start: it.start, filled: true}
		}
		s.rows.ranges.markTooLarge(it.lower[:it.prefixLen], it.lower, it.upper)
	}
	it.pit = pit
	s.itersMu.Lock()
	s.iters[it] = struct{}{}
	s.itersMu.Unlock()
	return it
}

// Close closes any iterators still open, flushes the memtable (so the next
// Open need not replay the log) and closes the database. Writes acknowledged
// before Close were already durable. Closing twice is a no-op.
func (s *Store) Close() error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.itersMu.Lock()
	for it := range s.iters {
		it.closePebble()
	}
	clear(s.iters)
	s.itersMu.Unlock()
	s.closeTxns()
	return errors.Join(s.db.Flush(), s.db.Close())
}

var _ kv.Compacter = (*Store)(nil)

// CompactPartitions implements kv.Compacter with Pebble's manual
// compaction of each partition's key span.
func (s *Store) CompactPartitions(ctx context.Context, partitions [][]byte) (err error) {
	if err := s.usable(ctx); err != nil {
		return err
	}
	start := time.Now()
	defer func() { s.observe("compact", start, err) }()
	for _, p := range partitions {
		if err := ctx.Err(); err != nil {
			return err
		}
		prefix := appendPartitionPrefix(nil, p)
		if err := s.db.Compact(prefix, kv.PrefixEnd(prefix), true); err != nil {
			return fmt.Errorf("kv/pebble: compact %x: %w", p, err)
		}
	}
	return nil
}

// LSMMetrics returns Pebble's metrics of the store's LSM (levels, flushes,
// compactions, write amplification): what benchmarks of write paths
// compare, as they do not depend on the machine's load.
func (s *Store) LSMMetrics() *pebble.Metrics {
	return s.db.Metrics()
}
