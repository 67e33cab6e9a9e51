package pgerr

// NewWarning returns a WARNING-severity message with SQLSTATE code
// (Warning for a plain one); it is sent to the client as a NoticeResponse
// and never fails the statement.
func NewWarning(code Code, format string, args ...any) *Error {
	e := New(code, format, args...)
	e.Severity = "WARNING"
	return e
}
