package clients

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/zproxy/zproxy/e2e/harness"
)

// The pgbench data set: pgbench -i's tables at a reduced scale, created with
// zproxy's DDL (pgbench -i itself needs COPY and table options zproxy lacks).
const (
	pgbenchAccounts = 1000
	pgbenchTellers  = 10
	pgbenchBranches = 1
)

var pgbenchDDL = []string{
	`CREATE TABLE pgbench_branches (bid integer NOT NULL, bbalance integer, filler text, PRIMARY KEY (bid))`,
	`CREATE TABLE pgbench_tellers (tid integer NOT NULL, bid integer, tbalance integer, filler text, PRIMARY KEY (tid)) WITH (shards = 2)`,
	`CREATE TABLE pgbench_accounts (aid integer NOT NULL, bid integer, abalance integer, filler text, PRIMARY KEY (aid)) WITH (shards = 4)`,
}

// pgbenchScript is TPC-B without the history insert (pgbench_history has no
// primary key), in pgbench's own transaction spelling BEGIN ... END.
var pgbenchScript = fmt.Sprintf(`\set aid random(1, %d)
\set bid random(1, %d)
\set tid random(1, %d)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
END;
`, pgbenchAccounts, pgbenchBranches, pgbenchTellers)

// pgbenchSelectScript is pgbench's built-in select-only script.
var pgbenchSelectScript = fmt.Sprintf(`\set aid random(1, %d)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
`, pgbenchAccounts)

// pgbenchCounterScript increments one row; run a fixed number of times by
// several clients it shows whether concurrent read-modify-write UPDATEs lose
// increments.
const pgbenchCounterScript = `UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1;
`

func TestPgbench(t *testing.T) {
	t.Parallel()
	pgbench := requireTool(t, "pgbench", "Debian package postgresql-15 on bookworm, postgresql-client from 16 on")
	s := startServer(t)
	loadPgbenchTables(t, s)

	dir := t.TempDir()
	writeScript := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tpcb := writeScript("tpcb.sql", pgbenchScript)
	selectOnly := writeScript("select.sql", pgbenchSelectScript)
	counter := writeScript("counter.sql", pgbenchCounterScript)

	for _, mode := range []string{"simple", "extended", "prepared"} {
		t.Run(mode, func(t *testing.T) {
			// Every TPC-B transaction updates the one branch row, so under
			// snapshot isolation concurrent ones conflict (40001) as they
			// would in PostgreSQL's REPEATABLE READ; pgbench retries them.
			res := runPgbench(t, pgbench, s, "-M", mode, "-c", "4", "-j", "2", "-T", "3", "--max-tries=1000",
				"-f", tpcb+"@3", "-f", selectOnly+"@1")
			t.Logf("pgbench -M %s: %d transactions, tps = %.1f", mode, res.processed, res.tps)
		})
	}

	// TPC-B moves each delta into one account, its teller and its branch in
	// one transaction: if every transaction was all-or-nothing the three
	// totals agree.
	t.Run("balances_agree", func(t *testing.T) {
		conn := pgxConnect(t, s)
		var accounts, tellers, branches int64
		for q, dst := range map[string]*int64{
			"SELECT coalesce(sum(abalance), 0) FROM pgbench_accounts": &accounts,
			"SELECT coalesce(sum(tbalance), 0) FROM pgbench_tellers":  &tellers,
			"SELECT coalesce(sum(bbalance), 0) FROM pgbench_branches": &branches,
		} {
			if err := conn.QueryRow(context.Background(), q).Scan(dst); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if accounts != tellers || tellers != branches {
			t.Errorf("after TPC-B the totals disagree: accounts %d, tellers %d, branches %d", accounts, tellers, branches)
		}
	})

	t.Run("concurrent_increments", func(t *testing.T) {
		const clients, perClient = 4, 50
		conn := pgxConnect(t, s)
		mustExecPgx(t, conn, "UPDATE pgbench_branches SET bbalance = 0 WHERE bid = 1")
		res := runPgbench(t, pgbench, s, "-M", "prepared", "-c", strconv.Itoa(clients), "-j", "2",
			"-t", strconv.Itoa(perClient), "-f", counter)
		if res.processed != clients*perClient {
			t.Fatalf("%d transactions processed, want %d", res.processed, clients*perClient)
		}
		var got int64
		if err := conn.QueryRow(context.Background(), "SELECT bbalance FROM pgbench_branches WHERE bid = 1").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != clients*perClient {
			t.Errorf("%d concurrent increments left the counter at %d", clients*perClient, got)
		}
	})
}

// pgbenchResult is what a pgbench run reports.
type pgbenchResult struct {
	processed int
	tps       float64
}

var (
	pgbenchProcessed = regexp.MustCompile(`(?m)^number of transactions actually processed: (\d+)`)
	pgbenchFailed    = regexp.MustCompile(`(?m)^number of failed transactions: (\d+)`)
	pgbenchTPS       = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)
)

