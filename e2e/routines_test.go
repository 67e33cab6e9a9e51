package e2e

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestServerSideCodeOverTheWire drives issue 27's server-side code through
// pgx as an application would, with cached prepared statements (so plan
// caches, generic plans included, serve the trigger bodies): an updated_at
// and an audit trigger on every insert and update, a procedure that
// COMMITs part of its work before it fails, a function handing a cursor to
// its caller, a user-defined aggregate, and a RAISE NOTICE reaching the
// client. The same against PostgreSQL with E2E_POSTGRES set.
func TestServerSideCodeOverTheWire(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	var notices []string
	conn := connectNoticing(ctx, t, tg, pgx.QueryExecModeCacheStatement, func(n *pgconn.Notice) { notices = append(notices, n.Message) })

	for _, sql := range []string{
		"DROP TABLE IF EXISTS srv_items",
		"DROP TABLE IF EXISTS srv_audit",
		"DROP TABLE IF EXISTS srv_log",
		"DROP AGGREGATE IF EXISTS srv_product(int)",
		"DROP FUNCTION IF EXISTS srv_mul(int, int)",
		"DROP PROCEDURE IF EXISTS srv_batch(int)",
		"DROP FUNCTION IF EXISTS srv_open(int)",
	} {
		mustExec(t, conn, sql)
	}
	tg.CreateTable(t, conn, "CREATE TABLE srv_items (id INTEGER NOT NULL, name TEXT, updated_at TIMESTAMPTZ, PRIMARY KEY (id))")
	tg.CreateTable(t, conn, "CREATE TABLE srv_audit (id BIGSERIAL NOT NULL, item INTEGER, op TEXT, PRIMARY KEY (id))")
	tg.CreateTable(t, conn, "CREATE TABLE srv_log (n INTEGER NOT NULL, PRIMARY KEY (n))")
	for _, sql := range []string{
		`CREATE OR REPLACE FUNCTION srv_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.updated_at := now();
	RETURN NEW;
END $$`,
		`CREATE OR REPLACE FUNCTION srv_audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO srv_audit (item, op) VALUES (NEW.id, TG_OP);
	IF NEW.name = 'loud' THEN
		RAISE NOTICE 'item % is loud', NEW.id;
	END IF;
	RETURN NULL;
END $$`,
		"CREATE TRIGGER srv_items_touch BEFORE INSERT OR UPDATE ON srv_items FOR EACH ROW EXECUTE FUNCTION srv_touch()",
		"CREATE TRIGGER srv_items_audit AFTER INSERT OR UPDATE ON srv_items FOR EACH ROW EXECUTE FUNCTION srv_audit_row()",
		`CREATE PROCEDURE srv_batch(n int) LANGUAGE plpgsql AS $$
BEGIN
	FOR i IN 1..n LOOP
		INSERT INTO srv_log VALUES (i);
		IF i % 2 = 0 THEN
			COMMIT;
		END IF;
	END LOOP;
	RAISE EXCEPTION 'batch failed after %', n;
END $$`,
		`CREATE FUNCTION srv_open(lo int) RETURNS refcursor LANGUAGE plpgsql AS $$
DECLARE c refcursor := 'srv_cur';
BEGIN
	OPEN c FOR SELECT id, name FROM srv_items WHERE id >= lo ORDER BY id;
	RETURN c;
END $$`,
		"CREATE FUNCTION srv_mul(a int, b int) RETURNS int LANGUAGE sql IMMUTABLE RETURN a * b",
		"CREATE AGGREGATE srv_product(int) (SFUNC = srv_mul, STYPE = int, INITCOND = '1')",
	} {
		mustExec(t, conn, sql)
	}

	notices = nil // the DROP ... IF EXISTS ones
	// Triggers on every write, the statements prepared once and run
	// again and again (past the plan cache's five custom plans).
	for i := 1; i <= 8; i++ {
		name := "quiet"
		if i == 3 {
			name = "loud"
		}
		if _, err := conn.Exec(ctx, "INSERT INTO srv_items (id, name) VALUES ($1, $2)", i, name); err != nil {
			t.Fatalf("insert %d: %v", i, err)
		}
	}
	for i := 1; i <= 8; i += 2 {
		if _, err := conn.Exec(ctx, "UPDATE srv_items SET name = $2 WHERE id = $1", i, "changed"); err != nil {
			t.Fatalf("update %d: %v", i, err)
		}
	}
	var stamped, inserts, updates int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM srv_items WHERE updated_at IS NOT NULL").Scan(&stamped); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FILTER (WHERE op = 'INSERT'), count(*) FILTER (WHERE op = 'UPDATE') FROM srv_audit").Scan(&inserts, &updates); err != nil {
		t.Fatal(err)
	}
	if stamped != 8 || inserts != 8 || updates != 4 {
		t.Fatalf("triggers: %d rows stamped, %d insert and %d update audit rows; want 8, 8, 4", stamped, inserts, updates)
	}
	loud := 0
	for _, n := range notices {
		if strings.Contains(n, "loud") {
			loud++
		}
	}
	if loud != 1 || !slices.Contains(notices, "item 3 is loud") {
		t.Fatalf("notices %q, want the trigger's RAISE NOTICE once (zproxy may add its full-scan notices)", notices)
	}

	// A procedure's COMMITs keep what came before its error.
	_, err := conn.Exec(ctx, "CALL srv_batch(5)")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "P0001" || !strings.Contains(pe.Message, "batch failed after 5") {
		t.Fatalf("CALL srv_batch: %v, want P0001", err)
	}
	var kept int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM srv_log").Scan(&kept); err != nil {
		t.Fatal(err)
	}
	if kept != 4 {
		t.Fatalf("%d rows kept after the procedure failed, want the 4 it committed", kept)
	}

	// A cursor a function opens, fetched by its caller in the same
	// transaction.
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var cur string
	if err := tx.QueryRow(ctx, "SELECT srv_open($1)", 6).Scan(&cur); err != nil || cur != "srv_cur" {
		t.Fatalf("srv_open: %q, %v", cur, err)
	}
	rows, err := tx.Query(ctx, "FETCH ALL FROM srv_cur")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int32
	for rows.Next() {
		var id int32
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil || len(ids) != 3 || ids[0] != 6 || ids[2] != 8 {
		t.Fatalf("FETCH from the function's cursor: %v, %v", ids, err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	// A user-defined aggregate over a SQL state function.
	var product int32
	if err := conn.QueryRow(ctx, "SELECT srv_product(id) FROM srv_items WHERE id <= $1", 5).Scan(&product); err != nil {
		t.Fatal(err)
	}
	if product != 120 {
		t.Fatalf("srv_product over 1..5 = %d, want 120", product)
	}
}

// TestCallDescribesOutParameters prepares a CALL of a procedure with INOUT
// and OUT parameters: Describe answers with their RowDescription, as
// PostgreSQL's does, so a driver that describes before it executes (every
// pgx mode but the simple protocol) can scan the row. A CALL of one without
// them describes as NoData. The same against PostgreSQL with E2E_POSTGRES
// set.
func TestCallDescribesOutParameters(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	ctx := testCtx(t)
	conn, err := pgx.Connect(ctx, tg.connString)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	mustExec(t, conn, "DROP PROCEDURE IF EXISTS call_out(int, int, int)")
	mustExec(t, conn, "DROP PROCEDURE IF EXISTS call_none(int)")
	mustExec(t, conn, `CREATE PROCEDURE call_out(IN a int, INOUT b int, OUT c int) LANGUAGE plpgsql AS $$
BEGIN
	b := b + 1;
	c := a + b;
END $$`)
	mustExec(t, conn, `CREATE PROCEDURE call_none(a int) LANGUAGE plpgsql AS $$ BEGIN END $$`)
	sd, err := conn.Prepare(ctx, "call_out", "CALL call_out(1, 2, NULL)")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range sd.Fields {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{"b", "c"}) {
		t.Fatalf("CALL's described columns %v, want [b c]", names)
	}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var b, c int
		if err := conn.QueryRow(ctx, "CALL call_out(1, $1, NULL)", mode, 2).Scan(&b, &c); err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		if b != 3 || c != 4 {
			t.Fatalf("%v: b, c = %d, %d; want 3, 4", mode, b, c)
		}
	}
	sd, err = conn.Prepare(ctx, "call_none", "CALL call_none(1)")
	if err != nil {
		t.Fatal(err)
	}
	if len(sd.Fields) != 0 {
		t.Fatalf("CALL without OUT parameters described %d columns", len(sd.Fields))
	}
	mustExec(t, conn, "DROP PROCEDURE call_out(int, int, int)")
	mustExec(t, conn, "DROP PROCEDURE call_none(int)")
}
