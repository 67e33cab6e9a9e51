package executor

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Dropping the primary key.
//
// A row's primary key is its store key, so a table whose key is dropped
// (ALTER TABLE ... DROP CONSTRAINT t_pkey, or DROP COLUMN of a key column,
// which drops the key with it as PostgreSQL's dependency does) is keyed
// from then on by a hidden row id, as a table declared without a key is:
// every row moves to a new store key, drawn at random as an INSERT draws
// it, by the same online copy as a primary-key change (moverows.go).
// The key's columns keep their NOT NULL, as in PostgreSQL. Foreign keys
// referencing the key need CASCADE (2BP01 otherwise), which drops them
// with it.

// dropKey drops table's primary key, with the foreign keys referencing it
// when cascade is set.
func (e *Executor) dropKey(ctx context.Context, cat *catalog.Catalog, table string, cascade bool, notice func(*pgerr.Error)) error {
	var cascaded []string
	layout := func(s *catalog.Snapshot, t *catalog.Table, version uint64, _ *catalog.Change) (*catalog.Table, error) {
		if err := movable(t); err != nil {
			return nil, err
		}
		if err := keyDroppable(s, t, cascade); err != nil {
			return nil, err
		}
		return keylessLayout(t, version), nil
	}
	convert := func(old, future *catalog.Table) func(row, nr []sqltypes.Value) error {
		rowID := future.PrimaryKey[0].Column
		return func(row, nr []sqltypes.Value) error {
			copy(nr, row) // future's columns are old's and the row id after them
			nr[rowID] = sqltypes.NewInt(catalog.NextRowID())
			return nil
		}
	}
	swap := func(s *catalog.Snapshot, t, done *catalog.Table, ch *catalog.Change) error {
		// The referencing tables as they are now, not when the copy began.
		var put []*catalog.Table
		put, cascaded = dropForeignKeys(s, dependentKeys(s, t, nil), done)
		ch.Put = append(ch.Put, put...)
		return nil
	}
	m := rowMove{what: "the move of the rows of %q to hidden row ids", layout: layout, convert: convert, swap: swap}
	if err := e.runMove(ctx, cat, table, "dropping the primary key", m); err != nil {
		return err
	}
	cascadeObjectsNotice(cascaded, notice)
	return nil
}

// keyDroppable refuses dropping t's primary key where zproxy cannot, or
// where PostgreSQL would not without CASCADE (foreign keys reference it).
func keyDroppable(s *catalog.Snapshot, t *catalog.Table, cascade bool) error {
	if t.IsPartitioned() || t.IsPartition() {
		return pgerr.New(pgerr.FeatureNotSupported, "dropping the primary key of a partitioned table or a partition is not supported")
	}
	if t.ShardColumns > 0 {
		return pgerr.New(pgerr.InvalidTableDefinition, "shard_columns must be a leading prefix of the primary key").
			WithDetail("Dropping the primary key of %q leaves its shard columns (%s) no key to lead.", t.Name, strings.Join(t.ShardColumnNames(nil), ", ")).
			WithHint("ALTER TABLE %s RESET (shard_columns) first.", t.Name)
	}
	if refs := dependentKeys(s, t, nil); len(refs) > 0 && !cascade {
		return dependentsError("constraint "+t.PrimaryKeyName()+" on table "+t.Name, refs, "index "+t.PrimaryKeyName())
	}
	return nil
}

// keylessLayout is t keyed by a hidden row id after its other columns, in
// fresh store IDs.
func keylessLayout(t *catalog.Table, version uint64) *catalog.Table {
	future := freshStore(t, version, 0)
	name := catalog.RowIDColumn
	for i := 1; future.ColumnIndex(name) >= 0; i++ {
		name = catalog.RowIDColumn + "_" + strconv.Itoa(i)
	}
	c := catalog.Column{Name: name, Type: sqltypes.TypeInt8, NotNull: true, Hidden: true}
	if attrInUse(future, name) {
		c.Attr = fmt.Sprintf("%s%s@%d", catalog.ReservedPrefix, name, version)
	}
	future.Columns = append(future.Columns, c)
	future.PrimaryKey = []catalog.KeyColumn{{Column: len(future.Columns) - 1}}
	future.PKeyName = ""
	if t.Shards == catalog.DefaultShards && !t.Temp {
		// A keyed table's default becomes a keyless one's (rekeyed does
		// the reverse).
		future.Shards = catalog.RowIDShards
	}
	return future
}

// dropKeyColumn prepares DROP COLUMN of a column of the primary key:
// PostgreSQL drops the key with it. The key goes first (dropKey), checked
// beforehand with the column's drop on a keyless copy of the table, so
// that what would refuse the drop (a view reading the table, the only
// column) refuses it before any row moves; the caller then drops the
// column, no longer a key column, as any other.
func (e *Executor) dropKeyColumn(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable, notice func(*pgerr.Error)) error {
	a := at.Actions[0]
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	t, err := snap.Table(at.Table)
	if err != nil || t.RowIDKeyed() {
		return nil // the drop reports a missing table as it does
	}
	i := t.ColumnIndex(a.Column)
	if i < 0 || !t.IsPKColumn(i) || t.Columns[i].Hidden {
		return nil
	}
	if err := keyDroppable(snap, t, a.Cascade); err != nil {
		return err
	}
	probe := keylessLayout(t, 0)
	var ch catalog.Change
	var eff alterEffects
	if err := dropColumn(snap, probe, i, a.Cascade, &ch, &eff); err != nil {
		return err
	}
	return e.dropKey(ctx, cat, at.Table, a.Cascade, notice)
}
