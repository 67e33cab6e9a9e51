package executor

import (
	"context"
	"errors"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/memacct"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// BulkInsert writes a stream of rows into one table: COPY FROM's insert
// path. Each row is formed as INSERT forms it (the statement's column
// expressions over the copied values: defaults, coercions), checked (NOT
// NULL, CHECK constraints) and turned into its row and index writes;
// uniqueness (primary key and unique constraints) is the store's condition
// on each put, as for INSERT, plus a check against the earlier rows of the
// same stream. A table with foreign keys is copied in a transaction (the
// session's, or one of the BulkInsert's own), where each batch's
// referenced rows are read and locked as INSERT does. Either all of the rows are stored
// or none is: a bad row, a duplicate key or an abandoned COPY leaves
// nothing behind.
//
// How the rows become atomic depends on where the statement runs:
//
//   - in a session's transaction (BulkOptions.Txn): every batch is
//     written into it as it comes, and the session's COMMIT commits them;
//   - otherwise, on a store whose atomic batches have no size limit
//     (Pebble): the writes are kept and Commit applies them as one atomic
//     batch, as any INSERT statement on that store (the cheapest atomic
//     way: no transaction buffer to maintain). A store that takes such a
//     batch piece by piece (kv.BulkWriter) keeps each batch of rows'
//     writes encoded as they come, about their stored size, and nothing
//     else of the rows;
//   - otherwise (DynamoDB): in a transaction of its own (kv.Txn), which
//     Commit commits.
type BulkInsert struct {
	// started: the BEFORE STATEMENT triggers have fired (start).
	started bool
	// inserted are the rows so far when keepsInserted: the table's AFTER
	// ROW triggers fire at Commit, on every row, as PostgreSQL queues them
	// to the end of the statement (an AFTER ROW trigger sees all the
	// COPY's rows), and a transition table holds them all. They are
	// charged to the session (keptHeld).
	inserted [][]sqltypes.Value
	// leafAfter are the AFTER ROW events of the rows so far of a
	// partitioned table's leaves, fired at Commit likewise.
	leafAfter []leafEvent
	ex        *Executor
	t         *catalog.Table
	exprs     []ir.Expr // one per table column, over the copied values ($n)
	ev        *ir.EvalContext
	txn       kv.Txn
	own       bool // txn was begun here: Commit commits it
	rowID     int  // the hidden row id's column, or -1
	stats     *kv.Stats
	rows      int64 // rows added so far
	done      bool

	// For the single atomic batch: the writes so far, and the row (by
	// number) each row key was written for, to find duplicates within
	// the stream, which one batch's conditions cannot see.
	w    *writeSet
	seen map[string]int64

	// bulk is the single atomic batch on a kv.BulkWriter (then w and
	// seen are unused): scratch forms each Add's ops, and every row
	// writes opsPerRow of them, so an op's number names its row. added
	// counts the ops in bulk.
	bulk      kv.Bulk
	scratch   *writeSet
	opsPerRow int
	added     int

	// mem is the session's account, charged memHeld for the batch's
	// memory (bulk or w) until Commit or Rollback; writes into a
	// transaction are charged to the transaction (Txn.charge).
	mem         *memacct.Account
	memHeld     int64
	keptHeld    int64 // what the rows kept for AFTER triggers were charged
	lastOpsSize int64

	// ec evaluates the table's CHECK constraints and, through txn (then
	// set), checks its foreign keys; etxn is the transaction of the
	// BulkInsert's own that a table with foreign keys is copied in
	// outside a transaction block.
	ec   *execCtx
	etxn *Txn
}

// BulkOptions configures a BulkInsert.
type BulkOptions struct {
	// Txn is the session's transaction the rows join; nil: BulkInsert
	// makes its own rows atomic.
	Txn *Txn
	// Run holds the statement's store statistics (KV) and what built-in
	// functions (defaults) see (Fn).
	Run RunOptions
	// Mem is the session's memory account, charged for the rows' pending
	// writes (nil: not counted).
	Mem *memacct.Account
}

// BulkRowError is an error about one row: Row is its number in the stream
// (0 for the first row given to Add).
type BulkRowError struct {
	Row int64
	// Formed says the row was refused as it was formed (NOT NULL, a bad
	// default), before any write; otherwise the store refused it (a
	// duplicate key).
	Formed bool
	Err    error
}

func (e *BulkRowError) Error() string { return e.Err.Error() }

// Unwrap returns the row's error.
func (e *BulkRowError) Unwrap() error { return e.Err }

// NewBulkInsert prepares the rows of plan, an INSERT of one row of
// parameters ($1..$n: the copied columns), for Add. The caller holds
// Gate shared from before it bound the statement until Commit or Rollback,
// as for any write.
func (e *Executor) NewBulkInsert(ctx context.Context, plan *optimizer.Plan, opts BulkOptions) (*BulkInsert, error) {
	ins, ok := plan.Root.(*optimizer.Insert)
	if !ok || ins.OnConflict != nil || ins.Returning != nil {
		return nil, pgerr.New(pgerr.InternalError, "executor: bulk insert needs a plain INSERT plan")
	}
	vals, ok := ins.Source.(*optimizer.Values)
	if !ok || len(vals.Rows) != 1 {
		return nil, pgerr.New(pgerr.InternalError, "executor: bulk insert needs INSERT ... VALUES of one row")
	}
	if err := actionTablesWritable(ins.Constraints); err != nil {
		return nil, err
	}
	b := &BulkInsert{ex: e, t: ins.Table, exprs: vals.Rows[0], rowID: hiddenRowID(ins.Table), stats: opts.Run.KV, mem: opts.Mem}
	b.ec = e.newExecCtx(ctx, nil, opts.Run)
	b.ec.cons = ins.Constraints
	b.ev = b.ec.eval
	if opts.Txn == nil && (ins.Constraints != nil && ins.Constraints.Txn || len(ins.Table.Triggers) > 0) {
		// Foreign keys are checked, and their referenced rows locked, in
		// a transaction: outside a block, one of the COPY's own.
		txn, err := e.Begin(ctx, false, opts.Run.KV)
		if err != nil {
			return nil, err
		}
		txn.SetMemAccount(opts.Mem)
		b.etxn, opts.Txn = txn, txn
	}
	switch {
	case opts.Txn != nil:
		if opts.Txn.readOnly {
			return nil, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute COPY FROM in a read-only transaction")
		}
		if ins.Table.InsteadOf == nil {
			opts.Txn.noteWrite(ins.Table)
		}
		b.txn = opts.Txn.kv
		b.ec.txn, b.ec.kv = opts.Txn, opts.Txn.kv
	case e.Caps.MaxAtomicOps <= 0 && isBulkWriter(e.Store):
		b.bulk = e.Store.(kv.BulkWriter).NewBulk()
		b.scratch = &writeSet{t: b.t, ops: make([]kv.Op, 0, 4096*(1+len(b.t.Indexes))), changes: make([]change, 0, 4096)}
		b.opsPerRow = 1 + len(b.t.Indexes)
	case e.Caps.MaxAtomicOps <= 0:
		b.w = &writeSet{t: b.t, ops: make([]kv.Op, 0, 1<<14)}
		b.seen = map[string]int64{}
	default:
		ts, ok := e.Store.(kv.Transactional)
		if !ok {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY FROM needs a store with transactions")
		}
		txn, err := ts.Begin(ctx, kv.TxnOptions{Stats: opts.Run.KV})
		if err != nil {
			return nil, ClassifyError(err)
		}
		b.txn, b.own = txn, true
	}
	return b, nil
}

// start fires the COPY's BEFORE STATEMENT triggers, once, before its
// first row (not when it is set up: the session hands the triggers the
// COPY's transaction in between).
func (b *BulkInsert) start() error {
	if b.started {
		return nil
	}
	b.started = true
	return b.ec.beforeStatement(b.t, "INSERT", false)
}

// Txn is the transaction the rows are written in (the block's, or one of
// the COPY's own; nil when none), which its triggers' writes join.
func (b *BulkInsert) Txn() *Txn { return b.ec.txn }

// Add forms, checks and writes (or keeps) a batch of rows, each the values
// of the copied columns. An error about one row is a *BulkRowError; after
// any error the BulkInsert is done (Rollback it).
func (b *BulkInsert) Add(ctx context.Context, rows [][]sqltypes.Value) error {
	if b.done {
		return pgerr.New(pgerr.InternalError, "executor: bulk insert is over")
	}
	if err := b.start(); err != nil {
		b.done = true
		return err
	}
	full, err := b.form(rows)
	if err == nil && b.t.InsteadOf != nil {
		// A view's INSTEAD OF INSERT triggers take the rows.
		full, err = b.ec.insteadRows(b.t, full)
		b.rows += int64(len(full))
	}
	if err != nil || b.t.InsteadOf != nil {
		b.done = err != nil
		return err
	}
	switch {
	case b.bulk != nil:
		err = b.keepBulk(ctx, full)
	case b.w != nil:
		err = b.keep(ctx, full)
	case b.ec.cons.PartitionsOf() != nil:
		err = b.writePartitioned(ctx, b.ec.cons.PartitionsOf(), full)
	default:
		err = b.writeTxn(ctx, b.t, full, b.rows)
		if err == nil && keepsInserted(b.t) {
			err = b.keepInserted(full)
		}
	}
	if err == nil && b.txn != nil {
		err = b.chargeTxn()
	}
	if err == nil && b.ec.cons.PartitionsOf() == nil {
		// The rows (with any row ids redrawn) commit later, at Commit or
		// the transaction's: the Z-order bounds must hold them first.
		err = b.ex.widenZBounds(ctx, b.t, nil, full)
	}
	if err != nil {
		b.done = true
		return err
	}
	b.rows += int64(len(full))
	return ctx.Err()
}

// form evaluates the column expressions over each row's values, casts to
// the column types and checks NOT NULL.
func (b *BulkInsert) form(rows [][]sqltypes.Value) ([][]sqltypes.Value, error) {
	t := b.t
	full := make([][]sqltypes.Value, 0, len(rows))
	slab := make([]sqltypes.Value, len(rows)*len(b.exprs))
	for i, in := range rows {
		b.ev.Params = in
		row := slab[i*len(b.exprs) : (i+1)*len(b.exprs) : (i+1)*len(b.exprs)]
		for c, x := range b.exprs {
			v, err := x.Eval(b.ev, nil)
			if err == nil {
				v, err = sqltypes.Cast(v, t.Columns[c].Type)
			}
			if err != nil {
				return nil, &BulkRowError{Row: b.rows + int64(i), Formed: true, Err: err}
			}
			row[c] = v
		}
		if err := b.ec.generate(t, row); err != nil {
			return nil, &BulkRowError{Row: b.rows + int64(i), Formed: true, Err: err}
		}
		if err := checkRow(t, row); err != nil {
			return nil, &BulkRowError{Row: b.rows + int64(i), Formed: true, Err: err}
		}
		var fired []sqltypes.Value
		var err error
		if ps := b.ec.cons.PartitionsOf(); ps != nil {
			// The BEFORE triggers of the leaf the row routes to.
			leaf, err := ps.Route(row)
			if err == nil {
				fired, err = b.ec.fireLeafBefore(ps, leaf, "INSERT", nil, nil, row)
			}
			if err != nil {
				return nil, &BulkRowError{Row: b.rows + int64(i), Formed: true, Err: err}
			}
		} else if fired, err = b.ec.fireBefore(t, "INSERT", nil, nil, row); err != nil {
			return nil, &BulkRowError{Row: b.rows + int64(i), Formed: true, Err: err}
		}
		if fired == nil {
			continue // a BEFORE trigger skipped the row
		}
		row = fired
		if err := b.ec.checkConstraints(t, row); err != nil {
			return nil, &BulkRowError{Row: b.rows + int64(i), Formed: true, Err: err}
		}
		full = append(full, row)
	}
	return full, nil
}

// keep adds the rows' writes to the single batch, refusing a row whose key
// an earlier row of the stream has (or an earlier row whose key is stored
// already: storedBefore).
func (b *BulkInsert) keep(ctx context.Context, full [][]sqltypes.Value) error {
	t := b.t
	for i, row := range full {
		n := b.rows + int64(i)
		var key kv.Key
		for {
			key = t.RowKey(row)
			if _, dup := b.seen[string(key.Sort)]; !dup {
				b.seen[string(key.Sort)] = n
				break
			}
			if b.rowID < 0 {
				return b.firstDuplicate(ctx, b.ex.Store, b.w, len(b.w.ops), 0, n, duplicateKey(t, t.RowAttrs(row, 0)))
			}
			// A row id met one already drawn (rare): draw again.
			row[b.rowID] = sqltypes.NewInt(catalog.NextRowID())
		}
		b.w.add(change{new: row, newKey: key})
		if b.w.dup != nil { // a unique value an earlier row of the stream has
			return b.firstDuplicate(ctx, b.ex.Store, b.w, b.w.dupAt, 0, n, b.w.dup)
		}
	}
	// The ops hold what the batch needs; the rows themselves can go.
	clear(b.w.changes)
	b.w.changes = b.w.changes[:0]
	return nil
}

// keepBulk adds the rows' writes to the bulk batch. A repeated key (of a
// row or a unique entry) within the stream fails the row at once; one
// that is stored already is found at Commit, or here when the stream
// repeats a key too, so that the error is the first failing row's, as
// with INSERTs one by one.
func (b *BulkInsert) keepBulk(ctx context.Context, full [][]sqltypes.Value) error {
	w := b.scratch
	for from := 0; from < len(full); {
		w.ops, w.changes, w.groups, w.uniq, w.dup = w.ops[:0], w.changes[:0], w.groups[:0], nil, nil
		if w.enc != nil {
			// The bulk batch retains nothing of the ops it was given
			// (kv.Bulk.Add): the last batch's keys and attributes are
			// garbage, and this batch's are cut from the same memory.
			w.enc.Reset()
		}
		dupRow := -1
		for i, row := range full[from:] {
			w.add(change{new: row})
			if w.dup != nil { // a unique value an earlier row of the batch has
				dupRow = from + i
				break
			}
		}
		clear(w.changes)
		ops := w.ops
		if dupRow >= 0 {
			// The rows before it go in, so that one of them whose key is
			// stored is found first.
			ops = w.ops[:w.dupAt]
		} else if len(ops) != (len(full)-from)*b.opsPerRow {
			return pgerr.New(pgerr.InternalError, "executor: bulk insert: %d writes for %d rows", len(ops), len(full)-from)
		}
		err := b.bulk.Add(ops)
		var cf *kv.ConditionFailedError
		if !errors.As(err, &cf) {
			if err != nil {
				return ClassifyError(err)
			}
			b.added += len(ops)
			if dupRow >= 0 {
				return b.bulkDuplicate(ctx, b.rows+int64(dupRow), w.dup)
			}
			break
		}
		// The ops before the failed one are in; the failed op's row and
		// those after it are not.
		local := cf.Index - b.added
		row := from + local/b.opsPerRow
		b.added += local
		if b.rowID >= 0 && local%b.opsPerRow == 0 {
			// A row id met one already drawn (rare): draw again
			// and add the rest.
			full[row][b.rowID] = sqltypes.NewInt(catalog.NextRowID())
			from = row
			continue
		}
		op := w.ops[local]
		return b.bulkDuplicate(ctx, b.rows+int64(row), finishWrite(b.t, &conflictError{op: op, t: b.t}))
	}
	return b.chargeBulk()
}

// bulkDuplicate is the error of row n, which repeats a unique key of an
// earlier row of the stream (dup), or of an earlier row whose key is
// stored already.
func (b *BulkInsert) bulkDuplicate(ctx context.Context, n int64, dup error) error {
	if b.t.TTL == nil { // (expired rows' keys are free: see storedBefore)
		first, err := b.bulk.FirstStored(ctx)
		if err != nil {
			return ClassifyError(err)
		}
		if first >= 0 && int64(first/b.opsPerRow) < n {
			return &BulkRowError{Row: int64(first / b.opsPerRow), Err: b.bulkOpError(first)}
		}
	}
	return &BulkRowError{Row: n, Err: dup}
}

// bulkOpError is the error of the bulk batch's op i, whose key is stored.
func (b *BulkInsert) bulkOpError(i int) error {
	op, ok := b.bulk.Op(i)
	if !ok {
		return pgerr.New(pgerr.InternalError, "executor: bulk insert: no write %d", i)
	}
	return finishWrite(b.t, &conflictError{op: op, t: b.t})
}

// chargeBulk charges the session for what the bulk batch grew by.
func (b *BulkInsert) chargeBulk() error {
	size := b.bulk.Size()
	if err := b.mem.Grow(size-b.memHeld, "COPY's pending writes"); err != nil {
		return err
	}
	b.memHeld = max(size, b.memHeld)
	return nil
}

// chargeTxn charges the transaction (or, for the BulkInsert's own
// kv.Txn, the session) for the writes of the rows added last, whose size
// writeTxn left in lastOpsSize.
func (b *BulkInsert) chargeTxn() error {
	n := b.lastOpsSize
	b.lastOpsSize = 0
	if b.ec.txn != nil {
		return b.ec.txn.charge(n)
	}
	if err := b.mem.Grow(n, "COPY's pending writes"); err != nil {
		return err
	}
	b.memHeld += n
	return nil
}

// isBulkWriter reports whether the store takes bulk batches.
func isBulkWriter(s kv.Store) bool {
	_, ok := s.(kv.BulkWriter)
	return ok
}

// writeTxn writes the rows into table t (the target or one of its
// partitions) in the transaction; base is the number of the first row.
func (b *BulkInsert) writeTxn(ctx context.Context, t *catalog.Table, full [][]sqltypes.Value, base int64) error {
	for attempt := 0; ; attempt++ {
		w := &writeSet{t: t, ops: make([]kv.Op, 0, len(full)*(1+len(t.Indexes))),
			groups: make([]int, 0, len(full)), changes: make([]change, 0, len(full))}
		for i, row := range full {
			w.add(change{new: row})
			if w.dup != nil { // a unique value an earlier row of the batch has
				return b.firstDuplicate(ctx, b.txn, w, w.dupAt, base, base+int64(i), w.dup)
			}
		}
		err := b.txn.Write(ctx, kv.Batch{Ops: w.ops, Stats: b.stats, Fresh: b.ec.txn.freshTable(t)})
		if err == nil {
			b.lastOpsSize += opsSize(w.ops)
		}
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) {
			if b.rowID >= 0 && attempt < 3 {
				// A row id met one another proxy drew (rare): draw new
				// ones for the batch, which was not written.
				for _, row := range full {
					row[b.rowID] = sqltypes.NewInt(catalog.NextRowID())
				}
				continue
			}
			return &BulkRowError{Row: base + int64(rowOfOp(w, cf.Index)), Err: finishWrite(t, &conflictError{op: w.ops[cf.Index]})}
		}
		if err != nil {
			return ClassifyError(err)
		}
		if b.ec.txn != nil {
			return b.ec.enforceReferences(ctx, w, b.stats)
		}
		return nil
	}
}

