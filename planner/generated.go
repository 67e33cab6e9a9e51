package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Generated columns (GENERATED ALWAYS AS (expr) STORED): the expression is
// kept as written (catalog.Column.Generated) and bound over a row of the
// table by each statement that writes it (bindConstraints puts it in the
// write's ir.TableConstraints.Generated), so the executor computes the
// column from the row's other columns on every INSERT, UPDATE, upsert,
// COPY and referential action, before NOT NULL and CHECK, as PostgreSQL
// does. A statement may only give such a column DEFAULT.

// bindGenerated binds column col's generation expression over a row of t,
// cast to the column's type, with PostgreSQL's restrictions: immutable,
// no subquery, aggregate, window or set-returning function, and no other
// generated column.
func (b *Binder) bindGenerated(t *catalog.Table, col int) (ir.Expr, error) {
	c := t.Columns[col]
	sub, node, err := b.parseStoredExpr(c.Generated, "column generation expression")
	if err != nil {
		return nil, err
	}
	sc := &scope{items: []*fromItem{tableItem(t, t.Name, 0)}}
	e, err := sub.bindExpr(sc, node)
	if err != nil {
		return nil, err
	}
	for _, i := range ir.Columns(e) {
		if t.Columns[i].Generated != "" {
			return nil, pgerr.New(pgerr.InvalidObjectDefinition, "cannot use generated column %q in column generation expression", t.Columns[i].Name).
				WithDetail("A generated column cannot reference another generated column.")
		}
	}
	immutable := true
	ir.Walk(e, func(x ir.Expr) {
		if f, ok := x.(*ir.Func); ok && f.Volatile {
			immutable = false
		}
	})
	if !immutable {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "generation expression is not immutable")
	}
	if e.Type().ID != sqltypes.Unknown && !castAllowedAssignment(e.Type(), c.Type) {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "column %q is of type %s but generation expression is of type %s", c.Name, c.Type, e.Type()).
			WithHint("You will need to rewrite or cast the expression.")
	}
	return sub.coerceTo(e, c.Type, true)
}

// generatedColumnValue refuses a statement's value for a generated column.
func generatedColumnValue(c catalog.Column, update bool) error {
	if update {
		return pgerr.New(pgerr.GeneratedAlways, "column %q can only be updated to DEFAULT", c.Name).
			WithDetail("Column %q is a generated column.", c.Name)
	}
	return pgerr.New(pgerr.GeneratedAlways, "cannot insert a non-DEFAULT value into column %q", c.Name).
		WithDetail("Column %q is a generated column.", c.Name)
}
