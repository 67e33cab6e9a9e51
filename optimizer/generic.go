package optimizer

import (
	"slices"

	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
)

// Generic plans: a prepared statement executed again and again need not be
// planned again and again. PostgreSQL's plan cache plans the first
// executions with their values (custom plans), then keeps one generic plan
// whose index conditions read the parameters when the executor starts.
// zproxy does the same with the one part of its plans that follows from
// the values: its scans' access paths' arguments. A GenericPlan is a plan
// built for one set of values whose every other part is the same for any
// values; Instantiate re-derives each scan from new values, on the path the
// plan chose, and refuses (ok false: plan anew) when the values would not
// keep that path exact.
//
// A prefix path (primary key, btree index) derives its key ranges from the
// filter's bounds (rederive): it refuses when a conjunct the ranges
// enforced is no longer a bound, an equality column of the key no longer a
// set of points. An inverted scan derives its posting-list query and its
// recheck on the plan's gin index (invertedDerivation.rederive): it refuses
// when the index no longer narrows the same conjuncts (a containment of
// nothing, '{}', narrows none) or a partial index's predicate is no longer
// implied. Every other static path (a Z-order box's cover, a gist index's
// box, a nearest search, an index expression's bounds) is the scan alone
// planned again for the values by the same rules, with the view of the
// table's index expressions kept (replanScan, indexView.again), and kept
// when it took the same path (samePath): the same index, method, order and
// covering. Where the values make another path right (a NULL box, no
// bound left), the rules choose it and the plan is refused, so such an
// instance reads what a custom plan for its values would. An inverted
// instance may read another gin index than a custom plan would pick for
// its values (the one with fewer posting lists), as a PostgreSQL generic
// plan does: its lists hold every row the conjuncts can be true for, and
// the recheck keeps the answer exact.
//
// A key lookup's plan skips rederive's bounds altogether when it can
// (keyedScan): its key columns' values are encoded into the key as they
// are, and a value that is not that simple goes through rederive.
//
// What can change with the values, and so keeps a plan custom:
//   - a dynamic scan (re-planned per outer row anyway), a table with a TTL
//     (its cutoff is the statement's time, folded into a filter), the one
//     partition of a partitioned table a filter left;
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
	// keyed is the plan's one scan when its key is encoded straight from
	// the values (keyedScanOf), found at the first Instantiate; nil when
	// the plan has none.
	keyedOnce sync.Once
	keyed     *keyedScan
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
	if opts.MaxPoints <= 0 {
		opts.MaxPoints = DefaultMaxPoints
	}
	// The template's count of full scans holds for every instance (a
	// rederived scan keeps its method); counted here, on the session's
	// goroutine, so instances only read it.
	FullScans(g.plan)
	g.keyedOnce.Do(func() { g.keyed = keyedScanOf(g.plan) })
	if g.keyed != nil {
		if p, ok := g.keyed.instantiate(g.plan, params, &opts); ok {
			return p, true
		}
		// A NULL, a value of another kind, an error: the general path
		// decides, as it would have without the keyed scan.
	}
	in := instantiation{ctx: &ir.EvalContext{Params: params, Now: opts.Fn.Now, Fn: opts.Fn}, opts: opts, firstScan: g.plan.Scan}
	root, ok := in.node(g.plan.Root)
	if !ok {
		return nil, false
	}
	return &Plan{Root: root, Scan: in.first, Notices: g.plan.Notices, Columns: g.plan.Columns, opts: costOptionsOf(opts), fullScans: g.plan.fullScans}, true
}

