package optimizer

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
)

// NodeStats is what one operator did during EXPLAIN ANALYZE.
type NodeStats struct {
	Rows      int64         // rows the operator returned
	ItemsRead int64         // store items read (scans, lookups)
	Requests  int64         // store requests (scans, lookups)
	Capacity  float64       // capacity units consumed (DynamoDB)
	Time      time.Duration // wall time inside the operator, children included
	// Startup is the part of Time until each opening's first row (or its
	// end, with none): PostgreSQL's "Actual Startup Time".
	Startup time.Duration
	Loops   int64 // times the operator was started (Apply, subplans)
	// SpilledRows and SpilledBytes are what the operator wrote to the
	// spill store past work_mem.
	SpilledRows  int64
	SpilledBytes int64
	// RangeItems are the items a Z-order scan read in each of its ranges
	// (Scan.Ranges' order), all shards together.
	RangeItems []int64
	// Rings and RingRanges are the square rings a nearest-neighbour scan
	// read (a Z-order index of more attributes than x and y, or an XZ
	// one) and their Z-address ranges, all openings together.
	Rings, RingRanges int64
	// Batches, BatchCells and BatchRanges are the best-first batches a
	// nearest-neighbour scan of a gist index on points read
	// (zorder.NearestCells), the Z-cells they handed out and the ranges
	// those made once merged, all openings together; the probe before
	// them is no batch.
	Batches, BatchCells, BatchRanges int64
	// Squares and SquareDecoded are the squares the square search of a
	// gist index on points read (executor's runSquares, where statistics
	// give the points' density) and the entries it decoded, the others
	// having been passed over by their keys alone.
	Squares, SquareDecoded int64
	// TopNBatches, TopNCells and TopNRanges are the best-first batches a
	// top-N Z-order scan read (TopNQuery, zorder.TopNCells), the Z-cells
	// they handed out and the ranges those made once merged.
	TopNBatches, TopNCells, TopNRanges int64
	// HeldRows are the entries a Z-order scan admitted without testing
	// them against its spatial conjuncts, as they lay in cells those hold
	// (Scan.Interior).
	HeldRows int64
	// WALRecords and WALBytes are the items a write handed to the store
	// (or its transaction) and their bytes: EXPLAIN's WAL figures.
	WALRecords, WALBytes int64
}

// maxShownRanges is how many key ranges EXPLAIN prints before "...".
const maxShownRanges = 3

