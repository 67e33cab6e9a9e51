package executor

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// Writes to a partitioned table (catalog/partition.go) go to its
// partitions: each row is routed to the leaf whose bound takes it, and
// the rows of each leaf are written as a write to that table (its own
// key range, indexes and triggers). The binder made the statement run in
// a transaction of its own (ir.Constraints.Txn), so the leaves' writes
// commit together.

// routeRows groups rows by the leaf partition each belongs to, leaves in
// the order their first row came; at maps each leaf's rows back to their
// indexes in rows.
func routeRows(ps *catalog.PartitionSet, rows [][]sqltypes.Value) (order []*catalog.Table, groups map[*catalog.Table][][]sqltypes.Value, at map[*catalog.Table][]int, err error) {
	groups, at = map[*catalog.Table][][]sqltypes.Value{}, map[*catalog.Table][]int{}
	for i, row := range rows {
		leaf, err := ps.Route(row)
		if err != nil {
			return nil, nil, nil, err
		}
		if _, ok := groups[leaf]; !ok {
			order = append(order, leaf)
		}
		groups[leaf] = append(groups[leaf], row)
		at[leaf] = append(at[leaf], i)
	}
	return order, groups, at, nil
}

// insertPartitioned writes an INSERT's rows into the partitions of its
// target; RETURNING follows the statement's row order, as PostgreSQL's.
func (ec *execCtx) insertPartitioned(ctx context.Context, n *optimizer.Insert, ps *catalog.PartitionSet, rows [][]sqltypes.Value, stats *kv.Stats) (WriteResult, error) {
	order, groups, at, err := routeRows(ps, rows)
	if err != nil {
		return WriteResult{}, err
	}
	for _, leaf := range order {
		for _, row := range groups[leaf] {
			if err := checkRow(leaf, row); err != nil {
				return WriteResult{}, err
			}
			if err := ec.checkConstraints(leaf, row); err != nil {
				return WriteResult{}, err
			}
		}
	}
	// Every leaf's rows are written before any's foreign keys are checked
	// (a row may reference one the statement puts in another partition).
	if ec.txn != nil && ec.pending == nil {
		var pending []*writeSet
		ec.pending = &pending
		res, err := ec.insertLeaves(ctx, n, order, groups, at, rows, stats)
		ec.pending = nil
		if err != nil {
			return res, err
		}
		for _, w := range pending {
			if err := ec.enforceReferences(ctx, w, stats); err != nil {
				return WriteResult{}, finishWrite(w.t, err)
			}
		}
		return res, nil
	}
	return ec.insertLeaves(ctx, n, order, groups, at, rows, stats)
}

