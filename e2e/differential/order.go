package differential

import (
	"fmt"
	"slices"
	"strings"
)

// The shapes of ordering that meet the optimizer's order delivery: a
// table's primary key and its indexes hand rows over in their key order
// (forwards or backwards), and a sort, a limit, a merge join, a streaming
// aggregate, DISTINCT or a window above may take that order for the one it
// needs. Taking it for the wrong one (the same columns the other way
// round, a longer order, an order a LIMIT was applied before) is a wrong
// answer only these shapes show, so they are drawn on purpose rather than
// left to the grammar's chance: ORDER BY on a prefix of a key, in either
// direction and with NULLS FIRST / LAST, in derived tables, WITH queries,
// the operands of a join and the branches of a set operation, with and
// without LIMIT / OFFSET, under an outer ORDER BY on the same keys the
// same or the other way, longer or shorter, and under GROUP BY, DISTINCT,
// aggregates and window functions ordered along or against them.
//
// A LIMIT below the top must keep a set of rows the SQL fixes: its ORDER
// BY is then the whole primary key, or the chosen keys followed by every
// column of the table (rows tying on all of them are identical). Its keys
// are spelled as expressions, not output positions, so that the minimiser
// dropping a select item cannot turn them into other columns.

// keyPart is one part of a key the rows of a table can come in: a column
// or an index's expression, spelled over the table's qualifier.
type keyPart struct {
	sql  string
	t    typ
	name string // the output name of the column ("": an expression, aliased)
}

// keyOrders are the keys t's rows can be delivered in: its primary key
// and its indexes' keys (a Z-order index's too: zproxy's does not order,
// PostgreSQL's stand-in btree may). Without any, a random order of its
// columns, which only a sort gives.
func keyOrders(t *table, qual string) [][]keyPart {
	part := func(name string, expr bool) keyPart {
		c := t.column(name)
		if expr {
			qc := c
			qc.name = qual + "." + c.name
			t := c.typ
			switch c.typ.class() {
			case cInt:
				t = intResult(c.typ, tInt4)
			case cFloat:
				t = tFloat8
			case cText:
				t = tText
			}
			return keyPart{sql: exprKey(qc), t: t}
		}
		return keyPart{sql: qual + "." + c.name, t: c.typ, name: c.name}
	}
	var out [][]keyPart
	if len(t.pk) > 0 {
		var k []keyPart
		for _, p := range t.pk {
			k = append(k, part(t.cols[p].name, false))
		}
		out = append(out, k)
	}
	for _, ix := range t.indexes {
		var k []keyPart
		for i, name := range ix.cols {
			k = append(k, part(name, ix.keys != nil && ix.keys[i] != name))
		}
		out = append(out, k)
	}
	return out
}

// orderedScan is a SELECT over one table ordered on a key prefix, and
// what the query above it needs to know of it.
type orderedScan struct {
	s    *selectStmt
	t    *table
	qual string
	// keys are the output positions (0-based) of the key's parts, in key
	// order: the first nOrder are the scan's ORDER BY, the rest are there
	// for an outer order that is longer.
	keys   []int
	nOrder int
	dirs   []orderItem // the scan's ORDER BY directions, per key
}

// pickKeyTable draws a table with a key, or any table.
func (g *gen) pickKeyTable() *table {
	var keyed []*table
	for _, t := range g.sch.tables {
		if len(t.pk) > 0 || len(t.indexes) > 0 {
			keyed = append(keyed, t)
		}
	}
	if len(keyed) > 0 && g.chance(90) {
		return pick(g, keyed)
	}
	return pick(g, g.sch.tables)
}

