package session_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestDropSchemaCascadeNoticeOrder: DROP SCHEMA ... CASCADE's NOTICE lists
// the dropped objects in PostgreSQL's order, the order they were created
// in (PostgreSQL finds them so in pg_depend), whatever their kinds; an
// owned sequence (serial) goes with its table unlisted. The expected
// text is PostgreSQL 15's for the same statements.
func TestDropSchemaCascadeNoticeOrder(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			store := be.open(t)
			defer store.Close()
			eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true, AutoAnalyzeNap: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			var notices []*pgerr.Error
			sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(e *pgerr.Error) { notices = append(notices, e) }})
			if err != nil {
				t.Fatal(err)
			}
			for _, sql := range []string{
				"CREATE SCHEMA ds",
				"CREATE TABLE ds.t1 (a int PRIMARY KEY, b text)",
				"CREATE FUNCTION ds.f1() RETURNS int LANGUAGE sql AS 'SELECT 1'",
				"CREATE VIEW ds.v1 AS SELECT a FROM ds.t1",
				"CREATE SEQUENCE ds.s1",
				"CREATE TYPE ds.e1 AS ENUM ('x')",
				"CREATE TABLE ds.t2 (id serial PRIMARY KEY, e ds.e1)",
				"CREATE INDEX ON ds.t1 (b)",
				"CREATE DOMAIN ds.d1 AS int",
			} {
				mustExec(t, sess, sql)
			}
			notices = nil
			mustExec(t, sess, "DROP SCHEMA ds CASCADE")
			want := "drop cascades to table ds.t1\n" +
				"drop cascades to function ds.f1()\n" +
				"drop cascades to view ds.v1\n" +
				"drop cascades to sequence ds.s1\n" +
				"drop cascades to type ds.e1\n" +
				"drop cascades to table ds.t2\n" +
				"drop cascades to type ds.d1"
			if len(notices) != 1 || notices[0].Message != "drop cascades to 7 other objects" || notices[0].Detail != want {
				for _, n := range notices {
					t.Logf("NOTICE %s\nDETAIL %s", n.Message, n.Detail)
				}
				t.Errorf("want NOTICE drop cascades to 7 other objects, DETAIL:\n%s", want)
			}
		})
	}
}
