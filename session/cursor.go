package session

import (
	"context"
	"fmt"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/wire"
)

// Cursors (DECLARE, FETCH, MOVE, CLOSE).
//
// A cursor holds its query's open result and reads it on demand, so a
// FETCH FORWARD n of a large query costs n rows of memory, not the query's.
// What FETCH and MOVE do is PostgreSQL's DoPortalRunFetch and
// PortalRunSelect, written over two primitives that move the query one row
// forward or back (step); the position bookkeeping (portalPos, atStart,
// atEnd) and so every command tag and edge case follow PostgreSQL's.
//
// zproxy's plans only run forward. A SCROLL cursor keeps every row it has
// read, so it can go back; without SCROLL a cursor keeps none and any
// backward step is 55000 as for a NO SCROLL cursor in PostgreSQL (which
// also lets some plans go backwards without SCROLL; zproxy never does).
// A rewind (MOVE ABSOLUTE 0, MOVE BACKWARD ALL, FETCH ABSOLUTE n back
// towards the start), which QGIS's feature iterators use, runs the query
// again from its first row, as PostgreSQL's ExecutorRewind runs its plan
// again for a cursor declared without SCROLL; NO SCROLL, said explicitly,
// refuses it (55000) as PostgreSQL 15 does. The second run reads the
// transaction's data as it stands then (PostgreSQL: as the cursor's
// snapshot saw it).
// A WITH HOLD cursor reads the rest of its query into memory when the
// transaction that declared it commits, as PostgreSQL does. Rows kept in
// memory count against zproxy.work_mem (53200 past it).
type cursor struct {
	sess   *Session
	name   string
	cols   []wire.Column
	res    wire.Result // the query; nil once read to its end or closed
	cancel context.CancelCauseFunc
	binary bool
	hold   bool
	scroll bool
	// noScroll is NO SCROLL, said explicitly: no rewind either.
	noScroll bool
	// rerun starts the query again (rewind of a cursor without SCROLL).
	rerun func(ctx context.Context) (wire.Result, context.CancelCauseFunc, error)
	// held: the transaction that declared it committed and its rows are
	// all in buf.
	held bool

	// buf holds rows base, base+1, ...: every row read for a SCROLL or held
	// cursor, none otherwise.
	buf   [][]sqltypes.Value
	base  int64
	read  int64 // rows read from res
	done  bool  // res has no more rows: read is their number
	bytes int64 // memory of buf
	limit int64 // zproxy.work_mem when declared
	// mem is what the session's memory account holds for the cursor:
	// cursorCost and its kept rows (bytes).
	mem int64

	// ep is where the query stands: 0 before the first row, read+1 after
	// the last, otherwise on that row.
	ep int64
	// PostgreSQL's portal position state.
	portalPos int64
	atStart   bool
	atEnd     bool

	// src are the query's columns as bound (their tables and columns),
	// and current the row the cursor is on (nil when on none): what a
	// PL/pgSQL body's WHERE CURRENT OF reads (currentOfText).
	src     []ir.Column
	current []sqltypes.Value
	// key is what SQL's WHERE CURRENT OF needs (currentof.go).
	key keyedCursor
}

var _ wire.Cursor = (*cursor)(nil)

// errForwardOnly is PostgreSQL's answer to a backward motion of a cursor
// without SCROLL.
func errForwardOnly() error {
	return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cursor can only scan forward").
		WithHint("Declare it with SCROLL option to enable backward scan.")
}

