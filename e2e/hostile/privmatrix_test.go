package hostile

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// updatePrivileges rewrites testdata/privileges.golden from the PostgreSQL
// that E2E_POSTGRES names:
//
//	E2E_POSTGRES='host=127.0.0.1 port=5432 user=postgres dbname=postgres' \
//	  go test ./e2e/hostile -run TestPrivilegeMatrix -update-privileges
var updatePrivileges = flag.Bool("update-privileges", false, "rewrite testdata/privileges.golden from the PostgreSQL of E2E_POSTGRES")

// The privilege matrix: every statement shape that can reach a relation
// (plain reads, subqueries in each clause, RETURNING, SET, ON CONFLICT,
// WITH, data-modifying WITH, locking reads, EXPLAIN, writes, DDL) × every
// kind of object (table, view, sequence, schema, columns) × each grant
// state, run as an ordinary role. The golden file holds PostgreSQL 15's
// answer to each (recorded with -update-privileges against E2E_POSTGRES);
// zproxy must give the same SQLSTATE, message and DETAIL, and, when the
// statement succeeds, the same command tag and rows.

// privSetup is run by the superuser once: a table the role may use
// freely (pub), and the objects whose privileges vary.
const privSetup = `
CREATE TABLE pub (k INT PRIMARY KEY, v TEXT);
CREATE TABLE secret (k INT PRIMARY KEY, s TEXT, n INT);
INSERT INTO secret VALUES (1, 'top', 10), (2, 'classified', 20);
CREATE VIEW sv AS SELECT k, s FROM secret WHERE k = 1;
CREATE SEQUENCE sq;
CREATE TABLE chk (k INT PRIMARY KEY, a INT CHECK (a > 0), hidden TEXT NOT NULL DEFAULT 'shh');
INSERT INTO chk VALUES (1, 1, 'shh');
CREATE ROLE readers NOLOGIN;
GRANT SELECT ON secret, sv TO readers;
GRANT USAGE ON SEQUENCE sq TO readers;
`

// privGrants are the grant states: what the superuser grants the role
// (after revoking everything) before the statements run.
var privGrants = []struct{ name, sql string }{
	{"nothing", ``},
	{"select", `GRANT SELECT ON secret TO mallory;`},
	{"select columns", `GRANT SELECT (k, n) ON secret TO mallory;`},
	{"insert", `GRANT INSERT ON secret TO mallory;`},
	{"update", `GRANT UPDATE ON secret TO mallory;`},
	{"update and select", `GRANT UPDATE, SELECT ON secret TO mallory;`},
	{"update column", `GRANT UPDATE (n), SELECT (k) ON secret TO mallory;`},
	{"delete", `GRANT DELETE ON secret TO mallory;`},
	{"truncate", `GRANT TRUNCATE ON secret TO mallory;`},
	{"view only", `GRANT SELECT ON sv TO mallory;`},
	{"sequence usage", `GRANT USAGE ON SEQUENCE sq TO mallory;`},
	{"sequence select", `GRANT SELECT ON SEQUENCE sq TO mallory;`},
	{"sequence update", `GRANT UPDATE ON sq TO mallory;`},
	{"check columns", `GRANT INSERT (k, a), UPDATE (a), SELECT (k) ON chk TO mallory;`},
	{"create on public", `GRANT CREATE ON SCHEMA public TO mallory;`},
	{"member of a group", `GRANT readers TO mallory;`},
	{"pg_read_all_data", `GRANT pg_read_all_data TO mallory;`},
	{"pg_write_all_data", `GRANT pg_write_all_data TO mallory;`},
}

// privRevoke takes back every privilege privGrants may have given, and
// puts back secret's rows (zproxy's TRUNCATE is not undone by ROLLBACK;
// transactional DDL is issue 26's).
const privRevoke = `
DELETE FROM secret;
INSERT INTO secret VALUES (1, 'top', 10), (2, 'classified', 20);
REVOKE ALL ON pub, secret, sv, chk FROM mallory;
REVOKE ALL ON SEQUENCE sq FROM mallory;
REVOKE CREATE ON SCHEMA public FROM mallory;
REVOKE readers, pg_read_all_data, pg_write_all_data FROM mallory;
GRANT ALL ON pub TO mallory;
`

