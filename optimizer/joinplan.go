package optimizer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// lookupBatch is how many outer rows one round of a lookup join serves:
// DynamoDB's BatchGetItem takes 100 keys, and a round's keys are split by
// shard before they are read.
const lookupBatch = 100

// The join rules, in order (EXPLAIN names the one that decided):
//
//  1. The right side reads the left row (LATERAL): Apply, which runs it per
//     left row.
//  2. A join hint, when it can be honoured, else a NOTICE: INL_JOIN names
//     the table to look up (for an inner join either side, which then
//     becomes the inner one), HASH_JOIN and MERGE_JOIN either table of the
//     join. It is consulted before the swap of rule 3.
//  3. Lookup join: the equality conjuncts bind a leading prefix of the inner
//     table's primary key or of one of its btree indexes (longest prefix
//     wins, as in the access-path rules). For an inner join of two tables
//     the table with the more selective access path of its own is the outer
//     side, so the other is looked up.
//  4. Hash join on the equality conjuncts.
//  5. Nested loop for conditions without an equality.
func (b *builder) buildJoin(j *ir.Join, req request) (Node, bool, error) {
	lc, rc := j.Left.Columns(), j.Right.Columns()
	lw := len(lc)
	need := req.need
	if j.Kind == ir.SemiJoin || j.Kind == ir.AntiJoin {
		need = append(append([]bool(nil), need...), make([]bool, len(rc))...)
	}
	need = append([]bool(nil), need...)
	usedCols(j.On, need)

	if j.Kind == ir.RightJoin && !j.Lateral {
		// A right join is the left join of the swapped inputs; the rules then
		// apply to it as to any left join.
		sw := ir.NewJoin(ir.LeftJoin, j.Right, j.Left, swapSides(j.On, lw, len(rc)))
		swNeed := append(append([]bool(nil), need[lw:]...), need[:lw]...)
		n, _, err := b.buildJoin(sw, request{need: swNeed})
		if err != nil {
			return nil, false, err
		}
		noteReason(n, "RIGHT JOIN planned as the LEFT JOIN of the swapped inputs; ")
		return restoreOrder(n, lw, len(rc)), false, nil
	}
	jc := &joinContext{b: b, j: j, need: need, lneed: need[:lw], rneed: need[lw:]}
	jc.lk, jc.rk, jc.residual = equiKeys(j.On, lw)
	jc.hints = joinHints(j)
	// First without the methods the session's enable_* settings turn off;
	// when only such a method can do the join, with them, as PostgreSQL's
	// planner still takes a disabled method that is the only way.
	for pass, avoid := range []PlanMethods{b.opts.Disabled, 0} {
		for _, r := range joinRules {
			if avoid.Has(r.method) || pass == 1 && r.method == 0 {
				continue // the hint rules had their say in the first pass
			}
			if n, ok, err := r.decide(jc); ok || err != nil {
				return n, false, err
			}
		}
	}
	panic("optimizer: the last join rule always decides")
}

// The join rules, as one ordered table (ARCHITECTURE.md, "Join rules"):
// each rule either decides, returning the join's node, or passes to the
// next. A rule that decides records why in the node's reason line; a hint
// that cannot be honoured is said in a NOTICE where its rule passes.
//
// A RIGHT JOIN reaches the table as the LEFT JOIN of its swapped inputs
// (buildJoin), so no rule needs a right-join case.

// joinContext is what the rules know of one join.
type joinContext struct {
	b *builder
	j *ir.Join
	// lk and rk are the equalities between the sides (left and right
	// operands); residual is the rest of the condition.
	lk, rk   []ir.Expr
	residual ir.Expr
	// need marks the columns of the joined row the plan above reads;
	// lneed and rneed are its two sides.
	need, lneed, rneed []bool
	hints              joinHintSet
}

// joinRule is one row of the table.
type joinRule struct {
	name   string
	decide func(jc *joinContext) (Node, bool, error)
	// method is the plan method the rule chooses, which an enable_*
	// setting may turn off; zero for the rules that follow a hint.
	method PlanMethods
}

// joinRules is set in init: its rules plan the joins' inputs, which may
// hold joins, so the table refers to itself through buildJoin.
var joinRules []joinRule

func init() { joinRules = joinRuleTable }

