package session

import (
	"context"
	"errors"
	"strings"

	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/wire"
)

// Transaction blocks.
//
// BEGIN opens a block (status 'T'); its kv transaction starts at the
// block's first statement, as PostgreSQL takes a REPEATABLE READ snapshot
// at the first statement rather than at BEGIN. Every statement of the
// block reads that snapshot with the block's own writes applied and buffers
// its writes; COMMIT applies them all or none (executor.Txn.Commit);
// ROLLBACK, an error followed by ROLLBACK, or a closed connection discards
// them. An error inside the block puts it in the failed state ('E') until
// ROLLBACK or ROLLBACK TO SAVEPOINT, as in PostgreSQL.
//
// Schema changes inside a block go through the block's own catalog
// (permCatalog, catalog.Catalog.Block): the block's statements see them,
// nobody else does before COMMIT, and ROLLBACK undoes them. What they leave
// to after the commit (building an index online, deleting a dropped
// table's rows) runs once the block has committed (finishSchemaChanges).
// Changes to temporary objects other than creating them are not undone;
// ROLLBACK says so with a WARNING.

// savepoint is one SAVEPOINT of the block.
type savepoint struct {
	name string
	sp   kv.Savepoint
	// temps is how many temporary objects the block had created when
	// the savepoint was taken (tempState.created).
	temps int
	// xactLocks is how many transaction-scoped advisory locks the block
	// held then: rolling back to the savepoint releases the later ones.
	xactLocks int
	// pl, for a nameless savepoint, is the PL/pgSQL exception block it
	// belongs to (plpgsql_utility.go).
	pl *plSubxact
}

// blockTxn returns the block's transaction, beginning it at the block's
// first statement; nil outside a block (each statement then commits on its
// own).
func (s *Session) blockTxn(ctx context.Context) (*executor.Txn, error) {
	if s.txStatus != 'T' {
		return nil, nil
	}
	if s.txn == nil {
		t, err := s.engine.exec.BeginWith(ctx, kv.TxnOptions{ReadOnly: s.readOnly(), Serializable: s.serializable()})
		if err != nil {
			return nil, err
		}
		t.SetMemAccount(s.mem)
		s.txn = t
	}
	return s.txn, nil
}

// serializable reports whether the session's transaction (the open
// block's, or the next statement's outside one) is SERIALIZABLE, which
// isolationLevel accepted only on a store that has it.
func (s *Session) serializable() bool {
	return s.vars["transaction_isolation"] == "serializable"
}

// serializableWrite reports whether a statement outside a block must run
// in a serializable transaction of its own (runInTransaction) rather than
// as an atomic batch: the session's level is SERIALIZABLE and it changes
// rows. A lone write checks only the rows it writes (conditions on their
// versions), but an INSERT ... SELECT, or an UPDATE whose WHERE reads
// other rows, decides on rows it does not write, and so can be one side
// of a write skew with another transaction; its reads must be validated
// at commit as a block's are. A lone query reads one snapshot and needs
// nothing (kv.TxnOptions.Serializable says why).
func (s *Session) serializableWrite(desc ir.Description) bool {
	return desc.Writes && !desc.ChangesSchema && (desc.Class == ir.ClassDML || desc.Class == ir.ClassQuery) && s.serializable()
}

// xactNumber is a session's builtins.XactNumber: the number its open
// transaction drew (0 for none yet), cleared when a block ends and at
// each statement outside one (fnContextWith).
type xactNumber struct{ n uint64 }

var _ builtins.XactNumber = (*xactNumber)(nil)

// Current implements builtins.XactNumber.
func (x *xactNumber) Current(assign func() uint64) uint64 {
	if x.n == 0 {
		x.n = assign()
	}
	return x.n
}

// endBlock forgets the block and its transaction; the settings of SET
// TRANSACTION last until here.
func (s *Session) endBlock() {
	if s.txn != nil {
		s.txn.Rollback()
	}
	// Whatever the block set and did not commit is undone (gucCommit
	// has already settled a committed block's settings).
	s.gucRollbackTo(0)
	s.releaseXactLocks(0)
	s.txn, s.savepoints, s.txDDL = nil, nil, false
	s.xact.n = 0
	s.loDescs = nil // descriptors last for the transaction
	s.temp.created = nil
	s.txStatus = 'I'
	for _, v := range []string{"transaction_read_only", "transaction_isolation", "transaction_deferrable"} {
		s.putVar(v, s.vars["default_"+v])
	}
}