// firstDuplicate is the error of row n, which repeats a unique key of an
// earlier row (dup), or of an earlier row whose key is stored already (see
// storedBefore); w's changes are the rows from number base on, and w held
// upto ops when the repetition was found.
func (b *BulkInsert) firstDuplicate(ctx context.Context, rw kv.ReadWriter, w *writeSet, upto int, base, n int64, dup error) error {
	op, err := b.ec.storedBefore(ctx, rw, w, upto, dup, b.stats)
	if op >= 0 {
		n = base + int64(rowOfOp(w, op))
	}
	return &BulkRowError{Row: n, Err: err}
}

// rowOfOp is the change (row) an op of w belongs to.
func rowOfOp(w *writeSet, op int) int {
	for i := len(w.groups) - 1; i >= 0; i-- {
		if w.groups[i] <= op {
			return i
		}
	}
	return 0
}

// Commit makes the rows durable, all at once, and returns their number.
func (b *BulkInsert) Commit(ctx context.Context) (int64, error) {
	if b.done {
		return 0, pgerr.New(pgerr.InternalError, "executor: bulk insert is over")
	}
	if len(b.t.Triggers) > 0 || len(b.leafAfter) > 0 {
		if err := b.start(); err != nil {
			return 0, err
		}
		changes := changesOf(b.inserted)
		if b.ec.cons.PartitionsOf() == nil {
			if err := b.ec.fireAfter(b.t, "INSERT", nil, changes); err != nil {
				return 0, err
			}
		} else if err := b.ec.fireLeafAfter(b.leafAfter, nil); err != nil {
			return 0, err
		}
		if err := b.ec.fireStatement(b.t, "INSERT", "AFTER", changes...); err != nil {
			return 0, err
		}
	}
	b.done = true
	defer b.releaseMem()
	switch {
	case b.bulk != nil:
		err := b.bulk.Commit(ctx, b.stats)
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) {
			row := &BulkRowError{Row: int64(cf.Index / b.opsPerRow), Err: b.bulkOpError(cf.Index)}
			b.bulk.Close()
			b.bulk = nil
			return 0, row
		}
		b.bulk.Close()
		b.bulk = nil
		if err != nil {
			return 0, ClassifyError(err)
		}
	case b.w != nil:
		// The rows came as fast as the client sent them: another proxy
		// may have begun building an index since the COPY planned.
		if err := b.ec.checkSchemaCurrent(ctx, b.t); err != nil {
			return 0, err
		}
		err := writeErr(b.ex.Store.Write(ctx, kv.Batch{Ops: b.w.ops, Atomic: true, Stats: b.stats}), b.w)
		var ce *conflictError
		if errors.As(err, &ce) {
			row := int64(rowOfOp(b.w, opIndex(b.w, ce.op)))
			return 0, &BulkRowError{Row: row, Err: finishWrite(b.t, err)}
		}
		b.w, b.seen = nil, nil
		if err != nil {
			return 0, err
		}
	case b.own:
		// Another proxy may have begun building an index since the
		// COPY planned (its rows came as fast as the client sent
		// them): the commit fails if the table's schema changed.
		if !b.ex.Caps.Exclusive && !b.t.Temp {
			if err := lockDescriptors(ctx, b.txn, map[string]uint64{writtenKey(b.t): b.t.Revision}); err != nil {
				return 0, err
			}
		}
		if err := b.txn.Commit(ctx); err != nil {
			return 0, ClassifyError(err)
		}
	case b.etxn != nil:
		if err := b.etxn.Commit(ctx, nil); err != nil {
			return 0, err
		}
	}
	return b.rows, nil
}

