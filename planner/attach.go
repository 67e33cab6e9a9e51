package planner

import (
	"slices"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// ALTER TABLE parent ATTACH PARTITION t {FOR VALUES ... | DEFAULT} makes
// an existing table a partition. Every member of a partition tree has
// the root's columns in the root's order (catalog.PartitionSet), so t
// must have the parent's columns, types, NOT NULLs and CHECK constraints
// (PostgreSQL's checks and errors) and the parent's primary key (zproxy's:
// a row's key is its store key); columns in another order are put in the
// parent's (catalog.AttachOrder); the parent's other indexes t lacks are
// created on it. The executor checks
// t's rows (and the default partition's) against the bound.

// bindAttach binds the ATTACH PARTITION action a of ALTER TABLE parent.
func (b *Binder) bindAttach(parent *catalog.Table, a parser.AlterAction, actions int) (*ir.AttachPartition, error) {
	if !parent.IsPartitioned() {
		return nil, pgerr.New(pgerr.InvalidObjectDefinition, "table %q is not partitioned", parent.BareName())
	}
	if a.Bound.Default && parent.Partitioning.Strategy == "hash" {
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "a hash-partitioned table may not have a default partition")
	}
	if !a.Bound.Default && a.Bound.Strategy != parent.Partitioning.Strategy {
		return nil, pgerr.New(pgerr.InvalidTableDefinition, "invalid bound specification for a %s partition", parent.Partitioning.Strategy).WithPosition(a.Bound.Pos)
	}
	if actions > 1 {
		return nil, unsupported("ATTACH PARTITION with other actions in one ALTER TABLE is not supported")
	}
	t, err := b.snap.Table(a.Column)
	if err != nil || t.Virtual != nil {
		if _, isView := b.snap.StoredView(a.Column); isView {
			return nil, pgerr.New(pgerr.WrongObjectType, "ALTER action ATTACH PARTITION cannot be performed on relation %q", a.Column).
				WithDetail("This operation is not supported for views.")
		}
		return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", a.Column)
	}
	if t.IsPartition() {
		return nil, pgerr.New(pgerr.WrongObjectType, "%q is already a partition", t.BareName())
	}
	if t.Inherits() {
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot attach inheritance child as partition")
	}
	if len(b.snap.Inheritors(t)) > 0 {
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot attach inheritance parent as partition")
	}
	if t.ID == parent.ID || slices.Contains(b.snap.Descendants(t), parent) || b.snap.Root(parent).ID == t.ID {
		return nil, pgerr.New(pgerr.DuplicateTable, "circular inheritance not allowed").
			WithDetail("%q is already a child of %q.", parent.BareName(), t.BareName())
	}
	if t.Temp != parent.Temp {
		if t.Temp {
			return nil, pgerr.New(pgerr.WrongObjectType, "cannot attach a temporary relation as partition of permanent relation %q", parent.BareName())
		}
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot attach a permanent relation as partition of temporary relation %q", parent.BareName())
	}
	if t.Matview != nil {
		return nil, pgerr.New(pgerr.WrongObjectType, "ALTER action ATTACH PARTITION cannot be performed on relation %q", t.BareName()).
			WithDetail("This operation is not supported for materialized views.")
	}
	if t.TTL != nil {
		return nil, unsupported("row expiry (ttl) on a partition is not supported")
	}
	if err := b.attachColumns(parent, t); err != nil {
		return nil, err
	}
	if order, differs := catalog.AttachOrder(parent, t); differs {
		// The indexes to build are numbered as the attached table's
		// columns will be (the executor reorders them alike).
		t = t.Clone()
		t.ReorderColumns(order)
	}
	bound, err := b.partitionBound(t, parent, a.Bound)
	if err != nil {
		return nil, err
	}
	ap := &ir.AttachPartition{Bound: bound}
	if ap.Indexes, err = b.attachIndexes(parent, t); err != nil {
		return nil, err
	}
	return ap, nil
}

