package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Data-modifying WITH queries (WITH moved AS (DELETE ... RETURNING *)
// INSERT INTO archive SELECT * FROM moved): the parser hands each INSERT,
// UPDATE or DELETE over as a statement of its own (parser.WriteCTEIndex).
// It is bound here as that statement, its RETURNING columns are the WITH
// query's columns, and it is listed in the bound statement's Writes: the
// executor runs every one of them exactly once, before the statement, as
// PostgreSQL does (whether or not the statement reads it), and the
// statement's CTE Scans read the rows they returned. PostgreSQL runs them
// and the statement on one snapshot; zproxy applies each write when it
// runs, so the statement's own reads see the WITH queries' writes.

// bindWriteCTE binds a data-modifying WITH query's statement (index k of
// the statement's WriteCTEs) into cte; e is the WITH clause's environment
// (the queries defined before it).
func (b *Binder) bindWriteCTE(cte *ir.CTE, k int, e env) error {
	if b.nesting > 1 || b.viewDepth > 0 {
		return pgerr.New(pgerr.FeatureNotSupported, "WITH clause containing a data-modifying statement must be at the top level")
	}
	if k < 0 || k >= len(b.stmt.WriteCTEs) {
		return pgerr.New(pgerr.InternalError, "malformed data-modifying WITH query")
	}
	sub := b.stmt.WriteCTEs[k]
	saved, savedBase := b.stmt, b.baseCTEs
	b.stmt, b.baseCTEs = sub, e.ctes
	defer func() { b.stmt, b.baseCTEs = saved, savedBase }()
	st, err := b.bindStmt(sub.AST)
	if err != nil {
		return err
	}
	var ret *ir.Returning
	switch w := st.(type) {
	case *ir.Insert:
		ret = w.Returning
	case *ir.Update:
		ret = w.Returning
	case *ir.Delete:
		ret = w.Returning
	default:
		return pgerr.New(pgerr.SyntaxError, "a WITH query's body must be a SELECT, INSERT, UPDATE or DELETE")
	}
	cte.Write = st
	if ret != nil {
		cte.Cols = make([]ir.Column, len(ret.Cols))
		for i, c := range ret.Cols {
			cte.Cols[i] = ir.Column{Name: c.Name, Type: c.Type, Col: -1}
		}
	}
	b.writes = append(b.writes, cte)
	return nil
}

// bindWriteWith binds the WITH clause of WITH ... INSERT|UPDATE|DELETE,
// whose tables may name its queries (Binder.baseCTEs).
func (b *Binder) bindWriteWith() error {
	w := b.stmt.WriteWith
	if w == nil || b.boundWith[w] {
		return nil
	}
	if b.boundWith == nil {
		b.boundWith = map[*ast.WithClause]bool{}
	}
	b.boundWith[w] = true
	e, err := b.withCTEs(w, env{ctes: b.baseCTEs})
	if err != nil {
		return err
	}
	b.baseCTEs = e.ctes
	return nil
}

// writeCTEBody reports whether a WITH query's body is the parser's marker
// of a data-modifying statement, and which.
func writeCTEBody(c *ast.CommonTableExpression) (int, bool) {
	return parser.WriteCTEIndex(c.Query.Query)
}

// noReturning is PostgreSQL's error for reading a data-modifying WITH
// query that returns nothing.
func noReturning(c *ir.CTE) error {
	return pgerr.New(pgerr.FeatureNotSupported, "WITH query %q does not have a RETURNING clause", c.Name)
}

// withWrites attaches the statement's data-modifying WITH queries.
func withWrites(st ir.Statement, writes []*ir.CTE) ir.Statement {
	if len(writes) == 0 {
		return st
	}
	switch s := st.(type) {
	case *ir.Explain:
		s.Stmt = withWrites(s.Stmt, writes)
	case *ir.Query:
		s.Writes = writes
	case *ir.Insert:
		s.Writes = writes
	case *ir.Update:
		s.Writes = writes
	case *ir.Delete:
		s.Writes = writes
	case *ir.Merge:
		s.Writes = writes
	case *ir.CreateTableAs:
		if s.Insert != nil { // WITH NO DATA runs no query, so no write
			s.Insert.Writes = writes
		}
	}
	return st
}
