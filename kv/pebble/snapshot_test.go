package pebble

import (
	"testing"

	"github.com/zproxy/zproxy/kv"
)

// A statement's snapshot reads the store as it was when it was taken,
// through Get (the row cache included) and Scan, whatever commits later;
// one left open at Close is closed with the store.
func TestSnapshotReadsOnePointInTime(t *testing.T) {
	s := openMem(t)
	part := []byte("p")
	put := func(k, v string) {
		t.Helper()
		err := s.Write(bg, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpPut, Key: kv.Key{Partition: part, Sort: []byte(k)},
			Attrs: []kv.Attr{{Name: "v", Kind: kv.AttrString, S: v}}}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	value := func(items []kv.Item) string {
		if len(items) != 1 || !kv.Found(items[0]) {
			return "<none>"
		}
		return items[0].Attrs[0].S
	}
	put("a", "1")
	get := kv.GetRequest{Keys: []kv.Key{{Partition: part, Sort: []byte("a")}}}
	if _, err := s.Get(bg, get); err != nil { // the row cache holds "1"
		t.Fatal(err)
	}
	snap, err := s.Snapshot(bg)
	if err != nil {
		t.Fatal(err)
	}
	put("a", "2")
	put("b", "1")
	items, err := snap.Get(bg, get)
	if err != nil || value(items) != "1" {
		t.Fatalf("snapshot Get: %q, %v; want 1", value(items), err)
	}
	if items, _ := s.Get(bg, get); value(items) != "2" {
		t.Fatalf("store Get after the write: %q, want 2", value(items))
	}
	it := snap.Scan(bg, kv.ScanRequest{Partition: part})
	var keys []string
	for it.Next() {
		keys = append(keys, string(it.Item().Key.Sort)+"="+it.Item().Attrs[0].S)
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0] != "a=1" {
		t.Fatalf("snapshot Scan: %q, want [a=1]", keys)
	}
	// A statement starting with no write since shares the snapshot; one
	// starting after a write takes a new one, and the old one still
	// reads its state until released.
	again, err := s.Snapshot(bg)
	if err != nil {
		t.Fatal(err)
	}
	if again.(*snapshot).c == snap.(*snapshot).c {
		t.Fatal("a snapshot after a write shares the one before it")
	}
	third, err := s.Snapshot(bg)
	if err != nil {
		t.Fatal(err)
	}
	if third.(*snapshot).c != again.(*snapshot).c {
		t.Fatal("two snapshots with no write between them are not shared")
	}
	if items, _ := third.Get(bg, get); value(items) != "2" {
		t.Fatalf("the new snapshot's Get: %q, want 2", value(items))
	}
	if items, _ := snap.Get(bg, get); value(items) != "1" {
		t.Fatalf("the old snapshot's Get after a newer was taken: %q, want 1", value(items))
	}
	snap.Release()
	snap.Release() // twice is harmless
	if _, open := s.snaps[snap.(*snapshot).c]; open {
		t.Fatal("a snapshot that is no longer current stays open after its last release")
	}
	again.Release()
	third.Release()
	if _, open := s.snaps[third.(*snapshot).c]; !open {
		t.Fatal("the current snapshot closed with its last release: the next statement cannot share it")
	}
	open, err := s.Snapshot(bg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close with a snapshot open: %v", err)
	}
	open.Release()
}