// orderedScanOf draws SELECT <the key's parts and some other columns>
// FROM t [WHERE ...] ORDER BY <a prefix of the key> [LIMIT / OFFSET].
// limitOK allows a LIMIT (never in a scalar context or where the caller
// limits itself).
func (g *gen) orderedScanOf(t *table, parent *scope, limitOK bool) *orderedScan {
	qual := g.alias("r")
	o := &orderedScan{t: t, qual: qual}
	s := &selectStmt{limit: -1, offset: -1, from: []*fromItem{{kind: fTable, name: t.name, alias: qual}}}
	o.s = s
	g.tag("order.scan")
	g.tagTable("from", t)

	var key []keyPart
	pkOrder := false // key is the primary key, whose values are unique
	if ks := keyOrders(t, qual); len(ks) > 0 {
		i := g.n(len(ks))
		key, pkOrder = ks[i], i == 0 && len(t.pk) > 0
	} else {
		for _, p := range g.rng.Perm(len(t.cols))[:1+g.n(min(2, len(t.cols)))] {
			c := t.cols[p]
			key = append(key, keyPart{sql: qual + "." + c.name, t: c.typ, name: c.name})
		}
		g.tag("order.scan-unkeyed")
	}
	o.nOrder = 1 + g.n(len(key))
	if len(key) > 1 && g.chance(35) {
		// Often the first part alone, so that an outer order can be
		// longer than the one delivered.
		o.nOrder = 1
	}

	// The select list: the key's parts, and some other columns, in any
	// order. Unique names (a derived table's columns are referenced by
	// name): column names, aliases for the expressions.
	type item struct {
		e    *expr
		name string
		key  int // index in key, or -1
	}
	var items []item
	have := map[string]bool{}
	for i, k := range key {
		if k.name != "" && have[k.name] {
			// A column twice in a key (c and lower(c) are two parts).
			continue
		}
		name := k.name
		if name == "" {
			name = g.alias("x")
		}
		have[name] = true
		items = append(items, item{leaf(k.t, k.sql), name, i})
	}
	for _, c := range t.cols {
		if !have[c.name] && g.chance(60) {
			have[c.name] = true
			items = append(items, item{leaf(c.typ, qual+"."+c.name), c.name, -1})
		}
	}
	g.rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	posOf := map[int]int{}
	for p, it := range items {
		alias := ""
		if it.name != colName(it.e) {
			alias = it.name
		}
		s.items = append(s.items, selItem{e: it.e, alias: alias})
		s.out = append(s.out, outCol{name: it.name, t: it.e.t})
		if it.key >= 0 {
			posOf[it.key] = p
		}
	}
	for i := range key {
		p, ok := posOf[i]
		if !ok {
			// The repeated column: the first part naming it.
			p = posOf[slices.IndexFunc(key, func(k keyPart) bool { return k.name == key[i].name })]
		}
		o.keys = append(o.keys, p)
	}

	// WHERE: now and then a range on the key's first part (an index
	// range, scanned forwards or backwards), the predicate of a partial
	// index, or anything.
	sc := newScope([]rel{{alias: qual, cols: fromOutCols(t)}}, nil, parent)
	c := ectx{sc: sc}
	switch r := g.n(100); {
	case r < 20 && key[0].t.class() != cBool:
		op := pick(g, []string{">", ">=", "<", "<=", "<>"})
		s.where = mk(tBool, "($1 "+op+" $2)", leaf(key[0].t, key[0].sql), g.literalNotNull(repType(key[0].t.class())))
		g.tag("order.scan-range")
	case r < 30 && slices.ContainsFunc(t.indexes, indexHintable):
		s.where = g.indexPred(indexHint{qual: qual, t: t})
	case r < 45:
		s.where = g.pred(c, 2)
	}

	// ORDER BY the prefix: the key's own direction (a forward scan), the
	// other way (a backward one), or mixed; NULLS now and then.
	base := g.n(3) // 0: ASC, 1: DESC, 2: mixed
	for i := 0; i < o.nOrder; i++ {
		it := orderItem{pos: o.keys[i] + 1}
		switch base {
		case 1:
			it.desc = true
		case 2:
			it.desc = g.chance(50)
		}
		if g.chance(25) {
			it.nulls = pick(g, []string{"NULLS FIRST", "NULLS LAST"})
		}
		o.dirs = append(o.dirs, it)
	}
	if base == 2 {
		g.tag("order.scan-mixed")
	} else if base == 1 {
		g.tag("order.scan-desc")
	}
	limited := limitOK && g.chance(40)
	byExpr := limited || g.chance(50)
	for i, d := range o.dirs {
		if byExpr {
			d.e = leaf(key[i].t, key[i].sql)
		}
		s.orderBy = append(s.orderBy, d)
	}
	if limited {
		// The rows a LIMIT keeps must not depend on how ties are broken:
		// the whole primary key, or every column after the keys.
		if !pkOrder || o.nOrder < len(key) {
			for _, col := range t.cols {
				s.orderBy = append(s.orderBy, orderItem{e: leaf(col.typ, qual+"."+col.name), desc: g.chance(30)})
			}
		}
		s.limit = g.n(6)
		if g.chance(30) {
			s.offset = g.n(3)
			g.tag("order.scan-offset")
		}
		g.tag("order.scan-limit")
	}
	return o
}