// declare runs DECLARE: the query starts now, under the session's
// context, since it outlives this statement.
func (st *statement) declare(ctx context.Context, params []sqltypes.Value, start time.Time) (wire.Result, error) {
	s := st.sess
	u := st.parsed.Utility
	if s.txStatus == 'I' && !u.Cursor.Hold {
		return nil, pgerr.New(pgerr.NoActiveSQLTransaction, "DECLARE CURSOR can only be used in transaction blocks")
	}
	if _, err := s.ext.reg.Cursor(u.Name); err == nil {
		return nil, pgerr.New(pgerr.DuplicateCursor, "cursor \"%s\" already exists", u.Name)
	}
	inner := st.sub(u.Inner)
	bound, _, _, err := inner.bind(ctx)
	if err != nil {
		return nil, err
	}
	q, ok := bound.(*ir.Query)
	if !ok {
		return nil, pgerr.New(pgerr.InvalidCursorDefinition, "DECLARE CURSOR must be a SELECT")
	}
	// A simple scan of one table runs with its rows' keys, for WHERE
	// CURRENT OF (currentof.go).
	keyed, table, keyCols := keyedQuery(q)
	params = append([]sqltypes.Value(nil), params...) // kept for a rerun
	run := func(ctx context.Context, start time.Time) (wire.Result, context.CancelCauseFunc, error) {
		qctx, cancel := context.WithCancelCause(s.ext.ctx)
		stop := linkCancel(ctx, cancel)
		res, err := inner.run(qctx, keyed, params, start)
		stop()
		if err != nil {
			cancel(nil)
			return nil, nil, err
		}
		return res, cancel, nil
	}
	res, cancel, err := run(ctx, start)
	if err != nil {
		return nil, err
	}
	cols := res.Columns()
	c := &cursor{sess: s, name: u.Name, cols: cols[:len(cols)-keyCols], res: res, cancel: cancel,
		rerun:  func(ctx context.Context) (wire.Result, context.CancelCauseFunc, error) { return run(ctx, time.Now()) },
		binary: u.Cursor.Binary, hold: u.Cursor.Hold, scroll: u.Cursor.Scroll, noScroll: u.Cursor.NoScroll, limit: s.workMem(), atStart: true,
		key: keyedCursor{table: table, keyCols: keyCols, locking: q.Locking != ""}, src: planner.ResultColumns(bound)}
	if err := c.charge(cursorCost + int64(len(st.parsed.Text))); err != nil {
		c.Close()
		return nil, err
	}
	if s.txStatus == 'I' {
		// WITH HOLD outside a block: its implicit transaction commits now.
		if err := c.materialize(ctx); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := s.ext.reg.Declare(u.Name, c); err != nil {
		c.Close()
		return nil, err
	}
	return tagResult("DECLARE CURSOR"), nil
}

// linkCancel makes ctx's cancellation (a statement's) cancel a longer-lived
// context too, until stop is called.
func linkCancel(ctx context.Context, cancel context.CancelCauseFunc) (stop func()) {
	unlink := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	return func() { unlink() }
}

// cursorsAtTransactionEnd is where cursors meet transactions: when a
// transaction block ends, its cursors close, except WITH HOLD ones when it
// commits, which read the rest of their query into memory now (before the
// transaction's writes are committed, as PostgreSQL materializes them in
// its pre-commit step). Cursors held since an earlier commit survive a
// rollback. Portals of the extended protocol close either way.
func (s *Session) cursorsAtTransactionEnd(ctx context.Context, commit bool) error {
	var firstErr error
	s.ext.reg.ClosePortals(func(wc wire.Cursor) bool {
		c, ok := wc.(*cursor)
		if !ok {
			return false
		}
		if c.held {
			return true
		}
		if !commit || !c.hold {
			return false
		}
		if err := c.materialize(ctx); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			return false
		}
		return true
	})
	return firstErr
}

// materialize reads the rest of the query into buf and releases it.
func (c *cursor) materialize(ctx context.Context) error {
	if c.res != nil {
		stop := linkCancel(ctx, c.cancel)
		defer stop()
		if !c.scroll {
			// Only the rows from the current one on are still reachable.
			c.trimTo(c.ep)
		}
		c.held = true
		for !c.done {
			if _, err := c.pull(ctx); err != nil {
				return err
			}
		}
	}
	c.held = true
	return nil
}

// trimTo drops the kept rows before position p.
func (c *cursor) trimTo(p int64) {
	if p > c.base && len(c.buf) > 0 {
		drop := min(p-c.base, int64(len(c.buf)))
		for _, row := range c.buf[:drop] {
			size := valuesSize(row)
			c.bytes -= size
			c.mem -= size
			c.sess.mem.Shrink(size)
		}
		clear(c.buf[:drop])
		c.buf = c.buf[drop:]
		c.base += drop
	}
}

// pull reads the next row of the query into buf; false at its end.
func (c *cursor) pull(ctx context.Context) (bool, error) {
	if c.done {
		return false, nil
	}
	row, ok, err := c.res.Next(ctx)
	if err != nil {
		return false, err
	}
	if !ok {
		c.done = true
		res := c.res
		c.res = nil
		c.cancel(nil)
		return false, res.Close()
	}
	c.read++
	kept := append([]sqltypes.Value(nil), row...)
	if c.scroll || c.held {
		size := valuesSize(kept)
		if err := c.charge(size); err != nil {
			return false, err
		}
		if len(c.buf) == 0 {
			c.base = c.read
		}
		c.buf = append(c.buf, kept)
		c.bytes += size
		if c.limit > 0 && c.bytes > c.limit {
			return false, pgerr.New(pgerr.OutOfMemory, "cursor \"%s\" holds more than zproxy.work_mem (%d bytes) of rows", c.name, c.limit).
				WithHint("Raise zproxy.work_mem, or declare the cursor without SCROLL and WITH HOLD.")
		}
	} else {
		c.buf = append(c.buf[:0], kept)
		c.base = c.read
	}
	return true, nil
}

