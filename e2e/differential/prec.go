package differential

import (
	"fmt"
	"slices"
	"strings"
)

// The templates of gen.go put parentheses around every operator, so their
// meaning never depends on how a parser groups operators. The expressions
// here leave them out: how they group is PostgreSQL 15's precedence and
// associativity (gram.y, loosest first: OR, AND, NOT, IS / ISNULL /
// NOTNULL, comparisons, BETWEEN / IN / LIKE / ILIKE / SIMILAR, ESCAPE,
// other operators such as ||, + -, * / %, ^, unary minus, ::), which the
// front end must keep when it respells a statement for TiDB's MySQL
// grammar, where || is concatenation only by a mode, ^ is XOR, LIKE's
// pattern is a simple expression and IS binds with the comparisons. Each
// such expression is parenthesized as a whole, so nothing around it
// depends on its grouping; inside, its operands are leaves (columns,
// literals), so the minimiser, which turns an operand into NULL, keeps the
// operators where they were. Only forms PostgreSQL accepts are drawn: no
// comparison or IS applies to the result of another (both are
// non-associative there).

// flat is an unparenthesized expression being written: its text, with its
// leaves as operands.
type flat struct {
	b    strings.Builder
	args []*expr
	int8 bool // an operand or a cast makes the arithmetic bigint
	pow  bool // a ^ makes it double precision
}

func (f *flat) s(parts ...string) {
	for _, p := range parts {
		f.b.WriteString(p)
	}
}

func (f *flat) leaf(e *expr) {
	f.b.WriteString(arg(len(f.args)))
	f.args = append(f.args, e)
}

// done is the expression, parenthesized as a whole.
func (f *flat) done(t typ) *expr {
	return &expr{t: t, tmpl: "(" + f.b.String() + ")", args: f.args}
}

// numType is the type of the arithmetic written into f.
func (f *flat) numType() typ {
	switch {
	case f.pow:
		return tFloat8
	case f.int8:
		return tInt8
	}
	return tInt4
}

// precNumAtom is an integer column or a small literal; bigint ones left
// out where noInt8 (a multiplier, or the base of a ^, whose powers of
// 4000000000 could round differently in PostgreSQL's pow and Go's).
func (g *gen) precNumAtom(c ectx, f *flat, noInt8 bool) {
	if e := g.col(c, cInt); e != nil && g.chance(65) && !(noInt8 && e.t == tInt8) {
		f.int8 = f.int8 || e.t == tInt8
		f.leaf(e)
		return
	}
	f.leaf(leaf(tInt4, pick(g, []string{"0", "1", "2", "3", "7", "10"})))
}

// precArith writes n terms of integer arithmetic: + - * / %, unary minus,
// ^ (left-associative, below unary minus: - 2 ^ 2 is 4) and ::bigint.
// Divisors are positive literals; no % once a ^ made the value double
// precision (there is no double precision % in PostgreSQL); no bigint
// multiplier, as a product of two could overflow, and whether an error is
// raised would then depend on which rows each server evaluates it on.
func (g *gen) precArith(c ectx, f *flat, n int, powOK bool) {
	for i := 0; i < n; i++ {
		noInt8 := false
		if i > 0 {
			ops := []string{"+", "-", "*", "+", "-", "/", "%"}
			if f.pow {
				ops = ops[:6]
			}
			op := pick(g, ops)
			f.s(" ", op, " ")
			if op == "/" || op == "%" {
				f.leaf(leaf(tInt4, fmt.Sprint(1+g.n(3))))
				continue
			}
			noInt8 = op == "*"
		}
		if g.chance(20) {
			g.tag("prec.unary-minus")
			f.s("- ")
		}
		switch {
		case powOK && g.chance(20):
			g.tag("prec.pow")
			g.precNumAtom(c, f, true)
			f.s(" ^ ", fmt.Sprint(1+g.n(3)))
			if g.chance(30) {
				f.s(" ^ ", fmt.Sprint(1+g.n(2)))
			}
			f.pow = true
		case g.chance(10):
			g.tag("prec.cast")
			g.precNumAtom(c, f, noInt8)
			f.s("::int8")
			f.int8 = true
		default:
			g.precNumAtom(c, f, noInt8)
		}
	}
}

