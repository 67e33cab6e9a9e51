package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// runTag runs one statement and returns its command tag.
func runTag(ctx context.Context, sess wire.Session, sql string) (string, error) {
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		return "", err
	}
	if _, _, err := stmts[0].Describe(ctx); err != nil {
		return "", err
	}
	res, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		return "", err
	}
	defer res.Close()
	for {
		_, ok, err := res.Next(ctx)
		if err != nil {
			return "", err
		}
		if !ok {
			return res.Tag(), nil
		}
	}
}

// TestCreateTableAsTags: CREATE TABLE ... AS and SELECT ... INTO are
// tagged as PostgreSQL 15 tags them (the script suite checks rows and
// errors, not tags): SELECT n for the rows inserted, CREATE TABLE AS when
// no query ran (WITH NO DATA, or IF NOT EXISTS finding the name taken,
// with its NOTICE).
func TestCreateTableAsTags(t *testing.T) {
	ctx := context.Background()
	eng, err := session.New(ctx, session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	var notices []string
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(e *pgerr.Error) {
		if !strings.HasPrefix(e.Message, "full scan of table") { // zproxy's plan advice
			notices = append(notices, e.Severity+": "+e.Message)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	for _, c := range []struct{ sql, tag, notice string }{
		{"CREATE TABLE src AS SELECT g AS id FROM generate_series(1, 3) g", "SELECT 3", ""},
		{"CREATE TABLE nd AS SELECT * FROM src WITH NO DATA", "CREATE TABLE AS", ""},
		{"CREATE TABLE IF NOT EXISTS nd AS SELECT 1", "CREATE TABLE AS", `NOTICE: relation "nd" already exists, skipping`},
		{"CREATE TABLE IF NOT EXISTS nd2 AS SELECT 1", "SELECT 1", ""},
		{"CREATE TABLE none AS SELECT * FROM src WHERE false", "SELECT 0", ""},
		{"SELECT id INTO si FROM src WHERE id > 1", "SELECT 2", ""},
		{"CREATE TEMP TABLE tt AS SELECT * FROM src", "SELECT 3", ""},
		{"SELECT 1 INTO TEMP tt2", "SELECT 1", ""},
		{"CREATE TEMP TABLE tt3 AS SELECT 1 WITH NO DATA", "CREATE TABLE AS", ""},
		{"CREATE GLOBAL TEMP TABLE tt4 AS SELECT 1", "SELECT 1", "WARNING: GLOBAL is deprecated in temporary table creation"},
	} {
		notices = nil
		tag, err := runTag(ctx, sess, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if tag != c.tag {
			t.Errorf("%s: tag %q, want %q", c.sql, tag, c.tag)
		}
		if got := strings.Join(notices, "; "); got != c.notice {
			t.Errorf("%s: notices %q, want %q", c.sql, got, c.notice)
		}
	}
}

// TestCreateTableAsPrivileges: the query needs SELECT on what it reads, as
// any query; a permanent table needs CREATE on public, a temporary one
// does not; the new table is its creator's.
func TestCreateTableAsPrivileges(t *testing.T) {
	eng, admin := adminEngine(t, true)
	ok := pgerr.SuccessfulCompletion
	expectSQL(t, admin, "CREATE TABLE src (id INT PRIMARY KEY, secret TEXT)", ok, "")
	expectSQL(t, admin, "INSERT INTO src VALUES (1, 's')", ok, "")
	expectSQL(t, admin, "CREATE ROLE bob LOGIN", ok, "")
	bob := login(t, eng, "bob")
	denied := pgerr.InsufficientPrivilege
	expectSQL(t, bob, "CREATE TEMP TABLE t1 AS SELECT * FROM src", denied, "permission denied for table src")
	expectSQL(t, bob, "CREATE TABLE t1 AS SELECT 1 AS a", denied, "permission denied for schema public")
	expectSQL(t, bob, "SELECT 1 AS a INTO t1", denied, "permission denied for schema public")
	expectSQL(t, bob, "CREATE TEMP TABLE t1 AS SELECT 1 AS a", ok, "")
	expectSQL(t, admin, "GRANT SELECT (id) ON src TO bob", ok, "")
	expectSQL(t, bob, "CREATE TEMP TABLE t2 AS SELECT * FROM src", denied, "permission denied for table src")
	expectSQL(t, bob, "SELECT id INTO TEMP t2 FROM src", ok, "")
	expectSQL(t, admin, "GRANT CREATE ON SCHEMA public TO bob", ok, "")
	expectSQL(t, bob, "CREATE TABLE t3 AS SELECT id FROM src", ok, "")
	if got := expectSQL(t, bob, "SELECT tableowner FROM pg_tables WHERE tablename = 't3'", ok, ""); strings.Join(got, ",") != "bob" {
		t.Errorf("t3's owner: %v, want bob", got)
	}
	expectSQL(t, admin, "REVOKE SELECT (id) ON src FROM bob", ok, "")
	expectSQL(t, bob, "SELECT id INTO t4 FROM src", denied, "permission denied for table src")
	expectSQL(t, bob, "SELECT * FROM t4", pgerr.UndefinedTable, `relation "t4" does not exist`)
}
