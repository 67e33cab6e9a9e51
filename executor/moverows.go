package executor

import (
	"context"
	"errors"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
)

// Changes that copy a table's rows to a new layout: a primary-key or
// placement change (rekey.go), column types stored differently
// (retype.go), a dropped primary key (dropkey.go), columns whose existing
// rows each need a value of their own (fillcolumn.go). Each is a rowMove,
// run online by moveRows, or by moveRowsInBlock inside the transaction
// block that created the table.

// rowMove describes one such change.
type rowMove struct {
	// what names the change in the error of one abandoned meanwhile (a
	// format with the table's name).
	what string
	// layout makes the future descriptor (fresh store IDs) from the table
	// as the change's snapshot has it; it may add to mark, the catalog
	// change that marks the table (the sequences the copy draws from).
	layout func(s *catalog.Snapshot, t *catalog.Table, version uint64, mark *catalog.Change) (*catalog.Table, error)
	// convert, when set, makes the function that makes each row of future
	// from a row of old; otherwise future's columns are old's by name.
	convert func(old, future *catalog.Table) func(row, nr []sqltypes.Value) error
	// swap, when set, adds to the change that puts the future descriptor.
	swap func(s *catalog.Snapshot, t, done *catalog.Table, ch *catalog.Change) error
	// undo, when set, removes what layout added to mark, once the change
	// is abandoned.
	undo func(ctx context.Context, cat *catalog.Catalog) error
}

// converter is m's row conversion from old to future, nil when the rows
// keep their columns by name.
func (m rowMove) converter(old, future *catalog.Table) func(row, nr []sqltypes.Value) error {
	if m.convert == nil {
		return nil
	}
	return m.convert(old, future)
}

// movable refuses to move t's rows while another change does, or while an
// index of t is being built (its build reads the layout being left).
func movable(t *catalog.Table) error {
	if err := notRewriting(t); err != nil {
		return err
	}
	for _, ix := range t.Indexes {
		if ix.State == catalog.StateBuilding {
			return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot move the rows of %q to a new layout while its index %q is being built", t.Name, ix.Name)
		}
	}
	return nil
}

// runMove runs m: online, or inside the transaction block that created the
// table. Inside a block, a table other sessions write is refused (25001,
// naming the change as refused does): PostgreSQL's ALTER would hold their
// writers off until the block ends, which zproxy cannot.
func (e *Executor) runMove(ctx context.Context, cat *catalog.Catalog, table, refused string, m rowMove) error {
	if blk := blockOf(ctx); blk != nil && cat.InBlock() {
		t, err := e.currentTable(ctx, cat, table)
		if err != nil {
			return err
		}
		if !cat.CreatedInBlock(t.ID) {
			err := inBlockRefused(ctx, cat, refused)
			if pe := pgerr.As(err); pe != nil {
				// Migration tools wrap each migration in a block by
				// default, and say how not to.
				pe.WithHint("Run it outside a transaction block (a Rails migration with disable_ddl_transaction!, a Django one with atomic = False).")
			}
			return err
		}
		return e.moveRowsInBlock(ctx, cat, table, blk.kv, m)
	}
	return e.moveRows(ctx, cat, table, m)
}

// moveRows runs m online: the table is marked with its future descriptor,
// writers that planned before finish, the rows are copied, and the future
// descriptor replaces the table in one catalog change, after which the old
// rows go. A failure abandons the change and deletes the copy (and what
// the mark added).
func (e *Executor) moveRows(ctx context.Context, cat *catalog.Catalog, table string, m rowMove) error {
	var future *catalog.Table
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		t, err := s.Table(table)
		if err != nil {
			return catalog.Change{}, err
		}
		var mark catalog.Change
		if future, err = m.layout(s, t, version, &mark); err != nil {
			return catalog.Change{}, err
		}
		nt := t.Clone()
		nt.Rewrite = future
		mark.Put = append(mark.Put, nt)
		return mark, nil
	})
	if err != nil {
		return err
	}
	old, err := e.currentTable(ctx, cat, table)
	if err != nil {
		return err
	}
	abandon := func(err error) error {
		ctx := context.WithoutCancel(ctx)
		err = errors.Join(err, e.abandonRekey(ctx, cat, table, future))
		if m.undo != nil {
			err = errors.Join(err, m.undo(ctx, cat))
		}
		return err
	}
	err = e.waitForWriters(ctx, cat)
	if err == nil {
		err = e.copyRows(ctx, e.Store, old, future, m.converter(old, future))
	}
	if err != nil {
		return abandon(err)
	}
	_, err = cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, err := s.Table(table)
		if err != nil {
			return catalog.Change{}, err
		}
		if t.Rewrite == nil || t.Rewrite.StoreID() != future.StoreID() {
			return catalog.Change{}, pgerr.New(pgerr.ObjectNotInPrerequisiteState, m.what+" was abandoned", t.Name)
		}
		done := t.Rewrite.Clone()
		done.Rewrite = nil
		ch := catalog.Change{Put: []*catalog.Table{done}}
		if m.swap != nil {
			if err := m.swap(s, t, done, &ch); err != nil {
				return catalog.Change{}, err
			}
		}
		return ch, nil
	})
	if err != nil {
		return abandon(err)
	}
	// Readers that planned with the old layout finish before it goes.
	if err := e.waitForWriters(ctx, cat); err != nil {
		return err
	}
	return e.clearTable(ctx, old)
}

// moveRowsInBlock runs m inside a transaction block, for a table the
// block created: the rows are copied through the block's transaction rw
// and the future descriptor replaces the table in one change of the
// block's catalog (with what the mark adds), with nothing to mark and no
// writers to wait for; all of it commits or rolls back with the block.
func (e *Executor) moveRowsInBlock(ctx context.Context, cat *catalog.Catalog, table string, rw kv.ReadWriter, m rowMove) error {
	old, err := e.currentTable(ctx, cat, table)
	if err != nil {
		return err
	}
	_, err = cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		t, err := s.Table(table)
		if err != nil {
			return catalog.Change{}, err
		}
		if t.StoreID() != old.StoreID() {
			return catalog.Change{}, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "table %q changed while its rows were moved", t.Name)
		}
		var ch catalog.Change
		future, err := m.layout(s, t, version, &ch)
		if err != nil {
			return catalog.Change{}, err
		}
		if err := e.copyRows(ctx, rw, t, future, m.converter(t, future)); err != nil {
			return catalog.Change{}, err
		}
		ch.Put = append(ch.Put, future)
		if m.swap != nil {
			if err := m.swap(s, t, future, &ch); err != nil {
				return catalog.Change{}, err
			}
		}
		return ch, nil
	})
	if err != nil {
		return err
	}
	return clearTableIn(ctx, rw, old)
}
