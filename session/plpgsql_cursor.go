package session

import (
	"context"
	"fmt"

	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
)

// PL/pgSQL cursors and transaction control.
//
// A cursor a body opens is a portal of the session (a *cursor in the
// registry, as DECLARE makes), named by its refcursor variable's value or,
// when that is NULL, "<unnamed portal N>" as PostgreSQL's SPI names it:
// FETCH, MOVE and CLOSE find it by that name, and a function returning the
// refcursor hands it to its caller, who may FETCH from it in SQL until the
// transaction ends. Its query runs in the transaction of the statement
// that opened it, under the session's context (it outlives the statement).
//
// COMMIT and ROLLBACK end the transaction of a CALL or DO run outside a
// transaction block (its own, runInTransaction) and begin the next one,
// as PostgreSQL's non-atomic procedure execution does.

// refcursorType is refcursor.
var refcursorType = sqltypes.Type{ID: sqltypes.RefCursor}

// plCursor is a bound cursor's declaration, kept on its variable.
type plCursor struct {
	args   []*plVar // its parameters (types; values at OPEN)
	query  string
	scroll int
}

// cursorVar finds a cursor variable (42804 for a variable of another
// type).
func (x *plExec) cursorVar(name string) (*plVar, error) {
	v, field := x.lookup(name)
	if v == nil || field != "" {
		return nil, pgerr.New(pgerr.SyntaxError, "\"%s\" is not a known variable", name)
	}
	if v.record || v.typ.ID != sqltypes.RefCursor {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "variable \"%s\" must be of type cursor or refcursor", name)
	}
	return v, nil
}

// portalOf is the cursor a cursor variable names (22004 when it is NULL,
// 34000 when no cursor has its name).
func (x *plExec) portalOf(v *plVar) (*cursor, error) {
	if v.val.IsNull() {
		return nil, pgerr.New(pgerr.NullValueNotAllowed, "cursor variable \"%s\" is null", v.name)
	}
	wc, err := x.r.st.sess.ext.reg.Cursor(v.val.S)
	if err != nil {
		return nil, err
	}
	c, ok := wc.(*cursor)
	if !ok {
		return nil, pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", v.val.S)
	}
	return c, nil
}

// unnamedPortal is the next "<unnamed portal N>" of the session: every
// cursor PostgreSQL's SPI opens without a name (OPEN of a NULL refcursor,
// a FOR loop over a query) takes a number.
func (x *plExec) unnamedPortal() string {
	c := &x.r.st.sess.bodies
	c.mu.Lock()
	defer c.mu.Unlock()
	c.portals++
	return fmt.Sprintf("<unnamed portal %d>", c.portals)
}

// open runs OPEN.
func (x *plExec) open(s *parser.PLOpen) error {
	v, err := x.cursorVar(s.Cursor)
	if err != nil {
		return err
	}
	scroll := s.Scroll
	var st ir.Statement
	var params []sqltypes.Value
	switch {
	case v.cursor != nil:
		if s.Query != "" || s.Execute != "" {
			return pgerr.New(pgerr.SyntaxError, "cursor \"%s\" is already bound to a query", v.name)
		}
		if st, params, err = x.bindCursor(v, s.Args); err != nil {
			return err
		}
		scroll = v.cursor.scroll
	case len(s.Args.Exprs) > 0:
		return pgerr.New(pgerr.SyntaxError, "cursor \"%s\" has no arguments", v.name)
	case s.Query != "":
		if st, params, err = x.bind(s.Query); err != nil {
			return err
		}
	case s.Execute != "":
		sql, using, err := x.dynamicQuery(s.Execute, s.Using)
		if err != nil {
			return err
		}
		if st, err = x.bindDynamic(sql, using); err != nil {
			return err
		}
		params = using
	default:
		return pgerr.New(pgerr.SyntaxError, "syntax error at or near \";\"")
	}
	name := ""
	if v.val.IsNull() {
		name = x.unnamedPortal()
	} else {
		name = v.val.S
	}
	if _, err := x.r.st.sess.ext.reg.Cursor(name); err == nil {
		return pgerr.New(pgerr.DuplicateCursor, "cursor \"%s\" already in use", name)
	}
	// Without SCROLL a cursor only goes forward and keeps no rows, as a
	// DECLAREd one (PostgreSQL lets most plans go back without it).
	if _, err := x.openPortal(name, st, params, scroll > 0); err != nil {
		return err
	}
	v.val = sqltypes.NewText(name)
	return nil
}

