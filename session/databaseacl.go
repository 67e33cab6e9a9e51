package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
)

// Database privileges (GRANT ... ON DATABASE, datacl): CONNECT is checked
// when a session starts (Engine.connect), CREATE by CREATE SCHEMA and
// TEMPORARY by the first temporary object a session creates, as
// PostgreSQL checks them.

// databaseOwner is the role that owns d: its Owner, or the bootstrap
// superuser for the first database until ALTER DATABASE OWNER TO.
func databaseOwner(d *catalog.Database) string {
	if d.Owner != "" {
		return d.Owner
	}
	return pgcatalog.BootstrapRole
}

// currentDatabase is the session's database as the registry in snap
// describes it.
func (s *Session) currentDatabase(snap *catalog.Snapshot) *catalog.Database {
	for _, d := range s.engine.databases(snap) {
		if d.ID == s.engine.dbID {
			return d
		}
	}
	return s.engine.firstDatabase(snap)
}

// holdsDatabasePrivilege reports whether the current role holds p on the
// session's database, as the store's registry of databases (the root
// catalog's) says. snap is the statement's schema, which knows the roles.
func (s *Session) holdsDatabasePrivilege(snap *catalog.Snapshot, p catalog.Privilege) bool {
	if s.isSuperuser(snap) {
		return true
	}
	reg, err := s.engine.root.catalog.Snapshot(context.Background())
	if err != nil {
		return false
	}
	d := s.currentDatabase(reg)
	return snap.DatabasePrivileges(s.currentUser(), d, databaseOwner(d))&p != 0
}

// grantDatabases runs GRANT or REVOKE ON DATABASE: only the owner (or a
// member of it, or a superuser) changes a database's ACL; a role holding
// some privilege on it gets PostgreSQL's warning and changes nothing.
func (s *Session) grantDatabases(ctx context.Context, x *ir.Grant) error {
	var warnings []*pgerr.Error
	_, err := s.engine.root.catalog.Update(ctx, func(snap *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		warnings = warnings[:0]
		user := s.currentUser()
		var ch catalog.Change
		for _, o := range x.Objects {
			d := s.engine.findDatabase(snap, o.Name)
			if d == nil {
				return catalog.Change{}, pgerr.New(pgerr.UndefinedDatabase, "database \"%s\" does not exist", o.Name)
			}
			owner := databaseOwner(d)
			if !s.isSuperuser(snap) && !snap.IsMemberOf(user, owner) {
				if snap.DatabasePrivileges(user, d, owner) == 0 {
					return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", d.Name)
				}
				warnings = append(warnings, nothingGranted(x, d.Name))
				continue
			}
			nd := d.Clone()
			if nd.ACL == nil {
				nd.ACL = catalog.DefaultDatabaseACL(owner)
			}
			if err := s.grantACL(snap, nd.ACL, x, o.Privileges); err != nil {
				return catalog.Change{}, err
			}
			ch.PutDatabases = append(ch.PutDatabases, nd)
		}
		if len(ch.PutDatabases) == 0 {
			return catalog.Change{}, errNothingToDo
		}
		return ch, nil
	})
	for _, w := range warnings {
		s.notice(w)
	}
	if err == errNothingToDo {
		return nil
	}
	return err
}

// grantACL grants p to (or with REVOKE takes it from) each role x names,
// in acl, an object's own ACL by grantee.
func (s *Session) grantACL(snap *catalog.Snapshot, acl map[string]catalog.Privilege, x *ir.Grant, p catalog.Privilege) error {
	for _, spec := range x.Roles {
		name := s.granteeName(spec)
		if !spec.Public && !snap.RoleExists(name) {
			return pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
		}
		catalog.UpdateACL(acl, name, p, x.Revoke)
	}
	return nil
}

// nothingGranted is PostgreSQL's warning to a role that holds some
// privilege on object but may not grant it.
func nothingGranted(x *ir.Grant, object string) *pgerr.Error {
	if x.Revoke {
		return pgerr.NewWarning(pgerr.PrivilegeNotRevoked, "no privileges could be revoked for \"%s\"", object)
	}
	return pgerr.NewWarning(pgerr.PrivilegeNotGranted, "no privileges were granted for \"%s\"", object)
}
