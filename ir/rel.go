package ir

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
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
	// WithInputs returns a copy of the relation reading inputs instead,
	// given in Inputs' order.
	WithInputs(inputs []Rel) Rel
	// Expressions are the expressions the relation evaluates over its input
	// rows, in a fixed order, with a nil slot for an absent one (a Limit
	// without OFFSET). The plans of subqueries inside them are not its
	// inputs; VisitExprs reaches them.
	Expressions() []Expr
	// WithExpressions returns a copy of the relation evaluating exprs instead,
	// given in Expressions' order.
	WithExpressions(exprs []Expr) Rel
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
	// Partitions is set on the scans of a partitioned table's leaves
	// (the planner's read of the table): the optimizer prunes the leaves
	// the scan's filter excludes (catalog.PartitionSet.Excludes).
	Partitions *catalog.PartitionSet
	cols       []Column
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

// A locking clause's wait policy, or'ed into its strength: NOWAIT fails
// on a row another transaction holds locked, SKIP LOCKED leaves the row
// out. Without either, zproxy's row locks never wait (a conflict fails the
// later COMMIT).
const (
	LockNoWait     LockStrength = 1 << 4
	LockSkipLocked LockStrength = 1 << 5
)

// Strength is s without its wait policy: LockNone, LockShare or
// LockUpdate.
func (s LockStrength) Strength() LockStrength { return s &^ (LockNoWait | LockSkipLocked) }

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
		v.cols[i] = Column{Name: c.Name, Type: c.Type, Col: -1, Hidden: c.Hidden}
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
	// Fn is the resolved overload; Fn.Set computes the rows.
	Fn *builtins.Overload
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
	Fn          *builtins.Overload // as TableFunc.Fn
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
	// DropsOrderKeys marks the Project the binder puts over a SELECT
	// whose ORDER BY reads expressions outside its select list, to drop
	// them (the deparser prints the two as one query).
	DropsOrderKeys bool
	// Coerces marks the Project the binder puts over a set operation's
	// operand to cast its columns to the operation's types.
	Coerces bool
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
	// User is a user-defined aggregate's computation (useragg.go).
	User *UserAgg
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
	// Implied marks the order the binder gives DISTINCT ON without an
	// ORDER BY (its keys), which the query did not write.
	Implied bool
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
	// Write is a data-modifying WITH query's INSERT, UPDATE or DELETE
	// (Plan is then nil; Cols are its RETURNING columns).
	Write Statement
	// Materialized and NotMaterialized are WITH q AS [NOT] MATERIALIZED:
	// whether the optimizer may inline the query into its references
	// (PostgreSQL 12's rules; optimizer/inline.go).
	Materialized, NotMaterialized bool
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
func (n *Scan) Columns() []Column { return n.cols }

func (n *Virtual) Columns() []Column { return n.cols }

func (n *Values) Columns() []Column { return n.Cols }

func (n *TableFunc) Columns() []Column { return n.Cols }

func (n *Filter) Columns() []Column { return n.Input.Columns() }

func (n *Project) Columns() []Column { return n.Cols }

func (n *Join) Columns() []Column { return n.cols }

func (n *Aggregate) Columns() []Column { return n.cols }

func (n *Sort) Columns() []Column { return n.Input.Columns() }

func (n *Limit) Columns() []Column { return n.Input.Columns() }

func (n *Distinct) Columns() []Column { return n.Input.Columns() }

func (n *SetOp) Columns() []Column { return n.Cols }

func (n *CTEScan) Columns() []Column { return n.cols }

func (n *RecursiveUnion) Columns() []Column {
	return n.CTE.Cols
}

func (n *WorkTable) Columns() []Column { return n.cols }

func (n *Window) Columns() []Column { return n.cols }

// Inputs implementations.
func (n *Scan) Inputs() []Rel { return nil }

func (n *Virtual) Inputs() []Rel { return nil }

func (n *Values) Inputs() []Rel { return nil }

func (n *TableFunc) Inputs() []Rel { return nil }

func (n *Filter) Inputs() []Rel { return []Rel{n.Input} }

func (n *Project) Inputs() []Rel { return []Rel{n.Input} }

func (n *Join) Inputs() []Rel { return []Rel{n.Left, n.Right} }

func (n *Aggregate) Inputs() []Rel { return []Rel{n.Input} }

func (n *Sort) Inputs() []Rel { return []Rel{n.Input} }

func (n *Limit) Inputs() []Rel { return []Rel{n.Input} }

func (n *Distinct) Inputs() []Rel { return []Rel{n.Input} }

func (n *SetOp) Inputs() []Rel { return []Rel{n.Left, n.Right} }

func (n *CTEScan) Inputs() []Rel { return nil }

