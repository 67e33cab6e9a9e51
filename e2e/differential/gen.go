package differential

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// gen draws one statement at a time from the grammar, over a schema. Every
// statement is deterministic: no random(), no now(), no LIMIT without an
// ORDER BY that fixes which rows it keeps, no window function whose result
// depends on the order of peers unless its ORDER BY is total, no UPDATE
// ... FROM whose source can match a target row twice.
type gen struct {
	rng  *rand.Rand
	sch  *schema
	opts Options

	// Per statement.
	aliasN int
	quals  map[string]bool // qualifiers (aliases, bare table names) in use
	ctes   []*cte          // WITH items visible here
	tags   map[string]bool // the constructs the statement uses
	hints  []indexHint     // tables with partial or expression indexes in the FROM being drawn
}

func (g *gen) reset() {
	g.aliasN = 0
	g.quals = map[string]bool{}
	g.ctes = nil
	g.hints = nil
	g.tags = map[string]bool{}
}

func (g *gen) tag(t string) { g.tags[t] = true }

func (g *gen) n(k int) int { return g.rng.IntN(k) }

// chance is true with probability p percent.
func (g *gen) chance(p int) bool { return g.rng.IntN(100) < p }

func pick[T any](g *gen, xs []T) T { return xs[g.rng.IntN(len(xs))] }

// alias is a new name, unique in the statement: for relations, output
// columns and CTEs alike, so no name ever shadows another.
func (g *gen) alias(prefix string) string {
	g.aliasN++
	return fmt.Sprintf("%s%d", prefix, g.aliasN)
}

// ---------------------------------------------------------------- literals

func (g *gen) literal(t typ) *expr {
	if g.chance(4) {
		return leaf(tNull, "NULL")
	}
	return g.literalNotNull(t)
}

func (g *gen) literalNotNull(t typ) *expr {
	v := pick(g, domain(t))
	switch t.class() {
	case cInt:
		if t == tInt8 && len(v) > 9 {
			return leaf(tInt8, v)
		}
		return leaf(tInt4, v)
	case cFloat:
		if strings.HasPrefix(v, "-") {
			return leaf(tFloat8, "("+v+"::float8)")
		}
		return leaf(tFloat8, v+"::float8")
	case cText:
		return leaf(tText, "'"+strings.ReplaceAll(v, "'", "''")+"'")
	case cBool:
		if v == "t" {
			return leaf(tBool, "true")
		}
		return leaf(tBool, "false")
	case cDate:
		return leaf(tDate, "DATE '"+v+"'")
	case cTimestamp:
		return leaf(tTimestamp, "TIMESTAMP '"+v+"'")
	case cEnum:
		return leaf(tEnum, "CAST('"+v+"' AS "+enumName+")")
	}
	return leaf(tNull, "NULL")
}

// typedLiteral is a literal whose NULL is typed: an operand of an operator
// or a function, where an untyped NULL is ambiguous.
func (g *gen) typedLiteral(t typ) *expr {
	if g.chance(4) {
		return typedNull(t)
	}
	return g.literalNotNull(t)
}

// isNull: e is a NULL literal, typed or not.
func isNull(e *expr) bool {
	return e.tmpl == "NULL" || strings.HasPrefix(e.tmpl, "CAST(NULL AS ")
}

// typedNull is a NULL of type t, for places where an untyped NULL would
// change the result type.
func typedNull(t typ) *expr { return leaf(t, "CAST(NULL AS "+t.sql()+")") }

// ------------------------------------------------------------- expressions

// ectx is where an expression is generated.
type ectx struct {
	sc    *scope
	depth int  // subqueries left
	aggOK bool // aggregates allowed (the select list or HAVING of a grouped query)
	inAgg bool // inside an aggregate's argument
	winOK bool // window functions allowed (a select list)
	win   *winCtx
	// topList: the select list of the statement itself (not below an
	// aggregate, a CASE, a coalesce).
	topList bool
}

func (c ectx) noAgg() ectx { c.aggOK = false; c.winOK = false; return c }

