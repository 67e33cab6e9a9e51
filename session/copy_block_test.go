package session_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// TestCopyInBlockRollback: COPY into a table new to the transaction block
// keeps its rows apart from the block's other writes until they are read
// (kvtxn's run). Rows that a ROLLBACK TO SAVEPOINT, a failed COPY's
// ROLLBACK TO or a ROLLBACK removed must not survive, in reads within the
// block nor after COMMIT, and the indexes must agree with the table.
func TestCopyInBlockRollback(t *testing.T) {
	rows := func(from, to int) [][]sqltypes.Value {
		var out [][]sqltypes.Value
		for i := from; i <= to; i++ {
			out = append(out, []sqltypes.Value{sqltypes.NewInt(int64(i)), sqltypes.NewText(fmt.Sprintf("v%d", i)), sqltypes.NewInt(int64(i % 7))})
		}
		return out
	}
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			copyRows := func(r [][]sqltypes.Value) error {
				_, err := copyIn(ctx, sess, "COPY cb FROM STDIN", r, 300)
				return err
			}
			must := func(r [][]sqltypes.Value) {
				t.Helper()
				if err := copyRows(r); err != nil {
					t.Fatalf("COPY: %v (%s)", err, pgerr.CodeOf(err))
				}
			}
			expect := func(sql, want string) {
				t.Helper()
				if got := strings.Join(mustExec(t, sess, sql), ","); got != want {
					t.Fatalf("%s: %s, want %s", sql, got, want)
				}
			}
			mustExec(t, sess, "BEGIN")
			mustExec(t, sess, "CREATE TABLE cb (id int PRIMARY KEY, v text UNIQUE, n int)")
			mustExec(t, sess, "CREATE INDEX cb_n ON cb (n)")
			must(rows(1, 2000))
			mustExec(t, sess, "SAVEPOINT s")
			must(rows(2001, 3000))
			expect("SELECT count(*) FROM cb", "3000")
			mustExec(t, sess, "ROLLBACK TO s")
			expect("SELECT count(*), max(id) FROM cb", "2000|2000")
			// The rolled-back keys are free; a COPY that fails in its third
			// batch leaves nothing once its savepoint is rolled back to.
			must(rows(2501, 2600))
			mustExec(t, sess, "SAVEPOINT d")
			bad := append(rows(3001, 3700), rows(5, 5)...)
			if err := copyRows(bad); pgerr.CodeOf(err) != pgerr.UniqueViolation {
				t.Fatalf("COPY of a duplicate: %v, want 23505", err)
			}
			mustExec(t, sess, "ROLLBACK TO d")
			must(rows(2601, 2700)) // before any read of the table in this stretch
			mustExec(t, sess, "COMMIT")
			expect("SELECT count(*), sum(id) FROM cb", fmt.Sprintf("2200|%d", 2000*2001/2+(2501+2700)*200/2))
			expect("SELECT count(*) FROM cb WHERE id > 2000 AND id <= 2500 OR id > 2700", "0")
			expect("SELECT count(*) FROM cb WHERE n = 3", "315")
			expect("SELECT id FROM cb WHERE v = 'v3001'", "")
			checkConsistent(t, sess, "cb")

			// A truncated table is new to the block; ROLLBACK brings its rows back.
			mustExec(t, sess, "BEGIN")
			mustExec(t, sess, "TRUNCATE cb")
			must(rows(1, 50))
			mustExec(t, sess, "ROLLBACK")
			expect("SELECT count(*) FROM cb", "2200")

			// A table created and loaded in a rolled-back block is gone.
			mustExec(t, sess, "BEGIN")
			mustExec(t, sess, "CREATE TABLE cb2 (id int PRIMARY KEY)")
			if _, err := copyIn(ctx, sess, "COPY cb2 FROM STDIN", [][]sqltypes.Value{{sqltypes.NewInt(1)}}, 1); err != nil {
				t.Fatal(err)
			}
			mustExec(t, sess, "ROLLBACK")
			if _, err := runSQL(ctx, sess, "SELECT * FROM cb2"); pgerr.CodeOf(err) != pgerr.UndefinedTable {
				t.Fatalf("cb2 after ROLLBACK: %v", err)
			}
			if be.name != "pebble" {
				return
			}
			// Past 65536 keys Pebble's commit gathers the merged writes in a
			// bulk batch (kv/pebble's CommitEach): 40,000 rows, 80,000 keys.
			mustExec(t, sess, "BEGIN")
			mustExec(t, sess, "CREATE TABLE cb3 (id int PRIMARY KEY, v text UNIQUE, n int)")
			mustExec(t, sess, "INSERT INTO cb3 VALUES (0, 'first', 0)")
			if _, err := copyIn(ctx, sess, "COPY cb3 FROM STDIN", rows(1, 40000), 4096); err != nil {
				t.Fatal(err)
			}
			mustExec(t, sess, "COMMIT")
			expect("SELECT count(*), sum(id), count(DISTINCT v) FROM cb3", fmt.Sprintf("40001|%d|40001", 40000*40001/2))
			checkConsistent(t, sess, "cb3")
		})
	}
}
