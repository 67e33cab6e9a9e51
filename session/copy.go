package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/pgenc"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/wire"
)

// COPY. The session resolves the statement: the table and its columns,
// and the options into a wire.CopyFormat (with PostgreSQL's checks and
// messages); wire moves and codes the data. COPY ... FROM STDIN forms and
// writes rows as INSERT INTO t (cols) VALUES ($1, ...) would (defaults,
// coercions, NOT NULL, uniqueness, index maintenance), through the
// executor's BulkInsert, in one transaction: nothing is written unless
// every row is. COPY t TO STDOUT is SELECT cols FROM t; COPY (query) TO
// STDOUT the query. Where that plan is a bare scan of one table, its rows
// are pushed from the scan to wire's encoder (copyOut.PushRows,
// executor.Pusher) rather than pulled through Next: the same statement,
// bound and checked the same way, with no row kept past its encoding.

// describeCopy: COPY returns no row description, and takes no parameters.
func (st *statement) describeCopy(context.Context) ([]sqltypes.Type, []wire.Column, error) {
	return nil, nil, nil
}

// copy runs COPY.
func (st *statement) copy(ctx context.Context, params []sqltypes.Value, start time.Time) (wire.Result, error) {
	c := st.parsed.Utility.Copy
	if !c.Stdio {
		what := "from a file"
		if !c.From {
			what = "to a file"
		}
		if c.Program {
			what = strings.Replace(what, "file", "program", 1)
		}
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY %s is not supported: zproxy has no files of its own", what).
			WithHint("Use COPY ... FROM STDIN or TO STDOUT, which psql's \\copy sends.")
	}
	if c.Where != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY FROM ... WHERE is not supported")
	}
	if c.Query != nil {
		return st.copyQuery(ctx, c.Query, params, start)
	}
	snap, err := st.sess.snapshot(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	t, err := snap.Table(c.Table)
	if err != nil {
		if v, isView := snap.StoredView(c.Table); isView {
			if c.From && v.InsteadOf("INSERT") {
				return st.copyToView(ctx, v, c.Columns)
			}
			if c.From {
				return nil, pgerr.New(pgerr.WrongObjectType, "cannot copy to view \"%s\"", c.Table).
					WithHint("To enable copying to a view, provide an INSTEAD OF INSERT trigger.")
			}
			return nil, pgerr.New(pgerr.WrongObjectType, "cannot copy from view \"%s\"", c.Table).
				WithHint("Try the COPY (SELECT ...) TO variant.")
		}
		if schema, n, ok := strings.Cut(c.Table, "."); ok || pgcatalog.Find("", c.Table) != nil {
			if !ok {
				schema, n = "", c.Table
			}
			if r := pgcatalog.Find(schema, n); r != nil {
				return st.copyComputed(ctx, snap, r, c, params, start)
			}
		}
		return nil, err
	}
	if t.IsPartitioned() && !c.From {
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot copy from partitioned table \"%s\"", t.BareName()).
			WithHint("Try the COPY (SELECT ...) TO variant.")
	}
	if t.IsMatview() {
		if c.From {
			return nil, pgerr.New(pgerr.WrongObjectType, "cannot copy to materialized view \"%s\"", c.Table)
		}
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot copy from materialized view \"%s\"", c.Table).
			WithHint("Try the COPY (SELECT ...) TO variant.")
	}
	cols, err := copyColumns(t, c.Columns)
	if err != nil {
		return nil, err
	}
	// The statement COPY runs through names t exactly, whatever the path
	// (public's t past a temporary t).
	name := snap.RelationKeyText(t.Name, t.Temp)
	if c.From {
		return st.copyFrom(ctx, t, name, cols)
	}
	var q strings.Builder
	q.WriteString("SELECT ")
	for i, col := range cols {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString(quoteIdent(t.Columns[col].Name))
	}
	q.WriteString(" FROM " + name)
	stmts, err := parser.Parse(q.String())
	if err != nil {
		return nil, err
	}
	return st.copyQuery(ctx, &stmts[0], params, start)
}

