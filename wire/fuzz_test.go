package wire

import (
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

func encodeMessages(tb testing.TB, msgs ...pgproto3.FrontendMessage) []byte {
	var out []byte
	for _, m := range msgs {
		var err error
		if out, err = m.Encode(out); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}

// FuzzServerMessages feeds arbitrary bytes to a connection after a valid
// startup. The server must neither panic (a panic outside a statement would
// be logged as "panic in connection") nor hang: once the client stops
// sending, the connection must end within a deadline, and the server must
// keep serving other clients.
func FuzzServerMessages(f *testing.F) {
	seeds := [][]byte{
		encodeMessages(f, &pgproto3.Query{String: "SERIES 3"}),
		encodeMessages(f, &pgproto3.Query{String: "INSERT; FAIL 42601 2; SLEEP"}),
		encodeMessages(f, &pgproto3.Parse{Query: "ECHO int4 text"},
			&pgproto3.Bind{Parameters: [][]byte{{0, 0, 0, 1}, []byte("x")}, ParameterFormatCodes: []int16{1, 0}, ResultFormatCodes: []int16{1}},
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{MaxRows: 1}, &pgproto3.Sync{}),
		encodeMessages(f, &pgproto3.Parse{Name: "a", Query: "SERIES 4"}, &pgproto3.Bind{PreparedStatement: "a", DestinationPortal: "p"},
			&pgproto3.Execute{Portal: "p", MaxRows: 2}, &pgproto3.Close{ObjectType: 'S', Name: "a"}, &pgproto3.Flush{}, &pgproto3.Sync{}),
		encodeMessages(f, &pgproto3.Query{String: "PANICROWS"}, &pgproto3.Terminate{}),
		encodeMessages(f, &pgproto3.FunctionCall{Function: 1}, &pgproto3.CopyData{Data: []byte("x")}, &pgproto3.Query{String: ""}),
		{'Q', 0, 0, 0, 4},
		{'B', 0, 0, 0, 9, 0, 0, 0, 1, 0, 7},
		{'P', 0xff, 0xff, 0xff, 0xff},
		{'S', 0, 0, 0, 4, 'X', 0, 0, 0, 4},
		{'p', 0, 0, 0, 8, 'a', 'b', 'c', 0},
	}
	for _, s := range seeds {
		f.Add(s)
	}
	ts := startServer(f, Config{MaxMessageSize: 1 << 16})
	ts.eng.maxSleep = 5 * time.Millisecond
	f.Fuzz(func(t *testing.T, data []byte) {
		c := connectRaw(t, ts.addr)
		if _, err := c.nc.Write(data); err != nil {
			return // the server may already have hung up on a FATAL
		}
		_ = c.nc.(*net.TCPConn).CloseWrite()
		_ = c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		// A reset is fine (the server hung up on unread input); only a
		// timeout means it hangs.
		if _, err := io.Copy(io.Discard, c.nc); errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("connection did not end after the client stopped sending: %v", err)
		}
		if n := ts.logs.count("panic in connection"); n != 0 {
			t.Fatalf("%d connection panics", n)
		}
		d := connectRaw(t, ts.addr)
		d.send(&pgproto3.Query{String: "SERIES 1"})
		if got := d.until("ReadyForQuery"); len(got) != 4 {
			t.Fatalf("server unhealthy after the input: %q", got)
		}
	})
}
