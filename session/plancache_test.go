package session_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/wire"
)

// TestGenericPlansAgreeWithFreshPlans executes prepared statements with
// random values (NULLs, empty and reversed ranges, repeated IN values,
// keys that exist and keys that do not) well past the point where their
// plan cache settles on a generic plan, and checks every answer against
// the same statement planned afresh for those values (its text with the
// values spelled out), on every backend. The statements that settle must
// report generic plans in pg_prepared_statements.
func TestGenericPlansAgreeWithFreshPlans(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			_, sess := newSession(t, be.open(t))
			for _, sql := range []string{
				`CREATE TABLE g (a int, b text, c int, d int, PRIMARY KEY (a, b)) WITH (shards = 4, shard_columns = 'a')`,
				`CREATE INDEX g_c ON g (c, d)`,
				`CREATE UNIQUE INDEX g_d ON g (d)`,
				`INSERT INTO g SELECT i % 40, 'b' || (i % 7), i % 13, i FROM generate_series(0, 279) i`,
			} {
				if _, err := runSQL(ctx, sess, sql); err != nil {
					t.Fatalf("%s: %v", sql, err)
				}
			}
			rng := rand.New(rand.NewPCG(1, 2))
			intArg := func() sqltypes.Value {
				if rng.IntN(12) == 0 {
					return sqltypes.Null
				}
				return sqltypes.NewInt(int64(rng.IntN(50) - 3))
			}
			textArg := func() sqltypes.Value {
				if rng.IntN(12) == 0 {
					return sqltypes.Null
				}
				return sqltypes.NewText(fmt.Sprintf("b%d", rng.IntN(9)))
			}
			cases := []struct {
				sql  string
				args []func() sqltypes.Value
			}{
				{`SELECT a, b, c, d FROM g WHERE a = $1 AND b = $2`, []func() sqltypes.Value{intArg, textArg}},
				{`SELECT a, b, d FROM g WHERE a = $1 ORDER BY b DESC`, []func() sqltypes.Value{intArg}},
				{`SELECT a, b FROM g WHERE a >= $1 AND a < $2 ORDER BY a, b LIMIT 5`, []func() sqltypes.Value{intArg, intArg}},
				{`SELECT a, b FROM g WHERE a IN ($1, $2, $3) AND b = $4 ORDER BY a`, []func() sqltypes.Value{intArg, intArg, intArg, textArg}},
				{`SELECT count(*), sum(d) FROM g WHERE c = $1 AND d > $2`, []func() sqltypes.Value{intArg, intArg}},
				{`SELECT a, b FROM g WHERE d = $1`, []func() sqltypes.Value{intArg}},
				{`SELECT a, b, d FROM g WHERE a = $1 AND d % 2 = $2 ORDER BY b`, []func() sqltypes.Value{intArg, intArg}},
				{`SELECT DISTINCT c FROM g WHERE a BETWEEN $1 AND $2 ORDER BY c`, []func() sqltypes.Value{intArg, intArg}},
			}
			n := 60
			if be.name != "pebble" {
				// Every execution a round trip or more: the store's part
				// (keys and ranges it reads) shows in fewer.
				n = 20
			}
			for _, c := range cases {
				generic, custom := agreeWithFreshPlans(t, ctx, sess, c.sql, c.args, n)
				if generic == 0 || custom < 5 {
					t.Errorf("%s: %d generic plans and %d custom plans over %d executions; want generic plans after 5 custom", c.sql, generic, custom, n)
				}
			}
		})
	}
}

// agreeWithFreshPlans prepares sql and executes it n times with values
// from args, checking each answer against the same statement planned
// afresh for those values (its text with the values spelled out, in
// order when sql has an ORDER BY); it returns how many executions used
// the generic plan and how many were custom plans.
func agreeWithFreshPlans(t *testing.T, ctx context.Context, sess wire.Session, sql string, args []func() sqltypes.Value, n int) (generic, custom int64) {
	t.Helper()
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[0]
	types, _, err := st.Describe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		params := make([]sqltypes.Value, len(args))
		spelled := sql
		for j := len(args) - 1; j >= 0; j-- {
			params[j] = args[j]()
			if !params[j].IsNull() {
				// A value of the parameter's type, as the wire's
				// Bind gives it.
				v, err := sqltypes.ParseText(types[j], string(sqltypes.AppendText(nil, params[j])))
				if err != nil {
					t.Fatal(err)
				}
				params[j] = v
			}
			lit := "NULL"
			if !params[j].IsNull() {
				lit = "'" + strings.ReplaceAll(string(sqltypes.AppendText(nil, params[j])), "'", "''") + "'"
			}
			spelled = strings.ReplaceAll(spelled, fmt.Sprintf("$%d", j+1), lit+"::"+types[j].String())
		}
		got := executeRows(t, ctx, st, params)
		want, err := runSQL(ctx, sess, spelled)
		if err != nil {
			t.Fatalf("%s: %v", spelled, err)
		}
		if !strings.Contains(sql, "ORDER BY") {
			slices.Sort(got)
			slices.Sort(want)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("execution %d of %s with %v:\n got %v\nwant %v (%s)", i, sql, params, got, want, spelled)
		}
	}
	counter, ok := st.(wire.PlanCounter)
	if !ok {
		t.Fatal("session statements count their plans")
	}
	return counter.PlanCounts()
}

