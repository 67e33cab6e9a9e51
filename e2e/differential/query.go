package differential

import (
	"fmt"
	"slices"
	"strings"
)

// shape is what the context of a query needs from it.
type shape struct {
	want    []class // the classes of the output columns; nil: any
	oneRow  bool    // at most one row (a scalar subquery)
	exists  bool    // under EXISTS: the select list does not matter
	names   bool    // output columns are referenced by name (derived table, CTE)
	unique  bool    // output names must be unique (a view)
	top     bool    // the statement itself
	noSetOp bool
}

// query draws a SELECT or a set operation at a new level below parent.
func (g *gen) query(parent *scope, depth int, sh shape) query {
	if sh.top && depth > 0 && g.chance(15) {
		// The shapes of ordering the optimizer's order delivery meets
		// (order.go).
		return g.orderQuery(depth)
	}
	if depth > 0 && !sh.oneRow && !sh.noSetOp && g.chance(12) {
		return g.setQuery(parent, depth, sh)
	}
	return g.selectQuery(parent, depth, sh)
}

// setQuery draws (left) OP (right) with matching column classes.
func (g *gen) setQuery(parent *scope, depth int, sh shape) query {
	op := pick(g, []string{"UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL", "UNION ALL", "UNION"})
	g.tag("setop." + strings.ToLower(strings.ReplaceAll(op, " ", "-")))
	s := &setStmt{op: op, limit: -1, offset: -1}
	if sh.top && depth > 0 && g.chance(10) {
		mark := len(g.ctes)
		s.with, s.recursive = g.withClause(depth)
		defer func() { g.ctes = g.ctes[:mark] }()
	}
	inner := sh
	inner.top, inner.oneRow = false, false
	inner.unique = false
	if inner.want == nil {
		inner.want = g.classes(1 + g.n(3))
	}
	s.left = g.query(parent, depth-1, inner)
	inner.names = false
	s.right = g.query(parent, depth-1, inner)
	lo, ro := s.left.outCols(), s.right.outCols()
	for i := range lo {
		s.out = append(s.out, outCol{name: lo[i].name, t: unify(lo[i].t, ro[i].t)})
	}
	if sh.unique && !namesUnique(s.out) {
		return g.selectQuery(parent, depth, sh)
	}
	g.orderAndLimit(&s.orderBy, &s.limit, &s.offset, len(s.out), sh, nil)
	return s
}

func (g *gen) classes(n int) []class {
	var out []class
	for i := 0; i < n; i++ {
		out = append(out, pick(g, []class{cInt, cInt, cFloat, cText, cText, cBool, cDate, cTimestamp}))
	}
	return out
}

func namesUnique(cols []outCol) bool {
	seen := map[string]bool{}
	for _, c := range cols {
		if c.name == "" || seen[c.name] {
			return false
		}
		seen[c.name] = true
	}
	return true
}

// orderAndLimit draws the ORDER BY / LIMIT of a query with n output
// columns. At the top it is whatever the comparison can check: none
// (compared as multisets), some positions (compared as ordered runs of
// equal keys), all positions (compared as a sequence), the latter with
// LIMIT / OFFSET. Below the top a LIMIT always comes with an ORDER BY of
// every output column, so which rows it keeps is fixed; an ORDER BY of
// some columns without one orders nothing the answer shows, but the query
// above may take the order for its own (order.go draws those shapes on
// purpose).
func (g *gen) orderAndLimit(order *[]orderItem, limit, offset *int, n int, sh shape, exprKey func() *expr) {
	total := func() {
		for _, p := range g.rng.Perm(n) {
			*order = append(*order, g.orderPos(p+1))
		}
	}
	switch {
	case sh.oneRow:
		total()
		*limit = 1
		return
	case !sh.top:
		switch r := g.n(100); {
		case r < 8:
			total()
			*limit = g.n(6)
			g.tag("limit")
		case r < 16 && !sh.exists:
			for _, p := range g.rng.Perm(n)[:1+g.n(min(2, n))] {
				*order = append(*order, g.orderPos(p+1))
			}
			g.tag("order-by.inner")
		}
		return
	}
	switch r := g.n(100); {
	case r < 25:
	case r < 45:
		for _, p := range g.rng.Perm(n)[:1+g.n(min(2, n))] {
			*order = append(*order, g.orderPos(p+1))
		}
		g.tag("order-by.partial")
	case r < 85 || exprKey == nil:
		total()
		g.tag("order-by.total")
		if g.chance(40) {
			*limit = g.n(10)
			g.tag("limit")
		}
		if g.chance(25) {
			*offset = g.n(5)
			g.tag("offset")
		}
	default:
		for i := 0; i < 1+g.n(2); i++ {
			if e := exprKey(); e != nil {
				o := g.orderPos(0)
				o.e = e
				*order = append(*order, o)
			}
		}
		g.tag("order-by.expression")
	}
}

