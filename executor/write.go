package executor

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
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
	// newKey is new's row key when the caller has it already (an INSERT
	// encodes it to find duplicates among its rows); a zero Key: add
	// encodes it.
	newKey kv.Key
	// moved, on a change deleting old (new nil), is the row's new version
	// when an UPDATE moves it to another partition (written there by a
	// change of its own): the keys referencing the row see an update.
	moved []sqltypes.Value
}

// writeSet collects the store ops of one statement.
type writeSet struct {
	t       *catalog.Table
	ops     []kv.Op
	changes []change
	// uniq tracks the unique-keyed index entries the statement writes
	// (unique.go); dup is a uniqueness violation among its own rows, found
	// when ops held dupAt ops.
	uniq  map[string]int
	dup   error
	dupAt int
	// err is the first index expression that failed to evaluate.
	err error
	// groups[i] is the op index where change i starts, so a failed op
	// names its row (COPY's error context).
	groups []int
	// enc forms the keys and attributes of every change (encoder), made
	// from t at the first change: the statement's rows share its
	// per-index layouts and its arenas.
	enc *catalog.Encoder
}

// encoder returns the write set's Encoder, made at the first use and
// sized for the changes the write set was made room for.
func (w *writeSet) encoder() *catalog.Encoder {
	if w.enc == nil {
		w.enc = w.t.NewEncoder(max(cap(w.changes), cap(w.ops)/(1+len(w.t.Indexes))))
	}
	return w.enc
}

// add appends the ops that turn c.old into c.new, for the row and for every
// index (building ones too).
func (w *writeSet) add(c change) {
	t, enc := w.t, w.encoder()
	w.changes = append(w.changes, c)
	w.groups = append(w.groups, len(w.ops))
	var oldKey, newKey kv.Key
	if c.old != nil {
		oldKey = enc.RowKey(c.old)
	}
	switch {
	case c.newKey.Partition != nil:
		newKey = c.newKey
	case c.new != nil:
		newKey = enc.RowKey(c.new)
	}
	samePK := c.old != nil && c.new != nil && bytes.Equal(oldKey.Sort, newKey.Sort)
	rekey := c.old != nil && c.new != nil && !samePK
	if c.old != nil && !samePK {
		if !rekey || !w.leaveRowKey(oldKey, c.oldVersion) {
			if rekey {
				w.trackUnique(rowKeyString(oldKey))
			}
			w.ops = append(w.ops, kv.Op{Kind: kv.OpDelete, Key: oldKey, Cond: kv.CondAttrEquals, CondAttr: c.oldVersion})
		}
	}
	if c.new != nil {
		put := kv.Op{Kind: kv.OpPut, Key: newKey}
		if samePK {
			next := int64(1)
			if c.oldVersion.Kind == kv.AttrInt {
				next = c.oldVersion.I + 1
			}
			put.Attrs = enc.RowAttrs(c.new, next)
			put.Cond, put.CondAttr = kv.CondAttrEquals, c.oldVersion
		} else {
			put.Attrs, put.Cond = enc.RowAttrs(c.new, 1), kv.CondNotExists
		}
		if !rekey || !w.takeRowKey(put) {
			if rekey {
				w.trackUnique(rowKeyString(newKey))
			}
			w.ops = append(w.ops, put)
		}
	}
	for _, ix := range t.Indexes {
		// A row's entry row holds its index expressions' values; a row
		// failing a partial index's predicate has no entry (indexexpr.go).
		oldR, oldIn, err := w.entryRow(ix, c.old)
		if err != nil {
			return
		}
		newR, newIn, err := w.entryRow(ix, c.new)
		if err != nil {
			return
		}
		if ix.Inverted() {
			if !oldIn {
				oldR = nil
			}
			if !newIn {
				newR = nil
			}
			w.addInverted(ix, oldR, newR, oldKey.Sort, newKey.Sort, c.new)
			continue
		}
		var oldE, newE kv.Key
		if oldIn {
			oldE = enc.EntryKeyPK(ix, oldR, oldKey.Sort)
		}
		if newIn {
			newE = enc.EntryKeyPK(ix, newR, newKey.Sort)
		}
		same := oldIn && newIn && bytes.Equal(oldE.Partition, newE.Partition) && bytes.Equal(oldE.Sort, newE.Sort)
		if oldIn && !same {
			w.deleteEntry(ix, oldE, t.UniqueKeyed(ix, oldR))
		}
		if newIn && (!same || entryChanged(t, ix, c.old, c.new)) {
			w.putEntry(ix, newE, enc.EntryAttrs(ix, c.new), !same && t.UniqueKeyed(ix, newR))
		}
	}
}

// addInverted adds the ops that turn a row's entries in inverted index ix
// from those of oldR (its entry row before; nil: none) into those of newR:
// the tokens the row loses are deleted (and a removal put for each), the
// ones it gains put, and the ones it keeps stay as they are (their entries
// hold only the primary key, which is the same unless the key changed, and
// then every token is new).
func (w *writeSet) addInverted(ix *catalog.Index, oldR, newR []sqltypes.Value, oldPK, newPK []byte, row []sqltypes.Value) {
	t := w.t
	var oldE, newE []kv.Key
	if oldR != nil {
		oldE = t.InvertedEntryKeys(ix, oldR, oldPK)
	}
	if newR != nil {
		newE = t.InvertedEntryKeys(ix, newR, newPK)
	}
	// An entry kept carries the row's expiry (TTL tables): a change of it
	// rewrites them all.
	rewrite := oldR != nil && newR != nil && !sameAttrs(t.InvertedEntryAttrs(oldR), t.InvertedEntryAttrs(row))
	keep := make(map[string]bool, len(oldE))
	for _, k := range oldE {
		keep[string(k.Partition)+"\x00"+string(k.Sort)] = false
	}
	for _, k := range newE {
		ks := string(k.Partition) + "\x00" + string(k.Sort)
		if _, had := keep[ks]; had {
			keep[ks] = true
			if !rewrite {
				continue
			}
		}
		w.ops = append(w.ops, kv.Op{Kind: kv.OpPut, Key: k, Attrs: t.InvertedEntryAttrs(row)})
	}
	var removal []kv.Attr
	for _, k := range oldE {
		if !keep[string(k.Partition)+"\x00"+string(k.Sort)] {
			// A block may name the row too (catalog/postings.go): a
			// removal hides it there until a packing drops it.
			if removal == nil {
				removal = t.RemovalAttrs(oldR)
			}
			w.ops = append(w.ops, kv.Op{Kind: kv.OpDelete, Key: k},
				kv.Op{Kind: kv.OpPut, Key: catalog.RemovalKey(k, oldPK), Attrs: removal})
		}
	}
}

