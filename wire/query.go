package wire

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgenc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// flushThreshold is how many bytes of results may wait in the send buffer
// before they are written out, so a long result streams in bounded memory.
const flushThreshold = 64 << 10

// ctxCheckRows is how often (in rows) a result loop checks for
// cancellation on its own, for results that never block.
const ctxCheckRows = 256

// oidText is the OID reported for parameters whose type nobody knows, so
// clients send them as text.
const oidText = 25

// prepared is a statement of the extended protocol (named or unnamed).
type prepared struct {
	name string
	stmt Statement // nil for an empty query string

	// declared holds the parameter type OIDs of the Parse message.
	declared []uint32

	// mem is what the session's memory account was charged for it.
	mem int64

	// Filled by describe on first use.
	described bool
	params    []paramSpec
	cols      []Column

	// What pg_prepared_statements shows: the source text (the whole
	// PREPARE statement for SQL's), when it was made, whether SQL made
	// it, and how often it was planned (at each Bind or EXECUTE: zproxy
	// plans every execution, PostgreSQL's custom plans).
	text    string
	at      time.Time
	fromSQL bool
	plans   int64

	// stmts holds stmt for statements(), which the statement log asks
	// for at every Bind and Execute.
	stmts [1]Statement

	// rowDesc is the RowDescription of cols in the result formats
	// rowDescFormats (rowDescriptionIn), kept for the next Describe:
	// pgbench describes its portal at every execution.
	rowDesc        *pgproto3.RowDescription
	rowDescFormats []int16
}

// rowDescriptionIn is the RowDescription of ps's columns in the result
// formats given, made anew only when they differ from the last asked
// for. Its columns are fixed once described (describe), so the formats
// are all it depends on; the message is only encoded, never changed.
func (ps *prepared) rowDescriptionIn(formats []int16) *pgproto3.RowDescription {
	if ps.rowDesc == nil || !slices.Equal(ps.rowDescFormats, formats) {
		ps.rowDesc, ps.rowDescFormats = rowDescription(ps.cols, formats), slices.Clone(formats)
	}
	return ps.rowDesc
}

// paramSpec says how to decode one parameter and what to cast it to.
type paramSpec struct {
	oid    uint32        // reported in ParameterDescription; the client encodes by it
	decode sqltypes.Type // type of the bytes the client sends
	target sqltypes.Type // type the statement wants (Unknown: as decoded)
	binary bool          // whether the binary format can be decoded
}

// portal is a bound statement, possibly suspended part-way.
type portal struct {
	stmt    *prepared // nil for a cursor
	cursor  Cursor    // set for a cursor (DECLARE)
	params  []sqltypes.Value
	formats []int16 // result formats: none (all text), one for all, or one per column

	// boundCols are the columns a PortalDescriber gave at Bind
	// (describedAtBind), which Describe reports until the first Execute.
	boundCols       []Column
	describedAtBind bool

	// Set by the first Execute.
	ctx    context.Context // lives as long as the result
	cancel context.CancelCauseFunc
	res    Result
	cols   []Column
	done   bool
	tag    string
	// active: an Execute of this portal is running (what it runs must
	// not close it).
	active bool
	// mem is what the session's memory account was charged for it
	// (chargePortal).
	mem int64
	// paramBuf holds params when they are few, in the portal's
	// allocation: a key lookup binds one or two at every execution.
	paramBuf [2]sqltypes.Value
}

