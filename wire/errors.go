package wire

import (
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// toPgError classifies err for the client (pgerr.Classify).
func toPgError(err error) *pgerr.Error { return pgerr.Classify(err) }

// errorResponse builds the ErrorResponse for pe. severity overrides pe's
// (FATAL for errors that end the connection) when not empty.
func errorResponse(pe *pgerr.Error, severity string) *pgproto3.ErrorResponse {
	if severity == "" {
		severity = pe.Severity
	}
	if severity == "" {
		severity = "ERROR"
	}
	r := fields(pe, severity, pgerr.InternalError)
	return &r
}

// noticeResponse builds the NoticeResponse for a NOTICE or WARNING.
func noticeResponse(pe *pgerr.Error) *pgproto3.NoticeResponse {
	severity := pe.Severity
	if severity == "" || severity == "ERROR" || severity == "FATAL" {
		severity = "NOTICE"
	}
	r := pgproto3.NoticeResponse(fields(pe, severity, pgerr.SuccessfulCompletion))
	return &r
}

// fields lays pe out as the fields both messages share.
func fields(pe *pgerr.Error, severity string, defaultCode pgerr.Code) pgproto3.ErrorResponse {
	code := pe.Code
	if code == (pgerr.Code{}) {
		code = defaultCode
	}
	return pgproto3.ErrorResponse{
		Severity:            severity,
		SeverityUnlocalized: severity,
		Code:                code.String(),
		Message:             pe.Message,
		Detail:              pe.Detail,
		Hint:                pe.Hint,
		Position:            int32(pe.Position),
		InternalPosition:    int32(pe.InternalPosition),
		InternalQuery:       pe.InternalQuery,
		Where:               pe.Where,
	}
}
