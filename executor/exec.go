package executor

import (
	"context"
	"reflect"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/executor/spill"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// DefaultWorkMem is the memory one statement's sorts, hash tables, DISTINCT
// sets and window partitions may hold together (zproxy.work_mem).
const DefaultWorkMem = 256 << 20

// Executor runs plans against one store.
type Executor struct {
	Store kv.Store
	Caps  kv.Capabilities
	// Concurrency bounds the store requests one statement has in flight.
	Concurrency int
	// Gate orders writes against online index builds in this process:
	// statements that write hold it shared from the moment they read the
	// schema until their batch is committed; an index build holds it
	// exclusively while it reads and indexes one chunk of rows.
	Gate sync.RWMutex
	// Spill holds what statements spill past work_mem (spilling.go); nil
	// keeps them from spilling.
	Spill *spill.Store
	// seqs caches the blocks of sequence values this process claimed.
	seqs sequences
	// zbounds caches Z-order indexes' data bounds (zbounds.go).
	zbounds zboundsCache
	// locks are the row locks the open transactions hold, for NOWAIT and
	// SKIP LOCKED (rowlocks.go).
	locks rowLocks
}

var sweepOnce sync.Once

// New returns an Executor for store, spilling under os.TempDir() (where
// the first executor of the process removes what dead processes left).
func New(store kv.Store) *Executor {
	sweepOnce.Do(func() { spill.Sweep("") })
	return &Executor{Store: store, Caps: store.Capabilities(), Concurrency: 16, Spill: spill.New("")}
}

// Close removes the executor's spill store.
func (e *Executor) Close() error {
	if e.Spill == nil {
		return nil
	}
	return e.Spill.Close()
}

// Rows is a stream of result rows.
type Rows interface {
	// Next returns the next row; ok is false at the end. The row is only
	// valid until the next call.
	Next(ctx context.Context) (row []sqltypes.Value, ok bool, err error)
	Close()
}

// RunOptions tune one execution.
type RunOptions struct {
	// Stats, if non-nil, collects per-operator statistics (EXPLAIN ANALYZE).
	Stats map[optimizer.Node]*optimizer.NodeStats
	// KV collects the store statistics of the whole statement.
	KV *kv.Stats
	// WorkMem bounds the memory of sorts, hash tables and the like
	// (bytes; 0: DefaultWorkMem).
	WorkMem int64
	// TempFileLimit bounds what the statement may spill to disk past
	// WorkMem (bytes; 0: no bound; NoSpill: no spilling).
	TempFileLimit int64
	// Fn is what built-in functions see (the statement's timestamp, the
	// session); a zero Now means the time the statement starts running.
	Fn builtins.Context
	// Txn, if set, is the session's transaction: the statement reads its
	// snapshot with its writes applied and buffers its own writes in it.
	Txn *Txn
	// EventualReads lets a statement outside a transaction read with
	// eventual consistency where the store offers it (DynamoDB: half the
	// read capacity, possibly missing writes of the last second). The
	// session sets it only for read-only statements whose user asked
	// (zproxy.read_consistency); by default every read is strongly
	// consistent, so a statement sees every commit before it, as in
	// PostgreSQL.
	EventualReads bool
	// Capacity, when set, receives the capacity units each table's reads
	// consumed, as each scan or lookup of it ends (per-table metrics); it
	// may be called from several goroutines.
	Capacity func(table string, units float64)
	// MaxReadCapacity, when positive, is the most capacity units the
	// statement's reads outside a transaction may consume (the session's
	// zproxy.max_read_capacity) on a store that charges reads by size:
	// past it the statement fails with 53400. It needs KV to count.
	MaxReadCapacity float64
	// Push says the caller will read the rows with Pusher.Push where it
	// can (COPY TO): a plan Push serves (pushable) is then not opened
	// until Next or Push is called, so that a scan of several shards does
	// not start reading them on goroutines of its own first. Ignored under
	// Stats: EXPLAIN ANALYZE counts rows per operator.
	Push bool
	// SchemaCurrent, when set, reports whether t's schema is still the
	// one the statement planned with (the same Revision), looking at the
	// store when the caller's cached schema is catalog.SharedStaleness
	// old. A statement outside a transaction on a shared store asks it
	// just before committing its atomic batch: another proxy's index build
	// outwaits only that staleness before it backfills, so a statement
	// whose planning and commit are further apart than that must not
	// commit without the index's maintenance (StaleSchemaError).
	SchemaCurrent func(ctx context.Context, t *catalog.Table) (bool, error)
}

// statementReads is the store as a statement outside a transaction reads
// it: every Get and Scan strongly consistent, unless eventual reads were
// asked for; on a store that charges reads (capacity), what the reads
// consume is counted as they complete (and carried in their context,
// kv.WithReadCost, for the store's admission control), and the statement
// is stopped once it has consumed more than it may (limit).
type statementReads struct {
	kv.ReadWriter
	eventual bool
	capacity bool
	limit    float64 // capacity units (0: no limit)
	// used counts the capacity the statement's reads consumed, in
	// thousandths of a unit: the requests' own Stats are the operators',
	// summed into the statement's only as each operator ends.
	used *atomic.Int64
}

func (r statementReads) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	req.Consistent = req.Consistent || !r.eventual
	if !r.capacity {
		return r.ReadWriter.Get(ctx, req)
	}
	ctx = kv.WithReadCost(ctx, r.used)
	own := req.Stats
	var mine kv.Stats
	req.Stats = &mine
	items, err := r.ReadWriter.Get(ctx, req)
	var seen kv.Stats
	r.forward(&mine, &seen, own)
	if err == nil {
		err = r.check()
	}
	return items, err
}

