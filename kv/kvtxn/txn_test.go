package kvtxn

import (
	"bytes"
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

var ctx = context.Background()

// memBackend is a Backend over a fixed map (the snapshot); Commit records
// the writes it was given.
type memBackend struct {
	data      map[string][]kv.Attr // encodeKey -> attrs
	committed []Write
	released  int
	gets      int
}

func (m *memBackend) Get(_ context.Context, req kv.GetRequest) ([]kv.Item, error) {
	m.gets++
	out := make([]kv.Item, len(req.Keys))
	for i, k := range req.Keys {
		if a, ok := m.data[encodeKey(k)]; ok {
			out[i] = foundItem(k, a)
		}
	}
	return out, nil
}

func (m *memBackend) Scan(_ context.Context, req kv.ScanRequest) kv.Iterator {
	prefix := partitionPrefix(req.Partition)
	var items []kv.Item
	for k, a := range m.data {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		s := []byte(k[len(prefix):])
		if (req.Start != nil && bytes.Compare(s, req.Start) < 0) || (req.End != nil && bytes.Compare(s, req.End) >= 0) {
			continue
		}
		items = append(items, kv.Item{Key: kv.Key{Partition: req.Partition, Sort: s}, Attrs: a})
	}
	slices.SortFunc(items, func(a, b kv.Item) int { return bytes.Compare(a.Key.Sort, b.Key.Sort) })
	if req.Reverse {
		slices.Reverse(items)
	}
	return &sliceIter{items: items, pos: -1, reverse: req.Reverse}
}

func (m *memBackend) Commit(_ context.Context, w []Write, _ *kv.Stats) error {
	m.committed = w
	return nil
}

func (m *memBackend) Release() { m.released++ }

type sliceIter struct {
	items   []kv.Item
	pos     int
	reverse bool
}

func (s *sliceIter) Next() bool    { s.pos++; return s.pos < len(s.items) }
func (s *sliceIter) Item() kv.Item { return s.items[s.pos] }
func (s *sliceIter) Seek(sort []byte) {
	for i, it := range s.items {
		c := bytes.Compare(it.Key.Sort, sort)
		if (!s.reverse && c >= 0) || (s.reverse && c < 0) {
			s.pos = i - 1
			return
		}
	}
	s.pos = len(s.items) - 1
}
func (s *sliceIter) Err() error   { return nil }
func (s *sliceIter) Close() error { return nil }

func key(p, s string) kv.Key { return kv.Key{Partition: []byte(p), Sort: []byte(s)} }
func val(v int64) []kv.Attr  { return []kv.Attr{{Name: "v", Kind: kv.AttrInt, I: v}} }

// TestMergeMatchesModel runs random scans (both directions, with seeks)
// over random snapshots and buffers and compares them with a model: the
// snapshot map with the buffered writes applied.
func TestMergeMatchesModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sortKey := func() string { return fmt.Sprintf("%02d", rng.IntN(40)) }
	for round := range 300 {
		be := &memBackend{data: map[string][]kv.Attr{}}
		model := map[string]int64{}
		for range rng.IntN(30) {
			k := key("p", sortKey())
			v := rng.Int64N(1000)
			be.data[encodeKey(k)] = val(v)
			model[string(k.Sort)] = v
		}
		be.data[encodeKey(key("q", "05"))] = val(-1) // another partition
		txn := New(be, kv.TxnOptions{})
		for range rng.IntN(30) {
			k := key("p", sortKey())
			switch rng.IntN(4) {
			case 0:
				if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpDelete, Key: k}}}); err != nil {
					t.Fatal(err)
				}
				delete(model, string(k.Sort))
			case 1:
				if err := txn.Lock(ctx, []kv.Key{k}, kv.LockUpdate); err != nil {
					t.Fatal(err)
				}
			default:
				v := rng.Int64N(1000) + 1000
				if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: k, Attrs: val(v)}}}); err != nil {
					t.Fatal(err)
				}
				model[string(k.Sort)] = v
			}
		}
		var want []string
		for k := range model {
			want = append(want, k)
		}
		slices.Sort(want)
		for range 5 {
			req := kv.ScanRequest{Partition: []byte("p"), Reverse: rng.IntN(2) == 0}
			if rng.IntN(2) == 0 {
				req.Start = []byte(sortKey())
			}
			if rng.IntN(2) == 0 {
				req.End = []byte(sortKey())
			}
			var seekAt int
			var seekTo string
			if rng.IntN(2) == 0 {
				seekAt, seekTo = rng.IntN(5), sortKey()
			} else {
				seekAt = -1
			}
			// Expected: the model's keys in range, in order, with the seek
			// applied after seekAt items.
			var exp []string
			inRange := func(k string) bool {
				return (req.Start == nil || k >= string(req.Start)) && (req.End == nil || k < string(req.End))
			}
			ordered := slices.Clone(want)
			if req.Reverse {
				slices.Reverse(ordered)
			}
			var got []string
			it := txn.Scan(ctx, req)
			i := 0
			for _, k := range ordered {
				if inRange(k) {
					exp = append(exp, k)
				}
			}
			if seekAt >= 0 && seekAt <= len(exp) {
				head := exp[:seekAt]
				var tail []string
				for _, k := range exp[seekAt:] {
					if (!req.Reverse && k >= seekTo) || (req.Reverse && k < seekTo) {
						tail = append(tail, k)
					}
				}
				// The seek may also move backwards over returned items in
				// this model; only forward seeks are meaningful, so skip
				// those that go back.
				if len(head) > 0 && ((!req.Reverse && seekTo <= head[len(head)-1]) || (req.Reverse && seekTo >= head[len(head)-1])) {
					seekAt = -1
				} else {
					exp = append(slices.Clone(head), tail...)
				}
			} else {
				seekAt = -1
			}
			for {
				if i == seekAt {
					it.Seek([]byte(seekTo))
				}
				if !it.Next() {
					break
				}
				item := it.Item()
				got = append(got, string(item.Key.Sort))
				if item.Attrs[0].I != model[string(item.Key.Sort)] {
					t.Fatalf("round %d: %s = %d, want %d", round, item.Key.Sort, item.Attrs[0].I, model[string(item.Key.Sort)])
				}
				i++
			}
			if i == seekAt { // the seek was after the last item
				seekAt = -1
			}
			if err := it.Close(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, exp) {
				t.Fatalf("round %d: scan %+v seek %d->%q: got %v, want %v", round, req, seekAt, seekTo, got, exp)
			}
		}
		txn.Rollback()
	}
}

