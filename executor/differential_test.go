package executor_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
)

var (
	diffSeed    = flag.Uint64("diff.seed", 20240601, "seed of the differential test's data and queries")
	diffQueries = flag.Int("diff.queries", 300, "random queries the differential test runs")
	diffRows    = flag.Int("diff.rows", 2000, "rows the differential test loads")
)

// The differential test (issue 5): the same rows are loaded into readings
// (primary key, a btree index and a Z-order index, 4 shards) and into
// plain (the same columns keyed by a synthetic rid, no index, so every
// query on it is a full scan with the whole WHERE as residual). Random
// queries run against readings as the rules plan them, and again with
// USE_INDEX(readings, by_note) forcing a full index scan (every fifth
// query); both must return what plain returns. Rows compare as sorted
// multisets, floats with a relative tolerance (sums add in plan-dependent
// order), and ORDER BY ... LIMIT by sort keys with ties free to differ.

const plainDDL = `CREATE TABLE plain (
  sensor_id BIGINT NOT NULL,
  ts        TIMESTAMP NOT NULL,
  celsius   DOUBLE PRECISION,
  lat       DOUBLE PRECISION,
  lon       DOUBLE PRECISION,
  note      TEXT,
  rid       BIGINT PRIMARY KEY
) WITH (shards = 3)`

func TestDifferentialIndexesVersusFullScan(t *testing.T) {
	start := time.Now()
	e := newEnv(t, append([]string{readingsDDL, plainDDL}, readingsIndexes...)...)
	rng := rand.New(rand.NewPCG(*diffSeed, 7))
	rows := genReadings(rng, *diffRows, 20)
	for _, ins := range insertSQL("readings", rows) {
		e.mustExec(ins)
	}
	plain := make([][]string, len(rows))
	for i, r := range rows {
		plain[i] = append(append([]string(nil), r...), strconv.Itoa(i))
	}
	for _, ins := range insertSQL("plain", plain) {
		e.mustExec(ins)
	}
	loaded := time.Since(start)

	g := &queryGen{rng: rng, rows: rows}
	plans := map[string]int{}
	mismatches := 0
	for i := 0; i < *diffQueries && mismatches < 10; i++ {
		q := g.query()
		want, _, err := e.query(q.render("plain", ""))
		if err != nil {
			t.Fatalf("baseline %s: %v", q.render("plain", ""), err)
		}
		hints := []string{""}
		if i%5 == 0 {
			// A full scan of by_note with a lookup per entry is slow; a
			// quarter of the queries are enough to check every row has its
			// entry.
			hints = append(hints, "/*+ USE_INDEX(readings, by_note) */ ")
		}
		for _, hint := range hints {
			e.log.Reset() // the log is not needed here; keep memory flat
			sql := q.render("readings", hint)
			got, _, err := e.query(sql)
			if err != nil {
				t.Errorf("%s: %v", sql, err)
				mismatches++
				continue
			}
			if msg := q.compare(got, want); msg != "" {
				mismatches++
				t.Errorf("mismatch (seed %d, query %d):\n  %s\nvs %s\n%s", *diffSeed, i, sql, q.render("plain", ""), msg)
			}
			if hint == "" {
				plan, _, _ := e.query("EXPLAIN " + sql)
				for _, l := range plan {
					if strings.Contains(l, "Scan readings via") {
						plans[l[strings.Index(l, "via ")+4:]]++
					}
				}
			}
		}
	}
	var ps []string
	for p, n := range plans {
		ps = append(ps, fmt.Sprintf("%d× %s", n, p))
	}
	sort.Strings(ps)
	t.Logf("%d rows loaded in %v; %d queries in %v; access paths: %s", len(rows), loaded.Round(time.Millisecond), *diffQueries, (time.Since(start) - loaded).Round(time.Millisecond), strings.Join(ps, ", "))
	for _, must := range []string{"primary key: point get", "primary key: range scan", "btree index by_note: range scan", "zorder index by_place: z-order skip-scan", "primary key: full scan"} {
		found := false
		for p := range plans {
			found = found || strings.HasPrefix(p, must)
		}
		if !found {
			t.Errorf("no query used %q: the generator lost coverage", must)
		}
	}
}