func (g *gen) orderPos(p int) orderItem {
	o := orderItem{pos: p, desc: g.chance(40)}
	if g.chance(30) {
		o.nulls = pick(g, []string{"NULLS FIRST", "NULLS LAST"})
	}
	return o
}

// selectQuery draws a SELECT.
func (g *gen) selectQuery(parent *scope, depth int, sh shape) *selectStmt {
	s := &selectStmt{limit: -1, offset: -1}
	mark := len(g.ctes)
	defer func() { g.ctes = g.ctes[:mark] }()
	if depth > 0 && g.chance(map[bool]int{true: 18, false: 4}[sh.top]) {
		s.with, s.recursive = g.withClause(depth)
	}

	nitems := 1
	switch r := g.n(100); {
	case r < 6:
		nitems = 0
	case r < 30:
		nitems = 2
	case r < 36:
		nitems = 3
	}
	if nitems > 1 {
		g.tag("join.comma")
	}
	hmark := len(g.hints)
	items, rels, out := g.fromList(parent, depth, nitems)
	hints := slices.Clone(g.hints[hmark:])
	g.hints = g.hints[:hmark]
	s.from = items
	sc := newScope(rels, out, parent)
	c := ectx{sc: sc, depth: depth}
	if len(items) > 0 && g.chance(55) {
		s.where = g.pred(c, 3)
	}
	if len(hints) > 0 && g.chance(45) {
		// A conjunct that implies (or nearly implies) a partial index's
		// predicate, or compares an indexed expression.
		p := g.indexPred(pick(g, hints))
		if s.where == nil {
			s.where = p
		} else {
			s.where = mk(tBool, "($1 AND $2)", p, s.where)
		}
	}

	// plain, grouped (GROUP BY) or aggregate (aggregates without GROUP BY:
	// exactly one row).
	mode := "plain"
	switch r := g.n(100); {
	case sh.oneRow:
		if g.chance(70) {
			mode = "aggregate"
		}
	case sh.exists:
	case r < 22 && len(sc.qualified()) > 0:
		mode = "grouped"
	case r < 30:
		mode = "aggregate"
	}
	switch mode {
	case "grouped":
		g.tag("group-by")
		q := sc.qualified()
		for _, i := range g.rng.Perm(len(q))[:1+g.n(min(2, len(q)))] {
			s.groupBy = append(s.groupBy, leaf(q[i].t, q[i].ref))
			sc.groupCols = append(sc.groupCols, q[i])
		}
		sc.grouped = true
		c.aggOK = true
		if g.chance(30) {
			g.tag("having")
			s.having = g.pred(c, 2)
		}
	case "aggregate":
		// Aggregates over the whole input: one row, and, as in a grouped
		// query, no column outside an aggregate.
		sc.grouped = true
		c.aggOK = true
		if g.chance(15) {
			g.tag("having")
			s.having = g.pred(c, 2)
		}
	}
	if mode == "plain" && len(items) > 0 && !sh.oneRow && !sh.exists && g.chance(map[bool]int{true: 30, false: 10}[sh.top]) {
		c.winOK = true
		c.win = &winCtx{s: s}
	}

	g.selectList(s, c, sh, mode)

	if g.chance(10) && !sh.exists {
		s.distinct = true
		g.tag("distinct")
	}
	var exprKey func() *expr
	if mode == "plain" && !s.distinct && len(sc.qualified()) > 0 {
		exprKey = func() *expr {
			q := sc.qualified()
			col := pick(g, q)
			return leaf(col.t, col.ref)
		}
	}
	g.orderAndLimit(&s.orderBy, &s.limit, &s.offset, len(s.out), sh, exprKey)
	if sh.oneRow && mode == "aggregate" {
		s.orderBy, s.limit = nil, -1
	}
	return s
}