// attachColumns checks that t has parent's columns as PostgreSQL's
// MergeAttributesIntoExisting and MergeConstraintsIntoExisting do, and
// as zproxy needs them: in the parent's order, with its primary key.
func (b *Binder) attachColumns(parent, t *catalog.Table) error {
	for _, c := range t.Columns {
		if !c.Hidden && parent.ColumnIndex(c.Name) < 0 {
			return pgerr.New(pgerr.DatatypeMismatch, "table %q contains column %q not found in parent %q", t.BareName(), c.Name, parent.BareName()).
				WithDetail("The new partition may contain only the columns present in parent.")
		}
	}
	for _, pc := range parent.Columns {
		if pc.Hidden {
			continue
		}
		i := t.ColumnIndex(pc.Name)
		if i < 0 || t.Columns[i].Hidden {
			return pgerr.New(pgerr.DatatypeMismatch, "child table is missing column %q", pc.Name)
		}
		c := t.Columns[i]
		if !c.Type.Same(pc.Type) {
			return pgerr.New(pgerr.DatatypeMismatch, "child table %q has different type for column %q", t.BareName(), pc.Name)
		}
		if pc.NotNull && !c.NotNull {
			return pgerr.New(pgerr.DatatypeMismatch, "column %q in child table must be marked NOT NULL", pc.Name)
		}
	}
	for _, pch := range parent.Checks {
		i := slices.IndexFunc(t.Checks, func(c catalog.Check) bool { return c.Name == pch.Name })
		if i < 0 {
			return pgerr.New(pgerr.DatatypeMismatch, "child table is missing constraint %q", pch.Name)
		}
		same, err := b.sameCheck(parent, pch.SQL, t, t.Checks[i].SQL)
		if err != nil {
			return err
		}
		if !same {
			return pgerr.New(pgerr.DatatypeMismatch, "child table %q has different definition for check constraint %q", t.BareName(), pch.Name)
		}
	}
	// zproxy's own: a row's key is its store key, and a row of the root
	// is a row of every member.
	keyName := func(tbl *catalog.Table) func(k catalog.KeyColumn) string {
		return func(k catalog.KeyColumn) string {
			if c := tbl.Columns[k.Column]; !c.Hidden {
				return c.Name
			}
			return "" // a row id
		}
	}
	sameKey := slices.EqualFunc(t.PrimaryKey, parent.PrimaryKey, func(a, b catalog.KeyColumn) bool {
		return a.Desc == b.Desc && keyName(t)(a) == keyName(parent)(b)
	})
	if !sameKey {
		return pgerr.New(pgerr.FeatureNotSupported, "attaching table %q, whose primary key is not %q's, is not supported", t.BareName(), parent.BareName()).
			WithHint("Give the table the partitioned table's primary key first.")
	}
	if _, differs := catalog.AttachOrder(parent, t); differs {
		// The table's descriptor takes the parent's order
		// (catalog.ReorderColumns), which a partitioned table's members
		// and other tables' foreign keys would have to follow.
		if t.IsPartitioned() {
			return unsupported("attaching partitioned table %q, whose columns are not in the order of %q's, is not supported", t.BareName(), parent.BareName())
		}
		if len(b.snap.ReferencedBy(t.Name)) > 0 {
			return unsupported("attaching table %q, whose columns are not in the order of %q's and which a foreign key references, is not supported", t.BareName(), parent.BareName())
		}
	}
	return nil
}

// sameCheck reports whether two CHECK constraints' expressions, each
// over its own table, are the same (as PostgreSQL compares their trees:
// spelling and parentheses aside).
func (b *Binder) sameCheck(pt *catalog.Table, psql string, t *catalog.Table, sql string) (bool, error) {
	if psql == sql {
		return true, nil
	}
	pe, _, err := b.bindCheck(pt, psql)
	if err != nil {
		return false, err
	}
	e, _, err := b.bindCheck(t, sql)
	if err != nil {
		return false, err
	}
	ps, ok1 := ir.Deparse(pe)
	s, ok2 := ir.Deparse(e)
	return ok1 && ok2 && ps == s, nil
}

// attachIndexes returns the parent's indexes t lacks (one of t's
// matches when it indexes the same keys the same way, as PostgreSQL
// attaches an existing index), to be created on t.
func (b *Binder) attachIndexes(parent, t *catalog.Table) ([]*ir.CreateIndex, error) {
	var out []*ir.CreateIndex
	for _, ix := range parent.Indexes {
		pix, err := b.copyIndex(parent, t, ix)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(t.Indexes, pix.SameKeys) {
			continue
		}
		ci := &ir.CreateIndex{Table: t.Name, Index: pix}
		if err := b.partitionIndexes(t, ci); err != nil {
			return nil, err
		}
		out = append(out, ci)
	}
	return out, nil
}
