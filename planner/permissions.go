package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
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

var (
	_ ir.Permissioned = (*ir.Query)(nil)
	_ ir.Permissioned = (*ir.Insert)(nil)
	_ ir.Permissioned = (*ir.Update)(nil)
	_ ir.Permissioned = (*ir.Delete)(nil)
	_ ir.Permissioned = (*ir.CreateTableAs)(nil)
	_ ir.Permissioned = (*ir.RefreshMatview)(nil)
)

// addPermission records a reference to a stored table or view, checked as
// the role whose view is being bound (the session's user outside views).
func (b *Binder) addPermission(t *catalog.Table, v *catalog.View, required catalog.Privilege) *ir.RelPermission {
	p := &ir.RelPermission{Table: t, View: v, Required: required, CheckAs: b.checkAs}
	b.perms = append(b.perms, p)
	return p
}

// catalogRelation binds a relation zproxy computes. One that PUBLIC may
// not read whole (pgcatalog.RestrictsReading: pg_authid, pg_statistic,
// ...) is recorded for the privilege check with the columns the statement
// reads, as PostgreSQL checks it; the rest need no check.
func (b *Binder) catalogRelation(t *catalog.Table) ir.Rel {
	r := ir.NewVirtual(t)
	if sc, name := catalog.SplitName(t.Name); pgcatalog.RestrictsReading(sc, name) {
		b.notePermission(r, b.addPermission(t, nil, catalog.PrivSelect))
	}
	return r
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
func (b *Binder) targetPermission(t *catalog.Table, p catalog.Privilege) *ir.RelPermission {
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
	if v.Owner != "" && !v.SecurityInvoker() {
		tp.CheckAs = v.Owner
	}
}

// permissionFor returns the permission recorded for the relation bindTableName
// returned, for the FROM item that exposes its columns.
func (b *Binder) permissionFor(r ir.Rel) *ir.RelPermission {
	if b.relPerms == nil {
		return nil
	}
	return b.relPerms[r]
}

// notePermission links a bound relation to its permission.
func (b *Binder) notePermission(r ir.Rel, p *ir.RelPermission) {
	if b.relPerms == nil {
		b.relPerms = map[ir.Rel]*ir.RelPermission{}
	}
	b.relPerms[r] = p
}

// finishPermissions attaches the recorded permissions to the statement.
func (b *Binder) finishPermissions(st ir.Statement) {
	if x, ok := st.(*ir.Explain); ok {
		st = x.Stmt
	}
	if p, ok := st.(ir.Permissioned); ok {
		p.SetPermissions(b.perms)
		p.SetRoutines(b.routines)
	}
	if p, ok := st.(interface{ SetStoreFunctions(bool) }); ok {
		p.SetStoreFunctions(b.storeFunctions)
	}
}
