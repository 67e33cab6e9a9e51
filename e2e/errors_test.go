package e2e

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

type errorCase struct {
	name  string
	sql   string
	args  []any
	codes []string // acceptable SQLSTATEs (the first is PostgreSQL's)
	// position, when non-empty, is the text the error position must point
	// at (1-based character offset into sql, as PostgreSQL reports it).
	position string
	// mentions is a word the message must contain, case-insensitively.
	mentions string
}

func errorCases() []errorCase {
	return []errorCase{
		{name: "syntax error", sql: "SELECT id FROM errs WHERE id = = 1", codes: []string{"42601"}, position: "= 1"},
		{name: "syntax error in keyword", sql: "SELEC id FROM errs", codes: []string{"42601"}, position: "SELEC"},
		{name: "unknown table", sql: "SELECT * FROM no_such_table", codes: []string{"42P01"}},
		{name: "unknown table in INSERT", sql: "INSERT INTO no_such_table VALUES (1)", codes: []string{"42P01"}},
		{name: "unknown column", sql: "SELECT no_such_column FROM errs", codes: []string{"42703"}},
		{name: "unknown column in WHERE", sql: "SELECT id FROM errs WHERE nope = 1", codes: []string{"42703"}},
		{name: "text for an integer", sql: "INSERT INTO errs (id, n) VALUES (100, 'abc')", codes: []string{"22P02"}},
		{name: "text for an integer in WHERE", sql: "SELECT id FROM errs WHERE n = 'x1'", codes: []string{"22P02"}},
		{name: "integer for a boolean", sql: "INSERT INTO errs (id, flag) VALUES (101, 5)", codes: []string{"42804", "22P02"}},
		{name: "duplicate key", sql: "INSERT INTO errs (id, n) VALUES (1, 10)", codes: []string{"23505"}},
		{name: "duplicate key among new rows", sql: "INSERT INTO errs (id, n) VALUES (200, 1), (201, 2), (1, 3), (202, 4)", codes: []string{"23505"}},
		{name: "duplicate key within the statement", sql: "INSERT INTO errs (id, n) VALUES (300, 1), (300, 2)", codes: []string{"23505"}},
		{name: "duplicate key with parameters", sql: "INSERT INTO errs (id, n) VALUES ($1, $2), ($3, $4)", args: []any{400, 1, 2, 2}, codes: []string{"23505"}},
		{name: "NULL in a NOT NULL column", sql: "INSERT INTO errs (id, n) VALUES (NULL, 1)", codes: []string{"23502"}},
		{name: "scalar subquery with two rows", sql: "SELECT (SELECT id FROM errs)", codes: []string{"21000"}},
		{name: "ambiguous column in a join", sql: "SELECT id FROM errs a JOIN errs b ON a.id = b.id", codes: []string{"42702"}},
		{name: "subquery in FROM without an alias", sql: "SELECT * FROM (SELECT 1)", codes: []string{"42601"}},
	}
}

// errsDDL creates the table the error cases run against, holding ids 1..3.
const errsDDL = `CREATE TABLE errs (id INTEGER NOT NULL, n INTEGER, flag BOOLEAN, PRIMARY KEY (id)) WITH (shards = 2)`

// TestErrors checks each bad statement's SQLSTATE (and position, where one
// applies), that the failed statement wrote nothing, that the same
// connection keeps working, and that a second connection busy at the same
// time never notices.
func TestErrors(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	setup := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	tg.CreateTable(t, setup, errsDDL)
	mustExec(t, setup, "INSERT INTO errs (id, n, flag) VALUES (1, 1, true), (2, 2, false), (3, 3, NULL)")

	// The bystander reads in a loop on its own connection throughout.
	bystander := tg.Connect(t, pgx.QueryExecModeCacheStatement)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var bystanderErr error
	var bystanderReads int
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			var n int64
			qctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			err := bystander.QueryRow(qctx, "SELECT count(*) FROM errs WHERE id >= $1", 1).Scan(&n)
			cancel()
			if err == nil && n < 3 {
				err = fmt.Errorf("bystander counted %d rows, want at least 3", n)
			}
			if err != nil {
				bystanderErr = err
				return
			}
			bystanderReads++
		}
	}()

	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		conn := tg.Connect(t, mode)
		for _, tc := range errorCases() {
			t.Run(mode.String()+"/"+tc.name, func(t *testing.T) {
				before := queryAll(t, conn, "SELECT * FROM errs ORDER BY id")
				_, err := conn.Exec(testCtx(t), tc.sql, tc.args...)
				var pgErr *pgconn.PgError
				if !errors.As(err, &pgErr) {
					t.Fatalf("%s: got %v, want an error with SQLSTATE %v", tc.sql, err, tc.codes)
				}
				if !slices.Contains(tc.codes, pgErr.Code) {
					t.Errorf("%s: SQLSTATE %s (%s), want one of %v", tc.sql, pgErr.Code, pgErr.Message, tc.codes)
				}
				if pgErr.Severity != "ERROR" {
					t.Errorf("%s: severity %q, want ERROR", tc.sql, pgErr.Severity)
				}
				if tc.position != "" {
					want := strings.Index(tc.sql, tc.position) + 1
					if int(pgErr.Position) != want {
						t.Errorf("%s: position %d, want %d (at %q)", tc.sql, pgErr.Position, want, tc.position)
					}
				}
				if tc.mentions != "" && !strings.Contains(strings.ToLower(pgErr.Message), tc.mentions) {
					t.Errorf("%s: message %q does not mention %q", tc.sql, pgErr.Message, tc.mentions)
				}
				// Nothing of a failed statement was written, and the
				// connection still works.
				if after := queryAll(t, conn, "SELECT * FROM errs ORDER BY id"); !rowsEqual(after, before) {
					t.Errorf("%s changed the table from %v to %v", tc.sql, before, after)
				}
			})
		}
	}

	stop()
	wg.Wait()
	if bystanderErr != nil {
		t.Errorf("the concurrent connection noticed: %v", bystanderErr)
	}
	if bystanderReads == 0 {
		t.Errorf("the concurrent connection completed no reads")
	}
}