// bindCursor binds a bound cursor's query with its arguments, which are
// variables of the query's scope.
func (x *plExec) bindCursor(v *plVar, a parser.PLArgs) (ir.Statement, []sqltypes.Value, error) {
	c := v.cursor
	if len(c.args) == 0 && len(a.Exprs) > 0 {
		return nil, nil, pgerr.New(pgerr.SyntaxError, "cursor \"%s\" has no arguments", v.name)
	}
	if len(c.args) > 0 && len(a.Exprs) == 0 {
		return nil, nil, pgerr.New(pgerr.SyntaxError, "cursor \"%s\" has arguments", v.name)
	}
	vals := make([]sqltypes.Value, len(c.args))
	set := make([]bool, len(c.args))
	pos := 0
	for i, e := range a.Exprs {
		j := pos
		if name := a.Names[i]; name != "" {
			j = -1
			for k, p := range c.args {
				if p.name == name {
					j = k
				}
			}
			if j < 0 {
				return nil, nil, pgerr.New(pgerr.SyntaxError, "cursor \"%s\" has no argument named \"%s\"", v.name, name)
			}
		} else {
			pos++
		}
		if j >= len(c.args) {
			return nil, nil, pgerr.New(pgerr.SyntaxError, "too many arguments for cursor \"%s\"", v.name)
		}
		if set[j] {
			return nil, nil, pgerr.New(pgerr.SyntaxError, "value for parameter \"%s\" of cursor \"%s\" specified more than once", c.args[j].name, v.name)
		}
		val, t, err := x.eval(e)
		if err != nil {
			return nil, nil, err
		}
		if vals[j], err = x.convert(val, t, c.args[j].typ); err != nil {
			return nil, nil, err
		}
		set[j] = true
	}
	for j, ok := range set {
		if !ok {
			return nil, nil, pgerr.New(pgerr.SyntaxError, "not enough arguments for cursor \"%s\"", v.name)
		}
		_ = j
	}
	scope := make([]*plVar, len(c.args))
	for i, p := range c.args {
		arg := *p
		arg.val = vals[i]
		scope[i] = &arg
	}
	x.scope = append(x.scope, scope)
	defer func() { x.scope = x.scope[:len(x.scope)-1] }()
	return x.bind(c.query)
}

// openPortal starts a query as the cursor name, in the statement's
// transaction, and registers it as a portal of the session.
func (x *plExec) openPortal(name string, st ir.Statement, params []sqltypes.Value, scroll bool) (*cursor, error) {
	r := x.r
	s := r.st.sess
	e := s.engine
	q, ok := st.(*ir.Query)
	if !ok {
		return nil, pgerr.New(pgerr.InvalidCursorDefinition, "cannot open %s query as cursor", commandTag(st, st.Describe()))
	}
	if err := s.checkPrivileges(r.ctx, st); err != nil {
		return nil, err
	}
	if err := ir.PlanErr(q.Plan); err != nil {
		return nil, err
	}
	plan, err := optimizer.Optimize(st, params, x.opts)
	if err != nil {
		return nil, err
	}
	qctx, cancel := context.WithCancelCause(s.ext.ctx)
	stop := linkCancel(r.ctx, cancel)
	// The query outlives the statement: what its functions see of the
	// statement (cancellation, sequences, the catalog, the routines they
	// call) is the cursor's context, as for DECLARE.
	fn := x.opts.Fn
	fn.Cancel = qctx
	fn.Sequences = &sessionSequences{s: s, ctx: qctx}
	fn.Catalog = r.st.catalogEnv(qctx)
	rr := &routineRunner{st: r.st, ctx: qctx, txn: r.txn, opts: r.opts, snap: r.snap, style: r.style}
	fn.Routines = rr
	rr.opts.Fn = fn
	it, err := e.exec.Run(qctx, plan, params, executor.RunOptions{WorkMem: s.workMem(), TempFileLimit: s.tempFileLimit(), Fn: fn, Txn: r.txn})
	stop()
	if err != nil {
		cancel(nil)
		return nil, storeErr(err)
	}
	cols := wireColumns(planner.ResultColumns(st))
	res := &rowsResult{cols: cols, rows: it, visible: len(cols)}
	c := &cursor{sess: s, name: name, cols: cols, res: res, cancel: cancel, scroll: scroll, limit: s.workMem(), atStart: true,
		src: planner.ResultColumns(st)}
	if err := c.charge(cursorCost); err != nil {
		c.Close()
		return nil, err
	}
	if err := s.ext.reg.Declare(name, c); err != nil {
		c.Close()
		return nil, err
	}
	if r.txn == nil {
		// No transaction holds it (a stable function called outside
		// any): it ends with the call.
		x.orphans = append(x.orphans, name)
	}
	return c, nil
}