// fromOutCols are a table's columns as a relation's.
func fromOutCols(t *table) []outCol {
	var out []outCol
	for _, c := range t.cols {
		out = append(out, outCol{name: c.name, t: c.typ})
	}
	return out
}

// outerKeys draws the outer ORDER BY over an ordered scan's keys, given
// the positions those keys have in the outer output (of nOut columns): the
// scan's own order, the other way round, mixed, longer (more of the key,
// or another column after it) or shorter.
func (g *gen) outerKeys(o *orderedScan, pos []int, nOut int) []orderItem {
	n := o.nOrder
	var extra []int // output positions after the keys
	switch r := g.n(100); {
	case r < 30 && n < len(pos):
		n += 1 + g.n(len(pos)-n)
		g.tag("order.outer-longer")
	case r < 30:
		var others []int
		for p := 0; p < nOut; p++ {
			if !slices.Contains(pos[:n], p) {
				others = append(others, p)
			}
		}
		if len(others) > 0 {
			extra = append(extra, pick(g, others))
			g.tag("order.outer-longer")
		}
	case r < 45 && n > 1:
		n = 1 + g.n(n-1)
		g.tag("order.outer-shorter")
	}
	flip := g.n(3) // 0: the scan's directions, 1: all reversed, 2: each at random
	switch flip {
	case 0:
		g.tag("order.outer-same")
	case 1:
		g.tag("order.outer-reverse")
	default:
		g.tag("order.outer-mixed")
	}
	var out []orderItem
	for i := 0; i < n; i++ {
		it := orderItem{pos: pos[i] + 1}
		if i < len(o.dirs) {
			it.desc, it.nulls = o.dirs[i].desc, o.dirs[i].nulls
		} else {
			it.desc = out[len(out)-1].desc
		}
		switch {
		case flip == 1:
			it.desc = !it.desc
			it.nulls = flipNulls(it.nulls)
		case flip == 2 && g.chance(50):
			it.desc = !it.desc
		}
		if g.chance(15) {
			it.nulls = pick(g, []string{"", "NULLS FIRST", "NULLS LAST"})
		}
		out = append(out, it)
	}
	for _, p := range extra {
		out = append(out, g.orderPos(p+1))
	}
	return out
}

func flipNulls(n string) string {
	switch n {
	case "NULLS FIRST":
		return "NULLS LAST"
	case "NULLS LAST":
		return "NULLS FIRST"
	}
	return n
}

