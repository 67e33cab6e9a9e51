package kvsplit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtest"
	"github.com/zproxy/zproxy/kv/kvtxn"
	"github.com/zproxy/zproxy/kv/pebble"
)

var bg = context.Background()

func openMem(t testing.TB) *pebble.Store {
	t.Helper()
	s, err := pebble.Open("db", pebble.Options{InMemory: true, CacheSize: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// keepOpen is a Pebble store whose Close does nothing, so that a test can
// read it after the split store owning it was closed.
type keepOpen struct{ *pebble.Store }

func (keepOpen) Close() error { return nil }

// countItems returns the number of items of a partition.
func countItems(t testing.TB, s kv.Store, part []byte) int {
	t.Helper()
	it := s.Scan(bg, kv.ScanRequest{Partition: part})
	n := 0
	for it.Next() {
		n++
	}
	if err := errors.Join(it.Err(), it.Close()); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestConformance runs the kv conformance suite over two in-memory Pebble
// stores, a partition being local when bit 1 of its last byte is set (or,
// in the second run, clear). The suite's partitions are a random prefix
// and a name, and that bit tells its names apart ("p" from "other", "a"
// from "ab", "nobody" from "accounts"), so that subtests of several
// partitions mix the stores (a mixed atomic batch in
// AtomicConditionSuccess, mixed Gets in GetOrder) and every partition is
// local in one run and main in the other. After each subtest every
// partition the suite used is read from both stores: it must have no items
// in the store that does not own it, and both stores must have held some.
func TestConformance(t *testing.T) {
	for _, localWhenSet := range []bool{true, false} {
		t.Run(fmt.Sprintf("LocalWhenBit1Is%v", localWhenSet), func(t *testing.T) {
			var held [2]atomic.Int64 // items found at the end of subtests: main, local
			t.Cleanup(func() {
				if held[0].Load() == 0 || held[1].Load() == 0 {
					t.Errorf("the suite left %d items in main and %d in local; want both stores used", held[0].Load(), held[1].Load())
				}
			})
			kvtest.RunWith(t, func(t *testing.T) kv.Store {
				main, local := openMem(t), openMem(t)
				var parts sync.Map // partition → isLocal
				isLocal := func(p []byte) bool {
					l := len(p) > 0 && (p[len(p)-1]&2 != 0) == localWhenSet
					parts.Store(string(p), l)
					return l
				}
				// Registered before the suite's Close of the split store, so
				// run after it.
				t.Cleanup(func() {
					parts.Range(func(k, v any) bool {
						stores, side := [2]kv.Store{main, local}, 0
						if v.(bool) {
							side = 1
						}
						held[side].Add(int64(countItems(t, stores[side], []byte(k.(string)))))
						if n := countItems(t, stores[1-side], []byte(k.(string))); n > 0 {
							t.Errorf("partition %q (local %v) has %d items in the other store", k, v, n)
						}
						return true
					})
					main.Close()
					local.Close()
				})
				return New(main, keepOpen{local}, isLocal)
			}, kvtest.Options{Parallel: true, LargeBytes: 1 << 20, TransferDuration: time.Second,
				// An exported snapshot is main's (txn.ExportSnapshot).
				SharedSnapshotCovers: func(p []byte) bool { return !(len(p) > 0 && (p[len(p)-1]&2 != 0) == localWhenSet) }})
		})
	}
}

// isTemp is the tests' routing: partitions starting with "t" are local.
func isTemp(p []byte) bool { return len(p) > 0 && p[0] == 't' }

// newSplit returns a split store over two fresh Pebble stores, and them.
func newSplit(t *testing.T) (kv.Store, *pebble.Store, *pebble.Store) {
	main, local := openMem(t), openMem(t)
	s := New(main, local, isTemp)
	t.Cleanup(func() {
		s.Close()
		main.Close()
	})
	return s, main, local
}

func key(part, sort string) kv.Key { return kv.Key{Partition: []byte(part), Sort: []byte(sort)} }

func val(v int64) []kv.Attr { return []kv.Attr{{Name: "v", Kind: kv.AttrInt, I: v}} }

func put(k kv.Key, v int64) kv.Op { return kv.Op{Kind: kv.OpPut, Key: k, Attrs: val(v)} }

func putIfNew(k kv.Key, v int64) kv.Op {
	return kv.Op{Kind: kv.OpPut, Key: k, Attrs: val(v), Cond: kv.CondNotExists}
}

func write(t *testing.T, s kv.ReadWriter, atomic bool, ops ...kv.Op) {
	t.Helper()
	if err := s.Write(bg, kv.Batch{Ops: ops, Atomic: atomic}); err != nil {
		t.Fatalf("Write: %v", err)
	}
}

// value returns the v attribute of k in s, or -1 if k is missing.
func value(t *testing.T, s kv.ReadWriter, k kv.Key) int64 {
	t.Helper()
	items, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{k}})
	if err != nil {
		t.Fatalf("Get %s/%s: %v", k.Partition, k.Sort, err)
	}
	if !kv.Found(items[0]) {
		return -1
	}
	return kv.Lookup(items[0].Attrs, "v").I
}

// name is a key as wantValues takes it: "partition/sort".
func name(k kv.Key) string { return string(k.Partition) + "/" + string(k.Sort) }

// wantValues checks the values of keys (named "partition/sort") in s (-1:
// missing).
func wantValues(t *testing.T, what string, s kv.ReadWriter, want map[string]int64) {
	t.Helper()
	for k, v := range want {
		part, sort, _ := strings.Cut(k, "/")
		if got := value(t, s, key(part, sort)); got != v {
			t.Errorf("%s: %s = %d, want %d", what, k, got, v)
		}
	}
}

func begin(t *testing.T, s kv.Store, opts kv.TxnOptions) kv.Txn {
	t.Helper()
	txn, err := s.(kv.Transactional).Begin(bg, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { txn.Rollback() })
	return txn
}

// TestRouting: whatever writes them (one side, mixed non-atomic, mixed
// atomic, a transaction), items land in the store owning their partition
// and nowhere else, and scans are the owning store's own iterators.
func TestRouting(t *testing.T) {
	cases := []struct {
		name   string
		atomic bool
		txn    bool
		ops    []kv.Op
	}{
		{"main only", true, false, []kv.Op{put(key("m1", "a"), 1), put(key("m2", "a"), 2)}},
		{"local only", true, false, []kv.Op{put(key("t1", "a"), 3), put(key("t2", "a"), 4)}},
		{"mixed non-atomic", false, false, []kv.Op{put(key("m1", "b"), 5), put(key("t1", "b"), 6), put(key("m2", "b"), 7)}},
		{"mixed atomic", true, false, []kv.Op{put(key("t1", "c"), 8), putIfNew(key("m1", "c"), 9), putIfNew(key("t2", "c"), 10)}},
		{"mixed transaction", false, true, []kv.Op{put(key("t1", "d"), 11), put(key("m1", "d"), 12)}},
	}
	s, main, local := newSplit(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.txn {
				txn := begin(t, s, kv.TxnOptions{})
				write(t, txn, false, c.ops...)
				if err := txn.Commit(bg); err != nil {
					t.Fatal(err)
				}
			} else {
				write(t, s, c.atomic, c.ops...)
			}
			for _, op := range c.ops {
				own, other := kv.Store(main), kv.Store(local)
				if isTemp(op.Key.Partition) {
					own, other = local, main
				}
				want := op.Attrs[0].I
				if got := value(t, own, op.Key); got != want {
					t.Errorf("%s/%s in its store = %d, want %d", op.Key.Partition, op.Key.Sort, got, want)
				}
				if got := value(t, other, op.Key); got != -1 {
					t.Errorf("%s/%s found in the other store", op.Key.Partition, op.Key.Sort)
				}
				if got := value(t, s, op.Key); got != want {
					t.Errorf("%s/%s through the split store = %d, want %d", op.Key.Partition, op.Key.Sort, got, want)
				}
			}
		})
	}
	for _, part := range []string{"m1", "t1"} {
		it := s.Scan(bg, kv.ScanRequest{Partition: []byte(part)})
		if _, ok := it.(kv.KeyIterator); !ok {
			t.Errorf("Scan of %s returned a %T, not a kv.KeyIterator", part, it)
		}
		it.Close()
	}
}

