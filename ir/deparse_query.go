package ir

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/catalog"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// DeparseQuery prints a bound view query as PostgreSQL's pg_get_viewdef
// prints the view's rule (ruleutils' get_query_def in its indenting mode):
// " SELECT" and one target per line, FROM, WHERE, GROUP BY, HAVING, WINDOW,
// ORDER BY and LIMIT each on a line of their own, every column qualified
// by its relation's name or alias, and the whole ended by a semicolon.
// names are the view's column names (nil: the query's own); notes are
// what the binder noted of how the query was written (QueryNotes), which
// a FROM subquery, a WITH, a WINDOW clause, grouping sets and JOIN USING
// need. ok is false for a shape it does not print faithfully; the caller
// then prints the query as written.
func DeparseQuery(rel Rel, names []string, pretty bool, notes *QueryNotes) (string, bool) {
	if notes != nil && notes.refused {
		return "", false
	}
	top := &deparser{pretty: pretty, notes: notes}
	if notes != nil {
		top.names = notes.Names
	}
	if v, ok := rel.(*Values); ok && !noFrom(v) {
		if sameNames(v.Cols, names) {
			text, ok := top.subquery(v, nil)
			return text + ";", ok
		}
		return top.renamedValues(v, names)
	}
	if text, ok, setop := top.deparseSetOp(rel, names); setop {
		return text + ";", ok
	}
	text, ok := top.deparseSelect(rel, names, 0, nil)
	if notes != nil && len(notes.lockPrinted) != len(notes.locks) {
		return "", false // a locking clause not printed
	}
	return text + ";", ok
}

// QueryNotes keep what a bound query's plan does not of how the query was
// written and pg_get_viewdef prints: the FROM items written as subqueries,
// VALUES lists, functions, views or catalog relations (aliases, column
// lists, LATERAL), WITH clauses, WINDOW clauses and how calls named their
// windows, grouping sets as written, JOIN USING. The binder fills them
// only when it binds for the deparser.
type QueryNotes struct {
	// Names prints the names of schema objects (nil: by their keys).
	Names Namer
	from  map[Rel]fromNote
	with  map[Rel]withNote
	// alias is the alias of a recursive WITH query's reference to itself
	// (a WorkTable keeps none).
	alias map[Rel]string
	// printed are the WITH queries printed so far: a reference to
	// another (a WITH clause not noted) is not printed.
	printed map[*CTE]bool
	// grouping is how an Aggregate's GROUPING SETS, ROLLUP or CUBE was
	// written.
	grouping map[*Aggregate][]GroupingItem
	// windows are a Window node's WINDOW clause and how each of its calls
	// named its window.
	windows map[*Window]windowsNote
	// refused: the query has what the notes do not keep; not printed.
	refused bool
	// using are the joins written with USING or NATURAL.
	using map[*Join]usingNote
	// cross are the joins written CROSS JOIN (a comma's join otherwise).
	cross map[*Join]bool
	// locks are the locking clauses of the SELECTs, by their plans, and
	// lockPrinted those printed: a clause on a plan the deparser does not
	// reach as a SELECT's is not printed, and neither is the query.
	locks       map[Rel]LockNote
	lockPrinted map[Rel]bool
	// merged are the columns a FULL JOIN's USING merges: the binder's
	// COALESCE of the two sides, which ruleutils prints as the join's
	// column, by its name alone.
	merged map[*Func]string
	// written are calls of user functions given fewer arguments than
	// they take (the rest are defaults): only the written ones print.
	written map[*Func]int
}

// NoteWrittenArgs records that the call f was written with its first n
// arguments, the others being its parameters' defaults.
func (n *QueryNotes) NoteWrittenArgs(f *Func, count int) {
	if n.written == nil {
		n.written = map[*Func]int{}
	}
	n.written[f] = count
}

// writtenArgs is f's arguments as written (NoteWrittenArgs).
func (n *QueryNotes) writtenArgs(f *Func) []Expr {
	if n != nil {
		if c, ok := n.written[f]; ok && c <= len(f.Args) {
			return f.Args[:c]
		}
	}
	return f.Args
}

// LockNote is a SELECT's locking clause as written: its strength
// (UPDATE, NO KEY UPDATE, SHARE, KEY SHARE), the relations OF names (none:
// every relation of its FROM), NOWAIT.
type LockNote struct {
	Strength   string
	Of         []string
	NoWait     bool
	SkipLocked bool
}

// NoteLock records the locking clause of the SELECT whose plan is rel.
func (n *QueryNotes) NoteLock(rel Rel, l LockNote) {
	if n.locks == nil {
		n.locks = map[Rel]LockNote{}
	}
	n.locks[rel] = l
}

// NoteMerged records that e is the column name a FULL JOIN's USING
// merges.
func (n *QueryNotes) NoteMerged(e *Func, name string) {
	if n.merged == nil {
		n.merged = map[*Func]string{}
	}
	n.merged[e] = name
}

// NoteCross records that j was written CROSS JOIN.
func (n *QueryNotes) NoteCross(j *Join) {
	if n.cross == nil {
		n.cross = map[*Join]bool{}
	}
	n.cross[j] = true
}

type usingNote struct {
	cols  []string
	mixed bool
}

// usingOf is the note of a join written with USING or NATURAL.
func (n *QueryNotes) usingOf(j *Join) (usingNote, bool) {
	if n == nil {
		return usingNote{}, false
	}
	u, ok := n.using[j]
	return u, ok
}

// NoteUsing records that j was written with USING (cols) or as a
// NATURAL join (matching cols, which PostgreSQL prints as USING);
// mixed, when it had an ON condition too.
func (n *QueryNotes) NoteUsing(j *Join, cols []string, mixed bool) {
	if n.using == nil {
		n.using = map[*Join]usingNote{}
	}
	n.using[j] = usingNote{cols: cols, mixed: mixed}
}

type windowsNote struct {
	named []NamedWindow
	calls []WindowNote
}

// WindowNote is how a window call named its window: OVER name (Bare),
// OVER (name ...) (Ref, with an ORDER BY of its own when OwnOrder), or
// inline (Ref "").
type WindowNote struct {
	Ref      string
	Bare     bool
	OwnOrder bool
	// OneBound: the frame was written with one bound, no BETWEEN.
	OneBound bool
}

// NamedWindow is a window of a WINDOW clause: its name, the window it
// builds on (Ref) and whether its ORDER BY is its own, and its
// definition resolved (Spec's PartitionBy, OrderBy and Frame).
type NamedWindow struct {
	Name, Ref string
	OwnOrder  bool
	// OneBound: its frame was written with one bound, no BETWEEN.
	OneBound bool
	Spec     WindowCall
}

// NoteWindows records the WINDOW clause of the query whose Window node
// is w, and how each of w's calls named its window.
func (n *QueryNotes) NoteWindows(w *Window, named []NamedWindow, calls []WindowNote) {
	if n.windows == nil {
		n.windows = map[*Window]windowsNote{}
	}
	n.windows[w] = windowsNote{named: named, calls: calls}
}

// Refuse marks the query as one the notes cannot print faithfully.
func (n *QueryNotes) Refuse() { n.refused = true }

// GroupingKind is the form of a GROUP BY element.
type GroupingKind uint8

