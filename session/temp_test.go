package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvlog"
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
