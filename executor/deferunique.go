package executor

import (
	"bytes"
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
)

// Deferrable unique constraints (catalog.Index.Deferrable).
//
// A deferrable constraint may hold duplicates until it is checked: at the
// end of each statement, or at COMMIT (or SET CONSTRAINTS ... IMMEDIATE)
// while it is deferred. So its entries are keyed as a non-unique index's
// (values, then the primary key), written with no condition, and placed by
// the values (Index.ShardColumns), so that one value's entries are in one
// shard. A table with one is written in a transaction (ir.Constraints.Txn);
// after a statement's rows are buffered, every key a row took (an insert,
// or an update that changed it; one with a NULL only when NULLS NOT
// DISTINCT) is checked: its entries are read through the transaction, so
// the statement's and the block's own rows count, and a second live entry
// is 23505, as PostgreSQL's recheck reports it. A deferred constraint
// queues the keys in the Txn and checks them as they are then.
//
// Concurrency: two transactions that each take one value read snapshots
// without the other's entry. Each check therefore also writes the lock
// item of the value (exclusionLock: a delete in a partition of the index
// no scan reads), as an exclusion constraint's check does: the later of
// two committers that took one value fails with 40001 (first committer
// wins), and a statement in a transaction of its own runs again, finds
// the winner's row and fails with 23505. A block's COMMIT gets the 40001
// (PostgreSQL's waiting inserter would get 23505).

// enforceDeferrable checks (or, for a deferred constraint, queues the
// checks of) the keys w's rows took in t's deferrable unique indexes.
func (ec *execCtx) enforceDeferrable(ctx context.Context, w *writeSet, tc *ir.TableConstraints, stats *kv.Stats) error {
	for _, ix := range tc.Deferrable {
		keys := takenKeys(w.t, ix, w.changes)
		if len(keys) == 0 {
			continue
		}
		if ec.txn.defersConstraint(ix.Name, true, ix.InitiallyDeferred) {
			t := w.t
			ec.txn.deferConstraint(ix.Name, func(ctx context.Context) error {
				return ec.checkDeferrable(ctx, t, ix, keys, nil)
			})
			continue
		}
		if err := ec.checkDeferrable(ctx, w.t, ix, keys, stats); err != nil {
			return err
		}
	}
	return nil
}

// takenKeys lists, once each and in the statement's order, the key
// prefixes (the encoded values) of ix that changes give rows: new rows'
// keys and changed keys, without those having a NULL (unless NULLS NOT
// DISTINCT), which never collide.
func takenKeys(t *catalog.Table, ix *catalog.Index, changes []change) [][]byte {
	var out [][]byte
	seen := map[string]bool{}
	for _, c := range changes {
		if c.new == nil {
			continue
		}
		p, ok := deferrableKey(t, ix, c.new)
		if !ok || seen[string(p)] {
			continue
		}
		if c.old != nil {
			if q, ok := deferrableKey(t, ix, c.old); ok && bytes.Equal(p, q) {
				continue // the row keeps its key, checked when it took it
			}
		}
		seen[string(p)] = true
		out = append(out, p)
	}
	return out
}

// deferrableKey is the prefix of row's entries in ix, and false when a
// key value is NULL and NULLs are distinct.
func deferrableKey(t *catalog.Table, ix *catalog.Index, row []sqltypes.Value) ([]byte, bool) {
	var p []byte
	for i, k := range ix.Columns {
		v := t.KeyValue(ix, i, row)
		if v.IsNull() && !ix.NullsNotDistinct {
			return nil, false
		}
		p = catalog.AppendKeyValue(p, v, k.Desc)
	}
	return p, true
}

