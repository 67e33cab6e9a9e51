package wire

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// COPY in the protocol. A statement whose Result is a CopyIn switches the
// connection to copy-in mode: CopyInResponse, then the client's CopyData
// (decoded here in the statement's CopyFormat and handed to the Result in
// batches) until CopyDone, or CopyFail, which fails the statement. A
// CopyOut's rows go out as CopyData between CopyOutResponse and CopyDone.
// An error ends copy-in mode at once: the ErrorResponse goes out, and the
// CopyData the client still sends is ignored as outside COPY (after an
// Execute, until Sync), which is what PostgreSQL does.

// CopyIn is the Result of COPY ... FROM STDIN.
type CopyIn interface {
	Result
	// CopyFormat is how the client lays out its data.
	CopyFormat() *CopyFormat
	// Rows receives the decoded rows, in order, in batches. An error that
	// concerns one of them is a *CopyRowError.
	Rows(ctx context.Context, rows [][]sqltypes.Value) error
	// Finish is called after the last row: the rows become durable, all
	// at once (Tag then reports them). Close without Finish writes
	// nothing.
	Finish(ctx context.Context) error
}

// CopyOut is the Result of COPY ... TO STDOUT: its rows are sent in
// CopyFormat.
type CopyOut interface {
	Result
	CopyFormat() *CopyFormat
}

// CopyPusher is a CopyOut that can hand its rows to the connection itself
// (a COPY of a bare table scan): PushRows calls fn with each row in turn,
// valid only until fn returns, instead of the connection pulling them
// through Next. pushed is false when it cannot: nothing was read, and
// Next serves the rows. An error fn returns ends the push and comes back
// as it is.
type CopyPusher interface {
	CopyOut
	PushRows(ctx context.Context, fn func(row []sqltypes.Value) error) (pushed bool, err error)
}

// CopyRowError is an error about one row, from CopyIn.Rows or Finish: Row
// is its number in the stream (0 for the first row). Quote says
// PostgreSQL's CONTEXT quotes the row's line (as for a NOT NULL violation,
// found as the row is formed) rather than only numbering it (a duplicate
// key, found as rows are inserted).
type CopyRowError struct {
	Row   int64
	Quote bool
	Err   error
}

func (e *CopyRowError) Error() string { return e.Err.Error() }

// Unwrap returns the row's error.
func (e *CopyRowError) Unwrap() error { return e.Err }

// copyBatchRows is how many decoded rows go to CopyIn.Rows at once, and
// copyBatchBytes about how much of their input at most: 4096 rows of a
// megabyte each would be 4 GB held at once.
const (
	copyBatchRows  = 4096
	copyBatchBytes = 8 << 20
)

// copyBatchAge is how long rows may wait in a batch: a client sending
// slowly (rows produced as it goes) hears of a bad row about when
// PostgreSQL, which checks each row as it arrives, would tell it, while a
// fast one fills whole batches long before.
const copyBatchAge = 20 * time.Millisecond

// formatCodes is the overall and per-column format of a Copy*Response.
func formatCodes(f *CopyFormat) (byte, []uint16) {
	codes := make([]uint16, len(f.Columns))
	if !f.Binary {
		return 0, codes
	}
	for i := range codes {
		codes[i] = 1
	}
	return 1, codes
}