// TestErrorAbortsBlock: any error inside a transaction block aborts it, a
// statement that does not parse or bind included, whichever protocol
// carried it; later statements get 25P02 and COMMIT rolls back, so a
// script that runs on past a typo cannot commit half its work.
func TestErrorAbortsBlock(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec, pgx.QueryExecModeDescribeExec} {
		// SELECT 1/(k - 1) fails while its rows are read, after the
		// statement started: the block must fail all the same.
		for _, bad := range []string{"selct 1", "SELECT no_such_column FROM abort_block", "SELECT * FROM no_such_table", "SELECT 1/0", "SELECT 1/(k - 1) FROM abort_block"} {
			t.Run(fmt.Sprintf("%v/%s", mode, bad), func(t *testing.T) {
				conn := tg.Connect(t, mode)
				ctx := testCtx(t)
				mustExec(t, conn, "DROP TABLE IF EXISTS abort_block")
				mustExec(t, conn, "CREATE TABLE abort_block (k INT PRIMARY KEY)")
				mustExec(t, conn, "BEGIN")
				mustExec(t, conn, "INSERT INTO abort_block VALUES (1)")
				if _, err := conn.Exec(ctx, bad); err == nil {
					t.Fatalf("%s succeeded", bad)
				}
				if s := conn.PgConn().TxStatus(); s != 'E' {
					t.Errorf("status after %q: %c, want E", bad, s)
				}
				_, err := conn.Exec(ctx, "SELECT 1")
				var pe *pgconn.PgError
				if !errors.As(err, &pe) || pe.Code != "25P02" {
					t.Errorf("SELECT 1 in the failed block: %v, want 25P02", err)
				}
				tag, err := conn.Exec(ctx, "COMMIT")
				if err != nil || tag.String() != "ROLLBACK" {
					t.Errorf("COMMIT of the failed block: %v %v, want ROLLBACK", tag, err)
				}
				var n int
				if err := conn.QueryRow(ctx, "SELECT count(*) FROM abort_block").Scan(&n); err != nil || n != 0 {
					t.Errorf("rows after the failed block: %d %v, want 0", n, err)
				}
			})
		}
	}
}

// TestSleepCancelled: pg_sleep waits, and stops when its statement is
// cancelled, by statement_timeout or by the client, however long it was
// asked to wait.
func TestSleepCancelled(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	mustExec(t, conn, "SET statement_timeout = '100ms'")
	for _, q := range []string{"SELECT pg_sleep(30)", "SELECT pg_sleep_until('infinity')", "SELECT pg_sleep_for('1 hour')"} {
		start := time.Now()
		_, err := conn.Exec(ctx, q)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to statement timeout" {
			t.Errorf("%s under statement_timeout: %v", q, err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s took %v", q, d)
		}
	}
	mustExec(t, conn, "RESET statement_timeout")
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	_, err := conn.Exec(cctx, "SELECT pg_sleep(30)")
	if err == nil {
		t.Error("pg_sleep(30) outlived its cancelled context")
	}
	var n int
	if err := tg.Connect(t, pgx.QueryExecModeSimpleProtocol).QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
		t.Errorf("another connection after the cancel: %d %v", n, err)
	}
}