// insertLeaves writes each leaf's rows of insertPartitioned.
func (ec *execCtx) insertLeaves(ctx context.Context, n *optimizer.Insert, order []*catalog.Table, groups map[*catalog.Table][][]sqltypes.Value, at map[*catalog.Table][]int, rows [][]sqltypes.Value, stats *kv.Stats) (WriteResult, error) {
	var res WriteResult
	if n.OnConflict != nil {
		// Each leaf's rows are an upsert of that leaf, arbitrated by its
		// copies of the parent's unique keys (which include the partition
		// key, so a row can only conflict within its leaf). RETURNING
		// lists the rows inserted or updated in the statement's row
		// order, as PostgreSQL's (which decides row by row).
		var from []int
		type run struct {
			leaf *catalog.Table
			at   []int // its rows' indexes in rows
		}
		var runs []run
		trig := false
		for _, leaf := range order {
			runs = append(runs, run{leaf, at[leaf]})
			trig = trig || len(leaf.Triggers) > 0
		}
		if trig {
			// The leaves' BEFORE triggers fire row by row in the
			// statement's order: each run of consecutive rows of one
			// leaf is an upsert of its own, and a row the statement
			// inserted or updated in an earlier run is one it may not
			// affect again (ec.touched).
			leafOf := make([]*catalog.Table, len(rows))
			for _, leaf := range order {
				for _, i := range at[leaf] {
					leafOf[i] = leaf
				}
			}
			runs = runs[:0]
			for i, leaf := range leafOf {
				if len(runs) == 0 || runs[len(runs)-1].leaf != leaf {
					runs = append(runs, run{leaf: leaf})
				}
				runs[len(runs)-1].at = append(runs[len(runs)-1].at, i)
			}
			ec.touched = map[uint64]map[string]bool{}
			defer func() { ec.touched = nil }()
		}
		for _, rn := range runs {
			leaf := rn.leaf
			ln := *n
			ln.Table = leaf
			oc := *n.OnConflict
			oc.Arbiters = nil
			if oc.Untargeted {
				// Every unique key of the leaf arbitrates, its own too.
				oc.Arbiters = append(oc.Arbiters, nil)
				for _, ix := range leaf.Indexes {
					if !ix.Unique && ix.Exclusion == nil {
						continue
					}
					if ix.Deferrable {
						return WriteResult{}, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "ON CONFLICT does not support deferrable unique constraints/exclusion constraints as arbiters")
					}
					oc.Arbiters = append(oc.Arbiters, ix)
				}
			} else {
				for _, a := range n.OnConflict.Arbiters {
					ix, ok := catalog.PartitionIndex(leaf, a)
					if !ok {
						return WriteResult{}, pgerr.New(pgerr.InternalError, "partition %q lacks index %q of its partitioned table", leaf.Name, a.Name)
					}
					oc.Arbiters = append(oc.Arbiters, ix)
				}
			}
			ln.OnConflict = &oc
			lrows := groups[leaf]
			if trig {
				lrows = make([][]sqltypes.Value, len(rn.at))
				for k, i := range rn.at {
					lrows[k] = rows[i]
				}
			}
			evs := len(ec.leafEvents)
			r, err := ec.insertRows(ctx, &ln, leaf, lrows, n.Returning, stats)
			if err != nil {
				return WriteResult{}, err
			}
			for i := evs; i < len(ec.leafEvents); i++ {
				ec.leafEvents[i].from = rn.at[ec.leafEvents[i].from]
			}
			res.Count += r.Count
			res.Returning = append(res.Returning, r.Returning...)
			for _, i := range r.From {
				from = append(from, rn.at[i])
			}
		}
		if len(from) == len(res.Returning) {
			sortByInput(res.Returning, from)
		}
		return res, nil
	}
	for _, leaf := range order {
		r, err := ec.insertRows(ctx, n, leaf, groups[leaf], nil, stats)
		if err != nil {
			return WriteResult{}, err
		}
		res.Count += r.Count
	}
	if n.Returning != nil {
		for _, row := range rows {
			r, err := ec.returningRow(n.Returning, row)
			if err != nil {
				return WriteResult{}, err
			}
			res.Returning = append(res.Returning, r)
		}
	}
	return res, nil
}

// sortByInput orders rows, the i-th from input row from[i], by from.
func sortByInput(rows [][]sqltypes.Value, from []int) {
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return from[a] - from[b] })
	sorted := make([][]sqltypes.Value, len(rows))
	for k, i := range idx {
		sorted[k] = rows[i]
	}
	copy(rows, sorted)
}

// partTarget is one row an UPDATE or DELETE of a partitioned table found:
// the leaf holding it, its key there and the whole source row.
type partTarget struct {
	leaf *catalog.Table
	target
}

