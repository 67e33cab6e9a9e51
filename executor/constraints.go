package executor

import (
	"bytes"
	"context"
	"math/rand/v2"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// CHECK constraints and foreign keys on the write path.
//
// CHECK constraints are evaluated on every row an INSERT proposes (ON
// CONFLICT DO NOTHING's skipped rows included, as in PostgreSQL) and every
// row an UPDATE, an upsert or a referential action produces; a false
// result is 23514, NULL passes.
//
// Foreign keys are enforced inside a transaction: the session's block, or
// one the statement begins for itself (Write). After a statement's rows
// are buffered in it (commit), enforceReferences
//
//   - checks that every new or changed referencing key has its referenced
//     row, reading it through the transaction (so rows the statement itself
//     wrote count, as at the end of a PostgreSQL statement) and locking it
//     FOR UPDATE: a concurrent transaction that deletes or rekeys that row
//     conflicts with this one at commit (first committer wins), so a child
//     insert racing its parent's delete cannot both succeed. A share lock
//     would not do: kv's share locks are checked against later writers only
//     when the locking transaction commits last, and a parent delete that
//     scanned for children before the child's commit would miss it;
//   - finds the referencing rows of every deleted or rekeyed referenced key
//     (through the referencing columns' index, which CREATE TABLE and ALTER
//     TABLE create when none leads with them) and fails (NO ACTION,
//     RESTRICT) or deletes or updates them (CASCADE, SET NULL, SET
//     DEFAULT), writing through the same path, so actions cascade and all
//     of it commits with the statement or not at all.

// writeConstraints returns the constraints of a write plan.
func writeConstraints(root optimizer.Node) *ir.Constraints {
	if w, ok := root.(optimizer.Write); ok {
		return w.WriteConstraints()
	}
	return nil
}

// actionTablesWritable refuses a write whose referential actions may
// write to a table whose primary key is being changed (rekey.go), as a
// write to that table itself is.
func actionTablesWritable(cons *ir.Constraints) error {
	if cons == nil {
		return nil
	}
	for _, tc := range cons.Tables {
		if err := notRewriting(tc.Table); err != nil {
			return err
		}
	}
	return nil
}

// maxStatementTxnRetries bounds how often a statement running in a
// transaction of its own is run again after losing a conflict.
const maxStatementTxnRetries = 50

// writeInOwnTxn runs a write that checks foreign keys outside a
// transaction block in a transaction of its own, committed before it
// returns. A conflict (another transaction changed a row it read, locked
// or wrote) makes it run the statement again on a new snapshot: the
// statement's effect is then as if it had run after the winner.
func (e *Executor) writeInOwnTxn(ctx context.Context, plan *optimizer.Plan, params []sqltypes.Value, opts RunOptions) (WriteResult, error) {
	for attempt := 0; ; attempt++ {
		txn, err := e.Begin(ctx, false, opts.KV)
		if err != nil {
			return WriteResult{}, err
		}
		o := opts
		o.Txn = txn
		res, err := e.Write(ctx, plan, params, o)
		if err == nil {
			// The checks of deferred constraints run first: one that
			// fails fails the commit after the statement's result, as
			// PostgreSQL's implicit transaction does (DeferredError).
			if err = txn.runDeferred(ctx, nil); err != nil && pgerr.CodeOf(err) != pgerr.SerializationFailure {
				txn.Rollback()
				return res, &DeferredError{Err: err}
			}
		}
		if err == nil {
			// The session holds the Gate for the whole statement: only
			// other proxies' schema changes need checking (nil current).
			err = txn.Commit(ctx, nil)
		} else {
			txn.Rollback()
		}
		if pgerr.CodeOf(err) == pgerr.SerializationFailure && attempt < maxStatementTxnRetries && ctx.Err() == nil {
			// Back off a little, randomly, so that statements colliding on
			// one referenced row do not collide again in lockstep.
			select {
			case <-time.After(time.Duration(rand.IntN(1+attempt)) * time.Millisecond):
			case <-ctx.Done():
				return WriteResult{}, ctx.Err()
			}
			continue
		}
		return res, err
	}
}

// DeferredError is what Write returns when a statement outside a
// transaction block ran, but a deferred constraint's check failed as its
// transaction was to commit (nothing was committed). The WriteResult
// returned with it is the statement's: PostgreSQL sends the statement's
// rows and completion, then the error of its implicit transaction's
// commit, and so should the caller.
type DeferredError struct {
	Err error
}

func (e *DeferredError) Error() string { return e.Err.Error() }

// Unwrap gives the check's error (its SQLSTATE) to errors.As.
func (e *DeferredError) Unwrap() error { return e.Err }

// generate computes t's generated columns of row in place, from its other
// columns (cast to the columns' types), before NOT NULL and CHECK look at
// it.
func (ec *execCtx) generate(t *catalog.Table, row []sqltypes.Value) error {
	tc := ec.cons.For(t.Name)
	if ps := ec.cons.PartitionsOf(); ps != nil && ps.Root != t && (tc == nil || len(tc.Generated) == 0) {
		// A partition's columns are its partitioned table's, laid out
		// alike, but only the partitioned table's say how they are
		// generated (an upsert's DO UPDATE runs on the partition).
		if rc := ec.cons.For(ps.Root.Name); rc != nil {
			tc = rc
		}
	}
	if tc == nil {
		return nil
	}
	for _, g := range tc.Generated {
		v, err := g.Expr.Eval(ec.eval, row)
		if err != nil {
			return err
		}
		if row[g.Column], err = sqltypes.Cast(v, t.Columns[g.Column].Type); err != nil {
			return err
		}
	}
	return nil
}

// checkConstraints evaluates t's CHECK constraints over row.
func (ec *execCtx) checkConstraints(t *catalog.Table, row []sqltypes.Value) error {
	tc := ec.cons.For(t.Name)
	if tc == nil {
		return nil
	}
	for _, c := range tc.Checks {
		v, err := c.Expr.Eval(ec.eval, row)
		if err != nil {
			return err
		}
		if !v.IsNull() && !ir.Truthy(v) {
			return pgerr.New(pgerr.CheckViolation, "new row for relation %q violates check constraint %q", t.Name, c.Name).
				WithValues(rowDetail(t, row))
		}
	}
	if tc.PartitionOf != nil && !tc.PartitionOf.Holds(t, row) {
		return partitionViolation(t, row)
	}
	return nil
}

// partitionViolation is the error for a row written to partition t that
// does not belong there.
func partitionViolation(t *catalog.Table, row []sqltypes.Value) error {
	return pgerr.New(pgerr.CheckViolation, "new row for relation %q violates partition constraint", t.Name).
		WithValues(rowDetail(t, row))
}

// enforceReferences checks and acts on the foreign keys a write set
// touches, after its ops were buffered in the statement's transaction.
func (ec *execCtx) enforceReferences(ctx context.Context, w *writeSet, stats *kv.Stats) error {
	tc := ec.cons.For(w.t.Name)
	if tc == nil {
		return nil
	}
	if err := ec.enforceExclusions(ctx, w, tc, stats); err != nil {
		return err
	}
	if err := ec.enforceDeferrable(ctx, w, tc, stats); err != nil {
		return err
	}
	for _, o := range tc.Outgoing {
		if ec.txn.defers(o.FK) {
			ec.deferReferenced(w.t, o, w.changes)
			continue
		}
		if err := ec.checkReferenced(ctx, w.t, o, w.changes, stats); err != nil {
			return err
		}
	}
	for _, in := range tc.Incoming {
		if err := ec.actOnReferencing(ctx, w.t, in, w.changes, stats); err != nil {
			return err
		}
	}
	return nil
}

// keyChanged reports whether a change alters the values of cols (every
// change of an insert or delete does).
func keyChanged(c change, cols []int) bool {
	if c.old == nil || c.new == nil {
		return true
	}
	for _, col := range cols {
		if !bytes.Equal(catalog.AppendKeyValue(nil, c.old[col], false), catalog.AppendKeyValue(nil, c.new[col], false)) {
			return true
		}
	}
	return false
}

// referencedKey is the store key of the referenced row a referencing row
// points at: parent's row, or its unique index entry, keyed by the values
// vals of fk's referenced columns (cast to their types). ok is false when
// the parent no longer has a unique key on those columns.
func referencedKey(parent *catalog.Table, fk *catalog.ForeignKey, vals []sqltypes.Value) (kv.Key, bool, error) {
	prow := make([]sqltypes.Value, len(parent.Columns))
	for i := range prow {
		prow[i] = sqltypes.Null
	}
	for i, c := range fk.RefColumns {
		v, err := sqltypes.Cast(vals[i], parent.Columns[c].Type)
		if err != nil {
			return kv.Key{}, false, err
		}
		prow[c] = v
	}
	ix, _, ok := parent.KeyFor(fk.RefColumns)
	if !ok {
		return kv.Key{}, false, nil
	}
	if ix == nil {
		return parent.RowKey(prow), true, nil
	}
	return parent.UniqueKey(ix, prow), true, nil
}

// referencedIn is referencedKey for a referenced table that may be
// partitioned (ps set): the referenced row is then in the leaf its values
// route to (they include the partition key), under the leaf's copy of the
// key. table is the table the key is in; nil (ok true) when no partition
// takes the values, so no row can have them.
func referencedIn(parent *catalog.Table, ps *catalog.PartitionSet, fk *catalog.ForeignKey, vals []sqltypes.Value) (k kv.Key, table *catalog.Table, ok bool, err error) {
	if ps == nil {
		k, ok, err = referencedKey(parent, fk, vals)
		return k, parent, ok, err
	}
	row := make([]sqltypes.Value, len(parent.Columns))
	for i := range row {
		row[i] = sqltypes.Null
	}
	for i, c := range fk.RefColumns {
		if row[c], err = sqltypes.Cast(vals[i], parent.Columns[c].Type); err != nil {
			return kv.Key{}, nil, false, err
		}
	}
	leaf, err := ps.Route(row)
	if err != nil {
		if pgerr.CodeOf(err) == pgerr.CheckViolation {
			return kv.Key{}, nil, true, nil
		}
		return kv.Key{}, nil, false, err
	}
	k, ok, err = referencedKey(leaf, fk, vals)
	return k, leaf, ok, err
}

// values picks cols out of row.
func values(row []sqltypes.Value, cols []int) []sqltypes.Value {
	out := make([]sqltypes.Value, len(cols))
	for i, c := range cols {
		out[i] = row[c]
	}
	return out
}

// checkReferenced verifies that the referencing keys the changes of t
// write have their referenced rows, and locks those rows.
func (ec *execCtx) checkReferenced(ctx context.Context, t *catalog.Table, o ir.OutgoingFK, changes []change, stats *kv.Stats) error {
	fk := o.FK
	var keys []kv.Key
	var tables []*catalog.Table // the table each key is in
	var rows [][]sqltypes.Value // the first referencing row of each key
	seen := map[string]bool{}
	missing := func(row []sqltypes.Value) error {
		return pgerr.New(pgerr.ForeignKeyViolation, "insert or update on table %q violates foreign key constraint %q", t.Name, fk.Name).
			WithValues(keyDetail(t, fk.Columns, row, "Key %s is not present in table %q.", o.Parent.Name))
	}
	for _, c := range changes {
		if c.new == nil || !keyChanged(c, fk.Columns) {
			continue
		}
		vals := values(c.new, fk.Columns)
		nulls := 0
		for _, v := range vals {
			if v.IsNull() {
				nulls++
			}
		}
		if nulls > 0 {
			if fk.MatchFull && nulls < len(vals) {
				return pgerr.New(pgerr.ForeignKeyViolation, "insert or update on table %q violates foreign key constraint %q", t.Name, fk.Name).
					WithDetail("MATCH FULL does not allow mixing of null and nonnull key values.")
			}
			continue // MATCH SIMPLE: a NULL exempts the row
		}
		k, in, ok, err := referencedIn(o.Parent, o.ParentPartitions, fk, vals)
		if err != nil {
			return err
		}
		if !ok {
			return pgerr.New(pgerr.SerializationFailure, "could not serialize access: the unique key foreign key %q references was dropped", fk.Name).
				WithHint("Retry the statement.")
		}
		if in == nil {
			return missing(c.new) // no partition takes the values
		}
		ks := string(k.Partition) + "\x00" + string(k.Sort)
		if seen[ks] {
			continue
		}
		seen[ks] = true
		keys = append(keys, k)
		tables = append(tables, in)
		rows = append(rows, c.new)
	}
	for start := 0; start < len(keys); start += lockBatch {
		end := min(start+lockBatch, len(keys))
		items, err := ec.kv.Get(ctx, kv.GetRequest{Keys: keys[start:end], Consistent: true, Stats: stats})
		if err != nil {
			return txnErr(err)
		}
		for i, it := range items {
			alive, err := ec.referencedAlive(ctx, tables[start+i], it, stats)
			if err != nil {
				return err
			}
			if !alive {
				return missing(rows[start+i])
			}
		}
		if err := ec.txn.kv.Lock(ctx, keys[start:end], kv.LockUpdate); err != nil {
			return txnErr(err)
		}
	}
	return nil
}

// actOnReferencing applies in's ON DELETE / ON UPDATE action to the rows
// referencing the keys the changes of parent delete or change.
func (ec *execCtx) actOnReferencing(ctx context.Context, parent *catalog.Table, in ir.IncomingFK, changes []change, stats *kv.Stats) error {
	fk := in.FK
	seen := map[string]bool{}
	for _, c := range changes {
		moved := c.new == nil && c.moved != nil
		if moved {
			// An UPDATE moved the row to another partition: to the keys
			// referencing it, as PostgreSQL 15's, an update of the
			// partitioned table.
			c.new = c.moved
		}
		if c.old == nil || !keyChanged(c, fk.RefColumns) {
			continue
		}
		oldKey := values(c.old, fk.RefColumns)
		if hasNull(oldKey) {
			continue // no row can reference a key with a NULL
		}
		ks := string(catalog.AppendKeyValue(nil, sqltypes.NewBool(c.new == nil), false))
		for _, v := range oldKey {
			ks += string(catalog.AppendKeyValue(nil, v, false))
		}
		if seen[ks] {
			continue
		}
		seen[ks] = true
		action := fk.OnUpdate
		if c.new == nil {
			action = fk.OnDelete
		}
		if action == catalog.NoAction && ec.txn.defers(fk) {
			ec.deferReferencing(parent, in, oldKey, c.old)
			continue
		}
		if action == catalog.NoAction {
			// Checked as at the end of the statement: a row that has the
			// key now (the statement put it back) keeps the references.
			k, ok, err := referencedKey(parent, fk, oldKey)
			if err != nil {
				return err
			}
			if ok {
				items, err := ec.kv.Get(ctx, kv.GetRequest{Keys: []kv.Key{k}, Consistent: true, Stats: stats})
				if err != nil {
					return txnErr(err)
				}
				if alive, err := ec.referencedAlive(ctx, parent, items[0], stats); err != nil || alive {
					if err != nil {
						return err
					}
					continue
				}
			}
		}
		children, err := ec.referencingIn(ctx, in, oldKey, stats)
		if err != nil {
			return err
		}
		if len(children) == 0 {
			if action != catalog.NoAction && action != catalog.Restrict {
				// The action's query changes nothing; its table's
				// statement triggers fire all the same.
				if err := ec.actionBeforeStatement(in.Child, actionEventOf(action, c.new)); err != nil {
					return err
				}
				ec.queueActionStatement(in.Child, actionEventOf(action, c.new), nil)
			}
			continue
		}
		switch action {
		case catalog.NoAction, catalog.Restrict:
			return stillReferenced(parent, in, c.old, moved)
		}
		for _, lr := range children {
			if err := ec.applyAction(ctx, in, lr.t, action, lr.rows, c.new, stats); err != nil {
				return err
			}
		}
		if action == catalog.SetDefault {
			// A default equal to the removed key still references it.
			still, err := ec.referencingIn(ctx, in, oldKey, stats)
			if err != nil {
				return err
			}
			if len(still) > 0 {
				return stillReferenced(parent, in, c.old, moved)
			}
		}
	}
	return nil
}

func hasNull(vals []sqltypes.Value) bool {
	for _, v := range vals {
		if v.IsNull() {
			return true
		}
	}
	return false
}

// maxActionDepth bounds how deep referential actions may cascade (a chain
// of ON UPDATE CASCADE keys around a cycle could otherwise go on forever).
const maxActionDepth = 64

// applyAction deletes or updates the referencing rows children of child
// (CASCADE, SET NULL, SET DEFAULT); newParent is the referenced row's new
// version (nil when it was deleted).
//
// child is the table holding children: in.Child, or the leaf of it they
// are in when it is partitioned; a row the action moves out of its leaf's
// bound is deleted there and inserted into the leaf it routes to.
func (ec *execCtx) applyAction(ctx context.Context, in ir.IncomingFK, child *catalog.Table, action catalog.FKAction, children []current, newParent []sqltypes.Value, stats *kv.Stats) error {
	if ec.actionDepth >= maxActionDepth {
		return pgerr.New(pgerr.StatementTooComplex, "referential actions cascade more than %d levels deep", maxActionDepth)
	}
	ec.actionDepth++
	defer func() { ec.actionDepth-- }()
	fk := in.FK
	ws := &writeSet{t: child}
	sets := []*writeSet{ws}
	setOf := func(t *catalog.Table) *writeSet {
		for _, s := range sets {
			if s.t == t {
				return s
			}
		}
		s := &writeSet{t: t}
		sets = append(sets, s)
		return s
	}
	// The action is a DELETE or an UPDATE of the referencing table, whose
	// triggers fire (action_triggers.go).
	event, set := actionEventOf(action, newParent), fkColumnsSet(fk)
	if event == "DELETE" {
		set = nil
	}
	if err := ec.actionBeforeStatement(in.Child, event); err != nil {
		return err
	}
	queue := func(leaf *catalog.Table, rowEvent string, c change) {
		ec.queueActionRow(leaf, rowEvent, set, c)
	}
	for _, old := range children {
		if event == "DELETE" {
			if row, err := ec.fireBefore(child, "DELETE", nil, old.row, nil); err != nil || row == nil {
				if err != nil {
					return err
				}
				continue // a BEFORE trigger left the row alone
			}
			ws.add(change{old: old.row, oldVersion: old.version})
			queue(child, "DELETE", change{old: old.row})
			continue
		}
		row := copyRow(old.row)
		for i, col := range fk.Columns {
			var v sqltypes.Value
			switch action {
			case catalog.Cascade:
				v = newParent[fk.RefColumns[i]]
			case catalog.SetNull:
				v = sqltypes.Null
			case catalog.SetDefault:
				var err error
				if tc := ec.cons.For(in.Child.Name); tc != nil && tc.Defaults != nil {
					if v, err = tc.Defaults[col].Eval(ec.eval, old.row); err != nil {
						return err
					}
				}
			}
			cv, err := sqltypes.Cast(v, child.Columns[col].Type)
			if err != nil {
				return err
			}
			row[col] = cv
		}
		row, err := ec.fireBefore(child, "UPDATE", set, old.row, row)
		if err != nil {
			return err
		}
		if row == nil {
			continue // a BEFORE trigger left the row alone
		}
		if err := ec.generate(child, row); err != nil {
			return err
		}
		dest := child
		if in.ChildPartitions != nil {
			if dest, err = in.ChildPartitions.Route(row); err != nil {
				return err
			}
		}
		if dest != child {
			// The row moves: deleted from its leaf, inserted into the
			// one it routes to, whose BEFORE triggers fire as an
			// UPDATE's that moves a row fires them (partition.go).
			if r, err := ec.fireBefore(child, "DELETE", nil, old.row, nil); err != nil || r == nil {
				if err != nil {
					return err
				}
				continue
			}
			r, err := ec.fireLeafBefore(in.ChildPartitions, dest, "INSERT", nil, nil, row)
			if err != nil {
				return err
			}
			if r == nil {
				ws.add(change{old: old.row, oldVersion: old.version})
				queue(child, "DELETE", change{old: old.row})
				continue
			}
			row = r
		}
		if err := checkRow(dest, row); err != nil {
			return err
		}
		if err := ec.checkConstraints(dest, row); err != nil {
			return err
		}
		if dest != child {
			ws.add(change{old: old.row, oldVersion: old.version, moved: row})
			setOf(dest).add(change{new: row})
			queue(child, "DELETE", change{old: old.row})
			queue(dest, "INSERT", change{new: row})
			continue
		}
		ws.add(change{old: old.row, new: row, oldVersion: old.version})
		queue(child, "UPDATE", change{old: old.row, new: row})
	}
	var changed []change
	for _, s := range sets {
		changed = append(changed, s.changes...)
	}
	ec.queueActionStatement(in.Child, event, changed)
	return ec.commitAll(ctx, sets, stats)
}

// leafRows are rows of one table (a leaf of a partitioned table).
type leafRows struct {
	t    *catalog.Table
	rows []current
}

// referencingIn reads the rows referencing key through in: in.Child's,
// or when it is partitioned its leaves', each leaf's apart.
func (ec *execCtx) referencingIn(ctx context.Context, in ir.IncomingFK, key []sqltypes.Value, stats *kv.Stats) ([]leafRows, error) {
	tables := []*catalog.Table{in.Child}
	if in.ChildPartitions != nil {
		tables = in.ChildPartitions.Leaves()
	}
	var out []leafRows
	for _, t := range tables {
		rows, err := ec.referencingRows(ctx, t, in.FK, key, stats)
		if err != nil {
			return nil, err
		}
		if len(rows) > 0 {
			out = append(out, leafRows{t: t, rows: rows})
		}
	}
	return out, nil
}

// referencingRows reads, through the statement's transaction, the rows of
// child whose fk columns equal key (the referenced values, in fk's
// order): by a prefix of the primary key or of a btree index that leads
// with those columns, else (the index was dropped) by a full scan.
func (ec *execCtx) referencingRows(ctx context.Context, child *catalog.Table, fk *catalog.ForeignKey, key []sqltypes.Value, stats *kv.Stats) ([]current, error) {
	want := make([]sqltypes.Value, len(child.Columns))
	for i, col := range fk.Columns {
		v, err := sqltypes.Cast(key[i], child.Columns[col].Type)
		if err != nil {
			return nil, err
		}
		want[col] = v
	}
	prefix := func(keys []catalog.KeyColumn) []byte {
		var p []byte
		for _, k := range keys[:len(fk.Columns)] {
			p = catalog.AppendKeyValue(p, want[k.Column], k.Desc)
		}
		return p
	}
	matches := func(row []sqltypes.Value) bool {
		for _, col := range fk.Columns {
			if !bytes.Equal(catalog.AppendKeyValue(nil, row[col], false), catalog.AppendKeyValue(nil, want[col], false)) {
				return false
			}
		}
		return true
	}
	var index *catalog.Index
	var start []byte
	switch {
	case catalog.LeadsWith(child.PrimaryKey, fk.Columns):
		start = prefix(child.PrimaryKey)
	default:
		for _, ix := range child.Indexes {
			if ix.Kind == catalog.KindBTree && ix.State == catalog.StatePublic && !ix.Partial() && catalog.LeadsWith(ix.Columns, fk.Columns) {
				index, start = ix, prefix(ix.Columns)
				break
			}
		}
	}
	var end []byte
	if start != nil {
		end = kv.PrefixEnd(start)
	}
	bound := 0
	if start != nil {
		bound = len(fk.Columns)
	}
	var out []current
	var rowKeys []kv.Key
	for _, sh := range child.ShardsFor(index, start, bound) {
		partition := child.Partition(sh)
		if index != nil {
			partition = catalog.IndexPartition(index.ID, sh)
		}
		it := ec.kv.Scan(ctx, kv.ScanRequest{Partition: partition, Start: start, End: end, Consistent: true, Stats: stats})
		for it.Next() {
			item := it.Item()
			row := make([]sqltypes.Value, len(child.Columns))
			if err := child.DecodeRow(item.Attrs, row); err != nil {
				it.Close()
				return nil, err
			}
			if !matches(row) {
				continue
			}
			if index != nil {
				rowKeys = append(rowKeys, child.RowKey(row))
				continue
			}
			if !child.Expired(row, ec.eval.Now) {
				out = append(out, current{row: row, version: copyAttr(catalog.RowVersion(item.Attrs))})
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return nil, txnErr(err)
		}
	}
	if index == nil {
		return out, nil
	}
	cur, err := ec.readCurrent(ctx, child, rowKeys, stats)
	if err != nil {
		return nil, err
	}
	for _, k := range rowKeys {
		if c, ok := cur[string(k.Sort)]; ok && !c.expired && matches(c.row) {
			out = append(out, c)
		}
	}
	return out, nil
}

// copyAttr copies an attribute out of store memory a scan may reuse.
func copyAttr(a kv.Attr) kv.Attr {
	a.S = string(append([]byte(nil), a.S...))
	a.B = append([]byte(nil), a.B...)
	return a
}

// stillReferenced is the error of a key in.Child references that its
// row in parent gave up. For a key referencing a partitioned table above
// parent (in.Via) PostgreSQL names parent and the key's copy for it, or,
// when an UPDATE moved the row to another partition (moved), the
// partitioned table and the key itself.
func stillReferenced(parent *catalog.Table, in ir.IncomingFK, old []sqltypes.Value, moved bool) error {
	table, name := parent.Name, in.FK.Name
	if in.Via != nil {
		if moved {
			table = in.Via.Name
		} else if in.CloneName != "" {
			name = in.CloneName
		}
	}
	return pgerr.New(pgerr.ForeignKeyViolation, "update or delete on table %q violates foreign key constraint %q on table %q", table, name, in.Child.Name).
		WithValues(keyDetail(parent, in.FK.RefColumns, old, "Key %s is still referenced from table %q.", in.Child.Name))
}

// Deferred checks. A DEFERRABLE foreign key's checks wait for COMMIT when
// the key is INITIALLY DEFERRED or SET CONSTRAINTS ... DEFERRED says so:
// that referenced rows exist, and (NO ACTION) that no row references a
// key its referenced row gave up. They run, through the transaction, on
// the rows as they are at COMMIT (a referencing row deleted meanwhile is
// no longer checked; a key put back again is referenced again), just
// before the transaction commits, or when SET CONSTRAINTS ... IMMEDIATE
// names them. Referential actions never wait, as in PostgreSQL. Deferred
// exclusion and unique constraints (exclusion.go, deferunique.go) queue
// their checks here too.

// deferredCheck is one foreign-key, exclusion or unique check, or one
// constraint trigger's firing (triggers.go), waiting for COMMIT; name is
// its constraint's.
type deferredCheck struct {
	name string
	run  func(ctx context.Context) error
	seq  uint64 // its place in the queue (Txn.queued)
}

// Constraint modes SET CONSTRAINTS sets.
const (
	modeDeclared = iota
	modeImmediate
	modeDeferred
)

// constraintModes are SET CONSTRAINTS' choices in a transaction: for all
// deferrable constraints, and for named ones (which override all).
type constraintModes struct {
	all   int
	named map[string]int
}

// defers reports whether fk's checks wait for COMMIT.
func (t *Txn) defers(fk *catalog.ForeignKey) bool {
	return t.defersConstraint(fk.Name, fk.Deferrable, fk.InitiallyDeferred)
}

// defersTrigger reports whether a constraint trigger's firings wait for
// COMMIT.
func (t *Txn) defersTrigger(tg *catalog.Trigger) bool {
	return t.defersConstraint(tg.Name, tg.Deferrable, tg.InitiallyDeferred)
}

// defersConstraint reports whether the constraint of that name, declared
// so, waits for COMMIT under SET CONSTRAINTS' choices.
func (t *Txn) defersConstraint(name string, deferrable, initiallyDeferred bool) bool {
	if !deferrable {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if m, ok := t.modes.named[name]; ok {
		return m == modeDeferred
	}
	if t.modes.all != modeDeclared {
		return t.modes.all == modeDeferred
	}
	return initiallyDeferred
}

// deferConstraint queues run, a check of the constraint of that name, for
// COMMIT.
func (t *Txn) deferConstraint(name string, run func(ctx context.Context) error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.deferred = append(t.deferred, deferredCheck{name: name, run: run, seq: t.queued})
	t.queued++
}

// SetConstraints is SET CONSTRAINTS: names (nil for ALL) are checked at
// COMMIT (deferred) or at the end of each statement (immediate); making
// them immediate runs their waiting checks now.
func (t *Txn) SetConstraints(ctx context.Context, names []string, immediate bool) error {
	mode := modeDeferred
	if immediate {
		mode = modeImmediate
	}
	t.mu.Lock()
	if names == nil {
		t.modes = constraintModes{all: mode}
	} else {
		if t.modes.named == nil {
			t.modes.named = map[string]int{}
		}
		for _, n := range names {
			t.modes.named[n] = mode
		}
	}
	t.mu.Unlock()
	if !immediate {
		return nil
	}
	return t.runDeferred(ctx, names)
}

// runDeferred runs (and forgets) the waiting checks of the constraints
// names (nil: all), until none is left: a deferred trigger's writes may
// queue more.
func (t *Txn) runDeferred(ctx context.Context, names []string) error {
	for {
		t.mu.Lock()
		var run, keep []deferredCheck
		for _, d := range t.deferred {
			match := names == nil
			for _, n := range names {
				match = match || n == d.name
			}
			if match {
				run = append(run, d)
			} else {
				keep = append(keep, d)
			}
		}
		t.deferred = keep
		t.mu.Unlock()
		if len(run) == 0 {
			return nil
		}
		for _, d := range run {
			if err := d.run(ctx); err != nil {
				return err
			}
		}
	}
}

// deferReferenced defers checkReferenced for the new referencing keys of
// changes: at COMMIT each row still there with the same key is checked.
func (ec *execCtx) deferReferenced(t *catalog.Table, o ir.OutgoingFK, changes []change) {
	var rows [][]sqltypes.Value
	for _, c := range changes {
		if c.new != nil && keyChanged(c, o.FK.Columns) {
			rows = append(rows, c.new)
		}
	}
	if len(rows) == 0 {
		return
	}
	ec.txn.deferConstraint(o.FK.Name, func(ctx context.Context) error {
		keys := make([]kv.Key, len(rows))
		for i, r := range rows {
			keys[i] = t.RowKey(r)
		}
		cur, err := ec.readCurrent(ctx, t, keys, nil)
		if err != nil {
			return err
		}
		var now []change
		for i, r := range rows {
			c, ok := cur[string(keys[i].Sort)]
			if ok && !keyChanged(change{old: r, new: c.row}, o.FK.Columns) {
				now = append(now, change{new: c.row})
			}
		}
		return ec.checkReferenced(ctx, t, o, now, nil)
	})
}

// deferReferencing defers NO ACTION's check of a referenced key the
// statement removed: at COMMIT, unless a row has the key again, no row may
// reference it.
func (ec *execCtx) deferReferencing(parent *catalog.Table, in ir.IncomingFK, key, old []sqltypes.Value) {
	ec.txn.deferConstraint(in.FK.Name, func(ctx context.Context) error {
		k, ok, err := referencedKey(parent, in.FK, key)
		if err != nil {
			return err
		}
		if ok {
			items, err := ec.kv.Get(ctx, kv.GetRequest{Keys: []kv.Key{k}, Consistent: true})
			if err != nil {
				return txnErr(err)
			}
			if alive, err := ec.referencedAlive(ctx, parent, items[0], nil); err != nil || alive {
				return err
			}
		}
		children, err := ec.referencingIn(ctx, in, key, nil)
		if err != nil {
			return err
		}
		if len(children) > 0 {
			return stillReferenced(parent, in, old, false)
		}
		return nil
	})
}

// referencedAlive reports whether a referenced row read by key (it, a row
// of parent or one of its unique index entries) exists: found, and not an
// expired row of a table with a TTL, which reads no longer see.
func (ec *execCtx) referencedAlive(ctx context.Context, parent *catalog.Table, it kv.Item, stats *kv.Stats) (bool, error) {
	if !kv.Found(it) {
		return false, nil
	}
	if parent.TTL == nil {
		return true, nil
	}
	row := make([]sqltypes.Value, len(parent.Columns))
	if err := parent.DecodeRow(it.Attrs, row); err != nil {
		return false, err
	}
	if _, entry := catalog.IndexIDOf(it.Key.Partition); entry {
		k := parent.RowKey(row)
		cur, err := ec.readCurrent(ctx, parent, []kv.Key{k}, stats)
		if err != nil {
			return false, err
		}
		c, ok := cur[string(k.Sort)]
		return ok && !c.expired, nil
	}
	return !parent.Expired(row, ec.eval.Now), nil
}
