package session_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/wire"
)

// TestCopyIngested: COPY's rows committed by ingesting sstables (a store
// whose threshold is one byte) are exact as a batch's are: all or nothing
// (a duplicate, a ROLLBACK), invisible to a snapshot taken before, index
// entries that agree with the rows (CHECK TABLE), and a COPY into a table
// created in the same transaction block, past the size from which a
// transaction's commit is ingested, visible at COMMIT.
func TestCopyIngested(t *testing.T) {
	ctx := context.Background()
	store, err := zpebble.Open(t.Name(), zpebble.Options{InMemory: true, IngestMinBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	eng, sess := newSession(t, store)
	other := openSession(t, eng)
	rows := func(from, to int64) [][]sqltypes.Value {
		var out [][]sqltypes.Value
		for i := from; i <= to; i++ {
			out = append(out, []sqltypes.Value{sqltypes.NewInt(i), sqltypes.NewText(fmt.Sprintf("n%06d", i%977)), sqltypes.NewFloat(float64(i) / 4)})
		}
		return out
	}
	count := func(s wire.Session, table string) string {
		t.Helper()
		return mustExec(t, s, "SELECT count(*) FROM "+table)[0]
	}
	checkTable := func(table string) {
		t.Helper()
		for _, r := range mustExec(t, sess, "CHECK TABLE "+table) {
			if r[len(r)-1] != 't' {
				t.Errorf("CHECK TABLE %s: %v", table, r)
			}
		}
	}
	mustExec(t, sess, "CREATE TABLE cp (id int PRIMARY KEY, name text NOT NULL, score float8)")
	mustExec(t, sess, "CREATE INDEX cp_by_name ON cp (name) INCLUDE (score)")
	mustExec(t, sess, "INSERT INTO cp VALUES (0, 'zero', 0)")

	mustExec(t, other, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	if got := count(other, "cp"); got != "1" {
		t.Fatalf("before the COPY: %s rows", got)
	}
	ingests := store.IngestCount()
	if tag, err := copyIn(ctx, sess, "COPY cp FROM STDIN", rows(1, 3000), 500); err != nil || tag != "COPY 3000" {
		t.Fatalf("COPY: %q, %v", tag, err)
	}
	if store.IngestCount() != ingests+1 {
		t.Fatalf("the COPY was not ingested")
	}
	if got := count(other, "cp"); got != "1" {
		t.Errorf("a snapshot taken before the ingested COPY sees %s rows", got)
	}
	mustExec(t, other, "COMMIT")
	if got := count(other, "cp"); got != "3001" {
		t.Errorf("after the COPY: %s rows", got)
	}
	if got := mustExec(t, sess, "SELECT count(*), sum(score) FROM cp WHERE name = 'n000123'"); got[0] != "3|825" {
		t.Errorf("through the index: %v", got)
	}
	checkTable("cp")

	// A duplicate of a stored row fails the COPY: nothing is ingested.
	ingests = store.IngestCount()
	_, err = copyIn(ctx, sess, "COPY cp FROM STDIN", rows(2990, 3100), 50)
	var re *wire.CopyRowError
	if !errors.As(err, &re) || pgerr.CodeOf(err) != pgerr.UniqueViolation {
		t.Fatalf("a duplicate: %v, want 23505", err)
	}
	if got := count(sess, "cp"); got != "3001" || store.IngestCount() != ingests {
		t.Errorf("after a failed COPY: %s rows, %d ingestions", got, store.IngestCount()-ingests)
	}

	// A large COPY in a transaction block is ingested at COMMIT, not at
	// ROLLBACK.
	const big = 35000 // 70,000 writes with an index: past kv/pebble's bigTxnKeys
	mustExec(t, sess, "BEGIN")
	if _, err := copyIn(ctx, sess, "COPY cp FROM STDIN", rows(10001, 10000+big), 4096); err != nil {
		t.Fatal(err)
	}
	mustExec(t, sess, "ROLLBACK")
	if got := count(sess, "cp"); got != "3001" || store.IngestCount() != ingests {
		t.Errorf("after ROLLBACK: %s rows, %d ingestions", got, store.IngestCount()-ingests)
	}

	mustExec(t, sess, "BEGIN")
	mustExec(t, sess, "CREATE TABLE fresh (id int PRIMARY KEY, name text NOT NULL, score float8)")
	mustExec(t, sess, "CREATE INDEX fresh_by_name ON fresh (name)")
	if _, err := copyIn(ctx, sess, "COPY fresh FROM STDIN", rows(1, big), 4096); err != nil {
		t.Fatal(err)
	}
	if got := count(sess, "fresh"); got != fmt.Sprint(big) {
		t.Errorf("in the block: %s rows", got)
	}
	if _, err := runSQL(ctx, other, "SELECT count(*) FROM fresh"); pgerr.CodeOf(err) != pgerr.UndefinedTable {
		t.Errorf("another session sees the uncommitted table: %v", err)
	}
	mustExec(t, sess, "COMMIT")
	if store.IngestCount() != ingests+1 {
		t.Errorf("the block's commit was not ingested")
	}
	if got := count(other, "fresh"); got != fmt.Sprint(big) {
		t.Errorf("after COMMIT: %s rows", got)
	}
	if got := mustExec(t, other, "SELECT count(*) FROM fresh WHERE name = 'n000005'"); got[0] != "36" {
		t.Errorf("through the index: %v", got)
	}
	checkTable("fresh")
	// The ingested keys are still unique.
	if _, err := runSQL(ctx, other, "INSERT INTO fresh VALUES (17, 'dup', 0)"); pgerr.CodeOf(err) != pgerr.UniqueViolation {
		t.Errorf("a duplicate of an ingested row: %v, want 23505", err)
	}
}
