package wire

import (
	"context"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// FunctionCaller is implemented by sessions that serve the function-call
// (fast-path) protocol, which libpq's large-object functions use (psql's
// \lo_import and \lo_export). The session turns a function's OID into a
// query calling it with its arguments as $1..$n, typed by the OIDs it
// returns; the connection runs that query as an extended-protocol
// statement, decoding the arguments and encoding the one result by the
// message's formats.
type FunctionCaller interface {
	FunctionCallQuery(ctx context.Context, oid uint32) (sql string, paramOIDs []uint32, err error)
}

// functionCall answers a FunctionCall message with a FunctionCallResponse
// or an error; the caller sends ReadyForQuery.
func (c *conn) functionCall(m *pgproto3.FunctionCall) {
	fc, ok := c.sess.(FunctionCaller)
	if !ok {
		c.sendError(pgerr.New(pgerr.FeatureNotSupported, "the function call protocol is not supported"))
		return
	}
	ctx, done := c.beginStatement(c.deadlineAfter())
	defer done()
	if err := c.guard("FunctionCall", func() error { return c.runFunctionCall(ctx, fc, m) }); err != nil {
		c.sendError(statementError(ctx, err))
	}
}

func (c *conn) runFunctionCall(ctx context.Context, fc FunctionCaller, m *pgproto3.FunctionCall) error {
	sql, oids, err := fc.FunctionCallQuery(ctx, m.Function)
	if err != nil {
		return err
	}
	if len(m.Arguments) != len(oids) {
		return pgerr.New(pgerr.ProtocolViolation, "function call message contains %d arguments but function requires %d", len(m.Arguments), len(oids))
	}
	argFormats := make([]int16, len(m.ArgFormatCodes))
	for i, f := range m.ArgFormatCodes {
		argFormats[i] = int16(f)
	}
	if err := checkFormats(argFormats, len(m.Arguments), "parameter"); err != nil {
		return err
	}
	if err := checkFormats([]int16{int16(m.ResultFormatCode)}, 1, "result"); err != nil {
		return err
	}
	ps := &prepared{declared: oids, text: sql}
	types := make([]sqltypes.Type, len(oids))
	for i, oid := range oids {
		if t, ok := sqltypes.TypeByOID(oid); ok {
			types[i] = t
		}
	}
	stmts, err := c.sess.Parse(ctx, sql, types)
	if err != nil {
		return err
	}
	if len(stmts) != 1 {
		return pgerr.New(pgerr.InternalError, "function call query %q is not one statement", sql)
	}
	ps.stmt = stmts[0]
	if err := c.describe(ctx, ps); err != nil {
		return err
	}
	if len(ps.cols) != 1 {
		return pgerr.New(pgerr.InternalError, "function call query %q returns %d columns", sql, len(ps.cols))
	}
	values := make([]sqltypes.Value, len(m.Arguments))
	for i, raw := range m.Arguments {
		if values[i], err = decodeParam(ps.params[i], formatOf(argFormats, i), raw, i+1, c.outputStyle(), c.clientEncoding()); err != nil {
			return err
		}
	}
	res, err := ps.stmt.Execute(ctx, values)
	if err != nil {
		return err
	}
	defer res.Close()
	row, more, err := res.Next(ctx)
	if err != nil {
		return err
	}
	if !more {
		return pgerr.New(pgerr.InternalError, "function call query %q returned no row", sql)
	}
	formats := []int16{int16(m.ResultFormatCode)}
	if err := c.encodeRow(ps.cols, formats, row); err != nil {
		return err
	}
	var result []byte
	if c.rowVals[0] != nil {
		result = append([]byte{}, c.rowVals[0]...)
	}
	c.send(&pgproto3.FunctionCallResponse{Result: result})
	return res.Close()
}
