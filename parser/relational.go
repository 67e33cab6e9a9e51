package parser

import (
	"sort"
	"strconv"
	"strings"

	tidb "github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/test_driver"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// PostgreSQL query syntax that TiDB's grammar lacks is respelled as syntax
// it has, in a form the planner recognises and reads back. Clause-level
// constructs inside expressions become calls of pseudo-functions whose
// names start with "zp_" (no real function does):
//
//	x DESC NULLS LAST                 → zp_nulls_last(x) DESC
//	SELECT DISTINCT ON (a, b) ...     → SELECT DISTINCT zp_distinct_on(a, b), ...
//	count(*) FILTER (WHERE c)         → zp_agg_filter(count(*), c)
//	string_agg(x, ',' ORDER BY y DESC) → zp_agg_order(string_agg(x, ','), zp_desc(y))
//	f(x) WITHIN GROUP (ORDER BY y)    → zp_within_group(f(x), y)
//	a IS [NOT] DISTINCT FROM b        → (NOT) ((a) <=> (b))
//	a IS [NOT] UNKNOWN                → zp_unknown_test((a)) IS [NOT] NULL
//
// WITH name AS [NOT] MATERIALIZED (...) loses the keywords; the choice
// travels in the query's name, encoded like a FROM alias (SplitAlias).
//
// FROM items: a set-returning function becomes a derived table
// (SELECT zp_table_func(f(args))); a column alias list (AS t(a, b)),
// LATERAL and WITH ORDINALITY travel inside the alias (see SplitAlias);
// FULL [OUTER] JOIN becomes STRAIGHT_JOIN, which PostgreSQL does not have
// and the planner reads as FULL; VALUES lists used as queries get TiDB's
// ROW constructors. RETURNING and UPDATE's FROM list are parsed apart and
// land in Statement.Returning and Statement.From.
const (
	NullsFirstFunc = "zp_nulls_first"
	NullsLastFunc  = "zp_nulls_last"
	DistinctOnFunc = "zp_distinct_on"
	// UnknownTestFunc marks the operand of IS [NOT] UNKNOWN, which TiDB's
	// grammar reads as IS [NOT] NULL: PostgreSQL's boolean test requires a
	// boolean operand, IS NULL takes any.
	UnknownTestFunc = "zp_unknown_test"
	AggFilterFunc   = "zp_agg_filter"
	AggOrderFunc    = "zp_agg_order"
	WithinGroupFunc = "zp_within_group"
	DescFunc        = "zp_desc"
	TableFuncFunc   = "zp_table_func"
	// NoColumnsFunc stands in for the empty select list of SELECT FROM t
	// (PostgreSQL allows one; TiDB's grammar does not): the binder drops
	// it, leaving a result of no columns.
	NoColumnsFunc = "zp_no_columns"
)

// windowOrOrderedCall reports whether the call whose name is token i is
// followed by OVER or WITHIN GROUP (after a FILTER clause, if any).
func (r *rewriter) windowOrOrderedCall(i int) bool {
	k := r.matching(i+1) + 1
	if k == 0 {
		return true // unbalanced: TiDB reports it
	}
	if r.peek(k, "filter") && r.peek(k+1, "(") {
		if close := r.matching(k + 1); close > 0 {
			k = close + 1
		}
	}
	return r.peek(k, "over") || r.peek(k, "within")
}

// hypotheticalNames are the hypothetical-set aggregates, which TiDB parses
// as window functions unless quoted.
var hypotheticalNames = map[string]bool{"rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true}

// emptyListFollowers are the words that may follow SELECT when its select
// list is empty.
var emptyListFollowers = map[string]bool{
	"from": true, "where": true, "group": true, "having": true, "window": true, "order": true,
	"limit": true, "offset": true, "union": true, "intersect": true, "except": true, "for": true, "fetch": true,
}

// emptySelectList reports whether the SELECT at i has no select list.
func (r *rewriter) emptySelectList(i int) bool {
	if i+1 >= len(r.toks) {
		return true
	}
	next := r.toks[i+1]
	return next.is(")") || next.is(";") || next.kind == tkIdent && emptyListFollowers[next.val]
}

// aliasSep separates the parts of an encoded FROM alias. It cannot appear in
// an identifier a client sends through zproxy's scanner unquoted, and quoted
// identifiers holding it are refused.
const aliasSep = "\x1f"

// AliasFlags are the FROM item properties carried in an encoded alias (and
// a WITH query's MATERIALIZED choice, in its encoded name).
type AliasFlags struct {
	Lateral         bool // written LATERAL
	NotLateral      bool // a plain derived table (the respelling needs LATERAL)
	Ordinality      bool // WITH ORDINALITY
	Materialized    bool // WITH q AS MATERIALIZED
	NotMaterialized bool // WITH q AS NOT MATERIALIZED
	// NaturalFull marks the right item of NATURAL FULL JOIN, which is
	// respelled STRAIGHT_JOIN (TiDB has no NATURAL form of it).
	NaturalFull bool
	// Cross marks the right item of CROSS JOIN (TiDB's parse of it is a
	// comma's), which pg_get_viewdef prints as written.
	Cross bool
	// SearchCycle is a WITH query's SEARCH/CYCLE clause, 1-based in
	// Statement.SearchCycles (0: none).
	SearchCycle int
}

// SplitAlias decodes a FROM alias: the name, the flags and the column
// alias list. Aliases the parser did not encode come back unchanged.
func SplitAlias(s string) (string, AliasFlags, []string) {
	if !strings.Contains(s, aliasSep) {
		return s, AliasFlags{}, nil
	}
	parts := strings.Split(s, aliasSep)
	var f AliasFlags
	for i, c := range parts[1] {
		switch c {
		case 'S':
			n := 0
			for _, d := range parts[1][i+1:] {
				if d < '0' || d > '9' {
					break
				}
				n = n*10 + int(d-'0')
			}
			f.SearchCycle = n
		case 'L':
			f.Lateral = true
		case 'N':
			f.NotLateral = true
		case 'O':
			f.Ordinality = true
		case 'M':
			f.Materialized = true
		case 'I':
			f.NotMaterialized = true
		case 'F':
			f.NaturalFull = true
		case 'C':
			f.Cross = true
		}
	}
	return parts[0], f, parts[2:]
}

func encodeAlias(name string, f AliasFlags, cols []string) string {
	flags := ""
	if f.Lateral {
		flags += "L"
	}
	if f.NotLateral {
		flags += "N"
	}
	if f.Ordinality {
		flags += "O"
	}
	if f.Materialized {
		flags += "M"
	}
	if f.NotMaterialized {
		flags += "I"
	}
	if f.NaturalFull {
		flags += "F"
	}
	if f.Cross {
		flags += "C"
	}
	if f.SearchCycle > 0 {
		flags += "S" + strconv.Itoa(f.SearchCycle)
	}
	return strings.Join(append([]string{name, flags}, cols...), aliasSep)
}

// fromItemFollowers are words that may follow a FROM item and so are never
// its alias.
var fromItemFollowers = map[string]bool{
	"join": true, "left": true, "right": true, "full": true, "inner": true, "cross": true, "natural": true,
	"on": true, "using": true, "where": true, "group": true, "order": true, "having": true, "limit": true,
	"offset": true, "union": true, "except": true, "intersect": true, "window": true, "for": true,
	"fetch": true, "returning": true, "set": true, "with": true, "tablesample": true, "lateral": true,
	"straight_join": true, "when": true, "then": true, "else": true, "end": true, "do": true,
}

// relational applies the respellings above to the statement from head on.
func (r *rewriter) relational(head int) error {
	r.targetOnly(head)
	if err := r.liftTail(head); err != nil {
		return err
	}
	r.deleteAlias(head)
	if err := r.fromItems(head); err != nil {
		return err
	}
	for i := head; i < len(r.toks); i++ {
		if r.ed[i].done {
			continue
		}
		t := r.toks[i]
		if t.kind != tkIdent {
			continue
		}
		if t.val == "is" || t.val == "isnull" || t.val == "notnull" {
			// x IS NULL IS NOT UNKNOWN, x IS TRUE IS TRUE: PostgreSQL's
			// tests chain, each the operand of the next; TiDB's grammar
			// takes an IS TRUE's operand from a level below its own, so
			// the tests before are put in parentheses.
			if is, ok := r.isTestBefore(head, i); ok {
				start, err := r.isOperandStart(head, is)
				if err != nil {
					return err
				}
				r.ed[start].outer = "(" + r.ed[start].outer
				r.ed[i-1].outerPost = append(r.ed[i-1].outerPost, ")"...)
			}
		}
		var err error
		switch {
		case tidbWindowNames[t.val] && r.peek(i+1, "(") && !(i > head && r.toks[i-1].is(".")) && !r.windowOrOrderedCall(i):
			// A window function's name called without OVER (or WITHIN
			// GROUP), which TiDB's grammar cannot parse: a plain call of
			// the marked name, which the binder refuses as PostgreSQL
			// does.
			r.replace(i, WindowFuncPrefix+t.val)
		case t.val == "nulls" && (r.peek(i+1, "first") || r.peek(i+1, "last")):
			err = r.nullsOrder(head, i)
		case t.val == "select" && r.emptySelectList(i):
			r.ed[i].post += " " + NoColumnsFunc + "()"
		case t.val == "distinct" && r.peek(i+1, "on") && r.peek(i+2, "(") && i > head && r.toks[i-1].is("select"):
			close := r.matching(i + 2)
			if close < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			r.replace(i+1, DistinctOnFunc)
			r.ed[close].post += ","
		case t.val == "filter" && r.peek(i+1, "(") && r.peek(i+2, "where") && i > head && r.toks[i-1].is(")"):
			err = r.wrapCall(head, i, AggFilterFunc, 3)
		case t.val == "within" && r.peek(i+1, "group") && r.peek(i+2, "(") && r.peek(i+3, "order") && r.peek(i+4, "by") && i > head && r.toks[i-1].is(")"):
			close := r.matching(i + 2)
			if close < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			start, _ := r.primaryStart(i-1, head)
			if n := r.toks[start]; n.kind == tkIdent && hypotheticalNames[n.val] && r.peek(start+1, "(") && !r.ed[start].hasRep {
				// TiDB's grammar has these only as window functions of no
				// arguments; quoted, they are plain calls.
				r.replace(start, "`"+n.val+"`")
			}
			if err = r.wrapCall(head, i, WithinGroupFunc, 5); err == nil {
				r.descKeys(i+5, close)
				r.primStart[close] = start // a FILTER clause wraps the whole call
			}
		case t.val == "order" && r.peek(i+1, "by") && r.insideCall(head, i):
			err = r.aggOrder(head, i)
		case t.val == "over" && i > head && r.toks[i-1].is(")") && i+1 < len(r.toks) &&
			(r.peek(i+1, "(") || r.toks[i+1].kind == tkIdent || r.toks[i+1].kind == tkQIdent):
			err = r.overCall(head, i)
		case t.val == "materialized" && r.peek(i+1, "(") && i-1 > head && (r.toks[i-1].is("as") || r.toks[i-1].is("not") && r.peek(i-2, "as")):
			err = r.cteMaterialized(head, i)
		case t.val == "offset" && r.peek(r.countEnd(i+1), "limit"):
			err = r.offsetLimit(i)
		case t.val == "limit" && r.peek(r.countEnd(i+1), "offset"):
			// LIMIT a OFFSET b: both lifted when one must be, so that
			// the token-level LIMIT rewrites never see half of it.
			off := r.countEnd(i + 1)
			switch {
			case r.peek(i+1, "all") && off == i+2:
				if r.countExpression(off) {
					err = r.liftCount(head, off) // LIMIT ALL is dropped
				}
			case r.countExpression(i) || r.countExpression(off):
				if err = r.liftCount(head, i); err == nil {
					err = r.liftCount(head, off)
				}
			}
		case (t.val == "limit" || t.val == "offset") && r.countExpression(i):
			err = r.liftCount(head, i)
		case (t.val == "insert" || t.val == "update" || t.val == "delete") && i > head && r.toks[i-1].is("("):
			err = r.writeCTE(i)
		case t.val == "merge" && i > head && r.toks[i-1].is("(") && r.peek(i+1, "into") && i >= 2 && r.peek(i-2, "as"):
			err = r.mergeInWith(i)
		case t.val == "values" && r.queryValues(head, i):
			r.valueRows(i)
		case t.val == "is" && (r.peek(i+1, "distinct") && r.peek(i+2, "from") ||
			r.peek(i+1, "not") && r.peek(i+2, "distinct") && r.peek(i+3, "from")):
			err = r.distinctFrom(head, i)
		case t.val == "tablesample" && i+1 < len(r.toks):
			err = r.tableSample(i)
		case t.val == "set" && r.updateSet(head, i):
			err = r.multiAssign(i)
		case t.val == "insert" && i == head && r.peek(i+1, "into"):
			err = r.insertSubscripts(i)
		case t.val == "is" && (r.peek(i+1, "unknown") || r.peek(i+1, "not") && r.peek(i+2, "unknown")):
			err = r.unknownTest(head, i)
		case (t.val == "isnull" || t.val == "notnull") && i > head && !r.toks[i-1].is("as") && !r.toks[i-1].is(".") && !r.peek(i+1, "("):
			// PostgreSQL's postfix x ISNULL and x NOTNULL, IS NULL and
			// IS NOT NULL of the same precedence; TiDB would take the
			// word for a column alias (SELECT 1 ISNULL answered 1).
			// Bare, neither word names a column or a table there: only
			// after AS, after a dot, or as a function's name.
			r.replace(i, map[string]string{"isnull": "IS NULL", "notnull": "IS NOT NULL"}[t.val])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// CountExprBase is the first of the LIMIT values that stand for a lifted
// LIMIT or OFFSET expression (Statement.CountExprs): larger than any row
// count, below NoLimit.
const CountExprBase = 18446744073709550000

// CountExprIndex returns which lifted expression a LIMIT or OFFSET value
// stands for, if it is one.
func CountExprIndex(v uint64) (int, bool) {
	if v >= CountExprBase && v < CountExprBase+1000 {
		return int(v - CountExprBase), true
	}
	return 0, false
}

// countExpression reports whether the LIMIT or OFFSET at i takes an
// operand TiDB cannot parse there: not a number, a parameter, a string
// (LIMIT '5') or ALL, and not a negative number (refused as PostgreSQL
// does, in rewrite).
func (r *rewriter) countExpression(i int) bool {
	if i+1 >= len(r.toks) || r.ed[i].done {
		return false
	}
	n := r.toks[i+1]
	switch {
	case n.kind == tkNumber && isUnsignedInt(n.val) || n.kind == tkParam || n.is("all"):
		// What TiDB's grammar takes; a string or a decimal is an
		// expression coerced to bigint (LIMIT '5', OFFSET 1.5, LIMIT 'x'
		// failing as bigint input at the literal).
		return !r.countEndsAt(i+2, i+1)
	case n.is("-") && i+2 < len(r.toks) && r.toks[i+2].kind == tkNumber:
		return !r.countEndsAt(i+3, i+1)
	}
	return !r.countEndsAt(i+1, i+1)
}

// countEndsAt reports whether a LIMIT or OFFSET operand starting at from
// has ended by token k.
func (r *rewriter) countEndsAt(k, from int) bool {
	return r.countEnd(from) <= k
}

// countEnd is the token after the LIMIT or OFFSET operand starting at from.
func (r *rewriter) countEnd(from int) int {
	end := len(r.toks)
	r.atDepth0(from, len(r.toks), func(k int) bool {
		t := r.toks[k]
		if t.is(";") || t.kind == tkIdent && (t.val == "offset" || t.val == "limit" || t.val == "fetch" || t.val == "for" ||
			t.val == "union" || t.val == "intersect" || t.val == "except" || t.val == "returning" || t.val == "rows" || t.val == "row") {
			end = k
			return false
		}
		return true
	})
	// A closing parenthesis of an enclosing query ends it too.
	depth := 0
	for k := from; k < end; k++ {
		switch {
		case r.toks[k].is("("):
			depth++
		case r.toks[k].is(")"):
			if depth == 0 {
				return k
			}
			depth--
		}
	}
	return end
}

// offsetLimit respells "OFFSET a LIMIT b" (at i), which TiDB's grammar
// takes only the other way round: both operands are lifted, so they can
// stand in either order.
func (r *rewriter) offsetLimit(i int) error {
	lim := r.countEnd(i + 1)
	a, err := r.lift(i+1, lim)
	if err != nil {
		return err
	}
	b, err := r.lift(lim+1, r.countEnd(lim+1))
	if err != nil {
		return err
	}
	r.replace(i, "LIMIT "+b+" OFFSET "+a)
	r.drop(lim, lim+1)
	r.ed[i+1].done, r.ed[lim].done = true, true
	return nil
}

// limitAt returns the LIMIT before token i at its depth (scanning back to
// head), or -1.
func (r *rewriter) limitAt(head, i int) int {
	depth := 0
	for k := i - 1; k >= head; k-- {
		switch {
		case r.toks[k].is(")"):
			depth++
		case r.toks[k].is("("):
			if depth == 0 {
				return -1
			}
			depth--
		case depth == 0 && r.toks[k].is("limit"):
			return k
		}
	}
	return -1
}

// lift parses tokens [from, to) apart as a LIMIT or OFFSET operand, drops
// them, and returns the value that stands for it.
func (r *rewriter) lift(from, to int) (string, error) {
	if to <= from {
		return "", r.syntaxErrorAt(from)
	}
	stmt, err := r.subParse("SELECT ", from, to)
	if err != nil {
		return "", err
	}
	fields := stmt.(*ast.SelectStmt).Fields.Fields
	if len(fields) != 1 || fields[0].Expr == nil {
		return "", r.syntaxErrorAt(from)
	}
	st := r.lifted()
	st.CountExprs = append(st.CountExprs, fields[0].Expr)
	r.drop(from, to)
	return strconv.FormatUint(CountExprBase+uint64(len(st.CountExprs)-1), 10), nil
}

// liftCount parses the LIMIT or OFFSET operand after token i apart and puts
// its stand-in value in its place.
func (r *rewriter) liftCount(head, i int) error {
	v, err := r.lift(i+1, r.countEnd(i+1))
	if err != nil {
		return err
	}
	r.ed[i].post += " " + v
	// The token-level LIMIT rewrites (rewrite.go) are done here: TiDB needs
	// a LIMIT before an OFFSET.
	if k := r.limitAt(head, i); r.toks[i].is("offset") && (k < 0 || r.peek(k+1, "all")) {
		r.ed[i].pre = "LIMIT " + NoLimit + " " + r.ed[i].pre
	}
	r.ed[i].done = true
	return nil
}

// targetOnly takes ONLY off UPDATE ONLY t and DELETE FROM ONLY t into
// Statement.TargetOnly (TiDB's grammar has no ONLY).
func (r *rewriter) targetOnly(head int) {
	k := head + 1
	if r.peek(head, "delete") {
		k++
		if !r.peek(head+1, "from") {
			return
		}
	} else if !r.peek(head, "update") {
		return
	}
	if r.peek(k, "only") && k+1 < len(r.toks) && (r.toks[k+1].kind == tkIdent || r.toks[k+1].kind == tkQIdent) {
		r.st.TargetOnly = true
		r.drop(k, k+1)
	}
}

// deleteAlias takes the alias off DELETE FROM t [AS] a USING ... into
// Statement.TargetAlias (TiDB's DELETE ... USING names its target without
// one).
func (r *rewriter) deleteAlias(head int) {
	if !r.peek(head, "delete") || !r.peek(head+1, "from") {
		return
	}
	k := head + 2
	if r.st.TargetOnly {
		k++ // DELETE FROM ONLY t (targetOnly)
	}
	if k+2 < len(r.toks) && r.toks[k+1].is(".") {
		k += 2 // schema.table
	}
	a := k + 1
	if r.peek(a, "as") {
		a++
	}
	if a < len(r.toks) && (r.toks[a].kind == tkIdent && !pgReserved[r.toks[a].val] && r.toks[a].val != "using" || r.toks[a].kind == tkQIdent) && r.peek(a+1, "using") {
		r.st.TargetAlias = r.toks[a].val
		r.drop(k+1, a+1)
	}
}

// liftTail parses RETURNING, and UPDATE's FROM list, apart from the rest of
// the statement (TiDB's grammar has neither).
func (r *rewriter) liftTail(head int) error {
	if !r.peek(head, "insert") && !r.peek(head, "update") && !r.peek(head, "delete") {
		return nil
	}
	depth := 0
	ret, from, where := -1, -1, -1
	for i := head; i < len(r.toks); i++ {
		switch t := r.toks[i]; {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && t.is("returning") && ret < 0:
			ret = i
		// UPDATE's FROM list comes before its WHERE; the FROM of
		// IS [NOT] DISTINCT FROM, in a SET value or the WHERE, is none.
		case depth == 0 && t.is("from") && r.peek(head, "update") && from < 0 && where < 0 && ret < 0 &&
			!r.toks[i-1].is("distinct"):
			from = i
		case depth == 0 && t.is("where") && where < 0 && ret < 0:
			where = i
		}
	}
	if from < 0 {
		where = -1 // only a FROM list ends at the WHERE
	}
	if ret >= 0 {
		if ret+1 >= len(r.toks) {
			return r.syntaxErrorAt(ret + 1)
		}
		stmt, err := r.subParse("SELECT ", ret+1, len(r.toks))
		if err != nil {
			return err
		}
		r.st.Returning = stmt.(*ast.SelectStmt).Fields
		r.drop(ret, len(r.toks))
	}
	if from >= 0 {
		end := len(r.toks)
		if where >= 0 {
			end = where
		} else if ret >= 0 {
			end = ret
		}
		if from+1 >= end {
			return r.syntaxErrorAt(from + 1)
		}
		stmt, err := r.subParse("SELECT 1 FROM ", from+1, end)
		if err != nil {
			return err
		}
		r.st.From = stmt.(*ast.SelectStmt).From.TableRefs
		r.drop(from, end)
	}
	return nil
}

// subParse respells and parses tokens [from, to) of the statement, after
// prefix, as a statement of their own. Their parameter markers are
// numbered after the main statement's (see numberSubParams).
func (r *rewriter) subParse(prefix string, from, to int) (ast.StmtNode, error) {
	return r.subParseAround(prefix, "", from, to)
}

// subParseAround is subParse with a suffix after the tokens too. What the
// part lifts (LIMIT operands, data-modifying WITH queries) goes to the
// statement being parsed.
func (r *rewriter) subParseAround(prefix, suffix string, from, to int) (ast.StmtNode, error) {
	sub := &rewriter{sql: r.sql, toks: r.toks[from:to], ed: make([]edit, to-from), primStart: map[int]int{},
		st: &Statement{query: r.sql, Offset: r.st.Offset}, root: r.lifted(), startInFrom: strings.HasSuffix(prefix, " FROM "),
		startInUpdate: strings.HasPrefix(prefix, "UPDATE ") && r.toks[from].is("set")}
	if err := sub.rewrite(0); err != nil {
		return nil, err
	}
	text := prefix + sub.emit(0) + suffix
	segs := []seg{{out: 0, orig: r.toks[from].start}}
	for _, s := range sub.seg {
		s.out += len(prefix)
		segs = append(segs, s)
	}
	p := tidbPool.Get().(*tidb.Parser)
	defer releaseTiDB(p)
	stmts, _, err := p.ParseSQL(text)
	if err != nil || len(stmts) != 1 {
		if err == nil {
			return nil, r.syntaxErrorAt(from)
		}
		st := &Statement{SQL: text, segs: segs, Offset: r.st.Offset, query: r.sql}
		i := sub.tidbErrorToken(st, err)
		if i >= 0 && i < len(sub.toks) {
			return nil, r.tidbError(from+i, err)
		}
		return nil, r.tidbError(-1, err)
	}
	var markers []*test_driver.ParamMarkerExpr
	stmts[0].Accept(markerCollector{&markers})
	sortMarkers(markers)
	if root := r.lifted(); len(text) < partBase {
		// The part's nodes record offsets in its own text: shift them
		// past the statement's so that Statement.Position maps them
		// through the part's segments to the client's text.
		root.parts = append(root.parts, segs)
		stmts[0].Accept(shiftOffsets{by: partBase * len(root.parts)})
	}
	ns := make([]int, len(sub.params))
	for i, p := range sub.params {
		ns[i] = p.n
	}
	r.subParams = append(r.subParams, subParams{markers: markers, ns: ns})
	return stmts[0], nil
}

// partBase is the stride of the offsets of parts parsed apart (see
// Statement.parts): beyond any statement's text.
const partBase = 1 << 30

// shiftOffsets adds by to the offset every node of a part records.
type shiftOffsets struct{ by int }

func (v shiftOffsets) Enter(n ast.Node) (ast.Node, bool) {
	n.SetOriginTextPosition(n.OriginTextPosition() + v.by)
	return n, false
}

func (v shiftOffsets) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// subParams are the markers of a separately parsed part and the $n each
// stands for, in text order.
type subParams struct {
	markers []*test_driver.ParamMarkerExpr
	ns      []int
}

// numberSubParams gives the markers of separately parsed parts the Order
// numbers after the main statement's, and records their $n.
func (r *rewriter) numberSubParams(st *Statement) {
	for _, sp := range r.subParams {
		for i, m := range sp.markers {
			m.Order = len(st.ParamOrder)
			n := 0
			if i < len(sp.ns) {
				n = sp.ns[i]
			}
			st.ParamOrder = append(st.ParamOrder, n)
			st.NumParams = max(st.NumParams, n)
		}
	}
}

// fromItems walks the FROM lists of the statement (and DELETE's USING),
// respelling table functions, alias column lists, LATERAL and FULL JOIN.
func (r *rewriter) fromItems(head int) error {
	type level struct {
		query  bool // SELECT or DELETE seen at this level
		sel    bool // SELECT seen at this level
		inFrom bool
		expect bool // the next token starts a FROM item
	}
	stack := []level{{query: r.startInFrom, inFrom: r.startInFrom, expect: r.startInFrom}}
	lateral, naturalFull, cross, deleteUsing := false, false, false, false
	for i := head; i < len(r.toks); i++ {
		if r.ed[i].done {
			continue
		}
		t := r.toks[i]
		lv := &stack[len(stack)-1]
		switch {
		case t.is("("):
			if lv.inFrom && lv.expect {
				close := r.matching(i)
				if close < 0 {
					return r.syntaxErrorAt(len(r.toks))
				}
				inner := level{}
				flags := AliasFlags{Lateral: lateral, NotLateral: !lateral, NaturalFull: naturalFull, Cross: cross}
				if r.parenthesizedJoin(i) {
					inner = level{query: true, inFrom: true, expect: true} // a parenthesized join
					if r.hasAlias(close + 1) {
						// (a JOIN b) AS j(x, y): a derived table, which
						// TiDB can alias (and which hides a and b too).
						r.ed[i+1].pre = "SELECT * FROM " + r.ed[i+1].pre
						if err := r.itemAlias(close+1, flags, false); err != nil {
							return err
						}
					} else if naturalFull || cross {
						// NATURAL FULL JOIN (b JOIN c), CROSS JOIN (b JOIN
						// c): the join has no alias to carry the flag, so
						// its first item does (the planner looks for it
						// there, rightItemFlags).
						if cross {
							// TiDB's grammar joins a CROSS JOIN to the
							// right and then moves its left item into the
							// parenthesized join (ast.NewCrossJoin):
							// JOIN (b JOIN c) ON TRUE keeps the tree as
							// written, and the planner drops the ON.
							r.ed[close].post += " ON TRUE"
						}
						lv.expect, lateral = false, false
						stack = append(stack, inner)
						continue
					}
				} else {
					if !r.hasAlias(close + 1) {
						st := r.lifted()
						st.UnaliasedSubqueries = append(st.UnaliasedSubqueries, r.pos(i))
					}
					if err := r.itemAlias(close+1, flags, false); err != nil {
						return err
					}
				}
				lv.expect, lateral, naturalFull, cross = false, false, false, false
				stack = append(stack, inner)
				continue
			}
			stack = append(stack, level{})
		case t.is(")"):
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case t.kind == tkIdent && (t.val == "select" || t.val == "delete"):
			lv.query = true
			lv.sel = lv.sel || t.val == "select"
		case t.kind == tkIdent && t.val == "from" && lv.query && !(i > head && r.toks[i-1].is("distinct")):
			lv.inFrom, lv.expect = true, true
		case t.kind == tkIdent && t.val == "using" && lv.query && len(stack) == 1 && !deleteUsing && r.peek(head, "delete"):
			// DELETE's USING list (its target, the FROM item before,
			// has no joins, so this USING is no join's).
			lv.inFrom, lv.expect, deleteUsing = true, true, true
		case !lv.inFrom:
		case t.is(","):
			lv.expect, lateral = true, false
		case t.kind == tkIdent && (t.val == "join" || t.val == "straight_join"):
			lv.expect, lateral = true, false
			cross = t.val == "join" && i > head && r.toks[i-1].is("cross")
		case t.kind == tkIdent && t.val == "inner" && i > head && r.toks[i-1].is("natural"):
			r.drop(i, i+1) // NATURAL INNER JOIN is NATURAL JOIN, which TiDB has
		case t.kind == tkIdent && t.val == "full":
			k := i + 1
			if r.peek(k, "outer") {
				k++
			}
			if !r.peek(k, "join") {
				return r.syntaxErrorAt(k)
			}
			if i > head && r.toks[i-1].is("natural") {
				// The right item's alias says NATURAL (AliasFlags).
				r.drop(i-1, i)
				naturalFull = true
			}
			r.replace(i, "STRAIGHT_JOIN")
			r.drop(i+1, k+1)
			lv.expect = true
			i = k
		case t.kind == tkIdent && (t.val == "where" || t.val == "group" || t.val == "having" || t.val == "order" ||
			t.val == "limit" || t.val == "offset" || t.val == "window" || t.val == "union" || t.val == "intersect" ||
			t.val == "except" || t.val == "for" || t.val == "fetch" || t.val == "returning"):
			lv.inFrom, lv.expect = false, false
		case t.kind == tkIdent && t.val == "on" && !lv.expect:
		case lv.expect && t.kind == tkIdent && t.val == "lateral":
			lateral = true
		case lv.expect && t.kind == tkIdent && t.val == "only":
			r.drop(i, i+1)
			if lv.sel && !deleteUsing && i+1 < len(r.toks) && (r.toks[i+1].kind == tkIdent || r.toks[i+1].kind == tkQIdent) && !r.peek(i+2, ".") {
				// SELECT ... FROM ONLY t: the binder reads t without the
				// tables inheriting from it (OnlySchema).
				r.ed[i+1].pre = OnlySchema + "." + r.ed[i+1].pre
			}
		case lv.expect && (t.kind == tkIdent || t.kind == tkQIdent):
			end, err := r.skipName(i)
			if err != nil {
				return err
			}
			if t.kind == tkIdent && t.val == "rows" && r.peek(i+1, "from") && r.peek(i+2, "(") {
				// ROWS FROM (f(...), g(...)): a call of RowsFromFunc.
				r.replace(i, RowsFromFunc)
				r.drop(i+1, i+2)
				end = i + 2
			}
			if r.peek(end, "(") {
				close := r.matching(end)
				if close < 0 {
					return r.syntaxErrorAt(len(r.toks))
				}
				// A function in FROM: a one-row derived table TiDB can parse.
				r.ed[i].pre = "(SELECT " + TableFuncFunc + "(" + r.ed[i].pre
				r.ed[close].post += "))"
				flags := AliasFlags{NaturalFull: naturalFull, Cross: cross}
				next := close + 1
				if r.peek(next, "with") && r.peek(next+1, "ordinality") {
					flags.Ordinality = true
					r.drop(next, next+2)
					next += 2
				}
				if err := r.itemAlias(next, flags, true); err != nil {
					return err
				}
				i = close
			} else {
				if err := r.itemAlias(end, AliasFlags{NaturalFull: naturalFull, Cross: cross}, false); err != nil {
					return err
				}
				i = end - 1
			}
			lv.expect, lateral, naturalFull, cross = false, false, false, false
		default:
			lv.expect = false
		}
	}
	return nil
}

// parenthesizedJoin reports whether the FROM item opening with the "(" at
// i is a parenthesized join, (a JOIN b), rather than a derived table,
// (SELECT ...) or ((SELECT ...) UNION (SELECT ...)). A join may itself start
// with a parenthesized item, ((VALUES ...) AS v JOIN b ...), so an inner
// "(" decides by what follows its own close: an alias or a join keyword
// makes a join, a set operation or ORDER BY/LIMIT a query.
func (r *rewriter) parenthesizedJoin(i int) bool {
	j := i + 1
	if !r.peek(j, "(") {
		return !r.peekAny(j, "select", "values", "with", "table")
	}
	close := r.matching(j)
	if close < 0 {
		return false
	}
	next := close + 1
	if r.peek(next, ")") {
		return r.parenthesizedJoin(j) // ((a JOIN b)) or ((SELECT ...))
	}
	return !r.peekAny(next, "union", "intersect", "except", "order", "limit", "offset", "fetch", "for")
}

// itemAlias reads "[AS] alias [(col, ...)]" at k and, when there is a
// column list or flags to carry, replaces the alias with its encoding. A
// table function always gets an alias (TiDB wants one on derived tables).
func (r *rewriter) itemAlias(k int, flags AliasFlags, always bool) error {
	aliasAt := -1
	if always && r.peek(k, "as") && r.peek(k+1, "(") {
		// A function's column definition list with no alias:
		// FROM f() AS (a int, b text).
		return r.columnDefinitions(k, k+1, "", flags)
	}
	if r.peek(k, "as") {
		if k+1 >= len(r.toks) || r.toks[k+1].kind != tkIdent && r.toks[k+1].kind != tkQIdent {
			return r.syntaxErrorAt(k + 1)
		}
		aliasAt = k + 1
	} else if k < len(r.toks) && (r.toks[k].kind == tkQIdent || r.toks[k].kind == tkIdent && !fromItemFollowers[r.toks[k].val] && !pgReserved[r.toks[k].val]) {
		aliasAt = k
	}
	var cols []string
	colsEnd := -1
	if always && aliasAt >= 0 && r.peek(aliasAt+1, "(") && r.columnDefinitionList(aliasAt+1) {
		name := r.toks[aliasAt].val
		if strings.Contains(name, aliasSep) {
			return pgerr.New(pgerr.InvalidName, "invalid character in alias %q", name).WithPosition(r.pos(aliasAt))
		}
		if !r.peek(k, "as") {
			r.ed[aliasAt].pre = "AS " + r.ed[aliasAt].pre
		}
		return r.columnDefinitions(aliasAt, aliasAt+1, name, flags)
	}
	if aliasAt >= 0 && r.peek(aliasAt+1, "(") {
		close := r.matching(aliasAt + 1)
		if close < 0 {
			return r.syntaxErrorAt(len(r.toks))
		}
		for c := aliasAt + 2; c < close; c += 2 {
			if t := r.toks[c]; t.kind != tkIdent && t.kind != tkQIdent {
				return r.syntaxErrorAt(c)
			}
			cols = append(cols, r.toks[c].val)
			if c+1 < close && !r.peek(c+1, ",") {
				return r.syntaxErrorAt(c + 1)
			}
		}
		colsEnd = close
	}
	if len(cols) == 0 && !flags.Lateral && !flags.Ordinality && !flags.NaturalFull && !flags.Cross && !always {
		return nil
	}
	if len(cols) == 0 && flags.NotLateral && !flags.NaturalFull && !flags.Cross && !always {
		return nil
	}
	name := ""
	if aliasAt >= 0 {
		name = r.toks[aliasAt].val
		if strings.Contains(name, aliasSep) {
			return pgerr.New(pgerr.InvalidName, "invalid character in alias %q", name).WithPosition(r.pos(aliasAt))
		}
	}
	enc := "`" + strings.ReplaceAll(encodeAlias(name, flags, cols), "`", "``") + "`"
	switch {
	case aliasAt >= 0:
		r.replace(aliasAt, enc)
		if colsEnd >= 0 {
			r.drop(aliasAt+1, colsEnd+1)
		}
		if !r.peek(k, "as") {
			r.ed[aliasAt].pre = "AS " + r.ed[aliasAt].pre
		}
	case k > 0:
		r.ed[k-1].post += " AS " + enc
	}
	return nil
}

// ColumnDefSep separates a column's name from its type in an encoded
// FROM alias's column definition list (AS t(a int, b text)).
const ColumnDefSep = "\x1e"

// columnDefinitionList reports whether the parenthesized list at open is
// a column definition list (its first column has a type) rather than a
// list of column aliases.
func (r *rewriter) columnDefinitionList(open int) bool {
	return open+2 < len(r.toks) && (r.toks[open+1].kind == tkIdent || r.toks[open+1].kind == tkQIdent) &&
		!r.peek(open+2, ",") && !r.peek(open+2, ")")
}

// columnDefinitions reads a function's column definition list "(name
// type, ...)" at open, the alias (name, possibly empty) at at (the AS
// when there is none), and replaces them with the encoded alias, each
// column "name" ColumnDefSep "type" (the type as zp_cast names it).
func (r *rewriter) columnDefinitions(at, open int, name string, flags AliasFlags) error {
	close := r.matching(open)
	if close < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	var cols []string
	for c := open + 1; c < close; {
		if t := r.toks[c]; t.kind != tkIdent && t.kind != tkQIdent {
			return r.syntaxErrorAt(c)
		}
		col := r.toks[c].val
		if strings.Contains(col, aliasSep) || strings.Contains(col, ColumnDefSep) {
			return pgerr.New(pgerr.InvalidName, "invalid character in column name %q", col).WithPosition(r.pos(c))
		}
		target, next, err := r.castTarget(c + 1)
		if err != nil {
			return err
		}
		if r.peek(next, "collate") && next+1 < close {
			next += 2 // PostgreSQL's collations are all the same to zproxy
		}
		cols = append(cols, col+ColumnDefSep+target)
		if next < close && !r.peek(next, ",") {
			return r.syntaxErrorAt(next)
		}
		c = next + 1
	}
	if len(cols) == 0 {
		return r.syntaxErrorAt(close)
	}
	enc := "`" + strings.ReplaceAll(encodeAlias(name, flags, cols), "`", "``") + "`"
	if name == "" {
		// AS (...): the AS stays, the list becomes the alias.
		r.replace(open, enc)
		r.drop(open+1, close+1)
		return nil
	}
	r.replace(at, enc)
	r.drop(open, close+1)
	return nil
}

// SplitColumnDef splits an entry of a FROM alias's column list: the
// column's name and, from a column definition list, its type's name as
// zp_cast spells it ("" for a plain column alias).
func SplitColumnDef(s string) (name, typ string) {
	name, typ, _ = strings.Cut(s, ColumnDefSep)
	return name, typ
}

// cteMaterialized removes [NOT] MATERIALIZED (at i) from a WITH query and
// records it in the query's name.
func (r *rewriter) cteMaterialized(head, i int) error {
	as, f := i-1, AliasFlags{Materialized: true}
	if r.toks[i-1].is("not") {
		as, f = i-2, AliasFlags{NotMaterialized: true}
	}
	name := as - 1
	if r.peek(name, ")") {
		// WITH q(a, b) AS ...: the name is before the column list.
		if name = r.matchingBack(name) - 1; name < head {
			return r.syntaxErrorAt(i)
		}
	}
	if t := r.toks[name]; t.kind != tkIdent && t.kind != tkQIdent || strings.Contains(t.val, aliasSep) {
		return r.syntaxErrorAt(i)
	}
	f.SearchCycle = r.cteSearchCycle[name]
	r.replace(name, "`"+strings.ReplaceAll(encodeAlias(r.toks[name].val, f, nil), "`", "``")+"`")
	r.drop(as+1, i+1)
	return nil
}

// hasAlias reports whether a FROM item's alias starts at k.
func (r *rewriter) hasAlias(k int) bool {
	return r.peek(k, "as") || k < len(r.toks) && (r.toks[k].kind == tkQIdent ||
		r.toks[k].kind == tkIdent && !fromItemFollowers[r.toks[k].val] && !pgReserved[r.toks[k].val])
}

// queryValues reports whether VALUES at i is a query (not INSERT's list).
func (r *rewriter) queryValues(head, i int) bool {
	if i == head {
		return true
	}
	p := r.toks[i-1]
	return p.is("(") || p.is("union") || p.is("intersect") || p.is("except") || p.is("all") || p.is("as")
}

// valueRows puts ROW before each row of a VALUES query at i.
func (r *rewriter) valueRows(i int) {
	k := i + 1
	for r.peek(k, "(") {
		close := r.matching(k)
		if close < 0 {
			return
		}
		r.ed[k].pre = " ROW" + r.ed[k].pre // spaced: VALUES(1) has none before its "("
		k = close + 1
		if !r.peek(k, ",") {
			return
		}
		k++
	}
}

// itemStart finds the first token of the list item (ORDER BY key, select
// field, argument) that ends just before token i.
func (r *rewriter) itemStart(head, i int) int {
	for k := i - 1; k >= head; k-- {
		t := r.toks[k]
		switch {
		case t.is(")") || t.is("]"):
			k = r.matchingBack(k)
			if k < 0 {
				return head
			}
		case t.is("(") || t.is("["), t.is(","), t.is("by"):
			return k + 1
		}
	}
	return head
}

// wrapItem opens a call of fn around the ORDER BY key starting at token
// start (the caller closes it). The opening goes after the BY or comma
// before the key when there is one, not into the key's own prefix: rewrites
// of the key's first token that run later (a cast, x::text becomes
// zp_cast(x, 'text')) prefix it too, and would otherwise wrap fn's call
// instead of sitting inside it. A later wrapper still goes outside an
// earlier one.
func (r *rewriter) wrapItem(start int, fn string) {
	if start > 0 && (r.toks[start-1].is(",") || r.toks[start-1].is("by")) {
		r.ed[start-1].post = " " + fn + "(" + r.ed[start-1].post
		return
	}
	r.ed[start].pre = fn + "(" + r.ed[start].pre
}

// nullsOrder respells "key [ASC|DESC] NULLS FIRST|LAST" at i.
func (r *rewriter) nullsOrder(head, i int) error {
	fn := NullsFirstFunc
	if r.toks[i+1].val == "last" {
		fn = NullsLastFunc
	}
	end := i // the token after the key expression
	if i > head && (r.toks[i-1].is("asc") || r.toks[i-1].is("desc")) {
		end = i - 1
	}
	start := r.itemStart(head, end)
	if start >= end {
		return r.syntaxErrorAt(i)
	}
	r.wrapItem(start, fn)
	if end == i {
		r.replace(i, ")")
		r.drop(i+1, i+2)
	} else {
		r.ed[end].pre = ")" + r.ed[end].pre
		r.drop(i, i+2)
	}
	return nil
}

// wrapCall turns "call(...) KEYWORD (..." at keyword k into
// "fn(call(...), ..." dropping the n tokens from k on: the clause's
// closing parenthesis then closes fn.
func (r *rewriter) wrapCall(head, k int, fn string, n int) error {
	start, ok := r.primaryStart(k-1, head)
	if !ok {
		return r.syntaxErrorAt(k)
	}
	r.ed[start].pre = fn + "(" + r.ed[start].pre
	r.replace(k, ",")
	r.drop(k+1, k+n)
	return nil
}

// insideCall reports whether the ORDER at i sits directly inside a function
// call's parentheses (an ordered aggregate), not in a subquery or OVER.
func (r *rewriter) insideCall(head, i int) bool {
	depth := 0
	for k := i - 1; k >= head; k-- {
		t := r.toks[k]
		switch {
		case t.is(")"):
			depth++
		case t.is("("):
			if depth > 0 {
				depth--
				continue
			}
			if k-1 < head {
				return false
			}
			f := r.toks[k-1]
			return (f.kind == tkIdent || f.kind == tkQIdent) && !notFunctionNames[f.val] && !pgReserved[f.val] &&
				f.val != "over" && f.val != "filter" && f.val != "group" && f.val != "exists"
		case depth == 0 && (t.is("select") || t.is("from") || t.is("where")):
			return false
		}
	}
	return false
}

// aggOrder respells "agg(args ORDER BY keys)" at the ORDER token i.
func (r *rewriter) aggOrder(head, i int) error {
	open := -1
	depth := 0
	for k := i - 1; k >= head; k-- {
		if r.toks[k].is(")") {
			depth++
		} else if r.toks[k].is("(") {
			if depth == 0 {
				open = k
				break
			}
			depth--
		}
	}
	close := r.matching(open)
	if open < 1 || close < 0 {
		return r.syntaxErrorAt(i)
	}
	start := r.qualifiedStart(open-1, head)
	r.ed[start].pre = AggOrderFunc + "(" + r.ed[start].pre
	r.replace(i, "),")
	r.drop(i+1, i+2)
	r.descKeys(i+2, close)
	return nil
}

// descKeys respells the keys of an ORDER BY list in [from, to) inside a
// call: "x DESC" becomes zp_desc(x), ASC is dropped.
func (r *rewriter) descKeys(from, to int) {
	start := from
	depth := 0
	for k := from; k <= to; k++ {
		t := r.toks[k]
		switch {
		case k == to || depth == 0 && t.is(","):
			last := k - 1
			if last-1 > start && r.toks[last-1].is("nulls") && (r.toks[last].is("first") || r.toks[last].is("last")) {
				last -= 2 // NULLS FIRST|LAST, respelled later
			}
			if last >= start && r.toks[last].is("desc") {
				r.wrapItem(start, DescFunc)
				r.replace(last, ")")
			} else if last >= start && r.toks[last].is("asc") {
				r.drop(last, last+1)
			}
			start = k + 1
		case t.is("(") || t.is("["):
			depth++
		case t.is(")") || t.is("]"):
			depth--
		}
	}
}

// isStoppers end the operands of IS [NOT] DISTINCT FROM: operators of lower
// precedence and the words that end an expression.
var isStoppers = map[string]bool{
	"and": true, "or": true, "not": true, "is": true, "when": true, "then": true, "else": true, "end": true,
	"as": true, "from": true, "where": true, "group": true, "order": true, "having": true, "limit": true,
	"offset": true, "union": true, "intersect": true, "except": true, "on": true, "using": true, "join": true,
	"window": true, "for": true, "asc": true, "desc": true, "nulls": true, "returning": true, "select": true,
	"into": true, "by": true, "set": true, "do": true, "case": true,
}

// isOperandStart is the first token of the left operand of the IS at token
// i: back to the previous token of lower precedence at this depth.
func (r *rewriter) isOperandStart(head, i int) (int, error) {
	if is, ok := r.isTestBefore(head, i); ok {
		// x IS NULL IS NOT NULL: the operand is the whole test before.
		return r.isOperandStart(head, is)
	}
	start := i
	for k := i - 1; k >= head; k-- {
		t := r.toks[k]
		if t.is(")") || t.is("]") {
			k = r.matchingBack(k)
			if k < 0 {
				return 0, r.syntaxErrorAt(i)
			}
			start = k
			if k-1 >= head && (r.toks[k-1].kind == tkIdent || r.toks[k-1].kind == tkQIdent) && !isStoppers[r.toks[k-1].val] {
				start = k - 1
				k--
			}
			continue
		}
		if t.kind == tkIdent && t.val == "end" {
			// CASE ... END IS ...: the operand is the whole CASE.
			c, ok := r.primaryStart(k, head)
			if !ok {
				return 0, r.syntaxErrorAt(i)
			}
			start, k = c, c
			continue
		}
		if t.is("and") && r.betweenAnd(head, k) || r.infixNot(k) {
			start = k
			continue
		}
		if t.is("(") || t.is("[") || t.is(",") || t.is(";") || t.kind == tkIdent && isStoppers[t.val] {
			break
		}
		start = k
	}
	if start >= i {
		return 0, r.syntaxErrorAt(i)
	}
	return start, nil
}

// isTestBefore returns the IS (or ISNULL, NOTNULL) of the postfix test
// that ends just before token i: x IS [NOT] NULL|TRUE|FALSE|UNKNOWN|
// DOCUMENT, x IS [NOT] [NFC|NFD|NFKC|NFKD] NORMALIZED, x ISNULL, x NOTNULL.
func (r *rewriter) isTestBefore(head, i int) (int, bool) {
	j := i - 1
	if j <= head {
		return 0, false
	}
	switch t := r.toks[j]; {
	case t.is("isnull") || t.is("notnull"):
		return j, !r.toks[j-1].is("as") && !r.toks[j-1].is(".")
	case t.is("normalized"):
		if r.peekAny(j-1, "nfc", "nfd", "nfkc", "nfkd") {
			j--
		}
	case t.is("null") || t.is("true") || t.is("false") || t.is("unknown") || t.is("document"):
	default:
		return 0, false
	}
	j--
	if j > head && r.toks[j].is("not") {
		j--
	}
	return j, j > head && r.toks[j].is("is")
}

// infixNot: the NOT at token k begins NOT LIKE, NOT ILIKE, NOT SIMILAR TO,
// NOT IN or NOT BETWEEN, which bind tighter than IS (PostgreSQL's grammar
// puts them with LIKE, IN and BETWEEN), unlike the prefix NOT, which binds
// looser: a NOT IN (b) IS NULL is (a NOT IN (b)) IS NULL.
func (r *rewriter) infixNot(k int) bool {
	return r.peek(k, "not") && r.peekAny(k+1, "like", "ilike", "similar", "in", "between")
}

// betweenAnd: the AND at token k is a BETWEEN's, which binds tighter than
// IS: a BETWEEN b AND c IS NULL is (a BETWEEN b AND c) IS NULL. It is when
// a BETWEEN comes before it at this depth with no word between them that
// ends an operand (a BETWEEN's lower bound has no AND, OR, NOT or IS).
func (r *rewriter) betweenAnd(head, k int) bool {
	for j := k - 1; j >= head; j-- {
		t := r.toks[j]
		switch {
		case t.is(")") || t.is("]"):
			if j = r.matchingBack(j); j < 0 {
				return false
			}
		case t.is("between"):
			return true
		case t.is("(") || t.is("[") || t.is(",") || t.is(";") || t.kind == tkIdent && isStoppers[t.val]:
			return false
		}
	}
	return false
}

// unknownTest respells a IS [NOT] UNKNOWN at the IS token i as
// zp_unknown_test((a)) IS [NOT] NULL, so that the planner can hold the
// operand to a boolean as PostgreSQL does and still read the test.
func (r *rewriter) unknownTest(head, i int) error {
	start, err := r.isOperandStart(head, i)
	if err != nil {
		return err
	}
	word := i + 1
	if r.peek(i+1, "not") {
		word = i + 2
	}
	r.ed[start].outer = UnknownTestFunc + "((" + r.ed[start].outer
	r.ed[i-1].outerPost = append(r.ed[i-1].outerPost, "))"...)
	r.replace(word, "NULL")
	return nil
}

// distinctFrom respells a IS [NOT] DISTINCT FROM b at the IS token i as
// (NOT) ((a) <=> (b)), finding the operands by PostgreSQL's precedence.
func (r *rewriter) distinctFrom(head, i int) error {
	neg := r.peek(i+1, "distinct") // IS DISTINCT FROM: not null-safe equal
	opEnd := i + 3
	if !neg {
		opEnd = i + 4
	}
	start, err := r.isOperandStart(head, i)
	if err != nil {
		return err
	}
	// Right operand: forward to the next stopper at this depth, past the
	// words of the operators that bind tighter than IS (NOT IN, BETWEEN's
	// AND).
	end := opEnd
	between := false
	k := opEnd
	if stop, ok := r.notEnds[opEnd]; ok {
		// A prefix NOT's operand (x IS DISTINCT FROM NOT y = z): it runs
		// as far as the NOT's does, which notOperands has parenthesized.
		end, k = stop, len(r.toks)
	}
	for ; k < len(r.toks); k++ {
		t := r.toks[k]
		if t.is("between") {
			between = true
		}
		if between && t.is("and") || k > opEnd && r.infixNot(k) {
			between = between && !t.is("and")
			end = k + 1
			continue
		}
		if t.is("(") || t.is("[") {
			k = r.matching(k)
			if k < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			end = k + 1
			continue
		}
		if t.kind == tkIdent && t.val == "case" && k == opEnd {
			// A CASE operand runs to its END.
			depth := 0
			for ; k < len(r.toks); k++ {
				if r.toks[k].is("case") {
					depth++
				} else if r.toks[k].is("end") {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			end = k + 1
			continue
		}
		if t.is(")") || t.is("]") || t.is(",") || t.is(";") || t.kind == tkIdent && isStoppers[t.val] {
			break
		}
		end = k + 1
	}
	if start >= i || end <= opEnd {
		return r.syntaxErrorAt(i)
	}
	open := "(("
	if neg {
		open = "(NOT (("
	}
	r.ed[start].outer = open + r.ed[start].outer
	r.replace(i, ") <=> (")
	r.drop(i+1, opEnd)
	r.ed[end-1].outerPost = append(r.ed[end-1].outerPost, "))"...)
	if neg {
		r.ed[end-1].outerPost = append(r.ed[end-1].outerPost, ")"...)
	}
	return nil
}

func sortMarkers(ms []*test_driver.ParamMarkerExpr) {
	sort.Slice(ms, func(i, j int) bool { return ms[i].Offset < ms[j].Offset })
}