// quoteIdent quotes a name for SQL zproxy writes itself.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// copyColumns resolves COPY's column list (nil: every visible column).
func copyColumns(t *catalog.Table, names []string) ([]int, error) {
	var cols []int
	if names == nil {
		for i, c := range t.Columns {
			if !c.Hidden && c.Generated == "" { // PostgreSQL 15 copies no generated column
				cols = append(cols, i)
			}
		}
		return cols, nil
	}
	seen := map[int]bool{}
	for _, n := range names {
		i := t.ColumnIndex(n)
		if i < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", n, t.Name)
		}
		if t.Columns[i].Generated != "" {
			return nil, pgerr.New(pgerr.InvalidColumnReference, "column %q is a generated column", n).
				WithDetail("Generated columns cannot be used in COPY.")
		}
		if seen[i] {
			return nil, pgerr.New(pgerr.DuplicateColumn, "column \"%s\" specified more than once", n)
		}
		seen[i] = true
		cols = append(cols, i)
	}
	return cols, nil
}

// copyQuery runs COPY (query) TO STDOUT (and COPY t TO STDOUT, as its
// SELECT).
func (st *statement) copyQuery(ctx context.Context, q *parser.Statement, params []sqltypes.Value, start time.Time) (wire.Result, error) {
	if q.Utility != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", firstWord(q.Text))
	}
	inner := st.sub(q)
	inner.pushRows = true
	bound, _, _, err := inner.bind(ctx)
	if err != nil {
		return nil, err
	}
	if columnsOf(bound) == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY query must have a RETURNING clause")
	}
	res, _, err := inner.execute(ctx, params, start)
	if err != nil {
		return nil, err
	}
	cols := res.Columns()
	f, err := copyFormat(st.parsed.Utility.Copy, cols, "", nil)
	if err != nil {
		res.Close()
		return nil, err
	}
	return &copyOut{Result: res, format: f}, nil
}

// copyOut is the result of COPY ... TO STDOUT.
type copyOut struct {
	wire.Result
	format *wire.CopyFormat
	n      int64
}

var _ wire.CopyOut = (*copyOut)(nil)

func (c *copyOut) CopyFormat() *wire.CopyFormat { return c.format }

// Columns: COPY sends no row description.
func (c *copyOut) Columns() []wire.Column { return nil }

func (c *copyOut) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	row, ok, err := c.Result.Next(ctx)
	if ok {
		c.n++
	}
	return row, ok, err
}

func (c *copyOut) Tag() string { return fmt.Sprintf("COPY %d", c.n) }

// PushRows implements wire.CopyPusher: the rows of a bare table scan go
// to fn from the scan itself (executor.Pusher), each decoded into one
// reused row.
func (c *copyOut) PushRows(ctx context.Context, fn func(row []sqltypes.Value) error) (bool, error) {
	r, ok := c.Result.(*rowsResult)
	if !ok {
		return false, nil
	}
	return r.push(ctx, func(row []sqltypes.Value) error {
		c.n++
		return fn(row)
	})
}

