package parser

import (
	"fmt"
	"strings"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Exclusion constraints. TiDB's grammar has no EXCLUDE, so the rewriter
// lifts the whole constraint out of the text into an ExcludeSyntax and
// leaves in its place a CHECK (zp_exclude(n)) that TiDB parses as one more
// table constraint (so the positions of the others, which
// TableNullsNotDistinct and TableDeferral count, do not move); the
// planner recognises the marker and reads Excludes[n].

// ExcludeMarker is the function the placeholder CHECK of an exclusion
// constraint calls, with the constraint's index in
// ConstraintSyntax.Excludes as its argument.
const ExcludeMarker = "zp_exclude"

// ExcludeSyntax is one EXCLUDE [USING method] (element WITH operator, ...)
// [WHERE (predicate)] [deferral] constraint, its parts as written.
type ExcludeSyntax struct {
	// Method is the index access method (gist when unsaid is btree in
	// PostgreSQL's grammar: USING is optional and defaults to btree).
	Method   string
	Elements []ExcludeElement
	// Where is the predicate's text, without its parentheses ("" for
	// none).
	Where string
	// Deferral is what the constraint's DEFERRABLE clause says (see
	// Deferral).
	Deferral string
}

// ExcludeElement is one element of an exclusion constraint: a column
// (Expr false) or a parenthesised expression, and its operator.
type ExcludeElement struct {
	SQL string
	// Expr: SQL is an expression, not a column name (which is folded).
	Expr bool
	// Op is the operator as written, without OPERATOR(schema. ...).
	Op string
}

// exclude lifts the EXCLUDE constraint whose EXCLUDE word is token k and
// which ends before end, replacing it with CHECK (zp_exclude(n)).
func (r *rewriter) exclude(k, end int) error {
	ex := ExcludeSyntax{Method: "btree"}
	j := k + 1
	if r.peek(j, "using") {
		if j+1 >= end || r.toks[j+1].kind != tkIdent && r.toks[j+1].kind != tkQIdent {
			return r.syntaxErrorAt(j + 1)
		}
		ex.Method = r.toks[j+1].val
		j += 2
	}
	if !r.peek(j, "(") {
		return r.syntaxErrorAt(j)
	}
	close := r.matching(j)
	if close < 0 || close >= end {
		return r.syntaxErrorAt(end)
	}
	for s := j + 1; s < close; {
		e := r.commaAt(s, close)
		w := -1
		for q, depth := s, 0; q < e; q++ {
			switch {
			case r.peek(q, "("):
				depth++
			case r.peek(q, ")"):
				depth--
			case depth == 0 && r.peek(q, "with"):
				w = q
			}
			if w >= 0 {
				break
			}
		}
		if w <= s || w+1 >= e {
			return r.syntaxErrorAt(max(w+1, e))
		}
		el := ExcludeElement{}
		switch {
		case w == s+1 && (r.toks[s].kind == tkIdent || r.toks[s].kind == tkQIdent):
			el.SQL = r.toks[s].val
		case r.peek(s, "(") && r.matching(s) == w-1:
			el.SQL, el.Expr = r.sql[r.toks[s+1].start:r.toks[w-2].end], true
		case r.toks[s].kind == tkIdent && r.peek(s+1, "(") && r.matching(s+1) == w-1:
			// A function call, which needs no parentheses of its own.
			el.SQL, el.Expr = r.sql[r.toks[s].start:r.toks[w-1].end], true
		default:
			// A column with an operator class, a qualified function, ...
			return pgerr.New(pgerr.FeatureNotSupported, "exclusion constraint elements other than a column, a function call or a parenthesised expression are not supported").WithPosition(r.pos(s))
		}
		op := strings.TrimSpace(r.sql[r.toks[w+1].start:r.toks[e-1].end])
		if low := strings.ToLower(op); strings.HasPrefix(low, "operator") {
			op = strings.TrimSpace(op[len("operator"):])
			op = strings.TrimSuffix(strings.TrimPrefix(op, "("), ")")
			if i := strings.LastIndexByte(op, '.'); i >= 0 {
				op = op[i+1:]
			}
			op = strings.TrimSpace(op)
		}
		el.Op = op
		ex.Elements = append(ex.Elements, el)
		s = e + 1
	}
	j = close + 1
	switch {
	case r.peek(j, "include"):
		return pgerr.New(pgerr.FeatureNotSupported, "INCLUDE in exclusion constraints is not supported").WithPosition(r.pos(j))
	case r.peek(j, "with"):
		return pgerr.New(pgerr.FeatureNotSupported, "storage parameters of exclusion constraints are not supported").WithPosition(r.pos(j))
	case r.peek(j, "using") && r.peek(j+1, "index") && r.peek(j+2, "tablespace"):
		next, err := r.tablespaceClause(j+2, true)
		if err != nil {
			return err
		}
		r.drop(j, j+2)
		j = next
	}
	if r.peek(j, "where") {
		if !r.peek(j+1, "(") {
			return r.syntaxErrorAt(j + 1)
		}
		c := r.matching(j + 1)
		if c < 0 || c >= end {
			return r.syntaxErrorAt(end)
		}
		ex.Where = r.sql[r.toks[j+2].start:r.toks[c-1].end]
		j = c + 1
	}
	for j < end {
		next, done := r.deferrable(j, &ex.Deferral)
		if !done {
			return r.syntaxErrorAt(j)
		}
		j = next
	}
	cs := r.constraintSyntax()
	r.replace(k, fmt.Sprintf("check (%s(%d))", ExcludeMarker, len(cs.Excludes)))
	r.drop(k+1, end)
	cs.Excludes = append(cs.Excludes, ex)
	return nil
}
