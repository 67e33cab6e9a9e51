package kvtest

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
)

// Options tunes the suite to a backend. The zero value is the default for
// every field.
type Options struct {
	// LargeBytes is how much data the Large subtest writes and reads back, so
	// that scans cross several backend pages (DynamoDB pages at 1 MB).
	// Default 2.5 MiB. Large is skipped under testing.Short().
	LargeBytes int
	// LargeValueBytes is the size of the bytes attribute of each Large item
	// (DynamoDB caps an item at 400 KB). Default 40 KiB.
	LargeValueBytes int
	// BigBatchOps is the number of ops in the non-atomic batch subtest.
	// Default 500.
	BigBatchOps int
	// Writers is the number of goroutines racing in the conditional insert
	// subtest. Default 8.
	Writers int
	// Parallel runs the subtests in parallel (open must then be safe to call
	// from several goroutines).
	Parallel bool
	// TxnLargeOps is the number of writes of the large-transaction subtest;
	// it should exceed the backend's MaxAtomicOps. Default 250.
	TxnLargeOps int
	// TransferDuration is how long the concurrent transfers subtest runs.
	// Default 2s.
	TransferDuration time.Duration
	// SharedSnapshotCovers, if set, says which partitions an exported
	// snapshot covers (kv.SnapshotExporter); the others are read at a
	// snapshot of their own (kv/kvsplit's local store). Default: all.
	SharedSnapshotCovers func(partition []byte) bool
}

func (o Options) withDefaults() Options {
	if o.LargeBytes <= 0 {
		o.LargeBytes = 5 << 19
	}
	if o.LargeValueBytes <= 0 {
		o.LargeValueBytes = 40 << 10
	}
	if o.BigBatchOps <= 0 {
		o.BigBatchOps = 500
	}
	if o.Writers <= 0 {
		o.Writers = 8
	}
	if o.TxnLargeOps <= 0 {
		o.TxnLargeOps = 250
	}
	if o.TransferDuration <= 0 {
		o.TransferDuration = 2 * time.Second
	}
	return o
}

// Run runs the conformance suite with default Options. open must return a
// fresh store (or an isolated view of a shared one) each time it is called;
// the suite closes it.
func Run(t *testing.T, open func(t *testing.T) kv.Store) {
	RunWith(t, open, Options{})
}

// RunWith runs the conformance suite with the given Options.
func RunWith(t *testing.T, open func(t *testing.T) kv.Store, opts Options) {
	opts = opts.withDefaults()
	tests := []struct {
		name string
		fn   func(t *testing.T, s kv.Store, ns namespace, opts Options)
	}{
		{"Capabilities", testCapabilities},
		{"GetOrder", testGetOrder},
		{"GetMany", testGetMany},
		{"ScanRanges", testScanRanges},
		{"ScanRandomRanges", testScanRandomRanges},
		{"ScanAttrs", testScanAttrs},
		{"PartitionIsolation", testPartitionIsolation},
		{"Seek", testSeek},
		{"Limit", testLimit},
		{"AttrKinds", testAttrKinds},
		{"PutOverwrites", testPutOverwrites},
		{"Delete", testDelete},
		{"AtomicConditionFailure", testAtomicConditionFailure},
		{"AtomicConditionSuccess", testAtomicConditionSuccess},
		{"AtomicLimit", testAtomicLimit},
		{"NonAtomicBigBatch", testNonAtomicBigBatch},
		{"ConditionInNonAtomicBatch", testConditionInNonAtomicBatch},
		{"EmptyBatch", testEmptyBatch},
		{"ConcurrentConditionalInsert", testConcurrentConditionalInsert},
		{"CompareAndSet", testCompareAndSet},
		{"ConcurrentCompareAndSet", testConcurrentCompareAndSet},
		{"Stats", testStats},
		{"IteratorEarlyClose", testIteratorEarlyClose},
		{"Large", testLarge},
		{"Snapshot", testSnapshot},
		{"Closed", testClosed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if opts.Parallel {
				t.Parallel()
			}
			s := open(t)
			if tc.name != "Closed" { // Closed closes the store itself
				t.Cleanup(func() {
					if err := s.Close(); err != nil {
						t.Errorf("Close: %v", err)
					}
				})
			}
			tc.fn(t, s, newNamespace(t), opts)
		})
	}
	for _, tc := range txnTests {
		t.Run(tc.name, func(t *testing.T) {
			if opts.Parallel {
				t.Parallel()
			}
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			ts, ok := s.(kv.Transactional)
			if !ok {
				t.Skipf("%T does not implement kv.Transactional", s)
			}
			tc.fn(t, ts, newNamespace(t), opts)
		})
	}
}

// testSnapshot: a store that takes snapshots (kv.Snapshotter) reads
// through one the state it was taken in, by Get and by Scan, whatever is
// written after; a store whose Snapshotter takes none returns nil.
func testSnapshot(t *testing.T, s kv.Store, ns namespace, _ Options) {
	sn, ok := s.(kv.Snapshotter)
	if !ok {
		t.Skipf("%T does not implement kv.Snapshotter", s)
	}
	p := ns.part("snap")
	put(t, s, item(p, "a", intAttr("v", 1)), item(p, "c", intAttr("v", 1)))
	snap, err := sn.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap == nil {
		t.Skipf("%T takes no snapshots", s)
	}
	defer snap.Release()
	put(t, s, item(p, "a", intAttr("v", 2)), item(p, "b", intAttr("v", 2)))
	if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpDelete, Key: kv.Key{Partition: p, Sort: []byte("c")}}}}); err != nil {
		t.Fatal(err)
	}
	items, err := snap.Get(ctx, kv.GetRequest{Keys: []kv.Key{{Partition: p, Sort: []byte("a")}, {Partition: p, Sort: []byte("b")}, {Partition: p, Sort: []byte("c")}}})
	if err != nil {
		t.Fatal(err)
	}
	if !kv.Found(items[0]) || items[0].Attrs[0].I != 1 || kv.Found(items[1]) || !kv.Found(items[2]) {
		t.Fatalf("Get through the snapshot: %v, want a=1, no b, c=1", items)
	}
	it := snap.Scan(ctx, kv.ScanRequest{Partition: p})
	var got []string
	for it.Next() {
		got = append(got, fmt.Sprintf("%s=%d", it.Item().Key.Sort, it.Item().Attrs[0].I))
	}
	if err := errors.Join(it.Err(), it.Close()); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "a=1,c=1" {
		t.Fatalf("Scan through the snapshot: %q, want a=1,c=1", got)
	}
	if items, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{{Partition: p, Sort: []byte("a")}}}); err != nil || items[0].Attrs[0].I != 2 {
		t.Fatalf("Get from the store after the write: %v, %v", items, err)
	}
}

// namespace gives a subtest partitions no other test (or earlier run over a
// shared table) uses.
type namespace struct{ prefix []byte }

