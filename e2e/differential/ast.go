package differential

import (
	"fmt"
	"strconv"
	"strings"
)

// The statements are built as small trees rather than strings so that the
// minimiser can drop clauses, conjuncts, select items and joins, and replace
// an expression by one of its operands, and render the result again.

// expr is a scalar expression: a template whose placeholders are filled by
// its operands and its subquery. Every expression has the same shape, so
// the minimiser can walk them without knowing what each one is.
type expr struct {
	t    typ
	tmpl string  // argMark+'0'+i stands for args[i], subMark for sub
	args []*expr // operands
	sub  query   // a subquery, if any
	// agg and win mark aggregate and window calls: the minimiser does not
	// replace them by their arguments (the result would not be grouped
	// the same way).
	agg, win bool
}

const (
	argMark = '\x01'
	subMark = "\x02"
)

// arg is the placeholder of operand i in a template.
func arg(i int) string { return string([]byte{argMark, byte('0' + i)}) }

// mk builds an expression from a template in which $1..$9 name the
// operands and $Q the subquery.
func mk(t typ, tmpl string, args ...*expr) *expr {
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] == '$' && i+1 < len(tmpl) {
			switch c := tmpl[i+1]; {
			case c >= '1' && c <= '9':
				b.WriteString(arg(int(c - '1')))
				i++
				continue
			case c == 'Q':
				b.WriteString(subMark)
				i++
				continue
			}
		}
		b.WriteByte(tmpl[i])
	}
	return &expr{t: t, tmpl: b.String(), args: args}
}

func leaf(t typ, sql string) *expr { return &expr{t: t, tmpl: sql} }

func (e *expr) render(b *strings.Builder) {
	for i := 0; i < len(e.tmpl); i++ {
		switch e.tmpl[i] {
		case argMark:
			i++
			e.args[e.tmpl[i]-'0'].render(b)
		case subMark[0]:
			e.sub.render(b)
		default:
			b.WriteByte(e.tmpl[i])
		}
	}
}

func (e *expr) String() string {
	var b strings.Builder
	e.render(&b)
	return b.String()
}

// query is a SELECT or a set operation.
type query interface {
	render(b *strings.Builder)
	outCols() []outCol
}

// outCol is a column of a relation: a query's output, a table, a view.
// An empty name is a column the generator cannot name (PostgreSQL's
// ?column? and the like), so it is never referenced.
type outCol struct {
	name string
	t    typ
}

// selItem is one item of a select list: an expression with an optional
// alias, or a star (star is "*" or "alias.*").
type selItem struct {
	e     *expr
	alias string
	star  string
}

// orderItem is an ORDER BY key: an output position (1-based) or an
// expression.
type orderItem struct {
	pos   int
	e     *expr
	desc  bool
	nulls string // "", "NULLS FIRST", "NULLS LAST"
}

func (o orderItem) render(b *strings.Builder) {
	if o.e != nil {
		o.e.render(b)
	} else {
		b.WriteString(strconv.Itoa(o.pos))
	}
	if o.desc {
		b.WriteString(" DESC")
	}
	if o.nulls != "" {
		b.WriteString(" " + o.nulls)
	}
}

func renderOrder(b *strings.Builder, items []orderItem) {
	renderList(b, " ORDER BY ", items, func(o orderItem) { o.render(b) })
}

func renderLimit(b *strings.Builder, limit, offset int) {
	if limit >= 0 {
		fmt.Fprintf(b, " LIMIT %d", limit)
	}
	if offset >= 0 {
		fmt.Fprintf(b, " OFFSET %d", offset)
	}
}

// cte is one WITH item.
type cte struct {
	name    string
	colList []string // WITH name(a, b) AS ...; nil: the query's names
	q       query
	cols    []outCol // the CTE's columns as seen by references
}

// namedWindow is a WINDOW clause entry; spec is rendered through an
// expression so its keys are minimised like any other.
type namedWindow struct {
	name string
	spec *expr
}

// selectStmt is a SELECT.
type selectStmt struct {
	with      []*cte
	recursive bool
	distinct  bool
	items     []selItem
	from      []*fromItem
	where     *expr
	groupBy   []*expr
	having    *expr
	windows   []namedWindow
	orderBy   []orderItem
	limit     int // -1: none
	offset    int // -1: none
	out       []outCol
}

func renderWith(b *strings.Builder, with []*cte, recursive bool) {
	if len(with) == 0 {
		return
	}
	b.WriteString("WITH ")
	if recursive {
		b.WriteString("RECURSIVE ")
	}
	for i, c := range with {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.name)
		if c.colList != nil {
			b.WriteString("(" + strings.Join(c.colList, ", ") + ")")
		}
		b.WriteString(" AS (")
		c.q.render(b)
		b.WriteString(")")
	}
	b.WriteString(" ")
}

// renderList writes prefix and the items separated by commas, or nothing
// when there are none.
func renderList[T any](b *strings.Builder, prefix string, xs []T, each func(T)) {
	for i, x := range xs {
		if i == 0 {
			b.WriteString(prefix)
		} else {
			b.WriteString(", ")
		}
		each(x)
	}
}

