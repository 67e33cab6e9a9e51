package parser

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// edit is what happens to one token when the TiDB text is produced: pre is
// inserted before it, rep replaces it (when hasRep), post follows it. done
// marks tokens a construct handler has already dealt with.
type edit struct {
	// outer goes before pre: the opening of a wrapper around an operand
	// that starts here (IS DISTINCT FROM's), which the respellings of the
	// operand itself (a cast, zp_cast(x, 'text')) must stay inside even
	// though they run later and prefix pre.
	outer string
	pre   string
	rep   string
	post  string
	// outerPost goes after post: the close of a wrapper around an operand
	// that ends here (the counterpart of outer). Bytes, so that the
	// closes of a chain of nested wrappers ending at one token are
	// appended in linear time.
	outerPost []byte
	hasRep    bool
	done      bool
}

// seg maps a run of the TiDB text back to the original query: bytes
// [out, next seg's out) came from orig.. (copied, byte for byte) or were
// inserted in place of the original text at orig.
type seg struct {
	out    int
	orig   int
	copied bool
}

// rewriter turns the tokens of one statement into TiDB text.
type rewriter struct {
	sql       string  // the whole query
	toks      []token // this statement's tokens
	ed        []edit
	primStart map[int]int // last token of a rewritten primary → its first token
	// textEnd is where the statement's text ends when fetchClauses took
	// its last tokens out (FETCH FIRST n ROWS ONLY's ROWS ONLY); 0 else.
	textEnd int

	st  *Statement
	out strings.Builder
	seg []seg

	params []paramAt // $n markers, in output order

	// subParams are the markers of parts parsed apart (RETURNING, UPDATE's
	// FROM), numbered after the main statement's.
	subParams []subParams
	// startInFrom: the tokens are a FROM list (UPDATE's, parsed apart).
	startInFrom bool
	// startInUpdate: the tokens are an UPDATE's SET clause, from its SET
	// (a MERGE action's, parsed apart after "UPDATE name ").
	startInUpdate bool
	// root is the statement a part parsed apart belongs to (nil: st).
	root *Statement
	// cteSearchCycle maps a WITH query's name token to its SEARCH/CYCLE
	// clause (1-based in Statement.SearchCycles), which its encoded name
	// carries (AliasFlags.SearchCycle).
	cteSearchCycle map[int]int
	// notEnds maps each prefix NOT that notOperands parenthesized to the
	// token after its operand, for the rewrites that need the operand's
	// end again (IS DISTINCT FROM NOT y) without following it again.
	notEnds map[int]int
	// swaps are spans of tokens emit writes in another order: a locking
	// clause before its LIMIT (lockBeforeLimit).
	swaps []tokenSwap
}

// tokenSwap has emit write the tokens [mid, end) before [start, mid).
type tokenSwap struct{ start, mid, end int }

// lifted is the statement that keeps what the rewriting lifts out of the
// text (Statement.CountExprs, WriteWith, WriteCTEs).
func (r *rewriter) lifted() *Statement {
	if r.root != nil {
		return r.root
	}
	return r.st
}

type paramAt struct {
	out int // byte offset of "?" in the TiDB text
	n   int
}

// pos is the 1-based character position of token i in the whole query
// (the end of the query if i is past the last token).
func (r *rewriter) pos(i int) int {
	if i >= len(r.toks) {
		return charPos(r.sql, len(r.sql))
	}
	return charPos(r.sql, r.toks[i].start)
}

// lockOf records where the relations of a locking clause's OF list,
// which may start at token i, are written (Statement.LockOf): TiDB's
// table names keep no offset.
func (r *rewriter) lockOf(i int) {
	var at []int
	if r.peek(i, "of") {
		for k := i + 1; k < len(r.toks) && (r.toks[k].kind == tkIdent || r.toks[k].kind == tkQIdent); {
			at = append(at, r.pos(k))
			k++
			for r.peek(k, ".") && k+1 < len(r.toks) {
				k += 2
			}
			if !r.peek(k, ",") {
				break
			}
			k++
		}
	}
	r.st.LockOf = append(r.st.LockOf, at)
}

// syntaxErrorAt is Postgres' "syntax error at or near" for token i.
func (r *rewriter) syntaxErrorAt(i int) *pgerr.Error {
	if i >= len(r.toks) {
		if len(r.toks) > 0 && r.toks[len(r.toks)-1].end < len(r.sql) && r.sql[r.toks[len(r.toks)-1].end:] != "" {
			// The statement ended at a ';' that is still part of the query.
			last := r.toks[len(r.toks)-1].end
			if k := strings.IndexByte(r.sql[last:], ';'); k >= 0 {
				return pgerr.New(pgerr.SyntaxError, "syntax error at or near \";\"").WithPosition(charPos(r.sql, last+k))
			}
		}
		return pgerr.New(pgerr.SyntaxError, "syntax error at end of input").WithPosition(charPos(r.sql, len(r.sql)))
	}
	t := r.toks[i]
	return pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", nearText(r.sql, t.start, t.end)).WithPosition(r.pos(i))
}

func (r *rewriter) peek(i int, w string) bool { return i < len(r.toks) && r.toks[i].is(w) }

func (r *rewriter) replace(i int, s string) {
	r.ed[i].rep, r.ed[i].hasRep, r.ed[i].done = s, true, true
}

func (r *rewriter) drop(from, to int) {
	for i := from; i < to; i++ {
		r.replace(i, "")
	}
}

// matching returns the index of the bracket closing the one at i, or -1.
func (r *rewriter) matching(i int) int { return matchingIn(r.toks, i) }