func sprintf(format string, args ...any) string {
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// explainStep is one operator of the description walk: its description,
// depth, and where it sits (a subplan is introduced by a label).
type explainStep struct {
	node  Node
	desc  Description
	depth int
	label string
}

// walkDescriptions is the one walk both renderers share: every operator,
// parents first, with the subplans of its expressions after its inputs,
// and a WITH query's plan under the first scan of it; a data-modifying WITH
// query's plan follows the statement's, under the root. Each operator is
// described by describe: Node.Describe for EXPLAIN, describeShape for a
// plan's shape.
func walkDescriptions(p *Plan, describe func(Node) Description, fn func(explainStep)) {
	shown := map[int]bool{}
	var walk func(n Node, depth int, label string)
	walk = func(n Node, depth int, label string) {
		fn(explainStep{node: n, desc: describe(n), depth: depth, label: label})
		for _, in := range n.Inputs() {
			walk(in, depth+1, "")
		}
		for _, sp := range subplansOf(n) {
			kind := "SubPlan"
			if !sp.Correlated {
				kind = "InitPlan"
			}
			walk(sp.Plan, depth+1, fmt.Sprintf("%s %d", kind, sp.ID))
		}
		if cs, ok := n.(*CTEScan); ok && !shown[cs.CTE.ID] && cs.CTE.Plan != nil {
			shown[cs.CTE.ID] = true
			walk(cs.CTE.Plan, depth+1, "CTE "+cs.CTE.Name)
		}
	}
	walk(p.Root, 0, "")
	for _, w := range p.Writes {
		walk(w.Plan.Root, 1, "CTE "+w.Name)
	}
}

// Explain renders a plan as text lines, one operator per line with its
// details indented below, as EXPLAIN returns them. With stats (EXPLAIN
// ANALYZE) each operator also shows what it did.
func Explain(p *Plan, stats map[Node]*NodeStats) []string {
	return ExplainText(p, stats, ExplainDoc{})
}

// ExplainText is Explain with EXPLAIN's options: doc.Costs adds each
// operator's "(cost=startup..total rows=n width=w)" to its head line as
// PostgreSQL's text format does, and doc.WAL (with stats) a "WAL:" line
// under each operator that wrote.
func ExplainText(p *Plan, stats map[Node]*NodeStats, doc ExplainDoc) []string {
	var lines []string
	var costs map[Node]*NodeCost
	if doc.Costs {
		costs = p.Costs()
	}
	walkDescriptions(p, Node.Describe, func(s explainStep) {
		// PostgreSQL's layout: children start with "->" and their details
		// line up under the operator name.
		indent := strings.Repeat("      ", s.depth)
		head := indent
		if s.depth > 0 {
			head = strings.Repeat("      ", s.depth-1) + "  ->  "
		}
		if s.label != "" {
			lines = append(lines, strings.Repeat("      ", s.depth-1)+"  "+s.label)
		}
		cost := ""
		if c := costs[s.node]; c != nil {
			cost = fmt.Sprintf("  (cost=%.2f..%.2f rows=%.0f width=%d)", c.Startup, c.Total, c.Rows, c.Width)
		}
		lines = append(lines, head+s.desc.Head+cost+analyzed(stats[s.node]))
		for _, a := range s.desc.Attrs {
			lines = append(lines, indent+"      "+a.Key+": "+a.Value)
		}
		if st := stats[s.node]; doc.WAL && st != nil && st.WALRecords > 0 {
			lines = append(lines, fmt.Sprintf("%s      WAL: records=%d bytes=%d", indent, st.WALRecords, st.WALBytes))
		}
	})
	return lines
}

func analyzed(s *NodeStats) string {
	if s == nil {
		return ""
	}
	out := fmt.Sprintf("  (actual rows=%d time=%.3fms", s.Rows, float64(s.Time.Microseconds())/1000)
	if s.Loops > 1 {
		out += fmt.Sprintf(" loops=%d", s.Loops)
	}
	if s.Requests > 0 || s.ItemsRead > 0 {
		out += fmt.Sprintf(" items read=%d store requests=%d", s.ItemsRead, s.Requests)
	}
	if s.Capacity > 0 {
		out += fmt.Sprintf(" capacity=%.1f", s.Capacity)
	}
	if s.TopNBatches > 0 {
		out += fmt.Sprintf(" batches=%d cells=%d ranges=%d", s.TopNBatches, s.TopNCells, s.TopNRanges)
	}
	if s.Rings > 0 {
		out += fmt.Sprintf(" rings=%d ranges=%d", s.Rings, s.RingRanges)
	}
	if s.Squares > 0 {
		out += fmt.Sprintf(" squares=%d decoded=%d", s.Squares, s.SquareDecoded)
	}
	if s.Batches > 0 {
		out += fmt.Sprintf(" batches=%d cells=%d ranges=%d", s.Batches, s.BatchCells, s.BatchRanges)
	}
	if s.HeldRows > 0 {
		out += fmt.Sprintf(" rows in held cells=%d", s.HeldRows)
	}
	if s.SpilledRows > 0 {
		out += fmt.Sprintf(" spilled=%d rows, %dkB", s.SpilledRows, (s.SpilledBytes+1023)/1024)
	}
	return out + ")"
}

func exprList(es []ir.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

func sortKeys(keys []ir.SortKey, cols []ir.Column) string {
	return strings.Join(sortKeyNames(keys, cols), ", ")
}

// sortKeyNames spells each sort key: its column's name (or #n), and its
// direction and NULLS placement when not the default.
func sortKeyNames(keys []ir.SortKey, cols []ir.Column) []string {
	var ks []string
	for _, k := range keys {
		s := fmt.Sprintf("#%d", k.Col+1)
		if k.Col < len(cols) && cols[k.Col].Name != "" && cols[k.Col].Name != "?column?" {
			s = cols[k.Col].Name
		}
		if k.Desc {
			s += " DESC"
		}
		if k.NullsFirst != k.Desc {
			if k.NullsFirst {
				s += " NULLS FIRST"
			} else {
				s += " NULLS LAST"
			}
		}
		ks = append(ks, s)
	}
	return ks
}

// Describe implementations.

func (x *Scan) Describe() Description {
	via := "primary key"
	if x.Index != nil {
		via = fmt.Sprintf("%s index %s", x.Index.Kind, x.Index.Name)
	}
	name := x.Table.Name
	if x.Alias != "" && x.Alias != x.Table.Name {
		name += " " + x.Alias
	}
	d := Description{Head: fmt.Sprintf("Scan %s via %s: %s", name, via, x.Method)}
	if x.Reverse {
		d.Head += " (reverse)"
	}
	if x.Dynamic {
		d.Head = fmt.Sprintf("Scan %s (access path chosen per outer row)", name)
		if !ir.HasOuterRef(x.spec.Filter) {
			d.Head = fmt.Sprintf("Scan %s (access path chosen when it opens, with the InitPlan values)", name)
		}
		d.add("filter", "%s", exprString(x.spec.Filter))
		d.add("first plan", "%s: %s", via, x.Method)
		if len(x.spec.Order) > 0 && x.Limit > 0 {
			d.add("order", "yields %s per opening (sorted when the path chosen does not), stops after %d row%s",
				sortKeys(x.spec.Order, x.cols), x.Limit, plural(x.Limit))
		} else if x.Limit > 0 {
			d.add("stops after", "%d rows per opening", x.Limit)
		}
		return d
	}
	if x.Partitions != nil {
		d.add("partition of", "%s", x.Partitions.Root)
		x.Partitions.describe(&d)
	}
	d.add("why", "%s", x.Reason)
	for _, r := range x.Rejected {
		d.add("rejected", "%s (%s)", r.Path, r.Reason)
	}
	if x.Hint != "" {
		d.add("hint", "%s", x.Hint)
	}
	d.add("shards", "%s", x.shardsRead())
	switch {
	case x.Method == InvertedScan:
		d.add("tokens", "%d: %s", len(x.Inverted.Tokens()), x.Inverted)
	case x.Method == PointGet:
		d.add("keys", "%d%s", len(x.Points), shownList(x.described()))
	case x.Method == ZOrderNearest || x.Method == XZNearest:
		d.add("nearest", "%s", x.Nearest.Describe())
	default:
		d.add("key ranges", "%d%s", len(x.Ranges), shownRanges(x))
	}
	if x.TopN != nil {
		d.add("top-n", "%s", x.TopN.Describe())
	}
	if x.ZSchema != nil {
		d.add("z-order", "%s", x.zorderLayout())
		if x.ZBudget != "" {
			d.add("z-order budget", "%s", x.ZBudget)
		}
		if x.ZRangeBox != "" {
			d.add("range box", "%s", x.ZRangeBox)
		}
		if x.ZClipped {
			d.add("z-order box", "clipped to the data bounds (%.3g of the search space)", x.ZSchema.Estimate(x.ZBox))
		}
	}
	if e := x.Estimated; e != nil {
		if e.Capacity > 0 {
			d.add("estimate", "~%s rows, %s items read, %s requests, %s read capacity units (statistics)",
				countText(e.Rows), countText(e.Items), countText(e.Requests), countText(e.Capacity))
		} else {
			d.add("estimate", "~%s rows, %s items read, %s requests (statistics)", countText(e.Rows), countText(e.Items), countText(e.Requests))
		}
	} else if x.Method != InvertedScan && x.Method != ZOrderNearest && x.Method != XZNearest { // no search space to measure (a nearest scan reads until it settles)

		d.add("estimate", "%.3g of the search space", x.Estimate)
	}
	x.describeCovering(&d)
	if x.Ordered && len(x.Shards) == 1 && x.shardsTotal() > 1 {
		d.add("order", "yields ORDER BY (one shard read, no merge)")
	} else if x.Ordered {
		d.add("order", "yields ORDER BY (k-way merge of shards)")
	} else if x.InsertionOrder {
		d.add("order", "insertion order (k-way merge of shards)")
	}
	if x.Limit > 0 {
		d.add("stops after", "%d rows", x.Limit)
	}
	if c, ok := x.Residual.(*ir.Const); ok {
		// A filter no row passes (WHERE false): the scan reads nothing.
		d.add("one-time filter", "%s", c.String())
	} else if x.Residual != nil {
		d.add("residual filter", "%s", x.Residual.String())
	}
	return d
}

// shardsTotal is how many shards the read object (table or index) has.
func (x *Scan) shardsTotal() int {
	if x.Index != nil {
		return x.Index.Shards
	}
	return x.Table.Shards
}

// shardsRead is the "shards" detail: how many of the shards are read.
func (x *Scan) shardsRead() string {
	if x.ShardNote != "" {
		return fmt.Sprintf("%d of %d (%s)", len(x.Shards), x.shardsTotal(), x.ShardNote)
	}
	return fmt.Sprintf("%d of %d", len(x.Shards), x.shardsTotal())
}

// zorderLayout is the "z-order" detail of a Z-order read.
func (x *Scan) zorderLayout() string {
	layout := "" // the default layout goes unsaid
	if x.Index != nil && x.Index.LeadsOption() != "" {
		layout = ", leads " + x.Index.LeadsOption()
	}
	return fmt.Sprintf("%d attributes, %d-bit addresses%s", x.ZSchema.Dims(), x.ZSchema.Bits(), layout)
}

// lookupNote is the "lookup" detail of a read through an index that does
// not cover the columns wanted.
const lookupNote = "table rows fetched by primary key (index does not cover)"

// describeCovering adds whether an index read fetches the table's rows.
func (x *Scan) describeCovering(d *Description) {
	if x.Lookup {
		d.add("lookup", lookupNote)
	} else if x.Index != nil {
		d.add("covering", "yes")
	}
}

// describeShape is the part of n's description a plan's shape keeps
// (shapeKeys): how it reads, never what it compares. A statement's
// statistics sample its shape, and rendering its conditions would render
// its constants too: a folded repeat() of 600 MB took seconds and
// gigabytes to spell after the statement itself had failed.
func describeShape(n Node) Description {
	var d Description
	switch x := n.(type) {
	case *Scan:
		if x.Dynamic {
			break
		}
		d.add("shards", "%s", x.shardsRead())
		if x.ZSchema != nil {
			d.add("z-order", "%s", x.zorderLayout())
		}
		x.describeCovering(&d)
	case *LookupJoin:
		if s := x.shardsPerRange(); s != "" {
			d.add("shards", "%s", s)
		}
		if x.Lookup {
			d.add("lookup", lookupNote)
		}
	}
	return d
}

func exprString(e ir.Expr) string {
	if e == nil {
		return "true"
	}
	return e.String()
}

func (x *Rowset) Describe() Description {
	return Description{Head: fmt.Sprintf("Rowset %s (rows from the catalog)", x.View)}
}

func (x *Values) Describe() Description {
	d := Description{Head: fmt.Sprintf("Values (%d row%s)", len(x.Rows), plural(len(x.Rows)))}
	if x.Pruned {
		d.Head = "Result (no rows: the filter excludes every partition)"
	}
	if len(x.Rows) == 1 && len(x.Rows[0]) == 0 {
		d.Head = "Result"
	}
	return d
}

func (x *TableFunc) Describe() Description {
	d := Description{Head: "Function " + x.Name}
	d.add("arguments", "%s", exprList(x.Args))
	if x.Ordinality {
		d.add("ordinality", "yes")
	}
	return d
}

func (x *Filter) Describe() Description {
	d := Description{Head: "Filter"}
	d.add("filter", "%s", x.Pred.String())
	if x.Gate != nil {
		// Its conjuncts that gate the input (PostgreSQL's One-Time Filter).
		d.add("one-time filter", "%s", x.Gate.String())
	}
	return d
}

func (x *Project) Describe() Description {
	d := Description{Head: "Project"}
	if len(x.Exprs) > 0 {
		// (None for an EXISTS subquery's rows, which it only counts.)
		d.add("output", "%s", exprList(x.Exprs))
	}
	return d
}

func (x *Aggregate) Describe() Description {
	d := Description{Head: "Aggregate"}
	switch {
	case x.GroupingSets != nil:
		// One key per grouping set, as PostgreSQL's MixedAggregate lists
		// its Hash Keys (and the empty set as Group Key: ()).
		for _, set := range x.GroupingSets {
			if len(set) == 0 {
				d.add("group key", "()")
				continue
			}
			keys := make([]ir.Expr, len(set))
			for i, g := range set {
				keys[i] = x.GroupBy[g]
			}
			d.add("hash key", "%s", exprList(keys))
		}
	case len(x.GroupBy) > 0:
		d.add("group by", "%s", exprList(x.GroupBy))
	}
	var as []string
	for _, a := range x.Aggs {
		as = append(as, aggString(a))
	}
	d.add("aggregates", "%s", strings.Join(as, ", "))
	if x.InScan {
		d.add("computed", "inside the scan: each item read feeds the aggregates, no rows are built")
	}
	if len(x.StreamOrder) > 0 {
		d.add("streaming", "groups are runs of the input, ordered by %s", sortKeys(x.StreamOrder, x.Input.Columns()))
	}
	return d
}

func aggString(a ir.AggCall) string {
	if a.Arg == nil {
		return string(a.Func)
	}
	var s string
	if ir.IsOrderedSet(a.Func) {
		// Args are the sorted value, then the direct arguments.
		s = fmt.Sprintf("%s(%s) WITHIN GROUP (ORDER BY %s)", a.Func, exprList(a.Args[1:]), sortKeyList(a.OrderBy))
	} else {
		s = fmt.Sprintf("%s(%s%s", a.Func, map[bool]string{true: "DISTINCT ", false: ""}[a.Distinct], exprList(a.Args))
		if len(a.OrderBy) > 0 {
			s += " ORDER BY " + sortKeyList(a.OrderBy)
		}
		s += ")"
	}
	if a.Filter != nil {
		s += " FILTER (WHERE " + a.Filter.String() + ")"
	}
	return s
}

// sortKeyList prints the ORDER BY keys of an aggregate.
func sortKeyList(keys []ir.SortKeyExpr) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.E.String()
		if k.Desc {
			parts[i] += " DESC"
		}
		if k.NullsFirst != k.Desc {
			parts[i] += map[bool]string{true: " NULLS FIRST", false: " NULLS LAST"}[k.NullsFirst]
		}
	}
	return strings.Join(parts, ", ")
}

