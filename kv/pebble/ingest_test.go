package pebble

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/vfs"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvtest"
)

// openIngesting is a store that ingests every bulk batch and large
// transaction, however small.
func openIngesting(t testing.TB, dir string, inMemory bool) *Store {
	t.Helper()
	s, err := Open(dir, Options{InMemory: inMemory, CacheSize: 8 << 20, IngestMinBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestConformanceIngesting runs the store conformance suite with every
// bulk batch and large commit ingested.
func TestConformanceIngesting(t *testing.T) {
	kvtest.RunWith(t, func(t *testing.T) kv.Store { return openIngesting(t, "db", true) }, kvtest.Options{Parallel: true})
}

func scanPartition(t *testing.T, it kv.Iterator) []kv.Item {
	t.Helper()
	defer it.Close()
	var items []kv.Item
	for it.Next() {
		item := it.Item() // valid until Next: keep a copy
		attrs := make([]kv.Attr, len(item.Attrs))
		for i, a := range item.Attrs {
			attrs[i] = kv.Attr{Name: strings.Clone(a.Name), Kind: a.Kind, I: a.I, F: a.F, S: strings.Clone(a.S), B: bytes.Clone(a.B)}
		}
		items = append(items, kv.Item{Key: kv.Key{Partition: bytes.Clone(item.Key.Partition), Sort: bytes.Clone(item.Key.Sort)}, Attrs: attrs})
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return items
}

// TestIngestBulk: an ingested bulk batch is all there after Commit, the
// last op on a key deciding (a put then a delete, a delete then a put),
// in partitions of several files; a transaction begun before it does not
// see it; a stored key fails the batch, which ingests nothing.
func TestIngestBulk(t *testing.T) {
	ctx := context.Background()
	s := openIngesting(t, "db", true)
	defer s.Close()
	if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{bulkPut("q", 3, kv.CondNone), bulkPut("q", 4, kv.CondNone)}, Atomic: true}); err != nil {
		t.Fatal(err)
	}
	before, err := s.Begin(ctx, kv.TxnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer before.Rollback()

	b := s.NewBulk()
	const n = 5000
	for i := n - 1; i >= 0; i-- { // out of order: the ingestion sorts
		if err := b.Add([]kv.Op{bulkPut("p", i, kv.CondNotExists), bulkPut("q", i+10, kv.CondNone)}); err != nil {
			t.Fatal(err)
		}
	}
	del := func(p string, i int) kv.Op {
		return kv.Op{Kind: kv.OpDelete, Key: bulkPut(p, i, 0).Key}
	}
	if err := b.Add([]kv.Op{del("q", 20), del("q", 3), bulkPut("q", 21, kv.CondNone), del("q", 21), del("q", 22), bulkPut("q", 22, kv.CondNone)}); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if s.IngestCount() != 1 {
		t.Fatalf("IngestCount = %d, want 1", s.IngestCount())
	}
	p := scanPartition(t, s.Scan(ctx, kv.ScanRequest{Partition: []byte("p")}))
	if len(p) != n || string(p[0].Key.Sort) != "k0000000" || p[n-1].Attrs[0].S != fmt.Sprintf("value %d", n-1) {
		t.Fatalf("partition p: %d items, %q .. %+v", len(p), p[0].Key.Sort, p[n-1])
	}
	q := scanPartition(t, s.Scan(ctx, kv.ScanRequest{Partition: []byte("q")}))
	// q: 4 (stored before), 10..n+9 less 20 and 21 (deleted last); 3 deleted.
	if len(q) != 1+n-2 || string(q[0].Key.Sort) != "k0000004" {
		t.Fatalf("partition q: %d items, first %q", len(q), q[0].Key.Sort)
	}
	for _, it := range q {
		if s := string(it.Key.Sort); s == "k0000020" || s == "k0000021" {
			t.Errorf("deleted key %s is there", s)
		}
	}
	old := scanPartition(t, before.Scan(ctx, kv.ScanRequest{Partition: []byte("q")}))
	if len(old) != 2 {
		t.Errorf("a transaction begun before the ingestion sees %d items of q, want 2", len(old))
	}
	if got := scanPartition(t, before.Scan(ctx, kv.ScanRequest{Partition: []byte("p")})); len(got) != 0 {
		t.Errorf("a transaction begun before the ingestion sees %d items of p", len(got))
	}

	// A stored key: the batch fails at Commit and nothing is ingested.
	b = s.NewBulk()
	if err := b.Add([]kv.Op{bulkPut("r", 1, kv.CondNotExists), bulkPut("p", 7, kv.CondNotExists)}); err != nil {
		t.Fatal(err)
	}
	var cf *kv.ConditionFailedError
	if err := b.Commit(ctx, nil); !errors.As(err, &cf) || cf.Index != 1 {
		t.Fatalf("Commit: %v, want op 1 failed", err)
	}
	b.Close()
	if s.IngestCount() != 1 {
		t.Errorf("a failed batch was ingested")
	}
	if got := scanPartition(t, s.Scan(ctx, kv.ScanRequest{Partition: []byte("r")})); len(got) != 0 {
		t.Errorf("a failed batch wrote %d items", len(got))
	}
}

// TestIngestTxn: a transaction past bigTxnKeys commits by ingestion; it
// still loses to a transaction that committed one of its keys first
// (nothing of it is written), and a concurrent one begun before it that
// writes one of its keys loses to it.
func TestIngestTxn(t *testing.T) {
	ctx := context.Background()
	s := openIngesting(t, "db", true)
	defer s.Close()
	const n = bigTxnKeys + 10
	fill := func(txn kv.Txn, p string) {
		ops := make([]kv.Op, 0, 1000)
		for i := range n {
			ops = append(ops, bulkPut(p, i, kv.CondNone))
			if len(ops) == cap(ops) || i == n-1 {
				if err := txn.Write(ctx, kv.Batch{Ops: ops}); err != nil {
					t.Fatal(err)
				}
				ops = ops[:0]
			}
		}
	}
	a, _ := s.Begin(ctx, kv.TxnOptions{})
	b, _ := s.Begin(ctx, kv.TxnOptions{})
	fill(a, "t")
	if err := b.Write(ctx, kv.Batch{Ops: []kv.Op{bulkPut("t", 5, kv.CondNone)}}); err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if s.IngestCount() != 1 {
		t.Fatalf("IngestCount = %d, want 1", s.IngestCount())
	}
	var ce *kv.ConflictError
	if err := b.Commit(ctx); !errors.As(err, &ce) {
		t.Fatalf("a concurrent writer of an ingested key committed: %v", err)
	}
	if got := scanPartition(t, s.Scan(ctx, kv.ScanRequest{Partition: []byte("t")})); len(got) != n {
		t.Fatalf("%d items after the ingested commit, want %d", len(got), n)
	}

	// The first committer wins against a large transaction too.
	c, _ := s.Begin(ctx, kv.TxnOptions{})
	fill(c, "u")
	if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{bulkPut("u", 9, kv.CondNone)}, Atomic: true}); err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(ctx); !errors.As(err, &ce) {
		t.Fatalf("a large transaction overwrote a later commit: %v", err)
	}
	if got := scanPartition(t, s.Scan(ctx, kv.ScanRequest{Partition: []byte("u")})); len(got) != 1 {
		t.Fatalf("a failed large transaction left %d items", len(got))
	}
}

// TestIngestDurable: an ingested batch is there after a reopen, and the
// files of an ingestion a crash interrupted are removed by Open.
func TestIngestDurable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openIngesting(t, dir, false)
	b := s.NewBulk()
	for i := range 1000 {
		if err := b.Add([]kv.Op{bulkPut("p", i, kv.CondNotExists)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, ingestFilePrefix+"99.sst")
	f, err := vfs.Default.Create(stale)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	s = openIngesting(t, dir, false)
	defer s.Close()
	if got := scanPartition(t, s.Scan(ctx, kv.ScanRequest{Partition: []byte("p")})); len(got) != 1000 {
		t.Fatalf("%d items after reopening, want 1000", len(got))
	}
	if _, err := vfs.Default.Stat(stale); err == nil {
		t.Error("Open left an interrupted ingestion's file")
	}
}
