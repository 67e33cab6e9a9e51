// Package clients tests zproxy through the application drivers people use
// with PostgreSQL, each in its own language and process: psycopg2 (Python),
// node-postgres (JavaScript), pgjdbc (Java), lib/pq (Go, database/sql) and
// the pgbench load generator.
//
// TestMain builds cmd/zproxy once (with the race detector when the tests run
// with it). Each test starts its own zproxy process on a free loopback port
// below the ephemeral range with a temporary data directory, then runs one
// client against it. The driver tests share one scenario, written once per
// language under testdata/ (the Go one is in libpq_test.go):
//
//   - create a table with a column of every supported type;
//   - insert three rows with query parameters (every type, all NULLs, edge
//     values: integer extremes, an empty string and empty bytea, a
//     timestamptz at a non-UTC offset, multi-byte UTF-8, bytes 0x00 and 0xff),
//     one single-row and one multi-row INSERT;
//   - read them back and compare every value, as the driver decodes it, and
//     every column's type OID (where the driver exposes it);
//   - provoke 23505 (duplicate key) and 42P01 (unknown table), check the
//     SQLSTATE, and check that the connection still works.
//
// A client script prints one line per check and "PASS" at the end, and exits
// non-zero at the first mismatch. After it, the Go test reads the table over
// a separate pgx connection in the simple protocol and compares the raw text
// of every value with PostgreSQL's spelling (storedRows), so what a driver
// wrote is checked independently of how that driver reads it back.
//
// The pgbench test creates the pgbench tables with zproxy's DDL, fills them
// with INSERTs (pgbench -i needs COPY) and runs a custom script of point
// selects and updates in the simple, extended and prepared protocols.
//
// TestDriverSessionStatements replays, over pgx, the session statements the
// drivers send behind their APIs (setTransactionIsolation, set_session, named
// cursors, SHOW ...), with the zproxy bugs found so far marked as known.
//
// The clients come from scripts/install-client-deps.sh: Debian's
// python3-psycopg2, libpostgresql-jdbc-java, a JDK and pgbench, and the npm
// package pg in testdata/node/node_modules; lib/pq is a Go module. A missing
// client skips its test, except with CI=true, where it fails it.
//
// The package holds tests only.
package clients
