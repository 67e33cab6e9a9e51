package pebble

import (
	"bytes"
	"hash/maphash"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble"
)

// The row cache: the stored values of keys read by point gets, kept so
// the next get of the same key is a hash lookup instead of a seek through
// Pebble's levels (a two-level index block, a data block and the binary
// and linear searches in each: some 4 µs a row in a gin scan's row get,
// which is half its CPU; bench/README.md). RocksDB has the same idea as
// its row_cache. It serves Store.Get and a transaction's Get; scans read
// Pebble as before.
//
// Consistency. A reader must see exactly its snapshot, whichever of its
// keys come from the cache. Every commit takes a stamp (begin), drops the
// keys it writes from the cache and raises their shards' lastInv to the
// stamp, applies its batch, and then ends the stamp (end). done is the
// largest stamp whose commit, and every earlier one, has applied. A
// reader loads done (its stamp R) before it takes its Pebble snapshot (or
// reads the live database), so its snapshot holds every commit ≤ R.
//
//   - A value read at R is inserted with validFrom R only if its shard's
//     lastInv ≤ R: no commit after R has dropped a key of the shard, so
//     none that could have written this key has applied. Under the
//     shard's lock, so a commit dropping the key later drops the entry.
//   - A lookup at R' hits only an entry with validFrom ≤ R': every commit
//     that wrote the key and is in the reader's snapshot dropped the key
//     before it applied, so it came before the entry's insertion and has
//     a stamp ≤ validFrom (a later one would have failed the insertion
//     or dropped the entry); the snapshot holds all commits ≤ R', so its
//     value of the key is the entry's.
//
// A reader whose snapshot is older than an entry misses and reads its
// snapshot; a busy shard's writes make its inserts fail until readers'
// stamps catch up. Both only cost hits. Ingestions and range deletions
// drop the whole cache.
//
// Memory. Each shard appends its entries to an arena of two generations
// (a []byte without pointers, which the collector does not scan, and an
// index from hash to slot, rowIndex, which it does not scan either); when the current
// one fills, the previous one is dropped and a new one begins, and a hit
// in the previous generation is copied into the current, so what is read
// often stays. An arena's bytes are never overwritten, so a value handed
// to a reader stays valid after the shard's lock is released.
type rowCache struct {
	seed   maphash.Seed
	shards [rowCacheShards]rowShard
	// genBytes is one generation's arena size in a shard.
	genBytes int

	stampMu  sync.Mutex
	issued   uint64              // the last stamp begin gave
	finished map[uint64]struct{} // stamps ended above done, out of order
	done     atomic.Uint64

	// ranges keeps the ranges scans ask to keep (rangecache.go), under
	// the same stamps.
	ranges *rangeCache

	hits, misses, rangeHits, rangeMisses atomic.Int64
}

// rowCacheShards is a power of two: enough for the reads of many sessions
// not to meet on one lock.
const rowCacheShards = 64

// defaultRowCacheSize is Options.RowCacheSize's 0.
const defaultRowCacheSize = 32 << 20

// rowCacheMaxEntry is the largest key and value cached, as a fraction of a
// generation: a few large rows must not push out everything else.
const rowCacheMaxEntryDiv = 16

// rowArenaMin is the size of a shard's first arena.
const rowArenaMin = 16 << 10

// bigBatchKeys is the number of keys from which a commit drops the whole
// cache rather than key by key.
const bigBatchKeys = 4096

type rowShard struct {
	mu sync.RWMutex
	// lastInv is the stamp of the last commit that dropped a key of the
	// shard (or all of them).
	lastInv  uint64
	cur, old rowGen
	_        [40]byte // keeps two shards' locks off one cache line
}

// rowGen is one generation of a shard: entries appended to arena, found
// by the maphash of their key.
type rowGen struct {
	arena []byte
	index rowIndex
}

// rowSlot is where an entry's key and value lie in its generation's
// arena, and the stamp from which its value is valid.
type rowSlot struct {
	off, klen, vlen uint32
	validFrom       uint64
}

// newRowCache returns a cache of about size bytes; nil (no cache) when
// size is negative.
func newRowCache(size int64) *rowCache {
	switch {
	case size < 0:
		return nil
	case size == 0:
		size = defaultRowCacheSize
	}
	c := &rowCache{
		seed:     maphash.MakeSeed(),
		genBytes: max(int(size/rowCacheShards/2), 4<<10),
		finished: map[uint64]struct{}{},
		ranges:   newRangeCache(size),
	}
	return c
}

// stamp returns a reader's stamp: every commit up to it has applied. A
// reader takes it before its snapshot.
func (c *rowCache) stamp() uint64 {
	if c == nil {
		return 0
	}
	return c.done.Load()
}

// begin returns the stamp of a commit about to drop its keys and apply.
func (c *rowCache) begin() uint64 {
	if c == nil {
		return 0
	}
	c.stampMu.Lock()
	c.issued++
	s := c.issued
	c.stampMu.Unlock()
	return s
}