// sameAttrs reports whether two attribute lists are the same.
func sameAttrs(a, b []kv.Attr) bool {
	return attrsDigest(a) == attrsDigest(b)
}

// entryRow returns row's entry row in ix and whether row has an entry
// (ir.IndexRow; a nil row has none). An expression that fails to
// evaluate fails the statement: the write set keeps the first such error
// for commit.
func (w *writeSet) entryRow(ix *catalog.Index, row []sqltypes.Value) ([]sqltypes.Value, bool, error) {
	if row == nil {
		return nil, false, nil
	}
	erow, in, err := ir.IndexRow(w.t, ix, row)
	if err != nil && w.err == nil {
		w.err = err
	}
	return erow, in, err
}

// newRows are the rows the statement writes (for the Z-order bounds).
func (w *writeSet) newRows() [][]sqltypes.Value {
	var out [][]sqltypes.Value
	for _, c := range w.changes {
		if c.new != nil {
			out = append(out, c.new)
		}
	}
	return out
}

// entryChanged reports whether an index entry whose key stays the same
// must still be rewritten: a column it stores is no longer the same datum.
// Equal is not enough: values that key alike can differ (citext 'A' and
// 'a', numeric 1.0 and 1.00), and the entry's copy must read back as the
// row's.
func entryChanged(t *catalog.Table, ix *catalog.Index, old, new []sqltypes.Value) bool {
	for _, c := range t.EntryColumns(ix) {
		if !sqltypes.Identical(old[c], new[c]) {
			return true
		}
	}
	return false
}

// conflictError reports the op whose condition failed: a row that already
// exists (CondNotExists) or that changed since it was read (CondAttrEquals).
type conflictError struct {
	op kv.Op
	t  *catalog.Table // the table op writes
}

func (e *conflictError) Error() string { return "executor: write conflict" }

// lostRace reports whether err is a row changed by a concurrent statement
// (as opposed to a duplicate key).
func lostRace(err error) bool {
	var ce *conflictError
	return errors.As(err, &ce) && ce.op.Cond == kv.CondAttrEquals
}

// commit writes a statement's changes, all or none: into the session's
// transaction when there is one (they become durable at its COMMIT); else
// as one atomic batch when the backend takes that many ops; else in a
// transaction of the statement's own, which has no size limit.
//
// A statement whose foreign keys need checking always has a transaction
// (Write begins one), and its checks and referential actions run after its
// writes are buffered (enforceReferences).
func (ec *execCtx) commit(ctx context.Context, w *writeSet, stats *kv.Stats) error {
	if w.err != nil {
		return w.err
	}
	if w.dup != nil {
		return w.dup
	}
	if len(w.ops) == 0 {
		return nil
	}
	if err := ec.ex.widenZBounds(ctx, w.t, nil, w.newRows()); err != nil {
		return err
	}
	if ec.txn != nil {
		if err := ec.buffer(ctx, w, stats); err != nil {
			return err
		}
		if ec.pending != nil {
			*ec.pending = append(*ec.pending, w)
			return nil
		}
		return ec.enforceReferences(ctx, w, stats)
	}
	e := ec.ex
	if max := e.Caps.MaxAtomicOps; max <= 0 || len(w.ops) <= max {
		if err := ec.checkSchemaCurrent(ctx, w.t); err != nil {
			return err
		}
		err := writeErr(e.Store.Write(ctx, kv.Batch{Ops: w.ops, Atomic: true, Stats: stats}), w)
		if err == nil {
			stats.AddWriteOps(w.ops)
			ec.committed++
		}
		return err
	}
	txn, err := e.Begin(ctx, false, stats)
	if err != nil {
		return err
	}
	txn.noteWrite(w.t)
	if err := writeErr(txn.kv.Write(ctx, kv.Batch{Ops: w.ops, Stats: stats}), w); err != nil {
		txn.Rollback()
		return err
	}
	stats.AddWriteOps(w.ops)
	// The session holds the Gate for the whole statement, so only other
	// proxies' schema changes need checking (nil current).
	return txn.Commit(ctx, nil)
}

// checkSchemaCurrent fails an atomic batch about to commit on a shared
// store if t's schema changed since the statement planned with it
// (RunOptions.SchemaCurrent). A statement in a transaction of its own
// needs no such check: Txn.Commit locks the descriptors it wrote.
func (ec *execCtx) checkSchemaCurrent(ctx context.Context, t *catalog.Table) error {
	if ec.schemaCurrent == nil || ec.ex.Caps.Exclusive || t.Temp {
		return nil
	}
	ok, err := ec.schemaCurrent(ctx, t)
	if err != nil || ok {
		return err
	}
	if ec.committed > 0 {
		// Part of the statement (a WITH query's write, a parent table's
		// rows) is committed: running it again would repeat that part.
		return schemaChanged(t.Name)
	}
	return &StaleSchemaError{Table: t.Name}
}

// StaleSchemaError is a statement outside a transaction that wrote
// nothing because the schema of Table changed after it planned (another
// proxy began building an index on it, say). The caller plans it again on
// the new schema and reruns it: the client sent one statement, which
// PostgreSQL would not fail for a concurrent schema change. Its SQLSTATE
// is 40001's, should the caller give up.
type StaleSchemaError struct {
	Table string
}

func (e *StaleSchemaError) Error() string { return schemaChanged(e.Table).Error() }

// Unwrap gives the error its SQLSTATE (40001).
func (e *StaleSchemaError) Unwrap() error { return schemaChanged(e.Table) }