// TestGetOrder: a Get of both kinds of key, through the store and through
// a transaction with writes of its own on both sides, answers in request
// order.
func TestGetOrder(t *testing.T) {
	s, _, _ := newSplit(t)
	write(t, s, false, put(key("m", "a"), 1), put(key("t", "a"), 2), put(key("m", "b"), 3), put(key("t", "b"), 4))
	txn := begin(t, s, kv.TxnOptions{})
	write(t, txn, false, put(key("m", "c"), 5), put(key("t", "c"), 6), kv.Op{Kind: kv.OpDelete, Key: key("t", "b")})
	keys := []kv.Key{key("t", "b"), key("m", "x"), key("m", "a"), key("t", "a"), key("t", "x"), key("m", "b"), key("t", "c"), key("m", "c"), key("t", "a")}
	cases := []struct {
		name string
		rw   kv.ReadWriter
		want []int64
	}{
		{"store", s, []int64{4, -1, 1, 2, -1, 3, -1, -1, 2}},
		{"transaction", txn, []int64{-1, -1, 1, 2, -1, 3, 6, 5, 2}},
	}
	for _, c := range cases {
		for _, n := range []int{0, 1, 2, len(keys)} {
			items, err := c.rw.Get(bg, kv.GetRequest{Keys: keys[:n]})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if len(items) != n {
				t.Fatalf("%s: %d items for %d keys", c.name, len(items), n)
			}
			for i, it := range items {
				got := int64(-1)
				if kv.Found(it) {
					got = kv.Lookup(it.Attrs, "v").I
					if !bytes.Equal(it.Key.Partition, keys[i].Partition) || !bytes.Equal(it.Key.Sort, keys[i].Sort) {
						t.Errorf("%s: item %d has key %s/%s, want %s/%s", c.name, i, it.Key.Partition, it.Key.Sort, keys[i].Partition, keys[i].Sort)
					}
				} else if it.Attrs != nil {
					t.Errorf("%s: missing item %d has attributes", c.name, i)
				}
				if got != c.want[i] {
					t.Errorf("%s: key %d (%s/%s) = %d, want %d", c.name, i, keys[i].Partition, keys[i].Sort, got, c.want[i])
				}
			}
		}
	}
}

