package optimizer

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
	"sync"
)

// Node is one operator of a physical plan. The executor builds one
// iterator per node from the same tree EXPLAIN walks.
type Node interface {
	// Inputs are the operators this one reads, in order.
	Inputs() []Node
	// Expressions are the expressions the operator evaluates, in a fixed
	// order, with nil for an absent one; subplans are found in them.
	Expressions() []ir.Expr
	// Columns is the layout of the rows the operator yields.
	Columns() []ir.Column
	// Describe is what EXPLAIN says of the operator: a head line and its
	// details. Text and JSON are two renderings of it.
	Describe() Description
}

// Description is EXPLAIN's account of one operator.
type Description struct {
	Head  string
	Attrs []Attr
}

// Attr is one detail line: "key: value".
type Attr struct {
	Key, Value string
}

func (d *Description) add(key, format string, args ...any) {
	d.Attrs = append(d.Attrs, Attr{Key: key, Value: sprintf(format, args...)})
}

// Method is how a Scan reads the store.
type Method string

// Access methods.
const (
	PointGet       Method = "point get"
	RangeScan      Method = "range scan"
	ZOrderSkipScan Method = "z-order skip-scan"
	ZOrderRanges   Method = "z-order ranges"
	FullScan       Method = "full scan"
	// InvertedScan reads the posting lists of an inverted index's tokens
	// (Scan.Inverted), then gets the rows they name.
	InvertedScan Method = "inverted scan"
	// ZOrderNearest reads a gist index's Z-order entries ring by ring
	// outward from a point until it holds the nearest rows
	// (Scan.Nearest; nearest.go).
	ZOrderNearest Method = "z-order nearest"
	// XZNearest reads an XZ gist index's code ranges ring by ring outward
	// from a point until it holds the nearest shapes (Scan.Nearest;
	// nearest.go).
	XZNearest Method = "xz nearest"
)

// KeyRange is a half-open [Start, End) range of sort keys; a nil Start or
// End is unbounded.
type KeyRange struct {
	Start, End []byte
	// Shown describes the range in SQL terms when keyRanges was asked for
	// descriptions; EXPLAIN prints Z-address ranges as addresses.
	Shown string
	// OneShard says that only Shard holds the range's items: its bound
	// prefix fixes the shard columns (shards.go). Otherwise every shard
	// of the scan is read.
	OneShard bool
	Shard    int
	// prefix is the encoding of the key columns bound by equality.
	prefix []byte
}

// Rejection records a candidate access path that lost, and why.
type Rejection struct {
	Path   string
	Reason string
}

// Estimate is what the statistics predict a scan reads.
type Estimate struct {
	// Rows its bounds admit; Items it reads (index entries plus the rows
	// a non-covering index looks up); Requests to the store.
	Rows, Items, Requests float64
	// Cost is what the cost model charges: items read plus requests
	// weighted for the backend (access_rules.go), in items.
	Cost float64
	// Capacity is the read capacity units the reads should be charged,
	// strongly consistent, on a store that charges by size (DynamoDB);
	// 0 elsewhere (capacity.go).
	Capacity float64
}