func TestScanDoesNotSeeLaterWrites(t *testing.T) {
	be := &memBackend{data: map[string][]kv.Attr{encodeKey(key("p", "a")): val(1)}}
	txn := New(be, kv.TxnOptions{})
	txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: key("p", "b"), Attrs: val(2)}}})
	it := txn.Scan(ctx, kv.ScanRequest{Partition: []byte("p")})
	var got []string
	for it.Next() {
		got = append(got, string(it.Item().Key.Sort))
		// Writing ahead of the scan position must not show up in it.
		txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: key("p", "z"+string(it.Item().Key.Sort)), Attrs: val(3)}}})
	}
	if fmt.Sprint(got) != "[a b]" {
		t.Errorf("scan saw %v, want [a b]", got)
	}
}

func TestSavepoints(t *testing.T) {
	be := &memBackend{data: map[string][]kv.Attr{}}
	txn := New(be, kv.TxnOptions{})
	put := func(s string, v int64) {
		t.Helper()
		if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: key("p", s), Attrs: val(v)}}}); err != nil {
			t.Fatal(err)
		}
	}
	has := func(s string) bool {
		items, err := txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{key("p", s)}})
		if err != nil {
			t.Fatal(err)
		}
		return kv.Found(items[0])
	}
	put("a", 1)
	sp1 := txn.Savepoint()
	put("b", 2)
	sp2 := txn.Savepoint()
	put("c", 3)
	if err := txn.RollbackTo(sp2); err != nil {
		t.Fatal(err)
	}
	if !has("a") || !has("b") || has("c") {
		t.Fatal("rollback to sp2")
	}
	put("d", 4)
	if err := txn.RollbackTo(sp1); err != nil {
		t.Fatal(err)
	}
	if !has("a") || has("b") || has("d") {
		t.Fatal("rollback to sp1")
	}
	if err := txn.RollbackTo(sp2); !errors.Is(err, ErrUnknownSavepoint) {
		t.Fatalf("sp2 after rolling back to sp1: %v", err)
	}
	put("e", 5)
	if err := txn.Release(sp1); err != nil {
		t.Fatal(err)
	}
	if err := txn.RollbackTo(sp1); !errors.Is(err, ErrUnknownSavepoint) {
		t.Fatalf("released sp1: %v", err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range be.committed {
		got = append(got, string(w.Key.Sort))
	}
	if fmt.Sprint(got) != "[a e]" || be.released != 1 {
		t.Errorf("committed %v released %d", got, be.released)
	}
	if err := txn.Write(ctx, kv.Batch{}); !errors.Is(err, kv.ErrTxnDone) {
		t.Errorf("write after commit: %v", err)
	}
	if err := txn.Rollback(); err != nil || be.released != 1 {
		t.Errorf("rollback after commit: %v, released %d", err, be.released)
	}
}

func TestConditions(t *testing.T) {
	be := &memBackend{data: map[string][]kv.Attr{encodeKey(key("p", "a")): val(1)}}
	txn := New(be, kv.TxnOptions{})
	cases := []struct {
		name    string
		ops     []kv.Op
		failIdx int // -1: succeeds
	}{
		{"insert existing", []kv.Op{{Kind: kv.OpPut, Key: key("p", "a"), Cond: kv.CondNotExists}}, 0},
		{"insert new then again", []kv.Op{{Kind: kv.OpPut, Key: key("p", "b"), Cond: kv.CondNotExists}, {Kind: kv.OpPut, Key: key("p", "b"), Cond: kv.CondNotExists}}, 1},
		{"cas on snapshot", []kv.Op{{Kind: kv.OpPut, Key: key("p", "a"), Attrs: val(2), Cond: kv.CondAttrEquals, CondAttr: val(1)[0]}}, -1},
		{"cas on own write", []kv.Op{{Kind: kv.OpPut, Key: key("p", "a"), Attrs: val(3), Cond: kv.CondAttrEquals, CondAttr: val(2)[0]}}, -1},
		{"stale cas", []kv.Op{{Kind: kv.OpDelete, Key: key("p", "a"), Cond: kv.CondAttrEquals, CondAttr: val(1)[0]}}, 0},
		{"delete then exists", []kv.Op{{Kind: kv.OpDelete, Key: key("p", "a")}, {Kind: kv.OpPut, Key: key("p", "x")}, {Kind: kv.OpPut, Key: key("p", "a"), Cond: kv.CondExists}}, 2},
		{"delete then insert", []kv.Op{{Kind: kv.OpDelete, Key: key("p", "a")}, {Kind: kv.OpPut, Key: key("p", "a"), Cond: kv.CondNotExists, Attrs: val(9)}}, -1},
	}
	for _, tc := range cases {
		err := txn.Write(ctx, kv.Batch{Ops: tc.ops})
		var cf *kv.ConditionFailedError
		switch {
		case tc.failIdx < 0 && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.failIdx >= 0 && (!errors.As(err, &cf) || cf.Index != tc.failIdx):
			t.Errorf("%s: err %v, want a condition failure at %d", tc.name, err, tc.failIdx)
		}
	}
	// A failed batch buffers nothing: "x" of "delete then exists" is absent.
	items, _ := txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{key("p", "x"), key("p", "a"), key("p", "b")}})
	if kv.Found(items[0]) || !kv.Found(items[1]) || items[1].Attrs[0].I != 9 || kv.Found(items[2]) {
		t.Errorf("view after conditional writes: %v", items)
	}
}

