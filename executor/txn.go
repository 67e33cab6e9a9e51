package executor

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/memacct"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
)

// Txn is a transaction as the executor runs statements in it: a kv.Txn,
// which gives atomicity and snapshot isolation, plus the bookkeeping that
// keeps its writes consistent with the schema.
//
// The schema rule: a transaction commits only if every table it wrote still
// has the descriptor revision its statements planned with. Statements
// buffer their writes (rows and index entries for the indexes the plan
// knew) and commit later, possibly after another session published a new
// index, column or constraint that those writes do not maintain; such a
// commit fails with 40001 and the client retries against the new schema.
// In this process the check runs under the executor's Gate, which index
// builds take exclusively after publishing a change; on a shared store the
// transaction also reads and share-locks each written table's descriptor,
// so a change by another proxy between the check and the commit point
// makes the commit fail (first committer wins).
//
// A Txn serializes its calls into the kv.Txn (which is not safe for
// concurrent use) so that a statement's parallel shard scans and an open
// cursor can share it.
type Txn struct {
	ex *Executor
	kv *lockedTxn
	// readOnly transactions take no locks and write nothing.
	readOnly bool

	mu sync.Mutex
	// wrote maps each written table's name to the descriptor revision its
	// writes planned with.
	wrote map[string]uint64
	// failedSchema names a table written under two different revisions.
	failedSchema string
	// marks remember, at each savepoint, wrote and how many after-commit
	// actions there were, so rolling back to one forgets the tables
	// written and the schema changes' leftovers after it.
	marks map[kv.Savepoint]txnMark
	// deferred are the constraint checks waiting for COMMIT, and modes
	// what SET CONSTRAINTS chose (constraints.go).
	deferred []deferredCheck
	modes    constraintModes
	// queued numbers the deferred checks (deferredCheck.seq), so rolling
	// back to a savepoint drops those queued after it.
	queued uint64

	// mem is the session's memory account (nil: none), charged for the
	// writes the transaction buffers until its end (memHeld).
	mem     *memacct.Account
	memHeld int64

	// schema is the catalog the block's schema changes go through
	// (catalog.Catalog.Block), nil until its first; base is the store's
	// catalog it was made from.
	schema, base *catalog.Catalog
	// after are what the block's schema changes left to do once it has
	// committed (ddlblock.go).
	after []afterCommit
}

// txnMark is what a Txn remembers at a savepoint.
type txnMark struct {
	wrote map[string]uint64
	after int
	// queued is Txn.queued at the savepoint.
	queued uint64
	// locks is how many row locks the transaction had recorded
	// (rowLocks.count).
	locks int
}

// SetMemAccount charges the transaction's buffered writes to a session's
// account from now on, until it commits or rolls back.
func (t *Txn) SetMemAccount(a *memacct.Account) { t.mem = a }

// charge takes n bytes of buffered writes from the session's account.
func (t *Txn) charge(n int64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.mem.Grow(n, "the transaction's pending writes"); err != nil {
		return err
	}
	t.memHeld += n
	return nil
}

// release gives the buffered writes' memory back and the row locks the
// transaction recorded (rowlocks.go): it ended.
func (t *Txn) release() {
	t.ex.locks.release(t)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.mem.Shrink(t.memHeld)
	t.memHeld = 0
}

// Begin starts a transaction. The store must implement kv.Transactional
// (both backends do).
func (e *Executor) Begin(ctx context.Context, readOnly bool, stats *kv.Stats) (*Txn, error) {
	return e.begin(ctx, kv.TxnOptions{ReadOnly: readOnly, Stats: stats})
}

// BeginWith starts a transaction with opts: a serializable one
// (kv.TxnOptions.Serializable) on a store that has them, else 0A000.
func (e *Executor) BeginWith(ctx context.Context, opts kv.TxnOptions) (*Txn, error) {
	return e.begin(ctx, opts)
}

