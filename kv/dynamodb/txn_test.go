package dynamodb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

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