// simpleQuery runs a Query message: every statement of the string in turn,
// stopping at the first error. ReadyForQuery is the caller's.
func (c *conn) simpleQuery(sql string) {
	// A simple query destroys the unnamed statement and portal.
	delete(c.reg.stmts, "")
	if p := c.reg.portals[""]; p != nil {
		c.reg.closePortal(p)
		delete(c.reg.portals, "")
	}

	if err := checkText(sql); err != nil {
		c.sendError(err)
		return
	}
	start := time.Now()
	// statement_timeout applies to each statement of the string in turn
	// (PostgreSQL 13 and later); parsing counts towards the first.
	ctx, done := c.beginStatement(c.deadlineAfter())
	var stmts []Statement
	err := c.guard("Session.Parse", func() error {
		var err error
		stmts, err = c.sess.Parse(ctx, sql, nil)
		return err
	})
	if err != nil {
		done()
		c.sendError(statementError(ctx, err))
		return
	}
	if len(stmts) == 0 {
		done()
		c.send(&pgproto3.EmptyQueryResponse{})
		return
	}
	// As PostgreSQL's log_statement, the whole string is logged once,
	// before its first statement runs, and its duration after its last.
	logCmd := c.command(LoggedCommand{Message: "statement", SQL: sql, Statements: stmts})
	c.logReceived(logCmd)
	if len(stmts) > 1 {
		// Several statements in one message run as one transaction
		// (PostgreSQL's implicit transaction block), ended by sendReady.
		c.beginImplicit()
	}
	for i, st := range stmts {
		if i > 0 {
			// Read again: an earlier statement may have SET it.
			ctx, done = c.beginStatement(c.deadlineAfter())
		}
		err := c.guard("Statement.Execute", func() error { return c.runSimple(ctx, st) })
		done()
		if err != nil {
			c.sendError(statementError(ctx, err))
			return
		}
		if c.pending > flushThreshold {
			if err := c.flush(); err != nil {
				return
			}
		}
	}
	c.logDone(logCmd, start)
}

// command returns cmd in the connection's one LoggedCommand, which the
// statement log may not keep (StatementLogger): a command per message
// need not be allocated.
func (c *conn) command(cmd LoggedCommand) *LoggedCommand {
	c.logged = cmd
	return &c.logged
}

// logReceived hands a command about to run to the session's statement log
// (StatementLogger), if it keeps one.
func (c *conn) logReceived(cmd *LoggedCommand) {
	if sl, ok := c.sess.(StatementLogger); ok {
		sl.CommandReceived(cmd)
	}
}

// logDone hands a command that completed to the session's statement log,
// with the time since its message arrived at start.
func (c *conn) logDone(cmd *LoggedCommand, start time.Time) {
	if sl, ok := c.sess.(StatementLogger); ok {
		sl.CommandDone(cmd, time.Since(start))
	}
}

// runSimple executes one statement of a simple query, in text format.
func (c *conn) runSimple(ctx context.Context, st Statement) error {
	res, err := st.Execute(ctx, nil)
	if err != nil {
		return err
	}
	if isCopy, err := c.runCopy(ctx, res); isCopy {
		if err != nil {
			res.Close()
			return err
		}
		c.commandComplete(res.Tag())
		return res.Close()
	}
	cols := res.Columns()
	var formats []int16
	if b, ok := res.(interface{ Binary() bool }); ok && b.Binary() {
		// A FETCH from a BINARY cursor: rows in binary format even in the
		// simple protocol, as PostgreSQL sends them.
		formats = []int16{formatBinary}
	}
	if cols != nil {
		if err := c.sendRowDescription(rowDescription(cols, formats)); err != nil {
			return err
		}
	}
	if _, _, err := c.sendRows(ctx, res, cols, formats, 0); err != nil {
		res.Close()
		return err
	}
	c.commandComplete(res.Tag())
	return res.Close()
}

// rowDescription describes cols with the given result formats.
func rowDescription(cols []Column, formats []int16) *pgproto3.RowDescription {
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, col := range cols {
		fields[i] = pgproto3.FieldDescription{
			Name:                 []byte(col.Name),
			TableOID:             col.TableOID,
			TableAttributeNumber: uint16(col.ColumnNum),
			DataTypeOID:          col.Type.WireOID(),
			DataTypeSize:         col.Type.Size(),
			TypeModifier:         col.Type.TypeMod(),
			Format:               formatOf(formats, i),
		}
	}
	return &pgproto3.RowDescription{Fields: fields}
}

// formatOf returns the format of column (or parameter) i under Bind's
// format-code rules: none means text, one applies to all.
func formatOf(formats []int16, i int) int16 {
	switch {
	case len(formats) == 0:
		return formatText
	case len(formats) == 1:
		return formats[0]
	case i < len(formats):
		return formats[i]
	}
	return formatText
}

