package pebble

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble"

	"github.com/zproxy/zproxy/kv"
)

// The range cache: whole short ranges that scans asked to keep
// (kv.ScanRequest.Reread: a gin index's posting lists), held in memory so
// the next scan of the same range steps through a slice instead of
// Pebble's merging iterator, and seeks by binary search. A conjunction of
// two tokens whose lists hold 2,000 and 10,000 entries is a zig-zag over
// both lists, nearly every entry a step through Pebble's iterator stack
// (bench/README.md, issue 28): PostgreSQL's gin reads the same lists as a
// few compressed pages.
//
// It shares the row cache's stamps (rowcache.go), with the same proof: a
// commit drops, before it applies, every cached range holding a key it
// writes and raises lastInv of the key's partition's shard; a scan
// inserts the range it read at its stamp only if that shard's lastInv is
// not past it, and hits only ranges inserted at or before its stamp.
//
// A partition's cached ranges do not overlap (a range overlapping one
// already cached is not cached), so the ranges holding a written key are
// found by one binary search.
type rangeCache struct {
	seed   maphash.Seed
	shards [rangeCacheShards]rangeShard
	// maxBytes is what all ranges may hold together; bytes is what they
	// hold. The budget is the whole cache's, not a shard's: one gin
	// index's lists are all in one partition, so in one shard.
	maxBytes int64
	bytes    atomic.Int64
	// victim is the shard eviction takes a range from next.
	victim atomic.Uint32
	// cooldown is how long a range a commit dropped is not read whole
	// again; now is the clock (tests move it).
	cooldown time.Duration
	now      func() time.Time
}

// rangeCooldown is rangeCache.cooldown: a list written to all the time (a
// popular tag on a table taking inserts) would otherwise be read whole
// after every write, where a zig-zag reads a few entries of it; so it is
// read whole at most once a cooldown.
const rangeCooldown = time.Second

// rangeCacheShards divides the ranges by partition: few, since a shard
// must hold several ranges of thousands of entries.
const rangeCacheShards = 16

// rangeCacheFraction is the part of the row cache's size that ranges get.
const rangeCacheFraction = 4

// maxRangeEntries bounds the entries of one cached range, so a scan asking
// to be kept reads at most that many entries more than it would have.
const maxRangeEntries = 1 << 16

type rangeShard struct {
	mu      sync.RWMutex
	lastInv uint64
	parts   map[string][]*cachedRange // partition prefix → ranges by lower bound
	// tooLarge holds the hashes of ranges found too large to keep, so a
	// scan of one does not read it whole again only to give up (a rare
	// token beside one on most rows, in a zig-zag that would seek).
	tooLarge map[uint64]struct{}
	// cooling holds the hashes of ranges a commit dropped, with when they
	// may be read whole again.
	cooling map[uint64]time.Time
}

// maxCooling bounds a shard's cooling set; a full set starts again.
const maxCooling = 1024

// coolingDown reports whether [lo, hi) of part was dropped by a commit
// less than a cooldown ago.
func (c *rangeCache) coolingDown(part, lo, hi []byte) bool {
	sh := c.shard(part)
	sh.mu.RLock()
	until, ok := sh.cooling[c.rangeHash(lo, hi)]
	sh.mu.RUnlock()
	return ok && c.now().Before(until)
}

// maxTooLarge bounds a shard's tooLarge set; a full set starts again.
const maxTooLarge = 1024

func (c *rangeCache) rangeHash(lo, hi []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.Write(lo)
	h.WriteByte(0)
	h.Write(hi)
	return h.Sum64()
}

// knownTooLarge reports whether [lo, hi) of part was found too large to
// keep.
func (c *rangeCache) knownTooLarge(part, lo, hi []byte) bool {
	sh := c.shard(part)
	sh.mu.RLock()
	_, ok := sh.tooLarge[c.rangeHash(lo, hi)]
	sh.mu.RUnlock()
	return ok
}

// markTooLarge records that [lo, hi) of part is too large to keep.
func (c *rangeCache) markTooLarge(part, lo, hi []byte) {
	sh := c.shard(part)
	sh.mu.Lock()
	if sh.tooLarge == nil || len(sh.tooLarge) >= maxTooLarge {
		sh.tooLarge = map[uint64]struct{}{}
	}
	sh.tooLarge[c.rangeHash(lo, hi)] = struct{}{}
	sh.mu.Unlock()
}

// cachedRange is the entries of the Pebble keys [lo, hi), read at stamp
// validFrom: their keys (without the partition prefix) and values, one
// after the other in data.
type cachedRange struct {
	lo, hi    []byte
	data      []byte
	ents      []rangeEntry
	validFrom uint64
}

type rangeEntry struct{ off, klen, vlen uint32 }

func (r *cachedRange) size() int {
	return len(r.lo) + len(r.hi) + cap(r.data) + 12*cap(r.ents) + 64
}

