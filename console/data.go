package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// endpoints are the console's API, each one or a few fixed SQL queries run
// as the logged-in role, so a page shows what that role's SQL would.
func (c *Console) endpoints() map[string]endpoint {
	return map[string]endpoint{
		"GET /console/api/me":         me,
		"GET /console/api/statements": statements,
		"GET /console/api/sessions":   sessions,
		"GET /console/api/advice":     advice,
		"GET /console/api/tables":     tables,
		"POST /console/api/explain":   explain,
	}
}

// Rows are a query's rows as column name → value, in the query's order
// (the pages show the columns they know).
type Rows []map[string]any

// queryRows runs a query and returns its rows with JSON-friendly values.
func queryRows(ctx context.Context, conn *pgx.Conn, sql string, args ...any) (Rows, error) {
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := Rows{}
	fields := rows.FieldDescriptions()
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		m := make(map[string]any, len(vals))
		for i, v := range vals {
			m[fields[i].Name] = jsonValue(v)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// jsonValue makes a value pgx decoded encode as the pages expect: numerics
// as numbers, times in RFC 3339, addresses as text.
func jsonValue(v any) any {
	switch x := v.(type) {
	case pgtype.Numeric:
		f, err := x.Float64Value()
		if err != nil || !f.Valid {
			return nil
		}
		return f.Float64
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case []any:
		for i := range x {
			x[i] = jsonValue(x[i])
		}
		return x
	case fmt.Stringer:
		return x.String()
	}
	return v
}

func me(ctx context.Context, conn *pgx.Conn, _ *http.Request) (any, error) {
	rows, err := queryRows(ctx, conn, `SELECT current_user AS "user", r.rolsuper AS superuser,
		pg_has_role(current_user, 'pg_read_all_stats', 'MEMBER') AS read_all_stats, version() AS version
		FROM pg_roles r WHERE r.rolname = current_user`)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		// Under trust a user that is no role is a superuser.
		return map[string]any{"user": conn.Config().User, "superuser": true, "read_all_stats": true}, nil
	}
	return rows[0], nil
}

// statements: pg_stat_statements, most execution time first, each with its
// plan's shape (the plan column), which the page draws as a tree.
func statements(ctx context.Context, conn *pgx.Conn, _ *http.Request) (any, error) {
	return queryRows(ctx, conn, `SELECT queryid::text AS queryid, query, calls, total_exec_time, mean_exec_time, rows,
		items_read, store_requests, dynamodb_capacity_units, access_path, full_scans, plan
		FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 200`)
}

// sessions: pg_stat_activity, the sessions of every proxy of the store
// (a proxy's slot is the high bits of its sessions' process IDs; roles
// without pg_read_all_stats see others' only by name).
func sessions(ctx context.Context, conn *pgx.Conn, _ *http.Request) (any, error) {
	return queryRows(ctx, conn, `SELECT pid, usename, application_name, host(client_addr) AS client_addr,
		backend_start, xact_start, query_start, state, query, pid = pg_backend_pid() AS console
		FROM pg_stat_activity ORDER BY backend_start`)
}

// advice: zproxy_index_advice, with the text of the statements each
// recommendation helps.
func advice(ctx context.Context, conn *pgx.Conn, _ *http.Request) (any, error) {
	recs, err := queryRows(ctx, conn, `SELECT table_name, kind, recommendation, statements, calls, items_before, items_after,
		requests_before, requests_after, write_items_per_row, rows_written, reason FROM zproxy_index_advice`)
	if err != nil {
		return nil, err
	}
	texts, err := queryRows(ctx, conn, `SELECT queryid::text AS queryid, query FROM pg_stat_statements WHERE queryid IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	byID := map[string]string{}
	for _, t := range texts {
		byID[fmt.Sprint(t["queryid"])] = fmt.Sprint(t["query"])
	}
	for _, r := range recs {
		var helped []string
		ids, _ := r["statements"].([]any)
		for _, id := range ids {
			if q, ok := byID[fmt.Sprint(id)]; ok {
				helped = append(helped, q)
			}
		}
		r["statement_texts"] = helped
		// queryids run past 2^53: JavaScript gets them as text.
		for i, id := range ids {
			ids[i] = fmt.Sprint(id)
		}
	}
	return recs, nil
}

// tables: the tables and views of the public schema with their rows,
// options, statistics and sizes (pg_table_size, pg_indexes_size,
// pg_total_relation_size: measured by the store where it can, else
// estimated from the statistics; NULL when neither can say), their indexes
// with their sizes, and per column the statistics ANALYZE keeps.
func tables(ctx context.Context, conn *pgx.Conn, _ *http.Request) (any, error) {
	tabs, err := queryRows(ctx, conn, `SELECT c.relname AS name, c.relkind::text AS kind, c.reltuples, array_to_string(c.reloptions, ', ') AS options,
		pg_table_size(c.oid) AS table_bytes, pg_indexes_size(c.oid) AS index_bytes, pg_total_relation_size(c.oid) AS total_bytes,
		s.n_live_tup, s.n_tup_ins, s.n_tup_upd, s.n_tup_del, s.last_analyze, s.last_autoanalyze,
		pg_get_userbyid(c.relowner) AS owner
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
		WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v') ORDER BY c.relname`)
	if err != nil {
		return nil, err
	}
	idx, err := queryRows(ctx, conn, `SELECT i.tablename, i.indexname, i.indexdef, c.reltuples, pg_relation_size(c.oid) AS bytes
		FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname AND c.relkind = 'i'
		WHERE i.schemaname = 'public' ORDER BY i.tablename, i.indexname`)
	if err != nil {
		return nil, err
	}
	cols, err := queryRows(ctx, conn, `SELECT tablename, attname, null_frac, avg_width, n_distinct,
		most_common_vals, histogram_bounds FROM pg_stats WHERE schemaname = 'public' ORDER BY tablename, attname`)
	if err != nil {
		return nil, err
	}
	byTable := map[string]map[string]any{}
	for _, t := range tabs {
		t["indexes"], t["columns"] = Rows{}, Rows{}
		byTable[fmt.Sprint(t["name"])] = t
	}
	for _, i := range idx {
		if t := byTable[fmt.Sprint(i["tablename"])]; t != nil {
			t["indexes"] = append(t["indexes"].(Rows), i)
		}
	}
	for _, col := range cols {
		t := byTable[fmt.Sprint(col["tablename"])]
		if t == nil {
			continue
		}
		t["columns"] = append(t["columns"].(Rows), col)
	}
	return tabs, nil
}

// explainRequest is the Z-order page's question.
type explainRequest struct {
	Query   string `json:"query"`
	Analyze bool   `json:"analyze"`
}

// Explained is a plan and the pictures of its Z-order reads.
type Explained struct {
	Plan     any        `json:"plan"`
	Pictures []*Picture `json:"pictures"`
}

// explain runs EXPLAIN (VERBOSE, FORMAT JSON [, ANALYZE]) of one statement
// in a READ ONLY transaction that it rolls back, so that ANALYZE of a
// write fails (25006) instead of writing, and draws each Z-order scan.
func explain(ctx context.Context, conn *pgx.Conn, r *http.Request) (any, error) {
	var req explainRequest
	if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20)).Decode(&req); err != nil {
		return nil, badRequest("the body is {\"query\": ..., \"analyze\": true|false}")
	}
	q := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(req.Query), ";"))
	if q == "" {
		return nil, badRequest("no query to explain")
	}
	opts := "FORMAT JSON, VERBOSE"
	if req.Analyze {
		opts += ", ANALYZE"
	}
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	// One statement only: the extended protocol refuses a string of
	// several.
	var doc any
	if err := tx.QueryRow(ctx, "EXPLAIN ("+opts+") "+q, pgx.QueryExecModeDescribeExec).Scan(&doc); err != nil {
		return nil, err
	}
	if s, ok := doc.(string); ok {
		if err := json.Unmarshal([]byte(s), &doc); err != nil {
			return nil, fmt.Errorf("EXPLAIN's JSON: %w", err)
		}
	}
	out := &Explained{Plan: doc, Pictures: []*Picture{}}
	var walk func(n map[string]any) error
	walk = func(n map[string]any) error {
		if n["zproxy Z-order Attributes"] != nil {
			p, err := pictureOf(n)
			if err != nil {
				return err
			}
			out.Pictures = append(out.Pictures, p)
		}
		kids, _ := n["Plans"].([]any)
		for _, k := range kids {
			if km, ok := k.(map[string]any); ok {
				if err := walk(km); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if arr, ok := doc.([]any); ok && len(arr) > 0 {
		if top, ok := arr[0].(map[string]any); ok {
			if plan, ok := top["Plan"].(map[string]any); ok {
				if err := walk(plan); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}