func (r statementReads) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	req.Consistent = req.Consistent || !r.eventual
	if !r.capacity {
		return r.ReadWriter.Scan(ctx, req)
	}
	ctx = kv.WithReadCost(ctx, r.used)
	c := &cappedIterator{r: r, own: req.Stats}
	req.Stats = &c.mine
	c.Iterator = r.ReadWriter.Scan(ctx, req)
	return c
}

// forward adds what a request recorded in mine since seen to the caller's
// stats (own) and to the statement's capacity, and moves seen up.
func (r statementReads) forward(mine, seen, own *kv.Stats) {
	d := func(a, b *atomic.Int64) int64 {
		v := a.Load()
		delta := v - b.Load()
		b.Store(v)
		return delta
	}
	if own != nil {
		own.Requests.Add(d(&mine.Requests, &seen.Requests))
		own.ItemsRead.Add(d(&mine.ItemsRead, &seen.ItemsRead))
		own.BytesRead.Add(d(&mine.BytesRead, &seen.BytesRead))
	}
	units := mine.Capacity() - seen.Capacity()
	seen.AddCapacity(units)
	own.AddCapacity(units)
	r.used.Add(int64(units * 1000))
}

// check fails once the statement has consumed more than its capacity.
func (r statementReads) check() error {
	if used := float64(r.used.Load()) / 1000; r.limit > 0 && used > r.limit {
		return pgerr.New(pgerr.ConfigurationLimitExceeded, "statement read %.1f capacity units, more than zproxy.max_read_capacity (%g)", used, r.limit).
			WithHint("Narrow the query, add an index, raise zproxy.max_read_capacity, or set zproxy.read_consistency to eventual to read at half the capacity.")
	}
	return nil
}

// cappedIterator counts what a scan's requests consume, passing it on to
// the scan's own Stats, and stops the scan once its statement has run out
// of capacity.
type cappedIterator struct {
	kv.Iterator
	r          statementReads
	own        *kv.Stats
	mine, seen kv.Stats
	err        error
}

func (c *cappedIterator) Next() bool {
	if c.err != nil {
		return false
	}
	more := c.Iterator.Next()
	c.r.forward(&c.mine, &c.seen, c.own)
	if c.err = c.r.check(); c.err != nil {
		return false
	}
	return more
}

// Prefetch forwards to the capped iterator; what it reads is charged at
// the next Next.
func (c *cappedIterator) Prefetch() bool { return kv.Prefetch(c.Iterator) }

func (c *cappedIterator) Err() error {
	if c.err != nil {
		return c.err
	}
	return c.Iterator.Err()
}

func (c *cappedIterator) Close() error {
	err := c.Iterator.Close()
	c.r.forward(&c.mine, &c.seen, c.own)
	return err
}

// Run starts executing a read plan.
func (e *Executor) Run(ctx context.Context, plan *optimizer.Plan, params []sqltypes.Value, opts RunOptions) (Rows, error) {
	ec := e.newExecCtx(ctx, params, opts)
	// A data-modifying WITH's writes are seen by the statement's reads
	// (README), which a snapshot taken before them would hide.
	if opts.Txn == nil && len(plan.Writes) == 0 && !plan.ReadsOnce() {
		if err := ec.readSnapshot(ctx); err != nil {
			ec.finish()
			return nil, err
		}
	}
	if err := ec.runWrites(ctx, plan.Writes, opts); err != nil {
		ec.finish()
		return nil, err
	}
	if opts.Push && opts.Stats == nil {
		if scan, cols, ok := pushable(plan.Root); ok {
			return &statementRows{Rows: &pushRows{ec: ec, ctx: ctx, root: plan.Root, scan: scan, cols: cols}, ec: ec}, nil
		}
	}
	r, err := ec.build(ctx, plan.Root)
	if err != nil {
		ec.finish()
		return nil, err
	}
	rows := &ec.alloc.rows
	*rows = statementRows{Rows: r, ec: ec}
	return rows, nil
}

// readSnapshot has the statement's reads come from one snapshot of the
// store, when it takes one (kv.Snapshotter), as PostgreSQL's statement
// snapshot: a statement that reads more than once (Plan.ReadsOnce) never
// sees part of a transaction that commits while it runs. finish releases
// it.
func (ec *execCtx) readSnapshot(ctx context.Context) error {
	sn, ok := ec.ex.Store.(kv.Snapshotter)
	if !ok {
		return nil
	}
	snap, err := sn.Snapshot(ctx)
	if snap == nil || err != nil {
		return ClassifyError(err)
	}
	a := ec.alloc
	a.snap = snap
	a.reads.ReadWriter = snapshotReads{Snapshot: snap, ReadWriter: ec.ex.Store}
	return nil
}

// snapshotReads reads from a statement's snapshot and writes to the store.
type snapshotReads struct {
	kv.Snapshot
	kv.ReadWriter
}

func (r snapshotReads) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	return r.Snapshot.Get(ctx, req)
}

func (r snapshotReads) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	return r.Snapshot.Scan(ctx, req)
}

func (e *Executor) newExecCtx(ctx context.Context, params []sqltypes.Value, opts RunOptions) *execCtx {
	budget := opts.WorkMem
	if budget <= 0 {
		budget = DefaultWorkMem
	}
	// One allocation for what a statement's execution holds, rather than
	// one each: a key lookup's fixed cost is mostly such allocations.
	a := &execAlloc{mem: memBudget{limit: budget}}
	a.reads = statementReads{ReadWriter: e.Store, eventual: opts.EventualReads, used: &a.used}
	if e.Caps.ReadUnitBytes > 0 {
		a.reads.capacity, a.reads.limit = true, opts.MaxReadCapacity
	}
	ec := &a.ec
	*ec = execCtx{ex: e, alloc: a, ctx: ctx, kv: &a.reads, txn: opts.Txn, capacity: opts.Capacity, stats: opts.Stats, kvStats: opts.KV, mem: &a.mem,
		ctes: &a.ctes, spill: e.newSpillState(opts.TempFileLimit, &a.spill), schemaCurrent: opts.SchemaCurrent}
	if opts.Txn != nil {
		ec.kv = opts.Txn.kv
	}
	fn := opts.Fn
	if fn.Now.IsZero() {
		fn.Now = time.Now()
	}
	a.eval = ir.EvalContext{Params: params, Now: fn.Now, Subplans: ec, Fn: fn}
	ec.eval = &a.eval
	return ec
}

