package planner

import (
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// TestMemoize: a call site answers repeated calls with the same arguments
// in the same execution from its last result, and computes anew for other
// arguments or another execution's context.
func TestMemoize(t *testing.T) {
	calls := 0
	fn := memoize(func(_ *ir.EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		calls++
		return sqltypes.NewText(a[0].S + "!"), nil
	})
	ctx1, ctx2 := &ir.EvalContext{}, &ir.EvalContext{}
	steps := []struct {
		ctx   *ir.EvalContext
		arg   sqltypes.Value
		want  string
		calls int
	}{
		{ctx1, sqltypes.NewText("a"), "a!", 1},
		{ctx1, sqltypes.NewText("a"), "a!", 1},
		{ctx1, sqltypes.NewText("b"), "b!", 2},
		{ctx1, sqltypes.NewBytes([]byte("b")), "b!", 3}, // another kind
		{ctx2, sqltypes.NewBytes([]byte("b")), "b!", 4}, // another execution
		{ctx2, sqltypes.NewBytes([]byte("b")), "b!", 4},
	}
	for i, s := range steps {
		v, err := fn(s.ctx, []sqltypes.Value{s.arg})
		if err != nil || v.S != s.want || calls != s.calls {
			t.Fatalf("step %d: %q, %v, %d calls; want %q, %d calls", i, v.S, err, calls, s.want, s.calls)
		}
	}
}

// TestExecConstantArgs: calls of parameters are memoized, calls reading a
// column or a volatile function are not, calls of constants are folded.
func TestExecConstantArgs(t *testing.T) {
	c := &ir.Const{V: sqltypes.NewInt(1), Typ: sqltypes.TypeInt4}
	p := &ir.Param{N: 1, Typ: sqltypes.TypeText}
	col := &ir.ColRef{Index: 0, Typ: sqltypes.TypeText}
	pure := &ir.Func{Name: "f", Args: []ir.Expr{p, c}}
	volatile := &ir.Func{Name: "g", Args: []ir.Expr{p}, Volatile: true}
	for _, tc := range []struct {
		args []ir.Expr
		want bool
	}{
		{[]ir.Expr{p, c}, true},
		{[]ir.Expr{pure, c}, true},
		{[]ir.Expr{&ir.Cast{E: p, To: sqltypes.TypeInt4}}, true},
		{[]ir.Expr{c, c}, false},
		{[]ir.Expr{col, p}, false},
		{[]ir.Expr{volatile}, false},
		{[]ir.Expr{&ir.Func{Name: "h", Args: []ir.Expr{col}}}, false},
	} {
		if got := execConstantArgs(tc.args); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.args, got, tc.want)
		}
	}
}
