package pgerr

import "fmt"

// SQLSTATE codes of cursors, COPY and prepared statements (names as in
// PostgreSQL's errcodes.txt).
const (
	BadCopyFileFormat       = "22P04"
	InvalidCursorState      = "24000"
	InvalidTransactionState = "25000"
	InvalidCursorDefinition = "42P11"
)

// WithWhere sets the CONTEXT field and returns e.
func (e *Error) WithWhere(format string, args ...any) *Error {
	e.Where = fmt.Sprintf(format, args...)
	return e
}

// Privilege codes.
const (
	PrivilegeNotGranted = "01007"
	PrivilegeNotRevoked = "01006"
)

// NewWarning returns a WARNING-severity message with SQLSTATE code
// (Warning for a plain one); it is sent to the client as a NoticeResponse
// and never fails the statement.
func NewWarning(code, format string, args ...any) *Error {
	e := New(code, format, args...)
	e.Severity = "WARNING"
	return e
}
