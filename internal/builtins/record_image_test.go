package builtins

import (
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The images' order where it is not the types' own: sign-extended words
// read unsigned, numeric's stored form (its scale, the long header past
// the short one's weight), and a type without an image is 0A000.
func TestRecordImageCompare(t *testing.T) {
	num := func(s string) sqltypes.Value {
		v, err := sqltypes.ParseText(sqltypes.TypeNumeric, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	rec := func(v sqltypes.Value) *sqltypes.ArrayValue { return sqltypes.NewRecord([]sqltypes.Value{v}).Array() }
	for _, c := range []struct {
		typ  sqltypes.Type
		l, r sqltypes.Value
		want int
	}{
		{sqltypes.TypeInt4, sqltypes.NewInt(-1), sqltypes.NewInt(1), 1},
		{sqltypes.TypeInt4, sqltypes.NewInt(256), sqltypes.NewInt(1), 1},
		{sqltypes.TypeNumeric, num("1.0"), num("1.00"), 1},
		{sqltypes.TypeNumeric, num("1.0"), num("1.0"), 0},
		{sqltypes.TypeNumeric, num("1e300"), num("1e300"), 0},
		{sqltypes.TypeNumeric, num("1e300"), num("2e300"), -1},
		{sqltypes.TypeNumeric, num("0.00001"), num("1e-300"), 1},
		{sqltypes.TypeNumeric, num("NaN"), num("0"), 1},
		{sqltypes.TypeText, sqltypes.NewText("ab"), sqltypes.NewText("a"), 1},
	} {
		types := []sqltypes.Type{c.typ}
		got, err := RecordImageCompare(rec(c.l), rec(c.r), types, types)
		if err != nil || got != c.want {
			t.Errorf("%s: (%v) vs (%v) = %d, %v; want %d", c.typ, c.l, c.r, got, err, c.want)
		}
	}
	jsonb := []sqltypes.Type{sqltypes.TypeJSONB}
	v := sqltypes.NewRecord([]sqltypes.Value{sqltypes.NewText("{}")}).Array()
	if _, err := RecordImageCompare(v, v, jsonb, jsonb); pgerr.CodeOf(err) != pgerr.FeatureNotSupported {
		t.Errorf("jsonb field: %v, want 0A000", err)
	}
}
