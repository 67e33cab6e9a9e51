package pebble

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
)

// TestRowCacheSnapshots: with a row cache small enough to rotate its
// generations all the time, readers never see anything but a snapshot.
// Writers set groups of keys to one value per commit (plain atomic
// writes, transactions, bulk commits, deletes, and now and then a range
// deletion of a whole partition); readers check that each get of a whole
// group (one key at a time, a few keys through one snapshot, or many
// through getSorted) sees one value across it, that a transaction reads
// the same values every time it reads, and, once the writers stop, that
// every key reads through the cache as Pebble holds it. It fails when the
// cache's stamps are ignored (a lookup hits whatever it finds, or an insert
// does not check its shard's lastInv).
func TestRowCacheSnapshots(t *testing.T) {
	s, err := Open("db", Options{InMemory: true, CacheSize: 8 << 20, RowCacheSize: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Written ranges are kept again soon: the test writes all the time.
	s.rows.ranges.cooldown = time.Millisecond
	ctx := context.Background()
	const groups, width = 24, 10 // width ≥ iterGetMin: a group's get is getSorted
	key := func(g, i int) kv.Key {
		return kv.Key{Partition: []byte(fmt.Sprintf("p%d", g%3)), Sort: []byte(fmt.Sprintf("g%02d-%02d", g, i))}
	}
	groupKeys := func(g, n int) []kv.Key {
		keys := make([]kv.Key, n)
		for i := range keys {
			keys[i] = key(g, i)
		}
		return keys
	}
	var version atomic.Int64
	writeGroup := func(g int, del bool) []kv.Op {
		v := version.Add(1)
		ops := make([]kv.Op, width)
		for i := range ops {
			if del {
				ops[i] = kv.Op{Kind: kv.OpDelete, Key: key(g, i)}
			} else {
				ops[i] = kv.Op{Kind: kv.OpPut, Key: key(g, i), Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrInt, I: v}}}
			}
		}
		return ops
	}
	// same reports whether items (a group's, all present or all absent)
	// hold one value.
	same := func(items []kv.Item) (int64, bool) {
		var first int64 = -1
		for i, it := range items {
			v := int64(0)
			if it.Attrs != nil {
				v = it.Attrs[0].I
			}
			if i == 0 {
				first = v
			} else if v != first {
				return first, false
			}
		}
		return first, true
	}

	deadline := time.Now().Add(2 * time.Second)
	var wg sync.WaitGroup
	var failed atomic.Bool
	fail := func(format string, args ...any) {
		if failed.CompareAndSwap(false, true) {
			t.Errorf(format, args...)
		}
	}
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(seed))
			for time.Now().Before(deadline) && !failed.Load() {
				g := rng.Intn(groups)
				var err error
				switch rng.Intn(20) {
				case 0:
					// A range deletion of one partition, then its groups
					// written again.
					p := rng.Intn(3)
					if err = s.DeletePartitionPrefix(ctx, []byte(fmt.Sprintf("p%d", p))); err == nil {
						for g := p; g < groups && err == nil; g += 3 {
							err = s.Write(ctx, kv.Batch{Ops: writeGroup(g, false), Atomic: true})
						}
					}
				case 1, 2:
					err = s.Write(ctx, kv.Batch{Ops: writeGroup(g, true), Atomic: true})
				case 3, 4, 5:
					txn, berr := s.Begin(ctx, kv.TxnOptions{})
					if berr != nil {
						err = berr
						break
					}
					if err = txn.Write(ctx, kv.Batch{Ops: writeGroup(g, false), Atomic: true}); err == nil {
						err = txn.Commit(ctx)
					} else {
						txn.Rollback()
					}
					if _, ok := errors.AsType[*kv.ConflictError](err); ok {
						err = nil
					}
				case 6:
					b := s.NewBulk()
					if err = b.Add(writeGroup(g, false)); err == nil {
						err = b.Commit(ctx, nil)
					}
					b.Close()
				default:
					err = s.Write(ctx, kv.Batch{Ops: writeGroup(g, false), Atomic: true})
				}
				if err != nil {
					fail("write: %v", err)
				}
			}
		}(int64(w))
	}
	for r := 0; r < 3; r++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(100 + seed))
			for time.Now().Before(deadline) && !failed.Load() {
				g := rng.Intn(groups)
				switch rng.Intn(4) {
				case 3: // a group's range, kept (Reread), read whole or by seeks
					items, err := scanGroup(ctx, s, g, rng)
					if err != nil {
						fail("scan: %v", err)
						return
					}
					if v, ok := same(items); !ok || (len(items) != 0 && len(items) != width && !seeking(items)) {
						fail("scan of group %d saw a partial write: first value %d, %d items", g, v, len(items))
					}
				case 0: // a whole group through getSorted, and a few keys through a snapshot
					for _, n := range []int{width, 3} {
						items, err := s.Get(ctx, kv.GetRequest{Keys: groupKeys(g, n)})
						if err != nil {
							fail("get: %v", err)
							return
						}
						if v, ok := same(items); !ok {
							fail("get of group %d (%d keys) saw a partial write: first value %d, items %v", g, n, v, items)
						}
					}
				case 1: // one key at a time never goes backwards within a key
					k := key(g, rng.Intn(width))
					a, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{k}})
					if err != nil {
						fail("get: %v", err)
						return
					}
					_ = a
				default: // a transaction reads the same snapshot every time
					txn, err := s.Begin(ctx, kv.TxnOptions{ReadOnly: true})
					if err != nil {
						fail("begin: %v", err)
						return
					}
					var first []kv.Item
					for i := 0; i < 5; i++ {
						items, err := txn.Get(ctx, kv.GetRequest{Keys: groupKeys(g, width)})
						if err != nil {
							fail("txn get: %v", err)
							break
						}
						if v, ok := same(items); !ok {
							fail("txn get of group %d saw a partial write: first value %d", g, v)
						}
						one, err := txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{key(g, i)}})
						if err != nil {
							fail("txn get: %v", err)
							break
						}
						if (one[0].Attrs == nil) != (items[i].Attrs == nil) || (one[0].Attrs != nil && one[0].Attrs[0].I != items[i].Attrs[0].I) {
							fail("txn: key %d of group %d read %v alone and %v in its group", i, g, one[0].Attrs, items[i].Attrs)
						}
						scanned, err := scanGroup(ctx, txn, g, rng)
						if err != nil {
							fail("txn scan: %v", err)
							break
						}
						if a, _ := same(items); len(scanned) > 0 && !seeking(scanned) {
							if b, ok := same(scanned); !ok || b != a {
								fail("txn read group %d as %d by key and as %d (%d items) by a scan", g, a, b, len(scanned))
							}
						}
						if first == nil {
							first = items
						} else {
							a, _ := same(first)
							b, _ := same(items)
							if a != b {
								fail("txn read group %d as %d, then as %d", g, a, b)
							}
						}
						time.Sleep(time.Duration(rng.Intn(200)) * time.Microsecond)
					}
					txn.Rollback()
				}
			}
		}(int64(r))
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	// Quiet now: every key reads through the cache as Pebble holds it.
	for g := 0; g < groups; g++ {
		for i := 0; i < width; i++ {
			k := key(g, i)
			items, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{k}})
			if err != nil {
				t.Fatal(err)
			}
			v, closer, err := s.db.Get(appendKey(nil, k))
			switch {
			case err != nil:
				if items[0].Attrs != nil {
					t.Errorf("key %v: cache read %v, Pebble holds nothing", k, items[0].Attrs)
				}
			default:
				attrs, derr := decodeValueOf(v, newProjection(nil, nil))
				closer.Close()
				if derr != nil {
					t.Fatal(derr)
				}
				if items[0].Attrs == nil || items[0].Attrs[0].I != attrs[0].I {
					t.Errorf("key %v: cache read %v, Pebble holds %v", k, items[0].Attrs, attrs)
				}
			}
		}
	}
	hits, misses, rangeHits, rangeMisses := s.RowCacheStats()
	if hits == 0 || misses == 0 || rangeHits == 0 || rangeMisses == 0 {
		t.Errorf("row cache hits %d, misses %d, ranges %d and %d: the test did not exercise it", hits, misses, rangeHits, rangeMisses)
	}
	t.Logf("row cache: %d hits, %d misses; ranges: %d hits, %d misses", hits, misses, rangeHits, rangeMisses)
}

