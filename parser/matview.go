package parser

import (
	"slices"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Materialized views. CREATE MATERIALIZED VIEW parses as CREATE TABLE ...
// AS does (createas.go; CreateTableAs.Materialized); DROP MATERIALIZED
// VIEW as DROP TABLE, and ALTER MATERIALIZED VIEW as ALTER TABLE, with
// Statement.Matview set (the binder checks the relation is one);
// REFRESH MATERIALIZED VIEW is a statement of its own.

// RefreshStatement is REFRESH MATERIALIZED VIEW [CONCURRENTLY] name [WITH
// [NO] DATA]. Statement.AST is nil for it.
type RefreshStatement struct {
	Name         string
	Concurrently bool
	// NoData is WITH NO DATA: the view is emptied and left unpopulated.
	NoData bool
	// Pos is the name's position, for errors.
	Pos int
}

// refreshStmt reads REFRESH MATERIALIZED VIEW, or returns nil for another
// statement.
func (r *rewriter) refreshStmt() (*RefreshStatement, error) {
	if !r.toks[0].is("refresh") {
		return nil, nil
	}
	if !r.peek(1, "materialized") {
		return nil, r.syntaxErrorAt(1)
	}
	if !r.peek(2, "view") {
		return nil, r.syntaxErrorAt(2)
	}
	rs := &RefreshStatement{}
	k := 3
	if r.peek(k, "concurrently") {
		rs.Concurrently = true
		k++
	}
	rs.Pos = r.pos(k)
	name, k, err := r.relationName(k)
	if err != nil {
		return nil, err
	}
	rs.Name = name
	switch {
	case r.peek(k, "with") && r.peek(k+1, "no") && r.peek(k+2, "data"):
		rs.NoData = true
		k += 3
	case r.peek(k, "with") && r.peek(k+1, "data"):
		k += 2
	}
	if k < len(r.toks) {
		return nil, r.syntaxErrorAt(k)
	}
	if rs.Concurrently && rs.NoData {
		return nil, pgerr.New(pgerr.SyntaxError, "%s and %s options cannot be used together", "CONCURRENTLY", "WITH NO DATA")
	}
	return rs, nil
}

// matviewAsTable respells ALTER MATERIALIZED VIEW as ALTER TABLE, for the
// parsers of ALTER TABLE's forms (the binder, seeing Statement.Matview,
// allows only the forms PostgreSQL allows on a materialized view).
func (r *rewriter) matviewAsTable() {
	if !r.peek(0, "alter") || !r.peek(1, "materialized") || !r.peek(2, "view") {
		return
	}
	r.st.Matview = true
	r.toks = slices.Delete(r.toks, 1, 2)
	r.ed = slices.Delete(r.ed, 1, 2)
	r.toks[1].val = "table"
	r.replace(1, "table")
}

// viewRenameAsTable respells ALTER VIEW [IF EXISTS] v RENAME ..., SET
// SCHEMA s, ALTER [COLUMN] c SET DEFAULT e / DROP DEFAULT, SET (...) and
// RESET (...) as ALTER TABLE, for ALTER TABLE's parsers of those forms;
// Statement.AlterView tells the binder the statement named a view. (ALTER
// VIEW ... OWNER TO has a parser of its own.)
func (r *rewriter) viewRenameAsTable() {
	if !r.peek(0, "alter") || !r.peek(1, "view") {
		return
	}
	k := 2
	if r.peek(k, "if") && r.peek(k+1, "exists") {
		k += 2
	}
	_, next, err := r.relationName(k)
	if err != nil || !r.peek(next, "rename") && !r.peek(next, "alter") && !r.peek(next, "set") && !r.peek(next, "reset") {
		return
	}
	r.st.AlterView = true
	r.toks[1].val = "table"
	r.replace(1, "table")
}