func newNamespace(t *testing.T) namespace {
	p := make([]byte, 16)
	if _, err := crand.Read(p); err != nil {
		t.Fatal(err)
	}
	return namespace{prefix: p}
}

// part returns the partition key called name in this namespace.
func (n namespace) part(name string) []byte {
	return append(slices.Clone(n.prefix), name...)
}

var ctx = context.Background()

func item(part []byte, sort string, attrs ...kv.Attr) kv.Item {
	return kv.Item{Key: kv.Key{Partition: part, Sort: []byte(sort)}, Attrs: attrs}
}

func intAttr(name string, v int64) kv.Attr { return kv.Attr{Name: name, Kind: kv.AttrInt, I: v} }
func strAttr(name, v string) kv.Attr       { return kv.Attr{Name: name, Kind: kv.AttrString, S: v} }

func putOps(items ...kv.Item) []kv.Op {
	ops := make([]kv.Op, len(items))
	for i, it := range items {
		ops[i] = kv.Op{Kind: kv.OpPut, Key: it.Key, Attrs: it.Attrs}
	}
	return ops
}

// put writes items in one non-atomic batch.
func put(t *testing.T, s kv.Store, items ...kv.Item) {
	t.Helper()
	if err := s.Write(ctx, kv.Batch{Ops: putOps(items...)}); err != nil {
		t.Fatalf("Write of %d items: %v", len(items), err)
	}
}

// cloneItem copies an item out of iterator-owned memory.
func cloneItem(it kv.Item) kv.Item {
	attrs := make([]kv.Attr, len(it.Attrs))
	for i, a := range it.Attrs {
		// Items live until the next Next or Seek (kv.Iterator): strings
		// may alias store memory as much as bytes may.
		a.Name, a.S, a.B = strings.Clone(a.Name), strings.Clone(a.S), bytes.Clone(a.B)
		attrs[i] = a
	}
	return kv.Item{
		Key:   kv.Key{Partition: bytes.Clone(it.Key.Partition), Sort: bytes.Clone(it.Key.Sort)},
		Attrs: attrs,
	}
}

// scanAll reads a whole scan, copying each item.
func scanAll(t *testing.T, s kv.Store, req kv.ScanRequest) []kv.Item {
	t.Helper()
	it := s.Scan(ctx, req)
	var out []kv.Item
	for it.Next() {
		out = append(out, cloneItem(it.Item()))
	}
	if err := it.Err(); err != nil {
		t.Fatalf("Scan %s: %v", describeScan(req), err)
	}
	if err := it.Close(); err != nil {
		t.Fatalf("Scan %s: Close: %v", describeScan(req), err)
	}
	return out
}

func describeScan(req kv.ScanRequest) string {
	return fmt.Sprintf("[%s, %s) reverse=%v limit=%d", fmtBound(req.Start), fmtBound(req.End), req.Reverse, req.Limit)
}

func fmtBound(b []byte) string {
	if b == nil {
		return "nil"
	}
	return fmt.Sprintf("%q", b)
}

// expectScan is the brute-force model of Scan over items of one partition.
func expectScan(items []kv.Item, req kv.ScanRequest) []kv.Item {
	var out []kv.Item
	for _, it := range items {
		if !bytes.Equal(it.Key.Partition, req.Partition) {
			continue
		}
		if req.Start != nil && bytes.Compare(it.Key.Sort, req.Start) < 0 {
			continue
		}
		if req.End != nil && bytes.Compare(it.Key.Sort, req.End) >= 0 {
			continue
		}
		out = append(out, it)
	}
	slices.SortFunc(out, func(a, b kv.Item) int { return bytes.Compare(a.Key.Sort, b.Key.Sort) })
	if req.Reverse {
		slices.Reverse(out)
	}
	return out
}

// checkItems compares a scan result with the expectation, key by key and
// attribute by attribute.
func checkItems(t *testing.T, what string, want, got []kv.Item) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%s: got %d items %s, want %d %s", what, len(got), sortKeys(got), len(want), sortKeys(want))
		return
	}
	for i := range want {
		checkItem(t, fmt.Sprintf("%s item %d", what, i), want[i], got[i])
	}
}

func checkItem(t *testing.T, what string, want, got kv.Item) {
	t.Helper()
	if !bytes.Equal(want.Key.Partition, got.Key.Partition) || !bytes.Equal(want.Key.Sort, got.Key.Sort) {
		t.Errorf("%s: key (%x, %q), want (%x, %q)", what, got.Key.Partition, got.Key.Sort, want.Key.Partition, want.Key.Sort)
		return
	}
	if !AttrsEqual(want.Attrs, got.Attrs) {
		t.Errorf("%s (%q): attrs %s, want %s", what, want.Key.Sort, FormatAttrs(got.Attrs), FormatAttrs(want.Attrs))
	}
}

func sortKeys(items []kv.Item) string {
	keys := make([]string, 0, len(items))
	for i, it := range items {
		if i == 20 {
			keys = append(keys, "...")
			break
		}
		keys = append(keys, fmt.Sprintf("%q", it.Key.Sort))
	}
	return fmt.Sprint(keys)
}

// getOne reads one key; found reports whether it exists.
func getOne(t *testing.T, s kv.Store, key kv.Key) (kv.Item, bool) {
	t.Helper()
	got, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{key}, Consistent: true})
	if err != nil {
		t.Fatalf("Get(%q): %v", key.Sort, err)
	}
	if len(got) != 1 {
		t.Fatalf("Get of 1 key returned %d items", len(got))
	}
	return got[0], kv.Found(got[0])
}

func mustExist(t *testing.T, s kv.Store, want kv.Item) {
	t.Helper()
	got, ok := getOne(t, s, want.Key)
	if !ok {
		t.Errorf("item %q missing, want %s", want.Key.Sort, FormatAttrs(want.Attrs))
		return
	}
	checkItem(t, "Get", want, got)
}

func mustBeMissing(t *testing.T, s kv.Store, key kv.Key) {
	t.Helper()
	if got, ok := getOne(t, s, key); ok {
		t.Errorf("item %q exists with %s, want missing", key.Sort, FormatAttrs(got.Attrs))
	}
}

func testCapabilities(t *testing.T, s kv.Store, _ namespace, _ Options) {
	c := s.Capabilities()
	if c.Name == "" {
		t.Error("Capabilities().Name is empty")
	}
	if c.MaxAtomicOps < 0 || c.MaxGetKeys < 0 || c.RequestLatency < 0 {
		t.Errorf("negative limits in %+v", c)
	}
}