var joinRuleTable = []joinRule{
	{"rule 1: apply, for a LATERAL item that reads the left side", ruleApply, 0},
	{"hints that need an equality", ruleHintsNeedEquality, 0},
	{"rule 2: MERGE_JOIN", ruleMergeHint, 0},
	{"rule 2: INL_JOIN", ruleLookupHint, 0},
	{"rule 3: look up the less selective side of an inner join", ruleSwappedLookup, MethodNestLoop},
	{"rule 3: look up the right side", ruleLookup, MethodNestLoop},
	{"rule 3: merge join of inputs ordered on the keys", ruleMerge, MethodMergeJoin},
	{"rule 3: spatial lookup join", ruleSpatialLookup, MethodNestLoop},
	{"rule 4: hash join on the equalities", ruleHash, MethodHashJoin},
	{"rule 5: nested loop", ruleNestedLoop, MethodNestLoop},
}

func (jc *joinContext) notHonoured(hint, why string) {
	*jc.b.notices = append(*jc.b.notices, pgerr.Notice("%s hint not honoured: %s", hint, why))
}

// lookupAllowed: the rules that look a side up need an equality, and
// HASH_JOIN rules them out.
func (jc *joinContext) lookupAllowed() bool { return len(jc.lk) > 0 && !jc.hints.hash }

func ruleApply(jc *joinContext) (Node, bool, error) {
	if !jc.j.Lateral || !ir.Escapes(jc.j.Right) {
		return nil, false, nil
	}
	n, _, err := jc.b.apply(jc.j, jc.lneed)
	return n, true, err
}

// ruleHintsNeedEquality never decides: it says which hints a join without
// an equality between its sides cannot honour.
func ruleHintsNeedEquality(jc *joinContext) (Node, bool, error) {
	h := jc.hints
	if h.inlPreserved {
		jc.notHonoured("INL_JOIN", "the table it names is the preserved side of an outer join")
	}
	if len(jc.lk) == 0 {
		for _, x := range []struct {
			hint string
			on   bool
		}{{"INL_JOIN", h.inlLeft || h.inlRight}, {"HASH_JOIN", h.hash}, {"MERGE_JOIN", h.merge}} {
			if x.on {
				jc.notHonoured(x.hint, "no equality between the two sides")
			}
		}
	}
	return nil, false, nil
}

func ruleMergeHint(jc *joinContext) (Node, bool, error) {
	if len(jc.lk) == 0 || !jc.hints.merge {
		return nil, false, nil
	}
	if n, ok, err := jc.b.mergeJoin(jc.j, jc.lk, jc.rk, jc.residual, jc.lneed, jc.rneed, true); ok || err != nil {
		return n, ok, err
	}
	jc.notHonoured("MERGE_JOIN", "the inputs do not arrive ordered on the join keys")
	return nil, false, nil
}

// ruleLookupHint: INL_JOIN naming the left table of an inner join looks it
// up; naming the right table looks that up, before rule 3 could swap them.
func ruleLookupHint(jc *joinContext) (Node, bool, error) {
	h := jc.hints
	if !jc.lookupAllowed() || !h.inlLeft && !h.inlRight {
		return nil, false, nil
	}
	if h.inlLeft {
		if n, ok, err := jc.b.swappedLookup(jc.j, jc.lk, jc.rk, jc.residual, jc.need, true); ok || err != nil {
			return n, ok, err
		}
	}
	if h.inlRight {
		if n, ok, err := jc.b.lookupJoin(jc.j.Kind, jc.j.Left, jc.j.Right, jc.lk, jc.rk, jc.residual, jc.lneed, jc.rneed, "", true); ok || err != nil {
			return n, ok, err
		}
	}
	jc.notHonoured("INL_JOIN", "no equality binds a key prefix of the table it names")
	return nil, false, nil
}

// ruleSwappedLookup: an inner join of two tables looks up the side whose
// own access path is less selective.
func ruleSwappedLookup(jc *joinContext) (Node, bool, error) {
	if !jc.lookupAllowed() || jc.j.Kind != ir.InnerJoin || jc.j.Lateral {
		return nil, false, nil
	}
	return jc.b.swappedLookup(jc.j, jc.lk, jc.rk, jc.residual, jc.need, false)
}