// orderQuery draws a statement over an ordered scan: a plain outer query
// (joined now and then), a grouped or DISTINCT one, aggregates, window
// functions, or a set operation of ordered, limited branches; the scan a
// derived table or a WITH query.
func (g *gen) orderQuery(depth int) query {
	t := g.pickKeyTable()
	if g.chance(15) {
		return g.orderSetOp(t)
	}
	s := &selectStmt{limit: -1, offset: -1}
	o := g.orderedScanOf(t, nil, true)
	alias := g.alias("s")
	cols := o.s.outCols()
	if g.chance(25) {
		// A WITH query, which PostgreSQL inlines when read once.
		name := g.alias("w")
		s.with = []*cte{{name: name, q: o.s, cols: slices.Clone(cols)}}
		s.from = []*fromItem{{kind: fTable, name: name, alias: alias}}
		g.tag("order.cte")
	} else {
		s.from = []*fromItem{{kind: fSub, alias: alias, sub: o.s}}
		g.tag("order.derived")
	}
	ref := func(p int) *expr { return leaf(cols[p].t, alias+"."+cols[p].name) }
	switch r := g.n(100); {
	case r < 45:
		g.orderOuterPlain(s, o, alias, depth)
	case r < 65:
		// GROUP BY or DISTINCT on a prefix of the keys, ordered along or
		// against them: a streaming aggregate takes its input's order.
		nk := 1 + g.n(len(o.keys))
		var pos []int
		for i := 0; i < nk; i++ {
			if !slices.Contains(pos, o.keys[i]) {
				pos = append(pos, o.keys[i])
			}
		}
		for _, p := range pos {
			s.items = append(s.items, selItem{e: ref(p)})
			s.out = append(s.out, outCol{name: cols[p].name, t: cols[p].t})
		}
		if g.chance(35) {
			s.distinct = true
			g.tag("order.distinct")
		} else {
			for _, p := range pos {
				s.groupBy = append(s.groupBy, ref(p))
			}
			for _, a := range g.orderAggs(o, alias, 1+g.n(2)) {
				s.items = append(s.items, selItem{e: a})
				s.out = append(s.out, outCol{t: a.t})
			}
			g.tag("order.group")
		}
		outPos := make([]int, len(o.keys))
		for i, k := range o.keys {
			outPos[i] = slices.Index(pos, k)
		}
		sub := *o
		sub.keys = outPos[:len(pos)]
		if sub.nOrder > len(pos) {
			sub.nOrder = len(pos)
		}
		if g.chance(85) {
			s.orderBy = g.outerKeys(&sub, sub.keys, len(s.out))
			if g.chance(30) {
				s.orderBy = totalOrder(s.orderBy, len(s.out))
				s.limit = g.n(5)
			}
		}
	case r < 80:
		// Aggregates over the whole (often limited) scan: one row.
		for _, a := range g.orderAggs(o, alias, 1+g.n(3)) {
			s.items = append(s.items, selItem{e: a})
			s.out = append(s.out, outCol{t: a.t})
		}
		g.tag("order.aggregate")
	default:
		g.orderWindow(s, o, alias)
	}
	return s
}

// totalOrder appends the output positions order does not name, so that
// rows tying on all keys are identical (a LIMIT above keeps a fixed set,
// and the comparison is of a sequence).
func totalOrder(order []orderItem, n int) []orderItem {
	out := slices.Clone(order)
	for p := 1; p <= n; p++ {
		if !slices.ContainsFunc(out, func(o orderItem) bool { return o.e == nil && o.pos == p }) {
			out = append(out, orderItem{pos: p})
		}
	}
	return out
}

// orderOuterPlain makes s select the scan's columns, joined now and then to
// another table on a key, and order them over the keys.
func (g *gen) orderOuterPlain(s *selectStmt, o *orderedScan, alias string, depth int) {
	cols := o.s.outCols()
	perm := g.rng.Perm(len(cols))
	if g.chance(50) {
		perm = allCols(len(cols))
	}
	posIn := map[int]int{}
	for i, p := range perm {
		s.items = append(s.items, selItem{e: leaf(cols[p].t, alias+"."+cols[p].name)})
		s.out = append(s.out, outCol{name: cols[p].name, t: cols[p].t})
		posIn[p] = i
	}
	rels := []rel{{alias: alias, cols: cols}}
	if g.chance(25) {
		// A join on the first key: a merge join may take the scan's order.
		k := cols[o.keys[0]]
		var cands []*table
		for _, t := range g.sch.tables {
			if slices.ContainsFunc(t.cols, func(c column) bool { return comparable(c.typ, k.t) && c.typ.class() == k.t.class() }) {
				cands = append(cands, t)
			}
		}
		if len(cands) > 0 {
			t := pick(g, cands)
			q := g.alias("r")
			var jc column
			for _, i := range g.rng.Perm(len(t.cols)) {
				if t.cols[i].typ.class() == k.t.class() {
					jc = t.cols[i]
					break
				}
			}
			jt := pick(g, []string{"JOIN", "LEFT JOIN", "JOIN"})
			right := &fromItem{kind: fTable, name: t.name, alias: q}
			left := s.from[0]
			j := &fromItem{kind: fJoin, joinType: jt, left: left, right: right,
				on: mk(tBool, "($1 = $2)", leaf(k.t, alias+"."+k.name), leaf(jc.typ, q+"."+jc.name))}
			if g.chance(30) {
				j.left, j.right = right, left
				j.joinType = "JOIN"
			}
			s.from = []*fromItem{j}
			for _, c := range t.cols {
				if g.chance(40) {
					s.items = append(s.items, selItem{e: leaf(c.typ, q+"."+c.name)})
					s.out = append(s.out, outCol{name: c.name, t: c.typ})
				}
			}
			rels = append(rels, rel{alias: q, cols: fromOutCols(t)})
			g.tag("order.join")
		}
	}
	if g.chance(30) {
		sc := newScope(rels, nil, nil)
		s.where = g.pred(ectx{sc: sc, depth: min(depth, 1)}, 2)
	}
	pos := make([]int, len(o.keys))
	for i, k := range o.keys {
		pos[i] = posIn[k]
	}
	if g.chance(90) {
		s.orderBy = g.outerKeys(o, pos, len(s.out))
		if g.chance(30) {
			s.orderBy = totalOrder(s.orderBy, len(s.out))
			s.limit = g.n(6)
			if g.chance(25) {
				s.offset = g.n(3)
			}
			g.tag("order.outer-limit")
		}
	}
}

