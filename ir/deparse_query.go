package ir

import (
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/catalog"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// DeparseQuery prints a bound view query as PostgreSQL's pg_get_viewdef
// prints the view's rule (ruleutils' get_query_def in its indenting mode):
// " SELECT" and one target per line, FROM, WHERE, GROUP BY, HAVING, ORDER
// BY and LIMIT each on a line of their own, every column qualified by its
// relation's name or alias, and the whole ended by a semicolon. names are
// the view's column names (nil: the query's own). ok is false for a shape
// it does not print faithfully (a subquery, a set operation, a window,
// DISTINCT ON...); the caller then prints the query as written.
func DeparseQuery(rel Rel, names []string, pretty bool) (string, bool) {
	if text, ok, setop := deparseSetOp(rel, names, pretty); setop {
		return text, ok
	}
	text, ok := deparseSelect(rel, names, pretty, 0)
	return text + ";", ok
}

// deparseSetOp prints a set operation's query as ruleutils'
// get_setop_query does: each SELECT as DeparseQuery prints one, with
// the view's column names, the operator on a line of its own, and the
// whole query's ORDER BY (by column number) and LIMIT after the last.
// setop is false when rel is no set operation. ok is false for a shape
// it does not print faithfully: an operand that is no plain SELECT (one
// with its own ORDER BY or LIMIT, a subquery...).
func deparseSetOp(rel Rel, names []string, pretty bool) (text string, ok, setop bool) {
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
	if names == nil {
		for _, c := range op.Cols {
			names = append(names, c.Name)
		}
	}
	d := &deparser{pretty: pretty}
	if !d.setOperation(op, names) {
		return "", false, true
	}
	d.indent = 8 // ORDER BY and LIMIT as after a SELECT
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
	d.w(";")
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
		text, ok := deparseSelect(r, names, d.pretty, d.indent)
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
	if !d.setOperation(x.Right, names) {
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
	if col && !isAgg {
		d.expr(e)
		return
	}
	need := d.pretty || isAgg || funcCall(e)
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
func deparseSelect(rel Rel, names []string, pretty bool, indent int) (string, bool) {
	q, ok := splitQuery(rel)
	if !ok {
		return "", false
	}
	d := &deparser{pretty: pretty}
	from, ok := fromColumns(q.from)
	if !ok {
		return "", false
	}
	// The select list reads the FROM row, or the aggregate's row: its
	// group keys, then its aggregates.
	input := from
	if q.agg != nil {
		input = nil
		for _, g := range q.agg.GroupBy {
			text, ok := deparseOver(g, from, pretty)
			if !ok {
				return "", false
			}
			input = append(input, text)
		}
		for i := range q.agg.Aggs {
			text, ok := deparseAgg(&q.agg.Aggs[i], from, pretty)
			if !ok {
				return "", false
			}
			input = append(input, text)
		}
	}
	d.cols = func(i int) (string, bool) {
		if i < 0 || i >= len(input) {
			return "", false
		}
		return input[i], true
	}
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
	d.cols = func(i int) (string, bool) {
		if i < 0 || i >= len(from) {
			return "", false
		}
		return from[i], true
	}
	if q.where != nil {
		d.keyword(" WHERE ", -8, 8, 1)
		d.expr(q.where)
	}
	if q.agg != nil && len(q.agg.GroupBy) > 0 {
		if q.agg.GroupingSets != nil {
			return "", false
		}
		d.keyword(" GROUP BY ", -8, 8, 1)
		for i, g := range q.agg.GroupBy {
			if i > 0 {
				d.w(", ")
			}
			if _, ok := g.(*ColRef); !ok {
				return "", false
			}
			d.expr(g)
		}
	}
	d.cols = func(i int) (string, bool) {
		if i < 0 || i >= len(input) {
			return "", false
		}
		return input[i], true
	}
	if q.having != nil {
		d.keyword(" HAVING ", -8, 8, 0)
		d.expr(q.having)
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
	return d.b.String(), !d.failed
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

// sameColumn reports whether a qualified column's text names column name.
func sameColumn(text, name string) bool {
	i := strings.LastIndexByte(text, '.')
	return i >= 0 && text[i+1:] == sqltypes.QuoteIdent(name)
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
	having  Expr
	agg     *Aggregate
	where   Expr
	from    Rel
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
func fromColumns(rel Rel) ([]string, bool) {
	if noFrom(rel) {
		return nil, true
	}
	switch x := rel.(type) {
	case *Scan:
		ref := refName(x)
		out := make([]string, len(x.Table.Columns))
		for i, c := range x.Table.Columns {
			out[i] = ref + "." + sqltypes.QuoteIdent(c.Name)
		}
		return out, true
	case *Join:
		if x.Kind > FullJoin || x.Lateral {
			return nil, false
		}
		l, ok := fromColumns(x.Left)
		if !ok {
			return nil, false
		}
		r, ok := fromColumns(x.Right)
		if !ok {
			return nil, false
		}
		return append(append([]string(nil), l...), r...), true
	}
	return nil, false
}

func refName(s *Scan) string {
	if s.Alias != "" {
		return sqltypes.QuoteIdent(s.Alias)
	}
	return sqltypes.QuoteIdent(s.Table.BareName())
}

// fromItem prints a FROM tree: a list of relations (a cross join without
// a condition, as the binder makes of FROM a, b) or joins, each JOIN on a
// line of its own and, unless pretty, in parentheses.
func (d *deparser) fromItem(rel Rel, cols []string, top bool) bool {
	switch x := rel.(type) {
	case *Scan:
		// Qualified outside public (the catalog's key is schema.name).
		d.w(catalog.QuoteKey(x.Table.Name))
		if x.Alias != "" && x.Alias != x.Table.BareName() {
			d.w(" " + sqltypes.QuoteIdent(x.Alias))
		}
		return true
	case *Join:
		if x.Kind == InnerJoin && x.On == nil {
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
		d.open()
		if !d.fromItem(x.Left, cols, false) {
			return false
		}
		kw := map[JoinKind]string{InnerJoin: " JOIN ", LeftJoin: " LEFT JOIN ", RightJoin: " RIGHT JOIN ", FullJoin: " FULL JOIN "}[x.Kind]
		d.keyword(kw, -8, 8, 4)
		if !d.fromItem(x.Right, cols, false) {
			return false
		}
		d.w(" ON ")
		d.open()
		prev := d.cols
		d.cols = func(i int) (string, bool) {
			if i < 0 || i >= len(cols) {
				return "", false
			}
			return cols[i], true
		}
		d.expr(x.On)
		d.cols = prev
		d.close()
		d.close()
		return true
	}
	return false
}

// DeparseOver is DeparseMode for an expression over a row whose columns
// print as cols (a domain CHECK's one column prints as VALUE).
func DeparseOver(e Expr, cols []string, pretty bool) (string, bool) {
	return deparseOver(e, cols, pretty)
}

// deparseOver prints e over a row whose columns print as cols.
func deparseOver(e Expr, cols []string, pretty bool) (string, bool) {
	d := &deparser{pretty: pretty, cols: func(i int) (string, bool) {
		if i < 0 || i >= len(cols) {
			return "", false
		}
		return cols[i], true
	}}
	d.expr(e)
	return d.b.String(), !d.failed
}

// deparseAgg prints an aggregate call: count(*), sum(t.x), count(DISTINCT
// t.x); one with FILTER, ORDER BY or grouping() is not printed.
func deparseAgg(a *AggCall, cols []string, pretty bool) (string, bool) {
	if a.Filter != nil || len(a.OrderBy) > 0 || a.Grouping != nil {
		return "", false
	}
	if a.Func == AggCountStar {
		return "count(*)", true
	}
	args := a.Args
	if len(args) == 0 && a.Arg != nil {
		args = []Expr{a.Arg}
	}
	var parts []string
	for _, e := range args {
		text, ok := deparseOver(e, cols, pretty)
		if !ok {
			return "", false
		}
		parts = append(parts, text)
	}
	distinct := ""
	if a.Distinct {
		distinct = "DISTINCT "
	}
	return sqltypes.QuoteKey(string(a.Func)) + "(" + distinct + strings.Join(parts, ", ") + ")", true
}
