package ir

import (
	"fmt"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// OuterRef reads column Index of an enclosing query's row: Depth 1 is the
// row of the query the subquery appears in, 2 the one around that, and so
// on. Correlated subqueries and LATERAL items use it; at run time the
// executor keeps the stack of outer rows in EvalContext.Outer.
type OuterRef struct {
	Depth int
	Index int
	Name  string
	Typ   sqltypes.Type
}

func (e *OuterRef) AppendChildren(dst []Expr) []Expr { return dst }

func (e *OuterRef) WithChildren([]Expr) Expr { return e }

// Type implements Expr.
func (e *OuterRef) Type() sqltypes.Type { return e.Typ }

// Eval implements Expr.
func (e *OuterRef) Eval(ctx *EvalContext, _ []sqltypes.Value) (sqltypes.Value, error) {
	if ctx == nil || e.Depth > len(ctx.Outer) {
		return sqltypes.Null, pgerr.New(pgerr.InternalError, "outer reference %s evaluated without its outer row", e.Name)
	}
	return ctx.Outer[len(ctx.Outer)-e.Depth][e.Index], nil
}

// String implements Expr.
func (e *OuterRef) String() string { return e.Name }

// SubqueryKind says how a subquery's rows become a value.
type SubqueryKind uint8

// Subquery kinds.
const (
	// ScalarSubquery: the single column of the single row (NULL for no
	// row; more than one row is 21000).
	ScalarSubquery SubqueryKind = iota
	// ExistsSubquery: whether there is a row.
	ExistsSubquery
	// AnySubquery: Left Op ANY (subquery), which IN is (Op "="): true if the
	// comparison holds for some row, NULL if for none but one was NULL.
	AnySubquery
	// AllSubquery: Left Op ALL (subquery).
	AllSubquery
	// ArraySubquery: ARRAY(subquery), the column's values as an array.
	ArraySubquery
	// RowSubquery: Left (a RowExpr) Op the subquery's single row (NULL for
	// no row; more than one row is 21000).
	RowSubquery
)

// Subquery is a subquery used as a value. Plan is bound with the query
// around it as its outer scope; Correlated says whether it reads that
// scope (then it is evaluated per row, else once per statement).
type Subquery struct {
	Kind SubqueryKind
	Plan Rel
	// Left and Op for ANY/ALL (and IN, which is = ANY); Neg negates the
	// result (NOT IN, NOT EXISTS).
	Left       Expr
	Op         BinOp
	Neg        bool
	Correlated bool
	Typ        sqltypes.Type
	// ID tells a statement's subqueries apart (EXPLAIN names them by it).
	ID int
	// RowMap, when set, says where the row the plan's outer references
	// were bound against lies in the row the subquery is now evaluated
	// over: position i of the first is position RowMap(i) of the second.
	// RemapCols sets it when it moves the expression onto another row
	// layout (a RIGHT JOIN's condition over its swapped inputs), since the
	// plan's references are not rewritten.
	RowMap func(int) int
}

// AppendChildren implements Expr: the left operand of ANY/ALL; the plan is
// a relation, which VisitExprs walks.
func (e *Subquery) AppendChildren(dst []Expr) []Expr {
	if e.Left != nil {
		dst = append(dst, e.Left)
	}
	return dst
}

// WithChildren implements Expr.
func (e *Subquery) WithChildren(kids []Expr) Expr {
	c := *e
	if len(kids) > 0 {
		c.Left = kids[0]
	}
	return &c
}

// Type implements Expr.
func (e *Subquery) Type() sqltypes.Type { return e.Typ }

// Eval implements Expr: the optimizer replaces every Subquery with a
// physical subplan before execution, so reaching this is a planning bug.
func (e *Subquery) Eval(*EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.Null, pgerr.New(pgerr.InternalError, "subquery %d was not planned", e.ID)
}

// String implements Expr.
func (e *Subquery) String() string {
	var s string
	switch e.Kind {
	case ScalarSubquery:
		s = fmt.Sprintf("(SubPlan %d)", e.ID)
	case ExistsSubquery:
		s = fmt.Sprintf("EXISTS(SubPlan %d)", e.ID)
	case AnySubquery:
		s = fmt.Sprintf("(%s %s ANY (SubPlan %d))", e.Left, e.Op, e.ID)
	case AllSubquery:
		s = fmt.Sprintf("(%s %s ALL (SubPlan %d))", e.Left, e.Op, e.ID)
	case ArraySubquery:
		s = fmt.Sprintf("ARRAY(SubPlan %d)", e.ID)
	case RowSubquery:
		s = fmt.Sprintf("(%s %s (SubPlan %d))", e.Left, e.Op, e.ID)
	}
	if e.Neg {
		return "NOT " + s
	}
	return s
}

// MapExpr rebuilds e bottom-up, replacing every node for which fn returns
// a non-nil expression. fn sees each node after its children were mapped.
// Nodes fn leaves alone are copied only when a child changed.
func MapExpr(e Expr, fn func(Expr) Expr) Expr {
	if e == nil {
		return nil
	}
	kids := Children(e)
	changed := false
	var mapped []Expr
	if len(kids) > 0 {
		mapped = make([]Expr, len(kids))
		for i, k := range kids {
			mapped[i] = MapExpr(k, fn)
			if mapped[i] != k {
				changed = true
			}
		}
	}
	if changed {
		e = e.WithChildren(mapped)
	}
	if r := fn(e); r != nil {
		return r
	}
	return e
}

// ShiftCols returns e with every column reference c (and outer reference at
// the depth of e's own query) moved to c+delta, for moving an expression
// onto a row with a different layout.
func ShiftCols(e Expr, delta int) Expr {
	if delta == 0 {
		return e
	}
	return RemapCols(e, func(i int) int { return i + delta })
}

// RemapCols returns e with every ColRef's index i replaced by m(i).
//
// A correlated subquery inside e keeps its plan, whose outer references
// name positions of the row it was bound against; it gets a RowMap (m after
// any it had) that the executor applies to the row it pushes to the plan.
func RemapCols(e Expr, m func(int) int) Expr {
	return MapExpr(e, func(x Expr) Expr {
		switch y := x.(type) {
		case *ColRef:
			return &ColRef{Index: m(y.Index), Name: y.Name, Typ: y.Typ}
		case *Subquery:
			if !y.Correlated {
				return nil
			}
			c := *y
			if prev := y.RowMap; prev != nil {
				c.RowMap = func(i int) int { return m(prev(i)) }
			} else {
				c.RowMap = m
			}
			return &c
		}
		return nil
	})
}

// RowIndex is where position i of the row a subquery's outer references
// were bound against lies in the row it is evaluated over (RowMap).
func (e *Subquery) RowIndex(i int) int {
	if e.RowMap == nil {
		return i
	}
	return e.RowMap(i)
}

// DeepenOuter returns e with every outer reference one level further out:
// for moving an expression into the right side of a LATERAL join, which
// sees the left row as its nearest outer row.
func DeepenOuter(e Expr) Expr {
	return MapExpr(e, func(x Expr) Expr {
		if r, ok := x.(*OuterRef); ok {
			d := *r
			d.Depth++
			return &d
		}
		return nil
	})
}

// HasSubquery reports whether e contains a subquery.
func HasSubquery(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		if _, ok := x.(*Subquery); ok {
			found = true
		}
	})
	return found
}