// Scan is the access path: it reads a table's rows, or an index's entries
// (then, unless the index covers the query, the table rows they point to),
// from every shard it must touch, applies the residual filter, and yields
// table-shaped rows (columns the path does not read are NULL).
type Scan struct {
	Table *catalog.Table
	Alias string
	// Partitions is set on the scan of the one partition of a
	// partitioned table the filter left to read (partition.go).
	Partitions *PartitionsRead
	Index      *catalog.Index // nil: the table itself (primary key order)
	Method     Method
	// Shards are the shards read, ascending; ShardNote says how they were
	// narrowed by the placement's shard columns, for EXPLAIN.
	Shards    []int
	ShardNote string
	// Points are primary-key sort keys for a point get.
	Points [][]byte
	// Ranges are sort-key ranges within each shard's partition, ascending.
	Ranges  []KeyRange
	Reverse bool
	// Lookup: index entries are followed by gets of the table rows.
	Lookup bool
	// Inverted is what an InvertedScan reads (inverted.go).
	Inverted *InvertedQuery
	// Nearest is what a ZOrderNearest scan searches for.
	Nearest *NearestQuery
	// TopN, on a Z-order scan under ORDER BY ... LIMIT, has the executor
	// read the box in slabs along the first ORDER BY column (topn.go).
	TopN *TopNQuery
	// Z-order: the schema and query box; Ranges cover the box.
	ZSchema *zorder.Schema
	ZBox    zorder.Box
	// ZClipped: the box was clipped to the index's data bounds, which
	// ZData holds as a box (nil when the index keeps none): the data's
	// extent, which EXPLAIN VERBOSE shows for a picture of the read.
	ZClipped bool
	ZData    zorder.Box
	// ZBudget says how the number of ranges was chosen (statistics).
	ZBudget string
	// ZRangeBox, on a scan of a gist index over a range column, is the
	// box its range predicates drew on the ranges' bounds (rangebounds.go),
	// for EXPLAIN: "lower(r) < 110 AND upper(r) >= 100".
	ZRangeBox string
	// Ordered: the output must keep key order across shards (k-way merge);
	// otherwise shards stream in any interleaving.
	Ordered bool
	// InsertionOrder: the scan of a table without a primary key keeps key
	// order across shards (k-way merge) though nothing above needs it:
	// its rows then come in the order they were inserted.
	InsertionOrder bool
	// Limit, when positive, is the number of rows after which the scan may
	// stop (pushed-down LIMIT + OFFSET).
	Limit int
	// Residual is applied to every row read; nil accepts all.
	Residual ir.Expr
	// Needed are the table columns the statement reads.
	Needed []int
	// Lock is the row lock of a SELECT ... FOR UPDATE / FOR SHARE on the
	// rows the scan yields.
	Lock ir.LockStrength
	// use is what the index advisor's TableUse is computed from, when
	// asked for (workload.go).
	use useSource
	// derive re-derives a prefix path's ranges for other values of the
	// statement's parameters (generic.go); nil on other paths.
	derive *scanDerivation
	// replan is what the other static paths (inverted, Z-order, nearest,
	// index expressions) were planned from: a generic plan plans the scan
	// alone again for other values and keeps it on the same path
	// (generic.go).
	replan *scanReplan
	// inverted re-derives an inverted scan's tokens (inverted.go).
	inverted *invertedDerivation

	// Dynamic scans read outer rows (a correlated subquery, the inner side
	// of an Apply): their access path is chosen again each time they open,
	// with the outer values known (Resolve). Spec is what to plan.
	Dynamic bool
	spec    *scanSpec
	// dynOpts are the options a dynamic scan is planned again with, behind
	// a pointer: every other scan leaves it nil, and a generic plan's
	// instance copies its scan, where Options' some 500 bytes were a
	// fifth of the copy.
	dynOpts *Options
	// SortKeys is set on a resolved dynamic scan whose path does not yield
	// the order its plan promised: its rows are sorted on them, and Limit
	// then bounds the sort rather than the reads.
	SortKeys []ir.SortKey

	// For EXPLAIN.
	Reason   string
	Rejected []Rejection
	Hint     string
	Estimate float64 // fraction of the search space probed, 0..1
	// Estimated is the statistics' estimate for the path chosen (nil when
	// the table has no statistics).
	Estimated *Estimate
	// Assumed is, for a table without statistics, the same estimate over
	// unanalyzedRows with PostgreSQL's default selectivities: what
	// EXPLAIN's costs show (cost.go); no rule decides by it.
	Assumed  *Estimate
	Covering bool
	describe rangeDescription
	cols     []ir.Column
}

// Rowset yields the rows of a catalog relation (information_schema,
// pg_catalog), computed from the schema rather than read from the store.
type Rowset struct {
	View string
	Rows catalog.VirtualRows
	cols []ir.Column
}

// Values yields rows of expressions (VALUES, SELECT without FROM).
type Values struct {
	Rows [][]ir.Expr
	Cols []ir.Column
	// Pruned marks the empty read of a partitioned table whose filter
	// excluded every partition (partition.go).
	Pruned bool
}

// TableFunc yields the rows of a set-returning function.
type TableFunc struct {
	Name       string
	Args       []ir.Expr
	Fn         *builtins.Overload
	Ordinality bool
	Cols       []ir.Column
	Parts      []ir.TableFuncPart // ROWS FROM's functions
}

