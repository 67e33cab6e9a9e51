package parser

import (
	"slices"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// CREATE TABLE ... AS and SELECT ... INTO create a table from a query's
// result. Such a statement is parsed as its query: the words describing
// the table are read into Statement.CreateAs (and Temp, OnCommit, With)
// and left out of the text TiDB parses, so the AST, the parameters and
// whatever the rewriting lifts are the query's, and positions still point
// into the client's text. The binder binds the query and derives the
// table from its columns (planner/createas.go).

// CreateTableAs describes the table CREATE TABLE ... AS or SELECT ...
// INTO creates; Statement.Temp, TempGlobal, OnCommit and With apply to it.
type CreateTableAs struct {
	// Schema qualifies Name ("" when not written).
	Schema, Name string
	// Pos is the name's position in the query string (1-based, in
	// characters), where PostgreSQL points errors about an INTO clause.
	Pos int
	// Columns are the names listed after the table's name: they rename
	// the query's first columns.
	Columns     []string
	IfNotExists bool
	// NoData is WITH NO DATA: the table is created empty.
	NoData bool
	// SelectInto marks the SELECT ... INTO spelling, whose command tag
	// differs.
	SelectInto bool
	// Materialized marks CREATE MATERIALIZED VIEW, and Query is then its
	// query's text, which the view keeps (matview.go).
	Materialized bool
	Query        string
}

// createTableAs reads the table description of
//
//	CREATE [[LOCAL | GLOBAL] {TEMP | TEMPORARY}] TABLE [IF NOT EXISTS] name
//	    [(column, ...)] [USING heap] [WITH (option, ...) | WITHOUT OIDS]
//	    [ON COMMIT action] AS query [WITH [NO] DATA]
//
// at head into Statement.CreateAs, takes a trailing WITH [NO] DATA off the
// tokens, and returns where the query starts; for any other statement it
// returns head.
func (r *rewriter) createTableAs(head int) (int, error) {
	if !r.peek(head, "create") {
		return head, nil
	}
	k := head + 1
	global := false
	if (r.peek(k, "local") || r.peek(k, "global")) && (r.peek(k+1, "temp") || r.peek(k+1, "temporary")) {
		global = r.peek(k, "global")
		k++
	}
	temp, unlogged := r.peek(k, "temp") || r.peek(k, "temporary"), r.peek(k, "unlogged")
	if temp || unlogged {
		k++
	}
	materialized := !temp && r.peek(k, "materialized") && r.peek(k+1, "view")
	if materialized {
		k++
	} else if !r.peek(k, "table") {
		return head, nil
	}
	// Only the AS form has an AS outside parentheses (a column's
	// GENERATED ... AS is inside the column list).
	as := -1
	r.atDepth0(k+1, len(r.toks), func(i int) bool {
		if r.toks[i].is("as") {
			as = i
		}
		return as < 0
	})
	if as < 0 {
		if materialized {
			return head, r.syntaxErrorAt(len(r.toks))
		}
		return head, nil
	}
	if unlogged && materialized {
		return head, pgerr.New(pgerr.FeatureNotSupported, "materialized views cannot be unlogged")
	}
	if unlogged {
		return head, pgerr.New(pgerr.FeatureNotSupported, "UNLOGGED tables are not supported").WithPosition(r.pos(k - 1))
	}
	r.st.Temp, r.st.TempGlobal = temp, global
	if temp {
		r.st.OnCommit = "preserve rows"
	}
	ca := &CreateTableAs{Materialized: materialized}
	k++
	if r.peek(k, "if") && r.peek(k+1, "not") && r.peek(k+2, "exists") {
		ca.IfNotExists = true
		k += 3
	}
	k, err := r.createdName(ca, k)
	if err != nil {
		return head, err
	}
	if r.peek(k, "(") {
		end := r.matching(k)
		if end < 0 {
			return head, r.syntaxErrorAt(len(r.toks))
		}
		if end == k+1 || r.definesColumns(k+1, end) {
			// CREATE TABLE t (a int) AS ...: PostgreSQL's grammar has
			// no such form, and fails at the AS.
			return head, r.syntaxErrorAt(as)
		}
		if ca.Columns, k, err = r.columnList(k); err != nil {
			return head, err
		}
	}
	if r.peek(k, "using") {
		if k, err = r.tableAccessMethod(k, false); err != nil {
			return head, err
		}
	}
	switch {
	case r.peek(k, "with") && r.peek(k+1, "("):
		if k, err = r.withOptions(k); err != nil {
			return head, err
		}
	case r.peek(k, "without") && r.peek(k+1, "oids"):
		k += 2
	}
	if materialized && r.peek(k, "tablespace") {
		if k, err = r.tablespaceClause(k, false); err != nil {
			return head, err
		}
	}
	if !materialized && r.peek(k, "on") && r.peek(k+1, "commit") {
		if k, err = r.onCommit(k); err != nil {
			return head, err
		}
	}
	if k != as {
		return head, r.syntaxErrorAt(k)
	}
	q := as + 1
	switch {
	case r.peek(q, "execute"):
		return head, pgerr.New(pgerr.FeatureNotSupported, "CREATE TABLE ... AS EXECUTE is not supported").WithPosition(r.pos(q))
	case !r.peek(q, "select") && !r.peek(q, "values") && !r.peek(q, "with") && !r.peek(q, "table") && !r.peek(q, "("):
		return head, r.syntaxErrorAt(q)
	}
	// WITH [NO] DATA ends the statement; no query ends in WITH.
	n := len(r.toks)
	switch {
	case n-3 > q && r.peek(n-3, "with") && r.peek(n-2, "no") && r.peek(n-1, "data"):
		ca.NoData = true
		r.toks, r.ed = r.toks[:n-3], r.ed[:n-3]
	case n-2 > q && r.peek(n-2, "with") && r.peek(n-1, "data"):
		r.toks, r.ed = r.toks[:n-2], r.ed[:n-2]
	}
	if materialized {
		ca.Query = r.sql[r.toks[q].start:r.toks[len(r.toks)-1].end]
	}
	r.st.CreateAs = ca
	return q, nil
}

// definesColumns reports whether the parenthesized list [from, to) holds
// anything but names separated by commas (column definitions).
func (r *rewriter) definesColumns(from, to int) bool {
	for i := from; i < to; i++ {
		t := r.toks[i]
		switch {
		case t.is(","):
		case (t.kind == tkIdent || t.kind == tkQIdent) && (i+1 == to || r.toks[i+1].is(",")):
		default:
			return true
		}
	}
	return false
}

// createdName reads the possibly schema-qualified name of the table to
// create at k and returns the index after it.
func (r *rewriter) createdName(ca *CreateTableAs, k int) (int, error) {
	isName := func(k int) bool {
		return k < len(r.toks) && (r.toks[k].kind == tkQIdent || r.toks[k].kind == tkIdent && !pgReserved[r.toks[k].val])
	}
	if !isName(k) {
		return k, r.syntaxErrorAt(k)
	}
	ca.Name, ca.Pos = r.toks[k].val, r.pos(k)
	if r.peek(k+1, ".") {
		if !isName(k + 2) {
			return k, r.syntaxErrorAt(k + 2)
		}
		ca.Schema, ca.Name = ca.Name, r.toks[k+2].val
		k += 2
	}
	return k + 1, nil
}

// selectInto finds SELECT ... INTO. The INTO clause right after the select
// list of a query statement's first SELECT makes the statement CREATE
// TABLE name AS the query without it (the clause's tokens are taken out);
// PostgreSQL refuses an INTO anywhere else (a subquery, a WITH query, a
// later SELECT of a set operation, another statement, a view), and so
// does this. head is where the statement proper starts.
func (r *rewriter) selectInto(head int) error {
	main := head // the query after a WITH clause
	if w := r.withEnd(head); w >= 0 {
		main = w
	}
	query := r.st.CreateAs == nil && (r.peek(main, "select") || r.peek(main, "("))
	lead := 0 // the parentheses around the first SELECT: (SELECT ... INTO t) UNION ...
	for query && r.peek(main+lead, "(") {
		lead++
	}
	depth := 0
	first := true   // still in the first SELECT of a set operation
	listed := false // past the select list of the SELECT at depth lead
	var into *intoClause
	for k := head; k < len(r.toks); k++ {
		t := &r.toks[k]
		switch {
		case t.is("(") || t.is("["):
			depth++
			continue
		case t.is(")") || t.is("]"):
			depth--
			continue
		case t.kind != tkIdent:
			continue
		}
		switch t.val {
		case "union", "intersect", "except":
			if depth <= lead {
				first = false
			}
		case "select":
			if depth == lead {
				listed = false
			}
		case "from", "where", "group", "having", "window", "order", "limit", "offset", "fetch", "for":
			if depth == lead {
				listed = true
			}
		case "into":
			if k > 0 && (r.toks[k-1].is("insert") || r.toks[k-1].is("merge")) {
				continue
			}
			if query && first && depth == lead {
				if listed || into != nil {
					return r.syntaxErrorAt(k)
				}
				c, err := r.intoClause(k)
				if err != nil {
					return err
				}
				into = c
				k = c.end - 1
				continue
			}
			if r.createsView(head) {
				return pgerr.New(pgerr.FeatureNotSupported, "views must not contain SELECT INTO")
			}
			c, err := r.intoClause(k)
			if err != nil {
				return err
			}
			if query && !first {
				return pgerr.New(pgerr.SyntaxError, "INTO is only allowed on first SELECT of UNION/INTERSECT/EXCEPT").WithPosition(c.ca.Pos)
			}
			return pgerr.New(pgerr.SyntaxError, "SELECT ... INTO is not allowed here").WithPosition(c.ca.Pos)
		}
	}
	if into == nil {
		return nil
	}
	if into.unlogged >= 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "UNLOGGED tables are not supported").WithPosition(r.pos(into.unlogged))
	}
	into.ca.SelectInto = true
	r.st.CreateAs = into.ca
	r.st.Temp, r.st.TempGlobal = into.temp, into.global
	if into.temp {
		r.st.OnCommit = "preserve rows"
	}
	r.toks = slices.Concat(r.toks[:into.start], r.toks[into.end:])
	r.ed = slices.Concat(r.ed[:into.start], r.ed[into.end:])
	return nil
}

