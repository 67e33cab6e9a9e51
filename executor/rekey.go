package executor

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
)

// Primary-key changes.
//
// A row's primary key is its store key, so a new key means moving every
// row and rebuilding every index. The change runs in three catalog steps:
// (1) the table is marked as being rewritten, with its future descriptor
// (Table.Rewrite: the new key, fresh store IDs); writes to it are refused
// from then on (55006) and the change waits until writers that planned
// before have finished; (2) every row is copied to its new key, each put
// conditional on the key being free, so two rows with one new key fail
// the change (23505) instead of one overwriting the other, and indexes are
// built in the new layout; (3) the future descriptor replaces the table in
// one catalog change, and the old rows and entries are deleted. Reads go on
// all along from the old layout. A failure, or a restart (see
// ResumeBuilds), abandons the change and deletes what was copied.
//
// Unlike the other ALTER TABLE forms this one is not online for writers:
// they get 55006 for as long as the copy takes.
//
// A change of placement (SET / RESET of shards and shard_columns) moves
// every row the same way: its future descriptor keeps the key and places
// the rows anew.

// rekey applies an AlterPrimaryKey action, or a Reshard.
func (e *Executor) rekey(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable) error {
	a := at.Actions[0]
	if r := a.Reshard; r != nil {
		// The placement the table already has: nothing to move.
		if t, err := e.currentTable(ctx, cat, at.Table); err == nil && t.Rewrite == nil && t.Shards == r.Shards && t.ShardColumns == r.ShardColumns {
			return nil
		}
	}
	if t, err := e.currentTable(ctx, cat, at.Table); err == nil && t.IsPartitioned() {
		return e.rekeyTree(ctx, cat, at)
	}
	return e.runMove(ctx, cat, at.Table, rekeyWhat(a), rekeyMove(a))
}

// rekeyMove is the row move of a primary-key or placement change a.
func rekeyMove(a ir.AlterAction) rowMove {
	return rowMove{
		what: "the move of the rows of %q to a new key or placement",
		layout: func(s *catalog.Snapshot, t *catalog.Table, version uint64, _ *catalog.Change) (*catalog.Table, error) {
			return futureLayout(s, t, a, version, 0)
		},
		swap: func(s *catalog.Snapshot, t, done *catalog.Table, ch *catalog.Change) error {
			return rekeyedReferences(s, t, done, a.DropConstraint != "", ch)
		},
	}
}

// futureLayout is t as a primary-key or placement change a leaves it
// (fresh store IDs for its rows and indexes), checked against the schema.
//
// base is where the change's new store IDs start (ObjectID(version,
// base)): the members of a partition tree take IDs one after the other.
func futureLayout(s *catalog.Snapshot, t *catalog.Table, a ir.AlterAction, version uint64, base int) (*catalog.Table, error) {
	if err := notRewriting(t); err != nil {
		return nil, err
	}
	for _, ix := range t.Indexes {
		if ix.State == catalog.StateBuilding {
			return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot move the rows of %q to a new key or placement while its index %q is being built", t.Name, ix.Name)
		}
	}
	var future *catalog.Table
	if a.Reshard != nil {
		future = resharded(t.Clone(), a.Reshard, version, base)
	} else {
		future = rekeyed(t.Clone(), a, version, base)
		if err := keepsShardColumns(t, future); err != nil {
			return nil, err
		}
	}
	for _, k := range future.PrimaryKey {
		future.Columns[k.Column].NotNull = true // as ADD PRIMARY KEY does
	}
	if a.Reshard == nil {
		if err := namePrimaryKey(s, t, future, a.KeyName); err != nil {
			return nil, err
		}
	}
	if err := keyChangeReferences(s, t, future, a.DropConstraint != ""); err != nil {
		return nil, err
	}
	return future, nil
}

// namePrimaryKey names future's new primary key: ADD CONSTRAINT name
// PRIMARY KEY's name (a partition's copy of its parent's key is
// <partition>_pkey, as PostgreSQL names it), or <table>_pkey. The name is
// its index's, a relation name: one taken is 42P07.
func namePrimaryKey(s *catalog.Snapshot, t, future *catalog.Table, name string) error {
	future.PKeyName = ""
	if name == "" || t.IsPartition() || name == t.BareName()+"_pkey" {
		return nil
	}
	if !t.RowIDKeyed() && name == t.PrimaryKeyName() {
		future.PKeyName = name // the key it replaces had it
		return nil
	}
	sc, _ := catalog.SplitName(t.Name)
	qualified := catalog.QualifiedKey(sc, name)
	if other, _ := s.FindIndex(qualified); other != nil || s.HasRelation(qualified) || s.TableByKeyName(qualified) != nil {
		return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", name)
	}
	future.PKeyName = name
	return nil
}

