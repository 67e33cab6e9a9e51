// Package wire serves the PostgreSQL frontend/backend protocol v3 on top of
// pgproto3, so psql, pgx, JDBC and the other Postgres clients can talk to
// zproxy.
//
// It owns everything a client sees of a connection except SQL: the startup
// (SSLRequest and GSSENCRequest answered with 'N', protocol 3.0, cleartext
// password or trust authentication, ParameterStatus, BackendKeyData),
// CancelRequest, the simple query protocol, the extended protocol (prepared
// statements, portals, suspension after N rows), the value formats (text
// through sqltypes, binary by type OID in both directions) and turning
// errors into ErrorResponse with their SQLSTATE — the only place in zproxy
// where that happens.
//
// Data flows one way: a Server accepts a connection and runs it on one
// goroutine (conn); conn asks the Engine for a Session, hands it query text
// (Session.Parse), and runs the resulting Statements (Describe, Execute),
// pulling Result rows one at a time and encoding them into DataRow
// messages. The SQL layers behind Engine never see protocol messages, and
// this package never interprets SQL. Shutdown lets statements in flight
// finish and closes idle connections with FATAL 57P01.
package wire