func (x *Window) Describe() Description {
	d := Description{Head: "Window"}
	for _, c := range x.Calls {
		name := c.Func
		args := exprList(c.Args)
		if c.Agg != nil {
			args = exprList(c.Agg.Args)
			if c.Agg.Func == ir.AggCountStar {
				args = "*"
			}
		}
		over := ""
		if len(c.PartitionBy) > 0 {
			over = "PARTITION BY " + exprList(c.PartitionBy)
		}
		if len(c.OrderBy) > 0 {
			var ks []string
			for _, k := range c.OrderBy {
				s := k.E.String()
				if k.Desc {
					s += " DESC"
				}
				if k.NullsFirst != k.Desc {
					s += map[bool]string{true: " NULLS FIRST", false: " NULLS LAST"}[k.NullsFirst]
				}
				ks = append(ks, s)
			}
			if over != "" {
				over += " "
			}
			over += "ORDER BY " + strings.Join(ks, ", ")
		}
		if f := frameString(c.Frame); f != "" {
			if over != "" {
				over += " "
			}
			over += f
		}
		if c.Agg != nil && c.Agg.Filter != nil {
			args += ") FILTER (WHERE " + c.Agg.Filter.String()
		}
		d.add("function", "%s(%s) OVER (%s)", name, args, over)
	}
	return d
}

