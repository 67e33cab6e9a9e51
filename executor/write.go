package executor

import (
	"bytes"
	"context"
	"errors"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/planner"
)

// Concurrency control. Every stored row carries a version
// (catalog.VersionAttr). A write that replaces or deletes a row is
// conditional on the version it read, so two statements racing on a row
// cannot both apply: the loser re-reads the row, re-checks its WHERE clause
// against the new version and tries again, as PostgreSQL re-evaluates a row
// it waited for. maxConflictRetries bounds that; past it the statement
// fails with 40001 and the client may retry.
const maxConflictRetries = 100

// change is one row's write: its old version (nil for an insert) and its
// new version (nil for a delete).
type change struct {
	old, new []sqltypes.Value
	// oldVersion is the version attribute read with old.
	oldVersion kv.Attr
}

// writeSet collects the store ops of one statement.
type writeSet struct {
	t   *catalog.Table
	ops []kv.Op
	// groups[i] is the op index where change i starts, so a batch too large
	// for one atomic write is split between rows, never inside one.
	groups  []int
	changes []change
}

// add appends the ops that turn c.old into c.new, for the row and for every
// index (building ones too).
func (w *writeSet) add(c change) {
	t := w.t
	w.groups = append(w.groups, len(w.ops))
	w.changes = append(w.changes, c)
	var oldKey, newKey kv.Key
	if c.old != nil {
		oldKey = t.RowKey(c.old)
	}
	if c.new != nil {
		newKey = t.RowKey(c.new)
	}
	samePK := c.old != nil && c.new != nil && bytes.Equal(oldKey.Sort, newKey.Sort)
	cas := func(op kv.Op) kv.Op {
		op.Cond, op.CondAttr = kv.CondAttrEquals, c.oldVersion
		return op
	}
	if c.old != nil && !samePK {
		w.ops = append(w.ops, cas(kv.Op{Kind: kv.OpDelete, Key: oldKey}))
	}
	if c.new != nil {
		put := kv.Op{Kind: kv.OpPut, Key: newKey}
		if samePK {
			next := int64(1)
			if c.oldVersion.Kind == kv.AttrInt {
				next = c.oldVersion.I + 1
			}
			put.Attrs = t.RowAttrs(c.new, next)
			put = cas(put)
		} else {
			put.Attrs, put.Cond = t.RowAttrs(c.new, 1), kv.CondNotExists
		}
		w.ops = append(w.ops, put)
	}
	for _, ix := range t.Indexes {
		var oldE, newE kv.Key
		if c.old != nil {
			oldE = t.EntryKeyPK(ix, c.old, oldKey.Sort)
		}
		if c.new != nil {
			newE = t.EntryKeyPK(ix, c.new, newKey.Sort)
		}
		same := c.old != nil && c.new != nil && bytes.Equal(oldE.Partition, newE.Partition) && bytes.Equal(oldE.Sort, newE.Sort)
		if c.old != nil && !same {
			w.ops = append(w.ops, kv.Op{Kind: kv.OpDelete, Key: oldE})
		}
		if c.new != nil && (!same || entryChanged(t, ix, c.old, c.new)) {
			w.ops = append(w.ops, kv.Op{Kind: kv.OpPut, Key: newE, Attrs: t.EntryAttrs(ix, c.new)})
		}
	}
}

func entryChanged(t *catalog.Table, ix *catalog.Index, old, new []sqltypes.Value) bool {
	for _, c := range t.EntryColumns(ix) {
		if !sqltypes.Equal(old[c], new[c]) || old[c].K != new[c].K {
			return true
		}
	}
	return false
}

// conflictError reports the op whose condition failed: a row that already
// exists (CondNotExists) or that changed since it was read (CondAttrEquals).
type conflictError struct {
	op kv.Op
}

func (e *conflictError) Error() string { return "executor: write conflict" }

// lostRace reports whether err is a row changed by a concurrent statement
// (as opposed to a duplicate key).
func lostRace(err error) bool {
	var ce *conflictError
	return errors.As(err, &ce) && ce.op.Cond == kv.CondAttrEquals
}

