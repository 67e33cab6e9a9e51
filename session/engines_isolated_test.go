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
