package executor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// backfillChunk is how many rows an index build reads and indexes while
// holding writers off (see Gate).
const backfillChunk = 256

// CreateTable creates a table; notices carries schema advice.
func (e *Executor) CreateTable(ctx context.Context, cat *catalog.Catalog, ct *ir.CreateTable, notice func(*pgerr.Error)) error {
	_, err := e.CreateTableReturning(ctx, cat, ct, notice)
	return err
}

// CreateTableReturning is CreateTable that returns the created table's
// descriptor, or nil when IF NOT EXISTS found the name taken (CREATE TABLE
// ... AS fills the table it created, and only that).
func (e *Executor) CreateTableReturning(ctx context.Context, cat *catalog.Catalog, ct *ir.CreateTable, notice func(*pgerr.Error)) (*catalog.Table, error) {
	var skipped bool
	var created *catalog.Table
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		if s.HasRelation(ct.Table.Name) {
			if ct.IfNotExists {
				skipped = true
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ct.Table.Name)
		}
		if err := s.CheckRelationName(ct.Table.Name); err != nil {
			return catalog.Change{}, err
		}
		if s.TableByKeyName(ct.Table.Name) != nil {
			// A primary key's index has the name.
			return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ct.Table.Name)
		}
		t := ct.Table.Clone()
		t.ID = catalog.ObjectID(version, 0)
		created = t
		ch := catalog.Change{Put: []*catalog.Table{t}}
		for i, q := range ct.Sequences {
			if s.HasRelation(q.Name) {
				return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", q.Name)
			}
			c := *q
			c.ID = catalog.ObjectID(version, i+1)
			c.Owner = t.Owner // a SERIAL's sequence is its table's owner's
			ch.PutSequences = append(ch.PutSequences, &c)
		}
		// The indexes of its UNIQUE and FOREIGN KEY constraints.
		for i, ix := range t.Indexes {
			ix.ID = catalog.ObjectID(version, len(ct.Sequences)+1+i)
			if _, other := s.FindIndex(ix.Name); other != nil || s.HasRelation(ix.Name) {
				return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ix.Name)
			}
		}
		for i := range t.ForeignKeys {
			if err := checkReferencedKey(s, t, &t.ForeignKeys[i]); err != nil {
				return catalog.Change{}, err
			}
		}
		return ch, nil
	})
	if skipped {
		notice(pgerr.CodedNotice(pgerr.DuplicateTable, "relation %q already exists, skipping", ct.Table.Name))
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := e.checkDefaultPartition(ctx, cat, created); err != nil {
		return nil, err
	}
	if !ct.Table.Temp { // a temporary table's partitions are the proxy's own: no hot spot to warn of
		adviseTable(ct.Table, ct.Sequences, notice)
	}
	return created, nil
}

// checkDefaultPartition checks, for a new partition t (CREATE TABLE ...
// PARTITION OF) of a parent with a default partition, that none of the
// default partition's rows falls within t's bound, as PostgreSQL does
// (23514 "updated partition constraint for default partition ... would
// be violated"): such a row would be in the wrong partition. The check is
// ATTACH's (validateAttach: after the writers that planned before have
// finished, and again after a block's commit), and a failure drops t.
func (e *Executor) checkDefaultPartition(ctx context.Context, cat *catalog.Catalog, t *catalog.Table) error {
	if t == nil || t.Bound == nil || t.Bound.Default {
		return nil
	}
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	parent := snap.Parent(t)
	if parent == nil || !slices.ContainsFunc(snap.Children(parent), func(c *catalog.Table) bool { return c.Bound != nil && c.Bound.Default }) {
		return nil
	}
	drop := func(cause error) error {
		if derr := e.DropTable(ctx, cat, &ir.DropTable{Names: []string{t.Name}}, func(*pgerr.Error) {}); derr != nil {
			return derr
		}
		return cause
	}
	err = e.validateAttach(ctx, cat, t.ID)
	if cat.InBlock() {
		if err != nil {
			return err // the block fails, and the table with it
		}
		return e.afterCommit(ctx, cat, fmt.Sprintf("checking the default partition's rows against partition %q", t.Name), func(ctx context.Context, cat *catalog.Catalog) error {
			if err := e.validateAttach(ctx, cat, t.ID); err != nil {
				return drop(err)
			}
			return nil
		})
	}
	if err != nil {
		return drop(err)
	}
	return nil
}

// errSkip aborts a catalog change that turns out to have nothing to do (IF
// [NOT] EXISTS); the caller reports a NOTICE instead.
var errSkip = errors.New("executor: nothing to change")

// adviseTable sends the schema-design advice (hot spots of monotonic keys) as NOTICEs.
func adviseTable(t *catalog.Table, seqs []*catalog.Sequence, notice func(*pgerr.Error)) {
	if t.Shards != 1 {
		return
	}
	lead := t.Columns[t.PrimaryKey[0].Column]
	switch lead.Type.Kind() {
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate:
		notice(pgerr.Notice("the leading primary-key column %q of table %q is a %s: with shards = 1 every new row goes to one partition", lead.Name, t.Name, lead.Type).
			WithHint("Declare WITH (shards = N) to spread writes, or lead the key with a more varied column."))
		return
	}
	for _, q := range seqs {
		if q.Name == lead.Sequence && !q.BitReversed {
			notice(pgerr.Notice("the leading primary-key column %q of table %q is a sequence: with shards = 1 every new row goes to one partition", lead.Name, t.Name).
				WithHint("Declare WITH (shards = N) to spread writes, or draw the key from a bit-reversed sequence: GENERATED BY DEFAULT AS IDENTITY (BIT_REVERSED)."))
		}
	}
}

