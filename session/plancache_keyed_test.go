package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestKeyedGenericPlansAgreeWithCustomPlans executes a key lookup over
// every key type, by a generic plan whose key is encoded straight from the
// values (optimizer.keyedScan) and by custom plans, and requires the same
// rows and the same errors: NULLs, values out of the parameter's range,
// values of no row, a composite key, a DESC key column, a unique index, a
// key prefix's range scan, a placement by shard columns, a collation.
// EXPLAIN EXECUTE must say that the generic executions took the keyed path.
func TestKeyedGenericPlansAgreeWithCustomPlans(t *testing.T) {
	cases := []struct {
		name  string
		table string   // CREATE TABLE kt ... and any index
		rows  string   // INSERT INTO kt VALUES ...
		query string   // over kt, with $1 (and $2)
		args  []string // EXECUTE arguments, one execution each; the first reads a row
	}{
		{"int2", `(k int2 PRIMARY KEY, v int)`, `(1, 10), (-32768, 11), (32767, 12)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"1", "-32768", "32767", "2", "NULL", "40000", "'x'", "1.4"}},
		{"int4", `(k int4 PRIMARY KEY, v int)`, `(1, 10), (2147483647, 11)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"1", "2147483647", "0", "NULL", "2147483648"}},
		{"int8", `(k int8 PRIMARY KEY, v int)`, `(1, 10), (-9223372036854775808, 11)`, `SELECT v, k FROM kt WHERE k = $1`,
			[]string{"1", "-9223372036854775808", "7", "NULL", "9223372036854775808"}},
		{"text", `(k text PRIMARY KEY, v int)`, `('a', 1), ('', 2), ('ab', 3)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"'a'", "''", "'ab'", "'abc'", "NULL"}},
		{"varchar", `(k varchar(5) PRIMARY KEY, v int)`, `('a', 1), ('abcde', 2)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"'a'", "'abcde'", "'abcdef'", "NULL"}},
		{"collate_c", `(k text COLLATE "C" PRIMARY KEY, v int)`, `('a', 1), ('B', 2)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"'a'", "'B'", "'b'", "NULL"}},
		{"bytea", `(k bytea PRIMARY KEY, v int)`, `('\x01', 1), ('\x', 2), ('\x0100', 3)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{`'\x01'`, `'\x'`, `'\x0100'`, `'\x02'`, "NULL"}},
		{"uuid", `(k uuid PRIMARY KEY, v int)`, `('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 1)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", "'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'", "'00000000-0000-0000-0000-000000000000'", "NULL", "'nope'"}},
		{"numeric", `(k numeric PRIMARY KEY, v int)`, `(1.5, 1), (2, 2), ('NaN', 3)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"1.5", "1.50", "2", "2.000", "'NaN'", "3", "NULL", "'x'"}},
		{"float8", `(k float8 PRIMARY KEY, v int)`, `(1.5, 1), (0, 2)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"1.5", "0", "'-0'", "2", "NULL"}},
		{"timestamp", `(k timestamp PRIMARY KEY, v int)`, `('2024-01-01 00:00:00', 1), ('infinity', 2)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"'2024-01-01'", "'infinity'", "'2024-01-01 00:00:01'", "NULL", "'2024-13-01'"}},
		{"timestamptz", `(k timestamptz PRIMARY KEY, v int)`, `('2024-01-01 00:00:00+00', 1)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"'2024-01-01 00:00:00+00'", "'2024-01-01 01:00:00+01'", "'2024-01-01'", "NULL"}},
		{"date", `(k date PRIMARY KEY, v int)`, `('2024-01-01', 1), ('-infinity', 2)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"'2024-01-01'", "'-infinity'", "'2024-01-02'", "NULL", "'2024-02-30'"}},
		{"bpchar", `(k char(4) PRIMARY KEY, v int)`, `('a', 1), ('ab  ', 2)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"'a'", "'a   '", "'ab'", "'ab  '", "'abcde'", "NULL"}},
		{"citext", `(k citext PRIMARY KEY, v int)`, `('Ab', 1)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"'Ab'", "'ab'", "'AB'", "'x'", "NULL"}},
		{"bool", `(k bool PRIMARY KEY, v int)`, `(true, 1)`, `SELECT v FROM kt WHERE k = $1`,
			[]string{"true", "false", "'yes'", "NULL", "'maybe'"}},
		{"composite", `(a int, b text, v int, PRIMARY KEY (a, b))`, `(1, 'x', 1), (1, 'y', 2), (2, 'x', 3)`, `SELECT v FROM kt WHERE a = $1 AND b = $2`,
			[]string{"1, 'x'", "1, 'y'", "2, 'x'", "2, 'y'", "NULL, 'x'", "1, NULL"}},
		{"composite_desc", `(a int, b timestamp, v int, PRIMARY KEY (a, b DESC))`, `(1, '2024-01-01', 1), (1, '2024-01-02', 2)`,
			`SELECT v FROM kt WHERE b = $2 AND a = $1`, []string{"1, '2024-01-02'", "1, '2024-01-01'", "1, '2024-01-03'", "1, NULL"}},
		{"sharded", `(a int, b text, v int, PRIMARY KEY (a, b)) WITH (shards = 4, shard_columns = 'a')`,
			`(1, 'x', 1), (2, 'x', 2), (3, 'y', 3), (4, 'z', 4)`, `SELECT v FROM kt WHERE a = $1 AND b = $2`,
			[]string{"1, 'x'", "2, 'x'", "3, 'y'", "4, 'z'", "4, 'x'", "NULL, 'x'"}},
		{"sharded_whole_key", `(a int PRIMARY KEY, v int) WITH (shards = 4)`, `(1, 1), (2, 2), (3, 3), (4, 4)`, `SELECT v FROM kt WHERE a = $1`,
			[]string{"1", "2", "3", "4", "5"}},
		{"unique_index", `(id int PRIMARY KEY, u text, v int); CREATE UNIQUE INDEX kt_u ON kt (u)`, `(1, 'p', 1), (2, 'q', 2), (3, NULL, 3), (4, NULL, 4)`,
			`SELECT id, v FROM kt WHERE u = $1`, []string{"'p'", "'q'", "'r'", "NULL"}},
		{"unique_index_desc", `(id int PRIMARY KEY, u int, w int, v int); CREATE UNIQUE INDEX kt_uw ON kt (u DESC, w)`, `(1, 1, 1, 1), (2, 1, 2, 2), (3, 2, 1, 3)`,
			`SELECT id, v FROM kt WHERE u = $1 AND w = $2`, []string{"1, 1", "1, 2", "2, 1", "2, 2", "NULL, 1"}},
		{"prefix_latest", `(a int, b int, v int, PRIMARY KEY (a, b))`, `(1, 1, 1), (1, 2, 2), (2, 1, 3)`,
			`SELECT v FROM kt WHERE a = $1 ORDER BY b DESC LIMIT 1`, []string{"1", "2", "3", "NULL"}},
		{"prefix_sharded", `(a int, b int, v int, PRIMARY KEY (a, b)) WITH (shards = 3, shard_columns = 'a')`, `(1, 1, 1), (1, 2, 2), (2, 1, 3), (5, 5, 5)`,
			`SELECT v FROM kt WHERE a = $1 ORDER BY b`, []string{"1", "2", "5", "3", "NULL"}},
		{"prefix_all_shards", `(a int, b int, v int, PRIMARY KEY (a, b)) WITH (shards = 3)`, `(1, 1, 1), (1, 2, 2), (2, 1, 3)`,
			`SELECT v FROM kt WHERE a = $1 ORDER BY b`, []string{"1", "2", "3"}},
		{"residual", `(a int, b int, v int, PRIMARY KEY (a, b))`, `(1, 1, 1), (1, 2, 2)`,
			`SELECT v FROM kt WHERE a = $1 AND b = $2 AND v > 1`, []string{"1, 2", "1, 1", "2, 2"}},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, sess := newSession(t, memStore(t))
			run := func(sql string) (string, error) {
				rows, err := runSQL(ctx, sess, sql)
				return strings.Join(rows, "\n"), err
			}
			must := func(sql string) string {
				t.Helper()
				out, err := run(sql)
				if err != nil {
					t.Fatalf("%s: %v", sql, err)
				}
				return out
			}
			must(`CREATE TABLE kt ` + c.table)
			must(`INSERT INTO kt VALUES ` + c.rows)
			must(`PREPARE gq AS ` + c.query)
			must(`PREPARE cq AS ` + c.query)
			// Every execution of gq after the first good one is generic.
			must(`SET plan_cache_mode = force_generic_plan`)
			must(`EXECUTE gq(` + c.args[0] + `)`) // builds the generic plan
			if out := must(`EXPLAIN (COSTS off) EXECUTE gq(` + c.args[0] + `)`); !strings.Contains(out, "Plan Cache: generic plan, key from parameters") {
				t.Fatalf("the keyed path was not taken:\n%s", out)
			}
			for round := 0; round < 2; round++ {
				for _, a := range c.args {
					must(`SET plan_cache_mode = force_generic_plan`)
					gen, gerr := run(`EXECUTE gq(` + a + `)`)
					must(`SET plan_cache_mode = force_custom_plan`)
					cus, cerr := run(`EXECUTE cq(` + a + `)`)
					if gen != cus || fmt.Sprint(gerr) != fmt.Sprint(cerr) {
						t.Fatalf("EXECUTE (%s): generic %q (%v), custom %q (%v)", a, gen, gerr, cus, cerr)
					}
				}
			}
			if out := must(`SELECT generic_plans > 0, custom_plans FROM pg_prepared_statements WHERE name = 'gq'`); !strings.HasPrefix(out, "t|") {
				t.Fatalf("gq's plans: %s", out)
			}
		})
	}
}

