package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// A simple SQL function's call is inlined into the calling query, so a
// comparison with it (or of it over a column) gets the key range its
// expansion gives; a function that cannot be inlined (volatile body,
// SECURITY DEFINER) is called, and the scan is not bounded by it.
func TestInlinedFunctionKeyRanges(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess := openSession(t, eng)
	mustExec(t, sess, `CREATE TABLE kv (k int PRIMARY KEY, v text)`)
	mustExec(t, sess, `INSERT INTO kv SELECT g, 'v' || g FROM generate_series(1, 100) g`)
	mustExec(t, sess, `CREATE FUNCTION twice(x int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT x * 2'`)
	mustExec(t, sess, `CREATE FUNCTION twice_definer(x int) RETURNS int LANGUAGE sql IMMUTABLE SECURITY DEFINER AS 'SELECT x * 2'`)
	mustExec(t, sess, `CREATE FUNCTION low(x int) RETURNS bool LANGUAGE sql STABLE AS 'SELECT x < 5'`)
	plan := func(q string) string { return strings.Join(mustExec(t, sess, "EXPLAIN "+q), "\n") }
	for _, tc := range []struct {
		q       string
		bounded bool
		rows    int
	}{
		{`SELECT v FROM kv WHERE k = twice(21)`, true, 1},
		{`SELECT v FROM kv WHERE low(k)`, true, 4},
		{`SELECT v FROM kv WHERE k = twice_definer(21)`, true, 1}, // a statement constant: called once, then a point get
		{`SELECT v FROM kv WHERE twice(k) = 10`, false, 1},
	} {
		p := plan(tc.q)
		if full := strings.Contains(p, "full scan"); full == tc.bounded {
			t.Errorf("%s: bounded %v, plan:\n%s", tc.q, !full, p)
		}
		if got := mustExec(t, sess, tc.q); len(got) != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.q, len(got), tc.rows)
		}
	}
	if p := plan(`SELECT twice(k) FROM kv WHERE k = 1`); strings.Contains(p, "twice") {
		t.Errorf("twice(k) is not inlined:\n%s", p)
	}
	if p := plan(`SELECT twice_definer(k) FROM kv WHERE k = 1`); !strings.Contains(p, "twice_definer") {
		t.Errorf("a SECURITY DEFINER function was inlined:\n%s", p)
	}
}

// A function's writes are the calling statement's: outside a block, a
// statement that fails after a function wrote leaves nothing written.
func TestFunctionWritesAreAtomic(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess := openSession(t, eng)
	mustExec(t, sess, `CREATE TABLE log (id int PRIMARY KEY, msg text)`)
	mustExec(t, sess, `CREATE FUNCTION note(i int) RETURNS int LANGUAGE sql AS 'INSERT INTO log VALUES (i, ''x'') RETURNING 10 / (3 - i)'`)
	if _, err := runSQL(context.Background(), sess, `SELECT note(g) FROM generate_series(1, 3) g`); pgerr.CodeOf(err) != pgerr.DivisionByZero {
		t.Fatalf("got %v, want division by zero", err)
	}
	if got := mustExec(t, sess, `SELECT count(*) FROM log`); got[0] != "0" {
		t.Errorf("the failed statement left %s rows", got[0])
	}
	mustExec(t, sess, `SELECT note(g) FROM generate_series(1, 2) g`)
	if got := mustExec(t, sess, `SELECT count(*) FROM log`); got[0] != "2" {
		t.Errorf("the statement wrote %s rows, want 2", got[0])
	}
}

// Endless recursion ends with 54001, and a cancelled statement (a client's
// cancel, statement_timeout: the statement's context ends) stops inside a
// slow function.
func TestFunctionLimits(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess := openSession(t, eng)
	mustExec(t, sess, `SET check_function_bodies = off`)
	mustExec(t, sess, `CREATE FUNCTION deep(n int) RETURNS int LANGUAGE sql AS 'SELECT deep(n + 1)'`)
	if _, err := runSQL(context.Background(), sess, `SELECT deep(1)`); pgerr.CodeOf(err) != pgerr.StatementTooComplex {
		t.Fatalf("got %v, want 54001", err)
	}
	mustExec(t, sess, `CREATE FUNCTION slow(n int) RETURNS int LANGUAGE sql AS 'SELECT count(*)::int FROM pg_sleep(0.05), generate_series(1, n)'`)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := runSQL(ctx, sess, `SELECT sum(slow(g)) FROM generate_series(1, 100) g`); pgerr.CodeOf(err) != pgerr.QueryCanceled {
		t.Fatalf("got %v (%s), want 57014", err, pgerr.CodeOf(err))
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the timeout took %v", d)
	}
}