// rekeyInBlock is rekey inside a transaction block, of a table the block
// created: no other session can see the table, so there are no writers to
// hold off and nothing to do online. The rows the block wrote are copied
// to the new layout and deleted from the old one through the block's
// transaction, and the new descriptor replaces the old one in one change
// of the block's catalog; all of it commits or rolls back with the block.
// This is how pg_restore --single-transaction adds a primary key after
// loading a table's rows.
func (e *Executor) rekeyInBlock(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable, rw kv.ReadWriter) error {
	return e.moveRowsInBlock(ctx, cat, at.Table, rw, rekeyMove(at.Actions[0]))
}

// resharded is t with its rows placed anew (SET / RESET of shards and
// shard_columns): the same key, fresh store IDs for its rows and indexes.
func resharded(t *catalog.Table, r *ir.Reshard, version uint64, base int) *catalog.Table {
	f := freshStore(t, version, base)
	f.Shards, f.ShardColumns = r.Shards, r.ShardColumns
	return f
}

// freshStore is a copy of t whose rows and indexes move to new store IDs.
func freshStore(t *catalog.Table, version uint64, base int) *catalog.Table {
	f := t.Clone()
	f.Rewrite = nil
	f.DataID = catalog.ObjectID(version, base)
	for i, ix := range f.Indexes {
		ix.ID = catalog.ObjectID(version, base+i+1)
	}
	return f
}

// keepsShardColumns refuses a new primary key that does not lead with the
// table's shard columns.
func keepsShardColumns(t, future *catalog.Table) error {
	for i := 0; i < t.ShardColumns; i++ {
		c := t.PrimaryKey[i].Column
		if i >= len(future.PrimaryKey) || future.Columns[future.PrimaryKey[i].Column].Name != t.Columns[c].Name {
			return pgerr.New(pgerr.InvalidTableDefinition, "shard_columns must be a leading prefix of the primary key").
				WithDetail("The new key of %q does not lead with (%s).", t.Name, strings.Join(t.ShardColumnNames(nil), ", ")).
				WithHint("ALTER TABLE %s RESET (shard_columns) first.", t.Name)
		}
	}
	return nil
}

// rekeyed is t with the new key: fresh store IDs for its rows and indexes,
// and without the hidden row id a table without a key had.
func rekeyed(t *catalog.Table, a ir.AlterAction, version uint64, base int) *catalog.Table {
	f := freshStore(t, version, base)
	var key []catalog.KeyColumn
	for _, p := range a.Key {
		key = append(key, catalog.KeyColumn{Column: f.ColumnIndex(p.Column), Desc: p.Desc})
	}
	if t.DefaultShardsOf() == catalog.RowIDShards && t.Shards == catalog.RowIDShards && t.ShardColumns == 0 {
		// A table that had only its row ids was spread over shards by
		// default, for them; with a key of its own it gets a keyed
		// table's default, and so do the indexes that followed it (its
		// rows and entries are all rewritten here anyway). pg_restore
		// adds primary keys this way.
		f.Shards = catalog.DefaultShards
		for _, ix := range f.Indexes {
			if ix.Shards == catalog.RowIDShards && ix.ShardColumns == 0 {
				ix.Shards = catalog.DefaultShards
			}
		}
	}
	f.PrimaryKey = key
	if i := slices.IndexFunc(f.Columns, func(c catalog.Column) bool { return c.Hidden }); i >= 0 {
		f.RemoveColumn(i)
	}
	return f
}

