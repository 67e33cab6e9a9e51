package ir

import (
	"strconv"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// The implication test a partial index needs (the optimizer's choice of
// a partial index, ON CONFLICT's inference of one) (PostgreSQL's predtest.c):
// a query may read a partial index only when its WHERE clause implies the
// index's predicate, that is, every row the query keeps satisfies it. The
// test is sound and incomplete: it proves implication by structure (AND
// and OR on either side), by equal clauses, by strictness (a comparison of
// x proves x IS NOT NULL) and by the order of constants compared with one
// expression (x > 5 proves x > 3 and x <> 2), and otherwise answers no.

// Implies reports whether the conjuncts of a WHERE clause, all
// true for a row, imply pred. Constants and parameters of the clauses are
// evaluated with ctx (the execution's values).
func Implies(conjuncts []Expr, pred Expr, ctx *EvalContext) bool {
	t := implTester{ctx: ctx}
	if b, ok := pred.(*Binary); ok && b.Op == OpAnd {
		return Implies(conjuncts, b.L, ctx) && Implies(conjuncts, b.R, ctx)
	}
	for _, c := range conjuncts {
		if t.implies(c, pred) {
			return true
		}
	}
	if b, ok := pred.(*Binary); ok && b.Op == OpOr {
		return Implies(conjuncts, b.L, ctx) || Implies(conjuncts, b.R, ctx)
	}
	return false
}

type implTester struct{ ctx *EvalContext }

// implies reports whether clause c, true for a row, proves p for it.
func (t implTester) implies(c, p Expr) bool {
	if b, ok := p.(*Binary); ok && b.Op == OpAnd {
		return t.implies(c, b.L) && t.implies(c, b.R)
	}
	if b, ok := c.(*Binary); ok && b.Op == OpOr {
		return t.implies(b.L, p) && t.implies(b.R, p)
	}
	if b, ok := c.(*Binary); ok && b.Op == OpAnd {
		if t.implies(b.L, p) || t.implies(b.R, p) {
			return true
		}
	}
	if b, ok := p.(*Binary); ok && b.Op == OpOr {
		return t.implies(c, b.L) || t.implies(c, b.R)
	}
	return t.atomImplies(c, p)
}

// atomImplies tests two clauses that are neither AND nor OR.
func (t implTester) atomImplies(c, p Expr) bool {
	if ExprKey(c) == ExprKey(p) {
		return true
	}
	// x IS NOT NULL follows from any strict test of x.
	if n, ok := p.(*IsNull); ok && n.Neg {
		return t.strictOn(c, ExprKey(n.E))
	}
	pc, pok := t.comparison(p)
	if in, ok := c.(*InList); ok && !in.Neg && pok {
		// Every listed value must satisfy p.
		key := ExprKey(in.E)
		if key != pc.key {
			return false
		}
		for _, it := range in.List {
			v, ok := t.constant(it)
			if !ok || v.IsNull() || !cmpImplies(OpEq, v, pc.op, pc.c) {
				return false
			}
		}
		return len(in.List) > 0
	}
	cc, cok := t.comparison(c)
	if !cok {
		return false
	}
	if in, ok := p.(*InList); ok && !in.Neg && cc.op == OpEq && ExprKey(in.E) == cc.key {
		for _, it := range in.List {
			if v, ok := t.constant(it); ok && sameKind(v, cc.c) && sqltypes.Compare(v, cc.c) == 0 {
				return true
			}
		}
		return false
	}
	return pok && cc.key == pc.key && cmpImplies(cc.op, cc.c, pc.op, pc.c)
}

// strictOn reports whether clause c is never true when the expression
// whose key is key is NULL.
func (t implTester) strictOn(c Expr, key string) bool {
	switch x := c.(type) {
	case *IsNull:
		return x.Neg && ExprKey(x.E) == key
	case *Binary:
		switch x.Op {
		case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
			return ExprKey(x.L) == key || ExprKey(x.R) == key
		}
	case *InList:
		return ExprKey(x.E) == key
	case *Like:
		return ExprKey(x.E) == key
	}
	return false
}

// cmpAtom is "x op c" with c a constant of the execution.
type cmpAtom struct {
	key string
	op  BinOp
	c   sqltypes.Value
}

// comparison reads e as x op constant (commuting constant op x).
func (t implTester) comparison(e Expr) (cmpAtom, bool) {
	b, ok := e.(*Binary)
	if !ok {
		return cmpAtom{}, false
	}
	switch b.Op {
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
	default:
		return cmpAtom{}, false
	}
	if v, ok := t.constant(b.R); ok && !IsConstant(b.L) {
		return cmpAtom{key: ExprKey(b.L), op: b.Op, c: v}, !v.IsNull()
	}
	if v, ok := t.constant(b.L); ok && !IsConstant(b.R) {
		return cmpAtom{key: ExprKey(b.R), op: commute(b.Op), c: v}, !v.IsNull()
	}
	return cmpAtom{}, false
}

func commute(op BinOp) BinOp {
	switch op {
	case OpLt:
		return OpGt
	case OpLe:
		return OpGe
	case OpGt:
		return OpLt
	case OpGe:
		return OpLe
	}
	return op
}

// constant evaluates a statement constant.
func (t implTester) constant(e Expr) (sqltypes.Value, bool) {
	if !IsStatementConstant(e) {
		return sqltypes.Value{}, false
	}
	ctx := t.ctx
	if ctx == nil {
		ctx = &EvalContext{}
	}
	v, err := e.Eval(ctx, nil)
	return v, err == nil
}

func sameKind(a, b sqltypes.Value) bool { return a.K == b.K && !a.IsNull() && !b.IsNull() }

// cmpImplies reports whether x op1 c1 implies x op2 c2 for every x (the
// table of PostgreSQL's predtest.c, decided on the constants).
func cmpImplies(op1 BinOp, c1 sqltypes.Value, op2 BinOp, c2 sqltypes.Value) bool {
	if !sameKind(c1, c2) {
		return false
	}
	d := sqltypes.Compare(c1, c2) // c1 vs c2
	switch op1 {
	case OpEq:
		switch op2 {
		case OpEq:
			return d == 0
		case OpNe:
			return d != 0
		case OpLt:
			return d < 0
		case OpLe:
			return d <= 0
		case OpGt:
			return d > 0
		case OpGe:
			return d >= 0
		}
	case OpLt:
		switch op2 {
		case OpLt, OpLe:
			return d <= 0
		case OpNe:
			return d <= 0 // c2 >= c1: x < c1 <= c2
		}
	case OpLe:
		switch op2 {
		case OpLt, OpNe:
			return d < 0
		case OpLe:
			return d <= 0
		}
	case OpGt:
		switch op2 {
		case OpGt, OpGe:
			return d >= 0
		case OpNe:
			return d >= 0
		}
	case OpGe:
		switch op2 {
		case OpGt, OpNe:
			return d > 0
		case OpGe:
			return d >= 0
		}
	case OpNe:
		return op2 == OpNe && d == 0
	}
	return false
}

// ExprKey identifies an expression up to the names its columns go by:
// two expressions with one key compute the same value from a row (an
// index expression and a query's occurrence of it, both bound over the
// table's columns).
func ExprKey(e Expr) string {
	return canonical(e).String() + "::" + e.Type().String()
}

// canonical names every column reference by its ordinal and types every
// constant.
func canonical(e Expr) Expr {
	switch x := e.(type) {
	case *ColRef:
		return &ColRef{Index: x.Index, Name: "#" + strconv.Itoa(x.Index), Typ: x.Typ}
	case *Const:
		// A leaf printing the constant with its type ('1'::integer and
		// '1'::bigint differ).
		return &ColRef{Index: -1, Name: x.String() + "::" + x.Typ.String(), Typ: x.Typ}
	}
	kids := e.AppendChildren(nil)
	if len(kids) == 0 {
		return e
	}
	for i, k := range kids {
		kids[i] = canonical(k)
	}
	return e.WithChildren(kids)
}
