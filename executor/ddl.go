package executor

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/zorder"
)

// backfillChunk is how many rows an index build reads and indexes while
// holding writers off (see Gate).
const backfillChunk = 256

// CreateTable creates a table; notices carries schema advice.
func (e *Executor) CreateTable(ctx context.Context, cat *catalog.Catalog, ct *planner.CreateTable, notice func(*pgerr.Error)) error {
	var skipped bool
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		if s.HasRelation(ct.Table.Name) {
			if ct.IfNotExists {
				skipped = true
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ct.Table.Name)
		}
		t := ct.Table.Clone()
		t.ID = version
		for i, ix := range t.Indexes {
			ix.ID = catalog.CreatedID(version, i+1)
			if _, other := s.FindIndex(ix.Name); other != nil || s.HasRelation(ix.Name) {
				return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ix.Name)
			}
		}
		for i := range t.ForeignKeys {
			if err := checkReferencedKey(s, t, &t.ForeignKeys[i]); err != nil {
				return catalog.Change{}, err
			}
		}
		return catalog.Change{Put: []*catalog.Table{t}}, nil
	})
	if skipped {
		notice(pgerr.Notice("relation %q already exists, skipping", ct.Table.Name))
		return nil
	}
	if err != nil {
		return err
	}
	adviseTable(ct.Table, notice)
	return nil
}

// errSkip aborts a catalog change that turns out to have nothing to do (IF
// [NOT] EXISTS); the caller reports a NOTICE instead.
var errSkip = errors.New("executor: nothing to change")

// adviseTable sends the schema-design advice (hot spots of monotonic keys) as NOTICEs.
func adviseTable(t *catalog.Table, notice func(*pgerr.Error)) {
	lead := t.Columns[t.PrimaryKey[0].Column]
	switch lead.Type.Kind() {
	case sqltypes.KindTimestamp, sqltypes.KindTimestampTZ, sqltypes.KindDate:
		if t.Shards == 1 {
			notice(pgerr.Notice("the leading primary-key column %q of table %q is a %s: with shards = 1 every new row goes to one partition", lead.Name, t.Name, lead.Type).
				WithHint("Declare WITH (shards = N) to spread writes, or lead the key with a more varied column."))
		}
	}
}

// DropTable drops tables and deletes their rows and index entries.
func (e *Executor) DropTable(ctx context.Context, cat *catalog.Catalog, dt *planner.DropTable, notice func(*pgerr.Error)) error {
	var dropped []*catalog.Table
	var cascaded, fkCascaded []string
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		dropped, fkCascaded = nil, nil
		var ch catalog.Change
		defer func() {
			cascaded = nil
			for _, v := range ch.DeleteViews {
				cascaded = append(cascaded, "view "+v)
			}
			cascaded = append(cascaded, fkCascaded...)
		}()
		for _, name := range dt.Names {
			t, err := s.Table(name)
			if err != nil {
				if _, isView := s.StoredView(name); isView {
					return ch, pgerr.New(pgerr.WrongObjectType, "%q is not a table", name).WithHint("Use DROP VIEW to remove a view.")
				}
				if dt.IfExists {
					continue
				}
				return ch, pgerr.New(pgerr.UndefinedTable, "table %q does not exist", name)
			}
			if dt.Cascade {
				ch.DeleteViews = append(ch.DeleteViews, dependentViews(s, name)...)
			} else if err := dependents(s, name, "table", dt.Names); err != nil {
				return ch, err
			}
			refs := referencesFrom(s, name, dt.Names)
			if len(refs) > 0 && !dt.Cascade {
				return ch, dependentsError("table "+name, refs, "table "+name)
			}
			put, names := dropForeignKeys(s, refs, nil)
			ch.Put = append(ch.Put, put...)
			fkCascaded = append(fkCascaded, names...)
			dropped = append(dropped, t)
			ch.Delete = append(ch.Delete, name)
		}
		if len(ch.Delete) == 0 {
			return ch, errSkip
		}
		return ch, nil
	})
	if err != nil && !errors.Is(err, errSkip) {
		return err
	}
	cascadeNotice(cascaded, notice)
	for _, name := range dt.Names {
		found := false
		for _, t := range dropped {
			found = found || t.Name == name
		}
		if !found && dt.IfExists {
			notice(pgerr.Notice("table %q does not exist, skipping", name))
		}
	}
	for _, t := range dropped {
		for sh := 0; sh < t.Shards; sh++ {
			if err := e.clearPartition(ctx, catalog.TablePartition(t.ID, sh)); err != nil {
				return err
			}
		}
		for _, ix := range t.Indexes {
			if err := e.clearIndex(ctx, ix); err != nil {
				return err
			}
		}
	}
	return nil
}

