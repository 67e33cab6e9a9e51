// Package hostile tests zproxy against clients that try to crash, starve or
// fool it, through the real binary: raw protocol bytes, oversized messages
// before authentication (with the server's memory measured), hundreds of
// connections and --max-connections, statement_timeout,
// idle_in_transaction_session_timeout, clients that hang up mid-statement,
// TLS and SCRAM-SHA-256 from psql, pgx, psycopg2 and JDBC, and privileges
// through psql.
//
// TestMain builds cmd/zproxy (with the race detector when the tests run with
// it); HOSTILE_ZPROXY_BIN names another binary instead, for checking that
// the tests fail against a zproxy without these protections.
//
// The package holds tests only.
package hostile
