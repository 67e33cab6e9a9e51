package kvtest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
)

// txnTests are the transaction subtests, run when the store implements
// kv.Transactional.
var txnTests = []struct {
	name string
	fn   func(t *testing.T, s kv.Transactional, ns namespace, opts Options)
}{
	{"TxnReadYourWrites", testTxnReadYourWrites},
	{"TxnSnapshotStability", testTxnSnapshotStability},
	{"TxnFirstCommitterWins", testTxnFirstCommitterWins},
	{"TxnConflictWithPlainWrite", testTxnConflictWithPlainWrite},
	{"TxnRollback", testTxnRollback},
	{"TxnSavepoints", testTxnSavepoints},
	{"TxnConditions", testTxnConditions},
	{"TxnConcurrentInsert", testTxnConcurrentInsert},
	{"TxnLocks", testTxnLocks},
	{"TxnReadOnly", testTxnReadOnly},
	{"TxnLarge", testTxnLarge},
	{"TxnConcurrentTransfers", testTxnConcurrentTransfers},
	{"TxnSharedSnapshot", testTxnSharedSnapshot},
	{"TxnSerializable", testTxnSerializable},
}

func begin(t *testing.T, s kv.Transactional, opts kv.TxnOptions) kv.Txn {
	t.Helper()
	txn, err := s.Begin(ctx, opts)
	if err != nil {
		t.Fatalf("Begin: %v", err)
	}
	t.Cleanup(func() { txn.Rollback() })
	return txn
}

func txnWrite(t *testing.T, txn kv.Txn, ops ...kv.Op) {
	t.Helper()
	if err := txn.Write(ctx, kv.Batch{Ops: ops}); err != nil {
		t.Fatalf("Txn.Write: %v", err)
	}
}

func txnPut(it kv.Item) kv.Op { return kv.Op{Kind: kv.OpPut, Key: it.Key, Attrs: it.Attrs} }
func txnDel(k kv.Key) kv.Op   { return kv.Op{Kind: kv.OpDelete, Key: k} }

func txnGetOne(t *testing.T, txn kv.Txn, key kv.Key) (kv.Item, bool) {
	t.Helper()
	got, err := txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{key}, Consistent: true})
	if err != nil {
		t.Fatalf("Txn.Get(%q): %v", key.Sort, err)
	}
	return got[0], kv.Found(got[0])
}

func txnScanAll(t *testing.T, txn kv.Txn, req kv.ScanRequest) []kv.Item {
	t.Helper()
	out, err := txnScan(txn, req)
	if err != nil {
		t.Fatalf("Txn.Scan %s: %v", describeScan(req), err)
	}
	return out
}

func txnScan(txn kv.Txn, req kv.ScanRequest) ([]kv.Item, error) {
	it := txn.Scan(ctx, req)
	var out []kv.Item
	for it.Next() {
		out = append(out, cloneItem(it.Item()))
	}
	return out, errors.Join(it.Err(), it.Close())
}

func commit(t *testing.T, txn kv.Txn) {
	t.Helper()
	if err := txn.Commit(ctx); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

func wantConflict(t *testing.T, what string, err error) {
	t.Helper()
	var ce *kv.ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("%s: err = %v, want a *kv.ConflictError", what, err)
	}
}

