package kvtxn

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// eachBackend is a memBackend that takes its commit one write at a time
// (EachBackend), copying each write as kv/pebble does.
type eachBackend struct{ memBackend }

func (e *eachBackend) CommitEach(_ context.Context, n int, each func(yield func(Write) error) error, _ *kv.Stats) error {
	e.committed = nil
	return each(func(w Write) error {
		c := Write{Key: kv.Key{Partition: slices.Clone(w.Key.Partition), Sort: slices.Clone(w.Key.Sort)}, Kind: w.Kind}
		if w.Kind == WritePut {
			c.Attrs = decodeAttrs(encodeAttrs(w.Attrs))
		}
		e.committed = append(e.committed, c)
		return nil
	})
}

// TestRunMatchesModel mixes fresh batches (the run) with ordinary writes,
// deletes, locks, reads, savepoints, rollbacks and releases in one
// partition the snapshot does not hold, and checks every read, every
// CondNotExists outcome and the committed writes against a model. A
// rolled-back put that survived in the run would show in a read or in the
// commit.
func TestRunMatchesModel(t *testing.T) {
	for seed := range uint64(20) {
		for _, each := range []bool{true, false} {
			t.Run(fmt.Sprintf("seed%d/each=%v", seed, each), func(t *testing.T) {
				runModel(t, seed, each)
			})
		}
	}
}

func runModel(t *testing.T, seed uint64, each bool) {
	rng := rand.New(rand.NewPCG(seed, 7))
	mem := memBackend{data: map[string][]kv.Attr{encodeKey(key("other", "x")): val(1)}}
	var backend Backend = &mem
	eb := &eachBackend{memBackend: mem}
	if each {
		backend = eb
	}
	txn := New(backend, kv.TxnOptions{})
	model := map[string]int64{}
	var sps spModel
	// Two fresh partitions of different lengths: the run orders them as
	// the treap does, by encoded prefix. The model's keys are
	// "partition|sort".
	// Half the sort keys share their first 16 bytes, which the run's sort
	// abbreviates, and one ends in a zero byte, as the padding does.
	sortKey := func() string {
		k := fmt.Sprintf("%03d", rng.IntN(150))
		switch rng.IntN(4) {
		case 0:
			k = "0123456789abcdef" + k
		case 1:
			k = "0123456789abcdef" + k[:2] + "\x00"
		}
		return []string{"g", "ff"}[rng.IntN(2)] + "|" + k
	}
	kvKey := func(k string) kv.Key { p, s, _ := strings.Cut(k, "|"); return key(p, s) }
	for step := range 600 {
		switch op := rng.IntN(20); {
		case op < 9: // a fresh batch: puts, some under CondNotExists
			var ops []kv.Op
			next := maps.Clone(model)
			failAt := -1
			for i := range 1 + rng.IntN(8) {
				k := sortKey()
				o := kv.Op{Kind: kv.OpPut, Key: kvKey(k), Attrs: val(int64(step*10 + i))}
				if rng.IntN(3) > 0 {
					o.Cond = kv.CondNotExists
					if _, ok := next[k]; ok && failAt < 0 {
						failAt = i
					}
				}
				next[k] = o.Attrs[0].I
				ops = append(ops, o)
			}
			err := txn.Write(ctx, kv.Batch{Ops: ops, Fresh: true})
			var cf *kv.ConditionFailedError
			switch {
			case failAt >= 0 && (!errors.As(err, &cf) || cf.Index != failAt):
				t.Fatalf("step %d: fresh batch: %v, want condition failure at op %d", step, err, failAt)
			case failAt < 0 && err != nil:
				t.Fatalf("step %d: fresh batch: %v", step, err)
			case failAt < 0:
				model = next
			}
		case op < 11: // an ordinary put or delete
			k := sortKey()
			o := kv.Op{Kind: kv.OpDelete, Key: kvKey(k)}
			if rng.IntN(2) == 0 {
				o = kv.Op{Kind: kv.OpPut, Key: kvKey(k), Attrs: val(int64(-step))}
				model[k] = int64(-step)
			} else {
				delete(model, k)
			}
			if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{o}}); err != nil {
				t.Fatal(err)
			}
		case op == 11:
			if err := txn.Lock(ctx, []kv.Key{kvKey(sortKey())}, kv.LockUpdate); err != nil {
				t.Fatal(err)
			}
		case op == 12: // a read of another partition must not fold the run
			pending := txn.run.pending()
			if _, ok := txnGetIn(t, txn, "other", "x"); !ok || txn.run.pending() != pending {
				t.Fatalf("step %d: a read elsewhere folded the run", step)
			}
		case op == 13:
			k := sortKey()
			p, sk, _ := strings.Cut(k, "|")
			it, ok := txnGetIn(t, txn, p, sk)
			v, want := model[k]
			if ok != want || (ok && it.Attrs[0].I != v) {
				t.Fatalf("step %d: get %s: %v %v, want %v %v", step, k, ok, it.Attrs, want, v)
			}
		case op == 14:
			p := []string{"g", "ff"}[rng.IntN(2)]
			var got, want []string
			it := txn.Scan(ctx, kv.ScanRequest{Partition: []byte(p)})
			for it.Next() {
				k := p + "|" + string(it.Item().Key.Sort)
				got = append(got, k)
				if v := it.Item().Attrs[0].I; v != model[k] {
					t.Fatalf("step %d: scan %s = %d, want %d", step, k, v, model[k])
				}
			}
			it.Close()
			for _, k := range slices.Sorted(maps.Keys(model)) {
				if strings.HasPrefix(k, p+"|") {
					want = append(want, k)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("step %d: scan %v, want %v", step, got, want)
			}
		case op < 17:
			sps.save(txn, model)
		case op < 19 && len(sps.sps) > 0:
			model = sps.rollback(t, txn, rng)
		case op == 19 && len(sps.sps) > 0:
			sps.release(t, txn, rng)
		}
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	committed := mem.committed
	if each {
		committed = eb.committed
	}
	got := map[string]int64{}
	for i, w := range committed {
		if i > 0 && encodeKey(committed[i-1].Key) >= encodeKey(w.Key) {
			t.Fatalf("commit: writes out of order at %d", i)
		}
		if w.Kind == WritePut && string(w.Key.Partition) != "other" {
			got[string(w.Key.Partition)+"|"+string(w.Key.Sort)] = w.Attrs[0].I
		}
	}
	if !maps.Equal(got, model) {
		t.Fatalf("committed %v, want %v", got, model)
	}
}

func txnGetIn(t *testing.T, txn *Txn, p, k string) (kv.Item, bool) {
	t.Helper()
	items, err := txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{key(p, k)}})
	if err != nil {
		t.Fatal(err)
	}
	return items[0], kv.Found(items[0])
}
