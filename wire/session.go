package wire

import (
	"context"
	"net/netip"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Engine creates the SQL session behind each client connection. The
// protocol code in this package talks to SQL only through Engine, Session,
// Statement and Result, so it can be tested with a fake and so the SQL layers
// never see protocol messages.
type Engine interface {
	NewSession(ctx context.Context, p SessionParams) (Session, error)
	// LookupRole returns what authentication needs to know of a role;
	// Role.Exists is false for a name that is not a role.
	LookupRole(ctx context.Context, name string) (Role, error)
}

// Role is a role as authentication sees it.
type Role struct {
	Name      string
	Exists    bool
	Login     bool // LOGIN: the role may connect
	Superuser bool
	// Verifier is the role's SCRAM-SHA-256 verifier in PostgreSQL's form
	// (auth.Verifier.String), empty when it has no password.
	Verifier string
	// Groups are the roles it is a member of, directly or not (an HBA
	// rule's +group), superuser or not.
	Groups []string
}

// SessionParams describes the connecting client.
type SessionParams struct {
	User     string
	Database string
	// Authenticated is true for a client's session: its user is a role
	// that authentication found (and proved, under a password method). A
	// session's privileges are its role's; a session zproxy opens for
	// itself (not authenticated) is a superuser; an authenticated user
	// whose role is dropped while it is connected has no privileges left.
	Authenticated bool
	// Startup holds the run-time parameters the client set at startup:
	// those of the StartupMessage (application_name, client_encoding,
	// DateStyle, ...) over those of its options ("-c name=value" or
	// "--name=value", where '-' in a name reads as '_'). The session applies
	// them as SET would, and refuses the connection over an unknown name or
	// a bad value.
	Startup map[string]string
	// Notice delivers a NOTICE or WARNING to the client as a
	// NoticeResponse, immediately (between data rows if need be).
	Notice func(*pgerr.Error)
	// ParameterStatus reports a changed run-time parameter (after SET) so
	// the client gets a ParameterStatus message.
	ParameterStatus func(name, value string)
	// ClientAddr and ServerAddr are the connection's two ends when it is
	// TCP (inet_client_addr, inet_server_addr); zero over a Unix socket.
	ClientAddr, ServerAddr netip.AddrPort
	// PID is the process ID the client was given in BackendKeyData
	// (pg_backend_pid, NOTIFY's sender).
	PID uint32
	// Notify delivers a NOTIFY to this session's client as a
	// NotificationResponse: at once when the client is idle outside a
	// transaction block, otherwise before the next ReadyForQuery that
	// finds it outside one. It may be called from any goroutine. The
	// caller has made the notification in NotifyQueue, and the connection
	// calls its Done once it is sent or dropped.
	Notify func(*Notification)
	// NotifyQueue bounds the notifications waiting for listeners, the
	// whole server's (nil: no bound).
	NotifyQueue *NotifyQueue
	// ServerSettings are the server's own settings, which sessions show
	// but do not set (SHOW, pg_settings), by name, valued as pg_settings'
	// setting column: authentication_timeout (in seconds),
	// max_connections and superuser_reserved_connections.
	ServerSettings map[string]string
	// Backends signals the server's other sessions by process ID
	// (pg_cancel_backend, pg_terminate_backend); nil when the session runs
	// without a server.
	Backends Backends
	// Registry holds the connection's prepared statements and portals,
	// which SQL statements share with the extended protocol; nil when the
	// session runs without a connection (it then keeps its own).
	Registry *Registry
}

// Backends are the sessions of one server, which a session may signal by
// process ID as PostgreSQL's backends signal each other. Each method
// reports whether a session with that ID was there; who may signal whom is
// the caller's to decide.
type Backends interface {
	// CancelBackend cancels the session's running statement (57014, as a
	// CancelRequest does); an idle session is left as it is.
	CancelBackend(pid uint32) bool
	// TerminateBackend ends the session: its running statement is
	// canceled and its client gets FATAL 57P01 "terminating connection due
	// to administrator command", as PostgreSQL's SIGTERM gives it.
	TerminateBackend(pid uint32) bool
	// BackendAlive reports whether the session is still connected.
	BackendAlive(pid uint32) bool
}

// Session is one client's SQL session: its settings and transaction state.
// A Session is used by one goroutine at a time.
type Session interface {
	// Parse splits a query string into statements and parses them all (a
	// syntax error anywhere fails the whole string, as in PostgreSQL). An
	// empty string or one of only comments yields no statements.
	// paramTypes, for the extended protocol, are the types the client
	// declared for $1..$n (Unknown where it left them open).
	Parse(ctx context.Context, sql string, paramTypes []sqltypes.Type) ([]Statement, error)
	// TxStatus is the ReadyForQuery status: 'I' idle, 'T' in a transaction
	// block, 'E' in a failed transaction block.
	TxStatus() byte
	// Limits returns the session's current statement_timeout,
	// idle_in_transaction_session_timeout and idle_session_timeout, which
	// the connection enforces.
	Limits() Limits
	// TimeZone is the session's TimeZone: timestamptz values are shown in
	// it in text format, and text parameters without an offset read in it.
	TimeZone() *time.Location
	// Style is the session's output settings (DateStyle, IntervalStyle,
	// extra_float_digits, bytea_output; its Location is TimeZone): values
	// are shown in them in text format, and text parameters read in its
	// DateStyle field order.
	Style() sqltypes.Style
	// Setting returns a run-time parameter's value as SHOW prints it, for
	// the ParameterStatus messages of the startup (after the client's
	// startup parameters applied); false for a name the session lacks.
	Setting(name string) (string, bool)
	// Close ends the session.
	Close()
}

// Limits are the run-time limits of a session, zero meaning none.
type Limits struct {
	// StatementTimeout cancels a statement running longer (57014).
	StatementTimeout time.Duration
	// IdleInTransactionTimeout closes a connection left idle this long
	// inside a transaction block (FATAL 25P03).
	IdleInTransactionTimeout time.Duration
	// IdleSessionTimeout closes a connection left idle this long outside
	// a transaction block (FATAL 57P05).
	IdleSessionTimeout time.Duration
}

// Column describes one result column.
type Column struct {
	Name      string
	Type      sqltypes.Type
	TableOID  uint32
	ColumnNum int16
}

// Statement is one parsed statement. Binding to the catalog and planning
// happen lazily (at Describe or Execute), because an earlier statement of the
// same query string may change the catalog.
type Statement interface {
	// SQL returns the statement's text.
	SQL() string
	// Describe binds the statement and reports its parameter types and its
	// result columns (nil for a statement that returns no rows).
	Describe(ctx context.Context) (params []sqltypes.Type, cols []Column, err error)
	// Execute runs the statement with the given parameter values (already
	// decoded to the types Describe reported).
	Execute(ctx context.Context, params []sqltypes.Value) (Result, error)
}

// ImplicitTransactor is implemented by sessions that run the statements
// of one Query message (when it holds several), or the Executes of one
// extended-protocol pipeline, in one transaction, as PostgreSQL's implicit
// transaction block does: an error in any statement undoes them all. The
// connection calls BeginImplicit before the first of them (it reports
// whether it opened one: not inside a transaction block) and EndImplicit
// when the cycle ends (before ReadyForQuery), with commit false when an
// error was sent in it; an error from EndImplicit is the commit's.
type ImplicitTransactor interface {
	BeginImplicit() bool
	EndImplicit(ctx context.Context, commit bool) error
}

// StatementLogger is implemented by sessions that log the commands they
// run, as PostgreSQL's log_statement, log_duration and
// log_min_duration_statement do. The connection knows each command's
// protocol shape (which message, the prepared statement's and portal's
// names, the parameters); the session decides from its settings and the
// statements' classes what to log, and where. Neither method may keep cmd
// after it returns: the connection reuses it for its next command.
type StatementLogger interface {
	// CommandReceived is called when a command is about to run: a Query
	// message once its string has parsed, an Execute before its portal
	// runs. It sets cmd.Logged if it logged the command's statement.
	CommandReceived(cmd *LoggedCommand)
	// CommandDone is called when cmd has completed without an error (a
	// failed command logs no duration, as in PostgreSQL), elapsed after
	// its message arrived.
	CommandDone(cmd *LoggedCommand, elapsed time.Duration)
}

// LoggedCommand is one command as PostgreSQL's statement log names it.
type LoggedCommand struct {
	// Message is "statement" for a Query message, else "parse", "bind",
	// "execute", or "execute fetch from" for an Execute resuming a
	// suspended portal.
	Message string
	// Name is the prepared statement's name and Portal the portal's (""
	// for the unnamed ones).
	Name, Portal string
	// SQL is the Query message's whole string or the prepared
	// statement's text; Statements are its statements.
	SQL        string
	Statements []Statement
	// Params are a Bind's or an Execute's parameter values.
	Params []sqltypes.Value
	// Logged is set by CommandReceived when it logged the statement, so
	// the duration is logged alone.
	Logged bool
}

// PortalDescriber is implemented by statements whose result columns can
// change between Parse and Bind: a FETCH prepared before its cursor was
// declared describes as NoData, but PostgreSQL describes a portal by what
// it returns when it is bound (the cursor's columns by then). At Bind, a
// statement answering ok gives the portal's columns.
type PortalDescriber interface {
	Statement
	PortalColumns(ctx context.Context) (cols []Column, ok bool)
}

// Result is an executing statement's output. Rows are pulled one at a time
// so a portal can be suspended after N rows and resumed later.
type Result interface {
	// Columns returns the result columns (nil when the statement returns no
	// rows).
	Columns() []Column
	// Next returns the next row, or ok=false at the end. The slice is only
	// valid until the next call.
	Next(ctx context.Context) (row []sqltypes.Value, ok bool, err error)
	// Tag returns the command tag ("SELECT 3", "INSERT 0 2", "CREATE TABLE").
	// Valid once Next has returned ok=false.
	Tag() string
	// Close releases the result; it may be called before the end.
	Close() error
}