// sendRows sends up to maxRows rows (all when 0) of res as DataRows. It
// reports whether it stopped because of maxRows.
func (c *conn) sendRows(ctx context.Context, res Result, cols []Column, formats []int16, maxRows int) (n int, suspended bool, err error) {
	c.style = c.outputStyle()
	for ; ; n++ {
		if maxRows > 0 && n >= maxRows {
			return n, true, nil
		}
		if n%ctxCheckRows == ctxCheckRows-1 {
			if err := ctx.Err(); err != nil {
				return n, false, err
			}
		}
		row, ok, err := res.Next(ctx)
		if err != nil {
			return n, false, err
		}
		if !ok {
			return n, false, nil
		}
		if err := c.sendDataRow(cols, formats, row); err != nil {
			return n, false, err
		}
		if c.pending > flushThreshold {
			if err := c.flush(); err != nil {
				return n, false, err
			}
		}
	}
}

// sendDataRow sends one row as a DataRow, encoded straight into the send
// buffer: no copy of each value from a row buffer into the message, no
// slices of it, and each value read in place (a Value copied out of the
// row and the copy read back was a stall a column).
func (c *conn) sendDataRow(cols []Column, formats []int16, row []sqltypes.Value) error {
	if err := checkRowWidth(cols, row); err != nil {
		return err
	}
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	buf := c.wbuf
	start := len(buf)
	enc := c.clientEncoding()
	buf = append(buf, 'D', 0, 0, 0, 0, byte(len(row)>>8), byte(len(row)))
	for i := range row {
		v := &row[i]
		if v.IsNull() {
			buf = append(buf, 0xff, 0xff, 0xff, 0xff) // -1: NULL
			continue
		}
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		var err error
		format := formatOf(formats, i)
		if buf, err = c.appendValue(buf, &cols[i], format, v); err == nil && enc != nil {
			buf, err = convertValue(enc, buf, at+4, &cols[i].Type, format, &c.encBuf)
		}
		if err != nil {
			c.wbuf = buf[:start] // nothing of the row is sent
			return err
		}
		if len(buf)-at-4 > maxFieldLen {
			c.wbuf = buf[:start]
			return pgerr.New(pgerr.ProgramLimitExceeded, "a value of %d bytes is over the protocol's limit", len(buf)-at-4)
		}
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	binary.BigEndian.PutUint32(buf[start+1:], uint32(len(buf)-start-1))
	c.pending += len(buf) - start
	c.wbuf = buf
	return nil
}

// maxFieldLen is the longest value a DataRow carries (pgproto3's limit).
const maxFieldLen = 1<<30 - 1

// checkRowWidth reports a row whose width is not its result's.
func checkRowWidth(cols []Column, row []sqltypes.Value) error {
	if len(row) != len(cols) {
		return pgerr.New(pgerr.InternalError, "row has %d values, but the result has %d columns", len(row), len(cols))
	}
	return nil
}

// appendValue appends the non-NULL value v of column col, in format, to
// buf: cast to the column's type first when it is of another kind.
func (c *conn) appendValue(buf []byte, col *Column, format int16, v *sqltypes.Value) ([]byte, error) {
	t := &col.Type
	if v.K != t.Kind() && t.ID != sqltypes.Unknown {
		cv, err := sqltypes.Cast(*v, *t)
		if err != nil {
			return buf, err
		}
		v = &cv
	}
	if format == formatBinary {
		return AppendBinary(buf, *t, *v)
	}
	if v.K == sqltypes.KindJSONB {
		// jsonb_out, which fails past MaxAllocSize as PostgreSQL's does;
		// AppendTextStyled has no error path.
		return sqltypes.AppendJSONB(buf, v.JSONB())
	}
	return sqltypes.AppendTextStyled(buf, *t, *v, c.style), nil
}

// encodeRow encodes one row into the connection's reusable buffers
// (rowVals slices rowBuf), so a row costs no allocation.
func (c *conn) encodeRow(cols []Column, formats []int16, row []sqltypes.Value) error {
	if err := checkRowWidth(cols, row); err != nil {
		return err
	}
	buf := c.rowBuf[:0]
	if buf == nil {
		// An empty value must be an empty, not a nil, slice: DataRow
		// encodes nil as NULL.
		buf = make([]byte, 0, 256)
	}
	span := c.rowSpan[:0]
	enc := c.clientEncoding()
	for i := range row {
		if row[i].IsNull() {
			span = append(span, -1, -1)
			continue
		}
		start := len(buf)
		var err error
		format := formatOf(formats, i)
		if buf, err = c.appendValue(buf, &cols[i], format, &row[i]); err == nil && enc != nil {
			buf, err = convertValue(enc, buf, start, &cols[i].Type, format, &c.encBuf)
		}
		if err != nil {
			return err
		}
		span = append(span, start, len(buf))
	}
	vals := c.rowVals[:0]
	for i := 0; i < len(span); i += 2 {
		if span[i] < 0 {
			vals = append(vals, nil)
		} else {
			vals = append(vals, buf[span[i]:span[i+1]:span[i+1]])
		}
	}
	c.rowBuf, c.rowSpan, c.rowVals = buf, span, vals
	return nil
}

// handleParse creates a prepared statement.
func (c *conn) handleParse(m *pgproto3.Parse) error {
	if err := checkText(m.Name, m.Query); err != nil {
		return err
	}
	if _, exists := c.reg.stmts[m.Name]; exists && m.Name != "" {
		return pgerr.New(pgerr.DuplicatePreparedStatement, "prepared statement %q already exists", m.Name)
	}
	start := time.Now()
	declared := append([]uint32(nil), m.ParameterOIDs...)
	types := make([]sqltypes.Type, len(declared))
	for i, oid := range declared {
		if t, ok := sqltypes.TypeByOID(oid); ok {
			types[i] = t
		}
	}
	ctx, done := c.beginStatement(c.commandDeadline())
	defer done()
	var stmts []Statement
	err := c.guard("Session.Parse", func() error {
		var err error
		stmts, err = c.sess.Parse(ctx, m.Query, types)
		return err
	})
	if err != nil {
		return statementError(ctx, err)
	}
	if len(stmts) > 1 {
		return pgerr.New(pgerr.SyntaxError, "cannot insert multiple commands into a prepared statement")
	}
	ps := &prepared{name: m.Name, declared: declared, text: m.Query, at: time.Now()}
	if len(stmts) == 1 {
		ps.stmt = stmts[0]
	}
	// PostgreSQL analyses a statement at Parse: an unknown table or
	// column fails the Parse, and no statement is left to close. An
	// extended-protocol statement stands alone, so no earlier statement
	// of its string can change what it binds to.
	if err := c.describe(ctx, ps); err != nil {
		return statementError(ctx, err)
	}
	if err := c.reg.putStatement(ps); err != nil {
		return err
	}
	c.send(&pgproto3.ParseComplete{})
	c.logDone(c.command(LoggedCommand{Message: "parse", Name: m.Name, SQL: m.Query, Statements: stmts}), start)
	return nil
}

// statements is ps's statement as a list, empty for an empty query.
func (ps *prepared) statements() []Statement {
	if ps.stmt == nil {
		return nil
	}
	ps.stmts[0] = ps.stmt
	return ps.stmts[:]
}

// describe binds ps once and works out how to decode its parameters.
func (c *conn) describe(ctx context.Context, ps *prepared) error {
	if ps.described {
		return nil
	}
	var params []sqltypes.Type
	var cols []Column
	if ps.stmt != nil {
		err := c.guard("Statement.Describe", func() error {
			var err error
			params, cols, err = ps.stmt.Describe(ctx)
			return err
		})
		if err != nil {
			return err
		}
	}
	n := max(len(params), len(ps.declared))
	specs := make([]paramSpec, n)
	for i := range specs {
		sp := &specs[i]
		if i < len(params) {
			sp.target = params[i]
		}
		var declared uint32
		if i < len(ps.declared) {
			declared = ps.declared[i]
		}
		switch t, known := sqltypes.TypeByOID(declared); {
		case declared == 0 && sp.target.ID != sqltypes.Unknown:
			sp.oid, sp.decode, sp.binary = sp.target.OID(), sp.target, true
		case declared == 0:
			sp.oid, sp.decode, sp.binary = oidText, sqltypes.TypeText, true
		case !known && sp.target.ID != sqltypes.Unknown && declared == sp.target.OID():
			// The statement's own user-defined type (a domain's, an
			// enum's), which a client declares as the ParameterDescription
			// of an earlier Parse reported it.
			sp.oid, sp.decode, sp.binary = declared, sp.target, true
		case known:
			sp.oid, sp.decode, sp.binary = declared, t, true
		default:
			// A type zproxy lacks (numeric, json, ...): its text form is
			// passed on as text for the statement to cast.
			sp.oid, sp.decode, sp.binary = declared, sqltypes.TypeUnknown, declared == sqltypes.TypeUnknown.OID()
		}
	}
	ps.params, ps.cols, ps.described = specs, cols, true
	return nil
}

// handleBind creates a portal from a prepared statement and parameters.
func (c *conn) handleBind(m *pgproto3.Bind) error {
	if err := c.commandTimedOut(); err != nil {
		return err
	}
	start := time.Now()
	if err := checkText(m.DestinationPortal, m.PreparedStatement); err != nil {
		return err
	}
	ps := c.reg.stmts[m.PreparedStatement]
	if ps == nil {
		return pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement %q does not exist", m.PreparedStatement)
	}
	ps.plans++
	if _, exists := c.reg.portals[m.DestinationPortal]; exists && m.DestinationPortal != "" {
		return pgerr.New(pgerr.DuplicateCursor, "portal %q already exists", m.DestinationPortal)
	}
	// The command's statement_timeout starts at its first message.
	deadline := c.commandDeadline()
	if !ps.described {
		// Only describing (once per prepared statement) runs anything: a
		// Bind of a described statement needs no watched context.
		ctx, done := c.beginStatement(deadline)
		err := c.describe(ctx, ps)
		if err != nil {
			err = statementError(ctx, err)
		}
		done()
		if err != nil {
			return err
		}
	}
	if len(m.Parameters) != len(ps.params) {
		return pgerr.New(pgerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement %q requires %d",
			len(m.Parameters), ps.name, len(ps.params))
	}
	if err := checkFormats(m.ParameterFormatCodes, len(m.Parameters), "parameter"); err != nil {
		return err
	}
	if len(m.ResultFormatCodes) > 1 && len(m.ResultFormatCodes) != len(ps.cols) {
		return pgerr.New(pgerr.ProtocolViolation, "bind message has %d result formats but query has %d columns",
			len(m.ResultFormatCodes), len(ps.cols))
	}
	if err := checkFormats(m.ResultFormatCodes, len(m.ResultFormatCodes), "result"); err != nil {
		return err
	}
	p := &portal{stmt: ps, formats: append([]int16(nil), m.ResultFormatCodes...)}
	values := p.paramBuf[:0]
	if len(m.Parameters) > len(p.paramBuf) {
		values = make([]sqltypes.Value, 0, len(m.Parameters))
	}
	values = values[:len(m.Parameters)]
	var style sqltypes.Style
	if len(m.Parameters) > 0 {
		// Once a Bind, not once a parameter: a multi-row INSERT binds
		// thousands, and the style is the session's (a guarded call).
		style = c.outputStyle()
	}
	enc := c.clientEncoding()
	for i, raw := range m.Parameters {
		v, err := decodeParam(ps.params[i], formatOf(m.ParameterFormatCodes, i), raw, i+1, style, enc)
		if err != nil {
			return err
		}
		values[i] = v
	}
	if old := c.reg.portals[m.DestinationPortal]; old != nil {
		c.reg.closePortal(old)
		delete(c.reg.portals, m.DestinationPortal)
	}
	p.params = values
	if pd, ok := ps.stmt.(PortalDescriber); ok {
		p.boundCols, p.describedAtBind = pd.PortalColumns(c.ctx)
	}
	if err := c.reg.chargePortal(m.DestinationPortal, p); err != nil {
		return err
	}
	c.reg.portals[m.DestinationPortal] = p
	c.send(&pgproto3.BindComplete{})
	c.logDone(c.command(LoggedCommand{Message: "bind", Name: ps.name, Portal: m.DestinationPortal, SQL: ps.text,
		Statements: ps.statements(), Params: values}), start)
	return nil
}

// checkFormats validates Bind's format codes for n values.
func checkFormats(formats []int16, n int, what string) error {
	if len(formats) > 1 && len(formats) != n {
		return pgerr.New(pgerr.ProtocolViolation, "bind message has %d %s formats but %d %ss", len(formats), what, n, what)
	}
	for _, f := range formats {
		if f != formatText && f != formatBinary {
			return pgerr.New(pgerr.ProtocolViolation, "unsupported format code: %d", f)
		}
	}
	return nil
}

// decodeParam decodes parameter $n, sent in the client's encoding enc
// (nil: UTF8 or SQL_ASCII, unconverted), and casts it to the statement's
// type.
func decodeParam(sp paramSpec, format int16, raw []byte, n int, st sqltypes.Style, enc *pgenc.Encoding) (sqltypes.Value, error) {
	if raw == nil {
		return sqltypes.Null, nil
	}
	var v sqltypes.Value
	var err error
	if enc != nil {
		if raw, err = paramIn(enc, &sp, format, raw); err != nil {
			return sqltypes.Null, err
		}
	}
	// Text, whether the parameter is sent as text or is text sent in
	// binary, must be UTF-8 without NUL bytes, as PostgreSQL converts it
	// from the client's encoding before anything reads it.
	if format != formatBinary || sp.decode.ID == sqltypes.Text || sp.decode.ID == sqltypes.Varchar || sp.decode.ID == sqltypes.Unknown {
		if err := checkTextBytes(raw); err != nil {
			return sqltypes.Null, err
		}
	}
	if format == formatBinary {
		if !sp.binary {
			return sqltypes.Null, pgerr.New(pgerr.FeatureNotSupported, "binary format for parameter $%d of type OID %d is not supported", n, sp.oid)
		}
		v, err = DecodeBinary(sp.decode, raw)
		if pe := pgerr.As(err); pe != nil && pe.Code == pgerr.InvalidBinaryRepresentation {
			return sqltypes.Null, pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format in bind parameter %d", n).
				WithDetail("%s: %s", pe.Message, pe.Detail)
		}
	} else if sp.decode.ID == sqltypes.TimestampTZ || sp.target.ID == sqltypes.TimestampTZ && sp.decode.ID == sqltypes.Text {
		// Without an offset, the text is wall-clock time in the session's
		// zone.
		var us int64
		us, err = sqltypes.ParseTimestampStyled(string(raw), true, st)
		v = sqltypes.NewTimestampTZ(us)
	} else {
		v, err = decodeText(sp.decode, raw, st)
	}
	if err != nil {
		return sqltypes.Null, err
	}
	if sp.target.ID != sqltypes.Unknown {
		return sqltypes.Cast(v, sp.target)
	}
	return v, nil
}

// parameterDescription is ParameterDescription as PostgreSQL writes it:
// the count field is 16 bits, and for a statement with more parameters
// (which PostgreSQL prepares, though no Bind can carry them) it sends the
// count truncated and every OID, from which clients such as pgx count them.
// pgproto3's encoder refuses more than 65535.
type parameterDescription struct{ oids []uint32 }

// Backend marks parameterDescription as a backend message.
func (*parameterDescription) Backend() {}

// Decode reads the message as pgproto3 does, counting the OIDs by the
// message's length.
func (m *parameterDescription) Decode(src []byte) error {
	var p pgproto3.ParameterDescription
	if err := p.Decode(src); err != nil {
		return err
	}
	m.oids = p.ParameterOIDs
	return nil
}

// Encode appends the message: 't', its length, the count, the OIDs.
func (m *parameterDescription) Encode(dst []byte) ([]byte, error) {
	dst = append(dst, 't', 0, 0, 0, 0)
	start := len(dst) - 4
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(m.oids)))
	for _, o := range m.oids {
		dst = binary.BigEndian.AppendUint32(dst, o)
	}
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst, nil
}

