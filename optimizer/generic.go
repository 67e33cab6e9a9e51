package optimizer

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Generic plans: a prepared statement executed again and again need not be
// planned again and again. PostgreSQL's plan cache plans the first
// executions with their values (custom plans), then keeps one generic plan
// whose index conditions read the parameters when the executor starts.
// zproxy does the same with the one part of its plans that follows from
// the values: a scan's key ranges (or keys). A GenericPlan is a plan built
// for one set of values whose every other part is the same for any values;
// Instantiate re-derives each scan's ranges from new values, on the path the
// plan chose, and refuses (ok false: plan anew) when the values would not
// keep that path exact: a conjunct the ranges enforced is no longer a bound,
// an equality column of the key is no longer a set of points.
//
// What can change with the values, and so keeps a plan custom:
//   - a scan planned on something other than key prefixes (Z-order boxes,
//     inverted indexes, nearest neighbours, index expressions), a dynamic
//     scan (re-planned per outer row anyway), a table with a TTL (its
//     cutoff is the statement's time, folded into a filter);
//   - LIMIT and OFFSET other than constants (their counts are pushed into
//     scans and sorts);
//   - subqueries, data-modifying WITH, joins, set operations, windows:
//     whatever an operator outside the list in genericNode is.

// scanDerivation is what a planned scan's key ranges follow from: the
// conjuncts, the path chosen, and which conjuncts those ranges enforce
// (left out of the residual).
type scanDerivation struct {
	spec *scanSpec
	best *candidate
	// enforced maps each conjunct the ranges enforce exactly to its column.
	enforced  map[ir.Expr]int
	maxPoints int
	// What rederive reads of spec.Filter, split once rather than at each
	// execution: its conjuncts; the column each one the ranges enforce
	// is over, plus one (zero: not enforced), and how many are; the
	// constant ones (neverTrue).
	conj          []ir.Expr
	enforcedCol   []int
	enforcedCount int
	constant      []ir.Expr
}

// prepare splits the filter for rederive, once enforced is complete.
func (d *scanDerivation) prepare() {
	d.conj = ir.Conjuncts(d.spec.Filter)
	d.constant = constantConjuncts(d.conj)
	d.enforcedCol = make([]int, len(d.conj))
	for i, c := range d.conj {
		if col, ok := d.enforced[c]; ok {
			d.enforcedCol[i] = col + 1
			d.enforcedCount++
		}
	}
}

// GenericPlan is a plan reusable for other values of its parameters.
type GenericPlan struct {
	plan *Plan
}

// Generic returns p as a generic plan, or ok false when some part of p
// other than its scans' key ranges depends on the values it was planned
// with.
func Generic(p *Plan) (*GenericPlan, bool) {
	if p == nil || p.Root == nil || len(p.Writes) > 0 || !genericNode(p.Root) {
		return nil, false
	}
	return &GenericPlan{plan: p}, true
}

// Plan is the plan the generic plan was built from.
func (g *GenericPlan) Plan() *Plan { return g.plan }

// Instantiate returns the plan for params under opts (this execution's
// function context): the generic plan with each scan's key ranges derived
// from the values. ok false means the values do not fit the plan's paths;
// the caller plans the statement anew.
func (g *GenericPlan) Instantiate(params []sqltypes.Value, opts Options) (*Plan, bool) {
	ctx := &ir.EvalContext{Params: params, Now: opts.Fn.Now, Fn: opts.Fn}
	var first *Scan
	root, ok := instantiate(g.plan.Root, ctx, g.plan.Scan, &first)
	if !ok {
		return nil, false
	}
	// The template's count of full scans holds for every instance (a
	// rederived scan keeps its method); counted here, on the session's
	// goroutine, so instances only read it.
	FullScans(g.plan)
	return &Plan{Root: root, Scan: first, Notices: g.plan.Notices, Columns: g.plan.Columns, opts: opts, fullScans: g.plan.fullScans}, true
}

// SameShape reports whether two plans of one statement took the same
// paths: the same operators, and scans of the same index by the same
// method over the same key columns. A prepared statement whose custom plans
// keep one shape is served by a generic plan.
func SameShape(a, b *Plan) bool {
	if a == nil || b == nil {
		return false
	}
	return sameShape(a.Root, b.Root)
}

func sameShape(a, b Node) bool {
	switch x := a.(type) {
	case *Scan:
		y, ok := b.(*Scan)
		if !ok || x.Table != y.Table || x.Index != y.Index || x.Method != y.Method || x.Reverse != y.Reverse ||
			x.Limit != y.Limit || (x.derive == nil) != (y.derive == nil) {
			return false
		}
		if x.derive != nil {
			p, q := x.derive.best, y.derive.best
			if p.eqLen != q.eqLen || p.hasRange != q.hasRange || p.covering != q.covering {
				return false
			}
		}
		return true
	}
	ai, bi := a.Inputs(), b.Inputs()
	if len(ai) != len(bi) || a.Describe().Head != b.Describe().Head {
		return false
	}
	for i := range ai {
		if !sameShape(ai[i], bi[i]) {
			return false
		}
	}
	return true
}

