package e2e

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The kill tests of transaction blocks: writers run blocks of many rows
// (more than one DynamoDB TransactWriteItems holds) plus a counter update,
// zproxy is SIGKILLed at a random moment, and afterwards (after a restart,
// or from another proxy over the same DynamoDB table) every block is wholly
// there or wholly absent, every acknowledged COMMIT is there, the counters
// agree with the blocks present, and CHECK TABLE is clean.

// blockRun is one block a writer sent: its id, its rows, and whether its
// COMMIT was acknowledged.
type blockRun struct {
	writer, id, rows int
	acked            bool
}

func killSetup(t *testing.T, conn *pgx.Conn, writers int) {
	mustExec(t, conn, `CREATE TABLE moves (block BIGINT NOT NULL, n INT NOT NULL, writer INT NOT NULL, PRIMARY KEY (block, n)) WITH (shards = 4)`)
	mustExec(t, conn, `CREATE INDEX moves_by_writer ON moves (writer, block)`)
	mustExec(t, conn, `CREATE TABLE counters (writer INT PRIMARY KEY, blocks BIGINT NOT NULL)`)
	for w := 0; w < writers; w++ {
		mustExec(t, conn, `INSERT INTO counters VALUES ($1, 0)`, w)
	}
}

// runBlocks runs blocks on conns until kill is closed or a statement
// fails (the server is gone); it returns what each writer sent.
func runBlocks(conns []*pgx.Conn, maxRows int, started chan<- struct{}, kill <-chan struct{}) []blockRun {
	var mu sync.Mutex
	var runs []blockRun
	untilKilled(conns, started, kill, func(w, k int, conn *pgx.Conn, rng *rand.Rand) (acked, stop bool) {
		run := blockRun{writer: w, id: w*1_000_000 + k, rows: 1 + rng.Intn(maxRows)}
		mu.Lock()
		i := len(runs)
		runs = append(runs, run)
		mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if err := oneBlock(ctx, conn, run); err != nil {
			return false, true // the server is gone (or the block lost a conflict: retried next round)
		}
		mu.Lock()
		runs[i].acked = true
		mu.Unlock()
		return true, false
	})
	return runs
}

// untilKilled runs a writer per connection, each calling step with its
// number and k = 0, 1, ... until kill is closed or step says to stop;
// started is closed after the first step acknowledged.
func untilKilled(conns []*pgx.Conn, started chan<- struct{}, kill <-chan struct{}, step func(w, k int, conn *pgx.Conn, rng *rand.Rand) (acked, stop bool)) {
	var once sync.Once
	var wg sync.WaitGroup
	for w, conn := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(w) + time.Now().UnixNano()))
			for k := 0; ; k++ {
				select {
				case <-kill:
					return
				default:
				}
				acked, stop := step(w, k, conn, rng)
				if stop {
					return
				}
				if acked {
					once.Do(func() { close(started) })
				}
			}
		}()
	}
	wg.Wait()
}

func oneBlock(ctx context.Context, conn *pgx.Conn, run blockRun) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, `INSERT INTO moves SELECT $1, g, $2 FROM generate_series(1, $3::int) g`, run.id, run.writer, run.rows); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE counters SET blocks = blocks + 1 WHERE writer = $1`, run.writer); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// verifyBlocks checks the all-or-nothing property through conn.
func verifyBlocks(t *testing.T, conn *pgx.Conn, runs []blockRun, writers int) {
	t.Helper()
	present := map[int]int{}
	rows, err := conn.Query(testCtx(t), `SELECT block, count(*) FROM moves GROUP BY block`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var block, n int
		if err := rows.Scan(&block, &n); err != nil {
			t.Fatal(err)
		}
		present[block] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	perWriter := make([]int, writers)
	acked := 0
	for _, r := range runs {
		n := present[r.id]
		switch {
		case r.acked && n != r.rows:
			t.Errorf("acknowledged block %d (%d rows) has %d rows after the kill", r.id, r.rows, n)
		case n != 0 && n != r.rows:
			t.Errorf("block %d (%d rows) is partly there: %d rows", r.id, r.rows, n)
		}
		if n != 0 {
			perWriter[r.writer]++
		}
		if r.acked {
			acked++
		}
		delete(present, r.id)
	}
	if len(present) > 0 {
		t.Errorf("%d blocks present that no writer sent", len(present))
	}
	for w := 0; w < writers; w++ {
		var blocks int
		if err := conn.QueryRow(testCtx(t), `SELECT blocks FROM counters WHERE writer = $1`, w).Scan(&blocks); err != nil {
			t.Fatal(err)
		}
		if blocks != perWriter[w] {
			t.Errorf("writer %d: counter says %d blocks, %d are present", w, blocks, perWriter[w])
		}
	}
	check, err := conn.Query(testCtx(t), "CHECK TABLE moves")
	if err != nil {
		t.Fatal(err)
	}
	for check.Next() {
		var table, index string
		var nrows, entries, missing, orphaned int64
		var ok bool
		if err := check.Scan(&table, &index, &nrows, &entries, &missing, &orphaned, &ok); err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Errorf("index %s after the kill: %d rows, %d entries, %d missing, %d orphaned", index, nrows, entries, missing, orphaned)
		}
	}
	if err := check.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d blocks sent, %d acknowledged", len(runs), acked)
}

// killAfter closes kill and kills s once some block committed and a random
// moment more has passed.
func killAfter(t *testing.T, s *server, started <-chan struct{}, kill chan<- struct{}, maxDelay time.Duration) {
	select {
	case <-started:
	case <-time.After(2 * time.Minute):
		t.Error("no block committed within 2 minutes")
	}
	time.Sleep(time.Duration(rand.Int63n(int64(maxDelay))))
	s.Kill()
	close(kill)
}

func TestKillDuringTransactions(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	const writers = 4
	dir := t.TempDir()
	for round := 0; round < 3; round++ {
		s := startServer(t, dir)
		if round == 0 {
			killSetup(t, s.Connect(t), writers)
		}
		conns := make([]*pgx.Conn, writers)
		for i := range conns {
			conns[i] = s.Connect(t)
		}
		started, kill := make(chan struct{}), make(chan struct{})
		go killAfter(t, s, started, kill, 2*time.Second)
		runs := runBlocks(conns, 2000, started, kill)
		restarted := startServer(t, dir)
		conn := restarted.Connect(t)
		verifyBlocks(t, conn, runs, writers)
		// The next round starts from nothing.
		mustExec(t, conn, `TRUNCATE moves`)
		mustExec(t, conn, `UPDATE counters SET blocks = 0`)
		restarted.Stop()
	}
}

// On DynamoDB a block of more than 100 item writes commits through write
// intents and a transaction record: a proxy killed mid-commit leaves them
// behind, and another proxy over the same table must see each block wholly
// or not at all.
func TestKillDuringTransactionsDynamoDB(t *testing.T) {
	requireZproxy(t)
	ep := dynamoEndpoint(t)
	dynamoCreds(t)
	const writers = 3
	args := dynamoArgs(ep, fmt.Sprintf("e2e_txnkill_%d", os.Getpid()))
	a := startServer(t, "", args...)
	b := startServer(t, "", args...)
	killSetup(t, a.Connect(t), writers)
	conns := make([]*pgx.Conn, writers)
	for i := range conns {
		conns[i] = a.Connect(t)
	}
	started, kill := make(chan struct{}), make(chan struct{})
	go killAfter(t, a, started, kill, 4*time.Second)
	runs := runBlocks(conns, 150, started, kill)
	verifyBlocks(t, b.Connect(t), runs, writers)
	b.Stop()
}