// frameString spells a window frame as SQL writes it, or "" for the
// default (RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW).
func frameString(f ir.WindowFrame) string {
	if f.Mode == ir.FrameRange && f.Start.Kind == ir.UnboundedPreceding && f.End.Kind == ir.CurrentRow && f.Exclude == "" {
		return ""
	}
	bound := func(b ir.FrameBound) string {
		switch b.Kind {
		case ir.UnboundedPreceding:
			return "UNBOUNDED PRECEDING"
		case ir.OffsetPreceding:
			return b.Offset.String() + " PRECEDING"
		case ir.CurrentRow:
			return "CURRENT ROW"
		case ir.OffsetFollowing:
			return b.Offset.String() + " FOLLOWING"
		}
		return "UNBOUNDED FOLLOWING"
	}
	s := [...]string{"RANGE", "ROWS", "GROUPS"}[f.Mode] + " BETWEEN " + bound(f.Start) + " AND " + bound(f.End)
	if f.Exclude != "" {
		s += " EXCLUDE " + strings.ToUpper(f.Exclude)
	}
	return s
}

func (x *Sort) Describe() Description {
	d := Description{Head: "Sort"}
	if x.Limit > 0 {
		d.Head = fmt.Sprintf("TopN %d", x.Limit)
	}
	d.add("sort key", "%s", sortKeys(x.Keys, x.Input.Columns()))
	return d
}