// precTextAtom is a text column, a text literal, or an integer cast with
// :: (which binds tighter than everything around it).
func (g *gen) precTextAtom(c ectx, f *flat) {
	switch r := g.n(100); {
	case r < 15:
		g.tag("prec.cast")
		g.precNumAtom(c, f, false)
		f.s("::text")
	case r < 65:
		if e := g.col(c, cText); e != nil {
			f.leaf(e)
			return
		}
		fallthrough
	default:
		f.leaf(g.literalNotNull(tText))
	}
}

// precConcat writes n operands joined by ||, some of them integer
// arithmetic, which binds tighter: 'x' || a + 1 is 'x' || (a + 1). One of
// the first two is text, as text || integer and integer || text are
// operators and integer || integer is not.
func (g *gen) precConcat(c ectx, f *flat, n int) {
	text := g.n(min(2, n))
	for i := 0; i < n; i++ {
		if i > 0 {
			f.s(" || ")
		}
		if i == text || g.chance(55) {
			g.precTextAtom(c, f)
			continue
		}
		g.tag("prec.concat-arith")
		g.precArith(c, f, 1+g.n(2), false)
	}
}

// precOperand writes an operand of a comparison, BETWEEN or IN: integer
// arithmetic (num) or a concatenation.
func (g *gen) precOperand(c ectx, f *flat, num bool) {
	if num {
		g.precArith(c, f, 1+g.n(3), true)
		return
	}
	g.precConcat(c, f, 1+g.n(3))
}

// The patterns' literals: LIKE's wildcards and, with ESCAPE '!', escaped
// ones; SIMILAR TO's alternation too.
var (
	likePats    = []string{"'%'", "'_'", "'a'", "'a%'", "'%b'", "'%a_'", "''"}
	likeEscPats = []string{"'!%'", "'!_'", "'a!%'", "'%!_%'"}
	similarPats = []string{"'%'", "'_'", "'a'", "'b%'", "'(a|b)'", "'%(c|_)'"}
)

// precPattern writes subject [NOT] LIKE | ILIKE | SIMILAR TO pattern
// [ESCAPE '!'], the subject and the pattern concatenations: the pattern
// extends over || (and ESCAPE takes what follows it), the subject too.
func (g *gen) precPattern(c ectx, f *flat) {
	op := pick(g, []string{"LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE", "SIMILAR TO", "NOT SIMILAR TO"})
	g.tag("prec." + strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(op, "NOT "), " ", "-")))
	g.precConcat(c, f, 1+g.n(2))
	f.s(" ", op, " ")
	pats := likePats
	if strings.HasSuffix(op, "SIMILAR TO") {
		pats = similarPats
	}
	esc := g.chance(25)
	if esc {
		g.tag("prec.escape")
		pats = append(slices.Clone(likeEscPats), pats...)
	}
	for i, n := 0, 1+g.n(3); i < n; i++ {
		if i > 0 {
			f.s(" || ")
		}
		if g.chance(60) {
			f.leaf(leaf(tText, pick(g, pats)))
		} else {
			g.precTextAtom(c, f)
		}
	}
	if esc {
		f.s(" ESCAPE '!'")
	}
}

// precTerm writes a boolean that binds tighter than NOT: a comparison,
// pattern, BETWEEN, IN or IS of operator chains.
func (g *gen) precTerm(c ectx, f *flat) { g.precForm(c, f, precTerms) }

// precBase writes a precTerm that is no IS: what an IS applies to (IS is
// non-associative, x IS NULL IS NULL a syntax error).
func (g *gen) precBase(c ectx, f *flat) { g.precForm(c, f, precBaseTerms) }

func (g *gen) precForm(c ectx, f *flat, forms []precTermForm) {
	form := pick(g, forms)
	g.tag("prec." + form.tag)
	form.draw(g, c, f, g.chance(50))
}

