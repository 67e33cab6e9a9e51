// Package console is zproxy's console in the browser: pages of the
// statements (pg_stat_statements, each statement's plan drawn as a tree),
// this proxy's sessions, the index advisor's recommendations with their
// before/after estimates and DDL, tables and indexes with their statistics,
// and a picture of a Z-order query (the query box over the data's extent,
// the Z-address ranges it decomposed into, the items read per range).
//
// The console is a client of the SQL surface, nothing more. Logging in
// opens a real PostgreSQL connection to the proxy's own SQL listener as
// the role and password given (pgx), so authentication (SCRAM, trust) and
// privileges are exactly those of any SQL client: a role sees only what
// its SQL would show it. Each page's data is a fixed query run on that
// connection (data.go), and the Z-order picture is computed from
// EXPLAIN (VERBOSE, FORMAT JSON) — the same plan data EXPLAIN gives every
// client — run in a READ ONLY transaction, so an EXPLAIN ANALYZE of a
// write cannot write (zpicture.go).
//
// The pages are plain HTML, CSS and JavaScript embedded in the binary
// (static/; no framework, nothing fetched from elsewhere). A login is a
// random token in an HttpOnly, SameSite=Strict cookie, Secure when the
// console is served over TLS; the connection it holds is closed at logout,
// after IdleTimeout without a request, or when the console closes. Writes
// to the console (login, logout, EXPLAIN) take JSON bodies only, which a
// cross-site form cannot send. When the console is configured with TLS
// (Config.RequireTLS), requests over plain HTTP are refused except from
// loopback addresses, as --tls-required refuses SQL clients.
//
// cmd/zproxy mounts the handler at /console/ on the metrics listener when
// --console is given.
package console
