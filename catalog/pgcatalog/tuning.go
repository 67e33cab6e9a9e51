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
	// ClusterStatements is the statement statistics of every proxy of
	// the store, merged per statement (pg_stat_statements), and
	// ResetClusterStatements is pg_stat_statements_reset on all of them.
	ClusterStatements() []stmtstats.Entry
	ResetClusterStatements(userID, dbID uint32, queryID int64) error
	// IndexAdvice computes the advisor's recommendations, the rows of
	// zproxy_index_advice.
	IndexAdvice(ctx context.Context) ([]IndexAdvice, error)
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

// The tuning relations (their columns: columns_zproxy.go).
func init() {
	for name, cols := range zproxyRelationColumns {
		relationColumns[name] = cols
		relationInfo[name] = zproxyRelationInfo[name]
	}

	generate("pg_catalog.pg_stat_statements", statementRows)
	generate("pg_catalog.pg_stat_statements_info", func(e *Env) []row {
		t := tuningOf(e)
		if t == nil {
			return nil
		}
		dealloc, reset := t.Statements().Info()
		return []row{&pgStatStatementsInfoRow{Dealloc: intV(dealloc), StatsReset: sqltypes.NewTimestampTZ(sqltypes.TimestampFromTime(reset))}}
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
		for i, a := range rows {
			ids := make([]sqltypes.Value, len(a.Statements))
			for j, id := range a.Statements {
				ids[j] = sqltypes.NewInt(id)
			}
			out[i] = &pgZproxyIndexAdviceRow{TableName: nameV(a.Table), Kind: textV(a.Kind), Recommendation: textV(a.Recommendation),
				Statements: sqltypes.NewArray1(sqltypes.TypeInt8, ids), Calls: intV(a.Calls), ItemsBefore: floatV(a.ItemsBefore),
				ItemsAfter: floatV(a.ItemsAfter), RequestsBefore: floatV(a.RequestsBefore), RequestsAfter: floatV(a.RequestsAfter),
				WriteItemsPerRow: floatV(a.WriteItemsPerRow), RowsWritten: intV(a.RowsWritten), Reason: textV(a.Reason)}
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
			out = append(out, &pgZproxyHypotheticalIndexesRow{Indexrelid: oidV(h.OID), IndexName: textV(h.Name), SchemaName: nameV("public"),
				TableName: nameV(h.Table), AmName: nameV(h.Method), Definition: textV(h.Definition)})
		}
		return out
	})
	generate("pg_catalog.zproxy_proxies", func(e *Env) []row {
		if e.Sess == nil {
			return nil
		}
		var out []row
		for _, p := range e.Sess.Proxies() {
			out = append(out, &pgZproxyProxiesRow{Slot: intV(int64(p.Slot)), ProxyId: textV(p.ID), Address: textV(p.Address),
				Started: timeV(&p.Started), Heartbeat: timeV(&p.Heartbeat), IsSelf: boolV(p.Self)})
		}
		return out
	})
	registerTuning()
}

// IndexAdvice is one of the advisor's recommendations: a row of
// zproxy_index_advice.
type IndexAdvice struct {
	Table, Kind, Recommendation, Reason string
	// Statements are the queryids of the statements it is drawn from.
	Statements  []int64
	Calls       int64
	RowsWritten int64
	// Items and requests per execution before and after, and the items a
	// written row costs the index.
	ItemsBefore, ItemsAfter, RequestsBefore, RequestsAfter, WriteItemsPerRow float64
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
	for _, s := range t.ClusterStatements() {
		query := textV(s.Query)
		queryID := intV(s.QueryID)
		plan := sqltypes.Null
		if s.Shape != "" {
			plan = sqltypes.NewJSON(s.Shape)
		}
		if !super && s.UserID != me {
			// PostgreSQL hides the queryid too: it would let a role
			// match another's statements to texts it guesses.
			query, queryID, plan = textV("<insufficient privilege>"), nullV, sqltypes.Null
		}
		r := &pgStatStatementsRow{Userid: oidV(s.UserID), Dbid: oidV(s.DBID), Toplevel: boolV(s.Toplevel), Queryid: queryID,
			Query: query, Plans: intV(s.Plan.N), TotalPlanTime: floatV(s.Plan.Total), MinPlanTime: floatV(s.Plan.Min),
			MaxPlanTime: floatV(s.Plan.Max), MeanPlanTime: floatV(s.Plan.Mean()), StddevPlanTime: floatV(s.Plan.Stddev()),
			Calls: intV(s.Calls()), TotalExecTime: floatV(s.Exec.Total), MinExecTime: floatV(s.Exec.Min),
			MaxExecTime: floatV(s.Exec.Max), MeanExecTime: floatV(s.Exec.Mean()), StddevExecTime: floatV(s.Exec.Stddev()),
			Rows: intV(s.Rows), WalBytes: sqltypes.NewNumeric(apd.New(0, 0)),
			ItemsRead: intV(s.ItemsRead), StoreRequests: intV(s.Requests), DynamodbCapacityUnits: floatV(s.Capacity),
			AccessPath: textV(s.AccessPath()), FullScans: intV(s.FullScans), Plan: plan}
		if s.AccessPath() == "" {
			r.AccessPath = sqltypes.Null
		}
		// What a proxy has no notion of (blocks, WAL, JIT) is zero, as in
		// PostgreSQL for a statement that touched none.
		r.BlkReadTime, r.BlkWriteTime, r.TempBlkReadTime, r.TempBlkWriteTime = zero, zero, zero, zero
		r.JitGenerationTime, r.JitInliningTime, r.JitOptimizationTime, r.JitEmissionTime = zero, zero, zero, zero
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
		if err := t.ResetClusterStatements(uint32(arg(0)), uint32(arg(1)), arg(2)); err != nil {
			return sqltypes.Null, pgerr.New(pgerr.ConnectionFailure, "pg_stat_statements_reset could not reach every proxy: %v", err)
		}
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
