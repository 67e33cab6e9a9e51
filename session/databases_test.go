package session_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	zdynamo "github.com/zproxy/zproxy/kv/dynamodb"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// connectTo opens a session of the bootstrap superuser admin in database
// db, closed when the test ends.
func connectTo(t *testing.T, eng *session.Engine, db string) (wire.Session, error) {
	t.Helper()
	sess, err := eng.NewSession(context.Background(), wire.SessionParams{User: "admin", Database: db, Authenticated: true,
		Notice: func(*pgerr.Error) {}})
	if err == nil {
		t.Cleanup(sess.Close)
	}
	return sess, err
}

// TestDatabases: databases of one store keep their catalogs and rows
// apart, share roles, and come and go with PostgreSQL's rules.
func TestDatabases(t *testing.T) {
	testDatabases(t, memStore(t))
}

func testDatabases(t *testing.T, store kv.Store) {
	eng := adminEngineOn(t, store, true)
	first, err := connectTo(t, eng, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(mustExec(t, first, "SELECT current_database()"), ";"); got != "postgres" {
		t.Fatalf("the first database is %q", got)
	}
	if _, err := connectTo(t, eng, "d1"); pgerr.CodeOf(err) != pgerr.UndefinedDatabase || !strings.Contains(err.Error(), `database "d1" does not exist`) {
		t.Fatalf("connecting to a missing database: %v", err)
	}
	mustExec(t, first, "CREATE DATABASE d1")
	mustExec(t, first, "CREATE DATABASE d2 WITH OWNER admin TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C'")
	expectSQL(t, first, "CREATE DATABASE d1", pgerr.DuplicateDatabase, `database "d1" already exists`)
	expectSQL(t, first, "CREATE DATABASE d3 ENCODING 'LATIN1'", pgerr.FeatureNotSupported, "LATIN1")
	expectSQL(t, first, "BEGIN; CREATE DATABASE d3", pgerr.ActiveSQLTransaction, "cannot run inside a transaction block")
	mustExec(t, first, "ROLLBACK")
	mustExec(t, first, "CREATE TABLE t (k int PRIMARY KEY, v text)")
	mustExec(t, first, "INSERT INTO t VALUES (1, 'first')")
	mustExec(t, first, "CREATE ROLE shared_role")
	d1, err := connectTo(t, eng, "d1")
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, d1, "SELECT * FROM t", pgerr.UndefinedTable, `relation "t" does not exist`)
	mustExec(t, d1, "CREATE TABLE t (k int PRIMARY KEY, v text)")
	mustExec(t, d1, "CREATE SEQUENCE s")
	mustExec(t, d1, "INSERT INTO t VALUES (1, 'd1'), (2, 'd1')")
	for _, c := range []struct {
		sess      wire.Session
		sql, want string
	}{
		{first, "SELECT v FROM t ORDER BY k", "first"},
		{d1, "SELECT v FROM t ORDER BY k", "d1;d1"},
		{d1, "SELECT current_database()", "d1"},
		{d1, "SELECT rolname FROM pg_roles WHERE rolname = 'shared_role'", "shared_role"},
		{first, "SELECT count(*) FROM pg_class WHERE relname = 's'", "0"},
		{d1, "SELECT datname FROM pg_database ORDER BY datname", "d1;d2;postgres"},
		{first, "SELECT datname, datallowconn, datconnlimit FROM pg_database WHERE datname = 'd2'", "d2|t|-1"},
		{first, "SELECT count(*) FROM pg_stat_activity a JOIN pg_database d ON d.oid = a.datid WHERE a.datname = d.datname AND d.datname = 'd1'", "1"},
	} {
		if got := strings.Join(mustExec(t, c.sess, c.sql), ";"); got != c.want {
			t.Errorf("%s: %q, want %q", c.sql, got, c.want)
		}
	}
	// What a database's sessions do goes through its view of the store:
	// transactional DDL, temporary tables, sequences, ANALYZE, VACUUM.
	mustExec(t, d1, "BEGIN")
	mustExec(t, d1, "CREATE TABLE u (k int PRIMARY KEY)")
	mustExec(t, d1, "INSERT INTO u SELECT g FROM generate_series(1, 50) g")
	mustExec(t, d1, "COMMIT")
	// Version markers are the store's, but a block's DDL conflicts only
	// with its own database's changes (40001 otherwise).
	mustExec(t, d1, "BEGIN")
	mustExec(t, d1, "CREATE TABLE w (k int PRIMARY KEY)")
	mustExec(t, first, "CREATE TABLE w (k int PRIMARY KEY)")
	mustExec(t, d1, "COMMIT")
	mustExec(t, d1, "CREATE TEMP TABLE tmp (k int)")
	mustExec(t, d1, "INSERT INTO tmp VALUES (1)")
	mustExec(t, d1, "ANALYZE u")
	mustExec(t, d1, "VACUUM u")
	for _, c := range []struct {
		sess      wire.Session
		sql, want string
	}{
		{d1, "SELECT count(*), (SELECT count(*) FROM tmp), nextval('s') FROM u", "50|1|1"},
		{d1, "SELECT reltuples FROM pg_class WHERE relname = 'u'", "50"},
		{first, "SELECT count(*) FROM pg_class WHERE relname IN ('u', 'tmp')", "0"},
	} {
		if got := strings.Join(mustExec(t, c.sess, c.sql), ";"); got != c.want {
			t.Errorf("%s: %q, want %q", c.sql, got, c.want)
		}
	}
	expectSQL(t, first, "DROP DATABASE d1", pgerr.ObjectInUse, `database "d1" is being accessed by other users`)
	expectSQL(t, d1, "DROP DATABASE d1", pgerr.ObjectInUse, "cannot drop the currently open database")
	expectSQL(t, first, "ALTER DATABASE postgres RENAME TO p2", pgerr.FeatureNotSupported, "current database cannot be renamed")
	mustExec(t, first, "ALTER DATABASE d2 RENAME TO d3")
	// pg_dump -C's statements: the bootstrap superuser is a role to own it.
	mustExec(t, first, "CREATE DATABASE d4 WITH TEMPLATE = template0 ENCODING = 'UTF8' LOCALE_PROVIDER = libc LOCALE = 'C'")
	mustExec(t, first, "ALTER DATABASE d4 OWNER TO zproxy")
	mustExec(t, first, "DROP DATABASE d4")
	mustExec(t, first, "ALTER DATABASE d3 SET work_mem = '2MB'")
	expectSQL(t, first, "ALTER DATABASE d3 SET work_mem = 'abc'", pgerr.InvalidParameterValue, "work_mem")
	// A custom parameter is checked by name only, and defined in each
	// session that connects.
	mustExec(t, first, "ALTER DATABASE d3 SET app.region = 'eu-1'")
	expectSQL(t, first, "ALTER DATABASE d3 SET \"app..region\" = 'x'", pgerr.InvalidName, "invalid configuration parameter name")
	expectSQL(t, first, "SHOW app.region", pgerr.UndefinedObject, "unrecognized configuration parameter")
	d3, err := connectTo(t, eng, "d3")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(mustExec(t, d3, "SHOW work_mem"), ";"); got != "2MB" {
		t.Errorf("d3's work_mem is %q", got)
	}
	if got := strings.Join(mustExec(t, d3, "SELECT current_setting('app.region')"), ";"); got != "eu-1" {
		t.Errorf("d3's app.region is %q", got)
	}
	d1.Close()
	mustExec(t, first, "DROP DATABASE d1")
	expectSQL(t, first, "DROP DATABASE d1", pgerr.UndefinedDatabase, `database "d1" does not exist`)
	mustExec(t, first, "DROP DATABASE IF EXISTS d1")
	if _, err := connectTo(t, eng, "d1"); pgerr.CodeOf(err) != pgerr.UndefinedDatabase {
		t.Fatalf("connecting to a dropped database: %v", err)
	}
	// A database of the same name is a new, empty one.
	mustExec(t, first, "CREATE DATABASE d1")
	d1, err = connectTo(t, eng, "d1")
	if err != nil {
		t.Fatal(err)
	}
	expectSQL(t, d1, "SELECT * FROM t", pgerr.UndefinedTable, `relation "t" does not exist`)
	// FORCE terminates sessions through their connections (e2e tests it);
	// these have none.
	d3.Close()
	mustExec(t, first, "DROP DATABASE d3 WITH (FORCE)")
	if got := strings.Join(mustExec(t, first, "SELECT v FROM t"), ";"); got != "first" {
		t.Errorf("the first database's rows after the drops: %q", got)
	}
}

