package catalog_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// scalarsOf is what kv/pebble's ScalarIterator reads of attrs for the
// request names/ids: each slot's attribute by ID, absent when the item has
// none, and false (the scan reads the item in general) when the attribute
// under a slot's ID has another name.
func scalarsOf(attrs []kv.Attr, names []string, ids []uint16) ([]kv.Scalar, bool) {
	sc := make([]kv.Scalar, len(ids))
	for j, id := range ids {
		for _, a := range attrs {
			if a.ID != id {
				continue
			}
			if a.Name != names[j] {
				return nil, false
			}
			sc[j] = kv.Scalar{Kind: a.Kind, Present: true, I: a.I, F: a.F, B: []byte(a.S)}
			if a.Kind == kv.AttrBytes {
				sc[j].B = a.B
			}
		}
	}
	return sc, true
}

// TestDecodeScalarsMatchesDecode: a row decoded from its scalars
// (DecodeScalars, DecodeScalarsAliasing) equals the row Decode and
// DecodeAliasing make of the same item's attributes, for random rows of
// every column kind the decoder treats apart (direct integers, floats,
// timestamps and dates; text, repeated or not; numeric, bool, bytea;
// NULLs), random column subsets, and items written before a column was
// added (Column.Missing).
func TestDecodeScalarsMatchesDecode(t *testing.T) {
	tbl := &catalog.Table{ID: 3, Name: "t", Columns: []catalog.Column{
		{Name: "id", Type: sqltypes.TypeInt8},
		{Name: "name", Type: sqltypes.TypeText},
		{Name: "score", Type: sqltypes.TypeFloat8},
		{Name: "at", Type: sqltypes.TypeTimestamp},
		{Name: "day", Type: sqltypes.TypeDate},
		{Name: "renamed", Attr: "old", Type: sqltypes.TypeInt4},
		{Name: "amount", Type: sqltypes.TypeNumeric},
		{Name: "ok", Type: sqltypes.TypeBool},
		{Name: "blob", Type: sqltypes.TypeBytea},
		{Name: "added", Type: sqltypes.TypeInt8, Missing: "42"},
	}}
	tbl.PrimaryKey = []catalog.KeyColumn{{Column: 0}}
	tbl.AssignColumnIDs()
	r := rand.New(rand.NewPCG(5, 6))
	value := func(c int) sqltypes.Value {
		if c > 0 && r.IntN(5) == 0 {
			return sqltypes.Null
		}
		switch c {
		case 0, 5, 9:
			return sqltypes.NewInt(r.Int64N(1000) - 500)
		case 1:
			return sqltypes.NewText(fmt.Sprintf("n%d", r.IntN(3)))
		case 2:
			return sqltypes.NewFloat(r.NormFloat64())
		case 3:
			return sqltypes.NewTimestamp(r.Int64N(1 << 50))
		case 4:
			return sqltypes.NewDate(r.Int64N(40000))
		case 6:
			v, err := sqltypes.ParseNumeric(fmt.Sprintf("%d.%02d", r.IntN(1000), r.IntN(100)))
			if err != nil {
				t.Fatal(err)
			}
			return v
		case 7:
			return sqltypes.NewBool(r.IntN(2) == 0)
		default:
			return sqltypes.NewBytes([]byte(fmt.Sprintf("b%d", r.IntN(10))))
		}
	}
	for trial := 0; trial < 100; trial++ {
		var cols []int
		for c := range tbl.Columns {
			if r.IntN(2) == 0 {
				cols = append(cols, c)
			}
		}
		// One pair of decoders over many rows: text copies kept from the
		// row before (RowDecoder.last) are exercised on both.
		general, scalar := catalog.NewRowDecoder(tbl, cols), catalog.NewRowDecoder(tbl, cols)
		names, ids := scalar.AttrNames(true)
		for item := 0; item < 20; item++ {
			row := make([]sqltypes.Value, len(tbl.Columns))
			for c := range row {
				row[c] = value(c)
			}
			attrs := tbl.RowAttrs(row, 1)
			if r.IntN(5) == 0 {
				// Written before "added": without its attribute.
				kept := attrs[:0]
				for _, a := range attrs {
					if a.ID != tbl.Columns[9].ID {
						kept = append(kept, a)
					}
				}
				attrs = kept
			}
			sc, ok := scalarsOf(attrs, names, ids)
			if !ok {
				t.Fatalf("a row's own attributes not read as scalars")
			}
			for _, aliasing := range []bool{false, true} {
				want := make([]sqltypes.Value, len(tbl.Columns))
				got := make([]sqltypes.Value, len(tbl.Columns))
				for c := range got {
					got[c] = sqltypes.NewText("garbage from the last row")
				}
				var errW, errG error
				if aliasing {
					errW, errG = general.DecodeAliasing(attrs, want), scalar.DecodeScalarsAliasing(sc, got)
				} else {
					errW, errG = general.Decode(attrs, want), scalar.DecodeScalars(sc, got)
				}
				if errW != nil || errG != nil {
					t.Fatalf("cols %v: errors %v, %v", cols, errW, errG)
				}
				for c := range want {
					if got[c].K != want[c].K || (!want[c].IsNull() && !sqltypes.Equal(got[c], want[c])) {
						t.Fatalf("cols %v, aliasing %v, column %s: got %v, want %v", cols, aliasing, tbl.Columns[c].Name, got[c], want[c])
					}
				}
			}
		}
	}
	if err := catalog.NewRowDecoder(tbl, []int{0, 1}).DecodeScalars(make([]kv.Scalar, 3), make([]sqltypes.Value, len(tbl.Columns))); err == nil {
		t.Error("slots that are not the decoder's columns accepted")
	}
}
