package catalog_test

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

func allTypesTable() *catalog.Table {
	t := &catalog.Table{ID: 9, Name: "t", Shards: 3}
	for i, typ := range sqltypes.AllTypes() {
		t.Columns = append(t.Columns, catalog.Column{Name: fmt.Sprintf("c%d", i), Type: typ})
	}
	t.PrimaryKey = []catalog.KeyColumn{{Column: 0}}
	return t
}

// TestRowRoundTrip stores a row of every type as attributes and reads it
// back unchanged.
func TestRowRoundTrip(t *testing.T) {
	tbl := allTypesTable()
	row := make([]sqltypes.Value, len(tbl.Columns))
	for i, c := range tbl.Columns {
		switch c.Type.ID {
		case sqltypes.Int2, sqltypes.Int4, sqltypes.Int8:
			row[i] = sqltypes.NewInt(-7)
		case sqltypes.Float4:
			row[i] = sqltypes.NewFloat(1.5)
		case sqltypes.Float8:
			row[i] = sqltypes.NewFloat(math.Inf(-1))
		case sqltypes.Text, sqltypes.Varchar:
			row[i] = sqltypes.NewText("héllo\x00")
		case sqltypes.Bool:
			row[i] = sqltypes.NewBool(true)
		case sqltypes.Timestamp:
			row[i] = sqltypes.NewTimestamp(-1)
		case sqltypes.TimestampTZ:
			row[i] = sqltypes.NewTimestampTZ(1700000000123456)
		case sqltypes.Date:
			row[i] = sqltypes.NewDate(-719162)
		case sqltypes.Bytea:
			row[i] = sqltypes.NewBytes([]byte{0, 255})
		case sqltypes.UUID:
			row[i] = sqltypes.NewUUID([16]byte{1, 2, 3, 15: 9})
		}
	}
	row[3] = sqltypes.Null
	attrs := tbl.RowAttrs(row, 4)
	got := make([]sqltypes.Value, len(row))
	if err := tbl.DecodeRow(attrs, got); err != nil {
		t.Fatal(err)
	}
	for i := range row {
		if row[i].K != got[i].K || !sqltypes.Equal(row[i], got[i]) {
			t.Errorf("column %s (%s): %v came back as %v", tbl.Columns[i].Name, tbl.Columns[i].Type, row[i], got[i])
		}
	}
	if v := catalog.RowVersion(attrs); v.Kind != kv.AttrInt || v.I != 4 {
		t.Errorf("version attribute %+v, want 4", v)
	}
}

// TestAttrValueCoerces reads numbers as a store or another tool may hand
// them back (DynamoDB's N carries no int/float distinction).
func TestAttrValueCoerces(t *testing.T) {
	cases := []struct {
		a    kv.Attr
		typ  sqltypes.Type
		want sqltypes.Value
		ok   bool
	}{
		{kv.Attr{Kind: kv.AttrInt, I: 2}, sqltypes.TypeFloat8, sqltypes.NewFloat(2), true},
		{kv.Attr{Kind: kv.AttrFloat, F: 3}, sqltypes.TypeInt8, sqltypes.NewInt(3), true},
		{kv.Attr{Kind: kv.AttrFloat, F: 3.5}, sqltypes.TypeInt8, sqltypes.Null, false},
		{kv.Attr{Kind: kv.AttrString, S: "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}, sqltypes.TypeUUID, sqltypes.Value{}, true},
		{kv.Attr{Kind: kv.AttrString, S: "x"}, sqltypes.TypeInt4, sqltypes.Null, false},
		{kv.Attr{Kind: kv.AttrBytes, B: []byte("t")}, sqltypes.TypeText, sqltypes.NewText("t"), true},
	}
	for _, c := range cases {
		v, err := catalog.AttrValue(c.a, c.typ)
		if (err == nil) != c.ok {
			t.Errorf("AttrValue(%+v, %s): err %v, want ok=%v", c.a, c.typ, err, c.ok)
			continue
		}
		if c.ok && c.want.K != sqltypes.KindNull && !sqltypes.Equal(v, c.want) {
			t.Errorf("AttrValue(%+v, %s) = %v, want %v", c.a, c.typ, v, c.want)
		}
	}
}

// TestShardOfSpreads checks that hash placement uses every shard and stays
// within range.
func TestShardOfSpreads(t *testing.T) {
	counts := make([]int, 8)
	for i := 0; i < 8000; i++ {
		pk := catalog.AppendKeyValue(nil, sqltypes.NewInt(int64(i)), false)
		sh := catalog.ShardOf(pk, 8)
		if sh < 0 || sh >= 8 {
			t.Fatalf("shard %d out of range", sh)
		}
		counts[sh]++
	}
	for sh, n := range counts {
		if n < 800 || n > 1200 {
			t.Errorf("shard %d holds %d of 8000 sequential keys: %v", sh, n, counts)
		}
	}
}

// TestConcurrentSchemaChanges runs DDL from two catalogs over one store at
// once: every change lands, each under its own version.
func TestConcurrentSchemaChanges(t *testing.T) {
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	cats := make([]*catalog.Catalog, 2)
	for i := range cats {
		if cats[i], err = catalog.Open(ctx, store); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i, c := range cats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				name := fmt.Sprintf("t%d_%d", i, j)
				_, err := c.Update(ctx, func(s *catalog.Snapshot, v uint64) (catalog.Change, error) {
					tbl := &catalog.Table{ID: v, Name: name, Shards: 1,
						Columns: []catalog.Column{{Name: "id", Type: sqltypes.TypeInt8, NotNull: true}}, PrimaryKey: []catalog.KeyColumn{{Column: 0}}}
					return catalog.Change{Put: []*catalog.Table{tbl}}, nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	fresh, err := catalog.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := fresh.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]string{}
	for _, tbl := range snap.Tables() {
		if other, dup := seen[tbl.ID]; dup {
			t.Errorf("tables %s and %s share ID %d", other, tbl.Name, tbl.ID)
		}
		seen[tbl.ID] = tbl.Name
	}
	if len(seen) != 40 || snap.Version != 40 {
		t.Errorf("%d tables at version %d, want 40 at 40", len(seen), snap.Version)
	}
}

// sharedStore is a store the catalog must treat as shared with other
// proxies (DynamoDB's case), over an in-memory Pebble.
type sharedStore struct{ kv.Store }

func (s sharedStore) Capabilities() kv.Capabilities {
	c := s.Store.Capabilities()
	c.Exclusive = false
	return c
}

// TestLatestSeesAnotherProxysChange: a change made through another catalog
// over a shared store is in Latest at once, though Snapshot may serve its
// cache for up to SharedStaleness.
func TestLatestSeesAnotherProxysChange(t *testing.T) {
	inner, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	ctx := context.Background()
	store := sharedStore{inner}
	a, err := catalog.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	b, err := catalog.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Update(ctx, func(*catalog.Snapshot, uint64) (catalog.Change, error) {
		return catalog.Change{PutRoles: []*catalog.Role{{Name: "reader", Login: true}}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	snap, err := b.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Role("reader") == nil {
		t.Error("Latest does not have the role another catalog just created")
	}
}