// BeginOnSnapshot begins a transaction on the snapshot another open
// transaction exported under name (Txn.ExportSnapshot): PostgreSQL's SET
// TRANSACTION SNAPSHOT, with its errors.
func (e *Executor) BeginOnSnapshot(ctx context.Context, readOnly, serializable bool, name string) (*Txn, error) {
	t, err := e.begin(ctx, kv.TxnOptions{ReadOnly: readOnly, Serializable: serializable, Snapshot: name})
	switch {
	case errors.Is(err, kv.ErrUnknownSnapshot):
		return nil, pgerr.New(pgerr.InvalidParameterValue, "invalid snapshot identifier: %q", name)
	case errors.Is(err, kv.ErrSnapshotReadOnly):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "a read-write transaction cannot import the snapshot of a read-only transaction on this store").
			WithHint("Import it with SET TRANSACTION READ ONLY, or export it from a read-write transaction.")
	}
	return t, err
}

func (e *Executor) begin(ctx context.Context, opts kv.TxnOptions) (*Txn, error) {
	ts, ok := e.Store.(kv.Transactional)
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "the %s store has no transactions", e.Caps.Name)
	}
	t, err := ts.Begin(ctx, opts)
	if errors.Is(err, kv.ErrUnknownSnapshot) || errors.Is(err, kv.ErrSnapshotReadOnly) {
		return nil, err
	}
	if errors.Is(err, kv.ErrSerializableUnsupported) {
		return nil, SerializableUnsupported(e.Caps.Name)
	}
	if err != nil {
		return nil, txnErr(err)
	}
	return &Txn{ex: e, kv: &lockedTxn{txn: t}, readOnly: opts.ReadOnly, wrote: map[string]uint64{}}, nil
}

// SerializableUnsupported is the error for SERIALIZABLE on a store whose
// transactions are snapshot isolation only (kv.Capabilities.Serializable
// unset): refused rather than silently weakened, since write skew would
// be possible.
func SerializableUnsupported(store string) error {
	return pgerr.New(pgerr.FeatureNotSupported, "SERIALIZABLE isolation is not supported on the %s store", store).
		WithDetail("Its transactions run at snapshot isolation (REPEATABLE READ): write skew is possible.").
		WithHint("Use REPEATABLE READ, and SELECT ... FOR UPDATE on the rows a decision reads.")
}

// ExportSnapshot names the transaction's snapshot for other transactions
// to begin on while it is open (pg_export_snapshot).
func (t *Txn) ExportSnapshot() (string, error) {
	t.kv.mu.Lock()
	defer t.kv.mu.Unlock()
	name, err := kv.ExportSnapshot(t.kv.txn)
	if errors.Is(err, kv.ErrSnapshotsUnsupported) {
		return "", pgerr.New(pgerr.FeatureNotSupported, "the %s store cannot export a transaction's snapshot", t.ex.Caps.Name).
			WithDetail("It keeps no old versions of rows for another transaction to read.").
			WithHint("Run pg_dump without -j, or with --no-synchronized-snapshots.")
	}
	if err != nil {
		return "", txnErr(err)
	}
	return name, nil
}

// ReadOnly reports whether the transaction was begun read-only.
func (t *Txn) ReadOnly() bool { return t.readOnly }

// noteWrite records that a statement wrote table tbl with its descriptor.
func (t *Txn) noteWrite(tbl *catalog.Table) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := writtenKey(tbl)
	if rev, ok := t.wrote[key]; ok && rev != tbl.Revision && t.failedSchema == "" {
		t.failedSchema = tbl.Name
	}
	t.wrote[key] = tbl.Revision
}

// tempWritten prefixes a temporary table's name among the written tables:
// it may share its name with a permanent table, and only this session can
// change its schema, so no other proxy's descriptor needs locking.
const tempWritten = "pg_temp."

func writtenKey(tbl *catalog.Table) string {
	if tbl.Temp {
		return tempWritten + tbl.Name
	}
	return tbl.Name
}

