package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// CREATE TABLE ... AS query and SELECT ... INTO (parser/createas.go): the
// statement's AST is the query. It is bound as any query, against the
// schema as it is before the table exists (so a name the new table will
// shadow still reads what it read: CREATE TEMP TABLE t AS SELECT * FROM t
// copies the permanent t), and the new table takes its columns' names and
// types. The table has no primary key and is keyed by its hidden row id,
// as any table declared without one. The rows go in by an INSERT bound
// here too, over the query's plan; the session creates the table, puts
// the created descriptor in the INSERT's place and runs it
// (session.runCreateTableAs).

// bindCreateTableAs binds CREATE TABLE ... AS or SELECT ... INTO whose
// query is node (EXPLAIN of one explains its query, as PostgreSQL's
// EXPLAIN without ANALYZE does).
func (b *Binder) bindCreateTableAs(node ast.StmtNode) (ir.Statement, error) {
	ca := b.stmt.CreateAs
	if x, ok := node.(*ast.ExplainStmt); ok {
		if x.Analyze {
			return nil, unsupported("EXPLAIN ANALYZE of %s is not supported", tagOf(ca))
		}
		return b.bindStmt(node)
	}
	var stars *starLog
	if ca.Materialized {
		stars = &starLog{record: true}
		b.stars = stars
	}
	bound, err := b.bindStmt(node)
	b.stars = nil
	if err != nil {
		return nil, err
	}
	q, ok := bound.(*ir.Query)
	if !ok {
		return nil, unsupported("%s of this statement is not supported", tagOf(ca))
	}
	cols := q.Plan.Columns()
	if len(ca.Columns) > len(cols) {
		return nil, pgerr.New(pgerr.SyntaxError, "too many column names were specified")
	}
	t, err := b.newTable(ca.Schema, ca.Name)
	if err != nil {
		return nil, err
	}
	for i, c := range cols {
		name := c.Name
		if i < len(ca.Columns) {
			name = ca.Columns[i]
		}
		typ := c.Type
		if typ.ID == sqltypes.Unknown {
			typ = sqltypes.TypeText // PostgreSQL resolves an untyped column (SELECT NULL) as text
		}
		if err := checkNewColumn(t, name); err != nil {
			return nil, err
		}
		if err := storableColumn(name, typ); err != nil {
			return nil, err
		}
		t.Columns = append(t.Columns, catalog.Column{Name: name, Type: typ})
	}
	b.addRowID(t)
	if err := b.tableOptions(t); err != nil {
		return nil, err
	}
	if ca.Materialized {
		if err := b.matviewQuery(t, stars.stars); err != nil {
			return nil, err
		}
	}
	x := &ir.CreateTableAs{Create: &ir.CreateTable{Table: t, IfNotExists: ca.IfNotExists}, SelectInto: ca.SelectInto}
	if !ca.NoData {
		if x.Insert, err = b.fillingInsert(t, q.Plan); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// fillingInsert binds the INSERT that fills table t, which has the query
// plan's columns (cast to the table's types) and a hidden row id, with the
// plan's rows.
func (b *Binder) fillingInsert(t *catalog.Table, plan ir.Rel) (*ir.Insert, error) {
	cols := plan.Columns()
	row := make([]ir.Expr, 0, len(cols)+1)
	for i, c := range cols {
		e, err := b.coerceTo(&ir.ColRef{Index: i, Name: c.Name, Typ: c.Type}, t.Columns[i].Type, true)
		if err != nil {
			return nil, err
		}
		row = append(row, e)
	}
	rowID, err := b.defaults(t).of(len(t.Columns) - 1)
	if err != nil {
		return nil, err
	}
	row = append(row, rowID)
	return &ir.Insert{Table: t, Source: &ir.Project{Input: plan, Exprs: row, Cols: ir.NewScan(t, t.Name).Columns()}}, nil
}

// storableColumn refuses a column of a type no table column can have: a
// pseudo-type, as PostgreSQL refuses it, or a system type (oid, name,
// regclass, ...), which PostgreSQL stores and zproxy does not.
func storableColumn(name string, t sqltypes.Type) error {
	switch {
	case isPseudoType(t):
		return pgerr.New(pgerr.InvalidTableDefinition, "column \"%s\" has pseudo-type %s", name, t)
	case t.Composite != nil && t.Composite.TableRow:
		// zproxy's columns have user-defined composite types only.
		return pgerr.New(pgerr.FeatureNotSupported, "column \"%s\" has type %s, a table's row type, which is not supported as a column type", name, t)
	case t.HasComposite():
		return nil // a CREATE TYPE ... AS (...) type or an array of one
	case !parser.StorableType(t.ID) || !parser.StorableType(t.Elem) || t.ID == sqltypes.Array && t.Elem == sqltypes.Unknown:
		return pgerr.New(pgerr.FeatureNotSupported, "column \"%s\" has type %s, which is not supported as a column type", name, t).
			WithHint("Cast the column in the query to a type zproxy stores, such as text or bigint.")
	}
	return nil
}

// isPseudoType reports whether t is one of PostgreSQL's pseudo-types a
// column of a table or view cannot have: record, record[] (SEARCH's and
// CYCLE's columns) and void.
func isPseudoType(t sqltypes.Type) bool {
	switch {
	case t.ID == sqltypes.Void:
		return true
	case t.ID == sqltypes.Record:
		return !t.IsNamedComposite() // a composite type is a column type
	case t.ID == sqltypes.Array && t.Elem == sqltypes.Record:
		return t.Composite == nil || !t.Composite.Named()
	}
	return false
}

// tagOf is the command's name in messages.
func tagOf(ca *parser.CreateTableAs) string {
	switch {
	case ca.SelectInto:
		return "SELECT INTO"
	case ca.Materialized:
		return "CREATE MATERIALIZED VIEW"
	}
	return "CREATE TABLE AS"
}
