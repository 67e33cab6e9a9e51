package session

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/zproxy/zproxy/internal/memacct"
	"github.com/zproxy/zproxy/ir"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/internal/stmtstats"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
	"github.com/zproxy/zproxy/wire"
)

// Session is one client's SQL session.
type Session struct {
	// settingFn and exactSettingFn are Setting and exactSetting as the
	// function values fnContext gives every statement.
	settingFn, exactSettingFn func(string) (string, bool)
	// xact numbers the session's transactions for txid_current (txn.go).
	xact xactNumber

	engine *Engine
	params wire.SessionParams
	// bodies are the bound bodies of the routines the session called
	// (routines.go).
	bodies routineBodies
	// mem is the session's memory account (internal/memacct): COPY's and
	// the block's pending writes, prepared statements, cursors.
	mem  *memacct.Account
	vars map[string]string
	// customVars are the custom parameters (placeholders) the session has
	// defined, by canonical name, each as first written (customvars.go).
	customVars map[string]string
	// connectDefaults are the values the stored defaults gave the session
	// at connect (applySessionDefaults), what RESET goes back to;
	// trustedDefaults is set while they are applied.
	connectDefaults map[string]string
	trustedDefaults bool
	// routineFrames are the SET clauses of the routines running, innermost
	// last (routine_settings.go).
	routineFrames []*routineSettingsFrame
	txStatus      byte
	// implicit marks the open block as an implicit one (BeginImplicit):
	// the statements of one message or pipeline, ended by the wire layer.
	implicit bool
	// txn is the transaction of the open block, begun at its first
	// statement (txn.go); savepoints are the block's SAVEPOINTs, innermost
	// last; txDDL records a schema change in the block that did not go
	// through the block's catalog (a temporary object's), which ROLLBACK
	// cannot undo and says so; blockDDL that the running statement's did
	// (permCatalog).
	txn        *executor.Txn
	savepoints []savepoint
	// gucLevels record the settings the block changed, per level
	// (gucscope.go).
	gucLevels []map[string]*gucSave
	// statementLocals are the values to put back when the statement
	// running outside a block ends: set_config(..., true)'s (gucscope.go).
	statementLocals []gucRestore
	txDDL           bool
	blockDDL        bool
	// plUtility is set while a PL/pgSQL body's utility statement runs
	// through the session's statement path (plpgsql_utility.go); runAs is
	// then the user it runs as when that is not the session's current
	// user (a SECURITY DEFINER routine's owner).
	plUtility *plUtilityRun
	runAs     string
	// xactLocks are the advisory locks pg_advisory_xact_lock took in the
	// transaction, released at its end (xactlocks.go).
	xactLocks []xactLock
	// seqs holds currval and lastval (sequences.go).
	seqs seqState
	// loDescs are the transaction's large-object descriptors, by number
	// (largeobjects.go); a closed one is nil.
	loDescs []*loDesc
	// random is random()'s generator once setseed has seeded it.
	random builtins.Random
	// ext holds prepared statements, cursors and notifications (utility.go).
	ext extState
	// hypo are the session's hypothetical indexes (tuning.go), hypoSeq
	// the last one's number.
	hypo    []hypoIndex
	hypoSeq uint32
	// explained is the workload of the statements this session EXPLAINs
	// while zproxy.advice_workload is "explained".
	explained *stmtstats.Store
	// temp is the session's temporary objects (temp.go).
	temp tempState
	// pathCache is the last snapshot laid under search_path (schemas.go).
	pathCache pathState
	// routinePaths are the snapshots of routines' own search paths
	// (routine_path.go).
	routinePaths routinePaths
	// planEpoch counts DISCARD PLANS: a prepared statement's cached plan
	// is kept within one epoch (plancache.go).
	planEpoch uint64
	// activity is what pg_stat_activity shows of the session (catalog.go).
	activity *activity
	// varsVersion counts the changes of vars (putVar); settingsCache is
	// what statements read of them, derived once per version (varcache.go).
	varsVersion   uint64
	settingsCache settingsCache
	// reportedAuth is the session_authorization the client last heard of
	// (setrole.go).
	reportedAuth string
}

var _ wire.Session = (*Session)(nil)

// Parse implements wire.Session.
func (s *Session) Parse(_ context.Context, sql string, paramTypes []sqltypes.Type) ([]wire.Statement, error) {
	if s.vars["standard_conforming_strings"] == "off" {
		// Backslashes escape in ordinary literals: the text is read as
		// the standard one of the same values (parser.NonStandardStrings).
		text, warnings, err := parser.NonStandardStrings(sql, s.vars["escape_string_warning"] != "off")
		if err != nil {
			s.failBlock()
			return nil, err
		}
		for _, w := range warnings {
			s.notice(w)
		}
		sql = text
	}
	stmts, err := parser.Parse(sql)
	if err != nil {
		s.failBlock()
		return nil, err
	}
	out := make([]wire.Statement, len(stmts))
	for i := range stmts {
		out[i] = &statement{sess: s, parsed: &stmts[i], declared: paramTypes}
	}
	return out, nil
}

// failBlock puts an open transaction block in the failed state: an error
// anywhere in a block (a statement that does not even parse included)
// aborts it, as in PostgreSQL, so its COMMIT rolls back.
func (s *Session) failBlock() {
	if s.txStatus == 'T' {
		s.txStatus = 'E'
		// PostgreSQL aborts the (sub)transaction at the error, releasing
		// the locks it took there, before ROLLBACK.
		n := 0
		if len(s.savepoints) > 0 {
			n = s.savepoints[len(s.savepoints)-1].xactLocks
		}
		s.releaseXactLocks(n)
	}
}

// TxStatus implements wire.Session.
func (s *Session) TxStatus() byte { return s.txStatus }

// Close implements wire.Session: a block still open is rolled back.
func (s *Session) Close() {
	if s.txStatus != 'I' {
		s.endBlock()
	}
	s.closeExt()
	if err := s.dropTemp(context.Background()); err != nil {
		s.engine.cfg.Logger.Warn("dropping a session's temporary tables", "err", err)
	}
	s.engine.cat.unregister(s)
	s.mem.Close()
}

func (s *Session) notice(e *pgerr.Error) {
	if !s.noticeWanted(e.Severity) {
		return
	}
	s.params.Notice(e)
}

// noticeWanted reports whether a notice of that severity reaches the
// client: not below client_min_messages, but INFO always, as in
// PostgreSQL.
func (s *Session) noticeWanted(severity string) bool {
	return clientMessageRank(severity) >= clientMessageRank(s.varValue("client_min_messages")) || strings.EqualFold(severity, "INFO")
}

// clientMessageRank orders message severities as client_min_messages
// compares them (LOG ranks below NOTICE for the client, unlike the log).
func clientMessageRank(severity string) int {
	switch strings.ToLower(severity) {
	case "debug5":
		return 0
	case "debug4":
		return 1
	case "debug3":
		return 2
	case "debug2", "debug":
		return 3
	case "debug1":
		return 4
	case "log":
		return 5
	case "notice", "":
		return 6
	case "warning":
		return 7
	}
	return 8 // error and above
}

// MemSize implements wire.MemSizer: a prepared statement holds its text,
// its syntax tree and its last binding, which grow with the text (a
// syntax tree is some ten times its text).
func (st *statement) MemSize() int64 {
	return int64(1024 + 16*len(st.parsed.Text))
}

