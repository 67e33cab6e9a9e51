package pebble

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
)

// TestRangeCacheKeepsList: a list scanned with Reread is read from the
// cache the second time, whole or by seeks, with the same entries.
func TestRangeCacheKeepsList(t *testing.T) {
	s := openMem(t)
	ctx := context.Background()
	part := []byte("ix")
	var ops []kv.Op
	for _, tok := range []string{"a", "b", "c"} {
		for i := 0; i < 3000; i++ {
			sort := append([]byte(tok+"\x00"), binary.BigEndian.AppendUint32(nil, uint32(i*7))...)
			ops = append(ops, kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: part, Sort: sort}})
		}
	}
	if err := s.Write(ctx, kv.Batch{Ops: ops}); err != nil {
		t.Fatal(err)
	}
	read := func(tok string, seek []byte) [][]byte {
		start := []byte(tok + "\x00")
		it := s.Scan(ctx, kv.ScanRequest{Partition: part, Start: start, End: kv.PrefixEnd(start), Reread: true})
		defer it.Close()
		if seek != nil {
			it.Seek(seek)
		}
		var keys [][]byte
		for it.Next() {
			keys = append(keys, append([]byte(nil), it.Item().Key.Sort...))
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		return keys
	}
	first := read("b", nil)
	if len(first) != 3000 {
		t.Fatalf("read %d entries", len(first))
	}
	_, _, hits0, misses0 := s.RowCacheStats()
	again := read("b", nil)
	_, _, hits1, _ := s.RowCacheStats()
	if hits1 != hits0+1 || misses0 != 1 {
		t.Fatalf("range hits %d → %d, misses %d: the second read did not come from the cache", hits0, hits1, misses0)
	}
	if len(again) != len(first) {
		t.Fatalf("cached read %d entries, first %d", len(again), len(first))
	}
	seek := append([]byte("b\x00"), binary.BigEndian.AppendUint32(nil, 7*1000+3)...)
	if got := read("b", seek); len(got) != 1999 || string(got[0]) != string(first[1001]) {
		t.Fatalf("seek read %d entries from %x", len(got), got[0])
	}
	// A write into the list drops it; the next reads see the new entry,
	// read from the store, not kept until the cooldown has passed.
	clock := time.Now()
	s.rows.ranges.now = func() time.Time { return clock }
	sort := append([]byte("b\x00"), binary.BigEndian.AppendUint32(nil, 5)...)
	if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: kv.Key{Partition: part, Sort: sort}}}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		_, _, hitsBefore, _ := s.RowCacheStats()
		if got := read("b", nil); len(got) != 3001 {
			t.Fatalf("after a write, read %d entries", len(got))
		}
		if _, _, hits, _ := s.RowCacheStats(); hits != hitsBefore || s.rows.ranges.lookup([]byte("\x02ix"), []byte("\x02ixb\x00"), []byte("\x02ixb\x01"), s.rows.stamp()) != nil {
			t.Fatalf("read %d after the write: kept during the cooldown", i)
		}
	}
	clock = clock.Add(2 * rangeCooldown)
	read("b", nil)
	_, _, hits2, _ := s.RowCacheStats()
	if got := read("b", nil); len(got) != 3001 {
		t.Fatalf("after the cooldown, read %d entries", len(got))
	}
	if _, _, hits, _ := s.RowCacheStats(); hits != hits2+1 {
		t.Fatal("after the cooldown, the list was not kept again")
	}
}

