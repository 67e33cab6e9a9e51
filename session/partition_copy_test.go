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

// COPY into a partitioned table whose partitions were attached with their
// columns in other orders puts each value in its column; COPY TO of a
// partitioned table is PostgreSQL's 42809.
func TestCopyIntoReorderedPartitions(t *testing.T) {
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	_, sess := newSession(t, store)
	mustExec(t, sess, "CREATE TABLE pr (k int, v text, n int) PARTITION BY LIST (k)")
	mustExec(t, sess, "CREATE TABLE pr1 (n int, k int, v text)")
	mustExec(t, sess, "CREATE TABLE pr2 (v text, x int, n int, k int)")
	mustExec(t, sess, "ALTER TABLE pr2 DROP COLUMN x")
	mustExec(t, sess, "ALTER TABLE pr ATTACH PARTITION pr1 FOR VALUES IN (1)")
	mustExec(t, sess, "ALTER TABLE pr ATTACH PARTITION pr2 FOR VALUES IN (2)")
	rows := [][]sqltypes.Value{
		{sqltypes.NewInt(1), sqltypes.NewText("one"), sqltypes.NewInt(10)},
		{sqltypes.NewInt(2), sqltypes.NewText("two"), sqltypes.NewInt(20)},
	}
	if tag, err := copyIn(ctx, sess, "COPY pr FROM STDIN", rows, 2); err != nil || tag != "COPY 2" {
		t.Fatalf("COPY: %q, %v", tag, err)
	}
	listed := [][]sqltypes.Value{{sqltypes.NewInt(21), sqltypes.NewText("two again"), sqltypes.NewInt(2)}}
	if tag, err := copyIn(ctx, sess, "COPY pr (n, v, k) FROM STDIN", listed, 1); err != nil || tag != "COPY 1" {
		t.Fatalf("COPY with a column list: %q, %v", tag, err)
	}
	for _, tc := range []struct{ query, want string }{
		{"SELECT k || ':' || v || ':' || n FROM pr ORDER BY n", "1:one:10 2:two:20 2:two again:21"},
		{"SELECT v || ':' || n FROM pr1", "one:10"},
		{"SELECT v || ':' || n FROM pr2 ORDER BY n", "two:20 two again:21"},
	} {
		if got := strings.Join(mustExec(t, sess, tc.query), " "); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.query, got, tc.want)
		}
	}
	if _, err := runSQL(ctx, sess, "COPY pr TO STDOUT"); pgerr.CodeOf(err) != pgerr.WrongObjectType ||
		!strings.Contains(err.Error(), `cannot copy from partitioned table "pr"`) {
		t.Errorf("COPY TO of a partitioned table: %v, want 42809", err)
	}
}