// runCopyIn serves copy-in mode for res.
func (c *conn) runCopyIn(ctx context.Context, res CopyIn) error {
	f := res.CopyFormat()
	overall, codes := formatCodes(f)
	c.send(&pgproto3.CopyInResponse{OverallFormat: overall, ColumnFormatCodes: codes})
	if err := c.flush(); err != nil {
		return c.lostInCopy(err)
	}
	dec := &copyDecoder{f: f, style: c.outputStyle()}
	// Data in another encoding than UTF8 is converted before it is
	// decoded; a character split between two messages waits in partial
	// for the rest of it.
	enc := c.copyEncoding(f)
	var partial, converted []byte
	convert := func(data []byte, done bool) ([]byte, error) {
		if enc == nil {
			return data, nil
		}
		if len(partial) > 0 {
			partial = append(partial, data...)
			data = partial
		}
		n := len(data)
		if !done {
			n = enc.Complete(data)
		}
		var err error
		converted, err = enc.ToServer(converted[:0], data[:n])
		if err != nil {
			return nil, f.copyError(pgerr.Classify(err), dec.line+1, "", "", false)
		}
		partial = append(partial[:0], data[n:]...)
		return converted, nil
	}
	// A line not yet complete stays in the decoder, as long as the client
	// makes it: charged to the session (a hostile client sends no line
	// end), and given back when the COPY ends.
	var held int64
	defer func() {
		if c.reg.mem != nil {
			c.reg.mem.Shrink(held)
		}
	}()
	chargeLine := func() error {
		if n := int64(cap(dec.buf)); n > held && c.reg.mem != nil {
			if err := c.reg.mem.Grow(n-held, "COPY's incomplete input line"); err != nil {
				return err
			}
			held = n
		}
		return nil
	}
	var batch []copyRow
	var batchBytes int
	var batchStart time.Time
	var lines copyLines
	var sent int64 // rows handed to res before batch
	// rowError gives a row's error PostgreSQL's CONTEXT.
	rowError := func(err error) error {
		var re *CopyRowError
		if !errors.As(err, &re) {
			return err
		}
		pe := pgerr.Classify(re.Err)
		if i := re.Row - sent; i >= 0 && i < int64(len(batch)) {
			r := batch[i]
			return f.copyError(pe, r.line, "", r.text, re.Quote && !f.Binary)
		}
		return f.copyError(pe, lines.line(re.Row), "", "", false)
	}
	send := func() error {
		if len(batch) == 0 {
			return nil
		}
		rows := make([][]sqltypes.Value, len(batch))
		for i, r := range batch {
			rows[i] = r.vals
		}
		if err := res.Rows(ctx, rows); err != nil {
			return rowError(err)
		}
		sent += int64(len(batch))
		batch = batch[:0]
		return nil
	}
	emit := func(r copyRow) error {
		lines.add(sent+int64(len(batch)), r.line)
		if len(batch) == 0 {
			batchStart = time.Now()
		}
		batch = append(batch, r)
		batchBytes += len(r.text) + 16*len(r.vals)
		for _, v := range r.vals {
			batchBytes += len(v.S)
		}
		if len(batch) >= copyBatchRows || batchBytes >= copyBatchBytes {
			batchBytes = 0
			return send()
		}
		return nil
	}
	for {
		msg, err := c.rd.receive()
		if err != nil {
			return c.lostInCopy(err)
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			data, err := convert(m.Data, false)
			if err != nil {
				return err
			}
			if err := dec.feed(data, false, emit); err != nil {
				return err
			}
			if err := chargeLine(); err != nil {
				return err
			}
			if len(batch) > 0 && time.Since(batchStart) >= copyBatchAge {
				batchBytes = 0
				if err := send(); err != nil {
					return err
				}
			}
		case *pgproto3.CopyDone:
			if enc != nil && len(partial) > 0 {
				data, err := convert(nil, true)
				if err != nil {
					return err
				}
				if err := dec.feed(data, false, emit); err != nil {
					return err
				}
			}
			if err := dec.feed(nil, true, emit); err != nil {
				return err
			}
			if err := send(); err != nil {
				return err
			}
			return rowError(res.Finish(ctx))
		case *pgproto3.CopyFail:
			return pgerr.New(pgerr.QueryCanceled, "COPY from stdin failed: %s", m.Message)
		case *pgproto3.Flush, *pgproto3.Sync:
			// Ignored in copy-in mode, as the protocol says.
		default:
			return pgerr.New(pgerr.ProtocolViolation, "unexpected message type 0x%02X during COPY from stdin", typeByte(msg))
		}
	}
}

// copyLines maps the rows of a COPY to their input lines for errors found
// after the rows left the decoder: it keeps only where a row does not
// start on the line after the previous row's (a header, a CSV field over
// several lines), so a plain stream costs nothing.
type copyLines struct {
	rows, lines []int64 // row rows[i] is on line lines[i]
	lastRow     int64
	lastLine    int64
}

func (l *copyLines) add(row, line int64) {
	if len(l.rows) == 0 || line != l.lastLine+row-l.lastRow {
		l.rows, l.lines = append(l.rows, row), append(l.lines, line)
	}
	l.lastRow, l.lastLine = row, line
}

