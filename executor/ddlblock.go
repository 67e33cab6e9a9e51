package executor

import (
	"context"
	"fmt"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
)

// Schema changes inside a transaction block.
//
// Outside a block a schema change is published at once and finished
// online: an index is built, a constraint validated, a dropped table's
// rows deleted while other sessions go on writing (ddl.go,
// constraints_ddl.go, alter.go). Inside a block (InBlock) the same
// functions change the block's catalog (catalog.Catalog.Block), which
// nobody else sees before the block's COMMIT, and:
//
//   - read and write rows and index entries through the block's
//     transaction (data), so they see the block's own writes and their
//     own writes commit or roll back with the block;
//   - leave what must not happen before the commit, or must not happen if
//     the block rolls back, to after it (afterCommit): deleting a dropped
//     table's or index's entries, resetting sequences;
//   - check an index's uniqueness or a constraint against the rows the
//     block sees, so the statement fails as PostgreSQL's does. A table the
//     block created is seen by no one else, and that check is the whole
//     work: its index is public and its constraint valid at once. On a
//     table other sessions write, rows they commit before the block does
//     were not seen, so the block commits a unique index building and a
//     constraint NOT VALID, and after the commit builds and validates them
//     online as outside a block (should a concurrent session have written
//     a duplicate or a violating row meanwhile, the index is dropped or the
//     constraint left NOT VALID, and the COMMIT says so with a WARNING).
//
// A few changes cannot run inside a block yet (inBlockRefused).

type blockKey struct{}

// InBlock returns ctx for running schema changes inside the transaction
// block of t.
func InBlock(ctx context.Context, t *Txn) context.Context {
	return context.WithValue(ctx, blockKey{}, t)
}

// blockOf returns the transaction block a schema change runs in, or nil.
func blockOf(ctx context.Context) *Txn {
	t, _ := ctx.Value(blockKey{}).(*Txn)
	return t
}

// SchemaCatalog returns the catalog the block's schema changes go through,
// made from the store's catalog base at the first call (see
// catalog.Catalog.Block).
func (t *Txn) SchemaCatalog(ctx context.Context, base *catalog.Catalog) (*catalog.Catalog, error) {
	if t.schema != nil {
		return t.schema, nil
	}
	c, err := base.Block(ctx, t.kv)
	if err != nil {
		return nil, txnErr(err)
	}
	t.schema, t.base = c, base
	return c, nil
}

// ChangedSchema returns the block's catalog if the block changed the
// schema, else nil.
func (t *Txn) ChangedSchema() *catalog.Catalog {
	if t.schema.Changed() {
		return t.schema
	}
	return nil
}

// afterCommit is work a block's schema change leaves to after the block's
// COMMIT: run is given the store's catalog.
type afterCommit struct {
	what string
	run  func(ctx context.Context, cat *catalog.Catalog) error
}

// afterCommit runs fn once the schema change is committed: at once outside
// a block (with cat, the store's catalog); inside one, after the block
// commits (and never if it rolls back).
func (e *Executor) afterCommit(ctx context.Context, cat *catalog.Catalog, what string, fn func(ctx context.Context, cat *catalog.Catalog) error) error {
	if t := blockOf(ctx); t != nil && cat.InBlock() {
		t.mu.Lock()
		t.after = append(t.after, afterCommit{what: what, run: fn})
		t.mu.Unlock()
		return nil
	}
	return fn(ctx, cat)
}

// Finish runs what the block's schema changes left to after its commit,
// in order; each failure is passed to warn (the block has committed, so
// its COMMIT succeeds with a WARNING).
func (t *Txn) Finish(ctx context.Context, warn func(error)) {
	t.mu.Lock()
	after, base := t.after, t.base
	t.after = nil
	t.mu.Unlock()
	if base == nil {
		return
	}
	if err := base.Refresh(ctx); err != nil {
		warn(err)
	}
	for _, a := range after {
		if err := a.run(ctx, base); err != nil {
			warn(fmt.Errorf("%s: %w", a.what, err))
		}
	}
}