// DropTable drops tables and deletes their rows and index entries.
func (e *Executor) DropTable(ctx context.Context, cat *catalog.Catalog, dt *ir.DropTable, notice func(*pgerr.Error)) error {
	var dropped []*catalog.Table
	var owned []*catalog.Sequence
	var cascaded []string
	kind := "table"
	if dt.Matview {
		kind = "materialized view"
	}
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		dropped, owned, cascaded = nil, nil, nil
		var ch catalog.Change
		names, heirs, err := withPartitions(s, dt.Names, dt.Cascade)
		if err != nil {
			return ch, err
		}
		cascaded = append(cascaded, heirs...)
		for _, name := range names {
			t, err := s.Table(name)
			if err != nil {
				if err := wrongRelationKind(s, name, kind); err != nil {
					return ch, err
				}
				if dt.IfExists {
					continue
				}
				return ch, pgerr.New(pgerr.UndefinedTable, "%s %q does not exist", kind, name)
			}
			if err := dropKindMatches(t, kind); err != nil {
				return ch, err
			}
			if slices.Contains(ch.Delete, name) {
				continue // a CASCADE of an earlier name dropped it
			}
			if dt.Cascade {
				matviews, objects := dropDependents(s, name, &ch)
				dropped = append(dropped, matviews...)
				cascaded = append(cascaded, objects...)
			} else if err := dependents(s, name, kind, names); err != nil {
				return ch, err
			}
			refs := referencesFrom(s, name, names)
			// A partition's rows are referenced by the keys referencing
			// the partitioned tables above it, as PostgreSQL's copies of
			// them for the partition say (unless those go too).
			for _, r := range s.ReferencedThrough(t) {
				if !slices.Contains(names, r.Via.Name) && !slices.Contains(names, r.Child.Name) {
					refs = append(refs, r.Reference)
				}
			}
			if len(refs) > 0 && !dt.Cascade {
				return ch, dependentsError(kind+" "+name, refs, kind+" "+name)
			}
			put, names := dropForeignKeys(s, refs, nil)
			ch.Put = append(ch.Put, put...)
			cascaded = append(cascaded, names...)
			dropped = append(dropped, t)
			ch.Delete = append(ch.Delete, name)
			for _, q := range s.Sequences() {
				if tbl, _, _ := catalog.SplitOwnedBy(q.OwnedBy); q.OwnedBy != "" && tbl == name {
					ch.DeleteSequences = append(ch.DeleteSequences, q.Name)
					owned = append(owned, q)
				}
			}
		}
		// Other tables' defaults drawing from the sequences dropped with
		// these tables depend on them, as in PostgreSQL.
		defaults, err := sequenceUsers(s, owned, names, dt.Cascade)
		if err != nil {
			return ch, err
		}
		for _, d := range defaults {
			ch.Put = append(ch.Put, d.table)
			cascaded = append(cascaded, d.what...)
		}
		if len(ch.Delete) == 0 {
			return ch, errSkip
		}
		return ch, nil
	})
	if err != nil && !errors.Is(err, errSkip) {
		return err
	}
	cascadeObjectsNotice(cascaded, notice)
	if dt.IfExists {
		names := make([]string, len(dropped))
		for i, t := range dropped {
			names[i] = t.Name
		}
		skippedNotice(kind, dt.Names, names, notice)
	}
	return e.afterCommit(ctx, cat, "deleting the rows of dropped tables", func(ctx context.Context, _ *catalog.Catalog) error {
		if err := e.dropSequenceState(ctx, owned); err != nil {
			return err
		}
		for _, t := range dropped {
			if err := e.clearTable(ctx, t); err != nil {
				return err
			}
		}
		return nil
	})
}

// ClearRows deletes every row and index entry of t, outside any
// transaction: a temporary table's ON COMMIT DELETE ROWS, which only its
// own session can see.
func (e *Executor) ClearRows(ctx context.Context, t *catalog.Table) error {
	return e.clearTable(ctx, t)
}

// clearTable deletes the rows and index entries of a table layout no
// descriptor refers to any more.
func (e *Executor) clearTable(ctx context.Context, t *catalog.Table) error {
	return clearTableIn(ctx, e.Store, t)
}

// clearTableIn is clearTable through rw: the store, or a transaction
// block's writes to a layout only the block has seen.
func clearTableIn(ctx context.Context, rw kv.ReadWriter, t *catalog.Table) error {
	for sh := 0; sh < t.Shards; sh++ {
		if err := clearPartitionIn(ctx, rw, t.Partition(sh)); err != nil {
			return err
		}
	}
	for _, ix := range t.Indexes {
		if err := clearIndexIn(ctx, rw, ix); err != nil {
			return err
		}
	}
	return nil
}

func (e *Executor) clearIndex(ctx context.Context, ix *catalog.Index) error {
	return clearIndexIn(ctx, e.Store, ix)
}

func clearIndexIn(ctx context.Context, rw kv.ReadWriter, ix *catalog.Index) error {
	for sh := 0; sh < ix.Shards; sh++ {
		if err := clearPartitionIn(ctx, rw, catalog.IndexPartition(ix.ID, sh)); err != nil {
			return err
		}
	}
	return nil
}

// clearPartitionIn deletes every item of a partition the schema no longer
// references (a dropped table or index), in non-atomic batches.
func clearPartitionIn(ctx context.Context, rw kv.ReadWriter, partition []byte) error {
	for {
		it := rw.Scan(ctx, kv.ScanRequest{Partition: partition, Limit: 1000})
		var ops []kv.Op
		for len(ops) < 1000 && it.Next() {
			k := it.Item().Key
			ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: kv.Key{Partition: append([]byte(nil), k.Partition...), Sort: append([]byte(nil), k.Sort...)}})
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return ClassifyError(err)
		}
		if len(ops) == 0 {
			return nil
		}
		if err := rw.Write(ctx, kv.Batch{Ops: ops}); err != nil {
			return ClassifyError(err)
		}
	}
}

