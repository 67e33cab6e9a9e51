package pebble

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// TestManyConditions checks conditions past condIterAfter in one atomic
// batch, where condReader reads with one iterator instead of db.Get, in
// both key orders: stored and deleted items, CondExists, CondNotExists and
// CondAttrEquals, and the failing op's index.
func TestManyConditions(t *testing.T) {
	const n = 3 * condIterAfter
	key := func(i int) kv.Key { return testItem(fmt.Sprintf("k%03d", i), 0).Key }
	// Items 0, 2, 4, ... are stored with v = i; the last even one is
	// deleted again, so it is absent.
	deleted := n - 2
	setup := func(t *testing.T) *Store {
		s := openMem(t)
		t.Cleanup(func() { _ = s.Close() })
		for i := 0; i < n; i += 2 {
			putItem(t, s, testItem(fmt.Sprintf("k%03d", i), int64(i)))
		}
		if err := s.Write(bg, kv.Batch{Ops: []kv.Op{{Kind: kv.OpDelete, Key: key(deleted)}}}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// holding is the op on item i whose condition holds.
	holding := func(i int) kv.Op {
		op := kv.Op{Kind: kv.OpPut, Key: key(i), Attrs: testItem("", 100).Attrs}
		switch {
		case i%2 == 1 || i == deleted:
			op.Cond = kv.CondNotExists
		case i%4 == 0:
			op.Cond = kv.CondAttrEquals
			op.CondAttr = kv.Attr{Name: "v", Kind: kv.AttrInt, I: int64(i)}
		default:
			op.Cond = kv.CondExists
		}
		return op
	}
	order := func(reverse bool) []int {
		idx := make([]int, n)
		for j := range idx {
			idx[j] = j
			if reverse {
				idx[j] = n - 1 - j
			}
		}
		return idx
	}
	for _, tc := range []struct {
		name    string
		reverse bool
		breakAt int // position in the batch whose condition fails; -1: none
		breakFn func(op *kv.Op)
	}{
		{"all hold, ascending", false, -1, nil},
		{"all hold, descending", true, -1, nil},
		{"stored item where none may be", false, n - 3, func(op *kv.Op) { op.Cond, op.Key = kv.CondNotExists, key(2) }},
		{"never stored item must exist", false, n - 1, func(op *kv.Op) { op.Cond, op.Key = kv.CondExists, key(n+5) }},
		{"attribute differs", true, n - 2, func(op *kv.Op) {
			op.Cond, op.Key, op.CondAttr = kv.CondAttrEquals, key(4), kv.Attr{Name: "v", Kind: kv.AttrInt, I: 5}
		}},
		{"attribute of an absent item", false, condIterAfter + 1, func(op *kv.Op) {
			op.Cond, op.Key, op.CondAttr = kv.CondAttrEquals, key(1), kv.Attr{Name: "v", Kind: kv.AttrInt, I: 1}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := setup(t)
			var ops []kv.Op
			for _, i := range order(tc.reverse) {
				ops = append(ops, holding(i))
			}
			if tc.breakAt >= 0 {
				tc.breakFn(&ops[tc.breakAt])
			}
			err := s.Write(bg, kv.Batch{Ops: ops, Atomic: true})
			var cf *kv.ConditionFailedError
			switch {
			case tc.breakAt < 0 && err != nil:
				t.Fatalf("every condition holds, Write: %v", err)
			case tc.breakAt >= 0 && !errors.As(err, &cf):
				t.Fatalf("Write: %v, want a ConditionFailedError at op %d", err, tc.breakAt)
			case tc.breakAt >= 0 && cf.Index != tc.breakAt:
				t.Fatalf("condition failed at op %d, want %d", cf.Index, tc.breakAt)
			}
			// All or nothing: the odd items exist only if the batch committed.
			if got := exists(t, s, key(1)); got != (tc.breakAt < 0) {
				t.Errorf("item 1 exists: %v after Write returned %v", got, err)
			}
		})
	}
}

// TestConditionsMatchOneByOne is a property test of checkConditions: for
// random stores (part of them flushed to sstables, some items deleted
// again) and random atomic batches over a small key space, with keys
// repeated within a batch, the op Write reports as failed and the store
// after it are those of checking each op in turn against a map that the
// ops before it have changed, below and past condIterAfter.
func TestConditionsMatchOneByOne(t *testing.T) {
	const keys = 40
	key := func(i int) kv.Key { return testItem(fmt.Sprintf("k%02d", i), 0).Key }
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := openMem(t)
		model := map[int]int64{}
		for i := range keys {
			if rng.IntN(2) == 0 {
				v := rng.Int64N(3)
				putItem(t, s, testItem(fmt.Sprintf("k%02d", i), v))
				model[i] = v
			}
			if i == keys/2 && seed%2 == 0 {
				if err := s.db.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
		for i := range keys {
			if _, ok := model[i]; ok && rng.IntN(5) == 0 {
				if err := s.Write(bg, kv.Batch{Ops: []kv.Op{{Kind: kv.OpDelete, Key: key(i)}}}); err != nil {
					t.Fatal(err)
				}
				delete(model, i)
			}
		}
		n := 1 + rng.IntN(3*condIterAfter)
		ops := make([]kv.Op, n)
		opKey := make([]int, n)
		for j := range ops {
			opKey[j] = rng.IntN(keys)
			op := kv.Op{Kind: kv.OpPut, Key: key(opKey[j]), Attrs: testItem("", rng.Int64N(3)).Attrs}
			if rng.IntN(4) == 0 {
				op = kv.Op{Kind: kv.OpDelete, Key: key(opKey[j])}
			}
			op.Cond = kv.Condition(rng.IntN(4))
			op.CondAttr = kv.Attr{Name: "v", Kind: kv.AttrInt, I: rng.Int64N(3)}
			ops[j] = op
		}
		// The model: each op's condition against the state the ops
		// before it leave.
		state := maps.Clone(model)
		wantFail := -1
		for j, op := range ops {
			v, ok := state[opKey[j]]
			holds := true
			switch op.Cond {
			case kv.CondExists:
				holds = ok
			case kv.CondNotExists:
				holds = !ok
			case kv.CondAttrEquals:
				holds = ok && v == op.CondAttr.I
			}
			if !holds {
				wantFail = j
				break
			}
			if op.Kind == kv.OpPut {
				state[opKey[j]] = op.Attrs[0].I
			} else {
				delete(state, opKey[j])
			}
		}
		if wantFail >= 0 {
			state = model
		}
		err := s.Write(bg, kv.Batch{Ops: ops, Atomic: true})
		var cf *kv.ConditionFailedError
		switch {
		case wantFail < 0 && err != nil:
			t.Fatalf("seed %d: Write: %v, want success", seed, err)
		case wantFail >= 0 && (!errors.As(err, &cf) || cf.Index != wantFail):
			t.Fatalf("seed %d: Write: %v, want op %d's condition to fail", seed, err, wantFail)
		}
		for i := range keys {
			got, err := s.Get(bg, kv.GetRequest{Keys: []kv.Key{key(i)}})
			if err != nil {
				t.Fatal(err)
			}
			v, ok := state[i]
			if kv.Found(got[0]) != ok || ok && got[0].Attrs[0].I != v {
				t.Fatalf("seed %d: key %d holds %v, want %v (present %v)", seed, i, got[0].Attrs, v, ok)
			}
		}
		s.Close()
	}
}
