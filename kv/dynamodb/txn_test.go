package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvlog"
)

// opLog records the DynamoDB requests a store makes, by op.
type opLog struct {
	mu  sync.Mutex
	ops []string
}

func (o *opLog) ObserveRequest(_, op string, _ time.Duration, _ error) {
	o.mu.Lock()
	o.ops = append(o.ops, op)
	o.mu.Unlock()
}

func (o *opLog) ObserveCapacity(string, float64) {}

func (o *opLog) take() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := strings.Join(o.ops, " ")
	o.ops = nil
	return s
}

func intItem(p, sort string, v int64) kv.Item {
	return kv.Item{Key: kv.Key{Partition: []byte(p), Sort: []byte(sort)}, Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrInt, I: v}}}
}

func putItemOp(it kv.Item) kv.Op { return kv.Op{Kind: kv.OpPut, Key: it.Key, Attrs: it.Attrs} }

// TestSmallTransactionRequests pins the requests of the fast path: Begin
// and buffered writes cost nothing, a read is one BatchGetItem, and the
// commit of a transaction of up to 100 writes is one TransactWriteItems
// (kvlog shows the same transaction at the kv level).
func TestSmallTransactionRequests(t *testing.T) {
	requireDynamo(t)
	obs := &opLog{}
	opts := testOptions(uniqueTable(t), endpoint)
	opts.Observer = obs
	inner := openTest(t, opts)
	deleteTableOnCleanup(t, inner)
	s := kvlog.New(inner, kvlog.Options{Partition: func(p []byte) string { return string(p) }})
	if err := s.Write(bg, kv.Batch{Ops: []kv.Op{putItemOp(intItem("p", "a", 1))}}); err != nil {
		t.Fatal(err)
	}
	obs.take()
	s.Reset()

	txn, err := s.Begin(bg, kv.TxnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := obs.take(); got != "" {
		t.Errorf("Begin made requests: %s", got)
	}
	if _, err := txn.Get(bg, kv.GetRequest{Keys: []kv.Key{intItem("p", "a", 0).Key}}); err != nil {
		t.Fatal(err)
	}
	var ops []kv.Op
	for i := range 99 {
		ops = append(ops, putItemOp(intItem("p", fmt.Sprintf("n%02d", i), int64(i))))
	}
	ops = append(ops, kv.Op{Kind: kv.OpPut, Key: intItem("p", "a", 0).Key, Attrs: intItem("", "", 2).Attrs,
		Cond: kv.CondAttrEquals, CondAttr: kv.Attr{Name: "v", Kind: kv.AttrInt, I: 1}})
	if err := txn.Write(bg, kv.Batch{Ops: ops}); err != nil {
		t.Fatal(err)
	}
	if got := obs.take(); got != "batch_get" {
		t.Errorf("a read and buffered writes made %q, want one batch_get", got)
	}
	if err := txn.Commit(bg); err != nil {
		t.Fatal(err)
	}
	if got := obs.take(); got != "transact_write" {
		t.Errorf("Commit of 100 writes made %q, want one transact_write", got)
	}
	lines := s.Lines()
	if len(lines) != 4 || lines[0] != "txn1 begin" || !strings.HasPrefix(lines[1], "txn1 get p 0x61 found") ||
		!strings.HasPrefix(lines[2], "txn1 write\n") || lines[3] != "txn1 commit" {
		t.Errorf("kv log:\n%s", strings.Join(lines, "\n"))
	}

	// A read-only transaction: its reads, nothing else.
	ro, _ := s.Begin(bg, kv.TxnOptions{ReadOnly: true})
	if _, err := ro.Get(bg, kv.GetRequest{Keys: []kv.Key{intItem("p", "a", 0).Key}}); err != nil {
		t.Fatal(err)
	}
	if err := ro.Commit(bg); err != nil {
		t.Fatal(err)
	}
	if got := obs.take(); got != "batch_get" {
		t.Errorf("a read-only transaction made %q, want one batch_get", got)
	}
}

var errSimulatedCrash = errors.New("simulated crash")

// TestAbandonedTransaction stops a large commit where a killed proxy would
// stop it, and checks what another proxy sees and can do.
func TestAbandonedTransaction(t *testing.T) {
	requireDynamo(t)
	for _, stage := range []string{"intents placed", "committed"} {
		t.Run(stage, func(t *testing.T) {
			table := uniqueTable(t)
			opts := testOptions(table, endpoint)
			opts.TxnTimeout = 3 * time.Second
			owner := openTest(t, opts)
			deleteTableOnCleanup(t, owner)
			other := openTest(t, opts)
			var old []kv.Op
			for i := range 150 {
				old = append(old, putItemOp(intItem("p", fmt.Sprintf("k%03d", i), 1)))
			}
			if err := owner.Write(bg, kv.Batch{Ops: old}); err != nil {
				t.Fatal(err)
			}
			owner.testHook = func(s string) error {
				if s == stage {
					return errSimulatedCrash
				}
				return nil
			}
			txn, _ := owner.Begin(bg, kv.TxnOptions{})
			var ops []kv.Op
			for i := range 150 {
				ops = append(ops, putItemOp(intItem("p", fmt.Sprintf("k%03d", i), 2)))
			}
			ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: intItem("p", "k000", 0).Key}) // and a delete
			txn.Write(bg, kv.Batch{Ops: ops})
			// The transaction record is written after this: it expires no
			// sooner than TxnTimeout from now.
			liveUntil := time.Now().Add(opts.TxnTimeout)
			if err := txn.Commit(bg); !errors.Is(err, errSimulatedCrash) {
				t.Fatalf("Commit: %v", err)
			}
			want := int64(1)
			if stage == "committed" {
				want = 2
			}
			check := func(what string, s kv.Store, read func() ([]kv.Item, error)) {
				t.Helper()
				items, err := read()
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				for i, it := range items {
					deleted := i == 0 && want == 2
					if kv.Found(it) == deleted || (!deleted && kv.Lookup(it.Attrs, "v").I != want) {
						t.Fatalf("%s: item %d is %v %v, want the %s state", what, i, kv.Found(it), it.Attrs, map[int64]string{1: "old", 2: "new"}[want])
					}
				}
			}
			keys := make([]kv.Key, 150)
			for i := range keys {
				keys[i] = intItem("p", fmt.Sprintf("k%03d", i), 0).Key
			}
			check("plain Get", other, func() ([]kv.Item, error) { return other.Get(bg, kv.GetRequest{Keys: keys, Consistent: true}) })
			reader, _ := other.Begin(bg, kv.TxnOptions{ReadOnly: true})
			check("transaction Get", other, func() ([]kv.Item, error) { return reader.Get(bg, kv.GetRequest{Keys: keys}) })
			reader.Rollback()

			// A writer of one of the keys: while the abandoned pending
			// transaction is not expired it conflicts; then it aborts it.
			w := kv.Batch{Atomic: true, Ops: []kv.Op{putItemOp(intItem("p", "k007", 3))}}
			err := other.Write(bg, w)
			if stage == "intents placed" {
				var ce *kv.ConflictError
				switch {
				case errors.As(err, &ce):
				case time.Now().Before(liveUntil):
					t.Fatalf("write over a live transaction's intent: %v, want a conflict", err)
				default:
					// A loaded machine took longer than the timeout to get
					// here: the transaction may have expired, so the write
					// may rightly have aborted it.
					t.Logf("the abandoned transaction may have expired before the write (%v)", err)
				}
				time.Sleep(opts.TxnTimeout + 100*time.Millisecond)
				err = other.Write(bg, w)
			}
			if err != nil {
				t.Fatalf("write after the transaction expired or committed: %v", err)
			}
			keys = append(keys[:7], keys[8:]...)
			check("plain Get after recovery", other, func() ([]kv.Item, error) { return other.Get(bg, kv.GetRequest{Keys: keys, Consistent: true}) })
		})
	}
}

