package session

import (
	"context"
	"regexp"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/auth"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/wire"
)

// runRole executes CREATE/ALTER/DROP ROLE and GRANT/REVOKE as one catalog
// change each, checked against the newest catalog inside the change, so
// proxies sharing a store cannot interleave conflicting role changes.
func (st *statement) runRole(ctx context.Context, b planner.Statement) (wire.Result, error) {
	s := st.sess
	if s.readOnly() {
		return nil, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction",
			strings.ToUpper(strings.ReplaceAll(b.Kind(), "_", " ")))
	}
	var tag string
	var err error
	switch x := b.(type) {
	case *planner.CreateRole:
		tag, err = "CREATE ROLE", s.createRole(ctx, x)
	case *planner.AlterRole:
		tag, err = "ALTER ROLE", s.alterRole(ctx, x)
	case *planner.DropRole:
		tag, err = "DROP ROLE", s.dropRole(ctx, x)
	case *planner.Grant:
		tag, err = strings.ToUpper(x.Kind()), s.grant(ctx, x)
	case *planner.GrantRole:
		tag, err = strings.ToUpper(strings.ReplaceAll(x.Kind(), "_", " ")), s.grantRole(ctx, x)
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "statement %s is not supported", b.Kind())
	}
	if err != nil {
		return nil, storeErr(err)
	}
	return tagResult(tag), nil
}

// md5Password is what a client that hashes passwords itself for md5
// authentication sends; zproxy stores SCRAM verifiers only.
var md5Password = regexp.MustCompile(`^md5[0-9a-f]{32}$`)

// verifierFor turns PASSWORD's value into what the catalog stores: a SCRAM
// verifier as the client sent it (psql's \password computes one), or one
// derived from the password. An empty password is no password, as in
// PostgreSQL.
func (s *Session) verifierFor(password string) (string, error) {
	switch {
	case password == "":
		s.notice(pgerr.Notice("empty string is not a valid password, clearing password"))
		return "", nil
	case auth.IsVerifier(password):
		return password, nil
	case md5Password.MatchString(password):
		return "", pgerr.New(pgerr.FeatureNotSupported, "MD5 password hashes are not supported; zproxy stores SCRAM-SHA-256 verifiers").
			WithHint("Send the password itself, or a SCRAM-SHA-256 verifier.")
	}
	v, err := auth.NewVerifier(password)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// applyOptions sets the attributes of r that o names.
func (s *Session) applyOptions(r *catalog.Role, o planner.RoleOptions) error {
	if o.Login != nil {
		r.Login = *o.Login
	}
	if o.Superuser != nil {
		r.Superuser = *o.Superuser
	}
	switch {
	case o.PasswordNull:
		r.Verifier = ""
	case o.Password != nil:
		v, err := s.verifierFor(*o.Password)
		if err != nil {
			return err
		}
		r.Verifier = v
	}
	return nil
}

// updateRoles runs one catalog change computed by fn from the newest
// snapshot. fn returns errNothingToDo when it turns out to change nothing.
func (s *Session) updateRoles(ctx context.Context, fn func(snap *catalog.Snapshot) (catalog.Change, error)) error {
	_, err := s.engine.catalog.Update(ctx, func(snap *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		return fn(snap)
	})
	if err == errNothingToDo {
		return nil
	}
	return err
}

func (s *Session) createRole(ctx context.Context, x *planner.CreateRole) error {
	r := &catalog.Role{Name: x.Name}
	// The verifier is derived once, outside the change, which may retry.
	if err := s.applyOptions(r, x.Options); err != nil {
		return err
	}
	return s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		if !s.isSuperuser(snap) {
			if x.Options.Superuser != nil && *x.Options.Superuser {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to create superusers")
			}
			return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create role")
		}
		if err := unsupportedOption(x.Options); err != nil {
			return catalog.Change{}, err
		}
		if snap.RoleExists(x.Name) {
			return catalog.Change{}, pgerr.New(pgerr.DuplicateObject, "role \"%s\" already exists", x.Name)
		}
		return catalog.Change{PutRoles: []*catalog.Role{r}}, nil
	})
}

