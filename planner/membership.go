package planner

import "github.com/zproxy/zproxy/parser"

// GrantRole is GRANT role, ... TO member, ... [WITH ADMIN OPTION] (or with
// Revoke, REVOKE [ADMIN OPTION FOR] role, ... FROM member, ...). Roles are
// checked when the statement runs, against the newest catalog.
type GrantRole struct {
	Revoke bool
	// Admin is WITH ADMIN OPTION; with Revoke, ADMIN OPTION FOR (the
	// membership stays, the option goes).
	Admin   bool
	Granted []RoleSpec
	Members []RoleSpec
}

// Kind implements Statement.
func (g *GrantRole) Kind() string {
	if g.Revoke {
		return "revoke_role"
	}
	return "grant_role"
}

// AlterSystem is ALTER SYSTEM SET/RESET of Setting: the session checks
// the privilege PostgreSQL checks, then refuses it, as zproxy keeps its
// configuration in its flags and config file.
type AlterSystem struct{ Setting string }

// Kind implements Statement.
func (*AlterSystem) Kind() string { return "alter_system" }

// bindMembership binds GRANT/REVOKE of roles and ALTER SYSTEM.
func bindMembership(rs *parser.RoleStatement) Statement {
	if rs.Kind == "alter_system" {
		return &AlterSystem{Setting: rs.Setting}
	}
	g := &GrantRole{Revoke: rs.Kind == "revoke_role", Admin: rs.Admin}
	for _, n := range rs.Granted {
		g.Granted = append(g.Granted, roleSpec(n))
	}
	for _, n := range rs.Roles {
		g.Members = append(g.Members, roleSpec(n))
	}
	return g
}