// selectList fills s.items and s.out.
func (g *gen) selectList(s *selectStmt, c ectx, sh shape, mode string) {
	item := func(k class) *expr {
		switch {
		case mode == "aggregate":
			// The first item is an aggregate, so the query is one.
			if len(s.items) == 0 || g.chance(85) {
				return g.aggregate(c, k)
			}
			return g.literalNotNull(repType(k))
		case mode == "grouped" && g.chance(50):
			for _, gc := range g.rng.Perm(len(c.sc.groupCols)) {
				if col := c.sc.groupCols[gc]; col.t.class() == k {
					return leaf(col.t, col.ref)
				}
			}
			return g.aggregate(c, k)
		case c.winOK && g.chance(35):
			if e := g.window(c, k); e != nil {
				return e
			}
		}
		c.topList = sh.top
		return g.expr(c, k, 2)
	}
	add := func(e *expr, alias string) {
		s.items = append(s.items, selItem{e: e, alias: alias})
		name := alias
		if name == "" {
			name = colName(e)
		}
		s.out = append(s.out, outCol{name: name, t: e.t})
	}
	naming := func() string {
		if sh.names || sh.unique || g.chance(30) {
			return g.alias("x")
		}
		return ""
	}
	switch {
	case sh.want != nil:
		for _, k := range sh.want {
			add(item(k), naming())
		}
	case sh.exists && g.chance(60):
		add(leaf(tInt4, "1"), "")
	case mode == "plain" && len(s.from) > 0 && g.chance(12) && (!sh.unique || namesUnique(fromOut(c.sc))):
		g.tag("select.star")
		if len(c.sc.rels) > 1 && g.chance(50) {
			r := pick(g, c.sc.rels)
			s.items = append(s.items, selItem{star: r.alias + ".*"})
			s.out = append(s.out, r.cols...)
		} else {
			s.items = append(s.items, selItem{star: "*"})
			s.out = append(s.out, fromOut(c.sc)...)
		}
	default:
		for i, n := 0, 1+g.n(4); i < n; i++ {
			add(item(g.someClass(c)), naming())
		}
	}
	if sh.unique && !namesUnique(s.out) {
		for i := range s.items {
			if s.items[i].star == "" {
				s.items[i].alias = g.alias("x")
				s.out[i].name = s.items[i].alias
			}
		}
	}
}

func fromOut(sc *scope) []outCol {
	var out []outCol
	for _, c := range sc.out {
		out = append(out, outCol{name: c.name, t: c.t})
	}
	return out
}

// colName is PostgreSQL's name for an unaliased select item when the
// generator relies on it: a column reference is named after the column.
// Everything else is left unnamed (and so never referenced).
func colName(e *expr) string {
	if len(e.args) > 0 || e.sub != nil {
		return ""
	}
	s := e.tmpl
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" || !isIdent(s) {
		return ""
	}
	return s
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != "true" && s != "false" && s != "null"
}

// ------------------------------------------------------------------ FROM

// fromList draws n comma-separated FROM items; each after the first may
// be LATERAL over the ones before it.
func (g *gen) fromList(parent *scope, depth, n int) ([]*fromItem, []rel, []fromCol) {
	var items []*fromItem
	var rels []rel
	var out []fromCol
	joins := 0
	for i := 0; i < n; i++ {
		var lat *scope
		if i > 0 {
			lat = newScope(rels, nil, parent)
		}
		it, r, o := g.fromItem(parent, lat, depth, &joins)
		items = append(items, it)
		rels = append(rels, r...)
		out = append(out, o...)
	}
	return items, rels, out
}