// precTermForm draws a form of precTerm, of integer operands (num) or text
// ones.
type precTermForm struct {
	tag  string
	draw func(g *gen, c ectx, f *flat, num bool)
}

var precTerms = append(slices.Clone(precBaseTerms), precIsTerms...)

// precBaseTerms are the forms of precBase.
var precBaseTerms = []precTermForm{
	{"compare", func(g *gen, c ectx, f *flat, num bool) {
		g.precOperand(c, f, num)
		f.s(" ", pick(g, []string{"=", "<", "<>", ">=", "<=", ">"}), " ")
		g.precOperand(c, f, num)
	}},
	{"pattern", func(g *gen, c ectx, f *flat, num bool) { g.precPattern(c, f) }},
	{"between", func(g *gen, c ectx, f *flat, num bool) {
		g.precOperand(c, f, num)
		f.s(pick(g, []string{" BETWEEN ", " NOT BETWEEN "}))
		g.precOperand(c, f, num)
		f.s(" AND ")
		g.precOperand(c, f, num)
	}},
	{"in-list", func(g *gen, c ectx, f *flat, num bool) {
		g.precOperand(c, f, num)
		f.s(pick(g, []string{" IN (", " NOT IN ("}))
		for i, n := 0, 1+g.n(3); i < n; i++ {
			if i > 0 {
				f.s(", ")
			}
			g.precOperand(c, f, num)
		}
		f.s(")")
	}},
}

// precIsTerms are the forms of precTerm that apply an IS.
var precIsTerms = []precTermForm{
	// IS applies to a comparison or a pattern as well as to a chain:
	// a + 1 = b IS NULL is (a + 1 = b) IS NULL; ISNULL and NOTNULL are
	// its postfix spellings.
	{"is-null", func(g *gen, c ectx, f *flat, num bool) {
		if g.chance(50) {
			g.precOperand(c, f, num)
		} else {
			g.precBase(c, f)
		}
		f.s(pick(g, []string{" IS NULL", " IS NOT NULL", " ISNULL", " NOTNULL"}))
	}},
	{"is-truth", func(g *gen, c ectx, f *flat, num bool) {
		g.precBase(c, f)
		f.s(pick(g, []string{" IS TRUE", " IS NOT TRUE", " IS FALSE", " IS NOT FALSE", " IS UNKNOWN", " IS NOT UNKNOWN"}))
	}},
	// Both sides chains, or both comparisons or patterns: IS DISTINCT
	// FROM's right operand takes a comparison whole.
	{"is-distinct", func(g *gen, c ectx, f *flat, num bool) {
		op := pick(g, []string{" IS DISTINCT FROM ", " IS NOT DISTINCT FROM "})
		if g.chance(60) {
			g.precOperand(c, f, num)
			f.s(op)
			g.precOperand(c, f, num)
			return
		}
		g.precBase(c, f)
		f.s(op)
		g.precBase(c, f)
	}},
}

// precPred is a predicate without inner parentheses: one to three terms
// joined by AND and OR (AND binding tighter), each of them under NOT now
// and then (NOT binding looser than IS and the comparisons).
func (g *gen) precPred(c ectx) *expr {
	f := &flat{}
	for i, n := 0, 1+g.n(3); i < n; i++ {
		if i > 0 {
			g.tag("prec.and-or")
			f.s(pick(g, []string{" AND ", " OR "}))
		}
		if g.chance(25) {
			g.tag("prec.not")
			f.s("NOT ")
		}
		g.precTerm(c, f)
	}
	return f.done(tBool)
}

// precValue is a value of class k (integer, double precision or text)
// without inner parentheses: arithmetic, or a concatenation.
func (g *gen) precValue(c ectx, k class) *expr {
	f := &flat{}
	if k == cText {
		g.tag("prec.concat")
		g.precConcat(c, f, 2+g.n(3))
		return f.done(tText)
	}
	g.tag("prec.arith")
	g.precArith(c, f, 2+g.n(3), k == cFloat)
	if k == cFloat && !f.pow {
		f.s("::float8")
	}
	return f.done(f.numType())
}