func (x *Distinct) Describe() Description {
	d := Description{Head: "Distinct"}
	if len(x.On) > 0 {
		cols := x.Input.Columns()
		var names []string
		for _, c := range x.On {
			names = append(names, cols[c].Name)
		}
		d.add("on", "%s", strings.Join(names, ", "))
	}
	return d
}

func (x *Limit) Describe() Description {
	if x.CountExpr != nil || x.OffsetExpr != nil {
		d := Description{Head: "Limit"}
		if x.CountExpr != nil {
			d.add("count", "%s", x.CountExpr.String())
		}
		if x.OffsetExpr != nil {
			d.add("offset", "%s", x.OffsetExpr.String())
		}
		return d
	}
	switch {
	case x.Count < 0:
		return Description{Head: fmt.Sprintf("Offset %d", x.Offset)}
	case x.Offset == 0:
		return Description{Head: fmt.Sprintf("Limit %d", x.Count)}
	}
	return Description{Head: fmt.Sprintf("Limit %d offset %d", x.Count, x.Offset)}
}

func (x *SetOp) Describe() Description {
	if x.Partitions != nil {
		d := Description{Head: "Append (UNION ALL) of the partitions of " + x.Partitions.Root}
		x.Partitions.describe(&d)
		return d
	}
	if x.Op == ir.Union && x.All {
		return Description{Head: "Append (UNION ALL)"}
	}
	head := "Hash " + x.Op.String()
	if x.All {
		head += " ALL"
	}
	return Description{Head: head}
}