// TestDifferentialCatchesAMissingEntry checks the comparison can fail: with
// one Z-order entry deleted behind the engine's back, a box around its row
// must differ from the full scan.
func TestDifferentialCatchesAMissingEntry(t *testing.T) {
	e := newEnv(t, append([]string{readingsDDL, plainDDL}, readingsIndexes...)...)
	rows := genReadings(rand.New(rand.NewPCG(3, 4)), 200, 5)
	plain := make([][]string, len(rows))
	for i, r := range rows {
		plain[i] = append(append([]string(nil), r...), strconv.Itoa(i))
	}
	e.mustExec(insertSQL("readings", rows)[0])
	e.mustExec(insertSQL("plain", plain)[0])
	tb := e.table("readings")
	victim := rows[0]
	for _, r := range rows {
		if r[3] != null {
			victim = r
			break
		}
	}
	ix := tb.Index("by_place")
	if err := e.log.Inner().Write(e.ctx, kv.Batch{Atomic: true, Ops: []kv.Op{{Kind: kv.OpDelete, Key: tb.EntryKey(ix, values(tb, victim))}}}); err != nil {
		t.Fatal(err)
	}
	q := &query{sel: "sensor_id, ts", limit: -1, where: fmt.Sprintf("lat BETWEEN %s AND %s AND lon BETWEEN %s AND %s", victim[3], victim[3], victim[4], victim[4])}
	got := e.mustQuery(q.render("readings", ""))
	want := e.mustQuery(q.render("plain", ""))
	if msg := q.compare(got, want); msg == "" {
		t.Fatalf("no difference found: got %v, want %v", got, want)
	}
}

// query is one generated SELECT, kept as parts so it renders against
// either table.
type query struct {
	sel     string // select list
	where   string
	groupBy string
	having  string
	orderBy string
	// orderCols is how many leading select-list columns are the ORDER BY
	// key (they are placed first for the comparison).
	orderCols     int
	limit, offset int // limit < 0: none
	distinct      bool
}

func (q *query) render(table, hint string) string {
	var b strings.Builder
	b.WriteString("SELECT " + hint)
	if q.distinct {
		b.WriteString("DISTINCT ")
	}
	b.WriteString(q.sel + " FROM " + table)
	if q.where != "" {
		b.WriteString(" WHERE " + q.where)
	}
	if q.groupBy != "" {
		b.WriteString(" GROUP BY " + q.groupBy)
	}
	if q.having != "" {
		b.WriteString(" HAVING " + q.having)
	}
	if q.orderBy != "" {
		b.WriteString(" ORDER BY " + q.orderBy)
	}
	if q.limit >= 0 && table == "readings" {
		fmt.Fprintf(&b, " LIMIT %d", q.limit)
		if q.offset > 0 {
			fmt.Fprintf(&b, " OFFSET %d", q.offset)
		}
	}
	return b.String()
}

