package differential

import (
	"fmt"
	"slices"
	"strings"
)

// stmtKind says what a generated statement is and so how it is compared.
type stmtKind uint8

const (
	kQuery stmtKind = iota
	kWrite          // INSERT / UPDATE / DELETE: result, tag, then the target table
	kDDL            // CREATE [OR REPLACE] VIEW / DROP VIEW: outcome only
	kTxn            // a transaction block (txn.go): each statement, the catalog, the tables
)

// stmt is a generated statement.
type stmt struct {
	kind   stmtKind
	q      query      // kQuery
	w      *writeStmt // kWrite
	ddl    string     // kDDL
	target string     // the table a write changes
	tags   []string
	view   *view // kDDL: the view created or replaced
	drop   string
	txn    *txnBlock // kTxn
}

func (s *stmt) sql() string {
	switch s.kind {
	case kQuery:
		return queryString(s.q)
	case kWrite:
		return s.w.String()
	case kTxn:
		return strings.Join(s.txn.steps, ";\n")
	}
	return s.ddl
}

// writeStmt is an INSERT, UPDATE or DELETE. Its parts are kept apart so
// the minimiser can drop them.
type writeStmt struct {
	verb      string // "INSERT", "UPDATE", "DELETE"
	table     string
	alias     string
	cols      []string // INSERT column list; UPDATE SET targets
	src       query    // INSERT ... SELECT
	conflict  string   // INSERT ... ON CONFLICT ...
	set       []*expr  // UPDATE SET values
	from      []*fromItem
	on        *expr // UPDATE ... FROM: the join to the source, which the minimiser leaves alone
	where     *expr
	returning []selItem
}

func (w *writeStmt) String() string {
	var b strings.Builder
	target := w.table
	if w.alias != "" {
		target += " AS " + w.alias
	}
	switch w.verb {
	case "INSERT":
		b.WriteString("INSERT INTO " + target)
		if w.cols != nil {
			b.WriteString(" (" + strings.Join(w.cols, ", ") + ")")
		}
		b.WriteString(" ")
		w.src.render(&b)
		if w.conflict != "" {
			b.WriteString(" " + w.conflict)
		}
	case "UPDATE":
		b.WriteString("UPDATE " + target)
		renderList(&b, " SET ", w.cols, func(c string) {
			b.WriteString(c + " = ")
			w.set[slices.Index(w.cols, c)].render(&b)
		})
		renderFrom(&b, " FROM ", w.from)
	case "DELETE":
		b.WriteString("DELETE FROM " + target)
		renderFrom(&b, " USING ", w.from)
	}
	where := w.where
	switch {
	case w.on != nil && w.where != nil:
		where = mk(tBool, "$1 AND $2", w.on, w.where)
	case w.on != nil:
		where = w.on
	}
	renderClause(&b, " WHERE ", where)
	renderItems(&b, " RETURNING ", w.returning)
	return b.String()
}

// tableRel is a table's columns as a relation under qual.
func tableRel(t *table, qual string) rel {
	var cols []outCol
	for _, c := range t.cols {
		cols = append(cols, outCol{name: c.name, t: c.typ})
	}
	return rel{alias: qual, cols: cols}
}

// write draws an INSERT ... SELECT, an UPDATE (with a subquery or FROM) or
// a DELETE (with a subquery or USING). A table that has grown large is
// more often deleted from.
func (g *gen) write(depth, maxRows int) *stmt {
	t := pick(g, g.sch.tables)
	w := &writeStmt{table: t.name}
	g.quals[t.name] = true
	g.tagTable("write", t)
	r := g.n(100)
	if len(t.rows) > 3*maxRows {
		r = 70 + g.n(30)
	}
	switch {
	case r < 35:
		g.insert(t, w, depth)
	case r < 70:
		g.update(t, w, depth)
	default:
		g.delete(t, w, depth)
	}
	return &stmt{kind: kWrite, w: w, target: t.name}
}

// target makes the write's own table the scope of its expressions.
func (g *gen) target(t *table, w *writeStmt) (rel, string) {
	qual := t.name
	if g.chance(50) || dotted(t.name) {
		w.alias = g.alias("r")
		qual = w.alias
	}
	g.quals[t.name] = true
	return tableRel(t, qual), qual
}

