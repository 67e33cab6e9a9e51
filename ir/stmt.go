package ir

// What a bound statement says of itself (CockroachDB's StatementType and
// StatementReturnType are the model): its class, whether it changes the
// schema or writes, where it creates objects and whose objects it
// changes. The session decides read-only refusals, DDL in blocks and
// privilege checks from this description, not from lists of statement
// types; a new statement describes itself next to its type.

// Class is a statement's class, as PostgreSQL's log_statement and the SQL
// standard divide statements.
type Class uint8

// Statement classes.
const (
	// ClassQuery reads: SELECT, VALUES, TABLE (a data-modifying WITH makes
	// a query write; see Description.Writes).
	ClassQuery Class = iota
	// ClassDML changes rows: INSERT, UPDATE, DELETE, TRUNCATE
	// (log_statement 'mod').
	ClassDML
	// ClassDDL defines schema objects: CREATE, ALTER, DROP, COMMENT
	// (log_statement 'ddl'; the statements event triggers fire for).
	ClassDDL
	// ClassDCL controls access: roles, GRANT, REVOKE.
	ClassDCL
	// ClassTCL controls transactions: BEGIN, COMMIT, ROLLBACK, savepoints,
	// SET CONSTRAINTS.
	ClassTCL
	// ClassUtility is everything else: SET, SHOW, EXPLAIN, ANALYZE, ...
	ClassUtility
)

// String is the class's name ("DDL").
func (c Class) String() string {
	return [...]string{"query", "DML", "DDL", "DCL", "TCL", "utility"}[c]
}

// ObjectKind is the kind of a schema object a statement names.
type ObjectKind uint8

// Object kinds.
const (
	ObjectTable ObjectKind = iota
	ObjectView
	ObjectSequence
	ObjectIndex
	// ObjectRelation is a table, or else an index (ALTER TABLE names
	// either, as PostgreSQL's ALTER TABLE on an index).
	ObjectRelation
	// ObjectType is a user-defined type.
	ObjectType
)

// ObjectRef names a schema object. Owner is set when the binder has
// resolved the object already; else the session looks the name up.
type ObjectRef struct {
	Kind  ObjectKind
	Name  string
	Owner string
}

// Description is what a statement says of itself.
type Description struct {
	Class Class
	// Tag is the command tag's words when Kind does not spell them
	// ("CREATE EXTENSION"); empty for Kind in capitals ("create_table" is
	// CREATE TABLE).
	Tag string
	// ChangesSchema: running it changes the catalog (zproxy applies such
	// a change when it runs, so a block that runs one says so at
	// ROLLBACK).
	ChangesSchema bool
	// Writes: it changes rows or the catalog, so a read-only transaction
	// refuses it (25006).
	Writes bool
	// CreatesIn is the schema it creates an object in, whose CREATE
	// privilege it needs ("" for none).
	CreatesIn string
	// Owns are the objects only whose owner may run it.
	Owns []ObjectRef
	// NoSnapshot: it reads no data, so inside a block it does not start
	// the block's transaction, and SET TRANSACTION may still follow it
	// (PostgreSQL takes a block's snapshot at its first query; pg_dump
	// sends BEGIN, SET ..., then SET TRANSACTION ISOLATION LEVEL).
	NoSnapshot bool
}

// ddl describes a DDL statement that changes the schema.
func ddl(owns ...ObjectRef) Description {
	return Description{Class: ClassDDL, ChangesSchema: true, Writes: true, Owns: owns}
}

// tagged sets the command tag's words.
func (d Description) tagged(tag string) Description {
	d.Tag = tag
	return d
}

// refs names objects of one kind.
func refs(kind ObjectKind, names ...string) []ObjectRef {
	out := make([]ObjectRef, len(names))
	for i, n := range names {
		out[i] = ObjectRef{Kind: kind, Name: n}
	}
	return out
}
