package ir

import (
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Grant is GRANT (or with Revoke, REVOKE) of privileges on tables, views,
// sequences, their columns, and schema public. Objects are resolved when
// the statement is bound; ON ALL TABLES | SEQUENCES IN SCHEMA public means
// the objects that exist then, as in PostgreSQL.
type Grant struct {
	Revoke  bool
	Objects []GrantObject
	Roles   []RoleSpec
	// Warnings are sent before the statement runs (privileges a sequence
	// does not have, named on a GRANT ON TABLE).
	Warnings []*pgerr.Error
}

// GrantObject is one object of a GRANT or REVOKE and what it grants there.
type GrantObject struct {
	Kind catalog.ObjectKind
	// ID is a table's, view's or sequence's object ID (0 for a schema).
	ID    uint64
	Name  string
	Owner string
	// Privileges are granted on the whole object.
	Privileges catalog.Privilege
	// Columns are column privileges, by the column's key in
	// catalog.Role.Columns (a table column's store attribute, a view
	// column's name).
	Columns map[string]catalog.Privilege
}

// OnTypes reports whether the statement grants on user-defined types,
// whose ACLs are the types' own (typacl) rather than their grantees'.
func (g *Grant) OnTypes() bool {
	return len(g.Objects) > 0 && g.Objects[0].Kind == catalog.KindType
}

// OnLanguages reports whether the statement grants on procedural
// languages, whose ACLs the database's registry entry keeps.
func (g *Grant) OnLanguages() bool {
	return len(g.Objects) > 0 && g.Objects[0].Kind == catalog.KindLanguage
}

// OnDatabases reports whether the statement grants on databases, whose
// registry is the store's rather than the database catalog's.
func (g *Grant) OnDatabases() bool {
	return len(g.Objects) > 0 && g.Objects[0].Kind == catalog.KindDatabase
}

// OnLargeObjects reports whether the statement grants on large objects,
// which are stored beside the rows (the session changes them in a
// transaction) rather than in the catalog.
func (g *Grant) OnLargeObjects() bool {
	return len(g.Objects) > 0 && g.Objects[0].Kind == catalog.KindLargeObject
}

// AlterDefaultPrivileges is ALTER DEFAULT PRIVILEGES: it grants or revokes
// privileges on the objects of ObjType (catalog.DefaultACLTables, ...) the
// roles For (none: the current role) create later, in each of Schemas
// (none: everywhere).
type AlterDefaultPrivileges struct {
	Revoke     bool
	For        []RoleSpec
	Schemas    []string
	ObjType    byte
	Privileges catalog.Privilege
	Roles      []RoleSpec
}
