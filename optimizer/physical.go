package optimizer

import (
	"reflect"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Optimize plans a statement with the parameter values of this execution:
// the logical rules rewrite the bound plan, then each relation becomes a
// physical operator (each table read an access path chosen by the rules,
// each join a method). Statements without a plan (DDL, SET) are not
// passed here.
func Optimize(stmt ir.Statement, params []sqltypes.Value, opts Options) (*Plan, error) {
	b := &builder{opts: opts, ctx: &ir.EvalContext{Params: params, Now: opts.Fn.Now, Fn: opts.Fn}, ctes: map[int]*CTE{}}
	if b.opts.MaxPoints <= 0 {
		b.opts.MaxPoints = DefaultMaxPoints
	}
	plan := &Plan{}
	b.notices = &plan.Notices
	var err error
	switch s := stmt.(type) {
	case *ir.Query:
		b.checkLeading(s.Plan)
		b.cteRefs = cteRefs(s.Plan)
		plan.Root, _, err = b.build(b.logical(s.Plan), request{})
		if err == nil {
			plan.Columns = s.Plan.Columns()
		}
	case *ir.Insert:
		var src Node
		b.cteRefs = cteRefs(s.Source)
		if src, _, err = b.build(b.logical(s.Source), request{}); err == nil {
			plan.Root = &Insert{Table: s.Table, Source: src, OnConflict: b.onConflict(s.OnConflict), Returning: b.returning(s.Returning), Constraints: s.Constraints}
		}
	case *ir.Update:
		plan.Root, err = b.update(s)
	case *ir.Delete:
		plan.Root, err = b.delete(s)
	case *ir.Merge:
		plan.Root, err = b.merge(s)
	default:
		return nil, pgerr.New(pgerr.InternalError, "nothing to plan for %s", stmt.Kind())
	}
	if err != nil {
		return nil, err
	}
	if b.err != nil {
		return nil, b.err
	}
	if w, ok := plan.Root.(Write); ok {
		b.estimateWrite(w)
	}
	for _, c := range ir.WritesOf(stmt) {
		w, err := Optimize(c.Write, params, opts)
		if err != nil {
			return nil, err
		}
		plan.Writes = append(plan.Writes, &CTEWrite{ID: c.ID, Name: c.Name, Plan: w})
		plan.Notices = append(plan.Notices, w.Notices...)
	}
	plan.Scan = b.firstScan
	if plan.Columns == nil {
		plan.Columns = plan.Root.Columns()
	}
	plan.opts = costOptionsOf(b.opts)
	return plan, nil
}

// update plans an UPDATE and those of its target's heirs.
func (b *builder) update(s *ir.Update) (*Update, error) {
	b.cteRefs = cteRefs(s.Source)
	src, _, err := b.build(b.logical(s.Source), request{})
	if err != nil {
		return nil, err
	}
	set := make(map[int]ir.Expr, len(s.Set))
	for c, e := range s.Set {
		set[c] = b.expr(e)
	}
	var shared []ir.Expr
	for _, e := range s.Shared {
		shared = append(shared, b.expr(e))
	}
	u := &Update{Table: s.Table, Source: src, Set: set, Shared: shared, Recheck: s.Recheck, Returning: b.returning(s.Returning), Constraints: s.Constraints}
	for _, h := range s.Heirs {
		hu, err := b.update(h)
		if err != nil {
			return nil, err
		}
		u.Heirs = append(u.Heirs, hu)
	}
	return u, nil
}

// delete plans a DELETE and those of its target's heirs.
func (b *builder) delete(s *ir.Delete) (*Delete, error) {
	b.cteRefs = cteRefs(s.Source)
	src, _, err := b.build(b.logical(s.Source), request{})
	if err != nil {
		return nil, err
	}
	d := &Delete{Table: s.Table, Source: src, Recheck: s.Recheck, Returning: b.returning(s.Returning), Constraints: s.Constraints}
	for _, h := range s.Heirs {
		hd, err := b.delete(h)
		if err != nil {
			return nil, err
		}
		d.Heirs = append(d.Heirs, hd)
	}
	return d, nil
}

// checkLeading reports a LEADING hint that names tables in an order other
// than the query's: zproxy joins in the written order (swapping two tables
// only to look up the less selective one), so it cannot reorder further.
func (b *builder) checkLeading(r ir.Rel) {
	var order []string
	var hints []ir.Hint
	ir.WalkRel(r, func(x ir.Rel) {
		if s, ok := x.(*ir.Scan); ok {
			order = append(order, s.Alias)
			for _, h := range s.Hints {
				if h.Name == "leading" {
					hints = append(hints, h)
				}
			}
		}
	})
	seen := map[string]bool{}
	for _, h := range hints {
		key := strings.Join(h.Tables, ",")
		if seen[key] {
			continue
		}
		seen[key] = true
		ok := len(h.Tables) <= len(order)
		for i := 0; ok && i < len(h.Tables); i++ {
			ok = order[i] == h.Tables[i]
		}
		if !ok {
			*b.notices = append(*b.notices, pgerr.Notice("LEADING(%s) not honoured: zproxy joins tables in the order the query names them", strings.Join(h.Tables, ", ")))
		}
	}
}

func (b *builder) returning(r *ir.Returning) *ir.Returning {
	if r == nil {
		return nil
	}
	out := &ir.Returning{Cols: r.Cols, Exprs: make([]ir.Expr, len(r.Exprs))}
	for i, e := range r.Exprs {
		out.Exprs[i] = b.expr(e)
	}
	return out
}

// onConflict plans the subqueries of ON CONFLICT DO UPDATE's SET and WHERE
// as an UPDATE's SET is planned: they run per conflicting row.
func (b *builder) onConflict(oc *ir.OnConflict) *ir.OnConflict {
	if oc == nil || oc.DoNothing {
		return oc
	}
	out := *oc
	out.Set = make(map[int]ir.Expr, len(oc.Set))
	for c, e := range oc.Set {
		out.Set[c] = b.expr(e)
	}
	if oc.Where != nil {
		out.Where = b.expr(oc.Where)
	}
	return &out
}

// builder turns logical relations into physical operators.
type builder struct {
	opts    Options
	ctx     *ir.EvalContext
	notices *[]*pgerr.Error
	ctes    map[int]*CTE
	// cteRefs counts the scans of each WITH query of the statement
	// (inline.go).
	cteRefs   map[int]int
	firstScan *Scan
	// err is the first error met while planning a subquery inside an
	// expression (expr cannot return one).
	err error
}

// request is what the operator above asks of a relation: the output
// columns it reads (nil: all), an order it would like (the result says
// whether it was delivered), and a limit it will apply after that order.
type request struct {
	need  []bool
	order []ir.SortKey
	limit int
	// nearest asks the scan below for the rows nearest a point: an order
	// no key yields, that a gist index's search can (nearest.go).
	nearest *nearestReq
}

func needAll(n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = true
	}
	return out
}