// intoClause is a SELECT's INTO clause, tokens [start, end).
type intoClause struct {
	ca           *CreateTableAs
	start, end   int
	temp, global bool
	unlogged     int // the UNLOGGED word, or -1
}

// intoClause reads INTO [[LOCAL | GLOBAL] {TEMP | TEMPORARY} | UNLOGGED]
// [TABLE] name at k, the INTO.
func (r *rewriter) intoClause(k int) (*intoClause, error) {
	c := &intoClause{ca: &CreateTableAs{}, start: k, unlogged: -1}
	k++
	if (r.peek(k, "local") || r.peek(k, "global")) && (r.peek(k+1, "temp") || r.peek(k+1, "temporary")) {
		c.global = r.peek(k, "global")
		k++
	}
	switch {
	case r.peek(k, "temp") || r.peek(k, "temporary"):
		c.temp = true
		k++
	case r.peek(k, "unlogged"):
		c.unlogged = k
		k++
	}
	if r.peek(k, "table") {
		k++
	}
	end, err := r.createdName(c.ca, k)
	c.end = end
	return c, err
}

// createsView reports whether the statement at head is CREATE [OR
// REPLACE] [TEMP] [RECURSIVE] VIEW.
func (r *rewriter) createsView(head int) bool {
	if !r.peek(head, "create") {
		return false
	}
	k := head + 1
	for r.peek(k, "or") || r.peek(k, "replace") || r.peek(k, "local") || r.peek(k, "global") ||
		r.peek(k, "temp") || r.peek(k, "temporary") || r.peek(k, "recursive") {
		k++
	}
	return r.peek(k, "view")
}
