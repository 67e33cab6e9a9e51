package pebble

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/zproxy/zproxy/kv"
)

func serialPut(t *testing.T, s *Store, part, sort string, v int64) {
	t.Helper()
	err := s.Write(context.Background(), kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut,
		Key: kv.Key{Partition: []byte(part), Sort: []byte(sort)}, Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrInt, I: v}}}}})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSerializableOldSnapshot: a serializable transaction whose snapshot
// is older than what the bounded commit log still holds fails its commit
// rather than pass unchecked; the log is let go when the last
// serializable transaction ends.
func TestSerializableOldSnapshot(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	defer s.Close()
	s.serialLogMax = 4 << 10
	old, err := s.Begin(ctx, kv.TxnOptions{Serializable: true})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Rollback()
	if _, err := old.Get(ctx, kv.GetRequest{Keys: []kv.Key{{Partition: []byte("p"), Sort: []byte("a")}}}); err != nil {
		t.Fatal(err)
	}
	// Writes of keys it never read, past the log's bound.
	for i := range 200 {
		serialPut(t, s, "q", fmt.Sprintf("key-%04d", i), int64(i))
	}
	if err := old.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: kv.Key{Partition: []byte("p"), Sort: []byte("b")}}}}); err != nil {
		t.Fatal(err)
	}
	err = old.Commit(ctx)
	var ce *kv.ConflictError
	if !errors.As(err, &ce) || !ce.ReadWrite || !strings.Contains(ce.Reason, "no longer holds") {
		t.Fatalf("commit of a snapshot older than the log: %v, want a read/write *kv.ConflictError", err)
	}

	// A young one over the same log commits, and the log is emptied
	// once no serializable transaction is live.
	young, err := s.Begin(ctx, kv.TxnOptions{Serializable: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := young.Get(ctx, kv.GetRequest{Keys: []kv.Key{{Partition: []byte("p"), Sort: []byte("a")}}}); err != nil {
		t.Fatal(err)
	}
	other, _ := s.Begin(ctx, kv.TxnOptions{Serializable: true})
	defer other.Rollback()
	for i := range 10 {
		serialPut(t, s, "q", fmt.Sprintf("key-%04d", i), int64(i))
	}
	if err := young.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: kv.Key{Partition: []byte("p"), Sort: []byte("b")}}}}); err != nil {
		t.Fatal(err)
	}
	if err := young.Commit(ctx); err != nil {
		t.Fatalf("commit of a serializable transaction with no conflict: %v", err)
	}
	s.txnMu.Lock()
	kept := len(s.serialLog.recs)
	s.txnMu.Unlock()
	if kept == 0 {
		t.Fatal("no commit logged while a serializable transaction is live")
	}
	other.Rollback()
	s.txnMu.Lock()
	kept, live := len(s.serialLog.recs), s.liveSerial
	s.txnMu.Unlock()
	if kept != 0 || live != 0 {
		t.Fatalf("after the last serializable transaction: %d records, %d live, want none", kept, live)
	}
}

// TestSerializableOnCall runs the doctors-on-call write skew from many
// goroutines: each transaction reads every doctor and takes one off call
// if at least two are on. Serializable, at least one stays on call.
func TestSerializableOnCall(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	defer s.Close()
	const doctors = 6
	for round := range 20 {
		part := fmt.Sprintf("round-%d", round)
		for d := range doctors {
			serialPut(t, s, part, fmt.Sprintf("d%d", d), 1)
		}
		var wg sync.WaitGroup
		for w := range doctors {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					err := takeOffCall(ctx, s, part, w)
					var ce *kv.ConflictError
					if errors.As(err, &ce) {
						continue
					}
					if err != nil {
						t.Error(err)
					}
					return
				}
			}()
		}
		wg.Wait()
		it := s.Scan(ctx, kv.ScanRequest{Partition: []byte(part)})
		on := 0
		for it.Next() {
			on += int(it.Item().Attrs[0].I)
		}
		it.Close()
		if on < 1 {
			t.Fatalf("round %d: %d doctors on call, want at least 1", round, on)
		}
	}
}

// takeOffCall is one doctor's serializable transaction.
func takeOffCall(ctx context.Context, s *Store, part string, self int) error {
	txn, err := s.Begin(ctx, kv.TxnOptions{Serializable: true})
	if err != nil {
		return err
	}
	defer txn.Rollback()
	it := txn.Scan(ctx, kv.ScanRequest{Partition: []byte(part)})
	on := 0
	for it.Next() {
		on += int(it.Item().Attrs[0].I)
	}
	if err := errors.Join(it.Err(), it.Close()); err != nil {
		return err
	}
	if on < 2 {
		return nil
	}
	if rand.IntN(2) == 0 {
		// Some take their time, so that others commit in between.
		for range 100 {
			_, _ = txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{{Partition: []byte(part), Sort: []byte("d0")}}})
		}
	}
	err = txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut,
		Key: kv.Key{Partition: []byte(part), Sort: []byte(fmt.Sprintf("d%d", self))}, Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrInt, I: 0}}}}})
	if err != nil {
		return err
	}
	return txn.Commit(ctx)
}