// TestMixedConditionFailure: a mixed atomic batch, written to the store or
// to a transaction, with a failing condition on either side (or both)
// writes nothing on either side, and its error names the batch's first
// failing op.
func TestMixedConditionFailure(t *testing.T) {
	exists := map[bool]kv.Key{false: key("m", "exists"), true: key("t", "exists")}
	fresh := []kv.Key{key("m", "new1"), key("t", "new1"), key("m", "new2"), key("t", "new2")}
	cases := []struct {
		name      string
		failing   []bool // the sides of conditioned puts of existing keys, in batch order
		wantIndex int
	}{
		{"main fails", []bool{false}, 2},
		{"local fails", []bool{true}, 2},
		{"main first of both", []bool{false, true}, 2},
		{"local first of both", []bool{true, false}, 2},
	}
	for _, c := range cases {
		for _, inTxn := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/txn=%v", c.name, inTxn), func(t *testing.T) {
				s, main, local := newSplit(t)
				write(t, s, false, put(exists[false], 1), put(exists[true], 2))
				ops := []kv.Op{putIfNew(fresh[0], 10), putIfNew(fresh[1], 11)}
				for _, side := range c.failing {
					ops = append(ops, putIfNew(exists[side], 99))
				}
				ops = append(ops, put(fresh[2], 12), putIfNew(fresh[3], 13))
				var rw kv.ReadWriter = s
				var txn kv.Txn
				if inTxn {
					txn = begin(t, s, kv.TxnOptions{})
					rw = txn
				}
				err := rw.Write(bg, kv.Batch{Ops: ops, Atomic: true})
				var cf *kv.ConditionFailedError
				if !errors.As(err, &cf) {
					t.Fatalf("err = %v, want a *kv.ConditionFailedError", err)
				}
				wantKey := exists[c.failing[0]]
				if cf.Index != c.wantIndex || !bytes.Equal(cf.Key.Partition, wantKey.Partition) || !bytes.Equal(cf.Key.Sort, wantKey.Sort) {
					t.Errorf("failed op %d (%s/%s), want %d (%s/%s)", cf.Index, cf.Key.Partition, cf.Key.Sort, c.wantIndex, wantKey.Partition, wantKey.Sort)
				}
				want := map[string]int64{name(exists[false]): 1, name(exists[true]): 2}
				for _, k := range fresh {
					want[name(k)] = -1
				}
				if inTxn {
					wantValues(t, "in the transaction", txn, want)
					if err := txn.Commit(bg); err != nil {
						t.Fatal(err)
					}
				}
				wantValues(t, "split store", s, want)
				wantValues(t, "main", main, map[string]int64{name(exists[false]): 1, name(fresh[0]): -1, name(fresh[2]): -1})
				wantValues(t, "local", local, map[string]int64{name(exists[true]): 2, name(fresh[1]): -1, name(fresh[3]): -1})
			})
		}
	}
}

