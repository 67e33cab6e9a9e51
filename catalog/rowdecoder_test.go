package catalog_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// TestRowDecoderMatchesDecodeRow decodes items with a RowDecoder for random
// column subsets and checks every wanted column against DecodeRow and every
// other column is NULL, including items whose attributes come in another
// order, lack columns, carry retired attributes, or read Column.Missing.
func TestRowDecoderMatchesDecodeRow(t *testing.T) {
	tbl := &catalog.Table{ID: 3, Name: "t", Columns: []catalog.Column{
		{Name: "id", Type: sqltypes.TypeInt8},
		{Name: "name", Type: sqltypes.TypeText},
		{Name: "score", Type: sqltypes.TypeFloat8},
		{Name: "renamed", Attr: "old", Type: sqltypes.TypeInt4},
		{Name: "added", Type: sqltypes.TypeInt8, Missing: "42"},
	}}
	tbl.PrimaryKey = []catalog.KeyColumn{{Column: 0}}
	tbl.AssignColumnIDs() // rows carry column IDs (value format 2), some items below none
	full := []sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText("a"), sqltypes.NewFloat(2.5), sqltypes.NewInt(7), sqltypes.NewInt(9)}
	noIDs := tbl.RowAttrs(full, 6)
	for i := range noIDs {
		noIDs[i].ID = 0
	}
	items := map[string][]kv.Attr{
		"without ids": noIDs,
		// A dropped column's ID, and a column's ID under another name
		// (never written by the table's own descriptor): neither is read.
		"dropped column's id":   append(tbl.RowAttrs(full, 7), kv.Attr{Name: "gone", ID: 50, Kind: kv.AttrInt, I: 5}),
		"id under another name": append([]kv.Attr{{Name: "dropped", ID: tbl.Columns[1].ID, Kind: kv.AttrString, S: "x"}}, tbl.RowAttrs(full, 8)[2:]...),
		"full row":              tbl.RowAttrs(full, 1),
		"reordered":             reversed(tbl.RowAttrs(full, 2)),
		"written before add":    tbl.RowAttrs(full, 3)[:4],
		"retired attribute":     append([]kv.Attr{{Name: "dropped", Kind: kv.AttrInt, I: 5}}, tbl.RowAttrs(full, 4)...),
		"nulls":                 tbl.RowAttrs([]sqltypes.Value{sqltypes.NewInt(2), sqltypes.Null, sqltypes.Null, sqltypes.Null, sqltypes.Null}, 5),
		"empty":                 nil,
	}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		var cols []int
		for c := range tbl.Columns {
			if r.IntN(2) == 0 {
				cols = append(cols, c)
			}
		}
		dec := catalog.NewRowDecoder(tbl, cols)
		want := map[int]bool{}
		for _, c := range cols {
			want[c] = true
		}
		// One decoder across every item, in varying order, exercises its
		// attribute-position cache on hits and misses.
		for _, name := range []string{"full row", "reordered", "written before add", "retired attribute", "nulls", "empty", "full row", "without ids", "full row", "dropped column's id", "id under another name", "full row"} {
			attrs := items[name]
			exp := make([]sqltypes.Value, len(tbl.Columns))
			if err := tbl.DecodeRow(attrs, exp); err != nil {
				t.Fatal(err)
			}
			got := make([]sqltypes.Value, len(tbl.Columns))
			for i := range got {
				got[i] = sqltypes.NewText("garbage from the last row")
			}
			if err := dec.Decode(attrs, got); err != nil {
				t.Fatal(err)
			}
			for c := range tbl.Columns {
				e := sqltypes.Null
				if want[c] {
					e = exp[c]
				}
				if got[c].K != e.K || (!e.IsNull() && !sqltypes.Equal(got[c], e)) {
					t.Fatalf("cols %v, item %q, column %s: got %v, want %v", cols, name, tbl.Columns[c].Name, got[c], e)
				}
			}
		}
	}
}

func reversed(attrs []kv.Attr) []kv.Attr {
	out := make([]kv.Attr, len(attrs))
	for i, a := range attrs {
		out[len(attrs)-1-i] = a
	}
	return out
}

// TestAssignColumnIDs: a descriptor from before column IDs is numbered in
// column order; a new column gets the next ID; a dropped column's ID is
// never given again, and a rename keeps its column's.
func TestAssignColumnIDs(t *testing.T) {
	tbl := &catalog.Table{Name: "t", Columns: []catalog.Column{
		{Name: "a", Type: sqltypes.TypeInt8}, {Name: "b", Type: sqltypes.TypeText}, {Name: "c", Type: sqltypes.TypeInt8},
	}}
	tbl.AssignColumnIDs()
	ids := func() []uint16 {
		var out []uint16
		for _, c := range tbl.Columns {
			out = append(out, c.ID)
		}
		return out
	}
	if got := ids(); !slices.Equal(got, []uint16{1, 2, 3}) || tbl.NextColumnID != 4 {
		t.Fatalf("legacy numbering %v next %d", got, tbl.NextColumnID)
	}
	tbl.RemoveColumn(2)
	tbl.Columns[1].Name = "b2"
	tbl.Columns = append(tbl.Columns, catalog.Column{Name: "c", Type: sqltypes.TypeInt8})
	tbl.AssignColumnIDs()
	if got := ids(); !slices.Equal(got, []uint16{1, 2, 4}) || tbl.NextColumnID != 5 {
		t.Fatalf("after drop, rename, add: %v next %d", got, tbl.NextColumnID)
	}
	// Dropping the newest column does not lower the next ID.
	tbl.RemoveColumn(2)
	tbl.AssignColumnIDs()
	tbl.Columns = append(tbl.Columns, catalog.Column{Name: "d", Type: sqltypes.TypeInt8})
	tbl.AssignColumnIDs()
	if got := ids(); !slices.Equal(got, []uint16{1, 2, 5}) {
		t.Fatalf("after dropping the newest and adding: %v", got)
	}
	// Row attributes carry the IDs, the version its reserved one.
	attrs := tbl.RowAttrs([]sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText("x"), sqltypes.NewInt(2)}, 1)
	var got []uint16
	for _, a := range attrs {
		got = append(got, a.ID)
	}
	if !slices.Equal(got, []uint16{1, 2, 5, catalog.VersionAttrID}) {
		t.Errorf("row attribute IDs %v", got)
	}
}
