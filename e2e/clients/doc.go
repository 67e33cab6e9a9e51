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
// with INSERTs and runs a custom script of point selects and updates in the
// simple, extended and prepared protocols; TestPgbenchInitTPCB runs
// `pgbench -i` itself (without its vacuum step: zproxy has no VACUUM) and
// the built-in TPC-B-like script, then checks that the balances add up.
//
// The application-write scenarios (issue 15) run the transaction APIs as
// applications use them: psycopg2 (autocommit off and on, rollback, a
// failed block, `with conn:`, RETURNING of a BIGSERIAL, savepoints),
// pgJDBC (batches with and without reWriteBatchedInserts, getGeneratedKeys
// of serial and identity columns, the Savepoint API, 40001 as a
// PSQLException), SQLAlchemy's ORM (rollback after an IntegrityError,
// begin_nested) with pandas to_sql/read_sql, Django's migrate of its
// built-in apps, and psycopg2 clients moving money between accounts with
// retries on 40001 while an auditor checks the total, on Pebble and through
// two proxies sharing one DynamoDB Local table.
//
// Two drivers' own test suites run against zproxy, from their module
// source: pgx v5's (TestPgxSuite) and lib/pq's (TestLibPQSuite). Each has a
// list of the tests that fail on zproxy with why (testdata/*_expected_failures.txt),
// written by comparing runs on zproxy and on PostgreSQL 15, which may only
// shrink.
//
// TestDriverSessionStatements replays, over pgx, the session statements the
// drivers send behind their APIs (setTransactionIsolation, set_session, named
// cursors, SHOW ...).
//
// The protocol, cursor and COPY scenarios run each driver the way its users
// do, against a fresh zproxy or, when E2E_POSTGRES holds a connection
// string, against that PostgreSQL, which proves their expectations are
// PostgreSQL's (clientTarget): asyncpg (binary extended protocol, errors at
// Parse and Describe answered at Flush, cursors, COPY), psycopg 3 (prepared
// statements and DEALLOCATE ALL after a rollback, a pipeline with an error,
// COPY in text and binary, named cursors), node-postgres with pg-cursor
// and pg-copy-streams, pgx's CopyFrom and pgconn's CopyFrom/CopyTo, lib/pq's
// CopyIn, pgJDBC's CopyManager and setFetchSize, LISTEN/NOTIFY, the session
// TimeZone, and psql's FETCH_COUNT and \copy.
//
// The clients come from scripts/install-client-deps.sh: Debian's
// python3-psycopg2, python3-psycopg, python3-asyncpg, python3-sqlalchemy,
// python3-pandas, python3-django,
// libpostgresql-jdbc-java, a JDK and pgbench, and the npm packages pg,
// pg-cursor and pg-copy-streams in testdata/node/node_modules (installed,
// never committed); lib/pq and pgx are Go modules. A missing client skips
// its test, except with CI=true, where it fails it.
//
// The package holds tests only.
package clients