// KeyFromParams reports whether p is a generic plan's instance whose scan
// key was encoded straight from the parameters (keyedScan), without
// deriving the filter's bounds: what EXPLAIN EXECUTE says of it.
func (p *Plan) KeyFromParams() bool { return p.keyed }

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
		if !ok || !samePath(x, y) || x.Limit != y.Limit {
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

// samePath reports whether two scans of one statement's table read it the
// same way: the same index by the same method, in the same order, with the
// same lookups, and re-derived for other values the same way. The
// operators above a scan rely on no more of it (a Sort left out for an
// ordered path, an aggregate computed inside a plain one).
func samePath(x, y *Scan) bool {
	return x.Table == y.Table && x.Index == y.Index && x.Method == y.Method && x.Reverse == y.Reverse &&
		x.Ordered == y.Ordered && x.InsertionOrder == y.InsertionOrder && x.Covering == y.Covering && x.Lookup == y.Lookup &&
		(x.derive == nil) == (y.derive == nil) && (x.replan == nil) == (y.replan == nil) && (x.inverted == nil) == (y.inverted == nil) &&
		(x.Nearest == nil) == (y.Nearest == nil) && (x.TopN == nil) == (y.TopN == nil) &&
		(x.ZSchema == nil) == (y.ZSchema == nil)
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
		return (x.derive != nil || x.replan != nil || x.inverted != nil) && !x.Dynamic && x.SortKeys == nil && x.Table.TTL == nil && x.Partitions == nil
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

// instantiation is one Instantiate's walk of the plan: the values, and
// the copy of the plan's first scan (for metrics) once made.
type instantiation struct {
	ctx *ir.EvalContext
	// opts are the execution's, for a scan planned again (replanScan); a
	// keyed instance, whose one scan is keyedOut, leaves them unset.
	opts      Options
	firstScan *Scan
	first     *Scan
	// keyedTmpl, when set, is a scan already derived: keyedOut.
	keyedTmpl, keyedOut *Scan
}

// node copies the operators above the scans and derives the scans.
func (c *instantiation) node(n Node) (Node, bool) {
	switch x := n.(type) {
	case *Scan:
		var s *Scan
		var ok bool
		switch {
		case x == c.keyedTmpl:
			s, ok = c.keyedOut, true
		case x.derive != nil:
			s, ok = x.derive.rederive(x, c.ctx)
		case x.inverted != nil:
			s, ok = x.inverted.rederive(x, c.ctx)
		case x.Nearest != nil && x.replan.spec.Filter == nil && sameDataBounds(x, c.opts):
			// A nearest-neighbour search with no filter reads what its
			// centre, evaluated as the search starts, and the index's data
			// bounds say: with the bounds as they were, planned again it
			// would be this very scan (the cache drops the plan when the
			// statistics or the settings change).
			cp := *x
			cp.use.ctx = c.ctx
			s, ok = &cp, true
		default:
			s, ok = replanScan(x, c.ctx, c.opts)
		}
		if ok && x == c.firstScan {
			c.first = s
		}
		return s, ok
	case *Project:
		cp := *x
		return c.above(&cp, &cp.Input)
	case *Filter:
		cp := *x
		return c.above(&cp, &cp.Input)
	case *Limit:
		cp := *x
		return c.above(&cp, &cp.Input)
	case *Sort:
		cp := *x
		return c.above(&cp, &cp.Input)
	case *Distinct:
		cp := *x
		return c.above(&cp, &cp.Input)
	case *Aggregate:
		cp := *x
		return c.above(&cp, &cp.Input)
	case *Values:
		return x, true
	case *Insert:
		cp := *x
		return c.above(&cp, &cp.Source)
	case *Update:
		if len(x.Heirs) > 0 {
			// The heirs' writes hold scans of their own, which only a
			// plan made for these values has.
			return nil, false
		}
		cp := *x
		return c.above(&cp, &cp.Source)
	case *Delete:
		if len(x.Heirs) > 0 {
			return nil, false
		}
		cp := *x
		return c.above(&cp, &cp.Source)
	}
	return nil, false
}

// above is copied, an operator's copy, with its one input (which input
// points to, in the copy) instantiated in place. The input is reached
// through the copy's field rather than Inputs, whose slice was an
// allocation per operator and execution.
func (c *instantiation) above(copied Node, input *Node) (Node, bool) {
	in, ok := c.node(*input)
	if !ok {
		return nil, false
	}
	*input = in
	return copied, true
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

// replanScan is the scan tmpl planned again for the values in ctx, by the
// rules that planned it, or ok false when they take another path for them
// (samePath): its tokens, box, cover and residual are those of these
// values, the rest of the plan above it unchanged. What the plan's builder
// set on the scan after planning it (the row lock, a pushed-down LIMIT,
// what the index advisor reads) is tmpl's.
func replanScan(tmpl *Scan, ctx *ir.EvalContext, opts Options) (*Scan, bool) {
	var discard []*pgerr.Error
	out, err := planScanAgain(tmpl.replan.spec, tmpl.replan.view, ctx, opts, &discard)
	if err != nil || !samePath(tmpl, out) {
		return nil, false
	}
	out.Lock, out.Limit = tmpl.Lock, tmpl.Limit
	out.use = tmpl.use
	out.use.ctx = ctx
	return out, true
}

// sameDataBounds reports whether the Z-order data bounds of x's index
// are, for this execution (opts.ZBounds reads them afresh each
// statement), the ones x was planned with.
func sameDataBounds(x *Scan, opts Options) bool {
	var zb *catalog.ZBounds
	if opts.ZBounds != nil && x.Index != nil {
		zb = opts.ZBounds.ZBounds(x.Index)
	}
	if zb == nil || x.ZSchema == nil {
		return x.ZData == nil
	}
	data := x.ZSchema.Universe()
	zb.Clip(data)
	return slices.Equal(data, x.ZData)
}

// scanReplan is what a scan is planned again from: its spec, and the view
// of its table's index expressions it was planned in (nil: none).
type scanReplan struct {
	spec *scanSpec
	view *indexView
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
			case ZOrderRanges, ZOrderSkipScan:
				empty = empty || (s.ZBox != nil && s.ZBox.Empty())
			case InvertedScan:
				// An OR of no posting lists (jsonb ?| '{}', a NULL).
				empty = empty || (s.Inverted != nil && s.Inverted.Token == nil && len(s.Inverted.Kids) == 0)
			}
		}
	})
	return empty
}