func (g *gen) insert(t *table, w *writeStmt, depth int) {
	w.verb = "INSERT"
	g.tag("write.insert-select")
	cols := t.cols
	hasGen := slices.ContainsFunc(t.cols, func(c column) bool { return c.gen != "" })
	if g.chance(40) || hasGen {
		// A column list in another order, leaving some columns to their
		// default (NULL), unless they are NOT NULL.
		perm := g.rng.Perm(len(t.cols))
		cols = nil
		for _, p := range perm {
			if t.cols[p].gen != "" {
				g.tag("write.generated-column")
				continue
			}
			if t.cols[p].notNull || g.chance(70) {
				cols = append(cols, t.cols[p])
			}
		}
		for _, c := range cols {
			w.cols = append(w.cols, c.name)
		}
		if len(cols) == 0 {
			cols = t.cols[:1]
			w.cols = []string{cols[0].name}
		}
	}
	qual := t.name
	if dotted(t.name) {
		w.alias = g.alias("r")
		qual = w.alias
	}
	var want []class
	for _, c := range cols {
		want = append(want, c.typ.class())
	}
	q := g.query(nil, depth, shape{want: want, noSetOp: !g.chance(15)})
	// NOT NULL columns get a coalesce, so most inserts succeed, and a
	// LIMIT keeps the table small.
	if s, ok := q.(*selectStmt); ok {
		for i, c := range cols {
			if c.notNull && s.items[i].star == "" {
				s.items[i].e = g.coalesce(s.items[i].e, g.literalNotNull(c.typ))
			}
		}
		if s.limit < 0 {
			s.orderBy = nil
			for _, p := range g.rng.Perm(len(s.out)) {
				s.orderBy = append(s.orderBy, g.orderPos(p+1))
			}
			s.limit = 1 + g.n(8)
		}
	}
	w.src = q
	if len(t.pk) > 0 {
		switch r := g.n(100); {
		case r < 45 && len(t.uniqueCols()) == 0:
			// Not with a unique index besides the key: which of two
			// source rows that share its value is kept would depend on
			// the order PostgreSQL inserts them in.
			w.conflict = "ON CONFLICT DO NOTHING"
			g.tag("write.on-conflict")
		case r < 60:
			var keys, sets []string
			for _, p := range t.pk {
				keys = append(keys, t.cols[p].name)
			}
			for _, c := range t.cols {
				if !slices.Contains(keys, c.name) && c.gen == "" {
					sets = append(sets, fmt.Sprintf("%s = EXCLUDED.%s", c.name, c.name))
				}
			}
			if len(sets) > 0 {
				w.conflict = fmt.Sprintf("ON CONFLICT (%s) DO UPDATE SET %s", strings.Join(keys, ", "), strings.Join(sets, ", "))
				g.tag("write.on-conflict")
			}
		}
		if w.conflict != "" {
			w.src = g.uniqueByKey(q, cols, t)
		}
	}
	g.returning(w, tableRel(t, qual), false)
}

// uniqueByKey wraps an INSERT's source so that it has one row per primary
// key: with ON CONFLICT, two source rows with one key make the result
// depend on the order PostgreSQL happens to insert them in (DO NOTHING
// keeps the first), or fail (DO UPDATE, 21000). The key columns are
// grouped, the others aggregated.
func (g *gen) uniqueByKey(q query, cols []column, t *table) query {
	a := g.alias("s")
	src := q.outCols()
	aliases := make([]string, len(cols))
	for i := range cols {
		aliases[i] = g.alias("y")
	}
	s := &selectStmt{limit: -1, offset: -1,
		from: []*fromItem{{kind: fSub, alias: a, colAliases: aliases, sub: q}}}
	for i, c := range cols {
		ref := leaf(src[i].t, a+"."+aliases[i])
		e := ref
		if slices.ContainsFunc(t.pk, func(p int) bool { return t.cols[p].name == c.name }) {
			s.groupBy = append(s.groupBy, ref)
		} else {
			fn := "max($1)"
			if ref.t == tBool {
				fn = "bool_or($1)"
			}
			e = mk(ref.t, fn, ref)
			e.agg = true
		}
		s.items = append(s.items, selItem{e: e})
		s.out = append(s.out, outCol{name: aliases[i], t: ref.t})
	}
	return s
}