// countBegins is a Pebble store that counts its transactions.
type countBegins struct {
	*pebble.Store
	n atomic.Int32
}

func (c *countBegins) Begin(ctx context.Context, opts kv.TxnOptions) (kv.Txn, error) {
	c.n.Add(1)
	return c.Store.Begin(ctx, opts)
}

// TestLazyLocal: a transaction that touches no local partition never
// begins local's transaction; its first local read does.
func TestLazyLocal(t *testing.T) {
	main := openMem(t)
	defer main.Close()
	local := &countBegins{Store: openMem(t)}
	s := New(main, local, isTemp)
	defer s.Close()
	txn := begin(t, s, kv.TxnOptions{})
	write(t, txn, false, put(key("m", "a"), 1))
	txn.Savepoint()
	value(t, txn, key("m", "a"))
	if err := txn.Lock(bg, []kv.Key{key("m", "b")}, kv.LockUpdate); err != nil {
		t.Fatal(err)
	}
	if n := local.n.Load(); n != 0 {
		t.Fatalf("local began %d transactions for a main-only one", n)
	}
	value(t, txn, key("t", "a"))
	if err := txn.Commit(bg); err != nil {
		t.Fatal(err)
	}
	if n := local.n.Load(); n != 1 {
		t.Errorf("local began %d transactions, want 1", n)
	}
}