func testGetOrder(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p, other := ns.part("p"), ns.part("other")
	k1 := item(p, "k1", intAttr("v", 1))
	k2 := item(p, "k2", strAttr("v", "two"))
	k3 := item(p, "k3") // an item with no attributes still exists
	put(t, s, k1, k2, k3, item(other, "zz", intAttr("v", 9)))

	keys := []kv.Key{k3.Key, {Partition: p, Sort: []byte("k0")}, k1.Key, {Partition: other, Sort: []byte("k1")}, k2.Key, k3.Key, {Partition: ns.part("nobody"), Sort: []byte("k1")}}
	want := []*kv.Item{&k3, nil, &k1, nil, &k2, &k3, nil}
	got, err := s.Get(ctx, kv.GetRequest{Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(keys) {
		t.Fatalf("Get of %d keys returned %d items", len(keys), len(got))
	}
	for i := range keys {
		switch {
		case want[i] == nil && kv.Found(got[i]):
			t.Errorf("key %d (%q) found with %s, want missing", i, keys[i].Sort, FormatAttrs(got[i].Attrs))
		case want[i] == nil && got[i].Attrs != nil:
			t.Errorf("key %d (%q) missing but has non-nil Attrs", i, keys[i].Sort)
		case want[i] != nil && !kv.Found(got[i]):
			t.Errorf("key %d (%q) missing", i, keys[i].Sort)
		case want[i] != nil:
			checkItem(t, fmt.Sprintf("key %d", i), *want[i], got[i])
		}
	}

	got, err = s.Get(ctx, kv.GetRequest{})
	if err != nil || len(got) != 0 {
		t.Errorf("Get of no keys = %d items, %v; want none", len(got), err)
	}
}

func testGetMany(t *testing.T, s kv.Store, ns namespace, _ Options) {
	n := max(250, 2*s.Capabilities().MaxGetKeys+1)
	p := ns.part("p")
	var items []kv.Item
	var keys []kv.Key
	for i := range n {
		sk := fmt.Sprintf("%05d", i)
		if i%3 == 0 {
			items = append(items, item(p, sk, intAttr("i", int64(i))))
		}
		keys = append(keys, kv.Key{Partition: p, Sort: []byte(sk)})
	}
	put(t, s, items...)
	slices.Reverse(keys) // not in store order
	got, err := s.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("Get of %d keys returned %d items", n, len(got))
	}
	for j, g := range got {
		i := n - 1 - j
		if found := kv.Found(g); found != (i%3 == 0) {
			t.Errorf("key %05d: found=%v", i, found)
			continue
		}
		if kv.Found(g) {
			checkItem(t, "GetMany", item(p, fmt.Sprintf("%05d", i), intAttr("i", int64(i))), g)
		}
	}
}

// scanKeys are sort keys chosen to trip up encodings: 0x00 and 0xff bytes,
// keys that are prefixes of others.
var scanKeys = []string{"\x00", "\x00\x00", "\x01", "a", "a\x00", "a\x00\x00", "ab", "b", "b\xff", "c", "\xff", "\xff\xff"}

func fillScanPartition(t *testing.T, s kv.Store, p []byte) []kv.Item {
	var items []kv.Item
	for i, k := range scanKeys {
		items = append(items, item(p, k, intAttr("i", int64(i)), strAttr("k", k)))
	}
	put(t, s, items...)
	return items
}

func testScanRanges(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	items := fillScanPartition(t, s, p)
	b := func(s string) []byte { return []byte(s) }
	bounds := []struct{ start, end []byte }{
		{nil, nil},
		{b("a"), nil},
		{nil, b("b")},
		{b("a"), b("b")},                 // start inclusive, end exclusive
		{b("a\x00"), b("a\x00\x00")},     // exactly one item
		{b("ab"), b("ab")},               // Start == End on a present key
		{b("aa"), b("aa")},               // Start == End between keys
		{b("c"), b("a")},                 // Start > End
		{b("\x00"), b("\x00")},           // empty at the very beginning
		{b("a\x00\x00\x00"), b("b\x00")}, // bounds between keys
		{b("\x00\x00\x00"), b("\xff\x00")},
		{b("\xff\xff\x00"), nil}, // after every key
		{nil, b("\x00")},         // before every key
		{b("\xff"), nil},
		{nil, b("\xff\xff\xff")},
	}
	for _, bd := range bounds {
		for _, rev := range []bool{false, true} {
			req := kv.ScanRequest{Partition: p, Start: bd.start, End: bd.end, Reverse: rev}
			checkItems(t, describeScan(req), expectScan(items, req), scanAll(t, s, req))
		}
	}
}

// testScanAttrs checks a scan with a projection (ScanRequest.Attrs): every
// item still comes, in order, with each named attribute it has, its value
// intact, whatever the backend does with the others; and that a KeyIterator's
// Key, asked before Item or instead of it, is the item's key.
func testScanAttrs(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	var items []kv.Item
	for i, k := range scanKeys {
		attrs := []kv.Attr{intAttr("i", int64(i)), strAttr("k", k), strAttr("pad", strings.Repeat("x", i))}
		if i%3 == 0 {
			// Attributes in another order, or one missing, on some items.
			attrs = []kv.Attr{strAttr("pad", "y"), intAttr("i", int64(i))}
		}
		items = append(items, item(p, k, attrs...))
	}
	put(t, s, items...)
	for _, names := range [][]string{{"i"}, {"k", "i"}, {"nosuch"}, {}} {
		for _, rev := range []bool{false, true} {
			req := kv.ScanRequest{Partition: p, Reverse: rev, Attrs: names}
			want := expectScan(items, req)
			it := s.Scan(context.Background(), req)
			n := 0
			for it.Next() {
				if n >= len(want) {
					t.Fatalf("attrs %v: more than %d items", names, len(want))
				}
				ki, isKI := it.(kv.KeyIterator)
				if isKI && !bytes.Equal(ki.Key().Sort, want[n].Key.Sort) {
					t.Fatalf("attrs %v: Key %q, want %q", names, ki.Key().Sort, want[n].Key.Sort)
				}
				if n%2 == 1 && isKI {
					n++ // skipped on its key alone, never decoded
					continue
				}
				got := it.Item()
				if !bytes.Equal(got.Key.Sort, want[n].Key.Sort) {
					t.Fatalf("attrs %v: item %d key %q, want %q", names, n, got.Key.Sort, want[n].Key.Sort)
				}
				for _, wa := range want[n].Attrs {
					if !slices.Contains(names, wa.Name) {
						continue
					}
					found := false
					for _, ga := range got.Attrs {
						if ga.Name == wa.Name {
							found = true
							if !AttrEqual(wa, ga) {
								t.Fatalf("attrs %v: item %q attribute %s = %s, want %s", names, got.Key.Sort, wa.Name, FormatAttrs([]kv.Attr{ga}), FormatAttrs([]kv.Attr{wa}))
							}
						}
					}
					if !found {
						t.Fatalf("attrs %v: item %q lacks attribute %s", names, got.Key.Sort, wa.Name)
					}
				}
				n++
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			it.Close()
			if n != len(want) {
				t.Fatalf("attrs %v: %d items, want %d", names, n, len(want))
			}
		}
	}
}

func testScanRandomRanges(t *testing.T, s kv.Store, ns namespace, _ Options) {
	seed := binary.LittleEndian.Uint64(ns.prefix)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("random ranges seed %#x", seed)
		}
	})
	rng := rand.New(rand.NewPCG(seed, 0))
	p := ns.part("p")
	var items []kv.Item
	seen := map[string]bool{}
	randKey := func() []byte {
		k := make([]byte, 1+rng.IntN(3))
		for i := range k {
			k[i] = []byte{0x00, 0x01, 'a', 'b', 0x7f, 0x80, 0xfe, 0xff}[rng.IntN(8)]
		}
		return k
	}
	for range 60 {
		k := randKey()
		if seen[string(k)] {
			continue
		}
		seen[string(k)] = true
		items = append(items, item(p, string(k), intAttr("n", rng.Int64())))
	}
	put(t, s, items...)
	for range 40 {
		req := kv.ScanRequest{Partition: p, Reverse: rng.IntN(2) == 0}
		if rng.IntN(4) > 0 {
			req.Start = randKey()
		}
		if rng.IntN(4) > 0 {
			req.End = randKey()
		}
		checkItems(t, describeScan(req), expectScan(items, req), scanAll(t, s, req))
	}
}

