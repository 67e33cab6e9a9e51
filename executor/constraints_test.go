package executor

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestConstraintDetails checks the DETAIL texts of constraint errors
// against PostgreSQL's: keys as (cols)=(values), rows as (v, ...), NULL as
// null, each value of a row cut to 64 bytes at a character boundary (and "..."), hidden
// columns left out.
func TestConstraintDetails(t *testing.T) {
	tb := &catalog.Table{Name: "t", Columns: []catalog.Column{
		{Name: "a", Type: sqltypes.TypeInt4}, {Name: "b", Type: sqltypes.TypeText}, {Name: "rowid", Type: sqltypes.TypeInt8, Hidden: true},
	}}
	long := strings.Repeat("é", 40) // 80 bytes
	cases := []struct {
		name string
		got  string
		want string
	}{
		{"key", keyText(tb, []int{0, 1}, []sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText("x y"), sqltypes.NewInt(9)}), "(a, b)=(1, x y)"},
		{"key with null", keyText(tb, []int{1, 0}, []sqltypes.Value{sqltypes.NewInt(1), sqltypes.Null, sqltypes.NewInt(9)}), "(b, a)=(null, 1)"},
		{"row", rowText(tb, []sqltypes.Value{sqltypes.NewInt(4), sqltypes.NewText("z"), sqltypes.NewInt(9)}), "(4, z)"},
		{"row with null", rowText(tb, []sqltypes.Value{sqltypes.Null, sqltypes.Null, sqltypes.NewInt(9)}), "(null, null)"},
		{"long value", rowText(tb, []sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText(long), sqltypes.NewInt(9)}), "(1, " + strings.Repeat("é", 32) + "...)"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}
