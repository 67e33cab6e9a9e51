package optimizer

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/zorder"
)

// Node is one operator of a physical plan.
type Node interface {
	// Children returns the operator's inputs.
	Children() []Node
	// Name is the operator name EXPLAIN prints.
	Name() string
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
)

// KeyRange is a half-open [Start, End) range of sort keys; a nil Start or
// End is unbounded.
type KeyRange struct {
	Start, End []byte
	// Shown describes the range in SQL terms ("sensor_id = 1, ts in
	// ['2024-01-01 00:00:00', '2024-02-01 00:00:00')") when keyRanges was
	// asked for descriptions; EXPLAIN prints Z-address ranges as addresses.
	Shown string
}

// Rejection records a candidate access path that lost, and why.
type Rejection struct {
	Path   string
	Reason string
}

// Scan is the access path: it reads a table's rows, or an index's entries
// (then, unless the index covers the query, the table rows they point to),
// from every shard it must touch, applies the residual filter, and yields
// table-shaped rows (columns the path does not read are NULL).
type Scan struct {
	Table  *catalog.Table
	Index  *catalog.Index // nil: the table itself (primary key order)
	Method Method
	Shards []int
	// Points are primary-key sort keys for a point get.
	Points [][]byte
	// Ranges are sort-key ranges within each shard's partition, ascending.
	Ranges  []KeyRange
	Reverse bool
	// Lookup: index entries are followed by gets of the table rows.
	Lookup bool
	// Z-order: the schema and query box; Ranges cover the box.
	ZSchema *zorder.Schema
	ZBox    zorder.Box
	// Ordered: the output must keep key order across shards (k-way merge);
	// otherwise shards stream in any interleaving.
	Ordered bool
	// Limit, when positive, is the number of rows after which the scan may
	// stop (pushed-down LIMIT + OFFSET).
	Limit int
	// Residual is applied to every row read; nil accepts all.
	Residual planner.Expr
	// Needed are the table columns the statement reads.
	Needed []int

	// For EXPLAIN.
	Reason   string
	Rejected []Rejection
	Hint     string
	Estimate float64 // fraction of the search space probed, 0..1
	Covering bool
	// describe renders the points or ranges in SQL terms, in key order, on
	// demand (EXPLAIN only).
	describe func() []string
}

// Filter drops rows for which Pred is not true. (Scans apply their own
// residual; Filter is used above aggregation for HAVING.)
type Filter struct {
	Input Node
	Pred  planner.Expr
}

// Aggregate groups its input and computes aggregates; its output rows are
// [group values..., aggregate values...].
type Aggregate struct {
	Input   Node
	GroupBy []planner.Expr
	Aggs    []planner.AggCall
}

// Project computes the output expressions.
type Project struct {
	Input Node
	Exprs []planner.Expr
}

// Sort orders rows; with Limit > 0 it keeps only the first Limit (top-n).
type Sort struct {
	Input Node
	Keys  []planner.SortKey
	Limit int
}

// Distinct removes duplicate rows (over the first Width columns).
type Distinct struct {
	Input Node
	Width int
}

// Limit skips Offset rows and returns at most Count (-1: unlimited).
type Limit struct {
	Input         Node
	Count, Offset int64
}

// Values yields one empty row (SELECT without FROM).
type Values struct{}

// Rowset yields the rows of a catalog view (information_schema,
// pg_catalog), computed from the schema rather than read from the store.
type Rowset struct {
	View string
	Rows [][]sqltypes.Value
}

var (
	_ Node = (*Scan)(nil)
	_ Node = (*Filter)(nil)
	_ Node = (*Aggregate)(nil)
	_ Node = (*Project)(nil)
	_ Node = (*Sort)(nil)
	_ Node = (*Distinct)(nil)
	_ Node = (*Limit)(nil)
	_ Node = (*Values)(nil)
	_ Node = (*Rowset)(nil)
)

// Children implementations.
func (n *Scan) Children() []Node      { return nil }
func (n *Filter) Children() []Node    { return []Node{n.Input} }
func (n *Aggregate) Children() []Node { return []Node{n.Input} }
func (n *Project) Children() []Node   { return []Node{n.Input} }
func (n *Sort) Children() []Node      { return []Node{n.Input} }
func (n *Distinct) Children() []Node  { return []Node{n.Input} }
func (n *Limit) Children() []Node     { return []Node{n.Input} }
func (n *Values) Children() []Node    { return nil }
func (n *Rowset) Children() []Node    { return nil }

// Name implementations.
func (n *Scan) Name() string      { return "Scan" }
func (n *Filter) Name() string    { return "Filter" }
func (n *Aggregate) Name() string { return "Aggregate" }
func (n *Project) Name() string   { return "Project" }
func (n *Sort) Name() string {
	if n.Limit > 0 {
		return "TopN"
	}
	return "Sort"
}
func (n *Distinct) Name() string { return "Distinct" }
func (n *Limit) Name() string    { return "Limit" }
func (n *Values) Name() string   { return "Values" }
func (n *Rowset) Name() string   { return "Rowset" }

// Plan is a physical plan for one statement.
type Plan struct {
	Root Node
	// Scan is the access path (nil without FROM), for metrics and EXPLAIN.
	Scan *Scan
	// Notices to send the client (full scan warnings, unhonoured hints).
	Notices []*pgerr.Error
}

// AccessPath labels the plan for metrics: the scan method, or "none".
func (p *Plan) AccessPath() string {
	if p == nil || p.Scan == nil {
		return "none"
	}
	return string(p.Scan.Method)
}