// copyFrom starts COPY t [(cols)] FROM STDIN: it binds INSERT INTO t
// (cols) VALUES ($1, ...) with the columns' types and opens a BulkInsert
// for the rows wire will decode.
func (st *statement) copyFrom(ctx context.Context, t *catalog.Table, name string, cols []int) (wire.Result, error) {
	s := st.sess
	e := s.engine
	wcols := make([]wire.Column, len(cols))
	types := make([]sqltypes.Type, len(cols))
	var ins strings.Builder
	ins.WriteString("INSERT INTO " + name + " (")
	for i, col := range cols {
		c := t.Columns[col]
		wcols[i] = wire.Column{Name: c.Name, Type: c.Type}
		types[i] = c.Type
		if i > 0 {
			ins.WriteString(", ")
		}
		ins.WriteString(quoteIdent(c.Name))
	}
	ins.WriteString(") VALUES (")
	for i := range cols {
		if i > 0 {
			ins.WriteString(", ")
		}
		fmt.Fprintf(&ins, "$%d", i+1)
	}
	ins.WriteString(")")
	f, err := copyFormat(st.parsed.Utility.Copy, wcols, t.Name, t)
	if err != nil {
		return nil, err
	}
	stmts, err := parser.Parse(ins.String())
	if err != nil {
		return nil, err
	}
	if s.readOnly() {
		return nil, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute COPY FROM in a read-only transaction")
	}
	// Writes hold the gate from binding to commit (see executor.Gate).
	e.exec.Gate.RLock()
	inner := &statement{sess: s, parsed: &stmts[0], declared: types}
	bound, _, _, err := inner.bind(ctx)
	if err == nil {
		err = s.checkPrivileges(ctx, bound)
	}
	var plan *optimizer.Plan
	if err == nil {
		opts := e.opts
		opts.Fn = s.fnContext(ctx, time.Now())
		plan, err = optimizer.Optimize(bound, nil, opts)
	}
	// In a transaction block the rows join the block's transaction.
	var txn *executor.Txn
	if err == nil {
		txn, err = s.blockTxn(ctx)
	}
	var bulk *executor.BulkInsert
	stats := &kv.Stats{}
	if err == nil {
		// Defaults (nextval, now()) are evaluated as rows arrive, after
		// this statement's context is gone: they get the session's.
		fn := s.fnContext(s.ext.ctx, time.Now())
		var rr *routineRunner
		if bt := writeTarget(bound); t.Triggers != nil || bt != nil && bt.Triggers != nil {
			// Its triggers (a partition's clones too) run in the COPY's transaction (the block's or
			// the COPY's own), under the write gate it holds.
			rr = inner.routinesFor(s.ext.ctx, bound, txn, e.opts)
			rr.gate.Store(1)
			fn.Routines = rr
			rr.opts.Fn = fn
		}
		bulk, err = e.exec.NewBulkInsert(ctx, plan, executor.BulkOptions{Txn: txn, Mem: s.mem,
			Run: executor.RunOptions{KV: stats, WorkMem: s.workMem(), Fn: fn, Txn: txn, SchemaCurrent: s.schemaCurrent}})
		if rr != nil && bulk != nil {
			rr.txn = bulk.Txn()
		}
	}
	if err != nil {
		e.exec.Gate.RUnlock()
		return nil, err
	}
	return &copyIn{sess: s, bound: bound, bulk: bulk, format: f, start: time.Now()}, nil
}

// copyIn is the result of COPY ... FROM STDIN.
type copyIn struct {
	sess *Session
	// bound is the INSERT the rows go through (its privileges decide what
	// an error's DETAIL may show).
	bound  ir.Statement
	bulk   *executor.BulkInsert
	format *wire.CopyFormat
	start  time.Time
	n      int64
	ended  bool
}

var _ wire.CopyIn = (*copyIn)(nil)

func (c *copyIn) CopyFormat() *wire.CopyFormat { return c.format }

func (c *copyIn) Columns() []wire.Column { return nil }

func (c *copyIn) Next(context.Context) ([]sqltypes.Value, bool, error) { return nil, false, nil }

func (c *copyIn) Tag() string { return fmt.Sprintf("COPY %d", c.n) }

// Rows forms and writes a batch of rows.
func (c *copyIn) Rows(ctx context.Context, rows [][]sqltypes.Value) error {
	err := c.bulk.Add(ctx, rows)
	c.sess.redactValues(ctx, c.bound, err)
	return c.failed(copyRowError(err))
}

// failed puts an open transaction block in the failed state when err is
// set: the rows already written into its transaction must not commit.
func (c *copyIn) failed(err error) error {
	if err != nil {
		c.sess.failBlock()
	}
	return err
}

// copyRowError passes the executor's error about one row on to wire.
func copyRowError(err error) error {
	if be, ok := err.(*executor.BulkRowError); ok {
		return &wire.CopyRowError{Row: be.Row, Quote: be.Formed, Err: be.Err}
	}
	return err
}

// Finish commits the rows.
func (c *copyIn) Finish(ctx context.Context) error {
	n, err := c.bulk.Commit(ctx)
	c.sess.redactValues(ctx, c.bound, err)
	c.end()
	if err != nil {
		return c.failed(copyRowError(err))
	}
	c.n = n
	c.sess.engine.cfg.Metrics.Query("copy", "none", time.Since(c.start), 0, 0)
	return nil
}

// Close abandons the rows unless Finish committed them.
func (c *copyIn) Close() error {
	if !c.ended {
		// Abandoned (CopyFail, an error, a lost client): in a block, the
		// rows written so far are in its transaction.
		c.failed(errCopyAbandoned)
	}
	c.bulk.Rollback()
	c.end()
	return nil
}