// TestFreshConditions: a fresh batch's conditions read no snapshot; the
// transaction's own writes still decide them.
func TestFreshConditions(t *testing.T) {
	be := &memBackend{data: map[string][]kv.Attr{}}
	txn := New(be, kv.TxnOptions{})
	ins := func(s string) kv.Op {
		return kv.Op{Kind: kv.OpPut, Key: key("f", s), Attrs: val(1), Cond: kv.CondNotExists}
	}
	if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{ins("a"), ins("b")}, Fresh: true}); err != nil {
		t.Fatal(err)
	}
	var cf *kv.ConditionFailedError
	if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{ins("c"), ins("b")}, Fresh: true}); !errors.As(err, &cf) || cf.Index != 1 {
		t.Errorf("a key of an earlier write: %v, want op 1 failed", err)
	}
	if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{ins("d"), ins("d")}, Fresh: true}); !errors.As(err, &cf) || cf.Index != 1 {
		t.Errorf("a key repeated in the batch: %v, want op 1 failed", err)
	}
	if be.gets != 0 {
		t.Errorf("fresh batches read the snapshot %d times", be.gets)
	}
	if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{ins("e")}}); err != nil || be.gets != 1 {
		t.Errorf("a batch that is not fresh: %v, %d reads, want 1", err, be.gets)
	}
}

func TestReadOnly(t *testing.T) {
	txn := New(&memBackend{}, kv.TxnOptions{ReadOnly: true})
	if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: key("p", "a")}}}); !errors.Is(err, kv.ErrReadOnly) {
		t.Errorf("Write: %v", err)
	}
	if err := txn.Lock(ctx, []kv.Key{key("p", "a")}, kv.LockShare); !errors.Is(err, kv.ErrReadOnly) {
		t.Errorf("Lock: %v", err)
	}
}