// copyRows writes every row of old to its place in future, with its index
// entries, failing on two rows with one new key or a NULL in it, or two
// entries with one value in a unique index. convert, when set, makes each
// row of future from a row of old (a column type change, retype.go);
// otherwise future's columns are old's by name.
func (e *Executor) copyRows(ctx context.Context, rw kv.ReadWriter, old, future *catalog.Table, convert func(row, nr []sqltypes.Value) error) error {
	perRow := 1 + len(future.Indexes)
	batch := 256
	if max := e.Caps.MaxAtomicOps; max > 0 {
		batch = max / perRow
	}
	if batch < 1 {
		return pgerr.New(pgerr.ProgramLimitExceeded, "table %q has too many indexes to move a row atomically on this store", old.Name)
	}
	// future's columns are old's without the hidden row id, if it had one.
	keep := make([]int, 0, len(old.Columns))
	for i, c := range old.Columns {
		if future.ColumnIndex(c.Name) >= 0 {
			keep = append(keep, i)
		}
	}
	var ops []kv.Op
	// Per op: the unique index whose entry it is (nil for a row), and the
	// row, to name a duplicate.
	var opIndex []*catalog.Index
	var opRow [][]sqltypes.Value
	// unique holds the batch's rows' and unique-keyed entries' keys: two
	// in one atomic batch would not fail each other's condition.
	unique := map[string]int{}
	var written [][]sqltypes.Value // for the Z-order bounds
	rows := 0
	duplicate := func(i int) error {
		if ix := opIndex[i]; ix != nil {
			return duplicateValues(future, ix, opRow[i])
		}
		return pgerr.New(pgerr.UniqueViolation, "could not create unique index %q", future.PrimaryKeyName()).
			WithValues(keyDetail(future, keyCols(future.PrimaryKey), opRow[i], "Key %s is duplicated."))
	}
	flush := func() error {
		if len(ops) == 0 {
			return nil
		}
		if err := e.widenZBounds(ctx, future, nil, written); err != nil {
			return err
		}
		written = written[:0]
		err := rw.Write(ctx, kv.Batch{Ops: ops, Atomic: true})
		var cf *kv.ConditionFailedError
		if errors.As(err, &cf) {
			return duplicate(cf.Index)
		}
		ops, opIndex, opRow, rows = ops[:0], opIndex[:0], opRow[:0], 0
		clear(unique)
		return ClassifyError(err)
	}
	var failed error
	err := forEachItem(ctx, rw, old, func(row []sqltypes.Value, version kv.Attr) bool {
		nr := make([]sqltypes.Value, len(future.Columns))
		if convert != nil {
			if failed = convert(row, nr); failed != nil {
				return false
			}
		} else {
			for j, i := range keep {
				nr[j] = row[i]
			}
		}
		for _, k := range future.PrimaryKey {
			if nr[k.Column].IsNull() {
				failed = pgerr.New(pgerr.NotNullViolation, "column %q of relation %q contains null values", future.Columns[k.Column].Name, future.Name)
				return false
			}
		}
		key := future.RowKey(nr)
		id := string(key.Partition) + "\x00" + string(key.Sort)
		if _, dup := unique[id]; dup {
			opIndex, opRow = append(opIndex, nil), append(opRow, nr)
			failed = duplicate(len(opRow) - 1)
			return false
		}
		unique[id] = len(ops)
		ops = append(ops, kv.Op{Kind: kv.OpPut, Key: key, Attrs: future.RowAttrs(nr, version.I), Cond: kv.CondNotExists})
		opIndex, opRow = append(opIndex, nil), append(opRow, nr)
		written = append(written, nr)
		for _, ix := range future.Indexes {
			erow, in, err := ir.IndexRow(future, ix, nr)
			if err != nil {
				failed = err
				return false
			}
			if !in {
				continue
			}
			attrs := future.EntryAttrsOf(ix, nr)
			keyed := !ix.Inverted() && future.UniqueKeyed(ix, erow)
			for _, k := range future.EntryKeysOf(ix, erow, nil) {
				op := kv.Op{Kind: kv.OpPut, Key: k, Attrs: attrs}
				var ixOf *catalog.Index
				if keyed {
					op.Cond, ixOf = kv.CondNotExists, ix
					id := string(k.Partition) + "\x00" + string(k.Sort)
					if _, dup := unique[id]; dup {
						failed = duplicateValues(future, ix, erow)
						return false
					}
					unique[id] = len(ops)
				}
				ops = append(ops, op)
				opIndex, opRow = append(opIndex, ixOf), append(opRow, erow)
			}
		}
		if rows++; rows >= batch {
			failed = flush()
		}
		return failed == nil
	})
	if err == nil {
		err = failed
	}
	if err == nil {
		err = flush()
	}
	return err
}

