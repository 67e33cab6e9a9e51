package parser

import (
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// PostgreSQL expression syntax that TiDB's grammar lacks, respelled as calls
// of pseudo-functions the planner reads back:
//
//	ARRAY[a, b], ARRAY[[1,2],[3,4]]   → zp_array(a, b), zp_array(zp_array(1,2), ...)
//	ARRAY(subquery)                   → zp_array_sub((subquery))
//	x[i], x[i][j]                     → zp_subscript(x, i), zp_subscript(x, i, j)
//	x[lo:hi], x[:hi]                  → zp_slice(x, lo, hi), zp_slice(x, zp_nobound(), hi)
//	x op ANY|SOME|ALL (array)         → zp_any(x, 'op', (array)), zp_all(...)
//	                                    ('app.===' for OPERATOR(app.===))
//	x op ANY|ALL (subquery)           → zp_any(x, 'op', zp_quantified_sub((subquery)))
//	                                    (but for the comparisons, TiDB's own)
//	x ~ y, x !~* y, x @> y, ...       → zp_op('~', x, y), zp_op('!~*', x, y), ...
//	x [NOT] SIMILAR TO y [ESCAPE e]   → zp_op('~' | '!~', x, zp_similar(y[, e]))
//	x OPERATOR(pg_catalog.~) y        → as x ~ y
//	x OPERATOR(app.===) y             → zp_op('app.===', x, y)
//	x COLLATE "C"                     → zp_collate(x, 'C') in queries, writes
//	                                    and views (zproxy compares strings
//	                                    bytewise); dropped elsewhere
//	(row).field                       → zp_field((row), 'field')
//
// ANY with a subquery after a comparison stays TiDB's own. The operands of a respelled
// operator are grouped by PostgreSQL's precedence (operandStart,
// operandEnd): primary expressions (a name, a literal, a call, a
// parenthesized expression, with its casts and subscripts) joined by the
// operators that bind tighter, so 'a' || 'b' = ANY (...) compares 'ab'.
const (
	ArrayFunc     = "zp_array"
	ArraySubFunc  = "zp_array_sub"
	SubscriptFunc = "zp_subscript"
	SliceFunc     = "zp_slice"
	NoBoundFunc   = "zp_nobound"
	AnyFunc       = "zp_any"
	AllFunc       = "zp_all"
	OpFunc        = "zp_op"
	SimilarFunc   = "zp_similar"
	FieldFunc     = "zp_field"
	// QuantifiedSubFunc is the subquery of x op ANY|ALL (subquery) when
	// TiDB's grammar cannot read it: zp_any(x, 'op', zp_quantified_sub((q))).
	QuantifiedSubFunc = "zp_quantified_sub"
	// CollateFunc is x COLLATE name: zp_collate(x, 'name').
	CollateFunc = "zp_collate"
	// RowFunc is ROW(x) and ROW() (composite.go).
	RowFunc = "zp_row"
	// FieldStarFunc is (row).*, expanded by the planner into the fields.
	FieldStarFunc = "zp_field_star"
	// RowsFromFunc zips set-returning functions in FROM (the planner makes
	// it of a select list's set-returning functions).
	RowsFromFunc = "zp_rows_from"
)

// infixOps are the operators respelled as zp_op calls.
var infixOps = map[string]bool{
	"~": true, "~*": true, "!~": true, "!~*": true, "~~": true, "~~*": true, "!~~": true, "!~~*": true,
	"@>": true, "<@": true, "&&": true, "^@": true, "&": true, "|": true, "#": true,
	// Shifts of integers, containment of networks (inet's << <<= >> >>=).
	"<<": true, ">>": true, "<<=": true, ">>=": true,
	// The geometric types' (also the prefix @-@, ?-, ?| and #).
	"##": true, "<<|": true, "|>>": true, "&<|": true, "|&>": true, "<^": true, ">^": true,
	"?#": true, "?-": true, "?-|": true, "?||": true, "~=": true, "@-@": true,
	// PostGIS's n-dimensional bounding-box overlap.
	"&&&": true,
}

// prefixOps are the infix operators that also stand without a left
// operand, as prefix operators (~ x, @-@ lseg, # path, ?- line, ?| line).
var prefixOps = map[string]bool{"~": true, "@-@": true, "#": true, "?-": true, "?|": true, "@@": true}

// nativeOps are the operators TiDB's grammar reads itself, or that the
// respellings above handle by their own rules.
var nativeOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true, "^": true, "||": true, "!!": true,
	"=>": true, ":=": true, "!": true, "<=>": true}

// userOperator reports whether op is an operator no rule above knows: a
// user-defined one (CREATE OPERATOR), respelled as zp_op('op', l, r) or,
// without a left operand, zp_op('op', x), at PostgreSQL's level of "any
// other operator".
func userOperator(op string) bool {
	// (A backquote is an operator character to PostgreSQL, TiDB's
	// quote: no operator of one is accepted.)
	return !nativeOps[op] && !infixOps[op] && !prefixOps[op] && !OtherOperators[op] && !comparisonOps[op] && !strings.Contains(op, "`")
}

// userOp reports whether operator token t is one only CREATE OPERATOR
// can define: by its name, or by the schema OPERATOR() gave it.
func userOp(t token) bool { return t.schema != "" || userOperator(t.val) }

// opName is operator token t's name as zp_op carries it: "schema.op"
// when OPERATOR() qualified it, quoted for a string literal.
func opName(t token) string {
	op := t.val
	if t.schema != "" {
		op = t.schema + "." + op
	}
	return strings.ReplaceAll(op, "'", "''")
}

// IsUserOperator reports whether op is an operator only CREATE OPERATOR
// can define (no built-in one has its name).
func IsUserOperator(op string) bool { return userOperator(op) }