// orderAggs draws n aggregates over the scan's columns whose results do
// not depend on the order rows reach them in (string_agg is ordered by
// what it aggregates), some of them over the keys.
func (g *gen) orderAggs(o *orderedScan, alias string, n int) []*expr {
	cols := o.s.outCols()
	var out []*expr
	for i := 0; i < n; i++ {
		p := o.keys[g.n(len(o.keys))]
		if g.chance(30) {
			p = g.n(len(cols))
		}
		c := cols[p]
		ref := leaf(c.t, alias+"."+c.name)
		var e *expr
		switch k := c.t.class(); {
		case g.chance(20):
			e = leaf(tInt8, "count(*)")
		case k == cInt && g.chance(40):
			e = mk(tText, "string_agg(CAST($1 AS text), ',' ORDER BY $1"+g.aggDir()+")", ref)
			g.tag("order.string_agg")
		case k == cText && g.chance(40):
			e = mk(tText, "string_agg($1, ',' ORDER BY $1"+g.aggDir()+")", ref)
			g.tag("order.string_agg")
		case k == cInt && c.t != tInt8 && g.chance(30):
			e = mk(tInt8, "sum($1)", ref)
		case k == cBool:
			e = mk(tInt8, "count($1)", ref)
		default:
			e = mk(c.t, pick(g, []string{"min($1)", "max($1)"}), ref)
			if c.t == tVarchar {
				e.t = tText
			}
		}
		e.agg = true
		out = append(out, e)
	}
	g.tag("aggregate")
	return out
}

func (g *gen) aggDir() string {
	d := pick(g, []string{"", " DESC"})
	if g.chance(25) {
		d += pick(g, []string{" NULLS FIRST", " NULLS LAST"})
	}
	return d
}