// execAlloc is what newExecCtx allocates for a statement, in one piece.
type execAlloc struct {
	ec    execCtx
	reads statementReads
	mem   memBudget
	used  atomic.Int64
	eval  ir.EvalContext
	ctes  cteStates
	spill spillAlloc
	// snap is the statement's read snapshot (readSnapshot), released by
	// finish.
	snap kv.Snapshot
	// rows are what Run returns, and scan the memory of the statement's
	// first table scan, taken once (scanRowsMem): a key lookup's whole
	// executor is then this allocation, its stream's and its row's.
	rows      statementRows
	scan      scanRows
	scanTaken atomic.Bool
}

// scanRowsMem is memory for a scan of ec's statement: the statement's
// own for its first (execAlloc.scan), a new allocation for the others. A
// subplan's run shares its statement's, so the first to ask takes it.
func (ec *execCtx) scanRowsMem() *scanRows {
	if a := ec.alloc; a != nil && a.scanTaken.CompareAndSwap(false, true) {
		return &a.scan
	}
	return new(scanRows)
}

// cteStates are the WITH queries' states of one statement, shared by its
// subplan runs (execCtx.child); the maps are made when first written.
type cteStates struct {
	// shared holds the rows of shared WITH queries, computed once.
	shared map[int]*cteState
	// work holds the previous round of each running recursive CTE.
	work map[int]*cteState
}

// execCtx is one execution of a plan (and, for a subplan run, of a part of
// it: then eval carries the outer rows).
type execCtx struct {
	ex *Executor
	// alloc is the statement's execAlloc, which its subplans' runs share.
	alloc *execAlloc
	ctx   context.Context
	// kv is what the statement reads and writes through: the store, or
	// the session's transaction (txn).
	kv   kv.ReadWriter
	txn  *Txn
	eval *ir.EvalContext
	// changed are the rows the last UPDATE or DELETE changed, for its
	// AFTER triggers (triggers.go).
	changed []change
	// inHeir is set while an UPDATE or DELETE changes a table inheriting
	// from the one the statement names (heirs): that table's statement
	// triggers do not fire, as in PostgreSQL.
	inHeir bool
	// merging is the target of the MERGE whose writes are running: its
	// statement triggers are the MERGE's (merge.go), which keeps the AFTER
	// ones' transition rows in mergeChanges, by event (those of other
	// tables, written by referential actions, fire as they would).
	merging      *catalog.Table
	mergeChanges map[string][]change
	stats        map[optimizer.Node]*optimizer.NodeStats
	kvStats      *kv.Stats
	// capacity is RunOptions.Capacity.
	capacity func(table string, units float64)
	// schemaCurrent is RunOptions.SchemaCurrent.
	schemaCurrent func(ctx context.Context, t *catalog.Table) (bool, error)
	// committed counts the atomic batches the statement committed outside
	// a transaction: once one has, the statement cannot be run again.
	committed int
	mem       *memBudget
	// ctes holds the rows of shared WITH queries and the rounds of
	// recursive ones.
	ctes *cteStates
	// spill is where operators put what exceeds the budget (nil: nowhere).
	spill *spillState
	// cons are a write's CHECKs and foreign keys (constraints.go), and
	// actionDepth how deep its referential actions have cascaded.
	cons        *ir.Constraints
	actionDepth int
	// actionEvents are the AFTER triggers' events of the rows referential
	// actions changed, fired once the write that caused them is done
	// (fireActionEvents), as PostgreSQL queues them after the
	// statement's own; stmtFired records the statement triggers fired in
	// the statement, by table, event and timing, which an action's table
	// fires once a statement, as PostgreSQL does.
	// actionStmts finds the statement events in actionEvents.
	actionEvents []actionEvent
	actionStmts  map[stmtTrigger]*actionStmt
	stmtFired    map[stmtTrigger]bool
	// pending, when set, collects the write sets whose foreign keys
	// commit would enforce, to be enforced once the statement's writes
	// to every partition of its target are in (insertPartitioned).
	pending *[]*writeSet
	// leafEvents collects, in a write through a partitioned table, the
	// changes each leaf's upsert made, for the leaves' AFTER ROW
	// triggers, fired in the statement's row order (insertLeaves).
	leafEvents []leafEvent
	// touched, when set, holds by table ID the keys of the rows the
	// statement's upserts have inserted or updated, when it upserts the
	// rows of one leaf in several runs (insertLeaves).
	touched map[uint64]map[string]bool
}

// child is the context of a subplan run for outer row: the same statement,
// one more outer row.
func (ec *execCtx) child(outer []sqltypes.Value) *execCtx {
	c := *ec
	ev := *ec.eval
	if outer != nil {
		ev.Outer = append(append([][]sqltypes.Value(nil), ec.eval.Outer...), outer)
	}
	ev.Subplans = &c
	c.eval = &ev
	return &c
}

// RunSubplan implements ir.SubplanRunner.
func (ec *execCtx) RunSubplan(ev *ir.EvalContext, plan any, outer []sqltypes.Value) (ir.SubplanResult, error) {
	n, ok := plan.(optimizer.Node)
	if !ok {
		return nil, pgerr.New(pgerr.InternalError, "subplan of type %T", plan)
	}
	base := ec
	if r, ok := ev.Subplans.(*execCtx); ok {
		base = r
	}
	c := base.child(outer)
	rows, err := c.build(c.ctx, n)
	if err != nil {
		return nil, err
	}
	return &subplanRows{ctx: c.ctx, rows: rows}, nil
}

