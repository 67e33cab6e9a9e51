package session_test

import (
	"context"
	"testing"

	"github.com/zproxy/zproxy/session"
)

// Automatic analysis: the first writes past the threshold analyze a table
// in the background, later ones only after the scale factor's share of its
// rows changed and the nap passed; an index build analyzes it whatever the
// count.
func TestAutoAnalyze(t *testing.T) {
	ctx := context.Background()
	eng, err := session.New(ctx, session.Config{Store: memStore(t), AllowFullScan: true, TTLSweep: -1, AutoAnalyzeNap: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	sess := openSession(t, eng)
	stat := func() string {
		eng.WaitForAutoAnalyze()
		return mustExec(t, sess, `SELECT n_live_tup, autoanalyze_count, analyze_count, last_autoanalyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'aa'`)[0]
	}
	mustExec(t, sess, `CREATE TABLE aa (id INT PRIMARY KEY, v INT)`)
	mustExec(t, sess, `INSERT INTO aa SELECT g, g % 7 FROM generate_series(1, 50) g`)
	if got := stat(); got != "0|0|0|f" {
		t.Fatalf("after 50 rows (at the threshold): %s, want no analysis", got)
	}
	mustExec(t, sess, `INSERT INTO aa VALUES (51, 0)`)
	if got := stat(); got != "51|1|0|t" {
		t.Fatalf("after 51 rows: %s, want an automatic analysis", got)
	}
	// 50 + 10% of 51 = 55.1 changes are needed now.
	mustExec(t, sess, `UPDATE aa SET v = v + 1 WHERE id > 0`)
	mustExec(t, sess, `UPDATE aa SET v = v - 1 WHERE id <= 4`)
	if got := stat(); got != "51|1|0|t" {
		t.Fatalf("after 55 changes: %s, want no new analysis", got)
	}
	mustExec(t, sess, `DELETE FROM aa WHERE id = 1`)
	if got := stat(); got != "50|2|0|t" {
		t.Fatalf("after 56 changes: %s, want a second analysis", got)
	}
	mustExec(t, sess, `ANALYZE aa`)
	mustExec(t, sess, `CREATE INDEX aa_v ON aa (v)`)
	if got := stat(); got != "50|3|1|t" {
		t.Fatalf("after ANALYZE and an index build: %s", got)
	}
	if got := mustExec(t, sess, `SELECT n_distinct FROM pg_stats WHERE tablename = 'aa' AND attname = 'v'`)[0]; got != "-0.14" {
		t.Fatalf("n_distinct of v %s, want -0.14 (7 of 50 rows)", got)
	}
}