// testTxnReadYourWrites: a transaction's Get and Scan (both directions,
// with seeks) see its own puts and deletes merged with the stored items,
// and nobody else sees them before Commit.
func testTxnReadYourWrites(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	p := ns.part("p")
	var stored []kv.Item
	for i := 0; i < 20; i += 2 {
		stored = append(stored, item(p, fmt.Sprintf("k%02d", i), intAttr("v", int64(i))))
	}
	put(t, s, stored...)
	txn := begin(t, s, kv.TxnOptions{})
	model := map[string]kv.Item{}
	for _, it := range stored {
		model[string(it.Key.Sort)] = it
	}
	var ops []kv.Op
	for i := 0; i < 20; i += 3 { // overwrite some, add others
		it := item(p, fmt.Sprintf("k%02d", i), intAttr("v", int64(100+i)))
		ops = append(ops, txnPut(it))
		model[string(it.Key.Sort)] = it
	}
	for _, i := range []int{4, 5, 10} { // delete stored, missing and... stored
		k := kv.Key{Partition: p, Sort: []byte(fmt.Sprintf("k%02d", i))}
		ops = append(ops, txnDel(k))
		delete(model, string(k.Sort))
	}
	txnWrite(t, txn, ops...)
	var want []kv.Item
	for _, it := range model {
		want = append(want, it)
	}
	for _, req := range []kv.ScanRequest{
		{Partition: p},
		{Partition: p, Reverse: true},
		{Partition: p, Start: []byte("k03"), End: []byte("k13")},
		{Partition: p, Start: []byte("k03"), End: []byte("k13"), Reverse: true},
		{Partition: p, Start: []byte("k09"), Limit: 2},
	} {
		checkItems(t, "Txn.Scan "+describeScan(req), expectScan(want, req), txnScanAll(t, txn, req))
	}
	// Seek forward over a stored-and-buffered mix, and backward in reverse.
	it := txn.Scan(ctx, kv.ScanRequest{Partition: p})
	if !it.Next() || string(it.Item().Key.Sort) != "k00" {
		t.Fatalf("first item %q, want k00", it.Item().Key.Sort)
	}
	it.Seek([]byte("k07"))
	if !it.Next() || string(it.Item().Key.Sort) != "k08" {
		t.Errorf("after Seek(k07): %q, want k08", it.Item().Key.Sort)
	}
	it.Seek([]byte("k09"))
	if !it.Next() || string(it.Item().Key.Sort) != "k09" {
		t.Errorf("after Seek(k09): %q, want k09 (buffered)", it.Item().Key.Sort)
	}
	it.Close()
	it = txn.Scan(ctx, kv.ScanRequest{Partition: p, Reverse: true})
	it.Seek([]byte("k12"))
	if !it.Next() || string(it.Item().Key.Sort) != "k09" {
		t.Errorf("reverse Seek(k12): %q, want k09", it.Item().Key.Sort)
	}
	it.Close()
	for _, i := range []int{0, 3, 4, 5, 6, 10, 18} {
		k := kv.Key{Partition: p, Sort: []byte(fmt.Sprintf("k%02d", i))}
		got, ok := txnGetOne(t, txn, k)
		w, wok := model[string(k.Sort)]
		if ok != wok || (ok && !AttrsEqual(w.Attrs, got.Attrs)) {
			t.Errorf("Txn.Get(%s) = %v %s, want %v %s", k.Sort, ok, FormatAttrs(got.Attrs), wok, FormatAttrs(w.Attrs))
		}
	}
	// Outside the transaction nothing changed yet.
	checkItems(t, "Store.Scan before commit", stored, scanAll(t, s, kv.ScanRequest{Partition: p}))
	commit(t, txn)
	checkItems(t, "Store.Scan after commit", expectScan(want, kv.ScanRequest{Partition: p}), scanAll(t, s, kv.ScanRequest{Partition: p}))
}

// testTxnSnapshotStability: writes committed after a transaction began are
// invisible to it (Get and Scan), whoever made them.
func testTxnSnapshotStability(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	p := ns.part("p")
	a, b := item(p, "a", intAttr("v", 1)), item(p, "b", intAttr("v", 2))
	put(t, s, a, b)
	reader := begin(t, s, kv.TxnOptions{ReadOnly: true})
	// Read something first: some backends fix the snapshot at the first read.
	if _, ok := txnGetOne(t, reader, a.Key); !ok {
		t.Fatal("a missing")
	}
	writer := begin(t, s, kv.TxnOptions{})
	txnWrite(t, writer, txnPut(item(p, "a", intAttr("v", 10))), txnDel(b.Key), txnPut(item(p, "c", intAttr("v", 3))))
	commit(t, writer)
	put(t, s, item(p, "d", intAttr("v", 4)))

	// A key read before reads the same again (repeatable read).
	got, ok := txnGetOne(t, reader, a.Key)
	if !ok || !AttrsEqual(a.Attrs, got.Attrs) {
		t.Errorf("a = %s, want the snapshot's %s", FormatAttrs(got.Attrs), FormatAttrs(a.Attrs))
	}
	// The rest shows the snapshot, or, on a backend that keeps no old
	// versions, fails with a conflict: never a mix of old and new.
	for _, req := range []kv.ScanRequest{{Partition: p}, {Partition: p, Reverse: true}} {
		want := expectScan([]kv.Item{a, b}, req)
		items, err := txnScan(reader, req)
		var ce *kv.ConflictError
		switch {
		case err == nil:
			checkItems(t, "snapshot scan "+describeScan(req), want, items)
		case errors.As(err, &ce) && !s.Capabilities().KeepsVersions:
		default:
			t.Fatalf("snapshot scan %s: %v", describeScan(req), err)
		}
	}
	if _, err := reader.Get(ctx, kv.GetRequest{Keys: []kv.Key{b.Key}}); err != nil {
		var ce *kv.ConflictError
		if !errors.As(err, &ce) || s.Capabilities().KeepsVersions {
			t.Fatalf("Get of a key deleted after the snapshot: %v", err)
		}
	}
	if err := reader.Commit(ctx); err != nil {
		t.Fatalf("read-only Commit: %v", err)
	}
	later := begin(t, s, kv.TxnOptions{ReadOnly: true})
	if n := len(txnScanAll(t, later, kv.ScanRequest{Partition: p})); n != 3 {
		t.Errorf("a later transaction sees %d items, want 3", n)
	}
}