// GROUP BY elements.
const (
	GroupingExpr   GroupingKind = iota // an expression
	GroupingList                       // a parenthesized list, () included
	GroupingRollup                     // ROLLUP (...)
	GroupingCube                       // CUBE (...)
	GroupingSets                       // GROUPING SETS (...)
)

// GroupingItem is a GROUP BY element as written: an expression (Index,
// into Aggregate.GroupBy), or a list, ROLLUP, CUBE or GROUPING SETS of
// Items.
type GroupingItem struct {
	Kind  GroupingKind
	Index int
	Items []GroupingItem
}

// NoteGrouping records how the GROUP BY of a, one with grouping sets, was
// written.
func (n *QueryNotes) NoteGrouping(a *Aggregate, items []GroupingItem) {
	if n.grouping == nil {
		n.grouping = map[*Aggregate][]GroupingItem{}
	}
	n.grouping[a] = items
}

// groupingItem prints a GROUP BY element as ruleutils'
// get_rule_groupingset does; omitParens drops the parentheses of a
// one-expression list (everywhere but directly in GROUPING SETS).
func (d *deparser) groupingItem(g GroupingItem, groupBy []Expr, omitParens bool) {
	switch g.Kind {
	case GroupingExpr, GroupingList:
		items := g.Items
		if g.Kind == GroupingExpr {
			items = []GroupingItem{g}
		}
		paren := !omitParens || len(items) != 1
		if paren {
			d.w("(")
		}
		for i, it := range items {
			if i > 0 {
				d.w(", ")
			}
			if it.Kind != GroupingExpr || it.Index < 0 || it.Index >= len(groupBy) {
				d.failed = true
				return
			}
			d.sortGroupExpr(groupBy[it.Index], nil)
		}
		if paren {
			d.w(")")
		}
		return
	case GroupingRollup:
		d.w("ROLLUP(")
	case GroupingCube:
		d.w("CUBE(")
	case GroupingSets:
		d.w("GROUPING SETS (")
	}
	for i, it := range g.Items {
		if i > 0 {
			d.w(", ")
		}
		d.groupingItem(it, groupBy, g.Kind != GroupingSets)
	}
	d.w(")")
}

// withNote is the WITH clause of a query: its queries in order, and the
// column names each was given (nil: none).
type withNote struct {
	recursive bool
	ctes      []*CTE
	colNames  [][]string
}

// NoteWith records that the query whose plan is rel has a WITH clause
// of ctes (each named the columns colNames[i], nil when it named none).
func (n *QueryNotes) NoteWith(rel Rel, recursive bool, ctes []*CTE, colNames [][]string) {
	if n.with == nil {
		n.with = map[Rel]withNote{}
	}
	n.with[rel] = withNote{recursive: recursive, ctes: ctes, colNames: colNames}
}

// NoteAlias records the alias a recursive WITH query's reference to
// itself, rel, was given.
func (n *QueryNotes) NoteAlias(rel Rel, alias string) {
	if n.alias == nil {
		n.alias = map[Rel]string{}
	}
	n.alias[rel] = alias
}

type fromNote struct {
	// relation, when set, is the key of the view the item names (the
	// plan holds the view's query).
	relation  string
	alias     string
	aliasCols bool
	lateral   bool
	cols      []string
}

// NoteFrom records that rel is a FROM item written as a subquery or a
// VALUES list, named alias (and its columns cols, named in the FROM item
// when aliasCols).
func (n *QueryNotes) NoteFrom(rel Rel, alias string, aliasCols, lateral bool, cols []Column) {
	if n.from == nil {
		n.from = map[Rel]fromNote{}
	}
	note := fromNote{relation: n.from[rel].relation, alias: alias, aliasCols: aliasCols, lateral: lateral}
	for _, c := range cols {
		note.cols = append(note.cols, c.Name)
	}
	n.from[rel] = note
}

// NoteRelation records that rel is the query of view key, named in a
// FROM clause (NoteFrom then gives its alias and columns).
func (n *QueryNotes) NoteRelation(rel Rel, key string) {
	if n.from == nil {
		n.from = map[Rel]fromNote{}
	}
	n.from[rel] = fromNote{relation: key}
}

// IsRelation reports whether rel is a view's query NoteRelation noted.
func (n *QueryNotes) IsRelation(rel Rel) bool {
	return n.from[rel].relation != ""
}

// fromNote is the note of a FROM item, if it was written as a subquery
// or names a view.
func (d *deparser) fromNote(rel Rel) (fromNote, bool) {
	if d.notes == nil {
		return fromNote{}, false
	}
	n, ok := d.notes.from[rel]
	return n, ok
}

// nested is a deparser for a query inside the one d prints (a subquery
// in an expression or in FROM), whose outer references read outer.
func (d *deparser) nested(outer []func(int) (string, bool)) *deparser {
	return &deparser{pretty: d.pretty, names: d.names, notes: d.notes, outer: outer, hideUnnamed: d.hideUnnamed,
		used: d.used[:len(d.used):len(d.used)]}
}

// nameLevel gives each relation of a FROM tree the name ruleutils'
// set_rtable_names does: its alias, or its own name, made unique among
// the names of this query and of the queries around it by a suffix _1,
// _2...
func (d *deparser) nameLevel(from Rel) {
	counters := map[string]int{}
	for _, n := range d.used {
		counters[n] = 0
	}
	d.refs = map[Rel]string{}
	var walk func(r Rel)
	walk = func(r Rel) {
		var name string
		if n, ok := d.fromNote(r); ok {
			name = n.alias
		} else {
			switch x := r.(type) {
			case *Join:
				walk(x.Left)
				walk(x.Right)
				return
			case *Scan:
				name = x.Alias
				if name == "" {
					name = x.Table.BareName()
				}
			case *CTEScan:
				name = x.Alias
				if name == "" {
					name = x.CTE.Name
				}
			case *WorkTable:
				name = x.CTE.Name
				if d.notes != nil && d.notes.alias[r] != "" {
					name = d.notes.alias[r]
				}
			default:
				return
			}
		}
		if _, taken := counters[name]; taken {
			base := name
			for {
				counters[base]++
				name = base + "_" + strconv.Itoa(counters[base])
				if _, taken := counters[name]; !taken {
					break
				}
			}
		}
		counters[name] = 0
		d.refs[r] = name
		d.used = append(d.used, name)
	}
	if !noFrom(from) {
		walk(from)
	}
}

// refName is the name a FROM item's columns are qualified by.
func (d *deparser) refName(r Rel) string {
	return sqltypes.QuoteIdent(d.refs[r])
}

// withRow is d's outer rows and the row d reads now, the outer rows of a
// query nested where d prints.
func (d *deparser) withRow(cols func(int) (string, bool)) []func(int) (string, bool) {
	return append(d.outer[:len(d.outer):len(d.outer)], cols)
}

// deparseSetOp prints a set operation's query as ruleutils'
// get_setop_query does: each SELECT as DeparseQuery prints one, with
// the view's column names, the operator on a line of its own, and the
// whole query's ORDER BY (by column number) and LIMIT after the last.
// setop is false when rel is no set operation. ok is false for a shape
// it does not print faithfully: an operand that is no plain SELECT (one
// with its own ORDER BY or LIMIT, a subquery...).
func (top *deparser) deparseSetOp(rel Rel, names []string) (text string, ok, setop bool) {
	return top.deparseSetOpAt(rel, names, 0, top.outer)
}