// TestRowCacheStamps: the stamp watermark advances only over commits that
// have all ended, whatever order they end in.
func TestRowCacheStamps(t *testing.T) {
	c := newRowCache(1 << 20)
	a, b, d := c.begin(), c.begin(), c.begin()
	if c.stamp() != 0 {
		t.Fatalf("stamp %d before any commit ended", c.stamp())
	}
	c.end(b)
	if c.stamp() != 0 {
		t.Fatalf("stamp %d with commit %d still applying", c.stamp(), a)
	}
	c.end(a)
	if c.stamp() != b {
		t.Fatalf("stamp %d, want %d", c.stamp(), b)
	}
	c.end(d)
	if c.stamp() != d || len(c.finished) != 0 {
		t.Fatalf("stamp %d (want %d), %d stamps kept", c.stamp(), d, len(c.finished))
	}
	// An entry inserted at a stamp is not seen by an older reader, and a
	// drop after it turns later insertions read before the drop away.
	k := []byte("k")
	c.insert(k, []byte("v1"), d)
	if _, ok := c.lookup(k, d-1); ok {
		t.Error("a reader older than the entry hit it")
	}
	if v, ok := c.lookup(k, d); !ok || string(v) != "v1" {
		t.Errorf("lookup = %q, %v", v, ok)
	}
	e := c.begin()
	c.drop(k, e)
	c.insert(k, []byte("stale"), d) // read before the commit of e applied
	c.end(e)
	if v, ok := c.lookup(k, e); ok {
		t.Errorf("an insert read before a drop survived it: %q", v)
	}
}

