package executor

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// Exclusion constraints on the write path.
//
// A table with an exclusion constraint is written in a transaction (the
// session's block or the statement's own, ir.Constraints.Txn). After a
// statement's rows are buffered in it, every row it inserted or changed
// (with an entry in the constraint's index, and no NULL element) is
// checked against the candidates: the index entries under the prefix of
// its equality elements' values (catalog.Exclusion), read through the
// transaction so the statement's own rows count, each entry holding the
// element values. A candidate for which every element's operator is true
// is a conflict (23P01); rows of the statement written after the row are
// left to their own check, so the error names the pair PostgreSQL's
// row-by-row checks would.
//
// Concurrency: two transactions that each insert one of a conflicting pair
// read snapshots without the other's row. So each check also writes an
// item keyed by the row's equality values (all rows share one when there
// is none), in a partition of the index no scan reads: two rows that could
// conflict have equal equality values, so their transactions write one
// item and the later committer fails (first committer wins, 40001). The
// write is a delete, so the item stays absent (on DynamoDB a tombstone the
// store's TTL removes); a lock would not do, since DynamoDB checks a lock
// of an absent key only against writers, not against other lockers; a statement in a transaction of its own then
// runs again on a new snapshot, which has the winner's row, and fails with
// 23P01 as PostgreSQL's waiting insert does.

// exclusionLockShard is the shard number of the partition holding an
// exclusion constraint's lock items: past every shard an index can have,
// so no scan of the index reads it.
const exclusionLockShard = 0xFFFF

// exclusionLock is the lock item of the equality values whose key prefix
// is prefix in exclusion constraint ix.
func exclusionLock(ix *catalog.Index, prefix []byte) kv.Key {
	return kv.Key{Partition: catalog.IndexPartition(ix.ID, exclusionLockShard), Sort: append([]byte{0}, prefix...)}
}

// writeLock writes (deletes) the lock item of prefix in ix through w, a
// transaction: of two transactions that write it, the later committer
// fails.
func writeLock(ctx context.Context, w kv.ReadWriter, ix *catalog.Index, prefix []byte, stats *kv.Stats) error {
	return txnErr(w.Write(ctx, kv.Batch{Ops: []kv.Op{{Kind: kv.OpDelete, Key: exclusionLock(ix, prefix)}}, Stats: stats}))
}

// validationReader is what the validation of a constraint added to t
// reads the rows through: outside a transaction block, a transaction of
// its own (locks, which the caller rolls back when done) in which it
// writes the lock items of the keys it meets (writeLock), as writers do;
// inside one, the block's view (locks nil).
func (e *Executor) validationReader(ctx context.Context, cat *catalog.Catalog, t *catalog.Table) (kv.ReadWriter, kv.Txn, error) {
	src := e.rowsOf(ctx, cat, t)
	ts, ok := e.Store.(kv.Transactional)
	if !ok || src != kv.ReadWriter(e.Store) {
		return src, nil, nil
	}
	locks, err := ts.Begin(ctx, kv.TxnOptions{})
	if err != nil {
		return nil, nil, txnErr(err)
	}
	return locks, locks, nil
}

// commitValidation commits a validation's lock items when it found
// nothing (err nil).
func commitValidation(ctx context.Context, locks kv.Txn, err error) error {
	if err == nil && locks != nil {
		err = txnErr(locks.Commit(ctx))
	}
	return err
}

// enforceExclusions checks the rows of w against t's exclusion
// constraints.
func (ec *execCtx) enforceExclusions(ctx context.Context, w *writeSet, tc *ir.TableConstraints, stats *kv.Stats) error {
	if len(tc.Exclusions) == 0 {
		return nil
	}
	t := w.t
	// The statement's order of its new rows, by row key.
	order := map[string]int{}
	for i, c := range w.changes {
		if c.new != nil {
			order[string(t.RowKey(c.new).Sort)] = i
		}
	}
	for _, bx := range tc.Exclusions {
		x := bx.Index.Exclusion
		if ec.txn.defersConstraint(bx.Index.Name, x.Deferrable, x.InitiallyDeferred) {
			ec.deferExclusion(t, bx, w.changes)
			continue
		}
		for i, c := range w.changes {
			if c.new == nil {
				continue
			}
			erow, err := exclusionEntry(t, bx.Index, c.new)
			if err != nil {
				return err
			}
			if erow == nil {
				continue
			}
			if c.old != nil {
				if was, err := exclusionEntry(t, bx.Index, c.old); err != nil || was != nil && sameElements(t, bx.Index, was, erow) {
					continue // the row's values are those checked when it was written
				}
			}
			if err := ec.checkExclusion(ctx, t, bx, erow, i, order, stats); err != nil {
				return err
			}
		}
	}
	return nil
}

