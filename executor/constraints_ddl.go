package executor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/parser"
)

// ALTER TABLE ... ADD | DROP | VALIDATE CONSTRAINT, online.
//
// A UNIQUE constraint is a unique index built as CREATE INDEX builds one:
// published in state building (writers maintain it from then on, and its
// entries' not-exists conditions already hold them to it), backfilled
// chunk by chunk, then made public; a duplicate among existing rows fails
// the statement and removes the index.
//
// A CHECK or FOREIGN KEY is published first, marked not valid, so every
// writer enforces it from then on; after writers that planned without it
// have finished (this process's Gate, and the shared-store staleness
// window for other proxies) the existing rows are read and checked; a
// violation removes the constraint and fails the statement, else it is
// marked valid. NOT VALID stops after publishing; VALIDATE CONSTRAINT
// runs the check later. Writes go on throughout.

// AlterConstraint runs an AddConstraint, DropConstraint,
// ValidateConstraint or RenameConstraint; fn is what functions in a CHECK see while existing
// rows are validated.
func (e *Executor) AlterConstraint(ctx context.Context, cat *catalog.Catalog, st ir.Statement, fn builtins.Context, notice func(*pgerr.Error)) error {
	switch x := st.(type) {
	case *ir.AddConstraint:
		return e.addConstraint(ctx, cat, x, fn, notice)
	case *ir.DropConstraint:
		return e.dropConstraint(ctx, cat, x, notice)
	case *ir.ValidateConstraint:
		return e.validateConstraint(ctx, cat, x, fn)
	case *ir.RenameConstraint:
		return e.renameConstraint(ctx, cat, x)
	}
	return pgerr.New(pgerr.InternalError, "executor: %T is not a constraint change", st)
}

func (e *Executor) addConstraint(ctx context.Context, cat *catalog.Catalog, add *ir.AddConstraint, fn builtins.Context, notice func(*pgerr.Error)) error {
	if add.Exclusion != nil {
		return e.addExclusion(ctx, cat, add, fn, notice)
	}
	if add.Unique != nil {
		ix := *add.Unique
		if ix.Deferrable {
			return e.addDeferrableUnique(ctx, cat, add.Table, &ix, notice)
		}
		return e.CreateIndex(ctx, cat, &ir.CreateIndex{Table: add.Table, Index: &ix, Partitions: add.UniquePartitions}, notice)
	}
	if add.AutoIndex != nil {
		ix := *add.AutoIndex
		if err := e.CreateIndex(ctx, cat, &ir.CreateIndex{Table: add.Table, Index: &ix, Partitions: add.AutoIndexPartitions}, notice); err != nil {
			return err
		}
	}
	name := ""
	switch {
	case add.FK != nil:
		name = add.FK.Name
	case add.Check != nil:
		name = add.Check.Name
	}
	// Publish the constraint, not yet valid: writers enforce it from now on.
	tables := []string{add.Table}
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		tables = []string{add.Table}
		t, err := s.Table(add.Table)
		if err != nil {
			return catalog.Change{}, err
		}
		if err := notRewriting(t); err != nil {
			return catalog.Change{}, err
		}
		if t.HasConstraint(name) {
			return catalog.Change{}, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", name, t.Name)
		}
		nt := t.Clone()
		ch := catalog.Change{Put: []*catalog.Table{nt}}
		if add.FK != nil {
			fk := *add.FK
			fk.NotValid = true
			if err := checkReferencedKey(s, nt, &fk); err != nil {
				return catalog.Change{}, err
			}
			nt.ForeignKeys = append(nt.ForeignKeys, fk)
			if fk.RefTable != nt.Name {
				// The referenced table's writers enforce the key too: a
				// transaction that changed its rows under the old schema
				// must not commit after the validation (Txn's revision
				// rule), so its descriptor gets a new revision as well.
				p, err := s.Table(fk.RefTable)
				if err != nil {
					return catalog.Change{}, err
				}
				if err := notRewriting(p); err != nil {
					return catalog.Change{}, err
				}
				ch.Put = append(ch.Put, p.Clone())
			}
		} else {
			c := *add.Check
			c.NotValid = true
			nt.Checks = append(nt.Checks, c)
			// A partitioned table's check is its partitions' too, each
			// validated with its own rows (before the table's own).
			tables = nil
			for _, m := range s.Descendants(t) {
				if m.HasConstraint(name) {
					return catalog.Change{}, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", name, m.Name)
				}
				mc := m.Clone()
				mc.Checks = append(mc.Checks, c)
				ch.Put = append(ch.Put, mc)
				tables = append(tables, m.Name)
			}
			tables = append(tables, t.Name)
		}
		return ch, nil
	})
	if err != nil || add.NotValid {
		return err
	}
	for _, table := range tables {
		if err = e.validate(ctx, cat, table, name, add.CheckExpr, fn); err != nil {
			break
		}
	}
	if err != nil {
		// Remove what this statement added; a concurrent DROP may have
		// beaten us to it.
		_, _ = cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
			var ch catalog.Change
			for _, table := range tables {
				t, err := s.Table(table)
				if err != nil {
					continue
				}
				nt := t.Clone()
				removeConstraint(nt, name)
				ch.Put = append(ch.Put, nt)
			}
			return ch, nil
		})
		if add.AutoIndex != nil {
			_ = e.DropIndex(ctx, cat, &ir.DropIndex{Name: add.AutoIndex.Name, IfExists: true}, func(*pgerr.Error) {})
		}
		return err
	}
	return nil
}