// privStatements are what the role runs in each grant state, each in a
// transaction rolled back after it.
var privStatements = []string{
	// Reads of secret, wherever they stand.
	`SELECT s FROM secret ORDER BY k`,
	`SELECT k, n FROM secret ORDER BY k`,
	`SELECT count(*) FROM secret`,
	`SELECT * FROM secret ORDER BY k`,
	`SELECT (SELECT s FROM secret WHERE k = 1)`,
	`SELECT 1 WHERE EXISTS (SELECT 1 FROM secret)`,
	`SELECT p.k FROM pub p JOIN secret x ON x.k = p.k`,
	`WITH c AS (SELECT s FROM secret) SELECT * FROM c ORDER BY 1`,
	`SELECT * FROM (SELECT s FROM secret) d ORDER BY 1`,
	`SELECT s FROM secret FOR UPDATE`,
	`SELECT k FROM secret FOR SHARE`,
	`EXPLAIN (COSTS OFF) SELECT s FROM secret`,
	// Reads of secret from writes to pub.
	`INSERT INTO pub SELECT k, s FROM secret`,
	`INSERT INTO pub VALUES (1, 'a') RETURNING (SELECT s FROM secret WHERE k = 1)`,
	`UPDATE pub SET v = (SELECT s FROM secret WHERE k = 1)`,
	`UPDATE pub SET v = 'x' WHERE k IN (SELECT k FROM secret)`,
	`UPDATE pub SET v = 'x' RETURNING (SELECT s FROM secret WHERE k = 1)`,
	`DELETE FROM pub WHERE k IN (SELECT k FROM secret)`,
	`DELETE FROM pub RETURNING (SELECT s FROM secret WHERE k = 1)`,
	`WITH w AS (SELECT s FROM secret) UPDATE pub SET v = (SELECT max(s) FROM w)`,
	`WITH w AS (INSERT INTO pub VALUES (5, 'b') RETURNING (SELECT s FROM secret WHERE k = 1) AS leak) SELECT * FROM w`,
	`INSERT INTO pub VALUES (7, 'c') ON CONFLICT (k) DO UPDATE SET v = (SELECT s FROM secret WHERE k = 1)`,
	`UPDATE pub SET v = x.s FROM secret x WHERE x.k = pub.k`,
	`DELETE FROM pub USING secret x WHERE x.k = pub.k`,
	// Writes to secret.
	`INSERT INTO secret VALUES (3, 'new', 30)`,
	`INSERT INTO secret (k, n) VALUES (3, 30)`,
	`INSERT INTO secret VALUES (3, 'new', 30) RETURNING k`,
	`INSERT INTO secret VALUES (1, 'dup', 0) ON CONFLICT (k) DO NOTHING`,
	`INSERT INTO secret VALUES (1, 'dup', 0) ON CONFLICT (k) DO UPDATE SET n = 5`,
	`INSERT INTO secret VALUES (1, 'dup', 0) ON CONFLICT (k) DO UPDATE SET n = excluded.n`,
	`INSERT INTO secret VALUES (1, 'dup', 0)`,
	`UPDATE secret SET n = 0`,
	`UPDATE secret SET n = 0 WHERE k = 1`,
	`UPDATE secret SET n = n + 1 WHERE k = 1`,
	`UPDATE secret SET s = 'x' WHERE k = 1`,
	`UPDATE secret SET n = 0 RETURNING s`,
	`DELETE FROM secret`,
	`DELETE FROM secret WHERE k = 1`,
	`TRUNCATE secret`,
	// The view: its own privilege for the role, the table's for its owner.
	`SELECT * FROM sv`,
	`SELECT s FROM sv WHERE k = 1`,
	`CREATE OR REPLACE VIEW sv AS SELECT k, s FROM secret`,
	`DROP VIEW sv`,
	// The sequence.
	`SELECT nextval('sq') > 0`,
	`SELECT setval('sq', 100)`,
	`SELECT nextval('sq') > 0, currval('sq') > 0`,
	`ALTER SEQUENCE sq RESTART WITH 5`,
	`ALTER SEQUENCE sq RENAME TO sq2`,
	`DROP SEQUENCE sq`,
	// A failing row shows only what the role may see.
	`INSERT INTO chk (k, a) VALUES (2, -1)`,
	`UPDATE chk SET a = -5 WHERE k = 1`,
	`INSERT INTO chk (k, a) VALUES (1, 3)`,
	// DDL on what the role does not own, and creating in public.
	`CREATE TABLE mine (k INT PRIMARY KEY)`,
	`CREATE VIEW myview AS SELECT 1 AS one`,
	`CREATE SEQUENCE myseq`,
	`DROP TABLE secret`,
	`ALTER TABLE secret ADD COLUMN extra INT`,
	`CREATE INDEX secret_n ON secret (n)`,
	`COMMENT ON TABLE secret IS 'mine now'`,
	// What the privilege functions say agrees with what the statements do.
	`SELECT has_table_privilege('secret', 'SELECT'), has_table_privilege('secret', 'INSERT, UPDATE'), has_table_privilege('secret', 'TRUNCATE'), has_table_privilege('sv', 'SELECT')`,
	`SELECT has_column_privilege('secret', 's', 'SELECT'), has_column_privilege('secret', 'n', 'UPDATE'), has_any_column_privilege('secret', 'SELECT'), has_any_column_privilege('chk', 'INSERT')`,
	`SELECT has_sequence_privilege('sq', 'USAGE'), has_sequence_privilege('sq', 'SELECT, UPDATE'), has_schema_privilege('public', 'CREATE'), has_schema_privilege('public', 'USAGE')`,
	`SELECT has_table_privilege('secret', 'USAGE')`,
	// pg_catalog is searched first: a relation of the role's own named
	// like a catalog view never stands in for it.
	`CREATE VIEW pg_roles AS SELECT 'fake'::text AS rolname`,
	`SELECT count(*) > 0 FROM pg_roles WHERE rolname = 'mallory'`,
}