// deferExclusion defers the checks of the rows changes write: at COMMIT
// (or SET CONSTRAINTS ... IMMEDIATE) each row still there is checked
// against every other row, as PostgreSQL rechecks a deferred constraint's
// queued rows.
func (ec *execCtx) deferExclusion(t *catalog.Table, bx ir.BoundExclusion, changes []change) {
	var keys []kv.Key
	for _, c := range changes {
		if c.new != nil {
			keys = append(keys, t.RowKey(c.new))
		}
	}
	if len(keys) == 0 {
		return
	}
	ec.txn.deferConstraint(bx.Index.Name, func(ctx context.Context) error {
		cur, err := ec.readCurrent(ctx, t, keys, nil)
		if err != nil {
			return err
		}
		for _, k := range keys {
			c, ok := cur[string(k.Sort)]
			if !ok || c.expired {
				continue
			}
			erow, err := exclusionEntry(t, bx.Index, c.row)
			if err != nil {
				return err
			}
			if erow != nil {
				if err := ec.checkExclusion(ctx, t, bx, erow, 0, nil, nil); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// exclusionEntry is row's entry row in the constraint's index (the row
// followed by the values of its expressions), or nil when the row has no
// entry (its predicate fails) or a NULL element: the rows the constraint
// constrains.
func exclusionEntry(t *catalog.Table, ix *catalog.Index, row []sqltypes.Value) ([]sqltypes.Value, error) {
	erow, in, err := ir.IndexRow(t, ix, row)
	if err != nil || !in {
		return nil, err
	}
	for _, el := range ix.Exclusion.Elements {
		if t.KeyValue(ix, el.Key, erow).IsNull() {
			return nil, nil
		}
	}
	return erow, nil
}

// sameElements reports whether two entry rows have equal element values.
func sameElements(t *catalog.Table, ix *catalog.Index, a, b []sqltypes.Value) bool {
	for _, el := range ix.Exclusion.Elements {
		if !bytes.Equal(catalog.AppendKeyValue(nil, t.KeyValue(ix, el.Key, a), false), catalog.AppendKeyValue(nil, t.KeyValue(ix, el.Key, b), false)) {
			return false
		}
	}
	return true
}

// exclusionPrefix is the key prefix of the equality elements' values of
// the entry row erow in ix, and how many key parts it binds.
func exclusionPrefix(t *catalog.Table, ix *catalog.Index, erow []sqltypes.Value) ([]byte, int) {
	var p []byte
	n := 0
	for i, k := range ix.Columns {
		eq := false
		for _, el := range ix.Exclusion.Elements {
			if el.Key == i && el.IsEquality() {
				eq = true
			}
		}
		if !eq {
			break
		}
		p = catalog.AppendKeyValue(p, t.KeyValue(ix, i, erow), k.Desc)
		n++
	}
	return p, n
}

// overlapSpan is the span of the index entries that may conflict with
// row: those under the prefix of its equality values and, when the next
// key column is a range compared with &&, only the non-empty ranges whose
// lower bound lies before row's upper bound (the key encoding orders
// ranges by emptiness, then lower bound: catalog.appendRangeKey), since
// no other range can overlap it.
func overlapSpan(t *catalog.Table, ix *catalog.Index, erow []sqltypes.Value, prefix []byte, bound int) (start, end []byte) {
	start = prefix
	if bound > 0 {
		end = kv.PrefixEnd(prefix)
	}
	if bound >= len(ix.Columns) {
		return start, end
	}
	v := t.KeyValue(ix, bound, erow)
	if v.K != sqltypes.KindRange {
		return start, end
	}
	for _, el := range ix.Exclusion.Elements {
		if el.Key != bound || el.Op != "&&" {
			continue
		}
		r := v.Range()
		if r == nil || r.Empty {
			return start, end
		}
		nonEmpty := zorder.AppendInt(bytes.Clone(prefix), 1, false)
		start = nonEmpty
		if !r.UpperInf {
			// A lower bound equal to row's upper one overlaps only when
			// both are inclusive: its key continues with false (inclusive).
			e := catalog.AppendKeyValue(zorder.AppendInt(bytes.Clone(nonEmpty), 1, false), r.Upper, false)
			end = zorder.AppendBool(e, r.UpperInc, false)
		}
		return start, end
	}
	return start, end
}

// exclusionArbiters splits ON CONFLICT's arbiters into the unique keys and
// the exclusion constraints (DO NOTHING's, bound for this statement).
func (ec *execCtx) exclusionArbiters(t *catalog.Table, keys []*catalog.Index) ([]*catalog.Index, []ir.BoundExclusion, error) {
	var uniq []*catalog.Index
	var excl []ir.BoundExclusion
	tc := ec.cons.For(t.Name)
	for _, ix := range keys {
		if ix == nil || ix.Exclusion == nil {
			uniq = append(uniq, ix)
			continue
		}
		if ix.Exclusion.Deferrable {
			return nil, nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "ON CONFLICT does not support deferrable unique constraints/exclusion constraints as arbiters")
		}
		if tc != nil {
			for _, bx := range tc.Exclusions {
				if bx.Index.ID == ix.ID {
					excl = append(excl, bx)
				}
			}
		}
	}
	return uniq, excl, nil
}

// exclusionConflict reports whether row, proposed by INSERT ... ON
// CONFLICT DO NOTHING, conflicts on one of the exclusion constraints with
// a stored row or with a row the statement inserts before it (accepted).
// The statement's write enforces the constraints again, so a row a
// concurrent transaction inserts meanwhile is caught there.
func (ec *execCtx) exclusionConflict(ctx context.Context, t *catalog.Table, excl []ir.BoundExclusion, row []sqltypes.Value, accepted [][]sqltypes.Value, stats *kv.Stats) (bool, error) {
	pair := make([]sqltypes.Value, 2)
	for _, bx := range excl {
		erow, err := exclusionEntry(t, bx.Index, row)
		if err != nil || erow == nil {
			if err != nil {
				return false, err
			}
			continue
		}
		for _, a := range accepted {
			aE, err := exclusionEntry(t, bx.Index, a)
			if err != nil {
				return false, err
			}
			if aE == nil {
				continue
			}
			if c, err := conflicts(ec.eval, bx.Ops, t, bx.Index, erow, aE, pair); err != nil || c {
				return c, err
			}
		}
		other, err := ec.findExclusionConflict(ctx, t, bx, erow, nil, stats)
		if err != nil || other != nil {
			return other != nil, err
		}
	}
	return false, nil
}

// checkExclusion checks row, the i-th change of its statement, against
// the rows the constraint's index finds.
func (ec *execCtx) checkExclusion(ctx context.Context, t *catalog.Table, bx ir.BoundExclusion, row []sqltypes.Value, i int, order map[string]int, stats *kv.Stats) error {
	ix := bx.Index
	prefix, _ := exclusionPrefix(t, ix, row)
	if err := writeLock(ctx, ec.txn.kv, ix, prefix, stats); err != nil {
		return err
	}
	skip := func(key []byte) bool {
		j, ok := order[string(key)]
		return ok && j > i // a later row of the statement: its own check meets this one
	}
	other, err := ec.findExclusionConflict(ctx, t, bx, row, skip, stats)
	if err != nil || other == nil {
		return err
	}
	return exclusionViolation(t, ix, row, other)
}

// findExclusionConflict returns the entry row of a row the constraint's
// index finds in conflict with row (an entry row), other than row itself
// and rows skip names by row key; nil when there is none. Of several, it
// returns the first in the index's order.
func (ec *execCtx) findExclusionConflict(ctx context.Context, t *catalog.Table, bx ir.BoundExclusion, row []sqltypes.Value, skip func(key []byte) bool, stats *kv.Stats) ([]sqltypes.Value, error) {
	ix := bx.Index
	prefix, bound := exclusionPrefix(t, ix, row)
	self := t.RowKey(row).Sort
	start, end := overlapSpan(t, ix, row, prefix, bound)
	ri := disjointRanges(t, ix, row, bound)
	pair := make([]sqltypes.Value, 2)
	for _, sh := range t.ShardsFor(ix, prefix, bound) {
		req := kv.ScanRequest{Partition: catalog.IndexPartition(ix.ID, sh), Start: start, End: end, Consistent: true, Stats: stats}
		if ri >= 0 {
			// Descending from row's upper bound, the entries' ranges
			// are disjoint, so their upper bounds descend too: the
			// conflicts come first, then one range ending before row
			// begins, and no range after it can overlap row. A page of
			// two reads one conflict and that range.
			req.Reverse, req.Limit = true, 2
		}
		var found []sqltypes.Value
		it := ec.kv.Scan(ctx, req)
		for it.Next() {
			other := make([]sqltypes.Value, len(t.Columns))
			if err := t.DecodeRow(it.Item().Attrs, other); err != nil {
				it.Close()
				return nil, err
			}
			key := t.RowKey(other).Sort
			if bytes.Equal(key, self) {
				continue
			}
			if skip != nil && skip(key) {
				continue
			}
			// An entry's row satisfies the index predicate (whose columns
			// the entry may not hold): only its key values are computed.
			otherE, err := ir.IndexKeyRow(t, ix, other)
			if err != nil {
				it.Close()
				return nil, err
			}
			conflict, err := conflicts(ec.eval, bx.Ops, t, ix, row, otherE, pair)
			if err != nil {
				it.Close()
				return nil, err
			}
			if conflict && !t.Expired(other, ec.eval.Now) {
				if ri < 0 {
					it.Close()
					return otherE, nil
				}
				found = otherE // the first in key order is the last met
				continue
			}
			if ri >= 0 && !t.KeyValue(ix, ix.Exclusion.Elements[ri].Key, otherE).IsNull() {
				// (A NULL range sorts after every other: the span of an
				// unbounded row holds them, and they overlap nothing.)
				overlap, err := holds(ec.eval, bx.Ops[ri], t, ix, ix.Exclusion.Elements[ri].Key, row, otherE, pair)
				if err != nil {
					it.Close()
					return nil, err
				}
				if !overlap {
					break // before row: so is every range below it
				}
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return nil, txnErr(err)
		}
		if found != nil {
			return found, nil
		}
	}
	return nil, nil
}

// disjointRanges is the element of ix's constraint whose ranges are
// disjoint within a group of equal values, when the check of row may stop
// at the first range of its group ending before row begins; -1 when it
// may not. That holds when the constraint is its equality elements (the
// bound key parts before the range) and one range compared with &&: the
// rows the index holds passed the check against each other (a row is
// checked against the rows before it, its statement's earlier rows
// included, and two transactions writing one group conflict on its lock
// item), so a group's ranges are disjoint. It does not hold while a
// deferred check lets overlapping rows stand until commit, nor where an
// expired row, which conflicts with no one, may overlap a later one.
func disjointRanges(t *catalog.Table, ix *catalog.Index, row []sqltypes.Value, bound int) int {
	els := ix.Exclusion.Elements
	if ix.Exclusion.Deferrable || t.TTL != nil || bound >= len(ix.Columns) || len(els) != bound+1 {
		return -1
	}
	ri := -1
	for i, el := range els {
		switch {
		case el.Key < bound && el.IsEquality():
		case el.Key == bound && el.Op == "&&":
			ri = i
		default:
			return -1
		}
	}
	if ri < 0 {
		return -1
	}
	v := t.KeyValue(ix, bound, row)
	if v.K != sqltypes.KindRange || v.Range() == nil || v.Range().Empty {
		return -1
	}
	return ri
}

// holds reports whether op holds between row's and other's values of
// key part key; pair is scratch space of two values.
func holds(ev *ir.EvalContext, op ir.Expr, t *catalog.Table, ix *catalog.Index, key int, row, other, pair []sqltypes.Value) (bool, error) {
	pair[0], pair[1] = t.KeyValue(ix, key, row), t.KeyValue(ix, key, other)
	v, err := op.Eval(ev, pair)
	if err != nil {
		return false, err
	}
	return !v.IsNull() && ir.Truthy(v), nil
}

// conflicts reports whether every element's operator holds between row
// and other; pair is scratch space of two values.
func conflicts(ev *ir.EvalContext, ops []ir.Expr, t *catalog.Table, ix *catalog.Index, row, other, pair []sqltypes.Value) (bool, error) {
	for i, el := range ix.Exclusion.Elements {
		if ok, err := holds(ev, ops[i], t, ix, el.Key, row, other, pair); err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// exclusionViolation is PostgreSQL's 23P01 for row conflicting with
// other: "Key (a, b)=(...) conflicts with existing key (a, b)=(...)."
func exclusionViolation(t *catalog.Table, ix *catalog.Index, row, other []sqltypes.Value) error {
	return pgerr.New(pgerr.ExclusionViolation, "conflicting key value violates exclusion constraint %q", ix.Name).
		WithValues(conflictDetail(t, ix, row, other, "Key %s conflicts with existing key %s."))
}

// conflictDetail renders format with the exclusion keys of row and other
// (no DETAIL to a role that may not read them all).
func conflictDetail(t *catalog.Table, ix *catalog.Index, row, other []sqltypes.Value, format string) func(pgerr.ColumnVisibility, any) string {
	parts := func(erow []sqltypes.Value) []keyPart {
		out := make([]keyPart, len(ix.Exclusion.Elements))
		for i, el := range ix.Exclusion.Elements {
			k := ix.Columns[el.Key]
			cols := []int{k.Column}
			if k.Column < 0 {
				cols = ix.ExprColumns
			}
			out[i] = keyPart{name: t.KeyName(k), typ: t.KeyType(k), val: t.KeyValue(ix, el.Key, erow), cols: cols}
		}
		return out
	}
	mine, theirs := partsDetail(t, parts(row), "%s"), partsDetail(t, parts(other), "%s")
	return func(vis pgerr.ColumnVisibility, style any) string {
		a, b := mine(vis, style), theirs(vis, style)
		if a == "" || b == "" {
			return ""
		}
		return fmt.Sprintf(format, a, b)
	}
}

// addExclusion runs ALTER TABLE ... ADD CONSTRAINT ... EXCLUDE: the
// constraint's index is built online as any index (writers enforce the
// constraint from its publication on), then the rows are checked against
// each other, grouped by their equality values; a conflict drops the
// constraint again and fails the statement as PostgreSQL's index build
// does.
func (e *Executor) addExclusion(ctx context.Context, cat *catalog.Catalog, add *ir.AddConstraint, fn builtins.Context, notice func(*pgerr.Error)) error {
	ix := *add.Exclusion.Index
	if err := e.CreateIndex(ctx, cat, &ir.CreateIndex{Table: add.Table, Index: &ix}, notice); err != nil {
		return err
	}
	err := e.validateExclusion(ctx, cat, add.Table, add.Exclusion, fn)
	if err != nil {
		_ = e.dropConstraint(ctx, cat, &ir.DropConstraint{Table: add.Table, Name: ix.Name, IfExists: true}, func(*pgerr.Error) {})
	}
	return err
}

// validateExclusion checks the rows of table against each other under
// exclusion constraint bx (whose index is public by now).
func (e *Executor) validateExclusion(ctx context.Context, cat *catalog.Catalog, table string, bx *ir.BoundExclusion, fn builtins.Context) error {
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	t, err := snap.Table(table)
	if err != nil {
		return err
	}
	ix := t.Index(bx.Index.Name)
	if ix == nil || ix.Exclusion == nil {
		return pgerr.New(pgerr.SerializationFailure, "could not serialize access: exclusion constraint %q was dropped while it was validated", bx.Index.Name)
	}
	if fn.Now.IsZero() {
		fn.Now = time.Now()
	}
	ev := &ir.EvalContext{Now: fn.Now, Fn: fn}
	groups := map[string][][]sqltypes.Value{}
	pair := make([]sqltypes.Value, 2)
	// A transaction that began before the index's entries were built may
	// check a row against an index its snapshot shows incomplete, and
	// commit after this validation read the rows: the validation reads in
	// a transaction of its own and writes the lock item of every equality
	// value it checks, as writers do, so that of two such the later
	// committer fails (40001; an ALTER that fails drops the constraint).
	src, locks, err := e.validationReader(ctx, cat, t)
	if err != nil {
		return err
	}
	if locks != nil {
		defer locks.Rollback()
	}
	err = e.eachRow(ctx, src, t, func(row []sqltypes.Value) error {
		erow, err := exclusionEntry(t, ix, row)
		if err != nil || erow == nil {
			return err
		}
		row = append([]sqltypes.Value(nil), erow...)
		prefix, _ := exclusionPrefix(t, ix, row)
		if _, seen := groups[string(prefix)]; !seen && locks != nil {
			if err := writeLock(ctx, locks, ix, prefix, nil); err != nil {
				return err
			}
		}
		// PostgreSQL's build checks each row in heap order against the
		// index and names the row first, the other second: here the
		// earlier row of a pair in key order.
		for _, other := range groups[string(prefix)] {
			conflict, err := conflicts(ev, bx.Ops, t, ix, row, other, pair)
			if err != nil {
				return err
			}
			if conflict {
				return pgerr.New(pgerr.ExclusionViolation, "could not create exclusion constraint %q", ix.Name).
					WithValues(conflictDetail(t, ix, other, row, "Key %s conflicts with key %s."))
			}
		}
		groups[string(prefix)] = append(groups[string(prefix)], row)
		return nil
	})
	return commitValidation(ctx, locks, err)
}