func testPartitionIsolation(t *testing.T, s kv.Store, ns namespace, _ Options) {
	// Partitions that are prefixes of each other, and sort keys that would
	// collide with a plain concatenation (("a","bx") vs ("ab","x")).
	layout := map[string][]string{
		"":      {"a", "ab", "x"},
		"a":     {"\x00", "bx", "x", "\xff"},
		"ab":    {"x", "y"},
		"a\x00": {"x"},
		"a\xff": {"\x00", "x"},
		"b":     {"x"},
	}
	var all []kv.Item
	for part, sorts := range layout {
		for _, sk := range sorts {
			all = append(all, item(ns.part(part), sk, strAttr("part", part), strAttr("sort", sk)))
		}
	}
	put(t, s, all...)
	for part := range layout {
		for _, rev := range []bool{false, true} {
			for _, bd := range [][2][]byte{{nil, nil}, {[]byte("a"), nil}, {nil, []byte("y")}} {
				req := kv.ScanRequest{Partition: ns.part(part), Start: bd[0], End: bd[1], Reverse: rev}
				checkItems(t, fmt.Sprintf("partition %q %s", part, describeScan(req)), expectScan(all, req), scanAll(t, s, req))
			}
		}
	}
	// A partition with no items of its own but whose name prefixes others.
	for _, rev := range []bool{false, true} {
		if got := scanAll(t, s, kv.ScanRequest{Partition: ns.part("a\x00\x00"), Reverse: rev}); len(got) != 0 {
			t.Errorf("empty partition returned %s", sortKeys(got))
		}
	}
	// Get must not confuse (a, bx) with (ab, x).
	mustBeMissing(t, s, kv.Key{Partition: ns.part("ab"), Sort: []byte("bx")})
	mustBeMissing(t, s, kv.Key{Partition: ns.part("a"), Sort: []byte("y")})
	mustExist(t, s, item(ns.part("ab"), "x", strAttr("part", "ab"), strAttr("sort", "x")))
}

// seekStep is one step of a Seek script: seek to a key, or expect the next
// call to Next to return a key (or false when want is "").
type seekStep struct {
	seek string
	want string // "" with seek == "": Next must return false
	next bool
}

func seekTo(k string) seekStep { return seekStep{seek: k} }
func expect(k string) seekStep { return seekStep{want: k, next: true} }
func expectEnd() seekStep      { return seekStep{next: true} }
func bs(k string) []byte       { return []byte(k) }
func runSeekScript(t *testing.T, s kv.Store, req kv.ScanRequest, steps []seekStep) {
	t.Helper()
	it := s.Scan(ctx, req)
	defer it.Close()
	for i, st := range steps {
		if !st.next {
			it.Seek(bs(st.seek))
			continue
		}
		ok := it.Next()
		switch {
		case !ok && st.want != "":
			t.Errorf("%s step %d: Next = false (err %v), want %q", describeScan(req), i, it.Err(), st.want)
			return
		case ok && st.want == "":
			t.Errorf("%s step %d: Next returned %q, want end", describeScan(req), i, it.Item().Key.Sort)
			return
		case ok && string(it.Item().Key.Sort) != st.want:
			t.Errorf("%s step %d: Next returned %q, want %q", describeScan(req), i, it.Item().Key.Sort, st.want)
			return
		case ok:
			if a := it.Item().Attrs; len(a) != 1 || a[0].S != st.want {
				t.Errorf("%s step %d: item %q has attrs %s", describeScan(req), i, st.want, FormatAttrs(a))
			}
		}
	}
	if err := it.Err(); err != nil {
		t.Errorf("%s: Err = %v", describeScan(req), err)
	}
}

func testSeek(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	var items []kv.Item
	for _, k := range []string{"10", "20", "30", "40", "50", "60", "70", "80", "90"} {
		items = append(items, item(p, k, strAttr("k", k)))
	}
	put(t, s, items...)
	cases := []struct {
		name  string
		req   kv.ScanRequest
		steps []seekStep
	}{
		{"forward between keys", kv.ScanRequest{}, []seekStep{expect("10"), seekTo("45"), expect("50"), expect("60"), seekTo("85"), expect("90"), expectEnd()}},
		{"forward onto a key", kv.ScanRequest{}, []seekStep{expect("10"), seekTo("30"), expect("30"), expect("40")}},
		{"forward to the current key", kv.ScanRequest{}, []seekStep{expect("10"), expect("20"), seekTo("20"), expect("20"), expect("30")}},
		{"forward before the first Next", kv.ScanRequest{}, []seekStep{seekTo("35"), expect("40"), expect("50")}},
		{"forward past End", kv.ScanRequest{End: bs("70")}, []seekStep{expect("10"), seekTo("75"), expectEnd()}},
		{"forward to End", kv.ScanRequest{End: bs("70")}, []seekStep{expect("10"), seekTo("70"), expectEnd()}},
		{"forward past every key", kv.ScanRequest{}, []seekStep{expect("10"), seekTo("99"), expectEnd()}},
		{"forward below Start stays in range", kv.ScanRequest{Start: bs("25")}, []seekStep{seekTo("0"), expect("30")}},
		{"forward repeated", kv.ScanRequest{Start: bs("15"), End: bs("85")}, []seekStep{seekTo("21"), seekTo("41"), expect("50"), seekTo("79"), expect("80"), expectEnd()}},
		{"reverse between keys", kv.ScanRequest{Reverse: true}, []seekStep{expect("90"), seekTo("45"), expect("40"), expect("30"), seekTo("15"), expect("10"), expectEnd()}},
		{"reverse onto a key is exclusive", kv.ScanRequest{Reverse: true}, []seekStep{expect("90"), seekTo("50"), expect("40"), seekTo("30"), expect("20")}},
		{"reverse to the current key", kv.ScanRequest{Reverse: true}, []seekStep{expect("90"), expect("80"), seekTo("80"), expect("70")}},
		{"reverse before the first Next", kv.ScanRequest{Reverse: true}, []seekStep{seekTo("55"), expect("50"), expect("40")}},
		{"reverse past Start", kv.ScanRequest{Start: bs("25"), Reverse: true}, []seekStep{expect("90"), seekTo("30"), expectEnd()}},
		{"reverse past every key", kv.ScanRequest{Reverse: true}, []seekStep{expect("90"), seekTo("10"), expectEnd()}},
		{"reverse above End stays in range", kv.ScanRequest{Start: bs("25"), End: bs("75"), Reverse: true}, []seekStep{seekTo("99"), expect("70"), seekTo("41"), expect("40"), expect("30"), expectEnd()}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := tc.req
			req.Partition = p
			runSeekScript(t, s, req, tc.steps)
		})
	}
}

