package session

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/wire"
)

func init() {
	runs((*statement).runTriggerChange)
	runs((*statement).runRoutineChange)
	runs((*statement).runCall)
	runs((*statement).runDo)
}

// runDo runs a DO block: its PL/pgSQL body, in the statement's
// transaction.
func (st *statement) runDo(ctx context.Context, x *ir.Do, env *runEnv) (wire.Result, error) {
	if _, err := builtins.RoutineCall(&env.opts.Fn, x, nil); err != nil {
		return nil, err
	}
	return tagResult("DO"), nil
}

// runRoutineChange runs CREATE, ALTER and DROP FUNCTION and PROCEDURE. A
// new SQL routine's body is checked first unless check_function_bodies
// is off (pg_dump turns it off before its functions, which may name
// objects created after them).
func (st *statement) runRoutineChange(ctx context.Context, x *ir.RoutineChange, env *runEnv) (wire.Result, error) {
	s := st.sess
	snap, err := s.snapshot(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	if len(x.Options.Config) > 0 {
		// The SET clauses are checked as SET would check them, by the
		// session's rights, and kept under PostgreSQL's spelling of the
		// names (proconfig).
		config, err := s.checkRoutineConfig(x.Options.Config)
		if err != nil {
			return nil, err
		}
		c := *x.RoutineStatement
		c.Options.Config = config
		y := *x
		y.RoutineStatement = &c
		x = &y
	}
	if x.Action == parser.RoutineOwner {
		c := *x.RoutineStatement
		c.NewName = s.ownerRole(c.NewName)
		y := *x
		y.RoutineStatement = &c
		x = &y
		if err := s.checkNewOwner(snap, c.NewName); err != nil {
			return nil, err
		}
	}
	if x.Action == parser.RoutineGrant {
		c := *x.RoutineStatement
		c.Grantees = make([]string, len(x.Grantees))
		for i, g := range x.Grantees {
			c.Grantees[i] = g
			if g != catalog.PublicRole {
				c.Grantees[i] = s.ownerRole(g)
			}
		}
		y := *x
		y.RoutineStatement = &c
		x = &y
	}
	if x.Action == parser.RoutineCreate && x.Operator == nil && x.Cast == nil && s.varValue("check_function_bodies") != "off" {
		fn := x.Function(s.currentUser())
		// Under the routine's own search path, as it will run.
		if err := planner.CheckRoutineBody(s.scopeOf(snap, fn, s.currentUser()).snap, fn, s.bindStyle()); err != nil {
			return nil, x.TransposeBodyError(err)
		}
	}
	cat, err := s.routineCatalog(ctx, x)
	if err != nil {
		return nil, err
	}
	who := executor.RoutineActor{User: s.currentUser(), Super: s.isSuperuser(snap)}
	created := cat == s.temp.cat && x.Action == parser.RoutineCreate && s.txStatus != 'I'
	var before *catalog.Snapshot
	if created {
		if before, err = cat.Snapshot(ctx); err != nil {
			return nil, storeErr(err)
		}
	}
	if x.Action == parser.RoutineDrop && cat == s.temp.cat && cat != nil {
		if err := s.dropTempRoutineDependents(ctx, x); err != nil {
			return nil, err
		}
	}
	if err := s.engine.exec.ChangeRoutine(ctx, cat, x, who, s.notice); err != nil {
		return nil, storeErr(err)
	}
	if created {
		// A new routine of pg_temp goes at ROLLBACK, as a temporary
		// table does (the temporary catalog is outside the block).
		after, err := cat.Snapshot(ctx)
		if err != nil {
			return nil, storeErr(err)
		}
		for _, f := range after.FunctionsByKey(x.Refs[0].Name) {
			if _, ok := before.FunctionByOID(f.OID); !ok {
				s.temp.created = append(s.temp.created, tempObject{name: f.Name, fn: f.OID})
			}
		}
	}
	return tagResult(x.Describe().Tag), nil
}

// routineCatalog is the catalog a routine statement changes: the
// session's temporary one for routines of pg_temp (CREATE FUNCTION
// pg_temp.f makes a routine of the session, as a temporary table is),
// else the permanent one.
func (s *Session) routineCatalog(ctx context.Context, x *ir.RoutineChange) (*catalog.Catalog, error) {
	if x.Operator != nil || x.Cast != nil {
		return s.permCatalog(ctx)
	}
	temp := 0
	for _, r := range x.Refs {
		if isTempRoutine(r.Name) {
			temp++
		}
	}
	if x.SetSchema && (temp > 0 || isTempRoutine(x.NewName) || x.NewName == "pg_temp" || strings.HasPrefix(x.NewName, "pg_temp_")) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of temporary schemas")
	}
	switch {
	case temp == 0:
		return s.permCatalog(ctx)
	case temp < len(x.Refs):
		return nil, pgerr.New(pgerr.FeatureNotSupported, "a statement naming both temporary and permanent routines is not supported").
			WithHint("Drop them with one statement each.")
	case x.Action == parser.RoutineCreate:
		return s.tempCatalog(ctx)
	case s.temp.cat != nil:
		return s.temp.cat, s.tempChangeAllowed()
	}
	return s.permCatalog(ctx) // the session has none: the statement finds no routine
}

