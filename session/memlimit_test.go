package session_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// TestSessionMemoryAccounting: COPY's pending writes (outside and inside
// a block, where they join the block's writes), cursors and prepared
// statements are charged to the session's account; past the limit the
// request is 53200 and the session goes on; what ended is given back, and
// a closed session gives back everything.
func TestSessionMemoryAccounting(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			store := be.open(t)
			t.Cleanup(func() { store.Close() })
			ctx := context.Background()
			eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true, AutoAnalyzeNap: -1,
				SessionMemoryLimit: 2 << 20, AllSessionsMemoryLimit: 64 << 20})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { eng.Close() })
			sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
			if err != nil {
				t.Fatal(err)
			}
			mustExec(t, sess, "CREATE TABLE m (id INT PRIMARY KEY, v TEXT)")
			rows := func(n int) [][]sqltypes.Value {
				var out [][]sqltypes.Value
				for i := 0; i < n; i++ {
					out = append(out, []sqltypes.Value{sqltypes.NewInt(int64(i)), sqltypes.NewText(fmt.Sprintf("%0200d", i))})
				}
				return out
			}
			idle := eng.SessionMemory()
			for _, block := range []bool{false, true} {
				if block {
					mustExec(t, sess, "BEGIN")
				}
				_, err := copyIn(ctx, sess, "COPY m FROM STDIN", rows(20_000), 1000)
				if pgerr.CodeOf(err) != pgerr.OutOfMemory {
					t.Fatalf("4 MB COPY past a 2 MiB limit (block %v): %v, want 53200", block, err)
				}
				if block {
					mustExec(t, sess, "ROLLBACK")
				}
				if used := eng.SessionMemory(); used != idle {
					t.Errorf("after the refused COPY (block %v): %d bytes held, want %d", block, used, idle)
				}
			}
			if got := mustExec(t, sess, "SELECT count(*) FROM m"); got[0] != "0" {
				t.Errorf("the refused COPYs left %s rows", got[0])
			}
			if tag, err := copyIn(ctx, sess, "COPY m FROM STDIN", rows(1000), 100); err != nil || tag != "COPY 1000" {
				t.Fatalf("a COPY that fits: %q %v", tag, err)
			}
			// Rows kept for AFTER ROW triggers (fired at the COPY's end)
			// are charged too, and given back however the COPY ends.
			mustExec(t, sess, "CREATE TABLE mt (id INT PRIMARY KEY, v TEXT)")
			mustExec(t, sess, "CREATE FUNCTION mt_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$")
			mustExec(t, sess, "CREATE TRIGGER mt_a AFTER INSERT ON mt FOR EACH ROW EXECUTE FUNCTION mt_f()")
			idle = eng.SessionMemory()
			if _, err := copyIn(ctx, sess, "COPY mt FROM STDIN", rows(20_000), 1000); pgerr.CodeOf(err) != pgerr.OutOfMemory {
				t.Fatalf("4 MB COPY into a table with an AFTER ROW trigger past a 2 MiB limit: %v, want 53200", err)
			}
			if used := eng.SessionMemory(); used != idle {
				t.Errorf("after the refused COPY with a trigger: %d bytes held, want %d", used, idle)
			}
			if tag, err := copyIn(ctx, sess, "COPY mt FROM STDIN", rows(1000), 100); err != nil || tag != "COPY 1000" {
				t.Fatalf("a COPY with a trigger that fits: %q %v", tag, err)
			}
			if used := eng.SessionMemory(); used != idle {
				t.Errorf("after a COPY with a trigger: %d bytes held, want %d", used, idle)
			}
			// A block's writes are held until its end.
			mustExec(t, sess, "BEGIN")
			mustExec(t, sess, "INSERT INTO m SELECT g, 'x' FROM generate_series(1001, 2000) g")
			if eng.SessionMemory() <= idle {
				t.Error("a block's writes are not charged")
			}
			mustExec(t, sess, "COMMIT")
			if used := eng.SessionMemory(); used != idle {
				t.Errorf("after COMMIT: %d bytes held, want %d", used, idle)
			}

			n := 0
			for ; n < 100_000; n++ {
				if _, err = runSQL(ctx, sess, fmt.Sprintf("PREPARE p%d AS SELECT v FROM m WHERE id = $1", n)); err != nil {
					break
				}
			}
			if pgerr.CodeOf(err) != pgerr.OutOfMemory || n < 100 {
				t.Fatalf("PREPARE %d: %v, want 53200 after some", n, err)
			}
			mustExec(t, sess, "DEALLOCATE ALL")
			if used := eng.SessionMemory(); used != idle {
				t.Errorf("after DEALLOCATE ALL: %d bytes held, want %d", used, idle)
			}
			mustExec(t, sess, "BEGIN")
			mustExec(t, sess, "DECLARE c SCROLL CURSOR FOR SELECT * FROM m")
			mustExec(t, sess, "FETCH ALL FROM c")
			if eng.SessionMemory() <= idle {
				t.Error("a SCROLL cursor's rows are not charged")
			}
			mustExec(t, sess, "CLOSE c")
			mustExec(t, sess, "COMMIT")
			if used := eng.SessionMemory(); used != idle {
				t.Errorf("after CLOSE: %d bytes held, want %d", used, idle)
			}
			mustExec(t, sess, "PREPARE kept AS SELECT 1")
			sess.Close()
			if used := eng.SessionMemory(); used != 0 {
				t.Errorf("after the session closed: %d bytes held", used)
			}
		})
	}
}