// Savepoint marks the transaction's writes so far.
func (t *Txn) Savepoint() kv.Savepoint {
	sp := t.kv.Savepoint()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.marks == nil {
		t.marks = map[kv.Savepoint]txnMark{}
	}
	t.marks[sp] = txnMark{wrote: maps.Clone(t.wrote), after: len(t.after), queued: t.queued, locks: t.ex.locks.count(t)}
	return sp
}

// RollbackTo discards the writes made after sp.
func (t *Txn) RollbackTo(sp kv.Savepoint) error {
	if err := t.kv.RollbackTo(sp); err != nil {
		return txnErr(err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if m, ok := t.marks[sp]; ok {
		t.wrote = maps.Clone(m.wrote)
		// The schema changes made after sp are undone with its writes,
		// and with them what they left for after the commit.
		t.after = t.after[:m.after]
		// The checks and constraint triggers the undone writes queued go
		// with them, as PostgreSQL's deferred events of an aborted
		// subtransaction.
		t.deferred = slices.DeleteFunc(t.deferred, func(d deferredCheck) bool { return d.seq >= m.queued })
		// So do the row locks taken after sp, as PostgreSQL's rolled-back
		// subtransaction's (rowlocks.go).
		t.ex.locks.releaseAfter(t, m.locks)
	}
	for s := range t.marks {
		if s > sp {
			delete(t.marks, s)
		}
	}
	if t.schema != nil {
		t.schema.Forget()
	}
	return nil
}

// Release forgets sp and the savepoints after it, keeping their writes.
func (t *Txn) Release(sp kv.Savepoint) error {
	if err := t.kv.Release(sp); err != nil {
		return txnErr(err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for s := range t.marks {
		if s >= sp {
			delete(t.marks, s)
		}
	}
	return nil
}

// Commit applies the transaction's writes, all or none. current is the
// schema as of now (taken by the caller under the Gate, which it holds
// until Commit returns); a table written under another revision fails the
// commit with 40001. A caller that held the Gate since the transaction's
// first write passes nil. After Commit, whatever it returns, the transaction is
// over.
func (t *Txn) Commit(ctx context.Context, current *catalog.Snapshot) error {
	defer t.release()
	defer t.kv.Rollback()
	t.mu.Lock()
	wrote, failed := t.wrote, t.failedSchema
	t.mu.Unlock()
	var wroteTables []string
	if t.schema.Changed() {
		// The block changed the schema: its writes planned with its own
		// schema, and Seal fails the commit if a change since touched one
		// of the tables they wrote (or anything else the block depends
		// on), so the per-table revision rule has nothing to add.
		for key := range wrote {
			if !strings.HasPrefix(key, tempWritten) {
				wroteTables = append(wroteTables, key)
			}
		}
		wrote, failed, current = nil, "", nil
	}
	if failed != "" {
		return schemaChanged(failed)
	}
	if err := t.runDeferred(ctx, nil); err != nil {
		return err
	}
	release, err := t.schema.Seal(ctx, wroteTables)
	if err != nil {
		return txnErr(err)
	}
	defer release()
	if current != nil {
		for key, rev := range wrote {
			name, temp := strings.CutPrefix(key, tempWritten)
			snap := current
			if !temp {
				snap = current.Permanent()
			}
			tbl, err := snap.Table(name)
			if err != nil || tbl.Temp != temp || tbl.Revision != rev {
				return schemaChanged(name)
			}
		}
	}
	if !t.ex.Caps.Exclusive && len(wrote) > 0 {
		if err := lockDescriptors(ctx, t.kv, wrote); err != nil {
			return err
		}
	}
	if err := t.kv.Commit(ctx); err != nil {
		return txnErr(err)
	}
	return nil
}

// lockDescriptors reads the written tables' descriptors through kv
// transaction txn and share-locks them: the commit then fails if another
// proxy changes one before the commit point. wrote maps the tables'
// writtenKey to the revisions their writes planned with.
func lockDescriptors(ctx context.Context, txn kv.Txn, wrote map[string]uint64) error {
	keys := make([]kv.Key, 0, len(wrote))
	names := make([]string, 0, len(wrote))
	for name := range wrote {
		if strings.HasPrefix(name, tempWritten) {
			continue
		}
		keys = append(keys, catalog.DescriptorKey(name))
		names = append(names, name)
	}
	if len(keys) == 0 {
		return nil
	}
	items, err := txn.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true})
	if err != nil {
		return txnErr(err)
	}
	if err := txn.Lock(ctx, keys, kv.LockShare); err != nil {
		return txnErr(err)
	}
	for i, it := range items {
		rev, ok, err := catalog.DescriptorRevision(it)
		if err != nil {
			return err
		}
		if !ok || rev != wrote[names[i]] {
			return schemaChanged(names[i])
		}
	}
	return nil
}

// Rollback abandons the transaction; it is safe to call more than once.
func (t *Txn) Rollback() {
	_ = t.kv.Rollback()
	t.release()
}

func schemaChanged(table string) error {
	return pgerr.New(pgerr.SerializationFailure, "could not serialize access: the schema of table %q changed during the transaction", table).
		WithHint("Retry the transaction.")
}

// txnErr gives a transaction's store error its SQLSTATE, as ClassifyError
// does, and a used-up transaction 25P02.
func txnErr(err error) error {
	if errors.Is(err, kv.ErrTxnDone) {
		return pgerr.Wrap(err, pgerr.InFailedSQLTransaction, "the transaction has already ended")
	}
	return ClassifyError(err)
}

// lockedTxn makes a kv.Txn safe for the executor's concurrent use: every
// call, iterators' included, holds one mutex.
type lockedTxn struct {
	mu  sync.Mutex
	txn kv.Txn
}

var _ kv.ReadWriter = (*lockedTxn)(nil)

func (l *lockedTxn) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.txn.Get(ctx, req)
}

func (l *lockedTxn) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	l.mu.Lock()
	defer l.mu.Unlock()
	return &lockedIter{mu: &l.mu, it: l.txn.Scan(ctx, req)}
}

