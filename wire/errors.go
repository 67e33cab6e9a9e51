package wire

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// SQLSTATEs PostgreSQL uses that internal/pgerr does not name.
const (
	duplicatePreparedStatement = "42P05"
	duplicateCursor            = "42P03"
)

// toPgError classifies err for the client: the first *pgerr.Error of its
// chain, 57014 for a canceled statement, XX000 for anything else.
func toPgError(err error) *pgerr.Error {
	if pe := pgerr.As(err); pe != nil {
		return pe
	}
	if errors.Is(err, context.Canceled) {
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return pgerr.New(pgerr.QueryCanceled, "canceling statement due to statement timeout")
	}
	return pgerr.New(pgerr.InternalError, "internal error: %v", err)
}

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
func fields(pe *pgerr.Error, severity, defaultCode string) pgproto3.ErrorResponse {
	code := pe.Code
	if code == "" {
		code = defaultCode
	}
	return pgproto3.ErrorResponse{
		Severity:            severity,
		SeverityUnlocalized: severity,
		Code:                code,
		Message:             pe.Message,
		Detail:              pe.Detail,
		Hint:                pe.Hint,
		Position:            int32(pe.Position),
	}
}