// compare checks got (readings, with LIMIT) against want (plain, without
// LIMIT). Without ORDER BY rows compare as sorted multisets. With ORDER BY
// the sequence of sort keys must match want's window exactly, and rows may
// differ only in which of the tied rows at the window's edges were kept.
func (q *query) compare(got, want []string) string {
	if q.orderBy == "" {
		if q.limit >= 0 {
			// LIMIT without ORDER BY: any subset of the right size.
			n := max(0, min(q.limit, len(want)-q.offset))
			if len(got) != n {
				return fmt.Sprintf("LIMIT %d OFFSET %d: %d rows, want %d", q.limit, q.offset, len(got), n)
			}
			return subset(got, want)
		}
		sort.Strings(got)
		sort.Strings(want)
		return sameRows(got, want)
	}
	window := want
	if q.limit >= 0 {
		lo := min(q.offset, len(want))
		hi := min(lo+q.limit, len(want))
		window = want[lo:hi]
	}
	if len(got) != len(window) {
		return fmt.Sprintf("%d rows, want %d\n got: %s\nwant: %s", len(got), len(window), head(got), head(window))
	}
	key := func(r string) string { return strings.Join(strings.Split(r, "|")[:q.orderCols], "|") }
	for i := range got {
		if key(got[i]) != key(window[i]) {
			return fmt.Sprintf("row %d has sort key %q, want %q\n got: %s\nwant: %s", i, key(got[i]), key(window[i]), head(got), head(window))
		}
	}
	// Rows tied with the window's edges may be any of the tied rows.
	groups := map[string][]string{}
	for _, r := range want {
		groups[key(r)] = append(groups[key(r)], r)
	}
	gotGroups := map[string][]string{}
	for _, r := range got {
		gotGroups[key(r)] = append(gotGroups[key(r)], r)
	}
	for k, rs := range gotGroups {
		if msg := subset(rs, groups[k]); msg != "" {
			return fmt.Sprintf("sort key %q: %s", k, msg)
		}
	}
	return ""
}

func head(rows []string) string {
	if len(rows) > 8 {
		return strings.Join(rows[:8], "  ") + fmt.Sprintf("  ... (%d rows)", len(rows))
	}
	return strings.Join(rows, "  ")
}

func sameRows(got, want []string) string {
	if len(got) == len(want) {
		same := true
		for i := range got {
			same = same && sameRow(got[i], want[i])
		}
		if same {
			return ""
		}
	}
	missing, extra := multisetDiff(want, got), multisetDiff(got, want)
	return fmt.Sprintf("%d rows, want %d; missing %s; unexpected %s", len(got), len(want), head(missing), head(extra))
}

// subset reports rows of got not available in want (as multisets).
func subset(got, want []string) string {
	if extra := multisetDiff(got, want); len(extra) > 0 {
		return "rows not in the full-scan result: " + head(extra)
	}
	return ""
}

// multisetDiff returns a minus b.
func multisetDiff(a, b []string) []string {
	n := map[string]int{}
	for _, r := range b {
		n[r]++
	}
	var out []string
	for _, r := range a {
		if n[r] > 0 {
			n[r]--
		} else {
			out = append(out, r)
		}
	}
	return out
}

// sameRow compares two rows cell by cell, floats with a tolerance of 1e-9,
// relative above 1 and absolute below (where cancellation leaves residue):
// sums and averages add in plan-dependent order.
func sameRow(a, b string) bool {
	if a == b {
		return true
	}
	ac, bc := strings.Split(a, "|"), strings.Split(b, "|")
	if len(ac) != len(bc) {
		return false
	}
	for i := range ac {
		if ac[i] == bc[i] {
			continue
		}
		x, errX := strconv.ParseFloat(ac[i], 64)
		y, errY := strconv.ParseFloat(bc[i], 64)
		if errX != nil || errY != nil || math.Abs(x-y) > 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y))) {
			return false
		}
	}
	return true
}

// queryGen makes random queries over the readings columns, with constants
// drawn from the data (so they hit) or near it (so they miss).
type queryGen struct {
	rng  *rand.Rand
	rows [][]string
}

func (g *queryGen) pick(col int) string {
	for {
		v := g.rows[g.rng.IntN(len(g.rows))][col]
		if v != null {
			return v
		}
	}
}

func (g *queryGen) sensor() string {
	if g.rng.IntN(10) == 0 {
		return strconv.Itoa(21 + g.rng.IntN(3)) // no such sensor
	}
	return strconv.Itoa(1 + g.rng.IntN(20))
}

