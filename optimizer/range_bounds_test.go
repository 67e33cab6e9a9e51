package optimizer

import (
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// TestRangeOperatorSet: the part of a range column's order that a
// containment or overlap with a constant can match, and that every
// matching range lies in it.
func TestRangeOperatorSet(t *testing.T) {
	r4 := sqltypes.Type{ID: sqltypes.Int4Range}
	rng := func(s string) sqltypes.Value {
		v, err := sqltypes.ParseText(r4, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	col := &ir.ColRef{Index: 2, Name: "r", Typ: r4}
	cases := []struct {
		op      string
		colLeft bool
		other   *ir.Const
		want    string // the set's interval, "none" for no rows, "" for no bound
	}{
		{"@>", true, &ir.Const{V: sqltypes.NewInt(10), Typ: sqltypes.TypeInt4}, "(empty, [10,)]"},
		{"<@", false, &ir.Const{V: sqltypes.NewInt(10), Typ: sqltypes.TypeInt4}, "(empty, [10,)]"},
		{"@>", true, &ir.Const{V: rng("[3,7)"), Typ: r4}, "(empty, [3,)]"},
		{"@>", true, &ir.Const{V: rng("(,7)"), Typ: r4}, "(empty, (,)]"},
		{"@>", true, &ir.Const{V: rng("empty"), Typ: r4}, ""},
		{"&&", true, &ir.Const{V: rng("[3,7)"), Typ: r4}, "(empty, [7,))"},
		{"&&", true, &ir.Const{V: rng("[3,)"), Typ: r4}, "(empty, +inf)"},
		{"&&", true, &ir.Const{V: rng("empty"), Typ: r4}, "none"},
		{"@>", true, &ir.Const{V: sqltypes.Null, Typ: sqltypes.TypeInt4}, "none"},
		{"<@", true, &ir.Const{V: rng("[3,7)"), Typ: r4}, ""},
	}
	for _, c := range cases {
		args := []ir.Expr{col, c.other}
		if !c.colLeft {
			args = []ir.Expr{c.other, col}
		}
		f := &ir.Func{Name: c.op, Args: args, Typ: sqltypes.TypeBool, Infix: true}
		_, set, ok := rangeOperatorSet(f, &ir.EvalContext{})
		got := ""
		switch {
		case !ok:
		case len(set) == 0:
			got = "none"
		default:
			iv := set[0]
			lo, hi := "[", "]"
			if !iv.LoInc {
				lo = "("
			}
			if !iv.HiInc {
				hi = ")"
			}
			got = lo + sqltypes.FormatText(iv.Lo) + ", " + sqltypes.FormatText(iv.Hi) + hi
			if iv.HiUnb {
				got = lo + sqltypes.FormatText(iv.Lo) + ", +inf)"
			}
		}
		if got != c.want {
			t.Errorf("%s %s (col left %v): %q, want %q", c.op, sqltypes.FormatText(c.other.V), c.colLeft, got, c.want)
		}
	}
}