// isTempRoutine reports whether a routine's key names one in pg_temp.
func isTempRoutine(key string) bool {
	sc, _ := catalog.SplitName(key)
	return sc == "pg_temp"
}

// runTriggerChange runs CREATE, DROP and ALTER TRIGGER and ALTER TABLE
// ... ENABLE | DISABLE TRIGGER.
func (st *statement) runTriggerChange(ctx context.Context, x *ir.TriggerChange, env *runEnv) (wire.Result, error) {
	s := st.sess
	cat, err := s.catalogFor(ctx, x.Table) // a temporary table's are in the session's
	if err != nil {
		return nil, err
	}
	if f := x.Function; f != nil && isTempRoutine(f.Name) && cat != s.temp.cat {
		// PostgreSQL drops such a trigger with the session's schema; a
		// permanent table's triggers are the store's, which other
		// sessions and proxies fire.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "a trigger on a permanent table cannot execute function %s of the session's temporary schema", f.Name).
			WithHint("Create the function in a permanent schema, or the table as a temporary one.")
	}
	if err := s.engine.exec.ChangeTrigger(ctx, cat, x, s.notice); err != nil {
		return nil, storeErr(err)
	}
	return tagResult(x.Describe().Tag), nil
}

// runCall runs CALL: the arguments are computed, the procedure's body
// runs in the statement's transaction, and its OUT and INOUT parameters'
// values come back as one row.
func (st *statement) runCall(ctx context.Context, x *ir.Call, env *runEnv) (wire.Result, error) {
	ec := &ir.EvalContext{Params: env.params, Fn: env.opts.Fn}
	args := make([]sqltypes.Value, len(x.Args))
	for i, a := range x.Args {
		v, err := a.Eval(ec, nil)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	rows, err := builtins.RoutineCall(&env.opts.Fn, x.Routine, args)
	if err != nil {
		return nil, err
	}
	res := &memResult{tag: "CALL"}
	if len(x.Cols) > 0 {
		res.cols = wireColumns(x.Cols) // no columns: no RowDescription, as PostgreSQL sends none
	}
	if len(x.Cols) > 0 {
		row, ok, err := rows.Next()
		if err != nil {
			return nil, err
		}
		if ok {
			res.rows = [][]sqltypes.Value{append([]sqltypes.Value(nil), row...)}
		}
	}
	return res, nil
}

// routineBodies caches the bound statements of routines' bodies, for one
// catalog snapshot (a routine's descriptor is the snapshot's): a body
// binds once per catalog version, not once per call.
type routineBodies struct {
	mu     sync.Mutex
	snap   *catalog.Snapshot
	bodies map[routineBodyKey][]ir.Statement
	// pl are parsed PL/pgSQL bodies, by text; plans the bound statements
	// of PL/pgSQL bodies (plpgsql.go).
	pl    map[string]*parser.PLBlock
	plans map[plPlanKey]*plBound
	// plByFn are the parsed blocks of the snapshot's PL/pgSQL routines,
	// by descriptor (plBlock).
	plByFn map[*catalog.Function]*parser.PLBlock
	// portals numbers the session's unnamed PL/pgSQL cursors
	// ("<unnamed portal N>"): it survives snapshots.
	portals int
}

// routineBodyKey identifies a routine's bound body: the routine, and the
// search path it binds under when it has its own (routineScope.pathKey).
type routineBodyKey struct {
	fn   *catalog.Function
	path string
	// style is what the body was bound under: a routine's SET DateStyle
	// binds it under another style than its callers'.
	style sqltypes.Style
}

// routineBody returns fn's statements bound in its scope over snap.
func (s *Session) routineBody(snap *catalog.Snapshot, sc routineScope, fn *catalog.Function, style sqltypes.Style) ([]ir.Statement, error) {
	c := &s.bodies
	key := routineBodyKey{fn, sc.pathKey, style}
	c.mu.Lock()
	if c.snap != snap {
		c.snap, c.bodies, c.plans, c.plByFn = snap, map[routineBodyKey][]ir.Statement{}, nil, nil
	}
	if b, ok := c.bodies[key]; ok {
		c.mu.Unlock()
		return b, nil
	}
	c.mu.Unlock()
	stmts, err := planner.ParseRoutineBody(fn)
	if err != nil {
		return nil, err
	}
	out := make([]ir.Statement, len(stmts))
	for i := range stmts {
		if out[i], err = planner.BindRoutineStatement(sc.snap, fn, &stmts[i], style); err != nil {
			return nil, err
		}
	}
	if len(out) > 0 || fn.Result.ID == sqltypes.Void || fn.Procedure() {
		if err := planner.CheckRoutineResult(fn, last(out)); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	if c.snap == snap {
		c.bodies[key] = out
	}
	c.mu.Unlock()
	return out, nil
}

func last(sts []ir.Statement) ir.Statement {
	if len(sts) == 0 {
		return nil
	}
	return sts[len(sts)-1]
}

// routineRunner runs the user-defined routines one statement calls
// (builtins.Routines): each body statement is planned with the call's
// arguments as its parameters and run in the statement's transaction.
// Calls may come from several of the statement's goroutines at once.
type routineRunner struct {
	st    *statement
	ctx   context.Context
	txn   *executor.Txn
	opts  optimizer.Options
	snap  *catalog.Snapshot
	style sqltypes.Style
	// gate counts the holds of the executor's write gate in this
	// statement: a body's write takes it unless the statement (a write)
	// or an enclosing body's write holds it already.
	gate atomic.Int32
	// nonAtomic: the statement is a CALL or DO in a transaction of its
	// own (runInTransaction), which its body may COMMIT or ROLLBACK.
	nonAtomic bool
	// subxacts counts the PL/pgSQL exception blocks running (their
	// savepoints forbid COMMIT and ROLLBACK).
	// (Atomic: a statement's functions may run on several goroutines.)
	subxacts atomic.Int32
	// callNonAtomic: the routine being called is a non-atomic body's CALL.
	callNonAtomic atomic.Bool
	// firingDeferred: the runner fires deferred triggers, at COMMIT or SET
	// CONSTRAINTS, where no utility statement may change the schema the
	// commit is checking (plExec.utility).
	firingDeferred bool
	// ddl counts the utility statements bodies ran (plpgsql_utility.go):
	// an exception block that rolls one back takes a new snapshot.
	ddl atomic.Int64
	// utilityMu makes the bodies' utility statements run one at a time.
	utilityMu sync.Mutex
}

// routinesFor makes the runner of the routines the statement calls.
func (st *statement) routinesFor(ctx context.Context, bound ir.Statement, txn *executor.Txn, opts optimizer.Options) *routineRunner {
	return st.routinesInto(&routineRunner{}, ctx, bound, txn, opts)
}

// routinesInto is routinesFor making the runner in r, a new one.
func (st *statement) routinesInto(r *routineRunner, ctx context.Context, bound ir.Statement, txn *executor.Txn, opts optimizer.Options) *routineRunner {
	r.st, r.ctx, r.txn, r.opts, r.snap, r.style = st, ctx, txn, opts, st.boundSnap, st.sess.bindStyle()
	switch bound.(type) {
	case *ir.Insert, *ir.Update, *ir.Delete, *ir.Merge:
		r.gate.Store(1) // st.write holds the gate while the statement runs
	case *ir.Call, *ir.Do:
		r.nonAtomic = st.ownTxn
	}
	return r
}

// CallRoutine implements builtins.Routines.
func (r *routineRunner) CallRoutine(fc *builtins.Context, routine any, args []sqltypes.Value) (builtins.SetRows, error) {
	if call, ok := routine.(*executor.TriggerCall); ok {
		if call.Ctx != nil {
			r = r.deferred(call.Ctx)
		}
		if fc.RoutineDepth >= builtins.MaxRoutineDepth {
			return nil, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
				WithHint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), after ensuring the platform's stack depth limit is adequate.")
		}
		if r.snap == nil {
			snap, err := r.st.sess.snapshot(r.ctx)
			if err != nil {
				return nil, storeErr(err)
			}
			r.snap = snap
		}
		return r.runTrigger(fc, call)
	}
	if do, ok := routine.(*ir.Do); ok {
		if r.snap == nil {
			snap, err := r.st.sess.snapshot(r.ctx)
			if err != nil {
				return nil, storeErr(err)
			}
			r.snap = snap
		}
		return r.runPLpgSQL(fc, nil, do.Body, nil)
	}
	fn := routine.(*catalog.Function)
	if fn.Definer {
		// A SECURITY DEFINER routine runs as its owner: current_user and
		// every privilege check in its body are the owner's, and the
		// caller's come back when it returns (fc is the caller's).
		def := *fc
		def.Session.User, def.Session.Definer = fn.Owner, true
		fc = &def
	}
	if config := routineConfig(fn); len(config) > 0 {
		leave, err := r.st.sess.enterRoutineSettings(config, r.definerIsSuperuser(fn))
		if err != nil {
			return nil, err
		}
		// The body binds and runs under the output settings its clauses
		// give (DateStyle, TimeZone, extra_float_digits...).
		saved := r.style
		r.style = r.st.sess.bindStyle()
		inner := *fc
		inner.Style = r.style
		rows, err := r.callFunction(&inner, fn, args)
		r.style = saved
		leave(err != nil)
		return rows, err
	}
	return r.callFunction(fc, fn, args)
}

// definerIsSuperuser reports whether fn runs as a superuser owner
// (SECURITY DEFINER), whose SET clauses may set superuser-only
// parameters whoever calls it.
func (r *routineRunner) definerIsSuperuser(fn *catalog.Function) bool {
	return fn.Definer && r.snap != nil && roleIsSuperuser(r.snap, fn.Owner, true)
}

// callFunction runs fn's body for CallRoutine, fc the caller's context
// (the owner's for SECURITY DEFINER).
func (r *routineRunner) callFunction(fc *builtins.Context, fn *catalog.Function, args []sqltypes.Value) (builtins.SetRows, error) {
	if fc.RoutineDepth >= builtins.MaxRoutineDepth {
		return nil, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), after ensuring the platform's stack depth limit is adequate.")
	}
	if err := r.ctx.Err(); err != nil {
		return nil, storeErr(err)
	}
	if r.snap == nil {
		snap, err := r.st.sess.snapshot(r.ctx)
		if err != nil {
			return nil, storeErr(err)
		}
		r.snap = snap
	}
	if fn.Language == "plpgsql" {
		return r.runPLpgSQL(fc, fn, fn.Body, args)
	}
	sc := r.st.sess.scopeOf(r.snap, fn, fc.Session.User)
	fc = inScope(fc, fn, sc)
	body, err := r.st.sess.routineBody(r.snap, sc, fn, r.style)
	if err != nil {
		return nil, err
	}
	inner := *fc
	inner.RoutineDepth++
	opts := r.opts
	opts.Fn = inner
	var rows [][]sqltypes.Value
	var from []ir.Column
	for i, b := range body {
		if rows, err = r.runBodyStatement(fn, b, args, opts, i == len(body)-1); err != nil {
			return nil, err
		}
		from = planner.ResultColumns(b)
	}
	return r.result(fn, rows, from)
}

