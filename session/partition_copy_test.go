package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
)

// COPY into a partitioned table routes each row to its partition; a row
// no partition takes fails the COPY (23514) and nothing of it stays.
func TestCopyIntoPartitionedTable(t *testing.T) {
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	_, sess := newSession(t, store)
	mustExec(t, sess, "CREATE TABLE pc (k int, v text) PARTITION BY RANGE (k)")
	mustExec(t, sess, "CREATE TABLE pc1 PARTITION OF pc FOR VALUES FROM (0) TO (10)")
	mustExec(t, sess, "CREATE TABLE pc2 PARTITION OF pc FOR VALUES FROM (10) TO (20)")
	row := func(k int64, v string) []sqltypes.Value {
		return []sqltypes.Value{sqltypes.NewInt(k), sqltypes.NewText(v)}
	}
	rows := [][]sqltypes.Value{row(1, "a"), row(15, "b"), row(2, "c"), row(3, "d"), row(19, "e")}
	if tag, err := copyIn(ctx, sess, "COPY pc FROM STDIN", rows, 2); err != nil || tag != "COPY 5" {
		t.Fatalf("COPY: %q, %v", tag, err)
	}
	for _, tc := range []struct{ query, want string }{
		{"SELECT k FROM pc1 ORDER BY k", "1 2 3"},
		{"SELECT k FROM pc2 ORDER BY k", "15 19"},
		{"SELECT count(*) FROM pc", "5"},
	} {
		if got := strings.Join(mustExec(t, sess, tc.query), " "); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.query, got, tc.want)
		}
	}
	_, err = copyIn(ctx, sess, "COPY pc FROM STDIN", [][]sqltypes.Value{row(4, "x"), row(40, "y")}, 1)
	if pgerr.CodeOf(err) != pgerr.CheckViolation || !strings.Contains(err.Error(), `no partition of relation "pc" found for row`) {
		t.Fatalf("COPY of a row no partition takes: %v, want 23514", err)
	}
	if got := strings.Join(mustExec(t, sess, "SELECT count(*) FROM pc"), " "); got != "5" {
		t.Errorf("after the failed COPY: %s rows, want 5", got)
	}
}