// line is row's line.
func (l *copyLines) line(row int64) int64 {
	i := sort.Search(len(l.rows), func(i int) bool { return l.rows[i] > row }) - 1
	if i < 0 {
		return row + 1
	}
	return l.lines[i] + row - l.rows[i]
}

// typeByte is a frontend message's type byte, for errors.
func typeByte(msg pgproto3.FrontendMessage) byte {
	b, err := msg.Encode(nil)
	if err != nil || len(b) == 0 {
		return 0
	}
	return b[0]
}

// lostInCopy ends a connection whose client could not be read (or
// written) in the middle of a COPY.
func (c *conn) lostInCopy(err error) error {
	c.terminate = true
	return fmt.Errorf("%w: during COPY: %v", errQuietClose, err)
}

// runCopyOut sends res's rows as COPY data, one CopyData message a row as
// PostgreSQL sends them (psycopg 3 parses each message as one row). Each
// row is encoded straight into the send buffer behind its message header,
// whose length is filled in after it: no per-row message value or copy.
func (c *conn) runCopyOut(ctx context.Context, res CopyOut) error {
	f := res.CopyFormat()
	overall, codes := formatCodes(f)
	c.send(&pgproto3.CopyOutResponse{OverallFormat: overall, ColumnFormatCodes: codes})
	enc := newCopyEncoder(f, c.outputStyle())
	enc.charset = c.copyEncoding(f)
	// The binary header travels in the first row's CopyData, as
	// PostgreSQL sends it (psycopg 3 expects a row after it); a text
	// header line is a message of its own.
	var lead []byte
	if h := enc.header(); h != nil && f.Binary {
		lead = h
	} else if h != nil {
		if enc.charset != nil && !asciiOnly(h) {
			var err error
			if h, err = enc.charset.ToClient(nil, h); err != nil {
				return err
			}
		}
		c.send(&pgproto3.CopyData{Data: h})
	}
	send := func(row []sqltypes.Value) error {
		if err := c.sendCopyRow(enc, lead, row); err != nil {
			return err
		}
		lead = nil
		if c.pending > flushThreshold {
			if err := c.flush(); err != nil {
				return c.lostInCopy(err)
			}
		}
		return nil
	}
	pushed := false
	if p, ok := res.(CopyPusher); ok {
		var err error
		if pushed, err = p.PushRows(ctx, send); err != nil {
			return err
		}
	}
	for n := 0; !pushed; n++ {
		if n%ctxCheckRows == ctxCheckRows-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		row, ok, err := res.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if err := send(row); err != nil {
			return err
		}
	}
	if t := enc.trailer(); t != nil {
		c.send(&pgproto3.CopyData{Data: append(lead, t...)})
	}
	c.send(&pgproto3.CopyDone{})
	return nil
}

// sendCopyRow appends a CopyData message of lead and row to the send
// buffer. A row that fails to encode leaves the buffer as it was.
func (c *conn) sendCopyRow(enc *copyEncoder, lead []byte, row []sqltypes.Value) error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	at := len(c.wbuf)
	out := append(c.wbuf, 'd', 0, 0, 0, 0)
	out = append(out, lead...)
	from := len(out)
	out, err := enc.row(out, row)
	if err == nil && enc.charset != nil && !asciiOnly(out[from:]) {
		// The row's text in the COPY's encoding (never binary data:
		// charset is nil for it).
		var conv []byte
		conv, err = enc.charset.ToClient(c.encBuf[:0], out[from:])
		c.encBuf = conv[:0]
		out = append(out[:from], conv...)
	}
	if err != nil {
		c.wbuf = out[:at]
		return err
	}
	n := len(out) - at
	binary.BigEndian.PutUint32(out[at+1:], uint32(n-1)) // the length counts itself, not the type byte
	c.wbuf = out
	c.pending += n
	return nil
}

// runCopy serves a COPY result (copy-in or copy-out mode) and reports
// whether res was one.
func (c *conn) runCopy(ctx context.Context, res Result) (bool, error) {
	switch r := res.(type) {
	case CopyIn:
		return true, c.runCopyIn(ctx, r)
	case CopyOut:
		return true, c.runCopyOut(ctx, r)
	}
	return false, nil
}
