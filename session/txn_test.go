package session_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	zdynamo "github.com/zproxy/zproxy/kv/dynamodb"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// sharedDynamo opens n stores over one new DynamoDB Local table: n proxies
// sharing it. The test is skipped without DynamoDB Local.
func sharedDynamo(t *testing.T, n int) []kv.Store {
	t.Helper()
	ep := os.Getenv("DYNAMODB_ENDPOINT")
	if ep == "" {
		t.Skip("needs DynamoDB Local (DYNAMODB_ENDPOINT)")
	}
	table := strings.NewReplacer("/", "_").Replace(fmt.Sprintf("%s_%d_%d", t.Name(), os.Getpid(), time.Now().UnixNano()%1e6))
	var out []kv.Store
	for i := 0; i < n; i++ {
		s, err := zdynamo.Open(context.Background(), zdynamo.Options{Table: table, Endpoint: ep, Region: "us-east-1",
			Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		out = append(out, s)
	}
	return out
}

func openSession(t *testing.T, eng *session.Engine) wire.Session {
	t.Helper()
	s, err := eng.NewSession(context.Background(), wire.SessionParams{User: "test", Notice: func(*pgerr.Error) {}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func newEngine(t *testing.T, store kv.Store) *session.Engine {
	t.Helper()
	eng, err := session.New(context.Background(), session.Config{Store: store, AllowFullScan: true})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// transfers runs workers that move money between accounts in transaction
// blocks, retrying on 40001, while an auditor sums the balances inside
// read-only blocks; the total never changes.
func transfers(t *testing.T, engines []*session.Engine, accounts, workers, perWorker int) {
	ctx := context.Background()
	setup := openSession(t, engines[0])
	mustExec(t, setup, `CREATE TABLE accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL) WITH (shards = 4)`)
	mustExec(t, setup, `CREATE INDEX accounts_by_balance ON accounts (balance)`)
	for i := 0; i < accounts; i++ {
		mustExec(t, setup, fmt.Sprintf(`INSERT INTO accounts VALUES (%d, 1000)`, i))
	}
	want := strconv.Itoa(accounts * 1000)
	// The other proxies must have caught up with the schema.
	for _, eng := range engines[1:] {
		s := openSession(t, eng)
		deadline := time.Now().Add(5 * time.Second)
		for {
			if _, err := runSQL(ctx, s, `SELECT 1 FROM accounts WHERE id = 0`); err == nil {
				break
			} else if time.Now().After(deadline) {
				t.Fatalf("a proxy never saw the table: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers+1)
	done := make(chan struct{})
	var retries, committed int64
	var mu sync.Mutex
	for w := 0; w < workers; w++ {
		sess := openSession(t, engines[w%len(engines)])
		rng := rand.New(rand.NewSource(int64(w)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				from, to := rng.Intn(accounts), rng.Intn(accounts)
				if from == to {
					continue
				}
				amount := rng.Intn(50) + 1
				for attempt := 0; ; attempt++ {
					err := transfer(ctx, sess, from, to, amount)
					if err == nil {
						mu.Lock()
						committed++
						mu.Unlock()
						break
					}
					runSQL(ctx, sess, `ROLLBACK`)
					if pgerr.CodeOf(err) != pgerr.SerializationFailure || attempt > 200 {
						errs <- fmt.Errorf("transfer %d→%d: %v (%s)", from, to, err, pgerr.CodeOf(err))
						return
					}
					mu.Lock()
					retries++
					mu.Unlock()
				}
			}
		}()
	}
	// The auditor: every snapshot adds up.
	audit := openSession(t, engines[len(engines)-1])
	stop := make(chan struct{})
	audits := 0
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			mustExec(t, audit, `BEGIN READ ONLY`)
			rows, err := runSQL(ctx, audit, `SELECT sum(balance) FROM accounts`)
			runSQL(ctx, audit, `COMMIT`)
			switch {
			case pgerr.CodeOf(err) == pgerr.SerializationFailure:
				// DynamoDB: the snapshot could no longer be served.
			case err != nil:
				errs <- fmt.Errorf("audit: %v", err)
				return
			case len(rows) != 1 || rows[0] != want:
				errs <- fmt.Errorf("audit saw a total of %v, want %s", rows, want)
				return
			default:
				audits++
			}
		}
	}()
	wg.Wait()
	close(stop)
	<-done
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := mustExec(t, setup, `SELECT sum(balance) FROM accounts`); len(got) != 1 || got[0] != want {
		t.Fatalf("total = %v, want %s", got, want)
	}
	checkConsistent(t, setup, "accounts")
	t.Logf("%d transfers committed, %d retried after 40001, %d consistent audits", committed, retries, audits)
}

// transfer moves amount in one transaction block, reading both balances
// first (so a concurrent change of either conflicts).
func transfer(ctx context.Context, sess wire.Session, from, to, amount int) error {
	_, err := runSQL(ctx, sess, fmt.Sprintf(`BEGIN;
SELECT balance FROM accounts WHERE id IN (%d, %d) FOR UPDATE;
UPDATE accounts SET balance = balance - %d WHERE id = %d;
UPDATE accounts SET balance = balance + %d WHERE id = %d;
COMMIT`, from, to, amount, from, amount, to))
	return err
}

func TestTransfersKeepTheTotal(t *testing.T) {
	transfers(t, []*session.Engine{newEngine(t, memStore(t))}, 10, 8, 100)
}

func TestTransfersKeepTheTotalAcrossProxies(t *testing.T) {
	stores := sharedDynamo(t, 2)
	transfers(t, []*session.Engine{newEngine(t, stores[0]), newEngine(t, stores[1])}, 10, 4, 25)
}

// Sequence values are unique however many sessions and proxies draw them.
func TestSequenceValuesAreUnique(t *testing.T) {
	check := func(t *testing.T, engines []*session.Engine) {
		ctx := context.Background()
		mustExec(t, openSession(t, engines[0]), `CREATE SEQUENCE ids`)
		time.Sleep(250 * time.Millisecond) // other proxies' schema caches
		var mu sync.Mutex
		seen := map[string]bool{}
		var wg sync.WaitGroup
		for w := 0; w < 6; w++ {
			sess := openSession(t, engines[w%len(engines)])
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 300; i++ {
					rows, err := runSQL(ctx, sess, `SELECT nextval('ids')`)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					if seen[rows[0]] {
						t.Errorf("value %s handed out twice", rows[0])
					}
					seen[rows[0]] = true
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(seen) != 1800 {
			t.Fatalf("%d distinct values, want 1800", len(seen))
		}
	}
	t.Run("pebble", func(t *testing.T) { check(t, []*session.Engine{newEngine(t, memStore(t))}) })
	t.Run("dynamodb", func(t *testing.T) {
		stores := sharedDynamo(t, 2)
		check(t, []*session.Engine{newEngine(t, stores[0]), newEngine(t, stores[1])})
	})
}

// An index built by one proxy while another updates the indexed column of
// the same rows ends up exact: the build's entries are written in
// transactions that share-lock the rows they were computed from, so an
// entry for a value another proxy has just replaced never commits.
func TestIndexBuildRacingAnotherProxysUpdates(t *testing.T) {
	ctx := context.Background()
	stores := sharedDynamo(t, 2)
	a, b := newEngine(t, stores[0]), newEngine(t, stores[1])
	sa := openSession(t, a)
	mustExec(t, sa, `CREATE TABLE racing (id INT PRIMARY KEY, v INT NOT NULL) WITH (shards = 2)`)
	mustExec(t, sa, `INSERT INTO racing SELECT g, 0 FROM generate_series(1, 300) g`)
	time.Sleep(250 * time.Millisecond) // b's schema cache catches up
	sb := openSession(t, b)
	stop := make(chan struct{})
	done := make(chan int)
	go func() {
		rng := rand.New(rand.NewSource(1))
		n := 0
		for {
			select {
			case <-stop:
				done <- n
				return
			default:
			}
			id := 1 + rng.Intn(300)
			if _, err := runSQL(ctx, sb, fmt.Sprintf(`UPDATE racing SET v = v + 1 WHERE id = %d`, id)); err != nil {
				t.Errorf("update: %v", err)
			}
			n++
		}
	}()
	time.Sleep(100 * time.Millisecond)
	mustExec(t, sa, `CREATE INDEX racing_v ON racing (v)`)
	close(stop)
	updates := <-done
	checkConsistent(t, sa, "racing")
	t.Logf("%d updates from the other proxy during the build", updates)
}

// Writers racing a change that rewrites the rows (a new primary key; a
// column type stored differently; a dropped key; a SERIAL column added)
// either get 55006 (and retry) or land before or after it: no
// acknowledged row is lost and indexes stay exact.
func TestRewriteWithWriters(t *testing.T) {
	for _, change := range []struct {
		name   string
		setup  string // run before the writers start, if set
		alter  string
		lookup string // the query that finds an acknowledged row by b
	}{
		{"primary key", "", `ALTER TABLE rk ADD PRIMARY KEY (b)`, `SELECT a FROM rk WHERE b = %d`},
		{"column type", "", `ALTER TABLE rk ALTER COLUMN b TYPE text USING (b + 1)::text`, `SELECT a FROM rk WHERE b = '%d' OR b = (%[1]d + 1)::text`},
		{"drop key", `ALTER TABLE rk ADD PRIMARY KEY (a)`, `ALTER TABLE rk DROP CONSTRAINT rk_pkey`, `SELECT a FROM rk WHERE b = %d`},
		{"serial column", "", `ALTER TABLE rk ADD COLUMN s serial`, `SELECT a FROM rk WHERE b = %d AND s > 0`},
	} {
		t.Run(change.name, func(t *testing.T) {
			check := func(t *testing.T, engines []*session.Engine) {
				rewriteWithWriters(t, engines, change.setup, change.alter, change.lookup)
			}
			t.Run("pebble", func(t *testing.T) { check(t, []*session.Engine{newEngine(t, memStore(t))}) })
			t.Run("dynamodb", func(t *testing.T) {
				stores := sharedDynamo(t, 2)
				check(t, []*session.Engine{newEngine(t, stores[0]), newEngine(t, stores[1])})
			})
		})
	}
}

// rewriteWithWriters runs alter on a table rk (a, b, v) of 500 rows (and
// setup, if set) while a session of the last engine inserts rows, then
// checks that every acknowledged row is found by lookup (given its b) and
// the table is consistent.
func rewriteWithWriters(t *testing.T, engines []*session.Engine, setup, alter, lookup string) {
	ctx := context.Background()
	sa := openSession(t, engines[0])
	mustExec(t, sa, `CREATE TABLE rk (a INT, b INT, v TEXT)`)
	mustExec(t, sa, `CREATE INDEX rk_v ON rk (v)`)
	mustExec(t, sa, `CREATE INDEX rk_b ON rk (b)`)
	mustExec(t, sa, `INSERT INTO rk SELECT g, g * 10, 'v' || g FROM generate_series(1, 500) g`)
	if setup != "" {
		mustExec(t, sa, setup)
	}
	time.Sleep(250 * time.Millisecond)
	writer := openSession(t, engines[len(engines)-1])
	stop := make(chan struct{})
	done := make(chan []int)
	go func() {
		var acked []int
		for id := 1000; ; id++ {
			select {
			case <-stop:
				done <- acked
				return
			default:
			}
			for {
				_, err := runSQL(ctx, writer, fmt.Sprintf(`INSERT INTO rk VALUES (%d, %d, 'w')`, id, id*10))
				if err == nil {
					acked = append(acked, id)
					break
				}
				if c := pgerr.CodeOf(err); c != pgerr.ObjectInUse && c != pgerr.SerializationFailure {
					t.Errorf("insert %d: %v", id, err)
					done <- acked
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
	}()
	time.Sleep(50 * time.Millisecond)
	mustExec(t, sa, alter)
	time.Sleep(50 * time.Millisecond)
	close(stop)
	acked := <-done
	for _, id := range acked {
		if got := mustExec(t, sa, fmt.Sprintf(lookup, id*10)); len(got) != 1 {
			t.Fatalf("acknowledged row %d: %v", id, got)
		}
	}
	if got := mustExec(t, sa, `SELECT count(*) FROM rk`); got[0] != strconv.Itoa(500+len(acked)) {
		t.Fatalf("count %v, want %d", got, 500+len(acked))
	}
	checkConsistent(t, sa, "rk")
	t.Logf("%d rows written during the change", len(acked))
}

// slowRowReads is a store whose next read of rows (any partition but the
// catalog's) waits a while first, once armed: a statement slow between
// planning and committing, as on a loaded machine.
type slowRowReads struct {
	kv.Store
	delay atomic.Int64 // nanoseconds; taken by the first row read
}

var _ kv.Transactional = (*slowRowReads)(nil)

func (s *slowRowReads) Begin(ctx context.Context, opts kv.TxnOptions) (kv.Txn, error) {
	return s.Store.(kv.Transactional).Begin(ctx, opts)
}

func (s *slowRowReads) wait(partition []byte) {
	if strings.HasPrefix(string(partition), "C/") {
		return
	}
	if d := s.delay.Swap(0); d > 0 {
		time.Sleep(time.Duration(d))
	}
}

func (s *slowRowReads) Get(ctx context.Context, req kv.GetRequest) ([]kv.Item, error) {
	if len(req.Keys) > 0 {
		s.wait(req.Keys[0].Partition)
	}
	return s.Store.Get(ctx, req)
}

func (s *slowRowReads) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	s.wait(req.Partition)
	return s.Store.Scan(ctx, req)
}

// A statement outside a transaction that planned before another proxy
// began building an index, and commits after the build's backfill read
// its row (it was slow: here its row read takes 1.5 s), must not commit
// without the index's maintenance: its atomic batch re-checks the schema,
// and the statement is planned again and maintains the index. Without the
// check the index keeps the row's old value.
func TestSlowWriteOutlivingAnotherProxysIndexBuild(t *testing.T) {
	ctx := context.Background()
	stores := sharedDynamo(t, 2)
	slow := &slowRowReads{Store: stores[1]}
	a, b := newEngine(t, stores[0]), newEngine(t, slow)
	sa := openSession(t, a)
	mustExec(t, sa, `CREATE TABLE slow_w (id INT PRIMARY KEY, v INT NOT NULL)`)
	mustExec(t, sa, `INSERT INTO slow_w SELECT g, 0 FROM generate_series(1, 20) g`)
	time.Sleep(250 * time.Millisecond) // b's schema cache catches up
	sb := openSession(t, b)
	mustExec(t, sb, `SELECT 1`)
	slow.delay.Store(int64(1500 * time.Millisecond))
	done := make(chan error, 1)
	go func() {
		_, err := runSQL(ctx, sb, `UPDATE slow_w SET v = 7 WHERE id = 5`)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	mustExec(t, sa, `CREATE INDEX slow_w_v ON slow_w (v)`)
	if err := <-done; err != nil {
		t.Fatalf("update: %v", err)
	}
	checkConsistent(t, sa, "slow_w")
	if got := mustExec(t, sa, `SELECT id FROM slow_w WHERE v = 7`); len(got) != 1 || got[0] != "5" {
		t.Fatalf("rows with v = 7 through the index: %q", got)
	}
}

// A COPY whose client is slow to finish, on a proxy that planned it
// before another proxy began building an index, cannot commit its rows
// without their index entries: it fails with 40001 and writes nothing
// (its rows came from the client and cannot be read again), and the
// index stays exact.
func TestSlowCopyOutlivingAnotherProxysIndexBuild(t *testing.T) {
	ctx := context.Background()
	stores := sharedDynamo(t, 2)
	a, b := newEngine(t, stores[0]), newEngine(t, stores[1])
	sa := openSession(t, a)
	mustExec(t, sa, `CREATE TABLE slow_c (id INT PRIMARY KEY, v INT NOT NULL)`)
	mustExec(t, sa, `INSERT INTO slow_c SELECT g, g FROM generate_series(1, 10) g`)
	time.Sleep(250 * time.Millisecond) // b's schema cache catches up
	sb := openSession(t, b)
	stmts, err := sb.Parse(ctx, `COPY slow_c FROM STDIN`, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	in := res.(wire.CopyIn)
	if err := in.Rows(ctx, [][]sqltypes.Value{{sqltypes.NewInt(11), sqltypes.NewInt(7)}, {sqltypes.NewInt(12), sqltypes.NewInt(7)}}); err != nil {
		t.Fatal(err)
	}
	mustExec(t, sa, `CREATE INDEX slow_c_v ON slow_c (v)`)
	err = in.Finish(ctx)
	if code := pgerr.CodeOf(err); code != pgerr.SerializationFailure {
		t.Fatalf("COPY finished with %v (%s), want 40001", err, code)
	}
	checkConsistent(t, sa, "slow_c")
	if got := mustExec(t, sa, `SELECT count(*) FROM slow_c`); got[0] != "10" {
		t.Fatalf("rows after the failed COPY: %q", got)
	}
}
