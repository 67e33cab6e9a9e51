package wire

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestBindReadsTheStyleOnce: a Bind asks the session for its DateStyle
// and IntervalStyle once, however many parameters it decodes (a 500-row
// INSERT of 6 columns binds 3,000, and each question is a guarded call
// into the session).
func TestBindReadsTheStyleOnce(t *testing.T) {
	ts := startServer(t, Config{})
	c := connectRaw(t, ts.addr)
	styleCalls := func(params int) int64 {
		types := strings.TrimSpace(strings.Repeat("int8 ", params))
		raw := make([][]byte, params)
		for i := range raw {
			raw[i] = []byte("7")
		}
		before := ts.eng.styles.Load()
		c.send(&pgproto3.Parse{Query: "ECHO " + types}, &pgproto3.Bind{Parameters: raw}, &pgproto3.Sync{})
		c.until("ReadyForQuery")
		return ts.eng.styles.Load() - before
	}
	one, many := styleCalls(1), styleCalls(300)
	if many != one {
		t.Fatalf("a Bind of 300 parameters read the session's style %d times, one of 1 parameter %d", many, one)
	}
}
