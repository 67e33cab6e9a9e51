package pgerr

import (
	"context"
	"errors"
	"fmt"
)

// Code is a SQLSTATE. Its values are this package's variables, one per
// code of PostgreSQL 15's table (codes_gen.go, named after the ERRCODE_
// macros); a raw string cannot be passed where a Code is expected, and
// FromSQLState is the one conversion from text.
type Code struct{ s string }

// String is the five-character SQLSTATE.
func (c Code) String() string { return c.s }

// Class is the code's class, its first two characters ("23" for every
// integrity constraint violation).
func (c Code) Class() string {
	if len(c.s) < 2 {
		return c.s
	}
	return c.s[:2]
}

// FromSQLState is the Code of a SQLSTATE a lower layer reports as text
// (SQLStater): the one place a Code is made from a string.
func FromSQLState(s string) Code { return Code{s} }

// Error is an error with a SQLSTATE code and the optional fields of a
// PostgreSQL ErrorResponse or NoticeResponse.
type Error struct {
	Code     Code   // SQLSTATE
	Severity string // ERROR (default), FATAL, WARNING, NOTICE
	Message  string
	Detail   string
	Hint     string
	// Position is the 1-based character offset into the statement text the
	// error points at, or 0 when unknown.
	Position int
	// Where is the CONTEXT line ("COPY t, line 3, column a: \"x\""), or
	// lines, innermost first, each ended by a newline but the last.
	Where string
	// InternalQuery is the text of a statement a routine ran, which the
	// error was raised in; InternalPosition the 1-based character offset
	// into it the error points at (with Position 0: PostgreSQL's 'q' and
	// 'p' fields, which psql prints as QUERY and a caret under it).
	InternalQuery    string
	InternalPosition int
	// cause is an underlying error kept for errors.Is/As; it does not change
	// the message the client sees.
	cause error
	// values renders a DETAIL that shows a row's values (see WithValues).
	values func(ColumnVisibility, any) string
	// raised marks an XX000 that PostgreSQL or an extension raises for
	// the user's input (Raised), which is no failure of zproxy's.
	raised bool
}

// Error returns the message text.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// New returns an ERROR with the given code and formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Severity: "ERROR", Message: fmt.Sprintf(format, args...)}
}

// Raised returns an XX000 ERROR that PostgreSQL or one of its extensions
// raises for the user's input as zproxy does (PostGIS's "Operation on
// mixed SRID geometries", an elog(ERROR) a user can reach): the client
// sees internal_error, as it would from PostgreSQL, but the server does
// not log it as one of its own failures (Internal).
func Raised(format string, args ...any) *Error {
	return New(InternalError, format, args...).RaisedByUser()
}

// RaisedByUser marks e as raised by the statement's own code (PL/pgSQL's
// RAISE, whatever SQLSTATE it names), as Raised does, and returns it.
func (e *Error) RaisedByUser() *Error {
	e.raised = true
	return e
}

// Internal reports whether e is an internal error of zproxy's own: XX000,
// not Raised.
func (e *Error) Internal() bool { return e.Code == InternalError && !e.raised }

// Wrap returns an ERROR with the given code whose message is msg and whose
// cause is err. Use it where a lower-level error (an I/O failure, say) must be
// reported to the client under a SQLSTATE.
func Wrap(err error, code Code, msg string) *Error {
	return &Error{Code: code, Severity: "ERROR", Message: msg + ": " + err.Error(), cause: err}
}

// WithDetail sets the DETAIL field and returns e.
func (e *Error) WithDetail(format string, args ...any) *Error {
	e.Detail = fmt.Sprintf(format, args...)
	return e
}

// WithHint sets the HINT field and returns e.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// WithWhere sets the CONTEXT field and returns e.
func (e *Error) WithWhere(format string, args ...any) *Error {
	e.Where = fmt.Sprintf(format, args...)
	return e
}

// AddContext adds a line to the CONTEXT field, after the lines it holds
// (which came from deeper in the call stack).
func (e *Error) AddContext(line string) {
	if e.Where == "" {
		e.Where = line
		return
	}
	e.Where += "\n" + line
}

// WithPosition sets the 1-based statement position and returns e.
func (e *Error) WithPosition(pos int) *Error {
	e.Position = pos
	return e
}

// As returns the first *Error in err's chain, or nil.
func As(err error) *Error {
	if err == nil {
		return nil // without errors.As, whose target escapes: an allocation per call
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}

// SQLStater is implemented by errors of the layers below the SQL engine
// (kv) that know the SQLSTATE a client should see but are not *Error values,
// so that this package needs to import none of them.
type SQLStater interface {
	SQLState() string
}

// Messages of canceled statements, as PostgreSQL words them.
const (
	msgCanceledByUser = "canceling statement due to user request"
	msgCanceledByTime = "canceling statement due to statement timeout"
)

// Classify turns any error into the *Error a client sees: the first *Error
// of its chain; an error that reports its own SQLSTATE (SQLStater); 57014
// for a canceled or timed-out context, without Go's wording; XX000 for
// anything else. It returns nil for nil. This is the one place errors are
// classified; callers that know more about where an error came from use
// ClassifyAs.
func Classify(err error) *Error {
	return ClassifyAs(err, InternalError, "internal error")
}

// ClassifyAs is Classify with the code and message prefix given to errors no
// rule classifies (a store's I/O failure is 58030 "store error: ...").
func ClassifyAs(err error, code Code, prefix string) *Error {
	if err == nil {
		return nil
	}
	if pe := As(err); pe != nil {
		return pe
	}
	var st SQLStater
	if errors.As(err, &st) {
		msg := err.Error()
		if e, ok := st.(error); ok {
			msg = e.Error()
		}
		return &Error{Code: FromSQLState(st.SQLState()), Severity: "ERROR", Message: msg, cause: err}
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: QueryCanceled, Severity: "ERROR", Message: msgCanceledByTime, cause: err}
	case errors.Is(err, context.Canceled):
		return &Error{Code: QueryCanceled, Severity: "ERROR", Message: msgCanceledByUser, cause: err}
	}
	return Wrap(err, code, prefix)
}

// CodeOf returns the SQLSTATE Classify gives err, or 00000 for nil.
func CodeOf(err error) Code {
	if err == nil {
		return SuccessfulCompletion
	}
	return Classify(err).Code
}

// IsCancellation reports whether err ended a statement because its context
// was canceled (by the client, a timeout or a lost connection), so that the
// context's cause, not err, says why.
func IsCancellation(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || CodeOf(err) == QueryCanceled
}

// Notice returns a NOTICE-severity message; it is sent to the client as a
// NoticeResponse and never fails the statement.
func Notice(format string, args ...any) *Error {
	return CodedNotice(SuccessfulCompletion, format, args...)
}

// CodedNotice is Notice with a SQLSTATE, as PostgreSQL gives the NOTICE of
// IF NOT EXISTS finding the object (42P07 for a relation).
func CodedNotice(code Code, format string, args ...any) *Error {
	e := New(code, format, args...)
	e.Severity = "NOTICE"
	return e
}

// CodeOfCondition returns the SQLSTATE of a PostgreSQL condition name
// (division_by_zero, unique_violation: PL/pgSQL's EXCEPTION WHEN names),
// in lower case.
func CodeOfCondition(name string) (Code, bool) {
	c, ok := conditions[name]
	return c, ok
}

// ConditionOf returns the condition name of a SQLSTATE ("" when it has
// none).
func ConditionOf(c Code) string {
	for name, code := range conditions {
		if code == c {
			return name
		}
	}
	return ""
}