// commit writes the ops atomically, in one batch if the backend allows it,
// else in row-aligned chunks of at most MaxAtomicOps (each atomic). It
// returns how many changes were applied: all of them, or on error those of
// the chunks written before the failing one.
func (e *Executor) commit(ctx context.Context, w *writeSet, stats *kv.Stats) (int, error) {
	if len(w.ops) == 0 {
		return len(w.changes), nil
	}
	max := e.Caps.MaxAtomicOps
	if max <= 0 || len(w.ops) <= max {
		if err := e.writeBatch(ctx, w.ops, stats); err != nil {
			return 0, err
		}
		return len(w.changes), nil
	}
	start, applied := 0, 0
	for start < len(w.ops) {
		end, rows := start, applied
		for i, g := range w.groups {
			if g > start && g-start <= max {
				end, rows = g, i
			}
		}
		if len(w.ops)-start <= max {
			end, rows = len(w.ops), len(w.changes)
		}
		if end == start {
			return applied, pgerr.New(pgerr.ProgramLimitExceeded, "one row of table %q needs more than %d store writes (too many indexes for this backend)", w.t.Name, max)
		}
		if err := e.writeBatch(ctx, w.ops[start:end], stats); err != nil {
			return applied, err
		}
		start, applied = end, rows
	}
	return applied, nil
}

func (e *Executor) writeBatch(ctx context.Context, ops []kv.Op, stats *kv.Stats) error {
	err := e.Store.Write(ctx, kv.Batch{Ops: ops, Atomic: true, Stats: stats})
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		return &conflictError{op: ops[cf.Index]}
	}
	if err != nil {
		return ClassifyError(err)
	}
	return nil
}

// ClassifyError gives store failures a SQLSTATE through
// pgerr.ClassifyAs: an unreachable or throttled store is 08006 (the client
// may retry), a canceled statement 57014, anything else 58030.
func ClassifyError(err error) error {
	if err == nil {
		return nil
	}
	return pgerr.ClassifyAs(err, pgerr.IOError, "store error")
}

// finishWrite turns what is left of a write conflict into a client error:
// an existing key is 23505; a race lost too often is 40001.
func finishWrite(t *catalog.Table, err error) error {
	var ce *conflictError
	if !errors.As(err, &ce) {
		return err
	}
	if ce.op.Cond == kv.CondNotExists {
		return duplicateKey(t, ce.op.Attrs)
	}
	return pgerr.New(pgerr.SerializationFailure, "could not serialize access due to concurrent update").
		WithHint("Retry the statement.")
}

func duplicateKey(t *catalog.Table, attrs []kv.Attr) error {
	row := make([]sqltypes.Value, len(t.Columns))
	_ = t.DecodeRow(attrs, row)
	return pgerr.New(pgerr.UniqueViolation, "duplicate key value violates unique constraint %q", t.Name+"_pkey").
		WithDetail("Key (%s)=(%s) already exists.", pkNames(t), pkValues(t, row))
}

func pkNames(t *catalog.Table) string {
	var b bytes.Buffer
	for i, k := range t.PrimaryKey {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.Columns[k.Column].Name)
	}
	return b.String()
}

func pkValues(t *catalog.Table, row []sqltypes.Value) string {
	var b bytes.Buffer
	for i, k := range t.PrimaryKey {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(sqltypes.FormatText(row[k.Column]))
	}
	return b.String()
}

// checkRow enforces NOT NULL.
func checkRow(t *catalog.Table, row []sqltypes.Value) error {
	for i, c := range t.Columns {
		if c.NotNull && row[i].IsNull() {
			return pgerr.New(pgerr.NotNullViolation, "null value in column %q of relation %q violates not-null constraint", c.Name, t.Name)
		}
	}
	return nil
}

// current is a row as stored now, with its version.
type current struct {
	row     []sqltypes.Value
	version kv.Attr
}

// readCurrent reads the rows at the given keys with a consistent batched
// get; missing keys are absent from the map (keyed by sort key).
func (e *Executor) readCurrent(ctx context.Context, t *catalog.Table, keys []kv.Key, stats *kv.Stats) (map[string]current, error) {
	out := make(map[string]current, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	items, err := e.Store.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true, Stats: stats})
	if err != nil {
		return nil, ClassifyError(err)
	}
	for i, it := range items {
		if !kv.Found(it) {
			continue
		}
		row := make([]sqltypes.Value, len(t.Columns))
		if err := t.DecodeRow(it.Attrs, row); err != nil {
			return nil, err
		}
		out[string(keys[i].Sort)] = current{row: row, version: catalog.RowVersion(it.Attrs)}
	}
	return out, nil
}

