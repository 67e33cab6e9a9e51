package pgcatalog

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// TestAggregatesGenUpToDate regenerates aggregates_gen.go from the
// PostgreSQL 15 that PGCATALOG_POSTGRES names, when set: the built-in
// aggregates' pg_aggregate rows must be PostgreSQL's.
func TestAggregatesGenUpToDate(t *testing.T) {
	dsn := os.Getenv("PGCATALOG_POSTGRES")
	if dsn == "" {
		t.Skip("PGCATALOG_POSTGRES is not set")
	}
	out, err := exec.Command("go", "run", "gen/aggregates.go", dsn).Output()
	if err != nil {
		t.Fatal(err)
	}
	have, _ := os.ReadFile("aggregates_gen.go")
	if !bytes.Equal(out, have) {
		t.Error("aggregates_gen.go differs from PostgreSQL 15's pg_aggregate: go run gen/aggregates.go \"$PGCATALOG_POSTGRES\" > aggregates_gen.go")
	}
}

// TestBuiltinAggregateRows: every aggregate of pg_proc that keeps
// PostgreSQL's OID has its pg_aggregate row, and every row's aggfnoid is
// an aggregate of pg_proc, as pg_aggregate and pg_proc join in
// PostgreSQL.
func TestBuiltinAggregateRows(t *testing.T) {
	e := &Env{Snap: snapshot(t)}
	if n := len(rows(t, e, "pg_catalog.pg_aggregate", "aggfnoid")); n != len(e.builtinAggregateRows()) {
		t.Errorf("pg_aggregate has %d rows, want the %d of the built-in aggregates", n, len(e.builtinAggregateRows()))
	}
	agg := map[uint32]string{}
	for _, r := range e.builtinAggregateRows() {
		a := r.(*pgAggregateRow)
		agg[uint32(a.Aggfnoid.I)] = a.Aggkind.S
	}
	kinds := map[string]bool{}
	procAggs := 0
	for _, p := range allProcs() {
		a, ok := builtinAggregatesByOID()[p.oid]
		if p.kind != 'a' || !ok {
			continue
		}
		procAggs++
		if agg[p.oid] != string(a.kind) {
			t.Errorf("pg_aggregate has no row of kind %c for aggregate %d %s(%s)", a.kind, p.oid, p.name, p.argList())
		}
		kinds[string(a.kind)] = true
	}
	if len(agg) != procAggs {
		t.Errorf("pg_aggregate has %d rows, pg_proc %d built-in aggregates of PostgreSQL's", len(agg), procAggs)
	}
	// count, sum and the rest; percentile_cont (ordered-set); rank's
	// hypothetical-set aggregate.
	for _, k := range []string{"n", "o", "h"} {
		if !kinds[k] {
			t.Errorf("no aggregate of kind %s", k)
		}
	}
	if procAggs < 100 {
		t.Errorf("only %d built-in aggregates", procAggs)
	}
}