// comparisonOps may precede ANY/ALL (besides the infix operators).
var comparisonOps = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// validCollations are the collations zproxy accepts: all compare bytewise,
// which is what "C" and "POSIX" mean, and what zproxy's "default" is.
var validCollations = map[string]bool{"default": true, "C": true, "POSIX": true, "ucs_basic": true}

// pgPrimaries applies the respellings that bind tighter than casts (arrays,
// subscripts, COLLATE, OPERATOR()), before the token loop of rewrite.
func (r *rewriter) pgPrimaries(head int) error {
	types := r.typeSpans(head)
	for i := head; i < len(r.toks); i++ {
		if r.ed[i].done || types[i] {
			continue
		}
		t := r.toks[i]
		switch {
		case t.is("operator") && r.peek(i+1, "("):
			if err := r.operatorForm(i); err != nil {
				return err
			}
		case t.is("collate"):
			if err := r.collate(head, i); err != nil {
				return err
			}
		case t.is("array") && r.peek(i+1, "["):
			close := r.matching(i + 1)
			if close < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			r.replace(i, ArrayFunc)
			r.replace(i+1, "(")
			r.replace(close, ")")
			r.innerArrays(i+1, close)
		case t.is("array") && r.peek(i+1, "("):
			close := r.matching(i + 1)
			if close < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			r.replace(i, ArraySubFunc+"(")
			r.ed[close].post += ")"
		case (t.kind == tkIdent || t.kind == tkQIdent) && t.val == "count" && !(i > head && r.toks[i-1].is(".")) &&
			r.peek(i+1, "(") && r.peek(i+2, ")"):
			// count() finds pg_catalog's count of no arguments, which is
			// the aggregate count(*): PostgreSQL asks for the star (TiDB's
			// grammar has no count() to reach the planner with). The
			// message names the function as the call did: qualified,
			// the name's token spans its qualifier (catalogCalls).
			name := "count"
			if strings.Contains(r.sql[t.start:t.end], ".") {
				name = "pg_catalog.count"
			}
			return pgerr.New(pgerr.WrongObjectType, "%s(*) must be used to call a parameterless aggregate function", name).
				WithPosition(r.pos(i))
		case (t.kind == tkIdent || t.kind == tkQIdent) && (t.val != "count" || i > head && r.toks[i-1].is(".")) &&
			r.peek(i+1, "(") && r.peek(i+2, "*") && r.peek(i+3, ")"):
			// agg(*): a user-defined aggregate of no arguments, called
			// as agg() (count(*) is TiDB's own, unless a schema
			// qualifies it: pg_catalog's has lost its qualifier,
			// catalogCalls).
			r.replace(i+2, "")
		case t.kind == tkIdent && sqlValueFuncs[t.val] && !r.peek(i+1, "(") && !(i > head && (r.toks[i-1].is(".") || r.toks[i-1].is("as"))) &&
			r.isQuery(head):
			// SQL's value functions without parentheses (SELECT session_user).
			r.replace(i, t.val+"()")
		case t.kind == tkIdent && tidbAggregates[t.val] && r.peek(i+1, "(") && r.peek(i+2, ")") && !(i > head && r.toks[i-1].is(".")):
			// sum(): TiDB's grammar has its aggregates take arguments;
			// as a plain call the binder finds no such function (42883).
			r.replace(i, "`"+t.val+"`")
		case t.kind == tkIdent && tidbKeywordFuncs[t.val] && r.peek(i+1, "(") && !(i > head && r.toks[i-1].is(".")):
			r.replace(i, "`"+t.val+"`") // a key word in TiDB's grammar, a function in PostgreSQL's
		case (t.kind == tkIdent || t.kind == tkQIdent) && r.peek(i+1, ".") && r.peek(i+2, "*") && !(i > head && r.toks[i-1].is(".")) &&
			r.wholeRowStar(head, i):
			// t.* in a row constructor or as a value: wholeRowStar.
		case (t.kind == tkIdent || t.kind == tkQIdent) && r.peek(i+1, ".") && r.peek(i+2, "*") && i > head && r.peek(i-1, "(") &&
			r.isCallParen(head, i-1) && (r.peek(i+3, ")") || r.peek(i+3, ",")):
			// f(t.*): the whole row of t, as f(t) (PostgreSQL expands t.*
			// only in a select list).
			r.replace(i+1, "")
			r.replace(i+2, "")
		case t.is("row") && r.peek(i+1, "(") && !(i > head && r.toks[i-1].is(".")) && r.singleItem(i+1):
			// ROW(x), ROW(): a row of one field or none, which TiDB's
			// grammar has no row constructor for.
			r.replace(i, RowFunc)
		case t.is("(") && !r.isCallParen(head, i):
			// (row).field: a field of a record.
			close := r.matching(i)
			if close > 0 && r.peek(close+1, ".") && close+2 < len(r.toks) && (r.toks[close+2].kind == tkIdent || r.toks[close+2].kind == tkQIdent) {
				r.ed[i].pre = FieldFunc + "(" + r.ed[i].pre
				r.replace(close+1, ", '")
				r.replace(close+2, strings.ReplaceAll(r.toks[close+2].val, "'", "''")+"')")
				r.primStart[close+2] = i
			} else if close > 0 && r.peek(close+1, ".") && r.peek(close+2, "*") {
				// (row).*: all its fields (a select list's item).
				r.ed[i].pre = FieldStarFunc + "(" + r.ed[i].pre
				r.replace(close+1, ")")
				r.replace(close+2, "")
			}
		case t.is("as") && i+1 < len(r.toks) && r.toks[i+1].kind == tkIdent && !r.ed[i+1].done &&
			(i+2 >= len(r.toks) || r.peek(i+2, ",") || r.peek(i+2, "from") || r.peek(i+2, ")")) && !r.inCast(i):
			// AS table, AS select: PostgreSQL takes any key word as a
			// column label after AS (Metabase writes them); TiDB reserves
			// other words than PostgreSQL does, so every label is quoted.
			r.replace(i+1, "`"+r.toks[i+1].val+"`")
		case t.is("[") && i > head && r.endsPrimary(i-1):
			if err := r.subscript(head, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// wholeRowStar respells t.* at i where PostgreSQL does not expand it into
// a select list's columns: in a row constructor, ROW(t.*, x) or (t.*, x),
// it stands for t's fields (zp_field_star(t), which the binder expands);
// as an operand, t.* IS NULL, t.* = t.*, t.*::text, (t.*) IS NULL, it is
// the whole row t, as PostgreSQL's whole-row Var. A parenthesized item of
// a select list, (t.*), is t.* (expanded). It reports whether it did any
// (a function's argument f(t.*) is the next rule's).
func (r *rewriter) wholeRowStar(head, i int) bool {
	open := r.enclosingParen(head, i)
	if open >= 0 && r.peek(i+3, ")") || open >= 0 && r.peek(i+3, ",") {
		call := r.isCallParen(head, open)
		inRow := call && r.toks[open-1].is("row") && !(open-1 > head && r.toks[open-2].is("."))
		if !call {
			close := r.matching(open)
			first := r.toks[open+1]
			query := first.is("select") || first.is("values") || first.is("with") || first.is("table") || first.is("(")
			inRow = close > 0 && !query && r.commaAt(open+1, close) < close && !(open > head && r.toks[open-1].is("values"))
			if open == i-1 && close == i+3 {
				if r.selectItem(head, open, close) {
					// (t.*) as a select list's item: t.*.
					r.replace(open, "")
					r.replace(close, "")
					return true
				}
				r.wholeRow(i)
				return true
			}
		}
		if inRow {
			r.ed[i].pre = FieldStarFunc + "(" + r.ed[i].pre
			r.replace(i+1, "")
			r.replace(i+2, ")")
			return true
		}
		return false
	}
	next := i + 3
	// x IS [NOT] DISTINCT FROM t.*: the right operand of an IS, whose
	// left one the "is" after t.* covers.
	distinctFrom := i > head+1 && r.toks[i-1].is("from") && r.toks[i-2].is("distinct")
	if r.peek(next, "is") || r.peek(next, "::") || next < len(r.toks) && r.toks[next].kind == tkOp ||
		i > head && r.toks[i-1].kind == tkOp || distinctFrom {
		r.wholeRow(i)
		return true
	}
	return false
}

// wholeRow makes t.* at i the value t.
func (r *rewriter) wholeRow(i int) {
	r.replace(i+1, "")
	r.replace(i+2, "")
	r.primStart[i+2] = i
}

// enclosingParen returns the "(" that directly encloses token i, or -1
// (none, or a "[" does).
func (r *rewriter) enclosingParen(head, i int) int {
	if k := r.enclosingBracket(head, i); k >= 0 && r.toks[k].is("(") {
		return k
	}
	return -1
}

// enclosingBracket returns the "(" or "[" that directly encloses token
// i, or -1.
func (r *rewriter) enclosingBracket(head, i int) int {
	depth := 0
	for k := i - 1; k >= head; k-- {
		switch {
		case r.toks[k].is(")") || r.toks[k].is("]"):
			depth++
		case r.toks[k].is("(") || r.toks[k].is("["):
			if depth == 0 {
				return k
			}
			depth--
		}
	}
	return -1
}

// selectItem reports whether tokens open..close are a whole item of a
// select list: SELECT or "," before, "," FROM or the end after.
func (r *rewriter) selectItem(head, open, close int) bool {
	before := open > head && (r.toks[open-1].is("select") || r.toks[open-1].is(",") || r.toks[open-1].is("distinct"))
	after := close+1 >= len(r.toks) || r.peek(close+1, ",") || r.peek(close+1, "from")
	return before && after
}

// sqlValueFuncs are SQL's functions called without parentheses that
// TiDB does not parse as such (current_user it does).
var sqlValueFuncs = map[string]bool{"session_user": true, "user": true, "current_role": true, "current_catalog": true, "current_schema": true}

// queryWords may follow AS without being a label (CREATE VIEW v AS SELECT).
var queryWords = map[string]bool{"select": true, "with": true, "values": true, "table": true, "not": true}

// tidbListKeywords are words TiDB reserves that PostgreSQL takes as column
// names; TiDB reports them at the token after (ORDER BY type, schema).
var tidbListKeywords = map[string]bool{"schema": true, "schemas": true, "database": true, "databases": true}

// tidbKeywordFuncs are PostgreSQL functions whose names TiDB's grammar
// reserves.
var tidbKeywordFuncs = map[string]bool{"cardinality": true, "digest": true}

// tidbAggregates are the aggregates TiDB's grammar spells itself, with
// arguments (count() is answered apart: it asks for count(*)).
var tidbAggregates = map[string]bool{"sum": true, "max": true, "min": true, "avg": true, "bit_and": true, "bit_or": true,
	"bit_xor": true, "stddev": true, "stddev_pop": true, "stddev_samp": true, "variance": true, "var_pop": true, "var_samp": true}

// inCast reports whether token i (an AS) is CAST's or TREAT's, whose
// operand that follows is a type, not a label: the innermost parenthesis
// open around it follows CAST.
func (r *rewriter) inCast(i int) bool {
	depth := 0
	for k := i - 1; k >= 0; k-- {
		switch {
		case r.toks[k].is(")"):
			depth++
		case r.toks[k].is("("):
			if depth == 0 {
				return k > 0 && (r.toks[k-1].is("cast") || r.toks[k-1].is("treat"))
			}
			depth--
		}
	}
	return false
}

// isQuery reports whether the statement at head is a query or a write (not
// DDL or a role statement, where CURRENT_USER and friends name roles).
func (r *rewriter) isQuery(head int) bool {
	switch r.toks[head].val {
	case "select", "with", "values", "insert", "update", "delete", "explain", "table", "(":
		return true
	}
	return false
}

// typeSpans marks the tokens of type names after :: and in CAST(... AS
// type), where brackets are array decorations, not subscripts.
func (r *rewriter) typeSpans(head int) map[int]bool {
	spans := map[int]bool{}
	for i := head; i < len(r.toks); i++ {
		if r.ed[i].done {
			continue
		}
		if r.toks[i].is("::") || r.toks[i].is("as") && r.insideCast(head, i) {
			if _, _, next, err := r.parseTypeRef(i + 1); err == nil {
				for k := i + 1; k < next; k++ {
					spans[k] = true
				}
			}
		}
	}
	return spans
}

// insideCast reports whether token i sits directly inside CAST( ... ).
func (r *rewriter) insideCast(head, i int) bool {
	k := r.enclosingBracket(head, i)
	return k > head && r.toks[k-1].is("cast")
}

// endsPrimary reports whether token j can end an expression a subscript
// applies to.
func (r *rewriter) endsPrimary(j int) bool {
	t := r.toks[j]
	switch t.kind {
	case tkQIdent, tkParam:
		return true
	case tkIdent:
		return !pgReserved[t.val]
	case tkPunct:
		return t.val == ")" || t.val == "]"
	}
	return false
}

// innerArrays respells the bracketed sub-arrays of ARRAY[...] between open
// and close.
func (r *rewriter) innerArrays(open, close int) {
	for k := open + 1; k < close; k++ {
		if r.toks[k].is("[") && (r.toks[k-1].is("[") || r.toks[k-1].is(",") || k-1 == open) {
			end := r.matching(k)
			if end < 0 || end > close {
				return
			}
			r.replace(k, ArrayFunc+"(")
			r.replace(end, ")")
			r.innerArrays(k, end)
			k = end
		}
	}
}

// subscript respells x[i][j] or x[lo:hi] whose first bracket is token i.
func (r *rewriter) subscript(head, i int) error {
	start, ok := r.primaryStart(i-1, head)
	if !ok {
		return r.syntaxErrorAt(i)
	}
	var groups [][2]int
	slice := false
	for k := i; r.peek(k, "["); {
		close := r.matching(k)
		if close < 0 {
			return r.syntaxErrorAt(len(r.toks))
		}
		groups = append(groups, [2]int{k, close})
		for c := k + 1; c < close; c++ {
			if r.toks[c].is(":") && r.depthBetween(k, c) == 0 {
				slice = true
			}
		}
		k = close + 1
	}
	fn := SubscriptFunc
	if slice {
		fn = SliceFunc
	}
	r.ed[start].pre = fn + "(" + r.ed[start].pre
	for n, g := range groups {
		open, close := g[0], g[1]
		sep := ", "
		colon := -1
		for c := open + 1; c < close; c++ {
			if r.toks[c].is(":") && r.depthBetween(open, c) == 0 {
				colon = c
			}
		}
		switch {
		case !slice:
		case colon < 0:
			sep = ", 1, " // x[i] inside a slice is x[1:i], as in PostgreSQL
		default:
			if colon == open+1 {
				sep = ", " + NoBoundFunc + "()"
			}
			rep := ", "
			if colon == close-1 {
				rep = ", " + NoBoundFunc + "()"
			}
			r.replace(colon, rep)
		}
		if open+1 == close {
			return r.syntaxErrorAt(close)
		}
		r.replace(open, sep)
		if n == len(groups)-1 {
			r.replace(close, ")")
			r.primStart[close] = start
		} else {
			r.replace(close, "")
		}
	}
	return nil
}

// depthBetween is the bracket depth at token c relative to token open.
func (r *rewriter) depthBetween(open, c int) int {
	depth := 0
	for k := open + 1; k < c; k++ {
		switch {
		case r.toks[k].is("(") || r.toks[k].is("["):
			depth++
		case r.toks[k].is(")") || r.toks[k].is("]"):
			depth--
		}
	}
	return depth
}

// operatorForm reduces OPERATOR(schema.op) at token i to the bare operator
// token, which the operator rules then treat as if written alone.
func (r *rewriter) operatorForm(i int) error {
	close := r.matching(i + 1)
	if close < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	op := close - 1
	if op <= i+1 || r.toks[op].kind != tkOp {
		return r.syntaxErrorAt(op)
	}
	switch {
	case op == i+2:
	case op == i+4 && r.toks[i+3].is("."):
		s := r.toks[i+2]
		if s.kind != tkIdent && s.kind != tkQIdent {
			return r.syntaxErrorAt(i + 2)
		}
		if s.val != "pg_catalog" {
			// A user-defined operator of that schema alone (the
			// binder's, through zp_op('schema.op', ...)).
			r.toks[op].schema = s.val
		}
	default:
		return r.syntaxErrorAt(i + 2)
	}
	r.toks[op].opForm = true
	r.drop(i, op)
	r.replace(close, "")
	return nil
}

// rightOperand is the first token of operator j's right operand.
func (r *rewriter) rightOperand(j int) int {
	_, right := r.operatorAt(j)
	return right
}

// operatorAt returns, for an operator token j, the last token of its left
// operand and the first of its right one, looking through OPERATOR(...).
func (r *rewriter) operatorAt(j int) (leftEnd, rightStart int) {
	leftEnd, rightStart = j-1, j+1
	if r.peek(j+1, ")") && r.ed[j+1].done {
		for k := j - 1; k >= 0 && k >= j-4; k-- {
			if r.toks[k].is("operator") && r.ed[k].done {
				return k - 1, j + 2
			}
		}
	}
	return leftEnd, rightStart
}

// collate checks and drops COLLATE name at token i. Every accepted
// collation compares bytewise, which is what zproxy does anyway.
func (r *rewriter) collate(head, i int) error {
	k := i + 1
	name := ""
	if r.peek(k, "pg_catalog") && r.peek(k+1, ".") {
		k += 2
	}
	if k >= len(r.toks) || r.toks[k].kind != tkIdent && r.toks[k].kind != tkQIdent {
		return r.syntaxErrorAt(k)
	}
	name = r.toks[k].val
	if !validCollations[name] {
		return pgerr.New(pgerr.UndefinedObject, "collation \"%s\" for encoding \"UTF8\" does not exist", name).WithPosition(r.pos(i))
	}
	start, ok := r.primaryStart(i-1, head)
	if ok {
		r.primStart[k] = start
	}
	if ok && r.exprStatement(head) && !r.typeSpans(head)[i-1] {
		// x COLLATE "C" → zp_collate(x, 'C'): the binder keeps the
		// clause for pg_get_viewdef and checks x's type.
		r.ed[start].pre = CollateFunc + "(" + r.ed[start].pre
		r.replace(i, ", '"+strings.ReplaceAll(name, "'", "''")+"')")
		r.drop(i+1, k+1)
		return nil
	}
	r.drop(i, k+1)
	return nil
}

// exprStatement reports whether the statement at head is a query or a
// write, or CREATE VIEW, whose expressions the binder binds; in other
// statements (a column's COLLATE in CREATE TABLE, ALTER TABLE) COLLATE is
// dropped.
func (r *rewriter) exprStatement(head int) bool {
	t := r.toks[head]
	switch {
	case t.is("select"), t.is("with"), t.is("insert"), t.is("update"), t.is("delete"), t.is("values"), t.is("("):
		return true
	case t.is("create"):
		for k := head + 1; k < len(r.toks) && k < head+6; k++ {
			if r.toks[k].is("view") {
				return true
			}
			if r.toks[k].is("table") || r.toks[k].is("index") || r.toks[k].is("as") {
				return false
			}
		}
	}
	return false
}

// pgOperators applies the respellings that bind looser than casts (ANY and
// ALL over arrays, SIMILAR TO, the infix operators), after the token loop
// of rewrite has turned casts into calls.
func (r *rewriter) pgOperators(head int) error {
	for j := head; j < len(r.toks); j++ {
		if r.ed[j].done && !r.toks[j].is("operator") {
			continue
		}
		t := r.toks[j]
		if !r.ed[j].done && (patternWords[t.val] || t.is("not") && r.peekAny(j+1, "in", "like", "ilike", "between", "similar")) &&
			t.kind == tkIdent && !(j > head && r.toks[j-1].is("not")) {
			r.chainedIn(head, j)
		}
		switch {
		case t.kind == tkOp && t.schema == "" && comparisonOps[t.val] && r.quantifier(r.rightOperand(j)) == quantArray,
			t.kind == tkOp && !r.ed[j].done && quantOps(t) && r.quantifier(r.rightOperand(j)) != quantNone:
			// x op ANY|ALL (array), and (subquery) for any operator but
			// the comparisons TiDB's grammar reads itself: a user-defined
			// operator by its name as zp_op carries it, which the binder
			// looks up as it does zp_op's.
			if err := r.quantified(head, j, opName(t)); err != nil {
				return err
			}
		case (t.is("like") || t.is("ilike")) && r.quantifier(j+1) != quantNone:
			// x [NOT] LIKE ANY (array) is x !~~ / ~~ ANY (array).
			if err := r.quantified(head, j, r.likeOperator(head, j)); err != nil {
				return err
			}
		case t.is("similar") && r.peek(j+1, "to"):
			if err := r.similar(head, j); err != nil {
				return err
			}
		case nativeOpForm(t) && !r.ed[j].done && r.quantifier(r.rightOperand(j)) == quantNone:
			// (op ANY|ALL (subquery) of a comparison is TiDB's own.)
			if err := r.opLevel(head, j); err != nil {
				return err
			}
		case t.kind == tkOp && (infixOps[t.val] || prefixOps[t.val] || userOp(t)) && !r.ed[j].done:
			if err := r.infix(head, j); err != nil {
				return err
			}
		case t.kind == tkOp && t.val == "!!" && !r.ed[j].done:
			// tsquery's prefix !! (tsquery_not), whose operand extends
			// over the operators that bind tighter than the other
			// operators' level.
			hi, ok := r.operandEnd(j+1, precOther)
			if !ok {
				return r.syntaxErrorAt(j + 1)
			}
			r.replace(j, "tsquery_not(")
			r.ed[hi].post += ")"
		}
	}
	return nil
}

// chainedIn groups x IN (a) IN (b) as PostgreSQL's grammar does,
// (x IN (a)) IN (b), for the operator of IN's level at token j ([NOT] IN,
// LIKE, ILIKE, BETWEEN, SIMILAR TO) whose left operand is the list of a
// [NOT] IN: TiDB's grammar (MySQL's) takes a simple expression before
// these, not a predicate, and refused them. The parentheses go around the
// whole IN predicate, its left operand reaching over every operator that
// binds tighter than IN (operandStart), and it becomes the primary the
// operator (a further IN of the chain) groups in turn.
func (r *rewriter) chainedIn(head, j int) {
	leftEnd := j - 1
	if leftEnd <= head || !r.toks[leftEnd].is(")") {
		return
	}
	open := r.matchingBack(leftEnd)
	prevIn := open - 1
	if open < 0 || prevIn <= head || !r.toks[prevIn].is("in") || r.ed[prevIn].done {
		return
	}
	prevLeftEnd := prevIn - 1
	if r.toks[prevLeftEnd].is("not") {
		prevLeftEnd--
	}
	lo, ok := r.operandStart(prevLeftEnd, head)
	if !ok {
		return // TiDB's error stands
	}
	r.ed[lo].pre = "(" + r.ed[lo].pre
	r.ed[leftEnd].post += ")"
	r.primStart[leftEnd] = lo
}

// patternWords are the words of the operators of IN's precedence level.
var patternWords = map[string]bool{"in": true, "like": true, "ilike": true, "between": true, "similar": true}

// What follows an operator: ANY/SOME/ALL over an array expression or a
// subquery, or neither.
const (
	quantNone = iota
	quantArray
	quantSubquery
)

// quantifier says whether ANY/SOME/ALL ( ... ) starts at k, and whether
// over a subquery or an array.
func (r *rewriter) quantifier(k int) int {
	if !(r.peek(k, "any") || r.peek(k, "some") || r.peek(k, "all")) || !r.peek(k+1, "(") {
		return quantNone
	}
	n := k + 2
	for r.peek(n, "(") {
		n++
	}
	if r.peek(n, "select") || r.peek(n, "values") || r.peek(n, "with") || r.peek(n, "table") {
		return quantSubquery
	}
	return quantArray
}

// beforeQuantifier reports whether ANY/SOME/ALL ( follows operator token
// i, also when i is OPERATOR(schema.op)'s.
func (r *rewriter) beforeQuantifier(i int) bool {
	if r.peek(i+1, ")") && r.quantifier(i+2) != quantNone {
		return true
	}
	return r.quantifier(i+1) != quantNone
}

// likeOperator is the operator of [NOT] LIKE | ILIKE at token j: ~~,
// ~~*, !~~ or !~~*.
func (r *rewriter) likeOperator(head, j int) string {
	op := map[string]string{"like": "~~", "ilike": "~~*"}[r.toks[j].val]
	if j > head && r.toks[j-1].is("not") {
		op = "!" + op
	}
	return op
}

// quantOps reports whether operator token t, before ANY/ALL, is respelled
// by quantified whatever follows: every operator but the unqualified
// comparisons, whose ANY (subquery) TiDB's grammar reads (PostgreSQL takes
// any operator there, the arithmetic ones to refuse them by their result
// type).
func quantOps(t token) bool {
	if t.schema != "" {
		return true
	}
	switch t.val {
	case "=>", ":=", "!", "<=>", "!!":
		return false
	}
	return !comparisonOps[t.val]
}

// quantified respells x op ANY|ALL (array) at operator token j as
// zp_any(x, 'op', (array)), and x op ANY|ALL (subquery) as zp_any(x, 'op',
// zp_quantified_sub((subquery))). The operator's name stands where the
// client wrote the operator (OPERATOR(...), NOT LIKE's NOT included), so
// the binder's errors about it point there, as PostgreSQL's do.
func (r *rewriter) quantified(head, j int, op string) error {
	leftEnd, q := r.operatorAt(j)
	if op[0] == '!' && (r.toks[j].is("like") || r.toks[j].is("ilike")) {
		leftEnd-- // NOT LIKE: the operand ends before NOT
	}
	lo, ok := r.operandStart(leftEnd, head)
	if !ok {
		return r.syntaxErrorAt(j)
	}
	close := r.matching(q + 1)
	if close < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	fn := AnyFunc
	if r.toks[q].is("all") {
		fn = AllFunc
	}
	r.ed[lo].pre = fn + "(" + r.ed[lo].pre
	r.replace(leftEnd+1, ", '"+op+"', ")
	r.drop(leftEnd+2, q+1)
	if r.quantifier(q) == quantSubquery {
		r.ed[q+1].pre = QuantifiedSubFunc + "(" + r.ed[q+1].pre
		r.ed[close].post += ")"
	}
	r.ed[close].post += ")"
	r.primStart[close] = lo
	return nil
}

// similar respells x [NOT] SIMILAR TO y [ESCAPE e] at token j (SIMILAR).
func (r *rewriter) similar(head, j int) error {
	leftEnd, op := j-1, "~"
	if j > head && r.toks[j-1].is("not") {
		leftEnd, op = j-2, "!~"
		r.replace(j-1, "")
	}
	lo, ok := r.operandStart(leftEnd, head)
	if !ok {
		return r.syntaxErrorAt(j)
	}
	hi, ok := r.operandEnd(j+2, precPattern)
	if !ok {
		return r.syntaxErrorAt(j + 2)
	}
	r.ed[lo].pre = OpFunc + "('" + op + "', " + r.ed[lo].pre
	r.replace(j, ", "+SimilarFunc+"(")
	r.replace(j+1, "")
	if r.peek(hi+1, "escape") {
		e, ok := r.primaryEnd(hi + 2)
		if !ok {
			return r.syntaxErrorAt(hi + 2)
		}
		r.replace(hi+1, ",")
		hi = e
	}
	r.ed[hi].post += "))"
	r.primStart[hi] = lo
	return nil
}

// likePatterns puts the pattern of x [NOT] LIKE|ILIKE y in parentheses
// where it spans binary operators: PostgreSQL's LIKE binds looser than
// every operator but the comparisons, where TiDB's grammar takes a simple
// expression there, so LIKE 'a' || '%' was a syntax error. It runs after
// the other operators are respelled, so its parentheses are the outermost
// around the operand (LIKE ANY is respelled by pgOperators already).
func (r *rewriter) likePatterns(head int) error {
	for j := head; j < len(r.toks); j++ {
		if r.ed[j].done || !(r.toks[j].is("like") || r.toks[j].is("ilike")) || j+1 >= len(r.toks) {
			continue
		}
		first, ok := r.primaryEnd(r.afterPrefixes(j + 1))
		if !ok {
			continue // TiDB's error, at its place
		}
		if hi, ok := r.operandEnd(j+1, precPattern); ok && hi > first {
			r.ed[j+1].pre = "(" + r.ed[j+1].pre
			r.ed[hi].post += ")"
		}
	}
	return nil
}

// infix respells x op y at operator token j as zp_op('op', x, y).
func (r *rewriter) infix(head, j int) error {
	leftEnd, rightStart := r.operatorAt(j)
	lo, ok := r.operandStart(leftEnd, head)
	if op := r.toks[j].val; !ok && (prefixOps[op] || userOp(r.toks[j])) {
		// No left operand: a prefix operator (~ x, bitwise NOT),
		// zp_op('~', x), whose operand extends over the operators
		// binding tighter than PostgreSQL's other operators (~ 1 + 1 is
		// ~(1 + 1)).
		start := rightStart
		for start < len(r.toks) && r.toks[start].kind == tkOp && (prefixOps[r.toks[start].val] || userOp(r.toks[start])) {
			start++ // ~ ~x: the inner ones are respelled in their turn
		}
		hi, ok := r.operandEnd(start, precOther)
		if !ok {
			return r.syntaxErrorAt(start)
		}
		r.replace(j, OpFunc+"('"+opName(r.toks[j])+"', ")
		r.ed[hi].post += ")"
		r.primStart[hi] = j
		return nil
	}
	if !ok {
		return r.syntaxErrorAt(j)
	}
	hi, ok := r.operandEnd(rightStart, precOther)
	if !ok {
		return r.syntaxErrorAt(rightStart)
	}
	r.ed[lo].pre = OpFunc + "('" + opName(r.toks[j]) + "', " + r.ed[lo].pre
	r.replace(j, ",")
	r.drop(leftEnd+1, j)
	r.ed[hi].post += ")"
	r.primStart[hi] = lo
	return nil
}

// nativeOperators are the operators TiDB's grammar reads itself, at
// levels of their own: the arithmetic ones and the comparisons.
var nativeOperators = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true, "^": true,
	"=": true, "<>": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// nativeOpForm reports whether operator token t is one of nativeOperators
// written as OPERATOR(pg_catalog.op) (or OPERATOR(op)), which PostgreSQL's
// grammar reads at the level of its other operators (Op), not at the
// operator's own: 2 OPERATOR(pg_catalog.*) 3 + 1 is 2 * (3 + 1).
func nativeOpForm(t token) bool {
	return t.kind == tkOp && t.opForm && t.schema == "" && nativeOperators[t.val]
}

// opLevel groups x OPERATOR(pg_catalog.op) y at operator token j, op one
// of nativeOperators, by PostgreSQL's precedence of the other operators:
// ((x) op (y)), its operands those an operator of that level takes
// (operandStart, operandEnd), the whole a primary for the operators
// around it. Without a left operand it is a prefix operator, (op (y)):
// OPERATOR(pg_catalog.-) 2 + 1 is -(2 + 1).
func (r *rewriter) opLevel(head, j int) error {
	leftEnd, rightStart := r.operatorAt(j)
	hi, ok := r.operandEnd(rightStart, precOther)
	if !ok {
		return r.syntaxErrorAt(rightStart)
	}
	r.ed[rightStart].pre = "(" + r.ed[rightStart].pre
	r.ed[hi].post += "))"
	lo, ok := r.operandStart(leftEnd, head)
	if !ok || leftEnd >= head && beforeOperandWords[r.toks[leftEnd].val] && r.toks[leftEnd].kind == tkIdent {
		r.ed[j].pre = "(" + r.ed[j].pre
		r.primStart[hi] = j
		return nil
	}
	r.ed[lo].pre = "((" + r.ed[lo].pre
	r.ed[leftEnd].post += ")"
	r.primStart[hi] = lo
	return nil
}

// beforeOperandWords are the words, not reserved in PostgreSQL's grammar,
// that an operand follows (x LIKE -1): an operator after one is a prefix
// operator.
var beforeOperandWords = map[string]bool{"like": true, "ilike": true, "between": true, "escape": true, "overlaps": true}

// Binary operator precedence levels of PostgreSQL's grammar that the
// respelled operators (comparisons before ANY/ALL, SIMILAR TO, the
// "other" operators of infixOps) meet around them, loosest first.
// precPattern is LIKE's, ILIKE's and SIMILAR TO's, below all of them: their
// pattern extends over every operator of the levels above (a LIKE '%' ||
// b || '%' matches a against the whole concatenation).
const (
	precPattern = iota
	precOther   // ||, @>, ~ and every other operator
	precAdd     // + -
	precMul     // * / %
	precExp     // ^
)

// binaryPrec is the precedence of token k as a binary operator not yet
// respelled, or 0 when it is none of the levels above.
func (r *rewriter) binaryPrec(k int) int {
	t := r.toks[k]
	if t.kind != tkOp {
		return 0
	}
	if nativeOpForm(t) {
		return precOther
	}
	if r.ed[k].done {
		if OtherOperators[t.val] && strings.HasPrefix(r.ed[k].rep, "| "+OtherOpFunc) {
			return precOther // respelled in place as "| zp_op('op') |" (pgsyntax.go)
		}
		return 0
	}
	switch t.val {
	case "^":
		return precExp
	case "*", "/", "%":
		return precMul
	case "+", "-":
		return precAdd
	case "||":
		return precOther
	}
	if infixOps[t.val] || userOp(t) {
		return precOther
	}
	return 0
}

// operandStart returns the first token of the left operand of an operator
// of the "other" level or looser whose operand ends at token end: the
// primary expression there, extended leftwards over binary operators of
// that level or tighter (left-associative, so an equal level groups to the
// left) and over a unary sign.
func (r *rewriter) operandStart(end, head int) (int, bool) {
	lo, ok := r.primaryStart(end, head)
	if !ok {
		return 0, false
	}
	for k := lo - 1; k >= head; k = lo - 1 {
		op := k
		if r.toks[k].is(")") && r.ed[k].done && k > head && r.toks[k-1].opForm {
			op = k - 1 // OPERATOR(schema.op)'s closing parenthesis
		}
		if r.binaryPrec(op) <= 0 {
			break
		}
		if leftEnd, _ := r.operatorAt(op); leftEnd >= head {
			if s, ok := r.primaryStart(leftEnd, head); ok {
				lo = s // x op <operand>: a binary operator
				continue
			}
		}
		if v := r.toks[k].val; op == k && (v == "-" || v == "+") {
			lo = k // a unary sign binds tighter than any binary operator here
			continue
		}
		break
	}
	return lo, true
}

// operandEnd returns the last token of the right operand starting at
// token i of a left-associative operator of level prec: the primary
// expression there, extended over operators that bind tighter.
func (r *rewriter) operandEnd(i, prec int) (int, bool) {
	start := r.afterPrefixes(i)
	hi, ok := r.primaryEnd(start)
	if !ok {
		return 0, false
	}
	for k := hi + 1; k < len(r.toks); k = hi + 1 {
		op, next := r.opFormAt(k)
		if r.binaryPrec(op) <= prec {
			break
		}
		e, ok := r.primaryEnd(r.afterPrefixes(next))
		if !ok {
			break
		}
		hi = e
	}
	return hi, true
}

// opFormAt returns the operator token of OPERATOR(schema.op) when its
// wrapper begins at token k (the operator rules have dropped it), and the
// token after it; else k and k+1.
func (r *rewriter) opFormAt(k int) (op, next int) {
	if r.toks[k].is("operator") && r.ed[k].done && r.peek(k+1, "(") {
		if c := r.matching(k + 1); c > k+2 && r.toks[c-1].opForm {
			return c - 1, c + 1
		}
	}
	return k, k + 1
}

// afterPrefixes returns the first token after the unary signs and prefix
// operators (OPERATOR(schema.op) ones too) at the start of an operand at
// token i.
func (r *rewriter) afterPrefixes(i int) int {
	for i < len(r.toks) {
		if op, next := r.opFormAt(i); op != i && (r.prefixAt(op) || nativeOpForm(r.toks[op])) {
			i = next
			continue
		}
		if !r.prefixAt(i) {
			break
		}
		i++
	}
	return i
}

// prefixAt reports whether token k, at the start of an operand, is a
// unary sign or a prefix operator not yet respelled.
func (r *rewriter) prefixAt(k int) bool {
	t := r.toks[k]
	return t.kind == tkOp && (t.val == "-" || t.val == "+" || !r.ed[k].done && (prefixOps[t.val] || userOp(t)))
}

// primaryEnd returns the last token of the primary expression starting at
// token i, with the casts, subscripts and COLLATE applied to it.
func (r *rewriter) primaryEnd(i int) (int, bool) {
	for i < len(r.toks) && r.ed[i].done && r.ed[i].rep == "" && !r.toks[i].is("array") && !r.toks[i].is("operator") {
		i++ // tokens already dropped (the OPERATOR() wrapper)
	}
	if i >= len(r.toks) {
		return 0, false
	}
	t := r.toks[i]
	e := -1
	switch {
	case t.kind == tkOp && (t.val == "-" || t.val == "+"):
		return r.primaryEnd(i + 1)
	case t.kind == tkString || t.kind == tkNumber || t.kind == tkParam:
		e = i
	case t.is("array") && (r.peek(i+1, "[") || r.peek(i+1, "(")):
		e = r.matching(i + 1)
	case t.is("cast") && r.peek(i+1, "("):
		// CAST(x AS t): a reserved word that opens a primary, as ARRAY.
		e = r.matching(i + 1)
	case t.is("("):
		e = r.matching(i)
	case t.is("case"):
		depth := 0
		for k := i; k < len(r.toks); k++ {
			if r.toks[k].is("case") {
				depth++
			} else if r.toks[k].is("end") {
				depth--
				if depth == 0 {
					e = k
					break
				}
			}
		}
	case t.kind == tkQIdent || t.kind == tkIdent && (!pgReserved[t.val] || valueKeywords[t.val]):
		e = i
		for r.peek(e+1, ".") && e+2 < len(r.toks) && (r.toks[e+2].kind == tkIdent || r.toks[e+2].kind == tkQIdent) {
			e += 2
		}
		if r.peek(e+1, "(") {
			e = r.matching(e + 1)
		}
	}
	if e < 0 {
		return 0, false
	}
	for {
		found := false
		for k := e + 1; k < len(r.toks) && k <= e+24; k++ {
			if s, ok := r.primStart[k]; ok && s == i {
				e, found = k, true
			}
		}
		if !found {
			return e, true
		}
	}
}

// isCallParen reports whether the parenthesis at i opens a function call's
// arguments (or another construct's list) rather than an expression.
func (r *rewriter) isCallParen(head, i int) bool {
	if i == head {
		return false
	}
	p := r.toks[i-1]
	return p.kind == tkQIdent || p.kind == tkIdent && !notFunctionNames[p.val]
}