// rowsOf is what a schema change reads (and writes) the rows and index
// entries of tables through. Outside a block it is the store. Inside one
// it is the block's transaction when the block created or wrote one of
// the tables, whose rows are then partly the block's own; else it is the
// store: the rows other sessions committed, which the change checks
// again after the block's commit anyway (reading them through the
// transaction would, on a store that keeps no old versions, fail the
// block whenever another session writes the table meanwhile).
func (e *Executor) rowsOf(ctx context.Context, cat *catalog.Catalog, tables ...*catalog.Table) kv.ReadWriter {
	t := blockOf(ctx)
	if t == nil || !cat.InBlock() {
		return e.Store
	}
	for _, tbl := range tables {
		if tbl != nil && (cat.CreatedInBlock(tbl.ID) || t.wroteTable(tbl)) {
			return t.kv
		}
	}
	return e.Store
}

// freshTable reports whether the transaction's snapshot can hold no row
// or index entry of tbl, so that its writes' conditions (an INSERT's or a
// COPY's primary key and unique entries: CondNotExists) are decided by
// the transaction's own writes without reading the snapshot
// (kv.Batch.Fresh). The rule: a permanent table of no partitioned or
// inheritance parent whose rows' partitions (StoreID: the table's, or the
// fresh ones a TRUNCATE moved it to) and every index were created by this
// block. Their IDs come from a change number the block claimed, which no
// committed change has used, so no committed key lies in their
// partitions; other sessions cannot see the table before the block
// commits, and any write of theirs would conflict at commit anyway.
func (t *Txn) freshTable(tbl *catalog.Table) bool {
	if t == nil || t.schema == nil || tbl.Temp || len(tbl.Parents) > 0 || !t.schema.CreatedInBlock(tbl.StoreID()) {
		return false
	}
	for _, ix := range tbl.Indexes {
		if !t.schema.CreatedInBlock(ix.ID) {
			return false
		}
	}
	return true
}

// wroteTable reports whether the transaction wrote rows of tbl.
func (t *Txn) wroteTable(tbl *catalog.Table) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.wrote[writtenKey(tbl)]
	return ok
}

// inBlockRefused fails a schema change zproxy cannot make inside a
// transaction block yet.
func inBlockRefused(ctx context.Context, cat *catalog.Catalog, what string) error {
	if blockOf(ctx) == nil || !cat.InBlock() {
		return nil
	}
	return pgerr.New(pgerr.ActiveSQLTransaction, "%s cannot run inside a transaction block", what).
		WithDetail("zproxy makes this change online, while other sessions write the table, which a transaction block cannot undo.").
		WithHint("Run it outside a transaction block.")
}

// sharedTable reports whether other sessions can write table t: always
// outside a block; inside one, unless the block created it.
func sharedTable(cat *catalog.Catalog, t *catalog.Table) bool {
	return !cat.CreatedInBlock(t.ID)
}

// afterCommitOnIndex is afterCommit of work on one index, found by its and
// its table's IDs in the committed schema (the block may have renamed
// them); nothing is done if either was dropped since.
func (e *Executor) afterCommitOnIndex(ctx context.Context, cat *catalog.Catalog, what string, tableID, indexID uint64, fn func(ctx context.Context, cat *catalog.Catalog, t *catalog.Table, ix *catalog.Index) error) error {
	return e.afterCommit(ctx, cat, what, func(ctx context.Context, cat *catalog.Catalog) error {
		snap, err := cat.Snapshot(ctx)
		if err != nil {
			return err
		}
		t := snap.TableByID(tableID)
		if t == nil {
			return nil
		}
		ix := indexByID(t, indexID)
		if ix == nil {
			return nil
		}
		return fn(ctx, cat, t, ix)
	})
}
