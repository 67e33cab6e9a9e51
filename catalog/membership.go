package catalog

import (
	"maps"
	"sort"
)

// PredefinedRole is one of PostgreSQL 15's predefined roles: NOLOGIN roles
// that exist in every cluster, with PostgreSQL's OIDs, which a superuser
// grants to give a role some power over the whole server.
type PredefinedRole struct {
	Name string
	OID  uint32
	// Members are the predefined roles that are members of this one
	// (pg_monitor of pg_read_all_settings, ...).
	Members []string
}

// Predefined role names zproxy's checks consult.
const (
	RoleReadAllData     = "pg_read_all_data"
	RoleWriteAllData    = "pg_write_all_data"
	RoleReadAllStats    = "pg_read_all_stats"
	RoleReadAllSettings = "pg_read_all_settings"
	RoleStatScanTables  = "pg_stat_scan_tables"
	RoleMonitor         = "pg_monitor"
	RoleSignalBackend   = "pg_signal_backend"
	RoleDatabaseOwner   = "pg_database_owner"
)

// PredefinedRoles are PostgreSQL 15's predefined roles that mean something
// here, in OID order.
var PredefinedRoles = []PredefinedRole{
	{Name: RoleMonitor, OID: 3373},
	{Name: RoleReadAllSettings, OID: 3374, Members: []string{RoleMonitor}},
	{Name: RoleReadAllStats, OID: 3375, Members: []string{RoleMonitor}},
	{Name: RoleStatScanTables, OID: 3377, Members: []string{RoleMonitor}},
	{Name: RoleSignalBackend, OID: 4200},
	{Name: RoleDatabaseOwner, OID: 6171},
	{Name: RoleReadAllData, OID: 6181},
	{Name: RoleWriteAllData, OID: 6182},
}

// Predefined returns the predefined role named name, or nil.
func Predefined(name string) *PredefinedRole {
	for i := range PredefinedRoles {
		if PredefinedRoles[i].Name == name {
			return &PredefinedRoles[i]
		}
	}
	return nil
}

// RoleExists reports whether name is a stored role or a predefined one.
func (s *Snapshot) RoleExists(name string) bool {
	return name != PublicRole && (s.roles[name] != nil || Predefined(name) != nil)
}

// directGroups returns the roles role was granted directly, with their
// admin option: stored grants, and for a predefined role the predefined
// roles it belongs to.
func (s *Snapshot) directGroups(role string) map[string]bool {
	out := map[string]bool{}
	if r := s.roles[role]; r != nil {
		maps.Copy(out, r.MemberOf)
	}
	for _, p := range PredefinedRoles {
		for _, m := range p.Members {
			if m == role {
				out[p.Name] = false
			}
		}
	}
	return out
}

// IsMemberOf reports whether role is group, or a member of it directly or
// through other roles. Every zproxy role inherits (there is no
// NOINHERIT), so a member holds its groups' privileges. A superuser is a
// member of every role, as PostgreSQL's has_privs_of_role says.
func (s *Snapshot) IsMemberOf(role, group string) bool {
	if role == group {
		return true
	}
	if r := s.roles[role]; r != nil && r.Superuser {
		return true
	}
	seen := map[string]bool{role: true}
	queue := []string{role}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for g := range s.directGroups(cur) {
			if g == group {
				return true
			}
			if !seen[g] {
				seen[g] = true
				queue = append(queue, g)
			}
		}
	}
	return false
}

// HasAdminOf reports whether role may grant and revoke membership in
// group: a superuser may, and so may a role holding group WITH ADMIN
// OPTION, directly or through a role it is a member of.
func (s *Snapshot) HasAdminOf(role, group string) bool {
	if r := s.roles[role]; r != nil && r.Superuser {
		return true
	}
	seen := map[string]bool{}
	queue := []string{role}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if seen[cur] {
			continue
		}
		seen[cur] = true
		for g, admin := range s.directGroups(cur) {
			if g == group && admin {
				return true
			}
			queue = append(queue, g)
		}
	}
	return false
}

// Membership is one row of pg_auth_members: Member was granted Role.
type Membership struct {
	Role, Member string
	Admin        bool
}

// Memberships lists every grant of one role to another, the predefined
// ones included, sorted by role and member.
func (s *Snapshot) Memberships() []Membership {
	var out []Membership
	for _, p := range PredefinedRoles {
		for _, m := range p.Members {
			out = append(out, Membership{Role: p.Name, Member: m})
		}
	}
	for _, r := range s.roles {
		for g, admin := range r.MemberOf {
			out = append(out, Membership{Role: g, Member: r.Name, Admin: admin})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Role != out[j].Role {
			return out[i].Role < out[j].Role
		}
		return out[i].Member < out[j].Member
	})
	return out
}

// WithMembership returns a copy of r that is (member true) or is not a
// member of group, with admin as the admin option when it is one. r
// itself, which a snapshot holds, is left alone.
func WithMembership(r *Role, group string, member, admin bool) *Role {
	c := r.Clone()
	c.MemberOf = maps.Clone(r.MemberOf)
	if c.MemberOf == nil {
		c.MemberOf = map[string]bool{}
	}
	if member {
		c.MemberOf[group] = admin
	} else {
		delete(c.MemberOf, group)
	}
	return c
}

// DropMembershipsIn returns copies of the roles that are members of any
// of names, without those memberships, for DROP ROLE to write with it.
func (s *Snapshot) DropMembershipsIn(names []string) []*Role {
	gone := map[string]bool{}
	for _, n := range names {
		gone[n] = true
	}
	var out []*Role
	for _, r := range s.Roles() {
		if gone[r.Name] {
			continue
		}
		c := r
		for g := range r.MemberOf {
			if gone[g] {
				c = WithMembership(c, g, false, false)
			}
		}
		if c != r {
			out = append(out, c)
		}
	}
	return out
}

// GroupsOf lists the roles role is a member of, directly or through other
// roles, sorted; being a superuser adds none (pg_hba.conf's +group tests
// membership this way, not has_privs_of_role's).
func (s *Snapshot) GroupsOf(role string) []string {
	seen := map[string]bool{role: true}
	var out []string
	queue := []string{role}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for g := range s.directGroups(cur) {
			if !seen[g] {
				seen[g] = true
				out = append(out, g)
				queue = append(queue, g)
			}
		}
	}
	sort.Strings(out)
	return out
}