func testLimit(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	var items []kv.Item
	for i := range 10 {
		items = append(items, item(p, fmt.Sprintf("k%d", i), intAttr("i", int64(i))))
	}
	put(t, s, items...)
	for _, limit := range []int{1, 3, 9, 10, 20} {
		for _, rev := range []bool{false, true} {
			for _, bd := range [][2][]byte{{nil, nil}, {[]byte("k2"), []byte("k8")}} {
				req := kv.ScanRequest{Partition: p, Start: bd[0], End: bd[1], Reverse: rev, Limit: limit}
				want := expectScan(items, req)
				got := scanAll(t, s, req)
				// Limit is a hint: the iterator may stop at Limit or go on,
				// but what it returns is a prefix of the full answer and
				// holds at least min(Limit, len(want)) items.
				if len(got) < min(limit, len(want)) || len(got) > len(want) {
					t.Errorf("%s: %d items, want between %d and %d", describeScan(req), len(got), min(limit, len(want)), len(want))
					continue
				}
				checkItems(t, describeScan(req), want[:len(got)], got)
			}
		}
	}
}

// AllKinds returns one attribute of every kind and edge value the suite
// requires a backend to round-trip exactly.
func AllKinds() []kv.Attr {
	f := func(name string, v float64) kv.Attr { return kv.Attr{Name: name, Kind: kv.AttrFloat, F: v} }
	long := make([]byte, 1000)
	for i := range long {
		long[i] = byte(i * 7)
	}
	return []kv.Attr{
		{Name: "null", Kind: kv.AttrNull},
		{Name: "true", Kind: kv.AttrBool, I: 1},
		{Name: "false", Kind: kv.AttrBool, I: 0},
		intAttr("int0", 0),
		intAttr("int-1", -1),
		intAttr("int1", 1),
		intAttr("intmin", math.MinInt64),
		intAttr("intmax", math.MaxInt64),
		intAttr("int2^53+1", 1<<53+1), // not exact as a float64
		f("f0", 0),
		f("f-0", math.Copysign(0, -1)),
		f("f1.5", 1.5),
		f("f-1.5", -1.5),
		f("f2", 2), // integral float stays a float
		f("f0.1", 0.1),
		f("finf", math.Inf(1)),
		f("f-inf", math.Inf(-1)),
		f("fnan", math.NaN()),
		f("fmax", math.MaxFloat64),
		f("f-max", -math.MaxFloat64),
		f("ftiny", math.SmallestNonzeroFloat64),
		f("fsmallnormal", 0x1p-1022),
		f("f1e-200", 1e-200),
		f("f1e300", 1e300),
		strAttr("sempty", ""),
		strAttr("snul", "a\x00b\x00"),
		strAttr("smulti", "ñandú 日本語 🙂"),
		strAttr("slong", strings.Repeat("long ", 200)),
		{Name: "bempty", Kind: kv.AttrBytes, B: []byte{}},
		{Name: "bnul", Kind: kv.AttrBytes, B: []byte{0, 0xff, 0}},
		{Name: "blong", Kind: kv.AttrBytes, B: long},
		strAttr("名前 with space", "name"),
	}
}

func testAttrKinds(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	all := item(p, "all", AllKinds()...)
	var singles []kv.Item
	for _, a := range AllKinds() {
		singles = append(singles, item(p, "one-"+a.Name, a))
	}
	put(t, s, append([]kv.Item{all}, singles...)...)
	mustExist(t, s, all)
	for _, it := range singles {
		mustExist(t, s, it)
	}
	got := scanAll(t, s, kv.ScanRequest{Partition: p, Start: []byte("all"), End: []byte("all\x00")})
	checkItems(t, "Scan of the all-kinds item", []kv.Item{all}, got)

	// Atomic batches take a different write path on some backends.
	atomicItem := item(p, "atomic", AllKinds()...)
	if err := s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: atomicItem.Key, Attrs: atomicItem.Attrs, Cond: kv.CondNotExists}}}); err != nil {
		t.Fatal(err)
	}
	mustExist(t, s, atomicItem)
}

func testPutOverwrites(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	put(t, s, item(p, "k", intAttr("a", 1), strAttr("b", "x")))
	v2 := item(p, "k", strAttr("c", "y")) // a and b must be gone
	put(t, s, v2)
	mustExist(t, s, v2)
	checkItems(t, "Scan after overwrite", []kv.Item{v2}, scanAll(t, s, kv.ScanRequest{Partition: p}))
}

func testDelete(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	a, b, c := item(p, "a", intAttr("v", 1)), item(p, "b", intAttr("v", 2)), item(p, "c", intAttr("v", 3))
	put(t, s, a, b, c)
	err := s.Write(ctx, kv.Batch{Ops: []kv.Op{
		{Kind: kv.OpDelete, Key: b.Key},
		{Kind: kv.OpDelete, Key: kv.Key{Partition: p, Sort: []byte("never-existed")}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	mustBeMissing(t, s, b.Key)
	for _, rev := range []bool{false, true} {
		req := kv.ScanRequest{Partition: p, Reverse: rev}
		checkItems(t, "Scan after delete", expectScan([]kv.Item{a, c}, req), scanAll(t, s, req))
	}
	// Re-creating a deleted key works, also conditionally.
	if err := s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: b.Key, Attrs: b.Attrs, Cond: kv.CondNotExists}}}); err != nil {
		t.Fatalf("CondNotExists put of a deleted key: %v", err)
	}
	mustExist(t, s, b)
}

// wantConditionFailed checks err is a *kv.ConditionFailedError for op index.
func wantConditionFailed(t *testing.T, err error, index int, key kv.Key) {
	t.Helper()
	var cf *kv.ConditionFailedError
	if !errors.As(err, &cf) {
		t.Fatalf("err = %v (%T), want *kv.ConditionFailedError", err, err)
	}
	if cf.Index != index {
		t.Errorf("ConditionFailedError.Index = %d, want %d", cf.Index, index)
	}
	if !bytes.Equal(cf.Key.Partition, key.Partition) || !bytes.Equal(cf.Key.Sort, key.Sort) {
		t.Errorf("ConditionFailedError.Key = (%x, %q), want (%x, %q)", cf.Key.Partition, cf.Key.Sort, key.Partition, key.Sort)
	}
}

