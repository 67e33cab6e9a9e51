package ir

import (
	"math/rand"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Implication over one nullable integer column x (and y, so that clauses
// about another column are in the mix), checked against brute force: for
// every row of a small domain, whenever the clauses are all true the
// predicate must be true. The domain covers the constants the clauses use
// and one value past each end, so an interval's boundaries are all tried.
func TestImpliesAgainstBruteForce(t *testing.T) {
	x := &ColRef{Index: 0, Name: "x", Typ: sqltypes.TypeInt4}
	y := &ColRef{Index: 1, Name: "y", Typ: sqltypes.TypeInt4}
	c := func(n int) Expr { return &Const{V: sqltypes.NewInt(int64(n)), Typ: sqltypes.TypeInt4} }
	ops := []BinOp{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe}
	rng := rand.New(rand.NewSource(1))
	var atom func() Expr
	atom = func() Expr {
		col := Expr(x)
		if rng.Intn(4) == 0 {
			col = y
		}
		switch rng.Intn(7) {
		case 0:
			return &IsNull{E: col, Neg: rng.Intn(2) == 0}
		case 1:
			list := []Expr{c(rng.Intn(7) - 3), c(rng.Intn(7) - 3)}
			return NewInList(col, list, false)
		case 2:
			// The constant first: x op c written c op' x.
			return &Binary{Op: ops[rng.Intn(len(ops))], L: c(rng.Intn(7) - 3), R: col, Typ: sqltypes.TypeBool}
		}
		return &Binary{Op: ops[rng.Intn(len(ops))], L: col, R: c(rng.Intn(7) - 3), Typ: sqltypes.TypeBool}
	}
	var gen func(depth int) Expr
	gen = func(depth int) Expr {
		if depth == 0 || rng.Intn(3) > 0 {
			return atom()
		}
		op := OpAnd
		if rng.Intn(2) == 0 {
			op = OpOr
		}
		return &Binary{Op: op, L: gen(depth - 1), R: gen(depth - 1), Typ: sqltypes.TypeBool}
	}
	var domain []sqltypes.Value
	domain = append(domain, sqltypes.Null)
	for v := -5; v <= 5; v++ {
		domain = append(domain, sqltypes.NewInt(int64(v)))
	}
	truth := func(e Expr, row []sqltypes.Value) bool {
		v, err := e.Eval(&EvalContext{}, row)
		if err != nil {
			t.Fatalf("%s: %v", e, err)
		}
		return !v.IsNull() && v.Bool()
	}
	proved := 0
	for i := 0; i < 20000; i++ {
		clauses := []Expr{gen(2)}
		if rng.Intn(2) == 0 {
			clauses = append(clauses, gen(1))
		}
		pred := gen(2)
		if !Implies(clauses, pred, nil) {
			continue
		}
		proved++
		for _, xv := range domain {
			for _, yv := range domain {
				row := []sqltypes.Value{xv, yv}
				all := true
				for _, cl := range clauses {
					all = all && truth(cl, row)
				}
				if all && !truth(pred, row) {
					t.Fatalf("Implies(%v, %s) is true, but x=%s y=%s satisfies the clauses and not the predicate",
						clauses, pred, sqltypes.FormatText(xv), sqltypes.FormatText(yv))
				}
			}
		}
	}
	// The test is worth something only if it proves many implications.
	if proved < 1000 {
		t.Fatalf("only %d of 20000 random implications proved", proved)
	}
}

// TestImpliesCases lists implications PostgreSQL's predtest.c proves (and
// some it does not), one per rule.
func TestImpliesCases(t *testing.T) {
	x := &ColRef{Index: 0, Name: "x", Typ: sqltypes.TypeInt4}
	d := &ColRef{Index: 1, Name: "d", Typ: sqltypes.TypeTimestampTZ}
	c := func(n int) Expr { return &Const{V: sqltypes.NewInt(int64(n)), Typ: sqltypes.TypeInt4} }
	cmp := func(op BinOp, l, r Expr) Expr { return &Binary{Op: op, L: l, R: r, Typ: sqltypes.TypeBool} }
	and := func(a, b Expr) Expr { return &Binary{Op: OpAnd, L: a, R: b, Typ: sqltypes.TypeBool} }
	or := func(a, b Expr) Expr { return &Binary{Op: OpOr, L: a, R: b, Typ: sqltypes.TypeBool} }
	dead := &IsNull{E: d}
	for i, tc := range []struct {
		clauses []Expr
		pred    Expr
		want    bool
	}{
		{[]Expr{dead}, dead, true},
		{[]Expr{cmp(OpGt, x, c(5)), dead}, and(dead, cmp(OpGt, x, c(0))), true},
		{[]Expr{cmp(OpGt, x, c(-5)), dead}, and(dead, cmp(OpGt, x, c(0))), false},
		{[]Expr{cmp(OpEq, x, c(3))}, &IsNull{E: x, Neg: true}, true},
		{[]Expr{cmp(OpEq, x, c(3))}, NewInList(x, []Expr{c(1), c(3)}, false), true},
		{[]Expr{NewInList(x, []Expr{c(1), c(3)}, false)}, cmp(OpGe, x, c(1)), true},
		{[]Expr{NewInList(x, []Expr{c(1), c(3)}, false)}, cmp(OpGt, x, c(1)), false},
		{[]Expr{or(cmp(OpEq, x, c(3)), cmp(OpEq, x, c(7)))}, cmp(OpGt, x, c(0)), true},
		{[]Expr{cmp(OpLt, c(2), x)}, cmp(OpNe, x, c(1)), true},
		{[]Expr{cmp(OpLe, x, c(2))}, or(cmp(OpLt, x, c(0)), cmp(OpLt, x, c(3))), true},
		{[]Expr{dead}, &IsNull{E: d, Neg: true}, false},
	} {
		if got := Implies(tc.clauses, tc.pred, nil); got != tc.want {
			t.Errorf("%d: Implies(%v, %s) = %v, want %v", i, tc.clauses, tc.pred, got, tc.want)
		}
	}
}
