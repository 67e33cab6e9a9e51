package executor

import (
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"

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
	key := func(cols []int, row []sqltypes.Value, vis pgerr.ColumnVisibility) string {
		return keyDetail(tb, cols, row, "Key %s.")(vis, nil)
	}
	row := func(r []sqltypes.Value, vis pgerr.ColumnVisibility) string { return rowDetail(tb, r)(vis, nil) }
	only := func(v ...pgerr.Visibility) pgerr.ColumnVisibility {
		return func(_ uint64, col int) pgerr.Visibility { return v[col] }
	}
	r1 := []sqltypes.Value{sqltypes.NewInt(4), sqltypes.NewText("z"), sqltypes.NewInt(9)}
	cases := []struct {
		name string
		got  string
		want string
	}{
		{"key", key([]int{0, 1}, []sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText("x y"), sqltypes.NewInt(9)}, nil), "Key (a, b)=(1, x y)."},
		{"key with null", key([]int{1, 0}, []sqltypes.Value{sqltypes.NewInt(1), sqltypes.Null, sqltypes.NewInt(9)}, nil), "Key (b, a)=(null, 1)."},
		{"row", row(r1, nil), "Failing row contains (4, z)."},
		{"row with null", row([]sqltypes.Value{sqltypes.Null, sqltypes.Null, sqltypes.NewInt(9)}, nil), "Failing row contains (null, null)."},
		{"long value", row([]sqltypes.Value{sqltypes.NewInt(1), sqltypes.NewText(long), sqltypes.NewInt(9)}, nil), "Failing row contains (1, " + strings.Repeat("é", 32) + "...)."},
		// What a role may not read stays out (ExecBuildSlotValueDescription).
		{"row, b hidden", row(r1, only(pgerr.Readable, pgerr.Hidden, pgerr.Hidden)), "Failing row contains (a) = (4)."},
		{"row, b written", row(r1, only(pgerr.Hidden, pgerr.Written, pgerr.Hidden)), "Failing row contains (b) = (z)."},
		{"row, nothing visible", row(r1, only(pgerr.Hidden, pgerr.Hidden, pgerr.Hidden)), ""},
		{"key, a written only", key([]int{0}, r1, only(pgerr.Written, pgerr.Readable, pgerr.Hidden)), ""},
		{"key, readable", key([]int{0}, r1, only(pgerr.Readable, pgerr.Hidden, pgerr.Hidden)), "Key (a)=(4)."},
	}
	// In the session's output settings, as PostgreSQL 15 prints them
	// under DateStyle 'SQL, DMY', extra_float_digits -5 and bytea_output
	// escape.
	styled := &catalog.Table{Name: "s", Columns: []catalog.Column{
		{Name: "d", Type: sqltypes.TypeDate}, {Name: "f", Type: sqltypes.TypeFloat8}, {Name: "b", Type: sqltypes.TypeBytea},
	}}
	style := sqltypes.Style{Date: sqltypes.DateStyleSQL, Order: sqltypes.DateOrderDMY, RoundFloats: true, ExtraFloatDigits: -5, ByteaEscape: true}
	r2 := []sqltypes.Value{sqltypes.NewDate(19786), sqltypes.NewFloat(1.0 / 3), sqltypes.NewBytes([]byte{0})}
	cases = append(cases,
		struct{ name, got, want string }{"key, styled", keyDetail(styled, []int{0, 1, 2}, r2, "Key %s already exists.")(nil, style), `Key (d, f, b)=(04/03/2024, 0.3333333333, \000) already exists.`},
		struct{ name, got, want string }{"row, styled", rowDetail(styled, r2)(nil, style), `Failing row contains (04/03/2024, 0.3333333333, \000).`},
		struct{ name, got, want string }{"row, default", rowDetail(styled, r2)(nil, nil), `Failing row contains (2024-03-04, 0.3333333333333333, \x00).`},
	)
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}
