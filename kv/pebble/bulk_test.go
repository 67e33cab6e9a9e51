package pebble

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

func bulkPut(p string, i int, cond kv.Condition) kv.Op {
	return kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: []byte(p), Sort: []byte(fmt.Sprintf("k%07d", i))},
		Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrString, S: fmt.Sprintf("value %d", i)}}, Cond: cond}
}

// TestBulkCommit: a bulk batch of many chunks is invisible until Commit,
// then all there; its memory is about its encoded size.
func TestBulkCommit(t *testing.T) {
	s := openMem(t)
	ctx := context.Background()
	b := s.NewBulk()
	const n = 200_000
	ops := make([]kv.Op, 0, 1000)
	for i := 0; i < n; i++ {
		ops = append(ops, bulkPut("p", i, kv.CondNotExists), bulkPut("q", i, kv.CondNone))
		if len(ops) == cap(ops) {
			if err := b.Add(ops); err != nil {
				t.Fatal(err)
			}
			ops = ops[:0]
		}
	}
	if size := b.Size(); size > 64<<20 {
		t.Errorf("%d ops hold %d bytes", 2*n, size)
	}
	if items, _ := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{bulkPut("p", 5, 0).Key}}); kv.Found(items[0]) {
		t.Fatal("a row is visible before Commit")
	}
	if err := b.Commit(ctx, nil); err != nil {
		t.Fatal(err)
	}
	items, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{bulkPut("p", 0, 0).Key, bulkPut("q", n-1, 0).Key}})
	if err != nil || !kv.Found(items[0]) || !kv.Found(items[1]) || items[1].Attrs[0].S != fmt.Sprintf("value %d", n-1) {
		t.Fatalf("after Commit: %v %v", items, err)
	}
}

// TestBulkConditions: a key repeated within the batch fails at Add with
// the op's number, leaving the earlier ops in; a stored key fails Commit,
// which writes nothing.
func TestBulkConditions(t *testing.T) {
	s := openMem(t)
	ctx := context.Background()
	if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{bulkPut("p", 7, kv.CondNone)}, Atomic: true}); err != nil {
		t.Fatal(err)
	}
	b := s.NewBulk()
	defer b.Close()
	err := b.Add([]kv.Op{bulkPut("p", 1, kv.CondNotExists), bulkPut("p", 2, kv.CondNotExists), bulkPut("p", 1, kv.CondNotExists)})
	var cf *kv.ConditionFailedError
	if !errors.As(err, &cf) || cf.Index != 2 {
		t.Fatalf("repeated key: %v, want op 2", err)
	}
	// The refused op can be added again, changed.
	if err := b.Add([]kv.Op{bulkPut("p", 3, kv.CondNotExists), bulkPut("p", 7, kv.CondNotExists), bulkPut("p", 8, kv.CondNotExists)}); err != nil {
		t.Fatal(err)
	}
	if first, err := b.FirstStored(ctx); err != nil || first != 3 {
		t.Fatalf("FirstStored: %d, %v, want 3", first, err)
	}
	if op, ok := b.Op(3); !ok || string(op.Key.Sort) != "k0000007" || op.Attrs[0].S != "value 7" {
		t.Errorf("Op(3): %+v", op)
	}
	err = b.Commit(ctx, nil)
	if !errors.As(err, &cf) || cf.Index != 3 {
		t.Fatalf("Commit: %v, want op 3", err)
	}
	if items, _ := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{bulkPut("p", 1, 0).Key}}); kv.Found(items[0]) {
		t.Error("a failed bulk batch wrote")
	}
	if err := b.Add([]kv.Op{{Kind: kv.OpPut, Key: kv.Key{Partition: []byte("p")}, Cond: kv.CondAttrEquals}}); err == nil {
		t.Error("a CondAttrEquals op was taken")
	}
}

// TestBulkLocks: writers of other keys wait for a committing bulk batch
// and go on after it.
func TestBulkLocks(t *testing.T) {
	s := openMem(t)
	ctx := context.Background()
	b := s.NewBulk()
	if err := b.Add([]kv.Op{bulkPut("p", 1, kv.CondNotExists)}); err != nil {
		t.Fatal(err)
	}
	s.locks.lockAll()
	done := make(chan error)
	go func() { done <- s.Write(ctx, kv.Batch{Ops: []kv.Op{bulkPut("r", 1, kv.CondNotExists)}, Atomic: true}) }()
	select {
	case err := <-done:
		t.Fatalf("a write went through while every key was held: %v", err)
	default:
	}
	s.locks.unlockAll()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx, nil); err != nil {
		t.Fatal(err)
	}
}

// TestLargeTxnCommit: a transaction of more keys than bigTxnKeys commits
// through a bulk batch, deletes included, and still loses to a
// concurrent transaction that wrote one of its keys first.
func TestLargeTxnCommit(t *testing.T) {
	s := openMem(t)
	ctx := context.Background()
	if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{bulkPut("d", 1, kv.CondNone)}, Atomic: true}); err != nil {
		t.Fatal(err)
	}
	const n = bigTxnKeys + 1000
	fill := func(txn kv.Txn) {
		ops := []kv.Op{{Kind: kv.OpDelete, Key: bulkPut("d", 1, 0).Key}}
		for i := 0; i < n; i++ {
			ops = append(ops, bulkPut("p", i, kv.CondNone))
		}
		if err := txn.Write(ctx, kv.Batch{Ops: ops}); err != nil {
			t.Fatal(err)
		}
	}
	// A concurrent transaction writes one of the keys first: the large
	// one fails and writes nothing.
	loser, _ := s.Begin(ctx, kv.TxnOptions{})
	winner, _ := s.Begin(ctx, kv.TxnOptions{})
	fill(loser)
	if err := winner.Write(ctx, kv.Batch{Ops: []kv.Op{bulkPut("p", 5, kv.CondNone)}}); err != nil {
		t.Fatal(err)
	}
	if err := winner.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	var ce *kv.ConflictError
	if err := loser.Commit(ctx); !errors.As(err, &ce) || string(ce.Key.Sort) != "k0000005" {
		t.Fatalf("large loser: %v, want a conflict on k0000005", err)
	}
	if items, _ := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{bulkPut("p", 6, 0).Key, bulkPut("d", 1, 0).Key}}); kv.Found(items[0]) || !kv.Found(items[1]) {
		t.Fatal("a failed large transaction wrote")
	}
	txn, _ := s.Begin(ctx, kv.TxnOptions{})
	fill(txn)
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	items, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{bulkPut("p", 0, 0).Key, bulkPut("p", n-1, 0).Key, bulkPut("d", 1, 0).Key}})
	if err != nil || !kv.Found(items[0]) || items[1].Attrs[0].S != fmt.Sprintf("value %d", n-1) || kv.Found(items[2]) {
		t.Fatalf("after the large commit: %v %v", items, err)
	}
}
