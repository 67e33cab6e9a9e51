package executor

import (
	"context"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// Columns whose existing rows each need a value of their own.
//
// ADD COLUMN with a constant default keeps that value for the rows already
// there without touching them (Column.Missing). A default PostgreSQL
// evaluates for each row (a SERIAL or identity column's nextval(),
// gen_random_uuid(), random(), clock_timestamp()) gives every existing row
// a value of its own: PostgreSQL rewrites the table, and so does zproxy,
// by the online copy of moverows.go. The future descriptor is the table
// with the columns added; each row is copied with its new columns' values
// (drawn from the new sequence, or the default evaluated for it), checked
// against NOT NULL. A new sequence is created with the mark, so that the
// copy draws from it, and dropped again if the change is abandoned.

// fillColumns runs an ALTER TABLE of ADD COLUMN actions, one of which
// needs a value per existing row (needsEmpty), on a table with rows.
func (e *Executor) fillColumns(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable, fn builtins.Context, notice func(*pgerr.Error)) error {
	for _, a := range at.Actions {
		switch a.Kind {
		case parser.AlterAddColumn, parser.AlterSetDefault, parser.AlterDropDefault, parser.AlterSetNotNull, parser.AlterDropNotNull:
			// (Descriptors' changes, which the future descriptor takes.)
		default:
			return pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE cannot combine this action with ADD COLUMN whose default is volatile on a table with rows").
				WithHint("Run the ADD COLUMN as an ALTER TABLE of its own.")
		}
	}
	if fn.Now.IsZero() {
		fn.Now = time.Now()
	}
	ev := &ir.EvalContext{Now: fn.Now, Fn: fn}
	var seqs []*catalog.Sequence // the sequences the mark creates
	var notices []*pgerr.Error
	m := rowMove{
		what: "the rewrite of the rows of %q for their new columns",
		layout: func(s *catalog.Snapshot, t *catalog.Table, version uint64, mark *catalog.Change) (*catalog.Table, error) {
			if err := movable(t); err != nil {
				return nil, err
			}
			if t.IsPartitioned() || t.IsPartition() {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "adding a column whose default is volatile to a partitioned table or a partition with rows is not supported").
					WithHint("Add the column without the default, UPDATE the rows, then SET DEFAULT.")
			}
			future := freshStore(t, version, 0)
			var eff alterEffects
			for i, a := range at.Actions {
				if err := applyAlter(s, future, a, version, i, mark, &eff); err != nil {
					return nil, err
				}
			}
			seqs, notices = mark.PutSequences, eff.notices
			return future, nil
		},
		convert: func(old, future *catalog.Table) func(row, nr []sqltypes.Value) error {
			return e.filler(ctx, at, old, future, seqs, ev)
		},
		undo: func(ctx context.Context, cat *catalog.Catalog) error {
			return e.dropCreatedSequences(ctx, cat, seqs)
		},
	}
	if err := e.runMove(ctx, cat, at.Table, "ADD COLUMN whose default is volatile, on a table with rows,", m); err != nil {
		return err
	}
	for _, n := range notices {
		notice(n)
	}
	return nil
}

// filler makes each row of future, old's columns and then the added ones,
// from a row of old: an added column takes a value of its sequence, its
// default evaluated for the row, or its constant default; then every NOT
// NULL (an added column's, or one the statement sets) is checked.
func (e *Executor) filler(ctx context.Context, at *ir.AlterTable, old, future *catalog.Table, seqs []*catalog.Sequence, ev *ir.EvalContext) func(row, nr []sqltypes.Value) error {
	type fill struct {
		column int
		seq    *catalog.Sequence
		expr   ir.Expr
		value  sqltypes.Value // a constant default's
		err    error          // reading it
	}
	var fills []fill
	for _, a := range at.Actions {
		if a.Kind != parser.AlterAddColumn {
			continue
		}
		j := future.ColumnIndex(a.NewColumn.Name)
		if j < len(old.Columns) {
			continue // (ADD COLUMN IF NOT EXISTS of one it has)
		}
		f := fill{column: j, expr: a.Fill}
		if a.NewSequence != nil {
			for _, q := range seqs {
				if q.Name == a.NewSequence.Name {
					f.seq = q
				}
			}
		}
		if f.seq == nil && f.expr == nil {
			f.value, f.err = future.Columns[j].MissingValue()
		}
		fills = append(fills, f)
	}
	return func(row, nr []sqltypes.Value) error {
		copy(nr, row)
		for _, f := range fills {
			var v sqltypes.Value
			var err error
			switch {
			case f.seq != nil:
				var n int64
				if n, err = e.Nextval(ctx, f.seq); err == nil {
					v, err = sqltypes.Cast(sqltypes.NewInt(n), future.Columns[f.column].Type)
				}
			case f.expr != nil:
				v, err = f.expr.Eval(ev, nr)
			default:
				v, err = f.value, f.err
			}
			if err != nil {
				return err
			}
			nr[f.column] = v
		}
		for i, c := range future.Columns {
			if c.NotNull && nr[i].IsNull() {
				return pgerr.New(pgerr.NotNullViolation, "column %q of relation %q contains null values", c.Name, future.Name)
			}
		}
		return nil
	}
}

// dropCreatedSequences drops the sequences an abandoned change created
// with its mark, and their state.
func (e *Executor) dropCreatedSequences(ctx context.Context, cat *catalog.Catalog, seqs []*catalog.Sequence) error {
	if len(seqs) == 0 {
		return nil
	}
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		var ch catalog.Change
		for _, q := range seqs {
			if cur, ok := s.Sequence(q.Name); ok && cur.ID == q.ID {
				ch.DeleteSequences = append(ch.DeleteSequences, q.Name)
			}
		}
		return ch, nil
	})
	if err != nil {
		return err
	}
	return e.dropSequenceState(ctx, seqs)
}