func (x *CTEScan) Describe() Description {
	d := Description{Head: "CTE Scan " + x.CTE.Name}
	if x.CTE.Merge {
		d.add("rows", "the rows of the join above whose WHEN clause takes this action")
		return d
	}
	if x.CTE.Plan == nil {
		d.add("rows", "returned by the data-modifying WITH query, which runs first")
		return d
	}
	if x.CTE.Shared {
		d.add("shared", "computed once for its %s", "references")
	}
	return d
}

func (x *RecursiveUnion) Describe() Description {
	d := Description{Head: "Recursive Union"}
	if x.All {
		d.Head += " ALL"
	}
	return d
}

func (x *WorkTable) Describe() Description {
	return Description{Head: "WorkTable Scan"}
}

func (x *HashJoin) Describe() Description {
	d := Description{Head: fmt.Sprintf("Hash Join (%s)", x.Kind)}
	var conds []string
	for i := range x.LeftKeys {
		conds = append(conds, x.LeftKeys[i].String()+" = "+x.RightKeys[i].String())
	}
	d.add("hash keys", "%s", strings.Join(conds, ", "))
	if x.Reason != "" {
		d.add("why", "%s", x.Reason)
	}
	if x.Residual != nil {
		d.add("join filter", "%s", x.Residual.String())
	}
	d.add("build side", "right input (hash table in memory)")
	return d
}

func (x *MergeJoin) Describe() Description {
	d := Description{Head: fmt.Sprintf("Merge Join (%s)", x.Kind)}
	var conds []string
	for i := range x.LeftKeys {
		conds = append(conds, x.LeftKeys[i].String()+" = "+x.RightKeys[i].String())
	}
	d.add("merge keys", "%s", strings.Join(conds, ", "))
	d.add("why", "%s", x.Reason)
	if x.Residual != nil {
		d.add("join filter", "%s", x.Residual.String())
	}
	return d
}

// shardsPerRange is the "shards" detail of a lookup join by key ranges
// over a sharded table or index ("" for point gets or one shard).
func (x *LookupJoin) shardsPerRange() string {
	names := x.Table.ShardColumnNames(x.Index)
	if names == nil || x.PointGet {
		return ""
	}
	total, _ := x.Table.ShardPlacement(x.Index)
	per, bound := shardsPerRange(x.Table, x.Index, len(x.KeyExprs)), "bound"
	if per > 1 {
		bound = "not bound"
	}
	return fmt.Sprintf("%d of %d per key range (shard_columns %s %s)", per, total, strings.Join(names, ", "), bound)
}

func (x *LookupJoin) Describe() Description {
	via := "primary key"
	if x.Index != nil {
		via = fmt.Sprintf("%s index %s", x.Index.Kind, x.Index.Name)
	}
	name := x.Table.Name
	if x.Alias != "" && x.Alias != x.Table.Name {
		name += " " + x.Alias
	}
	d := Description{Head: fmt.Sprintf("Lookup Join (%s) on %s via %s", x.Kind, name, via)}
	d.add("why", "%s", x.Reason)
	for _, r := range x.Rejected {
		d.add("rejected", "%s (%s)", r.Path, r.Reason)
	}
	var keys []string
	for i, e := range x.KeyExprs {
		keys = append(keys, x.Table.Columns[x.KeyCols[i].Column].Name+" = "+e.String())
	}
	d.add("lookup keys", "%s", strings.Join(keys, ", "))
	method := "point gets"
	if !x.PointGet {
		method = "one key range per outer row"
	}
	d.add("batches", "%d outer rows per round, %s, grouped by shard", x.Batch, method)
	if s := x.shardsPerRange(); s != "" {
		d.add("shards", "%s", s)
	}
	if x.Lookup {
		d.add("lookup", lookupNote)
	}
	if x.InnerFilter != nil {
		d.add("inner filter", "%s", x.InnerFilter.String())
	}
	if x.Residual != nil {
		d.add("join filter", "%s", x.Residual.String())
	}
	return d
}