func (g *gen) update(t *table, w *writeStmt, depth int) {
	w.verb = "UPDATE"
	tr, _ := g.target(t, w)
	rels := []rel{tr}
	out := fromCols(tr.cols)
	fromIsUnique := false
	if g.chance(40) {
		// UPDATE ... FROM a source that matches each target row at most
		// once: a derived table grouped by the join key.
		g.tag("write.update-from")
		it, r, o, on := g.uniqueSource(tr)
		if it != nil {
			w.from = []*fromItem{it}
			rels = append(rels, r...)
			out = append(out, o...)
			w.on = on
			fromIsUnique = true
		}
	}
	sc := newScope(rels, nil, nil)
	c := ectx{sc: sc, depth: depth}
	uniq := t.uniqueCols()
	for _, col := range t.cols {
		if slices.ContainsFunc(t.pk, func(p int) bool { return t.cols[p].name == col.name }) {
			continue // a key update can collide half way through, which PostgreSQL checks per row
		}
		if uniq[col.name] || col.gen != "" {
			continue // the same for a unique index; a generated column is never set
		}
		if t.part != nil && col.name == t.part.col {
			g.tag("write.partition-key")
		}
		if len(w.cols) == 0 || g.chance(30) {
			e := g.expr(c, col.typ.class(), 2)
			if col.notNull {
				e = g.coalesce(e, g.literalNotNull(col.typ))
			}
			w.cols = append(w.cols, col.name)
			w.set = append(w.set, e)
		}
	}
	if len(w.cols) == 0 {
		// Every column is in the key: a no-op SET.
		col := t.cols[0]
		w.cols = []string{col.name}
		w.set = []*expr{leaf(col.typ, tr.alias+"."+col.name)}
	}
	g.filter(w, c, !fromIsUnique)
	g.tag("write.update")
	g.returning(w, tr, fromIsUnique)
}

// uniqueSource is a derived table with one row per key, joined to the
// target on that key: (SELECT k, agg(x) ... GROUP BY k) AS s ... WHERE
// target.col = s.k.
func (g *gen) uniqueSource(tr rel) (*fromItem, []rel, []fromCol, *expr) {
	src := pick(g, g.sch.tables)
	var keyed []int
	for i, c := range tr.cols {
		for _, sc := range src.cols {
			if sc.typ.class() == c.t.class() && c.t.class() != cBool {
				keyed = append(keyed, i)
				break
			}
		}
	}
	if len(keyed) == 0 {
		return nil, nil, nil, nil
	}
	tc := tr.cols[keyed[g.n(len(keyed))]]
	var keyCol column
	for _, i := range g.rng.Perm(len(src.cols)) {
		if src.cols[i].typ.class() == tc.t.class() {
			keyCol = src.cols[i]
			break
		}
	}
	a := g.alias("r")
	sub := &selectStmt{limit: -1, offset: -1}
	sub.from = []*fromItem{{kind: fTable, name: src.name, alias: a}}
	srel := tableRel(src, a)
	sc := newScope([]rel{srel}, nil, nil)
	key := leaf(keyCol.typ, a+"."+keyCol.name)
	sub.groupBy = []*expr{key}
	sc.grouped, sc.groupCols = true, []scopeCol{{ref: key.tmpl, t: key.t}}
	c := ectx{sc: sc, aggOK: true}
	kAlias, vAlias := g.alias("x"), g.alias("x")
	val := g.aggregate(c, g.someClass(ectx{sc: newScope([]rel{srel}, nil, nil)}))
	sub.items = []selItem{{e: key, alias: kAlias}, {e: val, alias: vAlias}}
	sub.out = []outCol{{kAlias, key.t}, {vAlias, val.t}}
	if g.chance(40) {
		sub.where = g.pred(ectx{sc: newScope([]rel{srel}, nil, nil)}, 2)
	}
	it := &fromItem{kind: fSub, alias: g.alias("s"), sub: sub}
	r := rel{alias: it.alias, cols: sub.out}
	on := mk(tBool, "($1 = $2)", leaf(tc.t, tr.alias+"."+tc.name), leaf(key.t, it.alias+"."+kAlias))
	return it, []rel{r}, fromCols(sub.out), on
}