// TestTwoProxiesInsertOneKey: transactions on two stores (two proxies)
// racing to insert one key: exactly one commits. UNIQUE holds between
// proxies.
func TestTwoProxiesInsertOneKey(t *testing.T) {
	requireDynamo(t)
	table := uniqueTable(t)
	a := openTest(t, testOptions(table, endpoint))
	deleteTableOnCleanup(t, a)
	b := openTest(t, testOptions(table, endpoint))
	for round := range 10 {
		key := kv.Key{Partition: []byte("p"), Sort: []byte(fmt.Sprintf("u%d", round))}
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		for w, s := range []*Store{a, b, a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				txn, _ := s.Begin(context.Background(), kv.TxnOptions{})
				defer txn.Rollback()
				err := txn.Write(bg, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: key, Cond: kv.CondNotExists, Attrs: intItem("", "", int64(w)).Attrs}}})
				if err == nil {
					err = txn.Commit(bg)
				}
				var ce *kv.ConflictError
				var cf *kv.ConditionFailedError
				switch {
				case err == nil:
					mu.Lock()
					wins++
					mu.Unlock()
				case errors.As(err, &ce), errors.As(err, &cf):
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("round %d: %d transactions inserted the key", round, wins)
		}
	}
}

// TestLargeTransactionRequests pins the requests of a large commit: its
// intents are placed and resolved a group of up to 100 keys per
// TransactWriteItems, not one request per key; a group meeting intents of
// a finished transaction clears them and is retried; a group failing a
// version condition aborts the transaction and leaves nothing behind.
func TestLargeTransactionRequests(t *testing.T) {
	requireDynamo(t)
	const n = 250
	opts := testOptions(uniqueTable(t), endpoint)
	owner := openTest(t, opts)
	deleteTableOnCleanup(t, owner)
	obs := &opLog{}
	withObs := opts
	withObs.Observer = obs
	s := openTest(t, withObs)
	keys := make([]kv.Key, n)
	writeAll := func(st *Store, v int64) error {
		txn, err := st.Begin(bg, kv.TxnOptions{})
		if err != nil {
			return err
		}
		var ops []kv.Op
		for i := range keys {
			ops = append(ops, putItemOp(intItem("p", fmt.Sprintf("k%03d", i), v)))
		}
		if err := txn.Write(bg, kv.Batch{Ops: ops}); err != nil {
			return err
		}
		return txn.Commit(bg)
	}
	check := func(what string, want func(i int) int64) {
		t.Helper()
		items, err := owner.Get(bg, kv.GetRequest{Keys: keys, Consistent: true})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for i, it := range items {
			if got := kv.Lookup(it.Attrs, "v").I; got != want(i) {
				t.Fatalf("%s: key %d holds %d, want %d", what, i, got, want(i))
			}
		}
	}
	var old []kv.Op
	for i := range keys {
		keys[i] = intItem("p", fmt.Sprintf("k%03d", i), 0).Key
		old = append(old, putItemOp(intItem("p", fmt.Sprintf("k%03d", i), 1)))
	}
	if err := owner.Write(bg, kv.Batch{Ops: old}); err != nil {
		t.Fatal(err)
	}

	// Another proxy dies right after its commit point: its intents on
	// the first 150 keys stay, their record committed.
	owner.testHook = func(s string) error {
		if s == "committed" {
			return errSimulatedCrash
		}
		return nil
	}
	txn, _ := owner.Begin(bg, kv.TxnOptions{})
	var ops []kv.Op
	for i := range 150 {
		ops = append(ops, putItemOp(intItem("p", fmt.Sprintf("k%03d", i), 2)))
	}
	txn.Write(bg, kv.Batch{Ops: ops})
	if err := txn.Commit(bg); !errors.Is(err, errSimulatedCrash) {
		t.Fatalf("Commit: %v", err)
	}
	owner.testHook = nil
	obs.take()
	if err := writeAll(s, 3); err != nil {
		t.Fatalf("a large commit over a dead proxy's committed intents: %v", err)
	}
	check("after the commit over intents", func(int) int64 { return 3 })
	// The two groups holding the dead proxy's intents were retried once
	// they were cleared.
	if got := obs.take(); strings.Contains(got, "place_intent ") || strings.Count(got, "place_intents") != 5 {
		t.Errorf("intents were not placed in groups of 100, with the two groups meeting intents retried: %s", got)
	}

	// The plain case, request by request.
	if err := writeAll(s, 4); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, op := range strings.Fields(obs.take()) {
		if op != "heartbeat" { // only if the machine is slow
			count[op]++
		}
	}
	want := map[string]int{"batch_get": 3, "put_record": 1, "place_intents": 3, "commit_record": 1, "resolve_intents": 3, "delete_record": 1}
	if fmt.Sprint(count) != fmt.Sprint(want) {
		t.Errorf("a commit of %d writes made %v, want %v", n, count, want)
	}
	check("after the plain commit", func(int) int64 { return 4 })

	// A version condition fails in one group: the transaction aborts and
	// the groups placed in parallel are cleared, so a writer of any key
	// goes through at once.
	loser, _ := s.Begin(bg, kv.TxnOptions{})
	if _, err := loser.Get(bg, kv.GetRequest{Keys: keys[200:201]}); err != nil {
		t.Fatal(err)
	}
	if err := owner.Write(bg, kv.Batch{Atomic: true, Ops: []kv.Op{putItemOp(intItem("p", "k200", 5))}}); err != nil {
		t.Fatal(err)
	}
	ops = ops[:0]
	for i := range keys {
		ops = append(ops, putItemOp(intItem("p", fmt.Sprintf("k%03d", i), 6)))
	}
	loser.Write(bg, kv.Batch{Ops: ops})
	var ce *kv.ConflictError
	if err := loser.Commit(bg); !errors.As(err, &ce) {
		t.Fatalf("Commit after another wrote a key it read: %v, want a conflict", err)
	}
	check("after the abort", func(i int) int64 {
		if i == 200 {
			return 5
		}
		return 4
	})
	for _, i := range []int{0, 99, 100, 249} {
		w := kv.Batch{Atomic: true, Ops: []kv.Op{putItemOp(intItem("p", fmt.Sprintf("k%03d", i), 7))}}
		if err := owner.Write(bg, w); err != nil {
			t.Fatalf("write of key %d after the abort: %v (an intent left behind?)", i, err)
		}
	}
}