type subplanRows struct {
	ctx  context.Context
	rows Rows
}

func (s *subplanRows) Next() ([]sqltypes.Value, bool, error) { return s.rows.Next(s.ctx) }
func (s *subplanRows) Close()                                { s.rows.Close() }

func (ec *execCtx) build(ctx context.Context, n optimizer.Node) (Rows, error) {
	r, err := ec.buildNode(ctx, n)
	if err != nil {
		return nil, err
	}
	if ec.stats != nil {
		st := ec.stats[n]
		if st == nil {
			st = &optimizer.NodeStats{}
			ec.stats[n] = st
		}
		st.Loops++
		r = &statRows{in: r, st: st}
	}
	return r, nil
}

func (ec *execCtx) buildNode(ctx context.Context, n optimizer.Node) (Rows, error) {
	if open, ok := operators[reflect.TypeOf(n)]; ok {
		return open(ec, ctx, n)
	}
	return nil, pgerr.New(pgerr.InternalError, "executor: unknown plan node %T", n)
}

var (
	_ Rows = (*scanRows)(nil)
	_ Rows = (*valuesRows)(nil)
	_ Rows = (*rowsetRows)(nil)
	_ Rows = (*filterRows)(nil)
	_ Rows = (*projectRows)(nil)
	_ Rows = (*aggRows)(nil)
	_ Rows = (*sortRows)(nil)
	_ Rows = (*distinctRows)(nil)
	_ Rows = (*limitRows)(nil)
	_ Rows = (*statRows)(nil)
)

// statRows counts rows and time for EXPLAIN ANALYZE.
type statRows struct {
	in      Rows
	st      *optimizer.NodeStats
	started bool // the first Next has returned: startup time is counted
}

func (s *statRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	start := time.Now()
	row, ok, err := s.in.Next(ctx)
	took := time.Since(start)
	s.st.Time += took
	if !s.started {
		s.started = true
		s.st.Startup += took
	}
	if ok {
		s.st.Rows++
	}
	return row, ok, err
}

func (s *statRows) Close() { s.in.Close() }

// valuesRows evaluates the rows of a VALUES list (or the one empty row of
// a SELECT without FROM).
type valuesRows struct {
	ec   *execCtx
	node *optimizer.Values
	pos  int
	out  []sqltypes.Value
}

func (v *valuesRows) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if v.pos >= len(v.node.Rows) {
		return nil, false, nil
	}
	exprs := v.node.Rows[v.pos]
	v.pos++
	if cap(v.out) < len(exprs) {
		v.out = make([]sqltypes.Value, len(exprs))
	}
	v.out = v.out[:len(exprs)]
	for i, e := range exprs {
		val, err := e.Eval(v.ec.eval, nil)
		if err != nil {
			return nil, false, err
		}
		v.out[i] = val
	}
	return v.out, true, nil
}

func (v *valuesRows) Close() {}

// rowsetRows yields rows computed ahead of time (catalog views, work
// tables, materialized CTEs).
type rowsetRows struct {
	rows [][]sqltypes.Value
	pos  int
}

func (r *rowsetRows) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if r.pos >= len(r.rows) {
		return nil, false, nil
	}
	r.pos++
	return r.rows[r.pos-1], true, nil
}

func (r *rowsetRows) Close() {}

// emptyRows yields nothing.
type emptyRows struct{}

func (emptyRows) Next(context.Context) ([]sqltypes.Value, bool, error) { return nil, false, nil }
func (emptyRows) Close()                                               {}

type filterRows struct {
	in   Rows
	pred ir.Expr
	ec   *execCtx
	n    int
}

func (f *filterRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for {
		row, ok, err := f.in.Next(ctx)
		if !ok || err != nil {
			return nil, false, err
		}
		v, err := f.pred.Eval(f.ec.eval, row)
		if err != nil {
			return nil, false, err
		}
		if ir.Truthy(v) {
			return row, true, nil
		}
		if f.n++; f.n%cancelCheckEvery == 0 && ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
	}
}

func (f *filterRows) Close() { f.in.Close() }

type projectRows struct {
	in    Rows
	exprs []ir.Expr
	ec    *execCtx
	out   []sqltypes.Value
	// near, when set, is the nearest-neighbour search in, whose distance
	// the column nearCol computes (nearestDistUnder).
	near    *nearestRows
	nearCol int
}

func (p *projectRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	row, ok, err := p.in.Next(ctx)
	if !ok || err != nil {
		return nil, false, err
	}
	for i, e := range p.exprs {
		if p.near != nil && i == p.nearCol {
			p.out[i] = p.near.lastDist()
			continue
		}
		if c, ok := e.(*ir.ColRef); ok {
			// ColRef.Eval's value, without the call: a plain column
			// is most of most projections, and the value returned and
			// stored again was a stall a column a row.
			p.out[i] = row[c.Index]
			continue
		}
		v, err := e.Eval(p.ec.eval, row)
		if err != nil {
			return nil, false, err
		}
		p.out[i] = v
	}
	return p.out, true, nil
}

func (p *projectRows) Close() { p.in.Close() }

type limitRows struct {
	in            Rows
	count, offset int64
	n             int64
}

func (l *limitRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for l.offset > 0 {
		_, ok, err := l.in.Next(ctx)
		if !ok || err != nil {
			return nil, false, err
		}
		l.offset--
	}
	if l.count >= 0 && l.n >= l.count {
		return nil, false, nil
	}
	row, ok, err := l.in.Next(ctx)
	if ok {
		l.n++
	}
	return row, ok, err
}

func (l *limitRows) Close() { l.in.Close() }