func newRangeCache(rowCacheSize int64) *rangeCache {
	return &rangeCache{
		seed:     maphash.MakeSeed(),
		maxBytes: max(rowCacheSize/rangeCacheFraction, 1<<20),
		cooldown: rangeCooldown,
		now:      time.Now,
	}
}

// maxRangeBytes is the largest range kept: an eighth of the budget.
func (c *rangeCache) maxRangeBytes() int { return int(c.maxBytes / 8) }

// partitionOf returns the partition prefix (uvarint length and partition)
// of a Pebble key, or nil for a key too short to hold one.
func partitionOf(key []byte) []byte {
	n, w := binary.Uvarint(key)
	if w <= 0 || uint64(len(key)-w) < n {
		return nil
	}
	return key[:w+int(n)]
}

func (c *rangeCache) shard(part []byte) *rangeShard {
	return &c.shards[maphash.Bytes(c.seed, part)&(rangeCacheShards-1)]
}

// find returns the index of the last range of rs whose lower bound is not
// above key, or -1.
func findRange(rs []*cachedRange, key []byte) int {
	i, _ := slices.BinarySearchFunc(rs, key, func(r *cachedRange, k []byte) int {
		if bytes.Compare(r.lo, k) <= 0 {
			return -1
		}
		return 1
	})
	return i - 1
}

// lookup returns the cached range [lo, hi) of partition part if it is
// valid at stamp r.
func (c *rangeCache) lookup(part, lo, hi []byte, r uint64) *cachedRange {
	sh := c.shard(part)
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	rs := sh.parts[string(part)]
	i := findRange(rs, lo)
	if i < 0 {
		return nil
	}
	if cr := rs[i]; bytes.Equal(cr.lo, lo) && bytes.Equal(cr.hi, hi) && cr.validFrom <= r {
		return cr
	}
	return nil
}

// insert caches cr, read at stamp cr.validFrom, unless a commit after
// that dropped a key of its shard or it overlaps a range already cached.
func (c *rangeCache) insert(part []byte, cr *cachedRange) {
	size := cr.size()
	if size > c.maxRangeBytes() {
		return
	}
	c.makeRoom(int64(size))
	sh := c.shard(part)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.lastInv > cr.validFrom {
		return
	}
	if sh.parts == nil {
		sh.parts = map[string][]*cachedRange{}
	}
	rs := sh.parts[string(part)]
	i := findRange(rs, cr.lo)
	if i >= 0 && bytes.Compare(rs[i].hi, cr.lo) > 0 {
		return // overlaps the range before (or is it)
	}
	if i+1 < len(rs) && bytes.Compare(rs[i+1].lo, cr.hi) < 0 {
		return // overlaps the range after
	}
	c.bytes.Add(int64(size))
	sh.parts[string(part)] = slices.Insert(rs, i+1, cr)
}

// makeRoom drops ranges, one at a time from the shards in turn (a random
// range of a random partition of each), until size more bytes fit.
func (c *rangeCache) makeRoom(size int64) {
	for tries := 0; c.bytes.Load()+size > c.maxBytes && tries < 4*rangeCacheShards; tries++ {
		sh := &c.shards[c.victim.Add(1)%rangeCacheShards]
		sh.mu.Lock()
		for p, rs := range sh.parts {
			i := rand.IntN(len(rs))
			c.bytes.Add(-int64(rs[i].size()))
			sh.remove(p, rs, i)
			break
		}
		sh.mu.Unlock()
	}
}

// remove deletes rs[i], a range of partition p; the caller holds sh.mu.
func (sh *rangeShard) remove(p string, rs []*cachedRange, i int) {
	if rs = slices.Delete(rs, i, i+1); len(rs) == 0 {
		delete(sh.parts, p)
	} else {
		sh.parts[p] = rs
	}
}

// drop removes the cached range holding the Pebble key key for the commit
// of stamp s.
func (c *rangeCache) drop(key []byte, s uint64) {
	part := partitionOf(key)
	sh := c.shard(part)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.lastInv = max(sh.lastInv, s)
	rs := sh.parts[string(part)]
	if i := findRange(rs, key); i >= 0 && bytes.Compare(key, rs[i].hi) < 0 {
		c.bytes.Add(-int64(rs[i].size()))
		if sh.cooling == nil || len(sh.cooling) >= maxCooling {
			sh.cooling = map[uint64]time.Time{}
		}
		sh.cooling[c.rangeHash(rs[i].lo, rs[i].hi)] = c.now().Add(c.cooldown)
		sh.remove(string(part), rs, i)
	}
}

// dropAll empties the cache for the commit of stamp s.
func (c *rangeCache) dropAll(s uint64) {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.mu.Lock()
		sh.lastInv = max(sh.lastInv, s)
		for _, rs := range sh.parts {
			for _, r := range rs {
				c.bytes.Add(-int64(r.size()))
			}
		}
		sh.parts = nil
		sh.mu.Unlock()
	}
}

