package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindRole binds a role statement.
func bindRole(snap *catalog.Snapshot, rs *parser.RoleStatement) (ir.Statement, error) {
	switch rs.Kind {
	case "create_role":
		n := rs.Roles[0]
		if err := ir.CheckRoleName(n.Name); err != nil {
			if pe := pgerr.As(err); pe != nil && pe.Detail == "" {
				pe.WithPosition(n.Pos)
			}
			return nil, err
		}
		return &ir.CreateRole{Name: n.Name, Options: roleOptions(rs)}, nil
	case "alter_role":
		if rs.SetAction != "" {
			x := &ir.AlterRole{Setting: &ir.RoleSetting{All: rs.AllRoles, Database: rs.SetDatabase, Param: rs.Setting, Value: rs.SetValue,
				Reset: rs.SetAction == "reset", FromCurrent: rs.SetAction == "set_current"}}
			if !rs.AllRoles {
				x.Role = roleSpec(rs.Roles[0])
			}
			return x, nil
		}
		return &ir.AlterRole{Role: roleSpec(rs.Roles[0]), Options: roleOptions(rs)}, nil
	case "grant_role", "revoke_role", "alter_system":
		return bindMembership(rs), nil
	case "drop_role":
		d := &ir.DropRole{IfExists: rs.IfExists}
		for _, n := range rs.Roles {
			d.Names = append(d.Names, n.Name)
		}
		return d, nil
	case "grant", "revoke":
		if rs.Defaults {
			return bindDefaultPrivileges(snap, rs)
		}
		return bindGrant(snap, rs)
	}
	return nil, unsupported("statement %s is not supported", rs.Kind)
}

func roleSpec(n parser.RoleName) ir.RoleSpec {
	return ir.RoleSpec{Name: n.Name, Current: n.Current, Public: n.Public}
}

func roleOptions(rs *parser.RoleStatement) ir.RoleOptions {
	o := ir.RoleOptions{Unsupported: rs.Unsupported}
	for _, opt := range rs.Options {
		on := !opt.Negated
		switch opt.Name {
		case "login":
			o.Login = &on
		case "superuser":
			o.Superuser = &on
		case "password":
			o.Password, o.PasswordNull = opt.Password, opt.Password == nil
		}
	}
	return o
}