// usedCols marks the columns of the current row that e reads, including
// those read by correlated subqueries inside it.
func usedCols(e ir.Expr, mark []bool) {
	if e == nil {
		return
	}
	ir.Walk(e, func(x ir.Expr) {
		switch y := x.(type) {
		case *ir.ColRef:
			if y.Index < len(mark) {
				mark[y.Index] = true
			}
		case *ir.Subquery:
			ir.VisitExprs(y.Plan, func(se ir.Expr, level int) {
				ir.Walk(se, func(z ir.Expr) {
					if o, ok := z.(*ir.OuterRef); ok && o.Depth == level+1 {
						if i := y.RowIndex(o.Index); i >= 0 && i < len(mark) {
							mark[i] = true
						}
					}
				})
			})
		}
	})
}

// rowWidthOf is how much of the row it is evaluated over a subquery's plan
// reads through outer references: one past the highest position.
func rowWidthOf(plan ir.Rel) int {
	width := 0
	ir.VisitExprs(plan, func(e ir.Expr, level int) {
		ir.Walk(e, func(x ir.Expr) {
			if o, ok := x.(*ir.OuterRef); ok && o.Depth == level+1 {
				width = max(width, o.Index+1)
			}
		})
	})
	return width
}

// expr prepares an expression for execution: subqueries become subplans.
func (b *builder) expr(e ir.Expr) ir.Expr {
	if e == nil || !ir.HasSubquery(e) {
		return e
	}
	return ir.MapExpr(e, func(x ir.Expr) ir.Expr {
		sq, ok := x.(*ir.Subquery)
		if !ok {
			return nil
		}
		inner := &builder{opts: b.opts, ctx: b.ctx, notices: b.notices, ctes: b.ctes, cteRefs: b.cteRefs}
		root, _, err := inner.build(inner.logical(sq.Plan), request{})
		if err == nil {
			err = inner.err
		}
		if err != nil {
			if b.err == nil {
				b.err = err
			}
			return &ir.Const{V: sqltypes.Null, Typ: sq.Typ}
		}
		if b.firstScan == nil {
			b.firstScan = inner.firstScan
		}
		sp := &SubPlan{Kind: sq.Kind, Plan: root, Left: sq.Left, Op: sq.Op, Neg: sq.Neg, Correlated: sq.Correlated, Typ: sq.Typ, ID: sq.ID}
		if sq.RowMap != nil {
			sp.rowMap, sp.rowWidth = sq.RowMap, rowWidthOf(sq.Plan)
		}
		return sp
	})
}

func (b *builder) exprs(es []ir.Expr) []ir.Expr {
	out := make([]ir.Expr, len(es))
	for i, e := range es {
		out[i] = b.expr(e)
	}
	return out
}

func (b *builder) build(r ir.Rel, req request) (Node, bool, error) {
	if req.need == nil {
		req.need = needAll(len(r.Columns()))
	}
	if plan, ok := planners[reflect.TypeOf(r)]; ok {
		return plan(b, r, req)
	}
	return nil, false, pgerr.New(pgerr.InternalError, "cannot plan %T", r)
}