// fromItem draws one FROM item. lat, when not nil, is what a LATERAL item
// may reference (the items before it), chained to the outer levels.
func (g *gen) fromItem(parent, lat *scope, depth int, joins *int) (*fromItem, []rel, []fromCol) {
	r := g.n(100)
	if depth <= 0 && r >= 55 && r < 67 {
		r = 0
	}
	switch {
	case r < 52:
		return g.relationItem()
	case r < 64:
		return g.derivedItem(parent, lat, depth)
	case r < 70:
		return g.valuesItem()
	case r < 76:
		return g.seriesItem(lat)
	case *joins < 4:
		*joins++
		return g.joinItem(parent, lat, depth, joins)
	}
	return g.relationItem()
}

// relationItem is a table, a view or a CTE, under an alias or its own name.
func (g *gen) relationItem() (*fromItem, []rel, []fromCol) {
	type cand struct {
		name string
		cols []outCol
		kind string
	}
	var cands []cand
	for _, t := range g.sch.tables {
		var cols []outCol
		for _, c := range t.cols {
			cols = append(cols, outCol{name: c.name, t: c.typ})
		}
		cands = append(cands, cand{t.name, cols, "table"})
	}
	for _, v := range g.sch.views {
		cands = append(cands, cand{v.name, v.cols, "view"})
	}
	for _, c := range g.ctes {
		// CTEs are drawn often, so that they are referenced more than once.
		for i := 0; i < 3; i++ {
			cands = append(cands, cand{c.name, c.cols, "cte"})
		}
	}
	c := pick(g, cands)
	g.tag("from." + c.kind)
	if dotted(c.name) {
		g.tag("from.qualified")
	}
	it := &fromItem{kind: fTable, name: c.name}
	qual := c.name
	if g.quals[c.name] || g.chance(60) || dotted(c.name) {
		it.alias = g.alias("r")
		qual = it.alias
	} else {
		g.quals[c.name] = true
	}
	if t := g.sch.table(c.name); c.kind == "table" && t != nil {
		g.tagTable("from", t)
		if slices.ContainsFunc(t.indexes, indexHintable) {
			g.hints = append(g.hints, indexHint{qual: qual, t: t})
		}
	}
	return it, []rel{{alias: qual, cols: c.cols}}, fromCols(c.cols)
}

func fromCols(cols []outCol) []fromCol {
	var out []fromCol
	for _, c := range cols {
		out = append(out, fromCol{name: c.name, t: c.t})
	}
	return out
}

// derivedItem is a subquery in FROM, with an alias and sometimes column
// aliases, LATERAL now and then.
func (g *gen) derivedItem(parent, lat *scope, depth int) (*fromItem, []rel, []fromCol) {
	it := &fromItem{kind: fSub, alias: g.alias("s")}
	p := parent
	if lat != nil && g.chance(40) {
		it.lateral = true
		p = lat
		g.tag("from.lateral")
	}
	g.tag("from.subquery")
	if g.chance(20) {
		// A table ordered on a key prefix (order.go).
		it.sub = g.orderedScanOf(g.pickKeyTable(), p, true).s
	} else {
		it.sub = g.query(p, depth-1, shape{names: true})
	}
	cols := slices.Clone(it.sub.outCols())
	if g.chance(30) {
		g.tag("from.column-aliases")
		for i := range cols[:1+g.n(len(cols))] {
			a := g.alias("y")
			it.colAliases = append(it.colAliases, a)
			cols[i].name = a
		}
	}
	return it, []rel{{alias: it.alias, cols: cols}}, fromCols(cols)
}

// valuesItem is VALUES as a relation.
func (g *gen) valuesItem() (*fromItem, []rel, []fromCol) {
	g.tag("from.values")
	it := &fromItem{kind: fValues, alias: g.alias("v")}
	classes := g.classes(1 + g.n(3))
	types := make([]typ, len(classes))
	for i := 0; i < 1+g.n(4); i++ {
		var row []*expr
		for j, k := range classes {
			e := g.literal(repType(k))
			types[j] = unify(types[j], e.t)
			row = append(row, e)
		}
		it.values = append(it.values, row)
	}
	var cols []outCol
	named := g.chance(80)
	for j, t := range types {
		if t == tNull {
			t = tText // a column of NULLs only is text
		}
		name := fmt.Sprintf("column%d", j+1)
		if named {
			name = g.alias("y")
			it.colAliases = append(it.colAliases, name)
		}
		cols = append(cols, outCol{name: name, t: t})
	}
	return it, []rel{{alias: it.alias, cols: cols}}, fromCols(cols)
}