// col picks a column of class k visible here or, now and then, in an
// outer level (a correlated reference). nil when there is none.
func (g *gen) col(c ectx, k class) *expr {
	var cands []scopeCol
	for _, sc := range c.sc.local(c.inAgg) {
		if sc.t.class() == k {
			cands = append(cands, sc)
		}
	}
	// Outer references: never inside an aggregate, whose level would
	// then be the outer query's.
	if !c.inAgg && c.sc.parent != nil && (len(cands) == 0 || g.chance(15)) {
		var outer []scopeCol
		for p := c.sc.parent; p != nil; p = p.parent {
			for _, oc := range p.outer() {
				if oc.t.class() == k {
					outer = append(outer, oc)
				}
			}
		}
		if len(outer) > 0 {
			g.tag("subquery.correlated")
			oc := pick(g, outer)
			return leaf(oc.t, oc.ref)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	sc := pick(g, cands)
	return leaf(sc.t, sc.ref)
}

// classes present in a scope, to steer predicates to columns that exist.
func (g *gen) someClass(c ectx) class {
	cols := c.sc.local(c.inAgg)
	if len(cols) > 0 && g.chance(85) {
		return pick(g, cols).t.class()
	}
	return pick(g, []class{cInt, cInt, cFloat, cText, cBool, cDate, cTimestamp})
}

// expr draws an expression of class k.
func (g *gen) expr(c ectx, k class, depth int) *expr {
	if k == cBool {
		return g.pred(c, depth)
	}
	top := c.topList
	c.topList = false
	if depth <= 0 || g.chance(45) {
		if e := g.col(c, k); e != nil && g.chance(80) {
			return e
		}
		return g.typedLiteral(repType(k))
	}
	switch r := g.n(100); {
	case r < 8 && c.aggOK && !c.inAgg:
		return g.aggregate(c, k)
	case r < 14 && c.winOK && c.win != nil:
		if e := g.window(c, k); e != nil {
			return e
		}
	case r < 20 && c.depth > 0:
		c.topList = top
		return g.scalarSubquery(c, k)
	case r < 27:
		g.tag("expr.case")
		if g.chance(50) {
			a, b := g.expr(c, k, depth-1), g.expr(c, k, depth-1)
			return mk(unify(a.t, b.t), "CASE WHEN $1 THEN $2 ELSE $3 END", g.pred(c, depth-1), a, b)
		}
		a := g.expr(c, k, depth-1)
		return mk(a.t, "CASE WHEN $1 THEN $2 END", g.pred(c, depth-1), a)
	case r < 33:
		return g.coalesce(g.expr(c, k, depth-1), g.expr(c, k, depth-1))
	}
	switch k {
	case cInt:
		return g.intExpr(c, depth)
	case cFloat:
		return g.floatExpr(c, depth)
	case cText:
		return g.textExpr(c, depth)
	case cDate:
		g.tag("expr.date-arithmetic")
		if g.chance(50) {
			return mk(tDate, "($1 + $2)", g.expr(c, cDate, depth-1), leaf(tInt4, fmt.Sprint(g.n(5))))
		}
		return mk(tDate, "($1 - $2)", g.expr(c, cDate, depth-1), leaf(tInt4, fmt.Sprint(g.n(5))))
	case cTimestamp:
		return mk(tTimestamp, "CAST($1 AS timestamp)", g.expr(c, cDate, depth-1))
	}
	return g.typedLiteral(repType(k))
}

// coalesce is coalesce(a, b).
func (g *gen) coalesce(a, b *expr) *expr {
	return mk(unify(a.t, b.t), "coalesce($1, $2)", a, b)
}

func repType(k class) typ {
	switch k {
	case cInt:
		return tInt4
	case cFloat:
		return tFloat8
	case cText:
		return tText
	case cBool:
		return tBool
	case cDate:
		return tDate
	case cTimestamp:
		return tTimestamp
	case cEnum:
		return tEnum
	}
	return tNull
}

func (g *gen) intExpr(c ectx, depth int) *expr {
	if g.chance(10) {
		return g.precValue(c, cInt)
	}
	a := g.expr(c, cInt, depth-1)
	switch g.n(9) {
	case 0, 1:
		b := g.expr(c, cInt, depth-1)
		return mk(intResult(a.t, b.t), "($1 + $2)", a, b)
	case 2:
		b := g.expr(c, cInt, depth-1)
		return mk(intResult(a.t, b.t), "($1 - $2)", a, b)
	case 3:
		return mk(intResult(a.t, tInt4), "($1 * $2)", a, leaf(tInt4, fmt.Sprint(g.n(4)-1)))
	case 4:
		return mk(a.t, "(- $1)", a)
	case 5:
		return mk(a.t, "abs($1)", a)
	case 6:
		op := pick(g, []string{"/", "%"})
		return mk(intResult(a.t, tInt4), "($1 "+op+" $2)", a, leaf(tInt4, fmt.Sprint(1+g.n(3))))
	case 7:
		if g.chance(40) {
			g.tag("expr.function")
			if g.chance(50) {
				return mk(tInt4, "df_inc(CAST($1 AS integer))", a)
			}
			return mk(tInt8, "df_clamp(CAST($1 AS bigint), -5, 5)", a)
		}
		return mk(tInt4, "length($1)", g.expr(c, cText, depth-1))
	default:
		if g.chance(50) {
			g.tag("expr.date-arithmetic")
			return mk(tInt4, "($1 - $2)", g.expr(c, cDate, depth-1), g.expr(c, cDate, depth-1))
		}
		return mk(tInt8, g.castSpelling("bigint", "int8"), a)
	}
}

func (g *gen) floatExpr(c ectx, depth int) *expr {
	if g.chance(10) {
		return g.precValue(c, cFloat)
	}
	a := g.expr(c, cFloat, depth-1)
	switch g.n(6) {
	case 0, 1:
		b := g.expr(c, pick(g, []class{cFloat, cInt}), depth-1)
		return mk(tFloat8, "($1 + $2)", a, b)
	case 2:
		b := g.expr(c, cFloat, depth-1)
		return mk(tFloat8, "($1 - $2)", a, b)
	case 3:
		return mk(tFloat8, "($1 * 0.5::float8)", a)
	case 4:
		return mk(tFloat8, "abs($1)", a)
	default:
		return mk(tFloat8, g.castSpelling("double precision", "float8"), g.expr(c, cInt, depth-1))
	}
}

// castSpelling is a cast of $1 to a type, as CAST($1 AS name) or as
// $1::short: the front end respells "::" itself, and the wrappers around
// an operand (DESC and NULLS in an ORDER BY key, IS DISTINCT FROM) must
// stay outside that respelling.
func (g *gen) castSpelling(name, short string) string {
	if g.chance(50) {
		g.tag("expr.cast-postfix")
		return "$1::" + short
	}
	return "CAST($1 AS " + name + ")"
}

func (g *gen) textExpr(c ectx, depth int) *expr {
	if g.chance(10) {
		return g.precValue(c, cText)
	}
	switch g.n(5) {
	case 0:
		return mk(tText, "lower($1)", g.expr(c, cText, depth-1))
	case 1:
		if g.chance(30) {
			g.tag("expr.function")
			return mk(tText, "df_tag($1)", g.expr(c, cText, depth-1))
		}
		return mk(tText, "upper($1)", g.expr(c, cText, depth-1))
	case 2:
		if e := g.col(c, cEnum); e != nil && g.chance(50) {
			g.tag("expr.enum-text")
			return mk(tText, g.castSpelling("text", "text"), e)
		}
		return mk(tText, g.castSpelling("text", "text"), g.expr(c, cInt, depth-1))
	default:
		return mk(tText, "($1 || $2)", g.expr(c, cText, depth-1), g.expr(c, cText, depth-1))
	}
}

// pred draws a boolean expression.
func (g *gen) pred(c ectx, depth int) *expr {
	if depth <= 0 {
		return g.comparison(c, 0)
	}
	r := g.n(100)
	if c.depth <= 0 && r >= 80 {
		r = g.n(80) // no subqueries left
	}
	switch {
	case r < 6:
		return g.precPred(c)
	case r < 28:
		return g.comparison(c, depth-1)
	case r < 34:
		k := g.someClass(c)
		e := g.expr(c, k, depth-1)
		return mk(tBool, pick(g, []string{"($1 IS NULL)", "($1 IS NOT NULL)"}), e)
	case r < 37:
		k := g.someClass(c)
		g.tag("expr.is-distinct")
		op := pick(g, []string{"IS DISTINCT FROM", "IS NOT DISTINCT FROM"})
		a, b := g.expr(c, k, depth-1), g.expr(c, k, depth-1)
		return mk(tBool, "($1 "+op+" $2)", a, b)
	case r < 41:
		k := g.someClass(c)
		if k == cBool {
			k = cInt
		}
		return mk(tBool, pick(g, []string{"($1 BETWEEN $2 AND $3)", "($1 NOT BETWEEN $2 AND $3)"}), g.expr(c, k, depth-1), g.literal(repType(k)), g.literal(repType(k)))
	case r < 49:
		k := g.someClass(c)
		n := 1 + g.n(4)
		args := []*expr{g.expr(c, k, depth-1)}
		var ph []string
		for i := 0; i < n; i++ {
			args = append(args, g.literal(repType(k)))
			ph = append(ph, fmt.Sprintf("$%d", i+2))
		}
		op := "IN"
		if g.chance(40) {
			op = "NOT IN"
		}
		g.tag("expr.in-list")
		return mk(tBool, "($1 "+op+" ("+strings.Join(ph, ", ")+"))", args...)
	case r < 50 && g.chance(50):
		g.tag("expr.function")
		return mk(tBool, "df_pos(CAST($1 AS double precision))", g.expr(c, pick(g, []class{cFloat, cInt}), depth-1))
	case r < 52:
		pat := pick(g, []string{"'a%'", "'%b%'", "'_'", "'a_c'", "'%'", "'B%'"})
		op := pick(g, []string{"LIKE", "NOT LIKE", "ILIKE"})
		return mk(tBool, "($1 "+op+" "+pat+")", g.expr(c, cText, depth-1))
	case r < 56:
		if e := g.col(c, cBool); e != nil {
			return mk(tBool, pick(g, []string{"$1", "(NOT $1)", "($1 IS TRUE)", "($1 IS NOT FALSE)", "($1 IS FALSE)"}), e)
		}
		return g.comparison(c, depth-1)
	case r < 68:
		return mk(tBool, "($1 AND $2)", g.pred(c, depth-1), g.pred(c, depth-1))
	case r < 77:
		return mk(tBool, "($1 OR $2)", g.pred(c, depth-1), g.pred(c, depth-1))
	case r < 80:
		return mk(tBool, "(NOT $1)", g.pred(c, depth-1))
	case r < 86:
		return g.inSubquery(c, depth)
	case r < 93:
		return g.exists(c)
	default:
		return g.quantified(c, depth)
	}
}

func (g *gen) comparison(c ectx, depth int) *expr {
	k := g.someClass(c)
	if k == cBool && g.chance(50) {
		k = cInt
	}
	a := g.expr(c, k, depth)
	bk := k
	if k == cInt && g.chance(15) {
		bk = cFloat
	}
	b := g.expr(c, bk, depth)
	op := pick(g, []string{"=", "=", "<>", "<", "<=", ">", ">="})
	return mk(tBool, "($1 "+op+" $2)", a, b)
}

// ---------------------------------------------------------- subqueries

// sub generates a subquery one level below c.
func (g *gen) sub(c ectx, sh shape) query {
	return g.query(c.sc, c.depth-1, sh)
}

func (g *gen) scalarSubquery(c ectx, k class) *expr {
	g.tag("subquery.scalar")
	sh := shape{want: []class{k}, oneRow: true}
	if c.topList && g.chance(8) {
		// Unrestricted: may return more than one row, which is 21000 on
		// both sides. Only in the statement's own select list, which is
		// evaluated for every row it returns: elsewhere PostgreSQL may
		// never evaluate it (a column nobody reads, a conjunct after a
		// false one), and whether it fails depends on the plan.
		sh.oneRow = false
		g.tag("subquery.scalar-multirow")
	}
	q := g.sub(c, sh)
	e := &expr{t: q.outCols()[0].t, tmpl: "(" + subMark + ")", sub: q}
	return e
}

func (g *gen) inSubquery(c ectx, depth int) *expr {
	k := g.someClass(c)
	q := g.sub(c, shape{want: []class{k}})
	op := "IN"
	if g.chance(40) {
		op = "NOT IN"
		g.tag("subquery.not-in")
	} else {
		g.tag("subquery.in")
	}
	e := mk(tBool, "($1 "+op+" ("+subMark+"))", g.expr(c, k, depth-1))
	e.sub = q
	return e
}

func (g *gen) exists(c ectx) *expr {
	q := g.sub(c, shape{exists: true})
	not := ""
	if g.chance(35) {
		not = "NOT "
		g.tag("subquery.not-exists")
	} else {
		g.tag("subquery.exists")
	}
	return &expr{t: tBool, tmpl: "(" + not + "EXISTS (" + subMark + "))", sub: q}
}

func (g *gen) quantified(c ectx, depth int) *expr {
	k := g.someClass(c)
	q := g.sub(c, shape{want: []class{k}})
	op := pick(g, []string{"=", "<>", "<", "<=", ">", ">="})
	quant := pick(g, []string{"ANY", "ALL", "SOME"})
	g.tag("subquery.quantified")
	e := mk(tBool, "($1 "+op+" "+quant+" ("+subMark+"))", g.expr(c, k, depth-1))
	e.sub = q
	return e
}

// ---------------------------------------------------------- aggregates

// aggregate draws an aggregate call of class k. avg, stddev and variance
// of integers and sum of bigint are numeric in PostgreSQL, which zproxy
// does not have yet (it returns double precision): they are cast to
// float8 (or sum(bigint) to bigint) on both sides, the one intended
// difference the comparison normalises.
func (g *gen) aggregate(c ectx, k class) *expr {
	ac := c
	ac.inAgg, ac.aggOK, ac.winOK = true, false, false
	ac.depth = 0 // no subqueries inside aggregates
	var e *expr
	switch k {
	case cInt:
		switch g.n(6) {
		case 0:
			e = leaf(tInt8, "count(*)")
		case 1:
			e = mk(tInt8, "count($1)", g.expr(ac, g.someClass(ac), 1))
		case 2:
			g.tag("aggregate.distinct")
			e = mk(tInt8, "count(DISTINCT $1)", g.expr(ac, g.someClass(ac), 1))
		case 3, 4:
			a := g.expr(ac, cInt, 1)
			if a.t == tInt8 {
				e = mk(tInt8, "CAST(sum($1) AS bigint)", a)
			} else {
				e = mk(tInt8, "sum($1)", a)
			}
		default:
			a := g.expr(ac, cInt, 1)
			e = mk(a.t, pick(g, []string{"min($1)", "max($1)"}), a)
		}
	case cFloat:
		switch g.n(6) {
		case 0:
			e = mk(tFloat8, "CAST(avg($1) AS double precision)", g.expr(ac, cInt, 1))
		case 1:
			e = mk(tFloat8, "avg($1)", g.expr(ac, cFloat, 1))
		case 2:
			e = mk(tFloat8, "sum($1)", g.expr(ac, cFloat, 1))
		case 3:
			fn := pick(g, []string{"stddev", "variance", "stddev_pop", "var_pop", "stddev_samp", "var_samp"})
			if g.chance(50) {
				e = mk(tFloat8, "CAST("+fn+"($1) AS double precision)", g.expr(ac, cInt, 1))
			} else {
				e = mk(tFloat8, fn+"($1)", g.expr(ac, cFloat, 1))
			}
		default:
			a := g.expr(ac, cFloat, 1)
			e = mk(a.t, pick(g, []string{"min($1)", "max($1)"}), a)
		}
	case cText:
		a := g.expr(ac, cText, 1)
		if g.chance(40) {
			g.tag("aggregate.string_agg")
			e = mk(tText, "string_agg($1, ',' ORDER BY $1)", a)
		} else {
			e = mk(tText, pick(g, []string{"min($1)", "max($1)"}), a)
		}
	case cBool:
		e = mk(tBool, pick(g, []string{"bool_and($1)", "bool_or($1)", "every($1)"}), g.pred(ac, 1))
	default:
		a := g.expr(ac, k, 1)
		e = mk(a.t, pick(g, []string{"min($1)", "max($1)"}), a)
	}
	if g.chance(8) && !strings.Contains(e.tmpl, "ORDER BY") {
		// FILTER goes inside the cast, right after the call.
		g.tag("aggregate.filter")
		e = addFilter(e, g.pred(ac, 1))
	}
	e.agg = true
	g.tag("aggregate")
	return e
}

// addFilter appends FILTER (WHERE p) to the aggregate call in e.
func addFilter(e *expr, p *expr) *expr {
	i := strings.LastIndex(e.tmpl, ")")
	if strings.HasPrefix(e.tmpl, "CAST(") {
		i = strings.Index(e.tmpl, ") AS ")
	}
	n := len(e.args)
	tmpl := e.tmpl[:i+1] + " FILTER (WHERE " + arg(n) + ")" + e.tmpl[i+1:]
	return &expr{t: e.t, tmpl: tmpl, args: append(slices.Clone(e.args), p)}
}
