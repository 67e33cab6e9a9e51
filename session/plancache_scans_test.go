package session_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestGenericScansAgreeWithFreshPlans is TestGenericPlansAgreeWithFreshPlans
// for the scans whose arguments are not key prefixes: inverted (gin)
// indexes over jsonb, arrays and tsvectors, a gist index's Z-order box
// (&&, ST_DWithin) and nearest search, a Z-order index's box, an index
// expression and a partial gin index whose predicate the values may or may
// not imply. Random values include NULLs, empty arrays and objects, stop
// words (a tsquery of no lexemes), negations, reversed and empty boxes,
// zero radii; every answer must be a fresh plan's, and each statement
// must settle on a generic plan.
func TestGenericScansAgreeWithFreshPlans(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			t.Parallel() // the stores are the legs' own: DynamoDB Local's round trips overlap Pebble's work
			ctx := context.Background()
			_, sess := newSession(t, be.open(t))
			for _, sql := range []string{
				`CREATE TABLE docs (id int PRIMARY KEY, kind int, name text, attrs jsonb, tags text[], body text)`,
				`INSERT INTO docs SELECT i, i % 3, 'N' || (i % 17),
					('{"brand": "b' || (i % 7) || '", "dims": {"w": ' || (i % 5) || '}, "x' || (i % 11) || '": true}')::jsonb,
					ARRAY['t' || (i % 13), 't' || (i % 19)], 'The w' || (i % 23) || ' and w' || (i % 29) || ' run'
					FROM generate_series(0, 199) i`,
				`CREATE INDEX docs_attrs ON docs USING gin (attrs)`,
				`CREATE INDEX docs_attrs_path ON docs USING gin (attrs jsonb_path_ops)`,
				`CREATE INDEX docs_tags ON docs USING gin (tags)`,
				`CREATE INDEX docs_body ON docs USING gin (to_tsvector('english', body))`,
				`CREATE INDEX docs_lower ON docs (lower(name))`,
				`CREATE TABLE kinds (id int PRIMARY KEY, kind int, tags text[])`,
				`INSERT INTO kinds SELECT i, i % 3, ARRAY['t' || (i % 13)] FROM generate_series(0, 199) i`,
				`CREATE INDEX kinds_one ON kinds USING gin (tags) WHERE kind = 1`,
				`CREATE TABLE pts (id int PRIMARY KEY, geom geometry(Point, 4326), kind int)`,
				`INSERT INTO pts SELECT i, ST_SetSRID(ST_MakePoint(10 + (i * 37 % 101) / 100.0 + i / 100000.0, 50 + (i * 53 % 103) / 100.0), 4326), i % 4
					FROM generate_series(0, 299) i`,
				`CREATE INDEX pts_geom ON pts USING gist (geom)`,
				`CREATE TABLE zr (id int PRIMARY KEY, a int, b int)`,
				`INSERT INTO zr SELECT i, i % 31, i * 7 % 37 FROM generate_series(0, 299) i`,
				`CREATE INDEX zr_ab ON zr USING zorder (a, b)`,
			} {
				if _, err := runSQL(ctx, sess, sql); err != nil {
					t.Fatalf("%s: %v", sql, err)
				}
			}
			rng := rand.New(rand.NewPCG(3, 4))
			null := func() bool { return rng.IntN(10) == 0 }
			pick := func(vs ...string) func() sqltypes.Value {
				return func() sqltypes.Value {
					if null() {
						return sqltypes.Null
					}
					return sqltypes.NewText(vs[rng.IntN(len(vs))])
				}
			}
			var jsonbs, arrays, words, queries, names []string
			for i := 0; i < 8; i++ {
				jsonbs = append(jsonbs, fmt.Sprintf(`{"brand": "b%d"}`, i), fmt.Sprintf(`{"dims": {"w": %d}, "brand": "b%d"}`, i%6, i))
				arrays = append(arrays, fmt.Sprintf("{t%d}", i), fmt.Sprintf("{t%d,t%d}", i, i+5))
				words = append(words, fmt.Sprintf("w%d", i*3), fmt.Sprintf("x%d", i))
				queries = append(queries, fmt.Sprintf("w%d | w%d", i, i+9), fmt.Sprintf("w%d & !w%d", i, i+1), fmt.Sprintf("w%d:*", i))
				names = append(names, fmt.Sprintf("n%d", i*3))
			}
			jsonbs = append(jsonbs, `{}`, `[]`, `{"dims": {}}`, `"b1"`)
			arrays = append(arrays, `{}`, `{NULL}`, `{t1,NULL}`)
			words = append(words, "the", "", "and w3")
			queries = append(queries, "!w4", "the", "w1 <-> w2")
			intArg := func(lo, n int) func() sqltypes.Value {
				return func() sqltypes.Value {
					if null() {
						return sqltypes.Null
					}
					return sqltypes.NewInt(int64(lo + rng.IntN(n)))
				}
			}
			floatArg := func(lo, width float64) func() sqltypes.Value {
				return func() sqltypes.Value {
					if rng.IntN(25) == 0 {
						return sqltypes.Null
					}
					return sqltypes.NewFloat(lo + rng.Float64()*width)
				}
			}
			// The partial index's predicate kind = 1 holds for most
			// values, so the statement settles on it; others must
			// leave it.
			mostlyOne := func() sqltypes.Value {
				if rng.IntN(4) == 0 {
					return intArg(0, 3)()
				}
				return sqltypes.NewInt(1)
			}
			x, y := floatArg(9.9, 1.2), floatArg(49.9, 1.2)
			pt := `ST_SetSRID(ST_MakePoint($1, $2), 4326)`
			type args = []func() sqltypes.Value
			cases := []struct {
				sql  string
				args args
			}{
				{`SELECT id FROM docs WHERE attrs @> $1::jsonb`, args{pick(jsonbs...)}},
				{`SELECT id, kind FROM docs WHERE attrs ? $1 AND kind = 1`, args{pick("x1", "x3", "brand", "nope", "")}},
				{`SELECT id FROM docs WHERE attrs ?| $1::text[]`, args{pick("{x1,x2}", "{}", "{x4}", "{NULL,x5}")}},
				{`SELECT id FROM docs WHERE attrs ?& $1::text[]`, args{pick("{brand,x2}", "{}", "{dims}", "{NULL}")}},
				{`SELECT id FROM docs WHERE tags @> $1::text[]`, args{pick(arrays...)}},
				{`SELECT id FROM docs WHERE tags && $1::text[]`, args{pick(arrays...)}},
				{`SELECT id FROM docs WHERE tags <@ $1::text[]`, args{pick(arrays...)}},
				{`SELECT id FROM docs WHERE to_tsvector('english', body) @@ plainto_tsquery('english', $1)`, args{pick(words...)}},
				{`SELECT id FROM docs WHERE to_tsvector('english', body) @@ to_tsquery('english', $1)`, args{pick(queries...)}},
				{`SELECT id, name FROM docs WHERE lower(name) = $1`, args{pick(names...)}},
				{`SELECT id FROM kinds WHERE tags @> $1::text[] AND kind = $2`, args{pick(arrays...), mostlyOne}},
				{`SELECT id FROM pts WHERE geom && ST_MakeEnvelope($1, $2, $3, $4, 4326)`, args{x, y, x, y}},
				{`SELECT id, kind FROM pts WHERE ST_DWithin(geom, ` + pt + `, $3) AND kind <> $4`, args{x, y, floatArg(0, 0.2), intArg(0, 4)}},
				{`SELECT id FROM pts ORDER BY geom <-> ` + pt + ` LIMIT 5`, args{x, y}},
				{`SELECT id FROM pts WHERE kind = $3 ORDER BY geom <-> ` + pt + ` LIMIT 3`, args{x, y, intArg(0, 4)}},
				{`SELECT count(*) FROM pts WHERE ST_Within(geom, ST_Buffer(` + pt + `, $3))`, args{x, y, floatArg(0, 0.3)}},
				{`SELECT id FROM zr WHERE a BETWEEN $1 AND $2 AND b BETWEEN $3 AND $4`, args{intArg(-2, 34), intArg(-2, 34), intArg(-2, 40), intArg(-2, 40)}},
			}
			n := 40
			if be.name != "pebble" {
				n = 12 // every query a round trip or more: past the five custom plans, seven generic ones
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

// TestExplainExecuteGenericScans: EXPLAIN EXECUTE of a prepared gin,
// gist box and Z-order statement past its custom plans shows the generic
// plan with the tokens, box and ranges of that execution's values.
func TestExplainExecuteGenericScans(t *testing.T) {
	ctx := context.Background()
	_, sess := newSession(t, memStore(t))
	for _, sql := range []string{
		`CREATE TABLE d (id int PRIMARY KEY, body text, tags text[])`,
		`INSERT INTO d SELECT i, 'w' || (i % 10) || ' v' || (i % 7), ARRAY['t' || (i % 5)] FROM generate_series(1, 50) i`,
		`CREATE INDEX d_body ON d USING gin (to_tsvector('english', body))`,
		`CREATE INDEX d_tags ON d USING gin (tags)`,
		`CREATE TABLE z (id int PRIMARY KEY, a int, b int)`,
		`INSERT INTO z SELECT i, i % 10, i % 9 FROM generate_series(1, 50) i`,
		`CREATE INDEX z_ab ON z USING zorder (a, b)`,
		`PREPARE fts(text) AS SELECT id FROM d WHERE to_tsvector('english', body) @@ plainto_tsquery('english', $1)`,
		`PREPARE arr(text[]) AS SELECT id FROM d WHERE tags && $1`,
		`PREPARE box(int, int) AS SELECT id FROM z WHERE a BETWEEN $1 AND $1 + 1 AND b BETWEEN $2 AND $2 + 2`,
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
	for _, c := range []struct{ name, custom, generic, want string }{
		{"fts", "('w%d')", "('w7 v3')", "lexeme 'w7' AND lexeme 'v3'"},
		{"arr", "('{t%d}')", "('{t4,t9}')", "element 't4' OR element 't9'"},
		{"box", "(%d, 2)", "(6, 4)", ""},
	} {
		for i := 1; i <= 5; i++ {
			if out := explain(fmt.Sprintf("EXPLAIN (COSTS off) EXECUTE "+c.name+c.custom, i)); !strings.Contains(out, "Plan Cache: custom plan") {
				t.Fatalf("%s, execution %d:\n%s", c.name, i, out)
			}
		}
		out := explain("EXPLAIN (COSTS off, VERBOSE) EXECUTE " + c.name + c.generic)
		if !strings.Contains(out, "Plan Cache: generic plan") || !strings.Contains(out, c.want) {
			t.Fatalf("%s, sixth execution: want the generic plan with %q:\n%s", c.name, c.want, out)
		}
		// Its ranges are the ones a custom plan for the values reads.
		explain("SET plan_cache_mode = force_custom_plan")
		custom := explain("EXPLAIN (COSTS off, VERBOSE) EXECUTE " + c.name + c.generic)
		explain("RESET plan_cache_mode")
		if a, b := keyRangesOf(out), keyRangesOf(custom); a != b {
			t.Fatalf("%s: the generic plan reads %q, a custom plan %q", c.name, a, b)
		}
	}
}

// keyRangesOf is the key ranges line of an EXPLAIN.
func keyRangesOf(explain string) string {
	for _, l := range strings.Split(explain, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "key ranges:") {
			return l
		}
	}
	return ""
}
