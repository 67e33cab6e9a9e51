package kvlog_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvlog"
	"github.com/zproxy/zproxy/kv/pebble"
)

func TestLogsEveryRequest(t *testing.T) {
	ctx := context.Background()
	inner, err := pebble.Open("kvlog", pebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	s := kvlog.New(inner, kvlog.Options{
		Partition: func(p []byte) string { return string(p) },
		Ignore:    func(p []byte) bool { return string(p) == "hidden" },
	})
	defer s.Close()

	p := []byte("p")
	err = s.Write(ctx, kv.Batch{Atomic: true, Ops: []kv.Op{
		{Kind: kv.OpPut, Key: kv.Key{Partition: p, Sort: []byte{1}}, Attrs: []kv.Attr{{Name: "a", Kind: kv.AttrInt, I: 7}, {Name: "b", Kind: kv.AttrString, S: "x"}}, Cond: kv.CondNotExists},
		{Kind: kv.OpPut, Key: kv.Key{Partition: p, Sort: []byte{2}}, Attrs: []kv.Attr{{Name: "f", Kind: kv.AttrFloat, F: 1.5}}},
		{Kind: kv.OpPut, Key: kv.Key{Partition: p, Sort: []byte{3}}, Attrs: []kv.Attr{{Name: "t", Kind: kv.AttrBool, I: 1}}},
		{Kind: kv.OpDelete, Key: kv.Key{Partition: p, Sort: []byte{9}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: kv.Key{Partition: []byte("hidden"), Sort: []byte{1}}}}}); err != nil {
		t.Fatal(err)
	}
	items, err := s.Get(ctx, kv.GetRequest{Keys: []kv.Key{{Partition: p, Sort: []byte{2}}, {Partition: p, Sort: []byte{5}}}})
	if err != nil || !kv.Found(items[0]) || kv.Found(items[1]) {
		t.Fatalf("get: %v %v", items, err)
	}
	it := s.Scan(ctx, kv.ScanRequest{Partition: p, Start: []byte{1}, End: []byte{4}, Limit: 5})
	n := 0
	for it.Next() {
		n++
		if n == 1 {
			it.Seek([]byte{3})
		}
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Fatalf("scan returned %d items, want 2 (the seek skips 0x02)", n)
	}
	it = s.Scan(ctx, kv.ScanRequest{Partition: p, Reverse: true})
	for it.Next() {
	}
	it.Close()
	// A scan of an ignored partition is forwarded but not logged.
	it = s.Scan(ctx, kv.ScanRequest{Partition: []byte("hidden")})
	if !it.Next() {
		t.Fatal("ignored partition: scan found nothing")
	}
	it.Close()

	want := []string{
		"write atomic\n" +
			"  put p 0x01 if-not-exists {a=7 b=\"x\"}\n" +
			"  put p 0x02 {f=1.5}\n" +
			"  put p 0x03 {t=true}\n" +
			"  delete p 0x09",
		"get p 0x02 found\nget p 0x05 missing",
		"scan p [0x01, 0x04) limit=5: 2 items, 1 seek 0x03",
		"scan p [-inf, +inf) reverse: 3 items",
	}
	if got := s.Lines(); strings.Join(got, "\n\n") != strings.Join(want, "\n\n") {
		t.Errorf("log:\n%s\n\nwant:\n%s", strings.Join(got, "\n\n"), strings.Join(want, "\n\n"))
	}
	es := s.Entries()
	if len(es) != 4 || es[2].Op != kvlog.OpScan || !es[2].Closed || es[2].Items != 2 || len(es[0].Batch.Ops) != 4 {
		t.Errorf("entries: %+v", es)
	}
	if sorted := s.SortedLines(); sorted[0] != want[1] {
		t.Errorf("sorted lines start with %q", sorted[0])
	}
	s.Reset()
	if len(s.Lines()) != 0 {
		t.Error("Reset kept entries")
	}
}

func TestLogsTransactions(t *testing.T) {
	ctx := context.Background()
	inner, err := pebble.Open("kvlog", pebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	s := kvlog.New(inner, kvlog.Options{Partition: func(p []byte) string { return string(p) }})
	defer s.Close()
	p := []byte("p")
	k := func(b byte) kv.Key { return kv.Key{Partition: p, Sort: []byte{b}} }
	txn, err := s.Begin(ctx, kv.TxnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := txn.Get(ctx, kv.GetRequest{Keys: []kv.Key{k(1), k(2)}}); err != nil {
		t.Fatal(err)
	}
	if err := txn.Lock(ctx, []kv.Key{k(1)}, kv.LockUpdate); err != nil {
		t.Fatal(err)
	}
	if err := txn.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpPut, Key: k(2), Attrs: []kv.Attr{{Name: "a", Kind: kv.AttrInt, I: 1}}}}}); err != nil {
		t.Fatal(err)
	}
	it := txn.Scan(ctx, kv.ScanRequest{Partition: p})
	for it.Next() {
	}
	it.Close()
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	txn.Rollback() // after Commit: not recorded
	ro, _ := s.Begin(ctx, kv.TxnOptions{ReadOnly: true})
	ro.Rollback()
	want := []string{
		"txn1 begin",
		"txn1 get p 0x01 missing\ntxn1 get p 0x02 missing",
		"txn1 lock update p 0x01",
		"txn1 write\n  put p 0x02 {a=1}",
		"txn1 scan p [-inf, +inf): 1 item",
		"txn1 commit",
		"txn2 begin read-only",
		"txn2 rollback",
	}
	if got := s.Lines(); strings.Join(got, "\n\n") != strings.Join(want, "\n\n") {
		t.Errorf("log:\n%s\n\nwant:\n%s", strings.Join(got, "\n\n"), strings.Join(want, "\n\n"))
	}
}