// matchingIn returns the index of the bracket of toks closing the one at
// i, or -1.
func matchingIn(toks []token, i int) int {
	open, close := toks[i].val, ")"
	if open == "[" {
		close = "]"
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		switch {
		case toks[j].is(open):
			depth++
		case toks[j].is(close):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// tidbQuote is name as a quoted identifier of TiDB's grammar.
func tidbQuote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

func (r *rewriter) matchingBack(j int) int {
	close, open := r.toks[j].val, "("
	if close == "]" {
		open = "["
	}
	depth := 0
	for k := j; k >= 0; k-- {
		switch {
		case r.toks[k].is(close):
			depth++
		case r.toks[k].is(open):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// notFunctionNames are words that can precede "(" without being the name of
// a called function, so "WHERE (a)::int" casts only the parenthesis.
var notFunctionNames = map[string]bool{
	"select": true, "where": true, "and": true, "or": true, "not": true, "in": true, "from": true,
	"on": true, "values": true, "when": true, "then": true, "else": true, "by": true, "having": true,
	"as": true, "is": true, "between": true, "like": true, "ilike": true, "set": true, "using": true,
	"into": true, "join": true, "limit": true, "offset": true, "case": true, "distinct": true,
	"union": true, "intersect": true, "except": true, "with": true, "returning": true, "any": true,
	"all": true, "some": true, "array": true, "return": true, "table": true, "update": true,
}

// valueKeywords are reserved words that are values by themselves, so a
// cast may follow them (current_date::timestamp).
var valueKeywords = map[string]bool{
	"true": true, "false": true, "null": true, "current_date": true, "current_time": true,
	"current_timestamp": true, "localtime": true, "localtimestamp": true, "current_user": true,
	"session_user": true, "user": true, "current_role": true, "current_catalog": true, "current_schema": true,
}

// quantifiedBefore returns the operator token of x op ANY|SOME|ALL (...)
// when that ends just before token i (-1 when it does not), whether
// pgOperators respells it as a call (quantified) rather than leaving it to
// TiDB's grammar (a comparison with a subquery), and the operator's name
// for the call.
func (r *rewriter) quantifiedBefore(i, head int) (op int, respelled bool, name string) {
	if i-1 < head || !r.toks[i-1].is(")") || r.ed[i-1].done {
		return -1, false, ""
	}
	k := r.matchingBack(i - 1)
	op = k - 2
	if k < 0 || op < head || r.ed[op].done || r.quantifier(k-1) == quantNone {
		return -1, false, ""
	}
	switch t := r.toks[op]; {
	case t.is("like") || t.is("ilike"):
		// x [NOT] LIKE ANY (array), as pgOperators respells it.
		return op, true, r.likeOperator(head, op)
	case t.kind == tkOp:
		respelled = t.schema == "" && comparisonOps[t.val] && r.quantifier(k-1) == quantArray || quantOps(t)
		return op, respelled, opName(t)
	}
	return -1, false, ""
}

// primaryStart returns the first token of the primary expression ending at
// token j: the operand of a following "::".
func (r *rewriter) primaryStart(j, lo int) (int, bool) {
	if j < lo {
		return 0, false
	}
	if s, ok := r.primStart[j]; ok {
		return s, true
	}
	t := r.toks[j]
	switch t.kind {
	case tkString, tkNumber, tkParam:
		return j, true
	case tkIdent:
		if t.val == "end" {
			// CASE ... END::type: the operand is the whole CASE.
			depth := 0
			for k := j; k >= lo; k-- {
				switch {
				case r.toks[k].is("end"):
					depth++
				case r.toks[k].is("case"):
					if depth--; depth == 0 {
						return k, true
					}
				}
			}
			return 0, false
		}
		if pgReserved[t.val] && !valueKeywords[t.val] {
			return 0, false
		}
		return r.qualifiedStart(j, lo), true
	case tkQIdent:
		return r.qualifiedStart(j, lo), true
	case tkPunct:
		if t.val == ")" || t.val == "]" {
			k := r.matchingBack(j)
			if k < lo {
				return 0, false
			}
			if k-1 >= lo && r.toks[k-1].is("array") {
				return k - 1, true // ARRAY[...] and ARRAY(subquery)
			}
			if t.val == ")" && k-2 >= lo && r.toks[k-1].is("filter") && r.toks[k-2].is(")") {
				// agg(...) FILTER (WHERE ...): the operand is the whole
				// aggregate call.
				return r.primaryStart(k-2, lo)
			}
			if t.val == ")" && k-1 >= lo {
				f := r.toks[k-1]
				if f.kind == tkQIdent || f.kind == tkIdent && !notFunctionNames[f.val] {
					return r.qualifiedStart(k-1, lo), true
				}
				if f.is("in") {
					// x [NOT] IN (...)::type: in PostgreSQL's grammar the
					// cast applies to the whole test, whose left operand
					// takes in every operator binding tighter than IN.
					left := k - 2
					if left >= lo && r.toks[left].is("not") {
						left--
					}
					if left >= lo {
						return r.operandStart(left, lo)
					}
				}
			}
			if t.val == "]" {
				return r.primaryStart(k-1, lo)
			}
			return k, true
		}
	}
	return 0, false
}

func (r *rewriter) qualifiedStart(j, lo int) int {
	for j-2 >= lo && r.toks[j-1].is(".") && (r.toks[j-2].kind == tkIdent || r.toks[j-2].kind == tkQIdent) {
		j -= 2
	}
	return j
}

// rewrite prepares the TiDB text of the statement whose first token (after
// any EXPLAIN prefix) is head, applying the construct handlers and then
// the token-level rewrites.
func (r *rewriter) rewrite(head int) (err error) {
	if head, err = r.statementWith(head); err != nil {
		return err
	}
	// First, so that the parentheses around a NOT's operand hold the
	// respellings of what is inside it.
	r.notOperands(head)
	if err := r.pgSyntax(head); err != nil {
		return err
	}
	if err := r.relational(head); err != nil {
		return err
	}
	if err := r.constructs(head); err != nil {
		return err
	}
	if err := r.pgPrimaries(head); err != nil {
		return err
	}
	defer func() {
		if err == nil {
			err = r.pgOperators(head)
		}
		if err == nil {
			err = r.likePatterns(head)
		}
	}()
	if err := r.lockBeforeLimit(head); err != nil {
		return err
	}
	for i := head; i < len(r.toks); i++ {
		if r.ed[i].done {
			continue
		}
		t := &r.toks[i]
		switch {
		case t.kind == tkIdent && t.val == "variadic" && i > head && (r.toks[i-1].is("(") || r.toks[i-1].is(",")):
			if err := r.variadicArg(head, i); err != nil {
				return err
			}
		case t.kind == tkNumber && (len(t.val) > maxTiDBNumber || strings.ContainsAny(t.val, "eE")):
			// TiDB's decimal type holds 65 digits and panics past 81, and
			// it reads 1e3 as a float where PostgreSQL has a numeric: such
			// literals reach the planner as text instead.
			r.replace(i, NumericLiteralFunc+"('"+t.val+"')")
		case t.is("is") && (r.peek(i+1, "document") || r.peek(i+1, "not") && r.peek(i+2, "document")):
			if err := r.isDocument(head, i); err != nil {
				return err
			}
		case t.kind == tkIdent && t.val == "limit" && r.peek(i+1, "all"):
			// LIMIT ALL is no limit at all.
			r.drop(i, i+2)
		case t.kind == tkIdent && (t.val == "limit" || t.val == "offset") && r.peek(i+1, "-") &&
			i+2 < len(r.toks) && r.toks[i+2].kind == tkNumber:
			// TiDB's grammar has no negative LIMIT; PostgreSQL parses it and
			// refuses it when the statement runs.
			if t.val == "limit" {
				return pgerr.New(pgerr.InvalidRowCountInLimitClause, "LIMIT must not be negative")
			}
			return pgerr.New(pgerr.InvalidRowCountInResultOffsetClause, "OFFSET must not be negative")
		case t.kind == tkIdent && (t.val == "limit" || t.val == "offset") && i+1 < len(r.toks) &&
			r.toks[i+1].kind == tkString && isUnsignedInt(r.toks[i+1].val):
			// LIMIT '5': Postgres reads the untyped literal as a bigint, and
			// pgx's simple protocol sends parameters this way.
			r.replace(i+1, r.toks[i+1].val)
		case t.kind == tkIdent && t.val == "extract" && r.peek(i+1, "(") && !(i > head && r.toks[i-1].is(".")):
			if err := r.extract(i); err != nil {
				return err
			}
		case t.kind == tkIdent && t.val == "for" && (r.peek(i+1, "no") && r.peek(i+2, "key") && r.peek(i+3, "update") ||
			r.peek(i+1, "key") && r.peek(i+2, "share")):
			// FOR NO KEY UPDATE and FOR KEY SHARE lock as FOR UPDATE and
			// FOR SHARE (zproxy has no key-only lock strengths; the
			// stronger lock only conflicts more).
			if r.toks[i+1].is("no") {
				r.drop(i+1, i+3)
				r.st.LockStrengths = append(r.st.LockStrengths, "NO KEY UPDATE")
				r.lockOf(i + 4)
			} else {
				r.drop(i+1, i+2)
				r.st.LockStrengths = append(r.st.LockStrengths, "KEY SHARE")
				r.lockOf(i + 3)
			}
		case t.kind == tkIdent && t.val == "for" && (r.peek(i+1, "update") || r.peek(i+1, "share")):
			r.st.LockStrengths = append(r.st.LockStrengths, strings.ToUpper(r.toks[i+1].val))
			r.lockOf(i + 2)
		case t.kind == tkIdent && t.val == "default" && r.peek(i+1, "values") && r.peek(head, "insert"):
			// INSERT ... DEFAULT VALUES is TiDB's VALUES ().
			r.replace(i, "")
			r.replace(i+1, "VALUES ()")
		case t.kind == tkIdent && t.val == "cast" && r.peek(i+1, "("):
			if err := r.castCall(i); err != nil {
				return err
			}
		case t.kind == tkIdent && i+1 < len(r.toks) && (r.toks[i+1].kind == tkIdent || r.toks[i+1].kind == tkString || typedLiteralTypes[t.val] && r.toks[i+1].is("(")) &&
			!(i > head && (r.toks[i-1].is(".") || r.toks[i-1].is("::"))):
			if err := r.typedLiteral(i); err != nil {
				return err
			}
		case t.is("::"):
			start, ok := 0, false
			if op, quantified, name := r.quantifiedBefore(i, head); op >= 0 {
				// x op ANY|ALL (...)::type: the cast applies to the
				// whole comparison, as PostgreSQL's grammar reduces it
				// first; one respelled as a call is respelled now, so that
				// the cast's call is the outer one.
				if quantified {
					if err := r.quantified(head, op, name); err != nil {
						return err
					}
					start, ok = r.primStart[i-1], true
				} else {
					start, ok = r.operandStart(op-1, head)
				}
			} else {
				start, ok = r.primaryStart(i-1, head)
			}
			if !ok {
				return r.syntaxErrorAt(i)
			}
			target, next, err := r.castTarget(i + 1)
			if err != nil {
				return err
			}
			r.ed[start].pre = CastFunc + "(" + r.ed[start].pre
			r.replace(i, ", '"+target+"')")
			r.drop(i+1, next)
			r.primStart[next-1] = start
		case t.kind == tkString && t.str == strBit:
			// B'0101' and X'1F' are constants of type bit (of no length).
			body := t.val[2 : len(t.val)-1]
			if c := t.val[0] | 0x20; c == 'x' {
				body = "x" + body
			} else {
				body = "b" + body
			}
			r.replace(i, CastFunc+"('"+body+"', 'bit')")
		case t.kind == tkString && t.str == strNation:
			// N'...' is PostgreSQL's NCHAR '...': a bpchar of no length.
			r.replace(i, CastFunc+"('"+strings.ReplaceAll(t.val, "'", "''")+"', '"+castName(sqltypes.TypeBPChar)+"')")
		case t.kind == tkOp && t.val == "=>":
			if err := r.namedArg(i, i); err != nil {
				return err
			}
		case t.kind == tkPunct && t.val == ":" && r.peek(i+1, "=") && r.toks[i+1].start == t.end:
			// PostgreSQL's scanner reads := as one token (COLON_EQUALS).
			if err := r.namedArg(i, i+1); err != nil {
				return err
			}
		case t.kind == tkOp:
			switch t.val {
			case "+", "-", "*", "/", "%", "^", "<", ">", "=", "<=", ">=", "<>", "!=", "||":
			default:
				if infixOps[t.val] || prefixOps[t.val] || t.val == "!!" || userOperator(t.val) {
					continue // pgOperators (operators.go) respells it
				}
				return pgerr.New(pgerr.FeatureNotSupported, "operator %s is not supported", t.val).WithPosition(r.pos(i))
			}
		case t.kind == tkPunct && (t.val == "[" || t.val == "]"):
			return pgerr.New(pgerr.FeatureNotSupported, "arrays are not supported").WithPosition(r.pos(i))
		case t.kind == tkPunct && t.val == ":":
			return r.syntaxErrorAt(i)
		case t.kind == tkIdent && t.val == "mod" && r.peek(i+1, "(") && !(i > head && r.toks[i-1].is(".")):
			// TiDB reads MOD(a, b) as the % operator; PostgreSQL's mod() is
			// a function (with its own name as the column's).
			r.replace(i, "`mod`")
		case t.kind == tkIdent && (t.val == "nextval" || t.val == "currval" || t.val == "setval" || t.val == "lastval") &&
			r.peek(i+1, "(") && !(i > head && r.toks[i-1].is(".")):
			// TiDB's NEXTVAL takes a sequence name; PostgreSQL's a string.
			r.replace(i, "`"+t.val+"`")
		case t.kind == tkIdent && t.val == "concat" && r.peek(i+1, "(") && !(i > head && r.toks[i-1].is(".")):
			// TiDB turns || into concat(), which must stay NULL-strict;
			// Postgres's concat() function skips NULLs, so it gets its own name.
			r.replace(i, ConcatFunc)
		case t.kind == tkIdent && t.val == "offset" && !r.limitBefore(head, i):
			// TiDB needs a LIMIT before OFFSET; Postgres does not.
			r.ed[i].pre = "LIMIT " + NoLimit + " " + r.ed[i].pre
		}
	}
	return r.atTimeZone(head)
}

// ConcatFunc is the name Postgres's concat() function is given, so that the
// concat TiDB makes of || keeps the operator's NULL-strict meaning.
const ConcatFunc = "zp_concat"

// NumericLiteralFunc carries a numeric literal too long for TiDB's decimal
// type to the planner as its text: zp_num('1234...').
const NumericLiteralFunc = "zp_num"

// maxTiDBNumber is the longest numeric literal handed to TiDB as written.
const maxTiDBNumber = 60

// NoLimit is the LIMIT written before an OFFSET that has none; the planner
// reads it as no limit.
const NoLimit = "18446744073709551615"

// limitBefore reports whether a LIMIT at the same parenthesis depth comes
// before token i (scanning back to head).
func (r *rewriter) limitBefore(head, i int) bool {
	k := r.limitAt(head, i)
	return k >= 0 && !r.ed[k].done
}

// castCall rewrites CAST(expr AS type) to zp_cast(expr, 'type').
func (r *rewriter) castCall(i int) error {
	end := r.matching(i + 1)
	if end < 0 {
		return nil // unbalanced: TiDB reports it
	}
	depth := 0
	for k := i + 1; k < end; k++ {
		switch {
		case r.toks[k].is("(") || r.toks[k].is("["):
			depth++
		case r.toks[k].is(")") || r.toks[k].is("]"):
			depth--
		case depth == 1 && r.toks[k].is("as"):
			target, next, err := r.castTarget(k + 1)
			if err != nil {
				return err
			}
			if next != end {
				return r.syntaxErrorAt(next)
			}
			r.replace(i, CastFunc)
			r.replace(k, ", '"+target+"'")
			r.drop(k+1, end)
			return nil
		}
	}
	return nil
}

// typedLiteralTypes are the type names typedLiteral reads before a string
// constant: PostgreSQL's grammar takes any type name there, but the front
// end cannot tell a type name from a statement's own word before a string
// (COMMENT ... IS 'x', PASSWORD 'x', DELIMITER ','), so it takes pg_type's
// names (and the grammar's spellings) that are no such word.
var typedLiteralTypes = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`smallint int2 integer int int4 bigint int8 real float float4 float8
		double text varchar character char bpchar nchar boolean bool timestamp timestamptz date
		bytea uuid interval numeric decimal dec time timetz money varbit bit inet cidr macaddr macaddr8 xml pg_lsn xid xid8 tid jsonpath
		json jsonb name oid regclass regtype regproc regprocedure regoper regoperator regnamespace regrole regconfig regcollation
		tsvector tsquery int4range int8range numrange tsrange tstzrange daterange
		int4multirange int8multirange nummultirange tsmultirange tstzmultirange datemultirange
		point lseg box line path polygon circle hstore geometry geography aclitem`) {
		m[n] = true
	}
	return m
}()

// typedLiteral rewrites Postgres' "type 'literal'" (date '2024-01-01',
// timestamp with time zone '...') to a cast when token i starts a known type
// name directly followed by a string constant.
func (r *rewriter) typedLiteral(i int) error {
	if !typedLiteralTypes[r.toks[i].val] {
		return nil
	}
	typ, next, err := r.parseType(i)
	if err != nil || next >= len(r.toks) || r.toks[next].kind != tkString || r.toks[next].str == strBit {
		return nil // not a typed literal; the words stay as they are
	}
	last := next
	if (typ.ID == sqltypes.Bit || typ.ID == sqltypes.BPChar) && next == i+1 {
		// bit '101' is of type bit without a length, not bit(1), and
		// char 'xyz' of type bpchar without one: 'xyz', not 'x'.
		typ.Width = 0
	}
	if typ.ID == sqltypes.Interval {
		if typ, last, err = r.intervalQualifier(typ, next+1); err != nil {
			return err
		}
		r.drop(next+1, last+1)
	}
	r.ed[i].pre = CastFunc + "(" + r.ed[i].pre
	r.drop(i, next)
	r.ed[last].post += ", '" + castName(typ) + "')"
	r.primStart[last] = i
	return nil
}

// constructs handles the statement forms TiDB spells differently.
func (r *rewriter) constructs(head int) error {
	t := r.toks[head]
	if t.kind != tkIdent {
		return nil
	}
	switch t.val {
	case "create":
		k := head + 1
		if (r.peek(k, "local") || r.peek(k, "global")) && (r.peek(k+1, "temp") || r.peek(k+1, "temporary")) {
			r.st.TempGlobal = r.peek(k, "global")
			r.drop(k, k+1)
			k++
		}
		if (r.peek(k, "temp") || r.peek(k, "temporary")) && r.peek(k+1, "view") {
			r.st.Temp = true
			r.drop(k, k+1)
			return r.createView(k + 2)
		}
		if r.peek(k, "temp") || r.peek(k, "temporary") {
			if !r.peek(k+1, "table") {
				return pgerr.New(pgerr.FeatureNotSupported, "temporary %ss are not supported", r.toks[k+1].val).WithPosition(r.pos(k + 1))
			}
			r.st.Temp, r.st.OnCommit = true, "preserve rows"
			r.drop(k, k+1)
			return r.createTable(k + 2)
		}
		if r.peek(k, "unlogged") {
			return pgerr.New(pgerr.FeatureNotSupported, "%s tables are not supported", strings.ToUpper(r.toks[k].val)).WithPosition(r.pos(k))
		}
		if r.peek(k, "table") {
			return r.createTable(k + 1)
		}
		if r.peek(k, "or") && r.peek(k+1, "replace") {
			k += 2
			if (r.peek(k, "temp") || r.peek(k, "temporary")) && r.peek(k+1, "view") {
				r.st.Temp = true
				r.drop(k, k+1)
				k++
			}
		}
		if r.peek(k, "recursive") {
			return pgerr.New(pgerr.FeatureNotSupported, "CREATE RECURSIVE VIEW is not supported; use WITH RECURSIVE inside the view").WithPosition(r.pos(k))
		}
		if r.peek(k, "view") {
			return r.createView(k + 1)
		}
		if r.peek(k, "unique") {
			k++
		}
		if r.peek(k, "index") {
			return r.createIndex(k + 1)
		}
	case "insert":
		if r.peek(head+1, "into") {
			// INSERT INTO table AS alias: the alias ON CONFLICT and
			// RETURNING name the target by.
			if k, err := r.skipName(head + 2); err == nil && r.peek(k, "as") && k+1 < len(r.toks) && (r.toks[k+1].kind == tkIdent || r.toks[k+1].kind == tkQIdent) {
				r.st.InsertAlias = r.toks[k+1].val
				r.drop(k, k+2)
			}
		}
		// OVERRIDING SYSTEM VALUE | USER VALUE (identity columns).
		for k := head + 1; k+2 < len(r.toks); k++ {
			if r.peek(k, "overriding") && (r.peek(k+1, "system") || r.peek(k+1, "user")) && r.peek(k+2, "value") {
				r.st.Overriding = r.toks[k+1].val
				r.drop(k, k+3)
				break
			}
		}
		return r.onConflict(head)
	case "alter":
		return r.alterTable(head)
	case "drop":
		if r.peek(head+1, "materialized") && r.peek(head+2, "view") {
			// DROP MATERIALIZED VIEW: DROP TABLE, for TiDB.
			r.st.Matview = true
			r.drop(head+1, head+2)
			r.replace(head+2, "table")
		}
		// DROP TABLE/VIEW ... CASCADE | RESTRICT: TiDB parses and forgets it.
		last := len(r.toks) - 1
		if (r.peek(head+1, "table") || r.peek(head+1, "view") || r.st.Matview) && last > head && (r.peek(last, "cascade") || r.peek(last, "restrict")) {
			r.st.Cascade = r.toks[last].val == "cascade"
			r.drop(last, last+1)
		}
	case "check":
		if r.peek(head+1, "table") {
			r.ed[head].pre = "admin "
		}
	}
	return nil
}

// createView records the text of a view's query (the view keeps it, and
// binds it again wherever it is used). i is the token after VIEW.
func (r *rewriter) createView(i int) error {
	depth := 0
	for k := i; k < len(r.toks); k++ {
		switch t := r.toks[k]; {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && t.is("with") && !r.peek(k-1, "as") && r.peek(k+1, "("):
			// WITH (security_invoker = true, ...): Statement.With,
			// checked by the binder.
			end, err := r.withOptions(k)
			if err != nil {
				return err
			}
			k = end - 1
		case depth == 0 && t.is("as"):
			if k+1 >= len(r.toks) {
				return r.syntaxErrorAt(k + 1)
			}
			if c := r.checkOption(k + 1); c >= 0 {
				return pgerr.New(pgerr.FeatureNotSupported, "WITH CHECK OPTION is not supported").WithPosition(r.pos(c))
			}
			end := max(r.toks[len(r.toks)-1].end, r.textEnd)
			r.st.ViewQuery = r.sql[r.toks[k+1].start:end]
			return nil
		}
	}
	return nil
}

// skipName skips a possibly qualified name at i and returns the index after it.
func (r *rewriter) skipName(i int) (int, error) {
	if i >= len(r.toks) || r.toks[i].kind != tkIdent && r.toks[i].kind != tkQIdent {
		return i, r.syntaxErrorAt(i)
	}
	i++
	for r.peek(i, ".") && i+1 < len(r.toks) && (r.toks[i+1].kind == tkIdent || r.toks[i+1].kind == tkQIdent) {
		i += 2
	}
	return i, nil
}

var tableConstraintWords = map[string]bool{
	"constraint": true, "primary": true, "unique": true, "check": true, "foreign": true,
	"key": true, "index": true, "exclude": true, "like": true,
}

// createTable rewrites column types to their TiDB spelling and lifts a
// trailing WITH (...) into Statement.With. i is the token after TABLE.
func (r *rewriter) createTable(i int) error {
	if r.peek(i, "if") {
		i += 3
	}
	i, err := r.skipName(i)
	if err != nil {
		return err
	}
	if r.peek(i, "partition") && r.peek(i+1, "of") {
		k, err := r.partitionOf(i)
		if err != nil {
			return err
		}
		return r.tableOptionClauses(k)
	}
	if !r.peek(i, "(") {
		return nil // CREATE TABLE ... AS and friends: TiDB decides
	}
	end := r.matching(i)
	if end < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	others, err := r.tableElements(i, end, false)
	if err != nil {
		return err
	}
	if (len(r.st.Like) > 0 || r.peek(end+1, "inherits")) && others == 0 {
		// TiDB's grammar wants a column; the binder drops this one (the
		// columns are the LIKE sources' or the INHERITS parents').
		r.st.LikeOnly = true
		r.ed[end].pre = LikePlaceholder + " int" + r.ed[end].pre
	}
	return r.tableOptionClauses(end + 1)
}

// tableElements rewrites the elements of CREATE TABLE's list, which opens
// at i and closes at end, and returns how many are columns or table
// constraints. A partition's list (partition) has no LIKE and its
// columns no types: each is a column of the parent, named with its
// options, and is given TiDB a placeholder type the binder ignores.
func (r *rewriter) tableElements(i, end int, partition bool) (int, error) {
	tableConstraints, columns, others := 0, 0, 0
	for e := i + 1; e < end; {
		// The element runs to the next comma at depth 1.
		elemEnd := e
		for depth := 0; elemEnd < end; elemEnd++ {
			if r.toks[elemEnd].is("(") {
				depth++
			} else if r.toks[elemEnd].is(")") {
				depth--
			} else if depth == 0 && r.toks[elemEnd].is(",") {
				break
			}
		}
		if err := r.usingIndexTablespace(e, elemEnd); err != nil {
			return others, err
		}
		t := r.toks[e]
		if t.kind == tkIdent && t.val == "like" {
			if partition {
				return others, r.syntaxErrorAt(e)
			}
			if err := r.likeClause(e, elemEnd, end, columns); err != nil {
				return others, err
			}
			e = elemEnd + 1
			continue
		}
		others++
		switch {
		case t.kind == tkIdent && tableConstraintWords[t.val]:
			if err := r.tableCheck(e, elemEnd); err != nil {
				return others, err
			}
			if err := r.createTableConstraint(tableConstraints, e, elemEnd); err != nil {
				return others, err
			}
			tableConstraints++
		case (t.kind == tkIdent || t.kind == tkQIdent) && partition:
			if err := r.partitionColumn(e, elemEnd); err != nil {
				return others, err
			}
			columns++
		case t.kind == tkIdent || t.kind == tkQIdent:
			if err := r.columnDef(e, elemEnd); err != nil {
				return others, err
			}
			columns++
		default:
			return others, r.syntaxErrorAt(e)
		}
		e = elemEnd + 1
	}
	return others, nil
}

// tableOptionClauses lifts what follows CREATE TABLE's element list at
// k: INHERITS, PARTITION BY, WITH (...), WITHOUT OIDS, ON COMMIT.
func (r *rewriter) tableOptionClauses(k int) error {
	k, err := r.partitionClauses(k)
	if err != nil {
		return err
	}
	if r.peek(k, "using") {
		if r.st.Partition != nil && r.st.Partition.Strategy != "" {
			return pgerr.New(pgerr.FeatureNotSupported, "specifying a table access method is not supported on a partitioned table")
		}
		if k, err = r.tableAccessMethod(k, true); err != nil {
			return err
		}
	}
	if r.peek(k, "with") && r.peek(k+1, "(") {
		next, err := r.withOptions(k)
		if err != nil {
			return err
		}
		k = next
	}
	if r.peek(k, "without") && r.peek(k+1, "oids") {
		r.drop(k, k+2)
		k += 2
	}
	if r.peek(k, "on") && r.peek(k+1, "commit") {
		if k, err = r.onCommit(k); err != nil {
			return err
		}
	}
	if r.peek(k, "tablespace") {
		if _, err := r.tablespaceClause(k, true); err != nil {
			return err
		}
	}
	return nil
}

// tableAccessMethod checks a table's USING method at k and, when drop is
// set, removes it from the text TiDB parses. zproxy's relations are in its
// store, which pg_class shows as PostgreSQL's default table access method,
// heap (what pg_dump's SET default_table_access_method names too); any
// other method does not exist here. It returns the token after the
// clause.
func (r *rewriter) tableAccessMethod(k int, drop bool) (int, error) {
	name, err := r.name(k + 1)
	if err != nil {
		return k, err
	}
	switch name {
	case "heap":
	case "btree", "hash", "gist", "gin", "spgist", "brin":
		return k, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "access method \"%s\" is not of type TABLE", name)
	default:
		return k, pgerr.New(pgerr.UndefinedObject, "access method \"%s\" does not exist", name)
	}
	if drop {
		r.drop(k, k+2)
	}
	return k + 2, nil
}

// usingIndexTablespace checks and removes each USING INDEX TABLESPACE name
// of a PRIMARY KEY, UNIQUE or EXCLUDE constraint among tokens [from, to)
// (see tablespaceClause).
func (r *rewriter) usingIndexTablespace(from, to int) error {
	for k := from; k+2 < to; k++ {
		if r.peek(k, "using") && r.peek(k+1, "index") && r.peek(k+2, "tablespace") {
			if _, err := r.tablespaceClause(k+2, true); err != nil {
				return err
			}
			r.drop(k, k+2)
		}
	}
	return nil
}

// tablespaceClause checks TABLESPACE name at k (a relation's, an index's,
// USING INDEX TABLESPACE's) and, when drop is set, removes it from the
// text TiDB parses. zproxy has no tablespaces but PostgreSQL's default
// one, where every relation is (pg_tablespace lists pg_default and
// pg_global), so pg_default is accepted and changes nothing, pg_global is
// refused as PostgreSQL refuses it for an ordinary relation, and any other
// name does not exist. It returns the token after the clause.
func (r *rewriter) tablespaceClause(k int, drop bool) (int, error) {
	name, err := r.name(k + 1)
	if err != nil {
		return k, err
	}
	switch name {
	case "pg_default":
	case "pg_global":
		return k, pgerr.New(pgerr.InvalidParameterValue, "only shared relations can be placed in pg_global tablespace").WithPosition(r.pos(k + 1))
	default:
		return k, pgerr.New(pgerr.UndefinedObject, "tablespace \"%s\" does not exist", name).WithPosition(r.pos(k + 1))
	}
	if drop {
		r.drop(k, k+2)
	}
	return k + 2, nil
}

// StorableType reports whether a column may have type id: any type
// but the catalogs' system types, of which name, "char" and oid are plain
// values (text and integers) a table can hold, as in PostgreSQL; the reg*
// types print a name looked up when the value is made, and the vectors and
// void are the catalogs' own.
func StorableType(id sqltypes.TypeID) bool {
	return !id.System() || id == sqltypes.Name || id == sqltypes.Char || id == sqltypes.Oid
}

// pseudoTypes are PostgreSQL's pseudo-types (pg_type.typtype 'p'), with
// whether each has an array type: no column or composite attribute may
// be of one (PostgreSQL's CheckAttributeType), while a name like
// anyelement[] names no type at all.
var pseudoTypes = map[string]bool{
	"any": false, "anyarray": false, "anycompatible": false, "anycompatiblearray": false, "anycompatiblemultirange": false,
	"anycompatiblenonarray": false, "anycompatiblerange": false, "anyelement": false, "anyenum": false, "anymultirange": false,
	"anynonarray": false, "anyrange": false, "cstring": true, "event_trigger": false, "fdw_handler": false, "index_am_handler": false,
	"internal": false, "language_handler": false, "pg_ddl_command": false, "record": true, "table_am_handler": false,
	"trigger": false, "tsm_handler": false, "unknown": false, "void": false,
}

// PseudoTypeName is the name of the pseudo-type a column definition's
// type is ("record", "record[]", "void"), or "" when it is none: typ is
// the built-in type read, udt the name of a type the front end does not
// know (parseTypeRef).
func PseudoTypeName(typ sqltypes.Type, udt string) string {
	if udt == "" {
		switch typ.ID {
		case sqltypes.Void:
			return "void"
		case sqltypes.Unknown:
			return "unknown"
		}
		return ""
	}
	name := strings.TrimPrefix(udt, "pg_catalog.")
	base, array := strings.CutSuffix(name, "[]")
	if hasArray, ok := pseudoTypes[base]; ok && (!array || hasArray) {
		return name
	}
	return ""
}

// LikePlaceholder names the column TiDB is given for CREATE TABLE t (LIKE
// s), whose list has no column of its own.
const LikePlaceholder = "zp_like_placeholder"

// likeClause lifts the LIKE element [e, elemEnd) of CREATE TABLE's list
// (which closes at end) into Statement.Like, with the comma that
// separates it from its neighbours. before counts the column definitions
// ahead of it.
func (r *rewriter) likeClause(e, elemEnd, end, before int) error {
	k, err := r.skipName(e + 1)
	if err != nil {
		return err
	}
	var names []string
	for n := e + 1; n < k; n += 2 {
		names = append(names, r.toks[n].val)
	}
	lc := LikeClause{Table: names[len(names)-1], Before: before, Including: map[string]bool{}, Position: r.pos(e + 1)}
	if len(names) > 1 {
		lc.Schema = names[len(names)-2]
	}
	for k < elemEnd {
		include := r.peek(k, "including")
		if !include && !r.peek(k, "excluding") {
			return r.syntaxErrorAt(k)
		}
		if k+1 >= elemEnd || r.toks[k+1].kind != tkIdent {
			return r.syntaxErrorAt(k + 1)
		}
		switch opt := r.toks[k+1].val; {
		case opt == "all":
			for _, o := range likeOptions {
				lc.Including[o] = include
			}
		case slices.Contains(likeOptions, opt):
			lc.Including[opt] = include
		default:
			return r.syntaxErrorAt(k + 1)
		}
		k += 2
	}
	r.st.Like = append(r.st.Like, lc)
	switch {
	case elemEnd < end: // a comma follows
		r.drop(e, elemEnd+1)
	case e > 0 && r.toks[e-1].is(","): // the last element: the comma before it
		r.drop(e-1, elemEnd)
	default:
		r.drop(e, elemEnd)
	}
	return nil
}

// onCommit reads a temporary table's ON COMMIT PRESERVE ROWS | DELETE
// ROWS | DROP at k into Statement.OnCommit and returns the index after it.
func (r *rewriter) onCommit(k int) (int, error) {
	action, next := "", k+3
	switch {
	case r.peek(k+2, "preserve") && r.peek(k+3, "rows"), r.peek(k+2, "delete") && r.peek(k+3, "rows"):
		action, next = r.toks[k+2].val+" rows", k+4
	case r.peek(k+2, "drop"):
		action = "drop"
	default:
		return k, r.syntaxErrorAt(k + 2)
	}
	if !r.st.Temp {
		return k, pgerr.New(pgerr.InvalidTableDefinition, "ON COMMIT can only be used on temporary tables").WithPosition(r.pos(k))
	}
	r.drop(k, next)
	r.st.OnCommit = action
	return next, nil
}

// serialTypes are PostgreSQL's auto-increment pseudo-types.
var serialTypes = map[string]string{
	"smallserial": "smallint", "serial2": "smallint", "serial": "integer", "serial4": "integer",
	"bigserial": "bigint", "serial8": "bigint",
}

// columnDef respells one column definition [e, end) of CREATE TABLE: its
// type for TiDB, and the parts TiDB cannot hold lifted into
// Statement.Columns (a DEFAULT expression's text, SERIAL, GENERATED AS
// IDENTITY, CHECK expressions' text).
func (r *rewriter) columnDef(e, end int) error {
	name := r.toks[e].val
	ext := &ColumnExtras{}
	k := e + 1
	if k < end && r.toks[k].kind == tkIdent {
		if base, ok := serialTypes[r.toks[k].val]; ok {
			ext.Serial = base
			r.replace(k, map[string]string{"smallint": "smallint", "integer": "int", "bigint": "bigint"}[base])
			k++
		}
	}
	if ext.Serial == "" {
		typ, udt, next, err := r.parseTypeRef(k)
		if err != nil {
			return err
		}
		if pseudo := PseudoTypeName(typ, udt); pseudo != "" {
			return pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" has pseudo-type %s", name, pseudo)
		}
		if udt != "" {
			// A user-defined type: the binder looks it up; TiDB reads text.
			ext.TypeName, ext.TypePosition, typ = udt, r.pos(k), sqltypes.TypeText
		}
		if !StorableType(typ.ID) || !StorableType(typ.Elem) {
			return pgerr.New(pgerr.FeatureNotSupported, "type %s is not supported as a column type", typ).WithPosition(r.pos(k))
		}
		r.replace(k, tidbType(typ))
		r.drop(k+1, next)
		k = next
	}
	return r.columnOptions(name, ext, k, end)
}

// partitionColumn rewrites the column [e, end) of a partition's list:
// its name, WITH OPTIONS (which changes nothing) and its options, given
// the placeholder type int for TiDB. What follows the name must start an
// option, as in PostgreSQL's grammar: a type there is a syntax error.
func (r *rewriter) partitionColumn(e, end int) error {
	k := e + 1
	if r.peek(k, "with") && r.peek(k+1, "options") {
		r.drop(k, k+2)
		k += 2
	}
	if k < end && !(r.toks[k].kind == tkIdent && (columnWords[r.toks[k].val] || r.toks[k].val == "deferrable" || r.toks[k].val == "initially")) {
		return r.syntaxErrorAt(k)
	}
	r.ed[e].post += " int"
	return r.columnOptions(r.toks[e].val, &ColumnExtras{}, k, end)
}

// columnOptions reads the options of column name from k to end (DEFAULT,
// GENERATED, CHECK and the constraints TiDB reads) into ext, which it
// records in Statement.Columns when it says anything.
func (r *rewriter) columnOptions(name string, ext *ColumnExtras, k, end int) error {
	last := "" // the word the last column constraint began with
	for k < end {
		if clause := r.deferralClause(k); clause != "" {
			if last != "unique" && last != "primary" && last != "references" {
				// Only those constraints can be deferred (PostgreSQL's
				// transformConstraintAttrs).
				return pgerr.New(pgerr.SyntaxError, "misplaced %s clause", clause).WithPosition(r.pos(k))
			}
		} else if t := r.toks[k]; t.kind == tkIdent && columnWords[t.val] {
			last = t.val
		}
		if next, done, err := r.columnConstraint(name, k, end); err != nil {
			return err
		} else if done {
			k = next
			continue
		}
		switch {
		case r.peek(k, "default"):
			stop := r.constraintEnd(k+1, end)
			if stop == k+1 {
				return r.syntaxErrorAt(k + 1)
			}
			ext.Default, ext.DefaultOffset = r.sql[r.toks[k+1].start:r.toks[stop-1].end], r.toks[k+1].start
			r.drop(k, stop)
			k = stop
		case r.peek(k, "generated"):
			id := &Identity{}
			j := k + 1
			switch {
			case r.peek(j, "always"):
				id.Always = true
				j++
			case r.peek(j, "by") && r.peek(j+1, "default"):
				j += 2
			default:
				return r.syntaxErrorAt(j)
			}
			if r.peek(j, "as") && r.peek(j+1, "(") {
				// GENERATED ALWAYS AS (expr) STORED: a generated column.
				close := r.matching(j + 1)
				if close < 0 {
					return r.syntaxErrorAt(len(r.toks))
				}
				if !r.peek(close+1, "stored") {
					return r.syntaxErrorAt(close + 1)
				}
				if !id.Always {
					return pgerr.New(pgerr.SyntaxError, "for a generated column, GENERATED ALWAYS must be specified").WithPosition(r.pos(k))
				}
				if close == j+2 {
					return r.syntaxErrorAt(close)
				}
				ext.Generated = r.sql[r.toks[j+2].start:r.toks[close-1].end]
				r.drop(k, close+2)
				k = close + 2
				continue
			}
			if !r.peek(j, "as") || !r.peek(j+1, "identity") {
				return r.syntaxErrorAt(j)
			}
			j += 2
			if r.peek(j, "(") {
				close := r.matching(j)
				if close < 0 {
					return r.syntaxErrorAt(len(r.toks))
				}
				id.Options = r.sql[r.toks[j+1].start:r.toks[close-1].end]
				j = close + 1
			}
			ext.Identity = id
			r.drop(k, j)
			k = j
		case r.peek(k, "check") && r.peek(k+1, "("):
			close := r.matching(k + 1)
			if close < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			ext.Checks = append(ext.Checks, NamedCheck{SQL: r.sql[r.toks[k+2].start:r.toks[close-1].end], Offset: r.toks[k+2].start})
			k = close + 1
		case r.peek(k, "constraint") && k+1 < end:
			// CONSTRAINT name CHECK (...): the name goes with the check.
			if r.peek(k+2, "check") && r.peek(k+3, "(") {
				close := r.matching(k + 3)
				if close < 0 {
					return r.syntaxErrorAt(len(r.toks))
				}
				ext.Checks = append(ext.Checks, NamedCheck{Name: r.toks[k+1].val, SQL: r.sql[r.toks[k+4].start:r.toks[close-1].end], Offset: r.toks[k+4].start})
				k = close + 1
				continue
			}
			k += 2
		case r.peek(k, "("):
			close := r.matching(k)
			if close < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			k = close + 1
		default:
			k++
		}
	}
	if ext.TypeName != "" || ext.Default != "" || ext.Serial != "" || ext.Identity != nil || ext.Generated != "" || len(ext.Checks) > 0 {
		if r.st.Columns == nil {
			r.st.Columns = map[string]*ColumnExtras{}
		}
		r.st.Columns[name] = ext
	}
	return nil
}

// deferralClause names the DEFERRABLE, NOT DEFERRABLE or INITIALLY
// DEFERRED | IMMEDIATE clause at k, as PostgreSQL's messages do ("" when
// there is none).
func (r *rewriter) deferralClause(k int) string {
	switch {
	case r.peek(k, "deferrable"):
		return "DEFERRABLE"
	case r.peek(k, "not") && r.peek(k+1, "deferrable"):
		return "NOT DEFERRABLE"
	case r.peek(k, "initially") && r.peek(k+1, "deferred"):
		return "INITIALLY DEFERRED"
	case r.peek(k, "initially") && r.peek(k+1, "immediate"):
		return "INITIALLY IMMEDIATE"
	}
	return ""
}

// columnWords start a column constraint: they end a DEFAULT expression.
var columnWords = map[string]bool{
	"not": true, "null": true, "primary": true, "unique": true, "check": true, "references": true,
	"constraint": true, "generated": true, "collate": true, "default": true,
}

// constraintEnd returns where the expression starting at k ends within a
// column definition: at the next column constraint word at depth 0.
func (r *rewriter) constraintEnd(k, end int) int {
	depth := 0
	for ; k < end; k++ {
		t := r.toks[k]
		switch {
		case t.is("(") || t.is("["):
			depth++
		case t.is(")") || t.is("]"):
			depth--
		case depth == 0 && t.kind == tkIdent && columnWords[t.val]:
			// NOT NULL after a DEFAULT; "null" as the default itself is fine.
			if t.val == "null" && k > 0 && r.toks[k-1].is("default") {
				continue
			}
			return k
		}
	}
	return k
}

// tableCheck lifts the text of a table CHECK constraint [e, end).
func (r *rewriter) tableCheck(e, end int) error {
	name := ""
	k := e
	if r.peek(k, "constraint") && k+1 < end {
		name = r.toks[k+1].val
		k += 2
	}
	if !r.peek(k, "check") || !r.peek(k+1, "(") {
		return nil
	}
	close := r.matching(k + 1)
	if close < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	r.st.Checks = append(r.st.Checks, NamedCheck{Name: name, SQL: r.sql[r.toks[k+2].start:r.toks[close-1].end], Offset: r.toks[k+2].start})
	return nil
}

// withOptions reads WITH ( key [= value], ... ) at i into Statement.With
// and removes it from the TiDB text. A value is a number, a string, a name
// or a parenthesised list, kept as the text between its parentheses.
func (r *rewriter) withOptions(i int) (int, error) {
	end := r.matching(i + 1)
	if end < 0 {
		return i, r.syntaxErrorAt(len(r.toks))
	}
	if r.st.With == nil {
		r.st.With = make(map[string]string)
	}
	k := i + 2
	for k < end {
		t := r.toks[k]
		if t.kind != tkIdent && t.kind != tkQIdent {
			return i, r.syntaxErrorAt(k)
		}
		key, keyAt := t.val, k
		k++
		for r.peek(k, ".") && k+1 < end && r.toks[k+1].kind == tkIdent {
			key += "." + r.toks[k+1].val
			k += 2
		}
		val := "true"
		if r.peek(k, "=") {
			k++
			if k >= end {
				return i, r.syntaxErrorAt(k)
			}
			sign := ""
			if r.peek(k, "-") || r.peek(k, "+") {
				sign = r.toks[k].val
				k++
			}
			v := r.toks[k]
			switch {
			case sign == "" && r.peek(k, "(") && r.matching(k) > k+1 && r.matching(k) < end:
				// A list (zproxy's shard_columns = (a, b)): its text.
				close := r.matching(k)
				val = r.sql[r.toks[k+1].start:r.toks[close-1].end]
				k = close
			case v.kind == tkNumber:
				val = sign + v.val
			case sign == "" && (v.kind == tkString && v.str != strBit || v.kind == tkIdent || v.kind == tkQIdent):
				val = v.val
			default:
				return i, r.syntaxErrorAt(k)
			}
			k++
		}
		if _, dup := r.st.With[key]; dup {
			return i, pgerr.New(pgerr.SyntaxError, "option \"%s\" specified more than once", key).WithPosition(r.pos(keyAt))
		}
		r.st.With[key] = val
		r.st.WithOrder = append(r.st.WithOrder, key)
		if k < end {
			if !r.peek(k, ",") {
				return i, r.syntaxErrorAt(k)
			}
			k++
		}
	}
	r.drop(i, end+1)
	return end + 1, nil
}

// createIndex lifts USING method, INCLUDE (...) and WITH (...) out of a
// Postgres CREATE INDEX; i is the token after INDEX.
// UnnamedIndex stands in for the name of CREATE INDEX ON t (...), which
// TiDB's grammar requires; the binder replaces it.
const UnnamedIndex = "zp_unnamed_index"

// ConflictWhereColumn stands, in the TiDB text, for the condition of ON
// CONFLICT DO UPDATE SET ... WHERE condition: TiDB's ON DUPLICATE KEY
// UPDATE has no WHERE, so the condition is its last assignment, to this
// name.
const ConflictWhereColumn = "zp_on_conflict_where"

func (r *rewriter) createIndex(i int) error {
	var err error
	if r.peek(i, "concurrently") {
		r.st.Concurrently = true
		r.drop(i, i+1)
		i++
	}
	ifNotExists := r.peek(i, "if")
	if ifNotExists {
		i += 3
	}
	if r.peek(i, "on") {
		if ifNotExists {
			return r.syntaxErrorAt(i) // IF NOT EXISTS needs a name, as in PostgreSQL's grammar
		}
		// No name: the binder chooses one as PostgreSQL does
		// (Statement.IndexUnnamed); TiDB's grammar needs one to parse.
		r.st.IndexUnnamed = true
		r.ed[i].pre = UnnamedIndex + " " + r.ed[i].pre
	} else if i, err = r.skipName(i); err != nil {
		return err
	}
	if !r.peek(i, "on") {
		return r.syntaxErrorAt(i)
	}
	i++
	if r.peek(i, "only") {
		r.st.IndexOnly = true
		r.drop(i, i+1)
		i++
	}
	if i, err = r.skipName(i); err != nil {
		return err
	}
	r.st.IndexMethod = "btree"
	if r.peek(i, "using") {
		if i+1 >= len(r.toks) || r.toks[i+1].kind != tkIdent {
			return r.syntaxErrorAt(i + 1)
		}
		switch m := r.toks[i+1].val; m {
		case "btree", "zorder", "gin", "gist":
			r.st.IndexMethod = m
		default:
			return pgerr.New(pgerr.FeatureNotSupported, "index method %s is not supported (use btree, zorder, gin or gist)", m).WithPosition(r.pos(i + 1))
		}
		r.drop(i, i+2)
		i += 2
	}
	if !r.peek(i, "(") {
		return r.syntaxErrorAt(i)
	}
	end := r.matching(i)
	if end < 0 {
		return r.syntaxErrorAt(len(r.toks))
	}
	r.liftIndexExprs(i, end)
	if err := r.dropOpclasses(i, end); err != nil {
		return err
	}
	k := end + 1
	for k < len(r.toks) {
		switch {
		case r.peek(k, "include") && r.peek(k+1, "("):
			close := r.matching(k + 1)
			if close < 0 {
				return r.syntaxErrorAt(len(r.toks))
			}
			for c := k + 2; c < close; c += 2 {
				if t := r.toks[c]; t.kind != tkIdent && t.kind != tkQIdent {
					return r.syntaxErrorAt(c)
				}
				r.st.Include = append(r.st.Include, r.toks[c].val)
				if c+1 < close && !r.peek(c+1, ",") {
					return r.syntaxErrorAt(c + 1)
				}
			}
			r.drop(k, close+1)
			k = close + 1
		case r.peek(k, "with") && r.peek(k+1, "("):
			next, err := r.withOptions(k)
			if err != nil {
				return err
			}
			k = next
		case r.peek(k, "tablespace"):
			next, err := r.tablespaceClause(k, true)
			if err != nil {
				return err
			}
			k = next
		case r.peek(k, "where") && k+1 < len(r.toks):
			// A partial index's predicate ends the statement.
			r.st.IndexWhere = r.sql[r.toks[k+1].start:r.toks[len(r.toks)-1].end]
			r.st.IndexWhereOffset = r.toks[k+1].start
			r.drop(k, len(r.toks))
			k = len(r.toks)
		case r.peek(k, "nulls"):
			next, nnd := r.nullsDistinct(k)
			if next == k {
				return r.syntaxErrorAt(k)
			}
			r.constraintSyntax().IndexNullsNotDistinct = nnd
			k = next
		default:
			return r.syntaxErrorAt(k)
		}
	}
	return nil
}

// commaAt returns the first comma at parenthesis depth 0 from token from,
// or limit when there is none before it.
func (r *rewriter) commaAt(from, limit int) int {
	depth := 0
	for k := from; k < limit; k++ {
		switch {
		case r.toks[k].is("("):
			depth++
		case r.toks[k].is(")"):
			depth--
		case depth == 0 && r.toks[k].is(","):
			return k
		}
	}
	return limit
}

// IndexExprPrefix names the placeholder column standing for an expression
// key of CREATE INDEX in the TiDB text: zp_index_expr_<i> is
// Statement.IndexExprs[i].
const IndexExprPrefix = "zp_index_expr_"

// liftIndexExprs lifts the expression keys of a CREATE INDEX key list (the
// tokens from open to its closing parenthesis close) into
// Statement.IndexExprs, leaving a placeholder column in their place: a
// parenthesized expression ((a + b)) or a function call (lower(email)). In
// a Z-order index, col(n) is a column's width, not a call.
func (r *rewriter) liftIndexExprs(open, close int) {
	start := open + 1
	for start < close {
		end := start // the part's expression ends at end (inclusive)
		isExpr := false
		switch {
		case r.toks[start].is("("):
			end, isExpr = r.matching(start), true
		case r.toks[start].kind == tkIdent || r.toks[start].kind == tkQIdent:
			k := start
			for r.peek(k+1, ".") && k+2 < close {
				k += 2
			}
			if r.peek(k+1, "(") {
				m := r.matching(k + 1)
				width := r.st.IndexMethod == "zorder" && k == start && m == k+3 && r.toks[k+2].kind == tkNumber
				if !width && m > 0 {
					end, isExpr = m, true
				}
			}
		}
		if isExpr && end > 0 && end < close {
			text := r.sql[r.toks[start].start:r.toks[end].end]
			if r.toks[start].is("(") {
				text = r.sql[r.toks[start+1].start:r.toks[end-1].end]
			}
			r.st.IndexExprs = append(r.st.IndexExprs, IndexExpr{SQL: text, Offset: r.toks[start].start})
			r.drop(start, end+1)
			r.replace(start, IndexExprPrefix+strconv.Itoa(len(r.st.IndexExprs)-1))
		}
		// The next part begins after the comma at this depth.
		from := end + 1
		if !isExpr {
			from = start
		}
		start = r.commaAt(from, close) + 1
	}
}

// onConflict turns INSERT ... ON CONFLICT [(cols)] DO NOTHING | DO UPDATE SET
// into Statement.OnConflict, the SET list becoming TiDB's ON DUPLICATE KEY
// UPDATE assignments.
func (r *rewriter) onConflict(head int) error {
	depth := 0
	for i := head; i < len(r.toks); i++ {
		switch {
		case r.toks[i].is("("):
			depth++
		case r.toks[i].is(")"):
			depth--
		case depth == 0 && r.toks[i].is("on") && r.peek(i+1, "conflict"):
			oc := &OnConflict{}
			k := i + 2
			if r.peek(k, "(") {
				close := r.matching(k)
				if close < 0 {
					return r.syntaxErrorAt(len(r.toks))
				}
				if err := r.conflictTarget(oc, k, close); err != nil {
					return err
				}
				k = close + 1
				if r.peek(k, "where") {
					// The inference clause: a partial unique index whose
					// predicate it implies is an arbiter.
					w := k + 1
					for w < len(r.toks) && !r.peek(w, "do") {
						if r.toks[w].is("(") {
							w = r.matching(w)
							if w < 0 {
								return r.syntaxErrorAt(len(r.toks))
							}
						}
						w++
					}
					if w == k+1 || w >= len(r.toks) {
						return r.syntaxErrorAt(w)
					}
					oc.Where = &IndexExpr{SQL: r.sql[r.toks[k+1].start:r.toks[w-1].end], Offset: r.toks[k+1].start}
					k = w
				}
			} else if r.peek(k, "on") && r.peek(k+1, "constraint") && k+2 < len(r.toks) {
				oc.Constraint = r.toks[k+2].val
				k += 3
			}
			if !r.peek(k, "do") {
				return r.syntaxErrorAt(k)
			}
			switch {
			case r.peek(k+1, "nothing"):
				oc.DoNothing = true
				r.drop(i, k+2)
			case r.peek(k+1, "update") && r.peek(k+2, "set"):
				if oc.Columns == nil && oc.Exprs == nil && oc.Constraint == "" {
					return pgerr.New(pgerr.SyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name").
						WithPosition(r.pos(i)).WithHint("For example, ON CONFLICT (column_name).")
				}
				r.replace(i, "ON DUPLICATE KEY UPDATE")
				r.drop(i+1, k+3)
				d, where := 0, -1
				for w := k + 3; w < len(r.toks); w++ {
					switch {
					case r.toks[w].is("("):
						d++
					case r.toks[w].is(")"):
						d--
					case d == 0 && where < 0 && r.toks[w].is("where"):
						where = w
					case d == 0 && where >= 0 && r.toks[w].is("returning"):
						if w == where+1 {
							return r.syntaxErrorAt(w)
						}
						// DO UPDATE's WHERE becomes the last assignment, to
						// ConflictWhereColumn, which the binder takes
						// back out (planner/dml.go).
						r.replace(where, ", "+ConflictWhereColumn+" = (")
						r.ed[w-1].post += ")"
						where = -2
					}
				}
				if where >= 0 {
					if where == len(r.toks)-1 {
						return r.syntaxErrorAt(len(r.toks))
					}
					r.replace(where, ", "+ConflictWhereColumn+" = (")
					r.ed[len(r.toks)-1].post += ")"
				}
			default:
				return r.syntaxErrorAt(k + 1)
			}
			r.st.OnConflict = oc
			return nil
		}
	}
	return nil
}

// conflictTarget reads ON CONFLICT's target list between the parentheses
// at open and close: column names, and index expressions (lower(email),
// (a + b)) as PostgreSQL's inference accepts them.
func (r *rewriter) conflictTarget(oc *OnConflict, open, close int) error {
	start := open + 1
	for start < close {
		end := r.commaAt(start, close)
		if end == start {
			return r.syntaxErrorAt(start)
		}
		last := end - 1
		// A trailing operator class or COLLATE is the index's business.
		if last > start && r.toks[last].kind == tkIdent && strings.HasSuffix(r.toks[last].val, "_ops") {
			last--
		}
		switch t := r.toks[start]; {
		case last == start && (t.kind == tkIdent || t.kind == tkQIdent):
			oc.Columns = append(oc.Columns, t.val)
		case t.is("(") && r.matching(start) == last:
			oc.Exprs = append(oc.Exprs, IndexExpr{SQL: r.sql[r.toks[start+1].start:r.toks[last-1].end], Offset: r.toks[start+1].start})
		default:
			oc.Exprs = append(oc.Exprs, IndexExpr{SQL: r.sql[t.start:r.toks[last].end], Offset: t.start})
		}
		start = end + 1
	}
	if len(oc.Columns) == 0 && len(oc.Exprs) == 0 {
		return r.syntaxErrorAt(close)
	}
	return nil
}

// emit produces the TiDB text from the edits, recording the offset map and
// the output offsets of the "?" markers.
func (r *rewriter) emit(head int) string {
	r.out.Reset()
	r.out.Grow(r.toks[len(r.toks)-1].end - r.toks[head].start + 16)
	order := r.emitOrder(head)
	for n := head; n < len(r.toks); n++ {
		i := n
		if order != nil {
			i = order[n-head]
		}
		t := &r.toks[i]
		e := &r.ed[i]
		if n > head && i > 0 && (t.start > r.toks[i-1].end || order != nil && order[n-head-1] != i-1) {
			r.insert(r.toks[i-1].end, " ")
		}
		if e.outer != "" {
			r.insert(t.start, e.outer)
		}
		if e.pre != "" {
			r.insert(t.start, e.pre)
		}
		switch {
		case e.hasRep:
			if e.rep != "" {
				r.insert(t.start, e.rep)
			}
		case t.kind == tkIdent:
			r.copyText(t.start, t.val) // ASCII folding keeps byte offsets
		case t.kind == tkQIdent && r.peek(i+1, "(") && tidbAggregateName(t.val):
			// "count"(*) is count(*): the aggregates go to TiDB bare,
			// whose grammar knows their special arguments (*, DISTINCT)
			// only so.
			r.insert(t.start, t.val)
		case t.kind == tkQIdent:
			r.insert(t.start, tidbQuote(t.val))
		case t.kind == tkString && (t.str == strEscape || t.str == strDollar || t.str == strUni):
			r.insert(t.start, "'"+strings.ReplaceAll(t.val, "'", "''")+"'")
		case t.kind == tkParam:
			r.params = append(r.params, paramAt{out: r.out.Len(), n: t.n})
			r.insert(t.start, "?")
		case t.kind == tkNumber && t.val != r.sql[t.start:t.end]:
			// The 1 that FETCH FIRST ROW ONLY stands for (fetch.go).
			r.insert(t.start, t.val)
		default:
			r.copyText(t.start, r.sql[t.start:t.end])
		}
		if e.post != "" {
			r.insert(t.end, e.post)
		}
		if len(e.outerPost) > 0 {
			r.insert(t.end, string(e.outerPost))
		}
	}
	return r.out.String()
}

func (r *rewriter) insert(orig int, s string) {
	r.seg = append(r.seg, seg{out: r.out.Len(), orig: orig})
	r.out.WriteString(s)
}

func (r *rewriter) copyText(orig int, s string) {
	r.seg = append(r.seg, seg{out: r.out.Len(), orig: orig, copied: true})
	r.out.WriteString(s)
}

// origOffset maps a byte offset of the TiDB text to the original query.
func origOffset(segs []seg, out int, fallback int) int {
	k := sort.Search(len(segs), func(i int) bool { return segs[i].out > out }) - 1
	if k < 0 {
		return fallback
	}
	s := segs[k]
	if s.copied {
		return s.orig + out - s.out
	}
	return s.orig
}

// optionValue is the text of a SET/EXPLAIN option value token.
func optionValue(t token) (string, bool) {
	switch t.kind {
	case tkIdent, tkQIdent, tkNumber:
		return t.val, true
	case tkString:
		if t.str != strBit {
			return t.val, true
		}
	}
	return "", false
}

func isUnsignedInt(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// tidbAggregateName reports whether a quoted function name is one of the
// aggregates TiDB's grammar reads specially ("count"(*), "sum"(DISTINCT
// x)), which mean the same unquoted.
func tidbAggregateName(s string) bool { return tidbDistinctAggs[s] }

// lockBeforeLimit finds locking clauses written before their query's
// LIMIT, OFFSET or FETCH (SELECT ... FOR UPDATE SKIP LOCKED LIMIT 1), an
// order PostgreSQL's grammar accepts as well as the other and TiDB's does
// not: emit writes the limit clause first (swaps).
func (r *rewriter) lockBeforeLimit(head int) error {
	for i := head; i < len(r.toks); i++ {
		if !r.lockingFor(i) {
			continue
		}
		// The locking clauses run to the limit clause, or to the end of
		// their query (its closing parenthesis, or the statement's end).
		mid := r.spanAtDepth(i, func(u *token) bool {
			return u.kind == tkIdent && (u.val == "limit" || u.val == "offset" || u.val == "fetch")
		})
		if mid >= len(r.toks) || r.toks[mid].is(")") {
			i = mid - 1
			continue
		}
		end := r.spanAtDepth(mid, func(*token) bool { return false })
		if lock := r.spanAtDepth(mid, func(u *token) bool { return u.is("for") }); lock < end && r.lockingFor(lock) {
			// One locking clause (of one or more items) per query.
			return r.syntaxErrorAt(lock)
		}
		r.swaps = append(r.swaps, tokenSwap{start: i, mid: mid, end: end})
		i = end - 1
	}
	return nil
}

// lockingFor reports whether token i begins a locking clause item (FOR
// UPDATE, FOR NO KEY UPDATE, FOR SHARE, FOR KEY SHARE).
func (r *rewriter) lockingFor(i int) bool {
	return r.peek(i, "for") && r.toks[i].kind == tkIdent && (r.peek(i+1, "update") || r.peek(i+1, "share") ||
		r.peek(i+1, "no") && r.peek(i+2, "key") || r.peek(i+1, "key") && r.peek(i+2, "share"))
}

// spanAtDepth returns the index of the first token from i on that stop
// accepts outside any parentheses opened after i, or of the parenthesis
// closing one opened before i, or len(r.toks).
func (r *rewriter) spanAtDepth(i int, stop func(*token) bool) int {
	d := 0
	for ; i < len(r.toks); i++ {
		u := &r.toks[i]
		switch {
		case u.is("("):
			d++
		case u.is(")"):
			if d == 0 {
				return i
			}
			d--
		case d == 0 && stop(u):
			return i
		}
	}
	return i
}

// emitOrder is the order in which emit writes the tokens from head on
// (nil: as they are).
func (r *rewriter) emitOrder(head int) []int {
	if len(r.swaps) == 0 {
		return nil
	}
	order := make([]int, 0, len(r.toks)-head)
	next := head
	for _, sw := range r.swaps {
		if sw.start < next {
			continue
		}
		for k := next; k < sw.start; k++ {
			order = append(order, k)
		}
		for k := sw.mid; k < sw.end; k++ {
			order = append(order, k)
		}
		for k := sw.start; k < sw.mid; k++ {
			order = append(order, k)
		}
		next = sw.end
	}
	for k := next; k < len(r.toks); k++ {
		order = append(order, k)
	}
	return order
}