// executeRows executes a prepared statement with params and returns its rows as
// text.
func executeRows(t *testing.T, ctx context.Context, st wire.Statement, params []sqltypes.Value) []string {
	t.Helper()
	res, err := st.Execute(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	cols := res.Columns()
	var out []string
	for {
		row, ok, err := res.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return out
		}
		parts := make([]string, len(row))
		for i, v := range row {
			if v.IsNull() {
				parts[i] = "NULL"
			} else {
				parts[i] = string(sqltypes.AppendTextStyled(nil, cols[i].Type, v, sqltypes.Style{}))
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
}

// TestExplainExecuteSaysWhichPlan: EXPLAIN EXECUTE shows the plan the
// prepared statement's cache gives for the arguments, says whether it is
// the generic plan, and counts in pg_prepared_statements as an EXECUTE.
func TestExplainExecuteSaysWhichPlan(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	for _, sql := range []string{
		`CREATE TABLE e (k int PRIMARY KEY, v text)`,
		`INSERT INTO e SELECT i, 'v' || i FROM generate_series(1, 20) i`,
		`PREPARE q(int) AS SELECT v FROM e WHERE k = $1`,
	} {
		if _, err := runSQL(ctx, sess, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	explain := func(sql string) string {
		t.Helper()
		rows, err := runSQL(ctx, sess, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return strings.Join(rows, "\n")
	}
	for i := 1; i <= 5; i++ {
		out := explain(fmt.Sprintf("EXPLAIN (COSTS off) EXECUTE q(%d)", i))
		if !strings.Contains(out, "Plan Cache: custom plan") || !strings.Contains(out, fmt.Sprintf("k = %d", i)) {
			t.Fatalf("execution %d:\n%s", i, out)
		}
	}
	out := explain("EXPLAIN (COSTS off, ANALYZE, TIMING off, SUMMARY off) EXECUTE q(17)")
	if !strings.Contains(out, "Plan Cache: generic plan") || !strings.Contains(out, "k = 17") {
		t.Fatalf("sixth execution:\n%s", out)
	}
	if out := explain("EXPLAIN (FORMAT json) EXECUTE q(3)"); !strings.Contains(out, `"zproxy Plan Cache": "generic"`) {
		t.Fatalf("json:\n%s", out)
	}
	if got := explain("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'q'"); got != "2|5" {
		t.Fatalf("pg_prepared_statements: %s, want 2|5", got)
	}
	if got := explain("EXECUTE q(17)"); got != "v17" {
		t.Fatalf("EXECUTE q(17) = %q", got)
	}
	// The explained statement's own errors and EXPLAIN's are PostgreSQL's.
	if _, err := runSQL(ctx, sess, "EXPLAIN EXECUTE nope(1)"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("EXPLAIN EXECUTE of a missing statement: %v", err)
	}
	if _, err := runSQL(ctx, sess, "EXPLAIN (WAL) EXECUTE q(1)"); err == nil {
		t.Fatal("EXPLAIN (WAL) without ANALYZE must fail")
	}
}

// TestGenericWriteWithHeirs executes a prepared UPDATE and DELETE of a
// table that others inherit from past the plan cache's custom plans: each
// execution must change the rows its own values name, in the parent and
// in its heirs, whichever plan serves it.
func TestGenericWriteWithHeirs(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	for _, sql := range []string{
		`CREATE TABLE hp (id int PRIMARY KEY, v int)`,
		`CREATE TABLE hc (w int) INHERITS (hp)`,
		`INSERT INTO hp SELECT i, 0 FROM generate_series(0, 19) i`,
		`INSERT INTO hc SELECT i, 0, 0 FROM generate_series(100, 119) i`,
	} {
		if _, err := runSQL(ctx, sess, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	parse := func(sql string) wire.Statement {
		stmts, err := sess.Parse(ctx, sql, nil)
		if err != nil {
			t.Fatal(err)
		}
		return stmts[0]
	}
	update, del := parse(`UPDATE hp SET v = $1 WHERE id = $2`), parse(`DELETE FROM hp WHERE id = $1`)
	for i := 0; i < 10; i++ {
		executeRows(t, ctx, update, []sqltypes.Value{sqltypes.NewInt(int64(i + 1)), sqltypes.NewInt(int64(i))})
		executeRows(t, ctx, update, []sqltypes.Value{sqltypes.NewInt(int64(i + 1)), sqltypes.NewInt(int64(100 + i))})
		executeRows(t, ctx, del, []sqltypes.Value{sqltypes.NewInt(int64(10 + i))})
		executeRows(t, ctx, del, []sqltypes.Value{sqltypes.NewInt(int64(110 + i))})
	}
	got, err := runSQL(ctx, sess, `SELECT count(*), sum(v) FROM hp`)
	if err != nil {
		t.Fatal(err)
	}
	// Ten rows left in each table, their v 1..10: 20 rows, 110 in all.
	if want := []string{"20|110"}; !slices.Equal(got, want) {
		t.Errorf("after the executions: %q, want %q", got, want)
	}
}
