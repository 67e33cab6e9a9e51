package pebble

import (
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// TestBatchedGetMatchesSingleGets: a get of many keys (one iterator in key
// order, the rows' attributes carved from shared blocks) returns, for
// random rows, keys in random order with absent and repeated ones, and
// random projections, exactly what a get of each key alone returns; each
// item's strings and bytes are its own (writing into one item's bytes
// changes no other) and outlive the store's later writes.
func TestBatchedGetMatchesSingleGets(t *testing.T) {
	s := openMem(t)
	rng := rand.New(rand.NewSource(7))
	names := []string{"a", "bb", "id", "doc", "tags", "body"}
	const rows = 300
	randAttrs := func() []kv.Attr {
		var attrs []kv.Attr
		for _, name := range names {
			switch rng.Intn(6) {
			case 0: // absent
			case 1:
				attrs = append(attrs, kv.Attr{Name: name, Kind: kv.AttrInt, I: rng.Int63()})
			case 2:
				attrs = append(attrs, kv.Attr{Name: name, Kind: kv.AttrFloat, F: rng.Float64()})
			case 3:
				b := make([]byte, rng.Intn(3)*rng.Intn(40))
				rng.Read(b)
				attrs = append(attrs, kv.Attr{Name: name, Kind: kv.AttrBytes, B: b})
			default:
				// Now and then a string larger than an arena block.
				n := rng.Intn(200)
				if rng.Intn(40) == 0 {
					n = arenaMaxBytes + rng.Intn(1000)
				}
				attrs = append(attrs, kv.Attr{Name: name, Kind: kv.AttrString, S: strings.Repeat(string(rune('a'+rng.Intn(26))), n)})
			}
		}
		return attrs
	}
	key := func(i int) kv.Key {
		return kv.Key{Partition: []byte("p"), Sort: []byte(fmt.Sprintf("%05d", i))}
	}
	var ops []kv.Op
	for i := 0; i < rows; i += 1 + rng.Intn(2) { // odd gaps: absent keys
		ops = append(ops, kv.Op{Kind: kv.OpPut, Key: key(i), Attrs: randAttrs()})
	}
	if err := s.Write(bg, kv.Batch{Ops: ops, Atomic: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.db.Flush(); err != nil {
		t.Fatal(err)
	}
	single := func(k kv.Key, req kv.GetRequest) kv.Item {
		req.Keys = []kv.Key{k}
		items, err := s.Get(bg, req)
		if err != nil {
			t.Fatal(err)
		}
		return items[0]
	}
	for round := 0; round < 200; round++ {
		var req kv.GetRequest
		if rng.Intn(2) == 0 {
			for _, n := range names {
				if rng.Intn(2) == 0 {
					req.Attrs = append(req.Attrs, n)
				}
			}
			if req.Attrs == nil {
				req.Attrs = []string{}
			}
		}
		n := iterGetMin + rng.Intn(120)
		keys := make([]kv.Key, n)
		for i := range keys {
			keys[i] = key(rng.Intn(rows + 20))
		}
		req.Keys = keys
		got, err := s.Get(bg, req)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]kv.Item, n)
		for i, k := range keys {
			want[i] = single(k, req)
		}
		if !reflect.DeepEqual(got, want) {
			for i := range got {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Fatalf("round %d, key %s (%d of %d): batched %+v, single %+v", round, keys[i].Sort, i, n, got[i], want[i])
				}
			}
		}
		// Scribbling over one item's bytes leaves every other item as it was.
		for i := range got {
			for j := range got[i].Attrs {
				if b := got[i].Attrs[j].B; len(b) > 0 {
					for x := range b {
						b[x] ^= 0xff
					}
					for x := range want[i].Attrs[j].B {
						want[i].Attrs[j].B[x] ^= 0xff
					}
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: an item's bytes share memory with another's", round)
		}
		// The items outlive later writes over their keys.
		kept := fmt.Sprint(got)
		var over []kv.Op
		for _, k := range keys[:3] {
			over = append(over, kv.Op{Kind: kv.OpPut, Key: k, Attrs: randAttrs()})
		}
		if err := s.Write(bg, kv.Batch{Ops: over, Atomic: true}); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != kept {
			t.Fatalf("round %d: a later write changed the items got", round)
		}
	}
}

// TestBatchedGetAllocs: a get of 100 rows takes their attributes and
// copies from a few shared blocks, not a pair of allocations a row.
func TestBatchedGetAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	s := openMem(t)
	var ops []kv.Op
	for i := 0; i < 1000; i++ {
		ops = append(ops, kv.Op{Kind: kv.OpPut, Key: benchKey(i), Attrs: append(rowAttrs(i), kv.Attr{Name: "body", Kind: kv.AttrString, S: strings.Repeat("x", 100)})})
	}
	if err := s.Write(bg, kv.Batch{Ops: ops}); err != nil {
		t.Fatal(err)
	}
	keys := make([]kv.Key, 100)
	for i := range keys {
		keys[i] = benchKey(i * 10)
	}
	// The fewest of a few measurements: the store's background work (a
	// flush) allocates too, and only adds to a measurement.
	allocs := math.Inf(1)
	for range 5 {
		allocs = min(allocs, testing.AllocsPerRun(20, func() {
			if _, err := s.Get(bg, kv.GetRequest{Keys: keys}); err != nil {
				t.Fatal(err)
			}
		}))
	}
	if allocs > float64(len(keys)) {
		t.Errorf("a get of %d rows made %.0f allocations, want at most one a row", len(keys), allocs)
	}
}

// TestScanAttrsOneAllocation: a scan's items share one attribute slice,
// sized for the request's attributes at the first item, so a scan of
// items of six attributes allocates no more than one of items of one
// (grown one attribute at a time, six cost three allocations more).
func TestScanAttrsOneAllocation(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	s := openMem(t)
	all := []string{"sensor_id", "ts", "celsius", "lat", "lon", "note"}
	var ops []kv.Op
	for i := 0; i < 20; i++ {
		// Items 0-9 have one attribute, 10-19 all six.
		attrs := rowAttrs(i)
		if i < 10 {
			attrs = attrs[:1]
		}
		ops = append(ops, kv.Op{Kind: kv.OpPut, Key: benchKey(i), Attrs: attrs})
	}
	if err := s.Write(bg, kv.Batch{Ops: ops}); err != nil {
		t.Fatal(err)
	}
	scan := func(from int, attrs []string) float64 {
		// The fewest of a few measurements: the store's background work
		// allocates too, and only adds to a measurement.
		allocs := math.Inf(1)
		for range 5 {
			allocs = min(allocs, testing.AllocsPerRun(20, func() {
				it := s.Scan(bg, kv.ScanRequest{Partition: benchKey(0).Partition, Start: benchKey(from).Sort, End: benchKey(from + 10).Sort, Attrs: attrs})
				n := 0
				for it.Next() {
					if got := len(it.Item().Attrs); got != len(attrs) {
						t.Fatalf("an item of %d attributes, want %d", got, len(attrs))
					}
					n++
				}
				if err := it.Close(); err != nil || n != 10 {
					t.Fatalf("%d items, %v; want 10", n, err)
				}
			}))
		}
		return allocs
	}
	if one, six := scan(0, all[:1]), scan(10, all); six > one {
		t.Errorf("a scan of items of six attributes made %.0f allocations, of one %.0f: want no more", six, one)
	}
}