func ruleLookup(jc *joinContext) (Node, bool, error) {
	if !jc.lookupAllowed() {
		return nil, false, nil
	}
	return jc.b.lookupJoin(jc.j.Kind, jc.j.Left, jc.j.Right, jc.lk, jc.rk, jc.residual, jc.lneed, jc.rneed, "", false)
}

func ruleMerge(jc *joinContext) (Node, bool, error) {
	if !jc.lookupAllowed() || jc.hints.merge {
		return nil, false, nil
	}
	return jc.b.mergeJoin(jc.j, jc.lk, jc.rk, jc.residual, jc.lneed, jc.rneed, false)
}

// inputs plans both sides as they are, for the rules that read each once.
func (jc *joinContext) inputs() (Node, Node, error) {
	l, _, err := jc.b.build(jc.j.Left, request{need: jc.lneed})
	if err != nil {
		return nil, nil, err
	}
	r, _, err := jc.b.build(jc.j.Right, request{need: jc.rneed})
	return l, r, err
}

func ruleHash(jc *joinContext) (Node, bool, error) {
	if len(jc.lk) == 0 {
		return nil, false, nil
	}
	l, r, err := jc.inputs()
	if err != nil {
		return nil, false, err
	}
	why := "rule 4: " + noLookupReason(jc.j, jc.rk)
	if jc.hints.hash {
		why = "rule 2: chosen by HASH_JOIN"
	}
	b := jc.b
	return &HashJoin{Kind: jc.j.Kind, Left: l, Right: r, LeftKeys: b.exprs(jc.lk), RightKeys: b.exprs(jc.rk), Residual: b.expr(jc.residual),
		Reason: why, cols: joinCols(jc.j.Kind, l.Columns(), r.Columns())}, true, nil
}

func ruleNestedLoop(jc *joinContext) (Node, bool, error) {
	l, r, err := jc.inputs()
	if err != nil {
		return nil, false, err
	}
	return &NestedLoop{Kind: jc.j.Kind, Left: l, Right: r, Pred: jc.b.expr(jc.j.On), Reason: "rule 5: no equality between the two sides",
		cols: joinCols(jc.j.Kind, l.Columns(), r.Columns())}, true, nil
}

// joinHintSet is what the join hints naming a join's two tables ask.
type joinHintSet struct {
	inlLeft, inlRight, hash, merge bool
	// inlPreserved: INL_JOIN names the left table of an outer join, whose
	// rows are all kept and so cannot be looked up.
	inlPreserved bool
}

// joinHints reads the hints naming the tables a join reads directly.
func joinHints(j *ir.Join) joinHintSet {
	var h joinHintSet
	for side, r := range []ir.Rel{j.Left, j.Right} {
		switch joinHint(r) {
		case "inl_join":
			if side == 0 {
				h.inlLeft = true
			} else {
				h.inlRight = true
			}
		case "hash_join":
			h.hash = true
		case "merge_join":
			h.merge = true
		}
	}
	if h.inlLeft && (j.Kind != ir.InnerJoin || j.Lateral) {
		// Only an inner join may swap its sides.
		h.inlLeft, h.inlPreserved = false, true
	}
	return h
}

// noLookupReason says why a join with equality conjuncts is not a lookup
// join (rule 3 did not apply).
func noLookupReason(j *ir.Join, rk []ir.Expr) string {
	switch {
	case j.Kind == ir.FullJoin:
		return "equality conjuncts; a full join is never a lookup join (the unmatched rows of both sides are kept)"
	case baseScan(j.Right) == nil:
		return "equality conjuncts; the inner side is not a stored table, so it cannot be looked up"
	case ir.HasOuterRef(scanFilter(j.Right)) || ir.HasSubquery(scanFilter(j.Right)):
		return "equality conjuncts; the inner table's filter reads an outer row or a subquery, so it is not looked up"
	}
	return "equality conjuncts, and no key of the inner table they bind"
}

// noteReason prefixes the reason of the join at the top of n (under the
// projection of a swapped lookup).
func noteReason(n Node, prefix string) {
	for {
		if p, ok := n.(*Project); ok {
			n = p.Input
			continue
		}
		if j, ok := n.(joinNode); ok {
			*j.reason() = prefix + *j.reason()
		}
		return
	}
}

