package pgcatalog

import (
	"context"

	"github.com/cockroachdb/apd/v3"
	. "github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/internal/stmtstats"
)

// Tuning is what a session offers the tuning relations and functions: the
// proxy's statement statistics (pg_stat_statements), the index advisor
// (zproxy_index_advice) and the session's hypothetical indexes (HypoPG's
// model). The session package implements it beside Session; a session
// without it shows these relations empty.
type Tuning interface {
	// Statements is the proxy's statement statistics.
	Statements() *stmtstats.Store
	// IndexAdvice computes the advisor's recommendations: rows keyed by
	// zproxy_index_advice's column names.
	IndexAdvice(ctx context.Context) ([]map[string]sqltypes.Value, error)
	// CreateHypotheticalIndex adds a session-local index that EXPLAIN
	// considers and nothing executes, from a CREATE INDEX statement.
	CreateHypotheticalIndex(sql string) (HypotheticalIndex, error)
	HypotheticalIndexes() []HypotheticalIndex
	// DropHypotheticalIndex drops one by OID, reporting whether it existed.
	DropHypotheticalIndex(oid uint32) bool
	ResetHypotheticalIndexes()
}

// HypotheticalIndex is one of a session's hypothetical indexes.
type HypotheticalIndex struct {
	OID        uint32
	Name       string
	Table      string
	Method     string // btree or zorder
	Definition string
}

// The tuning relations. pg_stat_statements keeps the columns of
// PostgreSQL 15's pg_stat_statements 1.10, in order, so scripts and
// dashboards written for it work; zproxy's own columns follow them.
func init() {
	relationColumns["pg_catalog.pg_stat_statements"] = "userid oid, dbid oid, toplevel boolean, queryid bigint, query text, " +
		"plans bigint, total_plan_time double precision, min_plan_time double precision, max_plan_time double precision, " +
		"mean_plan_time double precision, stddev_plan_time double precision, calls bigint, total_exec_time double precision, " +
		"min_exec_time double precision, max_exec_time double precision, mean_exec_time double precision, " +
		"stddev_exec_time double precision, rows bigint, shared_blks_hit bigint, shared_blks_read bigint, " +
		"shared_blks_dirtied bigint, shared_blks_written bigint, local_blks_hit bigint, local_blks_read bigint, " +
		"local_blks_dirtied bigint, local_blks_written bigint, temp_blks_read bigint, temp_blks_written bigint, " +
		"blk_read_time double precision, blk_write_time double precision, temp_blk_read_time double precision, " +
		"temp_blk_write_time double precision, wal_records bigint, wal_fpi bigint, wal_bytes numeric, jit_functions bigint, " +
		"jit_generation_time double precision, jit_inlining_count bigint, jit_inlining_time double precision, " +
		"jit_optimization_count bigint, jit_optimization_time double precision, jit_emission_count bigint, " +
		"jit_emission_time double precision, " +
		"items_read bigint, store_requests bigint, dynamodb_capacity_units double precision, access_path text, full_scans bigint"
	relationInfo["pg_catalog.pg_stat_statements"] = relInfo{12900, false}
	relationColumns["pg_catalog.pg_stat_statements_info"] = "dealloc bigint, stats_reset timestamp with time zone"
	relationInfo["pg_catalog.pg_stat_statements_info"] = relInfo{12901, false}
	relationColumns["pg_catalog.zproxy_index_advice"] = "table_name name, kind text, recommendation text, statements bigint[], " +
		"calls bigint, items_before double precision, items_after double precision, requests_before double precision, " +
		"requests_after double precision, write_items_per_row double precision, rows_written bigint, reason text"
	relationInfo["pg_catalog.zproxy_index_advice"] = relInfo{12910, false}
	relationColumns["pg_catalog.zproxy_hypothetical_indexes"] = "indexrelid oid, index_name text, schema_name name, " +
		"table_name name, am_name name, definition text"
	relationInfo["pg_catalog.zproxy_hypothetical_indexes"] = relInfo{12911, false}

	generate("pg_catalog.pg_stat_statements", statementRows)
	generate("pg_catalog.pg_stat_statements_info", func(e *Env) []row {
		t := tuningOf(e)
		if t == nil {
			return nil
		}
		dealloc, reset := t.Statements().Info()
		return []row{{"dealloc": intV(dealloc), "stats_reset": sqltypes.NewTimestampTZ(reset.UnixMicro())}}
	})
	generate("pg_catalog.zproxy_index_advice", func(e *Env) []row {
		t := tuningOf(e)
		if t == nil {
			return nil
		}
		rows, err := t.IndexAdvice(e.Ctx)
		if err != nil {
			// A generator cannot fail: the advice is empty and the client
			// is told why.
			w := pgerr.New(pgerr.Warning, "index advice unavailable: %v", err)
			w.Severity = "WARNING"
			e.notice(w)
			return nil
		}
		out := make([]row, len(rows))
		for i, r := range rows {
			out[i] = r
		}
		return out
	})
	generate("pg_catalog.zproxy_hypothetical_indexes", func(e *Env) []row {
		t := tuningOf(e)
		if t == nil {
			return nil
		}
		var out []row
		for _, h := range t.HypotheticalIndexes() {
			out = append(out, row{"indexrelid": oidV(h.OID), "index_name": textV(h.Name), "schema_name": nameV("public"),
				"table_name": nameV(h.Table), "am_name": nameV(h.Method), "definition": textV(h.Definition)})
		}
		return out
	})
	registerTuning()
}

