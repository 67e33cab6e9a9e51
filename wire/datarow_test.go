package wire

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestSendDataRowMatchesPgproto3: the DataRow sendDataRow writes into the
// send buffer is, byte for byte, pgproto3's encoding of the values
// encodeRow makes of the same row (the fast-path call's encoding, and the
// one rows were sent with before), for random rows of several types with
// NULLs and values of another kind (cast first), in text, binary and mixed
// formats, appended after what the buffer held; a row whose value does not
// cast leaves the buffer as it was.
func TestSendDataRowMatchesPgproto3(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	cols := []Column{{Type: sqltypes.TypeInt8}, {Type: sqltypes.TypeTimestamp}, {Type: sqltypes.TypeFloat8}, {Type: sqltypes.TypeText}, {Type: sqltypes.TypeBool}, {Type: sqltypes.TypeInt4}, {Type: sqltypes.TypeUnknown}}
	value := func(c int) sqltypes.Value {
		if r.IntN(5) == 0 {
			return sqltypes.Null
		}
		switch c {
		case 0:
			return sqltypes.NewInt(r.Int64() - r.Int64())
		case 1:
			return sqltypes.NewTimestamp(sqltypes.TimestampFromUnixMicro(r.Int64N(1 << 52)))
		case 2:
			return sqltypes.NewFloat(r.NormFloat64() * 1e3)
		case 3:
			return sqltypes.NewText([]string{"", "a", "some text", "名前"}[r.IntN(4)])
		case 4:
			return sqltypes.NewBool(r.IntN(2) == 0)
		case 5:
			return sqltypes.NewInt(r.Int64N(1000)) // int4 column: cast-free kind
		default:
			return sqltypes.NewFloat(1.5) // a column of unknown type: as it is
		}
	}
	c := &conn{}
	for trial := 0; trial < 2000; trial++ {
		row := make([]sqltypes.Value, len(cols))
		for i := range row {
			row[i] = value(i)
		}
		if r.IntN(10) == 0 {
			row[2] = sqltypes.NewInt(r.Int64N(100)) // an int in a float8 column: cast
		}
		var formats []int16
		switch r.IntN(3) {
		case 1:
			formats = []int16{formatBinary}
		case 2:
			for range cols {
				formats = append(formats, int16(r.IntN(2)))
			}
		}
		if err := c.encodeRow(cols, formats, row); err != nil {
			t.Fatal(err)
		}
		want, err := (&pgproto3.DataRow{Values: c.rowVals}).Encode([]byte("before"))
		if err != nil {
			t.Fatal(err)
		}
		c.wbuf, c.pending = []byte("before"), 0
		if err := c.sendDataRow(cols, formats, row); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c.wbuf, want) {
			t.Fatalf("row %v formats %v:\n got %q\nwant %q", row, formats, c.wbuf, want)
		}
		if c.pending != len(want)-len("before") {
			t.Fatalf("pending %d, want %d", c.pending, len(want)-len("before"))
		}
	}
	// A value that does not cast to its column's type: an error, and
	// nothing of the row in the buffer.
	c.wbuf = []byte("before")
	bad := []sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText("not a timestamp"), sqltypes.Null, sqltypes.Null, sqltypes.Null, sqltypes.Null, sqltypes.Null}
	if err := c.sendDataRow(cols, nil, bad); err == nil || string(c.wbuf) != "before" {
		t.Errorf("a value that does not cast: err %v, buffer %q", err, c.wbuf)
	}
	if err := c.sendDataRow(cols[:1], nil, bad); err == nil || string(c.wbuf) != "before" {
		t.Errorf("a row wider than its result: err %v, buffer %q", err, c.wbuf)
	}
}
