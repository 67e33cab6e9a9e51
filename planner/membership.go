package planner

import (
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindMembership binds GRANT/REVOKE of roles and ALTER SYSTEM.
func bindMembership(rs *parser.RoleStatement) ir.Statement {
	if rs.Kind == "alter_system" {
		return &ir.AlterSystem{Setting: rs.Setting}
	}
	g := &ir.GrantRole{Revoke: rs.Kind == "revoke_role", Admin: rs.Admin}
	for _, n := range rs.Granted {
		g.Granted = append(g.Granted, roleSpec(n))
	}
	for _, n := range rs.Roles {
		g.Members = append(g.Members, roleSpec(n))
	}
	return g
}