// fetch runs FETCH and MOVE.
func (x *plExec) fetch(s *parser.PLFetch) error {
	v, err := x.cursorVar(s.Cursor)
	if err != nil {
		return err
	}
	c, err := x.portalOf(v)
	if err != nil {
		return err
	}
	d := parser.FetchDirection{Kind: s.Kind, Count: 1, All: s.All}
	if s.Count != "" {
		n, err := x.evalInt(s.Count, "")
		if err != nil {
			return err
		}
		d.Count = n
	}
	if !d.All && d.Count < 0 && (d.Kind == parser.FetchForward || d.Kind == parser.FetchBackward) {
		d.Count = -d.Count
		if d.Kind == parser.FetchForward {
			d.Kind = parser.FetchBackward
		} else {
			d.Kind = parser.FetchForward
		}
	}
	ctx := x.r.ctx
	var row []sqltypes.Value
	var emit func([]sqltypes.Value)
	if !s.Move {
		emit = func(r []sqltypes.Value) { row = append([]sqltypes.Value(nil), r...) }
	}
	n, err := c.withStatement(ctx, func() (int64, error) { return c.fetch(ctx, d, emit) })
	if err != nil {
		return err
	}
	x.found, x.rowCount = n > 0, n
	if s.Move {
		return nil
	}
	return x.assignRow(s.Into, row, cursorColumns(c))
}

// cursorColumns are a cursor's columns as the interpreter's.
func cursorColumns(c *cursor) []ir.Column {
	cols := make([]ir.Column, len(c.cols))
	for i, wc := range c.cols {
		cols[i] = ir.Column{Name: wc.Name, Type: wc.Type}
	}
	return cols
}

// closeCursor runs CLOSE.
func (x *plExec) closeCursor(s *parser.PLClose) error {
	v, err := x.cursorVar(s.Cursor)
	if err != nil {
		return err
	}
	c, err := x.portalOf(v)
	if err != nil {
		return err
	}
	for _, p := range x.pinned {
		if p == c {
			return pgerr.New(pgerr.InvalidCursorState, "cannot drop pinned portal \"%s\"", c.name)
		}
	}
	return x.r.st.sess.ext.reg.ClosePortal(v.val.S)
}

// cursorLoop runs FOR rec IN cursor [(args)] LOOP: the bound cursor opens,
// rec (a record of the loop) takes each row, and the cursor closes when
// the loop ends however it ends.
func (x *plExec) cursorLoop(s *parser.PLLoop, body func() (bool, error)) error {
	v, err := x.cursorVar(s.Cursor)
	if err != nil {
		return err
	}
	if v.cursor == nil {
		return pgerr.New(pgerr.SyntaxError, "cursor FOR loop must use a bound cursor variable")
	}
	if !v.val.IsNull() {
		if _, err := x.r.st.sess.ext.reg.Cursor(v.val.S); err == nil {
			return pgerr.New(pgerr.DuplicateCursor, "cursor \"%s\" already in use", v.val.S)
		}
	}
	st, params, err := x.bindCursor(v, s.Args)
	if err != nil {
		return err
	}
	name := ""
	if v.val.IsNull() {
		name = x.unnamedPortal()
	} else {
		name = v.val.S
	}
	c, err := x.openPortal(name, st, params, v.cursor.scroll > 0)
	if err != nil {
		return err
	}
	v.val = sqltypes.NewText(name)
	// The loop's cursor outlives a COMMIT in the loop (PostgreSQL's
	// pinned portals are made holdable then).
	x.pinned = append(x.pinned, c)
	defer func() {
		x.pinned = x.pinned[:len(x.pinned)-1]
		if wc, err := x.r.st.sess.ext.reg.Cursor(name); err == nil && wc == c {
			_ = x.r.st.sess.ext.reg.ClosePortal(name)
		}
	}()
	rec := &plVar{name: s.Vars[0], label: s.Label, record: true}
	x.scope = append(x.scope, []*plVar{rec})
	defer func() { x.scope = x.scope[:len(x.scope)-1] }()
	cols := cursorColumns(c)
	ctx := x.r.ctx
	found := false
	for {
		if wc, err := x.r.st.sess.ext.reg.Cursor(name); err != nil || wc != c {
			// The body closed it.
			return pgerr.New(pgerr.InvalidCursorName, "cursor \"%s\" does not exist", name)
		}
		var row []sqltypes.Value
		n, err := c.withStatement(ctx, func() (int64, error) {
			return c.fetch(ctx, parser.FetchDirection{Kind: parser.FetchForward, Count: 1}, func(r []sqltypes.Value) {
				row = append([]sqltypes.Value(nil), r...)
			})
		})
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		found = true
		rec.cols, rec.row = cols, row
		done, err := body()
		if done || err != nil {
			x.found = true
			return err
		}
	}
	x.found = found
	return nil
}