// keyedScan is a generic plan's scan whose key follows from the values
// without the filter's bounds: a point get (primary key or unique index),
// or a range scan of one key prefix, whose every key column the path binds
// is bound by one equality with a statement constant ($1, $1::int8) and
// read by no other conjunct. For such a scan rederive's bounds hold one
// point per key column, each the value itself when it is of the column's
// kind, so the key is that value's encoding; the executions that are not
// that simple (a NULL, a value of another kind to convert or round, an
// error, a constant conjunct false) take rederive, which decides as before.
// A prepared point select spends most of its planning here, so the keyed
// path encodes the key into an instance made in one allocation and leaves
// EXPLAIN's bounds to be derived when asked (rangeDescription.conj).
type keyedScan struct {
	tmpl  *Scan
	d     *scanDerivation
	parts []keyPart
	// oneShard: the key places the scan in one shard (a point get, or a
	// prefix binding the shard columns); otherwise it reads the
	// template's shards, every one, whatever the values.
	oneShard bool
}

// keyPart is one key column's value: the expression it equals, the kind
// of the column's values, and its order in the key.
type keyPart struct {
	value ir.Expr
	kind  sqltypes.Kind
	desc  bool
}

// keyedInstance is a keyed execution's plan in one allocation: the plan,
// its scan, the evaluation context, and room for the key, its range and
// its shard.
type keyedInstance struct {
	plan   Plan
	scan   Scan
	ctx    ir.EvalContext
	points [1][]byte
	ranges [1]KeyRange
	shards [1]int
	// room holds the key and then, for a range, its end: the instance
	// stays within its allocation size class (1,536 bytes).
	room [56]byte
}