// relInfo is a relation's OID and whether it is a table (not a view).
type relInfo = struct {
	oid   uint32
	table bool
}

func tuningOf(e *Env) Tuning {
	if e == nil || e.Sess == nil {
		return nil
	}
	t, _ := e.Sess.(Tuning)
	return t
}

// statementRows lists pg_stat_statements: every entry the role may see
// (a superuser all, others their own, as PostgreSQL shows others' query
// text only to privileged roles).
func statementRows(e *Env) []row {
	t := tuningOf(e)
	if t == nil {
		return nil
	}
	super := e.readsAllStats()
	me := RoleOID(e.Sess.User())
	zero := sqltypes.NewFloat(0)
	var out []row
	for _, s := range t.Statements().Entries() {
		query := textV(s.Query)
		queryID := intV(s.QueryID)
		if !super && s.UserID != me {
			// PostgreSQL hides the queryid too: it would let a role
			// match another's statements to texts it guesses.
			query, queryID = textV("<insufficient privilege>"), sqltypes.Null
		}
		r := row{"userid": oidV(s.UserID), "dbid": oidV(s.DBID), "toplevel": boolV(s.Toplevel), "queryid": queryID,
			"query": query, "plans": intV(s.Plan.N), "total_plan_time": floatV(s.Plan.Total), "min_plan_time": floatV(s.Plan.Min),
			"max_plan_time": floatV(s.Plan.Max), "mean_plan_time": floatV(s.Plan.Mean()), "stddev_plan_time": floatV(s.Plan.Stddev()),
			"calls": intV(s.Calls()), "total_exec_time": floatV(s.Exec.Total), "min_exec_time": floatV(s.Exec.Min),
			"max_exec_time": floatV(s.Exec.Max), "mean_exec_time": floatV(s.Exec.Mean()), "stddev_exec_time": floatV(s.Exec.Stddev()),
			"rows": intV(s.Rows), "wal_bytes": sqltypes.NewNumeric(apd.New(0, 0)),
			"items_read": intV(s.ItemsRead), "store_requests": intV(s.Requests), "dynamodb_capacity_units": floatV(s.Capacity),
			"access_path": textV(s.AccessPath()), "full_scans": intV(s.FullScans)}
		if s.AccessPath() == "" {
			r["access_path"] = sqltypes.Null
		}
		// What a proxy has no notion of (blocks, WAL, JIT) is zero, as in
		// PostgreSQL for a statement that touched none.
		for _, c := range []string{"blk_read_time", "blk_write_time", "temp_blk_read_time", "temp_blk_write_time",
			"jit_generation_time", "jit_inlining_time", "jit_optimization_time", "jit_emission_time"} {
			r[c] = zero
		}
		out = append(out, r)
	}
	return out
}

// registerTuning registers pg_stat_statements_reset and the hypothetical
// index functions.
func registerTuning() {
	need := func(ctx *Context) (Tuning, error) {
		e, err := needEnv(ctx)
		if err != nil {
			return nil, err
		}
		t := tuningOf(e)
		if t == nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "statement statistics need a session")
		}
		return t, nil
	}
	void := sqltypes.TypeText // void prints as an empty value, as pg_advisory_lock's
	reset := func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
		t, err := need(ctx)
		if err != nil {
			return sqltypes.Null, err
		}
		if e := envOf(ctx); !e.Sess.IsSuperuser() {
			return sqltypes.Null, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for function pg_stat_statements_reset")
		}
		arg := func(i int) int64 {
			if i < len(a) && !a[i].IsNull() {
				return a[i].I
			}
			return 0
		}
		t.Statements().Reset(uint32(arg(0)), uint32(arg(1)), arg(2))
		return textV(""), nil
	}
	// Its parameters default to 0 (any): one overload per arity.
	params := []Param{oidP, oidP, int8P}
	for n := 0; n <= len(params); n++ {
		Register("pg_stat_statements_reset", Overload{Params: params[:n], CalledOnNull: true,
			Result: Returns(void), Volatility: Volatile, Eval: reset})
	}
	Register("zproxy_hypothetical_index", fn("", []Param{textP}, sqltypes.TypeText, Volatile,
		func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			t, err := need(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			h, err := t.CreateHypotheticalIndex(a[0].S)
			if err != nil {
				return sqltypes.Null, err
			}
			return textV(h.Name), nil
		}))
	Register("zproxy_hypothetical_index_drop", fn("", []Param{oidP}, sqltypes.TypeBool, Volatile,
		func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			t, err := need(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			return boolV(t.DropHypotheticalIndex(uint32(a[0].I))), nil
		}))
	Register("zproxy_hypothetical_index_reset", Overload{Result: Returns(void), Volatility: Volatile,
		Eval: func(ctx *Context, _ []sqltypes.Value) (sqltypes.Value, error) {
			t, err := need(ctx)
			if err != nil {
				return sqltypes.Null, err
			}
			t.ResetHypotheticalIndexes()
			return textV(""), nil
		}})
}