// modifyPartitioned is modify for a partitioned table: each row the
// source finds is in the leaf its key routes to (every row of a leaf is
// within its bound), read there and changed there; an UPDATE that moves a
// row out of its leaf's bound deletes it there and inserts it into the
// leaf the new row routes to, as PostgreSQL's does. The statement runs in
// a transaction (ir.Constraints.Txn), so no retry is needed here.
func (ec *execCtx) modifyPartitioned(ctx context.Context, ps *catalog.PartitionSet, src optimizer.Node, recheck ir.Expr, ret *ir.Returning, stats *kv.Stats,
	mk func(rt *catalog.Table, old current, extra []sqltypes.Value) (change, error)) (WriteResult, error) {
	w := len(ps.Root.Columns)
	in, err := ec.build(ctx, src)
	if err != nil {
		return WriteResult{}, err
	}
	var tgts []partTarget
	seen := map[*catalog.Table]map[string]bool{}
	err = drain(ctx, in, func(row []sqltypes.Value) error {
		leaf, err := ps.Route(row[:w])
		if err != nil {
			return err
		}
		k := leaf.RowKey(row[:w])
		if seen[leaf] == nil {
			seen[leaf] = map[string]bool{}
		}
		if seen[leaf][string(k.Sort)] {
			return nil
		}
		seen[leaf][string(k.Sort)] = true
		var s []sqltypes.Value
		if len(row) > w {
			s = copyRow(row)
		}
		tgts = append(tgts, partTarget{leaf: leaf, target: target{key: k, src: s}})
		return nil
	})
	in.Close()
	if err != nil {
		return WriteResult{}, err
	}
	keys := map[*catalog.Table][]kv.Key{}
	var order []*catalog.Table
	for _, tg := range tgts {
		if keys[tg.leaf] == nil {
			order = append(order, tg.leaf)
		}
		keys[tg.leaf] = append(keys[tg.leaf], tg.key)
	}
	cur := map[*catalog.Table]map[string]current{}
	for _, leaf := range order {
		if cur[leaf], err = ec.readCurrent(ctx, leaf, keys[leaf], stats); err != nil {
			return WriteResult{}, err
		}
	}
	sets := map[*catalog.Table]*writeSet{}
	var written []*catalog.Table
	set := func(t *catalog.Table) *writeSet {
		if sets[t] == nil {
			sets[t] = &writeSet{t: t}
			written = append(written, t)
		}
		return sets[t]
	}
	newKeys := map[*catalog.Table]map[string]bool{}
	var res WriteResult
	for _, tg := range tgts {
		old, ok := cur[tg.leaf][string(tg.key.Sort)]
		if !ok || old.expired {
			continue
		}
		c, extra, ok, err := ec.targetChange(tg.leaf, tg.target, w, old, recheck, mk)
		if err != nil {
			return WriteResult{}, err
		}
		if !ok {
			continue
		}
		if c.new != nil {
			dest, err := ps.Route(c.new)
			if err != nil {
				return WriteResult{}, err
			}
			if dest != tg.leaf {
				// A row that moves is deleted from its leaf and inserted
				// into dest: the BEFORE DELETE triggers of the one (NULL
				// leaves the row alone) and the BEFORE INSERT triggers
				// of the other (NULL inserts nothing) fire.
				if row, err := ec.fireBefore(tg.leaf, "DELETE", nil, c.old, nil); err != nil || row == nil {
					if err != nil {
						return WriteResult{}, err
					}
					continue
				}
				row, err := ec.fireLeafBefore(ps, dest, "INSERT", nil, nil, c.new)
				if err != nil {
					return WriteResult{}, err
				}
				if row == nil {
					set(tg.leaf).add(change{old: c.old, oldVersion: c.oldVersion})
					ec.leafEvents = append(ec.leafEvents, leafEvent{leaf: tg.leaf, event: "DELETE", c: change{old: c.old}})
					continue
				}
				c.new = row
			}
			if err := checkRow(dest, c.new); err != nil {
				return WriteResult{}, err
			}
			if err := ec.checkConstraints(dest, c.new); err != nil {
				return WriteResult{}, err
			}
			if newKeys[dest] == nil {
				newKeys[dest] = map[string]bool{}
			}
			nk := string(dest.EncodePK(nil, c.new))
			if newKeys[dest][nk] {
				return WriteResult{}, duplicateKey(dest, dest.RowAttrs(c.new, 0))
			}
			newKeys[dest][nk] = true
			if dest != tg.leaf {
				// The row moves: deleted from its leaf, inserted into
				// the one its new key routes to.
				set(tg.leaf).add(change{old: c.old, oldVersion: c.oldVersion, moved: c.new})
				set(dest).add(change{new: c.new})
				ec.leafEvents = append(ec.leafEvents,
					leafEvent{leaf: tg.leaf, event: "DELETE", c: change{old: c.old}},
					leafEvent{leaf: dest, event: "INSERT", c: change{new: c.new}})
			} else {
				set(tg.leaf).add(c)
				ec.leafEvents = append(ec.leafEvents, leafEvent{leaf: tg.leaf, event: "UPDATE", c: c})
			}
		} else {
			set(tg.leaf).add(c)
			ec.leafEvents = append(ec.leafEvents, leafEvent{leaf: tg.leaf, event: "DELETE", c: c})
		}
		res.Count++
		if ret != nil {
			r, err := ec.changeReturning(ret, c, extra)
			if err != nil {
				return WriteResult{}, err
			}
			res.Returning = append(res.Returning, r)
		}
	}
	ec.changed = nil
	ws := make([]*writeSet, len(written))
	for i, t := range written {
		ws[i] = sets[t]
	}
	if err := ec.commitAll(ctx, ws, stats); err != nil {
		return WriteResult{}, err
	}
	for _, w := range ws {
		ec.changed = append(ec.changed, w.changes...)
	}
	return res, nil
}