// mergeJoin plans a join whose two inputs both arrive ordered on the join
// keys (each a table read through a key that starts with them): the join
// then reads each input once, in order, and holds only one key's rows.
// Rows whose key is NULL never match; they are filtered out of the sides
// where that changes nothing, which also lets the scans deliver the order.
func (b *builder) mergeJoin(j *ir.Join, lk, rk []ir.Expr, residual ir.Expr, lneed, rneed []bool, hinted bool) (Node, bool, error) {
	switch j.Kind {
	case ir.InnerJoin, ir.LeftJoin, ir.SemiJoin, ir.AntiJoin:
	default:
		return nil, false, nil
	}
	if baseScan(j.Left) == nil || baseScan(j.Right) == nil {
		return nil, false, nil
	}
	lorder := make([]ir.SortKey, len(lk))
	rorder := make([]ir.SortKey, len(rk))
	var lnn, rnn []ir.Expr
	for i := range lk {
		lc, lok := lk[i].(*ir.ColRef)
		rc, rok := rk[i].(*ir.ColRef)
		if !lok || !rok || lc.Typ.Kind() != rc.Typ.Kind() {
			return nil, false, nil
		}
		lorder[i] = ir.SortKey{Col: lc.Index}
		rorder[i] = ir.SortKey{Col: rc.Index}
		if !baseScan(j.Left).Table.Columns[lc.Index].NotNull {
			lnn = append(lnn, &ir.IsNull{E: lc, Neg: true})
		}
		if !baseScan(j.Right).Table.Columns[rc.Index].NotNull {
			rnn = append(rnn, &ir.IsNull{E: rc, Neg: true})
		}
	}
	left, right := j.Left, j.Right
	if j.Kind == ir.InnerJoin || j.Kind == ir.SemiJoin {
		left = addFilter(left, lnn)
	}
	right = addFilter(right, rnn)
	if !hinted {
		// Without a hint, only when both sides are scans of the whole
		// table anyway (a selective side is better looked up or hashed).
		if b.ownPathRank(left) > 1 || b.ownPathRank(right) > 1 {
			return nil, false, nil
		}
	}
	// Plan both sides on trial: their notices count only if the merge
	// join is kept.
	saved := b.notices
	var trial []*pgerr.Error
	b.notices = &trial
	l, lok, err := b.build(left, request{need: lneed, order: lorder})
	var r Node
	rok := false
	if err == nil && lok {
		r, rok, err = b.build(right, request{need: rneed, order: rorder})
	}
	b.notices = saved
	if err != nil || !lok || !rok {
		return nil, false, err
	}
	*b.notices = append(*b.notices, trial...)
	why := "rule 4: both inputs arrive ordered on the join keys"
	if hinted {
		why = "rule 2: chosen by MERGE_JOIN"
	}
	return &MergeJoin{Kind: j.Kind, Left: l, Right: r, LeftKeys: lk, RightKeys: rk, Residual: b.expr(residual), Reason: why,
		cols: joinCols(j.Kind, l.Columns(), r.Columns())}, true, nil
}

func addFilter(r ir.Rel, preds []ir.Expr) ir.Rel {
	if len(preds) == 0 {
		return r
	}
	if f, ok := r.(*ir.Filter); ok {
		return &ir.Filter{Input: f.Input, Pred: andAll(append([]ir.Expr{f.Pred}, preds...))}
	}
	return &ir.Filter{Input: r, Pred: andAll(preds)}
}

// apply plans a join whose right side reads the left row.
func (b *builder) apply(j *ir.Join, lneed []bool) (Node, bool, error) {
	if j.Kind != ir.InnerJoin && j.Kind != ir.LeftJoin {
		return nil, false, pgerr.New(pgerr.FeatureNotSupported, "%s join with a LATERAL reference is not supported", j.Kind)
	}
	// The right side reads left columns through outer references.
	ir.VisitExprs(j.Right, func(e ir.Expr, level int) {
		ir.Walk(e, func(x ir.Expr) {
			if o, ok := x.(*ir.OuterRef); ok && o.Depth == level+1 && o.Index < len(lneed) {
				lneed[o.Index] = true
			}
		})
	})
	l, _, err := b.build(j.Left, request{need: lneed})
	if err != nil {
		return nil, false, err
	}
	r, _, err := b.build(j.Right, request{})
	if err != nil {
		return nil, false, err
	}
	return &Apply{Kind: j.Kind, Left: l, Right: r, Pred: b.expr(j.On), cols: joinCols(j.Kind, l.Columns(), r.Columns())}, false, nil
}