// TestErrorPositions: an error about a place in the statement carries
// that place (the caret psql draws), as PostgreSQL's parser sets it: the
// unknown column or function, the operator that does not exist, the
// literal that does not read as its type. Errors of running the
// statement carry none.
func TestErrorPositions(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	tg.CreateTable(t, conn, "CREATE TABLE error_positions (k INT PRIMARY KEY, v TEXT)")
	for _, c := range []struct {
		sql  string
		code string
		pos  int32
	}{
		{"SELECT nosuch FROM error_positions", "42703", 8},
		{"SELECT error_positions.zz FROM error_positions", "42703", 8},
		{"SELECT k FROM error_positions WHERE k > 0 AND nosuch2 > 1", "42703", 47},
		{"SELECT 'x'::int", "22P02", 8},
		{"SELECT CAST('2024-13-45' AS date)", "22008", 13},
		{"SELECT nosuchfn(1)", "42883", 8},
		{"SELECT length(1, 2, 3)", "42883", 8},
		{"SELECT 1 + 'a'", "22P02", 12},
		{"SELECT k + v FROM error_positions", "42883", 10},
		{"SELECT k FROM error_positions WHERE v = 1", "42883", 39},
		{"SELECT k FROM error_positions WHERE k = 'zz'", "22P02", 41},
		{"INSERT INTO error_positions VALUES ('abc', 'x')", "22P02", 37},
		{"INSERT INTO error_positions (k, nosuch4) VALUES (1, 2)", "42703", 33},
		{"UPDATE error_positions SET nosuch = 1", "42703", 28},
		{"SELECT sum(v) FROM error_positions", "42883", 8},
		{"SELECT k FROM error_positions GROUP BY v", "42803", 8},
		{"SELECT now() + 'xyz'", "22007", 16},
		{"SELECT 'a' LIKE 1", "42883", 12},
		// x [NOT] IN (list) without an operator for an item: at the IN,
		// or the NOT of NOT IN; an inner IN's error before the outer =.
		// A routine's body: its position through the body's literal.
		{`CREATE FUNCTION error_positions_f1() RETURNS void LANGUAGE plpgsql AS $$ BEGIN FOR a IN LOOP END LOOP; END $$`, "42601", 89},
		{`CREATE FUNCTION error_positions_f2() RETURNS int LANGUAGE sql AS $$ SELECT 1 + $$`, "42601", 80},
		{`CREATE FUNCTION error_positions_f3() RETURNS int LANGUAGE sql AS 'SELECT ''a'' + + nosuchcol'`, "42703", 84},
		{`CREATE FUNCTION error_positions_f4() RETURNS int LANGUAGE sql AS $f$ SELECT nosuchcol $f$`, "42703", 77},
		{`DO $$ BEGIN IF true THEN END; END $$`, "42601", 29},
		{`CREATE FUNCTION error_positions_f5() RETURNS int LANGUAGE sql AS E'SELECT nosuch'`, "42703", 75},
		{"SELECT 2 IN (false)", "42883", 10},
		{"SELECT 2 NOT IN (1, true)", "42883", 10},
		{"SELECT k FROM error_positions WHERE v in  (  1)", "42883", 39},
		{"SELECT 1 = 2 IN (false)", "42883", 14},
		{"SELECT 'a' - 'b'", "42725", 12},
		{"SELECT '{\"a\":1}'::jsonb || '{\"b\":2}' - 'a'", "42725", 38},
		{"SELECT 1 LIKE 'a'", "42883", 10},
		{"SELECT 'a' NOT ILIKE 2", "42883", 12},
		{"SELECT '3000000000'::int", "22003", 8},
		{"SELECT concat_ws(',', VARIADIC 1)", "42804", 32},
		{"SELECT concat(VARIADIC '{a,b}')", "42804", 24},
		{"SELECT lower(VARIADIC ARRAY['a'])", "42883", 8},
		{"SELECT sum()", "42883", 8},
		{"SELECT concat('a', VARIADIC ARRAY[1])", "42883", 8},
		{"SELECT upper(pg_catalog.lower(1, 2))", "42883", 14},
		// x op ANY|ALL (...): at the operator (OPERATOR(...) and NOT
		// LIKE's first word), or the array literal that does not read.
		{"SELECT 1 = ANY (ARRAY['a'])", "42883", 10},
		{"SELECT 1 ~~ ALL (ARRAY[2])", "42883", 10},
		{"SELECT 1 NOT LIKE ANY (ARRAY[2])", "42883", 10},
		{"SELECT 'a' LIKE ANY (ARRAY[2])", "42883", 12},
		{"SELECT 1 + ANY (ARRAY[1])", "42809", 10},
		{"SELECT 1 OPERATOR(pg_catalog.+) ALL (ARRAY[1])", "42809", 10},
		{"SELECT 1 ~~ ANY (SELECT 'a')", "42883", 10},
		{"SELECT 1 + ALL (SELECT 1)", "42804", 10},
		{"SELECT 1 ~~ 2", "42883", 10},
		{"SELECT 1 @> ANY (ARRAY[2])", "42883", 10},
		{"SELECT 1 = ANY (1)", "42809", 10},
		{"SELECT 1 = ANY ('{a}')", "22P02", 17},
		{"SELECT 1 = ANY ((SELECT ARRAY[1]))", "42883", 10},
		{"SELECT 1 < ALL ((SELECT ARRAY[1]))", "42883", 10},
		{"SELECT 'a' OPERATOR(pg_catalog.~~) 1", "42883", 12},
		{"SELECT 1 OPERATOR(pg_catalog.+) 'x'::text", "42883", 10},
		// A constant of a reg* type names an object: at the literal.
		{"SELECT 'nope'::regclass", "42P01", 8},
		{"SELECT CAST('nope' AS regclass)", "42P01", 13},
		{"SELECT 'nope'::regclass::oid", "42P01", 8},
		{"SELECT 'nope'::regtype", "42704", 8},
		{"SELECT 'nope'::regproc", "42883", 8},
		{"SELECT 'nope()'::regprocedure", "42883", 8},
		{"SELECT 'nope'::regnamespace", "3F000", 8},
		{"SELECT 'nope'::regrole", "42704", 8},
		{"SELECT 'a.b.c.d'::regclass", "42601", 8},
		{"SELECT  '\"a'::regclass", "42602", 9},
		{"SELECT 'a b'::regproc", "42602", 8},
		{"SELECT '\"a'::regtype", "42601", 8},
		{"SELECT '\"a'::regprocedure", "22P02", 8},
		{"SELECT '+'::regoper", "42725", 8},
		{"SELECT '!'::regoper", "42883", 8},
		{"SELECT '+(int4)'::regoperator", "42P02", 8},
		{"SELECT '+(nosuch,int4)'::regoperator", "42704", 8},
		{"SELECT 'x'::nosuchtype", "42704", 13},
		// Whatever a type's input function raises on a string literal is
		// at the literal; a number's cast runs later and has none.
		{"SELECT '[1,0)'::int4range", "22000", 8},
		{"SELECT 'a & | b'::tsquery", "42601", 8},
		{"SELECT '$.a ++'::jsonpath", "42601", 8},
		{"SELECT 3000000000::int", "22003", 0},
		// Parts parsed apart from the statement (RETURNING, LIMIT and
		// OFFSET operands) point into the client's text too.
		{"INSERT INTO error_positions VALUES (1, 'a') RETURNING nosuch", "42703", 55},
		{"UPDATE error_positions SET v = 'b' RETURNING k + 'x'", "22P02", 50},
		{"SELECT * FROM error_positions LIMIT nosuch", "42703", 37},
		{"SELECT * FROM error_positions OFFSET (SELECT nosuch)", "42703", 46},
		{"SELECT * FROM error_positions LIMIT sum(1)", "42803", 37},
		{"SELECT * FROM error_positions WHERE row_number() OVER () > 1", "42P20", 37},
		{"INSERT INTO error_positions VALUES (sum(1), 'a')", "42803", 37},
		{"INSERT INTO error_positions VALUES (1, 'a', 3)", "42601", 45},
		{"SELECT k FROM error_positions GROUP BY sum(k)", "42803", 40},
		{"SELECT 1, * FROM error_positions GROUP BY v", "42803", 11},
		// An untyped literal that does not read as the type its context
		// resolves to: at the literal.
		{"SELECT 1 UNION SELECT 'a'", "22P02", 23},
		{"SELECT CASE WHEN true THEN 1 ELSE 'x' END", "22P02", 35},
		{"SELECT COALESCE(1, 'x')", "22P02", 20},
		{"SELECT ARRAY[1, 'x']", "22P02", 17},
		{"SELECT generate_series(1, 'x')", "22P02", 27},
		{"SELECT row_number() FROM error_positions", "42809", 8},
		{"SELECT 1 LIMIT 'x'", "22P02", 16},
		{"SELECT sum(count(*)) FROM error_positions", "42803", 12},
		{"SELECT 99999::int2", "22003", 0},
		{`SELECT '\x0g'::bytea`, "22023", 8},
		{"SELECT 1/0", "22012", 0},
		{"SELECT 2147483647 + 1", "22003", 0},
		// Column counts that do not match: at the right operand's first
		// target (none for VALUES'), the list's first expression, the
		// first expression without a column, the row operator.
		{"SELECT 1 UNION SELECT 1, 2", "42601", 23},
		{"SELECT 1 INTERSECT SELECT 1, 2", "42601", 27},
		{"SELECT 1 UNION SELECT 1 INTERSECT SELECT 1, 2", "42601", 42},
		{"SELECT 1 UNION VALUES (1, 2)", "42601", 0},
		{"VALUES (1), (1, 2)", "42601", 14},
		{"INSERT INTO error_positions (k) SELECT 1, 2", "42601", 43},
		{"SELECT (1,2) = (1,2,3)", "42601", 14},
		{"SELECT DISTINCT ON (v) k FROM error_positions ORDER BY k", "42P10", 21},
		{"SELECT DISTINCT ON (v, k) k FROM error_positions ORDER BY v, length(v), k", "42P10", 24},
		// A CHECK of CREATE TABLE is bound apart from the statement, but
		// its errors point into it (ALTER TABLE's have none, as in
		// PostgreSQL).
		{"CREATE TABLE pos_check (a int CHECK (sum(a) > 0))", "42803", 38},
		{"CREATE TABLE pos_check (a int, CHECK (nosuch > 0))", "42703", 39},
		{"CREATE TABLE pos_check (a int, CONSTRAINT c CHECK ( a + 'x' > 0))", "22P02", 57},
		{"CREATE TABLE pos_check (a int, CHECK ((SELECT 1) > 0))", "0A000", 39},
		{"ALTER TABLE error_positions ADD CHECK (nosuch > 0)", "42703", 0},
		{"ALTER TABLE error_positions ADD COLUMN z int CHECK (sum(z) > 0)", "42803", 0},
		// A column's type: a name that finds none, a type modifier out
		// of range (typenameTypeMod), at the type's name.
		{"CREATE TABLE pos_type (a int, b nosuchtype)", "42704", 33},
		{"CREATE TABLE pos_type (a int, b nosuch_schema.t)", "3F000", 33},
		{"ALTER TABLE error_positions ADD COLUMN b nosuchtype", "42704", 42},
		{"CREATE TABLE pos_type (a int, b varchar(0))", "22023", 33},
		{"CREATE TABLE pos_type (a int, b character varying(10485761))", "22023", 33},
		{"CREATE TABLE pos_type (a int, b bit(0))", "22023", 33},
		{"CREATE TABLE pos_type (a int, b numeric(5, 2000))", "22023", 33},
		{"SELECT 'a'::char(0)", "22023", 13},
		// A qualified relation that does not exist: at its qualifier.
		{"SELECT * FROM nosuch_schema.t", "42P01", 15},
		{"SELECT * FROM error_positions, public.nosuch", "42P01", 32},
		// A call qualified by a schema that does not exist: at its
		// qualifier. SUBSTRING of another count than two or three is an
		// unknown function, not a syntax error.
		{"SELECT nosuch_schema.f(1)", "3F000", 8},
		{"SELECT 1, 2 + nosuch_schema.f(1) FROM error_positions", "3F000", 15},
		{"SELECT substring('abc', 1, 2, 3)", "42883", 8},
		{"SELECT 1, substring('abc')", "42883", 11},
		// A locking clause's relation not in FROM: at its name.
		{"SELECT * FROM error_positions FOR UPDATE OF nosuch", "42P01", 45},
		{"SELECT * FROM error_positions FOR SHARE OF error_positions, nosuch", "42P01", 61},
		{"SELECT * FROM (SELECT * FROM error_positions FOR UPDATE OF error_positions) s FOR UPDATE OF nosuch", "42P01", 93},
		// An ordinal out of the select list: at the ordinal.
		{"SELECT * FROM error_positions ORDER BY 9", "42P10", 40},
		{"SELECT k FROM error_positions ORDER BY 0", "42P10", 40},
		{"SELECT k FROM error_positions GROUP BY k, 7", "42P10", 43},
		{"SELECT 1 UNION SELECT 2 ORDER BY 3", "42P10", 34},
		{"VALUES (1) ORDER BY 2", "42P10", 21},
		{"SELECT k, v FROM error_positions ORDER BY 1, 2 DESC, 3", "42P10", 54},
		{"SELECT * FROM (SELECT k FROM error_positions ORDER BY 1) s ORDER BY 1, 3", "42P10", 72},
		// Boolean operands (coerce_to_boolean): an untyped literal's input
		// error at the literal, a wrong type at the operand's leftmost
		// token; prefix operators at the operator.
		{"SELECT NOT 'x'", "22P02", 12},
		{"SELECT 1 IS TRUE", "42804", 8},
		{"SELECT CASE WHEN 1 + 1 THEN 1 END", "42804", 18},
		{"SELECT 1 WHERE 'a' || 'b'", "42804", 16},
		{"SELECT k FROM error_positions WHERE k", "42804", 37},
		{"SELECT +'a'", "22P02", 9},
		{"SELECT -'1'", "42725", 8},
		{"SELECT ~'1'", "42725", 8},
		{"SELECT +true", "42883", 8},
		{"SELECT NULLIF(1, 'a')", "22P02", 18},
		{"SELECT 1 IS UNKNOWN", "42804", 8},
		{"SELECT k FROM error_positions WHERE v IS NOT UNKNOWN", "42804", 37},
		// A query in FROM with no alias, at its parenthesis; a column
		// listed twice, at its second mention.
		{"SELECT * FROM error_positions, ( SELECT 1) WHERE true", "42601", 32},
		{"SELECT * FROM error_positions JOIN (VALUES (1)) ON true", "42601", 36},
		{"INSERT INTO error_positions AS x (v, k, \"v\") VALUES ('a', 2, 'b')", "42701", 41},
		// Multiple-column assignments: a source that is no row at its
		// value, a count mismatch at the source; a value of a type that
		// does not convert at the value.
		{"UPDATE error_positions SET (k) = (5)", "0A000", 35},
		{"UPDATE error_positions SET (k, v) = (5, 'q', 7)", "42601", 37},
		{"UPDATE error_positions SET (k, v) = (v, k)", "42804", 38},
		{"INSERT INTO error_positions (k, v) SELECT 'x'::text, 'y'", "42804", 43},
		// IS [NOT] DISTINCT FROM's operator error at IS.
		{"SELECT 1 FROM error_positions WHERE v IS   NOT DISTINCT FROM 1", "42883", 39},
		{"SELECT 1 IS DISTINCT FROM (1,2)", "42883", 10},
		// The sequence functions take a regclass: an untyped literal is
		// read as one when the call is parsed, its errors at the literal
		// (a text argument's lookup runs later and has no position).
		{"SELECT nextval('nosuch')", "42P01", 16},
		{"SELECT 1, currval( 'nosuch')", "42P01", 20},
		{"SELECT setval('nosuch', 1, false)", "42P01", 15},
		{"SELECT pg_catalog.nextval('nosuch')", "42P01", 27},
		{"SELECT nextval('nosuch_schema.s')", "3F000", 16},
		{"SELECT nextval('a.b.c.d')", "42601", 16},
		{"SELECT nextval('nosuch'::text)", "42P01", 0},
		{"SELECT nextval('\"a')", "42602", 16},
		{"SELECT nextval('pg_class')", "42809", 0},
		// A column's default is bound when the table is created: its
		// errors at the literal in the statement.
		{"CREATE TABLE error_positions_d (a int DEFAULT nextval('nosuch'))", "42P01", 55},
		{"CREATE TABLE error_positions_d (a int DEFAULT  'x'::int)", "22P02", 48},
		// Operators of one non-associative level of PostgreSQL's grammar
		// (comparisons; BETWEEN, IN, LIKE, ILIKE, SIMILAR; IS after IS
		// DISTINCT FROM) one after the other: a syntax error at the
		// second.
		{"SELECT 1 < 2 = true", "42601", 14},
		{"SELECT 1 = 1 = true", "42601", 14},
		{"SELECT k FROM error_positions WHERE k = 1 AND k <> 2 >= true", "42601", 54},
		{"SELECT NULL IS DISTINCT FROM 1 IS NOT FALSE", "42601", 32},
		{"SELECT 1 IS NOT DISTINCT FROM 2 ISNULL", "42601", 33},
		{"SELECT 'a' LIKE 'a' ESCAPE '#' NOT ILIKE 'b'", "42601", 32},
		{"SELECT 1 BETWEEN 0 AND 2 IN (true)", "42601", 26},
		{"SELECT 1 = 1 = ANY (ARRAY[true])", "42601", 14},
		// A prefix NOT may start an operator's right operand, and takes
		// the operators that bind tighter than it (a comparison after it
		// is its own, then one too many); an ARRAY constructor takes no
		// subscript without parentheses.
		{"SELECT true = NOT 1 = 1 = 1", "42601", 25},
		{"SELECT k FROM error_positions WHERE k = NOT true", "42883", 39},
		{"SELECT 1 = array[1][1]", "42601", 20},
		{"SELECT array(SELECT 1)[1]", "42601", 23},
	} {
		wantErrorAt(ctx, t, conn, c.sql, c.code, c.pos)
	}
}