// TestPrivilegeMatrix runs every statement of the matrix in every grant
// state and compares the answers with PostgreSQL's (the golden file).
func TestPrivilegeMatrix(t *testing.T) {
	var adminConn, userConn func(t *testing.T) *pgx.Conn
	if pgDSN := os.Getenv("E2E_POSTGRES"); pgDSN != "" {
		adminConn = func(t *testing.T) *pgx.Conn { return pgConnect(t, pgDSN) }
		admin := adminConn(t)
		for _, q := range []string{
			`DROP TABLE IF EXISTS pub, secret, chk, mine CASCADE`, `DROP VIEW IF EXISTS public.myview, public.pg_roles`,
			`DROP SEQUENCE IF EXISTS sq, sq2, myseq`,
			`DO $$BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'mallory') THEN EXECUTE 'DROP OWNED BY mallory'; END IF; END$$`,
			`DO $$BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'readers') THEN EXECUTE 'DROP OWNED BY readers'; END IF; END$$`,
			`DROP ROLE IF EXISTS mallory`, `DROP ROLE IF EXISTS readers`, `CREATE ROLE mallory LOGIN PASSWORD 'Mall0ry-pw'`,
		} {
			mustExec(t, admin, q)
		}
		cfg, err := pgx.ParseConfig(pgDSN)
		if err != nil {
			t.Fatal(err)
		}
		userConn = func(t *testing.T) *pgx.Conn {
			c := cfg.Copy()
			c.User, c.Password = "mallory", "Mall0ry-pw"
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			conn, err := pgx.ConnectConfig(ctx, c)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = conn.Close(context.Background()) })
			return conn
		}
	} else {
		if *updatePrivileges {
			t.Fatal("-update-privileges needs E2E_POSTGRES")
		}
		s := start(t, "--users", "admin:adm1n-Secret")
		adminConn = func(t *testing.T) *pgx.Conn { return s.connect(t, "admin", "password=adm1n-Secret sslmode=disable") }
		mustExec(t, adminConn(t), `CREATE ROLE mallory LOGIN PASSWORD 'Mall0ry-pw'`)
		userConn = func(t *testing.T) *pgx.Conn { return s.connect(t, "mallory", "password=Mall0ry-pw sslmode=disable") }
	}
	admin := adminConn(t)
	for _, q := range strings.Split(strings.TrimSpace(privSetup), ";\n") {
		mustExec(t, admin, q)
	}
	var out strings.Builder
	for _, g := range privGrants {
		for _, q := range strings.Split(strings.TrimSpace(privRevoke), "\n") {
			mustExec(t, admin, q)
		}
		if g.sql != "" {
			mustExec(t, admin, g.sql)
		}
		user := userConn(t)
		fmt.Fprintf(&out, "## %s\n", g.name)
		for _, q := range privStatements {
			fmt.Fprintf(&out, "%s\n  -> %s\n", q, privOutcome(t, user, q))
		}
	}
	path := filepath.Join("testdata", "privileges.golden")
	if *updatePrivileges {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("E2E_POSTGRES") == "" {
		diffGolden(t, string(want), out.String())
	}
}

