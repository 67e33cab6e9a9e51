// Package pgcatalog is zproxy's system catalogs: the relations of
// pg_catalog and information_schema that psql, drivers, ORMs and BI tools
// read to learn a schema, and the functions those queries call.
//
// A catalog relation (Relation) is its columns, exactly as PostgreSQL 15
// declares them (columns_gen.go), and a generator of rows. The planner
// binds a name to one through Lookup, which returns a catalog.Table whose
// Virtual function computes the rows when the executor reads it, from the
// statement's Env: the schema snapshot the statement was bound to, and the
// Session it runs in (its user and database, its settings, the proxy's
// other sessions for pg_stat_activity, the advisory lock table). The
// session package implements Session and puts the Env in the
// builtins.Context every function sees, so the catalog functions
// (functions.go: pg_get_indexdef, format_type, has_table_privilege, the
// advisory locks, ...) and the reg* casts read the same Env. Data flows as
// everywhere: session → planner → executor, never back.
//
// OIDs. Built-in objects have PostgreSQL's OIDs: namespaces, types
// (types_gen.go), access methods, functions (procs_gen.go, matched by name
// and argument types). A user object's OID derives from its descriptor's
// persistent ID (objects.go), so it is the same across restarts and on
// every proxy over one store; a role's from its name.
//
// What zproxy does not have, its catalogs do not pretend: relations of
// triggers, publications, policies or extensions exist with their columns
// and no rows; object sizes are NULL (unknown); descriptions are NULL (no
// COMMENT ON). Where zproxy differs from PostgreSQL it says its own truth:
// pg_am lists zorder beside btree, pg_get_indexdef prints USING zorder,
// INCLUDE and WITH (shards = N, shard_columns = ...), reloptions hold a
// table's shards, shard columns and mutability.
package pgcatalog