func (s *Session) alterRole(ctx context.Context, x *planner.AlterRole) error {
	name := x.Role.Name
	if x.Role.Current {
		name = s.params.User
	}
	var changed catalog.Role
	if err := s.applyOptions(&changed, x.Options); err != nil {
		return err
	}
	return s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		old := snap.Role(name)
		if old == nil && catalog.Predefined(name) != nil {
			return catalog.Change{}, pgerr.New(pgerr.ReservedName, "role name \"%s\" is reserved", name).
				WithDetail("Cannot alter reserved roles.")
		}
		if old == nil || name == catalog.PublicRole {
			return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
		}
		if !s.isSuperuser(snap) {
			// Without superuser, a role may only change its own password.
			switch {
			case old.Superuser || x.Options.Superuser != nil:
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to alter superuser roles or change superuser attribute")
			case name != s.params.User || x.Options.Login != nil || x.Options.Unsupported != "":
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied")
			}
		}
		if err := unsupportedOption(x.Options); err != nil {
			return catalog.Change{}, err
		}
		r := old.Clone()
		if x.Options.Login != nil {
			r.Login = changed.Login
		}
		if x.Options.Superuser != nil {
			r.Superuser = changed.Superuser
		}
		if x.Options.Password != nil || x.Options.PasswordNull {
			r.Verifier = changed.Verifier
		}
		snap.PruneGrants(r)
		return catalog.Change{PutRoles: []*catalog.Role{r}}, nil
	})
}

func (s *Session) dropRole(ctx context.Context, x *planner.DropRole) error {
	var skipped []string
	err := s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		skipped = skipped[:0]
		if !s.isSuperuser(snap) {
			return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to drop role")
		}
		var ch catalog.Change
		for _, name := range x.Names {
			if catalog.Predefined(name) != nil {
				return catalog.Change{}, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop role %s because it is required by the database system", name)
			}
			if snap.Role(name) == nil || name == catalog.PublicRole {
				if !x.IfExists {
					return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
				}
				skipped = append(skipped, name)
				continue
			}
			if name == s.params.User {
				return catalog.Change{}, pgerr.New(pgerr.ObjectInUse, "current user cannot be dropped")
			}
			var deps []string
			for _, t := range snap.Owned(name) {
				deps = append(deps, "owner of table "+t.Name)
			}
			for _, t := range snap.GrantedTables(name) {
				deps = append(deps, "privileges for table "+t.Name)
			}
			if len(deps) > 0 {
				return catalog.Change{}, pgerr.New(pgerr.DependentObjectsStillExist, "role \"%s\" cannot be dropped because some objects depend on it", name).
					WithDetail("%s", strings.Join(deps, "\n"))
			}
			ch.DeleteRoles = append(ch.DeleteRoles, name)
		}
		if len(ch.DeleteRoles) == 0 {
			return ch, errNothingToDo
		}
		// The dropped roles' members lose those memberships with them.
		ch.PutRoles = append(ch.PutRoles, snap.DropMembershipsIn(ch.DeleteRoles)...)
		return ch, nil
	})
	for _, name := range skipped {
		s.notice(pgerr.Notice("role \"%s\" does not exist, skipping", name))
	}
	return err
}

func (s *Session) grant(ctx context.Context, x *planner.Grant) error {
	return s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		if !s.isSuperuser(snap) {
			for _, t := range x.Tables {
				if t.Owner != s.params.User {
					return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", t.Name)
				}
			}
		}
		var ch catalog.Change
		done := map[string]bool{}
		for _, spec := range x.Roles {
			name := spec.Name
			switch {
			case spec.Public:
				name = catalog.PublicRole
			case spec.Current:
				name = s.params.User
			}
			if done[name] {
				continue
			}
			done[name] = true
			var r *catalog.Role
			switch old := snap.Role(name); {
			case old != nil:
				r = old.Clone()
			case spec.Public:
				r = &catalog.Role{Name: catalog.PublicRole, Grants: map[uint64]catalog.Privilege{}}
			default:
				return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
			}
			for _, t := range x.Tables {
				// A table dropped since the statement was bound is gone.
				if cur, err := snap.Table(t.Name); err != nil || cur.ID != t.ID {
					return catalog.Change{}, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", t.Name)
				}
				if x.Revoke {
					r.Grants[t.ID] &^= x.Privileges
				} else {
					r.Grants[t.ID] |= x.Privileges
				}
				if r.Grants[t.ID] == 0 {
					delete(r.Grants, t.ID)
				}
			}
			snap.PruneGrants(r)
			ch.PutRoles = append(ch.PutRoles, r)
		}
		return ch, nil
	})
}