// statement is one parsed statement of a session.
type statement struct {
	sess *Session
	// pushRows: the statement's rows are read by COPY TO, which has the
	// executor push them where it can (executor.RunOptions.Push).
	pushRows bool
	// currentOfBase is how many parameters an execution of UPDATE/DELETE
	// ... WHERE CURRENT OF has before the cursor row's key (currentof.go).
	currentOfBase int
	// tables gathers the capacity each table's reads consumed in the
	// current execution (per-table metrics).
	tables   *tableCapacity
	parsed   *parser.Statement
	declared []sqltypes.Type

	// The last binding, reused while the schema snapshot is the same (a
	// prepared statement executed again and again binds once).
	boundSnap  *catalog.Snapshot
	bound      ir.Statement
	boundTypes []sqltypes.Type
	// cache keeps the generic plan of a statement executed again and
	// again (plancache.go).
	cache planCache
	// statsFn is statsOf.Stats, the method value made once per binding.
	statsOf *catalog.Snapshot
	statsFn func(tableID uint64) *catalog.TableStats
	// planErr is ir.PlanErr of the query planErrOf (the binding's).
	planErrOf *ir.Query
	// planCols are planErrOf's result columns.
	planCols []wire.Column
	planErr  error

	// For pg_stat_statements (tuning.go): the last planning's time, and
	// the normalised text and its ID, computed at the first record.
	planTime time.Duration
	norm     string
	queryID  int64

	// For auto_explain (stmtlog.go): the running execution's plan may be
	// logged, with these node statistics under log_analyze.
	explainLog   bool
	explainStats map[optimizer.Node]*optimizer.NodeStats

	// explainCached: EXPLAIN EXECUTE is explaining this statement, with
	// the plan its cache gives (explainPrepared).
	explainCached bool

	// ownTxn: the statement runs in a transaction of its own
	// (runInTransaction), which a CALL's or DO's COMMIT may end
	// (ownTxnEnded then).
	ownTxn, ownTxnEnded bool
}

// SQL implements wire.Statement.
func (st *statement) SQL() string { return st.parsed.Text }

func (st *statement) bind(ctx context.Context) (ir.Statement, []sqltypes.Type, *catalog.Snapshot, error) {
	snap, err := st.sess.snapshot(ctx)
	if err != nil {
		return nil, nil, nil, storeErr(err)
	}
	if st.boundSnap == snap {
		return st.bound, st.boundTypes, snap, nil
	}
	bound, types, err := planner.BindStyled(snap, st.parsed, st.declared, st.sess.bindStyle())
	if err != nil && namesMissingObject(err) {
		// The cached schema may be up to catalog.SharedStaleness behind a
		// table another proxy created a moment ago: look again before
		// saying it does not exist.
		fresh, ferr := st.sess.latest(ctx)
		if ferr != nil {
			return nil, nil, nil, storeErr(ferr)
		}
		if fresh != snap {
			snap = fresh
			bound, types, err = planner.BindStyled(snap, st.parsed, st.declared, st.sess.bindStyle())
		}
	}
	if err != nil {
		return nil, nil, nil, st.sess.computedWriteDenied(snap, err)
	}
	if st.bound != nil && !sameResult(columnsOf(st.bound), columnsOf(bound)) {
		// The client was told the result's shape when it prepared the
		// statement; PostgreSQL refuses to change it under a client that
		// may cache it (pgx does, and re-prepares on this error).
		return nil, nil, nil, pgerr.New(pgerr.FeatureNotSupported, "cached plan must not change result type")
	}
	st.boundSnap, st.bound, st.boundTypes = snap, bound, types
	return bound, types, snap, nil
}

// sameResult reports whether two bindings of a statement return the same
// columns (names and types), as PostgreSQL's equalTupleDescs compares a
// cached plan's result with its replanned one.
func sameResult(a, b []wire.Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !a[i].Type.Same(b[i].Type) {
			return false
		}
	}
	return true
}

// namesMissingObject reports whether err says a relation, column or other
// schema object does not exist.
func namesMissingObject(err error) bool {
	switch pgerr.CodeOf(err) {
	case pgerr.UndefinedTable, pgerr.UndefinedColumn, pgerr.UndefinedObject:
		return true
	}
	return false
}

// Describe implements wire.Statement.
func (st *statement) Describe(ctx context.Context) ([]sqltypes.Type, []wire.Column, error) {
	if isTxnControl(st.parsed) {
		return nil, nil, nil
	}
	if st.parsed.Utility != nil {
		return st.describeUtility(ctx)
	}
	bound, types, _, err := st.bind(ctx)
	if err != nil {
		st.sess.failBlock()
		return nil, nil, err
	}
	return types, columnsOf(bound), nil
}

func isTxnControl(p *parser.Statement) bool {
	switch strings.ToUpper(firstWord(p.Text)) {
	case "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE":
		return true
	}
	return false
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimRight(f[0], ";")
}

var (
	showIndexColumns = textColumns("name", "kind", "columns", "widths", "include", "shards", "state")
	checkColumns     = textColumns("table", "index", "rows", "entries", "missing", "orphaned", "ok")
	explainColumns   = textColumns("QUERY PLAN")
)

func textColumns(names ...string) []wire.Column {
	cols := make([]wire.Column, len(names))
	for i, n := range names {
		cols[i] = wire.Column{Name: n, Type: sqltypes.TypeText}
	}
	return cols
}

func columnsOf(b ir.Statement) []wire.Column {
	switch x := b.(type) {
	case *ir.Query:
		return wireColumns(x.Plan.Columns())
	case *ir.Insert:
		return returningColumns(x.Returning)
	case *ir.Update:
		return returningColumns(x.Returning)
	case *ir.Delete:
		return returningColumns(x.Returning)
	case *ir.Call:
		// A procedure's OUT and INOUT parameters: Describe sends their
		// RowDescription, as PostgreSQL's does (none: NoData).
		if len(x.Cols) > 0 {
			return wireColumns(x.Cols)
		}
	case *ir.ShowIndexes:
		cols := append([]wire.Column(nil), showIndexColumns...)
		cols[5].Type = sqltypes.TypeInt4
		return cols
	case *ir.CheckTable:
		cols := append([]wire.Column(nil), checkColumns...)
		for i := 2; i < 6; i++ {
			cols[i].Type = sqltypes.TypeInt8
		}
		cols[6].Type = sqltypes.TypeBool
		return cols
	case *ir.Explain:
		if x.Format == "json" {
			// PostgreSQL types the JSON plan json, so drivers decode it.
			return []wire.Column{{Name: "QUERY PLAN", Type: sqltypes.TypeJSON}}
		}
		return explainColumns
	case *ir.ShowVar:
		if x.Name == "all" {
			return textColumns("name", "setting")
		}
		if n, ok := canonicalVar(x.Name); ok && !(n == varWorkMem && x.Name == "work_mem") {
			return textColumns(displayName(n))
		}
		return textColumns(x.Name) // work_mem is PostgreSQL's name of zproxy.work_mem
	}
	return nil
}

// fnContext is what built-in functions see of this statement and session.
func (s *Session) fnContext(ctx context.Context, start time.Time) builtins.Context {
	return s.fnContextWith(ctx, start, &stmtHandles{})
}

