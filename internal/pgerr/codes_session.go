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
