package pgcatalog

import (
	"strings"

	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// pg_has_role([user,] role, privilege): whether user (the current one by
// default) is role or a member of it. Users and roles are named or given
// by OID, in PostgreSQL's six overloads. The privilege is MEMBER or USAGE
// (the same in zproxy, as every role inherits), or either WITH ADMIN
// OPTION (the grant's admin option), several comma-separated: any of them
// held is enough.

// rolePrivileges reads pg_has_role's privilege list as PostgreSQL does
// (any case, blanks around each; 22023 for an unknown one): whether it
// asks for plain membership and whether for the admin option.
func rolePrivileges(list string) (member, admin bool, err error) {
	for _, chunk := range strings.Split(list, ",") {
		chunk = strings.TrimSpace(chunk)
		switch strings.ToUpper(chunk) {
		case "MEMBER", "USAGE":
			member = true
		case "MEMBER WITH ADMIN OPTION", "MEMBER WITH GRANT OPTION", "USAGE WITH ADMIN OPTION", "USAGE WITH GRANT OPTION":
			admin = true
		default:
			return false, false, pgerr.New(pgerr.InvalidParameterValue, "unrecognized privilege type: \"%s\"", chunk)
		}
	}
	return member, admin, nil
}

// adminOf reports whether user holds role with the admin option (a
// superuser holds every role so); a role is not its own admin.
func (e *Env) adminOf(user, role string) bool {
	if isSuperuser(e, user) {
		return true
	}
	if e.Snap == nil {
		return false
	}
	for _, m := range e.Snap.Memberships() {
		if m.Member == user && m.Role == role && m.Admin {
			return true
		}
	}
	return false
}

func init() {
	nameT, oidT, textT := sqltypes.Type{ID: sqltypes.Name}, sqltypes.Type{ID: sqltypes.Oid}, sqltypes.TypeText
	// roleArg reads a user or role argument: by name it must exist (42704);
	// by OID an unknown one is no role (ok false).
	roleArg := func(e *Env, v sqltypes.Value) (string, bool, error) {
		if v.K == sqltypes.KindText {
			if _, err := e.roleOID(v.S); err != nil {
				return "", false, err
			}
			return unquoteIdent(v.S), true, nil
		}
		name, ok := e.roleName(uint32(v.I))
		return name, ok, nil
	}
	hasRole := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		user, userOK := e.userIn(ctx), true
		if len(a) == 3 {
			if user, userOK, err = roleArg(e, a[0]); err != nil {
				return sqltypes.Null, err
			}
			a = a[1:]
		}
		role, roleOK, err := roleArg(e, a[0])
		if err != nil {
			return sqltypes.Null, err
		}
		member, admin, err := rolePrivileges(a[1].S)
		if err != nil {
			return sqltypes.Null, err
		}
		switch {
		case !userOK:
			return boolV(false), nil
		case !roleOK:
			return boolV(isSuperuser(e, user)), nil
		}
		return boolV(member && e.hasRole(user, role) || admin && e.adminOf(user, role)), nil
	}
	doc := "user privilege on role by user name, role name"
	var ovs []Overload
	for _, sig := range [][]sqltypes.Type{{nameT, nameT, textT}, {nameT, oidT, textT}, {oidT, nameT, textT}, {oidT, oidT, textT}, {nameT, textT}, {oidT, textT}} {
		params := make([]Param, len(sig))
		for i, t := range sig {
			params[i] = T(t)
		}
		ovs = append(ovs, Overload{Params: params, Result: Returns(sqltypes.TypeBool), Volatility: Stable, Doc: doc, Eval: hasRole})
	}
	Register("pg_has_role", ovs...)
}