// fnContextWith is fnContext with its handles in h.
func (s *Session) fnContextWith(ctx context.Context, start time.Time, h *stmtHandles) builtins.Context {
	if clock := s.engine.cfg.Clock; clock != nil {
		start = clock()
	}
	if s.settingFn == nil {
		// Method values made once: each would be an allocation per
		// statement.
		s.settingFn, s.exactSettingFn = s.Setting, s.exactSetting
	}
	*h = stmtHandles{seq: sessionSequences{s: s, ctx: ctx}, lo: sessionLargeObjects{s: s, ctx: ctx}}
	if s.txStatus == 'I' {
		s.xact.n = 0 // a statement outside a block is a transaction of its own
	}
	return builtins.Context{Now: start, Location: s.location(), Style: s.Style(), Sequences: &h.seq, LargeObjects: &h.lo, Random: &s.random,
		Cancel: ctx,
		Session: builtins.SessionInfo{User: s.currentUser(), SessionUser: s.sessionUser(), Database: s.params.Database, PID: int(s.params.PID), ClientAddr: s.params.ClientAddr, ServerAddr: s.params.ServerAddr,
			Xact: &s.xact},
		Settings: s.settingFn, ExactSettings: s.exactSettingFn}
}

// stmtHandles are a statement's handles on the session's sequences and
// large objects, allocated together.
type stmtHandles struct {
	seq sessionSequences
	lo  sessionLargeObjects
}

// wireColumns describes result columns for RowDescription.
func wireColumns(cs []ir.Column) []wire.Column {
	cols := make([]wire.Column, len(cs))
	for i, c := range cs {
		cols[i] = wire.Column{Name: c.Name, Type: c.Type}
		if c.Table != nil && c.Col >= 0 {
			// The OID and attribute number pg_class and pg_attribute give
			// them, which drivers look up (ResultSetMetaData).
			cols[i].TableOID = pgcatalog.ObjectOID(c.Table.ID, 0)
			cols[i].ColumnNum = int16(pgcatalog.AttNum(c.Table, c.Col))
		}
	}
	return cols
}

func returningColumns(r *ir.Returning) []wire.Column {
	if r == nil {
		return nil
	}
	return wireColumns(r.Cols)
}

// Execute implements wire.Statement.
func (st *statement) Execute(ctx context.Context, params []sqltypes.Value) (wire.Result, error) {
	s := st.sess
	start := time.Now()
	if s.txStatus == 'E' {
		if w := strings.ToUpper(firstWord(st.parsed.Text)); w != "ROLLBACK" && w != "ABORT" && w != "COMMIT" && w != "END" {
			return nil, pgerr.New(pgerr.InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
		}
	}
	s.engine.cat.started(s, st.parsed.Text, start)
	res, kind, err := st.execute(ctx, params, start)
	if err != nil {
		s.failBlock()
	}
	if r, ok := res.(*rowsResult); ok && err == nil && !r.ended {
		// The statement runs while its rows are read (a function in the
		// select list runs then): it stays active in pg_stat_activity
		// until they are all sent or the result is closed
		// (rowsResult.finish).
		r.active, r.activeCtx = s, ctx
	} else {
		s.engine.cat.idle(s)
		if m, ok := res.(*memResult); ok && m.closeErr != nil && s.txStatus == 'I' {
			// Its transaction failed to commit (a deferred constraint).
			s.endStatementTxn()
		} else if err == nil && s.txStatus == 'I' {
			s.transactionDone(ctx)
		} else if s.txStatus == 'I' {
			// A failed statement's transaction has ended too.
			s.endStatementTxn()
		}
	}
	if m, ok := res.(*memResult); ok && err == nil && !m.recorded {
		// Statements without a row stream are complete now; rows and
		// writes record themselves when they finish.
		s.engine.cfg.Metrics.Query(kind, "none", time.Since(start), 0, int64(len(m.rows)))
		st.record(nil, nil, int64(len(m.rows)), time.Since(start))
	}
	return res, err
}

func (st *statement) execute(ctx context.Context, params []sqltypes.Value, start time.Time) (wire.Result, string, error) {
	if st.parsed.Utility != nil {
		return st.runUtility(ctx, params, start)
	}
	bound, _, _, err := st.bind(ctx)
	if err != nil {
		return nil, "", err
	}
	kind := bound.Kind()
	res, err := st.run(ctx, bound, params, start)
	return res, kind, err
}

func (st *statement) run(ctx context.Context, bound ir.Statement, params []sqltypes.Value, start time.Time) (wire.Result, error) {
	s := st.sess
	e := s.engine
	if st.parsed != nil && st.parsed.CurrentOf != "" {
		// UPDATE/DELETE ... WHERE CURRENT OF: the cursor's row now, its
		// key given as parameters after the statement's own, so that a
		// plan kept for the statement serves every row.
		st.currentOfBase = len(params)
		b, key, err := s.currentOf(bound, st.parsed.CurrentOf, st.currentOfBase)
		if err != nil {
			return nil, err
		}
		bound, params = b, append(params[:len(params):len(params)], key...)
	}
	kind := bound.Kind()
	st.explainLog = false // until autoExplainStart says otherwise
	if q, ok := bound.(*ir.Query); ok && q.Locking != "" && s.readOnly() {
		return nil, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute SELECT %s in a read-only transaction", q.Locking)
	}
	desc := bound.Describe()
	if s.readOnly() && desc.Writes {
		return nil, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", commandTag(bound, desc))
	}
	if err := s.checkPrivileges(ctx, bound); err != nil {
		return nil, err
	}
	st.tables = nil
	if e.opts.Caps.ReadUnitBytes > 0 {
		st.tables = &tableCapacity{} // a store that charges reads (DynamoDB)
	}
	// What every execution makes, in one allocation.
	a := &stmtRun{env: runEnv{st: st, params: params, start: start, kind: kind}}
	a.env.query = &a.query
	opts := e.opts
	d := s.derived()
	opts.AllowFullScan, opts.Disabled = d.allowFullScan, d.disabled
	opts.Fn = s.fnContextWith(ctx, start, &a.handles)
	opts.Fn.Catalog = st.catalogEnvIn(&a.catalog, ctx)
	if st.boundSnap != nil {
		if st.statsOf != st.boundSnap {
			// A method value made once per binding, not per execution.
			st.statsOf, st.statsFn = st.boundSnap, st.boundSnap.Stats
		}
		opts.Stats = st.statsFn
	}
	a.zbounds = zboundsCache{e: e, ctx: ctx}
	opts.ZBounds = &a.zbounds
	if _, ok := bound.(*ir.TxnOp); ok {
		return st.txnControl(ctx, bound.(*ir.TxnOp))
	}
	if s.txStatus == 'I' && (needsTransaction(bound) || s.serializableWrite(desc)) {
		return st.runInTransaction(ctx, bound, params, start)
	}
	var txn *executor.Txn
	if !desc.NoSnapshot {
		var err error
		if txn, err = s.blockTxn(ctx); err != nil {
			return nil, err
		}
	}
	if txn != nil && (desc.ChangesSchema || desc.Class == ir.ClassDDL) {
		// Schema changes go through the block (executor.InBlock).
		ctx = executor.InBlock(ctx, txn)
	}
	// Every statement gets the runner: besides user-defined routines,
	// ts_stat and ts_rewrite run queries through it (RunQuery).
	// The options name their runner before it takes its copy of them:
	// one copy of their some 500 bytes into the heap, not two.
	opts.Fn.Routines = &a.routines
	st.routinesInto(&a.routines, ctx, bound, txn, opts)
	run, ok := runners[reflect.TypeOf(bound)]
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "statement %s is not supported", kind)
	}
	env := &a.env
	env.opts, env.txn = opts, txn
	s.blockDDL = false
	res, err := run(st, ctx, bound, env)
	if err == nil && desc.ChangesSchema && s.txStatus == 'T' && !createsTemp(bound) && !s.blockDDL {
		s.txDDL = true // ROLLBACK cannot undo it, and says so
	}
	return res, err
}

