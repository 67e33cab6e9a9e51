package wire

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgerr"
)

// Limits on what a client may send before it has authenticated, so that an
// unauthenticated socket costs a few kilobytes however large the messages it
// announces (PostgreSQL caps both the same way).
const (
	// maxStartupPacket is MAX_STARTUP_PACKET_LENGTH.
	maxStartupPacket = 10000
	// maxAuthMessage is PG_MAX_AUTH_TOKEN_LENGTH, the largest password or
	// SASL message.
	maxAuthMessage = 65535
)

// Buffer sizes: what a connection keeps between messages. A larger message
// gets a buffer of its own, dropped once the next message is read, so an
// idle connection never holds on to the memory of its largest message.
const (
	readBufferSize = 4096
	keepBodyBuffer = 64 << 10
)

// frontendReader splits the client's byte stream into messages: a type
// byte, a length and the body. It replaces pgproto3.Backend's reader so that
// zproxy decides how much memory a message may take before reading it, and
// so that a message whose framing is intact but whose content is malformed
// is an ERROR for that message rather than a broken connection.
type frontendReader struct {
	r    *bufio.Reader
	body []byte // the last message's body; valid until the next read
	max  int    // largest body accepted
	hdr  [5]byte
	// msgs are what receive decodes the messages every execution of the
	// extended protocol sends into, again each time, rather than new
	// ones: a message is valid until the next receive, as its body is.
	msgs reusedMessages
}

// reusedMessages are a reader's Bind, Describe and Execute (receive).
type reusedMessages struct {
	bind     pgproto3.Bind
	describe pgproto3.Describe
	execute  pgproto3.Execute
}

func newFrontendReader(r io.Reader, limit int) *frontendReader {
	return &frontendReader{r: bufio.NewReaderSize(r, readBufferSize), max: limit}
}

// messageTooLargeError is a message announced larger than the limit. The
// connection cannot continue: its body was not read.
type messageTooLargeError struct {
	size, limit int
}

func (e *messageTooLargeError) Error() string {
	return fmt.Sprintf("message of %d bytes exceeds the limit of %d bytes", e.size, e.limit)
}

// framingError is a message whose length or type makes the rest of the
// stream unreadable; the connection ends with FATAL.
type framingError struct{ err *pgerr.Error }

func (e *framingError) Error() string { return e.err.Message }

// malformedError is a message read whole whose content does not decode.
// The stream is still in step, so, as in PostgreSQL, it is an ERROR for the
// message and the connection goes on.
type malformedError struct {
	msgType byte
	err     *pgerr.Error
}

func (e *malformedError) Error() string { return e.err.Message }

// next reads the next message's type and body. The body is valid until the
// following call.
func (fr *frontendReader) next() (byte, []byte, error) {
	if cap(fr.body) > keepBodyBuffer {
		fr.body = nil
	}
	hdr := fr.hdr[:] // the reader's: a local array escapes to the heap
	if _, err := io.ReadFull(fr.r, hdr); err != nil {
		return 0, nil, err
	}
	n := int(int32(binary.BigEndian.Uint32(hdr[1:]))) - 4
	if n < 0 {
		return 0, nil, &framingError{pgerr.New(pgerr.ProtocolViolation, "invalid message length")}
	}
	if n > fr.max {
		return 0, nil, &messageTooLargeError{size: n, limit: fr.max}
	}
	if cap(fr.body) < n {
		fr.body = make([]byte, n, max(n, readBufferSize))
	}
	body := fr.body[:n]
	if _, err := io.ReadFull(fr.r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	return hdr[0], body, nil
}

// receive reads and decodes the next message of the query phase.
func (fr *frontendReader) receive() (pgproto3.FrontendMessage, error) {
	t, body, err := fr.next()
	if err != nil {
		return nil, err
	}
	return decodeFrontendIn(t, body, &fr.msgs)
}

// decodeFrontend decodes one message of the query phase from its type byte
// and body. An unknown type is a framingError (PostgreSQL ends the
// connection: it cannot know what the client meant); a body that does not
// decode is a malformedError.
func decodeFrontend(t byte, body []byte) (pgproto3.FrontendMessage, error) {
	return decodeFrontendIn(t, body, nil)
}

// decodeFrontendIn is decodeFrontend decoding a Bind, Describe or Execute
// into reuse's, when reuse is set.
func decodeFrontendIn(t byte, body []byte, reuse *reusedMessages) (pgproto3.FrontendMessage, error) {
	if reuse == nil {
		reuse = &reusedMessages{}
	}
	var msg pgproto3.FrontendMessage
	switch t {
	case 'Q':
		msg = &pgproto3.Query{}
	case 'P':
		msg = &pgproto3.Parse{}
	case 'B':
		msg = &reuse.bind // Decode starts from the zero Bind
	case 'D':
		reuse.describe = pgproto3.Describe{}
		msg = &reuse.describe
	case 'E':
		// Decoded here: pgproto3's Decode makes a bytes.Buffer and a
		// copy of the portal's name with its terminator.
		reuse.execute = pgproto3.Execute{}
		msg = &reuse.execute
	case 'C':
		msg = &pgproto3.Close{}
	case 'S':
		msg = &pgproto3.Sync{}
	case 'H':
		msg = &pgproto3.Flush{}
	case 'X':
		msg = &pgproto3.Terminate{}
	case 'F':
		msg = &pgproto3.FunctionCall{}
	case 'd':
		msg = &pgproto3.CopyData{}
	case 'c':
		msg = &pgproto3.CopyDone{}
	case 'f':
		msg = &pgproto3.CopyFail{}
	default:
		return nil, &framingError{pgerr.New(pgerr.ProtocolViolation, "invalid frontend message type %d", t)}
	}
	var ok bool
	if e, isExecute := msg.(*pgproto3.Execute); isExecute {
		ok = decodeExecute(e, body)
	} else {
		ok = decodes(msg, body)
	}
	if !ok {
		return nil, &malformedError{msgType: t, err: pgerr.New(pgerr.ProtocolViolation, "%s", malformedMessage(t))}
	}
	return msg, nil
}

// decodeExecute decodes an Execute's body into m as pgproto3's Decode
// does: the portal's name up to its terminator, then the row limit (any
// bytes after it are ignored). ok false when the body is malformed.
func decodeExecute(m *pgproto3.Execute, body []byte) (ok bool) {
	i := bytes.IndexByte(body, 0)
	if i < 0 || len(body)-(i+1) < 4 {
		return false
	}
	m.Portal, m.MaxRows = string(body[:i]), binary.BigEndian.Uint32(body[i+1:])
	return true
}

// malformedMessage is PostgreSQL's wording for a message of type t that does
// not decode: a query string without its terminator, a message of fixed
// size with bytes left over, or one that ends early.
func malformedMessage(t byte) string {
	switch t {
	case 'Q':
		return "invalid string in message"
	case 'S', 'H', 'X', 'c':
		return "invalid message format"
	}
	return "insufficient data left in message"
}

// decodes decodes body into msg and reports whether it could. pgproto3's
// decoders check lengths, but one that panicked on hostile input must not
// take the connection's goroutine (and the process) with it.
func decodes(msg interface{ Decode([]byte) error }, body []byte) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false
		}
	}()
	return msg.Decode(body) == nil
}
