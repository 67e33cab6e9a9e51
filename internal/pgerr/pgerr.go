package pgerr

import (
	"context"
	"errors"
	"fmt"
)

// SQLSTATE codes used by zproxy. The names follow PostgreSQL's errcodes.txt.
const (
	SuccessfulCompletion                = "00000"
	Warning                             = "01000"
	ConnectionException                 = "08000"
	ConnectionFailure                   = "08006"
	ProtocolViolation                   = "08P01"
	FeatureNotSupported                 = "0A000"
	CardinalityViolation                = "21000"
	DataException                       = "22000"
	StringDataRightTruncation           = "22001"
	NumericValueOutOfRange              = "22003"
	NullValueNotAllowed                 = "22004"
	InvalidDatetimeFormat               = "22007"
	DatetimeFieldOverflow               = "22008"
	DivisionByZero                      = "22012"
	SubstringError                      = "22011"
	InvalidArgumentForPowerFunction     = "2201F"
	InvalidPrecedingOrFollowingSize     = "22013"
	InvalidArgumentForNtile             = "22014"
	InvalidArgumentForNthValue          = "22016"
	InvalidParameterValue               = "22023"
	InvalidRowCountInLimitClause        = "2201W"
	InvalidRowCountInResultOffsetClause = "2201X"
	InvalidEscapeSequence               = "22025"
	CharacterNotInRepertoire            = "22021"
	InvalidTextRepresentation           = "22P02"
	InvalidBinaryRepresentation         = "22P03"
	NotNullViolation                    = "23502"
	UniqueViolation                     = "23505"
	ForeignKeyViolation                 = "23503"
	CheckViolation                      = "23514"
	ActiveSQLTransaction                = "25001"
	ReadOnlySQLTransaction              = "25006"
	NoActiveSQLTransaction              = "25P01"
	InFailedSQLTransaction              = "25P02"
	InvalidSQLStatementName             = "26000"
	InvalidCursorName                   = "34000"
	InvalidAuthorization                = "28000"
	InvalidPassword                     = "28P01"
	IdleInTransactionSessionTimeout     = "25P03"
	DependentObjectsStillExist          = "2BP01"
	InvalidSchemaName                   = "3F000"
	InvalidGrantOperation               = "0LP01"
	SerializationFailure                = "40001"
	SyntaxError                         = "42601"
	InsufficientPrivilege               = "42501"
	CannotCoerce                        = "42846"
	GroupingError                       = "42803"
	WrongObjectType                     = "42809"
	UndefinedColumn                     = "42703"
	UndefinedFunction                   = "42883"
	AmbiguousFunction                   = "42725"
	ReservedName                        = "42939"
	UndefinedTable                      = "42P01"
	UndefinedParameter                  = "42P02"
	UndefinedObject                     = "42704"
	DuplicateColumn                     = "42701"
	DuplicateCursor                     = "42P03"
	DuplicatePreparedStatement          = "42P05"
	DuplicateTable                      = "42P07"
	DuplicateObject                     = "42710"
	AmbiguousColumn                     = "42702"
	DatatypeMismatch                    = "42804"
	InvalidColumnReference              = "42P10"
	InvalidForeignKey                   = "42830"
	InvalidName                         = "42602"
	DuplicateAlias                      = "42712"
	AmbiguousAlias                      = "42P09"
	InvalidRecursion                    = "42P19"
	WindowingError                      = "42P20"
	InvalidTableDefinition              = "42P16"
	InvalidObjectDefinition             = "42P17"
	ProgramLimitExceeded                = "54000"
	StatementTooComplex                 = "54001"
	ObjectNotInPrerequisiteState        = "55000"
	InsufficientResources               = "53000"
	OutOfMemory                         = "53200"
	TooManyConnections                  = "53300"
	ConfigurationLimitExceeded          = "53400"
	TooManyColumns                      = "54011"
	TooManyArguments                    = "54023"
	ObjectInUse                         = "55006"
	CantChangeRuntimeParam              = "55P02"
	QueryCanceled                       = "57014"
	AdminShutdown                       = "57P01"
	CannotConnectNow                    = "57P03"
	SystemError                         = "58000"
	IOError                             = "58030"
	InternalError                       = "XX000"
)

// Error is an error with a SQLSTATE code and the optional fields of a
// PostgreSQL ErrorResponse or NoticeResponse.
type Error struct {
	Code     string // SQLSTATE, five characters
	Severity string // ERROR (default), FATAL, WARNING, NOTICE
	Message  string
	Detail   string
	Hint     string
	// Position is the 1-based character offset into the statement text the
	// error points at, or 0 when unknown.
	Position int
	// Where is the CONTEXT line ("COPY t, line 3, column a: \"x\"").
	Where string
	// cause is an underlying error kept for errors.Is/As; it does not change
	// the message the client sees.
	cause error
	// values renders a DETAIL that shows a row's values (see WithValues).
	values func(ColumnVisibility) string
}

// Error returns the message text.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// New returns an ERROR with the given code and formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Severity: "ERROR", Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an ERROR with the given code whose message is msg and whose
// cause is err. Use it where a lower-level error (an I/O failure, say) must be
// reported to the client under a SQLSTATE.
func Wrap(err error, code, msg string) *Error {
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

// WithPosition sets the 1-based statement position and returns e.
func (e *Error) WithPosition(pos int) *Error {
	e.Position = pos
	return e
}

// As returns the first *Error in err's chain, or nil.
func As(err error) *Error {
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
func ClassifyAs(err error, code, prefix string) *Error {
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
		return &Error{Code: st.SQLState(), Severity: "ERROR", Message: msg, cause: err}
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
func CodeOf(err error) string {
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
	e := New(SuccessfulCompletion, format, args...)
	e.Severity = "NOTICE"
	return e
}

// Transaction control and sequence codes.
const (
	SequenceGeneratorLimitExceeded = "2200H"
	InvalidNameSyntax              = "42602"
	GeneratedAlways                = "428C9"
	InvalidSavepointSpecification  = "3B001"
	InvalidTransactionTermination  = "2D000"
)