// equiKeys splits a join condition into equalities between a left-side
// expression (over the left row) and a right-side one (over the right row)
// and the rest (over the joined row).
func equiKeys(on ir.Expr, lw int) (lk, rk []ir.Expr, rest ir.Expr) {
	var others []ir.Expr
	for _, c := range ir.Conjuncts(on) {
		eq, ok := c.(*ir.Binary)
		if ok && eq.Op == ir.OpEq && movable(c) {
			ll, lr := sides(eq.L, lw)
			rl, rr := sides(eq.R, lw)
			switch {
			case ll && !lr && rr && !rl:
				lk, rk = append(lk, eq.L), append(rk, ir.ShiftCols(eq.R, -lw))
				continue
			case rl && !rr && lr && !ll:
				lk, rk = append(lk, eq.R), append(rk, ir.ShiftCols(eq.L, -lw))
				continue
			}
		}
		others = append(others, c)
	}
	return lk, rk, andAll(others)
}

// joinHint returns the join hint naming the table of a join's inner side.
func joinHint(r ir.Rel) string {
	s := baseScan(r)
	if s == nil {
		return ""
	}
	for _, h := range s.Hints {
		switch h.Name {
		case "inl_join", "hash_join", "merge_join":
			return h.Name
		}
	}
	return ""
}

// baseScan returns the stored-table scan a relation is (possibly under a
// filter), or nil.
func baseScan(r ir.Rel) *ir.Scan {
	if f, ok := r.(*ir.Filter); ok {
		r = f.Input
	}
	s, _ := r.(*ir.Scan)
	return s
}

func scanFilter(r ir.Rel) ir.Expr {
	if f, ok := r.(*ir.Filter); ok {
		return f.Pred
	}
	return nil
}

// lookupPath is one way to look up rows of a table by key values.
type lookupPath struct {
	index    *catalog.Index
	keyCols  []catalog.KeyColumn
	exprs    []ir.Expr // per bound leading key column
	joinKeys int       // how many of them come from the join
	pointGet bool
	covering bool
	label    string
}

// lookupJoin builds a lookup join of left with the stored table of right,
// when the join keys bind a key prefix of it; ok is false otherwise.
func (b *builder) lookupJoin(kind ir.JoinKind, left, right ir.Rel, lk, rk []ir.Expr, residual ir.Expr,
	lneed, rneed []bool, why string, hinted bool) (Node, bool, error) {
	if kind != ir.InnerJoin && kind != ir.LeftJoin && kind != ir.SemiJoin && kind != ir.AntiJoin {
		return nil, false, nil
	}
	s := baseScan(right)
	if s == nil || ir.HasOuterRef(scanFilter(right)) || ir.HasSubquery(scanFilter(right)) {
		return nil, false, nil
	}
	lw := len(left.Columns())
	best, rejected := b.lookupPaths(s, scanFilter(right), lk, rk, neededOf(rneed, scanFilter(right)))
	if best == nil {
		return nil, false, nil
	}
	l, _, err := b.build(left, request{need: lneed})
	if err != nil {
		return nil, false, err
	}
	if why == "" {
		why = fmt.Sprintf("rule 3: the join binds a %d-column key prefix of %s", len(best.exprs), best.label)
		if best.pointGet {
			why = "rule 3: the join binds the whole primary key (point gets)"
		}
		if hinted {
			why = "rule 2: chosen by INL_JOIN; " + why
		}
	}
	// The residual reads [left row, inner table row]; join keys the lookup
	// does not enforce stay in it.
	var rest []ir.Expr
	if residual != nil {
		rest = append(rest, residual)
	}
	used := map[int]bool{}
	for i := range best.exprs {
		used[best.keyCols[i].Column] = true
	}
	for i := range lk {
		c, ok := rk[i].(*ir.ColRef)
		if ok && used[c.Index] && boundBy(best, c.Index, lk[i]) {
			continue
		}
		rest = append(rest, &ir.Binary{Op: ir.OpEq, L: lk[i], R: ir.ShiftCols(rk[i], lw), Typ: sqltypes.TypeBool})
	}
	t := s.Table
	lj := &LookupJoin{Kind: kind, Left: l, Table: t, Alias: s.Alias, Index: best.index, KeyCols: best.keyCols,
		KeyExprs: b.exprs(best.exprs), PointGet: best.pointGet, Lookup: best.index != nil && !best.covering,
		InnerFilter: scanFilter(right), Residual: b.expr(andAll(rest)), Needed: neededOf(rneed, scanFilter(right)),
		Batch: lookupBatch, Reason: why, Rejected: rejected, cols: joinCols(kind, l.Columns(), tableCols(t)), Lock: s.Lock}
	if s.Lock != ir.LockNone {
		lj.Needed = withKey(t, lj.Needed)
	}
	return lj, true, nil
}