// end records that the commit of stamp s has applied (or failed: it
// dropped its keys all the same, which only costs hits).
func (c *rowCache) end(s uint64) {
	if c == nil {
		return
	}
	c.stampMu.Lock()
	defer c.stampMu.Unlock()
	d := c.done.Load()
	if s != d+1 {
		c.finished[s] = struct{}{}
		return
	}
	for d = s; ; d++ {
		if _, ok := c.finished[d+1]; !ok {
			break
		}
		delete(c.finished, d+1)
	}
	c.done.Store(d)
}

func (c *rowCache) shard(h uint64) *rowShard {
	return &c.shards[h&(rowCacheShards-1)]
}

// lookup returns the cached value of key for a reader of stamp r. The
// value is the cache's own: the caller decodes it and must not change it.
func (c *rowCache) lookup(key []byte, r uint64) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	h := maphash.Bytes(c.seed, key)
	sh := c.shard(h)
	sh.mu.RLock()
	v, ok := sh.cur.find(h, key, r)
	promote := false
	if !ok {
		v, ok = sh.old.find(h, key, r)
		promote = ok
	}
	sh.mu.RUnlock()
	if !ok {
		c.misses.Add(1)
		return nil, false
	}
	c.hits.Add(1)
	if promote {
		// Read again: keep it through the next rotation. The entry keeps
		// its validFrom; insert checks nothing dropped it meanwhile.
		c.put(h, key, v, r, true)
	}
	return v, true
}

// lookupMany looks keys up as lookup does each, for a reader of stamp r:
// vals[i] is keys[i]'s cached value when hit[i]. A row get of a gin scan
// looks up a hundred or more rows at once, and one lookup at a time they
// were a quarter of its CPU (bench/README.md, "Issue 28, round eight"): each
// is two or three memory misses (the slot, the arena's key, and the old
// generation's slot on a miss in the current), and the read lock's atomic
// instructions around each lookup kept the processor from overlapping one
// lookup's misses with the next's. Here every shard the keys fall in is
// read-locked once, in shard order (writers hold one shard's lock at a
// time, so the order cannot deadlock), and each step runs over all the
// keys before the next step, so its independent loads are in flight
// together.
func (c *rowCache) lookupMany(keys [][]byte, r uint64, vals [][]byte, hit []bool, sc *lookupScratch) {
	if c == nil {
		clear(hit)
		return
	}
	sc.hs, sc.slots = grown(sc.hs, len(keys)), grown(sc.slots, len(keys))
	hs, slots := sc.hs, sc.slots
	var locked uint64 // a bit a shard: rowCacheShards is 64
	for i, k := range keys {
		hs[i] = maphash.Bytes(c.seed, k)
		locked |= 1 << (hs[i] & (rowCacheShards - 1))
	}
	for m := locked; m != 0; m &= m - 1 {
		c.shards[bits.TrailingZeros64(m)].mu.RLock()
	}
	// The current generations' slots, then their keys.
	for i, h := range hs {
		slots[i], hit[i] = c.shard(h).cur.index.get(h)
	}
	for i, h := range hs {
		if hit[i] {
			vals[i], hit[i] = c.shard(h).cur.value(slots[i], keys[i], r)
		}
	}
	// The old generations' for the keys the current ones lack.
	promote := sc.promote[:0]
	defer func() { sc.promote = promote }()
	for i, h := range hs {
		if !hit[i] {
			var ok bool
			if slots[i], ok = c.shard(h).old.index.get(h); ok {
				vals[i], hit[i] = c.shard(h).old.value(slots[i], keys[i], r)
				if hit[i] {
					promote = append(promote, i)
				}
			}
		}
	}
	for m := locked; m != 0; m &= m - 1 {
		c.shards[bits.TrailingZeros64(m)].mu.RUnlock()
	}
	hits := 0
	for i := range hit {
		if hit[i] {
			hits++
		}
	}
	c.hits.Add(int64(hits))
	c.misses.Add(int64(len(keys) - hits))
	// Old entries read again are kept through the next rotation (lookup).
	for _, i := range promote {
		c.put(hs[i], keys[i], vals[i], r, true)
	}
}

// lookupScratch is lookupMany's working memory, reused by its caller.
type lookupScratch struct {
	hs      []uint64
	slots   []rowSlot
	promote []int
}

// find returns the value of key's entry if it is valid at stamp r.
func (g *rowGen) find(h uint64, key []byte, r uint64) ([]byte, bool) {
	slot, ok := g.index.get(h)
	if !ok {
		return nil, false
	}
	return g.value(slot, key, r)
}

// value returns the value of slot if it is key's and valid at stamp r.
func (g *rowGen) value(slot rowSlot, key []byte, r uint64) ([]byte, bool) {
	if slot.validFrom > r {
		return nil, false
	}
	k := g.arena[slot.off : slot.off+slot.klen]
	if !bytes.Equal(k, key) {
		return nil, false
	}
	end := slot.off + slot.klen + slot.vlen
	return g.arena[slot.off+slot.klen : end : end], true
}