// buffer writes w's ops into the session's transaction.
func (ec *execCtx) buffer(ctx context.Context, w *writeSet, stats *kv.Stats) error {
	ec.txn.noteWrite(w.t)
	if err := ec.txn.charge(opsSize(w.ops)); err != nil {
		return err
	}
	if err := writeErr(ec.txn.kv.Write(ctx, kv.Batch{Ops: w.ops, Stats: stats, Fresh: ec.txn.freshTable(w.t)}), w); err != nil {
		return err
	}
	stats.AddWriteOps(w.ops)
	return nil
}

// commitAll commits the write sets of one change to several tables (the
// leaves of a partitioned table): in a transaction every set is written
// before the foreign keys of any are checked or acted on, so that a row an
// UPDATE moves to another partition is there when the keys referencing it
// follow it, and a referencing row is checked against referenced rows the
// statement moved. Errors are finishWrite's for the set that failed.
func (ec *execCtx) commitAll(ctx context.Context, sets []*writeSet, stats *kv.Stats) error {
	if ec.txn == nil {
		for _, w := range sets {
			if err := ec.commit(ctx, w, stats); err != nil {
				return finishWrite(w.t, err)
			}
		}
		return nil
	}
	var written []*writeSet
	for _, w := range sets {
		switch {
		case w.err != nil:
			return w.err
		case w.dup != nil:
			return w.dup
		case len(w.ops) == 0:
			continue
		}
		if err := ec.ex.widenZBounds(ctx, w.t, nil, w.newRows()); err != nil {
			return err
		}
		if err := ec.buffer(ctx, w, stats); err != nil {
			return finishWrite(w.t, err)
		}
		written = append(written, w)
	}
	for _, w := range written {
		if err := ec.enforceReferences(ctx, w, stats); err != nil {
			return finishWrite(w.t, err)
		}
	}
	return nil
}

// opsSize estimates the memory a transaction's buffer holds for ops
// (kv/kvtxn): a tree node and the encoded key per op, and per attribute
// its name, its value and a few bytes of encoding.
func opsSize(ops []kv.Op) int64 {
	n := int64(0)
	for i := range ops {
		op := &ops[i]
		n += 112 + int64(len(op.Key.Partition)+len(op.Key.Sort))
		for j := range op.Attrs {
			a := &op.Attrs[j]
			n += 12 + int64(len(a.Name)+len(a.S)+len(a.B))
		}
	}
	return n
}

// writeErr turns a failed write condition into a conflictError naming the
// op, and gives other store errors their SQLSTATE.
func writeErr(err error, w *writeSet) error {
	var cf *kv.ConditionFailedError
	if errors.As(err, &cf) {
		return &conflictError{op: w.ops[cf.Index], t: w.t}
	}
	if err != nil {
		return txnErr(err)
	}
	return nil
}

// ClassifyError gives store failures a SQLSTATE through
// pgerr.ClassifyAs: a transaction conflict is 40001 and an unreachable or
// throttled store 08006 (the client may retry either), a canceled
// statement 57014, anything else 58030.
func ClassifyError(err error) error {
	if err == nil {
		return nil
	}
	var ce *kv.ConflictError
	if errors.As(err, &ce) && pgerr.As(err) == nil && ce.ReadWrite {
		// A serializable transaction read what another one wrote and
		// committed first (backward validation): PostgreSQL's words for
		// its serializable failures.
		e := pgerr.ClassifyAs(readWriteFailure{err}, pgerr.SerializationFailure, "")
		if ce.Reason != "" {
			e.Detail = strings.ToUpper(ce.Reason[:1]) + ce.Reason[1:] + "."
		}
		return e.WithHint("The transaction might succeed if retried.")
	}
	if errors.As(err, &ce) && pgerr.As(err) == nil {
		// A transaction lost to a concurrent one (first committer wins),
		// worded as PostgreSQL words it.
		return pgerr.Wrap(err, pgerr.SerializationFailure, "could not serialize access due to concurrent update").
			WithHint("Retry the transaction.")
	}
	return pgerr.ClassifyAs(err, pgerr.IOError, "store error")
}

// readWriteFailure is a serializable transaction's *kv.ConflictError
// worded as PostgreSQL words its serialization failures, without the
// store's prefix.
type readWriteFailure struct{ err error }

func (f readWriteFailure) Error() string {
	return "could not serialize access due to read/write dependencies among transactions"
}

// SQLState implements pgerr.SQLStater.
func (f readWriteFailure) SQLState() string { return pgerr.SerializationFailure.String() }

// Unwrap gives the *kv.ConflictError to errors.As.
func (f readWriteFailure) Unwrap() error { return f.err }

// finishWrite turns what is left of a write conflict into a client error:
// an existing key is 23505; a race lost too often is 40001.
func finishWrite(t *catalog.Table, err error) error {
	var ce *conflictError
	if !errors.As(err, &ce) {
		return err
	}
	if ce.t != nil {
		t = ce.t // a write of a referential action, to another table
	}
	if ce.op.Cond == kv.CondNotExists {
		if ix := indexOfOp(t, ce.op); ix != nil {
			return uniqueViolation(t, ix, ce.op.Attrs)
		}
		return duplicateKey(t, ce.op.Attrs)
	}
	return pgerr.New(pgerr.SerializationFailure, "could not serialize access due to concurrent update").
		WithHint("Retry the statement.")
}

func duplicateKey(t *catalog.Table, attrs []kv.Attr) error {
	row := make([]sqltypes.Value, len(t.Columns))
	_ = t.DecodeRow(attrs, row)
	return pgerr.New(pgerr.UniqueViolation, "duplicate key value violates unique constraint %q", t.PrimaryKeyName()).
		WithValues(keyDetail(t, keyCols(t.PrimaryKey), row, "Key %s already exists."))
}

// checkRow enforces NOT NULL, and the constraints of the columns'
// domains: a value a statement assigns was cast to the domain, which
// checked it, but a column left out (NULL, or a default), a COPY's value
// or a referential action's NULL were not. CHECKs added NOT VALID are
// left to the casts, as a row's values assigned before them need not
// pass them.
func checkRow(t *catalog.Table, row []sqltypes.Value) error {
	for i, c := range t.Columns {
		if c.Type.Domain != nil {
			if err := sqltypes.CheckDomain(c.Type, row[i], false); err != nil {
				return err
			}
		}
		// A partitioned table's rows are checked in the partition they
		// route to (which names it, and may have NOT NULLs of its own).
		if c.NotNull && row[i].IsNull() && !t.IsPartitioned() {
			return pgerr.New(pgerr.NotNullViolation, "null value in column %q of relation %q violates not-null constraint", c.Name, t.Name).
				WithValues(rowDetail(t, row))
		}
	}
	return nil
}

