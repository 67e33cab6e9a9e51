package catalog_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

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

// TestRowDecoderAliasing: DecodeAliasing gives the same values as Decode,
// a text column's string being the attribute's own memory where Decode
// copies it; other columns' values are built as Decode builds them.
func TestRowDecoderAliasing(t *testing.T) {
	tbl := &catalog.Table{ID: 3, Name: "t", Columns: []catalog.Column{
		{Name: "id", Type: sqltypes.TypeInt8},
		{Name: "name", Type: sqltypes.TypeText},
		{Name: "ts", Type: sqltypes.TypeTimestamp},
		{Name: "doc", Type: sqltypes.TypeJSONB},
	}}
	tbl.PrimaryKey = []catalog.KeyColumn{{Column: 0}}
	tbl.AssignColumnIDs()
	full := []sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText("a name"), sqltypes.NewTimestamp(12345), sqltypes.Null}
	attrs := tbl.RowAttrs(full, 1)
	var name *kv.Attr
	for i := range attrs {
		if attrs[i].Name == tbl.Columns[1].AttrName() {
			name = &attrs[i]
		}
	}
	name.S = string([]byte("a name")) // memory of the item's own
	dec := catalog.NewRowDecoder(tbl, []int{0, 1, 2, 3})
	for _, tc := range []struct {
		what   string
		decode func([]kv.Attr, []sqltypes.Value) error
		alias  bool
	}{
		{"Decode", dec.Decode, false},
		{"DecodeAliasing", dec.DecodeAliasing, true},
	} {
		row := make([]sqltypes.Value, len(tbl.Columns))
		if err := tc.decode(attrs, row); err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		for c, v := range row {
			if sqltypes.Compare(v, full[c]) != 0 || v.K != full[c].K {
				t.Errorf("%s: column %d = %v, want %v", tc.what, c, v, full[c])
			}
		}
		if aliased := unsafe.StringData(row[1].S) == unsafe.StringData(name.S); aliased != tc.alias {
			t.Errorf("%s: text aliases the attribute: %v, want %v", tc.what, aliased, tc.alias)
		}
	}
}

// TestRowDecoderOwned: DecodeOwned gives the same values as Decode, but
// of attributes that are the caller's (a get's items) keeps their strings:
// a text column's value is the attribute's own memory, and a text, a jsonb
// and an array column allocate no copy of their text.
func TestRowDecoderOwned(t *testing.T) {
	tbl := &catalog.Table{ID: 3, Name: "t", Columns: []catalog.Column{
		{Name: "id", Type: sqltypes.TypeInt8},
		{Name: "name", Type: sqltypes.TypeText},
		{Name: "doc", Type: sqltypes.TypeJSONB},
		{Name: "tags", Type: sqltypes.ArrayOf(sqltypes.TypeText)},
		{Name: "ts", Type: sqltypes.TypeTimestamp},
	}}
	tbl.PrimaryKey = []catalog.KeyColumn{{Column: 0}}
	tbl.AssignColumnIDs()
	var full []sqltypes.Value
	for c, text := range []string{"1", "a name", `{"color": "c4", "size": 3}`, "{t1,t2}", "2024-01-02 03:04:05"} {
		v, err := sqltypes.ParseText(tbl.Columns[c].Type, text)
		if err != nil {
			t.Fatal(err)
		}
		full = append(full, v)
	}
	attrs := tbl.RowAttrs(full, 1)
	for i := range attrs {
		attrs[i].S = string([]byte(attrs[i].S)) // memory of the item's own
	}
	nameAt := slices.IndexFunc(attrs, func(a kv.Attr) bool { return a.Name == tbl.Columns[1].AttrName() })
	name := attrs[nameAt].S
	// Decode keeps the text it copied last for an equal next value
	// (TestRowDecoderRepeatedText): the items alternate two names, so
	// every Decode copies its text.
	other := slices.Clone(attrs)
	other[nameAt].S = string([]byte("another name"))
	items := [][]kv.Attr{attrs, other}
	dec := catalog.NewRowDecoder(tbl, []int{0, 1, 2, 3, 4})
	allocs := map[string]float64{}
	for _, tc := range []struct {
		what   string
		decode func([]kv.Attr, []sqltypes.Value) error
		alias  bool
	}{
		{"Decode", dec.Decode, false},
		{"DecodeOwned", dec.DecodeOwned, true},
	} {
		row := make([]sqltypes.Value, len(tbl.Columns))
		if err := tc.decode(attrs, row); err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		for c, v := range row {
			if v.K != full[c].K || sqltypes.FormatText(v) != sqltypes.FormatText(full[c]) {
				t.Errorf("%s: column %d = %v, want %v", tc.what, c, v, full[c])
			}
		}
		if aliased := unsafe.StringData(row[1].S) == unsafe.StringData(name); aliased != tc.alias {
			t.Errorf("%s: text aliases the attribute: %v, want %v", tc.what, aliased, tc.alias)
		}
		n := 0
		allocs[tc.what] = testing.AllocsPerRun(100, func() {
			_ = tc.decode(items[n%2], row)
			n++
		})
	}
	if allocs["Decode"]-allocs["DecodeOwned"] < 3 {
		t.Errorf("allocations a row: Decode %v, DecodeOwned %v: want three copies fewer", allocs["Decode"], allocs["DecodeOwned"])
	}
}

