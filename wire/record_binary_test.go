package wire

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestRecordBinary: record_send's layout (field count, then each field's
// type OID, length and binary value; -1 for NULL), a row value nested in
// another, and an array of row values (record[], as SEARCH and CYCLE
// return).
func TestRecordBinary(t *testing.T) {
	rec := sqltypes.NewRecord([]sqltypes.Value{sqltypes.NewInt(7), sqltypes.NewText("ab"), sqltypes.Null})
	for _, c := range []struct {
		name string
		t    sqltypes.Type
		v    sqltypes.Value
		want string
	}{
		{"fields", sqltypes.Type{ID: sqltypes.Record}, rec,
			"00000003" + "00000014" + "00000008" + "0000000000000007" + "00000019" + "00000002" + "6162" + "000002c1" + "ffffffff"},
		{"nested", sqltypes.Type{ID: sqltypes.Record}, sqltypes.NewRecord([]sqltypes.Value{sqltypes.NewRecord([]sqltypes.Value{sqltypes.NewBool(true)})}),
			"00000001" + "000008c9" + "0000000d" + "00000001" + "00000010" + "00000001" + "01"},
		{"array", sqltypes.ArrayOf(sqltypes.Type{ID: sqltypes.Record}), sqltypes.NewArray1(sqltypes.Type{ID: sqltypes.Record}, []sqltypes.Value{sqltypes.NewRecord([]sqltypes.Value{sqltypes.NewBool(false)})}),
			"00000001" + "00000000" + "000008c9" + "00000001" + "00000001" + "0000000d" + "00000001" + "00000010" + "00000001" + "00"},
	} {
		got, err := AppendBinary(nil, c.t, c.v)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, _ := hex.DecodeString(c.want)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %x, want %x", c.name, got, want)
		}
	}
}