// TestSavepoints: split savepoints roll both sides back together,
// including savepoints taken before the local transaction began (rolling
// back to one discards every local write, and local begins again at the
// next local access), and Release keeps both sides' writes.
func TestSavepoints(t *testing.T) {
	main := openMem(t)
	defer main.Close()
	localStore := openMem(t)
	local := &countBegins{Store: localStore}
	s := New(main, local, isTemp)
	defer s.Close()
	m := func(k string) kv.Key { return key("m", k) }
	l := func(k string) kv.Key { return key("t", k) }
	txn := begin(t, s, kv.TxnOptions{})
	rollbackTo := func(sp kv.Savepoint) {
		t.Helper()
		if err := txn.RollbackTo(sp); err != nil {
			t.Fatalf("RollbackTo(%d): %v", sp, err)
		}
	}

	sp0 := txn.Savepoint() // before anything
	write(t, txn, false, put(m("a"), 1))
	sp1 := txn.Savepoint() // before local began
	write(t, txn, false, put(l("a"), 2), put(m("b"), 3))
	sp2 := txn.Savepoint() // both sides
	write(t, txn, false, put(l("b"), 4), put(m("c"), 5))
	wantValues(t, "before any rollback", txn, map[string]int64{"m/a": 1, "m/b": 3, "m/c": 5, "t/a": 2, "t/b": 4})

	rollbackTo(sp2)
	wantValues(t, "after ROLLBACK TO sp2", txn, map[string]int64{"m/a": 1, "m/b": 3, "m/c": -1, "t/a": 2, "t/b": -1})
	rollbackTo(sp1) // abandons local's transaction
	if n := local.n.Load(); n != 1 {
		t.Fatalf("local began %d transactions, want 1", n)
	}
	wantValues(t, "after ROLLBACK TO sp1", txn, map[string]int64{"m/a": 1, "m/b": -1, "t/a": -1})
	if n := local.n.Load(); n != 2 {
		t.Fatalf("local began %d transactions, want 2 (the read begins it again)", n)
	}
	if err := txn.RollbackTo(sp2); !errors.Is(err, kvtxn.ErrUnknownSavepoint) {
		t.Errorf("ROLLBACK TO a savepoint rolled back past: err = %v", err)
	}

	// A savepoint before local's new writes and one after.
	write(t, txn, false, put(l("c"), 6))
	sp3 := txn.Savepoint()
	write(t, txn, false, put(l("d"), 7), put(m("d"), 8))
	// Releasing sp1 releases sp3 too, keeping all writes.
	if err := txn.Release(sp1); err != nil {
		t.Fatal(err)
	}
	if err := txn.RollbackTo(sp3); !errors.Is(err, kvtxn.ErrUnknownSavepoint) {
		t.Errorf("ROLLBACK TO a released savepoint: err = %v", err)
	}
	wantValues(t, "after RELEASE sp1", txn, map[string]int64{"m/a": 1, "m/d": 8, "t/c": 6, "t/d": 7})

	// A savepoint of both sides, then one from before local's transaction
	// began again.
	sp4 := txn.Savepoint()
	write(t, txn, false, put(m("e"), 9))
	rollbackTo(sp4)
	wantValues(t, "after ROLLBACK TO sp4", txn, map[string]int64{"m/e": -1, "t/c": 6})
	rollbackTo(sp0)
	wantValues(t, "after ROLLBACK TO sp0", txn, map[string]int64{"m/a": -1, "m/d": -1, "t/c": -1, "t/d": -1})

	write(t, txn, false, put(m("f"), 10), put(l("f"), 11))
	if err := txn.Commit(bg); err != nil {
		t.Fatal(err)
	}
	wantValues(t, "main after commit", main, map[string]int64{"m/a": -1, "m/b": -1, "m/c": -1, "m/d": -1, "m/e": -1, "m/f": 10})
	wantValues(t, "local after commit", localStore, map[string]int64{"t/a": -1, "t/b": -1, "t/c": -1, "t/d": -1, "t/f": 11})
}

// TestCommitConflict: of two split transactions writing one main key, the
// second to commit gets a *kv.ConflictError and none of its local writes
// is applied.
func TestCommitConflict(t *testing.T) {
	s, main, local := newSplit(t)
	t1 := begin(t, s, kv.TxnOptions{})
	t2 := begin(t, s, kv.TxnOptions{})
	write(t, t1, false, put(key("m", "k"), 1), put(key("t", "one"), 1))
	write(t, t2, false, put(key("t", "two"), 2), put(key("m", "k"), 2), put(key("m", "two"), 2))
	if err := t1.Commit(bg); err != nil {
		t.Fatal(err)
	}
	var ce *kv.ConflictError
	if err := t2.Commit(bg); !errors.As(err, &ce) {
		t.Fatalf("second commit: err = %v, want a *kv.ConflictError", err)
	}
	if err := t2.Rollback(); err != nil {
		t.Errorf("Rollback after a failed Commit: %v", err)
	}
	wantValues(t, "main", main, map[string]int64{"m/k": 1, "m/two": -1})
	wantValues(t, "local", local, map[string]int64{"t/one": 1, "t/two": -1})
}