// HasOuterRef reports whether e reads an outer row.
func HasOuterRef(e Expr) bool {
	found := false
	Walk(e, func(x Expr) {
		if _, ok := x.(*OuterRef); ok {
			found = true
		}
	})
	return found
}

// Escapes reports whether a plan reads a row from outside itself: an
// OuterRef deeper than the row pushes between it and the plan's root.
func Escapes(r Rel) bool {
	found := false
	VisitExprs(r, func(e Expr, level int) {
		Walk(e, func(x Expr) {
			if o, ok := x.(*OuterRef); ok && o.Depth > level {
				found = true
			}
		})
	})
	return found
}

// VisitExprs calls fn for every expression held by r and the relations
// below it, including the plans of subqueries inside those expressions,
// with the number of outer rows pushed between r's root and the expression
// (a subquery's plan and a LATERAL join's right side push one).
func VisitExprs(r Rel, fn func(e Expr, level int)) {
	visitRel(r, 0, fn)
}

func visitRel(r Rel, level int, fn func(Expr, int)) {
	if r == nil {
		return
	}
	for _, e := range r.Expressions() {
		if e == nil {
			continue
		}
		fn(e, level)
		Walk(e, func(x Expr) {
			if s, ok := x.(*Subquery); ok {
				visitRel(s.Plan, level+1, fn)
			}
		})
	}
	switch n := r.(type) {
	case *Join:
		// A LATERAL item's rows are computed once per row of the left
		// side, which it reads as an outer row.
		if n.Lateral {
			visitRel(n.Left, level, fn)
			visitRel(n.Right, level+1, fn)
			return
		}
	case *CTEScan:
		// A WITH query's plan is not an input of its scans; it is visited
		// through them.
		visitRel(n.CTE.Plan, level, fn)
	}
	for _, in := range r.Inputs() {
		visitRel(in, level, fn)
	}
}
