package session_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestValueFormatUpgrade: a store written before column IDs (a descriptor
// without them, rows in value format 1) opens and answers as before, and
// rows written since (format 2, by column ID) mix with the old ones in one
// table through ALTER TABLE's ADD, RENAME and DROP COLUMN: RENAME keeps a
// column's ID, DROP never hands it out again, ADD gets a fresh one.
func TestValueFormatUpgrade(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	open := func() (kv.Store, *session.Engine, wire.Session) {
		t.Helper()
		store, err := zpebble.Open(dir, zpebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		eng := newEngine(t, store)
		return store, eng, openSession(t, eng)
	}
	store, eng, s := open()
	mustExec(t, s, `CREATE TABLE r (id int PRIMARY KEY, a text, b float8, gone int, c int)`)
	mustExec(t, s, `ALTER TABLE r DROP COLUMN gone`)
	mustExec(t, s, `INSERT INTO r VALUES (1, 'one', 1.5, 10), (2, NULL, 2.5, 20), (3, 'three', NULL, NULL)`)
	// What the previous build left: no column IDs in the descriptor, every
	// row in format 1 (attributes by name only).
	downgrade(t, ctx, store)
	eng.Close()
	store.Close()

	store, eng, s = open()
	defer func() { eng.Close(); store.Close() }()
	want := []string{"1|one|1.5|10", "2|NULL|2.5|20", "3|three|NULL|NULL"}
	if got := rowsOf(t, s, `SELECT * FROM r ORDER BY id`); !slices.Equal(got, want) {
		t.Fatalf("old rows read as %q, want %q", got, want)
	}
	if ids := rowIDs(t, ctx, store, readTable(t, ctx, store), 1); ids[0] != 0 {
		t.Fatalf("old row has IDs %v", ids)
	}
	// New rows, an updated old row, and schema changes over both.
	mustExec(t, s, `INSERT INTO r VALUES (4, 'four', 4.5, 40)`)
	mustExec(t, s, `UPDATE r SET c = 21 WHERE id = 2`)
	mustExec(t, s, `ALTER TABLE r RENAME COLUMN a TO a2`)
	mustExec(t, s, `ALTER TABLE r ADD COLUMN d int DEFAULT 7`)
	mustExec(t, s, `INSERT INTO r VALUES (5, 'five', 5.5, 50, NULL)`)
	mustExec(t, s, `ALTER TABLE r DROP COLUMN b`)
	mustExec(t, s, `ALTER TABLE r ADD COLUMN b text`)
	mustExec(t, s, `INSERT INTO r VALUES (6, 'six', 60, 8, 'bee')`)
	want = []string{
		"1|one|10|7|NULL",
		"2|NULL|21|7|NULL",
		"3|three|NULL|7|NULL",
		"4|four|40|7|NULL",
		"5|five|50|NULL|NULL",
		"6|six|60|8|bee",
	}
	if got := rowsOf(t, s, `SELECT * FROM r ORDER BY id`); !slices.Equal(got, want) {
		t.Fatalf("mixed rows read as %q, want %q", got, want)
	}
	// One column of many, as a scan's projection by ID reads it.
	for sql, want := range map[string][]string{
		`SELECT sum(c) FROM r`:                          {"181"},
		`SELECT string_agg(a2, ',' ORDER BY id) FROM r`: {"one,three,four,five,six"},
		`SELECT count(b), sum(d) FROM r`:                {"1|36"},
		`SELECT d FROM r WHERE id = 1`:                  {"7"},
		`SELECT a2, b FROM r WHERE id = 6`:              {"six|bee"},
	} {
		if got := rowsOf(t, s, sql); !slices.Equal(got, want) {
			t.Errorf("%s = %q, want %q", sql, got, want)
		}
	}
	// The upgraded descriptor numbers its columns: the old ones 1 to 4 in
	// order (id, a, b, c), then d and the new b past them.
	tbl := readTable(t, ctx, store)
	var ids []string
	for _, c := range tbl.Columns {
		ids = append(ids, c.Name+"="+strconv.Itoa(int(c.ID)))
	}
	if got, want := strings.Join(ids, " "), "id=1 a2=2 c=4 d=5 b=6"; got != want {
		t.Errorf("column IDs %s, want %s", got, want)
	}
	if tbl.NextColumnID != 7 {
		t.Errorf("NextColumnID = %d, want 7", tbl.NextColumnID)
	}
	// New and rewritten rows are in format 2 (their attributes come back
	// with IDs); an untouched old row stays in format 1.
	for id, withIDs := range map[int64]bool{1: false, 2: true, 4: true, 6: true} {
		if got := rowIDs(t, ctx, store, tbl, id); (got[0] != 0) != withIDs {
			t.Errorf("row %d attribute IDs %v, want IDs: %v", id, got, withIDs)
		}
	}
}

// downgrade rewrites table r as the build before column IDs left it: its
// descriptor without IDs, its rows in value format 1.
func downgrade(t *testing.T, ctx context.Context, store kv.Store) {
	t.Helper()
	key := catalog.DescriptorKey("r")
	items, err := store.Get(ctx, kv.GetRequest{Keys: []kv.Key{key}})
	if err != nil || !kv.Found(items[0]) {
		t.Fatalf("descriptor of r: %v", err)
	}
	var raw map[string]any
	data := descData(t, items[0])
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := raw["next_column_id"]; !ok {
		t.Fatal("a new descriptor has no next_column_id")
	}
	delete(raw, "next_column_id")
	for _, c := range raw["columns"].([]any) {
		delete(c.(map[string]any), "id")
	}
	old, _ := json.Marshal(raw)
	attrs := kv.CloneAttrs(items[0].Attrs)
	for i := range attrs {
		if attrs[i].Name == "desc" {
			if attrs[i].Kind == kv.AttrString {
				attrs[i].S = string(old)
			} else {
				attrs[i].B = old
			}
		}
	}
	ops := []kv.Op{{Kind: kv.OpPut, Key: key, Attrs: attrs}}
	var tbl catalog.Table
	if err := json.Unmarshal(data, &tbl); err != nil {
		t.Fatal(err)
	}
	for shard := range tbl.Shards {
		it := store.Scan(ctx, kv.ScanRequest{Partition: tbl.Partition(shard)})
		for it.Next() {
			item := it.Item()
			attrs := kv.CloneAttrs(item.Attrs)
			for i := range attrs {
				if attrs[i].ID == 0 {
					t.Fatalf("row attribute %q written without an ID", attrs[i].Name)
				}
				attrs[i].ID = 0
			}
			ops = append(ops, kv.Op{Kind: kv.OpPut, Key: kv.Key{Partition: item.Key.Partition, Sort: slices.Clone(item.Key.Sort)}, Attrs: attrs})
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := store.Write(ctx, kv.Batch{Ops: ops, Atomic: true}); err != nil {
		t.Fatal(err)
	}
}

func descData(t *testing.T, it kv.Item) []byte {
	t.Helper()
	for _, a := range it.Attrs {
		if a.Name == "desc" {
			if a.Kind == kv.AttrString {
				return []byte(a.S)
			}
			return slices.Clone(a.B)
		}
	}
	t.Fatal("descriptor without desc")
	return nil
}

// readTable reads table r's stored descriptor.
func readTable(t *testing.T, ctx context.Context, store kv.Store) *catalog.Table {
	t.Helper()
	items, err := store.Get(ctx, kv.GetRequest{Keys: []kv.Key{catalog.DescriptorKey("r")}})
	if err != nil || !kv.Found(items[0]) {
		t.Fatalf("descriptor of r: %v", err)
	}
	var tbl catalog.Table
	if err := json.Unmarshal(descData(t, items[0]), &tbl); err != nil {
		t.Fatal(err)
	}
	return &tbl
}

// rowIDs returns the attribute IDs of row id of tbl as the store reads
// them back (0 for each of a format 1 value's).
func rowIDs(t *testing.T, ctx context.Context, store kv.Store, tbl *catalog.Table, id int64) []uint16 {
	t.Helper()
	for shard := range tbl.Shards {
		it := store.Scan(ctx, kv.ScanRequest{Partition: tbl.Partition(shard)})
		for it.Next() {
			item := it.Item()
			if kv.Lookup(item.Attrs, tbl.Columns[0].AttrName()).I != id {
				continue
			}
			var ids []uint16
			for _, a := range item.Attrs {
				ids = append(ids, a.ID)
			}
			it.Close()
			return ids
		}
		it.Close()
	}
	t.Fatalf("row %d not found", id)
	return nil
}