// withKey adds the primary-key columns to a list of needed columns: a
// locking read names each row it locks by its key.
func withKey(t *catalog.Table, needed []int) []int {
	have := map[int]bool{}
	for _, c := range needed {
		have[c] = true
	}
	for _, k := range t.PrimaryKey {
		if !have[k.Column] {
			needed = append(needed, k.Column)
		}
	}
	sort.Ints(needed)
	return needed
}

// boundBy reports whether the lookup path binds key column col with e.
func boundBy(p *lookupPath, col int, e ir.Expr) bool {
	for i, k := range p.keyCols[:len(p.exprs)] {
		if k.Column == col && p.exprs[i] == e {
			return true
		}
	}
	return false
}

// lookupPaths ranks the ways to look up rows of s's table by the join keys
// (and constants of its own filter): the primary key and each public btree
// index, by longest bound prefix, then point gets, then covering.
func (b *builder) lookupPaths(s *ir.Scan, filter ir.Expr, lk, rk []ir.Expr, needed []int) (*lookupPath, []Rejection) {
	t := s.Table
	kinds := func(c int) sqltypes.Kind { return t.Columns[c].Type.Kind() }
	bnds, _ := extractBounds(filter, b.ctx, kinds)
	bind := func(col int) (ir.Expr, bool, bool) {
		for i, r := range rk {
			c, ok := r.(*ir.ColRef)
			if ok && c.Index == col && lk[i].Type().Kind() == t.Columns[col].Type.Kind() {
				return lk[i], true, true
			}
		}
		if set := bnds[col]; len(set) == 1 && set[0].IsPoint() {
			return &ir.Const{V: set[0].Lo, Typ: t.Columns[col].Type}, false, true
		}
		return nil, false, false
	}
	var paths []*lookupPath
	consider := func(ix *catalog.Index) {
		p := &lookupPath{index: ix, keyCols: keyColumnsOf(t, ix), label: "the primary key"}
		if ix != nil {
			p.label = fmt.Sprintf("%s index %s", ix.Kind, ix.Name)
			p.covering = t.Covers(ix, needed) && !b.opts.Disabled.Has(MethodIndexOnlyScan)
		} else {
			p.covering = true
		}
		for _, k := range p.keyCols {
			e, fromJoin, ok := bind(k.Column)
			if !ok {
				break
			}
			p.exprs = append(p.exprs, e)
			if fromJoin {
				p.joinKeys++
			}
		}
		p.pointGet = ix == nil && len(p.exprs) == len(t.PrimaryKey)
		if p.joinKeys > 0 {
			paths = append(paths, p)
		}
	}
	consider(nil)
	for _, ix := range t.Indexes {
		// A lookup reads key columns: an expression or partial index has
		// none to bind, or lacks rows.
		if ix.State == catalog.StatePublic && ix.Kind == catalog.KindBTree && ix.Plain() {
			consider(ix)
		}
	}
	var best *lookupPath
	for _, p := range paths {
		if best == nil || p.pointGet && !best.pointGet || p.pointGet == best.pointGet &&
			(len(p.exprs) > len(best.exprs) || len(p.exprs) == len(best.exprs) && p.covering && !best.covering) {
			best = p
		}
	}
	var rejected []Rejection
	for _, p := range paths {
		if p != best {
			rejected = append(rejected, Rejection{Path: "lookup via " + p.label, Reason: fmt.Sprintf("binds %d key column(s), not more than %d", len(p.exprs), len(best.exprs))})
		}
	}
	return best, rejected
}