// evalCounts computes a LIMIT and OFFSET known only when the limit opens.
func (l *limitRows) evalCounts(ec *execCtx, x *optimizer.Limit) error {
	var err error
	if x.CountExpr != nil {
		if l.count, err = optimizer.EvalCount(x.CountExpr, ec.eval, "LIMIT"); err != nil {
			return err
		}
	}
	if x.OffsetExpr != nil {
		if l.offset, err = optimizer.EvalCount(x.OffsetExpr, ec.eval, "OFFSET"); err != nil {
			return err
		}
		l.offset = max(l.offset, 0)
	}
	return nil
}

func copyRow(r []sqltypes.Value) []sqltypes.Value { return append([]sqltypes.Value(nil), r...) }

// memBudget is the memory the operators of one statement may hold
// (zproxy.work_mem). The accounting is approximate: a value costs its size
// plus its string's bytes.
type memBudget struct {
	mu    sync.Mutex
	used  int64
	limit int64
	// spill is where the holders of an operator's own budget (opMem) may
	// spill; nil for the statement's.
	spill *spillState
}

// rowSize estimates the memory a kept row takes.
func rowSize(r []sqltypes.Value) int64 {
	n := int64(24 + 40*len(r))
	for _, v := range r {
		n += int64(len(v.S))
	}
	return n
}

// release returns n bytes an operator no longer holds (it spilled them).
// A spilling operator that hands back handBackGC or more also has the
// collector run: see handBackGC.
func (m *memBudget) release(n int64) {
	m.mu.Lock()
	m.used -= n
	m.mu.Unlock()
	if m.spill != nil && n >= handBackGC {
		runtime.GC()
	}
}

// handBackGC is how much a spilling operator hands back (a sort's run
// written, a hash table's partitions spilled) before the collector runs.
// Why: the collector runs when the heap has grown --gc-percent (400 by
// default) since the last collection, so an operator holding work_mem of
// live rows lets the heap reach five times that, the rows it spilled and
// the input's garbage included: a sort of 5M rows at the default 256MB
// work_mem grew the process by 1.7 GB. Run just after the rows are
// dropped, a collection finds little live and frees the rest, at most
// once per handBackGC of rows and at little cost (what it marks is what is
// still held, little at that moment).
const handBackGC = 32 << 20

// grow charges n bytes to the statement, or fails with 53200 when the
// statement would go past its budget (charging nothing).
func (m *memBudget) grow(n int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.used += n
	if m.used > m.limit {
		m.used -= n
		return pgerr.New(pgerr.OutOfMemory, "statement needs more than %s of memory for sorting, hashing or grouping", sizeText(m.limit)).
			WithDetail("zproxy.work_mem bounds the memory of one statement's sorts, hash tables, DISTINCT sets and window partitions; sorts, hash aggregations (grouping sets too, and their DISTINCT or ORDER BY aggregates), hash joins, DISTINCT, set operations, windows and WITH queries (recursive ones too) spill to disk past it unless temp_file_limit is 0, the others cannot.").
			WithHint("Raise zproxy.work_mem (SET zproxy.work_mem = '1GB'), add a LIMIT, or narrow the WHERE clause.")
	}
	return nil
}

func sizeText(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return itoa(n>>30) + "GB"
	case n%(1<<20) == 0:
		return itoa(n>>20) + "MB"
	case n%(1<<10) == 0:
		return itoa(n>>10) + "kB"
	}
	return itoa(n) + " bytes"
}

func itoa(n int64) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// sortRows sorts its input; with a limit it keeps a bounded top-n. Past
// work_mem it sorts externally (spilling.go).
type sortRows struct {
	in    Rows
	keys  []ir.SortKey
	limit int
	ec    *execCtx
	node  optimizer.Node
	out   Rows
	n     int
	es    *externalSort
}

// lessBy orders rows by sort keys with PostgreSQL's NULL placement.
func lessBy(keys []ir.SortKey, a, b []sqltypes.Value) bool {
	return compareBy(keys, a, b) < 0
}

func compareBy(keys []ir.SortKey, a, b []sqltypes.Value) int {
	for _, k := range keys {
		x, y := a[k.Col], b[k.Col]
		if x.IsNull() || y.IsNull() {
			if x.IsNull() == y.IsNull() {
				continue
			}
			if x.IsNull() == k.NullsFirst {
				return -1
			}
			return 1
		}
		c := sqltypes.Compare(x, y)
		if c == 0 {
			continue
		}
		if k.Desc {
			return -c
		}
		return c
	}
	return 0
}

func (s *sortRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if s.out == nil {
		out, err := s.fill(ctx)
		if err != nil {
			return nil, false, err
		}
		s.out = out
	}
	if s.limit > 0 && s.n >= s.limit {
		return nil, false, nil
	}
	row, ok, err := s.out.Next(ctx)
	if ok {
		s.n++
	}
	return row, ok, err
}

