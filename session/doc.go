// Package session is the SQL session behind each client connection: it
// implements wire.Engine and carries one statement through the layers.
//
// Flow of one statement: wire hands the query text to Session.Parse
// (package parser); Describe binds it to the newest catalog snapshot
// (package planner) to report parameter and result types; Execute binds
// again (the schema may have changed since), plans with the parameter values
// (package optimizer), and runs the plan (package executor) against the
// store, streaming rows back to wire through Result. Session also owns what
// is per connection rather than per statement: SET variables and the
// TimeZone, the transaction block (txn.go), the NOTICEs the layers raise,
// what the system catalogs show of it (catalog.go: pg_stat_activity,
// settings, advisory locks, through package catalog/pgcatalog's Session),
// and the session statements TiDB's grammar lacks (parser.UtilityStatement,
// utility.go): SQL prepared statements, cursors (cursor.go), LISTEN/NOTIFY
// between the engine's sessions (notify.go) and COPY (copy.go), whose rows
// go to the executor's BulkInsert inside the session's transaction; and
// tuning (tuning.go): each completed statement is recorded in the proxy's
// statement statistics with a workload sample for the index advisor, and
// the session's hypothetical indexes are planned by EXPLAIN only
// (pgcatalog.Tuning).
//
// The package sits between wire (protocol) and the SQL layers so that wire
// stays a protocol implementation testable with a fake engine, and no SQL
// layer ever sees a protocol message.
package session