// keyedScanOf returns the keyed form of p's scan, nil unless p reads one
// table by one scan whose key follows from the values (keyedScan).
func keyedScanOf(p *Plan) *keyedScan {
	var only *Scan
	scans := 0
	Walk(p.Root, func(n Node) {
		if s, ok := n.(*Scan); ok {
			only = s
			scans++
		}
	})
	if scans != 1 || only.derive == nil {
		return nil
	}
	s, d := only, only.derive
	best := d.best
	switch {
	case best.hasRange || best.eqLen == 0 || d.maxPoints < 1 || d.enforcedCount != best.eqLen:
		return nil
	case s.Method == PointGet:
	case s.Method == RangeScan:
	default:
		return nil
	}
	t := d.spec.Table
	pos := make(map[int]int, best.eqLen) // key column → its place in the key
	for i, k := range best.keyCols[:best.eqLen] {
		if _, dup := pos[k.Column]; dup {
			return nil
		}
		pos[k.Column] = i
	}
	parts := make([]keyPart, best.eqLen)
	for i, c := range d.conj {
		if d.enforcedCol[i] == 0 {
			// Another bound on a key column would narrow its point.
			for _, col := range ir.Columns(c) {
				if _, ok := pos[col]; ok {
					return nil
				}
			}
			continue
		}
		col := d.enforcedCol[i] - 1
		at, ok := pos[col]
		value := equalityOperand(c, col)
		if !ok || value == nil || parts[at].value != nil {
			return nil
		}
		parts[at] = keyPart{value: value, kind: t.Columns[col].Type.Kind(), desc: best.keyCols[at].Desc}
	}
	for _, p := range parts {
		if p.value == nil {
			return nil
		}
	}
	_, leading := t.ShardPlacement(best.index)
	return &keyedScan{tmpl: s, d: d, parts: parts, oneShard: s.Method == PointGet || (leading > 0 && best.eqLen >= leading)}
}

// equalityOperand is e's statement constant when e is col = constant
// (either way round), nil otherwise.
func equalityOperand(e ir.Expr, col int) ir.Expr {
	b, ok := e.(*ir.Binary)
	if !ok || b.Op != ir.OpEq {
		return nil
	}
	other := b.R
	cr, ok := b.L.(*ir.ColRef)
	if !ok {
		cr, ok = b.R.(*ir.ColRef)
		other = b.L
	}
	if !ok || cr.Index != col || !ir.IsStatementConstant(other) {
		return nil
	}
	return other
}

// instantiate is plan g with k's scan keyed by params, or ok false when a
// value is not that simple (keyedScan) and rederive must decide. opts are
// the execution's, by reference: read, never kept, and some 500 bytes to
// copy.
func (k *keyedScan) instantiate(g *Plan, params []sqltypes.Value, opts *Options) (*Plan, bool) {
	in := &keyedInstance{ctx: ir.EvalContext{Params: params, Now: opts.Fn.Now, Fn: opts.Fn}}
	ctx := &in.ctx
	key := in.room[:0]
	for _, p := range k.parts {
		v, err := p.value.Eval(ctx, nil)
		if err != nil || v.IsNull() || v.K != p.kind {
			return nil, false
		}
		key = catalog.AppendKeyValue(key, v, p.desc)
	}
	if someFalse(k.d.constant, ctx) {
		return nil, false
	}
	tmpl, best, t := k.tmpl, k.d.best, k.d.spec.Table
	out := &in.scan
	*out = *tmpl
	out.Points, out.Ranges = nil, nil
	shard := 0
	if k.oneShard {
		shard = t.PrefixShard(best.index, key)
		in.shards[0] = shard
		out.Shards = in.shards[:]
	}
	if tmpl.Method == PointGet {
		in.points[0] = key
		out.Points = in.points[:]
	} else {
		in.ranges[0] = KeyRange{Start: key, End: kv.AppendPrefixEnd(key[len(key):], key), prefix: key, OneShard: k.oneShard, Shard: shard}
		out.Ranges = in.ranges[:]
	}
	// The template's note and, unless the key chose one, its shards: the
	// same path's, which no value changes (scanShards).
	out.describe = rangeDescription{t: t, keyCols: best.keyCols, eqLen: best.eqLen, maxPoints: k.d.maxPoints, conj: k.d.conj, ctx: ctx}
	out.use.ctx = ctx
	c := instantiation{ctx: ctx, firstScan: g.Scan, keyedTmpl: tmpl, keyedOut: out}
	root, ok := c.node(g.Root)
	if !ok {
		return nil, false
	}
	in.plan = Plan{Root: root, Scan: c.first, Notices: g.Notices, Columns: g.Columns, opts: costOptionsOf(*opts), fullScans: g.fullScans, keyed: true}
	return &in.plan, true
}