// evalRow computes a full row from one expression per column, cast to the
// column types, and enforces NOT NULL.
func evalRow(t *catalog.Table, exprs []planner.Expr, ev *planner.EvalContext, in []sqltypes.Value) ([]sqltypes.Value, error) {
	row := make([]sqltypes.Value, len(exprs))
	for i, x := range exprs {
		v, err := x.Eval(ev, in)
		if err != nil {
			return nil, err
		}
		if row[i], err = sqltypes.Cast(v, t.Columns[i].Type); err != nil {
			return nil, err
		}
	}
	return row, checkRow(t, row)
}

// Insert executes an INSERT and returns the number of rows inserted (or
// updated, for ON CONFLICT DO UPDATE).
func (e *Executor) Insert(ctx context.Context, ins *planner.Insert, params []sqltypes.Value, stats *kv.Stats) (int64, error) {
	t := ins.Table
	ev := &planner.EvalContext{Params: params}
	rows := make([][]sqltypes.Value, 0, len(ins.Rows))
	for _, exprs := range ins.Rows {
		row, err := evalRow(t, exprs, ev, nil)
		if err != nil {
			return 0, err
		}
		rows = append(rows, row)
	}
	if ins.OnConflict == nil {
		// Uniqueness is the store's condition on each row put: no read.
		w := &writeSet{t: t}
		seen := map[string]bool{}
		for _, row := range rows {
			k := string(t.EncodePK(nil, row))
			if seen[k] {
				return 0, duplicateKey(t, t.RowAttrs(row, 0))
			}
			seen[k] = true
			w.add(change{new: row})
		}
		n, err := e.commit(ctx, w, stats)
		return int64(n), finishWrite(t, err)
	}
	return e.upsert(ctx, ins, rows, ev, stats)
}