func (g *gen) delete(t *table, w *writeStmt, depth int) {
	w.verb = "DELETE"
	using := g.chance(35)
	tr, _ := g.target(t, w)
	rels := []rel{tr}
	if using {
		// DELETE ... USING: a row is deleted once however many source
		// rows match it.
		g.tag("write.delete-using")
		joins := 0
		it, r, _ := g.fromItem(nil, nil, depth, &joins)
		w.from = []*fromItem{it}
		rels = append(rels, r...)
	}
	sc := newScope(rels, nil, nil)
	c := ectx{sc: sc, depth: depth}
	g.filter(w, c, true)
	if len(w.from) > 0 && w.where == nil {
		w.where = g.pred(c, 2)
	}
	g.tag("write.delete")
	g.returning(w, tr, false)
}

// filter adds the WHERE of an UPDATE or DELETE, ANDed to a join condition
// already there. It favours subqueries, over other tables and over the
// target table itself (which must see the table as it was before the
// statement).
func (g *gen) filter(w *writeStmt, c ectx, optional bool) {
	var p *expr
	switch r := g.n(100); {
	case optional && r < 8:
		return
	case r < 30:
		p = g.inSubquery(c, 2)
		g.tag("write.where-in")
	case r < 55:
		p = g.exists(c)
		g.tag("write.where-exists")
	case r < 65:
		p = mk(tBool, "($1 = $2)", g.expr(c, cInt, 1), g.scalarSubquery(c, cInt))
	default:
		p = g.pred(c, 3)
	}
	if w.where != nil {
		w.where = mk(tBool, "($1 AND $2)", w.where, p)
	} else {
		w.where = p
	}
}

// returning adds RETURNING now and then. With a FROM / USING source only
// the target's columns are returned, unless the source matches each row at
// most once (which source row PostgreSQL returns is otherwise arbitrary).
func (g *gen) returning(w *writeStmt, tr rel, withSource bool) {
	if !g.chance(35) {
		return
	}
	g.tag("write.returning")
	if g.chance(30) {
		w.returning = []selItem{{star: "*"}}
		if len(w.from) > 0 && !withSource {
			w.returning = []selItem{{star: tr.alias + ".*"}}
		}
		return
	}
	rels := []rel{tr}
	sc := newScope(rels, nil, nil)
	c := ectx{sc: sc}
	for i, n := 0, 1+g.n(3); i < n; i++ {
		it := selItem{e: g.expr(c, g.someClass(c), 1)}
		w.returning = append(w.returning, it)
	}
}

// viewDDL draws CREATE VIEW, CREATE OR REPLACE VIEW (same columns, a new
// filter, sometimes one more column at the end) or DROP VIEW.
func (g *gen) viewDDL(depth int, nextView *int) *stmt {
	switch r := g.n(100); {
	case len(g.sch.views) > 0 && r < 25:
		v := pick(g, g.sch.views)
		g.tag("view.drop")
		ifExists := ""
		if g.chance(30) {
			ifExists = "IF EXISTS "
		}
		return &stmt{kind: kDDL, ddl: "DROP VIEW " + ifExists + v.name, drop: v.name}
	case len(g.sch.views) > 0 && r < 50:
		v := pick(g, g.sch.views)
		g.tag("view.create-or-replace")
		o := g.alias("s")
		sc := newScope([]rel{{alias: o, cols: v.cols}}, nil, nil)
		def := fmt.Sprintf("SELECT * FROM (%s) AS %s WHERE %s", v.def, o, g.pred(ectx{sc: sc}, 2))
		cols := slices.Clone(v.cols)
		if g.chance(40) {
			x := g.alias("x")
			e := g.expr(ectx{sc: sc}, g.someClass(ectx{sc: sc}), 1)
			def = strings.Replace(def, "SELECT *", fmt.Sprintf("SELECT %s.*, %s AS %s", o, e, x), 1)
			cols = append(cols, outCol{name: x, t: e.t})
		}
		nv := &view{name: v.name, cols: cols, def: def}
		return &stmt{kind: kDDL, ddl: fmt.Sprintf("CREATE OR REPLACE VIEW %s AS %s", v.name, def), view: nv}
	default:
		g.tag("view.create")
		q := g.query(nil, depth, shape{names: true, unique: true})
		name := fmt.Sprintf("vw%d", *nextView)
		*nextView++
		def := queryString(q)
		cols := slices.Clone(q.outCols())
		verb := "CREATE VIEW "
		if g.chance(20) {
			verb = "CREATE OR REPLACE VIEW "
		}
		return &stmt{kind: kDDL, ddl: verb + name + " AS " + def, view: &view{name: name, cols: cols, def: def}}
	}
}
