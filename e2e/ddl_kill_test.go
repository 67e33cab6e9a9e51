package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The kill tests of transactional DDL: writers run blocks that create a
// table, fill it, index it and count it in a shared table, zproxy is
// SIGKILLed at a random moment, and afterwards (after a restart, or from
// another proxy over the same DynamoDB table) every block's table is wholly
// there (with its rows, index and count) or wholly absent, every
// acknowledged COMMIT is there, and the catalog holds nothing a block left
// half done.

// ddlRun is one block a writer sent.
type ddlRun struct {
	writer, n, rows int
	acked           bool
}

func (r ddlRun) table() string { return fmt.Sprintf("k_%d_%d", r.writer, r.n) }

// runDDLBlocks runs blocks on conns until kill is closed or a statement
// fails for another reason than a conflict (the server is gone).
func runDDLBlocks(conns []*pgx.Conn, started chan<- struct{}, kill <-chan struct{}) []ddlRun {
	var mu sync.Mutex
	var runs []ddlRun
	untilKilled(conns, started, kill, func(w, n int, conn *pgx.Conn, rng *rand.Rand) (acked, stop bool) {
		run := ddlRun{writer: w, n: n, rows: 1 + rng.Intn(150)}
		mu.Lock()
		i := len(runs)
		runs = append(runs, run)
		mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		err := oneDDLBlock(ctx, conn, run)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "40001" {
			return false, false // another block changed the schema first
		}
		if err != nil {
			return false, true // the server is gone
		}
		mu.Lock()
		runs[i].acked = true
		mu.Unlock()
		return true, false
	})
	return runs
}

