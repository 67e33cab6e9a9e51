package wire

import (
	"encoding/binary"
	"math"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgenc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// client_encoding. Every database is UTF8; a client may speak another
// encoding, and text is converted at this boundary, as PostgreSQL's
// pg_client_to_server and pg_server_to_client convert it, in one place
// each way:
//
//   - client to server: convertIn, for each message as dispatch receives
//     it (the query of Query and Parse, statement and portal names,
//     CopyFail's message), decodeParam for Bind's and FunctionCall's
//     parameters (text format, and binary format of the types whose
//     recv function reads text: textrecv, namerecv, json_recv ...),
//     and copyIn for COPY FROM's text and CSV data;
//   - server to client: send for ErrorResponse, NoticeResponse,
//     ParameterStatus and NotificationResponse, sendRowDescription for
//     column names, convertValue for DataRow values (text format, and
//     binary format of the types whose send function writes text), and
//     sendCopyRow for COPY TO's text and CSV data.
//
// The session reports client_encoding as it changes, through the
// ParameterStatus callback (a SET, a rollback restoring it, RESET), which
// is where the connection learns it; UTF8 and SQL_ASCII need no
// conversion (conn.clientEnc is nil), and the UTF8 path costs nothing
// more than that nil check.

// clientEncoding is the encoding to convert to and from, nil when text
// passes unconverted (UTF8, SQL_ASCII).
func (c *conn) clientEncoding() *pgenc.Encoding { return c.clientEnc.Load() }

// setClientEncoding records the session's client_encoding (its canonical
// name, which the session checked).
func (c *conn) setClientEncoding(name string) {
	e, ok := pgenc.Lookup(name)
	if !ok || !e.Convertible() || e.Passthrough() {
		e = nil
	}
	c.clientEnc.Store(e)
}

// inString converts s, client text, to the server's encoding.
func inString(e *pgenc.Encoding, s string) (string, error) {
	if asciiOnly(s) {
		return s, nil
	}
	b, err := e.ToServer(nil, []byte(s))
	return string(b), err
}

// outString converts s, server text, to the client's encoding.
func outString(e *pgenc.Encoding, s string) (string, error) {
	if asciiOnly(s) {
		return s, nil
	}
	b, err := e.ToClient(nil, []byte(s))
	return string(b), err
}

// asciiOnly reports whether s is ASCII without NUL, which every encoding
// converts to itself (NUL is an error the converter reports).
func asciiOnly[S ~string | ~[]byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == 0 {
			return false
		}
	}
	return true
}

// convertIn converts the text of a message from the client in encoding
// e, in place. Bind's and FunctionCall's parameters are converted as
// they are decoded (decodeParam), which knows their types; CopyData by
// the COPY, which knows its format.
func convertIn(e *pgenc.Encoding, msg pgproto3.FrontendMessage) error {
	var err error
	conv := func(s *string) {
		if err == nil {
			*s, err = inString(e, *s)
		}
	}
	switch m := msg.(type) {
	case *pgproto3.Query:
		conv(&m.String)
	case *pgproto3.Parse:
		conv(&m.Name)
		conv(&m.Query)
	case *pgproto3.Bind:
		conv(&m.DestinationPortal)
		conv(&m.PreparedStatement)
	case *pgproto3.Describe:
		conv(&m.Name)
	case *pgproto3.Close:
		conv(&m.Name)
	case *pgproto3.Execute:
		conv(&m.Portal)
	case *pgproto3.CopyFail:
		conv(&m.Message)
	}
	return err
}