// TestReadOnly: a read-only split transaction reads both sides and
// refuses writes and locks on either.
func TestReadOnly(t *testing.T) {
	s, _, _ := newSplit(t)
	write(t, s, false, put(key("m", "a"), 1), put(key("t", "a"), 2))
	txn := begin(t, s, kv.TxnOptions{ReadOnly: true})
	wantValues(t, "read-only transaction", txn, map[string]int64{"m/a": 1, "t/a": 2})
	for _, keys := range [][]kv.Key{{key("m", "a")}, {key("t", "a")}, {key("m", "a"), key("t", "a")}} {
		var ops []kv.Op
		for _, k := range keys {
			ops = append(ops, put(k, 5))
		}
		if err := txn.Write(bg, kv.Batch{Ops: ops}); !errors.Is(err, kv.ErrReadOnly) {
			t.Errorf("Write of %d keys: err = %v, want ErrReadOnly", len(keys), err)
		}
		if err := txn.Lock(bg, keys, kv.LockShare); !errors.Is(err, kv.ErrReadOnly) {
			t.Errorf("Lock of %d keys: err = %v, want ErrReadOnly", len(keys), err)
		}
	}
	if err := txn.Commit(bg); err != nil {
		t.Fatal(err)
	}
	if err := txn.Rollback(); err != nil {
		t.Errorf("Rollback after Commit: %v", err)
	}
	if _, err := txn.Get(bg, kv.GetRequest{Keys: []kv.Key{key("t", "a")}}); !errors.Is(err, kv.ErrTxnDone) {
		t.Errorf("Get after Commit: err = %v, want ErrTxnDone", err)
	}
	if err := txn.Commit(bg); !errors.Is(err, kv.ErrTxnDone) {
		t.Errorf("second Commit: err = %v, want ErrTxnDone", err)
	}
	wantValues(t, "store", s, map[string]int64{"m/a": 1, "t/a": 2})
}

// TestBulk: a bulk batch goes to the store of its first ops, and ops of
// the other store are refused, in the first Add or a later one.
func TestBulk(t *testing.T) {
	cases := []struct {
		name    string
		adds    [][]kv.Op
		wantErr []bool // per Add
		wantIn  string // "main" or "local": where the accepted ops land
	}{
		{"local", [][]kv.Op{{putIfNew(key("t", "a"), 1)}, {put(key("t", "b"), 2), putIfNew(key("t2", "c"), 3)}}, []bool{false, false}, "local"},
		{"main", [][]kv.Op{{}, {putIfNew(key("m", "a"), 1), put(key("m2", "b"), 2)}}, []bool{false, false}, "main"},
		{"mixed first add", [][]kv.Op{{put(key("m", "a"), 1), put(key("t", "b"), 2)}, {put(key("t", "c"), 3)}}, []bool{true, false}, "local"},
		{"other side later", [][]kv.Op{{put(key("m", "a"), 1)}, {put(key("t", "b"), 2)}, {put(key("m", "c"), 3)}}, []bool{false, true, false}, "main"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, main, local := newSplit(t)
			b := s.(kv.BulkWriter).NewBulk()
			defer b.Close()
			var accepted, refused []kv.Op
			for i, ops := range c.adds {
				err := b.Add(ops)
				if (err != nil) != c.wantErr[i] {
					t.Fatalf("Add %d: err = %v, want error %v", i, err, c.wantErr[i])
				}
				if err != nil {
					refused = append(refused, ops...)
				} else {
					accepted = append(accepted, ops...)
				}
			}
			if first, err := b.FirstStored(bg); err != nil || first != -1 {
				t.Errorf("FirstStored = %d, %v", first, err)
			}
			if err := b.Commit(bg, nil); err != nil {
				t.Fatal(err)
			}
			own, other := kv.Store(main), kv.Store(local)
			if c.wantIn == "local" {
				own, other = local, main
			}
			for _, op := range accepted {
				if got := value(t, own, op.Key); got != op.Attrs[0].I {
					t.Errorf("%s/%s in %s = %d, want %d", op.Key.Partition, op.Key.Sort, c.wantIn, got, op.Attrs[0].I)
				}
			}
			for _, op := range append(refused, accepted...) {
				if got := value(t, other, op.Key); got != -1 {
					t.Errorf("%s/%s written to the other store", op.Key.Partition, op.Key.Sort)
				}
			}
			for _, op := range refused {
				if got := value(t, s, op.Key); got != -1 {
					t.Errorf("refused op on %s/%s written", op.Key.Partition, op.Key.Sort)
				}
			}
		})
	}
}