func (x *NestedLoop) Describe() Description {
	d := Description{Head: fmt.Sprintf("Nested Loop (%s)", x.Kind)}
	if x.Pred != nil {
		d.add("join filter", "%s", x.Pred.String())
	}
	if x.Reason != "" {
		d.add("why", "%s", x.Reason)
	}
	return d
}

func (x *Apply) Describe() Description {
	d := Description{Head: fmt.Sprintf("Apply (%s)", x.Kind)}
	if x.Reason != "" {
		d.add("why", "%s", x.Reason)
	} else {
		d.add("why", "the right side reads the left row (LATERAL or a correlated subquery): run once per left row")
	}
	if x.Pred != nil {
		d.add("join filter", "%s", x.Pred.String())
	}
	return d
}

// indexWrites describes the index entries a write maintains.
func indexWrites(d *Description, t *catalog.Table) {
	for _, ix := range t.Indexes {
		var cols []string
		for _, k := range ix.Columns {
			c := t.KeyName(k)
			if k.Desc {
				c += " DESC"
			}
			cols = append(cols, c)
		}
		s := fmt.Sprintf("%s index %s (%s)", ix.Kind, ix.Name, strings.Join(cols, ", "))
		if ix.Partial() {
			s += " WHERE " + ix.Predicate
		}
		if ix.Unique {
			s = "unique " + s
		}
		if len(ix.Include) > 0 {
			var inc []string
			for _, c := range ix.Include {
				inc = append(inc, t.Columns[c].Name)
			}
			s += " INCLUDE (" + strings.Join(inc, ", ") + ")"
		}
		d.add("maintains", "%s, %d shard%s, %s", s, ix.Shards, plural(ix.Shards), ix.State)
	}
}

// constraintWrites describes the CHECKs and foreign keys a write enforces.
func constraintWrites(d *Description, t *catalog.Table, c *ir.Constraints) {
	tc := c.For(t.Name)
	if tc == nil {
		return
	}
	var checks []string
	for _, ch := range tc.Checks {
		checks = append(checks, ch.Name)
	}
	if len(checks) > 0 {
		d.add("checks", "%s", strings.Join(checks, ", "))
	}
	names := func(tb *catalog.Table, cols []int) string {
		var out []string
		for _, c := range cols {
			out = append(out, tb.Columns[c].Name)
		}
		return strings.Join(out, ", ")
	}
	for _, o := range tc.Outgoing {
		d.add("foreign key", "%s (%s) references %s (%s): the referenced row is read and locked", o.FK.Name, names(t, o.FK.Columns), o.Parent.Name, names(o.Parent, o.FK.RefColumns))
	}
	for _, in := range tc.Incoming {
		d.add("referenced by", "%s of %s (%s), on delete %s, on update %s: referencing rows read through %s", in.FK.Name, in.Child.Name,
			names(in.Child, in.FK.Columns), strings.ToLower(string(in.FK.OnDelete)), strings.ToLower(string(in.FK.OnUpdate)), referencingPath(in.Child, in.FK))
	}
	if c.Txn {
		d.add("transaction", "checks and actions commit with the writes (a transaction of its own outside a block)")
	}
}

// referencingPath names how the rows referencing a key are found.
func referencingPath(t *catalog.Table, fk *catalog.ForeignKey) string {
	if catalog.LeadsWith(t.PrimaryKey, fk.Columns) {
		return "the primary key"
	}
	for _, ix := range t.Indexes {
		if ix.Kind == catalog.KindBTree && ix.State == catalog.StatePublic && !ix.Partial() && catalog.LeadsWith(ix.Columns, fk.Columns) {
			return "index " + ix.Name
		}
	}
	return "a full scan"
}