// TestLargeTransactionsShareLocks: share locks are compatible with each
// other whatever the transactions' sizes. Every write transaction
// share-locks its tables' descriptors, so two large ones on one table (two
// bulk loads) must both commit; a writer of the locked key still loses to
// a live holder, clears a finished or expired one, and no lock outlives
// its transaction.
func TestLargeTransactionsShareLocks(t *testing.T) {
	requireDynamo(t)
	opts := testOptions(uniqueTable(t), endpoint)
	opts.TxnTimeout = 3 * time.Second
	a := openTest(t, opts)
	deleteTableOnCleanup(t, a)
	b := openTest(t, opts)
	locked := intItem("d", "descriptor", 1)
	if err := a.Write(bg, kv.Batch{Ops: []kv.Op{putItemOp(locked)}}); err != nil {
		t.Fatal(err)
	}
	// lockAndWrite runs a transaction on s that share-locks the key and
	// writes n keys of its own (150: a large commit; 1: a small one).
	lockAndWrite := func(s *Store, name string, n int) error {
		txn, err := s.Begin(bg, kv.TxnOptions{})
		if err != nil {
			return err
		}
		defer txn.Rollback()
		if err := txn.Lock(bg, []kv.Key{locked.Key}, kv.LockShare); err != nil {
			return err
		}
		var ops []kv.Op
		for i := range n {
			ops = append(ops, putItemOp(intItem(name, fmt.Sprintf("k%03d", i), 1)))
		}
		if err := txn.Write(bg, kv.Batch{Ops: ops}); err != nil {
			return err
		}
		return txn.Commit(bg)
	}
	overwrite := func(v int64) error {
		return b.Write(bg, kv.Batch{Atomic: true, Ops: []kv.Op{putItemOp(intItem("d", "descriptor", v))}})
	}
	sharers := func() int {
		t.Helper()
		out, err := a.client.GetItem(bg, &dynamodb.GetItemInput{TableName: &a.table, Key: keyAttrs(locked.Key), ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		st, err := decodeStored(out.Item)
		if err != nil {
			t.Fatal(err)
		}
		if st.intent != nil {
			t.Fatalf("the share-locked key holds an intent of op %d", st.intent.op)
		}
		return len(st.sharers)
	}

	// While a's transaction holds its lock (its intents placed, before
	// its commit point), b's large and small transactions that lock the
	// key commit, and a writer of the key conflicts.
	var during []error
	a.testHook = func(stage string) error {
		if stage == "intents placed" {
			if n := sharers(); n != 1 {
				t.Errorf("%d share locks on the key while one transaction holds it", n)
			}
			during = append(during, lockAndWrite(b, "b", 150), lockAndWrite(b, "s", 1), overwrite(2))
		}
		return nil
	}
	if err := lockAndWrite(a, "a", 150); err != nil {
		t.Fatalf("the first large transaction: %v", err)
	}
	a.testHook = nil
	if during[0] != nil || during[1] != nil {
		t.Fatalf("a large and a small transaction sharing the lock: %v, %v", during[0], during[1])
	}
	var ce *kv.ConflictError
	if !errors.As(during[2], &ce) {
		t.Fatalf("a write of the key under a live share lock: %v, want a conflict", during[2])
	}
	if n := sharers(); n != 0 {
		t.Fatalf("%d share locks left after both transactions committed", n)
	}
	for _, name := range []string{"a", "b"} {
		items, err := a.Get(bg, kv.GetRequest{Keys: []kv.Key{intItem(name, "k149", 0).Key}, Consistent: true})
		if err != nil || !kv.Found(items[0]) {
			t.Fatalf("transaction %s's writes: %v %v", name, items, err)
		}
	}
	if err := overwrite(3); err != nil {
		t.Fatalf("a write of the key once the locks are gone: %v", err)
	}

	// A proxy dies holding the lock: the writer conflicts while the
	// transaction lives, then aborts it and removes its lock.
	a.testHook = func(stage string) error {
		if stage == "intents placed" {
			return errSimulatedCrash
		}
		return nil
	}
	liveUntil := time.Now().Add(opts.TxnTimeout)
	if err := lockAndWrite(a, "c", 150); !errors.Is(err, errSimulatedCrash) {
		t.Fatalf("Commit: %v", err)
	}
	a.testHook = nil
	if n := sharers(); n != 1 {
		t.Fatalf("%d share locks after the crash, want the dead transaction's", n)
	}
	if err := overwrite(4); !errors.As(err, &ce) && time.Now().Before(liveUntil) {
		t.Fatalf("a write over a live dead-proxy's share lock: %v, want a conflict", err)
	}
	time.Sleep(time.Until(liveUntil) + 100*time.Millisecond)
	if err := overwrite(5); err != nil {
		t.Fatalf("a write after the holder expired: %v", err)
	}
	if n := sharers(); n != 0 {
		t.Fatalf("%d share locks after the writer cleared the expired one", n)
	}
	items, err := a.Get(bg, kv.GetRequest{Keys: []kv.Key{locked.Key, intItem("c", "k000", 0).Key}, Consistent: true})
	if err != nil || kv.Lookup(items[0].Attrs, "v").I != 5 || kv.Found(items[1]) {
		t.Fatalf("after recovery: %v %v", items, err)
	}
}