func (g *queryGen) ts() string {
	if g.rng.IntN(4) == 0 {
		// Off the hourly grid.
		return "'" + baseTime.Add(time.Duration(g.rng.IntN(61*24*60))*time.Minute).Format("2006-01-02 15:04:05") + "'"
	}
	return "'" + g.pick(1) + "'"
}

func (g *queryGen) num(col int, lo, hi float64) string {
	if g.rng.IntN(3) == 0 {
		return g.pick(col)
	}
	return strconv.FormatFloat(lo+g.rng.Float64()*(hi-lo), 'f', 3, 64)
}

func (g *queryGen) lat() string { return g.num(3, 39.9, 42.1) }
func (g *queryGen) lon() string { return g.num(4, -75.1, -72.9) }

func (g *queryGen) note() string {
	notes := []string{"ok", "hot", "cold", "over", "overheat", "check", "o", "", "missing", "ov"}
	return "'" + notes[g.rng.IntN(len(notes))] + "'"
}

func (g *queryGen) ordered(a, b string) (string, string) {
	fa, _ := strconv.ParseFloat(strings.Trim(a, "'"), 64)
	fb, _ := strconv.ParseFloat(strings.Trim(b, "'"), 64)
	if strings.HasPrefix(a, "'") {
		if a > b {
			return b, a
		}
		return a, b
	}
	if fa > fb {
		return b, a
	}
	return a, b
}

// predicate returns one random conjunct.
func (g *queryGen) predicate() string {
	r := g.rng
	cmp := []string{"=", "<", "<=", ">", ">="}[r.IntN(5)]
	switch r.IntN(26) {
	case 0:
		return "sensor_id = " + g.sensor()
	case 1:
		return fmt.Sprintf("sensor_id IN (%s, %s, %s)", g.sensor(), g.sensor(), g.sensor())
	case 2:
		return fmt.Sprintf("sensor_id %s %s", cmp, g.sensor())
	case 3:
		return fmt.Sprintf("ts %s %s", cmp, g.ts())
	case 4:
		a, b := g.ordered(g.ts(), g.ts())
		return fmt.Sprintf("ts BETWEEN %s AND %s", a, b)
	case 5:
		return fmt.Sprintf("(ts < %s OR ts >= %s)", g.ts(), g.ts())
	case 6:
		return "note = " + g.note()
	case 7:
		return fmt.Sprintf("note IN (%s, %s)", g.note(), g.note())
	case 8:
		return fmt.Sprintf("note %s %s", cmp, g.note())
	case 9:
		return "note LIKE '" + []string{"o%", "ov%", "over%", "c%d", "%t", "h_t", "o"}[r.IntN(7)] + "'"
	case 10:
		return []string{"note IS NULL", "note IS NOT NULL", "celsius IS NULL", "lat IS NULL"}[r.IntN(4)]
	case 11, 12:
		a, b := g.ordered(g.lat(), g.lat())
		return fmt.Sprintf("lat BETWEEN %s AND %s", a, b)
	case 13, 14:
		a, b := g.ordered(g.lon(), g.lon())
		return fmt.Sprintf("lon BETWEEN %s AND %s", a, b)
	case 15:
		return fmt.Sprintf("lat %s %s", cmp, g.lat())
	case 16:
		return fmt.Sprintf("lon %s %s", cmp, g.lon())
	case 17:
		return fmt.Sprintf("celsius %s %s", cmp, g.num(2, -10, 50))
	case 18:
		return fmt.Sprintf("(sensor_id = %s OR sensor_id = %s)", g.sensor(), g.sensor())
	case 19:
		return fmt.Sprintf("(note = %s OR celsius > %s)", g.note(), g.num(2, -10, 50))
	case 20:
		return fmt.Sprintf("lat IN (%s, %s)", g.pick(3), g.pick(3))
	case 21:
		return fmt.Sprintf("NOT (lat > %s)", g.lat())
	case 22:
		// Integer literals against float columns, a float against the
		// integer key, a date-only timestamp.
		return []string{
			fmt.Sprintf("lat %s %d", cmp, 40+r.IntN(3)),
			fmt.Sprintf("lon %s %d", cmp, -75+r.IntN(3)),
			fmt.Sprintf("sensor_id %s %d.5", cmp, r.IntN(21)),
			fmt.Sprintf("ts %s '2024-01-%02d'", cmp, 1+r.IntN(28)),
		}[r.IntN(4)]
	case 23:
		return fmt.Sprintf("sensor_id IN (%s, %s) AND ts IN (%s, %s, %s)", g.sensor(), g.sensor(), g.ts(), g.ts(), g.ts())
	case 24:
		a, b := g.ordered(g.note(), g.note())
		return fmt.Sprintf("note BETWEEN %s AND %s", a, b)
	default:
		return fmt.Sprintf("(lat < %s OR lat > %s)", g.lat(), g.lat())
	}
}

