package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// Every kind of PL/pgSQL loop heeds the statement's cancellation at each
// iteration, an empty body's too (57014).
func TestPLpgSQLLoopsCancel(t *testing.T) {
	sess := openSession(t, newEngine(t, memStore(t)))
	mustExec(t, sess, `CREATE TABLE lc (id int PRIMARY KEY)`)
	mustExec(t, sess, `INSERT INTO lc SELECT g FROM generate_series(1, 3) g`)
	mustExec(t, sess, `CREATE FUNCTION spin() RETURNS int LANGUAGE plpgsql AS $$ BEGIN LOOP END LOOP; END $$`)
	for _, sql := range []string{
		`DO $$ BEGIN LOOP END LOOP; END $$`,
		`DO $$ BEGIN WHILE true LOOP END LOOP; END $$`,
		`DO $$ BEGIN FOR i IN 1..2000000000 LOOP END LOOP; END $$`,
		`DO $$ DECLARE r record; BEGIN LOOP FOR r IN SELECT id FROM lc LOOP END LOOP; END LOOP; END $$`,
		`DO $$ DECLARE c CURSOR FOR SELECT id FROM lc; BEGIN LOOP FOR r IN c LOOP END LOOP; END LOOP; END $$`,
		`DO $$ BEGIN LOOP BEGIN PERFORM 1; EXCEPTION WHEN others THEN NULL; END; END LOOP; END $$`,
		`SELECT spin()`,
		`CALL nothing_yet()`,
	} {
		if sql == `CALL nothing_yet()` {
			mustExec(t, sess, `CREATE PROCEDURE nothing_yet() LANGUAGE plpgsql AS $$ BEGIN LOOP COMMIT; END LOOP; END $$`)
		}
		t.Run(sql, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			if _, err := runSQL(ctx, sess, sql); pgerr.CodeOf(err) != pgerr.QueryCanceled {
				t.Fatalf("got %v (%s), want 57014", err, pgerr.CodeOf(err))
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("the cancel took %v", d)
			}
		})
	}
}

// BenchmarkPLpgSQLLookupLoop runs a function whose loop does 10,000 key
// lookups: the cost of one PL/pgSQL statement's execution, planning
// included.
func BenchmarkPLpgSQLLookupLoop(b *testing.B) {
	t := &testing.T{}
	sess := openSession(t, newEngine(t, memStore(t)))
	ctx := context.Background()
	for _, sql := range []string{
		`CREATE TABLE kvl (k int PRIMARY KEY, v int)`,
		`INSERT INTO kvl SELECT g, g * 2 FROM generate_series(1, 1000) g`,
		`CREATE FUNCTION lookups(n int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  s bigint := 0;
  x int;
BEGIN
  FOR i IN 1..n LOOP
    SELECT v INTO x FROM kvl WHERE k = i % 1000 + 1;
    s := s + x;
  END LOOP;
  RETURN s;
END
$$`,
	} {
		if _, err := runSQL(ctx, sess, sql); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rows, err := runSQL(ctx, sess, `SELECT lookups(10000)`)
		if err != nil {
			b.Fatal(err)
		}
		if rows[0] != "10010000" {
			b.Fatalf("lookups = %v", rows)
		}
	}
}

// A procedure's COMMIT makes its writes visible to other sessions while it
// goes on; its later ROLLBACK undoes only what came after.
func TestProcedureCommitIsVisible(t *testing.T) {
	eng := newEngine(t, memStore(t))
	a, b := openSession(t, eng), openSession(t, eng)
	mustExec(t, a, `CREATE TABLE pv (id int PRIMARY KEY)`)
	mustExec(t, a, `CREATE PROCEDURE pv_run() LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO pv VALUES (1);
  COMMIT;
  INSERT INTO pv VALUES (2);
  PERFORM pg_sleep(0.6);
  ROLLBACK;
END
$$`)
	done := make(chan error, 1)
	go func() {
		_, err := runSQL(context.Background(), a, `CALL pv_run()`)
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if got := mustExec(t, b, `SELECT string_agg(id::text, ',') FROM pv`); got[0] != "1" {
		t.Errorf("while the procedure runs, another session sees %v, want 1", got)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := mustExec(t, b, `SELECT string_agg(id::text, ',') FROM pv`); got[0] != "1" {
		t.Errorf("after the procedure, %v, want 1", got)
	}
}

// A filter calling a function with an exception block over a table in
// shards: each call's savepoint is of the statement's one transaction, so
// the shards are read one after another (ir.HasRoutineCall). Read in
// parallel, the calls' savepoints interleaved and failed with 58030 "no
// such savepoint". In a transaction block and out, on both stores.
func TestRoutineFilterOverShards(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			_, sess := newSession(t, be.open(t))
			mustExec(t, sess, `CREATE TABLE rs (id int PRIMARY KEY, v text) WITH (shards = 4)`)
			mustExec(t, sess, `INSERT INTO rs SELECT g, CASE WHEN g % 7 = 0 THEN 'x' || g ELSE g::text END FROM generate_series(1, 4000) g`)
			mustExec(t, sess, `CREATE FUNCTION safe_int(t text) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN t::int; EXCEPTION WHEN others THEN RETURN -1; END $$`)
			for _, block := range []bool{false, true} {
				if block {
					mustExec(t, sess, "BEGIN")
				}
				// Rows, not an aggregate: an aggregate inside the scan
				// reads the shards one after another anyway.
				got := mustExec(t, sess, `SELECT id FROM rs WHERE safe_int(v) < 300`)
				if len(got) != 828 {
					t.Fatalf("in a block %v: %d rows, want 828", block, len(got))
				}
				if block {
					mustExec(t, sess, "COMMIT")
				}
			}
		})
	}
}