// testTxnFirstCommitterWins: of two transactions writing one key, the
// first to commit wins and the second gets a *kv.ConflictError and writes
// nothing; transactions writing different keys both commit.
func testTxnFirstCommitterWins(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	p := ns.part("p")
	k := item(p, "k", intAttr("v", 0))
	put(t, s, k)
	t1 := begin(t, s, kv.TxnOptions{})
	t2 := begin(t, s, kv.TxnOptions{})
	txnGetOne(t, t1, k.Key)
	txnGetOne(t, t2, k.Key)
	txnWrite(t, t1, txnPut(item(p, "k", intAttr("v", 1))), txnPut(item(p, "t1", intAttr("v", 1))))
	txnWrite(t, t2, txnPut(item(p, "k", intAttr("v", 2))), txnPut(item(p, "t2", intAttr("v", 2))))
	commit(t, t2)
	wantConflict(t, "second committer", t1.Commit(ctx))
	mustExist(t, s, item(p, "k", intAttr("v", 2)))
	mustBeMissing(t, s, kv.Key{Partition: p, Sort: []byte("t1")})
	if err := t1.Write(ctx, kv.Batch{}); !errors.Is(err, kv.ErrTxnDone) {
		t.Errorf("Write after a failed Commit: %v, want ErrTxnDone", err)
	}

	// A delete conflicts like a put; disjoint keys do not conflict.
	t3 := begin(t, s, kv.TxnOptions{})
	t4 := begin(t, s, kv.TxnOptions{})
	t5 := begin(t, s, kv.TxnOptions{})
	txnWrite(t, t3, txnDel(k.Key))
	txnWrite(t, t4, txnPut(item(p, "k", intAttr("v", 4))))
	txnWrite(t, t5, txnPut(item(p, "other", intAttr("v", 5))))
	commit(t, t3)
	wantConflict(t, "put after a concurrent delete", t4.Commit(ctx))
	commit(t, t5)
	mustBeMissing(t, s, k.Key)
	mustExist(t, s, item(p, "other", intAttr("v", 5)))
}

// testTxnConflictWithPlainWrite: a plain (autocommit) write made after a
// transaction's snapshot conflicts with the transaction's write of the
// same key.
func testTxnConflictWithPlainWrite(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	p := ns.part("p")
	k := kv.Key{Partition: p, Sort: []byte("k")}
	txn := begin(t, s, kv.TxnOptions{})
	txnGetOne(t, txn, k)
	if err := s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: k, Attrs: []kv.Attr{intAttr("v", 1)}}}}); err != nil {
		t.Fatal(err)
	}
	txnWrite(t, txn, txnPut(kv.Item{Key: k, Attrs: []kv.Attr{intAttr("v", 2)}}))
	wantConflict(t, "commit over a later plain write", txn.Commit(ctx))
	mustExist(t, s, kv.Item{Key: k, Attrs: []kv.Attr{intAttr("v", 1)}})
}

func testTxnRollback(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	p := ns.part("p")
	a := item(p, "a", intAttr("v", 1))
	put(t, s, a)
	txn := begin(t, s, kv.TxnOptions{})
	txnWrite(t, txn, txnDel(a.Key), txnPut(item(p, "b", intAttr("v", 2))))
	if err := txn.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := txn.Rollback(); err != nil {
		t.Errorf("second Rollback: %v", err)
	}
	if err := txn.Commit(ctx); !errors.Is(err, kv.ErrTxnDone) {
		t.Errorf("Commit after Rollback: %v, want ErrTxnDone", err)
	}
	mustExist(t, s, a)
	mustBeMissing(t, s, kv.Key{Partition: p, Sort: []byte("b")})
	// A rolled-back transaction does not make later ones conflict.
	t2 := begin(t, s, kv.TxnOptions{})
	txnWrite(t, t2, txnPut(item(p, "a", intAttr("v", 3))))
	commit(t, t2)
	mustExist(t, s, item(p, "a", intAttr("v", 3)))
}