// genericNode reports whether the plan under n is the same for any values
// of the statement's parameters once its scans' ranges are derived anew.
func genericNode(n Node) bool {
	if len(subplansOf(n)) > 0 {
		return false
	}
	switch x := n.(type) {
	case *Scan:
		// The one partition a filter left (Partitions) was chosen with
		// this execution's values.
		return x.derive != nil && !x.Dynamic && x.SortKeys == nil && x.Table.TTL == nil && x.Partitions == nil
	case *Limit:
		return constantCount(x.CountExpr) && constantCount(x.OffsetExpr) && genericNode(x.Input)
	case *Project, *Filter, *Sort, *Distinct, *Aggregate:
		return genericNode(n.Inputs()[0])
	case *Values:
		return !x.Pruned
	case *Insert:
		return genericNode(x.Source)
	case *Update:
		return genericNode(x.Source)
	case *Delete:
		return genericNode(x.Source)
	}
	return false
}

func constantCount(e ir.Expr) bool {
	if e == nil {
		return true
	}
	_, ok := e.(*ir.Const)
	return ok
}

// instantiate copies the operators above the scans and derives the scans;
// first receives the copy of firstScan (the plan's Scan, for metrics).
func instantiate(n Node, ctx *ir.EvalContext, firstScan *Scan, first **Scan) (Node, bool) {
	var in Node
	if ins := n.Inputs(); len(ins) == 1 {
		var ok bool
		if in, ok = instantiate(ins[0], ctx, firstScan, first); !ok {
			return nil, false
		}
	}
	switch x := n.(type) {
	case *Scan:
		s, ok := x.derive.rederive(x, ctx)
		if ok && x == firstScan {
			*first = s
		}
		return s, ok
	case *Project:
		c := *x
		c.Input = in
		return &c, true
	case *Filter:
		c := *x
		c.Input = in
		return &c, true
	case *Limit:
		c := *x
		c.Input = in
		return &c, true
	case *Sort:
		c := *x
		c.Input = in
		return &c, true
	case *Distinct:
		c := *x
		c.Input = in
		return &c, true
	case *Aggregate:
		c := *x
		c.Input = in
		return &c, true
	case *Values:
		return x, true
	case *Insert:
		c := *x
		c.Source = in
		return &c, true
	case *Update:
		c := *x
		c.Source = in
		return &c, true
	case *Delete:
		c := *x
		c.Source = in
		return &c, true
	}
	return nil, false
}

// rederive is the scan tmpl with its key ranges derived from the values in
// ctx, on tmpl's path. ok false when the values do not keep the path
// exact: the residual tmpl kept relies on the conjuncts its ranges enforced.
func (d *scanDerivation) rederive(tmpl *Scan, ctx *ir.EvalContext) (*Scan, bool) {
	t := d.spec.Table
	kinds := func(c int) sqltypes.Kind { return t.Columns[c].Type.Kind() }
	exact := 0 // enforced conjuncts still exact for their column
	b := conjunctBounds(d.conj, ctx, kinds, func(i, col int) {
		if d.enforcedCol[i] == col+1 {
			exact++
		}
	})
	if someFalse(d.constant, ctx) {
		b.emptyAll(len(t.Columns))
	}
	if exact != d.enforcedCount {
		return nil, false
	}
	best := d.best
	for _, k := range best.keyCols[:best.eqLen] {
		if !b[k.Column].allPoints() {
			return nil, false
		}
	}
	if best.hasRange && b[best.keyCols[best.eqLen].Column] == nil {
		return nil, false
	}
	out := *tmpl
	out.Points, out.Ranges = nil, nil
	if tmpl.Method == FullScan {
		out.Ranges = []KeyRange{{}}
	} else {
		ranges, ok := keyRanges(nil, best.keyCols, best.eqLen, best.hasRange, b, d.maxPoints)
		if !ok {
			return nil, false
		}
		if tmpl.Method == PointGet {
			out.Points = make([][]byte, len(ranges))
			for i, r := range ranges {
				out.Points[i] = r.Start
			}
		} else {
			out.Ranges = ranges
		}
	}
	out.describe = describeRanges(t, best, b, d.maxPoints)
	out.Shards, out.ShardNote = scanShards(t, best, &out)
	out.use.ctx = ctx
	return &out, true
}

// ReadsNothing reports whether some scan of p reads no key at all, its
// values having bound a key column to nothing (an empty range, a NULL):
// a plan shaped by such values says nothing of the paths other values
// take.
func ReadsNothing(p *Plan) bool {
	empty := false
	Walk(p.Root, func(n Node) {
		if s, ok := n.(*Scan); ok && !s.Dynamic {
			switch s.Method {
			case PointGet:
				empty = empty || len(s.Points) == 0
			case RangeScan:
				empty = empty || len(s.Ranges) == 0
			}
		}
	})
	return empty
}