// CreateIndex adds an index and builds it online: the index is first
// published in state building, so every writer maintains it from then on;
// existing rows are then indexed chunk by chunk while writers are held off
// for the duration of each chunk (Gate), so a row can never be indexed from
// a version a concurrent writer is replacing; finally the index is made
// public and queries may use it.
func (e *Executor) CreateIndex(ctx context.Context, cat *catalog.Catalog, ci *ir.CreateIndex, notice func(*pgerr.Error)) error {
	var table *catalog.Table
	var index *catalog.Index
	skipped := false
	proto := ci.Index
	if ci.AlignToData {
		// The leads fix the entries' layout, so they are set before any
		// writer sees the index.
		var err error
		if proto, err = e.alignToData(ctx, cat, ci); err != nil {
			return err
		}
	}
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		t, err := s.Table(ci.Table)
		if err != nil {
			return catalog.Change{}, err
		}
		if err := notRewriting(t); err != nil {
			return catalog.Change{}, err
		}
		if _, other := s.FindIndex(ci.Index.Name); other != nil || s.HasTable(ci.Index.Name) || s.TableByKeyName(ci.Index.Name) != nil {
			if ci.IfNotExists {
				skipped = true
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ci.Index.Name)
		}
		nt := t.Clone()
		ix := *proto
		ix.ID = catalog.ObjectID(version, 0)
		ix.State = catalog.StateBuilding
		nt.Indexes = append(nt.Indexes, &ix)
		table, index = nt, &ix
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if skipped {
		notice(pgerr.CodedNotice(pgerr.DuplicateTable, "relation %q already exists, skipping", ci.Index.Name))
		return nil
	}
	if err != nil {
		return err
	}
	adviseIndex(table, index, notice)
	// The build writes every entry with this descriptor, the one the
	// change committed (none of the catalog's snapshots holds it): its new
	// index's Z-order schema is computed once here, not once a row.
	table.PrepareZSchemas()
	if cat.InBlock() {
		err = e.buildInBlock(ctx, cat, table, index)
	} else {
		err = e.build(ctx, cat, table, index)
	}
	built := []string{ci.Index.Name}
	for _, p := range ci.Partitions {
		// An index of a partitioned table is one index on each partition
		// (the partitioned table's own holds nothing).
		if err != nil {
			break
		}
		if err = e.CreateIndex(ctx, cat, p, notice); err == nil {
			built = append(built, p.Index.Name)
		}
	}
	if err != nil && len(ci.Partitions) > 0 && !cat.InBlock() {
		// A partition's failed (a unique index its rows break): the
		// index is none of the tree's (a block's ROLLBACK undoes it).
		if snap, serr := cat.Snapshot(ctx); serr == nil {
			for _, name := range built {
				if t, ix := snap.FindIndex(name); ix != nil {
					e.abandonIndex(ctx, cat, t.Name, ix)
				}
			}
		}
	}
	return err
}

// buildInBlock builds an index a transaction block created (see
// ddlblock.go): on a table the block created, from the rows the block
// wrote, and the index is public at once; on another table the block
// checks a unique index against the rows it sees, and the index, still
// building, is built online once the block has committed.
func (e *Executor) buildInBlock(ctx context.Context, cat *catalog.Catalog, table *catalog.Table, index *catalog.Index) error {
	shared := sharedTable(cat, table)
	if !shared || index.Unique {
		if err := e.backfillIn(ctx, e.rowsOf(ctx, cat, table), table, index, shared); err != nil {
			return err
		}
	}
	if !shared {
		return e.setIndexState(ctx, cat, table.Name, index.Name, catalog.StatePublic)
	}
	return e.afterCommitOnIndex(ctx, cat, fmt.Sprintf("building index %q", index.Name), table.ID, index.ID, func(ctx context.Context, cat *catalog.Catalog, t *catalog.Table, ix *catalog.Index) error {
		if ix.State != catalog.StateBuilding {
			return nil
		}
		return e.build(ctx, cat, t, ix)
	})
}

// backfillIn writes index entries for every row of t that r sees, in one
// pass and without holding writers off: the rows of a table only a
// transaction block sees, read and indexed through its transaction. A
// unique index's duplicates fail it with 23505; checkOnly checks them
// without writing the entries (the index is built again after the
// block's commit).
func (e *Executor) backfillIn(ctx context.Context, r kv.ReadWriter, t *catalog.Table, ix *catalog.Index, checkOnly bool) error {
	seen := map[string]bool{}
	for sh := 0; sh < t.Shards; sh++ {
		var start []byte
		for {
			n, last, ops, _, rows, err := e.readChunkRows(ctx, r, t, ix, sh, start, backfillChunk)
			if err != nil {
				return err
			}
			if ix.Unique {
				// Only the entries of rows with no NULL in the key are
				// keyed by value alone (catalog.Table.UniqueKeyed).
				for i, op := range ops {
					k := string(op.Key.Partition) + "\x00" + string(op.Key.Sort)
					if seen[k] {
						return duplicateValues(t, ix, rows[i])
					}
					seen[k] = true
				}
			}
			if len(ops) > 0 && !checkOnly {
				if err := r.Write(ctx, kv.Batch{Ops: ops}); err != nil {
					return ClassifyError(err)
				}
			}
			if n < backfillChunk {
				break
			}
			start = append(append([]byte(nil), last...), 0)
		}
	}
	return nil
}

