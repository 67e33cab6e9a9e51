package catalog_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// encoderTable is a table whose layout takes every branch of the key and
// attribute encoding: a descending primary-key column, shards, a TTL, a
// btree index on shard columns, a Z-order index, a unique index and a
// unique one whose NULLs are not distinct.
func encoderTable() *catalog.Table {
	t := &catalog.Table{
		Name: "enc", ID: 7, Shards: 4,
		Columns: []catalog.Column{
			{Name: "a", Type: sqltypes.TypeInt8, NotNull: true},
			{Name: "b", Type: sqltypes.TypeText, NotNull: true},
			{Name: "c", Type: sqltypes.TypeFloat8},
			{Name: "d", Type: sqltypes.TypeTimestamp},
			{Name: "f", Type: sqltypes.TypeBytea},
		},
		PrimaryKey: []catalog.KeyColumn{{Column: 0}, {Column: 1, Desc: true}},
		TTL:        &catalog.TTL{Column: "d", Interval: "1 day", Micros: 86_400_000_000},
		Indexes: []*catalog.Index{
			{ID: 11, Name: "bt", Kind: catalog.KindBTree, Columns: []catalog.KeyColumn{{Column: 1}, {Column: 2, Desc: true}}, Include: []int{4}, Shards: 3, ShardColumns: 1},
			{ID: 12, Name: "z", Kind: catalog.KindZOrder, Columns: []catalog.KeyColumn{{Column: 2}, {Column: 3}}, Shards: 2},
			{ID: 13, Name: "u", Kind: catalog.KindBTree, Unique: true, Columns: []catalog.KeyColumn{{Column: 2}}, Shards: 5},
			{ID: 14, Name: "unnd", Kind: catalog.KindBTree, Unique: true, NullsNotDistinct: true, Columns: []catalog.KeyColumn{{Column: 3}, {Column: 0}}},
		},
	}
	t.AssignColumnIDs()
	return t
}

// TestEncoderEqualsTableMethods: for random rows, an Encoder's keys and
// attributes are exactly those of the Table methods, across arena chunks
// and after Reset.
func TestEncoderEqualsTableMethods(t *testing.T) {
	tb := encoderTable()
	rng := rand.New(rand.NewPCG(29, 11))
	row := func() []sqltypes.Value {
		v := []sqltypes.Value{sqltypes.NewInt(rng.Int64N(1000) - 500), sqltypes.NewText(fmt.Sprintf("t%0*d", rng.IntN(40), rng.IntN(99)))}
		for c := 2; c < 5; c++ {
			if rng.IntN(5) == 0 {
				v = append(v, sqltypes.Null)
				continue
			}
			switch c {
			case 2:
				v = append(v, sqltypes.NewFloat(rng.NormFloat64()*1e3))
			case 3:
				v = append(v, sqltypes.NewTimestamp(rng.Int64N(1<<50)))
			case 4:
				v = append(v, sqltypes.NewBytes([]byte(fmt.Sprint(rng.Uint64()))))
			}
		}
		return v
	}
	enc := tb.NewEncoder(16)
	type item struct {
		key, want kv.Key
	}
	// The encoder's keys since the last Reset, each with a copy of what
	// it was: later cuts from the arena must leave them as they were.
	var kept []item
	keep := func(k kv.Key) {
		kept = append(kept, item{k, kv.Key{Partition: slices.Clone(k.Partition), Sort: slices.Clone(k.Sort)}})
	}
	for i := range 5000 {
		if i%700 == 0 {
			for _, it := range kept {
				if !reflect.DeepEqual(it.key, it.want) {
					t.Fatalf("a key was overwritten: %x, was %x", it.key, it.want)
				}
			}
			kept = kept[:0]
			enc.Reset()
		}
		r := row()
		version := rng.Int64N(9) + 1
		want, got := tb.RowKey(r), enc.RowKey(r)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("row %v: key %x, want %x", r, got, want)
		}
		if w, g := tb.RowAttrs(r, version), enc.RowAttrs(r, version); !reflect.DeepEqual(w, g) {
			t.Fatalf("row %v: attrs %v, want %v", r, g, w)
		}
		keep(got)
		for _, ix := range tb.Indexes {
			wk, gk := tb.EntryKeyPK(ix, r, want.Sort), enc.EntryKeyPK(ix, r, got.Sort)
			if !reflect.DeepEqual(wk, gk) {
				t.Fatalf("row %v, index %s: key %x, want %x", r, ix.Name, gk, wk)
			}
			wa, ga := tb.EntryAttrs(ix, r), enc.EntryAttrs(ix, r)
			if !reflect.DeepEqual(wa, ga) {
				t.Fatalf("row %v, index %s: attrs %v, want %v", r, ix.Name, ga, wa)
			}
			if cap(gk.Sort) != len(gk.Sort) || cap(ga) != len(ga) {
				t.Fatalf("index %s: an arena cut has room past its end", ix.Name)
			}
			keep(gk)
		}
	}
}