// TestDatabasesDynamoDB is TestDatabases over DynamoDB Local, where DROP
// DATABASE deletes in batches what a filtered scan finds.
func TestDatabasesDynamoDB(t *testing.T) {
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		t.Skip("needs DynamoDB Local (DYNAMODB_ENDPOINT)")
	}
	open := func() kv.Store {
		s, err := zdynamo.Open(context.Background(), zdynamo.Options{Table: fmt.Sprintf("databases_%d", os.Getpid()), Endpoint: ep, Region: "us-east-1",
			Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	testDatabases(t, open())
	// A second proxy over the table sees the databases the first made.
	other, err := session.New(context.Background(), session.Config{Store: open(), AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	d1, err := connectTo(t, other, "d1")
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, d1, "CREATE TABLE from_other (k int PRIMARY KEY)")
	if got := strings.Join(mustExec(t, d1, "SELECT current_database(), count(*) FROM from_other"), ";"); got != "d1|0" {
		t.Errorf("the second proxy's d1: %q", got)
	}
}

// TestStoreBeforeDatabases opens a store written before a store could
// hold several databases (testdata/prestore, see its README): its data is
// the first database's, unmoved, and new databases live beside it, also
// after a restart.
func TestStoreBeforeDatabases(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	files, err := os.ReadDir("testdata/prestore")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Name() == "README" {
			continue
		}
		b, err := os.ReadFile("testdata/prestore/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir+"/"+f.Name(), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	open := func() (*session.Engine, wire.Session, func()) {
		store, err := zpebble.Open(dir, zpebble.Options{})
		if err != nil {
			t.Fatal(err)
		}
		eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true})
		if err != nil {
			t.Fatal(err)
		}
		sess, err := connectTo(t, eng, "postgres")
		if err != nil {
			t.Fatal(err)
		}
		closed := false
		closeAll := func() {
			if !closed {
				closed = true
				sess.Close()
				eng.Close()
				store.Close()
			}
		}
		t.Cleanup(closeAll)
		return eng, sess, closeAll
	}
	eng, first, closeAll := open()
	for _, c := range []struct{ sql, want string }{
		{"SELECT id, note FROM kept ORDER BY id", "1|written before databases;2|two"},
		{"SELECT id FROM kept WHERE note = 'two'", "2"},
		// The old proxy had claimed a block of 32 values.
		{"SELECT nextval('kept_seq')", "33"},
		{"SELECT a FROM old_schema.t", "7"},
		{"SELECT rolname, rolcanlogin FROM pg_roles WHERE rolname = 'old_role'", "old_role|t"},
		{"SELECT datname FROM pg_database", "postgres"},
	} {
		if got := strings.Join(mustExec(t, first, c.sql), ";"); got != c.want {
			t.Errorf("%s: %q, want %q", c.sql, got, c.want)
		}
	}
	mustExec(t, first, "CREATE DATABASE later")
	later, err := connectTo(t, eng, "later")
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, later, "CREATE TABLE kept (id int PRIMARY KEY)")
	mustExec(t, later, "INSERT INTO kept VALUES (10)")
	later.Close()
	closeAll()

	eng, first, _ = open()
	later, err = connectTo(t, eng, "later")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(mustExec(t, later, "SELECT id FROM kept"), ";"); got != "10" {
		t.Errorf("the later database after a restart: %q", got)
	}
	if got := strings.Join(mustExec(t, first, "SELECT count(*) FROM kept"), ";"); got != "2" {
		t.Errorf("the first database after a restart: %q rows", got)
	}
}