// valuesSize estimates the memory of a kept row.
func valuesSize(row []sqltypes.Value) int64 {
	n := int64(24 + 48*len(row))
	for _, v := range row {
		n += int64(len(v.S))
	}
	return n
}

// rowAt returns row p (1-based) of the query, reading on to it.
func (c *cursor) rowAt(ctx context.Context, p int64) ([]sqltypes.Value, bool, error) {
	for c.read < p && !c.done {
		if _, err := c.pull(ctx); err != nil {
			return nil, false, err
		}
	}
	if p > c.read || p < 1 {
		return nil, false, nil
	}
	if p < c.base || p >= c.base+int64(len(c.buf)) {
		return nil, false, errForwardOnly()
	}
	return c.buf[p-c.base], true, nil
}

// step moves the query one row forward or back (ExecutorRun for one row).
func (c *cursor) step(ctx context.Context, forward bool) ([]sqltypes.Value, bool, error) {
	return c.stepKeyed(ctx, forward)
}

// stepRow is step over the query's rows as they come (with their keys).
func (c *cursor) stepRow(ctx context.Context, forward bool) ([]sqltypes.Value, bool, error) {
	if forward {
		row, ok, err := c.rowAt(ctx, c.ep+1)
		if err != nil {
			return nil, false, err
		}
		if ok {
			c.ep++
		} else {
			c.ep = c.read + 1
		}
		c.current = row
		return row, ok, nil
	}
	c.current = nil
	if c.ep <= 1 {
		c.ep = 0
		return nil, false, nil
	}
	row, ok, err := c.rowAt(ctx, c.ep-1)
	if err != nil || !ok {
		return nil, false, err
	}
	c.ep--
	c.current = row
	return row, true, nil
}

// fetchAll is FETCH_ALL's count.
const fetchAll = -1

// runSelect is PortalRunSelect: up to count rows (fetchAll: all) in one
// direction, each given to emit (nil for MOVE), with PostgreSQL's position
// bookkeeping. It returns how many rows it processed.
func (c *cursor) runSelect(ctx context.Context, forward bool, count int64, emit func([]sqltypes.Value)) (int64, error) {
	if !forward && !c.scroll {
		return 0, errForwardOnly()
	}
	var n int64
	moving := count != 0
	if forward && c.atEnd || !forward && c.atStart {
		moving, count = false, 0
	}
	if moving {
		for count == fetchAll || n < count {
			row, ok, err := c.step(ctx, forward)
			if err != nil {
				return n, err
			}
			if !ok {
				break
			}
			n++
			if emit != nil {
				emit(row)
			}
		}
	}
	if !moving {
		return 0, nil
	}
	if forward {
		if n > 0 {
			c.atStart = false
		}
		if count == fetchAll || n < count {
			c.atEnd = true
		}
		c.portalPos += n
		return n, nil
	}
	if n > 0 && c.atEnd {
		c.atEnd = false
		c.portalPos++
	}
	if count == fetchAll || n < count {
		c.atStart, c.portalPos = true, 0
	} else {
		c.portalPos -= n
	}
	return n, nil
}

// rewind is DoPortalRewind: a SCROLL cursor goes back to its kept rows'
// start; one without SCROLL (and not held) runs its query again.
func (c *cursor) rewind(ctx context.Context) error {
	if c.atStart && !c.atEnd {
		return nil
	}
	switch {
	case c.scroll:
	case c.noScroll:
		return errForwardOnly()
	case c.held:
		// Its rows are in buf from base on: all of them when it was
		// held before its first (WITH HOLD outside a block).
		if c.base > 1 {
			return errForwardOnly()
		}
	case c.rerun == nil:
		return errForwardOnly()
	default:
		if c.res != nil {
			res := c.res
			c.res = nil
			c.cancel(nil)
			if err := res.Close(); err != nil {
				return err
			}
		}
		res, cancel, err := c.rerun(ctx)
		if err != nil {
			return err
		}
		c.res, c.cancel = res, cancel
		c.buf, c.base, c.read, c.done = c.buf[:0], 0, 0, false
	}
	c.ep, c.portalPos, c.atStart, c.atEnd, c.current = 0, 0, true, false, nil
	c.key.cur = nil
	return nil
}