// wantErrorAt checks that sql fails with SQLSTATE code at character
// position pos (0: none).
func wantErrorAt(ctx context.Context, t *testing.T, conn *pgx.Conn, sql, code string, pos int32) {
	t.Helper()
	_, err := conn.Exec(ctx, sql)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Errorf("%s: %v, want %s", sql, err, code)
		return
	}
	if pe.Code != code || pe.Position != pos {
		t.Errorf("%s: %s at %d (%s), want %s at %d", sql, pe.Code, pe.Position, pe.Message, code, pos)
	}
}

// TestErrorPositionsWithSchemas: once the catalog has a schema of its
// own, names are qualified before binding (planner/schemas.go), and an
// error found there is at its name as well: a call's unknown qualifier,
// a table of public's that the search path leaves out.
func TestErrorPositionsWithSchemas(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	mustExec(t, conn, "DROP SCHEMA IF EXISTS error_positions_s CASCADE")
	mustExec(t, conn, "CREATE SCHEMA error_positions_s")
	tg.CreateTable(t, conn, "CREATE TABLE error_positions_pub (k INT PRIMARY KEY)")
	t.Cleanup(func() {
		conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
		mustExec(t, conn, "DROP SCHEMA error_positions_s CASCADE")
		mustExec(t, conn, "DROP TABLE error_positions_pub")
	})
	for _, c := range []struct {
		setup, sql string
		code       string
		pos        int32
	}{
		{"RESET search_path", "SELECT nosuch_schema.f(1)", "3F000", 8},
		{"RESET search_path", "SELECT 1, nosuch_schema.f(1) FROM error_positions_pub", "3F000", 11},
		{"SET search_path = error_positions_s", "SELECT * FROM error_positions_pub", "42P01", 15},
		{"SET search_path = error_positions_s", "SELECT 1, 2 FROM  error_positions_pub", "42P01", 19},
		// A view's name that no schema on the path takes: no position.
		{"SET search_path = ''", "CREATE VIEW error_positions_v AS SELECT 1", "3F000", 0},
	} {
		mustExec(t, conn, c.setup)
		wantErrorAt(ctx, t, conn, c.sql, c.code, c.pos)
	}
}