// Row collection modes of runStatement.
const (
	collectNone  = 0
	collectFirst = 1 // the first row; the count stops at 2

	collectAll = -1
)

// runBodyStatement plans and runs one statement of fn's body, returning
// its rows when it is the last.
func (r *routineRunner) runBodyStatement(fn *catalog.Function, b ir.Statement, args []sqltypes.Value, opts optimizer.Options, final bool) ([][]sqltypes.Value, error) {
	collect := collectNone
	if final {
		collect = collectAll
		if !fn.ReturnsSet && len(fn.Outputs()) <= 1 && !fn.Procedure() {
			collect = collectFirst // a scalar function returns its first row
		}
	}
	rows, _, err := r.runStatement(fn, b, args, opts, collect, nil)
	return rows, err
}

// runStatement plans and runs a statement of fn's body (fn nil: a DO
// block's) with params, returning the rows collect asks for and how many
// rows it returned or wrote (a query's count stops at the first row under
// collectFirst... no: it counts every row).
func (r *routineRunner) runStatement(fn *catalog.Function, b ir.Statement, params []sqltypes.Value, opts optimizer.Options, collect int, pc *plBound) ([][]sqltypes.Value, int64, error) {
	s := r.st.sess
	e := s.engine
	desc := b.Describe()
	if desc.Writes {
		if fn != nil && fn.Volatility != 'v' {
			return nil, 0, pgerr.New(pgerr.FeatureNotSupported, "%s is not allowed in a non-volatile function", commandTag(b, desc))
		}
		if s.readOnly() {
			return nil, 0, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", commandTag(b, desc))
		}
	}
	plan, ro, err := r.planStatement(b, params, opts, pc)
	if err != nil {
		return nil, 0, err
	}
	switch b.(type) {
	case *ir.Insert, *ir.Update, *ir.Delete, *ir.Merge:
		if r.gate.Add(1) == 1 {
			e.exec.Gate.RLock()
			defer e.exec.Gate.RUnlock()
		}
		defer r.gate.Add(-1)
		res, err := e.exec.Write(r.ctx, plan, params, ro)
		if err != nil {
			return nil, 0, storeErr(err)
		}
		e.noteWrites(writeTarget(b), res.Count, false)
		if collect == collectNone {
			return nil, res.Count, nil
		}
		return res.Returning, res.Count, nil
	}
	var out [][]sqltypes.Value
	var n int64
	err = r.eachRow(plan, params, ro, func(row []sqltypes.Value) (bool, error) {
		n++
		if collect == collectAll || collect == collectFirst && n == 1 {
			out = append(out, append([]sqltypes.Value(nil), row...))
		}
		return collect != collectFirst || n < 2, nil // two tell one row from several
	})
	if err != nil {
		return nil, 0, err
	}
	return out, n, nil
}