// writePartitioned writes COPY's rows into the partitions of its target
// (in the COPY's transaction): each run of consecutive rows bound for one
// leaf is one write, so that an error names the row it is about.
func (b *BulkInsert) writePartitioned(ctx context.Context, ps *catalog.PartitionSet, full [][]sqltypes.Value) error {
	leaves := make([]*catalog.Table, len(full))
	for i, row := range full {
		leaf, err := ps.Route(row)
		if err != nil {
			return &BulkRowError{Row: b.rows + int64(i), Formed: true, Err: err}
		}
		if err := checkRow(leaf, row); err != nil {
			return &BulkRowError{Row: b.rows + int64(i), Formed: true, Err: err}
		}
		if err := b.ec.checkConstraints(leaf, row); err != nil {
			return &BulkRowError{Row: b.rows + int64(i), Formed: true, Err: err}
		}
		leaves[i] = leaf
	}
	for from := 0; from < len(full); {
		to := from + 1
		for to < len(full) && leaves[to] == leaves[from] {
			to++
		}
		if b.ec.txn != nil {
			b.ec.txn.noteWrite(leaves[from])
		}
		if err := b.writeTxn(ctx, leaves[from], full[from:to], b.rows+int64(from)); err != nil {
			return err
		}
		if err := b.ex.widenZBounds(ctx, leaves[from], nil, full[from:to]); err != nil {
			return err
		}
		from = to
	}
	// The leaves' AFTER ROW triggers fire at Commit, in row order (those
	// of leaves without triggers are not kept); the partitioned table's
	// statement triggers' transition table keeps the rows.
	var kept [][]sqltypes.Value
	for i, row := range full {
		if firesAfterRowInsert(leaves[i]) {
			b.leafAfter = append(b.leafAfter, leafEvent{leaf: leaves[i], event: "INSERT", c: change{new: row}})
			kept = append(kept, row)
		}
	}
	if hasTransitionTable(b.t, "INSERT") {
		return b.keepInserted(full) // (the leaves' events share these rows)
	}
	return b.chargeKept(kept)
}

// withPartitions adds to the tables DROP TABLE names the partitions of
// those that are partitioned: they go with them, as in PostgreSQL. Tables
// inheriting from them go with CASCADE (cascaded lists them), else the
// drop fails (2BP01).
func withPartitions(s *catalog.Snapshot, names []string, cascade bool) (out, cascaded []string, err error) {
	out = append([]string(nil), names...)
	for _, name := range names {
		t, err := s.Table(name)
		if err != nil {
			continue
		}
		for _, m := range s.Descendants(t) {
			if slices.Contains(out, m.Name) {
				continue
			}
			if m.Inherits() {
				if !cascade {
					p := s.TableByID(m.Parents[0])
					return nil, nil, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop table %s because other objects depend on it", name).
						WithDetail("table %s depends on table %s", m.Name, p.Name).
						WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
				}
				cascaded = append(cascaded, "table "+m.Name)
			}
			out = append(out, m.Name)
		}
	}
	return out, cascaded, nil
}