func (n *RecursiveUnion) Inputs() []Rel { return []Rel{n.Anchor, n.Recursive} }

func (n *WorkTable) Inputs() []Rel { return nil }

func (n *Window) Inputs() []Rel { return []Rel{n.Input} }

// WithInputs implementations. Leaves have no inputs and return themselves.
func (n *Scan) WithInputs([]Rel) Rel { return n }

func (n *Virtual) WithInputs([]Rel) Rel { return n }

func (n *Values) WithInputs([]Rel) Rel { return n }

func (n *TableFunc) WithInputs([]Rel) Rel { return n }

func (n *CTEScan) WithInputs([]Rel) Rel { return n }

func (n *WorkTable) WithInputs([]Rel) Rel { return n }

func (n *Filter) WithInputs(in []Rel) Rel {
	c := *n
	c.Input = in[0]
	return &c
}

func (n *Project) WithInputs(in []Rel) Rel {
	c := *n
	c.Input = in[0]
	return &c
}

// WithInputs builds the join again: its columns come from its inputs'.
func (n *Join) WithInputs(in []Rel) Rel {
	j := NewJoin(n.Kind, in[0], in[1], n.On)
	j.Lateral, j.NullAware = n.Lateral, n.NullAware
	return j
}

func (n *Aggregate) WithInputs(in []Rel) Rel {
	c := *n
	c.Input = in[0]
	return &c
}

func (n *Sort) WithInputs(in []Rel) Rel {
	c := *n
	c.Input = in[0]
	return &c
}

func (n *Limit) WithInputs(in []Rel) Rel {
	c := *n
	c.Input = in[0]
	return &c
}

func (n *Distinct) WithInputs(in []Rel) Rel {
	c := *n
	c.Input = in[0]
	return &c
}

func (n *SetOp) WithInputs(in []Rel) Rel {
	c := *n
	c.Left, c.Right = in[0], in[1]
	return &c
}

func (n *RecursiveUnion) WithInputs(in []Rel) Rel {
	c := *n
	c.Anchor, c.Recursive = in[0], in[1]
	return &c
}

func (n *Window) WithInputs(in []Rel) Rel {
	c := *n
	c.Input = in[0]
	return &c
}

// Expressions implementations. A CTEScan's query is the CTE's plan, bound where
// the WITH defines it; it is not one of the scan's expressions.
func (n *Scan) Expressions() []Expr { return nil }

func (n *Virtual) Expressions() []Expr { return nil }

func (n *CTEScan) Expressions() []Expr { return nil }

func (n *WorkTable) Expressions() []Expr { return nil }

func (n *Sort) Expressions() []Expr { return nil }

func (n *Distinct) Expressions() []Expr { return nil }

func (n *SetOp) Expressions() []Expr { return nil }

func (n *RecursiveUnion) Expressions() []Expr {
	return nil
}

func (n *Values) Expressions() []Expr {
	var out []Expr
	for _, row := range n.Rows {
		out = append(out, row...)
	}
	return out
}

func (n *TableFunc) Expressions() []Expr { return n.Args }

func (n *Filter) Expressions() []Expr { return []Expr{n.Pred} }

func (n *Project) Expressions() []Expr { return n.Exprs }

func (n *Join) Expressions() []Expr { return []Expr{n.On} }

func (n *Limit) Expressions() []Expr { return []Expr{n.Count, n.Offset} }

func (n *Aggregate) Expressions() []Expr {
	out := append([]Expr(nil), n.GroupBy...)
	for i := range n.Aggs {
		out = n.Aggs[i].appendExprs(out)
	}
	return out
}

func (n *Window) Expressions() []Expr {
	var out []Expr
	for i := range n.Calls {
		out = n.Calls[i].appendExprs(out)
	}
	return out
}

// WithExpressions implementations.
func (n *Scan) WithExpressions([]Expr) Rel { return n }

func (n *Virtual) WithExpressions([]Expr) Rel { return n }

func (n *CTEScan) WithExpressions([]Expr) Rel { return n }

func (n *WorkTable) WithExpressions([]Expr) Rel { return n }

func (n *Sort) WithExpressions([]Expr) Rel { return n }

func (n *Distinct) WithExpressions([]Expr) Rel { return n }

func (n *SetOp) WithExpressions([]Expr) Rel { return n }

func (n *RecursiveUnion) WithExpressions([]Expr) Rel {
	return n
}

func (n *Values) WithExpressions(es []Expr) Rel {
	c := *n
	c.Rows = make([][]Expr, len(n.Rows))
	for i, row := range n.Rows {
		c.Rows[i], es = es[:len(row):len(row)], es[len(row):]
	}
	return &c
}