// alignToData returns the Z-order index of ci with the leads of the table's
// rows as they are now (catalog.Table.AlignLeads): one read of the table for
// the extremes of each attribute's codes, NULLs aside. Rows written later
// are indexed exactly whatever their values; only their locality depends
// on the data having kept its span.
func (e *Executor) alignToData(ctx context.Context, cat *catalog.Catalog, ci *ir.CreateIndex) (*catalog.Index, error) {
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return nil, ClassifyError(err)
	}
	t, err := snap.Table(ci.Table)
	if err != nil {
		return nil, err
	}
	ix := *ci.Index
	ix.Columns = slices.Clone(ix.Columns)
	s := t.ZSchema(&ix)
	dims := len(ix.Columns)
	lo, hi := make([]uint64, dims), make([]uint64, dims)
	for d := range lo {
		lo[d] = math.MaxUint64
	}
	rows := 0
	var evalErr error
	err = e.forEachRow(ctx, e.rowsOf(ctx, cat, t), t, func(row []sqltypes.Value) bool {
		rows++
		erow, in, err := ir.IndexRow(t, &ix, row)
		if err != nil {
			evalErr = err
			return false
		}
		if !in {
			return rows%cancelCheckEvery != 0 || ctx.Err() == nil // outside a partial index: no entry, no key values
		}
		for d := range ix.Columns {
			v := t.KeyValue(&ix, d, erow)
			if v.K == sqltypes.KindNull {
				continue
			}
			c := catalog.ZCode(s.Attr(d), v)
			lo[d], hi[d] = min(lo[d], c), max(hi[d], c)
		}
		return rows%cancelCheckEvery != 0 || ctx.Err() == nil
	})
	if err == nil {
		err = evalErr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	if rows == 0 && ix.Gist != nil {
		// A gist index is aligned by default, not by request: on an
		// empty table it keeps the default layout, as a schema made
		// before its data (a migration, a restore) expects to work.
		return &ix, nil
	}
	if rows == 0 {
		return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot align index %q to the data of table %q: it has no rows", ix.Name, t.Name).
			WithHint("Create the index once the table holds data like what it will hold, or give the leads: WITH (leads = '...').")
	}
	t.AlignLeads(&ix, lo, hi)
	return &ix, nil
}

// build indexes a building index's existing rows and makes it public.
func (e *Executor) build(ctx context.Context, cat *catalog.Catalog, table *catalog.Table, index *catalog.Index) error {
	// Writers that planned against the schema without this index finish
	// before the build reads anything.
	if err := e.outwaitWriters(ctx, cat); err != nil {
		return err
	}
	err := e.backfill(ctx, table, index)
	if err == nil && index.Inverted() {
		// The build wrote a posting a row and token; a list is read
		// whole, so it is packed into blocks before its first query.
		_, err = e.PackInverted(ctx, table, index)
	}
	if err == nil && index.Unique && index.Deferrable {
		// Its entries carry no condition: the rows are checked against
		// each other once they all have one (deferunique.go). A check
		// that did not finish (40001: a writer took a key it read)
		// leaves the index unchecked, so it goes too.
		if err = e.validateDeferrable(ctx, cat, table.Name, index.Name, true); err != nil {
			e.abandonIndex(ctx, cat, table.Name, index)
			return err
		}
	}
	if err != nil {
		if pgerr.CodeOf(err) == pgerr.UniqueViolation {
			e.abandonIndex(ctx, cat, table.Name, index)
		}
		return err
	}
	return e.setIndexState(ctx, cat, table.Name, index.Name, catalog.StatePublic)
}