// ownPathRank rates the access path a relation has on its own: a point
// get 4, a key range 3, a Z-order box 2, a full scan 1, a non-table 0.
func (b *builder) ownPathRank(r ir.Rel) int {
	s := baseScan(r)
	if s == nil {
		return 0
	}
	f := scanFilter(r)
	if ir.HasOuterRef(f) || ir.HasSubquery(f) {
		return 1
	}
	var discard []*pgerr.Error
	scan, err := planScan(&scanSpec{Table: s.Table, Alias: s.Alias, Filter: f, Hints: s.Hints}, b.ctx, b.opts, &discard)
	if err != nil {
		return 1
	}
	switch scan.Method {
	case PointGet:
		return 4
	case RangeScan, XZNearest:
		return 3
	case ZOrderRanges, ZOrderSkipScan, ZOrderNearest:
		return 2
	}
	return 1
}

// swappedLookup plans an inner join of two tables with the right table as
// the outer side when the left can be looked up and the right's own access
// path is more selective (or both are full scans and only the left is
// looked up by point gets), or whenever the left can be looked up when
// INL_JOIN names it (hinted).
func (b *builder) swappedLookup(j *ir.Join, lk, rk []ir.Expr, residual ir.Expr, need []bool, hinted bool) (Node, bool, error) {
	ls, rs := baseScan(j.Left), baseScan(j.Right)
	if ls == nil || rs == nil {
		return nil, false, nil
	}
	lw, rw := len(j.Left.Columns()), len(j.Right.Columns())
	lrank, rrank := b.ownPathRank(j.Left), b.ownPathRank(j.Right)
	// Swapped, the right side is the outer row: its keys are rk.
	leftPath, _ := b.lookupPaths(ls, scanFilter(j.Left), rk, lk, neededOf(need[:lw], scanFilter(j.Left)))
	if leftPath == nil {
		return nil, false, nil
	}
	rightPath, _ := b.lookupPaths(rs, scanFilter(j.Right), lk, rk, neededOf(need[lw:], scanFilter(j.Right)))
	switch {
	case hinted:
	case rrank > lrank:
	case rrank == lrank && leftPath.pointGet && (rightPath == nil || !rightPath.pointGet):
	default:
		return nil, false, nil
	}
	why := fmt.Sprintf("rule 3: %s has the more selective access path of its own (%s), so %s is looked up by %s",
		rs.Alias, rankName(rrank), ls.Alias, strings.TrimPrefix(leftPath.label, "the "))
	switch {
	case hinted:
		why = fmt.Sprintf("rule 2: chosen by INL_JOIN(%s); %s is looked up by %s", ls.Alias, ls.Alias, strings.TrimPrefix(leftPath.label, "the "))
	case rrank == lrank:
		why = fmt.Sprintf("rule 3: neither side is selective on its own; %s is looked up by point gets on %s", ls.Alias, strings.TrimPrefix(leftPath.label, "the "))
	}
	sres := swapSides(residual, lw, rw)
	n, ok, err := b.lookupJoin(ir.InnerJoin, j.Right, j.Left, rk, lk, sres, need[lw:], need[:lw], why, false)
	if !ok || err != nil {
		return nil, ok, err
	}
	return restoreOrder(n, lw, rw), true, nil
}

func rankName(r int) string {
	return [...]string{"none", "full scan", "Z-order box", "key range", "point get"}[r]
}

// swapSides moves an expression over [left (lw), right (rw)] onto the
// swapped row [right, left].
func swapSides(e ir.Expr, lw, rw int) ir.Expr {
	if e == nil {
		return nil
	}
	return ir.RemapCols(e, func(i int) int {
		if i < lw {
			return i + rw
		}
		return i - lw
	})
}

// restoreOrder projects a join computed with swapped inputs ([right (rw),
// left (lw)]) back to the row the query expects ([left, right]).
func restoreOrder(n Node, lw, rw int) Node {
	cols := n.Columns()
	if len(cols) != lw+rw {
		return n // semi/anti joins keep one side
	}
	exprs := make([]ir.Expr, 0, lw+rw)
	out := make([]ir.Column, 0, lw+rw)
	for i := 0; i < lw; i++ {
		c := cols[rw+i]
		exprs = append(exprs, &ir.ColRef{Index: rw + i, Name: c.Name, Typ: c.Type})
		out = append(out, c)
	}
	for i := 0; i < rw; i++ {
		c := cols[i]
		exprs = append(exprs, &ir.ColRef{Index: i, Name: c.Name, Typ: c.Type})
		out = append(out, c)
	}
	return &Project{Input: n, Exprs: exprs, Cols: out}
}
