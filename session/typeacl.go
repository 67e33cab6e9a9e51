package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Type privileges (GRANT ... ON TYPE | DOMAIN, typacl): the ACL is the
// type's own, stored on its catalog entry; USAGE is checked where a
// statement gives a table a column of the type (planner), as PostgreSQL
// checks it.

// grantTypes runs GRANT or REVOKE ON TYPE: only the owner (or a member of
// it, or a superuser) changes a type's ACL; a role holding USAGE on it
// gets PostgreSQL's warning and changes nothing.
func (s *Session) grantTypes(ctx context.Context, x *ir.Grant) error {
	var warnings []*pgerr.Error
	err := s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		warnings = warnings[:0]
		user := s.currentUser()
		var ch catalog.Change
		for _, o := range x.Objects {
			u, ok := snap.UserTypeByKey(o.Name)
			if !ok || uint64(u.OID) != o.ID {
				// Dropped since the statement was bound.
				return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "type \"%s\" does not exist", o.Name)
			}
			owner := pgcatalog.UserTypeOwner(u)
			if !s.isSuperuser(snap) && !snap.IsMemberOf(user, owner) {
				_, bare := catalog.SplitName(u.Name) // as PostgreSQL, unqualified
				if snap.TypePrivileges(user, u, owner) == 0 {
					return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for type %s", bare)
				}
				warnings = append(warnings, nothingGranted(x, bare))
				continue
			}
			nu := u.WithACL(owner)
			if err := s.grantACL(snap, nu.ACL, x, o.Privileges); err != nil {
				return catalog.Change{}, err
			}
			ch.PutTypes = append(ch.PutTypes, nu)
		}
		if len(ch.PutTypes) == 0 {
			return catalog.Change{}, errNothingToDo
		}
		return ch, nil
	})
	for _, w := range warnings {
		s.notice(w)
	}
	return err
}

// newColumnTypes are the types of the columns a statement gives a table:
// CREATE TABLE's, ALTER TABLE ADD COLUMN's.
func newColumnTypes(bound ir.Statement) []sqltypes.Type {
	var out []sqltypes.Type
	switch x := bound.(type) {
	case *ir.CreateTable:
		if x.Table != nil {
			for _, c := range x.Table.Columns {
				out = append(out, c.Type)
			}
		}
	case *ir.AlterTable:
		for _, a := range x.Actions {
			if a.NewColumn != nil {
				out = append(out, a.NewColumn.Type)
			}
		}
	}
	return out
}

// checkTypeUsage refuses (42501) a statement giving a table a column of a
// user-defined type (or an array of one) user holds no USAGE on, as
// PostgreSQL's BuildDescForRelation checks each column's type.
func checkTypeUsage(snap *catalog.Snapshot, user string, types []sqltypes.Type) error {
	for _, t := range types {
		oid := t.UDT()
		if oid == 0 {
			continue
		}
		for _, u := range snap.UserTypes() {
			if u.OID == oid && snap.TypePrivileges(user, u, pgcatalog.UserTypeOwner(u))&catalog.PrivUsage == 0 {
				// As format_type prints it: qualified unless the search
				// path finds it by its bare name.
				name := u.Name
				if _, bare := catalog.SplitName(u.Name); snap.ResolveType(bare) == u.Name {
					name = bare
				}
				return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for type %s", name)
			}
		}
	}
	return nil
}
