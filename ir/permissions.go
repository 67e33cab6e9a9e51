package ir

import (
	"math/bits"

	"github.com/zproxy/zproxy/catalog"
)

// RelPermission is what a statement needs on one relation reference.
type RelPermission struct {
	// Table is the stored table referenced, or nil for a view.
	Table *catalog.Table
	// View is the stored view referenced (Table nil).
	View *catalog.View
	// Required are the relation-level privileges needed. SELECT is added
	// when a column is marked selected; a statement that reads a table
	// without naming a column (SELECT count(*)) needs SELECT on the table
	// or on any one of its columns.
	Required catalog.Privilege
	// Selected, Inserted and Updated are the columns (ordinals in the
	// relation's column list) read, inserted and updated.
	Selected, Inserted, Updated ColumnSet
	// CheckAs is the role whose privileges count: a view's owner for the
	// relations its query reads, "" for the session's user.
	CheckAs string
}

// Computed reports whether the relation is one zproxy computes (a
// catalog's, information_schema's, an extension's), whose privileges
// are initdb's rather than the catalog's grants.
func (p *RelPermission) Computed() bool {
	return p.View == nil && p.Table != nil && p.Table.Virtual != nil
}

// Kind is the kind of object referenced.
func (p *RelPermission) Kind() catalog.ObjectKind {
	if p.View != nil {
		return catalog.KindView
	}
	return catalog.KindTable
}

// Name is the relation's name.
func (p *RelPermission) Name() string {
	if p.View != nil {
		return p.View.Name
	}
	return p.Table.Name
}

// ID is the relation's object ID (grants are kept by it).
func (p *RelPermission) ID() uint64 {
	if p.View != nil {
		return p.View.ID
	}
	return p.Table.ID
}

// Owner is the role that owns the relation.
func (p *RelPermission) Owner() string {
	if p.View != nil {
		return p.View.Owner
	}
	return p.Table.Owner
}

// ColumnAttr is the name column i's privileges are kept under: a table
// column's store attribute (stable across renames), a view column's name.
func (p *RelPermission) ColumnAttr(i int) string {
	if p.View != nil {
		if i < len(p.View.Columns) {
			return p.View.Columns[i]
		}
		return ""
	}
	if i < len(p.Table.Columns) {
		return p.Table.Columns[i].AttrName()
	}
	return ""
}

// selectCol marks column i read.
func (p *RelPermission) SelectCol(i int) {
	if p == nil {
		return
	}
	p.Required |= catalog.PrivSelect
	p.Selected.Add(i)
}

// ColumnSet is a set of column ordinals.
type ColumnSet struct{ words []uint64 }

// Add puts column i in the set.
func (s *ColumnSet) Add(i int) {
	if i < 0 {
		return
	}
	for len(s.words) <= i/64 {
		s.words = append(s.words, 0)
	}
	s.words[i/64] |= 1 << (i % 64)
}

// Has reports whether column i is in the set.
func (s ColumnSet) Has(i int) bool {
	return i >= 0 && i/64 < len(s.words) && s.words[i/64]&(1<<(i%64)) != 0
}

// Empty reports whether the set has no column.
func (s ColumnSet) Empty() bool {
	for _, w := range s.words {
		if w != 0 {
			return false
		}
	}
	return true
}

// Each calls fn for every column of the set, in order.
func (s ColumnSet) Each(fn func(int)) {
	for wi, w := range s.words {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			fn(wi*64 + b)
			w &^= 1 << b
		}
	}
}

// Permissions holds the relation permissions of a bound statement; the
// statements that read or write rows embed it.
type Permissions struct {
	Perms []*RelPermission
	// Routines are the user-defined functions the statement calls (each
	// needs EXECUTE; the session runs a statement calling any in a
	// transaction, so their writes are atomic with its own).
	Routines []*catalog.Function
	// StoreFunctions: the statement calls built-in functions that keep
	// stored state of their own (the large-object functions), which the
	// session runs in a transaction as it does user routines.
	StoreFunctions bool
}

// CallsStoreFunctions reports whether the statement calls built-in
// functions that read and write stored state (Permissions.StoreFunctions).
func (p *Permissions) CallsStoreFunctions() bool { return p.StoreFunctions }

// SetStoreFunctions records whether the statement calls such functions.
func (p *Permissions) SetStoreFunctions(v bool) { p.StoreFunctions = v }

// CalledRoutines returns the user-defined functions the statement calls.
func (p *Permissions) CalledRoutines() []*catalog.Function { return p.Routines }

// SetRoutines records the user-defined functions the statement calls.
func (p *Permissions) SetRoutines(fs []*catalog.Function) { p.Routines = fs }

// RequiredPermissions returns the statement's relation permissions.
func (p *Permissions) RequiredPermissions() []*RelPermission { return p.Perms }

func (p *Permissions) SetPermissions(perms []*RelPermission) { p.Perms = perms }

// permissioned is a bound statement that carries relation permissions.
type Permissioned interface {
	RequiredPermissions() []*RelPermission
	SetPermissions([]*RelPermission)
	CalledRoutines() []*catalog.Function
	SetRoutines([]*catalog.Function)
}

// PermissionsOf returns the relation permissions a bound statement needs,
// those of its data-modifying WITH queries included (they are bound with
// it); EXPLAIN needs those of the statement it explains, as in
// PostgreSQL. Statements that name no relation's rows return nil.
func PermissionsOf(st Statement) []*RelPermission {
	switch x := st.(type) {
	case *Explain:
		return PermissionsOf(x.Stmt)
	case Permissioned:
		return x.RequiredPermissions()
	}
	return nil
}

// CallsStoreFunctions reports whether a bound statement calls built-in
// functions that keep stored state (the large-object functions).
func CallsStoreFunctions(st Statement) bool {
	if x, ok := st.(*Explain); ok {
		return CallsStoreFunctions(x.Stmt)
	}
	p, ok := st.(interface{ CallsStoreFunctions() bool })
	return ok && p.CallsStoreFunctions()
}

// RoutinesOf returns the user-defined functions a bound statement calls.
func RoutinesOf(st Statement) []*catalog.Function {
	switch x := st.(type) {
	case *Explain:
		return RoutinesOf(x.Stmt)
	case Permissioned:
		return x.CalledRoutines()
	}
	return nil
}
