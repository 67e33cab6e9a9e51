package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Rel is a node of a logical query plan: a relation computed from the
// relations below it. Every node has a fixed output row layout, Columns();
// the expressions a node holds read the row of its input (for a Join, the
// left row followed by the right row) by position, through ColRef.
//
// The binder builds the tree in the shape the query is written in; the
// optimizer pushes predicates down, picks each table's access path and each
// join's method, and turns the tree into a physical plan.
type Rel interface {
	// Columns is the layout of the rows the relation yields.
	Columns() []Column
	// Inputs are the relations this one reads.
	Inputs() []Rel
}

// Column is one column of a relation.
type Column struct {
	Name string
	Type sqltypes.Type
	// Table and Col identify a stored table's column this one is a plain
	// copy of (for RowDescription's table OID and attribute number); Table
	// is nil and Col -1 otherwise.
	Table *catalog.Table
	Col   int
	// Hidden columns are not part of SELECT * (a table's hidden row id).
	Hidden bool
}

// Scan yields every row of a stored table, in the table's column order.
// Filters live in Filter nodes above it; the optimizer pushes them into
// the access path.
type Scan struct {
	Table *catalog.Table
	Alias string
	Hints []Hint
	// Lock is the row lock a SELECT ... FOR UPDATE / FOR SHARE takes on
	// the rows this scan yields (LockNone for other scans).
	Lock LockStrength
	cols []Column
}

// LockStrength is the row lock of a locking read.
type LockStrength uint8

// Lock strengths. FOR NO KEY UPDATE reads as LockUpdate and FOR KEY SHARE
// as LockShare.
const (
	LockNone LockStrength = iota
	LockShare
	LockUpdate
)

// NewScan returns a scan of t.
func NewScan(t *catalog.Table, alias string) *Scan {
	s := &Scan{Table: t, Alias: alias, cols: make([]Column, len(t.Columns))}
	for i, c := range t.Columns {
		s.cols[i] = Column{Name: c.Name, Type: c.Type, Table: t, Col: i, Hidden: c.Hidden}
	}
	return s
}

// Virtual yields the rows of a catalog relation (information_schema,
// pg_catalog) computed from the schema snapshot.
type Virtual struct {
	Table *catalog.Table
	cols  []Column
}

// NewVirtual returns the relation of a catalog view.
func NewVirtual(t *catalog.Table) *Virtual {
	v := &Virtual{Table: t, cols: make([]Column, len(t.Columns))}
	for i, c := range t.Columns {
		v.cols[i] = Column{Name: c.Name, Type: c.Type, Col: -1}
	}
	return v
}

// Values yields its rows of expressions (VALUES lists, and the single
// empty row of a SELECT without FROM). The expressions read no row, but
// may read outer columns (LATERAL) and parameters.
type Values struct {
	Rows [][]Expr
	Cols []Column
}

// TableFunc is a set-returning function in FROM (generate_series, unnest).
type TableFunc struct {
	Name string
	Args []Expr
	// Ordinality adds a bigint column counting the rows from 1.
	Ordinality bool
	Cols       []Column
	// Parts, for ROWS FROM (several functions zipped row by row, as a
	// select list's set-returning functions run), says how Args and Cols
	// divide among the functions.
	Parts []TableFuncPart
}

// TableFuncPart is one function of a ROWS FROM: its name and how many of
// the arguments and columns are its.
type TableFuncPart struct {
	Name        string
	Args, NCols int
}

// Filter yields the input rows for which Pred is true.
type Filter struct {
	Input Rel
	Pred  Expr
}

// Project computes Exprs over each input row.
type Project struct {
	Input Rel
	Exprs []Expr
	Cols  []Column
}

// JoinKind is the kind of a join.
type JoinKind uint8

// Join kinds. Semi and Anti joins come from EXISTS/IN subqueries: they
// yield left rows only, those with (Semi) or without (Anti) a match.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	RightJoin
	FullJoin
	SemiJoin
	AntiJoin
)

func (k JoinKind) String() string {
	return [...]string{"inner", "left", "right", "full", "semi", "anti"}[k]
}

