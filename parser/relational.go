package parser

import (
	"sort"
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
//
// FROM items: a set-returning function becomes a derived table
// (SELECT zp_table_func(f(args))); a column alias list (AS t(a, b)),
// LATERAL and WITH ORDINALITY travel inside the alias (see SplitAlias);
// FULL [OUTER] JOIN becomes STRAIGHT_JOIN, which PostgreSQL does not have
// and the planner reads as FULL; VALUES lists used as queries get TiDB's
// ROW constructors. RETURNING and UPDATE's FROM list are parsed apart and
// land in Statement.Returning and Statement.From.
const (
	NullsFirstFunc  = "zp_nulls_first"
	NullsLastFunc   = "zp_nulls_last"
	DistinctOnFunc  = "zp_distinct_on"
	AggFilterFunc   = "zp_agg_filter"
	AggOrderFunc    = "zp_agg_order"
	WithinGroupFunc = "zp_within_group"
	DescFunc        = "zp_desc"
	TableFuncFunc   = "zp_table_func"
)

// aliasSep separates the parts of an encoded FROM alias. It cannot appear in
// an identifier a client sends through zproxy's scanner unquoted, and quoted
// identifiers holding it are refused.
const aliasSep = "\x1f"

// AliasFlags are the FROM item properties carried in an encoded alias.
type AliasFlags struct {
	Lateral    bool // written LATERAL
	NotLateral bool // a plain derived table (the respelling needs LATERAL)
	Ordinality bool // WITH ORDINALITY
}

// SplitAlias decodes a FROM alias: the name, the flags and the column
// alias list. Aliases the parser did not encode come back unchanged.
func SplitAlias(s string) (string, AliasFlags, []string) {
	if !strings.Contains(s, aliasSep) {
		return s, AliasFlags{}, nil
	}
	parts := strings.Split(s, aliasSep)
	var f AliasFlags
	for _, c := range parts[1] {
		switch c {
		case 'L':
			f.Lateral = true
		case 'N':
			f.NotLateral = true
		case 'O':
			f.Ordinality = true
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
	if err := r.liftTail(head); err != nil {
		return err
	}
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
		var err error
		switch {
		case t.val == "nulls" && (r.peek(i+1, "first") || r.peek(i+1, "last")):
			err = r.nullsOrder(head, i)
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
			if err = r.wrapCall(head, i, WithinGroupFunc, 5); err == nil {
				r.descKeys(i+5, close)
				r.primStart[close] = start // a FILTER clause wraps the whole call
			}
		case t.val == "order" && r.peek(i+1, "by") && r.insideCall(head, i):
			err = r.aggOrder(head, i)
		case t.val == "values" && r.queryValues(head, i):
			r.valueRows(i)
		case t.val == "is" && (r.peek(i+1, "distinct") && r.peek(i+2, "from") ||
			r.peek(i+1, "not") && r.peek(i+2, "distinct") && r.peek(i+3, "from")):
			err = r.distinctFrom(head, i)
		}
		if err != nil {
			return err
		}
	}
	return nil
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
		case depth == 0 && t.is("from") && r.peek(head, "update") && from < 0 && ret < 0:
			from = i
		case depth == 0 && t.is("where") && from >= 0 && where < 0 && ret < 0:
			where = i
		}
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
	sub := &rewriter{sql: r.sql, toks: r.toks[from:to], ed: make([]edit, to-from), primStart: map[int]int{},
		st: &Statement{query: r.sql, Offset: r.st.Offset}, startInFrom: strings.HasSuffix(prefix, " FROM ")}
	if err := sub.rewrite(0); err != nil {
		return nil, err
	}
	text := prefix + sub.emit(0)
	segs := []seg{{out: 0, orig: r.toks[from].start}}
	for _, s := range sub.seg {
		s.out += len(prefix)
		segs = append(segs, s)
	}
	p := tidbPool.Get().(*tidb.Parser)
	defer tidbPool.Put(p)
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
	ns := make([]int, len(sub.params))
	for i, p := range sub.params {
		ns[i] = p.n
	}
	r.subParams = append(r.subParams, subParams{markers: markers, ns: ns})
	return stmts[0], nil
}

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
		inFrom bool
		expect bool // the next token starts a FROM item
	}
	stack := []level{{query: r.startInFrom, inFrom: r.startInFrom, expect: r.startInFrom}}
	lateral := false
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
				if !r.peek(i+1, "select") && !r.peek(i+1, "values") && !r.peek(i+1, "with") && !r.peek(i+1, "(") {
					inner = level{query: true, inFrom: true, expect: true} // a parenthesized join
				} else if err := r.itemAlias(close+1, AliasFlags{Lateral: lateral, NotLateral: !lateral}, false); err != nil {
					return err
				}
				lv.expect, lateral = false, false
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
		case t.kind == tkIdent && t.val == "from" && lv.query && !(i > head && r.toks[i-1].is("distinct")):
			lv.inFrom, lv.expect = true, true
		case t.kind == tkIdent && t.val == "using" && lv.query && !lv.inFrom && r.peek(head, "delete"):
			lv.inFrom, lv.expect = true, true
		case !lv.inFrom:
		case t.is(","), t.kind == tkIdent && (t.val == "join" || t.val == "straight_join"):
			lv.expect, lateral = true, false
		case t.kind == tkIdent && t.val == "full":
			k := i + 1
			if r.peek(k, "outer") {
				k++
			}
			if !r.peek(k, "join") {
				return r.syntaxErrorAt(k)
			}
			if i > head && r.toks[i-1].is("natural") {
				return pgerr.New(pgerr.FeatureNotSupported, "NATURAL FULL JOIN is not supported; use FULL JOIN ... USING").WithPosition(r.pos(i))
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
		case lv.expect && (t.kind == tkIdent || t.kind == tkQIdent):
			end, err := r.skipName(i)
			if err != nil {
				return err
			}
			if r.peek(end, "(") {
				close := r.matching(end)
				if close < 0 {
					return r.syntaxErrorAt(len(r.toks))
				}
				// A function in FROM: a one-row derived table TiDB can parse.
				r.ed[i].pre = "(SELECT " + TableFuncFunc + "(" + r.ed[i].pre
				r.ed[close].post += "))"
				flags := AliasFlags{}
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
				if err := r.itemAlias(end, AliasFlags{}, false); err != nil {
					return err
				}
				i = end - 1
			}
			lv.expect, lateral = false, false
		default:
			lv.expect = false
		}
	}
	return nil
}