func (g *queryGen) where() string {
	r := g.rng
	switch r.IntN(8) {
	case 0: // point get
		row := g.rows[r.IntN(len(g.rows))]
		return fmt.Sprintf("sensor_id = %s AND ts = '%s'", row[0], row[1])
	case 1: // a 2- or 3-attribute box
		la, lb := g.ordered(g.lat(), g.lat())
		oa, ob := g.ordered(g.lon(), g.lon())
		w := fmt.Sprintf("lat BETWEEN %s AND %s AND lon BETWEEN %s AND %s", la, lb, oa, ob)
		if r.IntN(2) == 0 {
			ta, tb := g.ordered(g.ts(), g.ts())
			w += fmt.Sprintf(" AND ts >= %s AND ts < %s", ta, tb)
		}
		return w
	case 2: // key prefix and a range
		return fmt.Sprintf("sensor_id = %s AND ts >= %s", g.sensor(), g.ts())
	}
	n := r.IntN(3) + 1
	ps := make([]string, n)
	for i := range ps {
		ps[i] = g.predicate()
	}
	return strings.Join(ps, " AND ")
}

func (g *queryGen) query() *query {
	r := g.rng
	q := &query{where: g.where(), limit: -1}
	const all = "sensor_id, ts, celsius, lat, lon, note"
	switch r.IntN(10) {
	case 0, 1, 2, 3:
		q.sel = all
	case 4: // aggregates with GROUP BY
		group := []string{"note", "sensor_id", "note, sensor_id"}[r.IntN(3)]
		q.sel = group + ", count(*), count(celsius), sum(celsius), min(lat), max(ts), avg(celsius)"
		q.groupBy = group
		if r.IntN(2) == 0 {
			q.having = "count(*) > 1"
		}
	case 5: // global aggregates
		q.sel = "count(*), sum(celsius), min(ts), max(note), avg(lon)"
	case 6:
		q.sel = "note"
		q.distinct = true
	default: // ORDER BY ... LIMIT
		keys := []struct{ order, sel string }{
			{"ts DESC", "ts"},
			{"ts", "ts"},
			{"sensor_id, ts DESC", "sensor_id, ts"},
			{"sensor_id DESC, ts", "sensor_id, ts"},
			{"celsius DESC", "celsius"},
			{"note, ts", "note, ts"},
			{"lat", "lat"},
		}
		k := keys[r.IntN(len(keys))]
		q.orderBy = k.order
		q.orderCols = strings.Count(k.sel, ",") + 1
		q.sel = k.sel + ", " + all
		q.limit = []int{1, 5, 20, 100}[r.IntN(4)]
		if r.IntN(3) == 0 {
			q.offset = r.IntN(10)
		}
		if r.IntN(4) == 0 {
			q.where = fmt.Sprintf("sensor_id = %s", g.sensor())
		}
	}
	if q.orderBy == "" && r.IntN(8) == 0 && q.groupBy == "" && !strings.HasPrefix(q.sel, "count") {
		q.limit = r.IntN(10)
	}
	return q
}