// checkDeferrable fails with 23505 when a key of keys has more than one
// live entry in ix, as the transaction sees it; it writes each key's lock
// item first.
func (ec *execCtx) checkDeferrable(ctx context.Context, t *catalog.Table, ix *catalog.Index, keys [][]byte, stats *kv.Stats) error {
	for _, p := range keys {
		if err := writeLock(ctx, ec.txn.kv, ix, p, stats); err != nil {
			return err
		}
		if err := ec.checkDeferrableKey(ctx, t, ix, p, stats); err != nil {
			return err
		}
	}
	return nil
}

func (ec *execCtx) checkDeferrableKey(ctx context.Context, t *catalog.Table, ix *catalog.Index, p []byte, stats *kv.Stats) error {
	live := 0
	for _, sh := range t.ShardsFor(ix, p, len(ix.Columns)) {
		it := ec.kv.Scan(ctx, kv.ScanRequest{Partition: catalog.IndexPartition(ix.ID, sh), Start: p, End: kv.PrefixEnd(p), Consistent: true, Stats: stats})
		for it.Next() {
			attrs := it.Item().Attrs
			row := make([]sqltypes.Value, len(t.Columns))
			if err := t.DecodeRow(attrs, row); err != nil {
				it.Close()
				return err
			}
			if t.Expired(row, ec.eval.Now) {
				continue
			}
			if live++; live > 1 {
				it.Close()
				return uniqueViolation(t, ix, attrs)
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return txnErr(err)
		}
	}
	return nil
}

// addDeferrableUnique runs ALTER TABLE ... ADD UNIQUE ... DEFERRABLE: the
// index is built online as any index, and the build, once every row has
// its entry (which carries no condition), checks the rows against each
// other by their keys (build, validateDeferrable); a duplicate drops the
// constraint again and fails the statement as PostgreSQL's index build
// does. In a transaction block the rows the block sees are checked now
// (on a table others write, the build after the COMMIT checks them all).
func (e *Executor) addDeferrableUnique(ctx context.Context, cat *catalog.Catalog, table string, ix *catalog.Index, notice func(*pgerr.Error)) error {
	if err := e.CreateIndex(ctx, cat, &ir.CreateIndex{Table: table, Index: ix}, notice); err != nil {
		return err
	}
	if !cat.InBlock() {
		return nil
	}
	// No lock items here: the build after the COMMIT writes them, and
	// the block's own checks would conflict with them.
	err := e.validateDeferrable(ctx, cat, table, ix.Name, false)
	if err != nil {
		_ = e.dropConstraint(ctx, cat, &ir.DropConstraint{Table: table, Name: ix.Name, IfExists: true, Cascade: true}, func(*pgerr.Error) {})
	}
	return err
}

// validateDeferrable finds two rows of table with one key of deferrable
// unique index name (all rows have their entries by now). With lock set,
// as validateExclusion, it reads in a transaction of its own that writes
// the lock item of every key it meets: a writer whose check read the
// index before its entries were built, and that commits after this read
// the rows, makes one of the two fail.
func (e *Executor) validateDeferrable(ctx context.Context, cat *catalog.Catalog, table, name string, lock bool) error {
	t, err := e.currentTable(ctx, cat, table)
	if err != nil {
		return err
	}
	ix := t.Index(name)
	if ix == nil || !ix.Deferrable {
		return pgerr.New(pgerr.SerializationFailure, "could not serialize access: unique constraint %q was dropped while it was validated", name)
	}
	src, locks := e.rowsOf(ctx, cat, t), kv.Txn(nil)
	if lock {
		if src, locks, err = e.validationReader(ctx, cat, t); err != nil {
			return err
		}
	}
	if locks != nil {
		defer locks.Rollback()
	}
	seen := map[string]bool{}
	err = e.eachRow(ctx, src, t, func(row []sqltypes.Value) error {
		p, ok := deferrableKey(t, ix, row)
		if !ok {
			return nil
		}
		if seen[string(p)] {
			return duplicateValues(t, ix, row)
		}
		seen[string(p)] = true
		if locks != nil {
			return writeLock(ctx, locks, ix, p, nil)
		}
		return nil
	})
	return commitValidation(ctx, locks, err)
}