func (l *lockedTxn) Write(ctx context.Context, b kv.Batch) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.txn.Write(ctx, b)
}

func (l *lockedTxn) Lock(ctx context.Context, keys []kv.Key, mode kv.LockMode) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.txn.Lock(ctx, keys, mode)
}

func (l *lockedTxn) Savepoint() kv.Savepoint {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.txn.Savepoint()
}

func (l *lockedTxn) RollbackTo(sp kv.Savepoint) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.txn.RollbackTo(sp)
}

func (l *lockedTxn) Release(sp kv.Savepoint) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.txn.Release(sp)
}

func (l *lockedTxn) Commit(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.txn.Commit(ctx)
}

func (l *lockedTxn) Rollback() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.txn.Rollback()
}

// lockedIter holds its transaction's mutex in every call.
type lockedIter struct {
	mu *sync.Mutex
	it kv.Iterator
}

func (i *lockedIter) Next() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.it.Next()
}

// Item is only read by the caller between its own Next calls, so it needs
// no lock of its own; taking one keeps the race detector's view simple.
func (i *lockedIter) Item() kv.Item {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.it.Item()
}

func (i *lockedIter) Seek(sort []byte) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.it.Seek(sort)
}

func (i *lockedIter) Prefetch() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	return kv.Prefetch(i.it)
}

func (i *lockedIter) Err() error {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.it.Err()
}

func (i *lockedIter) Close() error {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.it.Close()
}

// lockBatch is how many row keys a locking read hands the transaction at
// once.
const lockBatch = 100