// commitBlock commits the block's transaction under the executor's gate,
// against the schema as of now (see executor.Txn).
func (s *Session) commitBlock(ctx context.Context) error {
	t := s.txn
	if t == nil {
		return nil
	}
	e := s.engine
	e.exec.Gate.RLock()
	defer e.exec.Gate.RUnlock()
	snap, err := s.snapshot(ctx)
	if err != nil {
		return storeErr(err)
	}
	return t.Commit(ctx, snap)
}

// endTransaction ends the open block, committing it when commit is set
// and it has not failed, else rolling it back; it returns the command tag
// PostgreSQL gives (COMMIT of a failed block is ROLLBACK). The session is
// outside any block afterwards, whatever the outcome.
func (s *Session) endTransaction(ctx context.Context, commit bool) (string, error) {
	s.implicit = false
	if !commit || s.txStatus == 'E' {
		if s.txDDL {
			s.notice(&pgerr.Error{Code: pgerr.Warning, Severity: "WARNING",
				Message: "zproxy does not undo changes to temporary objects: what this transaction block changed in temporary tables' and views' definitions was not rolled back"})
		}
		err := s.transactionEnded(false)
		err = errors.Join(err, s.undoTempCreates(ctx, 0))
		s.endBlock()
		return "ROLLBACK", err
	}
	// WITH HOLD cursors are read to their end inside the block; the
	// block's NOTIFYs go out only if it commits.
	err := s.cursorsAtTransactionEnd(s.ext.ctx, true)
	var notifies []outgoing
	if err == nil {
		notifies, err = s.reserveNotifications()
	}
	if err == nil {
		err = s.commitBlock(ctx)
	}
	if err == nil {
		s.gucCommit()
		s.finishSchemaChanges(ctx)
	}
	s.notifyAtTransactionEnd(notifies, err == nil)
	s.endBlock()
	return "COMMIT", err
}

// BeginImplicit implements wire.ImplicitTransactor: the statements of one
// Query message, or of the extended-protocol messages up to a Sync, run in
// one transaction, as PostgreSQL's implicit transaction block, so an error
// in any of them undoes them all. Inside a block it does nothing.
func (s *Session) BeginImplicit() bool {
	if s.txStatus != 'I' {
		return false
	}
	s.txStatus, s.implicit = 'T', true
	return true
}

// EndImplicit implements wire.ImplicitTransactor: the implicit block ends,
// committed when commit is set and nothing in it failed.
func (s *Session) EndImplicit(ctx context.Context, commit bool) error {
	if !s.implicit {
		return nil
	}
	_, err := s.endTransaction(ctx, commit)
	s.transactionDone(ctx)
	return err
}

var _ wire.ImplicitTransactor = (*Session)(nil)

// endAndChain runs COMMIT or ROLLBACK AND CHAIN: the block ends as it
// would, and a new one begins with its characteristics (isolation level,
// read-only and deferrable modes), as in PostgreSQL.
func (st *statement) endAndChain(ctx context.Context, op *ir.TxnOp) (wire.Result, error) {
	s := st.sess
	if s.txStatus == 'I' {
		return nil, pgerr.New(pgerr.NoActiveSQLTransaction, "%s AND CHAIN can only be used in transaction blocks", strings.ToUpper(string(op.Op)))
	}
	modes := map[string]string{}
	for _, v := range []string{"transaction_read_only", "transaction_isolation", "transaction_deferrable"} {
		modes[v] = s.vars[v]
	}
	plain := *op
	plain.Chain = false
	res, err := st.txnControl(ctx, &plain)
	if err != nil {
		return res, err
	}
	s.txStatus = 'T'
	for v, val := range modes {
		s.putVar(v, val)
	}
	return res, nil
}

