package parser

import (
	"fmt"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// PostgreSQL expression syntax that TiDB's grammar lacks, respelled in
// terms TiDB has (see also relational.go):
//
//	a -> 'k'                  → a | zp_op('->') | 'k'
//	trim(both 'x' from s)      → zp_trim_from('btrim', 'x', s)
//	trim(leading from s)       → ltrim(s)
//	substring(s from 2 for 3)  → zp_sql_syntax('substring', s, 2, 3)
//	substring(s for 2)         → zp_sql_syntax('substring', s, 1, 2)
//	overlay(s placing r from 2) → zp_sql_syntax('overlay', s, r, 2)
//	position(a in b)           → zp_sql_syntax('position', a, b)
//	normalize(s, NFKC)         → normalize(s, 'NFKC')
//	(a, b) OVERLAPS (c, d)     → overlaps(a, b , c, d)
//	GROUP BY ROLLUP (a, (b, c)) → GROUP BY zp_rollup(a, zp_set(b, c))
//	GROUP BY CUBE (a, b), ()   → GROUP BY zp_cube(a, b), zp_set()
//	GROUPING SETS ((a), ())    → zp_grouping_sets(zp_set(a), zp_set())
//	string_agg(DISTINCT s, ',') → string_agg(zp_distinct(), s, ',')
//	stddev(x), variance(x)     → `stddev`(x), `variance`(x)
//	mode() WITHIN GROUP ...    → `mode`() ...
//	convert(b, 'LATIN1', 'UTF8') → `convert`(b, 'LATIN1', 'UTF8')
//	x BETWEEN SYMMETRIC a AND b → x BETWEEN zp_symmetric(a) AND b
//
// (Any f(...) OVER w becomes zp_over(f(...), zp_window(...)): window.go.)
//
// TiDB accepts DISTINCT only in its own aggregates (tidbDistinctAggs), so
// any other call gets a marker argument instead; which names are
// aggregates is the planner's business (the registry of package builtins). TiDB reads STDDEV and VARIANCE as MySQL's
// population forms; quoted, they are plain calls the planner binds as
// PostgreSQL's sample forms, named as written. MODE and DEFINED are TiDB
// keywords.
//
// CONVERT is MySQL syntax in TiDB's grammar; quoted it is PostgreSQL's
// function of that name.
//
// PostgreSQL's operators outside the arithmetic and comparison ones (||,
// the json operators, ...) share one precedence level between the additive
// operators and the comparisons, and associate to the left. MySQL's bitwise
// | sits at that very level (TiDB gives & and << levels of their own above
// it, which no operator respelled here needs), so each such operator
// becomes "| zp_op('op') |": TiDB's left-associative parse of
// a | m | b | m2 | c is ((((a | m) | b) | m2) | c), from which the planner
// reads (a op b) op2 c back (see OtherOperator).
const (
	OtherOpFunc  = "zp_op"
	TrimFromFunc = "zp_trim_from"
	// SQLSyntaxFunc is a call written in its SQL-standard syntax
	// (SUBSTRING(s FROM a), OVERLAY(s PLACING r FROM a)):
	// zp_sql_syntax('name', args...), the arguments in the function's
	// order, but for POSITION(a IN b), which keeps the order as written:
	// zp_sql_syntax('position', a, b) is the catalog's position(b, a).
	SQLSyntaxFunc    = "zp_sql_syntax"
	RollupFunc       = "zp_rollup"
	CubeFunc         = "zp_cube"
	GroupingSetsFunc = "zp_grouping_sets"
	GroupingSetFunc  = "zp_set"
	DistinctArgFunc  = "zp_distinct"
	SymmetricFunc    = "zp_symmetric"
	// XMLFunc carries the XML constructs PostgreSQL's grammar spells with
	// keywords: XMLPARSE(DOCUMENT|CONTENT x) is zp_xml('parse_document'|
	// 'parse_content', x), XMLSERIALIZE(DOCUMENT|CONTENT x AS t) is
	// zp_xml('serialize_document'|'serialize_content', x) cast to t, and
	// x IS [NOT] DOCUMENT is zp_xml('is_document'|'is_not_document', x).
	XMLFunc = "zp_xml"
	// XMLElementFunc is XMLELEMENT(NAME n [, XMLATTRIBUTES(v AS a, ...)]
	// [, content ...]): zp_xmlelement('n', <number of attributes>, 'a',
	// v, ..., content ...); XMLForestFunc is XMLFOREST(v AS n, ...):
	// zp_xmlforest('n', v, ...). The names are SQL identifiers, mapped to
	// XML names by the planner.
	XMLElementFunc = "zp_xmlelement"
	XMLForestFunc  = "zp_xmlforest"
)

// tidbDistinctAggs are the aggregates whose DISTINCT TiDB parses itself.
var tidbDistinctAggs = map[string]bool{
	"count": true, "sum": true, "avg": true, "min": true, "max": true, "stddev_pop": true,
	"stddev_samp": true, "var_pop": true, "var_samp": true, "std": true, "group_concat": true,
}

// OtherOperators are the PostgreSQL infix operators respelled as above.
var OtherOperators = map[string]bool{
	"||": true, "->": true, "->>": true, "#>": true, "#>>": true, "@>": true, "<@": true,
	"?": true, "?|": true, "?&": true, "#-": true,
	// pg_trgm's (% itself is MySQL's modulo, at PostgreSQL's level for it).
	"<%": true, "%>": true, "<<%": true, "%>>": true,
	"<->": true, "<<->": true, "<->>": true, "<<<->": true, "<->>>": true,
	// The range operators (their << and >> are infixOps', with the
	// shifts and the network operators).
	"&<": true, "&>": true, "-|-": true,
	// Full-text search's match, and jsonpath's match and exists.
	"@@": true, "@?": true,
}

// pgSyntax applies the respellings above to the statement from head on.
func (r *rewriter) pgSyntax(head int) error {
	for i := head; i < len(r.toks); i++ {
		if r.ed[i].done {
			continue
		}
		t := r.toks[i]
		afterDot := i > head && r.toks[i-1].is(".")
		switch {
		case t.kind == tkOp && OtherOperators[t.val] && !(prefixOps[t.val] && !r.endsOperand(head, i-1)) && !r.beforeQuantifier(i):
			// (@@ and ?| without a left operand are the geometric types'
			// prefix operators, respelled with the infix ones; before
			// ANY/ALL, pgOperators respells the whole.)
			r.replace(i, "| "+OtherOpFunc+"('"+t.val+"') |")
		case t.kind == tkIdent && t.val == "trim" && r.peek(i+1, "(") && !afterDot:
			if err := r.trimCall(i); err != nil {
				return err
			}
		case t.kind == tkIdent && t.val == "window" && r.peek(i+2, "as") && r.peek(i+3, "("):
			r.windowClauseFrames(i + 1)
		case t.kind == tkIdent && t.val == "substring" && r.peek(i+1, "(") && !afterDot:
			r.substringFor(i)
		case t.kind == tkIdent && t.val == "overlay" && r.peek(i+1, "(") && !afterDot:
			if close := r.matching(i + 1); close >= 0 {
				kw := r.topLevel(i+1, close, "placing", "from", "for")
				if _, ok := kw["placing"]; ok {
					for _, k := range kw {
						r.replace(k, ",")
					}
					r.sqlSyntax(i, "overlay")
				}
			}
		case t.kind == tkIdent && t.val == "position" && r.peek(i+1, "(") && !afterDot:
			// POSITION(a IN b): a is a b_expr in PostgreSQL's grammar (no
			// IN of its own), so the first IN at the top level is the
			// syntax's.
			if close := r.matching(i + 1); close >= 0 {
				if in, ok := r.topLevel(i+1, close, "in")["in"]; ok {
					r.replace(in, ",")
					r.sqlSyntax(i, "position")
				}
			}
		case t.kind == tkIdent && (t.val == "xmlparse" || t.val == "xmlserialize") && r.peek(i+1, "(") && !afterDot:
			if err := r.xmlCall(i); err != nil {
				return err
			}
		case t.kind == tkIdent && t.val == "xmlelement" && r.peek(i+1, "(") && !afterDot:
			if err := r.xmlElement(i); err != nil {
				return err
			}
		case t.kind == tkIdent && t.val == "xmlforest" && r.peek(i+1, "(") && !afterDot:
			if close := r.matching(i + 1); close > 0 {
				r.replace(i, XMLForestFunc)
				if _, err := r.xmlNamedList(i+1, close, "element"); err != nil {
					return err
				}
			}
		case t.kind == tkIdent && (t.val == "xmlattributes" ||
			t.val == "xmlpi" || t.val == "xmlroot" || t.val == "xmlexists" || t.val == "xmltable" || t.val == "xmlnamespaces") && r.peek(i+1, "(") && !afterDot:
			return pgerr.New(pgerr.FeatureNotSupported, "%s is not supported", strings.ToUpper(t.val)).WithPosition(r.pos(i))
		case t.kind == tkIdent && t.val == "normalize" && r.peek(i+1, "(") && !afterDot:
			if err := r.normalizeCall(i); err != nil {
				return err
			}
		case t.kind == tkIdent && t.val == "overlaps" && i > head && r.peek(i-1, ")"):
			if err := r.overlapsRows(i); err != nil {
				return err
			}
		case t.kind == tkIdent && t.val == "group" && r.peek(i+1, "by"):
			if err := r.groupingSets(i + 2); err != nil {
				return err
			}
		case t.kind == tkIdent && (tidbAggregates[t.val] || t.val == "count") && r.peek(i+1, "(") && !afterDot &&
			r.manyArgs(i+1):
			// sum(a, b), count(DISTINCT a, b): TiDB's grammar has its
			// aggregates take one argument (count(DISTINCT) a list, which
			// it counts as a row); as a plain call the binder finds no
			// such function, 42883 with the argument types, as
			// PostgreSQL's.
			r.replace(i, "`"+t.val+"`")
			r.distinctArg(i, false)
		case t.kind == tkIdent && (t.val == "stddev" || t.val == "variance") && r.peek(i+1, "(") && !afterDot:
			r.replace(i, "`"+t.val+"`")
			r.distinctArg(i, false)
		case t.kind == tkIdent && (t.val == "mode" || t.val == "defined") && r.peek(i+1, "(") && !afterDot:
			// TiDB keywords that PostgreSQL calls functions (hstore's
			// defined).
			r.replace(i, "`"+t.val+"`")
		case t.kind == tkIdent && t.val == "convert" && r.peek(i+1, "(") && !afterDot:
			// MySQL's CONVERT(x, type) syntax in TiDB: PostgreSQL's is a
			// plain function (bytea between encodings).
			r.replace(i, "`convert`")
		case (t.kind == tkIdent || t.kind == tkQIdent) && r.peek(i+1, "(") && r.peek(i+2, "distinct"):
			// quoted too: emit writes them bare; TiDB parses DISTINCT in a
			// qualified call (a user schema's aggregate) of none.
			r.distinctArg(i, tidbDistinctAggs[t.val] && !afterDot)
		case (t.kind == tkIdent || t.kind == tkQIdent) && r.peek(i+1, "(") && r.peek(i+2, "all") && !r.peek(i+3, ")") &&
			r.isCallParen(head, i+1):
			// f(ALL x) is f(x), of any function (TiDB's grammar has ALL in
			// its own aggregates alone).
			r.drop(i+2, i+3)
		case t.kind == tkIdent && t.val == "between" && r.peek(i+1, "asymmetric"):
			r.drop(i+1, i+2) // the default
		case t.kind == tkIdent && t.val == "between" && r.peek(i+1, "symmetric"):
			and := r.nextAtDepth(i+2, "and")
			if and < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			r.replace(i+1, SymmetricFunc+"(")
			r.ed[and].pre = ")" + r.ed[and].pre
		case t.kind == tkIdent && t.val == "within" && r.peek(i+1, "group") && r.peek(i+2, "("):
			if close := r.matching(i + 2); close >= 0 && r.peek(close+1, "over") {
				name := "?"
				if k := r.matchingBack(i - 1); k > 0 {
					name = r.toks[k-1].val
				}
				return pgerr.New(pgerr.FeatureNotSupported, "OVER is not supported for ordered-set aggregate %s", name).
					WithPosition(r.pos(close + 1))
			}
		}
	}
	return nil
}

// distinctArg replaces the DISTINCT after "name(" at i with a marker
// argument, unless TiDB parses it there itself.
func (r *rewriter) distinctArg(i int, native bool) {
	if native || !r.peek(i+2, "distinct") {
		return
	}
	if r.peek(i+3, ")") {
		return // f(DISTINCT): TiDB reports the syntax error
	}
	r.replace(i+2, DistinctArgFunc+"(),")
}

// manyArgs reports whether the call whose "(" is at open has more than one
// argument: a comma directly inside its parentheses before any ORDER BY
// (whose list is the aggregate's sort keys, not arguments).
func (r *rewriter) manyArgs(open int) bool {
	comma := r.nextAtDepth(open+1, ",")
	order := r.nextAtDepth(open+1, "order")
	return comma >= 0 && (order < 0 || comma < order)
}

// nextAtDepth returns the index of the first token w from k on at the
// parenthesis depth of k, or -1.
func (r *rewriter) nextAtDepth(k int, w string) int {
	depth := 0
	for ; k < len(r.toks); k++ {
		switch t := r.toks[k]; {
		case t.is("(") || t.is("["):
			depth++
		case t.is(")") || t.is("]"):
			if depth--; depth < 0 {
				return -1
			}
		case depth == 0 && t.is(w):
			return k
		}
	}
	return -1
}

// topLevel returns the tokens of the call whose "(" is at open that sit
// directly inside its parentheses and are one of words, by position.
func (r *rewriter) topLevel(open, close int, words ...string) map[string]int {
	found := map[string]int{}
	depth := 0
	for k := open + 1; k < close; k++ {
		switch t := r.toks[k]; {
		case t.is("(") || t.is("["):
			depth++
		case t.is(")") || t.is("]"):
			depth--
		case depth == 0 && t.kind == tkIdent:
			for _, w := range words {
				if t.val == w {
					if _, seen := found[w]; !seen {
						found[w] = k
					}
				}
			}
		}
	}
	return found
}

// trimCall respells PostgreSQL's TRIM([BOTH|LEADING|TRAILING] [chars] FROM
// args) and TRIM([direction] args) at token i as calls of btrim, ltrim or
// rtrim (the function each form is).
func (r *rewriter) trimCall(i int) error {
	open := i + 1
	close := r.matching(open)
	if close < 0 {
		return nil // unbalanced: TiDB reports it
	}
	fn := "btrim"
	k := open + 1
	if k < close && r.toks[k].kind == tkIdent {
		switch r.toks[k].val {
		case "both", "leading", "trailing":
			fn = map[string]string{"both": "btrim", "leading": "ltrim", "trailing": "rtrim"}[r.toks[k].val]
			r.drop(k, k+1)
			k++
		}
	}
	from, ok := r.topLevel(open, close, "from")["from"]
	switch {
	case !ok:
		// TRIM([direction] args): zp_trim_from('=fn', args), the
		// arguments in order (the planner notes the call was TRIM).
		r.replace(i, TrimFromFunc)
		r.ed[open].post += "'=" + fn + "', "
	case from == k:
		// TRIM([direction] FROM args): the characters default to a space.
		r.replace(i, TrimFromFunc)
		r.ed[open].post += "'=" + fn + "', "
		r.drop(from, from+1)
	default:
		// TRIM([direction] chars FROM args): the characters come first in
		// the text but last in the call, which the planner restores.
		r.replace(i, TrimFromFunc)
		r.ed[open].post += "'" + fn + "', "
		r.replace(from, ",")
	}
	if from == close-1 {
		return r.syntaxErrorAt(close)
	}
	return nil
}

// normalizeCall quotes the normal form of NORMALIZE(s, form), which
// PostgreSQL's grammar takes as a keyword (NFC, NFD, NFKC or NFKD) and
// nothing else, not even a string.
func (r *rewriter) normalizeCall(i int) error {
	close := r.matching(i + 1)
	comma := r.nextAtDepth(i+2, ",")
	if close < 0 || comma < 0 || comma > close {
		return nil
	}
	form := r.toks[comma+1]
	switch {
	case comma+2 == close && form.kind == tkIdent && (form.val == "nfc" || form.val == "nfd" || form.val == "nfkc" || form.val == "nfkd"):
		r.replace(comma+1, "'"+strings.ToUpper(form.val)+"'")
		return nil
	case comma+1 < close && !(form.kind == tkIdent && (form.val == "nfc" || form.val == "nfd" || form.val == "nfkc" || form.val == "nfkd")):
		return r.syntaxErrorAt(comma + 1)
	}
	return r.syntaxErrorAt(comma + 2)
}

// overlapsRows respells the row comparison (a, b) OVERLAPS (c, d) (either
// row may be written ROW(...)) at token i as a call of overlaps with the
// four values; PostgreSQL requires two values on each side.
func (r *rewriter) overlapsRows(i int) error {
	leftOpen := r.matchingBack(i - 1)
	right := i + 1
	if r.peek(right, "row") {
		right++
	}
	if leftOpen < 0 || !r.peek(right, "(") {
		return r.syntaxErrorAt(i + 1)
	}
	rightClose := r.matching(right)
	if rightClose < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	// Two values in each row (nextAtDepth stops at the row's closing
	// parenthesis).
	for _, side := range []struct {
		open int
		name string
	}{{leftOpen, "left"}, {right, "right"}} {
		c := r.nextAtDepth(side.open+1, ",")
		if c < 0 {
			// One parenthesized value is no row: PostgreSQL's grammar
			// stops at its closing parenthesis.
			if side.name == "left" {
				return r.syntaxErrorAt(i)
			}
			return r.syntaxErrorAt(r.matching(side.open))
		}
		if r.nextAtDepth(c+1, ",") >= 0 {
			return pgerr.New(pgerr.SyntaxError, "wrong number of parameters on %s side of OVERLAPS expression", side.name).WithPosition(r.pos(i))
		}
	}
	if leftOpen > 0 && r.peek(leftOpen-1, "row") {
		r.replace(leftOpen-1, "")
	}
	r.ed[leftOpen].pre += "overlaps"
	r.replace(i-1, ",")
	r.drop(i, right+1)
	return nil
}

// windowClauseFrames notes the windows of the WINDOW clause whose first
// definition starts at token k (name AS (...), ...) that give their frame
// one bound, no BETWEEN (Statement.OneBoundWindows): TiDB's AST does not
// tell, and pg_get_viewdef prints the frame as written.
func (r *rewriter) windowClauseFrames(k int) {
	for r.peek(k+1, "as") && r.peek(k+2, "(") {
		close := r.matching(k + 2)
		if close < 0 {
			return
		}
		name := r.toks[k].val
		r.atDepth0(k+3, close, func(m int) bool {
			if (r.toks[m].is("rows") || r.toks[m].is("range") || r.toks[m].is("groups")) && isSpecKeyword(r, m) {
				if !r.peek(m+1, "between") {
					if r.st.OneBoundWindows == nil {
						r.st.OneBoundWindows = map[string]bool{}
					}
					r.st.OneBoundWindows[name] = true
				}
				return false
			}
			return true
		})
		if !r.peek(close+1, ",") {
			return
		}
		k = close + 2
	}
}

// argCount is the number of top-level arguments between the brackets at
// open and close.
func (r *rewriter) argCount(open, close int) int {
	if close == open+1 {
		return 0
	}
	n := 1
	for k := r.nextAtDepth(open+1, ","); k >= 0; k = r.nextAtDepth(k+1, ",") {
		n++ // (nextAtDepth stops at close, below the arguments' depth)
	}
	return n
}

// substringFor respells SUBSTRING's SQL-standard forms as calls of
// SQLSyntaxFunc: SUBSTRING(s FROM a FOR b) is zp_sql_syntax('substring',
// s, a, b), SUBSTRING(s FOR n) zp_sql_syntax('substring', s, 1, n) and
// SUBSTRING(s SIMILAR p ESCAPE e) zp_sql_syntax('substring', s, p, e).
func (r *rewriter) substringFor(i int) {
	open := i + 1
	close := r.matching(open)
	if close < 0 {
		return
	}
	kw := r.topLevel(open, close, "from", "for", "similar", "escape")
	from, hasFrom := kw["from"]
	f, hasFor := kw["for"]
	switch {
	case kw["similar"] > 0:
		// SUBSTRING(s SIMILAR pattern ESCAPE e) is substring(s, pattern, e).
		sim, esc := kw["similar"], kw["escape"]
		if esc <= sim {
			return
		}
		r.replace(sim, ",")
		r.replace(esc, ",")
	case hasFrom && hasFor && from < f:
		r.replace(from, ",")
		r.replace(f, ",")
	case hasFrom && !hasFor:
		r.replace(from, ",")
	case hasFor && !hasFrom:
		r.replace(f, ", 1,")
	default:
		// A plain call, or an order TiDB reads itself. TiDB's grammar
		// has SUBSTRING of two or three arguments only; a call of any
		// other count is a plain function call for the planner, whose
		// 42883 names the argument types as PostgreSQL's does, instead of
		// a syntax error.
		if n := r.argCount(open, close); n != 2 && n != 3 {
			r.replace(i, tidbQuote("substring"))
		}
		return
	}
	r.sqlSyntax(i, "substring")
}

// sqlSyntax renames the call at token i, written in the SQL-standard
// syntax of function name, to SQLSyntaxFunc('name', ...), so the planner
// notes the form (pg_get_viewdef prints it again).
func (r *rewriter) sqlSyntax(i int, name string) {
	r.replace(i, SQLSyntaxFunc)
	r.ed[i+1].post += "'" + name + "', "
}

// groupEnd are the words that end a GROUP BY list.
var groupEnd = map[string]bool{
	"having": true, "order": true, "limit": true, "offset": true, "window": true, "union": true,
	"intersect": true, "except": true, "fetch": true, "for": true, "returning": true, "on": true,
}

// groupingSets respells ROLLUP, CUBE, GROUPING SETS and () in the GROUP BY
// list starting at token i.
func (r *rewriter) groupingSets(i int) error {
	for k := i; k < len(r.toks); k++ {
		t := r.toks[k]
		switch {
		case t.is(")") || t.is(";") || t.kind == tkIdent && groupEnd[t.val]:
			return nil
		case t.is(","):
		default:
			next, err := r.groupingElement(k, false)
			if err != nil {
				return err
			}
			k = next - 1
		}
	}
	return nil
}

// groupingElement respells one element of a GROUP BY list (or, nested,
// of a ROLLUP, CUBE or GROUPING SETS list) starting at token k, and
// returns the index after it.
func (r *rewriter) groupingElement(k int, nested bool) (int, error) {
	t := r.toks[k]
	var fn string
	body := k + 1
	switch {
	case t.is("rollup") && r.peek(k+1, "("):
		fn = RollupFunc
	case t.is("cube") && r.peek(k+1, "("):
		fn = CubeFunc
	case t.is("grouping") && r.peek(k+1, "sets") && r.peek(k+2, "("):
		fn = GroupingSetsFunc
		r.drop(k+1, k+2)
		body = k + 2
	case t.is("(") && r.peek(k+1, ")"):
		r.ed[k].pre = GroupingSetFunc + r.ed[k].pre
		return k + 2, nil
	case t.is("(") && nested:
		// A parenthesized list inside ROLLUP, CUBE or GROUPING SETS is one
		// grouping set, when it is the whole element.
		close := r.matching(k)
		if close < 0 {
			return len(r.toks), nil
		}
		if close+1 >= len(r.toks) || r.toks[close+1].is(",") || r.toks[close+1].is(")") {
			r.ed[k].pre = GroupingSetFunc + r.ed[k].pre
			return r.groupingList(k, close)
		}
		return r.skipElement(k), nil
	default:
		return r.skipElement(k), nil
	}
	r.replace(k, fn)
	close := r.matching(body)
	if close < 0 {
		return len(r.toks), nil
	}
	return r.groupingList(body, close)
}

// groupingList respells the elements inside the parentheses [open, close].
func (r *rewriter) groupingList(open, close int) (int, error) {
	for k := open + 1; k < close; k++ {
		if r.toks[k].is(",") {
			continue
		}
		next, err := r.groupingElement(k, true)
		if err != nil {
			return 0, err
		}
		k = next - 1
	}
	return close + 1, nil
}

// skipElement returns the index after the expression starting at k: the
// next comma or closing parenthesis at its depth, or a word ending GROUP BY.
func (r *rewriter) skipElement(k int) int {
	depth := 0
	for ; k < len(r.toks); k++ {
		t := r.toks[k]
		switch {
		case t.is("(") || t.is("["):
			depth++
		case t.is(")") || t.is("]"):
			if depth == 0 {
				return k
			}
			depth--
		case depth == 0 && (t.is(",") || t.is(";") || t.kind == tkIdent && groupEnd[t.val]):
			return k
		}
	}
	return k
}

// xmlCall respells XMLPARSE(DOCUMENT|CONTENT x [PRESERVE WHITESPACE]) and
// XMLSERIALIZE(DOCUMENT|CONTENT x AS type) at token i (see XMLFunc).
func (r *rewriter) xmlCall(i int) error {
	close := r.matching(i + 1)
	if close < 0 {
		return nil // unbalanced: TiDB reports it
	}
	k := i + 2
	if !r.peek(k, "document") && !r.peek(k, "content") {
		return r.syntaxErrorAt(k)
	}
	verb := strings.TrimPrefix(r.toks[i].val, "xml")
	r.replace(k, "'"+verb+"_"+r.toks[k].val+"', ")
	if verb == "parse" {
		r.replace(i, XMLFunc)
		if close-2 > k && r.peek(close-1, "whitespace") {
			if r.peek(close-2, "strip") {
				return pgerr.New(pgerr.FeatureNotSupported, "XMLPARSE with STRIP WHITESPACE is not supported").WithPosition(r.pos(close - 2))
			}
			if r.peek(close-2, "preserve") {
				r.drop(close-2, close) // libxml's default
			}
		}
		return nil
	}
	as := r.topLevel(i+1, close, "as")["as"]
	if as == 0 {
		return r.syntaxErrorAt(close)
	}
	typ, udt, next, err := r.parseTypeRef(as + 1)
	if err != nil {
		return err
	}
	if next != close {
		return r.syntaxErrorAt(next)
	}
	target := userTypeCast(udt)
	if udt == "" {
		// PostgreSQL's transformXmlSerialize: text converts to the
		// character types only (a user's type, a domain, is left to the
		// cast).
		if k := typ.Kind(); k != sqltypes.KindText && k != sqltypes.KindBPChar {
			return pgerr.New(pgerr.CannotCoerce, "cannot cast XMLSERIALIZE result to %s", typ).WithPosition(r.pos(i))
		}
		target = castName(typ)
	}
	r.replace(i, CastFunc+"("+XMLFunc)
	r.replace(as, "), '"+target+"'")
	r.drop(as+1, close)
	return nil
}

// isDocument respells x IS [NOT] DOCUMENT, whose IS is token i (see
// XMLFunc).
func (r *rewriter) isDocument(head, i int) error {
	start, ok := r.primaryStart(i-1, head)
	if !ok {
		return r.syntaxErrorAt(i)
	}
	last, mode := i+1, "is_document"
	if r.peek(i+1, "not") {
		last, mode = i+2, "is_not_document"
	}
	r.ed[start].pre = XMLFunc + "('" + mode + "', " + r.ed[start].pre
	r.replace(i, ")")
	r.drop(i+1, last+1)
	r.primStart[last] = start
	return nil
}

// xmlElement respells XMLELEMENT at token i (see XMLElementFunc).
func (r *rewriter) xmlElement(i int) error {
	close := r.matching(i + 1)
	if close < 0 {
		return nil // unbalanced: TiDB reports it
	}
	k := i + 2
	if !r.peek(k, "name") || k+1 >= close || r.toks[k+1].kind != tkIdent && r.toks[k+1].kind != tkQIdent {
		return r.syntaxErrorAt(k)
	}
	r.replace(i, XMLElementFunc)
	r.replace(k, "")
	r.replace(k+1, sqlString(r.toks[k+1].val))
	next := k + 2
	attrs := 0
	if r.peek(next, ",") && r.peek(next+1, "xmlattributes") && r.peek(next+2, "(") {
		open := next + 2
		end := r.matching(open)
		if end < 0 || end >= close {
			return r.syntaxErrorAt(open)
		}
		n, err := r.xmlNamedList(open, end, "attribute")
		if err != nil {
			return err
		}
		attrs = n
		r.replace(next+1, "")
		r.replace(open, "")
		r.replace(end, "")
		r.ed[next+1].post += fmt.Sprint(attrs) + ", "
		return nil
	}
	r.ed[k+1].post += ", 0"
	return nil
}

// xmlNamedList puts each item's name before it in the list between the
// brackets at open and close ('n', v for v AS n; a column reference is
// named by its column) and returns the number of items. what names the
// item in PostgreSQL's error for an unnamed one.
func (r *rewriter) xmlNamedList(open, close int, what string) (int, error) {
	n := 0
	for start := open + 1; start <= close; n++ {
		end := min(r.actionEnd(start), close) // the item's comma, or the bracket
		if start >= end {
			return 0, r.syntaxErrorAt(end)
		}
		as, depth := -1, 0
		for k := start; k < end; k++ {
			switch {
			case r.toks[k].is("("):
				depth++
			case r.toks[k].is(")"):
				depth--
			case depth == 0 && r.toks[k].is("as"):
				as = k
			}
		}
		var name string
		switch {
		case as >= 0 && as+2 == end && (r.toks[as+1].kind == tkIdent || r.toks[as+1].kind == tkQIdent):
			name = r.toks[as+1].val
			r.drop(as, end)
		case as >= 0:
			return 0, r.syntaxErrorAt(as + 1)
		default:
			last := end - 1
			for k := start; k <= last; k++ {
				tk := r.toks[k]
				if !(tk.kind == tkIdent || tk.kind == tkQIdent) && !(tk.is(".") && k > start && k < last) {
					return 0, pgerr.New(pgerr.SyntaxError, "unnamed XML %s value must be a column reference", what).WithPosition(r.pos(start))
				}
			}
			name = r.toks[last].val
		}
		r.ed[start].pre = sqlString(name) + ", " + r.ed[start].pre
		start = end + 1
	}
	return n, nil
}

// sqlString quotes s as an SQL string constant.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// endsOperand reports whether token j (from head on) can end a left
// operand: a name, a constant, a parameter or a closing bracket. After
// anything else an operator that may also be a prefix one (@@ and ?| of
// the geometric types) is the prefix one.
func (r *rewriter) endsOperand(head, j int) bool {
	if j < head {
		return false
	}
	switch r.toks[j].kind {
	case tkString, tkNumber:
		return true
	}
	return r.endsPrimary(j)
}