func testAtomicConditionFailure(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	existing := item(p, "existing", intAttr("v", 1))
	victim := item(p, "victim", intAttr("v", 2))
	put(t, s, existing, victim)
	newKey := func(k string) kv.Key { return kv.Key{Partition: p, Sort: []byte(k)} }

	cases := []struct {
		name  string
		ops   []kv.Op
		index int
	}{
		{"CondNotExists on an existing key", []kv.Op{
			{Kind: kv.OpPut, Key: newKey("n1"), Attrs: []kv.Attr{intAttr("v", 10)}},
			{Kind: kv.OpPut, Key: newKey("n2"), Attrs: []kv.Attr{intAttr("v", 11)}, Cond: kv.CondNotExists},
			{Kind: kv.OpPut, Key: existing.Key, Attrs: []kv.Attr{intAttr("v", 12)}, Cond: kv.CondNotExists},
			{Kind: kv.OpDelete, Key: victim.Key},
		}, 2},
		{"CondExists on a missing key", []kv.Op{
			{Kind: kv.OpPut, Key: existing.Key, Attrs: []kv.Attr{intAttr("v", 13)}, Cond: kv.CondExists},
			{Kind: kv.OpPut, Key: newKey("n1"), Attrs: []kv.Attr{intAttr("v", 14)}, Cond: kv.CondExists},
			{Kind: kv.OpDelete, Key: victim.Key, Cond: kv.CondExists},
		}, 1},
		{"CondExists delete of a missing key", []kv.Op{
			{Kind: kv.OpDelete, Key: victim.Key},
			{Kind: kv.OpDelete, Key: newKey("n3"), Cond: kv.CondExists},
		}, 1},
		{"first op fails", []kv.Op{
			{Kind: kv.OpPut, Key: victim.Key, Attrs: []kv.Attr{intAttr("v", 15)}, Cond: kv.CondNotExists},
			{Kind: kv.OpPut, Key: newKey("n1"), Attrs: []kv.Attr{intAttr("v", 16)}},
		}, 0},
		// A condition sees the batch's own earlier ops: two inserts of one
		// new key cannot both hold.
		{"CondNotExists twice on one new key", []kv.Op{
			{Kind: kv.OpPut, Key: newKey("n1"), Attrs: []kv.Attr{intAttr("v", 17)}, Cond: kv.CondNotExists},
			{Kind: kv.OpPut, Key: newKey("n2"), Attrs: []kv.Attr{intAttr("v", 18)}},
			{Kind: kv.OpPut, Key: newKey("n1"), Attrs: []kv.Attr{intAttr("v", 19)}, Cond: kv.CondNotExists},
		}, 2},
		{"CondExists after the batch deletes the key", []kv.Op{
			{Kind: kv.OpDelete, Key: existing.Key},
			{Kind: kv.OpPut, Key: existing.Key, Attrs: []kv.Attr{intAttr("v", 20)}, Cond: kv.CondExists},
		}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Write(ctx, kv.Batch{Atomic: true, Ops: tc.ops})
			wantConditionFailed(t, err, tc.index, tc.ops[tc.index].Key)
			mustExist(t, s, existing)
			mustExist(t, s, victim)
			for _, k := range []string{"n1", "n2", "n3"} {
				mustBeMissing(t, s, newKey(k))
			}
		})
	}
}

func testAtomicConditionSuccess(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	existing := item(p, "existing", intAttr("v", 1), strAttr("old", "x"))
	victim := item(p, "victim", intAttr("v", 2))
	put(t, s, existing, victim)
	fresh := item(p, "fresh", intAttr("v", 3))
	updated := item(p, "existing", intAttr("v", 4))
	err := s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{
		{Kind: kv.OpPut, Key: fresh.Key, Attrs: fresh.Attrs, Cond: kv.CondNotExists},
		{Kind: kv.OpPut, Key: updated.Key, Attrs: updated.Attrs, Cond: kv.CondExists},
		{Kind: kv.OpDelete, Key: victim.Key, Cond: kv.CondExists},
		{Kind: kv.OpDelete, Key: kv.Key{Partition: p, Sort: []byte("never-existed")}},
		{Kind: kv.OpPut, Key: kv.Key{Partition: ns.part("other"), Sort: []byte("x")}, Attrs: []kv.Attr{intAttr("v", 5)}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	mustExist(t, s, fresh)
	mustExist(t, s, updated)
	mustBeMissing(t, s, victim.Key)
	mustExist(t, s, item(ns.part("other"), "x", intAttr("v", 5)))
	checkItems(t, "Scan", []kv.Item{fresh, updated}, scanAll(t, s, kv.ScanRequest{Partition: p, Reverse: true}))
}

func testAtomicLimit(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	limit := s.Capabilities().MaxAtomicOps
	n := limit
	if limit == 0 {
		n = 300 // unlimited: a batch bigger than DynamoDB's would be
	}
	mk := func(tag string, n int) ([]kv.Op, []kv.Item) {
		var items []kv.Item
		for i := range n {
			items = append(items, item(p, fmt.Sprintf("%s%04d", tag, i), intAttr("i", int64(i))))
		}
		ops := putOps(items...)
		for i := range ops {
			ops[i].Cond = kv.CondNotExists
		}
		return ops, items
	}
	ops, items := mk("a", n)
	if err := s.Write(ctx, kv.Batch{Atomic: true, Ops: ops}); err != nil {
		t.Fatalf("atomic batch of %d ops (MaxAtomicOps %d): %v", n, limit, err)
	}
	checkItems(t, "Scan", items, scanAll(t, s, kv.ScanRequest{Partition: p}))
	if limit == 0 {
		return
	}
	ops, _ = mk("b", limit+1)
	if err := s.Write(ctx, kv.Batch{Atomic: true, Ops: ops}); !errors.Is(err, kv.ErrBatchTooLarge) {
		t.Fatalf("atomic batch of MaxAtomicOps+1 = %d ops: err = %v, want ErrBatchTooLarge", limit+1, err)
	}
	checkItems(t, "Scan after the rejected batch", items, scanAll(t, s, kv.ScanRequest{Partition: p}))
}

func testNonAtomicBigBatch(t *testing.T, s kv.Store, ns namespace, opts Options) {
	p := ns.part("p")
	var items []kv.Item
	for i := range opts.BigBatchOps {
		items = append(items, item(p, fmt.Sprintf("%06d", i), intAttr("i", int64(i)), strAttr("pad", "0123456789abcdef")))
	}
	var st kv.Stats
	if err := s.Write(ctx, kv.Batch{Ops: putOps(items...), Stats: &st}); err != nil {
		t.Fatal(err)
	}
	if got := st.ItemsWritten.Load(); got != int64(len(items)) {
		t.Errorf("Stats.ItemsWritten = %d, want %d", got, len(items))
	}
	checkItems(t, "Scan", items, scanAll(t, s, kv.ScanRequest{Partition: p}))
	var dels []kv.Op
	for _, it := range items {
		dels = append(dels, kv.Op{Kind: kv.OpDelete, Key: it.Key})
	}
	if err := s.Write(ctx, kv.Batch{Ops: dels}); err != nil {
		t.Fatal(err)
	}
	if got := scanAll(t, s, kv.ScanRequest{Partition: p}); len(got) != 0 {
		t.Errorf("%d items left after deleting all: %s", len(got), sortKeys(got))
	}
}

func testConditionInNonAtomicBatch(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	err := s.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: kv.Key{Partition: p, Sort: []byte("k")}, Cond: kv.CondNotExists}}})
	if err == nil {
		t.Fatal("a condition in a non-atomic batch was accepted")
	}
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		t.Errorf("err = %v, want a usage error, not a condition failure", err)
	}
	mustBeMissing(t, s, kv.Key{Partition: p, Sort: []byte("k")})
}