// forEachItem reads every row of t through rw with its version, until fn
// returns false.
func forEachItem(ctx context.Context, rw kv.ReadWriter, t *catalog.Table, fn func(row []sqltypes.Value, version kv.Attr) bool) error {
	row := make([]sqltypes.Value, len(t.Columns))
	for sh := 0; sh < t.Shards; sh++ {
		it := rw.Scan(ctx, kv.ScanRequest{Partition: t.Partition(sh), Consistent: true})
		for it.Next() {
			attrs := it.Item().Attrs
			if err := t.DecodeRow(attrs, row); err != nil {
				it.Close()
				return err
			}
			if !fn(row, catalog.RowVersion(attrs)) {
				it.Close()
				return nil
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return ClassifyError(err)
		}
	}
	return nil
}

// abandonRekey undoes a primary-key change that did not finish: the
// table is writable again and the copied rows go.
func (e *Executor) abandonRekey(ctx context.Context, cat *catalog.Catalog, name string, future *catalog.Table) error {
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, err := s.Table(name)
		if err != nil || t.Rewrite == nil || t.Rewrite.StoreID() != future.StoreID() {
			return catalog.Change{}, errSkip
		}
		nt := t.Clone()
		nt.Rewrite = nil
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if err != nil && !errors.Is(err, errSkip) {
		return err
	}
	return e.clearTable(ctx, future)
}

// waitForWriters returns once every statement that planned with the schema
// before the last change has finished: in this process through the Gate,
// in other proxies by outwaiting their schema cache.
func (e *Executor) waitForWriters(ctx context.Context, cat *catalog.Catalog) error {
	e.Gate.Lock()
	e.Gate.Unlock()
	if cat.Exclusive() {
		return nil
	}
	select {
	case <-time.After(2 * catalog.SharedStaleness):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *Executor) currentTable(ctx context.Context, cat *catalog.Catalog, name string) (*catalog.Table, error) {
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return snap.Table(name)
}

// notRewriting refuses a write or a change to a table whose rows are
// being copied to a new layout (a new primary key or placement here, new
// column types in retype.go).
func notRewriting(t *catalog.Table) error {
	if t.Rewrite != nil {
		return pgerr.New(pgerr.ObjectInUse, "table %q is being rewritten by ALTER TABLE", t.Name).
			WithHint("Retry when the ALTER TABLE has finished.")
	}
	return nil
}

// rekeyTree is rekey of a partitioned table (ADD PRIMARY KEY; the binder
// checked that the key includes the partition key): every member of the
// tree gets the key, as PostgreSQL makes the key's index on every
// partition, so that the members stay keyed alike. The members are marked
// as being rewritten in one catalog change, every leaf's rows are copied,
// and the new descriptors replace the old ones in one change; a failure
// abandons all of it. In a transaction block every member must have been
// created by the block (as rekeyInBlock requires of a table).
func (e *Executor) rekeyTree(ctx context.Context, cat *catalog.Catalog, at *ir.AlterTable) error {
	a := at.Actions[0]
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	root, err := snap.Table(at.Table)
	if err != nil {
		return err
	}
	members := append([]*catalog.Table{root}, snap.Descendants(root)...)
	if blk := blockOf(ctx); blk != nil && cat.InBlock() {
		for _, m := range members {
			if !cat.CreatedInBlock(m.ID) {
				return inBlockRefused(ctx, cat, rekeyWhat(a))
			}
		}
		for _, m := range members {
			if err := e.rekeyInBlock(ctx, cat, &ir.AlterTable{Table: m.Name, Actions: at.Actions}, blk.kv); err != nil {
				return err
			}
		}
		return nil
	}
	futures := map[uint64]*catalog.Table{}
	_, err = cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		clear(futures)
		t, err := s.Table(at.Table)
		if err != nil {
			return catalog.Change{}, err
		}
		var ch catalog.Change
		base := 0
		for _, m := range append([]*catalog.Table{t}, s.Descendants(t)...) {
			f, err := futureLayout(s, m, a, version, base)
			if err != nil {
				return catalog.Change{}, err
			}
			base += 1 + len(m.Indexes)
			futures[m.ID] = f
			nm := m.Clone()
			nm.Rewrite = f
			ch.Put = append(ch.Put, nm)
		}
		return ch, nil
	})
	if err != nil {
		return err
	}
	abandon := func(err error) error {
		for _, f := range futures {
			if t := snap.TableByID(f.ID); t != nil {
				err = errors.Join(err, e.abandonRekey(context.WithoutCancel(ctx), cat, t.Name, f))
			}
		}
		return err
	}
	if snap, err = cat.Snapshot(ctx); err != nil {
		return abandon(err)
	}
	var olds []*catalog.Table
	for id := range futures {
		if t := snap.TableByID(id); t != nil {
			olds = append(olds, t)
		}
	}
	err = e.waitForWriters(ctx, cat)
	for _, old := range olds {
		if err != nil {
			break
		}
		if !old.IsPartitioned() {
			err = e.copyRows(ctx, e.Store, old, futures[old.ID], nil)
		}
	}
	if err != nil {
		return abandon(err)
	}
	_, err = cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		var ch catalog.Change
		for id, future := range futures {
			t := s.TableByID(id)
			if t == nil || t.Rewrite == nil || t.Rewrite.StoreID() != future.StoreID() {
				return catalog.Change{}, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "the move of the rows of %q to a new key was abandoned", at.Table)
			}
			done := t.Rewrite.Clone()
			done.Rewrite = nil
			ch.Put = append(ch.Put, done)
			if err := rekeyedReferences(s, t, done, a.DropConstraint != "", &ch); err != nil {
				return catalog.Change{}, err
			}
		}
		return ch, nil
	})
	if err != nil {
		return abandon(err)
	}
	if err := e.waitForWriters(ctx, cat); err != nil {
		return err
	}
	for _, old := range olds {
		if err := e.clearTable(ctx, old); err != nil {
			return err
		}
	}
	return nil
}