var errCopyAbandoned = errors.New("COPY abandoned")

func (c *copyIn) end() {
	if !c.ended {
		c.ended = true
		c.sess.engine.exec.Gate.RUnlock()
	}
}

// copyFormat resolves COPY's options as PostgreSQL's ProcessCopyOptions
// does, in its order of checks and with its messages. t is the table (nil
// for COPY (query) TO).
func copyFormat(c *parser.CopyStatement, cols []wire.Column, table string, t *catalog.Table) (*wire.CopyFormat, error) {
	f := &wire.CopyFormat{Table: table, Columns: cols}
	seen := map[string]bool{}
	var delim, null, quote, escape *string
	var forceQuote, forceNotNull, forceNull *parser.CopyOption
	for i := range c.Options {
		o := &c.Options[i]
		redundant := func() error {
			return pgerr.New(pgerr.SyntaxError, "conflicting or redundant options").WithPosition(o.Pos)
		}
		if seen[o.Name] {
			return nil, redundant()
		}
		seen[o.Name] = true
		str := func() (*string, error) {
			if !o.HasValue {
				return nil, pgerr.New(pgerr.SyntaxError, "%s requires a parameter", o.Name).WithPosition(o.Pos)
			}
			v := o.Value
			return &v, nil
		}
		var err error
		switch o.Name {
		case "format":
			switch strings.ToLower(o.Value) {
			case "text":
			case "csv":
				f.CSV = true
			case "binary":
				f.Binary = true
			default:
				return nil, pgerr.New(pgerr.InvalidParameterValue, "COPY format \"%s\" not recognized", o.Value).WithPosition(o.Pos)
			}
		case "freeze":
			// Meaningful to PostgreSQL's heap only; the value must be a
			// Boolean all the same.
			if _, err := copyBool(o, "freeze"); err != nil {
				return nil, err
			}
		case "delimiter":
			delim, err = str()
		case "null":
			null, err = str()
		case "header":
			switch v := strings.ToLower(o.Value); {
			case !o.HasValue:
				f.Header = true
			case v == "match":
				f.Header, f.HeaderMatch = true, true
			default:
				b, ok := parseBool(v)
				if !ok {
					return nil, pgerr.New(pgerr.SyntaxError, "header requires a Boolean value or \"match\"").WithPosition(o.Pos)
				}
				f.Header = b
			}
		case "quote":
			quote, err = str()
		case "escape":
			escape, err = str()
		case "force_quote":
			forceQuote = o
		case "force_not_null":
			forceNotNull = o
		case "force_null":
			forceNull = o
		case "encoding":
			// The data's encoding instead of the client's: the wire
			// converts from and to it (wire/encoding.go).
			e, ok := pgenc.Lookup(o.Value)
			if !ok {
				return nil, pgerr.New(pgerr.InvalidParameterValue, "argument to option \"encoding\" must be a valid encoding name").WithPosition(o.Pos)
			}
			if !e.Convertible() {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY in encoding \"%s\" is not supported: zproxy does not convert between %s and UTF8", o.Value, e.Name)
			}
			f.Encoding = e.Name
		default:
			return nil, pgerr.New(pgerr.SyntaxError, "option \"%s\" not recognized", o.Name).WithPosition(o.Pos)
		}
		if err != nil {
			return nil, err
		}
	}
	from := c.From
	if f.Binary && delim != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "cannot specify DELIMITER in BINARY mode")
	}
	if f.Binary && null != nil {
		return nil, pgerr.New(pgerr.SyntaxError, "cannot specify NULL in BINARY mode")
	}
	d, n, q, esc := "\t", `\N`, `"`, ""
	if f.CSV {
		d, n = ",", ""
	}
	if delim != nil {
		d = *delim
	}
	if null != nil {
		n = *null
	}
	if quote != nil {
		q = *quote
	}
	esc = q
	if escape != nil {
		esc = *escape
	}
	switch {
	case f.Binary && f.Header:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot specify HEADER in BINARY mode")
	case len(d) != 1:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY delimiter must be a single one-byte character")
	case d == "\n" || d == "\r":
		return nil, pgerr.New(pgerr.InvalidParameterValue, "COPY delimiter cannot be newline or carriage return")
	case strings.ContainsAny(n, "\r\n"):
		return nil, pgerr.New(pgerr.InvalidParameterValue, "COPY null representation cannot use newline or carriage return")
	case !f.CSV && strings.Contains(`\.abcdefghijklmnopqrstuvwxyz0123456789`, d):
		return nil, pgerr.New(pgerr.InvalidParameterValue, "COPY delimiter cannot be \"%s\"", d)
	case !f.CSV && quote != nil:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY quote available only in CSV mode")
	case f.CSV && len(q) != 1:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY quote must be a single one-byte character")
	case f.CSV && d == q:
		return nil, pgerr.New(pgerr.InvalidParameterValue, "COPY delimiter and quote must be different")
	case !f.CSV && escape != nil:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY escape available only in CSV mode")
	case f.CSV && len(esc) != 1:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY escape must be a single one-byte character")
	case !f.CSV && forceQuote != nil:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force quote available only in CSV mode")
	case forceQuote != nil && from:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force quote only available using COPY TO")
	case !f.CSV && forceNotNull != nil:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force not null available only in CSV mode")
	case forceNotNull != nil && !from:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force not null only available using COPY FROM")
	case !f.CSV && forceNull != nil:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force null available only in CSV mode")
	case forceNull != nil && !from:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY force null only available using COPY FROM")
	case !f.Binary && strings.Contains(n, d):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "COPY delimiter must not appear in the NULL specification")
	case f.CSV && strings.Contains(n, q):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CSV quote character must not appear in the NULL specification")
	case f.HeaderMatch && !from:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot use \"match\" with HEADER in COPY TO")
	}
	if !f.Binary {
		f.Delimiter, f.Null = d[0], n
	}
	if f.CSV {
		f.Quote, f.Escape = q[0], esc[0]
	}
	var err error
	if f.ForceQuote, err = forceColumns(forceQuote, "FORCE_QUOTE", cols, t); err != nil {
		return nil, err
	}
	if f.ForceNotNull, err = forceColumns(forceNotNull, "FORCE_NOT_NULL", cols, t); err != nil {
		return nil, err
	}
	if f.ForceNull, err = forceColumns(forceNull, "FORCE_NULL", cols, t); err != nil {
		return nil, err
	}
	return f, nil
}

