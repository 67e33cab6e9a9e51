package session

import (
	"context"
	"errors"
	"fmt"
	"github.com/zproxy/zproxy/internal/guc"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/zproxy/zproxy/advisor"
	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/executor"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/internal/stmtstats"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/parser"
	"github.com/zproxy/zproxy/planner"
)

// Statement statistics, the index advisor and hypothetical indexes: the
// session's side of pg_stat_statements, zproxy_index_advice and
// zproxy_hypothetical_index (pgcatalog.Tuning).

var _ pgcatalog.Tuning = pgSession{}

// optimize plans a statement, timing it for pg_stat_statements' plans.
func (st *statement) optimize(b ir.Statement, params []sqltypes.Value, opts optimizer.Options) (*optimizer.Plan, error) {
	start := time.Now()
	plan, err := optimizer.Optimize(b, params, opts)
	st.planTime = time.Since(start)
	return plan, err
}

// recordExplained adds an EXPLAINed statement's plan to the session's
// explained workload, when zproxy.advice_workload asks for it: one call,
// keyed by the statement EXPLAIN wraps.
func (st *statement) recordExplained(plan *optimizer.Plan) {
	s := st.sess
	if s.vars[varAdviceWorkload] != "explained" {
		return
	}
	if s.explained == nil {
		s.explained = stmtstats.New(0)
	}
	norm, id := parser.Normalize(explainedText(st.parsed.Text))
	x := stmtstats.Exec{Query: norm, Planned: true, AccessPath: plan.AccessPath()}
	if sample := sampleOf(plan, 0); sample != nil {
		x.Sample = sample
	}
	s.explained.Record(stmtstats.Key{UserID: pgcatalog.RoleOID(s.currentUser()), DBID: pgcatalog.DatabaseOID, QueryID: id, Toplevel: true}, x)
}

// explainedText is the statement an EXPLAIN wraps: the text after the
// keyword and its options.
func explainedText(text string) string {
	rest := strings.TrimSpace(text[min(len(text), len("explain")):])
	if strings.HasPrefix(rest, "(") {
		if i := strings.IndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
	}
	for _, w := range []string{"analyze", "verbose"} {
		if len(rest) > len(w) && strings.EqualFold(rest[:len(w)], w) && (rest[len(w)] == ' ' || rest[len(w)] == '\n') {
			rest = rest[len(w):]
		}
		rest = strings.TrimSpace(rest)
	}
	return rest
}

// sampleOf is a plan's workload record for the advisor (nil when it reads
// and writes no table), rows being those it wrote.
func sampleOf(plan *optimizer.Plan, rows int64) *advisor.Sample {
	sample := &advisor.Sample{Uses: optimizer.Uses(plan)}
	if w, ok := plan.Root.(optimizer.Write); ok {
		sample.Written, sample.Rows = w.Target(), rows
	}
	if len(sample.Uses) == 0 && sample.Written == nil {
		return nil
	}
	return sample
}

// record adds one completed execution to the proxy's statement
// statistics: rows returned or affected, the store figures, and a
// workload sample for the advisor. plan is nil for statements that do not
// plan (DDL, SET, ...).
func (st *statement) record(plan *optimizer.Plan, stats *kv.Stats, rows int64, elapsed time.Duration) {
	e := st.sess.engine
	if e.stmts == nil {
		return
	}
	if st.queryID == 0 {
		st.norm, st.queryID = parser.Normalize(st.parsed.Text)
	}
	key := stmtstats.Key{UserID: pgcatalog.RoleOID(st.sess.currentUser()), DBID: pgcatalog.DatabaseOID, QueryID: st.queryID, Toplevel: true}
	x := stmtstats.Exec{Query: st.norm, ExecTime: elapsed, Rows: rows}
	if plan != nil {
		x.Planned, x.PlanTime = true, st.planTime
		x.ExecTime -= st.planTime
		if plan.Scan != nil {
			x.AccessPath = plan.AccessPath()
		}
		x.FullScans = optimizer.FullScans(plan)
		if e.stmts.WantSample(key) {
			if sample := sampleOf(plan, rows); sample != nil {
				x.Sample = sample
			}
			// Rendered only for sampled executions: the first few, then
			// ever more rarely.
			x.Shape = optimizer.PlanShape(plan)
		}
	}
	if stats != nil {
		x.ItemsRead, x.Requests, x.Capacity = stats.ItemsRead.Load(), stats.Requests.Load(), stats.Capacity()
	}
	e.stmts.Record(key, x)
}