// deparseSetOpAt is deparseSetOp with the query's lines indent further
// in (a WITH query's).
// Its outer references read outer.
func (top *deparser) deparseSetOpAt(rel Rel, names []string, indent int, outer []func(int) (string, bool)) (text string, ok, setop bool) {
	whole := rel
	var limit *Limit
	var sort *Sort
	if l, ok := rel.(*Limit); ok {
		limit, rel = l, l.Input
	}
	if s, ok := rel.(*Sort); ok {
		sort, rel = s, s.Input
	}
	op, isSetOp := rel.(*SetOp)
	if !isSetOp {
		return "", false, false
	}
	d := top.nested(outer)
	d.nameLevel(nil)
	if !d.withClause(whole, indent) {
		return "", false, true
	}
	d.indent = indent
	if !d.setOperation(op, names) {
		return "", false, true
	}
	d.indent = indent + 8 // ORDER BY and LIMIT as after a SELECT
	if sort != nil {
		d.keyword(" ORDER BY ", -8, 8, 1)
		for i, k := range sort.Keys {
			if i > 0 {
				d.w(", ")
			}
			d.w(strconv.Itoa(k.Col + 1))
			sortDirection(d, k)
		}
	}
	if limit != nil {
		d.limitClause(limit)
	}
	return d.b.String(), !d.failed, true
}

// setOperation prints r, a set operation or one of its operands, as
// get_setop_query does at the current indent: a left operand of another
// operator and every right operand that is a set operation in
// parentheses, the inner SELECTs eight further in.
func (d *deparser) setOperation(r Rel, names []string) bool {
	x, ok := r.(*SetOp)
	if !ok {
		switch r.(type) {
		case *Limit, *Sort:
			return false // a SELECT of its own ORDER BY or LIMIT: not printed
		}
		text, ok := d.deparseSelect(r, names, d.indent, d.outer)
		d.w(text)
		return ok
	}
	l, paren := x.Left.(*SetOp)
	paren = paren && (l.Op != x.Op || l.All != x.All)
	sub := d.openOperand(paren)
	if paren {
		d.keyword("", sub, 0, 0)
	}
	if !d.setOperation(x.Left, names) {
		return false
	}
	if paren {
		d.keyword(") ", -sub, 0, 0)
	} else {
		d.keyword("", -sub, 0, 0)
	}
	d.w(x.Op.String() + " ")
	if x.All {
		d.w("ALL ")
	}
	_, paren = x.Right.(*SetOp)
	sub = d.openOperand(paren)
	d.keyword("", sub, 0, 0)
	// A right operand's column names are not visible (ruleutils'
	// get_setop_query).
	saved := d.hideUnnamed
	d.hideUnnamed = true
	ok = d.setOperation(x.Right, names)
	d.hideUnnamed = saved
	if !ok {
		return false
	}
	d.indent -= sub
	if paren {
		d.keyword(")", 0, 0, 0)
	}
	return true
}

// openOperand opens a parenthesized set-operation operand, whose lines
// go eight further in, and gives that indent (0 without parentheses).
func (d *deparser) openOperand(paren bool) int {
	if !paren {
		return 0
	}
	d.w("(")
	return 8
}

// sortGroupExpr prints an ORDER BY or DISTINCT ON expression as
// ruleutils' get_rule_sortgroupclause does: a column bare, anything else
// in parentheses when pretty, and a function call or aggregate always
// (it might read as a column name otherwise).
func (d *deparser) sortGroupExpr(e Expr, agg *Aggregate) {
	c, col := e.(*ColRef)
	isAgg := col && agg != nil && c.Index >= len(agg.GroupBy)
	// A group key is printed by what it groups by.
	under := e
	if col && agg != nil && !isAgg {
		under = agg.GroupBy[c.Index]
	}
	_, underCol := under.(*ColRef)
	if _, merged := d.notes.mergedName(under); merged || underCol && !isAgg {
		d.expr(e)
		return
	}
	need := d.pretty || isAgg || funcCall(under)
	if need {
		d.w("(")
	}
	d.expr(e)
	if need {
		d.w(")")
	}
}

// funcCall reports whether e is what PostgreSQL keeps as a FuncExpr: a
// call by name, not one of the constructs that print like one (CASE,
// COALESCE, GREATEST, LEAST, NULLIF, ARRAY[...], CURRENT_DATE).
func funcCall(e Expr) bool {
	if c, ok := e.(*Const); ok && c.From != nil {
		e = c.From
	}
	f, ok := e.(*Func)
	if !ok {
		return false
	}
	if k, _ := kindOf(f); k != kindFunc || sqlValueFunctions[f.Name] || strings.HasPrefix(f.Name, ".") {
		return false
	}
	switch f.Name {
	case "case", "coalesce", "greatest", "least", "nullif", "array":
		return false
	}
	return true
}

// sortDirection prints a sort key's DESC and NULLS, as ruleutils leaves
// out the defaults.
func sortDirection(d *deparser, k SortKey) {
	switch {
	case k.Desc:
		d.w(" DESC")
		if !k.NullsFirst {
			d.w(" NULLS LAST")
		}
	case k.NullsFirst:
		d.w(" NULLS FIRST")
	}
}

// limitClause prints OFFSET and LIMIT, each on a line of its own.
func (d *deparser) limitClause(l *Limit) {
	if l.Offset != nil {
		d.keyword(" OFFSET ", -8, 8, 0)
		d.limitValue(l.Offset)
	}
	if l.Count != nil {
		d.keyword(" LIMIT ", -8, 8, 0)
		d.limitValue(l.Count)
	}
}

