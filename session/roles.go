package session

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/auth"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/wire"
)

// runRole executes CREATE/ALTER/DROP ROLE and GRANT/REVOKE as one catalog
// change each, checked against the newest catalog inside the change, so
// proxies sharing a store cannot interleave conflicting role changes.
func (st *statement) runRole(ctx context.Context, b ir.Statement) (wire.Result, error) {
	s := st.sess
	if s.readOnly() {
		return nil, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction",
			strings.ToUpper(strings.ReplaceAll(b.Kind(), "_", " ")))
	}
	var tag string
	var err error
	switch x := b.(type) {
	case *ir.CreateRole:
		tag, err = "CREATE ROLE", s.createRole(ctx, x)
	case *ir.AlterRole:
		tag, err = "ALTER ROLE", s.alterRole(ctx, x)
	case *ir.DropRole:
		tag, err = "DROP ROLE", s.dropRole(ctx, x)
	case *ir.Grant:
		tag, err = strings.ToUpper(x.Kind()), s.grant(ctx, x)
	case *ir.GrantRole:
		tag, err = strings.ToUpper(strings.ReplaceAll(x.Kind(), "_", " ")), s.grantRole(ctx, x)
	case *ir.AlterDefaultPrivileges:
		tag, err = "ALTER DEFAULT PRIVILEGES", s.alterDefaultPrivileges(ctx, x)
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
func (s *Session) applyOptions(r *catalog.Role, o ir.RoleOptions) error {
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
	cat, err := s.permCatalog(ctx)
	if err != nil {
		return err
	}
	_, err = cat.Update(ctx, func(snap *catalog.Snapshot, _ uint64) (catalog.Change, error) {
		return fn(snap)
	})
	if err == errNothingToDo {
		return nil
	}
	return err
}

func (s *Session) createRole(ctx context.Context, x *ir.CreateRole) error {
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
		if snap.RoleExists(x.Name) || x.Name == pgcatalog.BootstrapRole {
			return catalog.Change{}, pgerr.New(pgerr.DuplicateObject, "role \"%s\" already exists", x.Name)
		}
		return catalog.Change{PutRoles: []*catalog.Role{r}}, nil
	})
}

// roleToAlter is the stored role name that ALTER ROLE changes: the
// bootstrap superuser is stored from its first change on.
func roleToAlter(snap *catalog.Snapshot, name string) (*catalog.Role, error) {
	old := snap.Role(name)
	if old == nil && name == pgcatalog.BootstrapRole {
		old = &catalog.Role{Name: name, Login: true, Superuser: true}
	}
	if old == nil && catalog.Predefined(name) != nil {
		return nil, pgerr.New(pgerr.ReservedName, "role name \"%s\" is reserved", name).
			WithDetail("Cannot alter reserved roles.")
	}
	if old == nil || name == catalog.PublicRole {
		return nil, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
	}
	return old, nil
}

