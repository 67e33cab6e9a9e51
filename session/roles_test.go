package session_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/auth"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// connectAs opens a session of user as password authentication would.
func connectAs(t *testing.T, eng *session.Engine, user string, startup map[string]string) (wire.Session, []string, error) {
	t.Helper()
	var notices []string
	sess, err := eng.NewSession(context.Background(), wire.SessionParams{User: user, Database: "postgres", Authenticated: true, Startup: startup,
		Notice: func(e *pgerr.Error) { notices = append(notices, e.Message) }})
	return sess, notices, err
}

// adminEngine starts an engine over an in-memory store with the bootstrap
// superuser admin, and returns it with a session of admin; both close when
// the test ends.
func adminEngine(t *testing.T, allowFullScan bool) (*session.Engine, wire.Session) {
	t.Helper()
	eng := adminEngineOn(t, memStore(t), allowFullScan)
	return eng, login(t, eng, "admin")
}

// adminEngineOn starts an engine over store with the bootstrap superuser
// admin; it closes when the test ends.
func adminEngineOn(t *testing.T, store kv.Store, allowFullScan bool) *session.Engine {
	t.Helper()
	eng, err := session.New(context.Background(), session.Config{Store: store, AllowFullScan: allowFullScan})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng.Close() })
	if _, err := eng.BootstrapUsers(context.Background(), map[string]string{"admin": "secret"}); err != nil {
		t.Fatal(err)
	}
	return eng
}

// login opens a session of user (connectAs), closed when the test ends.
func login(t *testing.T, eng *session.Engine, user string) wire.Session {
	t.Helper()
	sess, _, err := connectAs(t, eng, user, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)
	return sess
}

// stateOf is the Code a test table writes as text, "" for success.
func stateOf(s string) pgerr.Code {
	if s == "" {
		return pgerr.SuccessfulCompletion
	}
	return pgerr.FromSQLState(s)
}

// expectSQL runs sql and checks its SQLSTATE (SuccessfulCompletion for
// none) and that an error's message holds msg.
func expectSQL(t *testing.T, sess wire.Session, sql string, code pgerr.Code, msg string) []string {
	t.Helper()
	rows, err := runSQL(context.Background(), sess, sql)
	got := pgerr.CodeOf(err)
	if got != code || err != nil && !strings.Contains(err.Error(), msg) {
		t.Errorf("%s: got %q (%v), want %q %q", sql, got, err, code, msg)
	}
	return rows
}