// seriesItem is generate_series over integers, its bounds now and then
// taken from an item before it (a LATERAL function call).
func (g *gen) seriesItem(lat *scope) (*fromItem, []rel, []fromCol) {
	g.tag("from.generate_series")
	it := &fromItem{kind: fSeries, alias: g.alias("g")}
	lo := leaf(tInt4, fmt.Sprint(g.n(4)-1))
	hi := leaf(tInt4, fmt.Sprint(g.n(7)))
	if lat != nil && g.chance(40) {
		var ints []scopeCol
		for _, c := range lat.cols {
			if c.t.isInt() && c.t != tInt8 {
				ints = append(ints, c)
			}
		}
		if len(ints) > 0 {
			col := pick(g, ints)
			hi = leaf(col.t, col.ref)
			it.lateral = g.chance(50)
			g.tag("from.lateral")
		}
	}
	it.series = []*expr{lo, hi}
	if g.chance(25) {
		it.series = append(it.series, leaf(tInt4, pick(g, []string{"1", "2", "3", "-1"})))
	}
	name := it.alias
	if g.chance(70) {
		name = g.alias("y")
		it.colAliases = []string{name}
	}
	cols := []outCol{{name: name, t: tInt4}}
	return it, []rel{{alias: it.alias, cols: cols}}, fromCols(cols)
}

var joinTypes = []string{"JOIN", "INNER JOIN", "LEFT JOIN", "LEFT OUTER JOIN", "RIGHT JOIN", "RIGHT OUTER JOIN", "FULL JOIN", "FULL OUTER JOIN", "CROSS JOIN", "LEFT JOIN", "JOIN"}

// joinItem draws left JOIN right with ON, USING or NATURAL.
func (g *gen) joinItem(parent, lat *scope, depth int, joins *int) (*fromItem, []rel, []fromCol) {
	jt := pick(g, joinTypes)
	it := &fromItem{kind: fJoin, joinType: jt}
	left, lrels, lout := g.fromItem(parent, lat, depth, joins)
	// The right side of an inner or left join may be LATERAL over the left
	// and what lies before the join; that of a RIGHT or FULL join only over
	// what lies before it.
	rlat := lat
	if !strings.HasPrefix(jt, "RIGHT") && !strings.HasPrefix(jt, "FULL") {
		rlat = newScope(append(slices.Clone(relsOf(lat)), lrels...), nil, parent)
	}
	right, rrels, rout := g.fromItem(parent, rlat, depth, joins)
	it.left, it.right = left, right
	rels := append(slices.Clone(lrels), rrels...)
	kind := strings.ToLower(strings.Fields(jt)[0])
	if kind == "join" {
		kind = "inner"
	}
	g.tag("join." + kind)
	if jt == "CROSS JOIN" {
		return it, rels, append(slices.Clone(lout), rout...)
	}

	common := commonNames(lout, rout)
	switch r := g.n(100); {
	case r < 8 && naturalOK(lout, rout):
		it.natural = true
		g.tag("join.natural")
		return it, rels, mergeOut(lout, rout, common)
	case r < 25 && len(common) > 0:
		g.rng.Shuffle(len(common), func(i, j int) { common[i], common[j] = common[j], common[i] })
		it.using = common[:1+g.n(min(2, len(common)))]
		g.tag("join.using")
		return it, rels, mergeOut(lout, rout, it.using)
	}
	on := newScope(rels, nil, parent)
	c := ectx{sc: on, depth: min(depth, 1)}
	if depth <= 0 || !g.chance(10) {
		c.depth = 0
	}
	lsc, rsc := newScope(lrels, nil, nil), newScope(rrels, nil, nil)
	eq := g.equality(lsc, rsc)
	full := strings.HasPrefix(jt, "FULL")
	switch r := g.n(100); {
	case eq != nil && (full || r < 55):
		it.on = eq
		if g.chance(30) {
			it.on = mk(tBool, "($1 AND $2)", eq, g.pred(c, 2))
		}
		if !full && g.chance(15) {
			it.on = mk(tBool, "($1 AND $2)", it.on, g.equalityOr(lsc, rsc, eq))
		}
	case full:
		// PostgreSQL runs FULL JOIN only on merge- or hash-joinable
		// conditions; without an equality, make it a LEFT JOIN.
		it.joinType = "LEFT JOIN"
		it.on = g.pred(c, 2)
	case r < 75:
		it.on = g.nonEquality(lsc, rsc, c)
		g.tag("join.non-equi")
	case r < 95:
		it.on = g.pred(c, 3)
	default:
		it.on = leaf(tBool, "true")
	}
	return it, rels, append(slices.Clone(lout), rout...)
}