// write plans and runs INSERT, UPDATE or DELETE while holding the write
// gate, so an online index build sees either the statement's whole effect or
// none of it.
func (st *statement) write(ctx context.Context, b ir.Statement, params []sqltypes.Value, opts optimizer.Options, txn *executor.Txn) (executor.WriteResult, *optimizer.Plan, *kv.Stats, error) {
	e := st.sess.engine
	e.exec.Gate.RLock()
	defer e.exec.Gate.RUnlock()
	for attempt := 1; ; attempt++ {
		res, plan, stats, err := st.writeOnce(ctx, params, opts, txn)
		var stale *executor.StaleSchemaError
		if !errors.As(err, &stale) || attempt == staleSchemaAttempts || ctx.Err() != nil {
			return res, plan, stats, err
		}
		// Nothing was written: plan again on the schema the check
		// just loaded.
	}
}

// staleSchemaAttempts bounds how often write plans a statement again
// because another proxy changed a table's schema under it.
const staleSchemaAttempts = 5

// writeOnce is one attempt of write, under the gate.
func (st *statement) writeOnce(ctx context.Context, params []sqltypes.Value, opts optimizer.Options, txn *executor.Txn) (executor.WriteResult, *optimizer.Plan, *kv.Stats, error) {
	e := st.sess.engine
	// Re-bind under the gate: an index that started building before the
	// gate was taken must be maintained by this statement.
	bound, _, _, err := st.bind(ctx)
	if err == nil && st.parsed.CurrentOf != "" {
		// As run did; params already hold the key.
		bound, _, err = st.sess.currentOf(bound, st.parsed.CurrentOf, st.currentOfBase)
	}
	if err != nil {
		return executor.WriteResult{}, nil, nil, err
	}
	plan, err := st.plan(bound, params, opts)
	if err != nil {
		return executor.WriteResult{}, nil, nil, err
	}
	st.sendNotices(plan)
	stats := &kv.Stats{}
	res, err := e.exec.Write(ctx, plan, params, executor.RunOptions{KV: stats, WorkMem: st.sess.workMem(), TempFileLimit: st.sess.tempFileLimit(), Fn: opts.Fn, Txn: txn,
		Stats: st.autoExplainStart(), Capacity: st.tables.adder(), SchemaCurrent: st.sess.schemaCurrent})
	if err != nil {
		var stale *executor.StaleSchemaError
		if errors.As(err, &stale) {
			return executor.WriteResult{}, nil, nil, err
		}
		st.sess.redactValues(ctx, bound, err)
		var de *executor.DeferredError
		if errors.As(err, &de) {
			// The statement's result stands; the error follows it.
			return res, plan, stats, &executor.DeferredError{Err: storeErr(de.Err)}
		}
		return executor.WriteResult{}, nil, nil, storeErr(err)
	}
	return res, plan, stats, nil
}

func writeTag(kind string, n int64) string {
	switch kind {
	case "insert":
		return fmt.Sprintf("INSERT 0 %d", n)
	case "update":
		return fmt.Sprintf("UPDATE %d", n)
	case "merge":
		return fmt.Sprintf("MERGE %d", n)
	}
	return fmt.Sprintf("DELETE %d", n)
}

func shardsOf(p *optimizer.Plan) []int {
	if p.Scan == nil {
		return nil
	}
	return p.Scan.Shards
}

func (st *statement) sendNotices(p *optimizer.Plan) {
	for _, n := range p.Notices {
		st.sess.notice(n)
	}
}

