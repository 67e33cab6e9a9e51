package planner

import (
	"math/bits"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Privileges are decided at plan time over every relation a statement
// names, wherever it names it (FROM, a subquery anywhere, RETURNING, SET,
// ON CONFLICT, WITH, a data-modifying WITH, inside a view), as PostgreSQL's
// ExecCheckPermissions does over the range table: the binder records one
// RelPermission per relation reference as it binds it, and marks on it the
// columns the statement reads, inserts and updates. The session checks the
// list before the statement runs; no other path reads a stored relation.
//
// Relations inside a view are checked as the view's owner (CheckAs), the
// view itself as the session's user, so a view is a way to grant a window
// on a table, as in PostgreSQL.

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
func (p *RelPermission) selectCol(i int) {
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
}

// RequiredPermissions returns the statement's relation permissions.
func (p *Permissions) RequiredPermissions() []*RelPermission { return p.Perms }

func (p *Permissions) setPermissions(perms []*RelPermission) { p.Perms = perms }

// permissioned is a bound statement that carries relation permissions.
type permissioned interface {
	RequiredPermissions() []*RelPermission
	setPermissions([]*RelPermission)
}

var (
	_ permissioned = (*Query)(nil)
	_ permissioned = (*Insert)(nil)
	_ permissioned = (*Update)(nil)
	_ permissioned = (*Delete)(nil)
)

// PermissionsOf returns the relation permissions a bound statement needs,
// those of its data-modifying WITH queries included (they are bound with
// it); EXPLAIN needs those of the statement it explains, as in
// PostgreSQL. Statements that name no relation's rows return nil.
func PermissionsOf(st Statement) []*RelPermission {
	switch x := st.(type) {
	case *Explain:
		return PermissionsOf(x.Stmt)
	case permissioned:
		return x.RequiredPermissions()
	}
	return nil
}

// addPermission records a reference to a stored table or view, checked as
// the role whose view is being bound (the session's user outside views).
func (b *Binder) addPermission(t *catalog.Table, v *catalog.View, required catalog.Privilege) *RelPermission {
	p := &RelPermission{Table: t, View: v, Required: required, CheckAs: b.checkAs}
	b.perms = append(b.perms, p)
	return p
}

// creationSchema refuses to create a relation in any schema but public:
// the catalog schemas are PostgreSQL's and nobody's to add to (42501, as
// PostgreSQL refuses even a superuser), others do not exist in zproxy.
func creationSchema(schema, name string) error {
	switch schema {
	case "", catalog.PublicSchema:
		return nil
	case "pg_catalog", "pg_toast":
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create \"%s.%s\"", schema, name).
			WithDetail("System catalog modifications are currently disallowed.")
	case "information_schema":
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", schema)
	}
	return pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", schema)
}

// targetPermission records the table an INSERT, UPDATE or DELETE writes.
// A write through an updatable view is bound against the view's stand-in
// table; finishViewWrite moves the entry to the view's table, checked as
// the view's owner, and adds the view's own entry for the user.
func (b *Binder) targetPermission(t *catalog.Table, p catalog.Privilege) *RelPermission {
	tp := b.addPermission(t, nil, p)
	if b.viewWrite != nil && b.viewWrite.perm == nil {
		b.viewWrite.perm = tp
	}
	return tp
}

// viewWritePermissions finishes the permissions of a write through view v
// whose target entry was recorded against its stand-in: the user needs the
// privileges on the view (columns in the view's order), the view's owner
// on the table.
func (b *Binder) viewWritePermissions(w *viewWrite) {
	tp := w.perm
	if tp == nil {
		return
	}
	v, ok := b.snap.StoredView(w.name)
	if !ok {
		return
	}
	vp := b.addPermission(nil, v, tp.Required)
	vp.CheckAs = tp.CheckAs
	for vi, ti := range w.order {
		if tp.Selected.Has(ti) {
			vp.Selected.Add(vi)
		}
		if tp.Inserted.Has(ti) {
			vp.Inserted.Add(vi)
		}
		if tp.Updated.Has(ti) {
			vp.Updated.Add(vi)
		}
	}
	tp.Table = w.base
	if v.Owner != "" {
		tp.CheckAs = v.Owner
	}
}

// permissionFor returns the permission recorded for the relation bindTableName
// returned, for the FROM item that exposes its columns.
func (b *Binder) permissionFor(r Rel) *RelPermission {
	if b.relPerms == nil {
		return nil
	}
	return b.relPerms[r]
}

// notePermission links a bound relation to its permission.
func (b *Binder) notePermission(r Rel, p *RelPermission) {
	if b.relPerms == nil {
		b.relPerms = map[Rel]*RelPermission{}
	}
	b.relPerms[r] = p
}

// finishPermissions attaches the recorded permissions to the statement.
func (b *Binder) finishPermissions(st Statement) {
	if x, ok := st.(*Explain); ok {
		st = x.Stmt
	}
	if p, ok := st.(permissioned); ok {
		p.setPermissions(b.perms)
	}
}
