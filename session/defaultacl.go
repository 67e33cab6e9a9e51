package session

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
)

// alterDefaultPrivileges runs ALTER DEFAULT PRIVILEGES as PostgreSQL's
// SetDefaultACL does: each target role's entry (global or per schema) is
// the ACL the statement leaves, starting from the built-in default
// globally and from nothing in a schema, and disappears when it is that
// starting point again. The catalog applies the entries when the role
// creates an object (catalog.Snapshot.WithDefaultACLs).
func (s *Session) alterDefaultPrivileges(ctx context.Context, x *ir.AlterDefaultPrivileges) error {
	cat, err := s.permCatalog(ctx)
	if err != nil {
		return err
	}
	_, err = cat.Update(ctx, func(snap *catalog.Snapshot, version uint64) (catalog.Change, error) {
		user := s.currentUser()
		targets := []string{user}
		if len(x.For) > 0 {
			targets = nil
			for _, spec := range x.For {
				name := s.granteeName(spec)
				if !snap.RoleExists(name) {
					return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
				}
				if !s.isSuperuser(snap) && name != user && !snap.IsMemberOf(user, name) {
					return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be member of role \"%s\"", name)
				}
				targets = append(targets, name)
			}
		}
		var grantees []string
		for _, spec := range x.Roles {
			name := s.granteeName(spec)
			if !spec.Public && !snap.RoleExists(name) {
				return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
			}
			grantees = append(grantees, name)
		}
		schemas := x.Schemas
		if len(schemas) == 0 {
			schemas = []string{""}
		}
		var ch catalog.Change
		for _, role := range targets {
			for _, schema := range schemas {
				old, ok := snap.DefaultACL(role, schema, x.ObjType)
				d := &catalog.DefaultACL{ID: version, Slot: uint32(len(ch.PutDefaultACLs)), Role: role, Schema: schema, ObjType: x.ObjType, ACL: map[string]catalog.Privilege{}}
				switch {
				case ok:
					d.ID, d.Slot = old.ID, old.Slot
					for g, p := range old.ACL {
						d.ACL[g] = p
					}
				case schema == "":
					d.ACL = catalog.BuiltinDefaultACL(x.ObjType, role)
				}
				for _, g := range grantees {
					catalog.UpdateACL(d.ACL, g, x.Privileges, x.Revoke)
				}
				if schema == "" && d.ACL[role] != catalog.DefaultACLPrivileges(x.ObjType) {
					// zproxy's owners always hold every privilege on
					// what they own.
					return catalog.Change{}, pgerr.New(pgerr.FeatureNotSupported, "revoking default privileges from the owning role is not supported: zproxy owners hold every privilege on their objects")
				}
				switch {
				case catalog.EqualDefaultACL(d.ACL, x.ObjType, role, schema):
					if ok {
						ch.DeleteDefaultACLs = append(ch.DeleteDefaultACLs, d.Key())
					}
				default:
					ch.PutDefaultACLs = append(ch.PutDefaultACLs, d)
				}
			}
		}
		if len(ch.PutDefaultACLs)+len(ch.DeleteDefaultACLs) == 0 {
			return catalog.Change{}, errNothingToDo
		}
		return ch, nil
	})
	if err == errNothingToDo {
		return nil
	}
	return err
}