// transactionControl runs COMMIT and ROLLBACK [AND CHAIN]: allowed only in
// a CALL or DO that runs outside a transaction block (and, through CALLs,
// in the procedures it calls), not under an exception block.
func (x *plExec) transactionControl(s *parser.PLCommit) error {
	if !x.nonAtomic {
		return pgerr.New(pgerr.InvalidTransactionTermination, "invalid transaction termination")
	}
	if x.r.subxacts.Load() > 0 {
		if s.Rollback {
			return pgerr.New(pgerr.InvalidTransactionTermination, "cannot roll back while a subtransaction is active")
		}
		return pgerr.New(pgerr.InvalidTransactionTermination, "cannot commit while a subtransaction is active")
	}
	// The running cursor FOR loops' cursors are read to their end in
	// this transaction and go on in the next (PostgreSQL's
	// HoldPinnedPortals, at a ROLLBACK too).
	for _, c := range x.pinned {
		if err := c.materialize(x.r.ctx); err != nil {
			return err
		}
	}
	return x.r.endAndBegin(!s.Rollback, s.Chain)
}

// endAndBegin ends the runner's transaction (the session's implicit block
// of a CALL or DO) and begins the next, in which the routine goes on.
func (r *routineRunner) endAndBegin(commit, chain bool) error {
	s := r.st.sess
	modes := map[string]string{}
	for _, v := range []string{"transaction_read_only", "transaction_isolation", "transaction_deferrable"} {
		modes[v] = s.vars[v]
	}
	r.st.ownTxnEnded = true
	_, err := s.endTransaction(r.ctx, commit)
	s.BeginImplicit()
	if chain {
		for v, val := range modes {
			s.putVar(v, val)
		}
	}
	if err != nil {
		return err
	}
	txn, err := s.blockTxn(r.ctx)
	if err != nil {
		return storeErr(err)
	}
	snap, err := s.snapshot(r.ctx)
	if err != nil {
		return storeErr(err)
	}
	r.txn, r.snap = txn, snap
	return nil
}

// call runs CALL in a body: the procedure runs (non-atomic when this body
// is, so its COMMIT ends the transaction too), and its OUT and INOUT
// parameters' values go to the variables given as their arguments.
func (x *plExec) call(c *ir.Call, params []sqltypes.Value, vars []planner.Variable) error {
	ec := &ir.EvalContext{Params: params, Fn: x.opts.Fn}
	args := make([]sqltypes.Value, len(c.Args))
	for i, a := range c.Args {
		v, err := a.Eval(ec, nil)
		if err != nil {
			return err
		}
		args[i] = v
	}
	fc := x.opts.Fn
	x.r.callNonAtomic.Store(x.nonAtomic)
	rows, err := x.r.CallRoutine(&fc, c.Routine, args)
	x.r.callNonAtomic.Store(false)
	if err != nil || len(c.Cols) == 0 {
		return err
	}
	row, ok, err := rows.Next()
	if err != nil || !ok {
		return err
	}
	k := 0
	for i, p := range c.Routine.Params {
		if !p.IsOutput() {
			continue
		}
		var target *ir.Param
		if i < len(c.Args) {
			e := c.Args[i]
			if cast, ok := e.(*ir.Cast); ok {
				e = cast.E
			}
			target, _ = e.(*ir.Param)
		}
		if target == nil || target.N < 2 || target.N > len(vars) {
			return pgerr.New(pgerr.SyntaxError, "procedure parameter \"%s\" is an output parameter but corresponding argument is not writable", p.Name)
		}
		tv := vars[target.N-1]
		name := tv.Name
		if tv.Qualifier != "" {
			name = tv.Qualifier + "." + tv.Name
		}
		v, field := x.lookup(name)
		if v == nil {
			return pgerr.New(pgerr.SyntaxError, "\"%s\" is not a known variable", name)
		}
		if k < len(row) {
			if err := x.assign(v, field, row[k], c.Cols[k].Type); err != nil {
				return err
			}
		}
		k++
	}
	return nil
}