func TestLocksInWrites(t *testing.T) {
	be := &memBackend{data: map[string][]kv.Attr{}}
	txn := New(be, kv.TxnOptions{})
	txn.Lock(ctx, []kv.Key{key("p", "a"), key("p", "b")}, kv.LockShare)
	txn.Lock(ctx, []kv.Key{key("p", "b")}, kv.LockUpdate)
	txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: key("p", "c")}}})
	txn.Lock(ctx, []kv.Key{key("p", "c"), key("p", "a")}, kv.LockShare)
	var got []string
	for _, w := range txn.Writes() {
		got = append(got, fmt.Sprintf("%s:%d", w.Key.Sort, w.Kind))
	}
	want := fmt.Sprintf("[a:%d b:%d c:%d]", WriteLockShare, WriteLockUpdate, WritePut)
	if fmt.Sprint(got) != want {
		t.Errorf("writes %v, want %s", got, want)
	}
}

// TestSavepointsMatchModel interleaves random writes, savepoints,
// rollbacks, releases and scans, checking the view against a model that
// copies its map at every savepoint: changes made in place must never
// reach a savepoint or an open scan.
func TestSavepointsMatchModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	txn := New(&memBackend{data: map[string][]kv.Attr{}}, kv.TxnOptions{})
	model := map[string]int64{}
	var sps spModel
	var openScan []string // keys the open scan must return
	var scan kv.Iterator
	for step := range 5000 {
		switch op := rng.IntN(10); {
		case op < 6:
			k := fmt.Sprintf("%03d", rng.IntN(200))
			v := int64(step)
			if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: key("p", k), Attrs: val(v)}}}); err != nil {
				t.Fatal(err)
			}
			model[k] = v
		case op == 6:
			sps.save(txn, model)
		case op == 7 && len(sps.sps) > 0:
			model = sps.rollback(t, txn, rng)
		case op == 8 && len(sps.sps) > 0:
			sps.release(t, txn, rng)
		case op == 9:
			if scan != nil {
				var got []string
				for scan.Next() {
					got = append(got, string(scan.Item().Key.Sort))
				}
				if !slices.Equal(got, openScan) {
					t.Fatalf("step %d: a scan opened earlier returned %d keys, want %d", step, len(got), len(openScan))
				}
			}
			scan = txn.Scan(ctx, kv.ScanRequest{Partition: []byte("p")})
			openScan = slices.Sorted(maps.Keys(model))
		}
		if step%50 == 0 {
			for k, v := range model {
				it, ok := txnGet(t, txn, k)
				if !ok || it.Attrs[0].I != v {
					t.Fatalf("step %d: %s = %v, want %d", step, k, it.Attrs, v)
				}
			}
			if txn.Len() != len(model) {
				t.Fatalf("step %d: Len %d, want %d", step, txn.Len(), len(model))
			}
		}
	}
}

func txnGet(t *testing.T, txn *Txn, k string) (kv.Item, bool) {
	t.Helper()
	items, err := txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{key("p", k)}})
	if err != nil {
		t.Fatal(err)
	}
	return items[0], kv.Found(items[0])
}

// spModel keeps a model's state at each savepoint a test takes.
type spModel struct {
	sps   []kv.Savepoint
	stack []map[string]int64
}

// save takes a savepoint of txn, whose state model is.
func (m *spModel) save(txn *Txn, model map[string]int64) {
	m.sps = append(m.sps, txn.Savepoint())
	m.stack = append(m.stack, maps.Clone(model))
}

// rollback rolls txn back to a random savepoint and returns the model's
// state there.
func (m *spModel) rollback(t *testing.T, txn *Txn, rng *rand.Rand) map[string]int64 {
	t.Helper()
	i := rng.IntN(len(m.sps))
	if err := txn.RollbackTo(m.sps[i]); err != nil {
		t.Fatal(err)
	}
	m.sps, m.stack = m.sps[:i+1], m.stack[:i+1]
	return maps.Clone(m.stack[i])
}

// release releases a random savepoint of txn (and those after it).
func (m *spModel) release(t *testing.T, txn *Txn, rng *rand.Rand) {
	t.Helper()
	i := rng.IntN(len(m.sps))
	if err := txn.Release(m.sps[i]); err != nil {
		t.Fatal(err)
	}
	m.sps, m.stack = m.sps[:i], m.stack[:i]
}