// TestPrepareZSchemas: a descriptor a change made (CreateIndex's) has no
// cached Z-order schema for its new index, so each entry made one;
// PrepareZSchemas computes it once, equal to a fresh one, and replaces a
// stale one a Clone carried over.
func TestPrepareZSchemas(t *testing.T) {
	tb := encoderTable()
	z := tb.Indexes[1]
	if tb.ZSchema(z) == tb.ZSchema(z) {
		t.Fatal("a new index's schema is cached before PrepareZSchemas")
	}
	tb.PrepareZSchemas()
	s := tb.ZSchema(z)
	if s != tb.ZSchema(z) {
		t.Fatal("PrepareZSchemas left the schema to be made at every call")
	}
	fresh, err := tb.NewZSchema(z)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, fresh) {
		t.Fatalf("cached schema %+v, fresh %+v", s, fresh)
	}
	// A clone whose Z-order column changed width carries the old schema
	// until prepared again.
	nt := tb.Clone()
	nt.Indexes[1].Columns[1].Width = 20
	nt.PrepareZSchemas()
	want, err := nt.NewZSchema(nt.Indexes[1])
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(nt.ZSchema(nt.Indexes[1]), want) {
		t.Fatal("PrepareZSchemas kept a clone's stale schema")
	}
}

// BenchmarkZOrderEntryKey is the cost of one Z-order entry key with the
// schema made at each call (an index built from a descriptor a change
// made, before PrepareZSchemas) and with it prepared once.
func BenchmarkZOrderEntryKey(b *testing.B) {
	row := []sqltypes.Value{sqltypes.NewInt(7), sqltypes.NewText("k"), sqltypes.NewFloat(40.5), sqltypes.NewTimestamp(1 << 45), sqltypes.Null}
	for _, prepared := range []bool{false, true} {
		b.Run(fmt.Sprintf("prepared=%v", prepared), func(b *testing.B) {
			tb := encoderTable()
			if prepared {
				tb.PrepareZSchemas()
			}
			pk := tb.RowKey(row).Sort
			b.ReportAllocs()
			for range b.N {
				tb.EntryKeyPK(tb.Indexes[1], row, pk)
			}
		})
	}
}

// TestEntryAttrsInIDOrder: an index entry's attributes come in increasing
// column ID whatever the order of the index's key, included and primary-key
// columns (kv/pebble then writes them in its format 2, whose table a scan
// needing a few of them jumps through), and hold each column once.
func TestEntryAttrsInIDOrder(t *testing.T) {
	tb := encoderTable()
	enc := tb.NewEncoder(16)
	row := []sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText("b"), sqltypes.NewFloat(2.5), sqltypes.Null, sqltypes.NewBytes([]byte("f"))}
	for _, ix := range tb.Indexes {
		cols := tb.EntryColumns(ix)
		for i := 1; i < len(cols); i++ {
			if tb.Columns[cols[i-1]].ID >= tb.Columns[cols[i]].ID {
				t.Fatalf("index %s: entry columns %v not in increasing ID", ix.Name, cols)
			}
		}
		want := map[int]bool{}
		for _, k := range ix.Columns {
			want[k.Column] = true
		}
		for _, c := range ix.Include {
			want[c] = true
		}
		for _, k := range tb.PrimaryKey {
			want[k.Column] = true
		}
		if len(cols) != len(want) {
			t.Fatalf("index %s: entry columns %v, want the set %v", ix.Name, cols, want)
		}
		for _, c := range cols {
			if !want[c] {
				t.Fatalf("index %s: entry columns %v hold %d", ix.Name, cols, c)
			}
		}
		for _, attrs := range [][]kv.Attr{tb.EntryAttrs(ix, row), enc.EntryAttrs(ix, row)} {
			for i := 1; i < len(attrs); i++ {
				if attrs[i-1].ID >= attrs[i].ID {
					t.Fatalf("index %s: entry attributes %v not in increasing ID", ix.Name, attrs)
				}
			}
		}
	}
}