// detachPartition makes the partition name of nt a table of its own (its
// rows, keys and indexes stay as they are).
func detachPartition(s *catalog.Snapshot, nt *catalog.Table, name string, ch *catalog.Change) error {
	p, err := s.Table(name)
	if err != nil {
		return err
	}
	if p.Bound == nil || len(p.Parents) == 0 || p.Parents[0] != nt.ID {
		return pgerr.New(pgerr.UndefinedTable, "relation %q is not a partition of relation %q", name, nt.Name)
	}
	pc := p.Clone()
	pc.Parents, pc.Bound = nil, nil
	// The foreign keys it had from the tables above it become its own,
	// as in PostgreSQL (and its partitions' from it).
	for _, in := range s.InheritedForeignKeys(p) {
		pc.ForeignKeys = append(pc.ForeignKeys, *in.FK)
		pc.ForeignKeys[len(pc.ForeignKeys)-1].Columns = slices.Clone(in.FK.Columns)
		pc.ForeignKeys[len(pc.ForeignKeys)-1].RefColumns = slices.Clone(in.FK.RefColumns)
	}
	ch.Put = append(ch.Put, pc)
	return nil
}

// attachPartition runs ALTER TABLE parent ATTACH PARTITION (the binder
// checked the table's columns and the bound against its siblings'). As
// a constraint ALTER TABLE adds, the bound is published first, so that
// every writer that plans afterwards routes rows to the new partition
// and checks direct writes to it against its bound; once the writers
// that planned before have finished, the table's rows are checked
// against the bound, and the default partition's against the bound's
// rows now being the new partition's (PostgreSQL's two 23514 errors).
// If one fails, the table is detached again. The parent's indexes the
// table lacks are then built on it.
func (e *Executor) attachPartition(ctx context.Context, cat *catalog.Catalog, parentName string, a ir.AlterAction, notice func(*pgerr.Error)) error {
	var id uint64
	_, err := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		parent, err := s.Table(parentName)
		if err != nil {
			return catalog.Change{}, err
		}
		t, err := s.Table(a.Column)
		if err != nil {
			return catalog.Change{}, err
		}
		if t.IsPartition() {
			return catalog.Change{}, pgerr.New(pgerr.WrongObjectType, "%q is already a partition", t.BareName())
		}
		if err := notRewriting(t); err != nil {
			return catalog.Change{}, err
		}
		nt := t.Clone()
		nt.Parents, nt.Bound = []uint64{parent.ID}, a.Attach.Bound
		if order, differs := catalog.AttachOrder(parent, nt); differs {
			nt.ReorderColumns(order) // as the binder numbered the indexes to build
		}
		id = nt.ID
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if err != nil {
		return err
	}
	err = e.validateAttach(ctx, cat, id)
	for _, ci := range a.Attach.Indexes {
		if err != nil {
			break
		}
		err = e.CreateIndex(ctx, cat, ci, notice)
	}
	if cat.InBlock() {
		if err != nil {
			return err // the block fails, and its changes with it
		}
		// The block checked the rows it sees; other sessions' are
		// checked after its commit, and the table detached again if one
		// fails.
		return e.afterCommit(ctx, cat, fmt.Sprintf("checking the rows of partition %q", a.Column), func(ctx context.Context, cat *catalog.Catalog) error {
			if err := e.validateAttach(ctx, cat, id); err != nil {
				return e.undoAttach(ctx, cat, id, err)
			}
			return nil
		})
	}
	if err == nil {
		return nil
	}
	return e.undoAttach(ctx, cat, id, err)
}

// undoAttach detaches table id again after err.
func (e *Executor) undoAttach(ctx context.Context, cat *catalog.Catalog, id uint64, err error) error {
	_, uerr := cat.Update(ctx, func(s *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		t := s.TableByID(id)
		if t == nil {
			return catalog.Change{}, errSkip
		}
		nt := t.Clone()
		nt.Parents, nt.Bound = nil, nil
		return catalog.Change{Put: []*catalog.Table{nt}}, nil
	})
	if uerr != nil && !errors.Is(uerr, errSkip) {
		return errors.Join(err, uerr)
	}
	return err
}