// Statements implements pgcatalog.Tuning.
func (p pgSession) Statements() *stmtstats.Store { return p.s.engine.stmts }

// ClusterStatements implements pgcatalog.Tuning.
func (p pgSession) ClusterStatements() []stmtstats.Entry { return p.s.engine.clusterStatements(nil) }

// ResetClusterStatements implements pgcatalog.Tuning.
func (p pgSession) ResetClusterStatements(userID, dbID uint32, queryID int64) error {
	return p.s.engine.resetClusterStatements(userID, dbID, queryID)
}

// IndexAdvice implements pgcatalog.Tuning: the advisor run over the
// proxy's recorded workload and the schema the session sees now.
func (p pgSession) IndexAdvice(ctx context.Context) ([]pgcatalog.IndexAdvice, error) {
	e := p.s.engine
	snap, err := e.catalog.Snapshot(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	// The workload is every proxy's: its counts and its samples.
	var entries []stmtstats.Entry
	if p.s.vars[varAdviceWorkload] == "explained" {
		entries = p.s.explained.Entries()
	} else {
		entries = e.clusterStatements(snap)
	}
	if !p.s.readsAllStats(snap) {
		// Advice quotes predicates and counts of the statements it is
		// drawn from: a role without pg_read_all_stats gets advice from
		// its own statements only, and about tables it may read.
		me := pgcatalog.RoleOID(p.s.currentUser())
		mine := entries[:0:0]
		for _, en := range entries {
			if en.UserID == me {
				mine = append(mine, en)
			}
		}
		entries = mine
	}
	recs, err := e.advise(ctx, snap, entries)
	if err != nil {
		return nil, err
	}
	recs = slices.DeleteFunc(recs, func(r advisor.Recommendation) bool {
		t, err := snap.Table(r.Table)
		return err != nil || !p.s.maySelect(snap, t)
	})
	out := make([]pgcatalog.IndexAdvice, len(recs))
	for i, r := range recs {
		out[i] = pgcatalog.IndexAdvice{Table: r.Table, Kind: r.Kind, Recommendation: r.SQL, Reason: r.Reason,
			Statements: r.Statements, Calls: r.Calls, RowsWritten: r.RowsWritten, ItemsBefore: r.ItemsBefore,
			ItemsAfter: r.ItemsAfter, RequestsBefore: r.RequestsBefore, RequestsAfter: r.RequestsAfter, WriteItemsPerRow: r.WriteItems}
	}
	return out, nil
}

// advise runs the advisor over recorded statements.
func (e *Engine) advise(ctx context.Context, snap *catalog.Snapshot, entries []stmtstats.Entry) ([]advisor.Recommendation, error) {
	stmts := make([]advisor.Statement, 0, len(entries))
	for _, en := range entries {
		s := advisor.Statement{QueryID: en.QueryID, Query: en.Query, Calls: en.Calls(), ItemsRead: en.ItemsRead, Requests: en.Requests}
		for _, sm := range en.Samples {
			if x, ok := sm.(*advisor.Sample); ok {
				s.Samples = append(s.Samples, x)
			}
		}
		stmts = append(stmts, s)
	}
	return advisor.Advise(advisor.Input{Tables: snap.Tables(), Statements: stmts, Caps: e.cfg.Store.Capabilities(),
		Stats: func(t *catalog.Table) (advisor.Statistics, error) { return e.tableStats(ctx, snap, t) }})
}

// statsSampleSize is how many rows the advisor's table statistics keep.
const statsSampleSize = 2000

// statsTTL is how long sampled statistics serve before a table is read
// again.
const statsTTL = time.Minute

// sampledStats are a table's statistics from one read of its rows.
type sampledStats struct {
	revision uint64
	at       time.Time
	stats    *advisor.SampleStats
}

// statsCache holds sampled statistics by table ID.
type statsCache struct {
	mu sync.Mutex
	m  map[uint64]sampledStats
}

// tableStats are the table's ANALYZE statistics when it has been analyzed
// since its last column was added; otherwise one full read through the
// executor counts its rows and keeps a uniform sample (reservoir) of
// statsSampleSize, cached for statsTTL.
func (e *Engine) tableStats(ctx context.Context, snap *catalog.Snapshot, t *catalog.Table) (advisor.Statistics, error) {
	if st := advisor.NewAnalyzedStats(t, snap.Stats(t.ID)); st != nil {
		return st, nil
	}
	e.statsCache.mu.Lock()
	c, ok := e.statsCache.m[t.ID]
	e.statsCache.mu.Unlock()
	if ok && c.revision == t.Revision && time.Since(c.at) < statsTTL {
		return c.stats, nil
	}
	q := &ir.Query{Plan: ir.NewScan(t, "")}
	plan, err := optimizer.Optimize(q, nil, e.opts)
	if err != nil {
		return nil, err
	}
	rows, err := e.exec.Run(ctx, plan, nil, executor.RunOptions{})
	if err != nil {
		return nil, storeErr(err)
	}
	defer rows.Close()
	var n int64
	var sample [][]sqltypes.Value
	for {
		r, ok, err := rows.Next(ctx)
		if err != nil {
			return nil, storeErr(err)
		}
		if !ok {
			break
		}
		n++
		switch {
		case len(sample) < statsSampleSize:
			sample = append(sample, append([]sqltypes.Value(nil), r...))
		default:
			if j := rand.Int64N(n); j < statsSampleSize {
				sample[j] = append(sample[j][:0], r...)
			}
		}
	}
	st := advisor.NewSampleStats(n, sample)
	e.statsCache.mu.Lock()
	if e.statsCache.m == nil {
		e.statsCache.m = map[uint64]sampledStats{}
	}
	e.statsCache.m[t.ID] = sampledStats{revision: t.Revision, at: time.Now(), stats: st}
	e.statsCache.mu.Unlock()
	return st, nil
}

// hypoIndex is one of a session's hypothetical indexes.
type hypoIndex struct {
	pgcatalog.HypotheticalIndex
	index *catalog.Index
}

// hypoOIDBase starts the OIDs of a session's hypothetical indexes, in a
// range no stored object's OID reaches (user objects count up from 16384
// by catalog version); like HypoPG's, they are the session's own.
const hypoOIDBase = 0x7f000000

// CreateHypotheticalIndex implements pgcatalog.Tuning: the statement is
// bound as CREATE INDEX would be, and the index kept in the session,
// named as HypoPG names them (<oid>kind_table_columns).
func (p pgSession) CreateHypotheticalIndex(sql string) (pgcatalog.HypotheticalIndex, error) {
	s := p.s
	h, err := s.createHypothetical(sql)
	if err != nil {
		// Positions would point into the argument, not at the statement
		// the client wrote.
		var pe *pgerr.Error
		if errors.As(err, &pe) && pe.Position > 0 {
			c := *pe
			c.Position = 0
			err = &c
		}
	}
	return h, err
}

// createHypothetical binds CREATE INDEX text into a hypothetical index.
func (s *Session) createHypothetical(sql string) (pgcatalog.HypotheticalIndex, error) {
	if f := strings.Fields(sql); len(f) >= 3 && strings.EqualFold(f[0], "create") && strings.EqualFold(f[1], "index") &&
		strings.EqualFold(f[2], "on") {
		// HypoPG's examples leave the index unnamed; the name is replaced
		// below anyway.
		sql = strings.Replace(sql, f[2], "zproxy_hypothetical "+f[2], 1)
	}
	stmts, err := parser.Parse(sql)
	if err != nil {
		return pgcatalog.HypotheticalIndex{}, err
	}
	if len(stmts) != 1 {
		return pgcatalog.HypotheticalIndex{}, pgerr.New(pgerr.InvalidParameterValue, "zproxy_hypothetical_index takes one CREATE INDEX statement")
	}
	snap, err := s.snapshot(context.Background())
	if err != nil {
		return pgcatalog.HypotheticalIndex{}, storeErr(err)
	}
	bound, _, err := planner.Bind(snap, &stmts[0], nil)
	if err != nil {
		return pgcatalog.HypotheticalIndex{}, err
	}
	ci, ok := bound.(*ir.CreateIndex)
	if !ok {
		return pgcatalog.HypotheticalIndex{}, pgerr.New(pgerr.InvalidParameterValue, "zproxy_hypothetical_index takes a CREATE INDEX statement, not %s", bound.Kind())
	}
	t, err := snap.Table(ci.Table)
	if err != nil {
		return pgcatalog.HypotheticalIndex{}, err
	}
	if !s.maySelect(snap, t) {
		// Its definition and the plans it changes would tell the
		// table's layout to a role that may not read it.
		return pgcatalog.HypotheticalIndex{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", t.Name)
	}
	ix := *ci.Index
	ix.State = catalog.StatePublic
	if ci.AlignToData {
		// A hypothetical index reads no rows: its leads come from the
		// extremes ANALYZE saw.
		ix.Columns = slices.Clone(ix.Columns)
		if !t.AlignLeadsToStats(&ix, snap.Stats(t.ID)) {
			return pgcatalog.HypotheticalIndex{}, pgerr.New(pgerr.ObjectNotInPrerequisiteState, "cannot align a hypothetical index to the data of table %q: it has no statistics of those columns", t.Name).
				WithHint("ANALYZE the table first, or give the leads: WITH (leads = '...').")
		}
	}
	h := hypoIndex{index: &ix}
	s.hypoSeq++
	h.OID = hypoOIDBase + s.hypoSeq
	name := fmt.Sprintf("<%d>%s_%s", h.OID, ix.Kind, t.Name)
	for _, k := range ix.Columns {
		name += "_" + t.Columns[k.Column].Name
	}
	ix.Name = name
	ix.ID = uint64(h.OID)
	h.Name, h.Table, h.Method = ix.Name, t.Name, string(ix.Kind)
	unnamed := ix
	unnamed.Name = ""
	h.Definition = advisor.CreateIndexSQL(t, &unnamed)
	s.hypo = append(s.hypo, h)
	return h.HypotheticalIndex, nil
}

// HypotheticalIndexes implements pgcatalog.Tuning.
func (p pgSession) HypotheticalIndexes() []pgcatalog.HypotheticalIndex {
	out := make([]pgcatalog.HypotheticalIndex, len(p.s.hypo))
	for i, h := range p.s.hypo {
		out[i] = h.HypotheticalIndex
	}
	sort.Slice(out, func(i, j int) bool { return out[i].OID < out[j].OID })
	return out
}

// DropHypotheticalIndex implements pgcatalog.Tuning.
func (p pgSession) DropHypotheticalIndex(oid uint32) bool {
	for i, h := range p.s.hypo {
		if h.OID == oid {
			p.s.hypo = append(p.s.hypo[:i], p.s.hypo[i+1:]...)
			return true
		}
	}
	return false
}

// ResetHypotheticalIndexes implements pgcatalog.Tuning.
func (p pgSession) ResetHypotheticalIndexes() { p.s.hypo = nil }

// hypothetical returns snap with the session's hypothetical indexes added
// to their tables (those whose table is gone are skipped), or snap itself
// when there are none.
func (s *Session) hypothetical(snap *catalog.Snapshot) *catalog.Snapshot {
	if len(s.hypo) == 0 {
		return snap
	}
	changed := map[string]*catalog.Table{}
	for _, h := range s.hypo {
		t := changed[h.Table]
		if t == nil {
			orig, err := snap.Table(h.Table)
			if err != nil {
				continue
			}
			t = orig.Clone()
			changed[h.Table] = t
		}
		t.Indexes = append(t.Indexes, h.index)
	}
	tables := make([]*catalog.Table, 0, len(changed))
	for _, t := range changed {
		tables = append(tables, t)
	}
	return snap.WithTables(tables...)
}

// explainHypothetical binds an EXPLAIN (without ANALYZE: nothing runs on
// an index that does not exist) against the schema with the session's
// hypothetical indexes, so its plan and estimates consider them.
func (st *statement) explainHypothetical(x *ir.Explain) (*ir.Explain, error) {
	if x.Analyze || len(st.sess.hypo) == 0 || st.boundSnap == nil {
		return x, nil
	}
	bound, _, err := planner.Bind(st.sess.hypothetical(st.boundSnap), st.parsed, st.declared)
	if err != nil {
		return nil, err
	}
	if hx, ok := bound.(*ir.Explain); ok {
		return hx, nil
	}
	return x, nil
}

// explainGUCs are the parameters PostgreSQL 15 flags GUC_EXPLAIN, the ones
// EXPLAIN (SETTINGS) lists when they differ from their boot values
// (pg_settings_get_flags on the oracle): zproxy accepts every one, and
// lists it as PostgreSQL does, whether or not it steers zproxy's plans.
var explainGUCs = strings.Fields(`constraint_exclusion cpu_index_tuple_cost cpu_operator_cost cpu_tuple_cost
	cursor_tuple_fraction effective_cache_size effective_io_concurrency enable_async_append enable_bitmapscan
	enable_gathermerge enable_hashagg enable_hashjoin enable_incremental_sort enable_indexonlyscan enable_indexscan
	enable_material enable_memoize enable_mergejoin enable_nestloop enable_parallel_append enable_parallel_hash
	enable_partition_pruning enable_partitionwise_aggregate enable_partitionwise_join enable_seqscan enable_sort
	enable_tidscan force_parallel_mode from_collapse_limit geqo geqo_effort geqo_generations geqo_pool_size geqo_seed
	geqo_selection_bias geqo_threshold hash_mem_multiplier jit jit_above_cost jit_inline_above_cost
	jit_optimize_above_cost join_collapse_limit maintenance_io_concurrency max_parallel_workers
	max_parallel_workers_per_gather min_parallel_index_scan_size min_parallel_table_scan_size
	parallel_leader_participation parallel_setup_cost parallel_tuple_cost plan_cache_mode random_page_cost
	recursive_worktable_factor search_path seq_page_cost temp_buffers work_mem`)

// explainSettings are what EXPLAIN (SETTINGS) lists: PostgreSQL's
// explainGUCs and zproxy's own planner setting zproxy.allow_full_scan
// whose values differ from their boot values, by name as PostgreSQL
// orders them.
func (s *Session) explainSettings() [][2]string {
	names := append([]string{varAllowFullScan}, explainGUCs...)
	sort.Strings(names)
	out := [][2]string{}
	for _, n := range names {
		v := n
		if n == "work_mem" {
			v = varWorkMem // zproxy's, whose boot value is its own default
		}
		def, ok := knownVars[v]
		if v == varWorkMem {
			def, ok = defaultVars(true)[v], true
		}
		if p, known := guc.Lookup(v); !ok && known {
			def = p.BootValue().Show
		}
		if val := s.varValue(v); val != def {
			out = append(out, [2]string{n, val})
		}
	}
	return out
}