// insert caches key's value v as read by a reader of stamp r (see the
// type's comment for when it may).
func (c *rowCache) insert(key, v []byte, r uint64) {
	if c == nil {
		return
	}
	c.put(maphash.Bytes(c.seed, key), key, v, r, false)
}

func (c *rowCache) put(h uint64, key, v []byte, r uint64, promoted bool) {
	need := len(key) + len(v)
	if need > c.genBytes/rowCacheMaxEntryDiv {
		return
	}
	sh := c.shard(h)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.lastInv > r {
		return // a commit after r dropped a key of this shard
	}
	if promoted {
		// The entry may have been dropped (and the arena rotated) since
		// the lookup; then the value is no longer known to be current.
		if !sh.old.index.del(h) {
			return
		}
	}
	switch n := len(sh.cur.arena) + need; {
	case sh.cur.arena == nil:
		sh.cur = rowGen{arena: make([]byte, 0, min(max(rowArenaMin, need), c.genBytes))}
	case n <= cap(sh.cur.arena):
	case cap(sh.cur.arena) < c.genBytes:
		// The arena grows by copying into a larger one, so a store that
		// caches little holds little; readers keep the old one's values.
		arena := make([]byte, len(sh.cur.arena), min(max(2*cap(sh.cur.arena), n), c.genBytes))
		copy(arena, sh.cur.arena)
		sh.cur.arena = arena
		if n <= cap(arena) {
			break
		}
		fallthrough
	default:
		sh.old = sh.cur
		sh.cur = rowGen{arena: make([]byte, 0, c.genBytes)}
	}
	off := len(sh.cur.arena)
	sh.cur.arena = append(append(sh.cur.arena, key...), v...)
	sh.cur.index.put(h, rowSlot{off: uint32(off), klen: uint32(len(key)), vlen: uint32(len(v)), validFrom: r})
}

// drop removes key from the cache for the commit of stamp s.
func (c *rowCache) drop(key []byte, s uint64) {
	h := maphash.Bytes(c.seed, key)
	sh := c.shard(h)
	sh.mu.Lock()
	sh.lastInv = max(sh.lastInv, s)
	sh.cur.index.del(h)
	sh.old.index.del(h)
	sh.mu.Unlock()
	c.ranges.drop(key, s)
}

// dropAll empties the cache for the commit of stamp s.
func (c *rowCache) dropAll(s uint64) {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		sh.lastInv = max(sh.lastInv, s)
		sh.cur, sh.old = rowGen{}, rowGen{}
		sh.mu.Unlock()
	}
	c.ranges.dropAll(s)
}

// dropBatch drops the keys batch writes for the commit of stamp s: the
// whole cache for a large batch or one with a range deletion.
func (c *rowCache) dropBatch(batch *pebble.Batch, s uint64) {
	if batch.Count() >= bigBatchKeys {
		c.dropAll(s)
		return
	}
	r := batch.Reader()
	for {
		kind, ukey, _, ok, err := r.Next()
		if err != nil {
			c.dropAll(s) // cannot tell which keys: forget them all
			return
		}
		if !ok {
			return
		}
		switch kind {
		case pebble.InternalKeyKindSet, pebble.InternalKeyKindDelete,
			pebble.InternalKeyKindSingleDelete, pebble.InternalKeyKindSetWithDelete:
			c.drop(ukey, s)
		case pebble.InternalKeyKindLogData:
		default: // range deletions, merges, range keys
			c.dropAll(s)
			return
		}
	}
}

// commitBatch commits batch with opts, keeping the row cache exact: the
// batch's keys are dropped before it applies (rowCache).
func (s *Store) commitBatch(batch *pebble.Batch, opts *pebble.WriteOptions) error {
	defer s.writes.Add(1) // after the write: see snapshot.go
	c := s.rows
	if c == nil {
		return batch.Commit(opts)
	}
	stamp := c.begin()
	defer c.end(stamp)
	c.dropBatch(batch, stamp)
	return batch.Commit(opts)
}

// ingest ingests files, first emptying the row cache.
func (s *Store) ingest(paths []string) error {
	defer s.writes.Add(1) // after the ingestion: see snapshot.go
	c := s.rows
	if c == nil {
		return s.db.Ingest(paths)
	}
	stamp := c.begin()
	defer c.end(stamp)
	c.dropAll(stamp)
	return s.db.Ingest(paths)
}

// RowCacheStats returns the row cache's hits and misses since Open: rows
// read by key, and ranges scans asked to keep (rangecache.go).
func (s *Store) RowCacheStats() (hits, misses, rangeHits, rangeMisses int64) {
	if s.rows == nil {
		return 0, 0, 0, 0
	}
	return s.rows.hits.Load(), s.rows.misses.Load(), s.rows.rangeHits.Load(), s.rows.rangeMisses.Load()
}
