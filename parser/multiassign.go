package parser

import (
	"fmt"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// UPDATE's multiple-column assignments, which TiDB's grammar lacks:
//
//	SET (a, b) = (x, y)       → SET a = x, b = y
//	SET (a, b) = ROW(x, y)    → SET a = x, b = y
//	SET (a, b) = (SELECT ...) → SET a = zp_multiassign((SELECT ...), 0, 2),
//	                                b = zp_multiassign(NULL, 1, 2)
//
// in UPDATE and in INSERT ... ON CONFLICT DO UPDATE. Each value stays in
// place (its tokens and their respellings are untouched); the column
// names move in front of it. A source that is neither a parenthesized
// list of two or more values nor ROW(...) is refused as PostgreSQL
// refuses it. The planner evaluates a sub-SELECT source once per row
// and assigns each column its field of the row (PostgreSQL's MULTIEXPR
// SubPlan). Targets that are array elements or fields are not supported
// in a multiple-column item.
//
// A single column's subscripted target, SET a[i] = x, a[lo:hi] = x,
// j['k'][0] = x, becomes
//
//	SET a = zp_subscript_assign(a[i], x)
//
// whose target the subscript rule then respells (zp_subscript, zp_slice)
// and the binder reads back: it assigns x into the column's value
// (PostgreSQL's array_set_element, array_set_slice, jsonb's assignment).

// MultiAssignFunc marks the columns of a multiple-column assignment from
// a sub-SELECT: zp_multiassign(subquery, 0, n) for the first of its n
// columns, zp_multiassign(NULL, k, n) for the k-th after it.
const MultiAssignFunc = "zp_multiassign"

// SubscriptAssignFunc marks a subscripted assignment:
// zp_subscript_assign(target, value), target a zp_subscript or zp_slice
// call on the column.
const SubscriptAssignFunc = "zp_subscript_assign"

// updateSet reports whether the SET at token i starts an UPDATE's
// assignment list: UPDATE [ONLY] name [*] [[AS] alias] SET, or DO UPDATE
// SET.
func (r *rewriter) updateSet(head, i int) bool {
	if i == head && r.startInUpdate {
		return true
	}
	for k := i - 1; k >= head && k >= i-8; k-- {
		t := r.toks[k]
		switch {
		case t.is("update"):
			return true
		case t.kind == tkQIdent, t.kind == tkIdent && !isStoppers[t.val], t.is("."), t.is("*"):
		default:
			return false
		}
	}
	return false
}

// multiAssign respells the multiple-column items of the assignment list
// that follows the SET at token i.
func (r *rewriter) multiAssign(i int) error {
	k := i + 1
	for k < len(r.toks) {
		if r.toks[k].is("(") {
			next, err := r.multiAssignItem(k)
			if err != nil {
				return err
			}
			k = next
		} else if (r.toks[k].kind == tkIdent || r.toks[k].kind == tkQIdent) && r.peek(k+1, "[") {
			next, err := r.subscriptAssign(k)
			if err != nil {
				return err
			}
			k = next
		} else {
			k = r.assignmentEnd(k)
		}
		if k >= len(r.toks) || !r.toks[k].is(",") {
			return nil
		}
		k++
	}
	return nil
}

// assignmentEnd is the token after the single-column assignment that
// starts at k: the next comma, clause word or closing bracket at its depth.
func (r *rewriter) assignmentEnd(k int) int {
	for ; k < len(r.toks); k++ {
		t := r.toks[k]
		switch {
		case t.is("(") || t.is("["):
			if m := r.matching(k); m > k {
				k = m
				continue
			}
			return len(r.toks)
		case t.is(",") || t.is(")") || t.is("]") || t.is(";"):
			return k
		case t.kind == tkIdent && (t.val == "where" || t.val == "from" || t.val == "returning"):
			return k
		}
	}
	return k
}

// multiAssignItem respells (cols) = source at token open and returns the
// token after it.
func (r *rewriter) multiAssignItem(open int) (int, error) {
	close := r.matching(open)
	if close < 0 {
		return 0, r.syntaxErrorAt(len(r.toks))
	}
	cols := r.commaItems(open+1, close)
	for _, c := range cols {
		if c[1]-c[0] != 1 || r.toks[c[0]].kind != tkIdent && r.toks[c[0]].kind != tkQIdent {
			return 0, pgerr.New(pgerr.FeatureNotSupported, "a multiple-column UPDATE item may only name whole columns").
				WithPosition(charPos(r.sql, r.toks[c[0]].start))
		}
	}
	if !r.peek(close+1, "=") {
		return 0, r.syntaxErrorAt(close + 1)
	}
	src := close + 2
	values, isRow := src, false
	switch {
	case r.peek(src, "row") && r.peek(src+1, "("):
		values, isRow = src+1, true
	case r.peek(src, "("):
	default:
		return 0, r.notRowSource(src)
	}
	end := r.matching(values)
	if end < 0 {
		return 0, r.syntaxErrorAt(len(r.toks))
	}
	if !isRow && (r.peek(values+1, "select") || r.peek(values+1, "with") || r.peek(values+1, "values")) {
		// (a, b) = (SELECT ...): the sub-SELECT stays in place as the
		// first column's value, zp_multiassign((SELECT ...), 0, n); the
		// others take their fields of its row.
		n := len(cols)
		r.drop(open, values)
		r.ed[values-1].post += r.tidbText(cols[0][0], cols[0][1]) + " = " + MultiAssignFunc + "("
		tail := fmt.Sprintf(", 0, %d)", n)
		for j := 1; j < n; j++ {
			tail += fmt.Sprintf(", %s = %s(NULL, %d, %d)", r.tidbText(cols[j][0], cols[j][1]), MultiAssignFunc, j, n)
		}
		r.ed[end].outerPost = append(r.ed[end].outerPost, tail...)
		return end + 1, nil
	}
	vals := r.commaItems(values+1, end)
	if !isRow && len(vals) == 1 {
		// (a) = (x) is x in parentheses, not a row.
		return 0, r.notRowSource(vals[0][0])
	}
	if len(vals) != len(cols) || len(cols) == 0 {
		return 0, pgerr.New(pgerr.SyntaxError, "number of columns does not match number of values").
			WithPosition(charPos(r.sql, r.toks[src].start))
	}
	r.drop(open, values+1)
	r.replace(end, "")
	for j, v := range vals {
		target := r.tidbText(cols[j][0], cols[j][1]) + " = "
		if j == 0 {
			r.ed[values].post += target // the dropped opening bracket
		} else {
			r.ed[v[0]-1].post += target // the comma before the value
		}
	}
	return end + 1, nil
}

// subscriptAssign respells col[...] = value, the single-column item at
// token k whose target has subscripts, and returns the token after it.
func (r *rewriter) subscriptAssign(k int) (int, error) {
	j := k + 1
	for r.peek(j, "[") {
		m := r.matching(j)
		if m < 0 {
			return 0, r.syntaxErrorAt(len(r.toks))
		}
		j = m + 1
	}
	if r.peek(j, ".") {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "assignment to a field of an array element is not supported").
			WithPosition(r.pos(k))
	}
	if !r.peek(j, "=") {
		return 0, r.syntaxErrorAt(j)
	}
	end := r.assignmentEnd(j + 1)
	if end == j+1 {
		return 0, r.syntaxErrorAt(end)
	}
	if end == j+2 && r.peek(j+1, "default") {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "cannot set an array element to DEFAULT").WithPosition(r.pos(k))
	}
	r.ed[k].outer += r.tidbText(k, k+1) + " = " + SubscriptAssignFunc + "("
	r.replace(j, ",")
	r.ed[end-1].outerPost = append(r.ed[end-1].outerPost, ")"...)
	return end, nil
}