// Join combines two relations. Its row is the left row followed by the
// right row (only the left row for Semi and Anti); On reads that row (nil:
// every pair, a cross join). A Lateral join evaluates Right once per left
// row, with the left row visible to it as its outer row (OuterRef depth 1).
type Join struct {
	Kind        JoinKind
	Left, Right Rel
	On          Expr
	Lateral     bool
	// NullAware marks an Anti join made from NOT IN, which must yield no
	// row when the subquery has a NULL and none when a left key is NULL.
	NullAware bool
	cols      []Column
}

// NewJoin builds a join and its output layout.
func NewJoin(kind JoinKind, left, right Rel, on Expr) *Join {
	j := &Join{Kind: kind, Left: left, Right: right, On: on}
	j.cols = joinColumns(kind, left, right)
	return j
}

func joinColumns(kind JoinKind, left, right Rel) []Column {
	if kind == SemiJoin || kind == AntiJoin {
		return left.Columns()
	}
	l, r := left.Columns(), right.Columns()
	cols := make([]Column, 0, len(l)+len(r))
	for _, c := range l {
		if kind == RightJoin || kind == FullJoin {
			c.Table, c.Col = nil, -1 // may be NULL-extended
		}
		cols = append(cols, c)
	}
	for _, c := range r {
		if kind == LeftJoin || kind == FullJoin {
			c.Table, c.Col = nil, -1
		}
		cols = append(cols, c)
	}
	return cols
}

// AggFunc names an aggregate.
type AggFunc string

// Aggregates.
const (
	AggCount     AggFunc = "count"
	AggCountStar AggFunc = "count(*)"
	AggSum       AggFunc = "sum"
	AggMin       AggFunc = "min"
	AggMax       AggFunc = "max"
	AggAvg       AggFunc = "avg"
)

// AggCall is one aggregate over the input rows.
type AggCall struct {
	Func AggFunc
	// Arg is the argument (nil for count(*)); Args holds every argument of
	// aggregates that take several (Args[0] == Arg).
	Arg      Expr
	Args     []Expr
	Distinct bool
	// Filter admits the rows the aggregate sees (FILTER (WHERE ...)).
	Filter Expr
	// OrderBy orders the values of order-sensitive aggregates
	// (string_agg(x, ',' ORDER BY y), percentile_cont WITHIN GROUP).
	OrderBy []SortKeyExpr
	Typ     sqltypes.Type
	// Grouping, for grouping(a, b, ...), holds the GroupBy index of each
	// argument.
	Grouping []int
}

// SortKeyExpr is a sort key given as an expression over the input row.
type SortKeyExpr struct {
	E          Expr
	Desc       bool
	NullsFirst bool
}

// Aggregate groups its input by GroupBy and computes Aggs per group; its
// rows are [group values..., aggregate values...]. Without GroupBy it
// yields exactly one row, even for an empty input.
type Aggregate struct {
	Input   Rel
	GroupBy []Expr
	Aggs    []AggCall
	// GroupingSets, for GROUPING SETS, ROLLUP and CUBE, lists the GroupBy
	// indexes of each grouping set (nil: the one set of all of GroupBy).
	// A row of a set has NULL in the group columns not in it.
	GroupingSets [][]int
	cols         []Column
}

// SortKey is one sort key over the input row.
type SortKey struct {
	Col        int
	Desc       bool
	NullsFirst bool
}

// Sort orders its input.
type Sort struct {
	Input Rel
	Keys  []SortKey
}

// Limit skips Offset rows and yields at most Count (nil: no limit).
type Limit struct {
	Input         Rel
	Count, Offset Expr
}

// Distinct removes duplicate rows. With On (DISTINCT ON) it keeps the
// first row of each group of rows equal on those columns, in input order.
type Distinct struct {
	Input Rel
	On    []int
}

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

// Set operations.
const (
	Union SetOpKind = iota
	Intersect
	Except
)

func (k SetOpKind) String() string { return [...]string{"UNION", "INTERSECT", "EXCEPT"}[k] }

// SetOp combines two relations of the same layout.
type SetOp struct {
	Op          SetOpKind
	All         bool
	Left, Right Rel
	Cols        []Column
}