// TestKeyedGenericPlanAfterDDL checks that a keyed generic plan follows the
// schema: an index dropped, created again, a column added and the key
// changed each replace it, and its answers stay right.
func TestKeyedGenericPlanAfterDDL(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	must := func(sql string) string {
		t.Helper()
		rows, err := runSQL(ctx, sess, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return strings.Join(rows, "\n")
	}
	must(`CREATE TABLE d (id int PRIMARY KEY, u text, v int)`)
	must(`CREATE UNIQUE INDEX d_u ON d (u)`)
	must(`INSERT INTO d VALUES (1, 'a', 10), (2, 'b', 20)`)
	must(`PREPARE q AS SELECT id, v FROM d WHERE u = $1`)
	must(`SET plan_cache_mode = force_generic_plan`)
	must(`EXECUTE q('a')`) // builds the generic plan
	explain := func(arg, want, notWant string) {
		t.Helper()
		out := must(`EXPLAIN (COSTS off) EXECUTE q(` + arg + `)`)
		if !strings.Contains(out, want) || (notWant != "" && strings.Contains(out, notWant)) {
			t.Fatalf("EXPLAIN EXECUTE q(%s): want %q, not %q:\n%s", arg, want, notWant, out)
		}
	}
	explain("'a'", "key from parameters", "")
	explain("'a'", "unique index d_u", "")
	if got := must(`EXECUTE q('b')`); got != "2|20" {
		t.Fatalf("EXECUTE q('b') = %q", got)
	}
	must(`DROP INDEX d_u`)
	must(`SET zproxy.allow_full_scan = on`)
	explain("'a'", "Plan Cache: generic plan", "key from parameters")
	if got := must(`EXECUTE q('b')`); got != "2|20" {
		t.Fatalf("after DROP INDEX: EXECUTE q('b') = %q", got)
	}
	must(`CREATE UNIQUE INDEX d_u2 ON d (u)`)
	explain("'a'", "unique index d_u2", "")
	explain("'a'", "key from parameters", "")
	must(`ALTER TABLE d ADD COLUMN w int DEFAULT 5`)
	must(`UPDATE d SET v = 21 WHERE id = 2`)
	if got := must(`EXECUTE q('b')`); got != "2|21" {
		t.Fatalf("after ALTER TABLE: EXECUTE q('b') = %q", got)
	}
	explain("'b'", "key from parameters", "")
	// A key lookup of the primary key whose key changes type.
	must(`PREPARE p AS SELECT v FROM d WHERE id = $1`)
	must(`EXECUTE p(1)`)
	explain2 := must(`EXPLAIN (COSTS off) EXECUTE p(2)`)
	if !strings.Contains(explain2, "key from parameters") {
		t.Fatalf("p:\n%s", explain2)
	}
	must(`ALTER TABLE d ALTER COLUMN id TYPE bigint`)
	if got := must(`EXECUTE p(2)`); got != "21" {
		t.Fatalf("after ALTER COLUMN TYPE: EXECUTE p(2) = %q", got)
	}
}
