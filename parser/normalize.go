package parser

import (
	"hash/fnv"
	"strconv"
	"strings"
)

// Normalize returns a statement's text with every constant replaced by a
// parameter symbol, and an identifier for its shape, as PostgreSQL's
// pg_stat_statements does: "SELECT * FROM t WHERE a = 5 AND b = 'x'" and
// "select * from t where a=7 and b='y'" both have the ID of
// "SELECT * FROM t WHERE a = $1 AND b = $2", the first text seen.
//
// It works on the statement's tokens, so a constant inside a comment or a
// quoted identifier is never mistaken for one, and spacing, letter case of
// keywords and comments do not change the ID. Constants are numbers and
// string constants of every spelling (a negative number is one constant,
// as PostgreSQL folds the sign into it); they are numbered after the
// statement's own highest $n, so "a = $1 AND b = 2" becomes
// "a = $1 AND b = $2". Statements PostgreSQL does not normalise (utility
// statements: DDL, SET, transaction control, EXPLAIN) keep their constants;
// their ID is that of their tokens.
//
// A statement the scanner refuses is returned unchanged, with the ID of
// its text.
func Normalize(text string) (string, int64) {
	toks, err := scan(text)
	if err != nil || len(toks) == 0 {
		h := fnv.New64a()
		h.Write([]byte(text))
		return text, int64(h.Sum64())
	}
	optimizable := false
	if toks[0].kind == tkIdent || toks[0].is("(") {
		switch toks[0].val {
		case "select", "insert", "update", "delete", "values", "with", "table", "(":
			optimizable = true
		}
	}
	next := 0
	for _, t := range toks {
		if t.kind == tkParam && t.n > next {
			next = t.n
		}
	}
	h := fnv.New64a()
	var out strings.Builder
	last := 0 // text copied up to here
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if optimizable && isConstant(toks, i) {
			start := t.start
			if t.is("-") {
				i++ // the sign and the number are one constant
			}
			next++
			out.WriteString(text[last:start])
			out.WriteString("$" + strconv.Itoa(next))
			last = toks[i].end
			h.Write([]byte{0, '?'})
			continue
		}
		h.Write([]byte{byte(t.kind)})
		if t.kind == tkString || t.kind == tkNumber {
			// A utility statement's constants are part of its identity.
			h.Write([]byte{t.str})
		}
		h.Write([]byte(t.val))
	}
	out.WriteString(text[last:])
	return out.String(), int64(h.Sum64())
}

// isConstant reports whether toks[i] starts a constant: a number or string,
// or a minus sign in prefix position followed by a number.
func isConstant(toks []token, i int) bool {
	t := toks[i]
	switch {
	case t.kind == tkNumber, t.kind == tkString:
		return true
	case t.is("-") && i+1 < len(toks) && toks[i+1].kind == tkNumber && toks[i+1].start == t.end:
		return i == 0 || prefixPosition(toks[i-1])
	}
	return false
}

// prefixPosition reports whether a minus after t is a sign rather than a
// subtraction: after an operator, an opening bracket, a comma, or a
// keyword that an operand follows.
func prefixPosition(t token) bool {
	switch t.kind {
	case tkOp:
		return true
	case tkPunct:
		return t.val != ")" && t.val != "]"
	case tkIdent:
		switch t.val {
		case "select", "where", "and", "or", "not", "when", "then", "else", "values", "by", "limit",
			"offset", "between", "in", "set", "having", "on", "returning", "like", "is", "distinct":
			return true
		}
	}
	return false
}