func testEmptyBatch(t *testing.T, s kv.Store, _ namespace, _ Options) {
	for _, atomic := range []bool{false, true} {
		if err := s.Write(ctx, kv.Batch{Atomic: atomic}); err != nil {
			t.Errorf("empty batch (atomic=%v): %v", atomic, err)
		}
	}
}

func testConcurrentConditionalInsert(t *testing.T, s kv.Store, ns namespace, opts Options) {
	p := ns.part("p")
	const rounds = 10
	for r := range rounds {
		key := kv.Key{Partition: p, Sort: []byte(fmt.Sprintf("contended-%02d", r))}
		own := func(w int) kv.Key {
			return kv.Key{Partition: p, Sort: []byte(fmt.Sprintf("own-%02d-%02d", r, w))}
		}
		errs := make([]error, opts.Writers)
		var start, done sync.WaitGroup
		start.Add(1)
		for w := range opts.Writers {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				errs[w] = s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{
					{Kind: kv.OpPut, Key: key, Attrs: []kv.Attr{intAttr("writer", int64(w))}, Cond: kv.CondNotExists},
					{Kind: kv.OpPut, Key: own(w), Attrs: []kv.Attr{intAttr("writer", int64(w))}},
				}})
			}()
		}
		start.Done()
		done.Wait()
		winner := -1
		for w, err := range errs {
			var cf *kv.ConditionFailedError
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("round %d: writers %d and %d both inserted the same key", r, winner, w)
			case err == nil:
				winner = w
			case !errors.As(err, &cf) || cf.Index != 0:
				t.Errorf("round %d writer %d: err = %v, want *kv.ConditionFailedError at index 0", r, w, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no writer won", r)
		}
		mustExist(t, s, kv.Item{Key: key, Attrs: []kv.Attr{intAttr("writer", int64(winner))}})
		for w := range opts.Writers {
			if w == winner {
				mustExist(t, s, kv.Item{Key: own(w), Attrs: []kv.Attr{intAttr("writer", int64(w))}})
			} else {
				mustBeMissing(t, s, own(w))
			}
		}
	}
}

func testCompareAndSet(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	row := item(p, "row", intAttr("version", 3), strAttr("v", "old"))
	bare := item(p, "bare", strAttr("v", "no version"))
	put(t, s, row, bare)
	key := func(k string) kv.Key { return kv.Key{Partition: p, Sort: []byte(k)} }
	cas := func(k string, want kv.Attr, attrs ...kv.Attr) kv.Op {
		return kv.Op{Kind: kv.OpPut, Key: key(k), Attrs: attrs, Cond: kv.CondAttrEquals, CondAttr: want}
	}
	null := kv.Attr{Name: "version", Kind: kv.AttrNull}
	failures := []struct {
		name string
		op   kv.Op
	}{
		{"wrong value", cas("row", intAttr("version", 2), strAttr("v", "x"))},
		{"wrong kind", cas("row", strAttr("version", "3"), strAttr("v", "x"))},
		{"absent attribute expected present", cas("bare", intAttr("version", 0), strAttr("v", "x"))},
		{"present attribute expected absent", cas("row", null, strAttr("v", "x"))},
		{"missing item", cas("nothing", null, strAttr("v", "x"))},
		{"delete with wrong value", kv.Op{Kind: kv.OpDelete, Key: key("row"), Cond: kv.CondAttrEquals, CondAttr: intAttr("version", 4)}},
	}
	for _, tc := range failures {
		t.Run(tc.name, func(t *testing.T) {
			ops := []kv.Op{{Kind: kv.OpPut, Key: key("side"), Attrs: []kv.Attr{intAttr("v", 1)}}, tc.op}
			wantConditionFailed(t, s.Write(ctx, kv.Batch{Atomic: true, Ops: ops}), 1, tc.op.Key)
			mustExist(t, s, row)
			mustExist(t, s, bare)
			mustBeMissing(t, s, key("side"))
		})
	}
	if err := s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{
		cas("row", intAttr("version", 3), intAttr("version", 4), strAttr("v", "new")),
		cas("bare", null, intAttr("version", 1), strAttr("v", "versioned")),
	}}); err != nil {
		t.Fatalf("compare-and-set with the right values: %v", err)
	}
	mustExist(t, s, item(p, "row", intAttr("version", 4), strAttr("v", "new")))
	mustExist(t, s, item(p, "bare", intAttr("version", 1), strAttr("v", "versioned")))
	if err := s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{
		{Kind: kv.OpDelete, Key: key("row"), Cond: kv.CondAttrEquals, CondAttr: intAttr("version", 4)},
	}}); err != nil {
		t.Fatalf("compare-and-delete: %v", err)
	}
	mustBeMissing(t, s, key("row"))
}

// testConcurrentCompareAndSet runs read-modify-write increments from several
// writers, each retrying when its compare-and-set loses: no increment may be
// lost.
func testConcurrentCompareAndSet(t *testing.T, s kv.Store, ns namespace, opts Options) {
	p := ns.part("p")
	key := kv.Key{Partition: p, Sort: []byte("counter")}
	put(t, s, kv.Item{Key: key, Attrs: []kv.Attr{intAttr("n", 0)}})
	const perWriter = 15
	var wg sync.WaitGroup
	errs := make(chan error, opts.Writers)
	for range opts.Writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, attempts := 0, 0; i < perWriter; attempts++ {
				if attempts > 100*perWriter*opts.Writers {
					errs <- fmt.Errorf("compare-and-set never succeeds (%d attempts)", attempts)
					return
				}
				got, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{key}, Consistent: true})
				if err != nil {
					errs <- err
					return
				}
				cur := kv.Lookup(got[0].Attrs, "n")
				err = s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: key,
					Attrs: []kv.Attr{intAttr("n", cur.I+1)}, Cond: kv.CondAttrEquals, CondAttr: cur}}})
				var cf *kv.ConditionFailedError
				switch {
				case err == nil:
					i++
				case errors.As(err, &cf):
					// Lost the race: read again.
				default:
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	mustExist(t, s, kv.Item{Key: key, Attrs: []kv.Attr{intAttr("n", int64(opts.Writers*perWriter))}})
}

