package wire

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

// TestStatementWatchIsPerStatement checks the connection's one watch
// against what reuse could get wrong: a timer function that runs late,
// after its statement ended, must not cancel the next statement.
func TestStatementWatchIsPerStatement(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	c := &conn{raw: server}
	c.endStmt = c.endStatement
	c.ctx, c.cancelCtx = context.WithCancelCause(context.Background())
	defer c.cancelCtx(nil)

	cases := []struct {
		name     string
		deadline time.Duration // 0: none
		lateFire bool          // the previous statement's timeout runs now
		wantErr  error
	}{
		{name: "deadline passed", deadline: time.Millisecond, wantErr: errStatementTimeout},
		{name: "no deadline, late timeout of the previous one", lateFire: true},
		{name: "later deadline, late timeout of the previous one", deadline: time.Hour, lateFire: true},
		{name: "deadline passed again", deadline: time.Millisecond, wantErr: errStatementTimeout},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var deadline time.Time
			if tc.deadline > 0 {
				deadline = time.Now().Add(tc.deadline)
			}
			ctx, done := c.beginStatement(deadline)
			if tc.lateFire {
				c.watcher.timedOut()
			}
			if tc.wantErr != nil {
				select {
				case <-ctx.Done():
				case <-time.After(10 * time.Second):
					t.Fatal("the statement was not canceled at its deadline")
				}
			}
			cause := context.Cause(ctx)
			done()
			if tc.wantErr == nil {
				if cause != nil {
					t.Fatalf("canceled with %v, want not canceled", cause)
				}
				return
			}
			if !errors.Is(cause, tc.wantErr) {
				t.Fatalf("canceled with %v, want %v", cause, tc.wantErr)
			}
		})
	}
	if c.stmtCancel != nil {
		t.Fatal("no statement runs, but one can still be canceled")
	}
}