// fetch is DoPortalRunFetch: FETCH (emit non-nil) or MOVE (emit nil) in
// direction d. It returns the number the command tag reports.
func (c *cursor) fetch(ctx context.Context, d parser.FetchDirection, emit func([]sqltypes.Value)) (int64, error) {
	count := d.Count
	if d.All {
		count = fetchAll
	}
	forward := d.Kind == parser.FetchForward
	switch d.Kind {
	case parser.FetchAbsolute:
		switch {
		case count > 0:
			if count-1 <= c.portalPos/2 {
				if err := c.rewind(ctx); err != nil {
					return 0, err
				}
				if count > 1 {
					if _, err := c.runSelect(ctx, true, count-1, nil); err != nil {
						return 0, err
					}
				}
			} else {
				pos := c.portalPos
				if c.atEnd {
					pos++ // one extra fetch when off the end
				}
				var err error
				if count <= pos {
					_, err = c.runSelect(ctx, false, pos-count+1, nil)
				} else if count > pos+1 {
					_, err = c.runSelect(ctx, true, count-pos-1, nil)
				}
				if err != nil {
					return 0, err
				}
			}
			return c.runSelect(ctx, true, 1, emit)
		case count < 0:
			if _, err := c.runSelect(ctx, true, fetchAll, nil); err != nil {
				return 0, err
			}
			if count < -1 {
				if _, err := c.runSelect(ctx, false, -count-1, nil); err != nil {
					return 0, err
				}
			}
			return c.runSelect(ctx, false, 1, emit)
		default:
			if err := c.rewind(ctx); err != nil {
				return 0, err
			}
			return c.runSelect(ctx, true, 0, emit)
		}
	case parser.FetchRelative:
		switch {
		case count > 0:
			if count > 1 {
				if _, err := c.runSelect(ctx, true, count-1, nil); err != nil {
					return 0, err
				}
			}
			return c.runSelect(ctx, true, 1, emit)
		case count < 0:
			if count < -1 {
				if _, err := c.runSelect(ctx, false, -count-1, nil); err != nil {
					return 0, err
				}
			}
			return c.runSelect(ctx, false, 1, emit)
		}
		forward = true // RELATIVE 0 is FORWARD 0
	}
	if count == 0 {
		// Zero rows re-fetch the current one, if the cursor is on one.
		onRow := !c.atStart && !c.atEnd
		if emit == nil {
			if onRow {
				return 1, nil
			}
			return 0, nil
		}
		if onRow {
			if _, err := c.runSelect(ctx, false, 1, nil); err != nil {
				return 0, err
			}
			count, forward = 1, true
		}
	}
	if !forward && count == fetchAll && emit == nil {
		// MOVE BACKWARD ALL is a rewind.
		n := c.portalPos
		if n > 0 && !c.atEnd {
			n--
		}
		return n, c.rewind(ctx)
	}
	return c.runSelect(ctx, forward, count, emit)
}

// fetch runs FETCH and MOVE. A FETCH forward streams its rows as the
// client reads them; other directions are collected first (they only
// reach rows a SCROLL cursor holds anyway).
func (s *Session) fetch(ctx context.Context, u *parser.UtilityStatement) (wire.Result, error) {
	// A portal of the extended protocol becomes a cursor without SCROLL.
	wc, err := s.ext.reg.Fetchable(u.Name, func(rows wire.Result, cancel context.CancelCauseFunc) wire.Cursor {
		return &cursor{sess: s, name: u.Name, cols: rows.Columns(), res: rows, cancel: cancel, limit: s.workMem(), atStart: true}
	})
	// (A portal turned cursor is charged for the rows it keeps only: the
	// protocol's portals are not charged.)
	if err != nil {
		return nil, err
	}
	c, ok := wc.(*cursor)
	if !ok {
		return nil, pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", u.Name)
	}
	if u.Kind == "move" {
		n, err := c.withStatement(ctx, func() (int64, error) { return c.fetch(ctx, u.Fetch, nil) })
		if err != nil {
			return nil, err
		}
		return tagResult(fmt.Sprintf("MOVE %d", n)), nil
	}
	d := u.Fetch
	if d.Kind == parser.FetchForward && (d.All || d.Count > 0) {
		count := d.Count
		if d.All {
			count = fetchAll
		}
		return &fetchResult{c: c, count: count, tag: "FETCH"}, nil
	}
	var rows [][]sqltypes.Value
	_, err = c.withStatement(ctx, func() (int64, error) {
		return c.fetch(ctx, d, func(r []sqltypes.Value) { rows = append(rows, r) })
	})
	if err != nil {
		return nil, err
	}
	res := staticResult(c.cols, rows, fmt.Sprintf("FETCH %d", len(rows)))
	return &binaryMem{memResult: res, binary: c.binary}, nil
}