// handleDescribe describes a prepared statement or a portal.
func (c *conn) handleDescribe(m *pgproto3.Describe) error {
	if err := c.commandTimedOut(); err != nil {
		return err
	}
	switch m.ObjectType {
	case 'S':
		ps := c.reg.stmts[m.Name]
		if ps == nil {
			return pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement %q does not exist", m.Name)
		}
		ctx, done := c.beginStatement(c.commandDeadline())
		defer done()
		if err := c.describe(ctx, ps); err != nil {
			return statementError(ctx, err)
		}
		oids := make([]uint32, len(ps.params))
		for i, sp := range ps.params {
			oids[i] = sp.oid
		}
		c.send(&parameterDescription{oids: oids})
		if ps.cols != nil {
			if err := c.sendRowDescription(ps.rowDescriptionIn(nil)); err != nil {
				return err
			}
		} else {
			c.send(&pgproto3.NoData{})
		}
	case 'P':
		p := c.reg.portals[m.Name]
		if p == nil {
			return pgerr.New(pgerr.InvalidCursorName, "portal %q does not exist", m.Name)
		}
		cols, ofStmt := p.cols, false
		if p.res == nil && p.cursor == nil {
			cols, ofStmt = p.stmt.cols, true
			if p.describedAtBind {
				cols, ofStmt = p.boundCols, false
			}
		}
		switch {
		case cols == nil:
			c.send(&pgproto3.NoData{})
		case ofStmt:
			return c.sendRowDescription(p.stmt.rowDescriptionIn(p.formats))
		default:
			return c.sendRowDescription(rowDescription(cols, p.formats))
		}
	default:
		return pgerr.New(pgerr.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
	}
	return nil
}

// handleExecute runs a portal, or resumes a suspended one, for up to
// MaxRows rows.
func (c *conn) handleExecute(m *pgproto3.Execute) error {
	// The reader decodes every Execute into one message (reusedMessages),
	// and a COPY FROM this runs reads the client's next messages: a copy.
	own := *m
	m = &own
	if err := c.commandTimedOut(); err != nil {
		return err
	}
	p := c.reg.portals[m.Portal]
	if p == nil {
		return pgerr.New(pgerr.InvalidCursorName, "portal %q does not exist", m.Portal)
	}
	if p.cursor != nil {
		return c.executeCursor(p, m.MaxRows)
	}
	if p.stmt.stmt == nil {
		c.send(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	if p.done {
		// A finished portal has nothing more to give.
		tag := p.tag
		if p.cols != nil {
			tag = "SELECT 0"
		}
		c.commandComplete(tag)
		return nil
	}
	start := time.Now()
	logCmd := c.command(LoggedCommand{Message: "execute", Name: p.stmt.name, Portal: m.Portal, SQL: p.stmt.text,
		Statements: p.stmt.statements(), Params: p.params})
	if p.res != nil {
		logCmd.Message = "execute fetch from" // a suspended portal resumed
	}
	c.logReceived(logCmd)
	if p.ctx == nil && c.pipelined() {
		// More statements follow before the Sync: they run in one
		// transaction with this one, ended at the Sync.
		c.beginImplicit()
	}
	if p.ctx == nil {
		// The result may outlive this message (a suspended portal), so
		// it runs under the portal's context, which is watched while this
		// Execute runs.
		p.ctx, p.cancel = context.WithCancelCause(c.ctx)
	}
	ctx := p.ctx
	c.watch(p.cancel, c.commandDeadline())
	p.active = true
	defer func() {
		p.active = false
		c.release()
		// An Execute that completes ends the statement timer, as in
		// PostgreSQL; the next command starts its own.
		c.cmdDeadline = time.Time{}
	}()
	err := c.guard("Statement.Execute", func() error {
		if p.res == nil {
			res, err := p.stmt.stmt.Execute(ctx, p.params)
			if err != nil {
				return err
			}
			p.res, p.cols = res, res.Columns()
			if isCopy, err := c.runCopy(ctx, res); isCopy {
				if err != nil {
					return err
				}
				p.tag, p.done = res.Tag(), true
				c.commandComplete(p.tag)
				p.res = nil
				return res.Close()
			}
		}
		_, suspended, err := c.sendRows(ctx, p.res, p.cols, p.formats, int(min(m.MaxRows, 1<<31-1)))
		if err != nil {
			return err
		}
		if suspended {
			c.send(&pgproto3.PortalSuspended{})
			return nil
		}
		p.tag, p.done = p.res.Tag(), true
		c.commandComplete(p.tag)
		res := p.res
		p.res = nil
		return res.Close()
	})
	if err != nil {
		err = statementError(ctx, err)
		c.reg.closePortal(p)
		delete(c.reg.portals, m.Portal)
		return err
	}
	c.logDone(logCmd, start)
	return nil
}

// executeCursor reads up to maxRows rows (all when 0) of a declared
// cursor from where it stands. The cursor stays open: only CLOSE or the
// end of its transaction closes it. As in PostgreSQL the tag counts the
// rows this Execute sent.
func (c *conn) executeCursor(p *portal, maxRows uint32) error {
	ctx, done := c.beginStatement(c.commandDeadline())
	p.active = true
	defer func() {
		p.active = false
		done()
		c.cmdDeadline = time.Time{}
	}()
	return c.guard("Cursor.Next", func() error {
		n, suspended, err := c.sendRows(ctx, p.cursor, p.cols, p.formats, int(min(maxRows, 1<<31-1)))
		if err != nil {
			return statementError(ctx, err)
		}
		if suspended {
			c.send(&pgproto3.PortalSuspended{})
		} else {
			c.commandComplete(fmt.Sprintf("SELECT %d", n))
		}
		return nil
	})
}

// location is the session's TimeZone.
func (c *conn) location() *time.Location {
	loc := time.UTC
	_ = c.guard("Session.TimeZone", func() error { loc = c.sess.TimeZone(); return nil })
	if loc == nil {
		loc = time.UTC
	}
	return loc
}

// outputStyle is the session's output settings, in its TimeZone
// (PostgreSQL's defaults if it cannot tell).
func (c *conn) outputStyle() sqltypes.Style {
	var st sqltypes.Style
	_ = c.guard("Session.Style", func() error { st = c.sess.Style(); return nil })
	st.Location = c.location()
	return st
}

// commandDeadline returns when statement_timeout cancels the
// extended-protocol command under way, starting its timer if this is the
// command's first message.
func (c *conn) commandDeadline() time.Time {
	if c.cmdDeadline.IsZero() {
		c.cmdDeadline = c.deadlineAfter()
	}
	return c.cmdDeadline
}

// commandTimedOut fails a message of an extended-protocol command whose
// statement_timeout passed while the client was between messages: as
// PostgreSQL's timer cancels the command whatever it is doing, the next
// message gets 57014 and the rest are skipped until Sync.
func (c *conn) commandTimedOut() error {
	if !c.cmdDeadline.IsZero() && !time.Now().Before(c.cmdDeadline) {
		return errStatementTimeout
	}
	return nil
}

// handleClose closes a prepared statement (with the portals made from it)
// or a portal. Closing what does not exist is not an error.
func (c *conn) handleClose(m *pgproto3.Close) error {
	switch m.ObjectType {
	case 'S':
		if ps := c.reg.stmts[m.Name]; ps != nil {
			c.reg.dropStatement(ps)
		}
	case 'P':
		_ = c.reg.ClosePortal(m.Name) // closing what does not exist is no error
	default:
		return pgerr.New(pgerr.ProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	c.send(&pgproto3.CloseComplete{})
	return nil
}
