package planner

import (
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Materialized views (catalog/matview.go). CREATE MATERIALIZED VIEW binds
// as CREATE TABLE ... AS does, and the table it creates keeps the query's
// text and what it reads; REFRESH binds that text again, as the view's
// owner, into the INSERT that refills the table (executor.RefreshMatview
// replaces the rows in one transaction).

// matviewQuery makes t, the table CREATE MATERIALIZED VIEW creates from
// the query just bound, whose stars named stars, a materialized view.
func (b *Binder) matviewQuery(t *catalog.Table, stars []catalog.ViewStar) error {
	if len(b.params) > 0 {
		return pgerr.New(pgerr.UndefinedParameter, "there is no parameter $%d", 1)
	}
	if b.readsTemp {
		return unsupported("materialized views must not use temporary tables or views")
	}
	t.Matview = &catalog.Matview{SQL: b.stmt.CreateAs.Query, Depends: b.deps, Populated: !b.stmt.CreateAs.NoData, Path: b.storedPath(), Stars: stars}
	return nil
}

// bindRefresh binds REFRESH MATERIALIZED VIEW.
func (b *Binder) bindRefresh(rs *parser.RefreshStatement) (ir.Statement, error) {
	t, err := b.snap.Table(rs.Name)
	if err != nil {
		if _, isView := b.snap.StoredView(rs.Name); !isView {
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rs.Name)
		}
		return nil, unsupported("%q is not a materialized view", rs.Name)
	}
	if !t.IsMatview() {
		return nil, unsupported("%q is not a materialized view", rs.Name)
	}
	if rs.Concurrently {
		if !t.Matview.Populated {
			return nil, unsupported("CONCURRENTLY cannot be used when the materialized view is not populated")
		}
		if !hasPlainUniqueIndex(t) {
			return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot refresh materialized view \"public.%s\" concurrently", t.Name).
				WithHint("Create a unique index with no WHERE clause on one or more columns of the materialized view.")
		}
	}
	x := &ir.RefreshMatview{Table: t, Concurrently: rs.Concurrently, NoData: rs.NoData}
	if rs.NoData {
		return x, nil
	}
	stmts, err := parser.Parse(t.Matview.SQL)
	if err != nil || len(stmts) != 1 {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "materialized view %q has an invalid definition: %v", t.Name, err)
	}
	saved, savedAs := b.stmt, b.checkAs
	b.stmt = &stmts[0]
	if t.Owner != "" {
		// The query runs as the view's owner, as PostgreSQL's REFRESH
		// does: what it reads is checked against the owner's privileges.
		b.checkAs = t.Owner
	}
	defer func() { b.stmt, b.checkAs = saved, savedAs }()
	defer b.replayStars(t.Matview.Stars)()
	plan, err := b.bindStored(t.Matview.Path, stmts[0].AST, func() (ir.Rel, error) { return b.bindQuery(stmts[0].AST, env{}) })
	if err != nil {
		return nil, err
	}
	if len(plan.Columns()) != len(t.Columns)-1 {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "materialized view %q no longer matches its definition", t.Name)
	}
	if x.Insert, err = b.fillingInsert(t, plan); err != nil {
		return nil, err
	}
	return x, nil
}

// matviewAlter refuses ALTER MATERIALIZED VIEW of anything but a
// materialized view (matview: the statement said MATERIALIZED VIEW), and
// on a materialized view the ALTER TABLE forms PostgreSQL refuses there:
// it may be renamed, its columns renamed and its options set.
func matviewAlter(t *catalog.Table, matview bool, actions []parser.AlterAction) error {
	if matview && !t.IsMatview() {
		return pgerr.New(pgerr.WrongObjectType, "%q is not a materialized view", t.Name)
	}
	if !t.IsMatview() {
		return nil
	}
	for _, a := range actions {
		switch a.Kind {
		case parser.AlterRenameTable, parser.AlterRenameColumn, parser.AlterSetOptions, parser.AlterResetOptions:
			continue
		}
		action, ok := alterActionNames[a.Kind]
		if !ok {
			action = strings.ToUpper(strings.ReplaceAll(string(a.Kind), "_", " "))
		}
		return pgerr.New(pgerr.WrongObjectType, "ALTER action %s cannot be performed on relation %q", action, t.Name).
			WithDetail("This operation is not supported for materialized views.")
	}
	return nil
}

// alterActionNames are ALTER TABLE's actions as PostgreSQL's errors name
// them.
var alterActionNames = map[parser.AlterKind]string{
	parser.AlterAddColumn:   "ADD COLUMN",
	parser.AlterDropColumn:  "DROP COLUMN",
	parser.AlterSetDefault:  "ALTER COLUMN ... SET DEFAULT",
	parser.AlterDropDefault: "ALTER COLUMN ... DROP DEFAULT",
	parser.AlterSetNotNull:  "ALTER COLUMN ... SET NOT NULL",
	parser.AlterDropNotNull: "ALTER COLUMN ... DROP NOT NULL",
	parser.AlterColumnType:  "ALTER COLUMN ... SET DATA TYPE",
	parser.AlterAddIdentity: "ALTER COLUMN ... ADD IDENTITY",
	parser.AlterPrimaryKey:  "ADD CONSTRAINT",
}

// hasPlainUniqueIndex reports whether t has a usable unique index on plain
// columns without a predicate, which REFRESH ... CONCURRENTLY needs.
func hasPlainUniqueIndex(t *catalog.Table) bool {
	for _, ix := range t.Indexes {
		if ix.Unique && ix.State == catalog.StatePublic && ix.Predicate == "" && !hasExpressionKey(ix) {
			return true
		}
	}
	return false
}

// hasExpressionKey reports whether one of ix's keys is an expression.
func hasExpressionKey(ix *catalog.Index) bool {
	for _, k := range ix.Columns {
		if k.Expr != "" {
			return true
		}
	}
	return false
}