// current is a row as stored now, with its version. expired marks a row
// of a table with a TTL that has expired but is still stored: invisible to
// the statement, but in the way of a write of its key.
type current struct {
	row     []sqltypes.Value
	version kv.Attr
	expired bool
}

// readCurrent reads the rows at the given keys with a consistent batched
// get; missing keys are absent from the map (keyed by sort key).
func (ec *execCtx) readCurrent(ctx context.Context, t *catalog.Table, keys []kv.Key, stats *kv.Stats) (map[string]current, error) {
	out := make(map[string]current, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	items, err := ec.kv.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true, Stats: stats})
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
		out[string(keys[i].Sort)] = current{row: row, version: catalog.RowVersion(it.Attrs), expired: t.Expired(row, ec.eval.Now)}
	}
	return out, nil
}

// evalRow computes a full row from one expression per column, cast to the
// column types, and enforces NOT NULL.
func evalRow(t *catalog.Table, exprs []ir.Expr, ev *ir.EvalContext, in []sqltypes.Value) ([]sqltypes.Value, error) {
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

// WriteResult is what a write statement did: the rows it changed and the
// RETURNING rows, if it has a RETURNING list.
type WriteResult struct {
	Count     int64
	Returning [][]sqltypes.Value
	// From, set by an upsert, is the index in the rows it was given of
	// each row it inserted or updated (of each RETURNING row).
	From []int
}

// Write executes an INSERT, UPDATE or DELETE plan.
func (e *Executor) Write(ctx context.Context, plan *optimizer.Plan, params []sqltypes.Value, opts RunOptions) (WriteResult, error) {
	if w, ok := plan.Root.(optimizer.Write); ok {
		if err := notRewriting(w.Target()); err != nil {
			return WriteResult{}, err
		}
	}
	cons := writeConstraints(plan.Root)
	if err := actionTablesWritable(cons); err != nil {
		return WriteResult{}, err
	}
	if cons != nil && cons.Txn && opts.Txn == nil {
		return e.writeInOwnTxn(ctx, plan, params, opts)
	}
	ec := e.newExecCtx(ctx, params, opts)
	defer ec.finish()
	if err := ec.runWrites(ctx, plan.Writes, opts); err != nil {
		return WriteResult{}, err
	}
	return ec.write(ctx, plan, opts)
}

// write runs one INSERT, UPDATE or DELETE plan.
func (ec *execCtx) write(ctx context.Context, plan *optimizer.Plan, opts RunOptions) (WriteResult, error) {
	// Each write (the statement's and its WITH queries') has its own
	// constraints.
	ec.cons = writeConstraints(plan.Root)
	res, err := ec.writeRoot(ctx, plan, opts)
	if err == nil {
		// Behind the write's own AFTER triggers, those of the rows its
		// referential actions changed.
		err = ec.fireActionEvents()
	}
	ec.actionEvents, ec.actionStmts = nil, nil
	if err != nil {
		return WriteResult{}, err
	}
	return res, nil
}

// writeRoot runs the write at the plan's root.
func (ec *execCtx) writeRoot(ctx context.Context, plan *optimizer.Plan, opts RunOptions) (WriteResult, error) {
	switch n := plan.Root.(type) {
	case *optimizer.Insert:
		return ec.insert(ctx, n, opts.KV)
	case *optimizer.Update:
		res, err := ec.update(ctx, n, opts.KV)
		for _, h := range n.Heirs {
			res, err = ec.heirWrite(res, err, h, func() (WriteResult, error) { return ec.update(ctx, h, opts.KV) })
		}
		return res, err
	case *optimizer.Delete:
		res, err := ec.delete(ctx, n, opts.KV)
		for _, h := range n.Heirs {
			res, err = ec.heirWrite(res, err, h, func() (WriteResult, error) { return ec.delete(ctx, h, opts.KV) })
		}
		return res, err
	case *optimizer.Merge:
		return ec.merge(ctx, n, opts.KV)
	}
	return WriteResult{}, pgerr.New(pgerr.InternalError, "executor: %T is not a write", plan.Root)
}

// heirWrite runs the UPDATE or DELETE of a table inheriting from the
// statement's target (run), after those before it (res, err), with its
// own constraints; its counts and RETURNING rows follow theirs.
func (ec *execCtx) heirWrite(res WriteResult, err error, h optimizer.Write, run func() (WriteResult, error)) (WriteResult, error) {
	if err != nil {
		return res, err
	}
	if err := notRewriting(h.Target()); err != nil {
		return WriteResult{}, err
	}
	cons := ec.cons
	ec.cons, ec.inHeir = h.WriteConstraints(), true
	r, err := run()
	ec.cons, ec.inHeir = cons, false
	if err != nil {
		return WriteResult{}, err
	}
	res.Count += r.Count
	res.Returning = append(res.Returning, r.Returning...)
	return res, nil
}

// hiddenRowID returns the ordinal of a table's hidden row id, or -1.
func hiddenRowID(t *catalog.Table) int {
	if len(t.PrimaryKey) == 1 && t.Columns[t.PrimaryKey[0].Column].Hidden {
		return t.PrimaryKey[0].Column
	}
	return -1
}

// returningRow evaluates a RETURNING list over row.
// changeReturning is RETURNING's row for an UPDATE or DELETE change: the
// new row (the old one for a delete) followed by the FROM items' columns.
func (ec *execCtx) changeReturning(r *ir.Returning, c change, extra []sqltypes.Value) ([]sqltypes.Value, error) {
	base := c.new
	if base == nil {
		base = c.old
	}
	return ec.returningRow(r, append(copyRow(base), extra...))
}

func (ec *execCtx) returningRow(r *ir.Returning, row []sqltypes.Value) ([]sqltypes.Value, error) {
	out := make([]sqltypes.Value, len(r.Exprs))
	for i, x := range r.Exprs {
		v, err := x.Eval(ec.eval, row)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// castRow converts a source row, which the caller owns, to the table's
// column types in place and enforces NOT NULL.
func (ec *execCtx) castRow(t *catalog.Table, row []sqltypes.Value) error {
	for i := range t.Columns {
		v, err := sqltypes.Cast(row[i], t.Columns[i].Type)
		if err != nil {
			return err
		}
		row[i] = v
	}
	if err := ec.generate(t, row); err != nil {
		return err
	}
	return checkRow(t, row[:len(t.Columns)])
}

// sourceRows runs a write's source plan and keeps its rows.
func (ec *execCtx) sourceRows(ctx context.Context, src optimizer.Node) ([][]sqltypes.Value, error) {
	in, err := ec.build(ctx, src)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	var rows [][]sqltypes.Value
	var slab []sqltypes.Value // rows are carved from it, 64 at a time
	err = drain(ctx, in, func(row []sqltypes.Value) error {
		n := len(row)
		if len(slab) < n {
			slab = make([]sqltypes.Value, 64*n)
		}
		kept := slab[:n:n]
		slab = slab[n:]
		copy(kept, row)
		rows = append(rows, kept)
		return nil
	})
	return rows, err
}

func (ec *execCtx) insert(ctx context.Context, n *optimizer.Insert, stats *kv.Stats) (WriteResult, error) {
	t := n.Table
	if t.InsteadOf != nil {
		return ec.insteadInsert(ctx, n)
	}
	if err := ec.beforeStatement(t, "INSERT", n.OnConflict != nil && !n.OnConflict.DoNothing); err != nil {
		return WriteResult{}, err
	}
	src, err := ec.sourceRows(ctx, n.Source)
	if err != nil {
		return WriteResult{}, err
	}
	ps := n.Constraints.PartitionsOf()
	var leaves []*catalog.Table // each row's leaf, of a partitioned t
	rows := src[:0]             // cast in place: sourceRows copied them
	for _, row := range src {
		if err := ec.castRow(t, row); err != nil {
			return WriteResult{}, err
		}
		row = row[:len(t.Columns):len(t.Columns)]
		if n.OnConflict != nil && (len(t.Triggers) > 0 || ps != nil) {
			// ON CONFLICT fires each row's BEFORE triggers as it
			// decides the row (upsert, of the row's leaf).
			rows = append(rows, row)
			continue
		}
		bt := t
		if ps != nil {
			// The row fires the BEFORE triggers of its leaf.
			if bt, err = ps.Route(row); err != nil {
				return WriteResult{}, err
			}
			row, err = ec.fireLeafBefore(ps, bt, "INSERT", nil, nil, row)
		} else {
			row, err = ec.fireBefore(t, "INSERT", nil, nil, row)
		}
		if err != nil || row == nil {
			if err != nil {
				return WriteResult{}, err
			}
			continue // a BEFORE trigger skipped the row
		}
		if err := ec.checkConstraints(bt, row); err != nil {
			return WriteResult{}, err
		}
		rows = append(rows, row)
		leaves = append(leaves, bt)
	}
	if ps != nil {
		ec.leafEvents = nil
		res, err := ec.insertPartitioned(ctx, n, ps, rows, stats)
		if err != nil {
			return WriteResult{}, err
		}
		// The leaves' AFTER ROW triggers fire in row order, then the
		// partitioned table's AFTER STATEMENT triggers.
		if n.OnConflict != nil {
			evs := ec.leafEvents
			ec.leafEvents = nil
			slices.SortStableFunc(evs, func(a, b leafEvent) int { return a.from - b.from })
			if err := ec.fireLeafAfter(evs, n.OnConflict.Set); err != nil {
				return WriteResult{}, err
			}
			events := make([]string, len(evs))
			for i, e := range evs {
				events[i] = e.event
			}
			err = ec.afterUpsertStatement(t, n, leafChanges(evs, ""), events)
		} else {
			evs := make([]leafEvent, len(rows))
			for i, row := range rows {
				evs[i] = leafEvent{leaf: leaves[i], event: "INSERT", c: change{new: row}}
			}
			if err = ec.fireLeafAfter(evs, nil); err == nil {
				err = ec.fireStatement(t, "INSERT", "AFTER", changesOf(rows)...)
			}
		}
		if err != nil {
			return WriteResult{}, err
		}
		return res, nil
	}
	return ec.insertRows(ctx, n, t, rows, n.Returning, stats)
}

// insertRows writes an INSERT's rows, cast and checked, into table t
// (the statement's target or one of its partitions) and evaluates
// returning over them.
func (ec *execCtx) insertRows(ctx context.Context, n *optimizer.Insert, t *catalog.Table, rows [][]sqltypes.Value, returning *ir.Returning, stats *kv.Stats) (WriteResult, error) {
	var err error
	var res WriteResult
	if n.OnConflict == nil {
		// Uniqueness is the store's condition on each row put: no read.
		rowID := hiddenRowID(t)
		for attempt := 0; ; attempt++ {
			// Sized up front: a 500-row statement with two indexes is 1,500
			// ops, which growing by append copied over and over.
			w := &writeSet{t: t, ops: make([]kv.Op, 0, len(rows)*(1+len(t.Indexes))), changes: make([]change, 0, len(rows))}
			seen := newKeySet(len(rows))
			dup := false
			for _, row := range rows {
				key := w.encoder().RowKey(row)
				if seen.add(key.Sort) {
					dup = true
					if rowID < 0 {
						_, err := ec.storedBefore(ctx, ec.kv, w, len(w.ops), duplicateKey(t, t.RowAttrs(row, 0)), stats)
						return WriteResult{}, err
					}
				}
				w.add(change{new: row, newKey: key})
			}
			switch {
			case w.dup != nil:
				_, err := ec.storedBefore(ctx, ec.kv, w, w.dupAt, w.dup, stats)
				return WriteResult{}, err
			case !dup:
				err = ec.commit(ctx, w, stats)
			}
			var ce *conflictError
			if rowID >= 0 && (dup || errors.As(err, &ce) && ce.op.Cond == kv.CondNotExists && indexOfOp(t, ce.op) == nil) && attempt < 3 {
				// A row id met one another proxy drew (rare): draw new ones.
				for _, row := range rows {
					row[rowID] = sqltypes.NewInt(catalog.NextRowID())
				}
				continue
			}
			break
		}
		var ce *conflictError
		if t.TTL != nil && errors.As(err, &ce) && ce.op.Cond == kv.CondNotExists {
			// The key may hold an expired row not yet removed: read the
			// keys and replace such rows. Every row is inserted (or the
			// statement fails), and fires the AFTER INSERT triggers as
			// below (upsert fires ON CONFLICT's alone; the BEFORE ROW
			// triggers have fired).
			res, err := ec.upsert(ctx, n, rows, stats)
			if err != nil {
				return WriteResult{}, err
			}
			if err := ec.afterInsert(t, rows); err != nil {
				return WriteResult{}, err
			}
			return res, nil
		}
		if err != nil {
			return WriteResult{}, finishWrite(t, err)
		}
		res.Count = int64(len(rows))
		if err := ec.afterInsert(t, rows); err != nil {
			return WriteResult{}, err
		}
		if returning != nil {
			for _, row := range rows {
				r, err := ec.returningRow(returning, row)
				if err != nil {
					return WriteResult{}, err
				}
				res.Returning = append(res.Returning, r)
			}
		}
		return res, nil
	}
	return ec.upsert(ctx, n, rows, stats)
}

// upsert executes INSERT ... ON CONFLICT: it reads the rows the statement
// collides with on its arbiters (the conflict target's unique keys),
// decides per row, and writes with conditions on what it read; a
// concurrent insert or update of one of those rows makes it read again and
// decide again.
func (ec *execCtx) upsert(ctx context.Context, ins *optimizer.Insert, rows [][]sqltypes.Value, stats *kv.Stats) (WriteResult, error) {
	ev := ec.eval
	t := ins.Table
	// A plain INSERT comes here when a key it writes into a table with a
	// TTL is taken: by an expired row, which it replaces, or not (23505).
	keys := allUniqueKeys(t)
	if ins.OnConflict != nil {
		keys = ins.OnConflict.Arbiters
	}
	keys, excl, err := ec.exclusionArbiters(t, keys)
	if err != nil {
		return WriteResult{}, err
	}
	arb := newArbiters(t, keys)
	if len(keys) == 0 && len(excl) > 0 {
		arb = &arbiters{t: t} // only exclusion constraints arbitrate
	}
	// With triggers, each row's BEFORE INSERT triggers fire as the row is
	// decided, and its arbiter keys are read after them (the statement
	// runs in a transaction: no retries).
	trig := ins.OnConflict != nil && len(t.Triggers) > 0
	for attempt := 0; ; attempt++ {
		var cur map[string]current
		var err error
		if trig {
			cur = map[string]current{}
		} else if cur, err = ec.readArbiters(ctx, arb, rows, stats); err != nil {
			return WriteResult{}, err
		}
		w := &writeSet{t: t}
		var events []string // each change's event, for the AFTER triggers
		var from []int      // each change's row in rows
		// pks are the primary keys the statement's changes so far hold
		// (true) or gave up (false), for DO UPDATE moving a row.
		pks := map[string]bool{}
		touched := map[string]bool{}
		if ec.touched != nil {
			// Rows an earlier upsert of the statement affected
			// (insertLeaves).
			if ec.touched[t.ID] == nil {
				ec.touched[t.ID] = map[string]bool{}
			}
			touched = ec.touched[t.ID]
		}
		var accepted [][]sqltypes.Value // rows DO NOTHING inserts, for its exclusion arbiters
		for i, row := range rows {
			if trig {
				if row, err = ec.upsertBefore(ctx, arb, cur, row, stats); err != nil {
					return WriteResult{}, err
				}
				if row == nil {
					continue // a BEFORE trigger skipped the row
				}
			}
			old, by, exists := arb.find(cur, row)
			if !exists && len(excl) > 0 {
				conflict, err := ec.exclusionConflict(ctx, t, excl, row, accepted, stats)
				if err != nil {
					return WriteResult{}, err
				}
				if conflict {
					continue // DO NOTHING (only DO NOTHING has exclusion arbiters)
				}
				accepted = append(accepted, row)
			}
			k := string(t.EncodePK(nil, row))
			if exists {
				k = string(t.EncodePK(nil, old.row))
			}
			switch {
			case !exists:
				w.add(change{new: row})
				events, from = append(events, "INSERT"), append(from, i)
				arb.record(cur, current{row: row, version: kv.Attr{Name: catalog.VersionAttr, Kind: kv.AttrInt, I: 1}})
			case old.expired:
				// An expired row still stored: the insert replaces it.
				w.add(change{old: old.row, new: row, oldVersion: old.version})
				events, from = append(events, "INSERT"), append(from, i)
				arb.record(cur, current{row: row, version: kv.Attr{Name: catalog.VersionAttr, Kind: kv.AttrInt, I: old.version.I + 1}})
			case ins.OnConflict == nil:
				if by != nil {
					return WriteResult{}, uniqueViolation(t, by, t.EntryAttrs(by, row))
				}
				return WriteResult{}, duplicateKey(t, t.RowAttrs(row, 0))
			case ins.OnConflict.DoNothing:
				continue
			case touched[k]:
				return WriteResult{}, pgerr.New(pgerr.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
					WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
			case t.Mutability == catalog.ImmutableRows:
				return WriteResult{}, immutable(t)
			default:
				both := append(copyRow(old.row), row...)
				if w := ins.OnConflict.Where; w != nil {
					ok, err := w.Eval(ev, both)
					if err != nil {
						return WriteResult{}, err
					}
					if !ir.Truthy(ok) {
						// DO UPDATE ... WHERE false: neither inserted nor
						// updated (nor touched: a later proposal of the key
						// may still update it, as in PostgreSQL).
						continue
					}
				}
				updated := copyRow(old.row)
				for col, x := range ins.OnConflict.Set {
					v, err := x.Eval(ev, both)
					if err != nil {
						return WriteResult{}, err
					}
					if updated[col], err = sqltypes.Cast(v, t.Columns[col].Type); err != nil {
						return WriteResult{}, err
					}
				}
				if err := ec.generate(t, updated); err != nil {
					return WriteResult{}, err
				}
				if trig {
					if updated, err = ec.fireBefore(t, "UPDATE", ins.OnConflict.Set, old.row, updated); err != nil {
						return WriteResult{}, err
					}
					if updated == nil {
						continue // a BEFORE UPDATE trigger skipped it
					}
				}
				if ps := ec.cons.PartitionsOf(); ps != nil && !ps.Holds(t, updated) {
					return WriteResult{}, pgerr.New(pgerr.FeatureNotSupported, "invalid ON UPDATE specification").
						WithDetail("The result tuple would appear in a different partition than the original tuple.")
				}
				if err := checkRow(t, updated); err != nil {
					return WriteResult{}, err
				}
				if err := ec.checkConstraints(t, updated); err != nil {
					return WriteResult{}, err
				}
				if nk := string(t.EncodePK(nil, updated)); nk != k {
					// DO UPDATE moves the row to another primary key, as
					// PostgreSQL's may: the key must be free, of the rows
					// stored (but those the statement moved away) and of
					// those it wrote; the row holds it from now on.
					if err := ec.keyFree(ctx, t, updated, nk, pks, stats); err != nil {
						return WriteResult{}, err
					}
					pks[k], pks[nk] = false, true
					arb.record(cur, current{row: updated, version: kv.Attr{Name: catalog.VersionAttr, Kind: kv.AttrInt, I: 1}})
					touched[nk] = true
				}
				w.add(change{old: old.row, new: updated, oldVersion: old.version})
				events, from = append(events, "UPDATE"), append(from, i)
			}
			touched[k] = true
			if _, ok := pks[k]; !ok {
				pks[k] = true
			}
		}
		err = ec.commit(ctx, w, stats)
		var ce *conflictError
		if errors.As(err, &ce) && ec.txn == nil && attempt < maxConflictRetries && (ce.op.Cond == kv.CondAttrEquals || arb.covers(ce.op)) {
			continue // a row changed or appeared since it was read
		}
		if err != nil {
			return WriteResult{}, finishWrite(t, err)
		}
		switch {
		case ec.routedLeaf(t):
			// A leaf of the partitioned table the statement writes: its
			// AFTER triggers fire in the statement's row order
			// (ec.insert).
			for i, c := range w.changes {
				ec.leafEvents = append(ec.leafEvents, leafEvent{leaf: t, event: events[i], c: c, from: from[i]})
			}
		case trig:
			if err := ec.afterUpsert(t, ins, w.changes, events); err != nil {
				return WriteResult{}, err
			}
		}
		res := WriteResult{Count: int64(len(w.changes)), From: from}
		if ins.Returning != nil {
			for _, c := range w.changes {
				r, err := ec.returningRow(ins.Returning, c.new)
				if err != nil {
					return WriteResult{}, err
				}
				res.Returning = append(res.Returning, r)
			}
		}
		return res, nil
	}
}

// keyFree checks that primary key pk (row's, encoded) is free for an
// upsert's DO UPDATE to move a row to: not held by a change of the
// statement (pks: true held, false given up) nor by a stored row the
// statement did not move away (23505).
func (ec *execCtx) keyFree(ctx context.Context, t *catalog.Table, row []sqltypes.Value, pk string, pks map[string]bool, stats *kv.Stats) error {
	held, known := pks[pk]
	if !known {
		key := t.RowKey(row)
		cur, err := ec.readCurrent(ctx, t, []kv.Key{key}, stats)
		if err != nil {
			return err
		}
		c, ok := cur[string(key.Sort)]
		held = ok && !c.expired
	}
	if held {
		return duplicateKey(t, t.RowAttrs(row, 0))
	}
	return nil
}

func immutable(t *catalog.Table) error {
	return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot update rows of table %q: it is declared WITH (mutability = 'immutable_rows')", t.Name).
		WithHint("Delete and re-insert the row, or create the table as mutable.")
}

// target is one row an UPDATE or DELETE found: its key and the whole
// source row (the old table row, then the columns of FROM/USING tables).
type target struct {
	key kv.Key
	src []sqltypes.Value
}

// targets runs a write's source plan and returns each table row it finds
// once (with a FROM list, PostgreSQL too changes a row once whichever of
// its joined rows comes first).
func (ec *execCtx) targets(ctx context.Context, t *catalog.Table, src optimizer.Node) ([]target, error) {
	if s, ok := src.(*optimizer.Scan); ok && s.Method == optimizer.PointGet && !s.Dynamic && s.Index == nil {
		// The keys are known: the versioned read that follows is the only
		// read these rows need.
		out := make([]target, len(s.Points))
		for i, p := range s.Points {
			out[i] = target{key: kv.Key{Partition: t.Partition(t.RowShard(p)), Sort: p}}
		}
		return out, nil
	}
	in, err := ec.build(ctx, src)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	var out []target
	seen := map[string]bool{}
	w := len(t.Columns)
	err = drain(ctx, in, func(row []sqltypes.Value) error {
		k := t.RowKey(row[:w])
		if seen[string(k.Sort)] {
			return nil
		}
		seen[string(k.Sort)] = true
		var src []sqltypes.Value
		if len(row) > w {
			src = copyRow(row)
		}
		out = append(out, target{key: k, src: src})
		return nil
	})
	return out, err
}

// modify is the common loop of UPDATE and DELETE: find the target rows
// through the source plan, read their current versions, keep those that
// still pass the recheck (the WHERE conjuncts on the table itself), turn
// each into a change, and write conditionally on the versions read,
// retrying rows a concurrent statement changed first.
func (ec *execCtx) modify(ctx context.Context, t *catalog.Table, src optimizer.Node, recheck ir.Expr, ret *ir.Returning, stats *kv.Stats,
	mk func(rt *catalog.Table, old current, extra []sqltypes.Value) (change, error)) (WriteResult, error) {
	if ps := ec.cons.PartitionsOf(); ps != nil && ps.Root == t {
		return ec.modifyPartitioned(ctx, ps, src, recheck, ret, stats, mk)
	}
	tgts, err := ec.targets(ctx, t, src)
	if err != nil {
		return WriteResult{}, err
	}
	w := len(t.Columns)
	for attempt := 0; ; attempt++ {
		keys := make([]kv.Key, len(tgts))
		for i, tg := range tgts {
			keys[i] = tg.key
		}
		cur, err := ec.readCurrent(ctx, t, keys, stats)
		if err != nil {
			return WriteResult{}, err
		}
		ws := &writeSet{t: t}
		var outRows [][]sqltypes.Value
		newKeys := map[string]bool{}
		for _, tg := range tgts {
			old, ok := cur[string(tg.key.Sort)]
			if !ok || old.expired {
				continue // deleted, moved or expired since the scan
			}
			c, extra, ok, err := ec.targetChange(t, tg, w, old, recheck, mk)
			if err != nil {
				return WriteResult{}, err
			}
			if !ok {
				continue
			}
			if c.new != nil {
				// Two rows updated onto one key: PostgreSQL's unique check
				// fails the statement.
				nk := string(t.EncodePK(nil, c.new))
				if newKeys[nk] {
					return WriteResult{}, duplicateKey(t, t.RowAttrs(c.new, 0))
				}
				newKeys[nk] = true
			}
			ws.add(c)
			if ret != nil {
				r, err := ec.changeReturning(ret, c, extra)
				if err != nil {
					return WriteResult{}, err
				}
				outRows = append(outRows, r)
			}
		}
		err = ec.commit(ctx, ws, stats)
		if lostRace(err) && ec.txn == nil && attempt < maxConflictRetries {
			continue // a row changed since it was read: read again, recheck
		}
		if err != nil {
			return WriteResult{}, finishWrite(t, err)
		}
		ec.changed = ws.changes // for the AFTER triggers
		return WriteResult{Count: int64(len(ws.changes)), Returning: outRows}, nil
	}
}

// targetChange turns one target row an UPDATE or DELETE found in table
// rt (the target, or the leaf of a partitioned target holding it), as
// read now (old), into its change; ok is false for a row to leave alone: one
// that another statement changed so that it no longer passes the
// recheck, or one a BEFORE trigger skipped. extra are the source row's
// FROM/USING columns (after its first w, the table row's).
func (ec *execCtx) targetChange(rt *catalog.Table, tg target, w int, old current, recheck ir.Expr,
	mk func(rt *catalog.Table, old current, extra []sqltypes.Value) (change, error)) (c change, extra []sqltypes.Value, ok bool, err error) {
	if recheck != nil {
		v, err := recheck.Eval(ec.eval, old.row)
		if err != nil || !ir.Truthy(v) {
			return change{}, nil, false, err
		}
	}
	if tg.src != nil {
		extra = tg.src[w:]
	}
	if c, err = mk(rt, old, extra); err != nil {
		return change{}, nil, false, err
	}
	return c, extra, c.old != nil || c.new != nil, nil
}

func (ec *execCtx) update(ctx context.Context, u *optimizer.Update, stats *kv.Stats) (WriteResult, error) {
	t := u.Table
	if t.InsteadOf != nil {
		if len(u.Shared) > 0 {
			return WriteResult{}, pgerr.New(pgerr.FeatureNotSupported, "a multiple-column assignment from a sub-SELECT is not supported on a view with INSTEAD OF triggers")
		}
		return ec.insteadModify(ctx, t, "UPDATE", u.Source, u.Set, u.Returning)
	}
	if t.Mutability == catalog.ImmutableRows {
		return WriteResult{}, immutable(t)
	}
	if err := ec.beforeStatement(t, "UPDATE", false); err != nil {
		return WriteResult{}, err
	}
	res, err := ec.modify(ctx, t, u.Source, u.Recheck, u.Returning, stats, func(rt *catalog.Table, old current, extra []sqltypes.Value) (change, error) {
		in := old.row
		if extra != nil {
			in = append(copyRow(old.row), extra...)
		}
		if len(u.Shared) > 0 {
			// Each computed once for the row, read by Set after it.
			in = append(make([]sqltypes.Value, 0, len(in)+len(u.Shared)), in...)
			for _, x := range u.Shared {
				v, err := x.Eval(ec.eval, in)
				if err != nil {
					return change{}, err
				}
				in = append(in, v)
			}
		}
		row := copyRow(old.row)
		for col, x := range u.Set {
			v, err := x.Eval(ec.eval, in)
			if err != nil {
				return change{}, err
			}
			if row[col], err = sqltypes.Cast(v, t.Columns[col].Type); err != nil {
				return change{}, err
			}
		}
		if err := ec.generate(t, row); err != nil {
			return change{}, err
		}
		// The BEFORE triggers are those of the table holding the row
		// (a partition's, when t is partitioned); its constraints,
		// those of the partition the new row routes to (modifyPartitioned).
		row, err := ec.fireBefore(rt, "UPDATE", u.Set, old.row, row)
		if err != nil || row == nil {
			return change{}, err
		}
		if err := checkRow(t, row); err != nil {
			return change{}, err
		}
		if err := ec.checkConstraints(t, row); err != nil {
			return change{}, err
		}
		return change{old: old.row, new: row, oldVersion: old.version}, nil
	})
	return ec.afterModify(t, "UPDATE", u.Set, res, err)
}

func (ec *execCtx) delete(ctx context.Context, d *optimizer.Delete, stats *kv.Stats) (WriteResult, error) {
	if d.Table.InsteadOf != nil {
		return ec.insteadModify(ctx, d.Table, "DELETE", d.Source, nil, d.Returning)
	}
	if err := ec.beforeStatement(d.Table, "DELETE", false); err != nil {
		return WriteResult{}, err
	}
	res, err := ec.modify(ctx, d.Table, d.Source, d.Recheck, d.Returning, stats, func(rt *catalog.Table, old current, _ []sqltypes.Value) (change, error) {
		if row, err := ec.fireBefore(rt, "DELETE", nil, old.row, nil); err != nil || row == nil {
			return change{}, err
		}
		return change{old: old.row, oldVersion: old.version}, nil
	})
	return ec.afterModify(d.Table, "DELETE", nil, res, err)
}