// forceColumns marks the COPY's columns a FORCE_* option names (all of
// them for *); a name that is no column of the table t is 42703, one the
// COPY leaves out 42P10.
func forceColumns(o *parser.CopyOption, what string, cols []wire.Column, t *catalog.Table) ([]bool, error) {
	if o == nil {
		return nil, nil
	}
	out := make([]bool, len(cols))
	if o.Star {
		for i := range out {
			out[i] = true
		}
		return out, nil
	}
	if len(o.Columns) == 0 {
		return nil, pgerr.New(pgerr.SyntaxError, "argument to option \"%s\" must be a list of column names", strings.ToLower(what)).WithPosition(o.Pos)
	}
	for _, name := range o.Columns {
		if t != nil && t.ColumnIndex(name) < 0 {
			return nil, pgerr.New(pgerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, t.Name)
		}
		found := false
		for i, c := range cols {
			if c.Name == name {
				out[i], found = true, true
			}
		}
		if !found {
			return nil, pgerr.New(pgerr.InvalidColumnReference, "%s column \"%s\" not referenced by COPY", what, name)
		}
	}
	return out, nil
}

// copyBool reads a Boolean option (no value is true).
func copyBool(o *parser.CopyOption, name string) (bool, error) {
	if !o.HasValue {
		return true, nil
	}
	b, ok := parseBool(strings.ToLower(o.Value))
	if !ok {
		return false, pgerr.New(pgerr.SyntaxError, "%s requires a Boolean value", name).WithPosition(o.Pos)
	}
	return b, nil
}

// parseBool reads PostgreSQL's Boolean option spellings.
func parseBool(v string) (bool, bool) {
	switch v {
	case "true", "on", "1", "yes":
		return true, true
	case "false", "off", "0", "no":
		return false, true
	}
	return false, false
}