// windowCall prepares a window call's expressions for execution
// (subqueries become subplans).
func (b *builder) windowCall(c ir.WindowCall) ir.WindowCall {
	c.Args = b.exprs(c.Args)
	c.PartitionBy = b.exprs(c.PartitionBy)
	keys := make([]ir.SortKeyExpr, len(c.OrderBy))
	for i, k := range c.OrderBy {
		k.E = b.expr(k.E)
		keys[i] = k
	}
	c.OrderBy = keys
	c.Frame.Start.Offset, c.Frame.End.Offset = b.expr(c.Frame.Start.Offset), b.expr(c.Frame.End.Offset)
	if c.Agg != nil {
		a := *c.Agg
		a.Args = b.exprs(a.Args)
		if len(a.Args) > 0 {
			a.Arg = a.Args[0]
		}
		a.Filter = b.expr(a.Filter)
		c.Agg = &a
	}
	return c
}

// cte plans a WITH query once per statement.
func (b *builder) cte(c *ir.CTE) (*CTE, error) {
	if p, ok := b.ctes[c.ID]; ok {
		return p, nil
	}
	if c.Write != nil {
		// Its rows are what its write returned (Plan.Writes).
		p := &CTE{ID: c.ID, Name: c.Name, Shared: true}
		_, p.Merge = c.Write.(*ir.Merge)
		b.ctes[c.ID] = p
		return p, nil
	}
	root, _, err := b.build(b.logical(c.Plan), request{})
	if err != nil {
		return nil, err
	}
	p := &CTE{ID: c.ID, Name: c.Name, Plan: root, Shared: c.Refs > 1 || b.cteRefs[c.ID] > 1 || c.Recursive}
	b.ctes[c.ID] = p
	return p, nil
}

// mergeable reports whether outer can read inner's expressions directly:
// every inner expression outer uses is deterministic and without subplans,
// and none it leaves unread is volatile (that one still runs once a row).
func mergeable(outer, inner []ir.Expr) bool {
	used := make([]bool, len(inner))
	for _, e := range outer {
		usedCols(e, used)
		if !movable(e) {
			return false
		}
	}
	for i, u := range used {
		if u && !movable(inner[i]) || !u && volatileExpr(inner[i]) {
			return false
		}
	}
	return true
}

// unusedOutputs replaces by NULL the expressions of a projection that its
// parent does not read (need), as PostgreSQL's
// remove_unused_subquery_outputs does for a subquery in FROM, so they are
// never evaluated: an expression there that would fail does not. A
// volatile one is kept (it runs once a row, for its effects); plain column
// references and constants cost nothing and stay.
func unusedOutputs(n *ir.Project, need []bool) *ir.Project {
	exprs := unusedExprs(n.Exprs, need)
	if exprs == nil {
		return n
	}
	c := *n
	c.Exprs = exprs
	return &c
}

// unusedExprs is unusedOutputs of a list of output expressions: a copy
// with those need leaves unread replaced by NULL, or nil when none is.
func unusedExprs(out []ir.Expr, need []bool) []ir.Expr {
	var exprs []ir.Expr
	for i, e := range out {
		if i >= len(need) || need[i] {
			continue
		}
		switch e.(type) {
		case *ir.ColRef, *ir.Const:
			continue
		}
		if volatileExpr(e) {
			continue
		}
		if exprs == nil {
			exprs = append([]ir.Expr(nil), out...)
		}
		exprs[i] = &ir.Const{V: sqltypes.Null, Typ: e.Type()}
	}
	return exprs
}

// volatileExpr reports whether e calls a volatile function, in the plans
// of its subqueries too.
func volatileExpr(e ir.Expr) bool {
	found := false
	check := func(x ir.Expr) {
		ir.Walk(x, func(y ir.Expr) {
			if f, ok := y.(*ir.Func); ok && ir.IsVolatile(f) {
				found = true
			}
		})
	}
	check(e)
	ir.Walk(e, func(x ir.Expr) {
		if s, ok := x.(*ir.Subquery); ok {
			ir.VisitExprs(s.Plan, func(se ir.Expr, _ int) { check(se) })
		}
	})
	return found
}

// isIdentity reports whether a projection passes its input through.
func isIdentity(p *ir.Project, in Node) bool {
	if len(p.Exprs) != len(in.Columns()) {
		return false
	}
	for i, e := range p.Exprs {
		c, ok := e.(*ir.ColRef)
		if !ok || c.Index != i {
			return false
		}
		if p.Cols[i].Name != in.Columns()[i].Name || p.Cols[i].Type != in.Columns()[i].Type {
			return false
		}
	}
	return true
}