// txnControl runs BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK TO and
// RELEASE.
func (st *statement) txnControl(ctx context.Context, op *ir.TxnOp) (wire.Result, error) {
	if op.Chain {
		return st.endAndChain(ctx, op)
	}
	s := st.sess
	switch op.Op {
	case ir.TxnBegin:
		tag := "BEGIN"
		if op.Start {
			tag = "START TRANSACTION"
		}
		if s.txStatus != 'I' && !s.implicit {
			s.notice(&pgerr.Error{Code: pgerr.ActiveSQLTransaction, Severity: "WARNING", Message: "there is already a transaction in progress"})
			return tagResult(tag), nil
		}
		level := ""
		if op.Isolation != "" {
			l, err := s.isolationLevel(op.Isolation)
			if err != nil {
				return nil, err
			}
			level = l
		}
		// BEGIN inside an implicit block makes it the explicit block, as
		// PostgreSQL's BeginTransactionBlock does.
		s.implicit = false
		s.txStatus = 'T'
		if op.ReadOnly {
			s.putVar("transaction_read_only", "on")
		}
		if level != "" {
			s.putVar("transaction_isolation", level)
		}
		return tagResult(tag), nil
	case ir.TxnCommit:
		if s.implicit {
			// COMMIT in an implicit block commits it, with PostgreSQL's
			// warning; the statements after it get an implicit block of
			// their own.
			s.notice(&pgerr.Error{Code: pgerr.NoActiveSQLTransaction, Severity: "WARNING", Message: "there is no transaction in progress"})
			tag, err := s.endTransaction(ctx, true)
			s.BeginImplicit()
			return tagResult(tag), err
		}
		if s.txStatus == 'I' {
			s.notice(&pgerr.Error{Code: pgerr.NoActiveSQLTransaction, Severity: "WARNING", Message: "there is no transaction in progress"})
			return tagResult("COMMIT"), nil
		}
		tag, err := s.endTransaction(ctx, true)
		if err != nil && tag == "COMMIT" {
			return nil, err
		}
		return tagResult(tag), err
	case ir.TxnRollback:
		if s.txStatus == 'I' || s.implicit {
			s.notice(&pgerr.Error{Code: pgerr.NoActiveSQLTransaction, Severity: "WARNING", Message: "there is no transaction in progress"})
		}
		implicit := s.implicit
		tag, err := s.endTransaction(ctx, false)
		if implicit {
			s.BeginImplicit()
		}
		return tagResult(tag), err
	}
	// Savepoints.
	if s.txStatus == 'I' {
		return nil, pgerr.New(pgerr.NoActiveSQLTransaction, "%s can only be used in transaction blocks", savepointStmtName(op.Op))
	}
	// The parser folded an unquoted name and kept a quoted one's case.
	name := op.Savepoint
	if op.Op == ir.TxnSavepoint {
		if _, err := s.pushSavepoint(ctx, name); err != nil {
			return nil, err
		}
		return tagResult("SAVEPOINT"), nil
	}
	// The innermost savepoint of that name, as PostgreSQL finds it.
	i := len(s.savepoints) - 1
	for i >= 0 && s.savepoints[i].name != name {
		i--
	}
	if i < 0 {
		return nil, pgerr.New(pgerr.InvalidSavepointSpecification, "savepoint %q does not exist", op.Savepoint)
	}
	if op.Op == ir.TxnRollbackTo {
		if err := s.rollbackToSavepoint(ctx, i); err != nil {
			return nil, err
		}
		s.txStatus = 'T'
		return tagResult("ROLLBACK"), nil
	}
	if err := s.releaseSavepoint(i); err != nil {
		return nil, err
	}
	return tagResult("RELEASE"), nil
}

// pushSavepoint takes a savepoint of the block (SAVEPOINT, or a PL/pgSQL
// exception block's subtransaction) and returns its index in
// s.savepoints.
func (s *Session) pushSavepoint(ctx context.Context, name string) (int, error) {
	t, err := s.blockTxn(ctx)
	if err != nil {
		return 0, err
	}
	s.savepoints = append(s.savepoints, savepoint{name: name, sp: t.Savepoint(), temps: len(s.temp.created), xactLocks: len(s.xactLocks)})
	return len(s.savepoints) - 1, nil
}

// rollbackToSavepoint undoes what the block did since savepoint i: its
// writes and schema changes, the temporary objects it created, the
// settings it made, the advisory locks it took and the large objects it
// opened. The savepoint stays; the later ones go.
func (s *Session) rollbackToSavepoint(ctx context.Context, i int) error {
	sp := s.savepoints[i]
	if err := s.txn.RollbackTo(sp.sp); err != nil {
		return err
	}
	if err := s.undoTempCreates(ctx, sp.temps); err != nil {
		return err
	}
	s.gucRollbackTo(i + 1)
	s.releaseXactLocks(sp.xactLocks)
	s.closeLargeObjectsAbove(i + 1)
	s.savepoints = s.savepoints[:i+1]
	return nil
}

