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
			// u scales the row counts: DynamoDB's leg shows its commit of
			// the block's writes on a fifth of Pebble's rows.
			u := 100
			if be.name != "pebble" {
				u = 20
			}
			copyRows := func(r [][]sqltypes.Value) error {
				_, err := copyIn(ctx, sess, "COPY cb FROM STDIN", r, 3*u)
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
			must(rows(1, 20*u))
			mustExec(t, sess, "SAVEPOINT s")
			must(rows(20*u+1, 30*u))
			expect("SELECT count(*) FROM cb", fmt.Sprint(30*u))
			mustExec(t, sess, "ROLLBACK TO s")
			expect("SELECT count(*), max(id) FROM cb", fmt.Sprintf("%d|%d", 20*u, 20*u))
			// The rolled-back keys are free; a COPY that fails in its third
			// batch leaves nothing once its savepoint is rolled back to.
			must(rows(25*u+1, 26*u))
			mustExec(t, sess, "SAVEPOINT d")
			bad := append(rows(30*u+1, 37*u), rows(5, 5)...)
			if err := copyRows(bad); pgerr.CodeOf(err) != pgerr.UniqueViolation {
				t.Fatalf("COPY of a duplicate: %v, want 23505", err)
			}
			mustExec(t, sess, "ROLLBACK TO d")
			must(rows(26*u+1, 27*u)) // before any read of the table in this stretch
			mustExec(t, sess, "COMMIT")
			n3 := 0 // the kept rows with n = 3
			for i := 1; i <= 27*u; i++ {
				if i%7 == 3 && (i <= 20*u || i > 25*u) {
					n3++
				}
			}
			expect("SELECT count(*), sum(id) FROM cb", fmt.Sprintf("%d|%d", 22*u, 20*u*(20*u+1)/2+(25*u+1+27*u)*2*u/2))
			expect(fmt.Sprintf("SELECT count(*) FROM cb WHERE id > %d AND id <= %d OR id > %d", 20*u, 25*u, 27*u), "0")
			expect("SELECT count(*) FROM cb WHERE n = 3", fmt.Sprint(n3))
			expect(fmt.Sprintf("SELECT id FROM cb WHERE v = 'v%d'", 30*u+1), "")
			checkConsistent(t, sess, "cb")

			// A truncated table is new to the block; ROLLBACK brings its rows back.
			mustExec(t, sess, "BEGIN")
			mustExec(t, sess, "TRUNCATE cb")
			must(rows(1, 50))
			mustExec(t, sess, "ROLLBACK")
			expect("SELECT count(*) FROM cb", fmt.Sprint(22*u))

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