// TestStatementTimeoutBetweenMessages: statement_timeout runs from an
// extended-protocol command's first message, so a client that is slow
// between Parse and Describe gets 57014 at Describe, as from PostgreSQL
// (pgx's TestPrepareHandlesTimeoutBetweenParseAndDescribe).
func TestStatementTimeoutBetweenMessages(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	mustExec(t, conn, "SET statement_timeout = '100ms'")
	pc := conn.PgConn()
	fe := pc.Frontend()
	fe.Send(&pgproto3.Parse{Name: "slow_between", Query: "SELECT 1"})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	fe.Send(&pgproto3.Describe{ObjectType: 'S', Name: "slow_between"})
	fe.Send(&pgproto3.Sync{})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		msg, err := pc.ReceiveMessage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		switch m := msg.(type) {
		case *pgproto3.ErrorResponse:
			got = append(got, m.Code+" "+m.Message)
		case *pgproto3.ReadyForQuery:
			if len(got) != 1 || got[0] != "57014 canceling statement due to statement timeout" {
				t.Errorf("errors: %q, want one 57014", got)
			}
			return
		}
	}
}

// TestCachedPlanResultType: a prepared statement whose result columns
// change under it (ALTER TABLE ADD COLUMN behind SELECT *) fails with
// 0A000 "cached plan must not change result type", as in PostgreSQL; one
// whose result is unchanged runs on.
func TestCachedPlanResultType(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	tg.CreateTable(t, conn, "CREATE TABLE cached_result (k INT PRIMARY KEY, v TEXT)")
	pc := conn.PgConn()
	if _, err := pc.Prepare(ctx, "star", "SELECT * FROM cached_result", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := pc.Prepare(ctx, "one", "SELECT k FROM cached_result", nil); err != nil {
		t.Fatal(err)
	}
	mustExec(t, conn, "ALTER TABLE cached_result ADD COLUMN w INT")
	res := pc.ExecPrepared(ctx, "star", nil, nil, nil).Read()
	var pe *pgconn.PgError
	if !errors.As(res.Err, &pe) || pe.Code != "0A000" || pe.Message != "cached plan must not change result type" {
		t.Errorf("SELECT * after ADD COLUMN: %v, want 0A000", res.Err)
	}
	if res := pc.ExecPrepared(ctx, "one", nil, nil, nil).Read(); res.Err != nil {
		t.Errorf("a statement whose result did not change: %v", res.Err)
	}
}

// TestPrepareErrors: Parse analyses the statement, so an unknown column
// fails the Prepare (and leaves no statement behind), while an error of
// running it, such as a division by zero of constants, waits for Execute,
// as in PostgreSQL.
func TestPrepareErrors(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	tg.CreateTable(t, conn, "CREATE TABLE prepare_errors (k INT PRIMARY KEY)")
	pc := conn.PgConn()
	_, err := pc.Prepare(ctx, "bad", "SELECT nosuch FROM prepare_errors", nil)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42703" {
		t.Errorf("Prepare of an unknown column: %v, want 42703", err)
	}
	if _, err := conn.Exec(ctx, "DEALLOCATE bad"); !errors.As(err, &pe) || pe.Code != "26000" {
		t.Errorf("the failed Prepare left a statement: DEALLOCATE gave %v, want 26000", err)
	}
	if _, err := pc.Prepare(ctx, "div", "SELECT 1/0", nil); err != nil {
		t.Errorf("Prepare of SELECT 1/0: %v, want success", err)
	}
	res := pc.ExecPrepared(ctx, "div", nil, nil, nil).Read()
	if !errors.As(res.Err, &pe) || pe.Code != "22012" {
		t.Errorf("Execute of SELECT 1/0: %v, want 22012", res.Err)
	}
	// The constant's error comes before the statement's result starts: no
	// RowDescription, so the batch has one result set (pgx's
	// TestConnExecMultipleQueriesError).
	results, err := pc.Exec(ctx, "SELECT 1; SELECT 1/0; SELECT 1").ReadAll()
	if !errors.As(err, &pe) || pe.Code != "22012" || len(results) != 1 {
		t.Errorf("a batch with SELECT 1/0: %d result sets, %v; want 1 and 22012", len(results), err)
	}
}