// planStatement checks a body statement's privileges (as the definer
// inside a SECURITY DEFINER routine) and plans it, through pc's plan
// cache for a PL/pgSQL statement.
func (r *routineRunner) planStatement(b ir.Statement, params []sqltypes.Value, opts optimizer.Options, pc *plBound) (*optimizer.Plan, executor.RunOptions, error) {
	s := r.st.sess
	who := opts.Fn.Session.User // the definer's inside a SECURITY DEFINER routine
	if who == "" {
		who = s.currentUser()
	}
	if err := s.checkPrivilegesAs(r.ctx, b, who); err != nil {
		return nil, executor.RunOptions{}, err
	}
	if q, ok := b.(*ir.Query); ok {
		if err := ir.PlanErr(q.Plan); err != nil {
			return nil, executor.RunOptions{}, err
		}
	}
	var plan *optimizer.Plan
	var err error
	if pc != nil {
		// A PL/pgSQL statement plans through its own plan cache.
		pc.mu.Lock()
		plan, err = s.planThrough(&pc.cache, r.snap, params, opts, func(vals []sqltypes.Value) (*optimizer.Plan, error) {
			return optimizer.Optimize(b, vals, opts)
		}, nil)
		pc.mu.Unlock()
	} else {
		plan, err = optimizer.Optimize(b, params, opts)
	}
	if err != nil {
		return nil, executor.RunOptions{}, err
	}
	return plan, executor.RunOptions{WorkMem: s.workMem(), TempFileLimit: s.tempFileLimit(), Fn: opts.Fn, Txn: r.txn}, nil
}