// checkDetachReferences refuses to detach partition name from table if
// a foreign key referencing table (or a partitioned table above it)
// references one of the partition's rows: the rows of the other
// partitions must hold every key referencing them, as PostgreSQL's
// 23503 "removing partition ... violates foreign key constraint".
func (e *Executor) checkDetachReferences(ctx context.Context, cat *catalog.Catalog, table, name string) error {
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	p, err := snap.Table(name)
	if err != nil {
		return nil // the detach reports it
	}
	gone := map[uint64]bool{p.ID: true}
	for _, m := range snap.Descendants(p) {
		gone[m.ID] = true
	}
	for _, r := range snap.ReferencedThrough(p) {
		ps := snap.PartitionSet(r.Via)
		kept := &catalog.PartitionSet{Root: ps.Root}
		for _, m := range ps.Members {
			if !gone[m.ID] {
				kept.Members = append(kept.Members, m)
			}
		}
		children := []*catalog.Table{r.Child}
		if cs := snap.PartitionSet(r.Child); cs != nil {
			children = cs.Leaves()
		}
		clone := snap.FKCloneNames(r.Child, r.FK, r.Via)[p.ID]
		for _, child := range children {
			err := e.validateForeignKeyWith(ctx, e.rowsOf(ctx, cat, referenceTables(child, r.Via, ps)...), child, r.Via, kept, r.FK, func(row []sqltypes.Value) error {
				return pgerr.New(pgerr.ForeignKeyViolation, "removing partition %q violates foreign key constraint %q", p.BareName(), clone).
					WithValues(keyDetail(child, r.FK.Columns, row, "Key %s is still referenced from table %q.", r.Child.Name))
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// validateInheritedFKs checks the rows of t, a table just attached as a
// partition, against the foreign keys it now has from the partitioned
// tables above it.
func (e *Executor) validateInheritedFKs(ctx context.Context, cat *catalog.Catalog, snap *catalog.Snapshot, t *catalog.Table) error {
	leaves := []*catalog.Table{t}
	if t.IsPartitioned() {
		leaves = snap.PartitionSet(t).Leaves()
	}
	for _, in := range snap.InheritedForeignKeys(t) {
		ref, err := snap.TableByKey(in.FK.RefTable)
		if err != nil {
			return err
		}
		for _, leaf := range leaves {
			if err := e.validateForeignKey(ctx, e.rowsOf(ctx, cat, referenceTables(leaf, ref, snap.PartitionSet(ref))...), leaf, ref, snap.PartitionSet(ref), in.FK); err != nil {
				return err
			}
		}
	}
	return nil
}

// validateAttach checks the rows of the partition just attached (table
// ID id) and of its default sibling against the partition constraints
// the attachment gave them.
func (e *Executor) validateAttach(ctx context.Context, cat *catalog.Catalog, id uint64) error {
	if !cat.InBlock() {
		if err := e.outwaitWriters(ctx, cat); err != nil {
			return err
		}
	}
	snap, err := cat.Snapshot(ctx)
	if err != nil {
		return err
	}
	t := snap.TableByID(id)
	parent := snap.Parent(t)
	ps := snap.PartitionSet(snap.Root(t))
	if err := e.validateInheritedFKs(ctx, cat, snap, t); err != nil {
		return err
	}
	// violated names the leaf whose row fails, as PostgreSQL's.
	check := func(m *catalog.Table, violated func(leaf string) *pgerr.Error) error {
		leaves := []*catalog.Table{m}
		if m.IsPartitioned() {
			leaves = snap.PartitionSet(m).Leaves()
		}
		for _, leaf := range leaves {
			ok := true
			err := e.forEachRow(ctx, e.rowsOf(ctx, cat, leaf), leaf, func(row []sqltypes.Value) bool {
				ok = ps.Holds(m, row)
				return ok
			})
			if err != nil {
				return err
			}
			if !ok {
				return violated(leaf.BareName())
			}
		}
		return nil
	}
	if err := check(t, func(leaf string) *pgerr.Error {
		return pgerr.New(pgerr.CheckViolation, "partition constraint of relation %q is violated by some row", leaf)
	}); err != nil {
		return err
	}
	if t.Bound.Default {
		return nil
	}
	for _, c := range snap.Children(parent) {
		if c.Bound != nil && c.Bound.Default {
			return check(c, func(leaf string) *pgerr.Error {
				return pgerr.New(pgerr.CheckViolation, "updated partition constraint for default partition %q would be violated by some row", leaf)
			})
		}
	}
	return nil
}