// TestRowDecoderRepeatedText: Decode copies a text column's value out of
// store memory once for a run of equal values (an index scan's leading
// column, every row of a secondary-index equality): the next row's equal
// value is the same copy, with no allocation, while a different value is
// copied anew and no value aliases the attributes, which the store
// overwrites.
func TestRowDecoderRepeatedText(t *testing.T) {
	tbl := &catalog.Table{ID: 3, Name: "t", Columns: []catalog.Column{
		{Name: "id", Type: sqltypes.TypeInt8},
		{Name: "note", Type: sqltypes.TypeText},
	}}
	tbl.PrimaryKey = []catalog.KeyColumn{{Column: 0}}
	tbl.AssignColumnIDs()
	// buf is the store's memory under the item's text, rewritten for
	// every item as an iterator's is.
	buf := make([]byte, 0, 16)
	item := func(id int64, note string) []kv.Attr {
		attrs := tbl.RowAttrs([]sqltypes.Value{sqltypes.NewInt(id), sqltypes.NewText(note)}, 1)
		buf = append(buf[:0], note...)
		for i := range attrs {
			if attrs[i].Name == tbl.Columns[1].AttrName() {
				attrs[i].S = unsafe.String(unsafe.SliceData(buf), len(buf))
			}
		}
		return attrs
	}
	dec := catalog.NewRowDecoder(tbl, []int{0, 1})
	decode := func(attrs []kv.Attr) []sqltypes.Value {
		row := make([]sqltypes.Value, len(tbl.Columns))
		if err := dec.Decode(attrs, row); err != nil {
			t.Fatal(err)
		}
		return row
	}
	first := decode(item(1, "code-00042"))
	second := decode(item(2, "code-00042"))
	third := decode(item(3, "code-00043"))
	buf = append(buf[:0], "overwritten"...)
	for i, c := range []struct {
		row  []sqltypes.Value
		id   int64
		note string
	}{{first, 1, "code-00042"}, {second, 2, "code-00042"}, {third, 3, "code-00043"}} {
		if c.row[0].I != c.id || c.row[1].K != sqltypes.KindText || c.row[1].S != c.note {
			t.Errorf("row %d = %v, want (%d, %q)", i, c.row, c.id, c.note)
		}
		if unsafe.StringData(c.row[1].S) == unsafe.SliceData(buf) {
			t.Errorf("row %d: the text aliases the store's memory", i)
		}
	}
	if unsafe.StringData(first[1].S) != unsafe.StringData(second[1].S) {
		t.Errorf("an equal text in the next row was copied again")
	}
	same := item(4, "code-00043")
	row := make([]sqltypes.Value, len(tbl.Columns))
	if allocs := testing.AllocsPerRun(100, func() { _ = dec.Decode(same, row) }); allocs != 0 {
		t.Errorf("decoding a row whose text equals the last row's: %v allocations, want 0", allocs)
	}
}
