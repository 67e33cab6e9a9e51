package session_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

// TestEnginesShareNoSchemaNames: two engines of one process (two
// databases, or two stores) give their first user schemas the same OID.
// Each must name its own: pg_tables, information_schema, regclass and the
// object-identity functions read the schema's name from the statement's
// own catalog, not from anything the process keeps by OID.
func TestEnginesShareNoSchemaNames(t *testing.T) {
	type engine struct {
		schema, oid string
		query       func(string) string
	}
	var engines []engine
	for _, schema := range []string{"iso_a", "iso_b"} {
		store, err := zpebble.Open(t.Name()+schema, zpebble.Options{InMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		_, sess := newSession(t, store)
		mustExec(t, sess, "CREATE SCHEMA "+schema)
		mustExec(t, sess, "CREATE TABLE "+schema+".t (id int PRIMARY KEY)")
		// Errors are answers here: query runs on other goroutines too.
		q := func(sql string) string {
			rows, err := runSQL(context.Background(), sess, sql)
			if err != nil {
				return err.Error()
			}
			return strings.Join(rows, ",")
		}
		engines = append(engines, engine{schema, q("SELECT oid FROM pg_namespace WHERE nspname = '" + schema + "'"), q})
	}
	if engines[0].oid != engines[1].oid {
		t.Fatalf("the engines' schemas have OIDs %s and %s: the test needs them equal", engines[0].oid, engines[1].oid)
	}
	// Both engines at once, as two databases' sessions run.
	var wg sync.WaitGroup
	for i, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			checks := [][2]string{
				{"SELECT pg_describe_object('pg_namespace'::regclass, " + e.oid + ", 0)", "schema " + e.schema},
				{"SELECT schemaname FROM pg_tables WHERE tablename = 't'", e.schema},
				{"SELECT table_schema FROM information_schema.tables WHERE table_name = 't'", e.schema},
				{"SELECT '" + e.schema + ".t'::regclass::text", e.schema + ".t"},
			}
			for round := 0; round < 100; round++ {
				for _, c := range checks {
					if got := e.query(c[0]); got != c[1] {
						t.Errorf("engine %d, round %d: %s: got %q, want %q", i, round, c[0], got, c[1])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestEnginesShareNoCatalogOIDs: two engines of one process make the same
// objects in the same order, so their schemas, tables, enums, range types
// (over float4 in one, float8 in the other: they print their bounds
// differently) and composite types have the
// same OIDs, with different names and definitions. Catalog queries and queries that spill ranges past
// work_mem, run on both at once, each see their own engine's alone:
// nothing the catalog relations or the spill codec keep is shared by OID
// across the process.
func TestEnginesShareNoCatalogOIDs(t *testing.T) {
	type engine struct {
		sc, suffix string
		query      func(string) string
		checks     [][2]string
		spill      [2]string // the check that sorts past work_mem
	}
	var engines []*engine
	oids := map[string][]string{}
	for i, sub := range []string{"float4", "float8"} {
		e := &engine{sc: []string{"oid_a", "oid_b"}[i], suffix: []string{"a", "b"}[i]}
		store, err := zpebble.Open(t.Name()+e.sc, zpebble.Options{InMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		_, sess := newSession(t, store)
		s, x := e.sc, e.suffix
		for _, sql := range []string{
			"CREATE SCHEMA " + s,
			"CREATE TABLE " + s + ".t_" + x + " (id int PRIMARY KEY, v text)",
			"CREATE TYPE " + s + ".mood_" + x + " AS ENUM ('" + x + "1', '" + x + "2')",
			"CREATE TYPE " + s + ".rng_" + x + " AS RANGE (subtype = " + sub + ")",
			"CREATE TYPE " + s + ".comp_" + x + " AS (f_" + x + " int, g_" + x + " text)",
			"SET search_path = " + s,
			"SET zproxy.work_mem = '64kB'",
		} {
			mustExec(t, sess, sql)
		}
		// Errors are answers here: query runs on other goroutines too.
		e.query = func(sql string) string {
			rows, err := runSQL(context.Background(), sess, sql)
			if err != nil {
				return err.Error()
			}
			return strings.Join(rows, ",")
		}
		for _, q := range []struct{ what, sql string }{
			{"schema", "SELECT oid FROM pg_namespace WHERE nspname = '" + s + "'"},
			{"table", "SELECT 't_" + x + "'::regclass::oid"},
			{"enum", "SELECT 'mood_" + x + "'::regtype::oid"},
			{"range", "SELECT 'rng_" + x + "'::regtype::oid"},
			{"composite", "SELECT 'comp_" + x + "'::regtype::oid"},
		} {
			oids[q.what] = append(oids[q.what], e.query(q.sql))
		}
		e.checks = [][2]string{
			{"SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = " + oids["table"][i],
				"t_" + x + "|" + s},
			{"SELECT c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'c'",
				"comp_" + x + "|" + s},
			{"SELECT string_agg(attname, ' ' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'comp_" + x + "'::regclass",
				"f_" + x + " g_" + x},
			{"SELECT t.typname, n.nspname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.oid = " + oids["enum"][i],
				"mood_" + x + "|" + s},
			{"SELECT string_agg(enumlabel, ' ' ORDER BY enumsortorder) FROM pg_enum WHERE enumtypid = " + oids["enum"][i],
				x + "1 " + x + "2"},
			{"SELECT format_type(rngsubtype, NULL) FROM pg_range WHERE rngtypid = " + oids["range"][i],
				map[string]string{"float4": "real", "float8": "double precision"}[sub]},
			{"SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema = '" + s + "'",
				s + "|t_" + x},
			{"SELECT pg_table_is_visible(" + oids["table"][i] + "), '" + s + ".t_" + x + "'::regclass::text",
				"t|t_" + x},
		}
		// 20,000 ranges sorted past 64kB of work_mem: they spill and
		// are read back with their own type's definition, whose
		// subtype prints their bounds (9999.123456 is 9999.123 as a
		// float4, 9999.123046875 as a float8). They print after the sort (OFFSET 0 keeps it below).
		e.spill = [2]string{"SELECT count(*), min(t), max(t) FROM (SELECT r::text AS t FROM (SELECT rng_" + x + "(i + 0.123456, i + 1) AS r FROM generate_series(1, 20000) i ORDER BY r DESC OFFSET 0) s) o",
			map[string]string{"float4": "20000|[1.123456,2)|[9999.123,10000)", "float8": "20000|[1.123456,2)|[9999.123456,10000)"}[sub]}
		engines = append(engines, e)
	}
	for what, got := range oids {
		if got[0] != got[1] {
			t.Fatalf("the engines' %ss have OIDs %s and %s: the test needs them equal", what, got[0], got[1])
		}
	}
	// Both engines at once, as two databases' sessions run.
	var wg sync.WaitGroup
	for i, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 10; round++ {
				checks := e.checks
				if round%4 == 0 {
					// Three of the rounds: the sort is most of the
					// test's time, and a codec shared by OID would
					// print one engine's bounds wrongly on the first.
					checks = append(checks[:len(checks):len(checks)], e.spill)
				}
				for _, c := range checks {
					if got := e.query(c[0]); got != c[1] {
						t.Errorf("engine %d, round %d: %s: got %q, want %q", i, round, c[0], got, c[1])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