// eachRow runs a planned query, passing each row to f (read only until
// f returns) until f says no more or an error.
func (r *routineRunner) eachRow(plan *optimizer.Plan, params []sqltypes.Value, ro executor.RunOptions, f func(row []sqltypes.Value) (more bool, err error)) error {
	it, err := r.st.sess.engine.exec.Run(r.ctx, plan, params, ro)
	if err != nil {
		return storeErr(err)
	}
	defer it.Close()
	for {
		row, ok, err := it.Next(r.ctx)
		if err != nil {
			return storeErr(err)
		}
		if !ok {
			return nil
		}
		if more, err := f(row); err != nil || !more {
			return err
		}
	}
}

// result shapes the rows of fn's last statement (of columns from) as its
// result: cast to its result types, one row (NULLs when there was none)
// unless it returns a set, an empty text for void.
func (r *routineRunner) result(fn *catalog.Function, rows [][]sqltypes.Value, from []ir.Column) (builtins.SetRows, error) {
	if fn.Result.ID == sqltypes.Void {
		// A SQL function returning void returns NULL, as PostgreSQL's
		// do.
		return builtins.Table([][]sqltypes.Value{{sqltypes.Null}}), nil
	}
	want := planner.RoutineResultTypes(fn)
	for ri, row := range rows {
		if rec, ok, err := planner.RoutineRowAsComposite(fn, row, from); ok {
			if err != nil {
				return nil, err
			}
			rows[ri] = []sqltypes.Value{rec}
			continue
		}
		for i := range row {
			if i >= len(want) || i >= len(from) || from[i].Type == want[i] || row[i].IsNull() {
				continue
			}
			v, err := ir.CastValueStyled(row[i], from[i].Type, want[i], false, r.style)
			if err != nil {
				return nil, err
			}
			row[i] = v
		}
	}
	if !fn.ReturnsSet {
		if len(rows) == 0 {
			rows = [][]sqltypes.Value{make([]sqltypes.Value, len(want))}
			for i := range rows[0] {
				rows[0][i] = sqltypes.Null
			}
		}
		rows = rows[:1]
	}
	return builtins.Table(rows), nil
}

