package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"

	"github.com/zproxy/zproxy/e2e/harness"
)

// TestClusterOfProxies runs three proxies over one DynamoDB Local table:
// each lists the three in zproxy_proxies and every proxy's sessions in
// pg_stat_activity; a CancelRequest that a load balancer sends to another
// proxy than the session's (pgx's context cancel, psql's Ctrl-C) cancels
// the statement; pg_cancel_backend and pg_terminate_backend reach sessions
// of other proxies, with PostgreSQL's privilege rules; a proxy killed with
// -9 leaves the registry once its TTL passes.
func TestClusterOfProxies(t *testing.T) {
	requireZproxy(t)
	ep := dynamoEndpoint(t)
	dynamoCreds(t)
	args := append(dynamoArgs(ep, fmt.Sprintf("e2e_cluster_%d_%d", os.Getpid(), time.Now().UnixNano())), "--registry-ttl", "3s")
	proxies := []*server{startServer(t, "", args...)}
	// The first proxy makes the table; the others join it then.
	proxies[0].Connect(t)
	proxies = append(proxies, startServer(t, "", args...), startServer(t, "", args...))
	conns := make([]*pgx.Conn, len(proxies))
	for i, p := range proxies {
		conns[i] = p.Connect(t)
	}
	ctx := testCtx(t)
	slots := map[int32]bool{}
	for i, c := range conns {
		rows, err := c.Query(ctx, `SELECT slot, address, is_self FROM zproxy_proxies ORDER BY slot`)
		if err != nil {
			t.Fatal(err)
		}
		var n, self int
		for rows.Next() {
			var slot int32
			var addr string
			var isSelf bool
			if err := rows.Scan(&slot, &addr, &isSelf); err != nil {
				t.Fatal(err)
			}
			n++
			if isSelf {
				self++
				slots[slot] = true
				if want := proxies[i].Addr(); addr != want {
					t.Errorf("proxy %d advertises %s, listens on %s", i, addr, want)
				}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if n != 3 || self != 1 {
			t.Fatalf("proxy %d lists %d proxies, %d of them itself", i, n, self)
		}
	}
	if len(slots) != 3 {
		t.Fatalf("slots %v: not three distinct", slots)
	}

	// Every proxy's pg_stat_activity lists every proxy's sessions.
	pids := make([]uint32, len(conns))
	for i, c := range conns {
		pids[i] = c.PgConn().PID()
		if pids[i]>>20 == 0 {
			t.Fatalf("proxy %d gave process ID %d, without its slot", i, pids[i])
		}
	}
	for i, c := range conns {
		var n int
		if err := c.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1)`, []int64{int64(pids[0]), int64(pids[1]), int64(pids[2])}).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 3 {
			t.Fatalf("proxy %d's pg_stat_activity shows %d of the three sessions", i, n)
		}
	}

	// sleepOn runs pg_sleep on conn until canceled, and waits until proxy
	// 2 sees it running.
	sleepOn := func(conn *pgx.Conn, qctx context.Context) chan error {
		done := make(chan error, 1)
		go func() {
			_, err := conn.Exec(qctx, `SELECT pg_sleep(60)`)
			done <- err
		}()
		pid := conn.PgConn().PID()
		deadline := time.Now().Add(20 * time.Second)
		for {
			var state string
			err := conns[2].QueryRow(ctx, `SELECT state FROM pg_stat_activity WHERE pid = $1 AND query LIKE '%pg_sleep%'`, int64(pid)).Scan(&state)
			if err == nil && state == "active" {
				return done
			}
			if time.Now().After(deadline) {
				t.Fatalf("proxy 2 never saw pid %d sleeping: %v", pid, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	wantCode := func(what string, done chan error, code string) {
		t.Helper()
		select {
		case err := <-done:
			if pgCode(err) != code {
				t.Fatalf("%s: %v, want %s", what, err, code)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the statement still runs after 10s", what)
		}
	}

	// pgx through a load balancer: the session is on proxy 0, the cancel
	// connection lands on proxy 1, which forwards it.
	lb, err := harness.NewRoundRobin(proxies[0].Addr(), proxies[1].Addr(), proxies[2].Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lb.Close() })
	host, port := lb.HostPort()
	lb.SetNext(0)
	lbCfg, err := pgx.ParseConfig(fmt.Sprintf("host=%s port=%s user=zproxy dbname=zproxy connect_timeout=10", host, port))
	if err != nil {
		t.Fatal(err)
	}
	// A canceled context sends a CancelRequest (pgx's default closes the
	// connection instead).
	lbCfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, DeadlineDelay: 30 * time.Second}
	}
	viaLB, err := pgx.ConnectConfig(ctx, lbCfg)
	if err != nil {
		t.Fatal(err)
	}
	defer viaLB.Close(context.Background())
	qctx, cancel := context.WithCancel(ctx)
	done := sleepOn(viaLB, qctx)
	lb.SetNext(1)
	start := time.Now()
	cancel() // pgx sends a CancelRequest on a new connection: to proxy 1
	select {
	case err := <-done:
		if err == nil || time.Since(start) > 5*time.Second {
			t.Fatalf("pgx's cancel through another proxy: %v after %s", err, time.Since(start))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("pgx's cancel through another proxy did not stop the statement")
	}
	// The connection is still usable, and its statement ended as canceled.
	var one int
	if err := viaLB.QueryRow(ctx, `SELECT 1`).Scan(&one); err != nil {
		t.Fatalf("the canceled session: %v", err)
	}

	// psql's Ctrl-C: psql connects through the balancer to proxy 0 and its
	// cancel connection reaches proxy 2.
	if psql := psqlPathOrEmpty(); psql != "" {
		lb.SetNext(0)
		cmd := exec.Command(psql, "-X", "-h", host, "-p", port, "-U", "zproxy", "-d", "zproxy", "-c", "SELECT pg_sleep(60)")
		cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitForQuery := time.Now().Add(20 * time.Second)
		for {
			var n int
			if err := conns[2].QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' AND state = 'active'`).Scan(&n); err == nil && n == 1 {
				break
			}
			if time.Now().After(waitForQuery) {
				cmd.Process.Kill()
				t.Fatalf("psql's statement never showed up: %s", out.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		lb.SetNext(2)
		cmd.Process.Signal(syscall.SIGINT)
		waitErr := make(chan error, 1)
		go func() { waitErr <- cmd.Wait() }()
		select {
		case <-waitErr:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("psql still runs 10s after Ctrl-C: %s", out.String())
		}
		if !strings.Contains(out.String(), "canceling statement due to user request") {
			t.Fatalf("psql after Ctrl-C: %s", out.String())
		}
	}

	// pg_cancel_backend from proxy 2 of a session of proxy 0.
	done = sleepOn(conns[0], ctx)
	var ok bool
	if err := conns[2].QueryRow(ctx, `SELECT pg_cancel_backend($1)`, int64(pids[0])).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_cancel_backend across proxies: %v %v", ok, err)
	}
	wantCode("pg_cancel_backend from another proxy", done, "57014")

	// An ordinary role may not cancel the superuser's statement elsewhere;
	// a process ID that no session has is a WARNING and false.
	mustExec(t, conns[0], `CREATE ROLE clusterbob LOGIN`)
	bob, err := pgx.Connect(ctx, strings.Replace(proxies[1].ConnString(), "user=zproxy", "user=clusterbob", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer bob.Close(context.Background())
	if _, err := bob.Exec(ctx, `SELECT pg_cancel_backend($1)`, int64(pids[0])); pgCode(err) != "42501" {
		t.Fatalf("an ordinary role canceling a superuser's query on another proxy: %v, want 42501", err)
	}
	if err := conns[1].QueryRow(ctx, `SELECT pg_cancel_backend($1)`, int64(pids[0]|0xFFFFF)).Scan(&ok); err != nil || ok {
		t.Fatalf("pg_cancel_backend of no session: %v %v", ok, err)
	}

	// pg_terminate_backend from proxy 1 ends proxy 0's session, waiting
	// for it with a timeout.
	done = sleepOn(conns[0], ctx)
	if err := conns[1].QueryRow(ctx, `SELECT pg_terminate_backend($1, 5000)`, int64(pids[0])).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_terminate_backend across proxies: %v %v", ok, err)
	}
	wantCode("pg_terminate_backend from another proxy", done, "57P01")

	// Advisory locks live in the table: they exclude sessions of every
	// proxy, pg_locks shows them everywhere, and a waiter on one proxy
	// gets the lock when its holder on another lets go.
	var got bool
	if err := conns[1].QueryRow(ctx, `SELECT pg_try_advisory_lock(7)`).Scan(&got); err != nil || !got {
		t.Fatalf("pg_try_advisory_lock on proxy 1: %v %v", got, err)
	}
	other := proxies[0].Connect(t) // proxy 0's first session was terminated above
	if err := other.QueryRow(ctx, `SELECT pg_try_advisory_lock(7)`).Scan(&got); err != nil || got {
		t.Fatalf("proxy 0 took a lock proxy 1 holds: %v %v", got, err)
	}
	var lockPID int64
	if err := conns[2].QueryRow(ctx, `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = 7`).Scan(&lockPID); err != nil || lockPID != int64(pids[1]) {
		t.Fatalf("pg_locks on proxy 2: pid %d (%v), want proxy 1's %d", lockPID, err, pids[1])
	}
	waited := make(chan error, 1)
	go func() { _, err := conns[2].Exec(ctx, `SELECT pg_advisory_lock(7)`); waited <- err }()
	select {
	case err := <-waited:
		t.Fatalf("pg_advisory_lock on proxy 2 did not wait for proxy 1: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	mustExec(t, conns[1], `SELECT pg_advisory_unlock(7)`)
	select {
	case err := <-waited:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("proxy 2's waiter was not granted the lock proxy 1 released")
	}
	mustExec(t, conns[2], `SELECT pg_advisory_unlock_all()`)

	// A transaction-scoped lock excludes the other proxies' sessions
	// until its block commits.
	tx, err := conns[1].Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(8)`); err != nil {
		t.Fatal(err)
	}
	if err := conns[2].QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(8)`).Scan(&got); err != nil || got {
		t.Fatalf("proxy 2 took a lock proxy 1's transaction holds: %v %v", got, err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := conns[2].QueryRow(ctx, `SELECT pg_try_advisory_xact_lock(8)`).Scan(&got); err != nil || !got {
		t.Fatalf("proxy 1's COMMIT did not release its transaction-scoped lock: %v %v", got, err)
	}

	// pg_stat_statements is every proxy's: a statement run 3 times on
	// proxy 1 and 4 times on proxy 2 shows 7 calls on proxy 1 and 2; a
	// reset on one proxy resets it everywhere.
	const marker = `SELECT count(*) FROM zproxy_proxies WHERE slot > 4000`
	for i := 0; i < 7; i++ {
		mustExec(t, conns[1+i%2], marker)
	}
	callsOn := func(c *pgx.Conn) int64 {
		var n int64
		if err := c.QueryRow(ctx, `SELECT coalesce(sum(calls), 0)::int8 FROM pg_stat_statements WHERE query LIKE '%zproxy_proxies WHERE slot > $1%'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if a, b := callsOn(conns[1]), callsOn(conns[2]); a != 7 || b != 7 {
		t.Fatalf("pg_stat_statements calls on proxies 1 and 2: %d, %d; want 7 on both", a, b)
	}
	mustExec(t, conns[2], `SELECT pg_stat_statements_reset()`)
	if a := callsOn(conns[1]); a != 0 {
		t.Fatalf("after a reset on proxy 2, proxy 1 counts %d calls", a)
	}

	// The index advisor reads every proxy's workload: lookups by tag run
	// on proxy 1 alone give proxy 2 the advice of a btree on tag.
	mustExec(t, conns[1], `CREATE TABLE pts (id INT PRIMARY KEY, tag TEXT)`)
	mustExec(t, conns[1], `INSERT INTO pts SELECT g, 'tag' || (g % 50) FROM generate_series(1, 400) g`)
	mustExec(t, conns[1], `ANALYZE pts`)
	for i := 0; i < 3; i++ {
		mustExec(t, conns[1], fmt.Sprintf(`SELECT count(*) FROM pts WHERE tag = 'tag%d'`, i))
	}
	var advice string
	if err := conns[2].QueryRow(ctx, `SELECT recommendation FROM zproxy_index_advice WHERE table_name = 'pts'`).Scan(&advice); err != nil || !strings.Contains(advice, "(tag)") {
		t.Fatalf("proxy 2's advice from proxy 1's workload: %q, %v", advice, err)
	}

	// A proxy killed with -9 leaves the registry once its TTL passes.
	proxies[2].Kill()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var n int
		if err := conns[1].QueryRow(ctx, `SELECT count(*) FROM zproxy_proxies`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the killed proxy is still listed after 20s (%d proxies)", n)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// pg_stat_activity still answers without it.
	var n int
	if err := conns[1].QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n < 1 {
		t.Fatal(errors.New("pg_stat_activity is empty"))
	}
}

// TestEventualReads: zproxy.read_consistency = eventual makes a read-only
// statement outside a block read with DynamoDB's eventual consistency, at
// half the read capacity (EXPLAIN ANALYZE's), and nothing else: a block
// and a write read strongly.
func TestEventualReads(t *testing.T) {
	requireZproxy(t)
	ep := dynamoEndpoint(t)
	dynamoCreds(t)
	s := startServer(t, "", dynamoArgs(ep, fmt.Sprintf("e2e_eventual_%d_%d", os.Getpid(), time.Now().UnixNano()))...)
	conn := s.Connect(t)
	ctx := testCtx(t)
	mustExec(t, conn, `CREATE TABLE docs (id int PRIMARY KEY, body text)`)
	mustExec(t, conn, `INSERT INTO docs SELECT g, repeat('x', 3000) FROM generate_series(1, 40) g`)
	capacity := func(sql string) float64 {
		t.Helper()
		var doc []map[string]any
		if err := conn.QueryRow(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+sql, pgx.QueryExecModeSimpleProtocol).Scan(&doc); err != nil {
			t.Fatal(err)
		}
		c, ok := doc[0]["zproxy Capacity Units"].(float64)
		if !ok {
			t.Fatalf("no capacity in %v", doc)
		}
		return c
	}
	const q = `SELECT count(*) FROM docs`
	strong := capacity(q)
	mustExec(t, conn, `SET zproxy.read_consistency = eventual`)
	eventual := capacity(q)
	if strong <= 0 || eventual <= 0 || eventual > strong*0.6 {
		t.Fatalf("capacity of a scan: strong %.1f, eventual %.1f; want eventual about half", strong, eventual)
	}
	// In a block the reads are strong again.
	mustExec(t, conn, `BEGIN`)
	inBlock := capacity(q)
	mustExec(t, conn, `COMMIT`)
	if inBlock < strong*0.9 {
		t.Fatalf("capacity in a block with eventual set: %.1f, strong %.1f", inBlock, strong)
	}
	// EXPLAIN estimates a statement's read capacity from the table's
	// statistics, and zproxy.max_read_capacity refuses a statement
	// estimated (or found while it runs) to read more.
	mustExec(t, conn, `ANALYZE docs`)
	mustExec(t, conn, `SET zproxy.read_consistency = strong`)
	plan := explainLines(t, conn, "EXPLAIN "+q)
	i := strings.Index(plan, " read capacity units (statistics)")
	if i < 0 {
		t.Fatalf("EXPLAIN on DynamoDB gives no capacity estimate:\n%s", plan)
	}
	var est float64
	fields := strings.Fields(plan[:i])
	fmt.Sscan(strings.TrimPrefix(fields[len(fields)-1], "~"), &est)
	if est < strong/2 || est > strong*2 {
		t.Fatalf("estimated %.1f capacity units, consumed %.1f", est, strong)
	}
	mustExec(t, conn, `SET zproxy.max_read_capacity = 10`)
	if _, err := conn.Exec(ctx, q); pgCode(err) != "53400" || !strings.Contains(err.Error(), "would read about") {
		t.Fatalf("a scan estimated past zproxy.max_read_capacity: %v, want 53400 before it runs", err)
	}
	mustExec(t, conn, `SET zproxy.max_read_capacity = 25`)
	mustExec(t, conn, `SET zproxy.read_consistency = eventual`)
	if _, err := conn.Exec(ctx, q); err != nil {
		t.Fatalf("an eventually consistent scan within the capacity: %v", err)
	}
	// A write's estimate gives its write capacity; EXPLAIN ANALYZE what
	// it consumed.
	const ins = `INSERT INTO docs VALUES (1001, repeat('z', 3000)), (1002, repeat('z', 3000))`
	plan = explainLines(t, conn, "EXPLAIN "+ins)
	i = strings.Index(plan, " write capacity units (transactional)")
	if i < 0 {
		t.Fatalf("EXPLAIN of an INSERT on DynamoDB gives no capacity estimate:\n%s", plan)
	}
	fields = strings.Fields(plan[:i])
	var westimate float64
	fmt.Sscan(strings.TrimPrefix(fields[len(fields)-1], "~"), &westimate)
	var wdoc []map[string]any
	if err := conn.QueryRow(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+ins, pgx.QueryExecModeSimpleProtocol).Scan(&wdoc); err != nil {
		t.Fatal(err)
	}
	written, _ := wdoc[0]["zproxy Capacity Units"].(float64)
	// DynamoDB charges a transactional write twice; DynamoDB Local
	// reports it once.
	if westimate < written/2 || westimate > written*3 {
		t.Fatalf("an INSERT estimated at %.1f write capacity units consumed %.1f", westimate, written)
	}

	// Without statistics the bound stops the statement as it reads.
	mustExec(t, conn, `SET zproxy.read_consistency = strong`)
	mustExec(t, conn, `CREATE TABLE fresh (id int PRIMARY KEY, body text)`)
	mustExec(t, conn, `INSERT INTO fresh SELECT g, repeat('y', 3000) FROM generate_series(1, 40) g`)
	mustExec(t, conn, `SET zproxy.max_read_capacity = 5`)
	if _, err := conn.Exec(ctx, `SELECT count(*) FROM fresh`); pgCode(err) != "53400" {
		t.Fatalf("a scan past zproxy.max_read_capacity: %v, want 53400", err)
	}
	mustExec(t, conn, `RESET zproxy.max_read_capacity`)
	mustExec(t, conn, `SET zproxy.read_consistency = eventual`)

	var v string
	if err := conn.QueryRow(ctx, `SHOW zproxy.read_consistency`).Scan(&v); err != nil || v != "eventual" {
		t.Fatalf("SHOW: %q %v", v, err)
	}
	if _, err := conn.Exec(ctx, `SET zproxy.read_consistency = sometimes`); pgCode(err) != "22023" {
		t.Fatalf("a bad value: %v, want 22023", err)
	}
}

// throttlingProxy forwards HTTP requests to DynamoDB Local and answers
// every n-th data request with the ProvisionedThroughputExceededException
// DynamoDB gives when a table's capacity is exceeded (DynamoDB Local never
// throttles).
func throttlingProxy(t *testing.T, target string, every int64) (string, *atomic.Int64) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	var n, throttled atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		op := r.Header.Get("X-Amz-Target")
		data := strings.HasSuffix(op, ".Query") || strings.HasSuffix(op, "GetItem") || strings.HasSuffix(op, ".TransactWriteItems")
		if data && n.Add(1)%every == 0 {
			throttled.Add(1)
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"The level of configured provisioned throughput for the table was exceeded."}`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &throttled
}

// TestCapacityBudget: a proxy given a read budget (--dynamodb-read-capacity)
// queues a full-scan load to it while the point reads beside it are not
// queued, and requests DynamoDB throttles are retried (the statements
// succeed) and counted in the metrics.
func TestCapacityBudget(t *testing.T) {
	requireZproxy(t)
	ep := dynamoEndpoint(t)
	dynamoCreds(t)
	front, throttled := throttlingProxy(t, ep, 20)
	s := startServer(t, "", append(dynamoArgs(front, fmt.Sprintf("e2e_budget_%d_%d", os.Getpid(), time.Now().UnixNano())), "--dynamodb-read-capacity", "20")...)
	scanner, pointer := s.Connect(t), s.Connect(t)
	ctx := testCtx(t)
	mustExec(t, scanner, `CREATE TABLE docs (id int PRIMARY KEY, body text)`)
	mustExec(t, scanner, `INSERT INTO docs SELECT g, repeat('x', 3000) FROM generate_series(1, 60) g`)

	// Each full scan reads about 45 units, strongly consistent: two and a
	// quarter seconds of the budget.
	const window = 5 * time.Second
	scans := make(chan int, 1)
	go func() {
		n := 0
		for end := time.Now().Add(window); time.Now().Before(end); n++ {
			var c int
			if err := scanner.QueryRow(ctx, `SELECT count(*) FROM docs`).Scan(&c); err != nil || c != 60 {
				t.Errorf("scan: %d %v", c, err)
				break
			}
		}
		scans <- n
	}()
	points := 0
	for end := time.Now().Add(window); time.Now().Before(end); points++ {
		var body string
		if err := pointer.QueryRow(ctx, `SELECT body FROM docs WHERE id = $1`, points%60+1).Scan(&body); err != nil {
			t.Fatalf("point read: %v", err)
		}
	}
	n := <-scans
	// The first scan finds a full bucket (20); each one after it waits
	// for its pages' debt: about window*20/45 more, plus the one running.
	if n > 5 {
		t.Fatalf("%d full scans of ~45 units in %v on a budget of 20 units a second", n, window)
	}
	m := scrape(t, s.MetricsURL())
	if q := m[`zproxy_capacity_queued_seconds_total{kind="read_bulk"}`]; q < 0.5 {
		t.Fatalf("scan pages queued %.2fs in all, want a good part of the %v", q, window)
	}
	if q := m[`zproxy_capacity_queued_seconds_total{kind="read"}`]; q > 0.5 {
		t.Fatalf("point reads queued %.2fs behind the scans", q)
	}
	if m[`zproxy_table_capacity_total{table="docs"}`] < float64(n)*30 {
		t.Fatalf("per-table capacity of docs: %v after %d scans of about 45 units", m[`zproxy_table_capacity_total{table="docs"}`], n)
	}
	if m[`zproxy_capacity_budget_units{kind="read"}`] != 20 {
		t.Fatalf("budget gauge: %v", m[`zproxy_capacity_budget_units{kind="read"}`])
	}
	var counted float64
	for series, v := range m {
		if strings.HasPrefix(series, "zproxy_dynamodb_throttled_total") {
			counted += v
		}
	}
	if throttled.Load() == 0 || counted < float64(throttled.Load())/2 {
		t.Fatalf("throttled %d requests, the metrics count %v", throttled.Load(), counted)
	}
	t.Logf("%d scans and %d point reads in %v; %d requests throttled and retried", n, points, window, throttled.Load())
}
