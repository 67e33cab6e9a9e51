package ir

import (
	"errors"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestBindParams: the parts of an expression that read only parameters
// and constants through immutable calls are computed once, and nothing
// else is: not a column, not a volatile call (whose arguments still are),
// not a part that fails (left to fail where a row's evaluation would), not
// constants alone (the binder's); the result answers as the expression
// does for every row.
func TestBindParams(t *testing.T) {
	calls := 0
	sum := func(volatile bool) func(args ...Expr) *Func {
		return func(args ...Expr) *Func {
			return &Func{Name: "sum", Args: args, Typ: sqltypes.TypeInt8, Volatile: volatile,
				Fn: func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
					calls++
					n := int64(0)
					for _, v := range a {
						if v.K != sqltypes.KindInt {
							return sqltypes.Null, errors.New("not an integer")
						}
						n += v.I
					}
					return sqltypes.NewInt(n), nil
				}}
		}
	}
	pure, volatile := sum(false), sum(true)
	p := func(n int) Expr { return &Param{N: n, Typ: sqltypes.TypeInt8} }
	k := func(i int64) Expr { return &Const{V: sqltypes.NewInt(i), Typ: sqltypes.TypeInt8} }
	col := &ColRef{Index: 0, Name: "c", Typ: sqltypes.TypeInt8}
	ctx := &EvalContext{Params: []sqltypes.Value{sqltypes.NewInt(2), sqltypes.NewInt(3), sqltypes.NewText("x")}}

	for _, c := range []struct {
		name string
		e    Expr
		want string // the bound expression's String
		// callsAtBind is how many calls binding makes.
		callsAtBind int
	}{
		{"params only", pure(p(1), pure(p(2), k(1))), "6", 2},
		{"beside a column", pure(col, pure(p(1), p(2))), "sum(c, 5)", 1},
		{"a volatile call's arguments", volatile(pure(p(1), k(4)), col), "sum(6, c)", 1},
		{"a volatile call of parameters", volatile(p(1), p(2)), "sum($1, $2)", 0},
		{"a failing part", pure(col, pure(p(3), k(1))), "sum(c, sum($3, 1))", 1},
		{"constants only", pure(col, pure(k(1), k(2))), "sum(c, sum(1, 2))", 0},
		{"a bare parameter", pure(col, p(1)), "sum(c, $1)", 0},
		{"an operator of a cast parameter", &Binary{Op: OpLt, L: col, R: &Cast{E: p(1), To: sqltypes.TypeInt8}, Typ: sqltypes.TypeBool}, "(c < 2)", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls = 0
			got := BindParams(c.e, ctx)
			if got.String() != c.want || calls != c.callsAtBind {
				t.Fatalf("BindParams(%s) = %s after %d calls, want %s after %d", c.e, got, calls, c.want, c.callsAtBind)
			}
			if got.String() == c.e.String() && got != c.e {
				t.Errorf("nothing bound, yet a copy")
			}
			for _, row := range [][]sqltypes.Value{{sqltypes.NewInt(10)}, {sqltypes.NewInt(-1)}} {
				w, werr := c.e.Eval(ctx, row)
				g, gerr := got.Eval(ctx, row)
				if (werr == nil) != (gerr == nil) || werr == nil && sqltypes.FormatText(w) != sqltypes.FormatText(g) {
					t.Errorf("row %v: bound gives %v %v, the expression %v %v", row, g, gerr, w, werr)
				}
			}
		})
	}
	if e := pure(p(1)); BindParams(e, &EvalContext{}) != e || BindParams(e, nil) != e {
		t.Error("bound without parameters")
	}
}
