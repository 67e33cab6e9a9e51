package executor_test

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// The spilling property test: random queries whose sorts, hash
// aggregations, DISTINCTs, hash joins, windows and WITH queries outgrow a
// tiny work_mem return what they return in memory. Each query shape is
// also checked to spill at that work_mem (EXPLAIN ANALYZE says so), so
// the comparison is not between two in-memory runs, and to fail with
// 53400 when temp_file_limit = 0 forbids spilling.

const spillDDL = `CREATE TABLE sp (
  id BIGINT PRIMARY KEY,
  a  BIGINT,
  b  BIGINT,
  s  TEXT,
  f  DOUBLE PRECISION
) WITH (shards = 2)`

// loadSpillData loads n random rows into sp: a and b with many
// duplicates and some NULLs, s short texts.
func loadSpillData(e *env, rng *rand.Rand, n int) {
	for start := 0; start < n; start += 500 {
		var b strings.Builder
		b.WriteString("INSERT INTO sp VALUES ")
		for i := start; i < min(start+500, n); i++ {
			if i > start {
				b.WriteString(", ")
			}
			opt := func(v string) string {
				if rng.IntN(12) == 0 {
					return "NULL"
				}
				return v
			}
			fmt.Fprintf(&b, "(%d, %s, %s, %s, %s)", i, opt(fmt.Sprint(rng.IntN(300))), opt(fmt.Sprint(rng.IntN(40)-5)),
				opt(fmt.Sprintf("'s%d'", rng.IntN(2000))), opt(fmt.Sprintf("%d.5", rng.IntN(1000))))
		}
		e.mustExec(b.String())
	}
}

// spillShape is a query shape: sql has %d verbs filled with random
// moduli; ordered says the rows compare in order (the ORDER BY is total).
type spillShape struct {
	name    string
	sql     string
	ordered bool
}

var spillShapes = []spillShape{
	{"sort", "SELECT id, a, b, s FROM sp ORDER BY b DESC NULLS LAST, s, a %% %d, id", true},
	{"sort with offset", "SELECT id, s FROM sp ORDER BY s NULLS FIRST, id OFFSET %d", true},
	{"top-n", "SELECT id, f FROM sp ORDER BY f, id LIMIT 1000 + %d", true},
	{"hash aggregation", "SELECT a %% %d, b, count(*), sum(f), min(s), max(id) FROM sp GROUP BY 1, 2", false},
	{"grouping sets", "SELECT a, b, s, count(*), sum(f), max(id), grouping(a, s) FROM sp WHERE id %% %d <> 0 GROUP BY GROUPING SETS ((a, b), (s, b), (s), ())", false},
	{"cube", "SELECT a %% 7, b, s, count(*), min(f) FROM sp WHERE id > %d GROUP BY CUBE (a %% 7, b, s)", false},
	{"aggregation under a sort", "SELECT s, count(*), avg(a) FROM sp WHERE id %% %d <> 1 GROUP BY s ORDER BY s", true},
	{"aggregate DISTINCT", "SELECT count(DISTINCT s), count(DISTINCT id %% (1000 + %d)), sum(DISTINCT a), string_agg(DISTINCT s, ',') IS NULL FROM sp", false},
	{"grouped aggregate DISTINCT", "SELECT b %% 3, count(DISTINCT s), count(DISTINCT id / %d) FROM sp GROUP BY 1", false},
	{"aggregate ORDER BY", "SELECT string_agg(s, ',' ORDER BY s DESC, id), array_agg(id ORDER BY f NULLS FIRST, id) FROM sp WHERE id %% %d <> 3", true},
	{"union", "SELECT s, b FROM sp WHERE id %% %d <> 0 UNION SELECT s, a %% 40 FROM sp", false},
	{"intersect", "SELECT s, b FROM sp INTERSECT SELECT s, a %% (5 + %d) FROM sp", false},
	{"intersect all", "SELECT s, b %% 3 FROM sp INTERSECT ALL SELECT s, a %% (2 + %d) FROM sp", false},
	{"except", "SELECT s, b FROM sp EXCEPT SELECT s, a %% (30 + %d) FROM sp", false},
	{"except all", "SELECT s, b %% 3 FROM sp EXCEPT ALL SELECT s, a %% (2 + %d) FROM sp WHERE id < 3000", false},
	{"distinct", "SELECT DISTINCT s, b %% %d FROM sp", false},
	{"distinct on", "SELECT DISTINCT ON (s) s, id, a FROM sp WHERE a >= %d ORDER BY s, id", true},
	{"aggregate DISTINCT ORDER BY", "SELECT string_agg(DISTINCT s, ',' ORDER BY s DESC), array_agg(DISTINCT id / 3 ORDER BY id / 3), count(*) FROM sp WHERE id %% %d <> 2", true},
	{"grouped aggregate DISTINCT ORDER BY", "SELECT b %% 2, string_agg(DISTINCT s, ';' ORDER BY s) FROM sp WHERE a <> %d GROUP BY 1", false},
	{"hash join", "SELECT /*+ HASH_JOIN(y) */ x.id, y.id FROM sp x JOIN sp y ON x.s = y.s AND x.a %% %d = y.a %% 7", false},
	{"left hash join", "SELECT /*+ HASH_JOIN(y) */ x.id, y.id, y.b FROM sp x LEFT JOIN sp y ON x.a = y.id + %d", false},
	{"full hash join", "SELECT /*+ HASH_JOIN(y) */ x.id, y.id FROM sp x FULL JOIN sp y ON x.s = y.s AND y.b > %d", false},
	{"semi join", "SELECT /*+ HASH_JOIN(y) */ x.id FROM sp x WHERE EXISTS (SELECT 1 FROM sp y WHERE y.s = x.s AND y.b <> %d)", false},
	{"anti join", "SELECT /*+ HASH_JOIN(y) */ x.id FROM sp x WHERE NOT EXISTS (SELECT 1 FROM sp y WHERE y.s = x.s AND y.id <> x.id AND y.b <> %d)", false},
	{"window", "SELECT id, row_number() OVER (PARTITION BY a, b ORDER BY id), sum(f) OVER (PARTITION BY b, a %% (10 + %d) ORDER BY id ROWS 2 PRECEDING), rank() OVER (PARTITION BY s, a ORDER BY b) FROM sp", false},
	{"streaming window", "SELECT id, row_number() OVER (ORDER BY s DESC, id), sum(f) OVER (ORDER BY coalesce(a, id)), count(b) OVER (ORDER BY b, id ROWS UNBOUNDED PRECEDING), rank() OVER (ORDER BY a %% %d), dense_rank() OVER (ORDER BY b), avg(a) OVER (PARTITION BY b ORDER BY s GROUPS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM sp", false},
	{"recursive WITH query", "WITH RECURSIVE r(id, s, depth) AS (SELECT id, s, 0 FROM sp WHERE id %% %d <> 0 UNION ALL SELECT id, s || 'x', depth + 1 FROM r WHERE depth < 3) SELECT id, s, depth FROM r", false},
	{"shared WITH query", "WITH c AS MATERIALIZED (SELECT id, a, s FROM sp WHERE id %% %d <> 0) SELECT x.id, y.s FROM c x JOIN c y ON x.id = y.a", false},
}

