package clients

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/zproxy/zproxy/e2e/harness"
)

// TestPgbenchInitTPCB runs `pgbench -i` at scale 1 with its default steps
// (100,000 accounts, with its CREATE TABLE ... WITH (fillfactor=100),
// TRUNCATE, COPY, VACUUM ANALYZE and ALTER TABLE ADD PRIMARY KEY), then pgbench's built-in TPC-B-like script with four
// clients. Its transactions update one of ten tellers and the one branch, so
// under snapshot isolation (PostgreSQL's REPEATABLE READ would do the same)
// concurrent ones conflict with 40001, which pgbench retries (--max-tries):
// no transaction may fail. Afterwards the balances must add up: every
// transaction moved its delta into an account, a teller and the branch and
// recorded it in pgbench_history, all or nothing.
func TestPgbenchInitTPCB(t *testing.T) {
	t.Parallel()
	pgbench := requireTool(t, "pgbench", "Debian package postgresql-15 on bookworm, postgresql-client from 16 on")
	tg := newClientTarget(t)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	init := exec.CommandContext(ctx, pgbench, "-i", "-s", "1",
		"-h", tg.host, "-p", tg.port, "-U", tg.user, tg.dbname)
	init.Env = append(harness.CleanEnv(), "PGCONNECT_TIMEOUT=10")
	out, err := init.CombinedOutput()
	if err != nil {
		t.Fatalf("pgbench -i: %v\n%s", err, out)
	}
	t.Logf("pgbench -i -s 1 (%v):\n%s", time.Since(start).Round(time.Millisecond), out)

	conn := connect(t, tg.dsn())
	scalar := func(q string) int64 {
		t.Helper()
		var n int64
		if err := conn.QueryRow(context.Background(), q).Scan(&n); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return n
	}
	for table, want := range map[string]int64{"pgbench_branches": 1, "pgbench_tellers": 10, "pgbench_accounts": 100000, "pgbench_history": 0} {
		if got := scalar("SELECT count(*) FROM " + table); got != want {
			t.Fatalf("after pgbench -i %s holds %d rows, want %d", table, got, want)
		}
	}
	if got := scalar(`SELECT count(*) FROM pg_indexes WHERE indexname IN
		('pgbench_branches_pkey', 'pgbench_tellers_pkey', 'pgbench_accounts_pkey')`); got != 3 {
		t.Fatalf("pgbench -i made %d of the three primary keys", got)
	}

	res := runPgbenchOn(t, pgbench, tg, "-b", "tpcb-like", "-c", "4", "-j", "2", "-T", "5", "--max-tries=1000")
	t.Logf("pgbench -b tpcb-like: %d transactions, tps = %.1f", res.processed, res.tps)

	sums := map[string]int64{}
	for table, column := range map[string]string{
		"pgbench_accounts": "abalance", "pgbench_tellers": "tbalance",
		"pgbench_branches": "bbalance", "pgbench_history": "delta",
	} {
		sums[table] = scalar("SELECT coalesce(sum(" + column + "), 0) FROM " + table)
	}
	if a := sums["pgbench_accounts"]; sums["pgbench_tellers"] != a || sums["pgbench_branches"] != a || sums["pgbench_history"] != a {
		t.Errorf("after TPC-B the balances disagree: %v", sums)
	}
	if n := scalar("SELECT count(*) FROM pgbench_history"); n != int64(res.processed) {
		t.Errorf("pgbench_history holds %d rows for %d transactions", n, res.processed)
	}
}