// scanGroup scans group g's range asking the store to keep it, reading
// it whole or (half the time) by a seek to a random key of the group and
// the entries from there; items read after a seek are marked by a nil
// Partition in the first item.
func scanGroup(ctx context.Context, r interface {
	Scan(context.Context, kv.ScanRequest) kv.Iterator
}, g int, rng *rand.Rand) ([]kv.Item, error) {
	start := []byte(fmt.Sprintf("g%02d-", g))
	it := r.Scan(ctx, kv.ScanRequest{Partition: []byte(fmt.Sprintf("p%d", g%3)), Start: start, End: kv.PrefixEnd(start), Reread: true})
	defer it.Close()
	seek := rng.Intn(2) == 0
	if seek {
		it.Seek([]byte(fmt.Sprintf("g%02d-%02d", g, 1+rng.Intn(8))))
	}
	var items []kv.Item
	for it.Next() {
		item := it.Item()
		items = append(items, kv.Item{Key: item.Key, Attrs: append([]kv.Attr(nil), item.Attrs...)})
	}
	if seek && len(items) > 0 {
		items[0].Key.Partition = nil
	}
	return items, it.Err()
}

// seeking reports whether scanGroup read items after a seek.
func seeking(items []kv.Item) bool { return len(items) > 0 && items[0].Key.Partition == nil }

// TestRowCacheLookupMany: a batch lookup answers as one lookup a key does,
// read from the generations before it (repeated and absent keys, readers
// older than some entries, keys in the old generation, which it promotes
// as lookup does), over a cache small enough to rotate all the time. It
// fails when a step skips the old generation or the reader's stamp.
func TestRowCacheLookupMany(t *testing.T) {
	c := newRowCache(64 << 10)
	rng := rand.New(rand.NewSource(7))
	key := func() []byte { return []byte(fmt.Sprintf("k%04d", rng.Intn(3000))) }
	peek := func(k []byte, r uint64) ([]byte, bool) { // lookup without its promotion
		h := maphash.Bytes(c.seed, k)
		sh := c.shard(h)
		if v, ok := sh.cur.find(h, k, r); ok {
			return v, true
		}
		return sh.old.find(h, k, r)
	}
	stamp := uint64(0)
	hits, olds := 0, 0
	var sc lookupScratch
	for round := 0; round < 300; round++ {
		for i := 0; i < 200; i++ {
			switch rng.Intn(10) {
			case 0:
				stamp++
				c.drop(key(), stamp)
			default:
				c.insert(key(), []byte(fmt.Sprintf("v%d-%s", rng.Intn(1000), make([]byte, rng.Intn(60)))), stamp-uint64(rng.Intn(int(min(stamp, 3))+1)))
			}
		}
		keys := make([][]byte, 1+rng.Intn(300))
		for i := range keys {
			keys[i] = key()
		}
		r := stamp - uint64(rng.Intn(int(min(stamp, 2))+1))
		want := make([][]byte, len(keys))
		wantHit := make([]bool, len(keys))
		for i, k := range keys {
			want[i], wantHit[i] = peek(k, r)
			if wantHit[i] {
				h := maphash.Bytes(c.seed, k)
				if _, inCur := c.shard(h).cur.find(h, k, r); !inCur {
					olds++
				}
			}
		}
		vals, hit := make([][]byte, len(keys)), make([]bool, len(keys))
		c.lookupMany(keys, r, vals, hit, &sc)
		for i := range keys {
			if hit[i] != wantHit[i] || string(vals[i]) != string(want[i]) {
				t.Fatalf("round %d: %s at %d: got %q %v, want %q %v", round, keys[i], r, vals[i], hit[i], want[i], wantHit[i])
			}
			if hit[i] {
				hits++
				// The promotions may rotate a generation out; what stays
				// holds the same value.
				if v, ok := peek(keys[i], r); ok && string(v) != string(want[i]) {
					t.Fatalf("round %d: %s after the batch: %q, want %q", round, keys[i], v, want[i])
				}
			}
		}
	}
	if hits == 0 || olds == 0 {
		t.Fatalf("%d hits, %d of them in old generations: the test exercises nothing", hits, olds)
	}
	t.Logf("%d hits, %d in old generations", hits, olds)
}