// Filter drops rows for which Pred is not true.
type Filter struct {
	Input Node
	Pred  ir.Expr
	// Gate holds the conjuncts of Pred that read no column of the row (an
	// enclosing query's columns, constants) and nothing volatile: they are
	// evaluated once when the filter starts, before its input is started,
	// as PostgreSQL's one-time filter (a gating Result). When it is not
	// true the input never runs, so none of its expressions can fail.
	Gate ir.Expr
}

// Project computes the output expressions.
type Project struct {
	Input Node
	Exprs []ir.Expr
	Cols  []ir.Column
}

// Aggregate groups its input and computes aggregates; its output rows are
// [group values..., aggregate values...].
type Aggregate struct {
	Input   Node
	GroupBy []ir.Expr
	Aggs    []ir.AggCall
	// StreamOrder, when set, is the order (in input columns) the input
	// arrives in, which makes each group a run of consecutive rows: the
	// groups are computed one at a time as the input streams by.
	StreamOrder []ir.SortKey
	// GroupingSets as in ir.Aggregate: every set is hashed in the
	// same one pass over the input.
	GroupingSets [][]int
	// InScan: the aggregates are computed inside the Scan that is Input,
	// its decoder feeding them item by item (inScanAggregate).
	InScan bool
	cols   []ir.Column
}

// Window computes window functions over its input, which it holds.
type Window struct {
	Input Node
	Calls []ir.WindowCall
	cols  []ir.Column
}

// Sort orders rows; with Limit > 0 it keeps only the first Limit (top-n).
type Sort struct {
	Input Node
	Keys  []ir.SortKey
	Limit int
}

// Distinct removes duplicate rows (all columns, or the first of each group
// equal on On).
type Distinct struct {
	Input Node
	On    []int
	// Ordered says the input is sorted and the rows must keep its order
	// (for the query's ORDER BY); Sorted is that order when known.
	Ordered bool
	Sorted  []ir.SortKey
}

// Limit skips Offset rows and returns at most Count (-1: unlimited).
// CountExpr and OffsetExpr, when set, replace them with values computed
// when the limit opens (they read a subquery or an outer row).
type Limit struct {
	Input                 Node
	Count, Offset         int64
	CountExpr, OffsetExpr ir.Expr
}

// SetOp combines two inputs of one layout: UNION ALL appends; the others
// hash rows (counting them for the ALL forms).
type SetOp struct {
	Op          ir.SetOpKind
	All         bool
	Left, Right Node
	Cols        []ir.Column
	// Partitions, on the Append of a partitioned table's leaves, says
	// how many the filter left to read (partition.go).
	Partitions *PartitionsRead
}

// CTE is a WITH query's plan, computed once per execution when it is read
// more than once (Shared), streamed into its one reader otherwise.
type CTE struct {
	ID     int
	Name   string
	Plan   Node
	Shared bool
	// Merge marks the rows a MERGE decided (ir.Merge.Rows), which its
	// writes read.
	Merge bool
}

// CTEScan reads a CTE.
type CTEScan struct {
	CTE  *CTE
	cols []ir.Column
}

// RecursiveUnion computes WITH RECURSIVE: the anchor's rows, then rounds of
// the recursive term over the previous round's rows (WorkTable).
type RecursiveUnion struct {
	ID                int
	Anchor, Recursive Node
	All               bool
	cols              []ir.Column
}

// WorkTable reads the previous round of the RecursiveUnion with its ID.
type WorkTable struct {
	ID   int
	cols []ir.Column
}

var (
	_ Node = (*Scan)(nil)
	_ Node = (*Rowset)(nil)
	_ Node = (*Values)(nil)
	_ Node = (*TableFunc)(nil)
	_ Node = (*Filter)(nil)
	_ Node = (*Project)(nil)
	_ Node = (*Aggregate)(nil)
	_ Node = (*Window)(nil)
	_ Node = (*Sort)(nil)
	_ Node = (*Distinct)(nil)
	_ Node = (*Limit)(nil)
	_ Node = (*SetOp)(nil)
	_ Node = (*CTEScan)(nil)
	_ Node = (*RecursiveUnion)(nil)
	_ Node = (*WorkTable)(nil)
)