// withStatement runs f with the statement's cancellation reaching the
// cursor's query.
func (c *cursor) withStatement(ctx context.Context, f func() (int64, error)) (int64, error) {
	if c.res != nil {
		stop := linkCancel(ctx, c.cancel)
		defer stop()
	}
	return f()
}

// fetchResult streams a FETCH FORWARD: PortalRunSelect forward, one row per
// Next, with its bookkeeping done as the rows go.
type fetchResult struct {
	c     *cursor
	count int64 // fetchAll or the rows still wanted
	n     int64
	tag   string
	ended bool
	stop  func()
}

func (f *fetchResult) Columns() []wire.Column { return f.c.cols }

func (f *fetchResult) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	c := f.c
	if f.ended {
		return nil, false, nil
	}
	if f.n == 0 && f.stop == nil && c.res != nil {
		f.stop = linkCancel(ctx, c.cancel)
	}
	if c.atEnd || f.count != fetchAll && f.n >= f.count {
		f.end(false)
		return nil, false, nil
	}
	row, ok, err := c.step(ctx, true)
	if err != nil {
		f.end(false)
		return nil, false, err
	}
	if !ok {
		f.end(true)
		return nil, false, nil
	}
	f.n++
	c.atStart = false
	c.portalPos++
	return row, true, nil
}

// end finishes the fetch; ranOut says the query ended before the count.
func (f *fetchResult) end(ranOut bool) {
	if !f.ended {
		f.ended = true
		if ranOut {
			f.c.atEnd = true
		}
		if f.stop != nil {
			f.stop()
		}
	}
}

func (f *fetchResult) Tag() string { return fmt.Sprintf("%s %d", f.tag, f.n) }

func (f *fetchResult) Close() error {
	f.end(false)
	return nil
}

// Binary tells wire to send a FETCH of a BINARY cursor in binary format.
func (f *fetchResult) Binary() bool { return f.c.binary }

// binaryMem is a collected FETCH of a cursor that may be BINARY.
type binaryMem struct {
	*memResult
	binary bool
}

// Binary tells wire to send the rows in binary format.
func (b *binaryMem) Binary() bool { return b.binary }

// Columns implements wire.Result.
func (c *cursor) Columns() []wire.Column { return c.cols }

// Next implements wire.Result for an Execute of the cursor's portal: the
// next row forward, as FETCH FORWARD 1 would.
func (c *cursor) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	var out []sqltypes.Value
	n, err := c.withStatement(ctx, func() (int64, error) {
		return c.runSelect(ctx, true, 1, func(r []sqltypes.Value) { out = r })
	})
	return out, n == 1, err
}

// Tag implements wire.Result (wire tags a cursor's Execute itself).
func (c *cursor) Tag() string { return "SELECT" }

// Close implements wire.Result: the query stops and the kept rows go.
func (c *cursor) Close() error {
	var err error
	if c.res != nil {
		err = c.res.Close()
		c.res = nil
	}
	if c.cancel != nil {
		c.cancel(nil)
	}
	c.buf = nil
	c.sess.mem.Shrink(c.mem)
	c.mem, c.bytes = 0, 0
	return err
}

// cursorCost is what an open cursor is charged besides its kept rows and
// its text: its query's open operators and store iterators.
const cursorCost = 16 << 10

// charge takes n bytes for the cursor from the session's account.
func (c *cursor) charge(n int64) error {
	if err := c.sess.mem.Grow(n, fmt.Sprintf("cursor \"%s\"", c.name)); err != nil {
		return err
	}
	c.mem += n
	return nil
}

// Binary implements wire.Cursor.
func (c *cursor) Binary() bool { return c.binary }

// Holdable implements wire.Cursor.
func (c *cursor) Holdable() bool { return c.hold }