// convertOut converts the text of a message for the client in encoding
// e: the message to send instead (a copy: a message may be shared).
// Text with no equivalent in e makes an ErrorResponse or NoticeResponse
// the 22P05 error of it, as PostgreSQL reports the conversion's error in
// its place; other messages send the character as '?', as PostgreSQL's
// pq_send_ascii_string does when it cannot convert.
func convertOut(e *pgenc.Encoding, msg pgproto3.BackendMessage) pgproto3.BackendMessage {
	lossy := func(s string) string {
		out, err := outString(e, s)
		if err != nil {
			b := []byte(s)
			for i := range b {
				if b[i] >= 0x80 {
					b[i] = '?'
				}
			}
			return string(b)
		}
		return out
	}
	switch m := msg.(type) {
	case *pgproto3.ErrorResponse:
		r, ok := convertFields(e, *m)
		if !ok {
			return msg
		}
		return &r
	case *pgproto3.NoticeResponse:
		r, ok := convertFields(e, pgproto3.ErrorResponse(*m))
		if !ok {
			return msg
		}
		n := pgproto3.NoticeResponse(r)
		return &n
	case *pgproto3.ParameterStatus:
		return &pgproto3.ParameterStatus{Name: m.Name, Value: lossy(m.Value)}
	case *pgproto3.NotificationResponse:
		return &pgproto3.NotificationResponse{PID: m.PID, Channel: lossy(m.Channel), Payload: lossy(m.Payload)}
	}
	return msg
}

// convertFields converts an error's or notice's text fields; ok false
// when there was nothing to convert.
func convertFields(e *pgenc.Encoding, r pgproto3.ErrorResponse) (pgproto3.ErrorResponse, bool) {
	fields := []*string{&r.Message, &r.Detail, &r.Hint, &r.Where, &r.InternalQuery,
		&r.SchemaName, &r.TableName, &r.ColumnName, &r.DataTypeName, &r.ConstraintName}
	changed := false
	for _, f := range fields {
		if asciiOnly(*f) {
			continue
		}
		out, err := outString(e, *f)
		if err != nil {
			// The error of the conversion, which is ASCII, goes out
			// instead, with the severity of what it replaces.
			pe := pgerr.As(err)
			return pgproto3.ErrorResponse{Severity: r.Severity, SeverityUnlocalized: r.SeverityUnlocalized,
				Code: pe.Code.String(), Message: pe.Message}, true
		}
		*f, changed = out, true
	}
	return r, changed
}

// sendRowDescription sends rd with its column names in the client's
// encoding (a name with no equivalent fails the statement, as in
// PostgreSQL). rd itself is not changed: a prepared statement keeps it.
func (c *conn) sendRowDescription(rd *pgproto3.RowDescription) error {
	e := c.clientEncoding()
	if e == nil {
		c.send(rd)
		return nil
	}
	var out *pgproto3.RowDescription
	for i := range rd.Fields {
		if asciiOnly(rd.Fields[i].Name) {
			continue
		}
		name, err := e.ToClient(nil, rd.Fields[i].Name)
		if err != nil {
			return err
		}
		if out == nil {
			out = &pgproto3.RowDescription{Fields: append([]pgproto3.FieldDescription(nil), rd.Fields...)}
		}
		out.Fields[i].Name = name
	}
	if out == nil {
		out = rd
	}
	c.send(out)
	return nil
}

// textBinary reports whether a binary value of type t is text in the
// connection's encoding, as its send and recv functions are pq_sendtext
// and pq_getmsgtext (textsend, namesend, bpcharsend, varcharsend,
// json_send, enum_send, xml_send, citext's, unknownsend): skip is the
// bytes before the text (jsonb's and jsonpath's version byte). "char"
// is a byte, not converted (charsend).
func textBinary(t *sqltypes.Type) (skip int, ok bool) {
	switch t.ID {
	case sqltypes.Text, sqltypes.Varchar, sqltypes.BPChar, sqltypes.Name, sqltypes.JSON, sqltypes.XML,
		sqltypes.Citext, sqltypes.Enum, sqltypes.Unknown:
		return 0, true
	case sqltypes.JSONB, sqltypes.JSONPath, sqltypes.Ltree, sqltypes.Lquery, sqltypes.Ltxtquery:
		return 1, true
	}
	return 0, false
}

// convertValue converts the value at buf[at:], just encoded in format as
// a value of type t, to the client's encoding e, reusing scratch. Values
// that are not text (binary numbers, ...) are left alone; an array of a
// text type has each element converted.
func convertValue(e *pgenc.Encoding, buf []byte, at int, t *sqltypes.Type, format int16, scratch *[]byte) ([]byte, error) {
	if format == formatBinary {
		if t.ID == sqltypes.Array {
			if elem := t.ElemType(); elemIsText(&elem) {
				return convertArray(e, buf, at, &elem, scratch, true)
			}
			return buf, nil
		}
		skip, ok := textBinary(t)
		if !ok {
			return buf, nil
		}
		at = min(at+skip, len(buf))
	}
	if asciiOnly(buf[at:]) {
		return buf, nil
	}
	out, err := e.ToClient((*scratch)[:0], buf[at:])
	*scratch = out[:0]
	if err != nil {
		return buf, err
	}
	return append(buf[:at], out...), nil
}

