package planner

import (
	"slices"
	"sort"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// writeKind says what a write does to its target's rows.
type writeKind int

const (
	writeInsert writeKind = iota
	writeUpdate
	writeDelete
)

// bindConstraints gathers what a write of kind k to t must enforce; set
// lists the columns an UPDATE (or an upsert's DO UPDATE) assigns. It
// returns nil when there is nothing.
func (b *Binder) bindConstraints(t *catalog.Table, k writeKind, set map[int]ir.Expr) (*ir.Constraints, error) {
	c := &ir.Constraints{Tables: map[string]*ir.TableConstraints{}}
	// The target, then every table a referential action writes.
	queue := []*catalog.Table{t}
	written := map[*catalog.Table]bool{t: true} // the tables the statement writes rows of
	if ps := b.snap.PartitionSet(t); ps != nil {
		// A write to a partitioned table writes its partitions (each
		// with its own constraints), in a transaction of its own. Each
		// member carries its clones of the row triggers of the
		// partitioned tables above it: a row routed to a leaf fires
		// the leaf's, as PostgreSQL's does.
		members := make([]*catalog.Table, len(ps.Members))
		for i, m := range ps.Members {
			members[i] = b.snap.WithClonedTriggers(m)
		}
		ps = &catalog.PartitionSet{Root: ps.Root, Members: members}
		c.Partitions, c.Txn = ps, true
		queue = append(queue, ps.Members...)
		for _, m := range ps.Members {
			written[m] = true
		}
	}
	clones := map[cloneKey]map[uint64]string{}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if _, done := c.Tables[cur.Name]; done {
			continue
		}
		tc := &ir.TableConstraints{Table: cur}
		for _, ch := range cur.Checks {
			e, _, err := b.bindCheck(cur, ch.SQL)
			if err != nil {
				return nil, err
			}
			tc.Checks = append(tc.Checks, ir.BoundCheck{Name: ch.Name, Expr: e})
		}
		sort.Slice(tc.Checks, func(i, j int) bool { return tc.Checks[i].Name < tc.Checks[j].Name })
		for i, col := range cur.Columns {
			if col.Generated == "" {
				continue
			}
			e, err := b.bindGenerated(cur, i)
			if err != nil {
				return nil, err
			}
			tc.Generated = append(tc.Generated, ir.BoundGenerated{Column: i, Expr: e})
		}
		if written[cur] && k != writeDelete {
			// A partition's exclusion constraints hold within it.
			x, err := b.bindExclusions(cur)
			if err != nil {
				return nil, err
			}
			tc.Exclusions = x
		}
		if cur != t || k != writeDelete {
			for _, ix := range cur.Indexes {
				if ix.Unique && ix.Deferrable {
					tc.Deferrable = append(tc.Deferrable, ix)
				}
			}
		}
		// A partition's foreign keys are its own and its partitioned
		// ancestors' (catalog/partition_fk.go).
		for _, fk := range b.snap.AllForeignKeys(cur) {
			parent := cur
			if fk.RefTable != cur.Name {
				p, err := b.snap.TableByKey(fk.RefTable)
				if err != nil {
					return nil, err
				}
				parent = p
			}
			tc.Outgoing = append(tc.Outgoing, ir.OutgoingFK{FK: fk, Parent: parent, ParentPartitions: b.snap.PartitionSet(parent)})
		}
		incoming := func(r catalog.Reference, via *catalog.Table) {
			child := r.Child
			if child.Name == cur.Name {
				child = cur // a self-reference: the descriptor being written
			}
			in := ir.IncomingFK{FK: r.FK, Child: child, ChildPartitions: b.snap.PartitionSet(child), Via: via}
			if via != nil {
				// One naming per key, for all the leaves the write reaches.
				k := cloneKey{child.ID, r.FK.Name, via.ID}
				if clones[k] == nil {
					clones[k] = b.snap.FKCloneNames(child, r.FK, via)
				}
				in.CloneName = clones[k][cur.ID]
			}
			tc.Incoming = append(tc.Incoming, in)
			for _, a := range []catalog.FKAction{r.FK.OnDelete, r.FK.OnUpdate} {
				if a == catalog.Cascade || a == catalog.SetNull || a == catalog.SetDefault {
					queue = append(queue, child)
					if in.ChildPartitions != nil {
						queue = append(queue, in.ChildPartitions.Members...)
					}
				}
			}
		}
		for _, r := range b.snap.ReferencedBy(cur.Name) {
			incoming(r, nil)
		}
		// A row of a partition is a row of the partitioned tables above
		// it, and the keys referencing them reference it.
		for _, r := range b.snap.ReferencedThrough(cur) {
			incoming(r.Reference, r.Via)
		}
		if cur == t && k != writeDelete && t.IsPartition() && !t.IsPartitioned() {
			tc.PartitionOf = b.snap.PartitionSet(b.snap.Root(t))
		}
		if cur.IsPartitioned() {
			// Its partitions have its checks, and check the rows they
			// take (named for the partition, as PostgreSQL names it).
			tc.Checks = nil
		}
		c.Tables[cur.Name] = tc
	}
	for _, tc := range c.Tables {
		for _, in := range tc.Incoming {
			if in.FK.OnDelete != catalog.SetDefault && in.FK.OnUpdate != catalog.SetDefault {
				continue
			}
			ctc := c.Tables[in.Child.Name]
			if ctc.Defaults == nil {
				ctc.Defaults = make([]ir.Expr, len(in.Child.Columns))
			}
			for _, col := range in.FK.Columns {
				e, err := b.defaultExpr(in.Child, col)
				if err != nil {
					return nil, err
				}
				ctc.Defaults[col] = e
			}
		}
	}
	target := c.Tables[t.Name]
	assigned := func(cols []int) bool {
		for _, col := range cols {
			if _, ok := set[col]; ok {
				return true
			}
		}
		return false
	}
	switch k {
	case writeInsert:
		c.Txn = c.Txn || len(target.Outgoing) > 0
	case writeDelete:
		c.Txn = c.Txn || len(target.Incoming) > 0
	}
	if k != writeDelete {
		for _, o := range target.Outgoing {
			c.Txn = c.Txn || assigned(o.FK.Columns)
		}
		for _, in := range target.Incoming {
			c.Txn = c.Txn || assigned(in.FK.RefColumns)
		}
	}
	// An exclusion constraint's check reads other rows and locks its key
	// in the statement's transaction.
	c.Txn = c.Txn || len(target.Exclusions) > 0
	// So does a deferrable unique constraint's (on any table it writes).
	for _, tc := range c.Tables {
		c.Txn = c.Txn || len(tc.Deferrable) > 0
	}
	if !c.Txn && len(c.Tables) == 1 && len(target.Checks) == 0 && len(target.Generated) == 0 && target.PartitionOf == nil {
		return nil, nil
	}
	return c, nil
}