func (s *Session) alterRole(ctx context.Context, x *ir.AlterRole) error {
	if x.Setting != nil {
		return s.alterRoleSetting(ctx, x)
	}
	name := x.Role.Name
	if x.Role.Current {
		name = s.ownerRole(x.Role.Name)
	}
	var changed catalog.Role
	if err := s.applyOptions(&changed, x.Options); err != nil {
		return err
	}
	return s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		old, err := roleToAlter(snap, name)
		if err != nil {
			return catalog.Change{}, err
		}
		if !s.isSuperuser(snap) {
			// Without superuser, a role may only change its own password.
			switch {
			case old.Superuser || x.Options.Superuser != nil:
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to alter superuser roles or change superuser attribute")
			case name != s.currentUser() || x.Options.Login != nil || x.Options.Unsupported != "":
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

// alterRoleSetting runs ALTER ROLE ... [IN DATABASE db] SET | RESET: the
// role's session defaults (applySessionDefaults), checked as SET would
// check the value, by the session's rights. As in PostgreSQL, a superuser
// changes any role's, a role only its own, and only a superuser a
// superuser's.
func (s *Session) alterRoleSetting(ctx context.Context, x *ir.AlterRole) error {
	set := x.Setting
	if set.All {
		return pgerr.New(pgerr.FeatureNotSupported, "ALTER ROLE ALL ... SET is not supported").
			WithHint("ALTER DATABASE name SET sets a default for every role in a database.")
	}
	var dbID uint64
	if set.Database != "" {
		root, err := s.engine.root.catalog.Latest(ctx)
		if err != nil {
			return storeErr(err)
		}
		d := s.engine.findDatabase(root, set.Database)
		if d == nil {
			return pgerr.New(pgerr.UndefinedDatabase, "database \"%s\" does not exist", set.Database)
		}
		dbID = d.ID
	}
	// The parameter and the value are checked before the change (which
	// may run again on a conflict), and stored under PostgreSQL's spelling
	// of the name (DateStyle) with the value as written, as
	// pg_db_role_setting shows them.
	param, value := set.Param, set.Value
	switch {
	case set.Reset && param == "all":
	case set.Reset:
		if n, ok := s.resolveVar(param); ok {
			param = storedVarName(n)
		}
	case set.FromCurrent:
		n, ok := s.resolveVar(param)
		if !ok {
			return pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter %q", set.Param)
		}
		param, value = storedVarName(n), s.varValue(n)
	default:
		n, err := s.checkSetting(param, value)
		if err != nil {
			return err
		}
		param = storedVarName(n)
	}
	name := x.Role.Name
	if x.Role.Current {
		name = s.ownerRole(x.Role.Name)
	}
	return s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		old, err := roleToAlter(snap, name)
		if err != nil {
			return catalog.Change{}, err
		}
		if !s.isSuperuser(snap) {
			if old.Superuser {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must be superuser to alter superusers")
			}
			if name != s.currentUser() {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied")
			}
		}
		r := old.Clone()
		config := r.Settings
		if set.Database != "" {
			config = r.DatabaseSettings[dbID]
		}
		switch {
		case set.Reset && param == "all":
			config = nil
		case set.Reset:
			config = catalog.ConfigReset(config, param)
		default:
			config = catalog.ConfigSet(config, param, value)
		}
		if set.Database == "" {
			r.Settings = config
		} else if len(config) == 0 {
			delete(r.DatabaseSettings, dbID)
		} else {
			if r.DatabaseSettings == nil {
				r.DatabaseSettings = map[uint64][]string{}
			}
			r.DatabaseSettings[dbID] = config
		}
		return catalog.Change{PutRoles: []*catalog.Role{r}}, nil
	})
}

func (s *Session) dropRole(ctx context.Context, x *ir.DropRole) error {
	// The large objects are the database's data, not its catalog: read
	// once, for the roles' dependencies.
	rw, err := s.loReader(ctx)
	if err != nil {
		return err
	}
	los, err := catalog.LargeObjects(ctx, rw)
	if err != nil {
		return storeErr(err)
	}
	elsewhere, err := s.dependenciesInOtherDatabases(ctx, x.Names)
	if err != nil {
		return err
	}
	var skipped []string
	err = s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		skipped = skipped[:0]
		if !s.isSuperuser(snap) {
			return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to drop role")
		}
		var ch catalog.Change
		for _, name := range x.Names {
			if name == pgcatalog.BootstrapRole {
				if err := s.inUseRole(name); err != nil {
					return catalog.Change{}, err
				}
				// It owns the system objects, as initdb's superuser.
				return catalog.Change{}, pgerr.New(pgerr.DependentObjectsStillExist, "cannot drop role %s because it is required by the database system", name)
			}
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
			if err := s.inUseRole(name); err != nil {
				return catalog.Change{}, err
			}
			deps := append(snap.SharedDeps(name), snap.Owned(name)...)
			deps = append(deps, snap.Granted(name)...)
			deps = append(deps, catalog.LargeObjectDeps(name, los)...)
			deps = append(deps, elsewhere[name]...)
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

// dependenciesInOtherDatabases describes, for each of roles, what it
// owns or holds privileges on in the store's other databases, as
// PostgreSQL's DROP ROLE counts them: "2 objects in database d". Roles
// are the cluster's, each database's objects its own catalog's.
func (s *Session) dependenciesInOtherDatabases(ctx context.Context, roles []string) (map[string][]string, error) {
	snap, err := s.snapshot(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	out := map[string][]string{}
	for _, d := range s.engine.databases(snap) {
		if d.ID == s.engine.dbID {
			continue
		}
		e, err := s.engine.databaseEngine(ctx, d)
		if err != nil {
			return nil, storeErr(err)
		}
		dsnap, err := e.catalog.Snapshot(ctx)
		if err != nil {
			return nil, storeErr(err)
		}
		los, err := catalog.LargeObjects(ctx, e.exec.Store)
		if err != nil {
			return nil, storeErr(err)
		}
		for _, role := range roles {
			n := len(dsnap.Owned(role)) + len(dsnap.Granted(role)) + len(catalog.LargeObjectDeps(role, los))
			switch {
			case n == 1:
				out[role] = append(out[role], "1 object in database "+d.Name)
			case n > 1:
				out[role] = append(out[role], fmt.Sprintf("%d objects in database %s", n, d.Name))
			}
		}
	}
	return out, nil
}

// grant applies GRANT or REVOKE. Only an object's owner (or a superuser)
// grants on it; as in PostgreSQL, a role that holds some privilege on the
// object but no grant option gets a warning and changes nothing, one that
// holds none is refused.
func (s *Session) grant(ctx context.Context, x *ir.Grant) error {
	for _, w := range x.Warnings {
		s.notice(w)
	}
	if x.OnLargeObjects() {
		return s.grantLargeObjects(ctx, x)
	}
	if x.OnDatabases() {
		return s.grantDatabases(ctx, x)
	}
	if x.OnLanguages() {
		return s.grantLanguages(ctx, x)
	}
	if x.OnTypes() {
		return s.grantTypes(ctx, x)
	}
	var warnings []*pgerr.Error
	err := s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		warnings = warnings[:0]
		user := s.currentUser()
		var objects []ir.GrantObject
		for _, o := range x.Objects {
			if !grantObjectLive(snap, o) {
				// Dropped since the statement was bound.
				return catalog.Change{}, pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", o.Name)
			}
			if o.Kind == catalog.KindParameter {
				if _, known := canonicalVar(o.Name); !known && !strings.Contains(o.Name, ".") {
					return catalog.Change{}, pgerr.New(pgerr.InvalidName, "invalid parameter name \"%s\"", o.Name)
				}
			}
			if s.isSuperuser(snap) || o.Owner != "" && o.Owner == user {
				objects = append(objects, o)
				continue
			}
			var held catalog.Privilege
			switch o.Kind {
			case catalog.KindSchema:
				held = snap.SchemaPrivileges(user, o.Name)
			case catalog.KindParameter:
				// The parameters belong to the bootstrap superuser.
				held = snap.ParameterPrivileges(user, o.Name)
			default:
				held = snap.ObjectPrivileges(user, o.Kind, o.ID, o.Owner)
			}
			if held == 0 && !snap.AnyColumnPrivilege(user, o.ID, catalog.PrivAll) {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", o.Kind.Noun(), o.Name)
			}
			if x.Revoke {
				warnings = append(warnings, pgerr.NewWarning(pgerr.PrivilegeNotRevoked, "no privileges could be revoked for \"%s\"", o.Name))
			} else {
				warnings = append(warnings, pgerr.NewWarning(pgerr.PrivilegeNotGranted, "no privileges were granted for \"%s\"", o.Name))
			}
		}
		if len(objects) == 0 {
			return catalog.Change{}, errNothingToDo
		}
		var ch catalog.Change
		done := map[string]bool{}
		for _, spec := range x.Roles {
			name := s.granteeName(spec)
			if done[name] {
				continue
			}
			done[name] = true
			var r *catalog.Role
			switch old := snap.Role(name); {
			case old != nil:
				r = old.Clone()
			case spec.Public:
				r = (&catalog.Role{Name: catalog.PublicRole}).Clone()
			default:
				return catalog.Change{}, pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", name)
			}
			for _, o := range objects {
				applyGrant(r, o, x.Revoke)
			}
			snap.PruneGrants(r)
			ch.PutRoles = append(ch.PutRoles, r)
		}
		return ch, nil
	})
	for _, w := range warnings {
		s.notice(w)
	}
	return err
}

// granteeName is the role a GRANT or REVOKE names: PUBLIC's name, or the
// session's role for CURRENT_USER and the like.
func (s *Session) granteeName(spec ir.RoleSpec) string {
	switch {
	case spec.Public:
		return catalog.PublicRole
	case spec.Current:
		return s.ownerRole(spec.Name)
	}
	return spec.Name
}

// applyGrant adds (or with revoke, removes) o's privileges to r.
func applyGrant(r *catalog.Role, o ir.GrantObject, revoke bool) {
	change := func(p, by catalog.Privilege) catalog.Privilege {
		if revoke {
			return p &^ by
		}
		return p | by
	}
	if o.Kind == catalog.KindSchema {
		setPrivilege(r.Schemas, o.Name, change(r.Schemas[o.Name], o.Privileges))
		return
	}
	if o.Kind == catalog.KindParameter {
		if r.Parameters == nil {
			r.Parameters = map[string]catalog.Privilege{}
		}
		setPrivilege(r.Parameters, o.Name, change(r.Parameters[o.Name], o.Privileges))
		return
	}
	setPrivilege(r.Grants, o.ID, change(r.Grants[o.ID], o.Privileges))
	cols := r.Columns[o.ID]
	if cols == nil {
		cols = map[string]catalog.Privilege{}
	}
	if revoke && o.Privileges != 0 {
		// REVOKE of a table privilege takes the column privileges with
		// it, as PostgreSQL's does.
		for a := range cols {
			setPrivilege(cols, a, cols[a]&^o.Privileges)
		}
	}
	for a, cp := range o.Columns {
		setPrivilege(cols, a, change(cols[a], cp))
	}
	if len(cols) == 0 {
		delete(r.Columns, o.ID)
	} else {
		r.Columns[o.ID] = cols
	}
}

// setPrivilege sets m[k] to p, leaving no entry for no privilege.
func setPrivilege[K comparable](m map[K]catalog.Privilege, k K, p catalog.Privilege) {
	if p == 0 {
		delete(m, k)
	} else {
		m[k] = p
	}
}

// grantObjectLive reports whether o still exists as bound.
func grantObjectLive(snap *catalog.Snapshot, o ir.GrantObject) bool {
	switch o.Kind {
	case catalog.KindSchema:
		return snap.HasSchema(o.Name)
	case catalog.KindParameter:
		return true
	case catalog.KindView:
		v, ok := snap.StoredView(o.Name)
		return ok && v.ID == o.ID
	case catalog.KindSequence:
		q, ok := snap.Sequence(o.Name)
		return ok && q.ID == o.ID
	}
	t, err := snap.Table(o.Name)
	return err == nil && t.ID == o.ID
}