// needsTransaction reports whether a bound statement must run in a
// transaction even outside a block (runInTransaction): one that calls
// user-defined routines that may write (volatile functions, procedures, DO
// blocks, a table's triggers), one with data-modifying WITH queries (each
// is a write of its own: without a transaction, the first would stay when
// the statement failed after it), and REFRESH MATERIALIZED VIEW, whose new
// rows and descriptor commit together (session/matview.go).
func needsTransaction(b ir.Statement) bool {
	switch b.(type) {
	case *ir.Call, *ir.Do, *ir.RefreshMatview:
		return true
	}
	if len(ir.WritesOf(b)) > 0 {
		return true
	}
	if t := writeTarget(b); t != nil && len(t.Triggers) > 0 {
		return true // its triggers' writes are the statement's
	}
	if x, ok := b.(*ir.Truncate); ok && truncateTriggers(x) {
		return true
	}
	if g, ok := b.(*ir.Grant); ok && g.OnLargeObjects() {
		return true // the objects' ACLs are written in a transaction
	}
	if a, ok := b.(*ir.AlterOwner); ok && a.LargeObject != 0 {
		return true // so is the object's owner
	}
	if c, ok := b.(*ir.Comment); ok && c.LargeObject != 0 {
		return true // and its comment
	}
	if ir.CallsStoreFunctions(b) {
		return true // large objects are written in the statement's transaction
	}
	for _, fn := range ir.RoutinesOf(b) {
		if fn.Volatility == 'v' {
			return true // it may write (a stable or immutable one may not)
		}
	}
	return false
}