func (x *Insert) Describe() Description {
	d := Description{Head: "Insert into " + x.Table.Name}
	d.add("row", "primary key %s, %d shard%s", pkString(x.Table), x.Table.Shards, plural(x.Table.Shards))
	indexWrites(&d, x.Table)
	writeEstimateLine(&d, x.Estimated)
	constraintWrites(&d, x.Table, x.Constraints)
	switch {
	case x.OnConflict == nil:
		d.add("on conflict", "error (23505), checked by a conditional put")
	case x.OnConflict.DoNothing:
		d.add("on conflict", "do nothing (existing rows read by key)")
	default:
		var cols []string
		for c := range x.OnConflict.Set {
			cols = append(cols, x.Table.Columns[c].Name)
		}
		sort.Strings(cols)
		d.add("on conflict", "do update %s (existing rows read by key)", strings.Join(cols, ", "))
	}
	if x.Returning != nil {
		d.add("returning", "%s", exprList(x.Returning.Exprs))
	}
	return d
}

func (x *Update) Describe() Description {
	d := Description{Head: "Update " + x.Table.Name}
	var cols []string
	for c, e := range x.Set {
		cols = append(cols, x.Table.Columns[c].Name+" = "+e.String())
	}
	sort.Strings(cols)
	d.add("set", "%s", strings.Join(cols, ", "))
	indexWrites(&d, x.Table)
	writeEstimateLine(&d, x.Estimated)
	constraintWrites(&d, x.Table, x.Constraints)
	d.add("concurrency", "each row re-read by key and written conditionally on its version")
	if x.Returning != nil {
		d.add("returning", "%s", exprList(x.Returning.Exprs))
	}
	return d
}

func (x *Delete) Describe() Description {
	d := Description{Head: "Delete from " + x.Table.Name}
	indexWrites(&d, x.Table)
	writeEstimateLine(&d, x.Estimated)
	constraintWrites(&d, x.Table, x.Constraints)
	d.add("concurrency", "each row re-read by key and deleted conditionally on its version")
	if x.Returning != nil {
		d.add("returning", "%s", exprList(x.Returning.Exprs))
	}
	return d
}

// writeEstimateLine adds a write's capacity estimate (DynamoDB's).
func writeEstimateLine(d *Description, e *WriteEstimate) {
	if e != nil && e.Capacity > 0 {
		d.add("estimate", "~%s rows, %s items written, %s write capacity units (transactional)",
			countText(e.Rows), countText(e.Items), countText(e.Capacity))
	}
}

func pkString(tb *catalog.Table) string {
	var cols []string
	for _, k := range tb.PrimaryKey {
		s := tb.Columns[k.Column].Name
		if k.Desc {
			s += " DESC"
		}
		if tb.Columns[k.Column].Hidden {
			s += " (hidden row id)"
		}
		cols = append(cols, s)
	}
	return "(" + strings.Join(cols, ", ") + ")"
}

// described returns the SQL descriptions of a scan's points or ranges.
func (x *Scan) described() []string {
	if x.describe.t == nil {
		if x.Method == PointGet {
			return make([]string, len(x.Points))
		}
		return make([]string, len(x.Ranges))
	}
	return x.describe.shown()
}

// shownList prints the first few descriptions: " {a = 1} {a = 2} ...".
func shownList(items []string) string {
	var b strings.Builder
	for i, it := range items {
		if i == maxShownRanges {
			b.WriteString(" ...")
			break
		}
		b.WriteString(" {" + it + "}")
	}
	return b.String()
}

// shownRanges prints a scan's first few ranges: in SQL terms for the primary
// key and btree indexes, as shortened Z-addresses for Z-order indexes.
func shownRanges(x *Scan) string {
	if x.ZSchema == nil {
		shown := x.described()
		for i := range shown {
			if shown[i] == "" {
				shown[i] = "whole index"
				if x.Index == nil {
					shown[i] = "whole table"
				}
			}
		}
		return shownList(shown)
	}
	var b strings.Builder
	for i, r := range x.Ranges {
		if i == maxShownRanges {
			b.WriteString(" ...")
			break
		}
		// Show each address up to just past where the two differ.
		n := 6
		for n < len(r.Start) && n < len(r.End) && r.Start[n-2] == r.End[n-2] {
			n++
		}
		b.WriteString(" [" + shortAddr(r.Start, n, "min") + ", " + shortAddr(r.End, n, "max") + ")")
	}
	return b.String()
}

// shortAddr prints the first show bytes of a Z-address.
func shortAddr(a []byte, show int, empty string) string {
	if len(a) == 0 {
		return empty
	}
	if len(a) <= show {
		return "0x" + hex.EncodeToString(a)
	}
	return "0x" + hex.EncodeToString(a[:show]) + "…"
}