// deparseSelect prints one plain SELECT, without the final semicolon,
// its lines indent further in (a set operation's parenthesized operand).
// Its outer references read outer.
func (parent *deparser) deparseSelect(rel Rel, names []string, indent int, outer []func(int) (string, bool)) (string, bool) {
	q, ok := splitQuery(rel)
	if !ok {
		return "", false
	}
	d := parent.nested(outer)
	d.nameLevel(q.from)
	from, ok := d.fromColumns(q.from)
	if !ok {
		return "", false
	}
	if !d.withClause(rel, indent) {
		return "", false
	}
	// The select list reads the FROM row, or the aggregate's row: its
	// group keys, then its aggregates.
	input := from
	if q.agg != nil {
		input = nil
		for _, g := range q.agg.GroupBy {
			text, ok := d.over(g, from)
			if !ok {
				return "", false
			}
			input = append(input, text)
		}
		for i := range q.agg.Aggs {
			if g := q.agg.Aggs[i].Grouping; g != nil {
				// GROUPING(a, b), over the group keys' texts.
				var keys []string
				for _, k := range g {
					if k < 0 || k >= len(q.agg.GroupBy) {
						return "", false
					}
					keys = append(keys, input[k])
				}
				input = append(input, "GROUPING("+strings.Join(keys, ", ")+")")
				continue
			}
			text, ok := d.aggText(&q.agg.Aggs[i], from)
			if !ok {
				return "", false
			}
			input = append(input, text)
		}
	}
	var windows windowsNote
	if q.window != nil {
		// The select list reads the window's row: its input's, then
		// each call's value. How the calls named their windows is
		// noted; without the note they are not printed.
		var ok bool
		if d.notes != nil {
			windows, ok = d.notes.windows[q.window]
		}
		if !ok || len(windows.calls) != len(q.window.Calls) {
			return "", false
		}
		wins := make([]string, 0, len(q.window.Calls))
		for i := range q.window.Calls {
			text, ok := d.windowCall(&q.window.Calls[i], windows.calls[i], windows.named, input, q.agg)
			if !ok {
				return "", false
			}
			wins = append(wins, text)
		}
		input = append(input[:len(input):len(input)], wins...)
	}
	windowInput := input[:len(input)-len(windows.calls)]
	for _, ps := range q.sets {
		// The select list's set-returning calls, each a call over the
		// row below it.
		var calls []string
		for _, c := range ps.Calls {
			text, ok := d.over(&Func{Name: c.Name, Args: c.Args, Typ: c.Typ}, input)
			if !ok {
				return "", false
			}
			calls = append(calls, text)
		}
		input = append(input[:len(input):len(input)], calls...)
	}
	d.cols = rowOf(input)
	d.indent = indent + 8
	d.w(" SELECT")
	if q.distinct {
		d.w(" DISTINCT")
	}
	if len(q.distinctOn) > 0 {
		d.w(" ON (")
		for i, c := range q.distinctOn {
			if i > 0 {
				d.w(", ")
			}
			if c < 0 || c >= len(q.project.Exprs) {
				return "", false
			}
			d.sortGroupExpr(q.project.Exprs[c], q.agg)
		}
		d.w(")")
	}
	visible := len(q.project.Exprs)
	if q.visible > 0 {
		visible = q.visible // ORDER BY's keys outside the select list follow
	}
	for i, e := range q.project.Exprs[:visible] {
		if q.project.Cols[i].Hidden {
			return "", false
		}
		mark := 0
		if i == 0 {
			d.w(" ")
		} else {
			d.w(",")
			mark = d.b.Len()
			d.keyword("", -8, 8, 4)
		}
		d.expr(e)
		if s := d.b.String(); mark > 0 && strings.HasPrefix(s[mark:], "\n\n") {
			// A target that starts a line of its own (CASE) takes the
			// place of the separator's line, as ruleutils does.
			d.b.Reset()
			d.w(s[:mark] + s[mark+1:])
		}
		name := q.project.Cols[i].Name
		if names != nil {
			if len(names) != visible {
				return "", false
			}
			name = names[i]
		}
		// A column printed as itself needs no label (ruleutils compares
		// the column's name with the output's).
		if d.hideUnnamed && name == "?column?" {
			if _, ok := e.(*ColRef); !ok {
				continue
			}
		}
		if m, ok := d.notes.mergedName(e); ok && m == name {
			continue
		}
		if c, ok := e.(*ColRef); !ok || q.agg != nil && c.Index >= len(q.agg.GroupBy) || !sameColumn(input[c.Index], name) {
			d.w(" AS " + sqltypes.QuoteIdent(name))
		}
	}
	if !noFrom(q.from) {
		d.keyword(" FROM ", -8, 8, 2)
		if !d.fromItem(q.from, from, true) {
			return "", false
		}
	}
	d.cols = rowOf(from)
	if q.where != nil {
		d.keyword(" WHERE ", -8, 8, 1)
		d.expr(q.where)
	}
	if q.agg != nil && q.agg.GroupingSets != nil {
		var items []GroupingItem
		if d.notes != nil {
			items = d.notes.grouping[q.agg]
		}
		if items == nil {
			return "", false
		}
		d.keyword(" GROUP BY ", -8, 8, 1)
		for i, g := range items {
			if i > 0 {
				d.w(", ")
			}
			d.groupingItem(g, q.agg.GroupBy, true)
		}
	} else if q.agg != nil && len(q.agg.GroupBy) > 0 {
		d.keyword(" GROUP BY ", -8, 8, 1)
		for i, g := range q.agg.GroupBy {
			if i > 0 {
				d.w(", ")
			}
			d.sortGroupExpr(g, nil)
		}
	}
	d.cols = rowOf(input)
	if q.having != nil {
		d.keyword(" HAVING ", -8, 8, 0)
		d.expr(q.having)
	}
	for i, n := range windows.named {
		if i == 0 {
			d.keyword(" WINDOW ", -8, 8, 1)
		} else {
			d.w(", ")
		}
		spec, ok := d.windowSpec(&n.Spec, n.Ref, n.OwnOrder, n.OneBound, windowInput, q.agg)
		if !ok {
			return "", false
		}
		d.w(sqltypes.QuoteIdent(n.Name) + " AS " + spec)
	}
	if q.sort != nil && !q.sort.Implied {
		d.keyword(" ORDER BY ", -8, 8, 1)
		for i, k := range q.sort.Keys {
			if i > 0 {
				d.w(", ")
			}
			if k.Col < 0 || k.Col >= len(q.project.Exprs) {
				return "", false
			}
			d.sortGroupExpr(q.project.Exprs[k.Col], q.agg)
			sortDirection(d, k)
		}
	}
	if q.limit != nil {
		d.limitClause(q.limit)
	}
	if !d.lockClause(rel, q.from) {
		return "", false
	}
	return d.b.String(), !d.failed
}

// lockClause prints the locking clause of the SELECT whose plan is rel,
// as ruleutils does: one FOR ... OF name per relation it locks (those OF
// names, or else every relation of the FROM tree from, left to right).
func (d *deparser) lockClause(rel, from Rel) bool {
	if d.notes == nil {
		return true
	}
	l, ok := d.notes.locks[rel]
	if !ok {
		return true
	}
	names := l.Of
	if names == nil {
		var walk func(r Rel) bool
		walk = func(r Rel) bool {
			if j, ok := r.(*Join); ok {
				if _, noted := d.fromNote(r); !noted {
					return walk(j.Left) && walk(j.Right)
				}
			}
			name, ok := d.refs[r]
			names = append(names, name)
			return ok
		}
		if !walk(from) {
			return false
		}
	}
	for _, name := range names {
		d.keyword(" FOR "+l.Strength, -8, 8, 0)
		d.w(" OF " + sqltypes.QuoteIdent(name))
		if l.NoWait {
			d.w(" NOWAIT")
		}
		if l.SkipLocked {
			d.w(" SKIP LOCKED")
		}
	}
	if d.notes.lockPrinted == nil {
		d.notes.lockPrinted = map[Rel]bool{}
	}
	d.notes.lockPrinted[rel] = true
	return true
}

// limitValue prints LIMIT's or OFFSET's value: PostgreSQL keeps an
// integer literal as int4 coerced to bigint, and hides the coercion.
func (d *deparser) limitValue(e Expr) {
	if c, ok := e.(*Const); ok && c.V.K == sqltypes.KindInt && c.V.I >= 0 {
		d.w(sqltypes.FormatText(c.V))
		return
	}
	d.expr(e)
}

// sameColumn reports whether a column's text names column name: a
// qualified column, or a FULL JOIN's merged one, which is unqualified.
func sameColumn(text, name string) bool {
	i := strings.LastIndexByte(text, '.')
	return text[i+1:] == sqltypes.QuoteIdent(name)
}