// releaseSavepoint forgets savepoint i and the later ones, their changes
// becoming the enclosing level's (RELEASE).
func (s *Session) releaseSavepoint(i int) error {
	if err := s.txn.Release(s.savepoints[i].sp); err != nil {
		return err
	}
	s.gucRelease(i + 1)
	s.keepLargeObjectsAt(i)
	s.savepoints = s.savepoints[:i]
	return nil
}

func savepointStmtName(op ir.TxnOpKind) string {
	switch op {
	case ir.TxnRollbackTo:
		return "ROLLBACK TO SAVEPOINT"
	case ir.TxnRelease:
		return "RELEASE SAVEPOINT"
	}
	return "SAVEPOINT"
}

// isolationLevel checks a requested isolation level and returns it as
// the isolation settings show it. Transactions are snapshot isolation,
// PostgreSQL's REPEATABLE READ, for every level but SERIALIZABLE: READ
// COMMITTED and READ UNCOMMITTED get a stronger one, which the SQL
// standard allows (as PostgreSQL runs READ COMMITTED for READ UNCOMMITTED
// and still shows "read uncommitted"), so the level asked for is the one
// shown. SERIALIZABLE is a serializable kv transaction (reads validated at
// commit, kv.TxnOptions.Serializable) where the store has them; elsewhere
// it would promise more than zproxy keeps (write skew is possible), so it
// is refused rather than silently weakened.
func (s *Session) isolationLevel(requested string) (string, error) {
	switch level := strings.ToLower(strings.TrimSpace(requested)); level {
	case "read uncommitted", "read committed", "repeatable read":
		return level, nil
	case "default":
		return knownVars["default_transaction_isolation"], nil
	case "serializable":
		if caps := s.engine.exec.Caps; !caps.Serializable {
			return "", executor.SerializableUnsupported(caps.Name)
		}
		return level, nil
	}
	return "", pgerr.New(pgerr.InvalidParameterValue, "invalid value for parameter \"transaction_isolation\": %q", requested)
}

// finishSchemaChanges runs what the committed block's schema changes left
// to after the commit (executor.Txn.Finish); a failure is a WARNING, the
// block having committed.
func (s *Session) finishSchemaChanges(ctx context.Context) {
	if s.txn == nil {
		return
	}
	s.txn.Finish(context.WithoutCancel(ctx), func(err error) {
		s.engine.cfg.Logger.Warn("finishing a committed block's schema changes", "err", err)
		s.notice(&pgerr.Error{Code: pgerr.Warning, Severity: "WARNING", Message: err.Error()})
	})
}

// varTransactionSnapshot is SET TRANSACTION SNAPSHOT's pseudo-parameter
// (parser/special.go): not a setting, an instruction to the block.
const varTransactionSnapshot = "transaction_snapshot"

// importSnapshot is SET TRANSACTION SNAPSHOT: the block's transaction
// begins on the snapshot another session's open transaction exported
// (pg_export_snapshot), with PostgreSQL's checks and errors. pg_dump -j's
// workers read the leader's snapshot this way.
func (s *Session) importSnapshot(ctx context.Context, name string) error {
	if s.txStatus == 'I' {
		s.notice(&pgerr.Error{Code: pgerr.NoActiveSQLTransaction, Severity: "WARNING", Message: "SET TRANSACTION can only be used in transaction blocks"})
	}
	if s.txn != nil {
		return pgerr.New(pgerr.ActiveSQLTransaction, "SET TRANSACTION SNAPSHOT must be called before any query")
	}
	if iso := s.vars["transaction_isolation"]; iso != "repeatable read" && iso != "serializable" {
		return pgerr.New(pgerr.FeatureNotSupported, "a snapshot-importing transaction must have isolation level SERIALIZABLE or REPEATABLE READ")
	}
	if s.txStatus == 'I' {
		return nil // no block to begin it in
	}
	t, err := s.engine.exec.BeginOnSnapshot(ctx, s.readOnly(), s.serializable(), name)
	if err != nil {
		return err
	}
	t.SetMemAccount(s.mem)
	s.txn = t
	return nil
}
