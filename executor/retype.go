package executor

import (
	"context"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Column type changes that rewrite the rows.
//
// An ALTER COLUMN ... TYPE between types the store keeps differently (int
// to text, text to int USING ...), or with a USING expression, gives every
// row a new value (the binder's ir.AlterAction.Convert) and every index
// entry that holds it a new key. It runs as a primary-key change does
// (rekey.go): the table is marked as being rewritten with its future
// descriptor (the new types, fresh store IDs), writes to it are refused
// (55006) and the change waits for the writers that planned before; each
// row is converted, checked (NOT NULL, the CHECK constraints that read a
// changed column, unique keys) and written to the new layout with its
// entries; then the future descriptor replaces the table in one catalog
// change and the old rows go. Reads go on from the old layout meanwhile.
// Any error abandons the change and deletes what was copied, so the
// statement fails as PostgreSQL's does, leaving the table as it was.
//
// Inside a transaction block only a table the block created is rewritten,
// through the block's transaction: PostgreSQL's ALTER would hold other
// sessions' writers off until the block ends, which zproxy cannot do.

// retype runs an ALTER TABLE that rewrites the rows (at.Rewrites()).
func (e *Executor) retype(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable, fn builtins.Context) error {
	if fn.Now.IsZero() {
		fn.Now = time.Now()
	}
	ev := &ir.EvalContext{Now: fn.Now, Fn: fn}
	m := rowMove{
		what: "the rewrite of the rows of %q for new column types",
		layout: func(s *catalog.Snapshot, t *catalog.Table, version uint64, _ *catalog.Change) (*catalog.Table, error) {
			return retypedLayout(s, t, at, version)
		},
		convert: func(old, future *catalog.Table) func(row, nr []sqltypes.Value) error {
			return converter(at, old, future, ev)
		},
	}
	return e.runMove(ctx, cat, at.Table, "ALTER COLUMN ... TYPE that rewrites the table", m)
}

// retypedLayout is t as the ALTER TABLE at leaves it, in fresh store IDs:
// its actions applied to the descriptor, each changed column's type set.
func retypedLayout(s *catalog.Snapshot, t *catalog.Table, at *ir.AlterTable, version uint64) (*catalog.Table, error) {
	if err := movable(t); err != nil {
		return nil, err
	}
	future := freshStore(t, version, 0)
	var ch catalog.Change
	var eff alterEffects
	for i, a := range at.Actions {
		if err := applyAlter(s, future, a, version, i, &ch, &eff); err != nil {
			return nil, err
		}
	}
	// NOT NULL is checked on each row as it is copied (converter), and
	// the other effects are a descriptor's alone.
	return future, nil
}

// converter makes each row of future from a row of old for at's copy:
// the converted columns computed over the old row, then NOT NULL and the
// rewritten CHECK constraints checked, with PostgreSQL's errors for a
// table's existing rows.
func converter(at *ir.AlterTable, old, future *catalog.Table, ev *ir.EvalContext) func(row, nr []sqltypes.Value) error {
	type conversion struct {
		column int
		expr   ir.Expr
	}
	var convs []conversion
	for _, a := range at.Actions {
		if a.Convert != nil {
			convs = append(convs, conversion{future.ColumnIndex(a.Column), a.Convert})
		}
	}
	return func(row, nr []sqltypes.Value) error {
		copy(nr, row)
		for _, c := range convs {
			v, err := c.expr.Eval(ev, row)
			if err != nil {
				return err
			}
			nr[c.column] = v
		}
		for i, c := range future.Columns {
			if c.NotNull && nr[i].IsNull() {
				return pgerr.New(pgerr.NotNullViolation, "column %q of relation %q contains null values", c.Name, future.Name)
			}
		}
		for _, ch := range at.RewriteChecks {
			v, err := ch.Expr.Eval(ev, nr)
			if err != nil {
				return err
			}
			if !v.IsNull() && !ir.Truthy(v) {
				return pgerr.New(pgerr.CheckViolation, "check constraint %q of relation %q is violated by some row", ch.Name, old.Name)
			}
		}
		return nil
	}
}