// copyComputed is COPY of a relation zproxy computes: out of a table as
// COPY (SELECT ...) TO, which checks the privileges a SELECT does; into
// one as copyIntoComputedTable; a view refused either way, as PostgreSQL
// refuses any view without an INSTEAD OF INSERT trigger.
func (st *statement) copyComputed(ctx context.Context, snap *catalog.Snapshot, r *pgcatalog.Relation, c *parser.CopyStatement, params []sqltypes.Value, start time.Time) (wire.Result, error) {
	if c.From && !st.sess.isSuperuser(snap) &&
		pgcatalog.SystemPrivileges(snap, st.sess.currentUser(), r.Schema, r.Name, "")&catalog.PrivInsert == 0 {
		// As an INSERT's check, which PostgreSQL's COPY FROM makes first.
		noun := "table"
		if !r.IsTable() {
			noun = "view"
		}
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", noun, r.Name)
	}
	switch {
	case !r.IsTable() && c.From:
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot copy to view \"%s\"", r.Name).
			WithHint("To enable copying to a view, provide an INSTEAD OF INSERT trigger.")
	case !r.IsTable():
		return nil, pgerr.New(pgerr.WrongObjectType, "cannot copy from view \"%s\"", r.Name).
			WithHint("Try the COPY (SELECT ...) TO variant.")
	case c.From:
		rel, _ := pgcatalog.Lookup(snap, r.Schema, r.Name)
		return st.copyIntoComputedTable(snap, rel, r.Name, c.Columns)
	}
	cols := "*"
	if len(c.Columns) > 0 {
		quoted := make([]string, len(c.Columns))
		for i, n := range c.Columns {
			quoted[i] = sqltypes.QuoteIdent(n)
		}
		cols = strings.Join(quoted, ", ")
	}
	stmts, err := parser.Parse("SELECT " + cols + " FROM " + sqltypes.QuoteIdent(r.Schema) + "." + sqltypes.QuoteIdent(r.Name))
	if err != nil {
		return nil, err
	}
	return st.copyQuery(ctx, &stmts[0], params, start)
}

// copyIntoComputedTable is COPY FROM into a table zproxy computes (a
// catalog's, or PostGIS's spatial_ref_sys): pg_dump of a PostGIS
// database copies the SRIDs its users added into spatial_ref_sys, none
// for most, and a COPY of no rows changes nothing, so it succeeds; a row
// is 55000, as an INSERT is.
func (st *statement) copyIntoComputedTable(snap *catalog.Snapshot, rel *catalog.Table, name string, names []string) (wire.Result, error) {
	cols, err := copyColumns(rel, names)
	if err != nil {
		return nil, err
	}
	wcols := make([]wire.Column, len(cols))
	for i, col := range cols {
		wcols[i] = wire.Column{Name: rel.Columns[col].Name, Type: rel.Columns[col].Type}
	}
	f, err := copyFormat(st.parsed.Utility.Copy, wcols, name, rel)
	if err != nil {
		return nil, err
	}
	if st.sess.readOnly() {
		return nil, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute COPY FROM in a read-only transaction")
	}
	return &copyNone{sess: st.sess, format: f, name: name}, nil
}

// copyNone takes a COPY FROM that may hold no row
// (copyIntoComputedTable).
type copyNone struct {
	sess   *Session
	format *wire.CopyFormat
	name   string
}

var _ wire.CopyIn = (*copyNone)(nil)

func (c *copyNone) CopyFormat() *wire.CopyFormat { return c.format }

func (c *copyNone) Columns() []wire.Column { return nil }

func (c *copyNone) Next(context.Context) ([]sqltypes.Value, bool, error) { return nil, false, nil }

func (c *copyNone) Tag() string { return "COPY 0" }

// Rows refuses the first row.
func (c *copyNone) Rows(_ context.Context, rows [][]sqltypes.Value) error {
	if len(rows) == 0 {
		return nil
	}
	c.sess.failBlock()
	return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot change relation %q", c.name).
		WithDetail("zproxy computes the extensions' relations; %s holds its built-in rows alone.", c.name)
}

func (c *copyNone) Finish(context.Context) error { return nil }

func (c *copyNone) Close() error { return nil }
