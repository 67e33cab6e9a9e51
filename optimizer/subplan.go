package optimizer

import (
	"fmt"
	"sync"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// SubPlan is a subquery planned: an expression that runs Plan (once per
// statement when it is not correlated, else once per evaluation, with the
// current row as the plan's outer row) and turns its rows into a value as
// Kind says.
type SubPlan struct {
	Kind       ir.SubqueryKind
	Plan       Node
	Left       ir.Expr
	Op         ir.BinOp
	Neg        bool
	Correlated bool
	Typ        sqltypes.Type
	ID         int

	// rowMap (ir.Subquery.RowMap) rearranges the row a correlated
	// subplan is evaluated over into the rowWidth positions its outer
	// references name.
	rowMap   func(int) int
	rowWidth int

	// The rows of an uncorrelated subplan, read once.
	mu     sync.Mutex
	cached bool
	rows   [][]sqltypes.Value
	array  sqltypes.Value // ARRAY(subquery)'s, built as its rows are read
	set    map[uint64][]sqltypes.Value
	hasNul bool
}

var _ ir.Expr = (*SubPlan)(nil)

// AppendChildren implements ir.Expr. A subplan is a leaf to walks: its
// Left operand was bound with the subquery, and it caches the rows it read,
// so it is never copied.
func (s *SubPlan) AppendChildren(dst []ir.Expr) []ir.Expr { return dst }

// WithChildren implements ir.Expr.
func (s *SubPlan) WithChildren([]ir.Expr) ir.Expr { return s }

var _ ir.RowReader = (*SubPlan)(nil)

// ReadsRow implements ir.RowReader: a correlated subplan reads the row's
// outer values, and a comparison's left operand may read its columns, so
// neither is constant for the statement.
func (s *SubPlan) ReadsRow() bool {
	return s.Correlated || s.Left != nil && !ir.IsStatementConstant(s.Left)
}

// Type implements ir.Expr.
func (s *SubPlan) Type() sqltypes.Type { return s.Typ }

// String implements ir.Expr.
func (s *SubPlan) String() string {
	var out string
	switch s.Kind {
	case ir.ScalarSubquery:
		out = fmt.Sprintf("(SubPlan %d)", s.ID)
	case ir.ExistsSubquery:
		out = fmt.Sprintf("EXISTS(SubPlan %d)", s.ID)
	case ir.AnySubquery:
		out = fmt.Sprintf("(%s %s ANY (SubPlan %d))", s.Left, s.Op, s.ID)
	case ir.AllSubquery:
		out = fmt.Sprintf("(%s %s ALL (SubPlan %d))", s.Left, s.Op, s.ID)
	default:
		out = fmt.Sprintf("ARRAY(SubPlan %d)", s.ID)
	}
	if s.Neg {
		return "NOT " + out
	}
	return out
}

// Eval implements ir.Expr.
func (s *SubPlan) Eval(ctx *ir.EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	v, err := s.eval(ctx, row)
	if err != nil || !s.Neg || v.IsNull() {
		return v, err
	}
	return sqltypes.NewBool(!v.Bool()), nil
}

// width is how many columns of the subquery's rows a comparison reads.
func (s *SubPlan) width() int {
	if r, ok := s.Left.(*ir.RowExpr); ok {
		return len(r.Items)
	}
	return 1
}

// leftValues evaluates the left side: one value, or a row constructor's.
func (s *SubPlan) leftValues(ctx *ir.EvalContext, row []sqltypes.Value) ([]sqltypes.Value, error) {
	items := []ir.Expr{s.Left}
	if r, ok := s.Left.(*ir.RowExpr); ok {
		items = r.Items
	}
	out := make([]sqltypes.Value, len(items))
	for i, e := range items {
		v, err := e.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (s *SubPlan) eval(ctx *ir.EvalContext, row []sqltypes.Value) (sqltypes.Value, error) {
	// The left operand is evaluated only once the subquery has a row, as
	// PostgreSQL's subplans do: x IN (an empty subquery) is false even
	// where x would fail (a scalar subquery of two rows, 21000).
	var left []sqltypes.Value
	leftDone := s.Left == nil
	outerRow := row
	evalLeft := func() error {
		if leftDone {
			return nil
		}
		leftDone = true
		var err error
		left, err = s.leftValues(ctx, outerRow)
		return err
	}
	if !s.Correlated {
		if err := s.fill(ctx, row); err != nil {
			return sqltypes.Null, err
		}
		switch s.Kind {
		case ir.ScalarSubquery:
			if len(s.rows) == 0 {
				return sqltypes.Null, nil
			}
			return s.rows[0][0], nil
		case ir.ExistsSubquery:
			return sqltypes.NewBool(len(s.rows) > 0), nil
		case ir.ArraySubquery:
			return s.array, nil
		}
		if len(s.rows) == 0 {
			return compareRows(s.Kind, s.Op, nil, nil)
		}
		if err := evalLeft(); err != nil {
			return sqltypes.Null, err
		}
		if s.Kind == ir.AnySubquery && s.Op == ir.OpEq && len(left) == 1 {
			return s.inSet(left[0]), nil
		}
		return compareRows(s.Kind, s.Op, left, s.rows)
	}
	if ctx == nil || ctx.Subplans == nil {
		return sqltypes.Null, pgerr.New(pgerr.InternalError, "subplan %d run without an executor", s.ID)
	}
	if s.rowMap != nil {
		bound := make([]sqltypes.Value, s.rowWidth)
		for i := range bound {
			if j := s.rowMap(i); j >= 0 && j < len(row) {
				bound[i] = row[j]
			}
		}
		row = bound
	}
	if row == nil {
		// A row without columns (SELECT (SELECT ...) with no FROM) is
		// still a level of outer rows: the plan's references two levels
		// out count it (nil would push nothing).
		row = []sqltypes.Value{}
	}
	res, err := ctx.Subplans.RunSubplan(ctx, s.Plan, row)
	if err != nil {
		return sqltypes.Null, err
	}
	defer res.Close()
	// This evaluation's rows are charged while it keeps them.
	charge := sqltypes.StartCharge("the rows of a subquery")
	defer charge.Drop()
	switch s.Kind {
	case ir.ScalarSubquery:
		r, ok, err := res.Next()
		if err != nil || !ok {
			return sqltypes.Null, err
		}
		v := r[0]
		if _, more, err := res.Next(); err != nil {
			return sqltypes.Null, err
		} else if more {
			return sqltypes.Null, tooManyRows()
		}
		return v, nil
	case ir.ExistsSubquery:
		_, ok, err := res.Next()
		return sqltypes.NewBool(ok), err
	case ir.ArraySubquery:
		return collectArray(res, s.Typ)
	}
	var rows [][]sqltypes.Value
	for {
		r, ok, err := res.Next()
		if err != nil {
			return sqltypes.Null, err
		}
		if !ok {
			break
		}
		if s.Kind == ir.RowSubquery && len(rows) == 1 {
			return sqltypes.Null, tooManyRows()
		}
		if err := evalLeft(); err != nil {
			return sqltypes.Null, err
		}
		kept := append([]sqltypes.Value(nil), r[:s.width()]...)
		if err := charge.Add(sqltypes.RowMemory(kept)); err != nil {
			return sqltypes.Null, err
		}
		rows = append(rows, kept)
		if v := rowCompare(s.Op, left, r); s.Kind == ir.AnySubquery && !v.IsNull() && v.Bool() {
			return sqltypes.NewBool(true), nil // no need to read further
		}
	}
	return compareRows(s.Kind, s.Op, left, rows)
}

// collectArray is ARRAY(subquery): the first column of res's rows, in
// their order, as an array of type t ('{}' for no rows). The elements go
// straight into the array (no copy of each row is held), which past
// PostgreSQL's accumulation limit fails as PostgreSQL's does, and whose
// memory, when large, is charged to the process's gate
// (sqltypes.AppendElem).
func collectArray(res ir.SubplanResult, t sqltypes.Type) (sqltypes.Value, error) {
	var elems []sqltypes.Value
	for {
		r, ok, err := res.Next()
		if err != nil {
			return sqltypes.Null, err
		}
		if !ok {
			return sqltypes.NewArray1(t.ElemType(), elems), nil
		}
		if err := sqltypes.AccumElemsLimit(int64(len(elems)) + 1); err != nil {
			return sqltypes.Null, err
		}
		if elems, err = sqltypes.AppendElem(elems, r[0], "ARRAY(subquery)'s array"); err != nil {
			return sqltypes.Null, err
		}
	}
}

func tooManyRows() error {
	return pgerr.New(pgerr.CardinalityViolation, "more than one row returned by a subquery used as an expression")
}

// fill runs an uncorrelated subplan once and keeps its rows (for IN, a hash
// set of them).
func (s *SubPlan) fill(ctx *ir.EvalContext, row []sqltypes.Value) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cached {
		return nil
	}
	if ctx == nil || ctx.Subplans == nil {
		return pgerr.New(pgerr.InternalError, "subplan %d run without an executor", s.ID)
	}
	res, err := ctx.Subplans.RunSubplan(ctx, s.Plan, nil)
	if err != nil {
		return err
	}
	defer res.Close()
	if s.Kind == ir.ArraySubquery {
		if s.array, err = collectArray(res, s.Typ); err != nil {
			return err
		}
		s.cached = true
		return nil
	}
	// The rows (and an IN's hash set of them), kept for the statement,
	// are charged to the process's gate for large values as they are
	// read and for as long as they are kept: a subquery of a hundred
	// million rows fails with 53200 instead of taking the proxy's memory.
	charge := sqltypes.StartCharge("the rows of a subquery")
	defer charge.Drop()
	for {
		r, ok, err := res.Next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if s.Kind == ir.ExistsSubquery {
			s.rows = append(s.rows, nil)
			break // one row answers EXISTS
		}
		kept := append([]sqltypes.Value(nil), r[:s.width()]...)
		if err := charge.Add(sqltypes.RowMemory(kept)); err != nil {
			return err
		}
		s.rows = append(s.rows, kept)
		if (s.Kind == ir.ScalarSubquery || s.Kind == ir.RowSubquery) && len(s.rows) > 1 {
			return tooManyRows()
		}
	}
	if s.Kind == ir.AnySubquery && s.Op == ir.OpEq && s.width() == 1 {
		if err := charge.Add(int64(len(s.rows)) * setEntryMemory); err != nil {
			return err
		}
		s.set = make(map[uint64][]sqltypes.Value, len(s.rows))
		for _, r := range s.rows {
			if r[0].IsNull() {
				s.hasNul = true
				continue
			}
			h := hashKey(r[0])
			s.set[h] = append(s.set[h], r[0])
		}
	}
	if len(s.rows) > 0 {
		sqltypes.KeepCharge(&charge, &s.rows[0])
	}
	s.cached = true
	return nil
}

// setEntryMemory is what an IN's hash set takes a row at the least: its
// key, its bucket's slice and the value.
const setEntryMemory = 8 + 24 + sqltypes.ValueSize

// hashKey hashes a value so that numbers equal across kinds (1 = 1.0) hash
// alike.
func hashKey(v sqltypes.Value) uint64 {
	if v.K == sqltypes.KindInt {
		v = sqltypes.NewFloat(float64(v.I))
	}
	return v.Hash(0)
}

// inSet is left IN (the cached rows) with SQL's NULL rules.
func (s *SubPlan) inSet(left sqltypes.Value) sqltypes.Value {
	if len(s.rows) == 0 {
		return sqltypes.NewBool(false)
	}
	if left.IsNull() {
		return sqltypes.Null
	}
	for _, w := range s.set[hashKey(left)] {
		if sqltypes.Compare(left, w) == 0 {
			return sqltypes.NewBool(true)
		}
	}
	if s.hasNul {
		return sqltypes.Null
	}
	return sqltypes.NewBool(false)
}

// compareRows evaluates left op ANY/ALL (or op the one row) over the
// subquery's rows with SQL's three-valued logic; left is one value or a
// row constructor's values.
func compareRows(kind ir.SubqueryKind, op ir.BinOp, left []sqltypes.Value, rows [][]sqltypes.Value) (sqltypes.Value, error) {
	if kind == ir.RowSubquery {
		if len(rows) == 0 {
			return sqltypes.Null, nil
		}
		return rowCompare(op, left, rows[0]), nil
	}
	if len(rows) == 0 {
		return sqltypes.NewBool(kind == ir.AllSubquery), nil
	}
	sawNull := false
	for _, r := range rows {
		v := rowCompare(op, left, r)
		if v.IsNull() {
			sawNull = true
			continue
		}
		if kind == ir.AnySubquery && v.Bool() {
			return sqltypes.NewBool(true), nil
		}
		if kind == ir.AllSubquery && !v.Bool() {
			return sqltypes.NewBool(false), nil
		}
	}
	if sawNull {
		return sqltypes.Null, nil
	}
	return sqltypes.NewBool(kind == ir.AllSubquery), nil
}

// rowCompare compares two rows as PostgreSQL does: = is true when every
// pair is equal, <> when any pair differs (NULL when no pair decides);
// < <= > >= go left to right and are decided by the first pair that is not
// equal (NULL when that pair holds a NULL).
func rowCompare(op ir.BinOp, l, r []sqltypes.Value) sqltypes.Value {
	sawNull := false
	for i := range l {
		if l[i].IsNull() || r[i].IsNull() {
			if op != ir.OpEq && op != ir.OpNe {
				return sqltypes.Null
			}
			sawNull = true
			continue
		}
		c := sqltypes.Compare(l[i], r[i])
		switch {
		case op == ir.OpEq && c != 0:
			return sqltypes.NewBool(false)
		case op == ir.OpNe && c != 0:
			return sqltypes.NewBool(true)
		case op != ir.OpEq && op != ir.OpNe && (c != 0 || i == len(l)-1):
			return sqltypes.NewBool(ir.CompareHolds(op, c))
		}
	}
	if sawNull {
		return sqltypes.Null
	}
	return sqltypes.NewBool(op == ir.OpEq)
}

// subplansOf lists the subplans inside a node's expressions.
func subplansOf(n Node) []*SubPlan {
	var out []*SubPlan
	for _, e := range n.Expressions() {
		if e == nil {
			continue
		}
		ir.Walk(e, func(x ir.Expr) {
			if sp, ok := x.(*SubPlan); ok {
				out = append(out, sp)
			}
		})
	}
	return out
}
