package session_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestReindexRepairs: an index whose entries went missing (written around
// zproxy, straight into the store) fails CHECK TABLE and misses rows;
// REINDEX rebuilds it from the table, after which CHECK TABLE passes, the
// rows are found through it again and the old entries are gone.
func TestReindexRepairs(t *testing.T) {
	ctx := context.Background()
	store := memStore(t)
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "admin", Database: "postgres"})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, sess, "CREATE TABLE rr (id INT PRIMARY KEY, tag TEXT)")
	mustExec(t, sess, "CREATE INDEX rr_tag ON rr (tag)")
	mustExec(t, sess, "INSERT INTO rr SELECT g, 't' || (g % 5) FROM generate_series(1, 100) g")
	cat, err := catalog.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tb, ix := snap.FindIndex("rr_tag")
	if ix == nil {
		t.Fatal("no index rr_tag")
	}
	// Lose every entry of the index's first shard.
	var dels []kv.Op
	for sh := 0; sh < max(ix.Shards, 1); sh++ {
		it := store.Scan(ctx, kv.ScanRequest{Partition: catalog.IndexPartition(ix.ID, sh)})
		for it.Next() {
			k := it.Item().Key // valid until Next: copied
			dels = append(dels, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: bytes.Clone(k.Partition), Sort: bytes.Clone(k.Sort)}})
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if len(dels) != 100 {
		t.Fatalf("the index has %d entries, want 100", len(dels))
	}
	if err := store.Write(ctx, kv.Batch{Ops: dels[:40]}); err != nil {
		t.Fatal(err)
	}
	count := func() string {
		return strings.Join(mustExec(t, sess, "SELECT /*+ USE_INDEX(rr, rr_tag) */ count(*) FROM rr WHERE tag = 't1'"), "")
	}
	if rows, _ := runSQL(ctx, sess, "CHECK TABLE rr"); !strings.Contains(strings.Join(rows, "\n"), "rr|rr_tag|100|60|40|0|f") {
		t.Errorf("CHECK TABLE before REINDEX: %v, want rr_tag with 40 entries missing", rows)
	}
	before := count()
	mustExec(t, sess, "REINDEX INDEX rr_tag")
	if got := count(); got != "20" {
		t.Errorf("rows through the index after REINDEX: %s (before: %s), want 20", got, before)
	}
	if before == "20" {
		t.Errorf("the damaged index still found every row: the test damaged nothing")
	}
	if rows, err := runSQL(ctx, sess, "CHECK TABLE rr"); err != nil || !strings.Contains(strings.Join(rows, "\n"), "rr|rr_tag|100|100|0|0|t") {
		t.Errorf("CHECK TABLE after REINDEX: %v %v", rows, err)
	}
	it := store.Scan(ctx, kv.ScanRequest{Partition: catalog.IndexPartition(ix.ID, 0)})
	if it.Next() {
		t.Errorf("the old index's entries are still stored after REINDEX")
	}
	if tb.Name != "rr" {
		t.Errorf("index rr_tag found on table %s", tb.Name)
	}
}