// outwaitWriters returns once the writers that planned against the schema
// before a change just published have finished: in this process through
// the gate, in other proxies on a shared store by outwaiting their schema
// cache.
func (e *Executor) outwaitWriters(ctx context.Context, cat *catalog.Catalog) error {
	e.Gate.Lock()
	e.Gate.Unlock()
	if !cat.Exclusive() {
		select {
		case <-time.After(2 * catalog.SharedStaleness):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// ResumeBuilds finishes the builds a restart interrupted: every index in
// state building in snap (the schema as the process found it at start) is
// built again from the start (its entries are plain puts, so redoing them
// is harmless) and made public. Until then writers maintain it and queries
// ignore it, as during any build. It returns the indexes it built.
func (e *Executor) ResumeBuilds(ctx context.Context, cat *catalog.Catalog, snap *catalog.Snapshot) ([]string, error) {
	var built []string
	for _, t := range snap.Tables() {
		if t.Rewrite != nil {
			// A primary-key change the restart interrupted: its statement
			// failed, so it is undone.
			if err := e.abandonRekey(ctx, cat, t.Name, t.Rewrite); err != nil {
				return built, fmt.Errorf("abandoning the primary-key change of %s: %w", t.Name, err)
			}
			continue
		}
		for _, ix := range t.Indexes {
			if ix.State != catalog.StateBuilding {
				continue
			}
			if err := e.build(ctx, cat, t, ix); err != nil {
				return built, fmt.Errorf("resuming the build of index %s: %w", ix.Name, err)
			}
			built = append(built, ix.Name)
		}
	}
	return built, nil
}

func adviseIndex(t *catalog.Table, ix *catalog.Index, notice func(*pgerr.Error)) {
	if ix.Kind != catalog.KindZOrder {
		return
	}
	for _, k := range ix.Columns {
		if k.Column < 0 {
			continue
		}
		c := t.Columns[k.Column]
		switch c.Type.Kind() {
		case sqltypes.KindBool:
			notice(pgerr.Notice("Z-order attribute %q is boolean: one bit doubles the search space for little selectivity", c.Name).
				WithHint("Leave it out of the Z-order index and filter on it, or lead a btree index with it."))
		case sqltypes.KindText:
			if k.Width == 0 {
				notice(pgerr.Notice("Z-order attribute %q is text with the default 8-byte prefix: values sharing their first 8 bytes are not told apart by the index", c.Name).
					WithHint("Set a width, e.g. %s(32) for 4 bytes, or use a btree index for text.", c.Name))
			}
		}
	}
}

// setIndexState publishes a new state for an index.
func (e *Executor) setIndexState(ctx context.Context, cat *catalog.Catalog, table, index string, state catalog.IndexState) error {
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, err := s.Table(table)
		if err != nil {
			return catalog.Change{}, err
		}
		nt := t.Clone()
		ix := nt.Index(index)
		if ix == nil {
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "index %q was dropped during its build", index)
		}
		ix.State = state
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	return err
}

// backfill writes index entries for every existing row, one chunk at a
// time with writers held off, resuming each chunk after the last key read.
// A unique index's chunks also look for duplicates (uniqueChunk).
func (e *Executor) backfill(ctx context.Context, t *catalog.Table, ix *catalog.Index) error {
	chunk := e.backfillChunk
	if ix.Unique {
		chunk = e.uniqueChunk
	}
	for sh := 0; sh < t.Shards; sh++ {
		var after []byte
		for {
			n, last, err := chunk(ctx, t, ix, sh, after)
			if err != nil {
				return err
			}
			if n < e.backfillChunkSize() {
				break
			}
			after = last
		}
	}
	return nil
}

func (e *Executor) backfillChunk(ctx context.Context, t *catalog.Table, ix *catalog.Index, shard int, after []byte) (int, []byte, error) {
	e.Gate.Lock()
	defer e.Gate.Unlock()
	var start []byte
	if after != nil {
		start = append(append([]byte(nil), after...), 0)
	}
	if !e.Caps.Exclusive {
		return e.backfillChunkShared(ctx, t, ix, shard, start)
	}
	// The Gate holds off every writer of this process, the only one.
	n, last, ops, _, err := e.readChunk(ctx, e.Store, t, ix, shard, start, backfillChunk)
	if err != nil || len(ops) == 0 {
		return n, last, err
	}
	if err := e.Store.Write(ctx, kv.Batch{Ops: ops}); err != nil {
		return 0, nil, ClassifyError(err)
	}
	return n, last, nil
}

// backfillChunkSize is how many rows one chunk of a build indexes.
func (e *Executor) backfillChunkSize() int {
	if e.Caps.Exclusive {
		return backfillChunk
	}
	return sharedBackfillChunk
}

// sharedBackfillChunk is how many rows one transaction of a build indexes
// on a shared store: with a lock per row and an entry per row it stays
// within one DynamoDB TransactWriteItems (100 items).
const sharedBackfillChunk = 40

// backfillChunkShared indexes a chunk on a store other proxies write too:
// the Gate cannot hold them off, so the chunk is a transaction that
// share-locks each row it indexes. If another proxy changes one of those
// rows before the commit, the commit fails and the chunk is read again;
// an entry computed from a row value that is no longer there never lands.
func (e *Executor) backfillChunkShared(ctx context.Context, t *catalog.Table, ix *catalog.Index, shard int, start []byte) (int, []byte, error) {
	for attempt := 0; ; attempt++ {
		txn, err := e.Begin(ctx, false, nil)
		if err != nil {
			return 0, nil, err
		}
		n, last, ops, rows, err := e.readChunk(ctx, txn.kv, t, ix, shard, start, sharedBackfillChunk)
		if err == nil && len(ops) > 0 {
			err = txnErr(txn.kv.Lock(ctx, rows, kv.LockShare))
			if err == nil {
				err = txnErr(txn.kv.Write(ctx, kv.Batch{Ops: ops}))
			}
		}
		if err == nil {
			err = txn.Commit(ctx, nil)
		} else {
			txn.Rollback()
		}
		if pgerr.CodeOf(err) == pgerr.SerializationFailure && attempt < 100 {
			continue // a row changed under the chunk: index it as it is now
		}
		if err != nil {
			return 0, nil, err
		}
		return n, last, nil
	}
}

// readChunk reads up to limit rows of a shard from start and returns the
// index entry puts for them, the rows' keys, and the sort key of the last
// row read.
func (e *Executor) readChunk(ctx context.Context, r kv.ReadWriter, t *catalog.Table, ix *catalog.Index, shard int, start []byte, limit int) (n int, last []byte, ops []kv.Op, rows []kv.Key, err error) {
	n, last, ops, rows, _, err = e.readChunkRows(ctx, r, t, ix, shard, start, limit)
	return n, last, ops, rows, err
}

// readChunkRows is readChunk that also returns the rows read (in an index
// with one entry per row, which a unique one is, ops[i] is the entry of
// read[i]; an inverted index has one per token).
func (e *Executor) readChunkRows(ctx context.Context, r kv.ReadWriter, t *catalog.Table, ix *catalog.Index, shard int, start []byte, limit int) (n int, last []byte, ops []kv.Op, rows []kv.Key, read [][]sqltypes.Value, err error) {
	it := r.Scan(ctx, kv.ScanRequest{Partition: t.Partition(shard), Start: start, Limit: limit, Consistent: true})
	defer it.Close()
	for n < limit && it.Next() {
		item := it.Item()
		row := make([]sqltypes.Value, len(t.Columns))
		if err := t.DecodeRow(item.Attrs, row); err != nil {
			return 0, nil, nil, nil, nil, err
		}
		last = append(last[:0], item.Key.Sort...)
		n++
		erow, in, err := ir.IndexRow(t, ix, row)
		if err != nil {
			return 0, nil, nil, nil, nil, err
		}
		if !in {
			continue // outside the partial index: no entry
		}
		read = append(read, row)
		attrs := t.EntryAttrsOf(ix, row)
		for _, k := range t.EntryKeysOf(ix, erow, nil) {
			ops = append(ops, kv.Op{Kind: kv.OpPut, Key: k, Attrs: attrs})
		}
		rows = append(rows, kv.Key{Partition: item.Key.Partition, Sort: append([]byte(nil), item.Key.Sort...)})
	}
	if err := it.Err(); err != nil {
		return 0, nil, nil, nil, nil, ClassifyError(err)
	}
	if err := e.widenZBounds(ctx, t, ix, read); err != nil {
		return 0, nil, nil, nil, nil, err
	}
	return n, last, ops, rows, read, nil
}

// DropIndex removes an index and its entries, and a partitioned table's
// index its partitions' copies (catalog.PartitionIndex) with it; a
// partition's copy cannot be dropped alone (2BP01, as PostgreSQL).
func (e *Executor) DropIndex(ctx context.Context, cat *catalog.Catalog, di *ir.DropIndex, notice func(*pgerr.Error)) error {
	var dropped []*catalog.Index
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, ix := s.FindIndex(di.Name)
		if ix == nil {
			if err := wrongRelationKind(s, di.Name, "index"); err != nil {
				return catalog.Change{}, err
			}
			if di.IfExists {
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "index %q does not exist", di.Name)
		}
		if err := notRewriting(t); err != nil {
			return catalog.Change{}, err
		}
		if p := s.Parent(t); p != nil {
			for _, pix := range p.Indexes {
				if cix, _ := catalog.PartitionIndex(t, pix); cix == ix {
					return catalog.Change{}, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop index %s because index %s requires it", ix.Name, pix.Name).
						WithHint("You can drop index %s instead.", pix.Name)
				}
			}
		}
		if err := indexInUse(s, t, ix); err != nil {
			return catalog.Change{}, err
		}
		// A partitioned table's index takes its partitions' copies.
		var ch catalog.Change
		dropped = nil
		var drop func(t *catalog.Table, ix *catalog.Index) error
		drop = func(t *catalog.Table, ix *catalog.Index) error {
			if err := notRewriting(t); err != nil {
				return err
			}
			nt := t.Clone()
			nt.Indexes = slices.DeleteFunc(nt.Indexes, func(x *catalog.Index) bool { return x.Name == ix.Name })
			ch.Put = append(ch.Put, nt)
			dropped = append(dropped, ix)
			for _, c := range s.Children(t) {
				if cix, ok := catalog.PartitionIndex(c, ix); ok && cix != nil && c.Bound != nil {
					if err := drop(c, cix); err != nil {
						return err
					}
				}
			}
			return nil
		}
		if err := drop(t, ix); err != nil {
			return catalog.Change{}, err
		}
		return ch, nil
	})
	if errors.Is(err, errSkip) {
		notice(pgerr.Notice("index %q does not exist, skipping", di.Name))
		return nil
	}
	if err != nil {
		return err
	}
	return e.afterCommit(ctx, cat, fmt.Sprintf("deleting the entries of index %q", di.Name), func(ctx context.Context, _ *catalog.Catalog) error {
		for _, ix := range dropped {
			if err := e.clearIndex(ctx, ix); err != nil {
				return err
			}
		}
		return nil
	})
}