// query is a bound SELECT taken apart into ruleutils' clauses.
type query struct {
	limit    *Limit
	sort     *Sort
	distinct bool
	// distinctOn are DISTINCT ON's select-list columns.
	distinctOn []int
	// visible, when not 0, is the number of the project's columns the
	// query yields; ORDER BY's keys outside the select list follow them.
	visible int
	project *Project
	// window computes the select list's window functions.
	window *Window
	// sets compute the select list's set-returning calls, lowest first.
	sets   []*ProjectSet
	having Expr
	agg    *Aggregate
	where  Expr
	from   Rel
}

// splitQuery takes apart the plan the binder makes of a plain SELECT:
// [Limit] [Sort] [Distinct] Project [Filter (HAVING)] [Aggregate]
// [Filter (WHERE)] over a FROM tree of scans and joins.
func splitQuery(rel Rel) (*query, bool) {
	q := &query{}
	if p, ok := rel.(*Project); ok && p.DropsOrderKeys && stripsHidden(p) {
		q.visible, rel = len(p.Exprs), p.Input
	}
	for q.project == nil {
		switch x := rel.(type) {
		case *Limit:
			if q.limit != nil || q.sort != nil || q.distinct {
				return nil, false
			}
			q.limit, rel = x, x.Input
		case *Sort:
			// DISTINCT ON keeps the first row of each group in the
			// query's order, so the binder sorts below it.
			if q.sort != nil || q.distinct && len(q.distinctOn) == 0 {
				return nil, false
			}
			q.sort, rel = x, x.Input
		case *Distinct:
			if q.distinct {
				return nil, false
			}
			q.distinct, q.distinctOn, rel = true, x.On, x.Input
		case *Project:
			q.project, rel = x, x.Input
		default:
			return nil, false
		}
	}
	for {
		ps, ok := rel.(*ProjectSet)
		if !ok {
			break
		}
		q.sets, rel = append([]*ProjectSet{ps}, q.sets...), ps.Input
	}
	if w, ok := rel.(*Window); ok {
		q.window, rel = w, w.Input
	}
	if f, ok := rel.(*Filter); ok {
		if _, agg := f.Input.(*Aggregate); agg {
			q.having, rel = f.Pred, f.Input
		}
	}
	if a, ok := rel.(*Aggregate); ok {
		q.agg, rel = a, a.Input
	}
	if f, ok := rel.(*Filter); ok {
		q.where, rel = f.Pred, f.Input
	}
	q.from = rel
	return q, true
}

// stripsHidden reports whether p only drops the trailing columns (ORDER
// BY's keys outside the select list) of the query's own Project below
// its Limit, Sort and Distinct, as the binder does.
func stripsHidden(p *Project) bool {
	for i, e := range p.Exprs {
		if c, ok := e.(*ColRef); !ok || c.Index != i {
			return false
		}
	}
	for in := p.Input; ; in = in.Inputs()[0] {
		switch x := in.(type) {
		case *Limit, *Sort, *Distinct:
		case *Project:
			return len(x.Exprs) > len(p.Exprs)
		default:
			return false
		}
	}
}

// noFrom reports whether rel is the single empty row of a SELECT without
// FROM.
func noFrom(rel Rel) bool {
	v, ok := rel.(*Values)
	return ok && len(v.Rows) == 1 && len(v.Rows[0]) == 0 && len(v.Cols) == 0
}

// fromColumns names each column of a FROM tree's row as ruleutils prints
// a Var: the relation's name or alias, a dot, the column's name.
func (d *deparser) fromColumns(rel Rel) ([]string, bool) {
	if noFrom(rel) {
		return nil, true
	}
	qualify := func(names []string) []string {
		ref := d.refName(rel)
		out := make([]string, len(names))
		for i, c := range names {
			out[i] = ref + "." + sqltypes.QuoteIdent(c)
		}
		return out
	}
	if n, ok := d.fromNote(rel); ok {
		return qualify(n.cols), true
	}
	switch x := rel.(type) {
	case *Scan:
		var names []string
		for _, c := range x.Table.Columns {
			names = append(names, c.Name)
		}
		return qualify(names), true
	case *CTEScan, *WorkTable:
		var names []string
		for _, c := range x.Columns() {
			names = append(names, c.Name)
		}
		return qualify(names), true
	case *Join:
		if x.Kind > FullJoin {
			return nil, false
		}
		l, ok := d.fromColumns(x.Left)
		if !ok {
			return nil, false
		}
		r, ok := d.fromColumns(x.Right)
		if !ok {
			return nil, false
		}
		return append(append([]string(nil), l...), r...), true
	}
	return nil, false
}

// fromItem prints a FROM tree: a list of relations (a cross join without
// a condition, as the binder makes of FROM a, b) or joins, each JOIN on a
// line of its own and, unless pretty, in parentheses.
func (d *deparser) fromItem(rel Rel, cols []string, top bool) bool {
	if n, ok := d.fromNote(rel); ok && n.relation != "" {
		// A view or catalog relation, printed as a table is (pg_catalog
		// is on every path).
		if sc, name := catalog.SplitName(n.relation); sc == "pg_catalog" {
			d.w(sqltypes.QuoteIdent(name))
		} else {
			d.w(d.relationName(n.relation, false))
		}
		if _, bare := catalog.SplitName(n.relation); d.refs[rel] != bare || n.aliasCols {
			d.w(" " + sqltypes.QuoteIdent(d.refs[rel]))
		}
		d.aliasColumns(n)
		return true
	} else if ok {
		return d.subqueryItem(rel, n)
	}
	switch x := rel.(type) {
	case *Scan:
		d.w(d.relationName(x.Table.Name, x.Table.Temp))
		if ref := d.refs[x]; ref != x.Table.BareName() {
			d.w(" " + sqltypes.QuoteIdent(ref))
		}
		return true
	case *CTEScan, *WorkTable:
		var cte *CTE
		if c, ok := x.(*CTEScan); ok {
			cte = c.CTE
		} else {
			cte = x.(*WorkTable).CTE
		}
		if d.notes == nil || !d.notes.printed[cte] {
			return false
		}
		name := cte.Name
		d.w(sqltypes.QuoteIdent(name))
		if ref := d.refs[x]; ref != name {
			d.w(" " + sqltypes.QuoteIdent(ref))
		}
		return true
	case *Join:
		if x.Lateral {
			// The right side reads the left's row as its outer row.
			if _, ok := d.fromNote(x.Right); !ok {
				return false
			}
			left, ok := d.fromColumns(x.Left)
			if !ok {
				return false
			}
			saved, savedRight := d.outer, d.lateralRight
			d.outer, d.lateralRight = d.withRow(rowOf(left)), x.Right
			defer func() { d.outer, d.lateralRight = saved, savedRight }()
		}
		cross := d.notes != nil && d.notes.cross[x]
		if _, using := d.notes.usingOf(x); x.Kind == InnerJoin && x.On == nil && !using && !cross {
			if !top {
				return false
			}
			if !d.fromItem(x.Left, cols, true) {
				return false
			}
			d.w(",")
			d.keyword("", -8, 8, 4)
			return d.fromItem(x.Right, cols, false)
		}
		using, isUsing := d.notes.usingOf(x)
		if isUsing && (using.mixed || len(using.cols) == 0) {
			return false
		}
		d.open()
		if !d.fromItem(x.Left, cols, false) {
			return false
		}
		kw := map[JoinKind]string{InnerJoin: " JOIN ", LeftJoin: " LEFT JOIN ", RightJoin: " RIGHT JOIN ", FullJoin: " FULL JOIN "}[x.Kind]
		if cross {
			kw = " CROSS JOIN "
		}
		d.keyword(kw, -8, 8, 4)
		// A join on the right keeps its parentheses when pretty too.
		_, noted := d.fromNote(x.Right)
		_, rightJoin := x.Right.(*Join)
		parenRight := d.pretty && rightJoin && !noted
		if parenRight {
			d.w("(")
		}
		if !d.fromItem(x.Right, cols, false) {
			return false
		}
		if parenRight {
			d.w(")")
		}
		if cross {
			d.close()
			return true
		}
		if isUsing {
			// A NATURAL join too, by the columns it matched.
			d.w(" USING ")
			d.nameList(using.cols)
			d.close()
			return true
		}
		d.w(" ON ")
		d.open()
		// ON reads the join's own row (a join right of another reads
		// no row to its left).
		own, ok := d.fromColumns(x)
		if !ok {
			return false
		}
		prev := d.cols
		d.cols = rowOf(own)
		d.expr(x.On)
		d.cols = prev
		d.close()
		d.close()
		return true
	}
	return false
}