// checkReferencedKey makes sure fk's referenced table (as of s) still has
// a unique key on the referenced columns.
func checkReferencedKey(s *catalog.Snapshot, t *catalog.Table, fk *catalog.ForeignKey) error {
	parent := t
	if fk.RefTable != t.Name {
		p, err := s.Table(fk.RefTable)
		if err != nil {
			return err
		}
		parent = p
	}
	if _, _, ok := parent.KeyFor(fk.RefColumns); !ok {
		return pgerr.New(pgerr.InvalidForeignKey, "there is no unique constraint matching given keys for referenced table %q", parent.Name)
	}
	return nil
}

// removeConstraint drops the foreign key or check called name from t.
func removeConstraint(t *catalog.Table, name string) bool {
	if t.Rewrite != nil {
		// A primary-key change in progress publishes t.Rewrite when it
		// is done (Clone copied it): the constraint goes from there too.
		removeConstraint(t.Rewrite, name)
	}
	for i, fk := range t.ForeignKeys {
		if fk.Name == name {
			t.ForeignKeys = append(t.ForeignKeys[:i], t.ForeignKeys[i+1:]...)
			return true
		}
	}
	for i, c := range t.Checks {
		if c.Name == name {
			t.Checks = append(t.Checks[:i], t.Checks[i+1:]...)
			return true
		}
	}
	return false
}

// validate checks the existing rows of table against its not-valid
// constraint name (checkExpr bound for a check) and marks it valid.
func (e *Executor) validate(ctx context.Context, cat *catalog.Catalog, table, name string, checkExpr ir.Expr, fn builtins.Context) error {
	if !cat.InBlock() {
		if err := e.waitForWriters(ctx, cat); err != nil {
			return err
		}
	}
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	t, err := snap.Table(table)
	if err != nil {
		return err
	}
	var fk *catalog.ForeignKey
	for i := range t.ForeignKeys {
		if t.ForeignKeys[i].Name == name {
			fk = &t.ForeignKeys[i]
		}
	}
	switch {
	case fk != nil:
		parent := t
		if fk.RefTable != t.Name {
			if parent, err = snap.Table(fk.RefTable); err != nil {
				return err
			}
		}
		ps := snap.PartitionSet(parent)
		// A partitioned table's rows are its leaves'.
		children := []*catalog.Table{t}
		if cs := snap.PartitionSet(t); cs != nil {
			children = cs.Leaves()
		}
		for _, child := range children {
			if err = e.validateForeignKey(ctx, e.rowsOf(ctx, cat, referenceTables(child, parent, ps)...), child, parent, ps, fk); err != nil {
				break
			}
		}
	case checkExpr != nil:
		err = e.validateCheck(ctx, e.rowsOf(ctx, cat, t), t, name, checkExpr, fn)
	default:
		return pgerr.New(pgerr.UndefinedObject, "constraint %q of relation %q does not exist", name, table)
	}
	if err != nil {
		return err
	}
	parentID := t.ID
	if fk != nil {
		if p, _ := snap.Table(fk.RefTable); p != nil {
			parentID = p.ID
		}
	}
	if cat.InBlock() && (sharedTable(cat, t) || !cat.CreatedInBlock(parentID)) {
		// Other sessions' rows (of the table, or of the referenced table,
		// which they may delete) are checked after the commit, which
		// publishes the constraint NOT VALID until then (ddlblock.go).
		id := t.ID
		return e.afterCommit(ctx, cat, fmt.Sprintf("validating constraint %q", name), func(ctx context.Context, cat *catalog.Catalog) error {
			snap, err := cat.Snapshot(ctx)
			if err != nil {
				return err
			}
			cur, parent := snap.TableByID(id), snap.TableByID(parentID)
			if cur == nil || parent == nil {
				return nil // dropped since
			}
			return e.validate(ctx, cat, cur.Name, name, checkExpr, fn)
		})
	}
	_, err = cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, err := s.Table(table)
		if err != nil {
			return catalog.Change{}, err
		}
		nt := t.Clone()
		for i := range nt.ForeignKeys {
			if nt.ForeignKeys[i].Name == name {
				nt.ForeignKeys[i].NotValid = false
			}
		}
		for i := range nt.Checks {
			if nt.Checks[i].Name == name {
				nt.Checks[i].NotValid = false
			}
		}
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	return err
}

