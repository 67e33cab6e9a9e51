package ir

import "github.com/zproxy/zproxy/parser"

// SchemaChange is CREATE, ALTER or DROP SCHEMA (see parser.SchemaStatement):
// the session applies it to the catalog's schema descriptors.
type SchemaChange struct {
	// Action is "create", "drop", "rename" or "owner".
	Action string
	// Names are the schemas named; empty for CREATE SCHEMA AUTHORIZATION
	// role, which names the schema after the role.
	Names     []string
	MissingOK bool
	// Role is AUTHORIZATION's or OWNER TO's role ("" for none); Current
	// is CURRENT_USER/SESSION_USER.
	Role    string
	Current bool
	NewName string
	Cascade bool
	// Elements are CREATE SCHEMA's schema elements, run by the session in
	// the new schema as its owner (parser.SchemaElement).
	Elements []parser.SchemaElement
}

// Kind implements Statement.
func (*SchemaChange) Kind() string { return "schema_change" }

// Describe implements Statement. CREATE SCHEMA needs the database's
// CREATE privilege, which the session checks itself (zproxy has one
// database, whose CREATE only superusers and its owner hold).
func (x *SchemaChange) Describe() Description {
	tag := map[string]string{"create": "CREATE SCHEMA", "drop": "DROP SCHEMA", "rename": "ALTER SCHEMA", "owner": "ALTER SCHEMA"}[x.Action]
	return ddl().tagged(tag)
}
