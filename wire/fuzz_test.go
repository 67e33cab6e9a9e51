package wire

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgerr"
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

// FuzzFrontendDecoder runs the message reader and decoder over arbitrary
// bytes: whatever they hold, it must end in an error (or the end of the
// input) without panicking, and never accept a body over its limit.
func FuzzFrontendDecoder(f *testing.F) {
	for _, s := range [][]byte{
		encodeMessages(f, &pgproto3.Query{String: "SELECT 1"}, &pgproto3.Sync{}),
		encodeMessages(f, &pgproto3.Parse{Name: "s", Query: "SELECT $1", ParameterOIDs: []uint32{23}},
			&pgproto3.Bind{PreparedStatement: "s", Parameters: [][]byte{nil, {1}}, ParameterFormatCodes: []int16{1}, ResultFormatCodes: []int16{0, 1}},
			&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{MaxRows: 3}, &pgproto3.Close{ObjectType: 'S', Name: "s"}, &pgproto3.Flush{}),
		encodeMessages(f, &pgproto3.FunctionCall{Function: 7, Arguments: [][]byte{{1}}, ArgFormatCodes: []uint16{1}}, &pgproto3.CopyData{Data: []byte("x")},
			&pgproto3.CopyDone{}, &pgproto3.CopyFail{Message: "m"}, &pgproto3.Terminate{}),
		{'B', 0, 0, 0, 9, 0, 0, 0, 1, 0},
		{'B', 0, 0, 0, 14, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe},
		{'Q', 0, 0, 0, 6, 'a', 'b'},
		{'z', 0, 0, 0, 4},
		{'Q', 0, 0, 0, 2},
		{'Q', 0x7f, 0xff, 0xff, 0xff},
		{'S', 0, 0, 0, 5, 1},
		{'D', 0, 0, 0, 5, 'Z'},
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 1 << 12
		fr := newFrontendReader(bytes.NewReader(data), limit)
		for range 1000 {
			typ, body, err := fr.next()
			if err != nil {
				return
			}
			if len(body) > limit {
				t.Fatalf("a body of %d bytes over the limit of %d", len(body), limit)
			}
			if _, err := decodeFrontend(typ, body); err != nil {
				var malformed *malformedError
				var framing *framingError
				if !errors.As(err, &malformed) && !errors.As(err, &framing) {
					t.Fatalf("decode error of an unknown kind: %v", err)
				}
			}
		}
	})
}

// FuzzStartupPacket decodes arbitrary startup packet bodies and their
// options: errors are SQLSTATE errors, never panics, and names from options
// never keep a '-'.
func FuzzStartupPacket(f *testing.F) {
	for _, s := range []string{
		"user\x00u\x00\x00",
		"user\x00u\x00options\x00-c statement_timeout=5s --search-path=a\\ b\x00\x00",
		"user\x00u\x00options\x00-c\x00\x00",
		"user\x00u\x00options\x00-X \\\x00\x00",
		"user\x00u\x00replication\x00database\x00client_encoding\x00'utf-8'\x00\x00",
		"\x00", "", "user\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		params, err := parseStartupParameters(body)
		if err != nil {
			return
		}
		settings, err := startupSettings(params)
		if err != nil {
			if pgerr.As(err) == nil {
				t.Fatalf("startup settings failed without a SQLSTATE: %v", err)
			}
			return
		}
		for name := range settings {
			if _, top := params[name]; !top && strings.Contains(name, "-") {
				t.Fatalf("option name %q keeps a '-'", name)
			}
		}
	})
}

// FuzzCheckText compares the UTF-8 check with the standard library's and
// the reported bytes with the input.
func FuzzCheckText(f *testing.F) {
	for _, s := range []string{"", "abc", "é", "a\x00b", "\xc3\x28", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := checkText(s)
		valid := utf8.ValidString(s) && !strings.Contains(s, "\x00")
		if (err == nil) != valid {
			t.Fatalf("checkText(%q) = %v; valid UTF-8 without NUL: %v", s, err, valid)
		}
		if err != nil && !strings.HasPrefix(err.Error(), `invalid byte sequence for encoding "UTF8": 0x`) {
			t.Fatalf("message %q", err)
		}
	})
}
