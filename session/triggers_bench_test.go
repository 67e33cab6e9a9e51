package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// BenchmarkTriggerInsert measures 1000-row INSERTs into a table with an
// updated_at BEFORE ROW trigger and an audit AFTER ROW trigger writing a
// history table, below the protocol, on an in-memory store (the triggers
// workload of bench/sidebyside compares the whole path with PostgreSQL).
func BenchmarkTriggerInsert(b *testing.B) {
	ctx := context.Background()
	store, err := zpebble.Open(b.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true, AutoAnalyzeNap: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
	if err != nil {
		b.Fatal(err)
	}
	exec := func(sql string) {
		stmts, err := sess.Parse(ctx, sql, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, st := range stmts {
			res, err := st.Execute(ctx, nil)
			if err != nil {
				b.Fatalf("%s: %v", sql, err)
			}
			res.Close()
		}
	}
	for _, q := range []string{
		"CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL, qty int NOT NULL, updated_at timestamptz)",
		"CREATE TABLE history (id bigserial PRIMARY KEY, item_id bigint NOT NULL, op text NOT NULL, at timestamptz NOT NULL, qty int)",
		`CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated_at := now(); RETURN NEW; END $$`,
		`CREATE FUNCTION audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
		   INSERT INTO history (item_id, op, at, qty) VALUES (NEW.id, TG_OP, now(), NEW.qty); RETURN NULL; END $$`,
		"CREATE TRIGGER items_touch BEFORE INSERT OR UPDATE ON items FOR EACH ROW EXECUTE FUNCTION touch()",
		"CREATE TRIGGER items_audit AFTER INSERT OR UPDATE ON items FOR EACH ROW EXECUTE FUNCTION audit()",
	} {
		exec(q)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var sb strings.Builder
		sb.WriteString("INSERT INTO items (id, name, qty) VALUES ")
		for j := 0; j < 1000; j++ {
			if j > 0 {
				sb.WriteString(", ")
			}
			id := i*1000 + j
			fmt.Fprintf(&sb, "(%d, 'item %d', %d)", id, id, id%100)
		}
		exec(sb.String())
	}
	b.ReportMetric(float64(b.N*1000)/b.Elapsed().Seconds(), "rows/s")
}