// cloneKey names a foreign key (its table's ID and its name) referencing
// a partitioned table (via), whose copies FKCloneNames names.
type cloneKey struct {
	child uint64
	fk    string
	via   uint64
}

// conflictArbiters resolves INSERT ... ON CONFLICT's target to the unique
// keys that decide whether a proposed row conflicts, as PostgreSQL's
// infer_arbiter_indexes does: the primary key (nil) or unique indexes whose
// keys (columns and expressions) are exactly the target's, in any order,
// a partial one only when the target's WHERE implies its predicate; or the
// constraint ON CONSTRAINT names. Without a target every unique key and
// exclusion constraint is an arbiter (DO NOTHING; the rewriter requires a
// target for DO UPDATE), and ON CONSTRAINT may name an exclusion
// constraint for DO NOTHING.
func (b *Binder) conflictArbiters(t *catalog.Table, oc *parser.OnConflict) ([]*catalog.Index, error) {
	keys, err := b.inferArbiters(t, oc)
	if err != nil {
		return nil, err
	}
	for _, ix := range keys {
		if ix != nil && ix.Deferrable {
			// Its entries may repeat until its check: no point read
			// decides a conflict (PostgreSQL refuses it likewise).
			return nil, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "ON CONFLICT does not support deferrable unique constraints/exclusion constraints as arbiters")
		}
	}
	return keys, nil
}