// eachRow calls fn for every row of t, read shard by shard in key order.
func (e *Executor) eachRow(ctx context.Context, r kv.ReadWriter, t *catalog.Table, fn func(row []sqltypes.Value) error) error {
	for sh := 0; sh < t.Shards; sh++ {
		it := r.Scan(ctx, kv.ScanRequest{Partition: t.Partition(sh), Consistent: true})
		n := 0
		for it.Next() {
			if n++; n%cancelCheckEvery == 0 && ctx.Err() != nil {
				it.Close()
				return ctx.Err()
			}
			row := make([]sqltypes.Value, len(t.Columns))
			if err := t.DecodeRow(it.Item().Attrs, row); err != nil {
				it.Close()
				return err
			}
			if err := fn(row); err != nil {
				it.Close()
				return err
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

func (e *Executor) validateCheck(ctx context.Context, r kv.ReadWriter, t *catalog.Table, name string, expr ir.Expr, fn builtins.Context) error {
	if fn.Now.IsZero() {
		fn.Now = time.Now()
	}
	ev := &ir.EvalContext{Now: fn.Now, Fn: fn}
	return e.eachRow(ctx, r, t, func(row []sqltypes.Value) error {
		v, err := expr.Eval(ev, row)
		if err != nil {
			return err
		}
		if !v.IsNull() && !ir.Truthy(v) {
			return pgerr.New(pgerr.CheckViolation, "check constraint %q of relation %q is violated by some row", name, t.Name)
		}
		return nil
	})
}

// validateForeignKey checks that every row of child has its referenced
// row in parent, looking the keys up in batches; ps is parent's partition
// set when it is partitioned (the rows are its leaves').
func (e *Executor) validateForeignKey(ctx context.Context, r kv.ReadWriter, child, parent *catalog.Table, ps *catalog.PartitionSet, fk *catalog.ForeignKey) error {
	return e.validateForeignKeyWith(ctx, r, child, parent, ps, fk, func(row []sqltypes.Value) error {
		return pgerr.New(pgerr.ForeignKeyViolation, "insert or update on table %q violates foreign key constraint %q", child.Name, fk.Name).
			WithValues(keyDetail(child, fk.Columns, row, "Key %s is not present in table %q.", parent.Name))
	})
}

// validateForeignKeyWith is validateForeignKey with missing the error of
// a row whose referenced row is not there.
func (e *Executor) validateForeignKeyWith(ctx context.Context, r kv.ReadWriter, child, parent *catalog.Table, ps *catalog.PartitionSet, fk *catalog.ForeignKey, missing func(row []sqltypes.Value) error) error {
	var keys []kv.Key
	var rows [][]sqltypes.Value
	flush := func() error {
		if len(keys) == 0 {
			return nil
		}
		items, err := r.Get(ctx, kv.GetRequest{Keys: keys, Consistent: true})
		if err != nil {
			return ClassifyError(err)
		}
		for i, it := range items {
			if !kv.Found(it) {
				return missing(rows[i])
			}
		}
		keys, rows = keys[:0], rows[:0]
		return nil
	}
	err := e.eachRow(ctx, r, child, func(row []sqltypes.Value) error {
		vals := values(row, fk.Columns)
		if hasNull(vals) {
			if fk.MatchFull && !allNull(vals) {
				return pgerr.New(pgerr.ForeignKeyViolation, "insert or update on table %q violates foreign key constraint %q", child.Name, fk.Name).
					WithDetail("MATCH FULL does not allow mixing of null and nonnull key values.")
			}
			return nil
		}
		k, in, ok, err := referencedIn(parent, ps, fk, vals)
		if err != nil {
			return err
		}
		if !ok {
			return pgerr.New(pgerr.InvalidForeignKey, "there is no unique constraint matching given keys for referenced table %q", parent.Name)
		}
		if in == nil {
			return missing(row)
		}
		keys, rows = append(keys, k), append(rows, row)
		if len(keys) >= lockBatch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// referenceTables are the tables a foreign key's validation reads: the
// referencing table, the referenced one and, when it is partitioned (ps),
// its leaves.
func referenceTables(child, parent *catalog.Table, ps *catalog.PartitionSet) []*catalog.Table {
	out := []*catalog.Table{child, parent}
	if ps != nil {
		out = append(out, ps.Leaves()...)
	}
	return out
}

func allNull(vals []sqltypes.Value) bool {
	for _, v := range vals {
		if !v.IsNull() {
			return false
		}
	}
	return true
}

func (e *Executor) validateConstraint(ctx context.Context, cat *catalog.Catalog, v *ir.ValidateConstraint, fn builtins.Context) error {
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	t, err := snap.Table(v.Table)
	if err != nil {
		return err
	}
	for _, c := range t.Constraints() {
		if c.Name != v.Name {
			continue
		}
		if c.FK == nil && c.Check == nil {
			return pgerr.New(pgerr.WrongObjectType, "constraint %q of relation %q is not a foreign key or check constraint", v.Name, t.Name)
		}
		if c.Validated {
			return nil
		}
		return e.validate(ctx, cat, t.Name, v.Name, v.CheckExpr, fn)
	}
	return pgerr.New(pgerr.UndefinedObject, "constraint %q of relation %q does not exist", v.Name, t.Name)
}

func (e *Executor) dropConstraint(ctx context.Context, cat *catalog.Catalog, d *ir.DropConstraint, notice func(*pgerr.Error)) error {
	var dropped *catalog.Index
	var cascaded []string
	dropsKey := false
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		dropped, cascaded, dropsKey = nil, nil, false
		t, err := s.Table(d.Table)
		if err != nil {
			return catalog.Change{}, err
		}
		if err := notRewriting(t); err != nil {
			return catalog.Change{}, err
		}
		nt := t.Clone()
		if removeConstraint(nt, d.Name) {
			ch := catalog.Change{Put: []*catalog.Table{nt}}
			if t.IsPartitioned() {
				// Its partitions' copies go with it.
				for _, m := range s.Descendants(t) {
					if mc := m.Clone(); removeConstraint(mc, d.Name) {
						ch.Put = append(ch.Put, mc)
					}
				}
			}
			return ch, nil
		}
		if d.Name == t.PrimaryKeyName() && t.HasConstraint(d.Name) {
			if err := keyDroppable(s, t, d.Cascade); err != nil {
				return catalog.Change{}, err
			}
			dropsKey = true // the rows move (dropkey.go)
			return catalog.Change{}, errSkip
		}
		ix := t.Index(d.Name)
		if ix == nil || !ix.Constraint {
			if d.IfExists {
				return catalog.Change{}, errSkip
			}
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "constraint %q of relation %q does not exist", d.Name, t.Name)
		}
		ch := catalog.Change{}
		refs := dependentKeys(s, t, ix)
		if len(refs) > 0 && !d.Cascade {
			return ch, dependentsError("constraint "+d.Name+" on table "+t.Name, refs, "index "+ix.Name)
		}
		ch.Put, cascaded = dropForeignKeys(s, refs, nt)
		for i, x := range nt.Indexes {
			if x.Name == d.Name {
				nt.Indexes = append(nt.Indexes[:i], nt.Indexes[i+1:]...)
				break
			}
		}
		ch.Put = append(ch.Put, nt)
		dropped = ix
		return ch, nil
	})
	if errors.Is(err, errSkip) && dropsKey {
		return e.dropKey(ctx, cat, d.Table, d.Cascade, notice)
	}
	if errors.Is(err, errSkip) {
		notice(pgerr.Notice("constraint %q of relation %q does not exist, skipping", d.Name, d.Table))
		return nil
	}
	if err != nil {
		return err
	}
	cascadeObjectsNotice(cascaded, notice)
	if dropped != nil {
		return e.afterCommit(ctx, cat, fmt.Sprintf("deleting the entries of index %q", dropped.Name), func(ctx context.Context, _ *catalog.Catalog) error {
			return e.clearIndex(ctx, dropped)
		})
	}
	return nil
}

// dependentKeys lists the foreign keys that reference t through its
// unique index ix (nil: through its primary key).
func dependentKeys(s *catalog.Snapshot, t *catalog.Table, ix *catalog.Index) []catalog.Reference {
	var out []catalog.Reference
	for _, r := range s.ReferencedBy(t.Name) {
		if by, _, ok := t.KeyFor(r.FK.RefColumns); ok && by == ix {
			out = append(out, r)
		}
	}
	return out
}

// dropForeignKeys removes the foreign keys refs from their tables (self
// references from self, the descriptor being changed) and returns the
// changed descriptors and, for the NOTICE, what was dropped.
func dropForeignKeys(s *catalog.Snapshot, refs []catalog.Reference, self *catalog.Table) ([]*catalog.Table, []string) {
	changed := map[string]*catalog.Table{}
	var out []*catalog.Table
	var names []string
	for _, r := range refs {
		nt := changed[r.Child.Name]
		switch {
		case nt != nil:
		case self != nil && r.Child.Name == self.Name:
			nt = self
			changed[nt.Name] = nt
		default:
			nt = r.Child.Clone()
			changed[nt.Name] = nt
			out = append(out, nt)
		}
		removeConstraint(nt, r.FK.Name)
		names = append(names, fmt.Sprintf("constraint %s on table %s", r.FK.Name, r.Child.Name))
	}
	return out, names
}

// dependentsError is PostgreSQL's 2BP01 for dropping what foreign keys
// depend on: what names the object dropped, on the object they depend on.
func dependentsError(what string, refs []catalog.Reference, on string) error {
	lines := make([]string, len(refs))
	for i, r := range refs {
		lines[i] = fmt.Sprintf("constraint %s on table %s depends on %s", r.FK.Name, r.Child.Name, on)
	}
	return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop %s because other objects depend on it", what).
		WithDetail("%s", strings.Join(lines, "\n")).
		WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
}

// referencesFrom lists the foreign keys referencing table name from
// tables that DROP TABLE does not drop with it.
func referencesFrom(s *catalog.Snapshot, name string, dropping []string) []catalog.Reference {
	var out []catalog.Reference
	for _, r := range s.ReferencedBy(name) {
		gone := false
		for _, d := range dropping {
			gone = gone || d == r.Child.Name
		}
		if !gone {
			out = append(out, r)
		}
	}
	return out
}

// indexInUse refuses DROP INDEX of a UNIQUE constraint's index (the
// constraint owns it) and of a unique index foreign keys reference.
func indexInUse(s *catalog.Snapshot, t *catalog.Table, ix *catalog.Index) error {
	if ix.Constraint {
		return pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop index %s because constraint %s on table %s requires it", ix.Name, ix.Name, t.Name).
			WithHint("You can drop constraint %s on table %s instead.", ix.Name, t.Name)
	}
	if refs := dependentKeys(s, t, ix); len(refs) > 0 && ix.Unique {
		return dependentsError("index "+ix.Name, refs, "index "+ix.Name)
	}
	return nil
}

// abandonIndex removes an index whose build failed for good (a unique
// index over duplicate values) and its entries.
func (e *Executor) abandonIndex(ctx context.Context, cat *catalog.Catalog, table string, ix *catalog.Index) {
	// The statement has failed already; what is left behind if this fails
	// too is a building index, which DROP INDEX removes.
	ctx = context.WithoutCancel(ctx)
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, err := s.Table(table)
		if err != nil {
			return catalog.Change{}, err
		}
		nt := t.Clone()
		for i, x := range nt.Indexes {
			if x.ID == ix.ID {
				nt.Indexes = append(nt.Indexes[:i], nt.Indexes[i+1:]...)
				return catalog.Change{Put: []*catalog.Table{nt}}, nil
			}
		}
		return catalog.Change{}, errSkip
	})
	if err == nil {
		_ = e.clearIndex(ctx, ix)
	}
}

// Foreign keys under other schema changes: hooks for ALTER TABLE's DROP
// COLUMN and RENAME TO and for TRUNCATE.

// putTable returns the descriptor of table name that the change ch
// writes, cloning it from s into ch the first time.
func putTable(s *catalog.Snapshot, ch *catalog.Change, name string) (*catalog.Table, error) {
	for _, t := range ch.Put {
		if t.Name == name {
			return t, nil
		}
	}
	t, err := s.Table(name)
	if err != nil {
		return nil, err
	}
	// A primary-key change in progress would publish its copy of the
	// descriptor, from before this change.
	if err := notRewriting(t); err != nil {
		return nil, err
	}
	nt := t.Clone()
	ch.Put = append(ch.Put, nt)
	return nt, nil
}

// dropColumnKeys is DROP COLUMN's part for foreign keys, called before
// column i leaves nt (the descriptor being changed): nt's own keys on the
// column go with it; keys that reference the column need CASCADE
// (PostgreSQL's 2BP01) and then go too; column ordinals past i shift down
// in nt's keys and in the keys of the tables referencing nt, whose
// descriptors join ch. It returns the NOTICEs of what CASCADE dropped.
func dropColumnKeys(s *catalog.Snapshot, nt *catalog.Table, i int, cascade bool, ch *catalog.Change) ([]*pgerr.Error, error) {
	col := nt.Columns[i].Name
	kept := nt.ForeignKeys[:0]
	for _, fk := range nt.ForeignKeys {
		if !slices.Contains(fk.Columns, i) {
			kept = append(kept, fk)
		}
	}
	nt.ForeignKeys = kept
	var refs []catalog.Reference
	for _, r := range s.ReferencedBy(nt.Name) {
		if slices.Contains(r.FK.RefColumns, i) && (r.Child.Name != nt.Name || nt.HasConstraint(r.FK.Name)) {
			refs = append(refs, r)
		}
	}
	what := fmt.Sprintf("column %s of table %s", col, nt.Name)
	if len(refs) > 0 && !cascade {
		return nil, dependentsError(what, refs, what)
	}
	var notices []*pgerr.Error
	for _, r := range refs {
		t := nt
		if r.Child.Name != nt.Name {
			var err error
			if t, err = putTable(s, ch, r.Child.Name); err != nil {
				return nil, err
			}
		}
		removeConstraint(t, r.FK.Name)
		notices = append(notices, pgerr.Notice("drop cascades to constraint %s on table %s", r.FK.Name, r.Child.Name))
	}
	if err := shiftKeyColumns(s, nt, i, ch); err != nil {
		return nil, err
	}
	return notices, nil
}

// shiftKeyColumns renumbers the foreign keys' column ordinals past i, gone
// from nt (named as in s): in nt's own keys and in the keys of the tables
// referencing nt, whose descriptors join ch. Keys on column i itself are
// the caller's to remove first.
func shiftKeyColumns(s *catalog.Snapshot, nt *catalog.Table, i int, ch *catalog.Change) error {
	shift := func(cols []int) {
		for j, c := range cols {
			if c > i {
				cols[j] = c - 1
			}
		}
	}
	for k := range nt.ForeignKeys {
		shift(nt.ForeignKeys[k].Columns)
		if nt.ForeignKeys[k].RefTable == nt.Name {
			shift(nt.ForeignKeys[k].RefColumns)
		}
	}
	for _, r := range s.ReferencedBy(nt.Name) {
		if r.Child.Name == nt.Name || slices.Contains(r.FK.RefColumns, i) {
			continue
		}
		t, err := putTable(s, ch, r.Child.Name)
		if err != nil {
			return err
		}
		for k := range t.ForeignKeys {
			if t.ForeignKeys[k].Name == r.FK.Name {
				shift(t.ForeignKeys[k].RefColumns)
			}
		}
	}
	return nil
}

// renameReferences points the foreign keys that reference table from at
// its new name to (nt is its descriptor being changed; the referencing
// tables' descriptors join ch).
func renameReferences(s *catalog.Snapshot, nt *catalog.Table, from, to string, ch *catalog.Change) error {
	for k := range nt.ForeignKeys {
		if nt.ForeignKeys[k].RefTable == from {
			nt.ForeignKeys[k].RefTable = to
		}
	}
	for _, r := range s.ReferencedBy(from) {
		if r.Child.Name == from {
			continue
		}
		t, err := putTable(s, ch, r.Child.Name)
		if err != nil {
			return err
		}
		for k := range t.ForeignKeys {
			if t.ForeignKeys[k].RefTable == from {
				t.ForeignKeys[k].RefTable = to
			}
		}
	}
	return nil
}

// truncatedWith lists the tables TRUNCATE empties: those it names and,
// with CASCADE, every table whose foreign keys reference one of those,
// transitively. Without CASCADE a referencing table left out is
// PostgreSQL's 0A000: its rows would be left without their referenced
// rows.
func truncatedWith(s *catalog.Snapshot, named []*catalog.Table, cascade bool) ([]*catalog.Table, error) {
	out := append([]*catalog.Table(nil), named...)
	in := map[string]bool{}
	for _, t := range named {
		in[t.Name] = true
	}
	for i := 0; i < len(out); i++ {
		for _, r := range s.ReferencedBy(out[i].Name) {
			if in[r.Child.Name] {
				continue
			}
			if !cascade {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot truncate a table referenced in a foreign key constraint").
					WithDetail("Table %q references %q.", r.Child.Name, out[i].Name).
					WithHint("Truncate table %q at the same time, or use TRUNCATE ... CASCADE.", r.Child.Name)
			}
			in[r.Child.Name] = true
			out = append(out, r.Child)
		}
	}
	return out, nil
}

// Foreign keys under a primary-key change (rekey.go).

// keyChangeReferences refuses a primary-key change, t's key becoming
// future's, that would leave foreign keys without the unique key they
// reference. When the statement drops the key's constraint (DROP
// CONSTRAINT t_pkey, ADD PRIMARY KEY ...) every key referencing the old
// primary key depends on it, as in PostgreSQL (2BP01); ALTER PRIMARY KEY
// only needs the referenced columns to stay a unique key of future.
func keyChangeReferences(s *catalog.Snapshot, t, future *catalog.Table, dropsKey bool) error {
	var broken []catalog.Reference
	for _, r := range dependentKeys(s, t, nil) {
		if _, _, ok := future.KeyFor(r.FK.RefColumns); dropsKey || !ok {
			broken = append(broken, r)
		}
	}
	if len(broken) == 0 {
		return nil
	}
	pk := t.PrimaryKeyName()
	return dependentsError("constraint "+pk+" on table "+t.Name, broken, "index "+pk)
}

// rekeyedReferences is a primary-key change's part for foreign keys in its
// final catalog change, which replaces t by done: no key may have lost its
// referenced key meanwhile, and when the change removed t's hidden row id
// (ADD PRIMARY KEY), the column ordinals past it shift in done's keys and
// in the keys referencing it, whose descriptors join ch.
func rekeyedReferences(s *catalog.Snapshot, t, done *catalog.Table, dropsKey bool, ch *catalog.Change) error {
	if err := keyChangeReferences(s, t, done, dropsKey); err != nil {
		return err
	}
	for i, c := range t.Columns {
		if c.Hidden && done.ColumnIndex(c.Name) < 0 {
			return shiftKeyColumns(s, done, i, ch)
		}
	}
	return nil
}

// renameConstraint renames a foreign key, a check, or a unique constraint
// and its index, as PostgreSQL does.
func (e *Executor) renameConstraint(ctx context.Context, cat *catalog.Catalog, r *ir.RenameConstraint) error {
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t, err := s.Table(r.Table)
		if err != nil {
			return catalog.Change{}, err
		}
		if err := notRewriting(t); err != nil {
			return catalog.Change{}, err
		}
		switch {
		case !t.HasConstraint(r.From):
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "constraint %q for table %q does not exist", r.From, t.Name)
		case t.HasConstraint(r.To):
			return catalog.Change{}, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", r.To, t.Name)
		}
		nt := t.Clone()
		if !t.RowIDKeyed() && r.From == t.PrimaryKeyName() {
			// The primary key's constraint and its index are renamed.
			if err := renamePrimaryKey(s, nt, r.To); err != nil {
				return catalog.Change{}, err
			}
		}
		if c := t.ConstraintComment(r.From); c != "" {
			// The comment stays with the constraint, as PostgreSQL's
			// stays with its OID.
			delete(nt.ConstraintComments, r.From)
			nt.ConstraintComments[r.To] = c
		}
		for i := range nt.ForeignKeys {
			if nt.ForeignKeys[i].Name == r.From {
				nt.ForeignKeys[i].Name = r.To
			}
		}
		for i := range nt.Checks {
			if nt.Checks[i].Name == r.From {
				nt.Checks[i].Name = r.To
			}
		}
		for _, ix := range nt.Indexes {
			if ix.Name == r.From && ix.Constraint {
				if _, other := s.FindIndex(r.To); other != nil || s.HasRelation(r.To) {
					return catalog.Change{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", r.To)
				}
				ix.Name = r.To
			}
		}
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	return err
}

// renamePrimaryKey names t's primary key (its constraint and its index)
// to: a relation name, so one taken is 42P07.
func renamePrimaryKey(s *catalog.Snapshot, t *catalog.Table, to string) error {
	sc, _ := catalog.SplitName(t.Name)
	q := catalog.QualifiedKey(sc, to)
	if _, other := s.FindIndex(q); other != nil || s.HasRelation(q) || s.TableByKeyName(q) != nil {
		return pgerr.New(pgerr.DuplicateTable, "relation %q already exists", to)
	}
	t.PKeyName = to
	if to == t.BareName()+"_pkey" {
		t.PKeyName = ""
	}
	return nil
}

// renameIndexColumn rewrites the expressions and predicates of t's
// indexes that read column from to read column to (PostgreSQL's stored
// trees follow a rename, and pg_get_indexdef prints the new name), and
// returns the indexes it rewrote.
func renameIndexColumn(t *catalog.Table, from, to string) ([]*catalog.Index, error) {
	var changed []*catalog.Index
	rename := func(ix *catalog.Index, text string) (string, error) {
		if !slices.Contains(exprColumns(text), from) {
			return text, nil
		}
		out, err := parser.RenameColumnRefs(text, from, to)
		if err == nil && slices.Contains(exprColumns(out), from) {
			err = errors.New("still names the column")
		}
		if err != nil {
			return "", pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q: index %q refers to it", from, ix.Name).
				WithHint("Drop the index, rename the column, and create the index again.")
		}
		return out, nil
	}
	for _, ix := range t.Indexes {
		if !indexReads(ix, from) {
			continue
		}
		var err error
		for j := range ix.Columns {
			if k := &ix.Columns[j]; k.Column < 0 {
				if k.Expr, err = rename(ix, k.Expr); err != nil {
					return nil, err
				}
			}
		}
		if ix.Predicate, err = rename(ix, ix.Predicate); err != nil {
			return nil, err
		}
		changed = append(changed, ix)
	}
	return changed, nil
}

// renamePartitionKeyColumn rewrites the partition key expressions of t
// that read column from to read column to (PostgreSQL keeps them as
// trees, so pg_get_partkeydef prints the new name).
func renamePartitionKeyColumn(t *catalog.Table, from, to string) error {
	if t.Partitioning == nil || !t.Partitioning.HasExprs() {
		return nil
	}
	p := *t.Partitioning
	p.Exprs = slices.Clone(p.Exprs)
	for i, text := range p.Exprs {
		if text == "" || !slices.Contains(exprColumns(text), from) {
			continue
		}
		out, err := parser.RenameColumnRefs(text, from, to)
		if err == nil && slices.Contains(exprColumns(out), from) {
			err = errors.New("still names the column")
		}
		if err != nil {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q: the partition key of %q refers to it", from, t.BareName())
		}
		p.Exprs[i] = out
	}
	t.Partitioning = &p
	return nil
}

// deparsePartitionKey spells t's partition key expressions, rewritten by
// renamePartitionKeyColumn, as pg_get_partkeydef prints them (the
// rewritten text quotes the new name).
func deparsePartitionKey(t *catalog.Table) error {
	if t.Partitioning == nil || !t.Partitioning.HasExprs() {
		return nil
	}
	for i, text := range t.Partitioning.Exprs {
		if text == "" {
			continue
		}
		e, err := ir.BindPartitionExpr(t, i)
		if err != nil {
			return err
		}
		if out, ok := ir.Deparse(e); ok {
			t.Partitioning.Exprs[i] = out
		}
	}
	return nil
}

// renameCheckColumn rewrites the CHECK constraints of t that read column
// from to read column to, which it is being renamed to (PostgreSQL keeps
// checks as parsed trees, so they follow a rename; zproxy keeps their
// text). A check whose text cannot be rewritten so refuses the rename.
func renameCheckColumn(t *catalog.Table, from, to string) error {
	for k := range t.Checks {
		c := &t.Checks[k]
		if !slices.Contains(exprColumns(c.SQL), from) {
			continue
		}
		sql, err := parser.RenameColumnRefs(c.SQL, from, to)
		if err == nil && slices.Contains(exprColumns(sql), from) {
			err = errors.New("still names the column")
		}
		if err != nil {
			return pgerr.New(pgerr.FeatureNotSupported, "cannot rename column %q: CHECK constraint %q refers to it", from, c.Name).
				WithHint("Drop the constraint, rename the column, and add the constraint again.")
		}
		c.SQL = sql
	}
	return nil
}