// privOutcome runs q as the role inside a transaction it rolls back, and
// describes the answer: the command tag and rows, or the error's SQLSTATE,
// message and detail.
func privOutcome(t *testing.T, conn *pgx.Conn, q string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
		t.Fatalf("BEGIN: %v", err)
	}
	defer func() {
		if _, err := conn.Exec(ctx, "ROLLBACK"); err != nil {
			t.Fatalf("ROLLBACK: %v", err)
		}
	}()
	rows, err := conn.Query(ctx, q, pgx.QueryExecModeSimpleProtocol)
	var vals []string
	if err == nil {
		for rows.Next() {
			if strings.HasPrefix(q, "EXPLAIN") {
				continue // plans are each system's own
			}
			v, _ := rows.Values()
			vals = append(vals, fmt.Sprint(v...))
		}
		rows.Close()
		err = rows.Err()
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		s := fmt.Sprintf("ERROR %s %s", pe.Code, pe.Message)
		if pe.Detail != "" {
			s += " | " + pe.Detail
		}
		return s
	}
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	tag := rows.CommandTag().String()
	if strings.HasPrefix(q, "EXPLAIN") {
		return "ok EXPLAIN"
	}
	return strings.TrimSpace(fmt.Sprintf("ok %s %s", tag, strings.Join(vals, "; ")))
}

// pgConnect connects to a PostgreSQL by DSN for the test.
func pgConnect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func mustExec(t *testing.T, conn *pgx.Conn, q string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := conn.Exec(ctx, q, pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// diffGolden reports each statement whose answer differs from the golden
// file's, in the grant state it ran in.
func diffGolden(t *testing.T, want, got string) {
	t.Helper()
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	if len(wl) != len(gl) {
		t.Fatalf("the matrix has %d lines, the golden file %d: rewrite it with -update-privileges against PostgreSQL", len(gl), len(wl))
	}
	section, stmt := "", ""
	bad := 0
	for i := range wl {
		switch {
		case strings.HasPrefix(wl[i], "## "):
			section = wl[i][3:]
		case !strings.HasPrefix(wl[i], "  -> "):
			stmt = wl[i]
		case wl[i] != gl[i]:
			bad++
			t.Errorf("[%s] %s\n  PostgreSQL: %s\n  zproxy:     %s", section, stmt, wl[i][5:], gl[i][5:])
		}
	}
	if bad > 0 {
		t.Logf("%d of the matrix's answers differ from PostgreSQL's", bad)
	}
}
