package pebble

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// TestRescan moves one iterator across random sequences of ranges (in and
// against key order, overlapping, empty, open at either end), forward and
// in reverse, with seeks inside some ranges, and checks that each range
// yields what a new Scan of it yields, on a store whose items lie in the
// memtable and in sstables of several levels, beside neighbouring
// partitions the bounds must keep out.
func TestRescan(t *testing.T) {
	s := openMem(t)
	defer s.Close()
	r := rand.New(rand.NewSource(1))
	key := func() string { return fmt.Sprintf("k%03d", r.Intn(400)) }
	for round := 0; round < 4; round++ {
		var ops []kv.Op
		for i := 0; i < 150; i++ {
			for _, p := range []string{"o", "p", "pp", "q"} {
				ops = append(ops, kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: []byte(p), Sort: []byte(key())},
					Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrInt, I: int64(round*1000 + i)}}})
			}
		}
		if round == 2 {
			ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: []byte("p"), Sort: []byte(key())}})
		}
		if err := s.Write(bg, kv.Batch{Ops: ops}); err != nil {
			t.Fatal(err)
		}
		if round < 3 { // the last round stays in the memtable
			if err := s.db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		if round == 1 {
			if err := s.db.Compact([]byte{0}, []byte{0xff}, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	bound := func() []byte {
		switch r.Intn(8) {
		case 0:
			return nil
		case 1:
			return []byte{}
		default:
			return []byte(key())
		}
	}
	type read struct {
		keys []string
		vals []int64
	}
	// drain reads it to its end, seeking (in its direction) to seek when
	// it passes after, if set.
	drain := func(it kv.Iterator, after, seek []byte, reverse bool) read {
		var got read
		for it.Next() {
			item := it.Item()
			got.keys = append(got.keys, string(item.Key.Sort))
			got.vals = append(got.vals, item.Attrs[0].I)
			if after != nil && (!reverse && bytes.Compare(item.Key.Sort, after) >= 0 || reverse && bytes.Compare(item.Key.Sort, after) <= 0) {
				it.Seek(seek)
				after = nil
			}
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		return got
	}
	for trial := 0; trial < 300; trial++ {
		reverse := trial%2 == 1
		var stats kv.Stats
		req := kv.ScanRequest{Partition: []byte("p"), Reverse: reverse, Stats: &stats}
		var it kv.Iterator
		opened := false // it was opened on an empty range
		n := 1 + r.Intn(8)
		var starts [][]byte
		for i := 0; i < 2*n; i++ {
			starts = append(starts, []byte(key()))
		}
		if trial%3 == 0 { // ranges in scan order, as a Z-order scan reads them
			slices.SortFunc(starts, bytes.Compare)
			if reverse {
				slices.Reverse(starts)
			}
		}
		for i := 0; i < n; i++ {
			start, end := bound(), bound()
			if trial%3 == 0 {
				start, end = starts[2*i], starts[2*i+1]
				if reverse {
					start, end = end, start
				}
			}
			var after, seek []byte
			if r.Intn(2) == 0 {
				after, seek = []byte(key()), []byte(key())
				if !reverse && bytes.Compare(seek, after) < 0 || reverse && bytes.Compare(seek, after) > 0 {
					after, seek = seek, after
				}
			}
			rr := req
			rr.Start, rr.End = start, end
			fresh := s.Scan(bg, rr)
			want := drain(fresh, after, seek, reverse)
			fresh.Close()
			if it != nil && !it.(kv.Rescanner).Rescan(start, end) {
				// Only an iterator opened on an empty range, which holds
				// no Pebble iterator, may refuse.
				if !opened {
					t.Fatalf("trial %d range %d: Rescan refused", trial, i)
				}
				it.Close()
				it = nil
			}
			if it == nil {
				it = s.Scan(bg, rr)
				opened = start != nil && end != nil && bytes.Compare(start, end) >= 0
			} else {
				opened = false
			}
			got := drain(it, after, seek, reverse)
			if !slices.Equal(got.keys, want.keys) || !slices.Equal(got.vals, want.vals) {
				t.Fatalf("trial %d range %d [%q, %q) reverse=%v: rescan read %v %v, a new scan %v %v",
					trial, i, start, end, reverse, got.keys, got.vals, want.keys, want.vals)
			}
		}
		if got := stats.Requests.Load(); got != int64(2*n) {
			t.Fatalf("trial %d: %d requests counted, want %d (one a range)", trial, got, 2*n)
		}
		it.Close()
		if it.(kv.Rescanner).Rescan(nil, nil) {
			t.Fatal("a closed iterator rescanned")
		}
	}
}

// TestRescanRefused: an iterator over a transaction's snapshot (kvtxn
// hands it out as it is when the range holds none of the transaction's
// writes, and must see each later range's Scan to merge those in), a
// closed one and one of a closed store do not move to another range.
func TestRescanRefused(t *testing.T) {
	s := openMem(t)
	putItem(t, s, testItem("a", 1))
	txn, err := s.Begin(bg, kv.TxnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer txn.Rollback()
	it := txn.Scan(bg, kv.ScanRequest{Partition: []byte("p")})
	r, ok := it.(kv.Rescanner)
	if !ok {
		t.Fatalf("the transaction's scan is a %T, not kv/pebble's iterator", it)
	}
	if r.Rescan([]byte("a"), nil) {
		t.Fatal("an iterator over a transaction's snapshot rescanned")
	}
	it.Close()
	it = s.Scan(bg, kv.ScanRequest{Partition: []byte("p")})
	if !it.(kv.Rescanner).Rescan([]byte("a"), nil) || !it.Next() || string(it.Item().Key.Sort) != "a" {
		t.Fatal("a store's iterator did not rescan")
	}
	s.Close()
	if it.(kv.Rescanner).Rescan(nil, nil) {
		t.Fatal("an iterator of a closed store rescanned")
	}
	it.Close()
}
