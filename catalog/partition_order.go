package catalog

import "slices"

// A table attached as a partition (ALTER TABLE ... ATTACH PARTITION) may
// have its parent's columns in another order (PostgreSQL maps them by
// name). zproxy keeps every member of a partition tree in the root's
// column order, so that a row of the root is a row of any member: the
// attached table's descriptor is reordered. Nothing stored moves: a row's
// columns are attributes named by column, its key the primary key's
// values in key order, an index entry its keys' values.

// AttachOrder returns, for table t to be attached to parent (the binder
// checked that both have the same visible columns), the position in t of
// each of parent's columns in parent's order (a hidden row id for a
// hidden row id), and whether it differs from t's own order.
func AttachOrder(parent, t *Table) (order []int, differs bool) {
	hidden := func(tbl *Table) int {
		return slices.IndexFunc(tbl.Columns, func(c Column) bool { return c.Hidden })
	}
	for i, pc := range parent.Columns {
		j := t.ColumnIndex(pc.Name)
		if pc.Hidden {
			j = hidden(t)
		}
		if j < 0 {
			return nil, false // not attachable; the binder says why
		}
		order = append(order, j)
		differs = differs || j != i
	}
	return order, differs || len(order) != len(t.Columns)
}

// ReorderColumns puts t's columns in order (order[i] is the present
// position of the column that goes to position i; a permutation), with
// every ordinal t's descriptor holds renumbered: its primary key, its
// partition key, its indexes' columns and its foreign keys' columns.
// Other tables' foreign keys referencing t are the caller's.
func (t *Table) ReorderColumns(order []int) {
	to := make([]int, len(order)) // present position -> new position
	cols := make([]Column, len(order))
	for i, j := range order {
		to[j] = i
		cols[i] = t.Columns[j]
	}
	t.Columns = cols
	move := func(k int) int {
		if k < 0 {
			return k // an expression's key
		}
		return to[k]
	}
	t.renumberColumns(move)
	for n := range t.ForeignKeys {
		fk := &t.ForeignKeys[n]
		fk.Columns = slices.Clone(fk.Columns)
		for i := range fk.Columns {
			fk.Columns[i] = move(fk.Columns[i])
		}
	}
}

// renumberColumns moves every column ordinal of t's primary key,
// partition key and indexes (each a copy) by move: columns have moved
// (ReorderColumns) or one was removed (RemoveColumn). Expression keys
// (ordinal -1) stay.
func (t *Table) renumberColumns(move func(int) int) {
	t.PrimaryKey = slices.Clone(t.PrimaryKey)
	for i := range t.PrimaryKey {
		t.PrimaryKey[i].Column = move(t.PrimaryKey[i].Column)
	}
	if t.Partitioning != nil {
		p := *t.Partitioning
		p.Columns, p.ExprColumns = slices.Clone(p.Columns), slices.Clone(p.ExprColumns)
		for i := range p.Columns {
			if p.Columns[i] >= 0 { // an expression part's -1 stays
				p.Columns[i] = move(p.Columns[i])
			}
		}
		for i := range p.ExprColumns {
			p.ExprColumns[i] = move(p.ExprColumns[i])
		}
		t.Partitioning = &p
	}
	for n, ix := range t.Indexes {
		cp := *ix
		cp.Columns = slices.Clone(ix.Columns)
		for i := range cp.Columns {
			cp.Columns[i].Column = move(cp.Columns[i].Column)
		}
		cp.Include = slices.Clone(ix.Include)
		for i := range cp.Include {
			cp.Include[i] = move(cp.Include[i])
		}
		cp.Stored = slices.Clone(ix.Stored)
		for i := range cp.Stored {
			cp.Stored[i] = move(cp.Stored[i])
		}
		cp.ExprColumns = slices.Clone(ix.ExprColumns)
		for i := range cp.ExprColumns {
			cp.ExprColumns[i] = move(cp.ExprColumns[i])
		}
		if ix.Gist != nil {
			g := *ix.Gist
			g.Column = move(g.Column)
			cp.Gist = &g
		}
		if ix.Exclusion != nil {
			x := *ix.Exclusion
			x.Elements = slices.Clone(x.Elements)
			for i := range x.Elements {
				x.Elements[i].Column = move(x.Elements[i].Column)
			}
			cp.Exclusion = &x
		}
		t.Indexes[n] = &cp
	}
}