// InsertSubscript is a subscripted item of an INSERT's column list
// (Statement.InsertSubscripts).
type InsertSubscript struct {
	// Item is the item's place in the column list, from 0.
	Item int
	// Text is the item as the client wrote it (a[2]), and Offset its
	// byte offset in the client's query.
	Text   string
	Offset int
}

// InsertSubscripted reports whether item k of the INSERT's column list
// assigns through subscripts.
func (s *Statement) InsertSubscripted(k int) bool {
	for _, is := range s.InsertSubscripts {
		if is.Item == k {
			return true
		}
	}
	return false
}

// insertSubscripts takes the subscripts out of the column list of the
// INSERT at token head, if it has one, recording each such item in
// Statement.InsertSubscripts.
func (r *rewriter) insertSubscripts(head int) error {
	k, err := r.skipName(head + 2)
	if err != nil {
		return nil // TiDB's grammar will say what is wrong
	}
	if r.peek(k, "as") {
		k += 2
	}
	if !r.peek(k, "(") || r.peek(k+1, "select") || r.peek(k+1, "with") || r.peek(k+1, "values") || r.peek(k+1, "(") {
		return nil
	}
	close := r.matching(k)
	if close < 0 {
		return nil
	}
	for item, c := range r.commaItems(k+1, close) {
		if c[1]-c[0] < 2 || !r.peek(c[0]+1, "[") {
			continue
		}
		if r.toks[c[0]].kind != tkIdent && r.toks[c[0]].kind != tkQIdent {
			continue
		}
		j := c[0] + 1
		for j < c[1] && r.peek(j, "[") {
			m := r.matching(j)
			if m < 0 || m >= c[1] {
				return r.syntaxErrorAt(j)
			}
			j = m + 1
		}
		if j != c[1] {
			return pgerr.New(pgerr.FeatureNotSupported, "assignment to a field of an array element is not supported").
				WithPosition(r.pos(c[0]))
		}
		start, end := r.toks[c[0]].start, r.toks[c[1]-1].end
		r.lifted().InsertSubscripts = append(r.lifted().InsertSubscripts, InsertSubscript{Item: item, Text: r.sql[start:end], Offset: start})
		r.drop(c[0]+1, c[1])
	}
	return nil
}

// notRowSource is PostgreSQL's refusal of a multiple-column assignment's
// source that is neither a sub-SELECT nor a row, at token k.
func (r *rewriter) notRowSource(k int) error {
	if k >= len(r.toks) {
		return r.syntaxErrorAt(k) // no source at all: at end of input
	}
	return pgerr.New(pgerr.FeatureNotSupported, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression").
		WithPosition(charPos(r.sql, r.toks[k].start))
}

// commaItems splits tokens [from, to) at their top-level commas into
// [first, end) token ranges; an empty range is none.
func (r *rewriter) commaItems(from, to int) [][2]int {
	if from >= to {
		return nil
	}
	var out [][2]int
	for start := from; ; {
		c := r.nextAtDepth(start, ",")
		if c < 0 || c >= to {
			return append(out, [2]int{start, to})
		}
		out = append(out, [2]int{start, c})
		start = c + 1
	}
}

// tidbText is tokens [from, to) as TiDB's grammar reads them: quoted
// identifiers in backquotes, the rest as written.
func (r *rewriter) tidbText(from, to int) string {
	var b strings.Builder
	for k := from; k < to; k++ {
		t := r.toks[k]
		switch t.kind {
		case tkIdent:
			b.WriteString(t.val)
		case tkQIdent:
			b.WriteString(tidbQuote(t.val))
		default:
			b.WriteString(r.sql[t.start:t.end])
		}
	}
	return b.String()
}