// Inputs implementations.
func (n *Scan) Inputs() []Node           { return nil }
func (n *Rowset) Inputs() []Node         { return nil }
func (n *Values) Inputs() []Node         { return nil }
func (n *TableFunc) Inputs() []Node      { return nil }
func (n *Filter) Inputs() []Node         { return []Node{n.Input} }
func (n *Project) Inputs() []Node        { return []Node{n.Input} }
func (n *Aggregate) Inputs() []Node      { return []Node{n.Input} }
func (n *Window) Inputs() []Node         { return []Node{n.Input} }
func (n *Sort) Inputs() []Node           { return []Node{n.Input} }
func (n *Distinct) Inputs() []Node       { return []Node{n.Input} }
func (n *Limit) Inputs() []Node          { return []Node{n.Input} }
func (n *SetOp) Inputs() []Node          { return []Node{n.Left, n.Right} }
func (n *CTEScan) Inputs() []Node        { return nil }
func (n *RecursiveUnion) Inputs() []Node { return []Node{n.Anchor, n.Recursive} }
func (n *WorkTable) Inputs() []Node      { return nil }

// Expressions implementations.
func (n *Rowset) Expressions() []ir.Expr         { return nil }
func (n *Sort) Expressions() []ir.Expr           { return nil }
func (n *Distinct) Expressions() []ir.Expr       { return nil }
func (n *SetOp) Expressions() []ir.Expr          { return nil }
func (n *CTEScan) Expressions() []ir.Expr        { return nil }
func (n *RecursiveUnion) Expressions() []ir.Expr { return nil }
func (n *WorkTable) Expressions() []ir.Expr      { return nil }
func (n *TableFunc) Expressions() []ir.Expr      { return n.Args }
func (n *Filter) Expressions() []ir.Expr         { return []ir.Expr{n.Pred} }
func (n *Project) Expressions() []ir.Expr        { return n.Exprs }
func (n *Limit) Expressions() []ir.Expr {
	return []ir.Expr{n.CountExpr, n.OffsetExpr}
}

// Expressions implements Node: the residual filter, and the filter a
// dynamic scan computes when it runs.
func (n *Scan) Expressions() []ir.Expr {
	if n.Dynamic {
		return []ir.Expr{n.Residual, n.spec.Filter}
	}
	return []ir.Expr{n.Residual}
}

// Expressions implements Node.
func (n *Values) Expressions() []ir.Expr {
	var out []ir.Expr
	for _, r := range n.Rows {
		out = append(out, r...)
	}
	return out
}

// Expressions implements Node.
func (n *Aggregate) Expressions() []ir.Expr {
	out := append([]ir.Expr(nil), n.GroupBy...)
	for i := range n.Aggs {
		out = append(out, n.Aggs[i].Expressions()...)
	}
	return out
}

// Expressions implements Node.
func (n *Window) Expressions() []ir.Expr {
	var out []ir.Expr
	for i := range n.Calls {
		out = append(out, n.Calls[i].Expressions()...)
	}
	return out
}

// Columns implementations.
func (n *Scan) Columns() []ir.Column           { return n.cols }
func (n *Rowset) Columns() []ir.Column         { return n.cols }
func (n *Values) Columns() []ir.Column         { return n.Cols }
func (n *TableFunc) Columns() []ir.Column      { return n.Cols }
func (n *Filter) Columns() []ir.Column         { return n.Input.Columns() }
func (n *Project) Columns() []ir.Column        { return n.Cols }
func (n *Aggregate) Columns() []ir.Column      { return n.cols }
func (n *Window) Columns() []ir.Column         { return n.cols }
func (n *Sort) Columns() []ir.Column           { return n.Input.Columns() }
func (n *Distinct) Columns() []ir.Column       { return n.Input.Columns() }
func (n *Limit) Columns() []ir.Column          { return n.Input.Columns() }
func (n *SetOp) Columns() []ir.Column          { return n.Cols }
func (n *CTEScan) Columns() []ir.Column        { return n.cols }
func (n *RecursiveUnion) Columns() []ir.Column { return n.cols }
func (n *WorkTable) Columns() []ir.Column      { return n.cols }