// CTE is a WITH query. Each reference is a CTEScan of it; a query
// referenced more than once is computed once.
type CTE struct {
	Name string
	Plan Rel
	Cols []Column
	// Recursive marks WITH RECURSIVE queries of the form anchor UNION [ALL]
	// recursive term: Plan is then a RecursiveUnion.
	Recursive bool
	// Refs counts the references bound so far.
	Refs int
	// ID tells the CTEs of one statement apart.
	ID int
}

// CTEScan reads a CTE's rows.
type CTEScan struct {
	CTE   *CTE
	Alias string
	cols  []Column
}

// RecursiveUnion computes a recursive CTE: Anchor's rows, then Recursive
// evaluated over the rows of the previous round (read by WorkTable) until a
// round yields none. Without All, rows already produced are dropped.
type RecursiveUnion struct {
	Anchor, Recursive Rel
	All               bool
	CTE               *CTE
}

// WorkTable reads the rows of the previous round of a RecursiveUnion.
type WorkTable struct {
	CTE  *CTE
	cols []Column
}

// WindowFrameMode is ROWS, RANGE or GROUPS.
type WindowFrameMode uint8

// Frame modes.
const (
	FrameRange WindowFrameMode = iota
	FrameRows
	FrameGroups
)

// FrameBoundKind is one end of a window frame.
type FrameBoundKind uint8

// Frame bounds.
const (
	UnboundedPreceding FrameBoundKind = iota
	OffsetPreceding
	CurrentRow
	OffsetFollowing
	UnboundedFollowing
)

// FrameBound is one end of a frame; Offset is set for the Offset kinds.
type FrameBound struct {
	Kind   FrameBoundKind
	Offset Expr
}

// WindowFrame is a window's frame clause. The default (RANGE BETWEEN
// UNBOUNDED PRECEDING AND CURRENT ROW) is what no clause means.
type WindowFrame struct {
	Mode       WindowFrameMode
	Start, End FrameBound
	// Exclude: "" (no others), "current row", "group", "ties".
	Exclude string
}

// WindowCall is one window function evaluation.
type WindowCall struct {
	// Func is a window function (row_number, rank, lag, ...) or, with Agg
	// set, an aggregate evaluated over the frame.
	Func        string
	Args        []Expr
	Agg         *AggCall
	PartitionBy []Expr
	OrderBy     []SortKeyExpr
	Frame       WindowFrame
	Typ         sqltypes.Type
}

// Window computes window functions; its row is the input row followed by
// one value per call.
type Window struct {
	Input Rel
	Calls []WindowCall
	cols  []Column
}

// Columns implementations.
func (n *Scan) Columns() []Column      { return n.cols }
func (n *Virtual) Columns() []Column   { return n.cols }
func (n *Values) Columns() []Column    { return n.Cols }
func (n *TableFunc) Columns() []Column { return n.Cols }
func (n *Filter) Columns() []Column    { return n.Input.Columns() }
func (n *Project) Columns() []Column   { return n.Cols }
func (n *Join) Columns() []Column      { return n.cols }
func (n *Aggregate) Columns() []Column { return n.cols }
func (n *Sort) Columns() []Column      { return n.Input.Columns() }
func (n *Limit) Columns() []Column     { return n.Input.Columns() }
func (n *Distinct) Columns() []Column  { return n.Input.Columns() }
func (n *SetOp) Columns() []Column     { return n.Cols }
func (n *CTEScan) Columns() []Column   { return n.cols }
func (n *RecursiveUnion) Columns() []Column {
	return n.CTE.Cols
}
func (n *WorkTable) Columns() []Column { return n.cols }
func (n *Window) Columns() []Column    { return n.cols }

// Inputs implementations.
func (n *Scan) Inputs() []Rel           { return nil }
func (n *Virtual) Inputs() []Rel        { return nil }
func (n *Values) Inputs() []Rel         { return nil }
func (n *TableFunc) Inputs() []Rel      { return nil }
func (n *Filter) Inputs() []Rel         { return []Rel{n.Input} }
func (n *Project) Inputs() []Rel        { return []Rel{n.Input} }
func (n *Join) Inputs() []Rel           { return []Rel{n.Left, n.Right} }
func (n *Aggregate) Inputs() []Rel      { return []Rel{n.Input} }
func (n *Sort) Inputs() []Rel           { return []Rel{n.Input} }
func (n *Limit) Inputs() []Rel          { return []Rel{n.Input} }
func (n *Distinct) Inputs() []Rel       { return []Rel{n.Input} }
func (n *SetOp) Inputs() []Rel          { return []Rel{n.Left, n.Right} }
func (n *CTEScan) Inputs() []Rel        { return nil }
func (n *RecursiveUnion) Inputs() []Rel { return []Rel{n.Anchor, n.Recursive} }
func (n *WorkTable) Inputs() []Rel      { return nil }
func (n *Window) Inputs() []Rel         { return []Rel{n.Input} }