func elemIsText(t *sqltypes.Type) bool {
	_, ok := textBinary(t)
	return ok || t.ID == sqltypes.Array
}

// convertArray rewrites the binary array at buf[at:] (array_send's
// format, elements of type elem) with each element converted: to the
// client's encoding when out, else to the server's.
func convertArray(e *pgenc.Encoding, buf []byte, at int, elem *sqltypes.Type, scratch *[]byte, out bool) ([]byte, error) {
	src := buf[at:]
	if len(src) < 12 {
		return buf, nil // malformed: the array's decoder reports it
	}
	ndim := int(int32(binary.BigEndian.Uint32(src)))
	hdr := 12 + 8*max(ndim, 0)
	if ndim < 0 || len(src) < hdr {
		return buf, nil // malformed: the array's decoder reports it
	}
	// The elements are rewritten into a copy, which then replaces src.
	dst := append((*scratch)[:0], src[:hdr]...)
	p := src[hdr:]
	var ebuf []byte // an element's conversion
	for len(p) >= 4 {
		l := int32(binary.BigEndian.Uint32(p))
		if l < 0 {
			dst, p = binary.BigEndian.AppendUint32(dst, math.MaxUint32), p[4:] // NULL
			continue
		}
		if int(l) > len(p)-4 {
			break // truncated: left for the decoder
		}
		p = p[4:]
		lenAt := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		start := len(dst)
		dst = append(dst, p[:l]...)
		var err error
		if elem.ID == sqltypes.Array {
			inner := elem.ElemType()
			dst, err = convertArray(e, dst, start, &inner, new([]byte), out)
		} else {
			skip, _ := textBinary(elem)
			from := min(start+skip, len(dst))
			if !asciiOnly(dst[from:]) {
				var conv []byte
				if out {
					conv, err = e.ToClient(ebuf[:0], dst[from:])
				} else {
					conv, err = e.ToServer(ebuf[:0], dst[from:])
				}
				ebuf = conv
				dst = append(dst[:from], conv...)
			}
		}
		if err != nil {
			return buf, err
		}
		binary.BigEndian.PutUint32(dst[lenAt:], uint32(len(dst)-start))
		p = p[l:]
	}
	dst = append(dst, p...)
	*scratch = dst[:0]
	return append(buf[:at], dst...), nil
}

// paramIn converts a Bind or FunctionCall parameter from the client's
// encoding: text format always, binary format when its type's recv
// function reads text.
func paramIn(e *pgenc.Encoding, sp *paramSpec, format int16, raw []byte) ([]byte, error) {
	if format != formatBinary {
		if asciiOnly(raw) {
			return raw, nil
		}
		return e.ToServer(nil, raw)
	}
	if sp.decode.ID == sqltypes.Array {
		if elem := sp.decode.ElemType(); elemIsText(&elem) {
			return convertArray(e, append([]byte(nil), raw...), 0, &elem, new([]byte), false)
		}
		return raw, nil
	}
	skip, ok := textBinary(&sp.decode)
	if !ok || len(raw) < skip || asciiOnly(raw[skip:]) {
		return raw, nil
	}
	return e.ToServer(append([]byte(nil), raw[:skip]...), raw[skip:])
}

// copyEncoding is the encoding of a COPY's text or CSV data: its
// ENCODING option's, else the client's; nil when it needs no conversion.
func (c *conn) copyEncoding(f *CopyFormat) *pgenc.Encoding {
	if f.Binary {
		return nil
	}
	if f.Encoding != "" {
		e, ok := pgenc.Lookup(f.Encoding)
		if !ok || e.Passthrough() || !e.Convertible() {
			return nil
		}
		return e
	}
	return c.clientEncoding()
}