// Wrappers offering a Pebble store's optional interfaces selectively.
type (
	plainOf struct{ kv.Store }
	txnOf   struct{ kv.Transactional }
	bulkOf  struct {
		kv.Store
		kv.BulkWriter
	}
	compactOf struct {
		kv.Store
		kv.Compacter
	}
	txnBulkOf struct {
		kv.Transactional
		kv.BulkWriter
	}
)

// TestInterfaces: the split store offers kv.Transactional when both stores
// do, kv.BulkWriter when both do, and kv.Compacter when main does.
func TestInterfaces(t *testing.T) {
	p := openMem(t)
	defer p.Close()
	cases := []struct {
		name                 string
		main, local          kv.Store
		txn, bulk, compacter bool
	}{
		{"all", p, keepOpen{p}, true, true, true},
		{"plain main", plainOf{p}, keepOpen{p}, false, false, false},
		{"plain local", p, plainOf{keepOpen{p}}, false, false, true},
		{"transactional", txnOf{p}, txnOf{keepOpen{p}}, true, false, false},
		{"bulk", bulkOf{p, p}, bulkOf{keepOpen{p}, p}, false, true, false},
		{"compacter main", compactOf{p, p}, plainOf{keepOpen{p}}, false, false, true},
		{"local without bulk", p, txnOf{keepOpen{p}}, true, false, true},
		{"local without txn", p, bulkOf{keepOpen{p}, p}, false, true, true},
		{"main without compacter", txnBulkOf{p, p}, keepOpen{p}, true, true, false},
	}
	for _, c := range cases {
		s := New(c.main, c.local, isTemp)
		_, txn := s.(kv.Transactional)
		_, bulk := s.(kv.BulkWriter)
		_, compacter := s.(kv.Compacter)
		if txn != c.txn || bulk != c.bulk || compacter != c.compacter {
			t.Errorf("%s: %T is Transactional %v, BulkWriter %v, Compacter %v; want %v, %v, %v", c.name, s, txn, bulk, compacter, c.txn, c.bulk, c.compacter)
		}
		if s.Capabilities() != p.Capabilities() {
			t.Errorf("%s: Capabilities are not main's", c.name)
		}
	}
}

// TestNoTransactions: without transactions a mixed atomic batch is refused
// and writes nothing; a mixed non-atomic one is split.
func TestNoTransactions(t *testing.T) {
	main, local := openMem(t), openMem(t)
	defer main.Close()
	s := New(plainOf{main}, plainOf{local}, isTemp)
	defer s.Close()
	ops := []kv.Op{put(key("m", "a"), 1), put(key("t", "a"), 2)}
	if err := s.Write(bg, kv.Batch{Ops: ops, Atomic: true}); err == nil {
		t.Fatal("a mixed atomic batch without transactions succeeded")
	}
	wantValues(t, "after the refused batch", s, map[string]int64{"m/a": -1, "t/a": -1})
	write(t, s, false, ops...)
	wantValues(t, "main", main, map[string]int64{"m/a": 1})
	wantValues(t, "local", local, map[string]int64{"t/a": 2})
}