func testTxnSavepoints(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	p := ns.part("p")
	key := func(k string) kv.Key { return kv.Key{Partition: p, Sort: []byte(k)} }
	txn := begin(t, s, kv.TxnOptions{})
	txnWrite(t, txn, txnPut(item(p, "a", intAttr("v", 1))))
	sp1 := txn.Savepoint()
	txnWrite(t, txn, txnPut(item(p, "b", intAttr("v", 2))), txnPut(item(p, "a", intAttr("v", 10))))
	sp2 := txn.Savepoint()
	txnWrite(t, txn, txnPut(item(p, "c", intAttr("v", 3))))
	if err := txn.RollbackTo(sp2); err != nil {
		t.Fatal(err)
	}
	if _, ok := txnGetOne(t, txn, key("c")); ok {
		t.Error("c survives ROLLBACK TO sp2")
	}
	if err := txn.RollbackTo(sp1); err != nil {
		t.Fatal(err)
	}
	checkItems(t, "after ROLLBACK TO sp1", []kv.Item{item(p, "a", intAttr("v", 1))}, txnScanAll(t, txn, kv.ScanRequest{Partition: p}))
	if err := txn.RollbackTo(sp2); err == nil {
		t.Error("ROLLBACK TO a savepoint rolled back past succeeded")
	}
	txnWrite(t, txn, txnPut(item(p, "d", intAttr("v", 4))))
	sp3 := txn.Savepoint()
	txnWrite(t, txn, txnPut(item(p, "e", intAttr("v", 5))))
	if err := txn.Release(sp3); err != nil {
		t.Fatal(err)
	}
	if err := txn.RollbackTo(sp3); err == nil {
		t.Error("ROLLBACK TO a released savepoint succeeded")
	}
	commit(t, txn)
	checkItems(t, "committed", []kv.Item{item(p, "a", intAttr("v", 1)), item(p, "d", intAttr("v", 4)), item(p, "e", intAttr("v", 5))},
		scanAll(t, s, kv.ScanRequest{Partition: p}))
}

// testTxnConditions: conditions are checked against the transaction's view
// when Write is called, and a failing batch buffers nothing.
func testTxnConditions(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	p := ns.part("p")
	row := item(p, "row", intAttr("version", 1))
	put(t, s, row)
	txn := begin(t, s, kv.TxnOptions{})
	err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{
		txnPut(item(p, "side", intAttr("v", 1))),
		{Kind: kv.OpPut, Key: row.Key, Cond: kv.CondNotExists},
	}})
	wantConditionFailed(t, err, 1, row.Key)
	if _, ok := txnGetOne(t, txn, kv.Key{Partition: p, Sort: []byte("side")}); ok {
		t.Error("a failed batch left a write behind")
	}
	txnWrite(t, txn, kv.Op{Kind: kv.OpPut, Key: row.Key, Attrs: []kv.Attr{intAttr("version", 2)}, Cond: kv.CondAttrEquals, CondAttr: intAttr("version", 1)})
	// The next compare-and-set sees the transaction's own write.
	txnWrite(t, txn, kv.Op{Kind: kv.OpDelete, Key: row.Key, Cond: kv.CondAttrEquals, CondAttr: intAttr("version", 2)})
	txnWrite(t, txn, kv.Op{Kind: kv.OpPut, Key: row.Key, Attrs: []kv.Attr{intAttr("version", 1)}, Cond: kv.CondNotExists})
	commit(t, txn)
	mustExist(t, s, row)
}

// testTxnConcurrentInsert: transactions racing to insert one key (each
// checking CondNotExists against its snapshot) cannot both commit: UNIQUE
// holds between concurrent writers. The losers fail with a
// *kv.ConflictError at Commit, or a *kv.ConditionFailedError at Write when
// they already see the winner.
func testTxnConcurrentInsert(t *testing.T, s kv.Transactional, ns namespace, opts Options) {
	p := ns.part("p")
	for r := range 5 {
		key := kv.Key{Partition: p, Sort: []byte(fmt.Sprintf("unique-%d", r))}
		txns := make([]kv.Txn, opts.Writers)
		for w := range txns {
			txns[w] = begin(t, s, kv.TxnOptions{})
		}
		var wins atomic.Int32
		var wg sync.WaitGroup
		for w, txn := range txns {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: key, Cond: kv.CondNotExists, Attrs: []kv.Attr{intAttr("w", int64(w))}}}})
				if err == nil {
					err = txn.Commit(ctx)
				}
				var ce *kv.ConflictError
				var cf *kv.ConditionFailedError
				switch {
				case err == nil:
					wins.Add(1)
				case errors.As(err, &ce), errors.As(err, &cf):
				default:
					t.Errorf("writer %d: %v", w, err)
				}
			}()
		}
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Fatalf("round %d: %d transactions inserted the key, want 1", r, n)
		}
	}
}

