package catalog

import (
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// TestRowDecoderDirect: the columns whose usual attribute a RowDecoder
// converts inline (RowDecoder.kinds) are the integer, date, float and
// timestamp ones, and every attribute such a column may hold decodes as
// attrValue converts it, whether of the usual kind (infinite timestamps
// included) or not (a float, string or NULL attribute).
func TestRowDecoderDirect(t *testing.T) {
	tbl := &Table{ID: 3, Name: "t", Columns: []Column{
		{Name: "i", Type: sqltypes.TypeInt8}, {Name: "d", Type: sqltypes.TypeDate}, {Name: "f", Type: sqltypes.TypeFloat8},
		{Name: "ts", Type: sqltypes.TypeTimestamp}, {Name: "tz", Type: sqltypes.TypeTimestampTZ}, {Name: "s", Type: sqltypes.TypeText},
		{Name: "n", Type: sqltypes.TypeNumeric},
	}}
	dec := NewRowDecoder(tbl, []int{0, 1, 2, 3, 4, 5, 6})
	want := []sqltypes.Kind{sqltypes.KindInt, sqltypes.KindDate, sqltypes.KindFloat, sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindNull, sqltypes.KindNull}
	for c, k := range want {
		if dec.kinds[c] != k {
			t.Errorf("column %s: direct kind %d, want %d", tbl.Columns[c].Name, dec.kinds[c], k)
		}
	}
	attrs := []kv.Attr{
		{Kind: kv.AttrInt, I: -7}, {Kind: kv.AttrInt, I: 1 << 40}, {Kind: kv.AttrInt, I: 0},
		{Kind: kv.AttrInt, I: sqltypes.TimestampInfinity}, {Kind: kv.AttrInt, I: sqltypes.TimestampNegInfinity},
		{Kind: kv.AttrFloat, F: 2.5}, {Kind: kv.AttrFloat, F: 86400e6}, {Kind: kv.AttrString, S: "12"}, {Kind: kv.AttrNull},
	}
	for c, col := range tbl.Columns {
		for _, a := range attrs {
			a.Name = col.Name
			exp, expErr := attrValue(&a, col.Type, false)
			row := make([]sqltypes.Value, len(tbl.Columns))
			err := dec.Decode([]kv.Attr{a}, row)
			if (err == nil) != (expErr == nil) || err == nil && (row[c].K != exp.K || row[c].I != exp.I || row[c].F != exp.F || row[c].S != exp.S) {
				t.Errorf("column %s, attribute %+v: decoded %+v (%v), attrValue %+v (%v)", col.Name, a, row[c], err, exp, expErr)
			}
		}
	}
}

// readingsTable is bench/sidebyside's readings table: int8, timestamp,
// three float8, text.
func readingsTable() *Table {
	tbl := &Table{ID: 3, Name: "readings", Columns: []Column{
		{Name: "sensor_id", Type: sqltypes.TypeInt8}, {Name: "ts", Type: sqltypes.TypeTimestamp},
		{Name: "celsius", Type: sqltypes.TypeFloat8}, {Name: "lat", Type: sqltypes.TypeFloat8},
		{Name: "lon", Type: sqltypes.TypeFloat8}, {Name: "note", Type: sqltypes.TypeText},
	}}
	tbl.PrimaryKey = []KeyColumn{{Column: 0}, {Column: 1}}
	tbl.AssignColumnIDs()
	return tbl
}

// BenchmarkRowDecoderReadings decodes a readings row (bench/sidebyside's
// shape: int8, timestamp, three float8, text).
func BenchmarkRowDecoderReadings(b *testing.B) {
	tbl := readingsTable()
	attrs := tbl.RowAttrs([]sqltypes.Value{sqltypes.NewInt(7), sqltypes.NewTimestamp(757382400123456), sqltypes.NewFloat(15.27),
		sqltypes.NewFloat(40.712776), sqltypes.NewFloat(-74.005974), sqltypes.NewText("code-00042")}, 1)
	dec := NewRowDecoder(tbl, []int{0, 1, 2, 3, 4, 5})
	row := make([]sqltypes.Value, len(tbl.Columns))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := dec.Decode(attrs, row); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeScalarsReadings decodes a readings index entry's scalars
// (kv.ScalarIterator) as the box classes' scans do: the 2-D box's
// sensor_id, ts and celsius, and the aggregate's celsius.
func BenchmarkDecodeScalarsReadings(b *testing.B) {
	tbl := readingsTable()
	for _, c := range []struct {
		name string
		cols []int
		sc   []kv.Scalar
	}{
		{"2-D", []int{0, 1, 2}, []kv.Scalar{{Kind: kv.AttrInt, Present: true, I: 7}, {Kind: kv.AttrInt, Present: true, I: 757382400123456}, {Kind: kv.AttrFloat, Present: true, F: 15.27}}},
		{"aggregate", []int{2}, []kv.Scalar{{Kind: kv.AttrFloat, Present: true, F: 15.27}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			dec := NewRowDecoder(tbl, c.cols)
			row := make([]sqltypes.Value, len(tbl.Columns))
			for b.Loop() {
				if err := dec.DecodeScalars(c.sc, row); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