// leftmost is the first table-like item of a join tree.
func leftmost(f *fromItem) *fromItem {
	for f.kind == fJoin {
		f = f.left
	}
	return f
}

func relsOf(sc *scope) []rel {
	if sc == nil {
		return nil
	}
	return sc.rels
}

// equality is l = r over a column of each side of the same class, or nil.
func (g *gen) equality(l, r *scope) *expr {
	type pair struct{ a, b scopeCol }
	var pairs []pair
	for _, a := range l.cols {
		for _, b := range r.cols {
			if a.t.class() == b.t.class() {
				pairs = append(pairs, pair{a, b})
			}
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	p := pick(g, pairs)
	return mk(tBool, "($1 = $2)", leaf(p.a.t, p.a.ref), leaf(p.b.t, p.b.ref))
}

func (g *gen) equalityOr(l, r *scope, fallback *expr) *expr {
	if e := g.equality(l, r); e != nil {
		return e
	}
	return fallback
}

// nonEquality is a comparison other than = between the two sides.
func (g *gen) nonEquality(l, r *scope, c ectx) *expr {
	for try := 0; try < 5; try++ {
		if len(l.cols) == 0 || len(r.cols) == 0 {
			break
		}
		a, b := pick(g, l.cols), pick(g, r.cols)
		if comparable(a.t, b.t) && a.t.class() != cBool {
			op := pick(g, []string{"<", "<=", ">", ">=", "<>"})
			return mk(tBool, "($1 "+op+" $2)", leaf(a.t, a.ref), leaf(b.t, b.ref))
		}
	}
	return g.pred(c, 2)
}

// commonNames are the names both sides output exactly once, with
// comparable types: what USING may name.
func commonNames(l, r []fromCol) []string {
	lc, rc := map[string]int{}, map[string]int{}
	lt, rt := map[string]typ{}, map[string]typ{}
	for _, c := range l {
		lc[c.name]++
		lt[c.name] = c.t
	}
	for _, c := range r {
		rc[c.name]++
		rt[c.name] = c.t
	}
	var out []string
	for _, c := range l {
		if c.name != "" && lc[c.name] == 1 && rc[c.name] == 1 && comparable(lt[c.name], rt[c.name]) &&
			lt[c.name].class() == rt[c.name].class() {
			out = append(out, c.name)
		}
	}
	return out
}

// naturalOK: every name the sides share occurs once on each side with the
// same class (otherwise NATURAL is an error in PostgreSQL).
func naturalOK(l, r []fromCol) bool {
	common := commonNames(l, r)
	shared := 0
	rn := map[string]bool{}
	for _, c := range r {
		rn[c.name] = true
	}
	seen := map[string]bool{}
	for _, c := range l {
		if rn[c.name] && !seen[c.name] {
			shared++
			seen[c.name] = true
		}
	}
	return shared == len(common)
}

// mergeOut is a USING / NATURAL join's output: the merged columns first,
// then the rest of the left side, then the rest of the right.
func mergeOut(l, r []fromCol, using []string) []fromCol {
	if len(using) == 0 {
		// NATURAL over no common column: a cross join.
		using = commonNames(l, r)
	}
	var out []fromCol
	is := map[string]bool{}
	for _, u := range using {
		is[u] = true
		var lt, rt typ
		for _, c := range l {
			if c.name == u {
				lt = c.t
			}
		}
		for _, c := range r {
			if c.name == u {
				rt = c.t
			}
		}
		out = append(out, fromCol{name: u, t: unify(lt, rt), merged: true})
	}
	for _, c := range l {
		if !is[c.name] {
			out = append(out, c)
		}
	}
	for _, c := range r {
		if !is[c.name] {
			out = append(out, c)
		}
	}
	return out
}

// ------------------------------------------------------------------ WITH

// withClause draws 1-2 CTEs (one of them now and then recursive) and makes
// them visible to the rest of the statement's level.
func (g *gen) withClause(depth int) ([]*cte, bool) {
	var ctes []*cte
	recursive := false
	for i := 0; i < 1+g.n(2); i++ {
		var c *cte
		if g.chance(30) {
			c = g.recursiveCTE()
			recursive = true
			g.tag("cte.recursive")
		} else {
			c = &cte{name: g.alias("w")}
			if g.chance(20) {
				c.q = g.orderedScanOf(g.pickKeyTable(), nil, true).s
			} else {
				c.q = g.query(nil, depth-1, shape{names: true})
			}
			c.cols = slices.Clone(c.q.outCols())
			if g.chance(40) {
				for j := range c.cols {
					n := g.alias("y")
					c.colList = append(c.colList, n)
					c.cols[j].name = n
				}
			}
			g.tag("cte")
		}
		ctes = append(ctes, c)
		g.ctes = append(g.ctes, c)
	}
	return ctes, recursive
}

// recursiveCTE is one of a few recursive shapes that always terminate: a
// counter, a walk along a table's integer columns bounded by depth, and a
// string that grows to a bound.
func (g *gen) recursiveCTE() *cte {
	name := g.alias("w")
	n, d := g.alias("y"), g.alias("y")
	var walk []*table
	for _, t := range g.sch.tables {
		ints := 0
		for _, c := range t.cols {
			if c.typ.isInt() {
				ints++
			}
		}
		if ints >= 2 {
			walk = append(walk, t)
		}
	}
	union := pick(g, []string{"UNION ALL", "UNION"})
	switch {
	case len(walk) > 0 && g.chance(50):
		t := pick(g, walk)
		var ints []string
		for _, c := range t.cols {
			if c.typ.isInt() {
				ints = append(ints, c.name)
			}
		}
		x, y := pick(g, ints), pick(g, ints)
		a1, a2 := g.alias("q"), g.alias("q")
		seed := fmt.Sprintf("%s.%s IS NOT NULL", a1, x)
		if g.chance(50) {
			seed = fmt.Sprintf("%s.%s = %s", a1, x, pick(g, intDomain))
		}
		sql := fmt.Sprintf("SELECT CAST(%[1]s.%[2]s AS bigint), 0 FROM %[3]s AS %[1]s WHERE %[4]s %[5]s "+
			"SELECT CAST(%[6]s.%[7]s AS bigint), %[8]s.%[10]s + 1 FROM %[3]s AS %[6]s JOIN %[8]s ON %[6]s.%[2]s = %[8]s.%[9]s WHERE %[8]s.%[10]s < %[11]d",
			a1, x, t.name, seed, union, a2, y, name, n, d, 1+g.n(3))
		return &cte{name: name, colList: []string{n, d}, q: &rawQuery{sql: sql},
			cols: []outCol{{n, tInt8}, {d, tInt4}}}
	case g.chance(50):
		sql := fmt.Sprintf("SELECT 1, CAST('' AS text) %s SELECT %s + 1, %s || '%s' FROM %s WHERE %s < %d",
			union, n, d, pick(g, []string{"a", "b", "ab"}), name, n, 1+g.n(4))
		return &cte{name: name, colList: []string{n, d}, q: &rawQuery{sql: sql},
			cols: []outCol{{n, tInt4}, {d, tText}}}
	default:
		sql := fmt.Sprintf("SELECT %d %s SELECT %s + 1 FROM %s WHERE %s < %d",
			g.n(3), union, n, name, n, 2+g.n(5))
		return &cte{name: name, colList: []string{n}, q: &rawQuery{sql: sql},
			cols: []outCol{{n, tInt4}}}
	}
}
