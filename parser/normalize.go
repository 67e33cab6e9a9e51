package parser

import (
	"hash/fnv"
	"strconv"
	"strings"
)

// Unnormalised is the text Normalize gives a statement it cannot
// tokenise: such a statement's constants cannot be told apart from the rest
// of it, so none of its text is kept (it might hold a password).
const Unnormalised = "<statement not normalised>"

// Normalize returns a statement's text with every constant replaced by a
// parameter symbol, and an identifier for its shape, as PostgreSQL's
// pg_stat_statements does: "SELECT * FROM t WHERE a = 5 AND b = 'x'" and
// "select * from t where a=7 and b='y'" both have the ID of
// "SELECT * FROM t WHERE a = $1 AND b = $2", the first text seen.
//
// It works on the statement's tokens, so a constant inside a comment or a
// quoted identifier is never mistaken for one, and spacing, letter case of
// keywords and comments do not change the ID. Constants are numbers and
// string constants of every spelling ('...', E'...', U&'...', $tag$...$tag$,
// B'...', X'...', N'...'; a negative number is one constant, as PostgreSQL
// folds the sign into it); they are numbered after the statement's own
// highest $n, so "a = $1 AND b = 2" becomes "a = $1 AND b = $2". In
// SELECT and DML, TRUE, FALSE and NULL are constants too (not after IS);
// a type's modifiers (varchar(20)) are kept, as PostgreSQL keeps them.
//
// Unlike pg_stat_statements, utility statements (DDL, SET, CREATE/ALTER
// ROLE ... PASSWORD, EXPLAIN) lose their constants too, and their ID does
// not depend on them: the text is stored in memory, shown to every role in
// pg_stat_statements and exported on the unauthenticated /metrics, and an
// ID hashed from a password could be brute-forced back to it. Comments
// (optimizer hints included) are dropped from the text for the same
// reason: nothing but the statement's words and operators is kept.
//
// A statement the scanner refuses yields Unnormalised and an ID shared by
// every such statement: failing safe, no byte of its text is kept.
func Normalize(text string) (string, int64) {
	toks, err := scan(text)
	if err != nil {
		h := fnv.New64a()
		h.Write([]byte(Unnormalised))
		return Unnormalised, int64(h.Sum64())
	}
	// TRUE, FALSE and NULL are constants in the statements PostgreSQL
	// normalises (SELECT, DML); elsewhere NULL is as often syntax (NOT
	// NULL, PASSWORD NULL, DEFAULT NULL) and none of them is a secret.
	dml := false
	if len(toks) > 0 && (toks[0].kind == tkIdent || toks[0].is("(")) {
		switch toks[0].val {
		case "select", "insert", "update", "delete", "merge", "values", "with", "table", "(":
			dml = true
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
	last := -1 // end of the last token written; -1 before the first
	// gap writes the text between two written tokens when it is only
	// white space, and one space when it holds a comment.
	gap := func(start int) {
		if last < 0 {
			return
		}
		g := text[last:start]
		for i := 0; i < len(g); i++ {
			if !isSpace(g[i]) {
				g = " "
				break
			}
		}
		out.WriteString(g)
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tkHint {
			// A hint is a comment to PostgreSQL: part of the shape (it
			// changes the plan), never of the text.
			h.Write([]byte{byte(t.kind)})
			h.Write([]byte(t.val))
			continue
		}
		if typmod(toks, i) {
			// A type's modifiers, varchar(20) or numeric(10, 2), are
			// part of the type, as PostgreSQL keeps them.
			for ; toks[i].val != ")"; i++ {
				gap(toks[i].start)
				out.WriteString(text[toks[i].start:toks[i].end])
				last = toks[i].end
				h.Write([]byte{byte(toks[i].kind)})
				h.Write([]byte(toks[i].val))
			}
			t = toks[i]
		} else if n := constantLen(toks, i, dml); n > 0 {
			gap(t.start)
			// Keep the symbol a token of its own: "a'x'" must not become
			// the identifier "a$1", nor "'x'b" the junk "$1b".
			if s := out.String(); len(s) > 0 && isIdentCont(s[len(s)-1]) {
				out.WriteByte(' ')
			}
			next++
			out.WriteString("$" + strconv.Itoa(next))
			if t.kind == tkString && t.str == strUni && t.n > 0 {
				// U&'...' UESCAPE '!': the escape character is a
				// constant of its own to PostgreSQL.
				next++
				out.WriteString(" " + text[t.n:t.n+len("uescape")] + " $" + strconv.Itoa(next))
				h.Write([]byte{0, '?', byte(tkIdent)})
			}
			i += n - 1
			last = toks[i].end
			if last < len(text) && isIdentCont(text[last]) {
				out.WriteByte(' ')
			}
			h.Write([]byte{0, '?'})
			continue
		}
		gap(t.start)
		out.WriteString(text[t.start:t.end])
		last = t.end
		h.Write([]byte{byte(t.kind)})
		h.Write([]byte(t.val))
	}
	return out.String(), int64(h.Sum64())
}

// constantLen returns how many tokens from toks[i] make one constant (0:
// toks[i] starts none): a number or string; a minus sign in prefix
// position and the number after it; U& and the string after it.
func constantLen(toks []token, i int, dml bool) int {
	t := toks[i]
	switch {
	case dml && (t.is("true") || t.is("false") || t.is("null")):
		// x IS [NOT] NULL and IS [NOT] TRUE are tests, not constants.
		if i > 0 && toks[i-1].is("is") || i > 1 && toks[i-1].is("not") && toks[i-2].is("is") {
			return 0
		}
		return 1
	case t.kind == tkNumber, t.kind == tkString:
		return 1
	case t.is("-") && i+1 < len(toks) && toks[i+1].kind == tkNumber && toks[i+1].start == t.end:
		if i == 0 || prefixPosition(toks[i-1]) {
			return 2
		}
	case t.is("u") && t.end-t.start == 1 && i+2 < len(toks) && toks[i+1].is("&") && toks[i+1].start == t.end &&
		toks[i+2].kind == tkString && toks[i+2].start == toks[i+1].end:
		return 3
	}
	return 0
}

// typmodTypes are the types that take modifiers: a parenthesised list of
// numbers after one of them is the type's, not constants.
var typmodTypes = map[string]bool{"varchar": true, "char": true, "character": true, "varying": true, "nchar": true,
	"numeric": true, "decimal": true, "dec": true, "bit": true, "varbit": true, "float": true,
	"timestamp": true, "timestamptz": true, "time": true, "timetz": true, "interval": true}

// typmod reports whether toks[i] opens a type's modifiers: "(" after a
// type that takes them, then numbers separated by commas, then ")".
func typmod(toks []token, i int) bool {
	if !toks[i].is("(") || i == 0 || toks[i-1].kind != tkIdent || !typmodTypes[toks[i-1].val] {
		return false
	}
	for j := i + 1; j+1 < len(toks); j += 2 {
		if toks[j].kind != tkNumber {
			return false
		}
		if toks[j+1].is(")") {
			return true
		}
		if !toks[j+1].is(",") {
			return false
		}
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
