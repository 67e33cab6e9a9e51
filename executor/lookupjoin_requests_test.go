package executor_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvlog"
)

// Lookup joins' store requests, asserted through the request log. A lookup
// join reads its outer rows in rounds of lookupBatch (100: DynamoDB's
// BatchGetItem limit) and serves a round with one batched Get when the
// join binds the inner table's whole primary key, or with one Scan per
// distinct key and shard when it binds a prefix (of the key or of an
// index). Expected keys, shards and item counts are computed with the
// catalog's encoders from the generated rows, never read from the output.

// ljBatch mirrors the optimizer's lookupBatch: the figures below are what
// the batching promises, so a change of the batch size must show here.
const ljBatch = 100

// ljOuterRows is the number of outer rows of every join: ten full rounds.
const ljOuterRows = 1000

const (
	// lj_outer is read in key order (one shard), so the rounds are runs of
	// 100 consecutive ids and each round's keys can be predicted.
	ljOuterDDL = `CREATE TABLE lj_outer (id BIGINT PRIMARY KEY, k BIGINT) WITH (shards = 1)`
	// lj_point is keyed by the join column: point gets. Only even keys up
	// to 1200 exist, so half the lookups miss.
	ljPointDDL = `CREATE TABLE lj_point (k BIGINT PRIMARY KEY, v TEXT) WITH (shards = 4)`
	// lj_series is keyed by (k, seq): the join binds a prefix.
	ljSeriesDDL = `CREATE TABLE lj_series (k BIGINT NOT NULL, seq INT NOT NULL, v TEXT, PRIMARY KEY (k, seq)) WITH (shards = 4)`
	// lj_tagged is found through a non-covering index on k (v is read from
	// the table row).
	ljTaggedDDL   = `CREATE TABLE lj_tagged (id BIGINT PRIMARY KEY, k BIGINT, v TEXT) WITH (shards = 4)`
	ljTaggedIndex = `CREATE INDEX lj_tagged_by_k ON lj_tagged (k) WITH (shards = 2)`
)

// ljData is the generated content of the four tables.
type ljData struct {
	outer  [][]string // id, k (k may be NULL)
	point  [][]string // k, v
	series [][]string // k, seq, v
	tagged [][]string // id, k, v
}

// ljEnv creates the tables, fills them, and clears the log. outerKey gives
// the join key of outer row id (ok false: NULL).
func ljEnv(t *testing.T, outerKey func(id int) (int, bool)) (*env, *ljData) {
	t.Helper()
	e := newEnv(t, ljOuterDDL, ljPointDDL, ljSeriesDDL, ljTaggedDDL, ljTaggedIndex)
	d := &ljData{}
	for id := 1; id <= ljOuterRows; id++ {
		k := null
		if v, ok := outerKey(id); ok {
			k = strconv.Itoa(v)
		}
		d.outer = append(d.outer, []string{strconv.Itoa(id), k})
	}
	for k := 2; k <= 1200; k += 2 {
		d.point = append(d.point, []string{strconv.Itoa(k), "p" + strconv.Itoa(k)})
	}
	for k := 1; k <= 60; k++ {
		for seq := 1; seq <= k%3+1; seq++ {
			d.series = append(d.series, []string{strconv.Itoa(k), strconv.Itoa(seq), fmt.Sprintf("s%d.%d", k, seq)})
		}
	}
	for id := 1; id <= 300; id++ {
		k := strconv.Itoa(id % 40)
		if id%37 == 0 {
			k = null // entries with a NULL key are never looked up
		}
		d.tagged = append(d.tagged, []string{strconv.Itoa(id), k, "t" + strconv.Itoa(id)})
	}
	for _, ins := range [][]string{
		ljInsert("lj_outer", d.outer, nil),
		ljInsert("lj_point", d.point, []bool{false, true}),
		ljInsert("lj_series", d.series, []bool{false, false, true}),
		ljInsert("lj_tagged", d.tagged, []bool{false, false, true}),
	} {
		for _, sql := range ins {
			e.mustExec(sql)
		}
	}
	e.log.Reset()
	return e, d
}

