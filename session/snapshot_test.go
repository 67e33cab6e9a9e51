package session_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

// pausingReads is a Pebble store whose next read of a row (any partition
// but the catalog's), once armed, is answered only after resume is
// closed: a statement that another session's commit overtakes between
// two of its reads. Reads through a snapshot are not paused.
type pausingReads struct {
	kv.Store
	armed  atomic.Bool
	paused chan struct{}
	resume chan struct{}
}

var (
	_ kv.Transactional = (*pausingReads)(nil)
	_ kv.Snapshotter   = (*pausingReads)(nil)
)

func (s *pausingReads) Begin(ctx context.Context, opts kv.TxnOptions) (kv.Txn, error) {
	return s.Store.(kv.Transactional).Begin(ctx, opts)
}

func (s *pausingReads) Snapshot(ctx context.Context) (kv.Snapshot, error) {
	return s.Store.(kv.Snapshotter).Snapshot(ctx)
}

func (s *pausingReads) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	items, err := s.Store.Get(ctx, req)
	if len(req.Keys) > 0 && !strings.HasPrefix(string(req.Keys[0].Partition), "C/") && s.armed.CompareAndSwap(true, false) {
		close(s.paused)
		<-s.resume
	}
	return items, err
}

// A statement outside a transaction block reads from one snapshot, as
// PostgreSQL's: a transfer between two rows that commits between its two
// reads is wholly invisible to it, never half. Here the first row read
// waits (when not read through a snapshot) until the transfer has
// committed.
func TestStatementReadsOneSnapshot(t *testing.T) {
	ctx := context.Background()
	inner, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inner.Close() })
	store := &pausingReads{Store: inner, paused: make(chan struct{}), resume: make(chan struct{})}
	eng := newEngine(t, store)
	reader, writer := openSession(t, eng), openSession(t, eng)
	mustExec(t, writer, `CREATE TABLE acct (id int PRIMARY KEY, bal int NOT NULL)`)
	mustExec(t, writer, `INSERT INTO acct VALUES (1, 100), (2, 100)`)
	done := make(chan []string, 1)
	store.armed.Store(true)
	go func() {
		rows, err := runSQL(ctx, reader, `SELECT (SELECT bal FROM acct WHERE id = 1) + (SELECT bal FROM acct WHERE id = 2)`)
		if err != nil {
			t.Error(err)
		}
		done <- rows
	}()
	select {
	case <-store.paused:
	case <-time.After(time.Second): // read through a snapshot: nothing paused
		store.armed.Store(false)
	}
	mustExec(t, writer, `BEGIN; UPDATE acct SET bal = bal - 1 WHERE id = 1; UPDATE acct SET bal = bal + 1 WHERE id = 2; COMMIT`)
	close(store.resume)
	if got := <-done; len(got) != 1 || got[0] != "200" {
		t.Fatalf("the sum of the balances: %q, want 200 (the transfer wholly before or after)", got)
	}
	if got := mustExec(t, writer, `SELECT bal FROM acct ORDER BY id`); strings.Join(got, ",") != "99,101" {
		t.Fatalf("balances after the transfer: %q", got)
	}
}
