package session_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/session"
)

// The sweeper removes expired rows and their index entries from the
// store; queries never saw them anyway.
func TestTTLSweeperDeletesExpiredRows(t *testing.T) {
	ctx := context.Background()
	eng, err := session.New(ctx, session.Config{Store: memStore(t), AllowFullScan: true, TTLSweep: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	sess := openSession(t, eng)
	mustExec(t, sess, `CREATE TABLE ev (id INT PRIMARY KEY, kind TEXT, at TIMESTAMP) WITH (ttl = '1 hour', ttl_column = at, shards = 3)`)
	mustExec(t, sess, `CREATE INDEX ev_kind ON ev (kind)`)
	mustExec(t, sess, `INSERT INTO ev SELECT g, 'k' || (g % 3), CASE WHEN g % 2 = 0 THEN '2000-01-01'::timestamp ELSE '2999-01-01'::timestamp END FROM generate_series(1, 600) g`)
	if got := mustExec(t, sess, `SELECT count(*) FROM ev`); got[0] != "300" {
		t.Fatalf("visible rows %v, want 300", got)
	}
	rows := func() string { return strings.Split(mustExec(t, sess, `CHECK TABLE ev`)[0], "|")[2] }
	if r := rows(); r != "600" {
		t.Fatalf("stored rows %s before the sweep, want 600", r)
	}
	n, err := eng.Executor().SweepExpired(ctx, eng.Catalog(), time.Now())
	if err != nil || n != 300 {
		t.Fatalf("swept %d rows (%v), want 300", n, err)
	}
	if r := rows(); r != "300" {
		t.Fatalf("stored rows %s after the sweep, want 300", r)
	}
	checkConsistent(t, sess, "ev")
	if got := mustExec(t, sess, `SELECT count(*) FROM ev WHERE kind = 'k1'`); got[0] != "100" {
		t.Fatalf("rows through the index %v, want 100", got)
	}
}