func testStats(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	var ws kv.Stats
	items := []kv.Item{item(p, "a", intAttr("v", 1)), item(p, "b", intAttr("v", 2)), item(p, "c", intAttr("v", 3)), item(p, "d", intAttr("v", 4))}
	if err := s.Write(ctx, kv.Batch{Ops: putOps(items...), Stats: &ws}); err != nil {
		t.Fatal(err)
	}
	if ws.Requests.Load() < 1 || ws.ItemsWritten.Load() != 4 {
		t.Errorf("write stats: Requests %d, ItemsWritten %d; want >= 1, 4", ws.Requests.Load(), ws.ItemsWritten.Load())
	}
	var as kv.Stats
	if err := s.Write(ctx, kv.Batch{Atomic: true, Stats: &as, Ops: []kv.Op{{Kind: kv.OpPut, Key: kv.Key{Partition: p, Sort: []byte("e")}, Cond: kv.CondNotExists}}}); err != nil {
		t.Fatal(err)
	}
	if as.Requests.Load() < 1 || as.ItemsWritten.Load() != 1 {
		t.Errorf("atomic write stats: Requests %d, ItemsWritten %d; want >= 1, 1", as.Requests.Load(), as.ItemsWritten.Load())
	}

	var gs kv.Stats
	if _, err := s.Get(ctx, kv.GetRequest{Stats: &gs, Keys: []kv.Key{items[0].Key, {Partition: p, Sort: []byte("missing")}, items[2].Key}}); err != nil {
		t.Fatal(err)
	}
	if gs.Requests.Load() < 1 || gs.ItemsRead.Load() != 2 || gs.BytesRead.Load() <= 0 {
		t.Errorf("get stats: Requests %d, ItemsRead %d, BytesRead %d; want >= 1, 2, > 0", gs.Requests.Load(), gs.ItemsRead.Load(), gs.BytesRead.Load())
	}

	var ss kv.Stats
	got := scanAll(t, s, kv.ScanRequest{Partition: p, Stats: &ss})
	if ss.Requests.Load() < 1 || ss.ItemsRead.Load() < int64(len(got)) || ss.BytesRead.Load() <= 0 {
		t.Errorf("scan stats over %d items: Requests %d, ItemsRead %d, BytesRead %d", len(got), ss.Requests.Load(), ss.ItemsRead.Load(), ss.BytesRead.Load())
	}
	if len(got) != 5 {
		t.Errorf("scan returned %d items, want 5", len(got))
	}
}

func testIteratorEarlyClose(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	fillScanPartition(t, s, p)
	it := s.Scan(ctx, kv.ScanRequest{Partition: p})
	if !it.Next() {
		t.Fatalf("Next = false, err %v", it.Err())
	}
	if err := it.Close(); err != nil {
		t.Errorf("Close after one item: %v", err)
	}
	it = s.Scan(ctx, kv.ScanRequest{Partition: p, Reverse: true})
	if err := it.Close(); err != nil {
		t.Errorf("Close before Next: %v", err)
	}
	// The store stays usable.
	if got := scanAll(t, s, kv.ScanRequest{Partition: p}); len(got) != len(scanKeys) {
		t.Errorf("scan after early closes: %d items, want %d", len(got), len(scanKeys))
	}
}

func testLarge(t *testing.T, s kv.Store, ns namespace, opts Options) {
	if testing.Short() {
		t.Skip("writes several MB; skipped with -short")
	}
	p := ns.part("p")
	n := max(3, opts.LargeBytes/opts.LargeValueBytes)
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	var items []kv.Item
	for i := range n {
		v := make([]byte, opts.LargeValueBytes)
		for j := range v {
			v[j] = byte(rng.Uint32())
		}
		items = append(items, item(p, fmt.Sprintf("big%05d", i), intAttr("i", int64(i)), kv.Attr{Name: "v", Kind: kv.AttrBytes, B: v}))
	}
	// Several non-atomic batches, so no one request need hold all of it.
	for lo := 0; lo < n; lo += 16 {
		put(t, s, items[lo:min(n, lo+16)]...)
	}
	for _, rev := range []bool{false, true} {
		for _, limit := range []int{0, 7} {
			req := kv.ScanRequest{Partition: p, Reverse: rev, Limit: limit}
			want := expectScan(items, req)
			got := scanAll(t, s, req)
			if limit > 0 && len(got) >= limit && len(got) < len(want) {
				want = want[:len(got)] // a backend may honour the hint
			}
			checkItems(t, describeScan(req), want, got)
		}
	}
	// Seek across pages, forward and back.
	mid := items[n/2].Key.Sort
	steps := []seekStep{expect(string(items[0].Key.Sort)), seekTo(string(mid)), expect(string(mid)), expect(string(items[n/2+1].Key.Sort))}
	checkSeekLarge(t, s, kv.ScanRequest{Partition: p}, steps)
	steps = []seekStep{expect(string(items[n-1].Key.Sort)), seekTo(string(mid)), expect(string(items[n/2-1].Key.Sort))}
	checkSeekLarge(t, s, kv.ScanRequest{Partition: p, Reverse: true}, steps)

	keys := make([]kv.Key, n)
	for i := range items {
		keys[i] = items[i].Key
	}
	got, err := s.Get(ctx, kv.GetRequest{Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	checkItems(t, "Get of every large item", items, got)
}

func checkSeekLarge(t *testing.T, s kv.Store, req kv.ScanRequest, steps []seekStep) {
	t.Helper()
	it := s.Scan(ctx, req)
	defer it.Close()
	for i, st := range steps {
		if !st.next {
			it.Seek(bs(st.seek))
			continue
		}
		if !it.Next() {
			t.Fatalf("%s step %d: Next = false (err %v), want %q", describeScan(req), i, it.Err(), st.want)
		}
		if got := string(it.Item().Key.Sort); got != st.want {
			t.Fatalf("%s step %d: Next returned %q, want %q", describeScan(req), i, got, st.want)
		}
	}
}

func testClosed(t *testing.T, s kv.Store, ns namespace, _ Options) {
	p := ns.part("p")
	put(t, s, item(p, "k", intAttr("v", 1)))
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{{Partition: p, Sort: []byte("k")}}}); !errors.Is(err, kv.ErrClosed) {
		t.Errorf("Get after Close: err = %v, want ErrClosed", err)
	}
	if err := s.Write(ctx, kv.Batch{Ops: putOps(item(p, "k2"))}); !errors.Is(err, kv.ErrClosed) {
		t.Errorf("Write after Close: err = %v, want ErrClosed", err)
	}
	it := s.Scan(ctx, kv.ScanRequest{Partition: p})
	if it.Next() {
		t.Error("Scan after Close returned an item")
	}
	if err := it.Err(); !errors.Is(err, kv.ErrClosed) {
		t.Errorf("Scan after Close: Err = %v, want ErrClosed", err)
	}
	it.Close()
}