func oneDDLBlock(ctx context.Context, conn *pgx.Conn, run ddlRun) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	for _, sql := range []string{
		fmt.Sprintf(`CREATE TABLE %s (k INT PRIMARY KEY, v INT NOT NULL)`, run.table()),
		fmt.Sprintf(`INSERT INTO %s SELECT g, g * 7 FROM generate_series(1, %d) g`, run.table(), run.rows),
		fmt.Sprintf(`CREATE UNIQUE INDEX %s_v ON %s (v)`, run.table(), run.table()),
		fmt.Sprintf(`UPDATE ddl_counters SET blocks = blocks + 1 WHERE writer = %d`, run.writer),
	} {
		if _, err := tx.Exec(ctx, sql); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// verifyDDLBlocks checks the all-or-nothing property through conn.
func verifyDDLBlocks(t *testing.T, conn *pgx.Conn, runs []ddlRun, writers int) {
	t.Helper()
	perWriter := make([]int, writers)
	acked := 0
	for _, r := range runs {
		var exists bool
		if err := conn.QueryRow(testCtx(t), `SELECT count(*) = 1 FROM pg_class WHERE relname = $1`, r.table()).Scan(&exists); err != nil {
			t.Fatal(err)
		}
		if r.acked {
			acked++
		}
		if !exists {
			if r.acked {
				t.Errorf("acknowledged block %s is gone after the kill", r.table())
			}
			var index bool
			if err := conn.QueryRow(testCtx(t), `SELECT count(*) > 0 FROM pg_class WHERE relname = $1`, r.table()+"_v").Scan(&index); err != nil {
				t.Fatal(err)
			}
			if index {
				t.Errorf("block %s left its index without its table", r.table())
			}
			continue
		}
		perWriter[r.writer]++
		var n, viaIndex int
		if err := conn.QueryRow(testCtx(t), fmt.Sprintf(`SELECT count(*) FROM %s`, r.table())).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRow(testCtx(t), fmt.Sprintf(`SELECT count(*) FROM %s WHERE v > 0`, r.table())).Scan(&viaIndex); err != nil {
			t.Fatal(err)
		}
		if n != r.rows || viaIndex != r.rows {
			t.Errorf("block %s (%d rows) is partly there: %d rows, %d through its index", r.table(), r.rows, n, viaIndex)
		}
		checkTableClean(t, conn, r.table())
	}
	for w := 0; w < writers; w++ {
		var blocks int
		if err := conn.QueryRow(testCtx(t), `SELECT blocks FROM ddl_counters WHERE writer = $1`, w).Scan(&blocks); err != nil {
			t.Fatal(err)
		}
		if blocks != perWriter[w] {
			t.Errorf("writer %d: counter says %d blocks, %d tables are present", w, blocks, perWriter[w])
		}
	}
	t.Logf("%d blocks sent, %d acknowledged", len(runs), acked)
}

// checkTableClean fails the test if CHECK TABLE finds an index of table
// inexact.
func checkTableClean(t *testing.T, conn *pgx.Conn, table string) {
	t.Helper()
	rows, err := conn.Query(testCtx(t), "CHECK TABLE "+table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var tbl, index string
		var nrows, entries, missing, orphaned int64
		var ok bool
		if err := rows.Scan(&tbl, &index, &nrows, &entries, &missing, &orphaned, &ok); err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Errorf("index %s after the kill: %d rows, %d entries, %d missing, %d orphaned", index, nrows, entries, missing, orphaned)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

func ddlKillSetup(t *testing.T, conn *pgx.Conn, writers int) {
	mustExec(t, conn, `CREATE TABLE ddl_counters (writer INT PRIMARY KEY, blocks BIGINT NOT NULL)`)
	for w := 0; w < writers; w++ {
		mustExec(t, conn, `INSERT INTO ddl_counters VALUES ($1, 0)`, w)
	}
}

// openBlockAcrossKill leaves a block open on conn that creates a table,
// fills it and drops the counters: the kill must undo all of it.
func openBlockAcrossKill(t *testing.T, conn *pgx.Conn) {
	mustExec(t, conn, `BEGIN`)
	mustExec(t, conn, `CREATE TABLE never (k INT PRIMARY KEY)`)
	mustExec(t, conn, `INSERT INTO never VALUES (1)`)
	mustExec(t, conn, `DROP TABLE ddl_counters`)
}

// checkOpenBlockGone checks that the block openBlockAcrossKill left open
// left nothing (verifyDDLBlocks finds the counters).
func checkOpenBlockGone(t *testing.T, conn *pgx.Conn) {
	var never int
	if err := conn.QueryRow(testCtx(t), `SELECT count(*) FROM pg_class WHERE relname = 'never'`).Scan(&never); err != nil || never != 0 {
		t.Errorf("the block open at the kill left its table: %d (%v)", never, err)
	}
}

func TestKillDuringDDLBlocks(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	const writers = 3
	dir := t.TempDir()
	s := startServer(t, dir)
	ddlKillSetup(t, s.Connect(t), writers)
	conns := make([]*pgx.Conn, writers)
	for i := range conns {
		conns[i] = s.Connect(t)
	}
	openBlockAcrossKill(t, s.Connect(t))
	started, kill := make(chan struct{}), make(chan struct{})
	go killAfter(t, s, started, kill, 2*time.Second)
	runs := runDDLBlocks(conns, started, kill)
	restarted := startServer(t, dir)
	conn := restarted.Connect(t)
	verifyDDLBlocks(t, conn, runs, writers)
	checkOpenBlockGone(t, conn)
	restarted.Stop()
}

// On DynamoDB the blocks run on one proxy, which is killed, and another
// proxy over the same table checks what is there.
func TestKillDuringDDLBlocksDynamoDB(t *testing.T) {
	requireZproxy(t)
	ep := dynamoEndpoint(t)
	dynamoCreds(t)
	const writers = 3
	args := dynamoArgs(ep, fmt.Sprintf("e2e_ddlkill_%d", os.Getpid()))
	a := startServer(t, "", args...)
	b := startServer(t, "", args...)
	ddlKillSetup(t, a.Connect(t), writers)
	conns := make([]*pgx.Conn, writers)
	for i := range conns {
		conns[i] = a.Connect(t)
	}
	openBlockAcrossKill(t, a.Connect(t))
	started, kill := make(chan struct{}), make(chan struct{})
	go killAfter(t, a, started, kill, 4*time.Second)
	runs := runDDLBlocks(conns, started, kill)
	conn := b.Connect(t)
	time.Sleep(2 * time.Second) // b's schema cache catches up with a's last commit
	verifyDDLBlocks(t, conn, runs, writers)
	checkOpenBlockGone(t, conn)
	b.Stop()
}
