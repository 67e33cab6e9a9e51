package session_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/wire"
)

// readingsWorkload is the workload: 2-D boxes over (lat, lon), 3-D
// boxes over (lat, lon, ts) and lookups by note, with constants that vary
// between calls (one normalised statement each).
func readingsWorkload(t *testing.T, sess wire.Session, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 15; i++ {
		lat, lon := rng.Float64()*85, rng.Float64()*170
		mustExec(t, sess, fmt.Sprintf(`SELECT id, note FROM readings WHERE lat BETWEEN %.3f AND %.3f AND lon BETWEEN %.3f AND %.3f`,
			lat, lat+4, lon, lon+8))
		from := base.Add(time.Duration(rng.IntN(300)) * 24 * time.Hour)
		mustExec(t, sess, fmt.Sprintf(`SELECT count(*) FROM readings WHERE lat >= %.3f AND lat < %.3f AND lon >= %.3f AND lon < %.3f AND ts >= '%s' AND ts < '%s'`,
			lat, lat+15, lon, lon+30, from.Format(time.DateTime), from.Add(45*24*time.Hour).Format(time.DateTime)))
		mustExec(t, sess, fmt.Sprintf(`SELECT * FROM readings WHERE note = 'note-%d'`, rng.IntN(readingsRows)))
	}
}

// readingsRows is the size of the readings table: enough that a full scan
// of it costs the workload tens of times what the advised indexes read.
const readingsRows = 8000

// TestAdvisorRecommendsForReadings is issue 17's acceptance test: on a
// table with only a primary key, the advisor recommends a Z-order index on
// (lat, lon[, ts]) and a btree on note; once they exist, the same workload
// reads at least 10× fewer items, as pg_stat_statements measures.
func TestAdvisorRecommendsForReadings(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess := openSession(t, eng)
	mustExec(t, sess, `CREATE TABLE readings (id bigint PRIMARY KEY, lat float8, lon float8, ts timestamp, note text)`)
	const rows = readingsRows
	rng := rand.New(rand.NewPCG(17, 17))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for start := 0; start < rows; start += 1000 {
		var vals []string
		for id := start; id < start+1000; id++ {
			ts := base.Add(time.Duration(rng.Int64N(int64(365 * 24 * time.Hour))))
			vals = append(vals, fmt.Sprintf("(%d, %.5f, %.5f, '%s', 'note-%d')", id, rng.Float64()*90, rng.Float64()*180,
				ts.Format(time.DateTime), id))
		}
		mustExec(t, sess, `INSERT INTO readings VALUES `+strings.Join(vals, ", "))
	}
	mustExec(t, sess, `SELECT pg_stat_statements_reset()`)
	readingsWorkload(t, sess, 1)
	before := workloadItems(t, sess)

	advice := mustExec(t, sess, `SELECT kind, recommendation FROM zproxy_index_advice WHERE table_name = 'readings' ORDER BY kind, recommendation`)
	t.Logf("advice:\n%s", strings.Join(advice, "\n"))
	var zorder, note bool
	var zsql string
	for _, a := range advice {
		kind, sql, _ := strings.Cut(a, "|")
		switch {
		case kind == "zorder" && (strings.Contains(sql, "USING zorder (lat, lon, ts)") || strings.Contains(sql, "USING zorder (lat, lon)")):
			zorder, zsql = true, sql
		case kind == "btree" && strings.HasSuffix(sql, "ON readings (note)") || strings.Contains(sql, "ON readings (note) INCLUDE"):
			note = true
		default:
			continue
		}
		mustExec(t, sess, sql)
	}
	if !zorder || !note {
		t.Fatalf("advice lacks a Z-order index on (lat, lon[, ts]) (%v) or a btree on note (%v):\n%s", zorder, note, strings.Join(advice, "\n"))
	}

	mustExec(t, sess, `SELECT pg_stat_statements_reset()`)
	readingsWorkload(t, sess, 1)
	after := workloadItems(t, sess)
	t.Logf("items read by the workload: %d before, %d after the advised indexes (%.1f× fewer)", before, after, float64(before)/float64(max(after, 1)))
	if after*10 > before {
		t.Fatalf("the workload read %d items after the advised indexes, %d before: not 10× fewer", after, before)
	}
	// With the indexes in place the advisor has nothing more to add.
	if again := mustExec(t, sess, `SELECT recommendation FROM zproxy_index_advice WHERE kind IN ('btree', 'zorder')`); len(again) != 0 {
		t.Errorf("advice after creating the indexes: %v", again)
	}

	// The Z-order index is laid out for this data and workload (leads):
	// the same index in the default layout reads more.
	def, _, fitted := strings.Cut(zsql, " WITH (leads = ")
	if !fitted {
		t.Fatalf("the Z-order advice has no layout for the workload: %s", zsql)
	}
	name := strings.Fields(def)[2]
	mustExec(t, sess, `DROP INDEX `+name)
	mustExec(t, sess, def)
	mustExec(t, sess, `SELECT pg_stat_statements_reset()`)
	readingsWorkload(t, sess, 1)
	withDefault := workloadItems(t, sess)
	t.Logf("items read with the default layout: %d, laid out for the workload: %d", withDefault, after)
	if after >= withDefault {
		t.Errorf("the advised layout read %d items, the default layout %d", after, withDefault)
	}
}