func (e *Executor) clearIndex(ctx context.Context, ix *catalog.Index) error {
	for sh := 0; sh < ix.Shards; sh++ {
		if err := e.clearPartition(ctx, catalog.IndexPartition(ix.ID, sh)); err != nil {
			return err
		}
	}
	return nil
}

// clearPartition deletes every item of a partition the schema no longer
// references (a dropped table or index), in non-atomic batches.
func (e *Executor) clearPartition(ctx context.Context, partition []byte) error {
	for {
		it := e.Store.Scan(ctx, kv.ScanRequest{Partition: partition, Limit: 1000})
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
		if err := e.Store.Write(ctx, kv.Batch{Ops: ops}); err != nil {
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
func (e *Executor) CreateIndex(ctx context.Context, cat *catalog.Catalog, ci *planner.CreateIndex, notice func(*pgerr.Error)) error {
	var table *catalog.Table
	var index *catalog.Index
	skipped := false
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		t, err := s.Table(ci.Table)
		if err != nil {
			return catalog.Change{}, err
		}
		if _, other := s.FindIndex(ci.Index.Name); other != nil || s.HasTable(ci.Index.Name) {
			if ci.IfNotExists {
				skipped = true
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", ci.Index.Name)
		}
		nt := t.Clone()
		ix := *ci.Index
		ix.ID = version
		ix.State = catalog.StateBuilding
		nt.Indexes = append(nt.Indexes, &ix)
		table, index = nt, &ix
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if skipped {
		notice(pgerr.Notice("relation %q already exists, skipping", ci.Index.Name))
		return nil
	}
	if err != nil {
		return err
	}
	adviseIndex(table, index, notice)
	return e.build(ctx, cat, table, index)
}

// build indexes a building index's existing rows and makes it public.
func (e *Executor) build(ctx context.Context, cat *catalog.Catalog, table *catalog.Table, index *catalog.Index) error {
	// Writers that planned against the schema without this index finish
	// before the build reads anything: in this process through the gate, in
	// other proxies on a shared store by outwaiting their schema cache.
	e.Gate.Lock()
	e.Gate.Unlock()
	if !cat.Exclusive() {
		select {
		case <-time.After(2 * catalog.SharedStaleness):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := e.backfill(ctx, table, index); err != nil {
		if pgerr.CodeOf(err) == pgerr.UniqueViolation {
			e.abandonIndex(ctx, cat, table.Name, index)
		}
		return err
	}
	return e.setIndexState(ctx, cat, table.Name, index.Name, catalog.StatePublic)
}

// ResumeBuilds finishes the builds a restart interrupted: every index still
// in state building is built again from the start (its entries are plain
// puts, so redoing them is harmless) and made public. Until then writers
// maintain it and queries ignore it, as during any build. It returns the
// indexes it built.
func (e *Executor) ResumeBuilds(ctx context.Context, cat *catalog.Catalog) ([]string, error) {
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	var built []string
	for _, t := range snap.Tables() {
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
			if n < backfillChunk {
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
	it := e.Store.Scan(ctx, kv.ScanRequest{Partition: catalog.TablePartition(t.ID, shard), Start: start, Limit: backfillChunk, Consistent: true})
	var ops []kv.Op
	n := 0
	var last []byte
	for n < backfillChunk && it.Next() {
		item := it.Item()
		row := make([]sqltypes.Value, len(t.Columns))
		if err := t.DecodeRow(item.Attrs, row); err != nil {
			it.Close()
			return 0, nil, err
		}
		ops = append(ops, kv.Op{Kind: kv.OpPut, Key: t.EntryKey(ix, row), Attrs: t.EntryAttrs(ix, row)})
		last = append(last[:0], item.Key.Sort...)
		n++
	}
	err := it.Err()
	it.Close()
	if err != nil {
		return 0, nil, ClassifyError(err)
	}
	if len(ops) > 0 {
		if err := e.Store.Write(ctx, kv.Batch{Ops: ops}); err != nil {
			return 0, nil, ClassifyError(err)
		}
	}
	return n, last, nil
}

// DropIndex removes an index and its entries.
func (e *Executor) DropIndex(ctx context.Context, cat *catalog.Catalog, di *planner.DropIndex, notice func(*pgerr.Error)) error {
	var dropped *catalog.Index
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, ix := s.FindIndex(di.Name)
		if ix == nil {
			if di.IfExists {
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "index %q does not exist", di.Name)
		}
		if err := indexInUse(s, t, ix); err != nil {
			return catalog.Change{}, err
		}
		nt := t.Clone()
		for i, x := range nt.Indexes {
			if x.Name == di.Name {
				nt.Indexes = append(nt.Indexes[:i], nt.Indexes[i+1:]...)
				break
			}
		}
		dropped = ix
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if errors.Is(err, errSkip) {
		notice(pgerr.Notice("index %q does not exist, skipping", di.Name))
		return nil
	}
	if err != nil {
		return err
	}
	return e.clearIndex(ctx, dropped)
}

// ShowIndexes lists a table's primary key and indexes as rows of
// (name, kind, columns, widths, include, shards, state).
func ShowIndexes(t *catalog.Table) [][]sqltypes.Value {
	colList := func(cols []catalog.KeyColumn) string {
		names := make([]string, len(cols))
		for i, k := range cols {
			names[i] = t.Columns[k.Column].Name
			if k.Desc {
				names[i] += " DESC"
			}
		}
		return strings.Join(names, ", ")
	}
	rows := [][]sqltypes.Value{{
		sqltypes.NewText(t.Name + "_pkey"), sqltypes.NewText(string(catalog.KindPrimary)), sqltypes.NewText(colList(t.PrimaryKey)),
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
	Table    string
	Rows     int64
	Index    string
	Entries  int64
	Missing  int64 // rows without their entry
	Orphaned int64 // entries without their row, or with stale values
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
		it := e.Store.Scan(ctx, kv.ScanRequest{Partition: catalog.TablePartition(t.ID, sh), Consistent: true})
		for it.Next() {
			item := it.Item()
			row := make([]sqltypes.Value, len(t.Columns))
			if err := t.DecodeRow(item.Attrs, row); err != nil {
				it.Close()
				return nil, err
			}
			rows++
			for i, ix := range t.Indexes {
				k := t.EntryKey(ix, row)
				expected[i][string(k.Partition)+"\x00"+string(k.Sort)] = attrsDigest(t.EntryAttrs(ix, row))
			}
		}
		err := it.Err()
		it.Close()
		if err != nil {
			return nil, ClassifyError(err)
		}
	}
	out := []CheckResult{{Table: t.Name, Rows: rows, Index: t.Name + "_pkey", Entries: rows}}
	for i, ix := range t.Indexes {
		res := CheckResult{Table: t.Name, Rows: rows, Index: ix.Name}
		found := map[string]bool{}
		for sh := 0; sh < ix.Shards; sh++ {
			it := e.Store.Scan(ctx, kv.ScanRequest{Partition: catalog.IndexPartition(ix.ID, sh), Consistent: true})
			for it.Next() {
				item := it.Item()
				res.Entries++
				k := string(item.Key.Partition) + "\x00" + string(item.Key.Sort)
				want, ok := expected[i][k]
				if !ok || want != attrsDigest(item.Attrs) {
					res.Orphaned++
					continue
				}
				found[k] = true
			}
			err := it.Err()
			it.Close()
			if err != nil {
				return nil, ClassifyError(err)
			}
		}
		res.Missing = int64(len(expected[i]) - len(found))
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
func (e *Executor) CreateView(ctx context.Context, cat *catalog.Catalog, cv *planner.CreateView) error {
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, version uint64) (catalog.Change, error) {
		var ch catalog.Change
		if s.HasTable(cv.Name) {
			return ch, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", cv.Name)
		}
		v := &catalog.View{ID: version, Name: cv.Name, SQL: cv.SQL, Depends: cv.Depends}
		for _, c := range cv.Columns {
			v.Columns = append(v.Columns, c.Name)
			v.Types = append(v.Types, c.Type)
		}
		if old, ok := s.StoredView(cv.Name); ok {
			if !cv.OrReplace {
				return ch, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", cv.Name)
			}
			if len(v.Columns) < len(old.Columns) {
				return ch, pgerr.New(pgerr.InvalidTableDefinition, "cannot drop columns from view")
			}
			for i := range old.Columns {
				if old.Columns[i] != v.Columns[i] {
					return ch, pgerr.New(pgerr.InvalidTableDefinition, "cannot change name of view column %q to %q", old.Columns[i], v.Columns[i]).
						WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.")
				}
				if old.Types[i] != v.Types[i] {
					return ch, pgerr.New(pgerr.InvalidTableDefinition, "cannot change data type of view column %q from %s to %s", old.Columns[i], old.Types[i], v.Types[i])
				}
			}
			v.ID = old.ID
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
func (e *Executor) DropView(ctx context.Context, cat *catalog.Catalog, dv *planner.DropView, notice func(*pgerr.Error)) error {
	var missing, cascaded []string
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		var ch catalog.Change
		missing, cascaded = nil, nil
		for _, name := range dv.Names {
			if _, ok := s.StoredView(name); !ok {
				if s.HasTable(name) {
					return ch, pgerr.New(pgerr.WrongObjectType, "%q is not a view", name).WithHint("Use DROP TABLE to remove a table.")
				}
				if dv.IfExists {
					missing = append(missing, name)
					continue
				}
				return ch, pgerr.New(pgerr.UndefinedTable, "view %q does not exist", name)
			}
			if dv.Cascade {
				more := dependentViews(s, name)
				cascaded = append(cascaded, more...)
				ch.DeleteViews = append(ch.DeleteViews, more...)
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
	for i, v := range cascaded {
		cascaded[i] = "view " + v
	}
	cascadeNotice(cascaded, notice)
	return nil
}

// cascadeNotice tells, as PostgreSQL does, which objects ("view v",
// "constraint c on table t") a CASCADE dropped.
func cascadeNotice(objects []string, notice func(*pgerr.Error)) {
	switch len(objects) {
	case 0:
	case 1:
		notice(pgerr.Notice("drop cascades to %s", objects[0]))
	default:
		lines := make([]string, len(objects))
		for i, v := range objects {
			lines[i] = "drop cascades to " + v
		}
		notice(pgerr.Notice("drop cascades to %d other objects", len(objects)).WithDetail("%s", strings.Join(lines, "\n")))
	}
}

// dependentViews lists, for DROP ... CASCADE, every view that reads name,
// directly or through other views.
func dependentViews(s *catalog.Snapshot, name string) []string {
	var out []string
	seen := map[string]bool{name: true}
	queue := []string{name}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, v := range s.Views() {
			if seen[v.Name] {
				continue
			}
			for _, d := range v.Depends {
				if d == cur {
					seen[v.Name] = true
					out = append(out, v.Name)
					queue = append(queue, v.Name)
					break
				}
			}
		}
	}
	return out
}

// dependents refuses to drop a relation a stored view reads (unless that
// view is dropped by the same statement), as PostgreSQL does without
// CASCADE.
func dependents(s *catalog.Snapshot, name, kind string, dropping []string) error {
	for _, v := range s.Views() {
		if v.Name == name {
			continue
		}
		gone := false
		for _, d := range dropping {
			gone = gone || d == v.Name
		}
		if gone {
			continue
		}
		for _, d := range v.Depends {
			if d == name {
				return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop %s %s because other objects depend on it", kind, name).
					WithDetail("view %s depends on %s %s", v.Name, kind, name).
					WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
			}
		}
	}
	return nil
}
