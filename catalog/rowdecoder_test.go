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

// TestRowDecoderBorrow: a borrowing decoder gives the values a copying
// one does, its text, char(n), citext, json and bytea values sharing the
// item's memory (no copy per row) and every other value as before; a
// text value stored as bytes (a Bytes attribute) is borrowed too, an
// empty bytea is an empty value.
func TestRowDecoderBorrow(t *testing.T) {
	tbl := &catalog.Table{ID: 3, Name: "t", Columns: []catalog.Column{
		{Name: "id", Type: sqltypes.TypeInt8},
		{Name: "name", Type: sqltypes.TypeText},
		{Name: "code", Type: sqltypes.TypeBPChar},
		{Name: "ci", Type: sqltypes.TypeCitext},
		{Name: "doc", Type: sqltypes.TypeJSON},
		{Name: "blob", Type: sqltypes.TypeBytea},
		{Name: "jb", Type: sqltypes.TypeJSONB},
		{Name: "score", Type: sqltypes.TypeFloat8},
	}}
	tbl.PrimaryKey = []catalog.KeyColumn{{Column: 0}}
	tbl.AssignColumnIDs()
	jb, err := sqltypes.ParseText(sqltypes.TypeJSONB, `{"a": 1}`)
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]sqltypes.Value{
		{sqltypes.NewInt(1), sqltypes.NewText("alpha"), sqltypes.NewBPChar("ab "), sqltypes.NewCitext("MiXed"), sqltypes.NewJSON(`{"k": [1, 2]}`), sqltypes.NewBytes([]byte{0, 1, 0xff}), jb, sqltypes.NewFloat(2.5)},
		{sqltypes.NewInt(2), sqltypes.NewText(""), sqltypes.Null, sqltypes.Null, sqltypes.Null, sqltypes.NewBytes(nil), sqltypes.Null, sqltypes.Null},
	}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	copying, borrowing := catalog.NewRowDecoder(tbl, all), catalog.NewRowDecoder(tbl, all)
	borrowing.Borrow()
	textAsBytes := []kv.Attr{{Name: "id", ID: tbl.Columns[0].ID, Kind: kv.AttrInt, I: 3}, {Name: "name", ID: tbl.Columns[1].ID, Kind: kv.AttrBytes, B: []byte("from bytes")}}
	for i, attrs := range [][]kv.Attr{tbl.RowAttrs(rows[0], 1), tbl.RowAttrs(rows[1], 1), textAsBytes} {
		want := make([]sqltypes.Value, len(tbl.Columns))
		got := make([]sqltypes.Value, len(tbl.Columns))
		if err := copying.Decode(attrs, want); err != nil {
			t.Fatal(err)
		}
		if err := borrowing.Decode(attrs, got); err != nil {
			t.Fatal(err)
		}
		for c := range tbl.Columns {
			if got[c].K != want[c].K || (!want[c].IsNull() && !sqltypes.Equal(got[c], want[c])) {
				t.Errorf("item %d, column %s: borrowed %v, copied %v", i, tbl.Columns[c].Name, got[c], want[c])
			}
		}
		// Which values share the item's memory.
		for _, a := range attrs {
			c := tbl.ColumnIndex(a.Name)
			var stored string
			switch a.Kind {
			case kv.AttrString:
				stored = a.S
			case kv.AttrBytes:
				stored = string(a.B)
				if len(a.B) > 0 {
					stored = unsafe.String(&a.B[0], len(a.B))
				}
			default:
				continue
			}
			if stored == "" {
				continue
			}
			shares := func(v sqltypes.Value) bool {
				return len(v.S) > 0 && unsafe.StringData(v.S) == unsafe.StringData(stored)
			}
			wantShared := c >= 1 && c <= 5
			if shares(got[c]) != wantShared {
				t.Errorf("item %d, column %s: borrowed value shares the item's memory: %v, want %v", i, a.Name, shares(got[c]), wantShared)
			}
			if shares(want[c]) {
				t.Errorf("item %d, column %s: the copying decoder's value shares the item's memory", i, a.Name)
			}
		}
	}
}

// BenchmarkRowDecoderReadings decodes a readings row (bench/sidebyside's
// shape: int8, timestamp, three float8, text) copying its text, as a
// pulled scan must, and borrowing it, as a COPY TO's push may.
func BenchmarkRowDecoderReadings(b *testing.B) {
	tbl := &catalog.Table{ID: 3, Name: "readings", Columns: []catalog.Column{
		{Name: "sensor_id", Type: sqltypes.TypeInt8}, {Name: "ts", Type: sqltypes.TypeTimestamp},
		{Name: "celsius", Type: sqltypes.TypeFloat8}, {Name: "lat", Type: sqltypes.TypeFloat8},
		{Name: "lon", Type: sqltypes.TypeFloat8}, {Name: "note", Type: sqltypes.TypeText},
	}}
	tbl.PrimaryKey = []catalog.KeyColumn{{Column: 0}, {Column: 1}}
	tbl.AssignColumnIDs()
	attrs := tbl.RowAttrs([]sqltypes.Value{sqltypes.NewInt(7), sqltypes.NewTimestamp(757382400123456), sqltypes.NewFloat(15.27),
		sqltypes.NewFloat(40.712776), sqltypes.NewFloat(-74.005974), sqltypes.NewText("code-00042")}, 1)
	for _, borrow := range []bool{false, true} {
		b.Run(map[bool]string{false: "copy", true: "borrow"}[borrow], func(b *testing.B) {
			dec := catalog.NewRowDecoder(tbl, []int{0, 1, 2, 3, 4, 5})
			if borrow {
				dec.Borrow()
			}
			row := make([]sqltypes.Value, len(tbl.Columns))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := dec.Decode(attrs, row); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
