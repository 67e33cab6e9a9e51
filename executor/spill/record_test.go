package spill

import (
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestCodecRecords spills records (nested, with NULL fields) and an
// oidvector: they come back printing as they did, not as arrays.
func TestCodecRecords(t *testing.T) {
	inner := sqltypes.NewRecordOf([]sqltypes.Value{sqltypes.NewText("a b"), sqltypes.Null}, []sqltypes.Type{sqltypes.TypeText, sqltypes.TypeInt4})
	rec := sqltypes.NewRecordOf([]sqltypes.Value{sqltypes.NewFloat(0.1), inner}, []sqltypes.Type{sqltypes.TypeFloat4, {ID: sqltypes.Record}})
	vec := sqltypes.NewVector(sqltypes.Type{ID: sqltypes.OidVector}, []sqltypes.Value{sqltypes.NewOID(23), sqltypes.NewOID(25)})
	row := []sqltypes.Value{rec, vec, sqltypes.NewRecordOf(nil, nil)}
	got, err := DecodeRow(AppendRow(nil, row, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range row {
		if want, back := sqltypes.FormatText(row[i]), sqltypes.FormatText(got[i]); back != want {
			t.Errorf("value %d: %q, want %q", i, back, want)
		}
	}
}