// lockingRows takes a SELECT ... FOR UPDATE / FOR SHARE's locks on the
// rows of one table as they pass: the table row at offset in each row
// (the scan's own row, or a lookup join's inner row). Locks make no store
// request (they are checked when the transaction commits), so batching
// only saves calls. Each row is recorded in the proxy's table of held
// locks as it passes (rowlocks.go), where SKIP LOCKED leaves out, and
// NOWAIT fails on, a row another open transaction holds.
type lockingRows struct {
	in     Rows
	ex     *Executor
	txn    *Txn // nil outside a block: the policy is only checked
	table  *catalog.Table
	offset int
	// keys, when set, are the row's columns holding the primary key's
	// (optimizer.LockRows, above a sort), in place of the table row at
	// offset; keyRow is the table-wide row they are copied into.
	keys    []int
	keyRow  []sqltypes.Value
	mode    kv.LockMode
	policy  ir.LockStrength // ir.LockNoWait, ir.LockSkipLocked or 0
	pending []kv.Key
}

func lockModeOf(s ir.LockStrength) kv.LockMode {
	if s.Strength() == ir.LockShare {
		return kv.LockShare
	}
	return kv.LockUpdate
}

// lockRows wraps in when the statement locks. Outside a transaction block a
// lock would end with the statement, so there is nothing to take, but
// SKIP LOCKED and NOWAIT still see the locks other transactions hold.
func (ec *execCtx) lockRows(in Rows, t *catalog.Table, offset int, s ir.LockStrength) Rows {
	policy := s &^ s.Strength()
	if s == ir.LockNone || ec.txn == nil && policy == 0 {
		return in
	}
	return &lockingRows{in: in, ex: ec.ex, txn: ec.txn, table: t, offset: offset, mode: lockModeOf(s), policy: policy}
}

// lockKeyedRows is lockRows for rows holding the table's primary key at
// the columns keys (optimizer.LockRows).
func (ec *execCtx) lockKeyedRows(in Rows, t *catalog.Table, keys []int, s ir.LockStrength) Rows {
	r := ec.lockRows(in, t, 0, s)
	if l, ok := r.(*lockingRows); ok {
		l.keys, l.keyRow = keys, make([]sqltypes.Value, len(t.Columns))
	}
	return r
}

// tableRow is the part of row naming the locked table's row (nil for
// none): the table row at offset, or one holding the key's columns.
func (l *lockingRows) tableRow(row []sqltypes.Value) []sqltypes.Value {
	if l.keys != nil {
		for i, k := range l.table.PrimaryKey {
			l.keyRow[k.Column] = row[l.keys[i]]
		}
		return l.keyRow
	}
	end := l.offset + len(l.table.Columns)
	if end > len(row) {
		return nil // a semi or anti join yields no inner row
	}
	return row[l.offset:end]
}

func (l *lockingRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for {
		row, ok, err := l.in.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			return nil, false, l.flush(ctx)
		}
		tr := l.tableRow(row)
		if tr == nil || tr[l.table.PrimaryKey[0].Column].IsNull() { // an outer join's missing row
			return row, true, nil
		}
		key := l.table.RowKey(tr)
		if !l.ex.locks.take(key, l.txn, l.mode, l.policy != 0) {
			if l.policy == ir.LockSkipLocked {
				continue
			}
			return nil, false, pgerr.New(pgerr.LockNotAvailable, "could not obtain lock on row in relation %q", l.table.Name)
		}
		if l.txn == nil {
			return row, true, nil
		}
		l.pending = append(l.pending, key)
		if len(l.pending) >= lockBatch {
			if err := l.flush(ctx); err != nil {
				return nil, false, err
			}
		}
		return row, true, nil
	}
}

func (l *lockingRows) flush(ctx context.Context) error {
	if len(l.pending) == 0 {
		return nil
	}
	err := l.txn.kv.Lock(ctx, l.pending, l.mode)
	l.pending = l.pending[:0]
	return txnErr(err)
}

// Close takes the locks of rows already returned: a client that stops
// reading early (a portal's row limit) still holds the rows it saw.
func (l *lockingRows) Close() {
	if l.txn != nil {
		_ = l.flush(context.Background())
	}
	l.in.Close()
}

// KV is the transaction's reads and writes of the store, for what the
// session keeps beside rows: large objects (catalog/largeobjects.go).
func (t *Txn) KV() kv.ReadWriter { return t.kv }
