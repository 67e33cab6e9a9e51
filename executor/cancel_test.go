package executor_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// countingStore counts the items every scan hands out and calls onItem with
// the running total, so a test can act at an exact point of a scan.
type countingStore struct {
	kv.Store
	items  atomic.Int64
	onItem func(n int64)
}

func (s *countingStore) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	return &countingIter{Iterator: s.Store.Scan(ctx, req), s: s}
}

type countingIter struct {
	kv.Iterator
	s *countingStore
}

func (it *countingIter) Next() bool {
	ok := it.Iterator.Next()
	if ok && it.s.onItem != nil {
		it.s.onItem(it.s.items.Add(1))
	}
	return ok
}

// TestCancelStopsAFilterThatRejectsEveryRow cancels a full scan whose
// filter admits nothing (so no row ever reaches the consumer) after 2,000
// items, and checks the scan stopped within a few checkpoints of that
// instead of reading the whole table.
func TestCancelStopsAFilterThatRejectsEveryRow(t *testing.T) {
	inner, err := zpebble.Open("cancel", zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	store := &countingStore{Store: inner}
	defer store.Close()
	ctx := context.Background()
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	run := func(ctx context.Context, sql string) error {
		sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
		if err != nil {
			return err
		}
		defer sess.Close()
		stmts, err := sess.Parse(ctx, sql, nil)
		if err != nil {
			return err
		}
		for _, st := range stmts {
			res, err := st.Execute(ctx, nil)
			if err != nil {
				return err
			}
			for {
				_, ok, err := res.Next(ctx)
				if err != nil || !ok {
					res.Close()
					if err != nil {
						return err
					}
					break
				}
			}
		}
		return nil
	}
	if err := run(ctx, readingsDDL); err != nil {
		t.Fatal(err)
	}
	// Past what a cancelled scan may read (the limit below) by enough
	// that a scan which never looks reads well over it.
	const total = 10_000
	for _, ins := range insertSQL("readings", genReadings(rand.New(rand.NewPCG(3, 4)), total, 50)) {
		if err := run(ctx, ins); err != nil {
			t.Fatal(err)
		}
	}

	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	const cancelAt = 2000
	store.items.Store(0)
	store.onItem = func(n int64) {
		if n == cancelAt {
			cancel()
		}
	}
	err = run(sctx, "SELECT count(*) FROM readings WHERE note = 'no such note' AND celsius > 1000")
	if !errors.Is(err, context.Canceled) && pgerr.CodeOf(err) != pgerr.QueryCanceled {
		t.Fatalf("canceled scan returned %v, want a cancellation", err)
	}
	// Each of the 4 shard streams may read up to one checkpoint interval
	// past the cancel before it looks.
	if read, limit := store.items.Load(), int64(cancelAt+4*1024+64); read > limit {
		t.Errorf("scan read %d items after a cancel at %d (limit %d of %d rows)", read, cancelAt, limit, total)
	}
}