// testTxnLocks: LockUpdate joins the write set (a later writer of the key
// conflicts, and the lock holder conflicts with an earlier one); LockShare
// only asks that the key not change until commit.
func testTxnLocks(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	p := ns.part("p")
	k := item(p, "k", intAttr("v", 0))
	put(t, s, k)
	update := func(v int64) kv.Txn {
		txn := begin(t, s, kv.TxnOptions{})
		txnWrite(t, txn, txnPut(item(p, "k", intAttr("v", v))))
		return txn
	}
	for _, tc := range []struct {
		name        string
		mode        kv.LockMode
		lockerFirst bool
		lockerWins  bool
		writerWins  bool
	}{
		{"update lock, locker commits first", kv.LockUpdate, true, true, false},
		{"update lock, writer commits first", kv.LockUpdate, false, false, true},
		{"share lock, locker commits first", kv.LockShare, true, true, true},
		{"share lock, writer commits first", kv.LockShare, false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			locker := begin(t, s, kv.TxnOptions{})
			if _, ok := txnGetOne(t, locker, k.Key); !ok {
				t.Fatal("k missing")
			}
			if err := locker.Lock(ctx, []kv.Key{k.Key}, tc.mode); err != nil {
				t.Fatal(err)
			}
			txnWrite(t, locker, txnPut(item(p, "side", intAttr("v", 1))))
			writer := update(7)
			first, second := locker, writer
			firstWins, secondWins := tc.lockerWins, tc.writerWins
			if !tc.lockerFirst {
				first, second = writer, locker
				firstWins, secondWins = tc.writerWins, tc.lockerWins
			}
			for i, c := range []struct {
				txn  kv.Txn
				wins bool
			}{{first, firstWins}, {second, secondWins}} {
				err := c.txn.Commit(ctx)
				if c.wins && err != nil {
					t.Fatalf("committer %d: %v", i+1, err)
				}
				if !c.wins {
					wantConflict(t, fmt.Sprintf("committer %d", i+1), err)
				}
			}
		})
	}
	// Locking an absent key guards its absence.
	locker := begin(t, s, kv.TxnOptions{})
	absent := kv.Key{Partition: p, Sort: []byte("absent")}
	if err := locker.Lock(ctx, []kv.Key{absent}, kv.LockShare); err != nil {
		t.Fatal(err)
	}
	ins := begin(t, s, kv.TxnOptions{})
	txnWrite(t, ins, txnPut(kv.Item{Key: absent, Attrs: []kv.Attr{intAttr("v", 1)}}))
	commit(t, ins)
	wantConflict(t, "share lock of a key inserted concurrently", locker.Commit(ctx))
}

func testTxnReadOnly(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	p := ns.part("p")
	txn := begin(t, s, kv.TxnOptions{ReadOnly: true})
	k := kv.Key{Partition: p, Sort: []byte("k")}
	if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: k}}}); !errors.Is(err, kv.ErrReadOnly) {
		t.Errorf("Write: %v, want ErrReadOnly", err)
	}
	if err := txn.Lock(ctx, []kv.Key{k}, kv.LockUpdate); !errors.Is(err, kv.ErrReadOnly) {
		t.Errorf("Lock: %v, want ErrReadOnly", err)
	}
	commit(t, txn)
	if _, err := txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{k}}); !errors.Is(err, kv.ErrTxnDone) {
		t.Errorf("Get after Commit: %v, want ErrTxnDone", err)
	}
}

// testTxnLarge commits a transaction of more ops than one atomic batch may
// hold (TxnLargeOps): a concurrent reader sees none of it before Commit and
// all of it after.
func testTxnLarge(t *testing.T, s kv.Transactional, ns namespace, opts Options) {
	p := ns.part("p")
	old := item(p, "old", intAttr("v", 1))
	put(t, s, old)
	txn := begin(t, s, kv.TxnOptions{})
	var want []kv.Item
	for i := range opts.TxnLargeOps {
		it := item(p, fmt.Sprintf("k%05d", i), intAttr("v", int64(i)), strAttr("pad", "some padding to make the item less tiny"))
		want = append(want, it)
		txnWrite(t, txn, txnPut(it))
	}
	txnWrite(t, txn, txnDel(old.Key))
	if got := scanAll(t, s, kv.ScanRequest{Partition: p}); len(got) != 1 {
		t.Fatalf("before Commit the store shows %d items, want 1", len(got))
	}
	commit(t, txn)
	checkItems(t, "after Commit", want, scanAll(t, s, kv.ScanRequest{Partition: p}))

	// A large transaction that conflicts leaves nothing behind.
	loser := begin(t, s, kv.TxnOptions{})
	winner := begin(t, s, kv.TxnOptions{})
	for i := range opts.TxnLargeOps {
		txnWrite(t, loser, txnPut(item(p, fmt.Sprintf("k%05d", i), intAttr("v", -1))))
	}
	txnWrite(t, winner, txnPut(item(p, fmt.Sprintf("k%05d", opts.TxnLargeOps-1), intAttr("v", -2))))
	commit(t, winner)
	wantConflict(t, "large loser", loser.Commit(ctx))
	got := scanAll(t, s, kv.ScanRequest{Partition: p})
	for _, it := range got {
		if kv.Lookup(it.Attrs, "v").I == -1 {
			t.Fatalf("the conflicting large transaction left %q behind", it.Key.Sort)
		}
	}
}