func TestSpillingMatchesMemory(t *testing.T) {
	e := newEnv(t, spillDDL)
	rng := rand.New(rand.NewPCG(*diffSeed, 11))
	loadSpillData(e, rng, 2500)
	const tiny = "SET zproxy.work_mem = '64kB'; "
	for _, sh := range spillShapes {
		t.Run(sh.name, func(t *testing.T) {
			for i := 0; i < 3; i++ {
				q := fmt.Sprintf(sh.sql, 2+rng.IntN(40))
				want := e.mustQuery(q)
				got, _, err := e.query(tiny + q)
				if err != nil {
					t.Fatalf("%s: spilling: %v", q, err)
				}
				if !sh.ordered {
					sort.Strings(want)
					sort.Strings(got)
				}
				if d := sameRows(got, want); d != "" {
					t.Fatalf("%s: spilled result differs from the in-memory one: %s", q, d)
				}
				if i > 0 {
					continue
				}
				plan := strings.Join(e.mustQuery(tiny+"EXPLAIN ANALYZE "+q), "\n")
				if !strings.Contains(plan, "spilled=") {
					t.Fatalf("%s: did not spill at 64kB:\n%s", q, plan)
				}
				if _, _, err := e.query(tiny + "SET temp_file_limit = 0; " + q); pgerr.CodeOf(err) != pgerr.ConfigurationLimitExceeded {
					t.Fatalf("%s with temp_file_limit = 0: got %v, want 53400", q, err)
				}
			}
		})
	}
}

func TestTempFileLimit(t *testing.T) {
	e := newEnv(t, spillDDL)
	loadSpillData(e, rand.New(rand.NewPCG(1, 2)), 4000)
	// The sort writes about 43kB (the rows' encodings and a length each).
	q := "SET zproxy.work_mem = '64kB'; SET temp_file_limit = '20kB'; SELECT id, s FROM sp ORDER BY s, id"
	_, _, err := e.query(q)
	if pgerr.CodeOf(err) != pgerr.ConfigurationLimitExceeded {
		t.Fatalf("past temp_file_limit: got %v, want 53400", err)
	}
	if rows := e.mustQuery("SET zproxy.work_mem = '64kB'; SET temp_file_limit = '10MB'; SELECT count(*) FROM (SELECT id, s FROM sp ORDER BY s, id) q"); rows[0] != "4000" {
		t.Fatalf("under temp_file_limit: %v", rows)
	}
}

