// Package wire serves the PostgreSQL frontend/backend protocol v3 on top of
// pgproto3, so psql, pgx, JDBC and the other Postgres clients can talk to
// zproxy.
//
// It owns everything a client sees of a connection except SQL: the startup
// (SSLRequest answered 'S' and TLS with crypto/tls when the server has a
// certificate, GSSENCRequest declined, protocol 3.0, the startup parameters
// and their "-c name=value" options), authentication (trust, or
// SCRAM-SHA-256 with channel binding over TLS, internal/auth),
// ParameterStatus, BackendKeyData, CancelRequest, the simple query
// protocol, the extended protocol (prepared statements, portals, suspension
// after N rows; an error is answered at the next Flush, the rest skipped
// until Sync), the Registry of prepared statements and portals that SQL's
// PREPARE, EXECUTE, DEALLOCATE and cursors share with the protocol, COPY's
// copy-in and copy-out modes with PostgreSQL's text, CSV and binary data
// formats (copy.go, copyformat.go), NotificationResponse (notify.go), the
// value formats (text through sqltypes, timestamptz in the session's
// TimeZone; binary by type OID in both directions) and turning errors into
// ErrorResponse with their SQLSTATE (classified by pgerr.Classify) — the
// only place in zproxy where that happens — and client_encoding: text is
// converted between the client's encoding and the server's UTF8 as it
// crosses the protocol (encoding.go, on internal/pgenc), so nothing
// behind this package sees any other encoding.
//
// It also keeps what a client sends from crashing, starving or fooling the
// server: messages are framed here rather than by pgproto3, with
// PostgreSQL's small limits until the client has authenticated and
// Config.MaxMessageSize after; connections in their startup are bounded
// by MaxStartups and closed after AuthTimeout, apart from the sessions,
// which MaxConnections bounds once authenticated (its last
// SuperuserReservedConnections slots for superusers); the notifications
// waiting for listeners are bounded by the NotifyQueue (54000 when full);
// text must be valid in the client's encoding (UTF-8 for UTF8 and
// SQL_ASCII) without NUL bytes (22021); and each statement runs
// under a context that a CancelRequest, statement_timeout or the client
// hanging up (checked every 100 ms without consuming pipelined bytes)
// cancels with the reason as its cause. A session idle in a transaction
// block past idle_in_transaction_session_timeout is closed (25P03).
//
// Data flows one way: a Server accepts a connection and runs it on one
// goroutine (conn); conn asks the Engine for a Session, hands it query text
// (Session.Parse), and runs the resulting Statements (Describe, Execute),
// pulling Result rows one at a time and encoding them into DataRow
// messages. The SQL layers behind Engine never see protocol messages, and
// this package never interprets SQL. Shutdown lets statements in flight
// finish and closes idle connections with FATAL 57P01.
package wire
