package optimizer

import (
	"math"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// NodeCost is one operator's estimate in PostgreSQL's terms, which EXPLAIN
// shows on every node ("Startup Cost", "Total Cost", "Plan Rows", "Plan
// Width"): costs in the cost model's unit, one item read from the store
// (access_rules.go: a request weighs requestWeight items), composed up the
// tree as PostgreSQL's costsize.c composes them (ARCHITECTURE.md, Tuning).
type NodeCost struct {
	Startup, Total float64
	Rows           float64
	Width          int
	// Inner is a lookup join's inner read per outer row (a loop of the
	// index scan PostgreSQL's plan shows under its Nested Loop).
	Inner *NodeCost
}

// PostgreSQL's CPU costs relative to one page read (cpu_tuple_cost,
// cpu_operator_cost), taken relative to one item read: zproxy's planner
// models no CPU work of its own, and an item stands where PostgreSQL's
// page does as the unit of reading.
const (
	cpuTuple    = 0.01
	cpuOperator = 0.0025
)

// PostgreSQL's planner defaults where nothing better is known
// (selfuncs.h, pg_proc.prorows, costsize.c).
const (
	defaultEqSel       = 0.005   // DEFAULT_EQ_SEL: col = something
	defaultIneqSel     = 1.0 / 3 // DEFAULT_INEQ_SEL: col < something
	defaultRangeSel    = 0.005   // DEFAULT_RANGE_INEQ_SEL: lo < col < hi
	defaultUnkSel      = 0.005   // DEFAULT_UNK_SEL: IS NULL without statistics
	defaultClauseSel   = 0.5     // clause_selectivity's answer for any other clause
	defaultNumDistinct = 200     // DEFAULT_NUM_DISTINCT
	defaultSRFRows     = 1000    // a set-returning function's prorows
	limitParamFrac     = 0.10    // a LIMIT computed at run time keeps 10%
	recursiveRounds    = 10      // a recursive union's rounds (cost_recursive_union)
	appendCPUFactor    = 0.5     // APPEND_CPU_COST_MULTIPLIER
	defaultVarWidth    = 32      // get_typavgwidth's guess for a varlena
	hashBucketDefault  = 0.1     // estimate_hash_bucketsize without statistics
)

// unanalyzedRows is the rows a table never analyzed is assumed to hold
// for its costs (the access-path rules then decide by the bounds' shape,
// not by cost): PostgreSQL assumes ten pages, about a thousand rows of a
// few columns.
const unanalyzedRows = 1000

// costPlan estimates every operator of p, its subplans' and WITH queries'
// (Plan.Costs).
func costPlan(p *Plan, opts Options) map[Node]*NodeCost {
	c := &coster{opts: opts, out: map[Node]*NodeCost{}, work: map[int]float64{}, writes: map[int]*NodeCost{}}
	for _, w := range p.Writes {
		wc := w.Plan.Costs()
		for n, nc := range wc {
			c.out[n] = nc
		}
		c.writes[w.ID] = wc[w.Plan.Root]
	}
	c.cost(p.Root)
	return c.out
}

type coster struct {
	opts Options
	out  map[Node]*NodeCost
	// work holds each recursive union's work table rows, by its ID.
	work map[int]float64
	// writes holds each data-modifying WITH query's cost, by its ID.
	writes map[int]*NodeCost
}

func (c *coster) stats(t *catalog.Table) *catalog.TableStats {
	if c.opts.Stats == nil || t == nil {
		return nil
	}
	return c.opts.Stats(t.ID)
}

// cost estimates n and everything below it.
func (c *coster) cost(n Node) *NodeCost {
	if nc, ok := c.out[n]; ok {
		return nc
	}
	nc := c.node(n)
	nc.Width = c.width(n)
	// Initplans are paid once, before the node's first row; subplans once
	// per row the node evaluates them for (SS_charge_for_initplans,
	// cost_subplan).
	for _, sp := range subplansOf(n) {
		sc := c.cost(sp.Plan)
		if sp.Correlated {
			per := math.Max(nc.Rows, 1)
			if ins := n.Inputs(); len(ins) > 0 {
				per = math.Max(c.cost(ins[0]).Rows, 1)
			}
			nc.Total += per * sc.Total
		} else {
			nc.Startup += sc.Total
			nc.Total += sc.Total
		}
	}
	// Rows are whole and at least one (clamp_row_est), but a write's
	// without RETURNING, which returns none.
	if _, ok := n.(Write); !ok || nc.Rows > 0 {
		nc.Rows = math.Max(math.RoundToEven(nc.Rows), 1) // rint, as clamp_row_est
	}
	c.out[n] = nc
	return nc
}

func (c *coster) node(n Node) *NodeCost {
	w := requestWeight(c.opts)
	switch x := n.(type) {
	case *Scan:
		return c.scan(x, w)
	case *Rowset:
		rows := float64(unanalyzedRows)
		return &NodeCost{Total: rows * cpuTuple, Rows: rows}
	case *Values:
		rows := float64(len(x.Rows))
		per := cpuTuple
		if len(x.Rows) > 0 {
			per += cpuOperator * float64(len(x.Rows[0]))
		}
		return &NodeCost{Total: rows * per, Rows: rows}
	case *TableFunc:
		rows := srfRows(x.Name, x.Args)
		return &NodeCost{Total: rows * cpuTuple, Rows: rows}
	case *ProjectSet:
		in := c.cost(x.Input)
		rows := in.Rows * defaultSRFRows
		return &NodeCost{Startup: in.Startup, Total: in.Total + rows*cpuTuple, Rows: rows}
	case *Filter:
		in := c.cost(x.Input)
		return &NodeCost{Startup: in.Startup, Total: in.Total + in.Rows*cpuOperator*float64(conjuncts(x.Pred)),
			Rows: in.Rows * c.selectivity(x.Pred)}
	case *Project:
		in := c.cost(x.Input)
		computed := 0
		for _, e := range x.Exprs {
			if _, ok := e.(*ir.ColRef); !ok {
				computed++
			}
		}
		return &NodeCost{Startup: in.Startup, Total: in.Total + in.Rows*cpuOperator*float64(computed), Rows: in.Rows}
	case *Aggregate:
		return c.aggregate(x)
	case *Window:
		in := c.cost(x.Input)
		return &NodeCost{Startup: in.Startup, Total: in.Total + in.Rows*(cpuOperator*float64(len(x.Calls))+cpuTuple), Rows: in.Rows}
	case *Sort:
		// A top-N sort reports its input's rows, as PostgreSQL's bounded
		// Sort does: the Limit above it scales the run by what it keeps.
		in := c.cost(x.Input)
		startup := in.Total + sortComparisons(in.Rows, x.Limit)*2*cpuOperator
		return &NodeCost{Startup: startup, Total: startup + in.Rows*cpuOperator, Rows: in.Rows}
	case *Distinct:
		in := c.cost(x.Input)
		if len(x.On) > 0 {
			groups := c.groups(x.Input, x.On, in.Rows)
			return &NodeCost{Startup: in.Startup, Total: in.Total + in.Rows*cpuOperator*float64(len(x.On)), Rows: groups}
		}
		cols := make([]int, len(x.Input.Columns()))
		for i := range cols {
			cols[i] = i
		}
		groups := c.groups(x.Input, cols, in.Rows)
		startup := in.Total + in.Rows*cpuOperator*float64(len(cols))
		return &NodeCost{Startup: startup, Total: startup + groups*cpuTuple, Rows: groups}
	case *Limit:
		return limitCost(c.cost(x.Input), x)
	case *LockRows:
		return c.cost(x.Input)
	case *SetOp:
		l, r := c.cost(x.Left), c.cost(x.Right)
		if x.Op == ir.Union && x.All {
			rows := l.Rows + r.Rows
			return &NodeCost{Startup: l.Startup, Total: l.Total + r.Total + rows*cpuTuple*appendCPUFactor, Rows: rows}
		}
		rows := l.Rows + r.Rows
		switch x.Op {
		case ir.Intersect:
			rows = math.Min(l.Rows, r.Rows)
		case ir.Except:
			rows = l.Rows
		}
		startup := l.Total + r.Total + (l.Rows+r.Rows)*cpuOperator*float64(len(x.Cols))
		return &NodeCost{Startup: startup, Total: startup + rows*cpuTuple, Rows: rows}
	case *CTEScan:
		cte := &NodeCost{Rows: unanalyzedRows}
		if x.CTE.Plan != nil {
			cte = c.cost(x.CTE.Plan)
		} else if w := c.writes[x.CTE.ID]; w != nil {
			cte = w // its RETURNING rows
		}
		// The WITH query runs once before the scan's first row, as an
		// initplan of PostgreSQL's.
		return &NodeCost{Startup: cte.Total, Total: cte.Total + cte.Rows*cpuTuple, Rows: cte.Rows}
	case *RecursiveUnion:
		a := c.cost(x.Anchor)
		c.work[x.ID] = a.Rows * recursiveRounds
		r := c.cost(x.Recursive)
		rows := a.Rows + recursiveRounds*r.Rows
		return &NodeCost{Startup: a.Startup, Total: a.Total + recursiveRounds*r.Total + rows*cpuTuple, Rows: rows}
	case *WorkTable:
		rows := c.work[x.ID]
		return &NodeCost{Total: rows * cpuTuple, Rows: rows}
	case *HashJoin:
		o, i := c.cost(x.Left), c.cost(x.Right)
		keys := float64(len(x.LeftKeys))
		rows := joinRows(x.Kind, o.Rows, i.Rows, c.equiSel(x.Left, x.Right, x.LeftKeys, x.RightKeys)*c.selectivity(x.Residual))
		startup := o.Startup + i.Total + (cpuOperator*keys+cpuTuple)*i.Rows
		// Each outer row hashes its keys and compares them with half the
		// rows of its bucket (final_cost_hashjoin).
		probe := cpuOperator * keys * o.Rows * (1 + math.Max(math.Round(i.Rows*c.bucketFraction(x.Right, x.RightKeys)), 1)*0.5)
		return &NodeCost{Startup: startup, Total: startup + (o.Total - o.Startup) + probe + cpuTuple*rows, Rows: rows}
	case *MergeJoin:
		o, i := c.cost(x.Left), c.cost(x.Right)
		keys := float64(len(x.LeftKeys))
		rows := joinRows(x.Kind, o.Rows, i.Rows, c.equiSel(x.Left, x.Right, x.LeftKeys, x.RightKeys)*c.selectivity(x.Residual))
		return &NodeCost{Startup: o.Startup + i.Startup, Total: o.Total + i.Total + cpuOperator*keys*(o.Rows+i.Rows) + cpuTuple*rows, Rows: rows}
	case *NestedLoop:
		o, i := c.cost(x.Left), c.cost(x.Right)
		rows := joinRows(x.Kind, o.Rows, i.Rows, c.selectivity(x.Pred))
		// The inner rows are held and compared with each outer row.
		return &NodeCost{Startup: o.Startup + i.Total, Total: o.Total + i.Total + o.Rows*i.Rows*cpuOperator + rows*cpuTuple, Rows: rows}
	case *Apply:
		o, i := c.cost(x.Left), c.cost(x.Right)
		rows := joinRows(x.Kind, o.Rows, i.Rows, c.selectivity(x.Pred))
		// The inner side runs again for each outer row.
		return &NodeCost{Startup: o.Startup + i.Startup, Total: o.Total + math.Max(o.Rows, 1)*i.Total + rows*cpuTuple, Rows: rows}
	case *LookupJoin:
		return c.lookupJoin(x, w)
	case *Insert:
		return c.write(x.Source, x.Table, indexCount(x.Table, nil), x.Returning != nil)
	case *Update:
		return c.write(x.Source, x.Table, 2*indexCount(x.Table, x.Set), x.Returning != nil)
	case *Delete:
		return c.write(x.Source, x.Table, indexCount(x.Table, nil), x.Returning != nil)
	}
	// An operator this walk does not know: its inputs' costs, their rows.
	nc := &NodeCost{}
	for i, in := range n.Inputs() {
		ic := c.cost(in)
		if i == 0 {
			nc.Startup, nc.Rows = ic.Startup, ic.Rows
		}
		nc.Total += ic.Total
	}
	return nc
}

// scan is the access path's cost: the cost model's (items plus weighted
// requests) from the table's statistics, or for a table never analyzed
// the same formula over unanalyzedRows with PostgreSQL's default
// selectivities (the Scan's Assumed estimate); rows past the residual
// filter, which costs an operator per item read.
func (c *coster) scan(x *Scan, w float64) *NodeCost {
	if x.Nearest != nil {
		return c.nearest(x, w)
	}
	est := x.Estimated
	if est == nil {
		est = x.Assumed
	}
	var nc *NodeCost
	items := 0.0
	switch {
	case est != nil && !x.Dynamic:
		nc = &NodeCost{Total: est.Cost, Rows: est.Rows}
		items = est.Items
	default:
		// A scan planned when it opens (per outer row, or with an
		// initplan's values), or an inverted scan: a parameterised
		// lookup of PostgreSQL's, an equality's share of the table.
		rows := float64(unanalyzedRows)
		if ts := c.stats(x.Table); ts != nil {
			rows = ts.Rows
		}
		if x.Method != FullScan || x.Dynamic {
			rows *= defaultEqSel
		}
		items = rows
		nc = &NodeCost{Total: rows + float64(max(len(x.Shards), 1))*w, Rows: rows}
	}
	if x.Limit > 0 {
		nc.Rows = math.Min(nc.Rows, float64(x.Limit))
	}
	if x.Residual != nil {
		nc.Total += items * cpuOperator * float64(conjuncts(x.Residual))
		nc.Rows *= c.selectivity(x.Residual)
	}
	return nc
}

// nearestOverRead is how many entries a nearest-neighbour scan reads per
// candidate it needs: its square rings hold 4/π of the circle they settle,
// and the last ring overshoots the k-th distance (executor/nearest.go).
const nearestOverRead = 2.0

// nearest: a nearest-neighbour scan reads about K rows that pass its
// residual, each ring a few requests per shard; its rows are those K.
func (c *coster) nearest(x *Scan, w float64) *NodeCost {
	sel := 1.0
	if x.Residual != nil {
		sel = math.Max(c.selectivity(x.Residual), 1e-6)
	}
	read := float64(x.Nearest.K) / sel * nearestOverRead
	rows := float64(unanalyzedRows)
	if ts := c.stats(x.Table); ts != nil {
		rows = ts.Rows
	}
	read = math.Min(read, rows)
	items := read
	if x.Lookup {
		items *= 2
	}
	const rings = 3 // the probe and two rings, typically
	requests := rings * float64(max(len(x.Shards), 1))
	total := items + requests*w
	if x.Residual != nil {
		total += read * cpuOperator * float64(conjuncts(x.Residual))
	}
	return &NodeCost{Total: total, Rows: math.Min(float64(x.Nearest.K), read*sel)}
}

// lookupJoin: the outer input, then per outer row the inner rows its key
// binds (one for a whole primary or unique key; else the table's rows over
// the key's distinct values), read in batches of lookupBatch outer rows, a
// request per batch and, through a non-covering index, the rows' gets.
func (c *coster) lookupJoin(x *LookupJoin, w float64) *NodeCost {
	o := c.cost(x.Left)
	per := c.matchesPerKey(x)
	items := o.Rows * per
	if x.Index != nil && x.Lookup {
		items *= 2
	}
	requests := math.Ceil(o.Rows / lookupBatch)
	if x.Index != nil && x.Lookup {
		requests *= 2
	}
	sel := c.selectivity(x.InnerFilter) * c.selectivity(x.Residual)
	rows := joinRows(x.Kind, o.Rows, per*o.Rows, sel/math.Max(o.Rows, 1))
	loops := math.Max(o.Rows, 1)
	inner := &NodeCost{Total: (items + requests*w) / loops, Rows: math.Max(math.Round(per*c.selectivity(x.InnerFilter)), 1), Width: c.neededWidth(x.Table, x.Needed)}
	return &NodeCost{Startup: o.Startup, Total: o.Total + items + requests*w + rows*cpuTuple, Rows: rows, Inner: inner}
}

// matchesPerKey is the inner rows one outer row's key finds.
func (c *coster) matchesPerKey(x *LookupJoin) float64 {
	t := x.Table
	keyCols := t.PrimaryKey
	unique := true
	if x.Index != nil {
		keyCols, unique = x.Index.Columns, x.Index.Unique
	}
	if x.PointGet || unique && x.Index != nil && len(x.KeyExprs) >= len(keyCols) {
		return 1
	}
	rows := float64(unanalyzedRows)
	ts := c.stats(t)
	if ts != nil {
		rows = ts.Rows
	}
	nd := 1.0
	for _, k := range x.KeyCols[:len(x.KeyExprs)] {
		if k.Column < 0 {
			nd *= defaultNumDistinct // an expression's key
			continue
		}
		nd *= columnDistinct(t, ts, k.Column, rows)
	}
	return math.Max(rows/math.Max(nd, 1), 1)
}

// write is a ModifyTable's cost: its source's, plus one item written per
// row and per index entry the write changes (entries items each, the
// unit a read item costs); rows and width only with RETURNING, as
// PostgreSQL's.
func (c *coster) write(src Node, t *catalog.Table, entries float64, returning bool) *NodeCost {
	in := c.cost(src)
	nc := &NodeCost{Startup: in.Startup, Total: in.Total + in.Rows*(1+entries)}
	if returning {
		nc.Rows = in.Rows
	}
	return nc
}

func (c *coster) aggregate(x *Aggregate) *NodeCost {
	in := c.cost(x.Input)
	per := cpuOperator * float64(len(x.Aggs)+len(x.GroupBy))
	if len(x.GroupBy) == 0 {
		startup := in.Total + in.Rows*per
		return &NodeCost{Startup: startup, Total: startup + cpuTuple, Rows: 1}
	}
	groups := 0.0
	if x.GroupingSets != nil {
		for _, set := range x.GroupingSets {
			groups += c.exprGroups(x.Input, x.GroupBy, set, in.Rows)
		}
	} else {
		all := make([]int, len(x.GroupBy))
		for i := range all {
			all[i] = i
		}
		groups = c.exprGroups(x.Input, x.GroupBy, all, in.Rows)
	}
	if len(x.StreamOrder) > 0 {
		return &NodeCost{Startup: in.Startup, Total: in.Total + in.Rows*per + groups*cpuTuple, Rows: groups}
	}
	startup := in.Total + in.Rows*per
	return &NodeCost{Startup: startup, Total: startup + groups*cpuTuple, Rows: groups}
}

// exprGroups estimates the groups of the GroupBy expressions at set.
func (c *coster) exprGroups(in Node, groupBy []ir.Expr, set []int, rows float64) float64 {
	var cols []int
	extra := 1.0
	for _, g := range set {
		if ref, ok := groupBy[g].(*ir.ColRef); ok {
			cols = append(cols, ref.Index)
		} else {
			extra *= defaultNumDistinct
		}
	}
	if len(set) == 0 {
		return 1
	}
	return math.Min(c.groups(in, cols, rows)*extra, math.Max(rows, 1))
}

// groups estimates the distinct combinations of in's columns cols, as
// estimate_num_groups: the product of each column's distinct values (its
// statistics' where it is a table's column, else DEFAULT_NUM_DISTINCT),
// at most the rows.
func (c *coster) groups(in Node, cols []int, rows float64) float64 {
	out := in.Columns()
	g := 1.0
	for _, i := range cols {
		nd := float64(defaultNumDistinct)
		if i < len(out) && out[i].Table != nil && out[i].Col >= 0 && out[i].Col < len(out[i].Table.Columns) {
			t := out[i].Table
			ts := c.stats(t)
			n := float64(unanalyzedRows)
			if ts != nil {
				n = ts.Rows
			}
			nd = columnDistinct(t, ts, out[i].Col, n)
		}
		g *= nd
	}
	return math.Max(math.Min(g, rows), 1)
}

// columnDistinct is a table column's distinct values: the statistics'
// n_distinct (a negative one a fraction of the rows), the rows for a
// one-column primary key, else DEFAULT_NUM_DISTINCT.
func columnDistinct(t *catalog.Table, ts *catalog.TableStats, col int, rows float64) float64 {
	if len(t.PrimaryKey) == 1 && t.PrimaryKey[0].Column == col {
		return math.Max(rows, 1)
	}
	if cs := ts.Column(&t.Columns[col]); cs != nil && cs.Distinct > 0 {
		return cs.Distinct
	}
	return math.Min(defaultNumDistinct, math.Max(rows, 1))
}

// equiSel is an equi-join's selectivity, as eqjoinsel without statistics
// of value frequencies: per key pair 1/max(distinct values of each side).
func (c *coster) equiSel(l, r Node, lk, rk []ir.Expr) float64 {
	sel := 1.0
	lr, rr := c.cost(l).Rows, c.cost(r).Rows
	for i := range lk {
		nl, nr := c.exprDistinct(l, lk[i], lr), c.exprDistinct(r, rk[i], rr)
		sel /= math.Max(math.Max(nl, nr), 1)
	}
	return sel
}

// bucketFraction is the share of a hash table's rows in one bucket, as
// estimate_hash_bucketsize: one over the keys' distinct values where the
// statistics (or a one-column primary key) know them, else PostgreSQL's
// 0.1.
func (c *coster) bucketFraction(n Node, keys []ir.Expr) float64 {
	frac := 1.0
	out := n.Columns()
	for _, k := range keys {
		ref, ok := k.(*ir.ColRef)
		if !ok || ref.Index >= len(out) || out[ref.Index].Table == nil || out[ref.Index].Col < 0 {
			return hashBucketDefault
		}
		t, col := out[ref.Index].Table, out[ref.Index].Col
		ts := c.stats(t)
		pk := len(t.PrimaryKey) == 1 && t.PrimaryKey[0].Column == col
		if ts == nil && !pk || ts != nil && !pk && ts.Column(&t.Columns[col]) == nil {
			return hashBucketDefault
		}
		rows := float64(unanalyzedRows)
		if ts != nil {
			rows = ts.Rows
		}
		frac = math.Min(frac, 1/columnDistinct(t, ts, col, rows))
	}
	return frac
}

func (c *coster) exprDistinct(n Node, e ir.Expr, rows float64) float64 {
	if ref, ok := e.(*ir.ColRef); ok {
		return c.groups(n, []int{ref.Index}, math.Max(rows, 1))
	}
	return math.Min(defaultNumDistinct, math.Max(rows, 1))
}

// joinRows is a join's output rows from its inputs' and the selectivity
// of its condition over their cross product (calc_joinrel_size_estimate).
func joinRows(kind ir.JoinKind, outer, inner, sel float64) float64 {
	rows := outer * inner * sel
	switch kind {
	case ir.LeftJoin:
		rows = math.Max(rows, outer)
	case ir.RightJoin:
		rows = math.Max(rows, inner)
	case ir.FullJoin:
		rows = math.Max(rows, math.Max(outer, inner))
	case ir.SemiJoin:
		rows = math.Min(outer, rows)
	case ir.AntiJoin:
		rows = math.Max(outer-math.Min(outer, rows), outer*defaultEqSel)
	}
	return math.Max(rows, 1)
}

// limitCost scales the input's run by the fraction of its rows the limit
// keeps, as adjust_limit_rows_costs: the offset's rows are paid before the
// first row, the count's by the end; a count computed at run time keeps
// 10%.
func limitCost(in *NodeCost, x *Limit) *NodeCost {
	nc := &NodeCost{Startup: in.Startup, Total: in.Total, Rows: in.Rows}
	if in.Rows <= 0 {
		return nc
	}
	offset := float64(x.Offset)
	if x.OffsetExpr != nil {
		offset = in.Rows * limitParamFrac
	}
	offset = math.Min(offset, in.Rows)
	run := in.Total - in.Startup
	if offset > 0 {
		nc.Startup += run * offset / in.Rows
		nc.Rows -= offset
	}
	count := -1.0
	switch {
	case x.CountExpr != nil:
		count = math.Max(in.Rows*limitParamFrac, 1)
	case x.Count >= 0:
		count = float64(x.Count)
	}
	if count >= 0 && count < nc.Rows {
		nc.Rows = count
		nc.Total = in.Startup + run*(offset+count)/in.Rows
	}
	return nc
}

// sortComparisons is the comparisons sorting rows takes: N log2 N, or for
// a top-n sort keeping limit rows N log2(2 limit) (cost_sort).
func sortComparisons(rows float64, limit int) float64 {
	n := math.Max(rows, 2)
	if limit > 0 && float64(2*limit) < n {
		return n * math.Log2(2*float64(limit))
	}
	return n * math.Log2(n)
}

// srfRows is a set-returning function's rows: generate_series over
// constant integers counts them, as PostgreSQL 15's support function
// does; other functions their prorows, 1000.
func srfRows(name string, args []ir.Expr) float64 {
	if name == "generate_series" && (len(args) == 2 || len(args) == 3) {
		var v [3]int64
		step := int64(1)
		ok := true
		for i, a := range args {
			k, isConst := a.(*ir.Const)
			if !isConst || k.V.K != sqltypes.KindInt {
				ok = false
				break
			}
			v[i] = k.V.I
		}
		if len(args) == 3 {
			step = v[2]
		}
		if ok && step != 0 {
			n := math.Floor(float64(v[1]-v[0])/float64(step)) + 1
			return math.Max(n, 0)
		}
	}
	return defaultSRFRows
}

// conjuncts counts the ANDed clauses of a condition (the operators its
// check evaluates per row, at least one).
func conjuncts(e ir.Expr) int {
	if b, ok := e.(*ir.Binary); ok && b.Op == ir.OpAnd {
		return conjuncts(b.L) + conjuncts(b.R)
	}
	return 1
}

// selectivity is the fraction of rows a condition keeps, with
// PostgreSQL's default selectivities (clauselist_selectivity without
// statistics): ANDs multiply (a range's two bounds on one expression
// together DEFAULT_RANGE_INEQ_SEL), ORs add less their overlap.
func (c *coster) selectivity(e ir.Expr) float64 {
	if e == nil {
		return 1
	}
	switch x := e.(type) {
	case *ir.Binary:
		switch x.Op {
		case ir.OpAnd:
			var parts []ir.Expr
			flattenAnd(x, &parts)
			sel := 1.0
			bounded := map[string]int{}
			for _, p := range parts {
				if b, ok := p.(*ir.Binary); ok && isIneq(b.Op) {
					bounded[b.L.String()]++
				}
			}
			ranges := map[string]bool{}
			for _, p := range parts {
				if b, ok := p.(*ir.Binary); ok && isIneq(b.Op) && bounded[b.L.String()] > 1 {
					if !ranges[b.L.String()] {
						ranges[b.L.String()] = true
						sel *= defaultRangeSel
					}
					continue
				}
				sel *= c.selectivity(p)
			}
			return sel
		case ir.OpOr:
			l, r := c.selectivity(x.L), c.selectivity(x.R)
			return l + r - l*r
		case ir.OpEq, ir.OpNotDistinct:
			return defaultEqSel
		case ir.OpNe:
			return 1 - defaultEqSel
		case ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
			return defaultIneqSel
		}
	case *ir.Not:
		return 1 - c.selectivity(x.E)
	case *ir.IsNull:
		if x.Neg {
			return 1 - defaultUnkSel
		}
		return defaultUnkSel
	case *ir.InList:
		sel := math.Min(defaultEqSel*float64(len(x.List)), 1)
		if x.Neg {
			return 1 - sel
		}
		return sel
	case *ir.Const:
		if x.V.K == sqltypes.KindBool && !x.V.Bool() {
			return 0
		}
		return 1
	}
	return defaultClauseSel
}

func isIneq(op ir.BinOp) bool {
	return op == ir.OpLt || op == ir.OpLe || op == ir.OpGt || op == ir.OpGe
}

func flattenAnd(e ir.Expr, out *[]ir.Expr) {
	if b, ok := e.(*ir.Binary); ok && b.Op == ir.OpAnd {
		flattenAnd(b.L, out)
		flattenAnd(b.R, out)
		return
	}
	*out = append(*out, e)
}

// width is a node's average output row in bytes, PostgreSQL's "Plan
// Width": per column a table column's average width from its statistics,
// else its type's length (get_typavgwidth: a fixed-length type's size, a
// bounded varchar's guess, 32 for other variable-length types).
func (c *coster) width(n Node) int {
	cols := n.Columns()
	// Operators that pass their inputs' rows on (table-shaped rows, of
	// which only the columns the statement reads hold values) are as wide
	// as their inputs; those that add columns add theirs.
	inputs := 0
	switch x := n.(type) {
	case *Scan:
		if x.Needed != nil {
			cols = nil
			for _, i := range x.Needed {
				if i >= 0 && i < len(x.cols) {
					cols = append(cols, x.cols[i])
				}
			}
		}
	case *Filter, *Sort, *Limit, *Distinct:
		return c.cost(n.Inputs()[0]).Width
	case *Window, *ProjectSet:
		inputs = 1
	case *HashJoin, *MergeJoin, *NestedLoop, *Apply:
		inputs = 2
		if k := joinKindOf(n); k == ir.SemiJoin || k == ir.AntiJoin {
			return c.cost(n.Inputs()[0]).Width
		}
	case *LookupJoin:
		w := c.cost(x.Left).Width
		if x.Kind == ir.SemiJoin || x.Kind == ir.AntiJoin {
			return w
		}
		return w + c.neededWidth(x.Table, x.Needed)
	}
	total := 0
	if inputs > 0 {
		skip := 0
		for _, in := range n.Inputs()[:inputs] {
			total += c.cost(in).Width
			skip += len(in.Columns())
		}
		cols = cols[min(skip, len(cols)):]
	}
	for _, col := range cols {
		if col.Hidden {
			continue
		}
		if col.Table != nil && col.Col >= 0 && col.Col < len(col.Table.Columns) {
			if cs := c.stats(col.Table).Column(&col.Table.Columns[col.Col]); cs != nil {
				total += cs.AvgWidth
				continue
			}
		}
		total += typeWidth(col.Type)
	}
	return total
}

func joinKindOf(n Node) ir.JoinKind {
	switch x := n.(type) {
	case *HashJoin:
		return x.Kind
	case *MergeJoin:
		return x.Kind
	case *NestedLoop:
		return x.Kind
	case *Apply:
		return x.Kind
	}
	return ir.InnerJoin
}

// tableWidth is the width of a table's whole row.
func (c *coster) tableWidth(t *catalog.Table) int { return c.neededWidth(t, nil) }

// neededWidth is the width of the table's columns needed (nil: all).
func (c *coster) neededWidth(t *catalog.Table, needed []int) int {
	ts := c.stats(t)
	total := 0
	idx := needed
	if idx == nil {
		for i := range t.Columns {
			idx = append(idx, i)
		}
	}
	for _, i := range idx {
		if i < 0 || i >= len(t.Columns) {
			continue
		}
		col := &t.Columns[i]
		if col.Hidden {
			continue
		}
		if cs := ts.Column(col); cs != nil {
			total += cs.AvgWidth
			continue
		}
		total += typeWidth(col.Type)
	}
	return total
}

func typeWidth(t sqltypes.Type) int {
	if s := t.Size(); s > 0 {
		return int(s)
	}
	if m := t.TypeMod(); m > 4 && (t.ID == sqltypes.Varchar || t.ID == sqltypes.BPChar) {
		max := int(m) - 4
		if t.ID == sqltypes.BPChar || max <= defaultVarWidth {
			return max
		}
		return (max-defaultVarWidth)/2 + defaultVarWidth
	}
	return defaultVarWidth
}
