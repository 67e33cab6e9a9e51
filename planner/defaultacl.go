package planner

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// bindDefaultPrivileges binds ALTER DEFAULT PRIVILEGES, refusing what
// PostgreSQL refuses before it looks at roles: a privilege the object type
// does not have, IN SCHEMA with ON SCHEMAS, a schema that does not exist.
func bindDefaultPrivileges(snap *catalog.Snapshot, rs *parser.RoleStatement) (ir.Statement, error) {
	x := &ir.AlterDefaultPrivileges{Revoke: rs.Kind == "revoke", Schemas: rs.Schemas}
	noun := "relation"
	switch rs.Object {
	case "tables":
		x.ObjType = catalog.DefaultACLTables
	case "sequences":
		x.ObjType, noun = catalog.DefaultACLSequences, "sequence"
	case "functions":
		x.ObjType, noun = catalog.DefaultACLFunctions, "function"
	case "types":
		x.ObjType, noun = catalog.DefaultACLTypes, "type"
	case "schemas":
		x.ObjType, noun = catalog.DefaultACLSchemas, "schema"
	}
	all := catalog.DefaultACLPrivileges(x.ObjType)
	for i, p := range rs.Privileges {
		if i < len(rs.PrivilegeColumns) && rs.PrivilegeColumns[i] != nil {
			return nil, pgerr.New(pgerr.InvalidGrantOperation, "default privileges cannot be set for columns")
		}
		priv, ok := catalog.ParsePrivilege(p)
		if !ok {
			return nil, unsupported("privilege %s is not supported", p)
		}
		if priv == catalog.PrivAll {
			priv = all
		}
		if priv&^all != 0 {
			return nil, pgerr.New(pgerr.InvalidGrantOperation, "invalid privilege type %s for %s", p, noun)
		}
		x.Privileges |= priv
	}
	if x.ObjType == catalog.DefaultACLSchemas && len(rs.Schemas) > 0 {
		return nil, pgerr.New(pgerr.InvalidGrantOperation, "cannot use IN SCHEMA clause when using GRANT/REVOKE ON SCHEMAS")
	}
	if x.ObjType == catalog.DefaultACLTypes {
		// Types carry no ACL in zproxy (every role may use every type),
		// so defaults for them could not be honoured.
		return nil, unsupported("ALTER DEFAULT PRIVILEGES ... ON TYPES is not supported: zproxy types have no privileges")
	}
	for _, sc := range rs.Schemas {
		if !snap.HasSchema(sc) {
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema \"%s\" does not exist", sc)
		}
	}
	for _, n := range rs.DefaultFor {
		x.For = append(x.For, roleSpec(n))
	}
	for _, n := range rs.Roles {
		x.Roles = append(x.Roles, roleSpec(n))
	}
	return x, nil
}