// ownTransactionAttempts bounds runInTransaction's retries.
const ownTransactionAttempts = 3

// runInTransaction runs a statement that needs a transaction
// (needsTransaction) outside a transaction block in a transaction of its
// own (an implicit block), so what routines' bodies write commits with the
// statement's own writes or not at all, as in PostgreSQL. Its rows are
// read before the commit. The client sent one statement, which PostgreSQL
// would not fail for a concurrent change it did not touch: a
// serialization failure (a concurrent schema change, or statistics an
// automatic ANALYZE committed, taking the catalog version its commit
// wanted) runs it again, as CockroachDB retries implicit transactions.
// Nothing reached the client but NOTICEs, which a retry may repeat.
func (st *statement) runInTransaction(ctx context.Context, bound ir.Statement, params []sqltypes.Value, start time.Time) (wire.Result, error) {
	for attempt := 1; ; attempt++ {
		st.ownTxn, st.ownTxnEnded = true, false
		res, err := st.runOnceInTransaction(ctx, bound, params, start)
		st.ownTxn = false
		// A procedure that committed part of its work is not run again.
		if pgerr.CodeOf(err) != pgerr.SerializationFailure || attempt == ownTransactionAttempts || ctx.Err() != nil || st.ownTxnEnded {
			return res, err
		}
	}
}

// runOnceInTransaction is one attempt of runInTransaction.
func (st *statement) runOnceInTransaction(ctx context.Context, bound ir.Statement, params []sqltypes.Value, start time.Time) (wire.Result, error) {
	s := st.sess
	s.BeginImplicit()
	res, err := st.run(ctx, bound, params, start)
	if r, ok := res.(*rowsResult); ok && err == nil {
		m := &memResult{cols: r.cols, recorded: true}
		for {
			row, more, rerr := r.Next(ctx)
			if rerr != nil {
				err = rerr
				break
			}
			if !more {
				break
			}
			m.rows = append(m.rows, append([]sqltypes.Value(nil), row...))
		}
		m.tag = r.Tag()
		res = m
	}
	_, cerr := s.endTransaction(ctx, err == nil && s.txStatus == 'T')
	if err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// checkExecute refuses a call of a routine the user may not execute
// (42501): EXECUTE is PUBLIC's unless revoked, and the owner's and a
// superuser's always.
func checkExecute(snap *catalog.Snapshot, user string, super bool, fns []*catalog.Function) error {
	for _, fn := range fns {
		sc, name := catalog.SplitName(fn.Name)
		if !super && sc != catalog.PublicSchema && snap.SchemaPrivileges(user, sc)&catalog.PrivUsage == 0 {
			// A routine of a user schema needs USAGE on the schema, as
			// PostgreSQL checks when it looks the name up.
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", sc)
		}
		if !fn.CanExecute(super || fn.Owner == user || snap.IsMemberOf(user, fn.Owner), func(r string) bool { return snap.IsMemberOf(user, r) }) {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", map[bool]string{true: "procedure", false: "function"}[fn.Procedure()], name)
		}
	}
	return nil
}