func (n *TableFunc) WithExpressions(es []Expr) Rel {
	c := *n
	c.Args = es
	return &c
}

func (n *Filter) WithExpressions(es []Expr) Rel { return &Filter{Input: n.Input, Pred: es[0]} }

func (n *Project) WithExpressions(es []Expr) Rel {
	c := *n
	c.Exprs = es
	return &c
}

func (n *Join) WithExpressions(es []Expr) Rel {
	c := *n
	c.On = es[0]
	return &c
}

func (n *Limit) WithExpressions(es []Expr) Rel {
	c := *n
	c.Count, c.Offset = es[0], es[1]
	return &c
}

func (n *Aggregate) WithExpressions(es []Expr) Rel {
	c := *n
	c.GroupBy, es = es[:len(n.GroupBy):len(n.GroupBy)], es[len(n.GroupBy):]
	c.Aggs = make([]AggCall, len(n.Aggs))
	for i, a := range n.Aggs {
		c.Aggs[i], es = a.withExprs(es)
	}
	return &c
}

func (n *Window) WithExpressions(es []Expr) Rel {
	c := *n
	c.Calls = make([]WindowCall, len(n.Calls))
	for i, call := range n.Calls {
		c.Calls[i], es = call.withExprs(es)
	}
	return &c
}

// Expressions lists the expressions an aggregate call evaluates: its arguments,
// FILTER, and its ORDER BY keys.
func (a *AggCall) Expressions() []Expr { return a.appendExprs(nil) }

func (a *AggCall) appendExprs(dst []Expr) []Expr {
	dst = append(append(dst, a.Args...), a.Filter)
	for _, k := range a.OrderBy {
		dst = append(dst, k.E)
	}
	return dst
}

// WithExpressions returns a copy of the call evaluating es (in Expressions' order).
func (a AggCall) WithExpressions(es []Expr) AggCall {
	c, _ := a.withExprs(es)
	return c
}

// withExprs takes the call's expressions from the front of es and returns
// the rest.
func (a AggCall) withExprs(es []Expr) (AggCall, []Expr) {
	n := len(a.Args)
	a.Args, a.Filter, es = es[:n:n], es[n], es[n+1:]
	if len(a.Args) > 0 {
		a.Arg = a.Args[0]
	}
	keys := make([]SortKeyExpr, len(a.OrderBy))
	for i, k := range a.OrderBy {
		k.E, es = es[0], es[1:]
		keys[i] = k
	}
	if a.OrderBy != nil {
		a.OrderBy = keys
	}
	return a, es
}

// Expressions lists the expressions a window call evaluates: its arguments,
// PARTITION BY, ORDER BY keys, the frame's offsets, and those of the
// aggregate it applies, if any.
func (c *WindowCall) Expressions() []Expr { return c.appendExprs(nil) }

func (c *WindowCall) appendExprs(dst []Expr) []Expr {
	dst = append(append(dst, c.Args...), c.PartitionBy...)
	for _, k := range c.OrderBy {
		dst = append(dst, k.E)
	}
	dst = append(dst, c.Frame.Start.Offset, c.Frame.End.Offset)
	if c.Agg != nil {
		dst = c.Agg.appendExprs(dst)
	}
	return dst
}

// WithExpressions returns a copy of the call evaluating es (in Expressions' order).
func (c WindowCall) WithExpressions(es []Expr) WindowCall {
	out, _ := c.withExprs(es)
	return out
}

func (c WindowCall) withExprs(es []Expr) (WindowCall, []Expr) {
	n, p := len(c.Args), len(c.PartitionBy)
	c.Args, es = es[:n:n], es[n:]
	c.PartitionBy, es = es[:p:p], es[p:]
	keys := make([]SortKeyExpr, len(c.OrderBy))
	for i, k := range c.OrderBy {
		k.E, es = es[0], es[1:]
		keys[i] = k
	}
	if c.OrderBy != nil {
		c.OrderBy = keys
	}
	c.Frame.Start.Offset, c.Frame.End.Offset, es = es[0], es[1], es[2:]
	if c.Agg != nil {
		var a AggCall
		a, es = c.Agg.withExprs(es)
		c.Agg = &a
	}
	return c, es
}

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

// MapInputs returns r with each input replaced by fn(input): a copy when r
// has inputs, r itself when it has none.
func MapInputs(r Rel, fn func(Rel) Rel) Rel {
	in := r.Inputs()
	if len(in) == 0 {
		return r
	}
	mapped := make([]Rel, len(in))
	for i, x := range in {
		mapped[i] = fn(x)
	}
	return r.WithInputs(mapped)
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
	_ Rel = (*ProjectSet)(nil)
)