// testTxnConcurrentTransfers moves amounts between accounts in concurrent
// read-write transactions (retrying conflicts) while read-only
// transactions sum all accounts: every sum, from any snapshot, equals the
// initial total, and so does the final state.
func testTxnConcurrentTransfers(t *testing.T, s kv.Transactional, ns namespace, opts Options) {
	p := ns.part("accounts")
	const accounts = 8
	const initial = 100
	var items []kv.Item
	for i := range accounts {
		items = append(items, item(p, fmt.Sprintf("acct%02d", i), intAttr("balance", initial)))
	}
	put(t, s, items...)
	total := int64(accounts * initial)
	sum := func(txn kv.Txn) (int64, error) {
		it := txn.Scan(ctx, kv.ScanRequest{Partition: p})
		var n int64
		count := 0
		for it.Next() {
			n += kv.Lookup(it.Item().Attrs, "balance").I
			count++
		}
		err := it.Err()
		it.Close()
		if err == nil && count != accounts {
			err = fmt.Errorf("saw %d accounts", count)
		}
		return n, err
	}
	var commits, conflicts atomic.Int64
	deadline := time.Now().Add(opts.TransferDuration)
	var wg sync.WaitGroup
	errs := make(chan error, 2*opts.Writers)
	for w := range opts.Writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for time.Now().Before(deadline) {
				from, to := rng.IntN(accounts), rng.IntN(accounts)
				if from == to {
					continue
				}
				err := transfer(s, p, from, to, int64(rng.IntN(20)))
				var ce *kv.ConflictError
				switch {
				case err == nil:
					commits.Add(1)
				case errors.As(err, &ce):
					conflicts.Add(1)
				default:
					errs <- err
					return
				}
			}
		}()
	}
	for range max(opts.Writers/2, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				txn, err := s.Begin(ctx, kv.TxnOptions{ReadOnly: true})
				if err != nil {
					errs <- err
					return
				}
				n, err := sum(txn)
				txn.Rollback()
				var ce *kv.ConflictError
				if errors.As(err, &ce) {
					continue // the backend could not keep the snapshot: a retryable failure, not a wrong sum
				}
				if err != nil {
					errs <- err
					return
				}
				if n != total {
					errs <- fmt.Errorf("a snapshot sums to %d, want %d", n, total)
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
	if commits.Load() == 0 {
		t.Fatalf("no transfer committed (%d conflicts)", conflicts.Load())
	}
	t.Logf("%d transfers committed, %d conflicts", commits.Load(), conflicts.Load())
	final := begin(t, s, kv.TxnOptions{ReadOnly: true})
	if n, err := sum(final); err != nil || n != total {
		t.Fatalf("final sum %d (%v), want %d", n, err, total)
	}
}

// transfer moves amount from one account to another in one transaction.
func transfer(s kv.Transactional, p []byte, from, to int, amount int64) error {
	txn, err := s.Begin(ctx, kv.TxnOptions{})
	if err != nil {
		return err
	}
	defer txn.Rollback()
	keys := []kv.Key{
		{Partition: p, Sort: []byte(fmt.Sprintf("acct%02d", from))},
		{Partition: p, Sort: []byte(fmt.Sprintf("acct%02d", to))},
	}
	got, err := txn.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true})
	if err != nil {
		return err
	}
	a, b := kv.Lookup(got[0].Attrs, "balance").I, kv.Lookup(got[1].Attrs, "balance").I
	if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{
		{Kind: kv.OpPut, Key: keys[0], Attrs: []kv.Attr{intAttr("balance", a-amount)}},
		{Kind: kv.OpPut, Key: keys[1], Attrs: []kv.Attr{intAttr("balance", b+amount)}},
	}}); err != nil {
		return err
	}
	return txn.Commit(ctx)
}