// TestFetchPreparedBeforeCursor: a FETCH prepared before its cursor is
// declared describes as NoData, but a portal bound once the cursor exists
// describes the cursor's columns, as PostgreSQL describes a portal when it
// starts (pgx's TestConnExecStatementCursorFetch).
func TestFetchPreparedBeforeCursor(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	pc := conn.PgConn()
	sd, err := pc.Prepare(ctx, "fetch_later", `FETCH ALL IN "later_cursor"`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sd.Fields) != 0 {
		t.Errorf("FETCH from a cursor not declared yet describes %d columns, want none", len(sd.Fields))
	}
	mustExec(t, conn, "BEGIN")
	mustExec(t, conn, `DECLARE "later_cursor" CURSOR FOR SELECT n, n::text FROM generate_series(1, 3) n`)
	res := pc.ExecStatement(ctx, sd, nil, nil, nil).Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.FieldDescriptions) != 2 || res.FieldDescriptions[0].DataTypeOID != 23 || res.FieldDescriptions[1].DataTypeOID != 25 {
		t.Errorf("portal described as %v, want int4 and text", res.FieldDescriptions)
	}
	if len(res.Rows) != 3 || string(res.Rows[2][1]) != "3" {
		t.Errorf("FETCH returned %q, want three rows", res.Rows)
	}
	mustExec(t, conn, "ROLLBACK")
}