// TestRolesAndPrivileges walks through PostgreSQL 15's behaviour for a
// superuser, a table owner and a role with grants, with PostgreSQL's
// SQLSTATEs and messages.
func TestRolesAndPrivileges(t *testing.T) {
	store := memStore(t)
	eng, err := session.New(context.Background(), session.Config{Store: store, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	created, err := eng.BootstrapUsers(context.Background(), map[string]string{"admin": "secret"})
	if err != nil || len(created) != 1 {
		t.Fatalf("BootstrapUsers: %v, %v", created, err)
	}
	if again, err := eng.BootstrapUsers(context.Background(), map[string]string{"admin": "other"}); err != nil || len(again) != 0 {
		t.Fatalf("a second bootstrap recreated %v (%v)", again, err)
	}
	role, err := eng.LookupRole(context.Background(), "admin")
	if err != nil || !role.Exists || !role.Superuser || !role.Login {
		t.Fatalf("LookupRole(admin) = %+v, %v", role, err)
	}
	if v, err := auth.ParseVerifier(role.Verifier); err != nil || !v.Check("secret") {
		t.Fatalf("the stored verifier does not check the bootstrap password (%v)", err)
	}

	admin, _, err := connectAs(t, eng, "admin", nil)
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, admin, "CREATE ROLE alice LOGIN PASSWORD 'a'", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE USER bob PASSWORD 'b'", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE ROLE alice", pgerr.DuplicateObject, `role "alice" already exists`)
	expectSQL(t, admin, "CREATE ROLE public", pgerr.ReservedName, `role name "public" is reserved`)
	expectSQL(t, admin, "CREATE ROLE pg_x", pgerr.ReservedName, `role name "pg_x" is reserved`)
	expectSQL(t, admin, "CREATE TABLE t (a INT PRIMARY KEY, b INT)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "INSERT INTO t VALUES (1, 1)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE TABLE u (a INT PRIMARY KEY)", pgerr.SuccessfulCompletion, "")
	if r, _ := eng.LookupRole(context.Background(), "bob"); !r.Login || r.Superuser || !strings.HasPrefix(r.Verifier, "SCRAM-SHA-256$4096:") {
		t.Fatalf("bob: %+v", r)
	}

	bob, _, err := connectAs(t, eng, "bob", nil)
	if err != nil {
		t.Fatal(err)
	}
	if rows := expectSQL(t, bob, "SHOW is_superuser", pgerr.SuccessfulCompletion, ""); len(rows) != 1 || rows[0] != "off" {
		t.Errorf("bob's is_superuser: %v", rows)
	}
	for _, sql := range []string{"SELECT * FROM t", "INSERT INTO t VALUES (2, 2)", "UPDATE t SET b = 1", "DELETE FROM t", "EXPLAIN SELECT * FROM t", "CHECK TABLE t"} {
		expectSQL(t, bob, sql, pgerr.InsufficientPrivilege, "permission denied for table t")
	}
	expectSQL(t, bob, "CREATE TABLE x (a INT PRIMARY KEY)", pgerr.InsufficientPrivilege, "permission denied for schema public")
	expectSQL(t, bob, "DROP TABLE t", pgerr.InsufficientPrivilege, "must be owner of table t")
	expectSQL(t, bob, "CREATE INDEX t_b ON t (b)", pgerr.InsufficientPrivilege, "must be owner of table t")
	expectSQL(t, bob, "CREATE ROLE carol", pgerr.InsufficientPrivilege, "permission denied to create role")
	expectSQL(t, bob, "DROP ROLE alice", pgerr.InsufficientPrivilege, "permission denied to drop role")
	expectSQL(t, bob, "ALTER ROLE alice PASSWORD 'x'", pgerr.InsufficientPrivilege, "permission denied")
	expectSQL(t, bob, "ALTER ROLE bob SUPERUSER", pgerr.InsufficientPrivilege, "must be superuser to alter superuser roles or change superuser attribute")
	expectSQL(t, bob, "ALTER ROLE CURRENT_USER PASSWORD 'b2'", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "GRANT SELECT ON t TO bob", pgerr.InsufficientPrivilege, "permission denied for table t")
	expectSQL(t, bob, "SELECT * FROM information_schema.tables", pgerr.SuccessfulCompletion, "")

	// Grants, the way PostgreSQL asks for them.
	expectSQL(t, admin, "GRANT INSERT ON t TO bob", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "INSERT INTO t VALUES (2, 2)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "INSERT INTO t VALUES (2, 2) ON CONFLICT (a) DO UPDATE SET b = 3", pgerr.InsufficientPrivilege, "permission denied for table t")
	expectSQL(t, admin, "GRANT UPDATE ON TABLE t TO bob", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "UPDATE t SET b = 5", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "UPDATE t SET b = 5 WHERE a = 1", pgerr.InsufficientPrivilege, "permission denied for table t")
	expectSQL(t, bob, "UPDATE t SET b = b + 1", pgerr.InsufficientPrivilege, "permission denied for table t")
	expectSQL(t, admin, "GRANT SELECT, DELETE ON t TO bob", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "UPDATE t SET b = b + 1 WHERE a = 1", pgerr.SuccessfulCompletion, "")
	if rows := expectSQL(t, bob, "SELECT a, b FROM t ORDER BY a", pgerr.SuccessfulCompletion, ""); strings.Join(rows, ";") != "1|6;2|5" {
		t.Errorf("bob reads %v", rows)
	}
	expectSQL(t, bob, "SELECT * FROM u", pgerr.InsufficientPrivilege, "permission denied for table u")
	expectSQL(t, admin, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO PUBLIC", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "SELECT * FROM u", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "REVOKE ALL ON u FROM PUBLIC", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "SELECT * FROM u", pgerr.InsufficientPrivilege, "permission denied for table u")
	expectSQL(t, admin, "GRANT SELECT ON nosuch TO bob", pgerr.UndefinedTable, `relation "nosuch" does not exist`)
	expectSQL(t, admin, "GRANT SELECT ON t TO nosuch", pgerr.UndefinedObject, `role "nosuch" does not exist`)
	expectSQL(t, admin, "GRANT SELECT ON ALL TABLES IN SCHEMA other TO bob", pgerr.InvalidSchemaName, `schema "other" does not exist`)

	// An owner holds every privilege and may grant them.
	expectSQL(t, admin, "GRANT ALL ON u TO alice", pgerr.SuccessfulCompletion, "")
	alice, _, err := connectAs(t, eng, "alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, admin, "ALTER ROLE alice SUPERUSER", pgerr.SuccessfulCompletion, "")
	expectSQL(t, alice, "CREATE TABLE own (a INT PRIMARY KEY)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "ALTER ROLE alice NOSUPERUSER", pgerr.SuccessfulCompletion, "")
	expectSQL(t, alice, "INSERT INTO own VALUES (1)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, alice, "CREATE INDEX own_a ON own (a)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, alice, "GRANT SELECT ON own TO bob", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "SELECT * FROM own", pgerr.SuccessfulCompletion, "")
	expectSQL(t, bob, "DROP INDEX own_a", pgerr.InsufficientPrivilege, "must be owner of index own_a")

	// DROP ROLE refuses roles that own or hold something.
	expectSQL(t, admin, "DROP ROLE bob", pgerr.DependentObjectsStillExist, `role "bob" cannot be dropped because some objects depend on it`)
	expectSQL(t, admin, "DROP ROLE alice", pgerr.DependentObjectsStillExist, `role "alice" cannot be dropped`)
	expectSQL(t, admin, "DROP ROLE admin", pgerr.ObjectInUse, "current user cannot be dropped")
	expectSQL(t, admin, "DROP ROLE nosuch", pgerr.UndefinedObject, `role "nosuch" does not exist`)
	expectSQL(t, admin, "REVOKE ALL ON t, own FROM bob", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "DROP ROLE IF EXISTS bob, nosuch", pgerr.SuccessfulCompletion, "")
	if r, _ := eng.LookupRole(context.Background(), "bob"); r.Exists {
		t.Error("bob was not dropped")
	}
	// A session whose role was dropped keeps no privileges (PUBLIC may
	// still read t).
	expectSQL(t, bob, "DELETE FROM t", pgerr.InsufficientPrivilege, "permission denied for table t")
	expectSQL(t, bob, "SELECT * FROM t", pgerr.SuccessfulCompletion, "")

	// A dropped and recreated table does not inherit the old grants.
	expectSQL(t, admin, "CREATE ROLE reader LOGIN", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "GRANT SELECT ON t TO reader", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "DROP TABLE t", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE TABLE t (a INT PRIMARY KEY)", pgerr.SuccessfulCompletion, "")
	reader, _, _ := connectAs(t, eng, "reader", nil)
	expectSQL(t, reader, "SELECT * FROM t", pgerr.InsufficientPrivilege, "permission denied for table t")
	expectSQL(t, admin, "DROP ROLE reader", pgerr.SuccessfulCompletion, "")

	// Role changes are writes.
	expectSQL(t, admin, "BEGIN READ ONLY", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE ROLE ro", pgerr.ReadOnlySQLTransaction, "cannot execute CREATE ROLE in a read-only transaction")
	expectSQL(t, admin, "ROLLBACK", pgerr.SuccessfulCompletion, "")

	// Passwords: a verifier is stored as sent; an md5 hash is refused.
	expectSQL(t, admin, "ALTER ROLE alice PASSWORD 'SCRAM-SHA-256$4096:qvbIXgnyR6V6Qbcce70P+w==$3yzUR7ELTH8LcvldrTzqji6Rv7KYu1ocsK0cqxJlXIg=:Zc0l5y5+l2VsgiojgzhxL+vhnSw5NSkSHrHl77rpHLM='", pgerr.SuccessfulCompletion, "")
	if r, _ := eng.LookupRole(context.Background(), "alice"); !strings.HasPrefix(r.Verifier, "SCRAM-SHA-256$4096:qvbIXgnyR6V6Qbcce70P+w==") {
		t.Errorf("verifier not stored as sent: %q", r.Verifier)
	}
	expectSQL(t, admin, "ALTER ROLE alice PASSWORD 'md5a3556571e93b0d20722ba62be61e8c2d'", pgerr.FeatureNotSupported, "MD5")
	expectSQL(t, admin, "ALTER ROLE alice NOLOGIN PASSWORD NULL", pgerr.SuccessfulCompletion, "")
	if r, _ := eng.LookupRole(context.Background(), "alice"); r.Login || r.Verifier != "" {
		t.Errorf("alice after NOLOGIN PASSWORD NULL: %+v", r)
	}
}

// TestTrustUsers: a user that is no role is a superuser (trust lets anyone
// claim any name); one that is a role has that role's privileges.
func TestTrustUsers(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	expectSQL(t, sess, "CREATE TABLE t (a INT PRIMARY KEY)", pgerr.SuccessfulCompletion, "")
	expectSQL(t, sess, "CREATE ROLE app LOGIN", pgerr.SuccessfulCompletion, "")
	if rows := expectSQL(t, sess, "SHOW is_superuser", pgerr.SuccessfulCompletion, ""); len(rows) != 1 || rows[0] != "on" {
		t.Errorf("is_superuser %v", rows)
	}
}

// TestTimeoutSettings: the millisecond settings read and show as in
// PostgreSQL, and the session hands them to the connection.
func TestTimeoutSettings(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	for _, tc := range []struct{ value, show, code string }{
		{"'5s'", "5s", ""}, {"5000", "5s", ""}, {"1500", "1500ms", ""}, {"'1min'", "1min", ""}, {"60000", "1min", ""},
		{"3600000", "1h", ""}, {"86400000", "1d", ""}, {"'1.5s'", "1500ms", ""}, {"'100us'", "0", ""}, {"'2500us'", "2ms", ""},
		{"'5 s'", "5s", ""}, {"' 5s '", "5s", ""}, {"'1e3'", "1s", ""}, {"0", "0", ""}, {"'90min'", "90min", ""},
		{"-1", "", pgerr.InvalidParameterValue.String()}, {"'abc'", "", pgerr.InvalidParameterValue.String()}, {"'5S'", "", pgerr.InvalidParameterValue.String()},
		{"'5sec'", "", pgerr.InvalidParameterValue.String()}, {"99999999999", "", pgerr.InvalidParameterValue.String()},
	} {
		expectSQL(t, sess, "SET statement_timeout = "+tc.value, stateOf(tc.code), "")
		if tc.code != "" {
			continue
		}
		if rows := expectSQL(t, sess, "SHOW statement_timeout", pgerr.SuccessfulCompletion, ""); len(rows) != 1 || rows[0] != tc.show {
			t.Errorf("SET statement_timeout = %s: SHOW gives %v, want %s", tc.value, rows, tc.show)
		}
	}
	expectSQL(t, sess, "SET statement_timeout = '250ms'", pgerr.SuccessfulCompletion, "")
	expectSQL(t, sess, "SET idle_in_transaction_session_timeout = '2s'", pgerr.SuccessfulCompletion, "")
	if l := sess.Limits(); l.StatementTimeout != 250*time.Millisecond || l.IdleInTransactionTimeout != 2*time.Second {
		t.Errorf("Limits() = %+v", l)
	}
	expectSQL(t, sess, "RESET statement_timeout", pgerr.SuccessfulCompletion, "")
	if l := sess.Limits(); l.StatementTimeout != 0 {
		t.Errorf("after RESET: %+v", l)
	}
}

// TestStartupSettings: the client's startup parameters are applied as SET
// would apply them, and refuse the connection when SET would fail.
func TestStartupSettings(t *testing.T) {
	eng, _ := newSession(t, memStore(t))
	sess, _, err := connectAs(t, eng, "u", map[string]string{"statement_timeout": "1500", "application_name": "app", "DateStyle": "ISO, MDY"})
	if err != nil {
		t.Fatal(err)
	}
	if rows := expectSQL(t, sess, "SHOW statement_timeout", pgerr.SuccessfulCompletion, ""); rows[0] != "1500ms" {
		t.Errorf("statement_timeout %v", rows)
	}
	for _, tc := range []struct {
		startup map[string]string
		code    string
	}{
		{map[string]string{"statement_timeout": "abc"}, pgerr.InvalidParameterValue.String()},
		{map[string]string{"foo": "bar"}, pgerr.UndefinedObject.String()},
		{map[string]string{"is_superuser": "on"}, pgerr.CantChangeRuntimeParam.String()},
	} {
		if _, _, err := connectAs(t, eng, "u", tc.startup); pgerr.CodeOf(err).String() != tc.code {
			t.Errorf("startup %v: %v, want %s", tc.startup, err, tc.code)
		}
	}
}

// TestBootstrapSuperuser: zproxy, the bootstrap superuser, exists in an
// empty store (a superuser that may log in, without a password) until a
// change stores it; it cannot be created again or dropped, as initdb's
// superuser. A name that is no role is no role.
func TestBootstrapSuperuser(t *testing.T) {
	eng, admin := adminEngine(t, true)
	ctx := context.Background()
	if r, err := eng.LookupRole(ctx, "zproxy"); err != nil || !r.Exists || !r.Superuser || !r.Login || r.Verifier != "" {
		t.Fatalf("LookupRole(zproxy) = %+v, %v", r, err)
	}
	if r, err := eng.LookupRole(ctx, "nobody"); err != nil || r.Exists {
		t.Fatalf("LookupRole(nobody) = %+v, %v", r, err)
	}
	zp, _, err := connectAs(t, eng, "zproxy", nil)
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, zp, "CREATE TABLE boot (a INT PRIMARY KEY)", pgerr.SuccessfulCompletion, "")
	// Before any change stores it, the bootstrap superuser may own what a
	// dump of this store restores (ALTER TABLE ... OWNER TO zproxy).
	expectSQL(t, admin, "CREATE TABLE boot_owned (a INT); ALTER TABLE boot_owned OWNER TO zproxy", pgerr.SuccessfulCompletion, "")
	expectSQL(t, admin, "CREATE ROLE zproxy", pgerr.DuplicateObject, `role "zproxy" already exists`)
	expectSQL(t, admin, "DROP ROLE zproxy", pgerr.DependentObjectsStillExist, "cannot drop role zproxy because it is required by the database system")
	expectSQL(t, zp, "DROP ROLE zproxy", pgerr.ObjectInUse, "current user cannot be dropped")
	expectSQL(t, admin, "ALTER ROLE zproxy PASSWORD 'boot'", pgerr.SuccessfulCompletion, "")
	r, err := eng.LookupRole(ctx, "zproxy")
	if err != nil || !r.Superuser || !r.Login {
		t.Fatalf("LookupRole(zproxy) after ALTER ROLE = %+v, %v", r, err)
	}
	if v, err := auth.ParseVerifier(r.Verifier); err != nil || !v.Check("boot") {
		t.Fatalf("zproxy's password was not stored (%v)", err)
	}
	expectSQL(t, admin, "CREATE ROLE grp; CREATE ROLE member LOGIN; GRANT grp TO member", pgerr.SuccessfulCompletion, "")
	if r, err := eng.LookupRole(ctx, "member"); err != nil || len(r.Groups) != 1 || r.Groups[0] != "grp" {
		t.Fatalf("LookupRole(member).Groups = %+v, %v", r, err)
	}
}

// TestDropRoleDependencyDetail: DROP ROLE's DETAIL names each object as
// PostgreSQL 15 does (the lines below are PostgreSQL's, for the same
// statements; PostgreSQL lists them in the order the dependencies were
// recorded).
func TestDropRoleDependencyDetail(t *testing.T) {
	eng, err := session.New(context.Background(), session.Config{Store: memStore(t), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	s := openSession(t, eng)
	for _, sql := range []string{
		`CREATE ROLE dep`,
		`CREATE SCHEMA dep_s AUTHORIZATION dep`,
		`CREATE TYPE dep_c AS (a int)`, `ALTER TYPE dep_c OWNER TO dep`,
		`CREATE DOMAIN dep_d AS int`, `ALTER DOMAIN dep_d OWNER TO dep`,
		`CREATE SCHEMA dep_s2`, `GRANT USAGE ON SCHEMA dep_s2 TO dep`,
		`CREATE FUNCTION dep_s2.f(x int, y text) RETURNS int LANGUAGE sql AS 'select 1'`, `ALTER FUNCTION dep_s2.f(int, text) OWNER TO dep`,
		`CREATE FUNCTION dep_g() RETURNS int LANGUAGE sql AS 'select 1'`, `GRANT EXECUTE ON FUNCTION dep_g() TO dep`,
		`CREATE AGGREGATE dep_a(int) (sfunc = int4pl, stype = int)`, `ALTER AGGREGATE dep_a(int) OWNER TO dep`,
		`CREATE OPERATOR !!! (function = int4um, rightarg = int)`, `ALTER OPERATOR !!! (none, int) OWNER TO dep`,
		`CREATE OPERATOR === (function = int4eq, leftarg = int, rightarg = int)`, `ALTER OPERATOR === (int, int) OWNER TO dep`,
		`CREATE MATERIALIZED VIEW dep_mv AS SELECT 1`, `ALTER MATERIALIZED VIEW dep_mv OWNER TO dep`,
		`SELECT lo_create(424243)`, `GRANT SELECT ON LARGE OBJECT 424243 TO dep`,
	} {
		mustRun(t, s, sql)
	}
	_, err = runSQL(context.Background(), s, `DROP ROLE dep`)
	var pe *pgerr.Error
	if !errors.As(err, &pe) || pe.Code != pgerr.DependentObjectsStillExist {
		t.Fatalf("DROP ROLE: %v, want 2BP01", err)
	}
	got := strings.Split(pe.Detail, "\n")
	want := []string{"owner of schema dep_s", "owner of type dep_c", "owner of type dep_d", "privileges for schema dep_s2",
		"owner of function dep_s2.f(integer,text)", "privileges for function dep_g()", "owner of function dep_a(integer)",
		"owner of operator !!!(NONE,integer)", "owner of operator ===(integer,integer)", "owner of materialized view dep_mv",
		"privileges for large object 424243"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("DETAIL:\n%s\nwant the lines\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDropRoleDependsInOtherDatabases: objects a role owns or holds
// privileges on in another database keep it from being dropped, counted
// as PostgreSQL's DETAIL counts them.
func TestDropRoleDependsInOtherDatabases(t *testing.T) {
	ctx := context.Background()
	eng, first := adminEngine(t, true)
	mustRun(t, first, `CREATE ROLE dep9`)
	mustRun(t, first, `CREATE DATABASE d9 OWNER dep9`)
	d9, err := connectTo(t, eng, "d9")
	if err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{`CREATE TABLE t9 (a int)`, `CREATE TABLE t8 (a int)`, `ALTER TABLE t9 OWNER TO dep9`, `GRANT SELECT ON t8 TO dep9`} {
		mustRun(t, d9, sql)
	}
	// PostgreSQL 15's DETAIL for the same statements.
	for _, c := range []struct {
		sess   wire.Session
		detail string
	}{
		{first, "owner of database d9\n2 objects in database d9"},
		{d9, "owner of database d9\nowner of table t9\nprivileges for table t8"},
	} {
		_, err := runSQL(ctx, c.sess, `DROP ROLE dep9`)
		pe := &pgerr.Error{}
		if !errors.As(err, &pe) || pe.Code != pgerr.DependentObjectsStillExist || pe.Detail != c.detail {
			t.Errorf("DROP ROLE: %v (DETAIL %q), want 2BP01 with DETAIL %q", err, pe.Detail, c.detail)
		}
	}
	mustRun(t, d9, `DROP TABLE t9, t8`)
	d9.Close()
	mustRun(t, first, `DROP DATABASE d9`)
	mustRun(t, first, `DROP ROLE dep9`)
}

// TestCommentOnDatabase: COMMENT ON DATABASE keeps the text in the shared
// registry (pg_shdescription, shobj_description), only for the owner or a
// superuser; a database that does not exist is a WARNING, as PostgreSQL's.
func TestCommentOnDatabase(t *testing.T) {
	ctx := context.Background()
	eng, first := adminEngine(t, true)
	mustRun(t, first, `CREATE DATABASE cmdb`)
	mustRun(t, first, `COMMENT ON DATABASE cmdb IS 'analytics'`)
	other, err := connectTo(t, eng, "cmdb")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []wire.Session{first, other} {
		got := rowsOf(t, s, `SELECT shobj_description(oid, 'pg_database'), (SELECT count(*) FROM pg_shdescription d WHERE d.objoid = db.oid AND d.classoid = 'pg_database'::regclass) FROM pg_database db WHERE datname = 'cmdb'`)
		if strings.Join(got, ",") != "analytics|1" {
			t.Errorf("the database's comment: %v", got)
		}
	}
	mustRun(t, first, `CREATE ROLE cmuser LOGIN`)
	user, err := eng.NewSession(ctx, wire.SessionParams{User: "cmuser", Database: "postgres", Authenticated: true, Notice: func(*pgerr.Error) {}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(user.Close)
	expectSQL(t, user, `COMMENT ON DATABASE cmdb IS 'mine'`, pgerr.InsufficientPrivilege, "must be owner of database cmdb")
	var warned []string
	warn, err := eng.NewSession(ctx, wire.SessionParams{User: "admin", Database: "postgres", Authenticated: true,
		Notice: func(e *pgerr.Error) { warned = append(warned, e.Code.String()+" "+e.Message) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(warn.Close)
	mustRun(t, warn, `COMMENT ON DATABASE cm_missing IS 'x'`)
	if strings.Join(warned, ";") != `3D000 database "cm_missing" does not exist` {
		t.Errorf("COMMENT ON a missing database warned %q", warned)
	}
	mustRun(t, first, `COMMENT ON DATABASE cmdb IS NULL`)
	if got := rowsOf(t, first, `SELECT count(*) FROM pg_shdescription WHERE classoid = 'pg_database'::regclass`); got[0] != "0" {
		t.Errorf("after IS NULL: %v comments", got)
	}
}

// TestRoleSessionDefaults: ALTER ROLE ... SET and ALTER DATABASE SET give
// a new session of the role its starting values, the role's in this
// database over the role's everywhere over the database's, the startup
// packet's over all; RESET goes back to them. Only a superuser or the
// role itself may change them, and only a superuser a superuser-only
// parameter, which then applies to whoever connects.
func TestRoleSessionDefaults(t *testing.T) {
	eng, admin := adminEngine(t, true)
	for _, q := range []string{
		"CREATE ROLE rsd LOGIN",
		"CREATE ROLE rsd_other LOGIN",
		"ALTER DATABASE postgres SET work_mem = '5MB'",
		"ALTER DATABASE postgres SET app.region = 'db'",
		"ALTER ROLE rsd SET app.region = 'role'",
		"ALTER ROLE rsd SET application_name = 'from role'",
		"ALTER ROLE rsd IN DATABASE postgres SET application_name = 'role in db'",
		"ALTER ROLE rsd SET temp_file_limit = '1GB'", // superuser-only: the admin may store it
		"ALTER ROLE rsd SET lock_timeout FROM CURRENT",
	} {
		mustExec(t, admin, q)
	}
	expectSQL(t, admin, "ALTER ROLE rsd SET work_mem = 'abc'", pgerr.InvalidParameterValue, "work_mem")
	expectSQL(t, admin, "ALTER ROLE rsd SET nosuch = 1", pgerr.UndefinedObject, "unrecognized configuration parameter")
	expectSQL(t, admin, "ALTER ROLE rsd IN DATABASE nosuch SET work_mem = '1MB'", pgerr.UndefinedDatabase, `database "nosuch" does not exist`)
	expectSQL(t, admin, "ALTER ROLE ALL SET work_mem = '1MB'", pgerr.FeatureNotSupported, "ALTER ROLE ALL")

	sess, _, err := connectAs(t, eng, "rsd", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	check := func(s wire.Session, sql, want string) {
		t.Helper()
		if got := strings.Join(mustExec(t, s, sql), ";"); got != want {
			t.Errorf("%s: %q, want %q", sql, got, want)
		}
	}
	check(sess, "SELECT current_setting('work_mem'), current_setting('app.region'), current_setting('application_name'), current_setting('temp_file_limit')",
		"5MB|role|role in db|1GB")
	mustExec(t, sess, "SET application_name = 'changed'")
	mustExec(t, sess, "RESET application_name")
	check(sess, "SHOW application_name", "role in db")
	// The role may change its own defaults, not another's, and not a
	// superuser-only parameter's.
	mustExec(t, sess, "ALTER ROLE rsd SET extra_float_digits = 2")
	expectSQL(t, sess, "ALTER ROLE rsd SET app.region = 'mine'", pgerr.InsufficientPrivilege, `permission denied to set parameter "app.region"`)
	mustExec(t, admin, "ALTER ROLE rsd SET app.region = 'mine'")
	expectSQL(t, sess, "ALTER ROLE rsd_other SET application_name = 'x'", pgerr.InsufficientPrivilege, "permission denied")
	expectSQL(t, sess, "ALTER ROLE admin SET application_name = 'x'", pgerr.InsufficientPrivilege, "must be superuser to alter superusers")
	expectSQL(t, sess, "ALTER ROLE rsd SET temp_file_limit = '2GB'", pgerr.InsufficientPrivilege, "temp_file_limit")

	// The startup packet's values win; the next session sees the change.
	next, _, err := connectAs(t, eng, "rsd", map[string]string{"application_name": "client"})
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	check(next, "SELECT current_setting('application_name'), current_setting('app.region'), current_setting('extra_float_digits')", "client|mine|2")
	mustExec(t, next, "RESET application_name")
	check(next, "SHOW application_name", "client")

	check(admin, "SELECT r.rolname, s.setdatabase = 0, s.setconfig::text FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole ORDER BY 1, 2",
		`rsd|f|{"application_name=role in db"};rsd|t|{app.region=mine,"application_name=from role",temp_file_limit=1GB,lock_timeout=0,extra_float_digits=2}`)
	mustExec(t, admin, "ALTER ROLE rsd RESET ALL")
	mustExec(t, admin, "ALTER ROLE rsd IN DATABASE postgres RESET application_name")
	mustExec(t, admin, "ALTER DATABASE postgres RESET ALL")
	check(admin, "SELECT count(*) FROM pg_db_role_setting", "0")
	other, _, err := connectAs(t, eng, "rsd", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	check(other, "SELECT current_setting('application_name'), current_setting('app.region', true) IS NULL", "|t")
}