// opIndex finds op (by key) among w's ops.
func opIndex(w *writeSet, op kv.Op) int {
	for i := range w.ops {
		if string(w.ops[i].Key.Sort) == string(op.Key.Sort) && string(w.ops[i].Key.Partition) == string(op.Key.Partition) {
			return i
		}
	}
	return 0
}

// Rollback abandons the rows (when the BulkInsert makes them atomic
// itself; a session's transaction is the session's to roll back).
func (b *BulkInsert) Rollback() {
	b.done = true
	b.w, b.seen = nil, nil
	if b.bulk != nil {
		b.bulk.Close()
		b.bulk = nil
	}
	b.releaseMem()
	if b.own {
		_ = b.txn.Rollback()
	}
	if b.etxn != nil {
		b.etxn.Rollback()
	}
}

// releaseMem gives back what the batch and the kept rows were charged.
func (b *BulkInsert) releaseMem() {
	b.mem.Shrink(b.memHeld + b.keptHeld)
	b.memHeld, b.keptHeld = 0, 0
}

// keepsInserted reports whether the rows copied into t are kept until
// Commit: an AFTER ROW INSERT trigger fires on each of them then, or a
// transition table holds them.
func keepsInserted(t *catalog.Table) bool {
	return firesAfterRowInsert(t) || hasTransitionTable(t, "INSERT")
}

// firesAfterRowInsert reports whether t has an enabled AFTER ROW INSERT
// trigger.
func firesAfterRowInsert(t *catalog.Table) bool {
	for _, tg := range t.Triggers {
		if tg.Fires("AFTER", "INSERT", true) {
			return true
		}
	}
	return false
}

// keepInserted keeps rows for Commit's AFTER triggers, charged to the
// session: a COPY of millions of rows into a table with such a trigger
// holds them all, and past --session-memory-limit fails with 53200
// rather than exhaust the process.
func (b *BulkInsert) keepInserted(rows [][]sqltypes.Value) error {
	if err := b.chargeKept(rows); err != nil {
		return err
	}
	b.inserted = append(b.inserted, rows...)
	return nil
}

// chargeKept charges the session for rows kept until Commit.
func (b *BulkInsert) chargeKept(rows [][]sqltypes.Value) error {
	var n int64
	for _, r := range rows {
		n += rowSize(r)
	}
	if err := b.mem.Grow(n, "COPY's queued AFTER triggers"); err != nil {
		return err
	}
	b.keptHeld += n
	return nil
}
