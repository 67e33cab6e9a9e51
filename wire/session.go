package wire

import (
	"context"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// Engine creates the SQL session behind each client connection. The
// protocol code in this package talks to SQL only through Engine, Session,
// Statement and Result, so it can be tested with a fake and so the SQL layers
// never see protocol messages.
type Engine interface {
	NewSession(ctx context.Context, p SessionParams) (Session, error)
}

// SessionParams describes the connecting client.
type SessionParams struct {
	User     string
	Database string
	// Startup holds the parameters of the StartupMessage (application_name,
	// client_encoding, DateStyle, ...).
	Startup map[string]string
	// Notice delivers a NOTICE or WARNING to the client as a
	// NoticeResponse, immediately (between data rows if need be).
	Notice func(*pgerr.Error)
	// ParameterStatus reports a changed run-time parameter (after SET) so
	// the client gets a ParameterStatus message.
	ParameterStatus func(name, value string)
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
	// Close ends the session.
	Close()
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
