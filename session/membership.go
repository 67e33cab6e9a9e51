package session

import (
	"context"
	"strings"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
)

// unsupportedOption refuses a CREATE/ALTER ROLE option zproxy does not
// implement; callers check privilege first, as PostgreSQL does, so an
// ordinary role learns 42501 whatever option it names.
func unsupportedOption(o ir.RoleOptions) error {
	if o.Unsupported == "" {
		return nil
	}
	return pgerr.New(pgerr.FeatureNotSupported, "role option %s is not supported", o.Unsupported)
}

// grantRole runs GRANT role TO member and REVOKE role FROM member as one
// catalog change, with PostgreSQL 15's checks in its order: every role
// named exists, the granter holds the admin option on each granted role
// (a superuser does), and no grant makes a cycle.
func (s *Session) grantRole(ctx context.Context, x *ir.GrantRole) error {
	var notices []*pgerr.Error
	err := s.updateRoles(ctx, func(snap *catalog.Snapshot) (catalog.Change, error) {
		notices = notices[:0]
		name := func(r ir.RoleSpec) (string, error) {
			n := r.Name
			if r.Current {
				n = s.ownerRole(r.Name)
			}
			if r.Public || !snap.RoleExists(n) {
				return "", pgerr.New(pgerr.UndefinedObject, "role \"%s\" does not exist", n)
			}
			return n, nil
		}
		var granted, members []string
		for _, r := range x.Granted {
			n, err := name(r)
			if err != nil {
				return catalog.Change{}, err
			}
			granted = append(granted, n)
		}
		for _, r := range x.Members {
			n, err := name(r)
			if err != nil {
				return catalog.Change{}, err
			}
			members = append(members, n)
		}
		changed := map[string]*catalog.Role{}
		var order []string
		cur := func(n string) *catalog.Role {
			if r := changed[n]; r != nil {
				return r
			}
			return snap.Role(n)
		}
		for _, g := range granted {
			if !s.isSuperuser(snap) && !snap.HasAdminOf(s.currentUser(), g) {
				return catalog.Change{}, pgerr.New(pgerr.InsufficientPrivilege, "must have admin option on role \"%s\"", g)
			}
			for _, m := range members {
				old := cur(m)
				if old == nil {
					// A predefined role's memberships are fixed.
					return catalog.Change{}, pgerr.New(pgerr.FeatureNotSupported, "the memberships of predefined role %s cannot be changed", m)
				}
				admin, member := old.MemberOf[g]
				var r *catalog.Role
				switch {
				case !x.Revoke && (m == g || snap.IsMemberOf(g, m) && !isSuperuserRole(snap, g)):
					return catalog.Change{}, pgerr.New(pgerr.InvalidGrantOperation, "role \"%s\" is a member of role \"%s\"", g, m)
				case !x.Revoke && member && (admin || !x.Admin):
					notices = append(notices, pgerr.Notice("role \"%s\" is already a member of role \"%s\"", m, g))
					continue
				case !x.Revoke:
					r = catalog.WithMembership(old, g, true, x.Admin)
				case !member:
					notices = append(notices, &pgerr.Error{Severity: "WARNING", Code: pgerr.Warning,
						Message: "role \"" + m + "\" is not a member of role \"" + g + "\""})
					continue
				case x.Admin:
					r = catalog.WithMembership(old, g, true, false)
				default:
					r = catalog.WithMembership(old, g, false, false)
				}
				if changed[m] == nil {
					order = append(order, m)
				}
				changed[m] = r
			}
		}
		var ch catalog.Change
		for _, m := range order {
			snap.PruneGrants(changed[m])
			ch.PutRoles = append(ch.PutRoles, changed[m])
		}
		if len(ch.PutRoles) == 0 {
			return ch, errNothingToDo
		}
		return ch, nil
	})
	for _, n := range notices {
		s.notice(n)
	}
	return err
}

// isSuperuserRole reports whether the stored role n is a superuser, whose
// being a "member" of every role is no cycle.
func isSuperuserRole(snap *catalog.Snapshot, n string) bool {
	r := snap.Role(n)
	return r != nil && r.Superuser
}

// alterSystem refuses ALTER SYSTEM: an ordinary role without the ALTER
// SYSTEM privilege on the parameter as PostgreSQL 15 does, a superuser
// (or a role granted it) because zproxy's configuration lives in its
// flags and config file.
func (s *Session) alterSystem(x *ir.AlterSystem) error {
	if !s.superuserNow() {
		name := x.Setting
		if strings.EqualFold(name, "all") {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to perform ALTER SYSTEM RESET ALL")
		}
		snap, err := s.snapshot(context.Background())
		if err != nil || snap.ParameterPrivileges(s.currentUser(), strings.ToLower(name))&catalog.PrivAlterSystem == 0 {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to set parameter \"%s\"", name)
		}
	}
	return pgerr.New(pgerr.FeatureNotSupported, "ALTER SYSTEM is not supported").
		WithHint("Set zproxy's configuration with its flags, environment or config file.")
}

// maySelect reports whether the session's role may read t, for zproxy's
// tuning functions, which would otherwise tell of tables it may not read:
// a superuser, a holder of SELECT, or a member of pg_read_all_data.
func (s *Session) maySelect(snap *catalog.Snapshot, t *catalog.Table) bool {
	return s.isSuperuser(snap) || snap.Allowed(s.currentUser(), t, catalog.PrivSelect) // memberships included
}

// readsAllStats reports whether the session's role sees every role's
// statement statistics: a superuser or a member of pg_read_all_stats.
func (s *Session) readsAllStats(snap *catalog.Snapshot) bool {
	return s.isSuperuser(snap) || snap.IsMemberOf(s.currentUser(), catalog.RoleReadAllStats)
}