// subqueryItem prints a FROM item written as a subquery or a VALUES list
// as ruleutils' get_from_clause_item does: [LATERAL] (query) alias, and
// the column names when the item named them.
func (d *deparser) subqueryItem(rel Rel, n fromNote) bool {
	if f, ok := rel.(*TableFunc); ok {
		return d.functionItem(f, n)
	}
	if n.lateral {
		d.w("LATERAL ")
	}
	d.w("(")
	if v, ok := rel.(*Values); ok {
		// A query of its own (SELECT * FROM (VALUES ...)), after the
		// space its SELECT would have.
		d.w(" ")
		if !d.valuesList(v) {
			return false
		}
	} else {
		// The subquery's column names are visible, as the FROM item's.
		saved := d.hideUnnamed
		d.hideUnnamed = false
		text, ok := d.subquery(rel, d.outer)
		d.hideUnnamed = saved
		if !ok {
			return false
		}
		d.w(text)
	}
	d.w(") " + sqltypes.QuoteIdent(d.refs[rel]))
	d.aliasColumns(n)
	return true
}

// aliasColumns prints a FROM item's column names when it named them.
func (d *deparser) aliasColumns(n fromNote) {
	if n.aliasCols {
		d.nameList(n.cols)
	}
}

// nameList prints names as a parenthesized list of identifiers.
func (d *deparser) nameList(names []string) {
	d.w("(")
	for i, c := range names {
		if i > 0 {
			d.w(", ")
		}
		d.w(sqltypes.QuoteIdent(c))
	}
	d.w(")")
}

// valuesList prints a VALUES list as ruleutils' get_values_def does: the
// values of a row separated by commas alone.
func (d *deparser) valuesList(v *Values) bool {
	d.w("VALUES ")
	for i, row := range v.Rows {
		if i > 0 {
			d.w(", ")
		}
		d.w("(")
		for j, e := range row {
			if j > 0 {
				d.w(",")
			}
			d.expr(e)
		}
		d.w(")")
	}
	return !d.failed
}

// rowOf is a row whose columns print as cols.
func rowOf(cols []string) func(int) (string, bool) {
	return func(i int) (string, bool) {
		if i < 0 || i >= len(cols) {
			return "", false
		}
		return cols[i], true
	}
}

// DeparseOver is DeparseMode for an expression over a row whose columns
// print as cols (a domain CHECK's one column prints as VALUE).
func DeparseOver(e Expr, cols []string, pretty bool) (string, bool) {
	return (&deparser{pretty: pretty}).over(e, cols)
}

// DeparseOverNamed is DeparseOver printing the schema objects' names
// through names (DeparseNamed).
func DeparseOverNamed(e Expr, cols []string, pretty bool, names Namer) (string, bool) {
	return (&deparser{pretty: pretty, names: names}).over(e, cols)
}

// over prints e over a row whose columns print as cols, with d's outer
// rows.
func (d *deparser) over(e Expr, cols []string) (string, bool) {
	sub := d.nested(d.outer)
	sub.indent = d.indent
	sub.cols = rowOf(cols)
	sub.expr(e)
	return sub.b.String(), !sub.failed
}

// aggText prints an aggregate call: count(*), sum(t.x), count(DISTINCT
// t.x), with its FILTER; one with ORDER BY or grouping() is not printed.
func (d *deparser) aggText(a *AggCall, cols []string) (string, bool) {
	if a.Grouping != nil || a.User != nil {
		return "", false
	}
	var text string
	if len(a.OrderBy) > 0 && orderedSetAggs[string(a.Func)] {
		var ok bool
		if text, ok = d.orderedSetAgg(a, cols); !ok {
			return "", false
		}
	} else if a.Func == AggCountStar {
		text = "count(*)"
	} else {
		args := a.Args
		if len(args) == 0 && a.Arg != nil {
			args = []Expr{a.Arg}
		}
		var parts []string
		for _, e := range args {
			t, ok := d.over(e, cols)
			if !ok {
				return "", false
			}
			parts = append(parts, t)
		}
		distinct := ""
		if a.Distinct {
			distinct = "DISTINCT "
		}
		text = d.routineName(string(a.Func)) + "(" + distinct + strings.Join(parts, ", ")
		if len(a.OrderBy) > 0 {
			sub := d.nested(d.outer)
			sub.cols = rowOf(cols)
			sub.w(" ORDER BY ")
			sub.aggSortKeys(a.OrderBy)
			if sub.failed {
				return "", false
			}
			text += sub.b.String()
		}
		text += ")"
	}
	if a.Filter != nil {
		f, ok := d.over(a.Filter, cols)
		if !ok {
			return "", false
		}
		text += " FILTER (WHERE " + f + ")"
	}
	return text, true
}

// aggSortKeys prints an aggregate's ORDER BY keys.
func (d *deparser) aggSortKeys(keys []SortKeyExpr) {
	for i, k := range keys {
		if i > 0 {
			d.w(", ")
		}
		d.sortGroupExpr(k.E, nil)
		sortDirection(d, SortKey{Desc: k.Desc, NullsFirst: k.NullsFirst})
	}
}

