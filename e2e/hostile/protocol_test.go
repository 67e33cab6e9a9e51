package hostile

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// frame builds a message of type t around body as it is.
func frame(t byte, body []byte) []byte {
	b := []byte{t, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(len(body)+4))
	return append(b, body...)
}

// TestRawProtocol sends what no well-behaved client sends and checks that
// zproxy answers as PostgreSQL 15 does: an ERROR with the connection kept
// where PostgreSQL keeps it, FATAL where it ends it, and nothing stored.
func TestRawProtocol(t *testing.T) {
	s := start(t)
	admin := s.connect(t, "zproxy", "sslmode=disable")
	ctx := context.Background()
	if _, err := admin.Exec(ctx, "CREATE TABLE notes (id INT PRIMARY KEY, body TEXT)"); err != nil {
		t.Fatal(err)
	}
	stored := func() int {
		var n int
		if err := admin.QueryRow(ctx, "SELECT count(*) FROM notes").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	t.Run("truncated Bind is an ERROR, the connection goes on", func(t *testing.T) {
		c := dialRaw(t, s)
		c.startup("zproxy")
		c.untilReady()
		c.send(&pgproto3.Parse{Name: "ins", Query: "INSERT INTO notes VALUES ($1, $2)"})
		// A Bind for "ins" that stops in the middle of its parameters.
		body := append([]byte{0}, "ins\x00"...)
		body = append(body, 0, 0, 0, 2, 0, 0, 0, 1, '1')
		c.write(frame('B', body))
		c.send(&pgproto3.Sync{})
		errs, open := c.untilReady()
		if !open || len(errs) != 1 || errs[0].Code != "08P01" || errs[0].Severity != "ERROR" {
			t.Fatalf("errors %v, open %v; want one ERROR 08P01 and the connection kept", describe(errs), open)
		}
		c.send(&pgproto3.Query{String: "SELECT 1"})
		if errs, open := c.untilReady(); !open || len(errs) != 0 {
			t.Fatalf("after the truncated Bind: %v", describe(errs))
		}
	})

	t.Run("unknown message type is FATAL", func(t *testing.T) {
		c := dialRaw(t, s)
		c.startup("zproxy")
		c.untilReady()
		c.write(frame('z', nil))
		errs, open := c.untilReady()
		if open || len(errs) != 1 || errs[0].Code != "08P01" || errs[0].Severity != "FATAL" {
			t.Fatalf("got %v, open %v", describe(errs), open)
		}
	})

	t.Run("unsupported protocol version is 0A000", func(t *testing.T) {
		c := dialRaw(t, s)
		c.write([]byte{0, 0, 0, 8, 0, 4, 0, 0})
		errs, open := c.untilReady()
		if open || len(errs) != 1 || errs[0].Code != "0A000" || errs[0].Message != "unsupported frontend protocol 4.0: server supports 3.0 to 3.0" {
			t.Fatalf("got %v", describe(errs))
		}
	})

	t.Run("invalid UTF-8 in a simple query is 22021 and not stored", func(t *testing.T) {
		c := dialRaw(t, s)
		c.startup("zproxy")
		c.untilReady()
		c.send(&pgproto3.Query{String: "INSERT INTO notes VALUES (1, 'caf\xc3\x28')"})
		errs, open := c.untilReady()
		if !open || len(errs) != 1 || errs[0].Code != "22021" || errs[0].Message != `invalid byte sequence for encoding "UTF8": 0xc3 0x28` {
			t.Fatalf("got %v", describe(errs))
		}
		if n := stored(); n != 0 {
			t.Fatalf("%d rows stored", n)
		}
	})

	t.Run("NUL in a text parameter is 22021 and not stored", func(t *testing.T) {
		c := dialRaw(t, s)
		c.startup("zproxy")
		c.untilReady()
		for _, format := range []int16{0, 1} {
			c.send(&pgproto3.Parse{Query: "INSERT INTO notes VALUES (2, $1)", ParameterOIDs: []uint32{25}},
				&pgproto3.Bind{Parameters: [][]byte{[]byte("a\x00b")}, ParameterFormatCodes: []int16{format}},
				&pgproto3.Execute{}, &pgproto3.Sync{})
			errs, open := c.untilReady()
			if !open || len(errs) != 1 || errs[0].Code != "22021" || errs[0].Message != `invalid byte sequence for encoding "UTF8": 0x00` {
				t.Fatalf("format %d: got %v", format, describe(errs))
			}
		}
		if n := stored(); n != 0 {
			t.Fatalf("%d rows stored", n)
		}
	})

	t.Run("an error reaches the client at Flush", func(t *testing.T) {
		c := dialRaw(t, s)
		c.startup("zproxy")
		c.untilReady()
		c.send(&pgproto3.Parse{Query: "SELEC 1"}, &pgproto3.Bind{}, &pgproto3.Flush{})
		_ = c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		msg := c.next()
		if e, ok := msg.(*pgproto3.ErrorResponse); !ok || e.Code != "42601" {
			t.Fatalf("after Flush: %#v, want the syntax error before any Sync", msg)
		}
	})
}

func describe(errs []*pgproto3.ErrorResponse) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Severity+" "+e.Code+" "+e.Message)
	}
	return out
}