// itemAlias reads "[AS] alias [(col, ...)]" at k and, when there is a
// column list or flags to carry, replaces the alias with its encoding. A
// table function always gets an alias (TiDB wants one on derived tables).
func (r *rewriter) itemAlias(k int, flags AliasFlags, always bool) error {
	aliasAt := -1
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
	if len(cols) == 0 && !flags.Lateral && !flags.Ordinality && !always {
		return nil
	}
	if len(cols) == 0 && flags.NotLateral && !always {
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
		r.ed[k].pre = "ROW" + r.ed[k].pre
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
	r.ed[start].pre = fn + "(" + r.ed[start].pre
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
				f.val != "over" && f.val != "filter" && f.val != "group"
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
			if last >= start && r.toks[last].is("desc") {
				r.ed[start].pre = DescFunc + "(" + r.ed[start].pre
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

// distinctFrom respells a IS [NOT] DISTINCT FROM b at the IS token i as
// (NOT) ((a) <=> (b)), finding the operands by PostgreSQL's precedence.
func (r *rewriter) distinctFrom(head, i int) error {
	neg := r.peek(i+1, "distinct") // IS DISTINCT FROM: not null-safe equal
	opEnd := i + 3
	if !neg {
		opEnd = i + 4
	}
	// Left operand: back to the previous stopper at this depth.
	start := i
	for k := i - 1; k >= head; k-- {
		t := r.toks[k]
		if t.is(")") || t.is("]") {
			k = r.matchingBack(k)
			if k < 0 {
				return r.syntaxErrorAt(i)
			}
			start = k
			if k-1 >= head && (r.toks[k-1].kind == tkIdent || r.toks[k-1].kind == tkQIdent) && !isStoppers[r.toks[k-1].val] {
				start = k - 1
				k--
			}
			continue
		}
		if t.is("(") || t.is("[") || t.is(",") || t.is(";") || t.kind == tkIdent && isStoppers[t.val] {
			break
		}
		start = k
	}
	// Right operand: forward to the next stopper at this depth.
	end := opEnd
	for k := opEnd; k < len(r.toks); k++ {
		t := r.toks[k]
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
	r.ed[start].pre = open + r.ed[start].pre
	r.replace(i, ") <=> (")
	r.drop(i+1, opEnd)
	r.ed[end-1].post += "))"
	if neg {
		r.ed[end-1].post += ")"
	}
	return nil
}

func sortMarkers(ms []*test_driver.ParamMarkerExpr) {
	sort.Slice(ms, func(i, j int) bool { return ms[i].Offset < ms[j].Offset })
}
