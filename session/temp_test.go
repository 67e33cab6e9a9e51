package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvlog"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestTempTablesStayLocal: a temporary table's rows, index entries,
// sequence and descriptors never reach the shared store (every request of
// two proxies over one store is logged, and none names a temporary
// partition), its DDL changes no catalog version other proxies see, and
// another proxy's session cannot read it. Two engines over one store are
// two proxies: over one Pebble store, and over one DynamoDB Local table
// when DYNAMODB_ENDPOINT is set.
func TestTempTablesStayLocal(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			inner := be.open(t)
			defer inner.Close()
			tempTablesStayLocal(t, inner)
		})
	}
}

func tempTablesStayLocal(t *testing.T, inner kv.Store) {
	ctx := context.Background()
	store := kvlog.New(inner, kvlog.Options{Partition: func(p []byte) string {
		if catalog.IsTempPartition(p) {
			return "TEMP"
		}
		return string(p)
	}})
	engine := func() *session.Engine {
		e, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	open := func(e *session.Engine) wire.Session {
		s, err := e.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := engine()
	sa := open(a)
	mustRun(t, sa, `CREATE TABLE perm (id INT PRIMARY KEY, v TEXT)`)
	// The second proxy starts after the permanent table exists: on an
	// exclusive store (Pebble) a proxy's catalog never looks again.
	b := engine()
	sb := open(b)
	defer sb.Close()
	before, err := a.Catalog().Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	store.Reset()
	for _, q := range []string{
		`CREATE TEMP TABLE tt (id SERIAL PRIMARY KEY, v TEXT UNIQUE, n INT)`,
		`CREATE INDEX tt_n ON tt (n)`,
		`INSERT INTO tt (v, n) VALUES ('a', 1), ('b', 2), ('c', 3)`,
		`UPDATE tt SET n = n * 10 WHERE v = 'b'`,
		`DELETE FROM tt WHERE v = 'c'`,
		`BEGIN`,
		`INSERT INTO tt (v, n) VALUES ('d', 4)`,
		`INSERT INTO perm SELECT id, v FROM tt`,
		`COMMIT`,
		`ANALYZE tt`,
		`ALTER TABLE tt ADD COLUMN m INT DEFAULT 0`,
		`CREATE TEMP TABLE nopk (x INT)`,
		`INSERT INTO nopk VALUES (1), (2)`,
		`TRUNCATE nopk`,
		`DROP TABLE nopk`,
	} {
		mustRun(t, sa, q)
	}
	got := rowsOf(t, sa, `SELECT id, v, n, m FROM tt ORDER BY id`)
	if want := "1|a|1|0 2|b|20|0 4|d|4|0"; strings.Join(got, " ") != want {
		t.Errorf("temporary table holds %q, want %q", got, want)
	}
	if got := rowsOf(t, sb, `SELECT count(*) FROM perm`); strings.Join(got, "") != "3" {
		t.Errorf("the other proxy counts %q rows of the permanent table, want 3", got)
	}
	for _, e := range store.Entries() {
		for _, p := range e.Partitions {
			if p == "TEMP" {
				t.Errorf("a temporary partition reached the shared store: %s %v", e.Op, e.Partitions)
			}
		}
	}
	after, err := a.Catalog().Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != before.Version {
		t.Errorf("temporary DDL changed the shared catalog: version %d → %d", before.Version, after.Version)
	}
	if _, err := runSQL(ctx, sb, `SELECT * FROM tt`); pgerr.CodeOf(err) != pgerr.UndefinedTable {
		t.Errorf("the other proxy reads the temporary table: %v", err)
	}
	// The session's end drops them; a new session of the same proxy
	// starts without them.
	sa.Close()
	sa2 := open(a)
	defer sa2.Close()
	if _, err := runSQL(ctx, sa2, `SELECT * FROM tt`); pgerr.CodeOf(err) != pgerr.UndefinedTable {
		t.Errorf("a temporary table outlived its session: %v", err)
	}
}

func mustRun(t *testing.T, s wire.Session, sql string) {
	t.Helper()
	if _, err := runSQL(context.Background(), s, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func rowsOf(t *testing.T, s wire.Session, sql string) []string {
	t.Helper()
	rows, err := runSQL(context.Background(), s, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return rows
}

// TestTempRoutinesArePrivate: a routine created in pg_temp is the
// session's own, as a temporary table is: another session of the proxy
// neither calls nor lists it (nor the permanent catalog holds it), and it
// is gone when its session ends.
func TestTempRoutinesArePrivate(t *testing.T) {
	ctx := context.Background()
	e, open := sessionsOfOneEngine(t)
	missing := func(s wire.Session, sql string) {
		t.Helper()
		_, err := runSQL(ctx, s, sql)
		if e := pgerr.As(err); e == nil || e.Code != pgerr.UndefinedFunction {
			t.Errorf("%s: got %v, want 42883", sql, err)
		}
	}
	listed := `SELECT count(*) FROM pg_proc WHERE proname IN ('tf', 'tp', 'ttrig')`
	var snap *catalog.Snapshot
	var err error
	a, b := open(), open()
	defer b.Close()
	for _, q := range []string{
		`CREATE FUNCTION pg_temp.tf(x int) RETURNS int LANGUAGE sql AS 'SELECT x + 1'`,
		`CREATE PROCEDURE pg_temp.tp() LANGUAGE sql AS 'SELECT 1'`,
		`CREATE FUNCTION pg_temp.ttrig() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'`,
	} {
		mustRun(t, a, q)
	}
	if got := rowsOf(t, a, `SELECT pg_temp.tf(1)`); strings.Join(got, ",") != "2" {
		t.Errorf("pg_temp.tf(1) = %v, want 2", got)
	}
	if got := rowsOf(t, a, listed); strings.Join(got, ",") != "3" {
		t.Errorf("the creating session lists %v of its routines, want 3", got)
	}
	// A permanent table's trigger would outlive the function: refused.
	mustRun(t, a, `CREATE TABLE permt (x int)`)
	_, err = runSQL(ctx, a, `CREATE TRIGGER permt_trig BEFORE INSERT ON permt FOR EACH ROW EXECUTE FUNCTION pg_temp.ttrig()`)
	if e := pgerr.As(err); e == nil || e.Code != pgerr.FeatureNotSupported {
		t.Errorf("a permanent table's trigger on a pg_temp function: got %v, want 0A000", err)
	}
	missing(b, `SELECT pg_temp.tf(1)`)
	missing(b, `CALL pg_temp.tp()`)
	if got := rowsOf(t, b, listed); strings.Join(got, ",") != "0" {
		t.Errorf("another session lists %v of the routines, want 0", got)
	}
	snap, err = e.Catalog().Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if fs := snap.AllFunctions(); len(fs) != 0 {
		t.Errorf("the permanent catalog holds %d routines, want 0", len(fs))
	}
	// b makes its own pg_temp.tf: the sessions' routines do not meet.
	mustRun(t, b, `CREATE FUNCTION pg_temp.tf(x int) RETURNS int LANGUAGE sql AS 'SELECT x * 10'`)
	if got := rowsOf(t, b, `SELECT pg_temp.tf(2)`); strings.Join(got, ",") != "20" {
		t.Errorf("b's pg_temp.tf(2) = %v, want 20", got)
	}
	if got := rowsOf(t, a, `SELECT pg_temp.tf(2)`); strings.Join(got, ",") != "3" {
		t.Errorf("a's pg_temp.tf(2) = %v, want 3", got)
	}
	a.Close()
	c := open()
	defer c.Close()
	missing(c, `SELECT pg_temp.tf(1)`)
	if got := rowsOf(t, c, listed); strings.Join(got, ",") != "0" {
		t.Errorf("after its session ended, %v of its routines are listed, want 0", got)
	}
	if got := rowsOf(t, b, `SELECT pg_temp.tf(3)`); strings.Join(got, ",") != "30" {
		t.Errorf("b's pg_temp.tf(3) = %v after a ended, want 30", got)
	}
}

// TestTempTypesArePrivate: types of pg_temp (CREATE TYPE pg_temp.mood,
// CREATE DOMAIN pg_temp.posint) are the creating session's alone: another
// session neither resolves nor lists them, a permanent table cannot use
// one (0A000), the permanent catalog never holds them, and they go with
// the session.
func TestTempTypesArePrivate(t *testing.T) {
	ctx := context.Background()
	e, open := sessionsOfOneEngine(t)
	missing := func(s wire.Session, sql string) {
		t.Helper()
		_, err := runSQL(ctx, s, sql)
		if e := pgerr.As(err); e == nil || e.Code != pgerr.UndefinedObject {
			t.Errorf("%s: got %v, want 42704", sql, err)
		}
	}
	listed := `SELECT count(*) FROM pg_type WHERE typname IN ('mood', 'posint', 'pair')`
	var err error
	a, b := open(), open()
	defer b.Close()
	for _, q := range []string{
		`CREATE TYPE pg_temp.mood AS ENUM ('sad', 'ok')`,
		`CREATE DOMAIN pg_temp.posint AS int CHECK (VALUE > 0)`,
		`CREATE TYPE pg_temp.pair AS (a int, b mood)`,
		`CREATE TEMP TABLE tt (m mood, n posint, p pair)`,
		`INSERT INTO tt VALUES ('ok', 1, (2, 'sad'))`,
	} {
		mustRun(t, a, q)
	}
	if got := rowsOf(t, a, `SELECT m, n, p FROM tt`); strings.Join(got, ",") != "ok|1|(2,sad)" {
		t.Errorf("the temporary table holds %v", got)
	}
	if got := rowsOf(t, a, listed); strings.Join(got, ",") != "3" {
		t.Errorf("the creating session lists %v of its types, want 3", got)
	}
	for _, q := range []string{
		`CREATE TABLE permt (m mood)`,
		`CREATE TABLE permt (p pg_temp.pair[])`,
		`CREATE DOMAIN permd AS mood`,
		`CREATE FUNCTION permf(m mood) RETURNS int LANGUAGE sql AS 'SELECT 1'`,
	} {
		_, err = runSQL(ctx, a, q)
		if e := pgerr.As(err); e == nil || e.Code != pgerr.FeatureNotSupported {
			t.Errorf("%s: got %v, want 0A000", q, err)
		}
	}
	// A permanent view naming one is kept, its query bound again by each
	// session: another one does not find the type.
	mustRun(t, a, `CREATE VIEW permv AS SELECT 'ok'::mood AS m`)
	if got := rowsOf(t, a, `SELECT m FROM permv`); strings.Join(got, ",") != "ok" {
		t.Errorf("permv in a: %v", got)
	}
	missing(b, `SELECT m FROM permv`)
	mustRun(t, a, `DROP VIEW permv`)
	missing(b, `SELECT 'ok'::mood`)
	// b has no temporary schema yet: as PostgreSQL, pg_temp does not exist.
	if _, err := runSQL(ctx, b, `SELECT 1::pg_temp.posint`); pgerr.CodeOf(err) != pgerr.InvalidSchemaName {
		t.Errorf("pg_temp.posint in another session: got %v, want 3F000", err)
	}
	if got := rowsOf(t, b, listed); strings.Join(got, ",") != "0" {
		t.Errorf("another session lists %v of the types, want 0", got)
	}
	// b may have types of the same names of its own.
	mustRun(t, b, `CREATE TYPE pg_temp.mood AS ENUM ('x')`)
	if got := rowsOf(t, b, `SELECT 'x'::mood`); strings.Join(got, ",") != "x" {
		t.Errorf("b's own mood: %v", got)
	}
	snap, err := e.Catalog().Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ts := snap.UserTypes(); len(ts) != 0 {
		t.Errorf("the permanent catalog holds %d types, want 0", len(ts))
	}
	a.Close()
	c := open()
	defer c.Close()
	missing(c, `SELECT 'ok'::mood`)
	if got := rowsOf(t, b, `SELECT count(*) FROM pg_type WHERE typname IN ('mood', 'posint', 'pair')`); strings.Join(got, ",") != "1" {
		t.Errorf("after a's end b lists %v types, want its own 1", got)
	}
}

// sessionsOfOneEngine starts an engine over an in-memory Pebble store
// (closed with the test) and returns it with a function opening sessions
// of it.
func sessionsOfOneEngine(t *testing.T) (*session.Engine, func() wire.Session) {
	ctx := context.Background()
	st, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e, err := session.New(ctx, session.Config{Store: st, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, func() wire.Session {
		s, err := e.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}