// renderItems writes a select list or a RETURNING list.
func renderItems(b *strings.Builder, prefix string, items []selItem) {
	renderList(b, prefix, items, func(it selItem) {
		if it.star != "" {
			b.WriteString(it.star)
			return
		}
		it.e.render(b)
		if it.alias != "" {
			b.WriteString(" AS " + it.alias)
		}
	})
}

func renderFrom(b *strings.Builder, prefix string, from []*fromItem) {
	renderList(b, prefix, from, func(f *fromItem) { f.render(b) })
}

func renderClause(b *strings.Builder, prefix string, e *expr) {
	if e != nil {
		b.WriteString(prefix)
		e.render(b)
	}
}

func (s *selectStmt) render(b *strings.Builder) {
	renderWith(b, s.with, s.recursive)
	b.WriteString("SELECT ")
	if s.distinct {
		b.WriteString("DISTINCT ")
	}
	renderItems(b, "", s.items)
	renderFrom(b, " FROM ", s.from)
	renderClause(b, " WHERE ", s.where)
	renderList(b, " GROUP BY ", s.groupBy, func(g *expr) { g.render(b) })
	renderClause(b, " HAVING ", s.having)
	renderList(b, " WINDOW ", s.windows, func(w namedWindow) {
		b.WriteString(w.name + " AS (")
		w.spec.render(b)
		b.WriteString(")")
	})
	renderOrder(b, s.orderBy)
	renderLimit(b, s.limit, s.offset)
}

func (s *selectStmt) outCols() []outCol { return s.out }

// setStmt is UNION / INTERSECT / EXCEPT [ALL] of two queries, with its own
// ORDER BY and LIMIT. Operands are parenthesised, so precedence never
// depends on the engine.
type setStmt struct {
	with        []*cte
	recursive   bool
	op          string // "UNION", "UNION ALL", ...
	left, right query
	orderBy     []orderItem
	limit       int
	offset      int
	out         []outCol
}

func (s *setStmt) render(b *strings.Builder) {
	renderWith(b, s.with, s.recursive)
	b.WriteString("(")
	s.left.render(b)
	b.WriteString(") " + s.op + " (")
	s.right.render(b)
	b.WriteString(")")
	renderOrder(b, s.orderBy)
	renderLimit(b, s.limit, s.offset)
}

func (s *setStmt) outCols() []outCol { return s.out }

// rawQuery is a query kept as text: the recursive CTE bodies, whose shape
// must stay intact for the recursion to terminate.
type rawQuery struct {
	sql string
	out []outCol
}

func (r *rawQuery) render(b *strings.Builder) { b.WriteString(r.sql) }
func (r *rawQuery) outCols() []outCol         { return r.out }

func queryString(q query) string {
	var b strings.Builder
	q.render(&b)
	return b.String()
}

// fromKind says what a FROM item is.
type fromKind uint8

const (
	fTable  fromKind = iota // a table, view or CTE
	fSub                    // a derived table
	fValues                 // VALUES as a relation
	fSeries                 // generate_series
	fJoin
)

// fromItem is one item of a FROM list, or a join of two.
type fromItem struct {
	kind       fromKind
	name       string // table, view or CTE name
	alias      string // "" for a table referenced by its own name
	colAliases []string
	lateral    bool
	sub        query
	values     [][]*expr
	series     []*expr

	joinType    string // "JOIN", "LEFT JOIN", "CROSS JOIN", ...
	left, right *fromItem
	on          *expr
	using       []string
	natural     bool
}

func (f *fromItem) renderAlias(b *strings.Builder) {
	if f.alias != "" {
		b.WriteString(" AS " + f.alias)
	}
	if len(f.colAliases) > 0 {
		b.WriteString("(" + strings.Join(f.colAliases, ", ") + ")")
	}
}

func (f *fromItem) render(b *strings.Builder) {
	switch f.kind {
	case fTable:
		b.WriteString(f.name)
		f.renderAlias(b)
	case fSub:
		if f.lateral {
			b.WriteString("LATERAL ")
		}
		b.WriteString("(")
		f.sub.render(b)
		b.WriteString(")")
		f.renderAlias(b)
	case fValues:
		renderList(b, "(VALUES ", f.values, func(row []*expr) {
			renderList(b, "(", row, func(v *expr) { v.render(b) })
			b.WriteString(")")
		})
		b.WriteString(")")
		f.renderAlias(b)
	case fSeries:
		if f.lateral {
			b.WriteString("LATERAL ")
		}
		renderList(b, "generate_series(", f.series, func(a *expr) { a.render(b) })
		b.WriteString(")")
		f.renderAlias(b)
	case fJoin:
		// Joins nest to the left without parentheses, as people write
		// them; a join on the right is parenthesised.
		f.left.render(b)
		b.WriteString(" ")
		if f.natural {
			b.WriteString("NATURAL ")
		}
		b.WriteString(f.joinType + " ")
		if f.right.kind == fJoin {
			b.WriteString("(")
			f.right.render(b)
			b.WriteString(")")
		} else {
			f.right.render(b)
		}
		switch {
		case f.on != nil:
			b.WriteString(" ON ")
			f.on.render(b)
		case len(f.using) > 0:
			b.WriteString(" USING (" + strings.Join(f.using, ", ") + ")")
		}
	}
}