// TestImplicitTransaction: the statements of one Query message, and the
// Executes of one pipeline before its Sync, run as one transaction, as in
// PostgreSQL's implicit transaction block: an error in any of them undoes
// them all; COMMIT inside commits what came before (with a warning) and
// BEGIN makes the block explicit.
func TestImplicitTransaction(t *testing.T) {
	t.Parallel()
	tg := newTarget(t)
	conn := tg.Connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := testCtx(t)
	tg.CreateTable(t, conn, "CREATE TABLE implicit_txn (k INT PRIMARY KEY)")
	pc := conn.PgConn()
	count := func() string {
		t.Helper()
		res := pc.ExecParams(ctx, "SELECT count(*) FROM implicit_txn", nil, nil, nil, nil).Read()
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		return string(res.Rows[0][0])
	}
	var pe *pgconn.PgError
	// A simple query of several statements.
	if _, err := pc.Exec(ctx, "INSERT INTO implicit_txn VALUES (1); INSERT INTO implicit_txn VALUES (2); SELECT 1/0").ReadAll(); !errors.As(err, &pe) || pe.Code != "22012" {
		t.Fatalf("multi-statement query: %v, want 22012", err)
	}
	if n := count(); n != "0" {
		t.Errorf("after a failed multi-statement query the table has %s rows, want 0", n)
	}
	if _, err := pc.Exec(ctx, "INSERT INTO implicit_txn VALUES (1); INSERT INTO implicit_txn VALUES (2)").ReadAll(); err != nil {
		t.Fatal(err)
	}
	// COMMIT inside commits the statements before it.
	if _, err := pc.Exec(ctx, "INSERT INTO implicit_txn VALUES (3); COMMIT; INSERT INTO implicit_txn VALUES (4); SELECT 1/0").ReadAll(); !errors.As(err, &pe) || pe.Code != "22012" {
		t.Fatalf("query with COMMIT: %v, want 22012", err)
	}
	if n := count(); n != "3" {
		t.Errorf("after INSERT; COMMIT; INSERT; error the table has %s rows, want 3", n)
	}
	// A pipeline of Executes before one Sync (pgconn's batch).
	batch := &pgconn.Batch{}
	batch.ExecParams("INSERT INTO implicit_txn VALUES (10)", nil, nil, nil, nil)
	batch.ExecParams("INSERT INTO implicit_txn VALUES (11)", nil, nil, nil, nil)
	batch.ExecParams("SELECT 1/0", nil, nil, nil, nil)
	if _, err := pc.ExecBatch(ctx, batch).ReadAll(); !errors.As(err, &pe) || pe.Code != "22012" {
		t.Fatalf("batch: %v, want 22012", err)
	}
	if n := count(); n != "3" {
		t.Errorf("after a failed batch the table has %s rows, want 3", n)
	}
	batch = &pgconn.Batch{}
	batch.ExecParams("INSERT INTO implicit_txn VALUES (10)", nil, nil, nil, nil)
	batch.ExecParams("INSERT INTO implicit_txn VALUES (11)", nil, nil, nil, nil)
	if _, err := pc.ExecBatch(ctx, batch).ReadAll(); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != "5" {
		t.Errorf("after a batch of two inserts the table has %s rows, want 5", n)
	}
	if pc.TxStatus() != 'I' {
		t.Errorf("transaction status %c after the batch, want I", pc.TxStatus())
	}
	// BEGIN in a multi-statement query opens an explicit block that
	// outlives the message.
	if _, err := pc.Exec(ctx, "BEGIN; INSERT INTO implicit_txn VALUES (20)").ReadAll(); err != nil {
		t.Fatal(err)
	}
	if pc.TxStatus() != 'T' {
		t.Errorf("transaction status %c after BEGIN; INSERT, want T", pc.TxStatus())
	}
	if _, err := pc.Exec(ctx, "ROLLBACK").ReadAll(); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != "5" {
		t.Errorf("after BEGIN; INSERT then ROLLBACK the table has %s rows, want 5", n)
	}
}
