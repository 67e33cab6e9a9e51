package ir

import (
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

func TestLikePrefix(t *testing.T) {
	cases := []struct {
		pat, prefix string
		only        bool
	}{
		{"abc%", "abc", true},
		{"abc", "abc", false},
		{"ab%c", "ab", false},
		{"a_c%", "a", false},
		{`a\%b%`, "a%b", true},
		{"%x", "", false},
	}
	for _, c := range cases {
		p, only := LikePrefix(c.pat, '\\')
		if p != c.prefix || only != c.only {
			t.Errorf("LikePrefix(%q) = %q, %v; want %q, %v", c.pat, p, only, c.prefix, c.only)
		}
	}
}

func TestThreeValuedLogic(t *testing.T) {
	T := &Const{V: sqltypes.NewBool(true), Typ: sqltypes.TypeBool}
	F := &Const{V: sqltypes.NewBool(false), Typ: sqltypes.TypeBool}
	N := &Const{V: sqltypes.Null, Typ: sqltypes.TypeBool}
	str := func(v sqltypes.Value) string {
		if v.IsNull() {
			return "NULL"
		}
		return sqltypes.FormatText(v)
	}
	cases := []struct {
		e    Expr
		want string
	}{
		{&Binary{Op: OpAnd, L: N, R: F, Typ: sqltypes.TypeBool}, "f"},
		{&Binary{Op: OpAnd, L: N, R: T, Typ: sqltypes.TypeBool}, "NULL"},
		{&Binary{Op: OpOr, L: N, R: T, Typ: sqltypes.TypeBool}, "t"},
		{&Binary{Op: OpOr, L: N, R: F, Typ: sqltypes.TypeBool}, "NULL"},
		{&Not{E: N}, "NULL"},
		{&InList{E: &Const{V: sqltypes.NewInt(1)}, List: []Expr{&Const{V: sqltypes.NewInt(2)}, N}}, "NULL"},
		{&InList{E: &Const{V: sqltypes.NewInt(1)}, List: []Expr{&Const{V: sqltypes.NewInt(1)}, N}}, "t"},
		{&InList{E: &Const{V: sqltypes.NewInt(1)}, List: []Expr{&Const{V: sqltypes.NewInt(2)}}, Neg: true}, "t"},
		{&IsNull{E: N}, "t"},
		{&Binary{Op: OpEq, L: N, R: N, Typ: sqltypes.TypeBool}, "NULL"},
	}
	for _, c := range cases {
		v, err := c.e.Eval(&EvalContext{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.e, err)
		}
		if got := str(v); got != c.want {
			t.Errorf("%s = %s, want %s", c.e, got, c.want)
		}
	}
}

// TestWalkOrder checks Walk's in-place child pushes against the order
// Children gives: parents first, children left to right, nil ones skipped,
// over every kind of expression with children, nested past Walk's own
// stack.
func TestWalkOrder(t *testing.T) {
	leaf := func(i int) Expr { return &ColRef{Index: i} }
	n := 0
	next := func() Expr { n++; return leaf(n) }
	var deep Expr = next()
	for i := 0; i < 40; i++ {
		deep = &Binary{Op: "+", L: deep, R: &Not{E: next()}}
	}
	e := &Func{Name: "f", Args: []Expr{
		&InList{E: next(), List: []Expr{next(), &Neg{E: next()}, nil, next()}},
		&Like{E: next(), Pattern: &Cast{E: next()}},
		&IsNull{E: &RowExpr{Items: []Expr{next(), next()}}},
		&Subquery{Left: next()}, &Subquery{},
		deep,
	}}
	var want []Expr
	var ref func(Expr)
	ref = func(x Expr) {
		want = append(want, x)
		for _, k := range Children(x) {
			if k != nil {
				ref(k)
			}
		}
	}
	ref(e)
	var got []Expr
	Walk(e, func(x Expr) { got = append(got, x) })
	if len(got) != len(want) {
		t.Fatalf("Walk visited %d expressions, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("Walk's visit %d is %#v, want %#v", i, got[i], want[i])
		}
	}
}

// TestFuncEvalWithReusesArgs checks that EvalWith gives Eval's value and
// allocates nothing for its arguments: a nearest-neighbour search
// evaluates its distance so for every entry it reads.
func TestFuncEvalWithReusesArgs(t *testing.T) {
	f := &Func{Name: "-", Args: []Expr{&ColRef{Index: 0}, &ColRef{Index: 1}}, Fn: func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewFloat(a[0].F - a[1].F), nil
	}}
	row := []sqltypes.Value{sqltypes.NewFloat(5), sqltypes.NewFloat(3)}
	want, err := f.Eval(nil, row)
	if err != nil {
		t.Fatal(err)
	}
	args := make([]sqltypes.Value, len(f.Args))
	got, err := f.EvalWith(nil, row, args)
	if err != nil || sqltypes.Compare(got, want) != 0 {
		t.Fatalf("EvalWith = %v, %v; Eval = %v", got, err, want)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = f.EvalWith(nil, row, args) }); n != 0 {
		t.Fatalf("EvalWith allocates %v a call, want 0", n)
	}
}

// TestFuncEvalFixedSkipsTheFixedArgument: EvalFixed gives the value Eval
// gives when the fixed argument's value is the one its expression has,
// without evaluating that expression, and fixes nothing at -1.
func TestFuncEvalFixedSkipsTheFixedArgument(t *testing.T) {
	calls := 0
	centre := &Func{Name: "c", Fn: func(*EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
		calls++
		return sqltypes.NewFloat(3), nil
	}}
	f := &Func{Name: "-", Args: []Expr{&ColRef{Index: 0}, centre}, Fn: func(_ *EvalContext, a []sqltypes.Value) (sqltypes.Value, error) {
		return sqltypes.NewFloat(a[0].F - a[1].F), nil
	}}
	row := []sqltypes.Value{sqltypes.NewFloat(5)}
	args := make([]sqltypes.Value, 2)
	for _, c := range []struct {
		fixed     int
		v         sqltypes.Value
		want      float64
		evaluated int
	}{{1, sqltypes.NewFloat(3), 2, 0}, {1, sqltypes.NewFloat(1), 4, 0}, {-1, sqltypes.NewFloat(1), 2, 1}} {
		calls = 0
		got, err := f.EvalFixed(nil, row, args, c.fixed, c.v)
		if err != nil || got.F != c.want || calls != c.evaluated {
			t.Fatalf("EvalFixed(fixed %d, %v) = %v, %v with %d evaluations of the centre; want %v, %d", c.fixed, c.v.F, got.F, err, calls, c.want, c.evaluated)
		}
	}
}