// orderWindow makes s select the scan's columns and a window function whose
// ORDER BY runs along or against the scan's keys (partitioned by the
// first now and then). An order-sensitive function's ORDER BY goes on to
// every column, so that its result does not depend on how ties are
// broken.
func (g *gen) orderWindow(s *selectStmt, o *orderedScan, alias string) {
	cols := o.s.outCols()
	for _, c := range cols {
		s.items = append(s.items, selItem{e: leaf(c.t, alias+"."+c.name)})
		s.out = append(s.out, outCol{name: c.name, t: c.t})
	}
	type fn struct {
		tmpl string
		t    typ
		sens bool
	}
	k0 := cols[o.keys[0]]
	fns := []fn{
		{"row_number()", tInt8, true},
		{"rank()", tInt8, false},
		{"dense_rank()", tInt8, false},
		{"count(*)", tInt8, false},
		{"lag($1)", k0.t, true},
		{"first_value($1)", k0.t, true},
	}
	f := pick(g, fns)
	var args []*expr
	if strings.Contains(f.tmpl, "$1") {
		args = append(args, leaf(k0.t, alias+"."+k0.name))
	}
	var spec strings.Builder
	var specArgs []*expr
	keys := o.keys
	if len(keys) > 1 && g.chance(30) {
		spec.WriteString("PARTITION BY " + arg(0) + " ")
		specArgs = append(specArgs, leaf(k0.t, alias+"."+k0.name))
		keys = keys[1:]
		g.tag("order.window-partition")
	}
	// Along the scan's order or against it.
	along := g.chance(50)
	if along {
		g.tag("order.window-along")
	} else {
		g.tag("order.window-against")
	}
	n := 1 + g.n(len(keys))
	spec.WriteString("ORDER BY ")
	for i := 0; i < n; i++ {
		if i > 0 {
			spec.WriteString(", ")
		}
		spec.WriteString(arg(len(specArgs)))
		c := cols[keys[i]]
		specArgs = append(specArgs, leaf(c.t, alias+"."+c.name))
		d := orderItem{}
		if j := slices.Index(o.keys, keys[i]); j < len(o.dirs) {
			d = o.dirs[j]
		}
		if !along {
			d.desc, d.nulls = !d.desc, flipNulls(d.nulls)
		}
		if d.desc {
			spec.WriteString(" DESC")
		}
		if d.nulls != "" {
			spec.WriteString(" " + d.nulls)
		}
	}
	if f.sens {
		for _, c := range cols {
			spec.WriteString(", " + arg(len(specArgs)))
			specArgs = append(specArgs, leaf(c.t, alias+"."+c.name))
		}
	}
	specExpr := &expr{t: tNull, tmpl: spec.String(), args: specArgs}
	call := mk(f.t, f.tmpl, args...)
	call.tmpl += " OVER (" + arg(len(args)) + ")"
	call.args = append(call.args, specExpr)
	call.win = true
	s.items = append(s.items, selItem{e: call})
	s.out = append(s.out, outCol{t: f.t})
	g.tag("window." + strings.TrimSuffix(strings.Split(f.tmpl, "(")[0], "("))
	pos := slices.Clone(o.keys)
	if g.chance(80) {
		s.orderBy = g.outerKeys(o, pos, len(s.out))
	}
}

// orderSetOp draws (scan) OP (scan) over one table's columns, each branch
// ordered on a key prefix and often limited, under an ORDER BY of the
// keys' positions.
func (g *gen) orderSetOp(t *table) query {
	op := pick(g, []string{"UNION ALL", "UNION", "UNION ALL", "INTERSECT", "EXCEPT", "EXCEPT ALL"})
	g.tag("order.setop")
	g.tag("setop." + strings.ToLower(strings.ReplaceAll(op, " ", "-")))
	l := g.orderedScanOf(t, nil, true)
	// The right branch selects the same columns (the same classes), in
	// the same order, ordered and limited its own way: its positional
	// keys become the expressions they named, over its own qualifier.
	r := g.orderedScanOf(t, nil, true)
	for i, o := range r.s.orderBy {
		if o.e == nil {
			r.s.orderBy[i].e = r.s.items[o.pos-1].e
		}
	}
	r.s.items, r.s.out = nil, nil
	for _, it := range l.s.items {
		r.s.items = append(r.s.items, selItem{e: respell(it.e, l.qual, r.qual), alias: it.alias})
	}
	r.s.out = l.s.out
	s := &setStmt{op: op, left: l.s, right: r.s, limit: -1, offset: -1}
	for _, c := range l.s.outCols() {
		s.out = append(s.out, outCol{name: c.name, t: c.t})
	}
	if g.chance(85) {
		s.orderBy = g.outerKeys(l, l.keys, len(s.out))
		if g.chance(30) {
			s.orderBy = totalOrder(s.orderBy, len(s.out))
			s.limit = g.n(6)
		}
	}
	return s
}

// respell is e with the qualifier from replaced by to (the leaves of an
// ordered scan's select list are qualified column references or index
// expressions over one).
func respell(e *expr, from, to string) *expr {
	c := *e
	c.tmpl = strings.ReplaceAll(e.tmpl, from+".", to+".")
	return &c
}

// String is for debugging.
func (o *orderedScan) String() string {
	return fmt.Sprintf("%s keys %v (%d ordered)", queryString(o.s), o.keys, o.nOrder)
}