// workloadItems sums pg_stat_statements' items read over the workload's
// statements on readings.
func workloadItems(t *testing.T, sess wire.Session) int64 {
	t.Helper()
	return statementItems(t, sess, "%FROM readings WHERE%", "45")
}

// statementItems is the items pg_stat_statements counts for the statements
// whose text is like pattern, which must have been called calls times.
func statementItems(t *testing.T, sess wire.Session, pattern, calls string) int64 {
	t.Helper()
	got := mustExec(t, sess, `SELECT sum(items_read), sum(calls) FROM pg_stat_statements WHERE query LIKE '`+pattern+`'`)
	f := strings.Split(got[0], "|")
	if f[1] != calls {
		t.Fatalf("pg_stat_statements counted %s calls of the workload, want %s", f[1], calls)
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A hypothetical index is planned by EXPLAIN, never by execution or
// EXPLAIN ANALYZE, and only in the session that made it.
func TestHypotheticalIndexOnlyInExplain(t *testing.T) {
	eng := newEngine(t, memStore(t))
	defer eng.Close()
	sess, other := openSession(t, eng), openSession(t, eng)
	mustExec(t, sess, `CREATE TABLE pts (id INT PRIMARY KEY, x DOUBLE PRECISION, y DOUBLE PRECISION, tag TEXT)`)
	mustExec(t, sess, `INSERT INTO pts SELECT g, g % 100, g % 37, 'tag' || (g % 50) FROM generate_series(1, 400) g`)
	explain := func(s wire.Session, q string) string { return strings.Join(mustExec(t, s, q), "\n") }
	const q = `EXPLAIN SELECT id FROM pts WHERE tag = 'tag7'`
	if p := explain(sess, q); !strings.Contains(p, "full scan") {
		t.Fatalf("plan before: %s", p)
	}
	name := mustExec(t, sess, `SELECT zproxy_hypothetical_index('CREATE INDEX ON pts (tag)')`)[0]
	if p := explain(sess, q); !strings.Contains(p, "via btree index "+name) {
		t.Errorf("EXPLAIN does not use %s:\n%s", name, p)
	}
	if p := explain(sess, `EXPLAIN ANALYZE SELECT id FROM pts WHERE tag = 'tag7'`); strings.Contains(p, name) || !strings.Contains(p, "items read=400") {
		t.Errorf("EXPLAIN ANALYZE ran on the hypothetical index:\n%s", p)
	}
	if p := explain(other, q); strings.Contains(p, name) {
		t.Errorf("another session sees the hypothetical index:\n%s", p)
	}
	zname := mustExec(t, sess, `SELECT zproxy_hypothetical_index('CREATE INDEX pxy ON pts USING zorder (x, y)')`)[0]
	if p := explain(sess, `EXPLAIN SELECT id FROM pts WHERE x BETWEEN 3 AND 4 AND y BETWEEN 5 AND 6`); !strings.Contains(p, "via zorder index "+zname) {
		t.Errorf("EXPLAIN does not use %s:\n%s", zname, p)
	}
	if got := mustExec(t, sess, `SELECT count(*) FROM pts WHERE tag = 'tag7'`); got[0] != "8" {
		t.Errorf("count through the real path = %v", got)
	}
	mustExec(t, sess, `SELECT zproxy_hypothetical_index_reset()`)
	if p := explain(sess, q); strings.Contains(p, name) {
		t.Errorf("plan after reset: %s", p)
	}
}
