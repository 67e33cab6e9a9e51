package pgerr

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
)

// storeDown is a lower layer's error that knows its SQLSTATE.
type storeDown struct{}

func (storeDown) Error() string    { return "store unreachable" }
func (storeDown) SQLState() string { return ConnectionFailure.String() }

func TestClassify(t *testing.T) {
	dup := New(UniqueViolation, "duplicate key")
	for _, tc := range []struct {
		name     string
		err      error
		code     Code
		message  string
		sameAsIn bool // the *Error of the chain itself comes back
	}{
		{"an *Error", dup, UniqueViolation, "duplicate key", true},
		{"a wrapped *Error", fmt.Errorf("inserting: %w", dup), UniqueViolation, "duplicate key", true},
		{"a SQLStater", fmt.Errorf("query: %w", storeDown{}), ConnectionFailure, "store unreachable", false},
		{"canceled", fmt.Errorf("scan: %w", context.Canceled), QueryCanceled, "canceling statement due to user request", false},
		{"timed out", fmt.Errorf("scan: %w", context.DeadlineExceeded), QueryCanceled, "canceling statement due to statement timeout", false},
		{"anything else", io.ErrUnexpectedEOF, InternalError, "internal error: unexpected EOF", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pe := Classify(tc.err)
			if pe.Code != tc.code || pe.Message != tc.message {
				t.Errorf("Classify = %s %q, want %s %q", pe.Code, pe.Message, tc.code, tc.message)
			}
			if tc.sameAsIn && pe != dup {
				t.Error("Classify did not return the chain's *Error")
			}
			if !tc.sameAsIn && !errors.Is(pe, tc.err) && !errors.Is(tc.err, pe) {
				t.Error("the classified error lost its cause")
			}
			if got := CodeOf(tc.err); got != tc.code {
				t.Errorf("CodeOf = %s, want %s", got, tc.code)
			}
		})
	}
	if Classify(nil) != nil || CodeOf(nil) != SuccessfulCompletion {
		t.Error("nil is not classified as nil / 00000")
	}
	if pe := ClassifyAs(io.ErrClosedPipe, IOError, "store error"); pe.Code != IOError || pe.Message != "store error: io: read/write on closed pipe" {
		t.Errorf("ClassifyAs = %s %q", pe.Code, pe.Message)
	}
}

func TestIsCancellation(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{context.Canceled, true},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), true},
		{New(QueryCanceled, "canceling statement due to user request"), true},
		{New(UniqueViolation, "dup"), false},
		{io.EOF, false},
	} {
		if got := IsCancellation(tc.err); got != tc.want {
			t.Errorf("IsCancellation(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