// TestMergePasses sorts enough rows at 64kB to write many more runs than
// one merge reads (mergeFanIn), so runs are merged in passes; the order,
// stability included, must be the in-memory sort's.
func TestMergePasses(t *testing.T) {
	e := newEnv(t, spillDDL)
	q := "SELECT g % 97, g FROM generate_series(1, 60000) g ORDER BY 1 DESC"
	want := e.mustQuery(q)
	got := e.mustQuery("SET zproxy.work_mem = '64kB'; " + q)
	if d := sameRows(got, want); d != "" {
		t.Fatalf("merged in passes: %s", d)
	}
	plan := strings.Join(e.mustQuery("SET zproxy.work_mem = '64kB'; EXPLAIN ANALYZE "+q), "\n")
	if !strings.Contains(plan, "spilled=60000 rows") {
		t.Fatalf("did not spill every row:\n%s", plan)
	}
}

// TestTopNMatchesFullSort checks the bounded heap of a top-n (ORDER BY ...
// LIMIT n) against the first n rows of the same sort without a limit, on
// keys with many ties and NULLs: on one shard, read in key order, ties keep
// that order (the heap is as stable as the sort), on two shards the order
// is made total with id; and, at a tiny work_mem where the heap outgrows the
// budget and hands over to the batch path, the same again.
func TestTopNMatchesFullSort(t *testing.T) {
	e := newEnv(t, spillDDL, strings.Replace(strings.Replace(spillDDL, "sp (", "sp1 (", 1), "shards = 2", "shards = 1", 1))
	loadSpillData(e, rand.New(rand.NewPCG(*diffSeed, 23)), 3000)
	e.mustExec("INSERT INTO sp1 SELECT * FROM sp")
	for _, c := range []struct{ table, order string }{
		{"sp1", "b"}, {"sp1", "b DESC"}, {"sp1", "b NULLS FIRST, a DESC"}, {"sp1", "s DESC NULLS LAST"},
		{"sp", "b, id"}, {"sp", "a DESC, id DESC"},
	} {
		full := e.mustQuery(fmt.Sprintf("SELECT id, a, b, s FROM %s ORDER BY %s", c.table, c.order))
		for _, n := range []int{1, 2, 17, 100, 1000, 2999, 3000, 5000} {
			for _, mem := range []string{"", "SET zproxy.work_mem = '64kB'; "} {
				q := fmt.Sprintf("SELECT id, a, b, s FROM %s ORDER BY %s LIMIT %d", c.table, c.order, n)
				got, _, err := e.query(mem + q)
				if err != nil {
					t.Fatalf("%s%s: %v", mem, q, err)
				}
				if d := sameRows(got, full[:min(n, len(full))]); d != "" {
					t.Fatalf("%s%s: %s", mem, q, d)
				}
			}
		}
		// With an offset the sort keeps limit + offset rows.
		q := fmt.Sprintf("SELECT id, a, b, s FROM %s ORDER BY %s LIMIT 10 OFFSET 95", c.table, c.order)
		if d := sameRows(e.mustQuery(q), full[95:105]); d != "" {
			t.Fatalf("%s: %s", q, d)
		}
	}
}

// TestJoinMemoryReleased checks that joins give back the memory they hold:
// a nested loop's inner rows when it closes (a correlated subquery builds
// its join again for every outer row, so what one execution holds must not
// add up over thousands of them), and a merge join's group of equal right
// rows when the next group replaces it. Each statement fits zproxy.work_mem
// at any moment; without the release the budget ran out (53200).
func TestJoinMemoryReleased(t *testing.T) {
	e := newEnv(t, spillDDL)
	loadSpillData(e, rand.New(rand.NewPCG(*diffSeed, 29)), 3000)
	const tiny = "SET zproxy.work_mem = '256kB'; "
	for _, q := range []string{
		// A merge join over 3000 groups of one row.
		"SELECT /*+ MERGE_JOIN(a, b) */ count(*) FROM sp a JOIN sp b ON a.id = b.id",
		// 3000 executions of a nested loop holding about 30 rows each.
		"SELECT count(*) FROM sp o WHERE (SELECT count(*) FROM sp a JOIN sp b ON a.b < b.b + o.b WHERE a.id < 30 AND b.id < 30) > 0",
	} {
		want := e.mustQuery(q)
		got, _, err := e.query(tiny + q)
		if err != nil {
			t.Fatalf("%s at 256kB: %v", q, err)
		}
		if d := sameRows(got, want); d != "" {
			t.Fatalf("%s: %s", q, d)
		}
	}
}