// upsert executes INSERT ... ON CONFLICT: it reads the rows the statement
// collides with, decides per row, and writes with conditions on what it
// read; a concurrent insert or update of one of those rows makes it read
// again and decide again.
func (e *Executor) upsert(ctx context.Context, ins *planner.Insert, rows [][]sqltypes.Value, ev *planner.EvalContext, stats *kv.Stats) (int64, error) {
	t := ins.Table
	keys := make([]kv.Key, len(rows))
	for i, row := range rows {
		keys[i] = t.RowKey(row)
	}
	var total int64
	done := map[string]bool{} // rows applied by earlier chunks of this statement
	for attempt := 0; ; attempt++ {
		cur, err := e.readCurrent(ctx, t, keys, stats)
		if err != nil {
			return 0, err
		}
		w := &writeSet{t: t}
		touched := map[string]bool{}
		var order []string
		for i, row := range rows {
			k := string(keys[i].Sort)
			if done[k] {
				continue
			}
			old, exists := cur[k]
			switch {
			case !exists:
				w.add(change{new: row})
				cur[k] = current{row: row, version: kv.Attr{Name: catalog.VersionAttr, Kind: kv.AttrInt, I: 1}}
			case ins.OnConflict.DoNothing:
				continue
			case touched[k]:
				return 0, pgerr.New(pgerr.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
					WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
			case t.Mutability == catalog.ImmutableRows:
				return 0, immutable(t)
			default:
				both := append(copyRow(old.row), row...)
				updated := copyRow(old.row)
				for col, x := range ins.OnConflict.Set {
					v, err := x.Eval(ev, both)
					if err != nil {
						return 0, err
					}
					if updated[col], err = sqltypes.Cast(v, t.Columns[col].Type); err != nil {
						return 0, err
					}
				}
				if err := checkRow(t, updated); err != nil {
					return 0, err
				}
				if !bytes.Equal(t.EncodePK(nil, updated), keys[i].Sort) {
					return 0, pgerr.New(pgerr.FeatureNotSupported, "ON CONFLICT DO UPDATE may not change the primary key")
				}
				w.add(change{old: old.row, new: updated, oldVersion: old.version})
			}
			touched[k] = true
			order = append(order, k)
		}
		applied, err := e.commit(ctx, w, stats)
		total += int64(applied)
		for _, k := range order[:applied] {
			done[k] = true
		}
		var ce *conflictError
		if errors.As(err, &ce) && attempt < maxConflictRetries {
			continue // a row changed or appeared since it was read
		}
		if err != nil {
			return 0, finishWrite(t, err)
		}
		return total, nil
	}
}

func immutable(t *catalog.Table) error {
	return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot update rows of table %q: it is declared WITH (mutability = 'immutable_rows')", t.Name).
		WithHint("Delete and re-insert the row, or create the table as mutable.")
}

// candidateKeys runs a row-source plan and returns the keys of the rows it
// finds, each once.
func (e *Executor) candidateKeys(ctx context.Context, t *catalog.Table, plan *optimizer.Plan, params []sqltypes.Value, stats *kv.Stats) ([]kv.Key, error) {
	if plan.Scan != nil && plan.Scan.Method == optimizer.PointGet {
		// The keys are known: the versioned read that follows is the only
		// read these rows need.
		keys := make([]kv.Key, len(plan.Scan.Points))
		for i, p := range plan.Scan.Points {
			keys[i] = kv.Key{Partition: catalog.TablePartition(t.ID, catalog.ShardOf(p, t.Shards)), Sort: p}
		}
		return keys, nil
	}
	rows, err := e.Run(ctx, plan, params, nil, stats)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys []kv.Key
	seen := map[string]bool{}
	for {
		row, ok, err := rows.Next(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return keys, nil
		}
		k := t.RowKey(row)
		if !seen[string(k.Sort)] {
			seen[string(k.Sort)] = true
			keys = append(keys, k)
		}
	}
}

// modify is the common loop of UPDATE and DELETE: find the candidate rows
// through the plan, read their current versions, keep those that still
// match the WHERE clause, turn each into a change, and write conditionally
// on the versions read, retrying rows a concurrent statement changed first.
func (e *Executor) modify(ctx context.Context, scan *planner.Select, plan *optimizer.Plan, params []sqltypes.Value, stats *kv.Stats,
	mk func(old current) (change, error)) (int64, error) {
	t := scan.Table
	keys, err := e.candidateKeys(ctx, t, plan, params, stats)
	if err != nil {
		return 0, err
	}
	ev := &planner.EvalContext{Params: params}
	var total int64
	for attempt := 0; ; attempt++ {
		cur, err := e.readCurrent(ctx, t, keys, stats)
		if err != nil {
			return 0, err
		}
		w := &writeSet{t: t}
		var order []kv.Key
		newKeys := map[string]bool{}
		for _, k := range keys {
			old, ok := cur[string(k.Sort)]
			if !ok {
				continue // deleted or moved since the scan
			}
			if scan.Filter != nil {
				v, err := scan.Filter.Eval(ev, old.row)
				if err != nil {
					return 0, err
				}
				if !planner.Truthy(v) {
					continue // changed by another statement and no longer matches
				}
			}
			c, err := mk(old)
			if err != nil {
				return 0, err
			}
			if c.new != nil {
				// Two rows updated onto one key: PostgreSQL's unique check
				// fails the statement.
				nk := string(t.EncodePK(nil, c.new))
				if newKeys[nk] {
					return 0, duplicateKey(t, t.RowAttrs(c.new, 0))
				}
				newKeys[nk] = true
			}
			w.add(c)
			order = append(order, k)
		}
		applied, err := e.commit(ctx, w, stats)
		total += int64(applied)
		if lostRace(err) && attempt < maxConflictRetries {
			keys = order[applied:] // earlier chunks are written; redo the rest
			continue
		}
		if err != nil {
			return 0, finishWrite(t, err)
		}
		return total, nil
	}
}

// Update executes an UPDATE whose rows plan finds; it returns the count.
func (e *Executor) Update(ctx context.Context, u *planner.Update, plan *optimizer.Plan, params []sqltypes.Value, stats *kv.Stats) (int64, error) {
	t := u.Scan.Table
	if t.Mutability == catalog.ImmutableRows {
		return 0, immutable(t)
	}
	ev := &planner.EvalContext{Params: params}
	return e.modify(ctx, u.Scan, plan, params, stats, func(old current) (change, error) {
		row := copyRow(old.row)
		for col, x := range u.Set {
			v, err := x.Eval(ev, old.row)
			if err != nil {
				return change{}, err
			}
			if row[col], err = sqltypes.Cast(v, t.Columns[col].Type); err != nil {
				return change{}, err
			}
		}
		if err := checkRow(t, row); err != nil {
			return change{}, err
		}
		return change{old: old.row, new: row, oldVersion: old.version}, nil
	})
}

// Delete executes a DELETE whose rows plan finds; it returns the count.
func (e *Executor) Delete(ctx context.Context, d *planner.Delete, plan *optimizer.Plan, params []sqltypes.Value, stats *kv.Stats) (int64, error) {
	return e.modify(ctx, d.Scan, plan, params, stats, func(old current) (change, error) {
		return change{old: old.row, oldVersion: old.version}, nil
	})
}