func (b *Binder) inferArbiters(t *catalog.Table, oc *parser.OnConflict) ([]*catalog.Index, error) {
	if oc.Constraint != "" {
		if oc.Constraint == t.PrimaryKeyName() && !t.Columns[t.PrimaryKey[0].Column].Hidden {
			return []*catalog.Index{nil}, nil
		}
		if ix := t.Index(oc.Constraint); ix != nil && ix.Unique && ix.Constraint {
			return []*catalog.Index{ix}, nil
		}
		if ix := t.Index(oc.Constraint); ix != nil && ix.Exclusion != nil {
			if !oc.DoNothing {
				return nil, pgerr.New(pgerr.WrongObjectType, "ON CONFLICT DO UPDATE not supported with exclusion constraints")
			}
			return []*catalog.Index{ix}, nil
		}
		return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q for table %q does not exist", oc.Constraint, t.Name)
	}
	if len(oc.Columns) == 0 && len(oc.Exprs) == 0 {
		// DO NOTHING (the only action without a target): every unique
		// key and exclusion constraint arbitrates.
		keys := b.arbiterKeys(t)
		for _, ix := range t.Indexes {
			if ix.Exclusion != nil {
				keys = append(keys, ix)
			}
		}
		return keys, nil
	}
	cols := make([]int, 0, len(oc.Columns))
	for _, name := range oc.Columns {
		c := t.ColumnIndex(name)
		if c < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column %q does not exist", name)
		}
		cols = append(cols, c)
	}
	// The target's expressions, by what they compute (ir.ExprKey).
	exprs := map[string]bool{}
	for _, x := range oc.Exprs {
		e, err := b.bindIndexExpr(t, x.SQL, false)
		if err != nil {
			return nil, err
		}
		exprs[ir.ExprKey(e)] = true
	}
	var where []ir.Expr
	if oc.Where != nil {
		e, err := b.bindIndexExpr(t, oc.Where.SQL, true)
		if err != nil {
			return nil, err
		}
		where = ir.Conjuncts(e)
	}
	var out []*catalog.Index
	if len(exprs) == 0 && catalog.SameColumns(t.PrimaryKey, cols) {
		out = append(out, nil)
	}
	for _, ix := range t.Indexes {
		if !ix.Unique || ix.State != catalog.StatePublic || !b.snap.IndexComplete(t, ix) {
			continue
		}
		bound, err := ir.BindIndex(t, ix)
		if err != nil {
			return nil, err
		}
		if !sameKeys(t, ix, bound, cols, exprs) {
			continue
		}
		if bound != nil && bound.Pred != nil && !ir.Implies(where, bound.Pred, nil) {
			continue
		}
		out = append(out, ix)
	}
	if len(out) == 0 {
		return nil, pgerr.New(pgerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification")
	}
	return out, nil
}

// sameKeys reports whether ix's keys are the columns cols and the
// expressions exprs (by ir.ExprKey), as sets.
func sameKeys(t *catalog.Table, ix *catalog.Index, bound *ir.BoundIndex, cols []int, exprs map[string]bool) bool {
	var ixCols []int
	ixExprs := map[string]bool{}
	for i, k := range ix.Columns {
		if k.Column >= 0 {
			ixCols = append(ixCols, k.Column)
		} else {
			ixExprs[ir.ExprKey(bound.Keys[i])] = true
		}
	}
	if len(ixExprs) != len(exprs) {
		return false
	}
	for k := range exprs {
		if !ixExprs[k] {
			return false
		}
	}
	seen := map[int]bool{}
	for _, c := range cols {
		seen[c] = true
	}
	for _, c := range ixCols {
		if !seen[c] {
			return false
		}
	}
	for _, c := range cols {
		if !slices.Contains(ixCols, c) {
			return false
		}
	}
	return true
}

// allUniqueKeys lists every unique key of t: the primary key (nil) and its
// unique indexes, built or building (writers maintain both).
// arbiterKeys are t's unique keys that can arbitrate a conflict: a
// partitioned table's index not yet on every partition cannot
// (catalog.Snapshot.IndexComplete).
func (b *Binder) arbiterKeys(t *catalog.Table) []*catalog.Index {
	return slices.DeleteFunc(allUniqueKeys(t), func(ix *catalog.Index) bool { return !b.snap.IndexComplete(t, ix) })
}

func allUniqueKeys(t *catalog.Table) []*catalog.Index {
	out := []*catalog.Index{nil}
	for _, ix := range t.Indexes {
		if ix.Unique {
			out = append(out, ix)
		}
	}
	return out
}