// testTxnSharedSnapshot checks kv.SnapshotExporter and TxnOptions.Snapshot:
// a transaction begun on an exported snapshot reads what the exporter
// reads, not later commits, and keeps reading it after the exporter ends;
// the name is refused once the exporter has ended, and a read-write
// transaction refuses a read-only one's snapshot. A store that cannot share
// snapshots must say so and refuse every name.
func testTxnSharedSnapshot(t *testing.T, s kv.Transactional, ns namespace, opts Options) {
	p := ns.part("p")
	covered := opts.SharedSnapshotCovers == nil || opts.SharedSnapshotCovers(p)
	a := item(p, "a", intAttr("v", 1))
	put(t, s, a)
	for _, exporterRO := range []bool{true, false} {
		exporter := begin(t, s, kv.TxnOptions{ReadOnly: exporterRO})
		name, err := kv.ExportSnapshot(exporter)
		if errors.Is(err, kv.ErrSnapshotsUnsupported) {
			if _, err := s.Begin(ctx, kv.TxnOptions{ReadOnly: true, Snapshot: "00000000-00000001-1"}); !errors.Is(err, kv.ErrUnknownSnapshot) {
				t.Fatalf("Begin on a snapshot of a store that exports none: %v, want ErrUnknownSnapshot", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("ExportSnapshot: %v", err)
		}
		put(t, s, item(p, "a", intAttr("v", 2)), item(p, "b", intAttr("v", 3)))

		importer := begin(t, s, kv.TxnOptions{ReadOnly: true, Snapshot: name})
		rw, err := s.Begin(ctx, kv.TxnOptions{Snapshot: name})
		if err == nil {
			rw.Rollback()
		}
		switch {
		case exporterRO && !errors.Is(err, kv.ErrSnapshotReadOnly):
			t.Fatalf("read-write Begin on a read-only transaction's snapshot: %v, want ErrSnapshotReadOnly", err)
		case !exporterRO && err != nil:
			t.Fatalf("read-write Begin on a read-write transaction's snapshot: %v", err)
		}
		if err := exporter.Rollback(); err != nil {
			t.Fatal(err)
		}
		// The importer keeps the snapshot after its exporter ended.
		if covered {
			checkItems(t, "scan on the imported snapshot", []kv.Item{a}, txnScanAll(t, importer, kv.ScanRequest{Partition: p}))
		}
		if _, err := s.Begin(ctx, kv.TxnOptions{ReadOnly: true, Snapshot: name}); !errors.Is(err, kv.ErrUnknownSnapshot) {
			t.Fatalf("Begin on the snapshot of an ended transaction: %v, want ErrUnknownSnapshot", err)
		}
		if err := importer.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		put(t, s, a)
		if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{txnDel(item(p, "b").Key)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Begin(ctx, kv.TxnOptions{ReadOnly: true, Snapshot: "garbage"}); !errors.Is(err, kv.ErrUnknownSnapshot) {
		t.Fatalf("Begin on an unknown snapshot: %v, want ErrUnknownSnapshot", err)
	}
}

// wantReadWriteConflict fails unless err is a serializable transaction's
// read/write conflict.
func wantReadWriteConflict(t *testing.T, what string, err error) {
	t.Helper()
	var ce *kv.ConflictError
	if !errors.As(err, &ce) || !ce.ReadWrite {
		t.Fatalf("%s: err = %v, want a *kv.ConflictError with ReadWrite", what, err)
	}
}

// testTxnSerializable checks kv.TxnOptions.Serializable on a store whose
// Capabilities say it has it: write skew and phantoms fail the later
// committer with a read/write *kv.ConflictError, transactions whose reads
// and writes are disjoint both commit, reads under a savepoint rolled back
// still count, and a transaction that commits no write is not failed (it
// read one snapshot of serialized commits). A store without it must refuse
// such a Begin.
func testTxnSerializable(t *testing.T, s kv.Transactional, ns namespace, _ Options) {
	if !s.Capabilities().Serializable {
		txn, err := s.Begin(ctx, kv.TxnOptions{Serializable: true})
		if err == nil {
			txn.Rollback()
		}
		if !errors.Is(err, kv.ErrSerializableUnsupported) {
			t.Fatalf("serializable Begin on a store without serializable transactions: %v, want ErrSerializableUnsupported", err)
		}
		return
	}
	ser := kv.TxnOptions{Serializable: true}
	p := ns.part("p")
	key := func(k string) kv.Key { return kv.Key{Partition: p, Sort: []byte(k)} }

	t.Run("WriteSkew", func(t *testing.T) {
		// Two doctors on call; each transaction takes one off if the
		// other is still on. Snapshot isolation lets both commit.
		put(t, s, item(p, "a", intAttr("on", 1)), item(p, "b", intAttr("on", 1)))
		t1 := begin(t, s, ser)
		t2 := begin(t, s, ser)
		for _, txn := range []kv.Txn{t1, t2} {
			txnGetOne(t, txn, key("a"))
			txnGetOne(t, txn, key("b"))
		}
		txnWrite(t, t1, txnPut(item(p, "a", intAttr("on", 0))))
		txnWrite(t, t2, txnPut(item(p, "b", intAttr("on", 0))))
		commit(t, t1)
		wantReadWriteConflict(t, "second of a write skew", t2.Commit(ctx))
		mustExist(t, s, item(p, "b", intAttr("on", 1)))

		// Without Serializable it is snapshot isolation: both commit.
		put(t, s, item(p, "a", intAttr("on", 1)), item(p, "b", intAttr("on", 1)))
		t3 := begin(t, s, kv.TxnOptions{})
		t4 := begin(t, s, kv.TxnOptions{})
		for _, txn := range []kv.Txn{t3, t4} {
			txnGetOne(t, txn, key("a"))
			txnGetOne(t, txn, key("b"))
		}
		txnWrite(t, t3, txnPut(item(p, "a", intAttr("on", 0))))
		txnWrite(t, t4, txnPut(item(p, "b", intAttr("on", 0))))
		commit(t, t3)
		commit(t, t4)
	})

	t.Run("Phantom", func(t *testing.T) {
		q := ns.part("phantom")
		put(t, s, item(q, "d", intAttr("v", 1)))
		t1 := begin(t, s, ser)
		if got := txnScanAll(t, t1, kv.ScanRequest{Partition: q, Start: []byte("a"), End: []byte("c")}); len(got) != 0 {
			t.Fatalf("scan of [a, c): %d items, want none", len(got))
		}
		// A plain write and a transaction both count.
		t2 := begin(t, s, kv.TxnOptions{})
		txnWrite(t, t2, txnPut(item(q, "b", intAttr("v", 2))))
		commit(t, t2)
		txnWrite(t, t1, txnPut(item(q, "z", intAttr("v", 3))))
		wantReadWriteConflict(t, "commit after a phantom in a scanned range", t1.Commit(ctx))
		mustBeMissing(t, s, kv.Key{Partition: q, Sort: []byte("z")})

		// A scan stopped early covers up to the last key it read: a key
		// written past it does not conflict, one before it does.
		r := ns.part("stopped")
		put(t, s, item(r, "f", intAttr("v", 1)), item(r, "h", intAttr("v", 1)))
		for _, tc := range []struct {
			reverse  bool
			write    string
			conflict bool
		}{
			{false, "e", true}, {false, "g", false}, {true, "i", true}, {true, "g", false},
		} {
			t3 := begin(t, s, ser)
			it := t3.Scan(ctx, kv.ScanRequest{Partition: r, Start: []byte("c"), End: []byte("x"), Reverse: tc.reverse})
			if !it.Next() {
				t.Fatalf("scan of [c, x) (reverse %v): no item", tc.reverse)
			}
			if err := errors.Join(it.Err(), it.Close()); err != nil {
				t.Fatal(err)
			}
			w := kv.Key{Partition: r, Sort: []byte(tc.write)}
			if err := s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: w, Attrs: []kv.Attr{intAttr("v", 9)}}}}); err != nil {
				t.Fatal(err)
			}
			txnWrite(t, t3, txnPut(item(r, "z", intAttr("v", 1))))
			err := t3.Commit(ctx)
			if tc.conflict {
				wantReadWriteConflict(t, fmt.Sprintf("write of %s inside the read part of a scan (reverse %v)", tc.write, tc.reverse), err)
			} else if err != nil {
				t.Fatalf("write of %s past the read part of a scan (reverse %v): %v", tc.write, tc.reverse, err)
			}
			if err := s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{txnDel(w)}}); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("Disjoint", func(t *testing.T) {
		put(t, s, item(p, "x", intAttr("v", 1)), item(p, "y", intAttr("v", 1)))
		t1 := begin(t, s, ser)
		t2 := begin(t, s, ser)
		txnGetOne(t, t1, key("x"))
		txnGetOne(t, t2, key("y"))
		txnScanAll(t, t1, kv.ScanRequest{Partition: p, Start: []byte("x"), End: []byte("xz")})
		txnWrite(t, t1, txnPut(item(p, "x", intAttr("v", 2))))
		txnWrite(t, t2, txnPut(item(p, "y", intAttr("v", 2))))
		commit(t, t2)
		commit(t, t1)
	})

	t.Run("SavepointReadsCount", func(t *testing.T) {
		put(t, s, item(p, "s1", intAttr("v", 1)))
		t1 := begin(t, s, ser)
		sp := t1.Savepoint()
		txnGetOne(t, t1, key("s1"))
		if err := t1.RollbackTo(sp); err != nil {
			t.Fatal(err)
		}
		put(t, s, item(p, "s1", intAttr("v", 2)))
		txnWrite(t, t1, txnPut(item(p, "s2", intAttr("v", 1))))
		wantReadWriteConflict(t, "commit after a read under a rolled back savepoint", t1.Commit(ctx))
	})

	t.Run("ReadOnly", func(t *testing.T) {
		// A transaction that writes nothing read one snapshot; the
		// serializable commits are one at a time in commit order, and
		// it sits between two of them: it commits.
		for _, opts := range []kv.TxnOptions{ser, {Serializable: true, ReadOnly: true}} {
			put(t, s, item(p, "r", intAttr("v", 1)))
			t1 := begin(t, s, opts)
			txnGetOne(t, t1, key("r"))
			put(t, s, item(p, "r", intAttr("v", 2)))
			if got, _ := txnGetOne(t, t1, key("r")); got.Attrs[0].I != 1 {
				t.Fatalf("read-only read after a commit: %v, want the snapshot's 1", got.Attrs)
			}
			commit(t, t1)
		}
	})
}