// EXECUTE on a function is PUBLIC's until revoked; a role then needs it
// granted, the owner keeps it; changing or dropping a function needs
// its ownership.
func TestFunctionExecutePrivilege(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	admin := openSession(t, eng)
	mustExec(t, admin, `CREATE ROLE alice LOGIN`)
	mustExec(t, admin, `CREATE FUNCTION secret() RETURNS int LANGUAGE sql AS 'SELECT 42'`)
	mustExec(t, admin, `CREATE PROCEDURE noop() LANGUAGE sql AS 'SELECT 1'`)
	alice, _, err := connectAs(t, eng, "alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, alice, `SELECT secret()`, pgerr.SuccessfulCompletion, "")
	mustExec(t, admin, `REVOKE EXECUTE ON FUNCTION secret() FROM PUBLIC`)
	mustExec(t, admin, `REVOKE ALL ON PROCEDURE noop FROM PUBLIC`)
	expectSQL(t, alice, `SELECT secret()`, pgerr.InsufficientPrivilege, "permission denied for function secret")
	expectSQL(t, alice, `CALL noop()`, pgerr.InsufficientPrivilege, "permission denied for procedure noop")
	mustExec(t, admin, `GRANT EXECUTE ON FUNCTION secret() TO alice`)
	expectSQL(t, alice, `SELECT secret()`, pgerr.SuccessfulCompletion, "")
	if got := mustExec(t, admin, `SELECT proacl FROM pg_proc WHERE proname = 'secret'`); !strings.Contains(got[0], "alice=X/") || strings.HasPrefix(got[0], "{=X") {
		t.Errorf("proacl = %s", got[0])
	}
	expectSQL(t, alice, `DROP FUNCTION secret()`, pgerr.InsufficientPrivilege, "must be owner of function secret")
	expectSQL(t, alice, `ALTER FUNCTION secret() STABLE`, pgerr.InsufficientPrivilege, "must be owner of function secret")
	mustExec(t, admin, `REVOKE EXECUTE ON FUNCTION secret() FROM alice`)
	expectSQL(t, alice, `SELECT secret()`, pgerr.InsufficientPrivilege, "permission denied for function secret")
}

// COPY FROM fires the table's triggers, in the COPY's transaction: a
// BEFORE trigger changes or skips rows, an AFTER trigger's writes commit
// with the rows, and a trigger's error undoes the COPY.
func TestCopyFiresTriggers(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess := openSession(t, eng)
	mustExec(t, sess, `CREATE TABLE items (id int PRIMARY KEY, name text)`)
	mustExec(t, sess, `CREATE TABLE counts (k int PRIMARY KEY, n int)`)
	mustExec(t, sess, `INSERT INTO counts VALUES (1, 0)`)
	mustExec(t, sess, `CREATE FUNCTION items_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name = 'skip' THEN RETURN NULL; END IF;
  IF NEW.name = 'fail' THEN RAISE EXCEPTION 'refused %', NEW.id; END IF;
  NEW.name := upper(NEW.name);
  RETURN NEW;
END $$`)
	mustExec(t, sess, `CREATE FUNCTION items_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN UPDATE counts SET n = n + 1 WHERE k = 1; RETURN NULL; END $$`)
	mustExec(t, sess, `CREATE TRIGGER b BEFORE INSERT ON items FOR EACH ROW EXECUTE FUNCTION items_before()`)
	mustExec(t, sess, `CREATE TRIGGER a AFTER INSERT ON items FOR EACH ROW EXECUTE FUNCTION items_after()`)
	row := func(id int64, name string) []sqltypes.Value {
		return []sqltypes.Value{sqltypes.NewInt(id), sqltypes.NewText(name)}
	}
	tag, err := copyIn(context.Background(), sess, `COPY items FROM STDIN`, [][]sqltypes.Value{row(1, "a"), row(2, "skip"), row(3, "c")}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if tag != "COPY 2" {
		t.Errorf("tag %q", tag)
	}
	if got := strings.Join(mustExec(t, sess, `SELECT id, name FROM items ORDER BY id`), " "); got != "1|A 3|C" {
		t.Errorf("items: %s", got)
	}
	if got := mustExec(t, sess, `SELECT n FROM counts`); got[0] != "2" {
		t.Errorf("count %s", got[0])
	}
	if _, err := copyIn(context.Background(), sess, `COPY items FROM STDIN`, [][]sqltypes.Value{row(4, "d"), row(5, "fail")}, 1); pgerr.CodeOf(err) != pgerr.RaiseException {
		t.Fatalf("got %v, want P0001", err)
	}
	if got := mustExec(t, sess, `SELECT count(*), (SELECT n FROM counts) FROM items`); got[0] != "2|2" {
		t.Errorf("after the failed COPY: %s", got[0])
	}
}

// COPY FROM into a partitioned table fires the row triggers of the leaf
// each row routes to (TG_TABLE_NAME the leaf), in row order, and the
// partitioned table's statement triggers, as PostgreSQL's does (the AFTER
// ROW ones after each batch of rows, as COPY into a table fires them); a
// BEFORE trigger moving a row out of its leaf fails the COPY (23514).
func TestCopyPartitionedFiresLeafTriggers(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess := openSession(t, eng)
	mustExec(t, sess, `CREATE TABLE pt (id int PRIMARY KEY, v int) PARTITION BY RANGE (id)`)
	mustExec(t, sess, `CREATE TABLE pt1 PARTITION OF pt FOR VALUES FROM (0) TO (10)`)
	mustExec(t, sess, `CREATE TABLE pt2 PARTITION OF pt FOR VALUES FROM (10) TO (20)`)
	mustExec(t, sess, `CREATE TABLE lg (seq serial, msg text)`)
	mustExec(t, sess, `CREATE FUNCTION lgf() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lg(msg) VALUES (TG_NAME || ' ' || TG_TABLE_NAME || ' ' || TG_LEVEL || coalesce(' ' || NEW.id, ''));
  IF NEW.v = 99 THEN NEW.id := NEW.id + 10; END IF;
  RETURN NEW;
END $$`)
	mustExec(t, sess, `CREATE TRIGGER br BEFORE INSERT ON pt FOR EACH ROW EXECUTE FUNCTION lgf()`)
	mustExec(t, sess, `CREATE TRIGGER ar AFTER INSERT ON pt FOR EACH ROW EXECUTE FUNCTION lgf()`)
	mustExec(t, sess, `CREATE TRIGGER as_ AFTER INSERT ON pt FOR EACH STATEMENT EXECUTE FUNCTION lgf()`)
	row := func(id, v int64) []sqltypes.Value { return []sqltypes.Value{sqltypes.NewInt(id), sqltypes.NewInt(v)} }
	if _, err := copyIn(context.Background(), sess, `COPY pt FROM STDIN`, [][]sqltypes.Value{row(5, 1), row(17, 1), row(6, 1)}, 10); err != nil {
		t.Fatal(err)
	}
	want := "br pt1 ROW 5,br pt2 ROW 17,br pt1 ROW 6,ar pt1 ROW 5,ar pt2 ROW 17,ar pt1 ROW 6,as_ pt STATEMENT"
	if got := strings.Join(mustExec(t, sess, `SELECT msg FROM lg ORDER BY seq`), ","); got != want {
		t.Errorf("fired:\n got %s\nwant %s", got, want)
	}
	if _, err := copyIn(context.Background(), sess, `COPY pt FROM STDIN`, [][]sqltypes.Value{row(7, 99)}, 1); pgerr.CodeOf(err) != pgerr.CheckViolation {
		t.Fatalf("got %v, want 23514", err)
	}
}

// A function in the filter of a scan read by several goroutines (one per
// shard) is called from all of them at once.
func TestFunctionCalledFromParallelScan(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess := openSession(t, eng)
	mustExec(t, sess, `CREATE TABLE sharded (id int PRIMARY KEY, v int) WITH (shards = 4)`)
	mustExec(t, sess, `INSERT INTO sharded SELECT g, g % 7 FROM generate_series(1, 400) g`)
	mustExec(t, sess, `CREATE FUNCTION lucky(x int) RETURNS bool LANGUAGE plpgsql STABLE AS $$ BEGIN RETURN x = 3; END $$`)
	mustExec(t, sess, `CREATE FUNCTION lucky_sql(x int) RETURNS bool LANGUAGE sql STABLE SECURITY DEFINER AS 'SELECT x = 3'`)
	for _, f := range []string{"lucky", "lucky_sql"} {
		got := mustExec(t, sess, `SELECT count(*) FROM sharded WHERE `+f+`(v)`)
		if got[0] != "57" {
			t.Errorf("%s: %s rows, want 57", f, got[0])
		}
	}
}

// Functions and triggers are catalog objects of the store: one proxy's
// are another's over one DynamoDB table, and a trigger fired through the
// second proxy writes atomically with its statement.
func TestRoutinesSharedBetweenProxies(t *testing.T) {
	stores := sharedDynamo(t, 2)
	a, b := newEngine(t, stores[0]), newEngine(t, stores[1])
	defer a.Close()
	defer b.Close()
	sa, sb := openSession(t, a), openSession(t, b)
	mustExec(t, sa, `CREATE TABLE t (id int PRIMARY KEY, v int)`)
	mustExec(t, sa, `CREATE TABLE log (id int PRIMARY KEY, note text)`)
	mustExec(t, sa, `CREATE FUNCTION twice(x int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT x * 2'`)
	mustExec(t, sa, `CREATE FUNCTION logit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO log VALUES (NEW.id, 'v=' || NEW.v);
  IF NEW.v < 0 THEN RAISE EXCEPTION 'negative'; END IF;
  RETURN NULL;
END $$`)
	mustExec(t, sa, `CREATE TRIGGER t_log AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION logit()`)
	if got := eventually(t, sb, `SELECT twice(21)`); got[0] != "42" {
		t.Fatalf("twice(21) on the other proxy: %v", got)
	}
	eventually(t, sb, `INSERT INTO t VALUES (1, 5)`)
	if _, err := runSQL(context.Background(), sb, `INSERT INTO t VALUES (2, -1)`); pgerr.CodeOf(err) != pgerr.RaiseException {
		t.Fatalf("got %v, want P0001", err)
	}
	if got := strings.Join(mustExec(t, sa, `SELECT id, note FROM log ORDER BY id`), " "); got != "1|v=5" {
		t.Errorf("log: %s", got)
	}
	if got := mustExec(t, sa, `SELECT count(*) FROM t`); got[0] != "1" {
		t.Errorf("t has %s rows", got[0])
	}
}