// orderedSetAgg prints percentile_cont, percentile_disc and mode as
// ruleutils' get_agg_expr does: f(direct args) WITHIN GROUP (ORDER BY
// key), the percentiles' fraction coerced to double precision, and
// percentile_cont's key too unless it is an interval (a cast function,
// which a sort clause parenthesizes); the hypothetical-set aggregates as
// rank(x, y) WITHIN GROUP (ORDER BY a, b).
func (d *deparser) orderedSetAgg(a *AggCall, cols []string) (string, bool) {
	name := string(a.Func)
	sub := d.nested(d.outer)
	sub.cols = rowOf(cols)
	if hypotheticalAggs[name] {
		// The binder's Args are the first sort key, then the direct
		// arguments (coerced to the keys' types).
		if len(a.Args) != len(a.OrderBy)+1 {
			return "", false
		}
		sub.w(name + "(")
		for i, e := range a.Args[1:] {
			if i > 0 {
				sub.w(", ")
			}
			sub.expr(e)
		}
		sub.w(") WITHIN GROUP (ORDER BY ")
		sub.aggSortKeys(a.OrderBy)
		sub.w(")")
		return sub.b.String(), !sub.failed
	}
	if name != "percentile_cont" && name != "percentile_disc" && name != "mode" || len(a.OrderBy) != 1 || len(a.Args) < 1 {
		return "", false
	}
	float8 := sqltypes.Type{ID: sqltypes.Float8}
	call := &Func{Name: name, Args: a.Args[1:]}
	sub.w(name + "(")
	for i, e := range a.Args[1:] {
		if i > 0 {
			sub.w(", ")
		}
		switch t := e.Type(); {
		case t.IsArray():
			return "", false
		case t.ID == sqltypes.Float8:
			sub.expr(e)
		default:
			sub.implicitCast(e, float8, call)
		}
	}
	sub.w(") WITHIN GROUP (ORDER BY ")
	k := a.OrderBy[0]
	if t := k.E.Type(); name == "percentile_cont" && t.ID != sqltypes.Float8 && t.ID != sqltypes.Interval {
		cast := &Cast{E: k.E, To: float8}
		sub.w("(")
		sub.cast(k.E, float8, cast)
		sub.w(")")
	} else {
		sub.sortGroupExpr(k.E, nil)
	}
	sortDirection(sub, SortKey{Desc: k.Desc, NullsFirst: k.NullsFirst})
	sub.w(")")
	return sub.b.String(), !sub.failed
}

// sublink prints a subquery used as a value as ruleutils'
// get_sublink_expr does: in parentheses, ( SELECT ...) for a scalar,
// (EXISTS ( SELECT ...)), (x IN ( SELECT ...)) for = ANY, (x op ANY (
// SELECT ...)), ARRAY( SELECT ...); NOT IN and NOT EXISTS are the NOT of
// one. The subquery's outer references read the row d reads now.
func (d *deparser) sublink(x *Subquery) {
	if x.Neg {
		c := *x
		c.Neg = false
		d.expr(&Not{E: &c})
		return
	}
	if x.RowMap != nil {
		d.failed = true
		return
	}
	cols := x.Plan.Columns()
	saved := d.hideUnnamed
	d.hideUnnamed = true
	text, ok := d.subquery(x.Plan, d.withRow(d.cols))
	d.hideUnnamed = saved
	if !ok {
		d.failed = true
		return
	}
	switch x.Kind {
	case ScalarSubquery:
		d.w("(" + text + ")")
	case ArraySubquery:
		d.w("ARRAY(" + text + ")")
	case ExistsSubquery:
		d.w("(EXISTS (" + text + "))")
	case AnySubquery, AllSubquery:
		row, isRow := x.Left.(*RowExpr)
		if x.Left == nil || !isRow && len(cols) != 1 || isRow && len(row.Items) != len(cols) {
			d.failed = true
			return
		}
		d.w("(")
		if isRow {
			// (a, b) IN (SELECT ...): the row's items, as ruleutils
			// prints the comparisons' left operands.
			d.w("(")
			for i, e := range row.Items {
				if i > 0 {
					d.w(", ")
				}
				d.operand(e, cols[i].Type, x)
			}
			d.w(")")
		} else {
			d.operand(x.Left, cols[0].Type, x)
		}
		switch {
		case x.Kind == AnySubquery && x.Op == OpEq:
			d.w(" IN (")
		case x.Kind == AnySubquery:
			d.w(" " + string(x.Op) + " ANY (")
		default:
			d.w(" " + string(x.Op) + " ALL (")
		}
		d.w(text + "))")
	default:
		d.failed = true
	}
}

// windowCall prints a window function's call as ruleutils'
// get_windowfunc_expr does: f(args) [FILTER (WHERE ...)] OVER and its
// window, by name when it names one of the WINDOW clause or is one of
// them written again, else inline.
func (d *deparser) windowCall(w *WindowCall, note WindowNote, named []NamedWindow, cols []string, agg *Aggregate) (string, bool) {
	var text string
	if w.Agg != nil {
		t, ok := d.aggText(w.Agg, cols)
		if !ok {
			return "", false
		}
		text = t
	} else {
		var args []string
		for _, a := range w.Args {
			t, ok := d.over(a, cols)
			if !ok {
				return "", false
			}
			args = append(args, t)
		}
		text = sqltypes.QuoteIdent(w.Func) + "(" + strings.Join(args, ", ") + ")"
	}
	if note.Ref == "" {
		// PostgreSQL takes an inline window equal to a named one for it.
		key := windowKey(w)
		for _, n := range named {
			if n.Ref == "" && windowKey(&n.Spec) == key {
				note = WindowNote{Ref: n.Name, Bare: true}
				break
			}
		}
	}
	if note.Bare {
		return text + " OVER " + sqltypes.QuoteIdent(note.Ref), true
	}
	spec, ok := d.windowSpec(w, note.Ref, note.Ref == "" || note.OwnOrder, note.OneBound, cols, agg)
	return text + " OVER " + spec, ok
}

// windowKey tells window definitions apart.
func windowKey(w *WindowCall) string {
	var b strings.Builder
	for _, e := range w.PartitionBy {
		b.WriteString(e.String() + ",")
	}
	b.WriteString("|")
	for _, k := range w.OrderBy {
		fmt.Fprintf(&b, "%s %v %v,", k.E, k.Desc, k.NullsFirst)
	}
	f := w.Frame
	fmt.Fprintf(&b, "|%d %d %v %d %v %s", f.Mode, f.Start.Kind, f.Start.Offset, f.End.Kind, f.End.Offset, f.Exclude)
	return b.String()
}

// windowSpec prints a window definition as ruleutils'
// get_rule_windowspec does: ([ref] [PARTITION BY ...] [ORDER BY ...]
// [frame]), the partitioning left to ref when it builds on one, the order
// printed when its own, the frame when not the default.
func (d *deparser) windowSpec(w *WindowCall, ref string, ownOrder, oneBound bool, cols []string, agg *Aggregate) (string, bool) {
	sub := d.nested(d.outer)
	sub.cols = rowOf(cols)
	sub.w("(")
	space := false
	if ref != "" {
		sub.w(sqltypes.QuoteIdent(ref))
		space = true
	}
	if len(w.PartitionBy) > 0 && ref == "" {
		sub.w("PARTITION BY ")
		for i, e := range w.PartitionBy {
			if i > 0 {
				sub.w(", ")
			}
			sub.sortGroupExpr(e, agg)
		}
		space = true
	}
	if len(w.OrderBy) > 0 && ownOrder {
		if space {
			sub.w(" ")
		}
		sub.w("ORDER BY ")
		for i, k := range w.OrderBy {
			if i > 0 {
				sub.w(", ")
			}
			sub.sortGroupExpr(k.E, agg)
			sortDirection(sub, SortKey{Desc: k.Desc, NullsFirst: k.NullsFirst})
		}
		space = true
	}
	f := w.Frame
	if !(f.Mode == FrameRange && f.Start.Kind == UnboundedPreceding && f.End.Kind == CurrentRow && f.Exclude == "") {
		if space {
			sub.w(" ")
		}
		sub.w([...]string{"RANGE", "ROWS", "GROUPS"}[f.Mode] + " ")
		if oneBound {
			sub.frameBound(f.Start)
		} else {
			sub.w("BETWEEN ")
			sub.frameBound(f.Start)
			sub.w(" AND ")
			sub.frameBound(f.End)
		}
		if f.Exclude != "" {
			sub.w(" EXCLUDE " + strings.ToUpper(f.Exclude))
		}
	}
	sub.w(")")
	return sub.b.String(), !sub.failed
}