// ShowIndexes lists a table's primary key and indexes as rows of
// (name, kind, columns, widths, include, shards, state).
func ShowIndexes(t *catalog.Table) [][]sqltypes.Value {
	colList := func(cols []catalog.KeyColumn) string {
		names := make([]string, len(cols))
		for i, k := range cols {
			names[i] = t.KeyName(k)
			if k.Desc {
				names[i] += " DESC"
			}
		}
		return strings.Join(names, ", ")
	}
	rows := [][]sqltypes.Value{{
		sqltypes.NewText(t.PrimaryKeyName()), sqltypes.NewText(string(catalog.KindPrimary)), sqltypes.NewText(colList(t.PrimaryKey)),
		sqltypes.Null, sqltypes.Null, sqltypes.NewInt(int64(t.Shards)), sqltypes.NewText(string(catalog.StatePublic)),
	}}
	for _, ix := range t.Indexes {
		// Widths (in bits, defaults applied) mean something only for
		// Z-order attributes.
		widths := sqltypes.Null
		if ix.Kind == catalog.KindZOrder {
			s := t.ZSchema(ix)
			ws := make([]string, s.Dims())
			for i := range ws {
				ws[i] = fmt.Sprint(attrWidth(s.Attr(i)))
			}
			widths = sqltypes.NewText(strings.Join(ws, ", "))
		}
		include := sqltypes.Null
		if len(ix.Include) > 0 {
			inc := make([]string, len(ix.Include))
			for i, c := range ix.Include {
				inc[i] = t.Columns[c].Name
			}
			include = sqltypes.NewText(strings.Join(inc, ", "))
		}
		rows = append(rows, []sqltypes.Value{
			sqltypes.NewText(ix.Name), sqltypes.NewText(string(ix.Kind)), sqltypes.NewText(colList(ix.Columns)),
			widths, include, sqltypes.NewInt(int64(ix.Shards)), sqltypes.NewText(string(ix.State)),
		})
	}
	return rows
}

// CheckResult is the outcome of a consistency check of one table.
type CheckResult struct {
	Table   string
	Rows    int64
	Index   string
	Entries int64
	// Expected is how many entries the rows should have: one a row, but
	// in a partial index only the rows its predicate holds for, and in an
	// inverted index one per token.
	Expected int64
	Missing  int64 // rows without their entry
	Orphaned int64 // entries without their row, or with stale values
}

// meet counts an entry found under key k with attributes attrs (nil:
// none to compare, a posting of a block): orphaned when no row should
// have it or its attributes are stale, else found.
func (r *CheckResult) meet(expected map[string]string, found map[string]bool, k string, attrs []kv.Attr) {
	r.Entries++
	want, ok := expected[k]
	if !ok || (attrs != nil && want != attrsDigest(attrs)) {
		r.Orphaned++
		return
	}
	found[k] = true
}

