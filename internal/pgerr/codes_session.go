package pgerr

// SQLSTATE codes of cursors, COPY and prepared statements (names as in
// PostgreSQL's errcodes.txt).
const (
	BadCopyFileFormat       = "22P04"
	InvalidCursorState      = "24000"
	InvalidTransactionState = "25000"
	InvalidCursorDefinition = "42P11"
)