// runPgbench runs pgbench against s without its vacuum step (-n) and checks
// that it exits 0, that no transaction failed and that the throughput is
// positive.
func runPgbench(t *testing.T, pgbench string, s *server, args ...string) pgbenchResult {
	t.Helper()
	return runPgbenchOn(t, pgbench, &clientTarget{host: s.host, port: s.port, user: "zproxy", dbname: "zproxy"}, args...)
}

// runPgbenchOn is runPgbench against a clientTarget.
func runPgbenchOn(t *testing.T, pgbench string, tg *clientTarget, args ...string) pgbenchResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	all := append([]string{"-n", "-h", tg.host, "-p", tg.port, "-U", tg.user}, args...)
	all = append(all, tg.dbname)
	cmd := exec.CommandContext(ctx, pgbench, all...)
	cmd.Env = append(harness.CleanEnv(), "PGCONNECT_TIMEOUT=10", "PGAPPNAME=zproxy-e2e-pgbench")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pgbench %s: %v\n%s", strings.Join(all, " "), err, out)
	}
	text := string(out)
	if m := pgbenchFailed.FindStringSubmatch(text); m == nil || m[1] != "0" {
		t.Errorf("pgbench reports failed transactions (or no count of them):\n%s", text)
	}
	var res pgbenchResult
	if m := pgbenchProcessed.FindStringSubmatch(text); m != nil {
		res.processed, _ = strconv.Atoi(m[1])
	}
	if m := pgbenchTPS.FindStringSubmatch(text); m != nil {
		res.tps, _ = strconv.ParseFloat(m[1], 64)
	}
	if res.processed <= 0 || res.tps <= 0 {
		t.Fatalf("pgbench processed %d transactions at %.1f tps:\n%s", res.processed, res.tps, text)
	}
	return res
}

// loadPgbenchTables creates and fills the pgbench tables the way pgbench -i
// would (balances 0), with multi-row INSERTs.
func loadPgbenchTables(t *testing.T, s *server) {
	t.Helper()
	conn := pgxConnect(t, s)
	for _, ddl := range pgbenchDDL {
		mustExecPgx(t, conn, ddl)
	}
	insert := func(table string, n int, row func(i int) string) {
		const batch = 250
		for lo := 1; lo <= n; lo += batch {
			var b strings.Builder
			b.WriteString("INSERT INTO " + table + " VALUES ")
			for i := lo; i < lo+batch && i <= n; i++ {
				if i > lo {
					b.WriteString(", ")
				}
				b.WriteString(row(i))
			}
			mustExecPgx(t, conn, b.String())
		}
	}
	insert("pgbench_branches", pgbenchBranches, func(i int) string { return fmt.Sprintf("(%d, 0, '')", i) })
	insert("pgbench_tellers", pgbenchTellers, func(i int) string {
		return fmt.Sprintf("(%d, %d, 0, '')", i, (i-1)/(pgbenchTellers/pgbenchBranches)+1)
	})
	insert("pgbench_accounts", pgbenchAccounts, func(i int) string {
		return fmt.Sprintf("(%d, %d, 0, '')", i, (i-1)/(pgbenchAccounts/pgbenchBranches)+1)
	})
	var n int64
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM pgbench_accounts").Scan(&n); err != nil || n != pgbenchAccounts {
		t.Fatalf("pgbench_accounts holds %d rows (%v), want %d", n, err, pgbenchAccounts)
	}
}

// pgxConnect opens a pgx connection in its default mode, closed at the end
// of the test.
func pgxConnect(t *testing.T, s *server) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.pgxConnString())
	if err != nil {
		t.Fatalf("pgx connect: %v", err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func mustExecPgx(t *testing.T, conn *pgx.Conn, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%.80s: %v", sql, err)
	}
}