// TestRangeCacheBudget: ranges past the budget push others out, the bytes
// kept stay within it, and every read is still the store's.
func TestRangeCacheBudget(t *testing.T) {
	s, err := Open("db", Options{InMemory: true, RowCacheSize: 4 << 20}) // ranges: 1 MiB
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	part := []byte("ix")
	const toks, per = 40, 2000 // about 60 KB a list: some 16 fit
	var ops []kv.Op
	for tok := 0; tok < toks; tok++ {
		for i := 0; i < per; i++ {
			sort := binary.BigEndian.AppendUint32([]byte{byte(tok)}, uint32(i))
			ops = append(ops, kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: part, Sort: sort}})
		}
	}
	if err := s.Write(ctx, kv.Batch{Ops: ops}); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 3; round++ {
		for tok := 0; tok < toks; tok++ {
			it := s.Scan(ctx, kv.ScanRequest{Partition: part, Start: []byte{byte(tok)}, End: []byte{byte(tok + 1)}, Reread: true})
			n := 0
			for it.Next() {
				n++
			}
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
			if n != per {
				t.Fatalf("token %d: %d entries", tok, n)
			}
			if b, m := s.rows.ranges.bytes.Load(), s.rows.ranges.maxBytes; b > m {
				t.Fatalf("ranges hold %d bytes, budget %d", b, m)
			}
		}
	}
	_, _, hits, misses := s.RowCacheStats()
	if hits == 0 || misses <= toks {
		t.Errorf("range hits %d, misses %d: want both, and evictions", hits, misses)
	}
}

// TestRangeCacheTooLarge: a range too large to keep is read whole once;
// later scans of it read only what they use (a seek near its end reads a
// few entries), and still read it right.
func TestRangeCacheTooLarge(t *testing.T) {
	s, err := Open("db", Options{InMemory: true, RowCacheSize: 4 << 20}) // ranges ≤ 128 KiB
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	part := []byte("ix")
	const n = 20000 // about 320 KB
	var ops []kv.Op
	for i := 0; i < n; i++ {
		ops = append(ops, kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: part, Sort: binary.BigEndian.AppendUint32([]byte{'t'}, uint32(i))}})
	}
	if err := s.Write(ctx, kv.Batch{Ops: ops}); err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 3; round++ {
		var stats kv.Stats
		it := s.Scan(ctx, kv.ScanRequest{Partition: part, Start: []byte{'t'}, End: []byte{'u'}, Reread: true, Stats: &stats})
		it.Seek(binary.BigEndian.AppendUint32([]byte{'t'}, n-3))
		got := 0
		for it.Next() {
			got++
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		if got != 3 {
			t.Fatalf("round %d: %d entries after the seek", round, got)
		}
		// The first scan read the range up to 128 KiB (some 7,000
		// entries), then from the seek; the others from the seek only.
		read := stats.ItemsRead.Load()
		if round == 0 && (read < 5000 || read > n) || round > 0 && read != 3 {
			t.Fatalf("round %d: %d items read", round, read)
		}
	}
	if _, _, hits, _ := s.RowCacheStats(); hits != 0 {
		t.Fatalf("%d range hits of a range too large to keep", hits)
	}
}

// TestCachedRangeSeek: the galloping Seek lands where a linear scan does,
// from every position, for keys below, between, on and past the entries,
// with and without a prefix skipped.
func TestCachedRangeSeek(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for round := range 200 {
		prefix := []byte("tok\x00")[:rng.Intn(5)]
		cr := &cachedRange{}
		n := rng.Intn(200)
		id := 0
		for range n {
			id += 1 + rng.Intn(1+rng.Intn(40))
			k := binary.BigEndian.AppendUint16(slices.Clip(prefix), uint16(id))
			if rng.Intn(5) == 0 {
				k = append(k, 0) // a key with another as its prefix
			}
			cr.ents = append(cr.ents, rangeEntry{off: uint32(len(cr.data)), klen: uint32(len(k)), vlen: 1})
			cr.data = append(append(cr.data, k...), 'v')
		}
		for range 100 {
			key := binary.BigEndian.AppendUint16(nil, uint16(rng.Intn(id+10)))
			if rng.Intn(4) == 0 {
				key = append(key, byte(rng.Intn(2)))
			}
			from := rng.Intn(n+1) - 1
			want := from + 1
			for want < n && bytes.Compare(cr.At(want)[len(prefix):], key) < 0 {
				want++
			}
			if got := cr.Seek(from, len(prefix), key); got != want {
				t.Fatalf("round %d: Seek(%d, %d, %x) over %d entries = %d, want %d", round, from, len(prefix), key, n, got, want)
			}
		}
	}
}