// frameBound prints one end of a window frame.
func (d *deparser) frameBound(b FrameBound) {
	switch b.Kind {
	case UnboundedPreceding:
		d.w("UNBOUNDED PRECEDING")
	case UnboundedFollowing:
		d.w("UNBOUNDED FOLLOWING")
	case CurrentRow:
		d.w("CURRENT ROW")
	case OffsetPreceding, OffsetFollowing:
		d.limitValue(b.Offset)
		if b.Kind == OffsetPreceding {
			d.w(" PRECEDING")
		} else {
			d.w(" FOLLOWING")
		}
	}
}

// withClause prints the WITH clause of the query whose plan is rel, if
// it has one, as ruleutils' get_with_clause does: each query in
// parentheses on lines of its own, eight further in.
func (d *deparser) withClause(rel Rel, indent int) bool {
	if d.notes == nil {
		return true
	}
	w, ok := d.notes.with[rel]
	if !ok {
		return true
	}
	d.indent = indent + 8
	d.w(" WITH ")
	if w.recursive {
		d.w("RECURSIVE ")
	}
	for i, c := range w.ctes {
		if i > 0 {
			d.w(", ")
		}
		if c.Write != nil || c.Plan == nil {
			return false
		}
		d.w(sqltypes.QuoteIdent(c.Name))
		if names := w.colNames[i]; len(names) > 0 {
			d.nameList(names)
		}
		d.w(" AS ")
		if d.notes.printed == nil {
			d.notes.printed = map[*CTE]bool{}
		}
		d.notes.printed[c] = true // before its query, which may read it
		switch {
		case c.Materialized:
			d.w("MATERIALIZED ")
		case c.NotMaterialized:
			d.w("NOT MATERIALIZED ")
		}
		d.w("(")
		d.keyword("", 0, 0, 0)
		plan := c.Plan
		if r, ok := plan.(*RecursiveUnion); ok {
			plan = &SetOp{Op: Union, All: r.All, Left: r.Anchor, Right: r.Recursive, Cols: r.Columns()}
		}
		// The query's column names are visible, and it reads no row of
		// the query around it.
		saved := d.hideUnnamed
		d.hideUnnamed = false
		text, ok := d.subquery(plan, d.outer)
		d.hideUnnamed = saved
		if !ok {
			return false
		}
		d.w(text)
		d.keyword("", 0, 0, 0)
		d.w(")")
	}
	d.indent -= 8
	d.keyword("", 0, 0, 0)
	return true
}

// subquery prints a query nested at d's indent (in an expression, in
// FROM, in WITH): a set operation or a SELECT, its outer references
// reading outer.
func (d *deparser) subquery(rel Rel, outer []func(int) (string, bool)) (string, bool) {
	if v, ok := rel.(*Values); ok && !noFrom(v) {
		// A VALUES list, as get_basic_select_query prints SELECT * FROM
		// (VALUES ...).
		sub := d.nested(outer)
		sub.indent = d.indent
		sub.w(" ")
		ok := sub.valuesList(v)
		return sub.b.String(), ok
	}
	if text, ok, setop := d.deparseSetOpAt(rel, nil, d.indent, outer); setop {
		return text, ok
	}
	return d.deparseSelect(rel, nil, d.indent, outer)
}

// orderedSetAggs are the aggregates whose ORDER BY is WITHIN GROUP.
var orderedSetAggs = map[string]bool{"percentile_cont": true, "percentile_disc": true, "mode": true,
	"rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true}

// hypotheticalAggs are the hypothetical-set aggregates among them.
var hypotheticalAggs = map[string]bool{"rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true}

// functionItem prints a set-returning function in FROM as ruleutils'
// get_from_clause_item does: LATERAL when written so or when it reads the
// items to its left, the call, WITH ORDINALITY, and always its alias and
// the names of its columns.
func (d *deparser) functionItem(f *TableFunc, n fromNote) bool {
	lateral := n.lateral
	if d.lateralRight == f {
		for _, a := range f.Args {
			Walk(a, func(x Expr) {
				if o, ok := x.(*OuterRef); ok && o.Depth == 1 {
					lateral = true
				}
			})
		}
	}
	if lateral {
		d.w("LATERAL ")
	}
	if f.Parts != nil {
		// ROWS FROM(f(...), g(...)), each call over its own arguments.
		d.w("ROWS FROM(")
		a, c := 0, 0
		for i, p := range f.Parts {
			if i > 0 {
				d.w(", ")
			}
			d.fn(&Func{Name: p.Name, Args: f.Args[a : a+p.Args], Typ: f.Cols[c].Type})
			a, c = a+p.Args, c+p.NCols
		}
		d.w(")")
	} else {
		d.fn(&Func{Name: f.Name, Args: f.Args, Typ: f.Cols[0].Type})
	}
	if f.Ordinality {
		d.w(" WITH ORDINALITY")
	}
	d.w(" " + sqltypes.QuoteIdent(d.refs[f]))
	d.nameList(n.cols)
	return !d.failed
}

// sameNames reports whether cols are named names (nil: their own).
func sameNames(cols []Column, names []string) bool {
	if names == nil {
		return true
	}
	if len(names) != len(cols) {
		return false
	}
	for i, c := range cols {
		if c.Name != names[i] {
			return false
		}
	}
	return true
}

// renamedValues prints a VALUES view whose columns the view renamed as
// ruleutils does: a SELECT of the VALUES list named "*VALUES*".
func (d *deparser) renamedValues(v *Values, names []string) (string, bool) {
	if len(names) != len(v.Cols) {
		return "", false
	}
	d.indent = 8
	d.w(" SELECT ")
	for i, c := range v.Cols {
		if i > 0 {
			d.w(",")
			d.keyword("", -8, 8, 4)
		}
		d.w(`"*VALUES*".` + sqltypes.QuoteIdent(c.Name))
		if names[i] != c.Name {
			d.w(" AS " + sqltypes.QuoteIdent(names[i]))
		}
	}
	d.keyword(" FROM ", -8, 8, 2)
	d.w("(")
	ok := d.valuesList(v)
	d.w(`) "*VALUES*";`)
	return d.b.String(), ok && !d.failed
}

// mergedName is the name of the FULL JOIN USING column e is, if it is one.
func (n *QueryNotes) mergedName(e Expr) (string, bool) {
	f, ok := e.(*Func)
	if n == nil || !ok {
		return "", false
	}
	name, ok := n.merged[f]
	return name, ok
}
