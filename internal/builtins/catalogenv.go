package builtins

import "github.com/zproxy/zproxy/internal/sqltypes"

// Catalog is what functions see of the schema and of the server's other
// sessions: the reg* types' name lookups here, the rest through the type
// that implements it (package catalog/pgcatalog, whose functions assert
// it). Nil when a statement runs without one (constant folding without a
// catalog); functions that need it then fail with a clear error.
type Catalog interface {
	// RegName is the name a value of reg* type t and this OID prints as
	// ("" when no object has the OID: the number prints).
	RegName(t sqltypes.Type, oid uint32) string
	// RegOID looks up a name given as input to reg* type t, failing as
	// PostgreSQL does (42P01 for a relation, 42704 for a type, 42883 for
	// a function, 3F000 for a schema).
	RegOID(t sqltypes.Type, name string) (uint32, error)
	// ACLItemIn is aclitem's input function: its roles must exist
	// (42704); with no grantor it warns, as PostgreSQL does, and the
	// bootstrap superuser grants. at, when not 0, is the position in the
	// statement of the literal read, which the warning reports.
	ACLItemIn(s string, at int) (sqltypes.Value, error)
}