// fill reads the whole of pit's range into a cachedRange of stamp r, or
// returns nil, leaving pit where it stopped, when the range is too large
// to keep.
//
// The entries read count as items read in stats, whether kept or not.
func (c *rangeCache) fill(pit *pebble.Iterator, lo, hi []byte, prefixLen int, r uint64, stats *kv.Stats) (*cachedRange, error) {
	cr := &cachedRange{lo: bytes.Clone(lo), hi: bytes.Clone(hi), validFrom: r}
	read, readBytes := 0, 0
	defer func() { stats.AddRead(read, readBytes) }()
	for valid := pit.First(); valid; valid = pit.Next() {
		k, v := pit.Key()[prefixLen:], pit.Value()
		read, readBytes = read+1, readBytes+len(pit.Key())+len(v)
		if len(cr.ents) == maxRangeEntries || len(cr.data)+len(k)+len(v)+12*len(cr.ents) > c.maxRangeBytes() {
			return nil, nil
		}
		cr.ents = append(cr.ents, rangeEntry{off: uint32(len(cr.data)), klen: uint32(len(k)), vlen: uint32(len(v))})
		cr.data = append(append(cr.data, k...), v...)
	}
	if err := pit.Error(); err != nil {
		return nil, err
	}
	cr.data = slices.Clip(cr.data)
	cr.ents = slices.Clip(cr.ents)
	return cr, nil
}

// rangeIter is a kv.Iterator over a cached range: forward only (a scan
// asking to be kept is forward), seeking by binary search. Items alias the
// cache's memory, which is never written again.
type rangeIter struct {
	s        *Store
	req      kv.ScanRequest
	cr       *cachedRange
	pos      int // the next entry Next returns
	cur      kv.Item
	value    []byte
	decoded  bool
	proj     *projection
	attrBuf  []kv.Attr
	err      error
	start    time.Time
	observed bool
	// filled says the scan read the range from the store just now, and
	// counted its items then (fill): Next does not count them again.
	filled bool
}

var (
	_ kv.Iterator    = (*rangeIter)(nil)
	_ kv.KeyIterator = (*rangeIter)(nil)
	_ kv.KeyLister   = (*rangeIter)(nil)
	_ kv.KeyList     = (*cachedRange)(nil)
)

// SortKeys implements kv.KeyLister: the cached range's keys.
func (it *rangeIter) SortKeys() (kv.KeyList, bool) { return it.cr, true }

// Len implements kv.KeyList.
func (r *cachedRange) Len() int { return len(r.ents) }

// At implements kv.KeyList.
func (r *cachedRange) At(i int) []byte {
	e := r.ents[i]
	return r.data[e.off : e.off+e.klen : e.off+e.klen]
}

// Seek implements kv.KeyList.
func (r *cachedRange) Seek(from, skip int, key []byte) int {
	below := func(i int) bool {
		e := r.ents[i]
		return bytes.Compare(r.data[e.off+uint32(skip):e.off+e.klen], key) < 0
	}
	at, step := from, 1
	top := at + step
	for top < len(r.ents) && below(top) {
		at, step = top, step*2
		top = at + step
	}
	// The answer lies in (at, min(top, len)]: a binary search of it.
	lo, hi := at+1, min(top, len(r.ents))
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if below(mid) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

func (it *rangeIter) Next() bool {
	it.cur = kv.Item{}
	if it.err != nil || it.pos >= len(it.cr.ents) {
		return false
	}
	e := it.cr.ents[it.pos]
	it.pos++
	k := it.cr.data[e.off : e.off+e.klen : e.off+e.klen]
	it.value = it.cr.data[e.off+e.klen : e.off+e.klen+e.vlen : e.off+e.klen+e.vlen]
	it.cur.Key = kv.Key{Partition: it.req.Partition, Sort: k}
	it.decoded = false
	if !it.filled {
		it.req.Stats.AddRead(1, len(k)+len(it.value))
	}
	return true
}

// Key implements kv.KeyIterator.
func (it *rangeIter) Key() kv.Key { return it.cur.Key }

func (it *rangeIter) Item() kv.Item {
	if !it.decoded && it.cur.Key.Sort != nil {
		it.decoded = true
		attrs, err := decodeValueAliased(it.attrBuf, it.value, it.proj)
		if err != nil {
			it.err = err
			it.pos = len(it.cr.ents)
			return kv.Item{Key: it.cur.Key}
		}
		it.attrBuf = attrs
		it.cur.Attrs = attrs
	}
	return it.cur
}

// Seek positions the iterator so Next returns the first entry whose sort
// key is not below sort (and not below the scan's start).
func (it *rangeIter) Seek(sort []byte) {
	it.cur = kv.Item{}
	if it.err != nil {
		return
	}
	ents, data := it.cr.ents, it.cr.data
	it.pos, _ = slices.BinarySearchFunc(ents, sort, func(e rangeEntry, t []byte) int {
		return bytes.Compare(data[e.off:e.off+e.klen], t)
	})
}

func (it *rangeIter) Err() error { return it.err }

func (it *rangeIter) Close() error {
	if !it.observed {
		it.observed = true
		it.s.observe("scan", it.start, it.err)
	}
	return nil
}