// Check verifies that every row of t has exactly its entry in each index
// and that no index holds any other entry.
func (e *Executor) Check(ctx context.Context, t *catalog.Table) ([]CheckResult, error) {
	expected := make([]map[string]string, len(t.Indexes))
	for i := range expected {
		expected[i] = map[string]string{}
	}
	var rows int64
	for sh := 0; sh < t.Shards; sh++ {
		it := e.Store.Scan(ctx, kv.ScanRequest{Partition: t.Partition(sh), Consistent: true})
		for it.Next() {
			item := it.Item()
			row := make([]sqltypes.Value, len(t.Columns))
			if err := t.DecodeRow(item.Attrs, row); err != nil {
				it.Close()
				return nil, err
			}
			rows++
			for i, ix := range t.Indexes {
				erow, in, err := ir.IndexRow(t, ix, row)
				if err != nil {
					it.Close()
					return nil, err
				}
				if !in {
					continue
				}
				digest := attrsDigest(t.EntryAttrsOf(ix, row))
				for _, k := range t.EntryKeysOf(ix, erow, nil) {
					expected[i][string(k.Partition)+"\x00"+string(k.Sort)] = digest
				}
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return nil, ClassifyError(err)
		}
	}
	out := []CheckResult{{Table: t.Name, Rows: rows, Index: t.PrimaryKeyName(), Entries: rows, Expected: rows}}
	for i, ix := range t.Indexes {
		res := CheckResult{Table: t.Name, Rows: rows, Index: ix.Name}
		found := map[string]bool{}
		if ix.Inverted() {
			if err := e.checkInverted(ctx, t, ix, expected[i], found, &res); err != nil {
				return nil, err
			}
			res.Expected = int64(len(expected[i]))
			res.Missing = res.Expected - int64(len(found))
			out = append(out, res)
			continue
		}
		for sh := 0; sh < ix.Shards; sh++ {
			it := e.Store.Scan(ctx, kv.ScanRequest{Partition: catalog.IndexPartition(ix.ID, sh), Consistent: true})
			for it.Next() {
				item := it.Item()
				res.meet(expected[i], found, string(item.Key.Partition)+"\x00"+string(item.Key.Sort), item.Attrs)
			}
			err := it.Err()
			it.Close()
			if err != nil {
				return nil, ClassifyError(err)
			}
		}
		res.Expected = int64(len(expected[i]))
		res.Missing = res.Expected - int64(len(found))
		out = append(out, res)
	}
	return out, nil
}

// attrsDigest renders attributes canonically for comparison.
func attrsDigest(attrs []kv.Attr) string {
	parts := make([]string, 0, len(attrs))
	for _, a := range attrs {
		if a.Kind == kv.AttrNull {
			continue
		}
		v := ""
		switch a.Kind {
		case kv.AttrBool, kv.AttrInt:
			v = fmt.Sprint(a.I)
		case kv.AttrFloat:
			v = fmt.Sprint(a.F)
		case kv.AttrString:
			v = a.S
		case kv.AttrBytes:
			v = string(a.B)
		}
		parts = append(parts, fmt.Sprintf("%s=%d:%q", a.Name, a.Kind, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// attrWidth is a Z-order attribute's width in bits with the default applied.
func attrWidth(a zorder.Attr) int {
	if a.Width > 0 && a.Width <= zorder.MaxWidth {
		return a.Width
	}
	return zorder.DefaultWidth(a.Type, a.Nullable)
}

// CreateView stores a view (or replaces one, keeping its columns' names and
// types as PostgreSQL requires of CREATE OR REPLACE VIEW).
func (e *Executor) CreateView(ctx context.Context, cat *catalog.Catalog, cv *ir.CreateView) error {
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		var ch catalog.Change
		if s.HasTable(cv.Name) {
			return ch, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", cv.Name)
		}
		if err := s.CheckRelationName(cv.Name); err != nil {
			return ch, err
		}
		v := &catalog.View{ID: version, Name: cv.Name, SQL: cv.SQL, Depends: cv.Depends, Owner: cv.Owner, Temp: cv.Temp, Path: cv.Path, TempFuncs: cv.TempFuncs, Options: cv.Options, Stars: cv.Stars}
		for _, c := range cv.Columns {
			v.Columns = append(v.Columns, c.Name)
			v.Types = append(v.Types, c.Type)
		}
		if old, ok := s.StoredView(cv.Name); ok {
			if !cv.OrReplace {
				return ch, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", cv.Name)
			}
			if old.Owner != "" {
				v.Owner = old.Owner // replacing a view keeps its owner
			}
			if len(v.Columns) < len(old.Columns) {
				return ch, pgerr.New(pgerr.InvalidTableDefinition, "cannot drop columns from view")
			}
			for i := range old.Columns {
				if old.Columns[i] != v.Columns[i] {
					return ch, pgerr.New(pgerr.InvalidTableDefinition, "cannot change name of view column %q to %q", old.Columns[i], v.Columns[i]).
						WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.")
				}
				if !old.Types[i].Same(v.Types[i]) {
					return ch, pgerr.New(pgerr.InvalidTableDefinition, "cannot change data type of view column %q from %s to %s", old.Columns[i], old.Types[i], v.Types[i])
				}
			}
			v.ID = old.ID
			v.Triggers = old.Triggers // CREATE OR REPLACE VIEW keeps them
			if old.Defaults != nil {
				// and its columns' defaults (its options are the new
				// statement's, as PostgreSQL replaces them).
				v.Defaults = append(slices.Clone(old.Defaults), make([]string, len(v.Columns)-len(old.Defaults))...)
			}
		}
		for _, d := range cv.Depends {
			if d == cv.Name {
				return ch, pgerr.New(pgerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation %q", cv.Name)
			}
		}
		ch.PutViews = []*catalog.View{v}
		return ch, nil
	})
	return err
}

// DropView drops stored views.
func (e *Executor) DropView(ctx context.Context, cat *catalog.Catalog, dv *ir.DropView, notice func(*pgerr.Error)) error {
	var missing, cascaded []string
	var matviews []*catalog.Table
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		var ch catalog.Change
		missing, cascaded, matviews = nil, nil, nil
		for _, name := range dv.Names {
			if _, ok := s.StoredView(name); !ok {
				if err := wrongRelationKind(s, name, "view"); err != nil {
					return ch, err
				}
				if dv.IfExists {
					missing = append(missing, name)
					continue
				}
				return ch, pgerr.New(pgerr.UndefinedTable, "view %q does not exist", name)
			}
			if slices.Contains(ch.DeleteViews, name) {
				continue // a CASCADE of an earlier name dropped it
			}
			if dv.Cascade {
				more, objects := dropDependents(s, name, &ch)
				matviews = append(matviews, more...)
				cascaded = append(cascaded, objects...)
			} else if err := dependents(s, name, "view", dv.Names); err != nil {
				return ch, err
			}
			ch.DeleteViews = append(ch.DeleteViews, name)
		}
		if len(ch.DeleteViews) == 0 {
			return ch, errSkip
		}
		return ch, nil
	})
	if err != nil && !errors.Is(err, errSkip) {
		return err
	}
	for _, name := range missing {
		notice(pgerr.Notice("view %q does not exist, skipping", name))
	}
	cascadeObjectsNotice(cascaded, notice)
	return e.afterCommit(ctx, cat, "deleting the rows of dropped materialized views", func(ctx context.Context, _ *catalog.Catalog) error {
		for _, t := range matviews {
			if err := e.clearTable(ctx, t); err != nil {
				return err
			}
		}
		return nil
	})
}

// dropKindMatches refuses DROP TABLE of a materialized view, DROP
// MATERIALIZED VIEW of a table and DROP VIEW of either (kind is the
// statement's object kind), with PostgreSQL's error and hint.
// wrongRelationKind is DROP's error for a name that is another kind of
// relation than kind ("table", "view", "materialized view", "sequence",
// "index"), as PostgreSQL's DropErrorMsgWrongType words it, IF EXISTS or
// not; nil when no relation of another kind has the name.
func wrongRelationKind(s *catalog.Snapshot, name, kind string) error {
	actual := ""
	if t, err := s.Table(name); err == nil {
		actual = "table"
		if t.IsMatview() {
			actual = "materialized view"
		}
	} else if _, ok := s.StoredView(name); ok {
		actual = "view"
	} else if _, ok := s.Sequence(name); ok {
		actual = "sequence"
	} else if _, ix := s.FindIndex(name); ix != nil {
		actual = "index"
	}
	if actual == "" || actual == kind {
		return nil
	}
	article := func(k string) string {
		if k == "index" {
			return "an " + k
		}
		return "a " + k
	}
	return pgerr.New(pgerr.WrongObjectType, "%q is not %s", name, article(kind)).
		WithHint("Use DROP %s to remove %s.", strings.ToUpper(actual), article(actual))
}

func dropKindMatches(t *catalog.Table, kind string) error {
	actual, statement := "table", "DROP TABLE"
	if t.IsMatview() {
		actual, statement = "materialized view", "DROP MATERIALIZED VIEW"
	}
	if actual == kind {
		return nil
	}
	return pgerr.New(pgerr.WrongObjectType, "%q is not a %s", t.Name, kind).WithHint("Use %s to remove a %s.", statement, actual)
}

// skippedNotice reports, for DROP ... IF EXISTS, each name asked for that
// was not there to drop.
func skippedNotice(kind string, asked, dropped []string, notice func(*pgerr.Error)) {
	for _, name := range asked {
		if !slices.Contains(dropped, name) {
			notice(pgerr.Notice("%s %q does not exist, skipping", kind, name))
		}
	}
}

// cascadeObjectsNotice reports what a DROP ... CASCADE dropped besides
// what it named ("view v", "default value for column c of table t"), as
// PostgreSQL does.
func cascadeObjectsNotice(objects []string, notice func(*pgerr.Error)) {
	switch len(objects) {
	case 0:
	case 1:
		notice(pgerr.Notice("drop cascades to %s", objects[0]))
	default:
		lines := make([]string, len(objects))
		for i, o := range objects {
			lines[i] = "drop cascades to " + o
		}
		notice(pgerr.Notice("drop cascades to %d other objects", len(objects)).WithDetail("%s", strings.Join(lines, "\n")))
	}
}

// dropDependents adds to ch the drop of every view and materialized view
// that reads name (DROP ... CASCADE), and returns the dropped materialized
// views' tables, whose rows go once the change is committed, and the
// dropped objects as the cascade notice names them.
func dropDependents(s *catalog.Snapshot, name string, ch *catalog.Change) (matviews []*catalog.Table, objects []string) {
	for _, d := range s.DependentsClosure(name) {
		if d.Matview != nil {
			ch.Delete = append(ch.Delete, d.Name)
			matviews = append(matviews, d.Matview)
		} else {
			ch.DeleteViews = append(ch.DeleteViews, d.Name)
		}
		objects = append(objects, d.Kind()+" "+d.Name)
	}
	return matviews, objects
}

// dependents refuses to drop a relation a view or materialized view reads
// (unless the same statement drops that one too), as PostgreSQL does
// without CASCADE.
func dependents(s *catalog.Snapshot, name, kind string, dropping []string) error {
	for _, d := range s.DependentsOf(name) {
		if slices.Contains(dropping, d.Name) {
			continue
		}
		return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop %s %s because other objects depend on it", kind, name).
			WithDetail("%s %s depends on %s %s", d.Kind(), d.Name, kind, name).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	return nil
}