// ljInsert renders rows as INSERT statements of at most 200 rows; quoted
// marks the text columns.
func ljInsert(table string, rows [][]string, quoted []bool) []string {
	var out []string
	for start := 0; start < len(rows); start += 200 {
		var b strings.Builder
		fmt.Fprintf(&b, "INSERT INTO %s VALUES ", table)
		for i, r := range rows[start:min(start+200, len(rows))] {
			if i > 0 {
				b.WriteString(", ")
			}
			cells := make([]string, len(r))
			for j, c := range r {
				cells[j] = literal(c, j < len(quoted) && quoted[j])
			}
			b.WriteString("(" + strings.Join(cells, ", ") + ")")
		}
		out = append(out, b.String())
	}
	return out
}

// rounds splits the outer rows into the lookup join's rounds and returns,
// per round, its distinct non-NULL keys.
func (d *ljData) rounds() [][]int64 {
	var out [][]int64
	for start := 0; start < len(d.outer); start += ljBatch {
		seen := map[int64]bool{}
		var keys []int64
		for _, r := range d.outer[start:min(start+ljBatch, len(d.outer))] {
			if r[1] == null {
				continue
			}
			k, _ := strconv.ParseInt(r[1], 10, 64)
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		out = append(out, keys)
	}
	return out
}

// joinRows counts the rows of the inner join of the outer rows with inner
// rows whose join key is column col.
func (d *ljData) joinRows(inner [][]string, col int) int {
	perKey := map[string]int{}
	for _, r := range inner {
		if r[col] != null {
			perKey[r[col]]++
		}
	}
	n := 0
	for _, r := range d.outer {
		if r[1] != null {
			n += perKey[r[1]]
		}
	}
	return n
}

// partitionOf reports whether a rendered partition ("name/shard") belongs
// to one of the named tables or indexes.
func partitionOf(part string, names ...string) bool {
	name, _, _ := strings.Cut(part, "/")
	for _, n := range names {
		if name == n {
			return true
		}
	}
	return false
}

// entriesOn returns the recorded requests that touch the named tables or
// indexes (every partition of the request must belong to them).
func entriesOn(e *env, names ...string) []kvlog.Entry {
	var out []kvlog.Entry
	for _, en := range e.log.Entries() {
		all := len(en.Partitions) > 0
		for _, p := range en.Partitions {
			all = all && partitionOf(p, names...)
		}
		if all {
			out = append(out, en)
		}
	}
	return out
}

// The outer keys of the joins below.
var ljKeyCases = []struct {
	name string
	key  func(id int) (int, bool)
}{
	// Every outer row has its own key: 100 distinct keys per round.
	{"distinct", func(id int) (int, bool) { return id, true }},
	// Keys repeat within a round (30 distinct per round), every seventh is
	// NULL, and the last round is all NULL: it asks nothing.
	{"repeated and NULL", func(id int) (int, bool) {
		if id%7 == 0 || id > 900 {
			return 0, false
		}
		return id%30 + 1, true
	}},
}

// forEachKeyCase runs the join sql over the tables of every outer-key case,
// checks its row count (the rows of inner joined on their column col) and
// hands the log of the join's requests over to check.
func forEachKeyCase(t *testing.T, sql string, inner func(*ljData) [][]string, col int, check func(t *testing.T, e *env, d *ljData)) {
	for _, tc := range ljKeyCases {
		t.Run(tc.name, func(t *testing.T) {
			e, d := ljEnv(t, tc.key)
			got := e.mustQuery(sql)
			if want := d.joinRows(inner(d), col); len(got) != want || want == 0 {
				t.Fatalf("%d rows, want %d (> 0)", len(got), want)
			}
			check(t, e, d)
		})
	}
}

func TestLookupJoinPointGetsOneBatchPerRound(t *testing.T) {
	forEachKeyCase(t, "SELECT o.id, i.v FROM lj_outer o JOIN lj_point i ON i.k = o.k", func(d *ljData) [][]string { return d.point }, 0, func(t *testing.T, e *env, d *ljData) {
		tb := e.table("lj_point")
		exists := map[string]bool{}
		for _, r := range d.point {
			exists[r[0]] = true
		}
		// One Get per round that has a key, in round order, asking each
		// distinct key of the round once.
		var want [][]string
		for _, keys := range d.rounds() {
			if len(keys) == 0 {
				continue
			}
			var lines []string
			for _, k := range keys {
				key := tb.RowKey(values(tb, []string{strconv.FormatInt(k, 10), null}))
				state := "missing"
				if exists[strconv.FormatInt(k, 10)] {
					state = "found"
				}
				lines = append(lines, fmt.Sprintf("get %s %s %s", e.partitionName(key.Partition), hexOf(key.Sort), state))
			}
			want = append(want, lines)
		}
		gets := entriesOn(e, "lj_point")
		if len(gets) != len(want) {
			t.Fatalf("%d requests on lj_point, want %d Gets (one per round with a key):\n%s", len(gets), len(want), strings.Join(e.log.Lines(), "\n"))
		}
		for i, en := range gets {
			if en.Op != kvlog.OpGet || len(en.Keys) > ljBatch {
				t.Errorf("round %d: %s of %d keys, want one Get of at most %d", i, en.Op, len(en.Keys), ljBatch)
				continue
			}
			checkLines(t, fmt.Sprintf("round %d", i), strings.Split(e.log.Format(&en), "\n"), want[i])
		}
		// The outer table is read once, by one scan of its one shard.
		if outer := entriesOn(e, "lj_outer"); len(outer) != 1 || outer[0].Op != kvlog.OpScan || outer[0].Items != ljOuterRows {
			t.Errorf("outer reads: %v", e.log.Lines())
		}
	})
	// With a key per outer row, the promise in numbers: ceil(1000 / 100).
	e, _ := ljEnv(t, ljKeyCases[0].key)
	e.mustQuery("SELECT o.id, i.v FROM lj_outer o JOIN lj_point i ON i.k = o.k")
	if n := len(entriesOn(e, "lj_point")); n != (ljOuterRows+ljBatch-1)/ljBatch {
		t.Errorf("%d Gets for %d outer rows, want %d", n, ljOuterRows, (ljOuterRows+ljBatch-1)/ljBatch)
	}
}

// wantPrefixScans returns, per round, the scans a prefix lookup makes: for
// each distinct key of the round, one range [key, key's end) on every
// shard of the partition set, with the items that shard holds for it.
func wantPrefixScans(d *ljData, part string, shards int, itemsOn func(k int64, shard int) int) []string {
	var want []string
	for _, keys := range d.rounds() {
		for _, k := range keys {
			start := catalog.AppendKeyValue(nil, sqltypes.NewInt(k), false)
			for sh := 0; sh < shards; sh++ {
				n := itemsOn(k, sh)
				want = append(want, fmt.Sprintf("scan %s/%d [%s, %s): %d item%s", part, sh, hexOf(start), hexOf(kv.PrefixEnd(start)), n, plural(n)))
			}
		}
	}
	return want
}

func TestLookupJoinPrefixScansPerKeyAndShard(t *testing.T) {
	forEachKeyCase(t, "SELECT o.id, s.seq, s.v FROM lj_outer o JOIN lj_series s ON s.k = o.k", func(d *ljData) [][]string { return d.series }, 0, func(t *testing.T, e *env, d *ljData) {
		tb := e.table("lj_series")
		items := map[[2]int64]int{} // (k, shard) → rows
		for _, r := range d.series {
			v := values(tb, r)
			items[[2]int64{v[0].I, int64(catalog.ShardOf(tb.EncodePK(nil, v), tb.Shards))}]++
		}
		want := wantPrefixScans(d, "lj_series", tb.Shards, func(k int64, sh int) int { return items[[2]int64{k, int64(sh)}] })
		var lines []string
		for _, en := range entriesOn(e, "lj_series") {
			lines = append(lines, e.log.Format(&en))
		}
		checkLines(t, "prefix lookups", lines, want)
		distinct := 0
		for _, keys := range d.rounds() {
			distinct += len(keys)
		}
		if len(lines) != distinct*tb.Shards {
			t.Errorf("%d scans, want %d distinct keys (per round) x %d shards", len(lines), distinct, tb.Shards)
		}
	})
}

func TestLookupJoinThroughIndexScansEntriesThenGetsRows(t *testing.T) {
	forEachKeyCase(t, "SELECT o.id, t.v FROM lj_outer o JOIN lj_tagged t ON t.k = o.k", func(d *ljData) [][]string { return d.tagged }, 1, func(t *testing.T, e *env, d *ljData) {
		tb := e.table("lj_tagged")
		ix := tb.Indexes[0]
		entries := map[[2]int64]int{} // (k, index shard) → entries
		rowKeys := map[int64][]kv.Key{}
		for _, r := range d.tagged {
			if r[1] == null {
				continue
			}
			v := values(tb, r)
			entries[[2]int64{v[1].I, int64(catalog.ShardOf(tb.EncodePK(nil, v), ix.Shards))}]++
			rowKeys[v[1].I] = append(rowKeys[v[1].I], tb.RowKey(v))
		}
		want := wantPrefixScans(d, ix.Name, ix.Shards, func(k int64, sh int) int { return entries[[2]int64{k, int64(sh)}] })
		var scans []string
		var gets []kvlog.Entry
		for _, en := range entriesOn(e, ix.Name, "lj_tagged") {
			switch en.Op {
			case kvlog.OpScan:
				scans = append(scans, e.log.Format(&en))
			case kvlog.OpGet:
				gets = append(gets, en)
			}
		}
		checkLines(t, "index entry scans", scans, want)
		// Then, per round that found entries, one Get of their table rows
		// (the index does not cover v).
		var wantGets [][]string
		for _, keys := range d.rounds() {
			var lines []string
			for _, k := range keys {
				for _, rk := range rowKeys[k] {
					lines = append(lines, fmt.Sprintf("get %s %s found", e.partitionName(rk.Partition), hexOf(rk.Sort)))
				}
			}
			if len(lines) > 0 {
				wantGets = append(wantGets, lines)
			}
		}
		if len(gets) != len(wantGets) {
			t.Fatalf("%d Gets of table rows, want %d (one per round)", len(gets), len(wantGets))
		}
		for i := range gets {
			checkLines(t, fmt.Sprintf("row Get %d", i), strings.Split(e.log.Format(&gets[i]), "\n"), wantGets[i])
		}
	})
}

// analyzed is one operator of EXPLAIN (ANALYZE, FORMAT JSON).
type analyzed struct {
	Operator      string      `json:"zproxy Operator"`
	Rows          int64       `json:"Actual Rows"`
	ItemsRead     int64       `json:"zproxy Items Read"`
	StoreRequests int64       `json:"zproxy Store Requests"`
	Inputs        []*analyzed `json:"Plans"`
}

// explainAnalyze runs EXPLAIN (ANALYZE, FORMAT JSON) and returns its
// operators, parents first.
func explainAnalyze(t *testing.T, e *env, sql string) []*analyzed {
	t.Helper()
	out := e.mustQuery("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
	var doc []struct{ Plan *analyzed }
	if err := json.Unmarshal([]byte(strings.Join(out, "\n")), &doc); err != nil || len(doc) != 1 {
		t.Fatalf("EXPLAIN output %q: %v", out, err)
	}
	var ops []*analyzed
	var walk func(*analyzed)
	walk = func(a *analyzed) {
		ops = append(ops, a)
		for _, in := range a.Inputs {
			walk(in)
		}
	}
	walk(doc[0].Plan)
	return ops
}

// logged sums the requests and items the log holds on the named partitions:
// a Get reads its found keys, a Scan the items its iterator returned.
func logged(e *env, names ...string) (requests, items int64) {
	for _, en := range entriesOn(e, names...) {
		requests++
		switch en.Op {
		case kvlog.OpGet:
			for _, f := range en.Found {
				if f {
					items++
				}
			}
		case kvlog.OpScan:
			items += int64(en.Items)
		}
	}
	return requests, items
}

// TestExplainAnalyzeLookupJoinFigures checks that EXPLAIN ANALYZE reports,
// per operator, the rows it returned and the store requests and items it
// read, and that these agree with the requests the store saw.
func TestExplainAnalyzeLookupJoinFigures(t *testing.T) {
	e, d := ljEnv(t, ljKeyCases[1].key)
	for _, tc := range []struct {
		sql      string
		inner    []string // the tables and indexes the lookup reads
		wantRows int
	}{
		{"SELECT o.id, i.v FROM lj_outer o JOIN lj_point i ON i.k = o.k", []string{"lj_point"}, d.joinRows(d.point, 0)},
		{"SELECT o.id, s.v FROM lj_outer o JOIN lj_series s ON s.k = o.k", []string{"lj_series"}, d.joinRows(d.series, 0)},
		{"SELECT o.id, t.v FROM lj_outer o JOIN lj_tagged t ON t.k = o.k", []string{"lj_tagged", "lj_tagged_by_k"}, d.joinRows(d.tagged, 1)},
	} {
		t.Run(tc.inner[0], func(t *testing.T) {
			e.log.Reset()
			ops := explainAnalyze(t, e, tc.sql)
			var join, scan *analyzed
			for _, op := range ops {
				switch {
				case strings.HasPrefix(op.Operator, "Lookup Join"):
					join = op
				case strings.HasPrefix(op.Operator, "Scan lj_outer"):
					scan = op
				}
			}
			if join == nil || scan == nil {
				t.Fatalf("no lookup join over a scan of lj_outer in %v", ops)
			}
			requests, items := logged(e, tc.inner...)
			if join.Rows != int64(tc.wantRows) || join.StoreRequests != requests || join.ItemsRead != items ||
				requests == 0 || items == 0 {
				t.Errorf("lookup join: rows=%d requests=%d items=%d; want rows=%d, and the log's %d requests, %d items (> 0)",
					join.Rows, join.StoreRequests, join.ItemsRead, tc.wantRows, requests, items)
			}
			requests, items = logged(e, "lj_outer")
			if scan.Rows != ljOuterRows || scan.StoreRequests != requests || scan.ItemsRead != items || requests == 0 {
				t.Errorf("outer scan: rows=%d requests=%d items=%d; want rows=%d, and the log's %d requests, %d items",
					scan.Rows, scan.StoreRequests, scan.ItemsRead, ljOuterRows, requests, items)
			}
			// Operators above the join read nothing from the store themselves.
			for _, op := range ops {
				if op != join && op != scan && (op.StoreRequests != 0 || op.ItemsRead != 0) {
					t.Errorf("%s: %d requests, %d items", op.Operator, op.StoreRequests, op.ItemsRead)
				}
			}
			// Nothing else was read.
			all, _ := logged(e, "lj_outer", "lj_point", "lj_series", "lj_tagged", "lj_tagged_by_k")
			if n := int64(len(e.log.Entries())); n != all {
				t.Errorf("%d requests logged, %d of them on the join's tables", n, all)
			}
		})
	}
}