// recordCompactions is a store that records the partitions it is asked to
// compact.
type recordCompactions struct {
	kv.Store
	mu  sync.Mutex
	got []string
}

func (r *recordCompactions) CompactPartitions(_ context.Context, parts [][]byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range parts {
		r.got = append(r.got, string(p))
	}
	return nil
}

// TestCompact: partitions are compacted by the store owning them, local
// ones skipped when local cannot compact.
func TestCompact(t *testing.T) {
	p := openMem(t)
	defer p.Close()
	parts := [][]byte{[]byte("m1"), []byte("t1"), []byte("m2"), []byte("t2")}
	for _, localCompacts := range []bool{true, false} {
		main := &recordCompactions{Store: p}
		local := &recordCompactions{Store: keepOpen{p}}
		var localStore kv.Store = local
		if !localCompacts {
			localStore = plainOf{local}
		}
		s := New(main, localStore, isTemp)
		if err := s.(kv.Compacter).CompactPartitions(bg, parts); err != nil {
			t.Fatal(err)
		}
		wantLocal := "[t1 t2]"
		if !localCompacts {
			wantLocal = "[]"
		}
		if got := fmt.Sprint(main.got); got != "[m1 m2]" {
			t.Errorf("local compacts %v: main compacted %s", localCompacts, got)
		}
		if got := fmt.Sprint(local.got); got != wantLocal {
			t.Errorf("local compacts %v: local compacted %s, want %s", localCompacts, got, wantLocal)
		}
	}
}

// TestClose: Close closes local and not main, and the split store
// refuses requests after it.
func TestClose(t *testing.T) {
	main, local := openMem(t), openMem(t)
	defer main.Close()
	s := New(main, local, isTemp)
	write(t, s, false, put(key("m", "a"), 1), put(key("t", "a"), 2))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := local.Get(bg, kv.GetRequest{Keys: []kv.Key{key("t", "a")}}); !errors.Is(err, kv.ErrClosed) {
		t.Errorf("local after Close: err = %v, want ErrClosed", err)
	}
	wantValues(t, "main after Close", main, map[string]int64{"m/a": 1})
	if _, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{key("m", "a")}}); !errors.Is(err, kv.ErrClosed) {
		t.Errorf("split Get of a main key after Close: err = %v, want ErrClosed", err)
	}
	if _, err := s.(kv.Transactional).Begin(bg, kv.TxnOptions{}); !errors.Is(err, kv.ErrClosed) {
		t.Errorf("Begin after Close: err = %v, want ErrClosed", err)
	}
}

// TestOneSideAllocs: a request of one side costs no allocation beyond
// the owning store's own (point selects take this path).
func TestOneSideAllocs(t *testing.T) {
	s, main, local := newSplit(t)
	write(t, s, false, put(key("m", "a"), 1), put(key("t", "a"), 2))
	for _, c := range []struct {
		name  string
		store kv.Store
		keys  []kv.Key
	}{
		{"main", main, []kv.Key{key("m", "a"), key("m", "b")}},
		{"local", local, []kv.Key{key("t", "a"), key("t", "b")}},
	} {
		req := kv.GetRequest{Keys: c.keys}
		direct := testing.AllocsPerRun(100, func() { c.store.Get(bg, req) })
		split := testing.AllocsPerRun(100, func() { s.Get(bg, req) })
		if split != direct {
			t.Errorf("%s: a Get through the split store makes %v allocations, %v directly", c.name, split, direct)
		}
	}
}