func (st *statement) explain(ctx context.Context, x *ir.Explain, params []sqltypes.Value, opts optimizer.Options, txn *executor.Txn) (wire.Result, error) {
	e := st.sess.engine
	switch x.Stmt.(type) {
	case *ir.Query, *ir.Insert, *ir.Update, *ir.Delete, *ir.Merge:
	default:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN of %s is not supported", x.Stmt.Kind())
	}
	if x.Analyze && x.Stmt.Describe().Writes {
		if st.sess.readOnly() {
			return nil, pgerr.New(pgerr.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", strings.ToUpper(x.Stmt.Kind()))
		}
		e.exec.Gate.RLock()
		defer e.exec.Gate.RUnlock()
	}
	x, err := st.explainHypothetical(x)
	if err != nil {
		return nil, err
	}
	planStart := time.Now()
	var plan *optimizer.Plan
	cacheNote := ""
	if st.explainCached && x.Stmt == st.bound {
		// EXPLAIN EXECUTE: the plan EXECUTE would run.
		generic := st.cache.genericPlans
		plan, err = st.plan(x.Stmt, params, opts)
		cacheNote = "custom"
		if st.cache.genericPlans > generic {
			cacheNote = "generic"
		}
	} else {
		plan, err = optimizer.Optimize(x.Stmt, params, opts)
	}
	if err != nil {
		return nil, err
	}
	planning := time.Since(planStart)
	st.sendNotices(plan)
	st.recordExplained(plan)
	var stats map[optimizer.Node]*optimizer.NodeStats
	var total time.Duration
	kvStats := &kv.Stats{}
	if x.Analyze {
		stats = map[optimizer.Node]*optimizer.NodeStats{}
		start := time.Now()
		run := executor.RunOptions{Stats: stats, KV: kvStats, WorkMem: st.sess.workMem(), TempFileLimit: st.sess.tempFileLimit(), Fn: opts.Fn, Txn: txn,
			EventualReads: !x.Stmt.Describe().Writes && st.sess.eventualReads(plan, txn)}
		if !x.Stmt.Describe().Writes {
			if err := st.sess.checkReadCapacity(plan, run.EventualReads); err != nil {
				return nil, err
			}
			run.MaxReadCapacity = st.sess.maxReadCapacity()
		}
		if _, write := plan.Root.(optimizer.Write); write {
			// EXPLAIN ANALYZE runs the statement, writes included, as
			// PostgreSQL's does.
			res, err := e.exec.Write(ctx, plan, params, run)
			if err != nil {
				return nil, storeErr(err)
			}
			took := time.Since(start)
			stats[plan.Root] = &optimizer.NodeStats{Rows: res.Count, Time: took, Startup: took, Loops: 1,
				ItemsRead: kvStats.ItemsRead.Load(), Requests: kvStats.Requests.Load(), Capacity: kvStats.Capacity(),
				WALRecords: kvStats.OpsWritten.Load(), WALBytes: kvStats.BytesWritten.Load()}
		} else {
			rows, err := e.exec.Run(ctx, plan, params, run)
			if err != nil {
				return nil, storeErr(err)
			}
			for {
				_, ok, err := rows.Next(ctx)
				if err != nil {
					rows.Close()
					return nil, storeErr(err)
				}
				if !ok {
					break
				}
			}
			rows.Close()
			if st := stats[plan.Root]; st != nil {
				// A query's data-modifying WITH queries: their writes are
				// the statement's, shown on the top node.
				st.WALRecords, st.WALBytes = kvStats.OpsWritten.Load(), kvStats.BytesWritten.Load()
			}
		}
		total = time.Since(start)
	}
	var lines []string
	if x.Format != "text" {
		doc := optimizer.ExplainDoc{Format: x.Format, Analyze: x.Analyze, Buffers: x.Buffers, Verbose: x.Verbose, Costs: x.Costs,
			WAL: x.WAL, Timing: x.Timing, Summary: x.Summary, Planning: planning, Execution: total,
			ItemsRead: kvStats.ItemsRead.Load(), StoreRequests: kvStats.Requests.Load(), Capacity: kvStats.Capacity(), Backend: e.opts.Caps.Name,
			PlanCache: cacheNote}
		if x.Settings {
			doc.Settings = st.sess.explainSettings()
		}
		lines = []string{optimizer.ExplainStructured(plan, stats, doc)}
	} else {
		lines = optimizer.ExplainText(plan, stats, optimizer.ExplainDoc{Costs: x.Costs, WAL: x.WAL})
		if x.Settings {
			// PostgreSQL's text line: Settings: name = 'value', ...
			var set []string
			for _, kv := range st.sess.explainSettings() {
				set = append(set, fmt.Sprintf("%s = '%s'", kv[0], kv[1]))
			}
			if len(set) > 0 {
				lines = append(lines, "Settings: "+strings.Join(set, ", "))
			}
		}
		if cacheNote != "" {
			line := "Plan Cache: " + cacheNote + " plan"
			if plan.KeyFromParams() {
				// The scan's key was encoded from the values, no bounds
				// derived (optimizer.keyedScan).
				line += ", key from parameters"
			}
			lines = append(lines, line)
		}
		if x.Analyze {
			lines = append(lines, fmt.Sprintf("Execution: %.3f ms, %d items read, %d store requests, backend %s",
				float64(total.Microseconds())/1000, kvStats.ItemsRead.Load(), kvStats.Requests.Load(), e.opts.Caps.Name))
			if c := kvStats.Capacity(); c > 0 {
				lines = append(lines, fmt.Sprintf("Capacity consumed: %.1f units", c))
			}
		}
	}
	rows := make([][]sqltypes.Value, len(lines))
	for i, l := range lines {
		rows[i] = []sqltypes.Value{sqltypes.NewText(l)}
		if x.Format == "json" {
			rows[i][0] = sqltypes.NewJSON(l)
		}
	}
	return staticResult(columnsOf(x), rows, "EXPLAIN"), nil
}

// storeErr gives an error from below the SQL layers a SQLSTATE.
func storeErr(err error) error { return executor.ClassifyError(err) }

// commandTag is a statement's command tag words, as its read-only refusal
// names it ("CREATE TABLE").
func commandTag(b ir.Statement, d ir.Description) string {
	if d.Tag != "" {
		return d.Tag
	}
	return strings.ToUpper(strings.ReplaceAll(b.Kind(), "_", " "))
}

// runEnv is what run prepared for a statement's runner: its parameters and
// start, the optimizer's options, the block's transaction, its kind and the
// function that records a finished statement's figures.
type runEnv struct {
	st     *statement
	params []sqltypes.Value
	start  time.Time
	opts   optimizer.Options
	txn    *executor.Txn
	kind   string
	// query, when set, is the memory of a query's row stream
	// (runQuery), made with the environment (stmtRun).
	query *queryRows
}

// done records a finished statement: metrics, pg_stat_statements,
// auto_explain.
func (env *runEnv) done(plan *optimizer.Plan, stats *kv.Stats, returned, rows int64) {
	st := env.st
	e := st.sess.engine
	var read int64
	if stats != nil {
		read = stats.ItemsRead.Load()
	}
	st.tables.report(e.cfg.Metrics, plan, stats)
	// One reading of the clock for the three: a key lookup's clock reads
	// were some 5% of its CPU.
	took := time.Since(env.start)
	e.cfg.Metrics.Query(env.kind, plan.AccessPath(), took, read, returned)
	st.record(plan, stats, rows, took)
	st.autoExplainDone(plan, took, rows, stats)
}

// stmtRun is what run makes for every execution, allocated together:
// the run's environment, the builtins' handles on sequences and large
// objects and view of the catalogs, the Z-order bounds reader, the
// routine runner, and a query's row stream (runEnv.query).
type stmtRun struct {
	env      runEnv
	handles  stmtHandles
	catalog  pgcatalog.Env
	zbounds  zboundsCache
	routines routineRunner
	query    queryRows
}

// runners run each kind of bound statement, by its Go type. A new
// statement registers its runner (runs) in an init of its own file; run
// dispatches through the map after the checks every statement shares.
var runners = map[reflect.Type]func(st *statement, ctx context.Context, b ir.Statement, env *runEnv) (wire.Result, error){}

// runs registers run for the statements of type T.
func runs[T ir.Statement](run func(st *statement, ctx context.Context, x T, env *runEnv) (wire.Result, error)) {
	runners[reflect.TypeFor[T]()] = func(st *statement, ctx context.Context, b ir.Statement, env *runEnv) (wire.Result, error) {
		return run(st, ctx, b.(T), env)
	}
}

// runsAll registers one runner for several statement types.
func runsAll(run func(st *statement, ctx context.Context, x ir.Statement, env *runEnv) (wire.Result, error), samples ...ir.Statement) {
	for _, x := range samples {
		runners[reflect.TypeOf(x)] = run
	}
}

func init() {
	runs((*statement).runQuery)
	runsAll((*statement).runWrite, (*ir.Insert)(nil), (*ir.Update)(nil), (*ir.Delete)(nil), (*ir.Merge)(nil))
	runs((*statement).runCreateView)
	runs((*statement).runDropView)
	runs((*statement).runCreateTable)
	runs((*statement).runCreateTableAs)
	runs((*statement).runDropTable)
	runs((*statement).runTruncate)
	runs((*statement).runReindex)
	runs((*statement).runAlterTable)
	runs((*statement).runCreateSequence)
	runs((*statement).runAlterSequence)
	runs((*statement).runDropSequence)
	runs((*statement).runCreateIndex)
	runs((*statement).runDropIndex)
	runs((*statement).runSetConstraints)
	runsAll((*statement).runConstraint, (*ir.AddConstraint)(nil), (*ir.DropConstraint)(nil), (*ir.ValidateConstraint)(nil), (*ir.RenameConstraint)(nil))
	runs((*statement).runShowIndexes)
	runs((*statement).runCheckTable)
	runs((*statement).runExplain)
	runs((*statement).runSetVar)
	runs((*statement).runShowVar)
	runsAll((*statement).runRoleStatement, (*ir.CreateRole)(nil), (*ir.AlterRole)(nil), (*ir.DropRole)(nil), (*ir.Grant)(nil), (*ir.GrantRole)(nil), (*ir.AlterDefaultPrivileges)(nil))
	runs((*statement).runAlterSystem)
	runs((*statement).runComment)
	runs((*statement).runAnalyze)
	runs((*statement).runExtension)
	runs((*statement).runSchemaChange)
	runs((*statement).runDatabase)
}

// runQuery runs Query.
func (st *statement) runQuery(ctx context.Context, x *ir.Query, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	params := env.params
	opts := env.opts
	txn := env.txn
	if st.planErrOf != x {
		// Once per binding: the walk is a tenth of a key lookup's time,
		// and the columns an allocation per execution.
		st.planErrOf, st.planErr, st.planCols = x, ir.PlanErr(x.Plan), columnsOf(x)
	}
	if st.planErr != nil {
		return nil, st.planErr // a constant's error, PostgreSQL's at planning
	}
	plan, err := st.plan(x, params, opts)
	if err != nil {
		return nil, err
	}
	st.sendNotices(plan)
	eventual := s.eventualReads(plan, txn)
	if err := s.checkReadCapacity(plan, eventual); err != nil {
		return nil, err
	}
	q := env.query
	env.query = nil // taken once: a second query of the environment makes its own
	if q == nil {
		q = &queryRows{}
	}
	stats := &q.stats
	rows, err := e.exec.Run(ctx, plan, params, executor.RunOptions{KV: stats, WorkMem: s.workMem(), TempFileLimit: s.tempFileLimit(), Fn: opts.Fn, Txn: txn,
		Stats: st.autoExplainStart(), EventualReads: eventual, MaxReadCapacity: s.maxReadCapacity(), Capacity: st.tables.adder(), Push: st.pushRows})
	if err != nil {
		return nil, storeErr(err)
	}
	e.cfg.Metrics.Fanout(len(shardsOf(plan)))
	if plan.Scan != nil && plan.Scan.ZSchema != nil {
		e.cfg.Metrics.ZOrderScan(len(plan.Scan.Ranges))
	}
	cols := st.planCols
	q.rowsResult = rowsResult{cols: cols, rows: rows, visible: len(cols), env: env, plan: plan, stats: stats, failSess: s}
	return &q.rowsResult, nil
}

// queryRows is a query's row stream and its store counters, allocated
// together.
type queryRows struct {
	rowsResult
	stats kv.Stats
}

// runWrite runs Insert, Update, Delete.
func (st *statement) runWrite(ctx context.Context, x ir.Statement, env *runEnv) (wire.Result, error) {
	e := st.sess.engine
	params := env.params
	opts := env.opts
	txn := env.txn
	kind := env.kind
	res, plan, stats, err := st.write(ctx, x, params, opts, txn)
	var de *executor.DeferredError
	if errors.As(err, &de) {
		// A deferred constraint failed the statement's commit: its rows
		// and completion go out, then the error, as PostgreSQL sends them.
		return &memResult{tag: writeTag(kind, res.Count), recorded: true, cols: columnsOf(x), rows: res.Returning, closeErr: de.Err}, nil
	}
	if err != nil {
		return nil, err
	}
	env.done(plan, stats, int64(len(res.Returning)), res.Count)
	e.noteWrites(writeTarget(x), res.Count, false)
	return &memResult{tag: writeTag(kind, res.Count), recorded: true, cols: columnsOf(x), rows: res.Returning}, nil
}

// runCreateView runs CreateView.
func (st *statement) runCreateView(ctx context.Context, x *ir.CreateView, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	x.Owner = s.currentUser()
	cat, err := s.catalogForNew(ctx, x.Temp)
	if err != nil {
		return nil, err
	}
	if err := e.exec.CreateView(ctx, cat, x); err != nil {
		return nil, storeErr(err)
	}
	if x.Temp {
		s.noteTempCreate(x.Name, true)
	}
	if x.ImplicitTemp {
		s.notice(&pgerr.Error{Code: pgerr.SuccessfulCompletion, Severity: "NOTICE", Message: fmt.Sprintf("view %q will be a temporary view", x.Name)})
	}
	return tagResult("CREATE VIEW"), nil
}

// runDropView runs DropView.
func (st *statement) runDropView(ctx context.Context, x *ir.DropView, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	_, perm, err := s.splitTemp(ctx, x.Names)
	if err != nil {
		return nil, err
	}
	tempViews, err := s.tempDependents(ctx, perm, "view", x.Cascade)
	if err != nil {
		return nil, err
	}
	err = s.byCatalog(ctx, x.Names, func(cat *catalog.Catalog, names []string) error {
		y := *x
		y.Names = names
		return e.exec.DropView(ctx, cat, &y, s.notice)
	})
	if err == nil {
		err = s.dropTempViews(ctx, tempViews)
	}
	if err != nil {
		return nil, err
	}
	return tagResult("DROP VIEW"), nil
}

// runCreateTable runs CreateTable.
func (st *statement) runCreateTable(ctx context.Context, x *ir.CreateTable, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	x.Table.Owner = s.currentUser()
	if st.parsed.TempGlobal {
		s.notice(&pgerr.Error{Code: pgerr.Warning, Severity: "WARNING", Message: "GLOBAL is deprecated in temporary table creation"})
	}
	for _, n := range x.Notices {
		s.notice(n)
	}
	cat, err := s.catalogForNew(ctx, x.Table.Temp)
	if err != nil {
		return nil, err
	}
	if err := e.exec.CreateTable(ctx, cat, x, s.notice); err != nil {
		return nil, storeErr(err)
	}
	if x.Table.Temp {
		s.noteTempCreate(x.Table.Name, false)
	}
	return tagResult("CREATE TABLE"), nil
}

// runCreateTableAs runs CreateTableAs: it creates the table, then inserts
// the query's rows into it (in the block's transaction when there is
// one), and drops it again if that fails, so that the table and its rows
// appear together or not at all. Its tag counts the rows, as PostgreSQL's
// SELECT n; WITH NO DATA, and IF NOT EXISTS finding the name taken, are
// tagged CREATE TABLE AS.
func (st *statement) runCreateTableAs(ctx context.Context, x *ir.CreateTableAs, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := s.engine
	t := x.Create.Table
	t.Owner = s.currentUser()
	if st.parsed.TempGlobal {
		s.notice(&pgerr.Error{Code: pgerr.Warning, Severity: "WARNING", Message: "GLOBAL is deprecated in temporary table creation"})
	}
	cat, err := s.catalogForNew(ctx, t.Temp)
	if err != nil {
		return nil, err
	}
	created, err := e.exec.CreateTableReturning(ctx, cat, x.Create, s.notice)
	if err != nil {
		return nil, storeErr(err)
	}
	if created == nil || x.Insert == nil {
		if created != nil && t.Temp {
			s.noteTempCreate(t.Name, false)
		}
		return tagResult(x.Describe().Tag), nil
	}
	n, err := st.fillCreated(ctx, x, cat, created, env)
	if err != nil {
		// Dropped even when the statement was cancelled or timed out
		// (ctx is done then): its INSERT wrote nothing, the table must go.
		drop := &ir.DropTable{Names: []string{t.Name}, IfExists: true}
		if derr := e.exec.DropTable(context.WithoutCancel(ctx), cat, drop, func(*pgerr.Error) {}); derr != nil {
			e.cfg.Logger.Warn("dropping the table of a failed CREATE TABLE AS", "table", t.Name, "err", derr)
		}
		return nil, err
	}
	if t.Temp {
		s.noteTempCreate(t.Name, false)
	}
	return &memResult{tag: fmt.Sprintf("SELECT %d", n), recorded: true}, nil
}

// fillCreated runs the INSERT of CREATE TABLE ... AS into the table just
// created, as a write runs: under the write gate, with the table's
// descriptor read after the gate was taken (an index another session
// began building on it since is then maintained), and returns how many
// rows went in.
func (st *statement) fillCreated(ctx context.Context, x *ir.CreateTableAs, cat *catalog.Catalog, created *catalog.Table, env *runEnv) (int64, error) {
	e := st.sess.engine
	e.exec.Gate.RLock()
	defer e.exec.Gate.RUnlock()
	snap, err := cat.Latest(ctx)
	if err != nil {
		return 0, storeErr(err)
	}
	t, err := snap.Table(created.Name)
	if err != nil || t.ID != created.ID {
		return 0, pgerr.New(pgerr.UndefinedTable, "relation %q was dropped while it was being filled", created.Name)
	}
	ins := *x.Insert // the bound statement is cached: its table stays the unborn one
	ins.Table = t
	plan, err := st.optimize(&ins, env.params, env.opts)
	if err != nil {
		return 0, err
	}
	st.sendNotices(plan)
	stats := &kv.Stats{}
	res, err := e.exec.Write(ctx, plan, env.params, executor.RunOptions{KV: stats, WorkMem: st.sess.workMem(), TempFileLimit: st.sess.tempFileLimit(), Fn: env.opts.Fn, Txn: env.txn})
	if err != nil {
		st.sess.redactValues(ctx, x, err)
		return 0, storeErr(err)
	}
	env.done(plan, stats, 0, res.Count)
	e.noteWrites(t, res.Count, false)
	return res.Count, nil
}

// runDropTable runs DropTable.
func (st *statement) runDropTable(ctx context.Context, x *ir.DropTable, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	kind := "table"
	if x.Matview {
		kind = "materialized view"
	}
	_, perm, err := s.splitTemp(ctx, x.Names)
	if err != nil {
		return nil, err
	}
	tempViews, err := s.tempDependents(ctx, perm, kind, x.Cascade)
	if err != nil {
		return nil, err
	}
	err = s.byCatalog(ctx, x.Names, func(cat *catalog.Catalog, names []string) error {
		y := *x
		y.Names = names
		return e.exec.DropTable(ctx, cat, &y, s.notice)
	})
	if err == nil {
		err = s.dropTempViews(ctx, tempViews)
	}
	if err != nil {
		return nil, err
	}
	return tagResult(commandTag(x, x.Describe())), nil
}

// runTruncate runs Truncate.
func (st *statement) runTruncate(ctx context.Context, x *ir.Truncate, env *runEnv) (wire.Result, error) {
	e := st.sess.engine
	fire := func(timing string) error { return st.fireTruncate(ctx, x, timing, env) }
	if err := fire("BEFORE"); err != nil {
		return nil, err
	}
	var temp, perm []*catalog.Table
	for _, t := range x.Tables {
		if t.Temp {
			temp = append(temp, t)
		} else {
			perm = append(perm, t)
		}
	}
	for _, part := range []struct {
		cat    *catalog.Catalog
		tables []*catalog.Table
	}{{st.sess.temp.cat, temp}, {nil, perm}} {
		if len(part.tables) == 0 {
			continue
		}
		if part.cat == nil {
			var err error
			if part.cat, err = st.sess.permCatalog(ctx); err != nil {
				return nil, err
			}
		}
		px := *x
		px.Tables = part.tables
		if err := e.exec.Truncate(ctx, part.cat, &px); err != nil {
			return nil, storeErr(err)
		}
	}
	if err := fire("AFTER"); err != nil {
		return nil, err
	}
	return tagResult("TRUNCATE TABLE"), nil
}

// runAlterTable runs AlterTable.
func (st *statement) runAlterTable(ctx context.Context, x *ir.AlterTable, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	cat, err := s.catalogFor(ctx, x.Table)
	if err != nil {
		return nil, err
	}
	y := *x
	y.Table = s.keyIn(cat, x.Table)
	if err := e.exec.AlterTable(ctx, cat, &y, env.opts.Fn, s.notice); err != nil {
		return nil, storeErr(err)
	}
	if len(x.Actions) == 1 && (x.Actions[0].Kind == parser.AlterRenameIndex || x.Actions[0].Kind == parser.AlterAttachIndex) {
		return tagResult("ALTER INDEX"), nil
	}
	return tagResult(commandTag(x, x.Describe())), nil
}

// runCreateSequence runs CreateSequence.
func (st *statement) runCreateSequence(ctx context.Context, x *ir.CreateSequence, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	x.Seq.Owner = s.currentUser()
	cat, err := s.catalogForNew(ctx, x.Seq.Temp)
	if err != nil {
		return nil, err
	}
	if err := e.exec.CreateSequence(ctx, cat, x, s.notice); err != nil {
		return nil, storeErr(err)
	}
	if x.Seq.Temp && s.txStatus != 'I' {
		// ROLLBACK drops it (undoTempCreates).
		s.temp.created = append(s.temp.created, tempObject{name: x.Seq.Name, seq: true})
	}
	return tagResult("CREATE SEQUENCE"), nil
}

// runAlterSequence runs AlterSequence.
func (st *statement) runAlterSequence(ctx context.Context, x *ir.AlterSequence, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	cat, err := s.catalogFor(ctx, x.Name)
	if err != nil {
		return nil, err
	}
	y := *x
	y.Name = s.keyIn(cat, x.Name)
	if err := e.exec.AlterSequence(ctx, cat, &y, s.notice); err != nil {
		return nil, storeErr(err)
	}
	return tagResult("ALTER SEQUENCE"), nil
}

// runDropSequence runs DropSequence.
func (st *statement) runDropSequence(ctx context.Context, x *ir.DropSequence, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	cat, err := s.catalogFor(ctx, x.Names[0]) // a temporary sequence is the session's
	if err != nil {
		return nil, err
	}
	y := *x
	y.Names = make([]string, len(x.Names))
	for i, n := range x.Names {
		y.Names[i] = s.keyIn(cat, n)
	}
	if err := e.exec.DropSequence(ctx, cat, &y, s.notice); err != nil {
		return nil, storeErr(err)
	}
	return tagResult("DROP SEQUENCE"), nil
}

// runCreateIndex runs CreateIndex.
func (st *statement) runCreateIndex(ctx context.Context, x *ir.CreateIndex, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	if err := st.notConcurrentlyInBlock("CREATE INDEX"); err != nil {
		return nil, err
	}
	cat, err := s.catalogFor(ctx, x.Table)
	if err != nil {
		return nil, err
	}
	y := *x
	y.Table = s.keyIn(cat, x.Table)
	if err := e.exec.CreateIndex(ctx, cat, &y, s.notice); err != nil {
		return nil, storeErr(err)
	}
	if cat == e.catalog {
		e.indexBuilt(ctx, y.Table)
	}
	return tagResult("CREATE INDEX"), nil
}

// runDropIndex runs DropIndex.
func (st *statement) runDropIndex(ctx context.Context, x *ir.DropIndex, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	if err := st.notConcurrentlyInBlock("DROP INDEX"); err != nil {
		return nil, err
	}
	cat, err := s.catalogFor(ctx, x.Name)
	if err != nil {
		return nil, err
	}
	y := *x
	y.Name = s.keyIn(cat, x.Name)
	if err := e.exec.DropIndex(ctx, cat, &y, s.notice); err != nil {
		return nil, storeErr(err)
	}
	return tagResult("DROP INDEX"), nil
}

// notConcurrentlyInBlock refuses CREATE or DROP INDEX CONCURRENTLY inside a
// transaction block, as PostgreSQL does (25001).
func (st *statement) notConcurrentlyInBlock(what string) error {
	if st.parsed.Concurrently && st.sess.txStatus != 'I' {
		return st.sess.notInBlock(what + " CONCURRENTLY")
	}
	return nil
}

// runSetConstraints runs SetConstraints.
func (st *statement) runSetConstraints(ctx context.Context, x *ir.SetConstraints, env *runEnv) (wire.Result, error) {
	s := st.sess
	txn := env.txn
	if txn == nil {
		s.notice(&pgerr.Error{Code: pgerr.NoActiveSQLTransaction, Severity: "WARNING", Message: "SET CONSTRAINTS can only be used in transaction blocks"})
	} else if err := st.setConstraints(ctx, txn, x); err != nil {
		return nil, storeErr(err)
	}
	return tagResult("SET CONSTRAINTS"), nil
}

// runConstraint runs AddConstraint, DropConstraint, ValidateConstraint, RenameConstraint.
func (st *statement) runConstraint(ctx context.Context, x ir.Statement, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := st.sess.engine
	opts := env.opts
	table := ""
	if owns := x.Describe().Owns; len(owns) > 0 {
		table = owns[0].Name // the table whose constraint it changes
	}
	cat, err := s.catalogFor(ctx, table)
	if err != nil {
		return nil, err
	}
	if err := e.exec.AlterConstraint(ctx, cat, x, opts.Fn, s.notice); err != nil {
		return nil, storeErr(err)
	}
	return tagResult("ALTER TABLE"), nil
}

// createsTemp reports whether a statement creates a temporary table or
// view, which a ROLLBACK of its block drops (Session.undoTempCreates).
func createsTemp(b ir.Statement) bool {
	switch x := b.(type) {
	case *ir.CreateTable:
		return x.Table.Temp
	case *ir.CreateTableAs:
		return x.Create.Table.Temp
	case *ir.CreateView:
		return x.Temp
	case *ir.CreateSequence:
		return x.Seq.Temp
	}
	return false
}

// runShowIndexes runs ShowIndexes.
func (st *statement) runShowIndexes(ctx context.Context, x *ir.ShowIndexes, env *runEnv) (wire.Result, error) {
	return staticResult(columnsOf(x), executor.ShowIndexes(x.Table), "SHOW"), nil
}

// runCheckTable runs CheckTable.
func (st *statement) runCheckTable(ctx context.Context, x *ir.CheckTable, env *runEnv) (wire.Result, error) {
	e := st.sess.engine
	var rows [][]sqltypes.Value
	for _, t := range x.Tables {
		res, err := e.exec.Check(ctx, t)
		if err != nil {
			return nil, err
		}
		for _, r := range res {
			rows = append(rows, []sqltypes.Value{sqltypes.NewText(r.Table), sqltypes.NewText(r.Index),
				sqltypes.NewInt(r.Rows), sqltypes.NewInt(r.Entries), sqltypes.NewInt(r.Missing),
				sqltypes.NewInt(r.Orphaned), sqltypes.NewBool(r.Missing == 0 && r.Orphaned == 0 && r.Entries == r.Expected)})
		}
	}
	return staticResult(columnsOf(x), rows, "CHECK TABLE"), nil
}

// runExplain runs Explain.
func (st *statement) runExplain(ctx context.Context, x *ir.Explain, env *runEnv) (wire.Result, error) {
	params := env.params
	opts := env.opts
	txn := env.txn
	return st.explain(ctx, x, params, opts, txn)
}

// runSetVar runs SetVar.
func (st *statement) runSetVar(ctx context.Context, x *ir.SetVar, env *runEnv) (wire.Result, error) {
	s := st.sess
	for _, v := range append([]*ir.SetVar{x}, x.More...) {
		if n, ok := canonicalVar(v.Name); ok && isRoleVar(n) && s.plUtility != nil && s.plUtility.definer {
			// As set_config in such a routine (pgcatalog's).
			return nil, pgerr.New(pgerr.InsufficientPrivilege, "cannot set parameter \"%s\" within security-definer function", n)
		}
		if v.Name == varTransactionSnapshot && !v.Reset {
			if err := s.importSnapshot(ctx, v.Value); err != nil {
				return nil, err
			}
			continue
		}
		if err := s.setScoped(v.Name, v.Value, v.Reset, v.Local); err != nil {
			return nil, err
		}
	}
	if x.Reset && !x.Default {
		return tagResult("RESET"), nil
	}
	return tagResult("SET"), nil
}

// runShowVar runs ShowVar.
func (st *statement) runShowVar(ctx context.Context, x *ir.ShowVar, env *runEnv) (wire.Result, error) {
	s := st.sess
	if x.Name == "all" {
		var rows [][]sqltypes.Value
		for _, kv := range s.showAll() {
			if hiddenVars[kv[0]] || !s.mayReadVar(kv[0]) {
				continue
			}
			rows = append(rows, []sqltypes.Value{sqltypes.NewText(displayName(kv[0])), sqltypes.NewText(kv[1])})
		}
		return staticResult(columnsOf(x), rows, "SHOW"), nil
	}
	n, ok := s.resolveVar(x.Name)
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter %q", x.Name)
	}
	if !s.mayReadVar(n) {
		return nil, errCannotExamine(x.Name)
	}
	return staticResult(columnsOf(x), [][]sqltypes.Value{{sqltypes.NewText(s.varValue(n))}}, "SHOW"), nil
}

