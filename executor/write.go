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

// change is one row's write: its old version (nil for an insert) and its
// new version (nil for a delete).
type change struct {
	old, new []sqltypes.Value
	// mustBeNew makes the row put conditional on the key being absent
	// (INSERT uniqueness, and the new key of a primary-key update).
	mustBeNew bool
}

// writeSet collects the store ops of one statement.
type writeSet struct {
	t    *catalog.Table
	ops  []kv.Op
	rows []int // for each op, the index of the change it belongs to
	// groups[i] is the op index where change i starts, so a batch too large
	// for one atomic write is split between rows, never inside one.
	groups []int
}

// add appends the ops that turn c.old into c.new, for the row and for every
// index.
func (w *writeSet) add(c change) {
	t := w.t
	w.groups = append(w.groups, len(w.ops))
	var oldKey, newKey kv.Key
	if c.old != nil {
		oldKey = t.RowKey(c.old)
	}
	if c.new != nil {
		newKey = t.RowKey(c.new)
	}
	samePK := c.old != nil && c.new != nil && bytes.Equal(oldKey.Sort, newKey.Sort)
	if c.old != nil && !samePK {
		w.ops = append(w.ops, kv.Op{Kind: kv.OpDelete, Key: oldKey})
	}
	if c.new != nil {
		cond := kv.CondNone
		if c.mustBeNew || (c.old != nil && !samePK) {
			cond = kv.CondNotExists
		}
		w.ops = append(w.ops, kv.Op{Kind: kv.OpPut, Key: newKey, Attrs: t.RowAttrs(c.new), Cond: cond})
	}
	for _, ix := range t.Indexes {
		var oldE, newE kv.Key
		if c.old != nil {
			oldE = t.EntryKey(ix, c.old)
		}
		if c.new != nil {
			newE = t.EntryKey(ix, c.new)
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

// commit writes the ops atomically, in one batch if the backend allows it,
// else in row-aligned chunks of at most MaxAtomicOps (each atomic).
func (e *Executor) commit(ctx context.Context, w *writeSet, stats *kv.Stats) error {
	if len(w.ops) == 0 {
		return nil
	}
	max := e.Caps.MaxAtomicOps
	if max <= 0 || len(w.ops) <= max {
		return e.writeBatch(ctx, w, w.ops, 0, stats)
	}
	start := 0
	for start < len(w.ops) {
		end := start
		for _, g := range w.groups {
			if g > start && g-start <= max {
				end = g
			}
		}
		if len(w.ops)-start <= max {
			end = len(w.ops)
		}
		if end == start {
			return pgerr.New(pgerr.ProgramLimitExceeded, "one row of table %q needs more than %d store writes (too many indexes for this backend)", w.t.Name, max)
		}
		if err := e.writeBatch(ctx, w, w.ops[start:end], start, stats); err != nil {
			return err
		}
		start = end
	}
	return nil
}

func (e *Executor) writeBatch(ctx context.Context, w *writeSet, ops []kv.Op, offset int, stats *kv.Stats) error {
	err := e.Store.Write(ctx, kv.Batch{Ops: ops, Atomic: true, Stats: stats})
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		op := ops[cf.Index]
		if op.Kind == kv.OpPut && op.Cond == kv.CondNotExists {
			return duplicateKey(w.t, op.Attrs)
		}
		return pgerr.New(pgerr.SerializationFailure, "could not apply the write: a row changed concurrently").
			WithHint("Retry the statement.")
	}
	if err != nil {
		return ClassifyError(err)
	}
	return nil
}

// ClassifyError gives store failures a SQLSTATE: an unreachable or
// throttled store is 08006 (the client may retry), a canceled statement
// 57014, anything else 58030.
func ClassifyError(err error) error {
	if err == nil || pgerr.As(err) != nil {
		return err
	}
	var ue *kv.UnavailableError
	if errors.As(err, &ue) {
		return pgerr.Wrap(err, pgerr.ConnectionFailure, "the backing store is unavailable")
	}
	if errors.Is(err, context.Canceled) {
		return pgerr.Wrap(err, pgerr.QueryCanceled, "canceling statement due to user request")
	}
	return pgerr.Wrap(err, pgerr.IOError, "store error")
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

// Insert executes an INSERT and returns the number of rows inserted (or
// updated, for ON CONFLICT DO UPDATE).
func (e *Executor) Insert(ctx context.Context, ins *planner.Insert, params []sqltypes.Value, stats *kv.Stats) (int64, error) {
	t := ins.Table
	ev := &planner.EvalContext{Params: params}
	rows := make([][]sqltypes.Value, 0, len(ins.Rows))
	for _, exprs := range ins.Rows {
		row := make([]sqltypes.Value, len(exprs))
		for i, x := range exprs {
			v, err := x.Eval(ev, nil)
			if err != nil {
				return 0, err
			}
			if v, err = sqltypes.Cast(v, t.Columns[i].Type); err != nil {
				return 0, err
			}
			row[i] = v
		}
		if err := checkRow(t, row); err != nil {
			return 0, err
		}
		rows = append(rows, row)
	}
	w := &writeSet{t: t}
	if ins.OnConflict == nil {
		seen := map[string]bool{}
		for _, row := range rows {
			k := string(t.EncodePK(nil, row))
			if seen[k] {
				return 0, duplicateKey(t, t.RowAttrs(row))
			}
			seen[k] = true
			w.add(change{new: row, mustBeNew: true})
		}
		return int64(len(rows)), e.commit(ctx, w, stats)
	}
	// ON CONFLICT: read the existing rows in one batched get.
	keys := make([]kv.Key, len(rows))
	for i, row := range rows {
		keys[i] = t.RowKey(row)
	}
	items, err := e.Store.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true, Stats: stats})
	if err != nil {
		return 0, ClassifyError(err)
	}
	current := map[string][]sqltypes.Value{}
	for i, it := range items {
		if kv.Found(it) {
			old := make([]sqltypes.Value, len(t.Columns))
			if err := t.DecodeRow(it.Attrs, old); err != nil {
				return 0, err
			}
			current[string(keys[i].Sort)] = old
		}
	}
	touched := map[string]bool{}
	var n int64
	for i, row := range rows {
		k := string(keys[i].Sort)
		old, exists := current[k]
		if !exists {
			w.add(change{new: row, mustBeNew: true})
			current[k] = row
			touched[k] = true
			n++
			continue
		}
		if ins.OnConflict.DoNothing {
			continue
		}
		if touched[k] {
			return 0, pgerr.New(pgerr.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
				WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
		}
		if t.Mutability == catalog.ImmutableRows {
			return 0, immutable(t)
		}
		both := append(copyRow(old), row...)
		updated := copyRow(old)
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
		if t.RowKey(updated).Sort != nil && !bytes.Equal(t.RowKey(updated).Sort, keys[i].Sort) {
			return 0, pgerr.New(pgerr.FeatureNotSupported, "ON CONFLICT DO UPDATE may not change the primary key")
		}
		w.add(change{old: old, new: updated})
		current[k] = updated
		touched[k] = true
		n++
	}
	return n, e.commit(ctx, w, stats)
}

func immutable(t *catalog.Table) error {
	return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot update rows of table %q: it is declared WITH (mutability = 'immutable_rows')", t.Name).
		WithHint("Delete and re-insert the row, or create the table as mutable.")
}

// collect runs a row-source plan and returns copies of all its rows.
func (e *Executor) collect(ctx context.Context, plan *optimizer.Plan, params []sqltypes.Value, stats *kv.Stats) ([][]sqltypes.Value, error) {
	rows, err := e.Run(ctx, plan, params, nil, stats)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]sqltypes.Value
	for {
		row, ok, err := rows.Next(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, copyRow(row))
	}
}

// Update executes an UPDATE whose rows plan finds; it returns the count.
func (e *Executor) Update(ctx context.Context, u *planner.Update, plan *optimizer.Plan, params []sqltypes.Value, stats *kv.Stats) (int64, error) {
	t := u.Scan.Table
	if t.Mutability == catalog.ImmutableRows {
		return 0, immutable(t)
	}
	olds, err := e.collect(ctx, plan, params, stats)
	if err != nil {
		return 0, err
	}
	ev := &planner.EvalContext{Params: params}
	w := &writeSet{t: t}
	newKeys := map[string]bool{}
	oldKeys := map[string]bool{}
	for _, old := range olds {
		oldKeys[string(t.EncodePK(nil, old))] = true
	}
	for _, old := range olds {
		row := copyRow(old)
		for col, x := range u.Set {
			v, err := x.Eval(ev, old)
			if err != nil {
				return 0, err
			}
			if row[col], err = sqltypes.Cast(v, t.Columns[col].Type); err != nil {
				return 0, err
			}
		}
		if err := checkRow(t, row); err != nil {
			return 0, err
		}
		nk := string(t.EncodePK(nil, row))
		if newKeys[nk] {
			return 0, duplicateKey(t, t.RowAttrs(row))
		}
		newKeys[nk] = true
		c := change{old: old, new: row}
		// A new primary key must not collide with a row this statement does
		// not also move away.
		if nk != string(t.EncodePK(nil, old)) && oldKeys[nk] {
			return 0, pgerr.New(pgerr.FeatureNotSupported, "UPDATE that moves a row onto the key of another updated row is not supported")
		}
		w.add(c)
	}
	return int64(len(olds)), e.commit(ctx, w, stats)
}

// Delete executes a DELETE whose rows plan finds; it returns the count.
func (e *Executor) Delete(ctx context.Context, d *planner.Delete, plan *optimizer.Plan, params []sqltypes.Value, stats *kv.Stats) (int64, error) {
	olds, err := e.collect(ctx, plan, params, stats)
	if err != nil {
		return 0, err
	}
	w := &writeSet{t: d.Scan.Table}
	for _, old := range olds {
		w.add(change{old: old})
	}
	return int64(len(olds)), e.commit(ctx, w, stats)
}