var (
	_ Rel = (*Scan)(nil)
	_ Rel = (*Virtual)(nil)
	_ Rel = (*Values)(nil)
	_ Rel = (*TableFunc)(nil)
	_ Rel = (*Filter)(nil)
	_ Rel = (*Project)(nil)
	_ Rel = (*Join)(nil)
	_ Rel = (*Aggregate)(nil)
	_ Rel = (*Sort)(nil)
	_ Rel = (*Limit)(nil)
	_ Rel = (*Distinct)(nil)
	_ Rel = (*SetOp)(nil)
	_ Rel = (*CTEScan)(nil)
	_ Rel = (*RecursiveUnion)(nil)
	_ Rel = (*WorkTable)(nil)
	_ Rel = (*Window)(nil)
)

// NewAggregate builds an Aggregate and its output layout.
func NewAggregate(input Rel, groupBy []Expr, aggs []AggCall, groupNames []string) *Aggregate {
	a := &Aggregate{Input: input, GroupBy: groupBy, Aggs: aggs}
	for i, g := range groupBy {
		name := "?column?"
		if i < len(groupNames) {
			name = groupNames[i]
		}
		col := Column{Name: name, Type: g.Type(), Col: -1}
		if cr, ok := g.(*ColRef); ok {
			in := input.Columns()[cr.Index]
			col.Table, col.Col = in.Table, in.Col
		}
		a.cols = append(a.cols, col)
	}
	for _, ag := range aggs {
		a.cols = append(a.cols, Column{Name: string(ag.Func), Type: ag.Typ, Col: -1})
	}
	return a
}

// NewWindow builds a Window and its output layout.
func NewWindow(input Rel, calls []WindowCall) *Window {
	w := &Window{Input: input, Calls: calls}
	w.cols = append(append([]Column(nil), input.Columns()...), make([]Column, len(calls))...)
	for i, c := range calls {
		w.cols[len(input.Columns())+i] = Column{Name: c.Func, Type: c.Typ, Col: -1}
	}
	return w
}

// NewCTEScan returns a reference to cte under alias.
func NewCTEScan(cte *CTE, alias string) *CTEScan {
	cols := make([]Column, len(cte.Cols))
	copy(cols, cte.Cols)
	return &CTEScan{CTE: cte, Alias: alias, cols: cols}
}

// NewWorkTable returns the work table of a recursive CTE.
func NewWorkTable(cte *CTE) *WorkTable {
	return &WorkTable{CTE: cte, cols: cte.Cols}
}

// WalkRel calls fn for r and every relation below it, parents first.
func WalkRel(r Rel, fn func(Rel)) {
	if r == nil {
		return
	}
	fn(r)
	for _, in := range r.Inputs() {
		WalkRel(in, fn)
	}
}

// ScannedTables lists the stored tables a plan reads, subqueries and WITH
// queries included, each once (privilege checks).
func ScannedTables(r Rel) []*catalog.Table {
	var out []*catalog.Table
	seen := map[*catalog.Table]bool{}
	var walk func(Rel)
	walk = func(r Rel) {
		WalkRel(r, func(x Rel) {
			switch n := x.(type) {
			case *Scan:
				if !seen[n.Table] {
					seen[n.Table] = true
					out = append(out, n.Table)
				}
			case *CTEScan:
				walk(n.CTE.Plan)
			}
		})
		VisitExprs(r, func(e Expr, _ int) {
			Walk(e, func(x Expr) {
				if s, ok := x.(*Subquery); ok {
					walk(s.Plan)
				}
			})
		})
	}
	walk(r)
	return out
}