// runRoleStatement runs CreateRole, AlterRole, DropRole, Grant, GrantRole.
func (st *statement) runRoleStatement(ctx context.Context, x ir.Statement, env *runEnv) (wire.Result, error) {
	return st.runRole(ctx, x)
}

// runAlterSystem runs AlterSystem.
func (st *statement) runAlterSystem(ctx context.Context, x *ir.AlterSystem, env *runEnv) (wire.Result, error) {
	s := st.sess
	return nil, s.alterSystem(x)
}

// runExtension runs Extension.
func (st *statement) runExtension(ctx context.Context, x *ir.Extension, env *runEnv) (wire.Result, error) {
	return st.sess.runExtension(ctx, x)
}

// runReindex runs Reindex: each index is rebuilt beside itself and
// replaces itself (executor.Reindex). As in PostgreSQL, REINDEX DATABASE,
// SCHEMA and SYSTEM and REINDEX CONCURRENTLY cannot run in a transaction
// block, and REINDEX DATABASE names the session's database.
func (st *statement) runReindex(ctx context.Context, x *ir.Reindex, env *runEnv) (wire.Result, error) {
	s := st.sess
	e := s.engine
	if s.txStatus != 'I' {
		switch {
		case x.Concurrently:
			return nil, s.notInBlock("REINDEX CONCURRENTLY")
		case x.Object == "database" || x.Object == "schema" || x.Object == "system":
			return nil, s.notInBlock("REINDEX " + strings.ToUpper(x.Object))
		}
	}
	if x.Database != "" && x.Database != s.params.Database && s.params.Database != "" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "can only reindex the currently open database")
	}
	if x.Object == "table" && len(x.Targets) == 0 && x.Tables[0].RowIDKeyed() {
		// A primary key is an index to PostgreSQL, which rebuilds it;
		// here it is the rows' own order, with nothing to rebuild.
		s.notice(pgerr.Notice("table \"%s\" has no indexes to reindex", x.Tables[0].Name))
	}
	cat, err := s.permCatalog(ctx)
	if err != nil {
		return nil, err
	}
	for _, tg := range x.Targets {
		if err := e.exec.Reindex(ctx, cat, tg.Table.Name, tg.Index); err != nil {
			return nil, storeErr(err)
		}
		if x.Verbose {
			s.notice(&pgerr.Error{Code: pgerr.SuccessfulCompletion, Severity: "INFO", Message: fmt.Sprintf("index \"%s\" was reindexed", tg.Index.Name)})
		}
	}
	return tagResult("REINDEX"), nil
}