// Plan is a physical plan for one statement.
type Plan struct {
	Root Node
	// Scan is the first table access path of the plan (nil without one),
	// for metrics.
	Scan *Scan
	// Notices to send the client (full scan warnings, unhonoured hints).
	Notices []*pgerr.Error
	// Columns are the statement's result columns (reads, RETURNING).
	Columns []ir.Column
	// Writes are the statement's data-modifying WITH queries, run once
	// each, in order, before the statement; their RETURNING rows are what
	// the statement's CTE Scans of them read.
	Writes []*CTEWrite
	// opts are what the plan's costs read of the options it was built
	// with; costs are every operator's estimate (cost.go), computed when
	// EXPLAIN first asks (Costs), off the path of statements that are not
	// explained.
	opts      costOptions
	costsOnce sync.Once
	costs     map[Node]*NodeCost
	// fullScans is FullScans plus one (zero: not counted yet); a generic
	// plan's instances take its count, which their values cannot change.
	fullScans int64
	// keyed: a generic plan's instance whose scan key was encoded from
	// the values directly (KeyFromParams).
	keyed bool
}

// Costs returns every operator's estimate (cost.go), for EXPLAIN.
func (p *Plan) Costs() map[Node]*NodeCost {
	p.costsOnce.Do(func() { p.costs = costPlan(p, Options{Caps: p.opts.caps, Stats: p.opts.stats}) })
	return p.costs
}

// costOptions are the parts of Options that costing a plan reads (the
// store's capabilities and the tables' statistics), kept in a plan instead
// of the whole: a generic plan's instance is made every execution, and the
// rest (the function context above all) was some 400 bytes of it.
type costOptions struct {
	caps  kv.Capabilities
	stats func(tableID uint64) *catalog.TableStats
}

// costOptionsOf is what a plan built with opts keeps for its costs.
func costOptionsOf(opts Options) costOptions {
	return costOptions{caps: opts.Caps, stats: opts.Stats}
}

// CTEWrite is a data-modifying WITH query planned.
type CTEWrite struct {
	ID   int
	Name string
	Plan *Plan
}

// AccessPath labels the plan for metrics: the first scan's method, or
// "none".
func (p *Plan) AccessPath() string {
	if p == nil || p.Scan == nil {
		return "none"
	}
	return string(p.Scan.Method)
}

// ReadsOnce reports whether the plan reads the store in one request or
// through one iterator: a key lookup, or a scan of one range (or of a
// Z-order index's ranges, one iterator) of one shard that fetches no rows,
// with no subquery. Such a plan sees one point in time by itself; the
// executor reads any other (a join, an index scan that fetches rows,
// shards read in parallel) through a snapshot outside a transaction. It
// allocates nothing for the plans of key lookups and plain scans.
func (p *Plan) ReadsOnce() bool {
	scans := 0
	return readsOnce(p.Root, &scans) && scans <= 1
}

func readsOnce(n Node, scans *int) bool {
	switch x := n.(type) {
	case nil:
		return true
	case *Scan:
		*scans++
		return !x.Lookup && x.Inverted == nil && x.Nearest == nil && x.TopN == nil && x.Partitions == nil &&
			len(x.Shards) <= 1 && (x.ZSchema != nil || len(x.Ranges) <= 1) &&
			!hasSubPlan(x.Residual) && !(x.Dynamic && hasSubPlan(x.spec.Filter))
	case *Project:
		for _, e := range x.Exprs {
			if hasSubPlan(e) {
				return false
			}
		}
		return readsOnce(x.Input, scans)
	case *Filter:
		return !hasSubPlan(x.Pred) && !hasSubPlan(x.Gate) && readsOnce(x.Input, scans)
	case *Limit:
		return !hasSubPlan(x.CountExpr) && !hasSubPlan(x.OffsetExpr) && readsOnce(x.Input, scans)
	case *LookupJoin, *TableFunc:
		return false
	}
	if len(subplansOf(n)) > 0 {
		return false // a subquery reads the store again
	}
	for _, in := range n.Inputs() {
		if !readsOnce(in, scans) {
			return false
		}
	}
	return true
}

// Walk calls fn for n and every node below it, parents first, including
// the plans of subqueries inside expressions.
func Walk(n Node, fn func(Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, in := range n.Inputs() {
		Walk(in, fn)
	}
	for _, sp := range subplansOf(n) {
		Walk(sp.Plan, fn)
	}
}