func (s *sortRows) fill(ctx context.Context) (Rows, error) {
	es := newExternalSort(s.ec, s.node, s.keys, s.limit)
	s.es = es
	for {
		row, ok, err := s.in.Next(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if !es.wants(row) {
			continue // a top-n's reject, dropped uncopied
		}
		if err := es.add(ctx, copyRow(row)); err != nil {
			return nil, err
		}
	}
	return es.result(ctx)
}

// sortRun is how many rows sortChecked sorts between looks at its context.
const sortRun = 1 << 16

// sortChecked sorts rows stably, in runs it then merges, looking at the
// statement's context between runs so a cancel stops a large sort quickly.
func sortChecked(ctx context.Context, rows [][]sqltypes.Value, less func(i, j int) bool) error {
	if len(rows) <= sortRun {
		sort.SliceStable(rows, less)
		return nil
	}
	// Sort each run, then merge runs pairwise, checking between steps.
	type run struct{ lo, hi int }
	var runs []run
	for lo := 0; lo < len(rows); lo += sortRun {
		hi := min(lo+sortRun, len(rows))
		sub := rows[lo:hi]
		sort.SliceStable(sub, func(i, j int) bool { return less(lo+i, lo+j) })
		runs = append(runs, run{lo, hi})
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	buf := make([][]sqltypes.Value, len(rows))
	for len(runs) > 1 {
		var next []run
		for i := 0; i < len(runs); i += 2 {
			if i+1 == len(runs) {
				next = append(next, runs[i])
				continue
			}
			a, b := runs[i], runs[i+1]
			k, x, y := a.lo, a.lo, b.lo
			for x < a.hi && y < b.hi {
				if less(y, x) {
					buf[k] = rows[y]
					y++
				} else {
					buf[k] = rows[x]
					x++
				}
				k++
			}
			k += copy(buf[k:], rows[x:a.hi])
			copy(buf[k:], rows[y:b.hi])
			copy(rows[a.lo:b.hi], buf[a.lo:b.hi])
			next = append(next, run{a.lo, b.hi})
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		runs = next
	}
	return nil
}

func (s *sortRows) Close() {
	if s.out != nil {
		s.out.Close()
	}
	if s.es != nil {
		s.es.mem.release(s.es.held)
		s.es.held = 0
	}
	s.in.Close()
}

// rowSet is a hash set of rows (DISTINCT, set operations), charged to the
// statement's memory budget.
type rowSet struct {
	mem     *memBudget
	buckets map[uint64][]*setEntry
	// held is what the set charged to mem.
	held int64
}

type setEntry struct {
	row   []sqltypes.Value
	count int64 // for INTERSECT/EXCEPT ALL
}

func newRowSet(m *memBudget) *rowSet { return &rowSet{mem: m, buckets: map[uint64][]*setEntry{}} }

// find returns the entry equal to row (NULLs equal, as DISTINCT and the set
// operations compare), or nil.
func (s *rowSet) find(row []sqltypes.Value) *setEntry {
	for _, e := range s.buckets[hashRow(row)] {
		if rowsEqual(e.row, row) {
			return e
		}
	}
	return nil
}

// add stores a copy of row (or counts it again) and returns its entry and
// whether it was new.
func (s *rowSet) add(row []sqltypes.Value) (*setEntry, bool, error) {
	if e := s.find(row); e != nil {
		e.count++
		return e, false, nil
	}
	kept := copyRow(row)
	if err := s.mem.grow(rowSize(kept) + 16); err != nil {
		return nil, false, err
	}
	s.held += rowSize(kept) + 16
	e := &setEntry{row: kept, count: 1}
	h := hashRow(kept)
	s.buckets[h] = append(s.buckets[h], e)
	return e, true, nil
}

// distinctRows passes the first row of each key (the whole row, or the
// DISTINCT ON columns) as it comes; past work_mem it spills
// (distinctspill.go).
type distinctRows struct {
	in   Rows
	on   []int
	ec   *execCtx
	node optimizer.Node
	seen *rowSet
	key  []sqltypes.Value
	// spill holds the rows of keys there was no room for.
	spill distinctSpill
	// grouped: the input is sorted on key columns (distinctspill.go).
	ordered bool
	sorted  []ir.SortKey
	grouped bool
	prev    []sqltypes.Value
	// whole reads the whole input before the first row, as PostgreSQL's
	// UNION does (a hash aggregate or a sort over both operands): a
	// consumer that stops early (EXISTS, LIMIT) still has every operand
	// row evaluated, so the errors they raise are raised. pending holds
	// the fresh rows meanwhile (the set's own copies, already charged).
	whole   bool
	pending [][]sqltypes.Value
}

func (d *distinctRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for {
		if d.spill.inDone {
			if len(d.pending) > 0 {
				row := d.pending[0]
				d.pending = d.pending[1:]
				return row, true, nil
			}
			return d.nextSpilled(ctx)
		}
		row, ok, err := d.in.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if !ok {
			d.spill.inDone = true
			continue
		}
		if d.grouped && d.newGroup(row) {
			// Sorted on key columns: no later row has an earlier key.
			d.seen.mem.release(d.seen.held)
			d.seen = newRowSet(d.seen.mem)
		}
		key := row
		if len(d.on) > 0 {
			d.key = d.key[:0]
			for _, c := range d.on {
				d.key = append(d.key, row[c])
			}
			key = d.key
		}
		e, fresh, err := d.seen.add(key)
		if err != nil {
			if spilled, serr := d.spillRow(err, key, row); spilled || serr != nil {
				if serr != nil {
					return nil, false, serr
				}
				continue
			}
			return nil, false, err
		}
		if fresh && d.whole && len(d.on) == 0 {
			d.pending = append(d.pending, e.row)
			continue
		}
		if fresh {
			return row, true, nil
		}
	}
}

func (d *distinctRows) Close() {
	d.spill.close()
	d.seen.mem.release(d.seen.held)
	d.seen.held = 0
	d.in.Close()
}

// hashRow hashes a row so that rows equal under rowsEqual hash alike
// (numbers equal across kinds hash as floats).
func hashRow(r []sqltypes.Value) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range r {
		// Numbers of different kinds that compare equal (1, 1.0::float8,
		// 1.00::numeric) must hash alike: they hash as the float they are
		// closest to.
		if v.K == sqltypes.KindInt || v.K == sqltypes.KindNumeric {
			v = sqltypes.NewFloat(v.AsFloat())
		}
		h = v.Hash(h)
	}
	return h
}

// rowsEqual compares rows with NULLs equal (DISTINCT semantics).
func rowsEqual(a, b []sqltypes.Value) bool {
	for i := range a {
		if a[i].IsNull() != b[i].IsNull() {
			return false
		}
		if !a[i].IsNull() && !sqltypes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// operators start the operator of each kind of plan node, by its Go type.
// A new kind of node registers its own (operatorFor) in an init of its own
// file; buildNode dispatches through the map.
var operators = map[reflect.Type]func(ec *execCtx, ctx context.Context, n optimizer.Node) (Rows, error){}

// operatorFor registers open for the plan nodes of type T.
func operatorFor[T optimizer.Node](open func(ec *execCtx, ctx context.Context, n T) (Rows, error)) {
	operators[reflect.TypeFor[T]()] = func(ec *execCtx, ctx context.Context, n optimizer.Node) (Rows, error) { return open(ec, ctx, n.(T)) }
}

func init() {
	operatorFor((*execCtx).startScan)
	operatorFor((*execCtx).startValues)
	operatorFor((*execCtx).startRowset)
	operatorFor((*execCtx).startTableFunc)
	operatorFor((*execCtx).startFilter)
	operatorFor((*execCtx).startProject)
	operatorFor((*execCtx).startAggregate)
	operatorFor((*execCtx).startWindow)
	operatorFor((*execCtx).startProjectSet)
	operatorFor((*execCtx).startSort)
	operatorFor((*execCtx).startDistinct)
	operatorFor((*execCtx).startLimit)
	operatorFor((*execCtx).startLockRows)
	operatorFor((*execCtx).startSetOp)
	operatorFor((*execCtx).startCTEScan)
	operatorFor((*execCtx).startRecursiveUnion)
	operatorFor((*execCtx).startWorkTable)
	operatorFor((*execCtx).startHashJoin)
	operatorFor((*execCtx).startMergeJoin)
	operatorFor((*execCtx).startLookupJoin)
	operatorFor((*execCtx).startNestedLoop)
	operatorFor((*execCtx).startApply)
}

// startScan starts the operator of a Scan node.
func (ec *execCtx) startScan(ctx context.Context, x *optimizer.Scan) (Rows, error) {
	r, err := ec.newScan(ctx, x)
	if err != nil {
		return nil, err
	}
	return ec.lockRows(r, x.Table, 0, x.Lock), nil
}

// startLockRows starts the operator of a LockRows node: the locks of the
// sorted rows, taken as they pass (lockingRows at the key's columns).
func (ec *execCtx) startLockRows(ctx context.Context, x *optimizer.LockRows) (Rows, error) {
	in, err := ec.build(ctx, x.Input)
	if err != nil {
		return nil, err
	}
	return ec.lockKeyedRows(in, x.Table, x.Keys, x.Lock), nil
}

// startValues starts the operator of a Values node.
func (ec *execCtx) startValues(ctx context.Context, x *optimizer.Values) (Rows, error) {
	return &valuesRows{ec: ec, node: x}, nil
}

// startRowset starts the operator of a Rowset node.
func (ec *execCtx) startRowset(ctx context.Context, x *optimizer.Rowset) (Rows, error) {
	rows, err := x.Rows(&ec.eval.Fn)
	if err != nil {
		return nil, err
	}
	return &rowsetRows{rows: rows}, nil
}

// startTableFunc starts the operator of a TableFunc node.
func (ec *execCtx) startTableFunc(ctx context.Context, x *optimizer.TableFunc) (Rows, error) {
	return ec.newTableFunc(x)
}

// startFilter starts the operator of a Filter node.
func (ec *execCtx) startFilter(ctx context.Context, x *optimizer.Filter) (Rows, error) {
	if x.Gate != nil {
		// A one-time filter: false, and the input never starts.
		v, err := x.Gate.Eval(ec.eval, nil)
		if err != nil {
			return nil, err
		}
		if !ir.Truthy(v) {
			return emptyRows{}, nil
		}
	}
	in, err := ec.build(ctx, x.Input)
	if err != nil {
		return nil, err
	}
	return &filterRows{in: in, pred: ir.BindParams(x.Pred, ec.eval), ec: ec}, nil
}

// startProject starts the operator of a Project node.
func (ec *execCtx) startProject(ctx context.Context, x *optimizer.Project) (Rows, error) {
	input := func(x optimizer.Node) (Rows, error) { return ec.build(ctx, x) }
	in, err := input(x.Input)
	if err != nil {
		return nil, err
	}
	reuseRowsUnder(in, x.Exprs)
	p := &projectRows{in: in, exprs: x.Exprs, ec: ec, out: make([]sqltypes.Value, len(x.Exprs))}
	p.near, p.nearCol = nearestDistUnder(in, x.Exprs)
	return p, nil
}

// nearestDistUnder returns the nearest-neighbour search in and the column
// of exprs that is its distance, the very expression the search ordered by
// (the sort key of ORDER BY col <-> point LIMIT k, which the planner gave
// the search from this projection), or nil when in is no such search or
// no column is it. The search computed that distance over each row it
// returns, so the projection takes it rather than evaluating it again (at
// k = 100 a tenth of a query's CPU, the centre's constructor included).
func nearestDistUnder(in Rows, exprs []ir.Expr) (*nearestRows, int) {
	r, ok := in.(*nearestRows)
	if !ok {
		return nil, 0
	}
	for i, e := range exprs {
		if e == r.q.Dist {
			return r, i
		}
	}
	return nil, 0
}

// reuseRowsUnder lets a scan under a projection of plain columns and
// constants decode every batch into the rows of the one before
// (scanRows.reuseRows): such a projection copies the values it keeps out
// of each row before it asks for the next, and no expression of it can
// hold on to the row (a subplan's outer row, say). A box query's rows
// were a new 336-byte row each, a third of its allocated bytes.
func reuseRowsUnder(in Rows, exprs []ir.Expr) {
	s, ok := in.(*scanRows)
	if !ok {
		return
	}
	for _, e := range exprs {
		switch e.(type) {
		case *ir.ColRef, *ir.Const:
		default:
			return
		}
	}
	s.reuseRows = true
}

// startAggregate starts the operator of a Aggregate node.
func (ec *execCtx) startAggregate(ctx context.Context, x *optimizer.Aggregate) (Rows, error) {
	input := func(x optimizer.Node) (Rows, error) { return ec.build(ctx, x) }
	if x.InScan {
		return ec.newScanAgg(x)
	}
	in, err := input(x.Input)
	if err != nil {
		return nil, err
	}
	if len(x.StreamOrder) > 0 {
		return newStreamAgg(in, x, ec), nil
	}
	return &aggRows{in: in, node: x, ec: ec, mem: ec.opMem()}, nil
}

// startWindow starts the operator of a Window node.
func (ec *execCtx) startWindow(ctx context.Context, x *optimizer.Window) (Rows, error) {
	input := func(x optimizer.Node) (Rows, error) { return ec.build(ctx, x) }
	in, err := input(x.Input)
	if err != nil {
		return nil, err
	}
	return &windowRows{in: in, node: x, ec: ec, mem: ec.opMem()}, nil
}

// startProjectSet starts the operator of a ProjectSet node.
func (ec *execCtx) startProjectSet(ctx context.Context, x *optimizer.ProjectSet) (Rows, error) {
	input := func(x optimizer.Node) (Rows, error) { return ec.build(ctx, x) }
	in, err := input(x.Input)
	if err != nil {
		return nil, err
	}
	return &projectSetRows{in: in, node: x, ec: ec}, nil
}

// startSort starts the operator of a Sort node.
func (ec *execCtx) startSort(ctx context.Context, x *optimizer.Sort) (Rows, error) {
	input := func(x optimizer.Node) (Rows, error) { return ec.build(ctx, x) }
	in, err := input(x.Input)
	if err != nil {
		return nil, err
	}
	return &sortRows{in: in, keys: x.Keys, limit: x.Limit, ec: ec, node: x}, nil
}

// startDistinct starts the operator of a Distinct node.
func (ec *execCtx) startDistinct(ctx context.Context, x *optimizer.Distinct) (Rows, error) {
	input := func(x optimizer.Node) (Rows, error) { return ec.build(ctx, x) }
	in, err := input(x.Input)
	if err != nil {
		return nil, err
	}
	return newDistinct(ec, x, in), nil
}

// startLimit starts the operator of a Limit node.
func (ec *execCtx) startLimit(ctx context.Context, x *optimizer.Limit) (Rows, error) {
	input := func(x optimizer.Node) (Rows, error) { return ec.build(ctx, x) }
	in, err := input(x.Input)
	if err != nil {
		return nil, err
	}
	l := &limitRows{in: in, count: x.Count, offset: x.Offset}
	if x.CountExpr != nil || x.OffsetExpr != nil {
		if err := l.evalCounts(ec, x); err != nil {
			in.Close()
			return nil, err
		}
	}
	return l, nil
}

// startSetOp starts the operator of a SetOp node.
func (ec *execCtx) startSetOp(ctx context.Context, x *optimizer.SetOp) (Rows, error) {
	return ec.newSetOp(ctx, x)
}

// startCTEScan starts the operator of a CTEScan node.
func (ec *execCtx) startCTEScan(ctx context.Context, x *optimizer.CTEScan) (Rows, error) {
	return ec.newCTEScan(ctx, x)
}

// startRecursiveUnion starts the operator of a RecursiveUnion node.
func (ec *execCtx) startRecursiveUnion(ctx context.Context, x *optimizer.RecursiveUnion) (Rows, error) {
	return &recursiveRows{ec: ec, node: x}, nil
}

// startWorkTable starts the operator of a WorkTable node.
func (ec *execCtx) startWorkTable(ctx context.Context, x *optimizer.WorkTable) (Rows, error) {
	if st := ec.ctes.work[x.ID]; st != nil {
		return st.scan()
	}
	return emptyRows{}, nil
}

// startHashJoin starts the operator of a HashJoin node.
func (ec *execCtx) startHashJoin(ctx context.Context, x *optimizer.HashJoin) (Rows, error) {
	return ec.newHashJoin(ctx, x)
}

// startMergeJoin starts the operator of a MergeJoin node.
func (ec *execCtx) startMergeJoin(ctx context.Context, x *optimizer.MergeJoin) (Rows, error) {
	return ec.newMergeJoin(ctx, x)
}

// startLookupJoin starts the operator of a LookupJoin node.
func (ec *execCtx) startLookupJoin(ctx context.Context, x *optimizer.LookupJoin) (Rows, error) {
	if err := scannable(x.Table); err != nil {
		return nil, err
	}
	input := func(x optimizer.Node) (Rows, error) { return ec.build(ctx, x) }
	in, err := input(x.Left)
	if err != nil {
		return nil, err
	}
	return ec.lockRows(&lookupJoinRows{ec: ec, node: x, left: in}, x.Table, len(x.Left.Columns()), x.Lock), nil
}

// startNestedLoop starts the operator of a NestedLoop node.
func (ec *execCtx) startNestedLoop(ctx context.Context, x *optimizer.NestedLoop) (Rows, error) {
	return ec.newNestedLoop(ctx, x)
}

// startApply starts the operator of a Apply node.
func (ec *execCtx) startApply(ctx context.Context, x *optimizer.Apply) (Rows, error) {
	input := func(x optimizer.Node) (Rows, error) { return ec.build(ctx, x) }
	in, err := input(x.Left)
	if err != nil {
		return nil, err
	}
	return &applyRows{ec: ec, node: x, left: in}, nil
}

// set records st under id in *m, making the map on the first write.
func (c *cteStates) set(m *map[int]*cteState, id int, st *cteState) {
	if *m == nil {
		*m = map[int]*cteState{}
	}
	(*m)[id] = st
}