func sameOrder(a, b []ir.SortKey) bool {
	if len(a) == 0 || len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// openTimeLimit reports whether a LIMIT or OFFSET is known only when the
// limit opens: it reads a subquery or an outer row.
func openTimeLimit(n *ir.Limit) bool {
	for _, e := range []ir.Expr{n.Count, n.Offset} {
		if e != nil && (ir.HasSubquery(e) || ir.HasOuterRef(e)) {
			return true
		}
	}
	return false
}

// limits evaluates LIMIT and OFFSET for this execution.
func (b *builder) limits(n *ir.Limit) (count, offset int64, err error) {
	count = -1
	if n.Count != nil {
		if count, err = EvalCount(n.Count, b.ctx, "LIMIT"); err != nil {
			return 0, 0, err
		}
	}
	if n.Offset != nil {
		if offset, err = EvalCount(n.Offset, b.ctx, "OFFSET"); err != nil {
			return 0, 0, err
		}
		offset = max(offset, 0)
	}
	return count, offset, nil
}

// EvalCount evaluates a LIMIT or OFFSET operand: -1 for NULL (no limit),
// 2201W/2201X when negative, as PostgreSQL.
func EvalCount(e ir.Expr, ctx *ir.EvalContext, clause string) (int64, error) {
	v, err := e.Eval(ctx, nil)
	if err != nil {
		return 0, err
	}
	if v.IsNull() {
		return -1, nil
	}
	if v.K != sqltypes.KindInt {
		cv, err := sqltypes.Cast(v, sqltypes.TypeInt8)
		if err != nil {
			return 0, err
		}
		v = cv
	}
	if v.I < 0 {
		code := pgerr.InvalidRowCountInLimitClause
		if clause == "OFFSET" {
			code = pgerr.InvalidRowCountInResultOffsetClause
		}
		return 0, pgerr.New(code, "%s must not be negative", clause)
	}
	return v.I, nil
}

// buildScan plans a table read with the conjuncts of pred: the access path
// by the rules, the rest as the scan's residual filter, except subqueries,
// which a Filter above evaluates (the scan's shard streams run in parallel,
// a subplan one row at a time).
func (b *builder) buildScan(s *ir.Scan, pred ir.Expr, req request) (Node, bool, error) {
	var plain, atOpen, withSub []ir.Expr
	for _, c := range ir.Conjuncts(pred) {
		switch {
		case !ir.HasSubquery(c):
			plain = append(plain, c)
		case openTimeConjunct(c):
			// Its InitPlans become constants when the scan opens
			// (initplan.go), where they may bound the access path.
			atOpen = append(atOpen, c)
		default:
			withSub = append(withSub, c)
		}
	}
	need := append([]bool(nil), req.need...)
	for _, c := range withSub {
		usedCols(c, need)
	}
	if s.Lock != ir.LockNone {
		for _, k := range s.Table.PrimaryKey {
			need[k.Column] = true // a locked row is named by its key
		}
	}
	spec := &scanSpec{Table: s.Table, Alias: s.Alias, Filter: andAll(append(plain, b.exprs(atOpen)...)), Hints: s.Hints, Order: req.order}
	spec.Needed, spec.outNeed = neededOf(need, andAll(append(plain, atOpen...))), need
	// SKIP LOCKED leaves out, above the scan, rows other transactions
	// hold: the scan cannot stop after the limit's count of rows.
	limit := req.limit
	if s.Lock&ir.LockSkipLocked != 0 {
		limit = 0
	}
	if len(withSub) == 0 {
		spec.Limit = limit
		spec.Nearest = req.nearest
	}
	var scan *Scan
	var err error
	if ir.HasOuterRef(spec.Filter) || len(atOpen) > 0 {
		scan, err = b.dynamicScan(spec)
	} else {
		scan, err = planScan(spec, b.ctx, b.opts, b.notices)
	}
	if err != nil {
		return nil, false, err
	}
	scan.Lock = s.Lock
	scan.use = useSource{spec: spec, ctx: b.ctx, limit: req.limit}
	// A dynamic scan promises the order asked of it: when it opens, its
	// path yields the order or its rows are sorted (Resolve), so a LIMIT
	// above still stops it early (top-1 per outer row reads one row).
	delivered := len(req.order) > 0 && (scan.Ordered || scan.Dynamic)
	if limit > 0 && len(withSub) == 0 && (len(req.order) == 0 || delivered) {
		scan.Limit = limit
	}
	if b.firstScan == nil {
		b.firstScan = scan
	}
	var out Node = scan
	if len(withSub) > 0 {
		out = &Filter{Input: scan, Pred: b.expr(andAll(withSub))}
	}
	return out, delivered, nil
}

// neededOf lists the table columns marked in need or read by filter.
func neededOf(need []bool, filter ir.Expr) []int {
	mark := append([]bool(nil), need...)
	usedCols(filter, mark)
	var out []int
	for i, m := range mark {
		if m {
			out = append(out, i)
		}
	}
	return out
}

// dynamicScan plans a scan whose filter reads outer rows: EXPLAIN shows
// the plan it would have with those conjuncts as a residual; each opening
// re-plans with the outer values known (Resolve).
func (b *builder) dynamicScan(spec *scanSpec) (*Scan, error) {
	var static []ir.Expr
	for _, c := range ir.Conjuncts(spec.Filter) {
		if !ir.HasOuterRef(c) && !hasSubPlan(c) {
			static = append(static, c)
		}
	}
	first := *spec
	first.Filter = andAll(static)
	var discard []*pgerr.Error
	scan, err := planScan(&first, b.ctx, b.opts, &discard)
	if err != nil {
		return nil, err
	}
	opts := b.opts
	scan.Dynamic, scan.spec, scan.dynOpts = true, spec, &opts
	return scan, nil
}

// Resolve plans a dynamic scan for the outer rows now in ctx: the outer
// references of its filter become the constants they are for this row, its
// InitPlans their results.
func (n *Scan) Resolve(ctx *ir.EvalContext) (*Scan, error) {
	if !n.Dynamic {
		return n, nil
	}
	filter, err := resolveOpenTime(n.spec.Filter, ctx)
	if err != nil {
		return nil, err
	}
	spec := *n.spec
	spec.Filter = filter
	var discard []*pgerr.Error
	out, err := planScan(&spec, ctx, *n.dynOpts, &discard)
	if err != nil {
		return nil, err
	}
	out.Lock = n.Lock
	switch {
	case len(spec.Order) == 0 || out.Ordered:
		out.Limit = n.Limit
	default:
		// The path chosen for these values does not yield the order the
		// plan promised: the executor sorts its rows (keeping Limit).
		out.SortKeys = spec.Order
	}
	return out, nil
}

// tableCols is the layout of a table scan's rows.
func tableCols(t *catalog.Table) []ir.Column {
	return ir.NewScan(t, t.Name).Columns()
}

// sortedBelow reports whether a Sort is under n through operators that
// keep their input's order.
func sortedBelow(n ir.Rel) bool {
	for {
		switch x := n.(type) {
		case *ir.Sort:
			return true
		case *ir.Project:
			n = x.Input
		case *ir.Filter:
			n = x.Input
		case *ir.Limit:
			n = x.Input
		case *ir.Distinct:
			n = x.Input
		default:
			return false
		}
	}
}

// planners plan each kind of logical relation, by its Go type. A new kind
// of relation registers its planning function (planAs) in an init of its
// own file; build dispatches through the map.
var planners = map[reflect.Type]func(b *builder, r ir.Rel, req request) (Node, bool, error){}

// planAs registers plan for the relations of type T.
func planAs[T ir.Rel](plan func(b *builder, n T, req request) (Node, bool, error)) {
	planners[reflect.TypeFor[T]()] = func(b *builder, r ir.Rel, req request) (Node, bool, error) { return plan(b, r.(T), req) }
}

func init() {
	planAs((*builder).planScan)
	planAs((*builder).planFilter)
	planAs((*builder).planProject)
	planAs((*builder).planSort)
	planAs((*builder).planLimit)
	planAs((*builder).planDistinct)
	planAs((*builder).planAggregate)
	planAs((*builder).planWindow)
	planAs((*builder).planProjectSet)
	planAs((*builder).planJoin)
	planAs((*builder).planSetOp)
	planAs((*builder).planValues)
	planAs((*builder).planTableFunc)
	planAs((*builder).planVirtual)
	planAs((*builder).planCTEScan)
	planAs((*builder).planRecursiveUnion)
	planAs((*builder).planWorkTable)
}

// planScan plans a logical Scan.
func (b *builder) planScan(n *ir.Scan, req request) (Node, bool, error) {
	return b.buildScan(n, nil, req)
}

// planFilter plans a logical Filter.
func (b *builder) planFilter(n *ir.Filter, req request) (Node, bool, error) {
	if s, ok := n.Input.(*ir.Scan); ok {
		return b.buildScan(s, n.Pred, req)
	}
	if neverTrue(n.Pred, b.ctx) {
		// A filter that is false or NULL whatever the row (WHERE NULL =
		// NULL) passes nothing: its input is not run, as PostgreSQL's
		// one-time filter gates it (so its errors are never raised).
		return &Values{Cols: n.Columns()}, true, nil
	}
	need := append([]bool(nil), req.need...)
	usedCols(n.Pred, need)
	in, delivered, err := b.build(n.Input, request{need: need, order: req.order, limit: 0})
	if err != nil {
		return nil, false, err
	}
	f := &Filter{Input: in, Pred: b.expr(n.Pred)}
	if _, having := n.Input.(*ir.Aggregate); !having {
		// (HAVING gates nothing: what PostgreSQL makes a one-time
		// filter of is in a copy below the aggregate; see push.)
		var gate []ir.Expr
		for _, c := range ir.Conjuncts(f.Pred) {
			if pseudoconstant(c) {
				gate = append(gate, c)
			}
		}
		if len(gate) > 0 {
			f.Gate = andAll(gate)
		}
	}
	return f, delivered, nil
}

// planProject plans a logical Project.
func (b *builder) planProject(n *ir.Project, req request) (Node, bool, error) {
	n = unusedOutputs(n, req.need)
	need := make([]bool, len(n.Input.Columns()))
	for i, e := range n.Exprs {
		if _, isCol := e.(*ir.ColRef); isCol && i < len(req.need) && !req.need[i] {
			continue // passed through unread: its input column may go unfilled
		}
		usedCols(e, need)
	}
	// The order asked of the projection passes down where it names
	// plain columns.
	var order []ir.SortKey
	for _, k := range req.order {
		c, ok := n.Exprs[k.Col].(*ir.ColRef)
		if !ok {
			order = nil
			break
		}
		order = append(order, ir.SortKey{Col: c.Index, Desc: k.Desc, NullsFirst: k.NullsFirst})
	}
	// A limit passes down only with the order it applies after: a sort
	// key this projection computes cannot be delivered below it.
	limit := req.limit
	var nearest *nearestReq
	if len(req.order) > 0 && order == nil {
		limit = 0
		nearest = nearestOrder(req.order, n.Exprs, req.limit)
	}
	in, delivered, err := b.build(n.Input, request{need: need, order: order, limit: limit, nearest: nearest})
	if err != nil {
		return nil, false, err
	}
	if len(req.order) > 0 && order == nil {
		delivered = nearest != nil && len(req.order) == 1 && yieldsNearest(in, nearest)
	}
	if isIdentity(n, in) {
		return in, delivered, nil
	}
	exprs := b.exprs(n.Exprs)
	if inner, ok := in.(*Project); ok && mergeable(exprs, inner.Exprs) {
		// Two projections in a row (a hidden ORDER BY column dropped after
		// a sort the scan made unnecessary) compute as one.
		for i, e := range exprs {
			exprs[i] = substitute(e, inner.Exprs)
		}
		in = inner.Input
	}
	return &Project{Input: in, Exprs: exprs, Cols: n.Cols}, delivered, nil
}

// yieldsNearest reports whether in is the nearest-neighbour scan that
// answers req: its rows come nearest first (numbers, then NaN, then NULL,
// as ORDER BY ... ASC NULLS LAST), so an ORDER BY of the distance alone
// needs no sort above it, only the LIMIT. A locking scan keeps its sort,
// above which the lock moves (lockAboveSort), so that only the rows
// returned are locked, not every candidate.
func yieldsNearest(in Node, req *nearestReq) bool {
	s, ok := in.(*Scan)
	return ok && s.Nearest != nil && !s.Dynamic && s.Lock == ir.LockNone && s.Nearest.Dist == req.dist
}

// planSort plans a logical Sort.
func (b *builder) planSort(n *ir.Sort, req request) (Node, bool, error) {
	// A sort passes its input's columns on: it needs what its parent
	// does and its keys, no more (a box top-100 under a projection
	// decodes three columns, not six).
	need := append([]bool(nil), req.need...)
	for _, k := range n.Keys {
		need[k.Col] = true
	}
	if _, setOp := n.Input.(*ir.SetOp); setOp {
		need = nil // no simple UNION ALL (see planSetOp)
	}
	// The parent's limit is taken after the parent's order: it bounds
	// this sort (and the input, asked for this sort's order) only when
	// that order gives the parent's, or the parent asks for none and takes
	// the first rows as they come. ORDER BY id DESC LIMIT 2 over a derived
	// table ordered by id wants the two largest ids, not the two smallest
	// sorted again.
	limit := 0
	if len(req.order) == 0 || sameOrder(req.order, n.Keys) {
		limit = req.limit
	}
	in, delivered, err := b.build(n.Input, request{need: need, order: n.Keys, limit: limit})
	if err != nil {
		return nil, false, err
	}
	if delivered {
		// The input arrives in this sort's order, which gives the
		// parent's only when that is a prefix of it (not the same
		// columns the other way round: ORDER BY id DESC over a derived
		// table ordered by id).
		return in, sameOrder(req.order, n.Keys), nil
	}
	sort := &Sort{Input: in, Keys: n.Keys, Limit: limit}
	if locked, ok := lockAboveSort(sort, in); ok {
		return locked, sameOrder(req.order, n.Keys), nil
	}
	return sort, sameOrder(req.order, n.Keys), nil
}

// planLimit plans a logical Limit.
func (b *builder) planLimit(n *ir.Limit, req request) (Node, bool, error) {
	if openTimeLimit(n) {
		// Known only when the limit opens: no limit passes down.
		in, delivered, err := b.build(n.Input, request{need: req.need, order: req.order})
		if err != nil {
			return nil, false, err
		}
		return &Limit{Input: in, Count: -1, CountExpr: b.expr(n.Count), OffsetExpr: b.expr(n.Offset)}, delivered, nil
	}
	count, offset, err := b.limits(n)
	if err != nil {
		return nil, false, err
	}
	childLimit := 0
	if count >= 0 {
		childLimit = int(count + offset)
	}
	need := req.need
	if _, setOp := n.Input.(*ir.SetOp); setOp {
		need = nil // no simple UNION ALL (see planSetOp)
	}
	in, delivered, err := b.build(n.Input, request{need: need, order: req.order, limit: childLimit})
	if err != nil {
		return nil, false, err
	}
	if s, ok := in.(*Sort); ok && childLimit > 0 {
		s.Limit = childLimit
	}
	if count < 0 && offset == 0 {
		return in, delivered, nil
	}
	return &Limit{Input: in, Count: count, Offset: offset}, delivered, nil
}

// planDistinct plans a logical Distinct.
func (b *builder) planDistinct(n *ir.Distinct, req request) (Node, bool, error) {
	var need []bool
	if len(n.On) > 0 {
		// DISTINCT ON compares its keys only: the other columns are
		// needed only where the parent reads them.
		need = append([]bool(nil), req.need...)
		for _, c := range n.On {
			need[c] = true
		}
	}
	in, delivered, err := b.build(n.Input, request{need: need, order: req.order})
	if err != nil {
		return nil, false, err
	}
	d := &Distinct{Input: in, On: n.On}
	switch x := n.Input.(type) {
	case *ir.Sort:
		d.Ordered, d.Sorted = true, x.Keys
	default:
		if delivered && len(req.order) > 0 {
			d.Ordered, d.Sorted = true, req.order
		} else {
			d.Ordered = sortedBelow(n.Input)
		}
	}
	return d, delivered, nil
}

// planAggregate plans a logical Aggregate.
func (b *builder) planAggregate(n *ir.Aggregate, req request) (Node, bool, error) {
	need := make([]bool, len(n.Input.Columns()))
	for _, g := range n.GroupBy {
		usedCols(g, need)
	}
	for i, a := range n.Aggs {
		if unusedAggregate(a, req.need, len(n.GroupBy)+i) {
			continue
		}
		for _, x := range a.Args {
			usedCols(x, need)
		}
		usedCols(a.Filter, need)
		for _, k := range a.OrderBy {
			usedCols(k.E, need)
		}
	}
	// Groups that arrive as runs of an ordered input stream (streamagg.go).
	order, deliversReq := groupOrder(n, req)
	in, streaming, err := b.build(n.Input, request{need: need, order: order})
	if err != nil {
		return nil, false, err
	}
	streaming = streaming && order != nil
	aggs := make([]ir.AggCall, len(n.Aggs))
	for i, a := range n.Aggs {
		if unusedAggregate(a, req.need, len(n.GroupBy)+i) {
			// Nobody reads it (remove_unused_subquery_outputs dropped
			// it from PostgreSQL's target list): its arguments are not
			// evaluated; count(*) is a placeholder that reads none.
			aggs[i] = ir.AggCall{Func: ir.AggCountStar, Typ: sqltypes.TypeInt8}
			continue
		}
		a.Args = b.exprs(a.Args)
		if len(a.Args) > 0 {
			a.Arg = a.Args[0]
		}
		a.Filter = b.expr(a.Filter)
		aggs[i] = a
	}
	agg := &Aggregate{Input: in, GroupBy: b.exprs(n.GroupBy), Aggs: aggs, GroupingSets: n.GroupingSets, cols: n.Columns()}
	if streaming {
		agg.StreamOrder = order
	}
	agg.InScan = inScanAggregate(agg, b.opts)
	return agg, streaming && deliversReq, nil
}

// unusedAggregate reports whether aggregate a, output column col, may go
// uncomputed: its parent does not read the column, and nothing of it is
// volatile (its calls run for their effects) or user-defined.
func unusedAggregate(a ir.AggCall, need []bool, col int) bool {
	if col >= len(need) || need[col] || a.User != nil || a.Grouping != nil || a.Func == ir.AggCountStar {
		return false
	}
	for _, x := range a.Args {
		if volatileExpr(x) {
			return false
		}
	}
	if a.Filter != nil && volatileExpr(a.Filter) {
		return false
	}
	for _, k := range a.OrderBy {
		if volatileExpr(k.E) {
			return false
		}
	}
	return true
}

// planWindow plans a logical Window.
func (b *builder) planWindow(n *ir.Window, req request) (Node, bool, error) {
	in, _, err := b.build(n.Input, request{})
	if err != nil {
		return nil, false, err
	}
	calls := make([]ir.WindowCall, len(n.Calls))
	for i, c := range n.Calls {
		calls[i] = b.windowCall(c)
	}
	return &Window{Input: in, Calls: calls, cols: n.Columns()}, false, nil
}

// planProjectSet plans a logical ProjectSet.
func (b *builder) planProjectSet(n *ir.ProjectSet, req request) (Node, bool, error) {
	return b.buildProjectSet(n, req)
}

// planJoin plans a logical Join.
func (b *builder) planJoin(n *ir.Join, req request) (Node, bool, error) {
	if b.emptyRel(n) {
		// A join an empty input empties runs neither input, as
		// PostgreSQL plans a dummy relation there (so the other input's
		// errors are never raised either).
		return &Values{Cols: n.Columns()}, true, nil
	}
	return b.buildJoin(n, req)
}

// emptyRel reports whether r yields no row whatever the data: an empty
// VALUES, a filter that is never true, and what passes such an input on
// (a projection, a join that an empty side empties).
func (b *builder) emptyRel(r ir.Rel) bool {
	switch x := r.(type) {
	case *ir.Values:
		return len(x.Rows) == 0
	case *ir.Filter:
		return neverTrue(x.Pred, b.ctx) || b.emptyRel(x.Input)
	case *ir.Project:
		return b.emptyRel(x.Input)
	case *ir.Sort:
		return b.emptyRel(x.Input)
	case *ir.Limit:
		return b.emptyRel(x.Input)
	case *ir.Distinct:
		return b.emptyRel(x.Input)
	case *ir.CTEScan:
		// A WITH query read more than once: empty when its plan is (a
		// data-modifying one runs whatever reads it).
		c := x.CTE
		return c.Write == nil && !c.Recursive && c.Plan != nil && b.emptyRel(c.Plan)
	case *ir.Join:
		switch x.Kind {
		case ir.InnerJoin, ir.SemiJoin:
			return b.emptyRel(x.Left) || b.emptyRel(x.Right)
		case ir.LeftJoin, ir.AntiJoin:
			return b.emptyRel(x.Left)
		case ir.RightJoin:
			return b.emptyRel(x.Right)
		case ir.FullJoin:
			return b.emptyRel(x.Left) && b.emptyRel(x.Right)
		}
	}
	return false
}

// planSetOp plans a logical SetOp.
func (b *builder) planSetOp(n *ir.SetOp, req request) (Node, bool, error) {
	if node, ok, err := b.planPartitions(n); ok || err != nil {
		return node, false, err
	}
	// Rows compared (UNION, INTERSECT, EXCEPT) need every column. A
	// UNION ALL whose operands need no cast is PostgreSQL's simple UNION
	// ALL, which it plans as an append of its operands, each a subquery
	// whose unread outputs it drops: the parent's need passes down (not
	// under ORDER BY or LIMIT, which make it not simple: planSort and
	// planLimit ask for every column).
	var side request
	if simpleUnionAll(n) {
		side.need = req.need
	}
	l, _, err := b.build(n.Left, side)
	if err != nil {
		return nil, false, err
	}
	rt, _, err := b.build(n.Right, side)
	if err != nil {
		return nil, false, err
	}
	return &SetOp{Op: n.Op, All: n.All, Left: l, Right: rt, Cols: n.Cols}, false, nil
}

// simpleUnionAll reports whether r is a tree of UNION ALLs whose operands
// have the result's column types themselves (is_simple_union_all).
func simpleUnionAll(r ir.Rel) bool {
	switch n := r.(type) {
	case *ir.SetOp:
		return n.Op == ir.Union && n.All && simpleUnionAll(n.Left) && simpleUnionAll(n.Right)
	case *ir.Project:
		return !n.Coerces
	}
	return true
}

// planValues plans a logical Values.
func (b *builder) planValues(n *ir.Values, req request) (Node, bool, error) {
	rows := make([][]ir.Expr, len(n.Rows))
	for i, row := range n.Rows {
		if len(n.Rows) == 1 {
			// A one-row VALUES in FROM is a SELECT without FROM, whose
			// unread outputs PostgreSQL never evaluates (unusedOutputs).
			if pruned := unusedExprs(row, req.need); pruned != nil {
				row = pruned
			}
		}
		rows[i] = b.exprs(row)
	}
	return &Values{Rows: rows, Cols: n.Cols}, false, nil
}

// planTableFunc plans a logical TableFunc.
func (b *builder) planTableFunc(n *ir.TableFunc, req request) (Node, bool, error) {
	return &TableFunc{Name: n.Name, Args: b.exprs(n.Args), Fn: n.Fn, Ordinality: n.Ordinality, Cols: n.Cols, Parts: n.Parts}, false, nil
}

// planVirtual plans a logical Virtual.
func (b *builder) planVirtual(n *ir.Virtual, req request) (Node, bool, error) {
	return &Rowset{View: n.Table.Name, Rows: n.Table.Virtual, cols: n.Columns()}, false, nil
}

// planCTEScan plans a logical CTEScan.
func (b *builder) planCTEScan(n *ir.CTEScan, req request) (Node, bool, error) {
	c, err := b.cte(n.CTE)
	if err != nil {
		return nil, false, err
	}
	return &CTEScan{CTE: c, cols: n.Columns()}, false, nil
}

// planRecursiveUnion plans a logical RecursiveUnion.
func (b *builder) planRecursiveUnion(n *ir.RecursiveUnion, req request) (Node, bool, error) {
	anchor, _, err := b.build(n.Anchor, request{})
	if err != nil {
		return nil, false, err
	}
	rec, _, err := b.build(n.Recursive, request{})
	if err != nil {
		return nil, false, err
	}
	return &RecursiveUnion{ID: n.CTE.ID, Anchor: anchor, Recursive: rec, All: n.All, cols: n.Columns()}, false, nil
}

// planWorkTable plans a logical WorkTable.
func (b *builder) planWorkTable(n *ir.WorkTable, req request) (Node, bool, error) {
	return &WorkTable{ID: n.CTE.ID, cols: n.Columns()}, false, nil
}
