package catalog_test

import (
	"math/rand/v2"
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
	full := []sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText("a"), sqltypes.NewFloat(2.5), sqltypes.NewInt(7), sqltypes.NewInt(9)}
	items := map[string][]kv.Attr{
		"full row":           tbl.RowAttrs(full, 1),
		"reordered":          reversed(tbl.RowAttrs(full, 2)),
		"written before add": tbl.RowAttrs(full, 3)[:4],
		"retired attribute":  append([]kv.Attr{{Name: "dropped", Kind: kv.AttrInt, I: 5}}, tbl.RowAttrs(full, 4)...),
		"nulls":              tbl.RowAttrs([]sqltypes.Value{sqltypes.NewInt(2), sqltypes.Null, sqltypes.Null, sqltypes.Null, sqltypes.Null}, 5),
		"empty":              nil,
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
		for _, name := range []string{"full row", "reordered", "written before add", "retired attribute", "nulls", "empty", "full row"} {
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
