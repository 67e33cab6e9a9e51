package executor_test

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/kv/kvlog"
)

// These tests assert the exact store requests plans make, through the
// request log of package kvlog. Expected keys are computed with the
// catalog's encoders from the generated rows, never copied from output.

func readingsEnv(t *testing.T, n int) (*env, *catalog.Table, [][]string) {
	e := newEnv(t, append([]string{readingsDDL}, readingsIndexes...)...)
	rows := genReadings(rand.New(rand.NewPCG(1, 2)), n, 10)
	for _, ins := range insertSQL("readings", rows) {
		e.mustExec(ins)
	}
	e.log.Reset()
	return e, e.table("readings"), rows
}

func hexOf(b []byte) string {
	if len(b) == 0 {
		return "-inf"
	}
	return fmt.Sprintf("0x%x", b)
}

func col(tb *catalog.Table, name string) int { return tb.ColumnIndex(name) }

func checkLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: requests\n  %s\nwant\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestPointGetIsOneGetOnOneShard(t *testing.T) {
	e, tb, rows := readingsEnv(t, 400)
	r := rows[17]
	key := tb.RowKey(values(tb, r))
	got := e.mustQuery(fmt.Sprintf("SELECT celsius FROM readings WHERE sensor_id = %s AND ts = '%s'", r[0], r[1]))
	if len(got) != 1 || got[0] != r[2] {
		t.Errorf("rows %v, want [%s]", got, r[2])
	}
	want := fmt.Sprintf("get %s %s found", e.partitionName(key.Partition), hexOf(key.Sort))
	checkLines(t, "point get", e.log.Lines(), []string{want})

	// A key that does not exist: the same single request, nothing returned.
	e.log.Reset()
	got = e.mustQuery("SELECT celsius FROM readings WHERE sensor_id = 99 AND ts = '2024-01-01 00:00:00'")
	missing := tb.RowKey(values(tb, []string{"99", "2024-01-01 00:00:00", null, null, null, null}))
	checkLines(t, "missing key", e.log.Lines(), []string{fmt.Sprintf("get %s %s missing", e.partitionName(missing.Partition), hexOf(missing.Sort))})
	if len(got) != 0 {
		t.Errorf("missing key returned %v", got)
	}
}

// perShard counts, for each shard, the rows keep accepts.
func perShard(tb *catalog.Table, rows [][]string, keep func([]sqltypes.Value) bool) map[int]int {
	out := map[int]int{}
	for _, r := range rows {
		v := values(tb, r)
		if keep(v) {
			out[catalog.ShardOf(tb.EncodePK(nil, v), tb.Shards)]++
		}
	}
	return out
}

func TestPrefixRangeScansEveryShardWithOneRange(t *testing.T) {
	e, tb, rows := readingsEnv(t, 400)
	got := e.mustQuery("SELECT ts FROM readings WHERE sensor_id = 3")
	start := catalog.AppendKeyValue(nil, sqltypes.NewInt(3), false)
	counts := perShard(tb, rows, func(v []sqltypes.Value) bool { return v[0].I == 3 })
	var want []string
	total := 0
	for sh := 0; sh < tb.Shards; sh++ {
		want = append(want, fmt.Sprintf("scan readings/%d [%s, %s): %d item%s", sh, hexOf(start), hexOf(kv.PrefixEnd(start)), counts[sh], plural(counts[sh])))
		total += counts[sh]
	}
	checkLines(t, "prefix range", e.log.Lines(), want)
	if len(got) != total || total == 0 {
		t.Errorf("%d rows, want %d (> 0)", len(got), total)
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func TestInListRanges(t *testing.T) {
	e, tb, rows := readingsEnv(t, 400)
	from := "2024-01-20 00:00:00"
	fromV, _ := sqltypes.ParseText(tb.Columns[col(tb, "ts")].Type, from)
	got := e.mustQuery(fmt.Sprintf("SELECT ts FROM readings WHERE sensor_id IN (9, 3) AND ts >= '%s'", from))
	var want []string
	total := 0
	for _, sensor := range []int64{3, 9} {
		p := catalog.AppendKeyValue(nil, sqltypes.NewInt(sensor), false)
		// ts is DESC in the key: the range runs from the sensor's newest
		// entry to just past the lower bound.
		end := kv.PrefixEnd(catalog.AppendKeyValue(append([]byte(nil), p...), fromV, true))
		counts := perShard(tb, rows, func(v []sqltypes.Value) bool {
			return v[0].I == sensor && sqltypes.Compare(v[1], fromV) >= 0
		})
		for sh := 0; sh < tb.Shards; sh++ {
			want = append(want, fmt.Sprintf("scan readings/%d [%s, %s): %d item%s", sh, hexOf(p), hexOf(end), counts[sh], plural(counts[sh])))
			total += counts[sh]
		}
	}
	checkLines(t, "IN list then range", e.log.Lines(), want)
	if len(got) != total {
		t.Errorf("%d rows, want %d", len(got), total)
	}

	// An IN list over the whole key of a sharded table: one batched Get
	// whose keys sit on their own shards.
	e.log.Reset()
	var wantGets []string
	for _, r := range rows[:3] {
		k := tb.RowKey(values(tb, r))
		wantGets = append(wantGets, fmt.Sprintf("get %s %s found", e.partitionName(k.Partition), hexOf(k.Sort)))
	}
	got = e.mustQuery(fmt.Sprintf("SELECT celsius FROM readings WHERE sensor_id IN (%s, %s, %s) AND ts IN ('%s', '%s', '%s')",
		rows[0][0], rows[1][0], rows[2][0], rows[0][1], rows[1][1], rows[2][1]))
	entries := e.log.Entries()
	if len(entries) != 1 || entries[0].Op != kvlog.OpGet {
		t.Fatalf("want one Get, got %v", e.log.Lines())
	}
	// The cross product asks for up to 9 keys; the 3 real rows are among
	// them and found.
	lines := strings.Split(e.log.Lines()[0], "\n")
	for _, w := range wantGets {
		found := false
		for _, l := range lines {
			found = found || l == w
		}
		if !found {
			t.Errorf("Get lacks %q:\n%s", w, strings.Join(lines, "\n"))
		}
	}
	if len(entries[0].Keys) > 9 || len(got) < 3 {
		t.Errorf("%d keys asked, %d rows", len(entries[0].Keys), len(got))
	}
}

func TestOrderByLimitStopsEarly(t *testing.T) {
	e, tb, rows := readingsEnv(t, 1200)
	var all []string
	for _, r := range rows {
		if r[0] == "3" {
			all = append(all, r[1])
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(all))) // timestamps sort as text
	for _, tc := range []struct {
		sql     string
		want    []string
		reverse bool
	}{
		{"SELECT ts FROM readings WHERE sensor_id = 3 ORDER BY ts DESC LIMIT 5", all[:5], false},
		{"SELECT ts FROM readings WHERE sensor_id = 3 ORDER BY ts LIMIT 5", reversed(all)[:5], true},
		{"SELECT ts FROM readings WHERE sensor_id = 3 ORDER BY ts DESC LIMIT 3 OFFSET 4", all[4:7], false},
	} {
		e.log.Reset()
		got := e.mustQuery(tc.sql)
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s:\n got %v\nwant %v", tc.sql, got, tc.want)
		}
		entries := e.log.Entries()
		if len(entries) != tb.Shards {
			t.Fatalf("%s: %d requests, want %d scans:\n%s", tc.sql, len(entries), tb.Shards, strings.Join(e.log.Lines(), "\n"))
		}
		limit := 5
		if strings.Contains(tc.sql, "OFFSET") {
			limit = 7
		}
		read := 0
		for _, en := range entries {
			if en.Op != kvlog.OpScan || en.Scan.Limit != limit || en.Scan.Reverse != tc.reverse {
				t.Errorf("%s: %s, want a scan with limit=%d reverse=%v", tc.sql, e.log.Format(&en), limit, tc.reverse)
			}
			if en.Items > limit {
				t.Errorf("%s: a shard read %d items, more than the limit %d", tc.sql, en.Items, limit)
			}
			read += en.Items
		}
		if len(all) <= 4*limit || read > tb.Shards*limit {
			t.Errorf("%s: read %d of %d rows", tc.sql, read, len(all))
		}
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[len(s)-1-i] = x
	}
	return out
}

func TestNonCoveringIndexLooksUpRowsInBatches(t *testing.T) {
	e, _, rows := readingsEnv(t, 2000)
	got := e.mustQuery("SELECT lat FROM readings WHERE note = 'hot'")
	want := 0
	for _, r := range rows {
		if r[5] == "hot" {
			want++
		}
	}
	if len(got) != want || want < 100 {
		t.Fatalf("%d rows, want %d (>= 100 to need several batches)", len(got), want)
	}
	scanned, keys, gets, wantGets := 0, 0, 0, 0
	for _, en := range e.log.Entries() {
		switch en.Op {
		case kvlog.OpScan:
			if !strings.HasPrefix(en.Partitions[0], "by_note/") {
				t.Errorf("scan of %v, want by_note", en.Partitions)
			}
			scanned += en.Items
			wantGets += (en.Items + 63) / 64
		case kvlog.OpGet:
			gets++
			keys += len(en.Keys)
			if len(en.Keys) > 64 {
				t.Errorf("a lookup Get of %d keys, want at most 64", len(en.Keys))
			}
			for i, k := range en.Keys {
				if !en.Found[i] || !strings.HasPrefix(e.partitionName(k.Partition), "readings/") {
					t.Errorf("lookup of %s: found=%v", e.partitionName(k.Partition), en.Found[i])
				}
			}
		default:
			t.Errorf("unexpected %s", en.Op)
		}
	}
	if scanned != want || keys != want || gets != wantGets {
		t.Errorf("scanned %d entries, looked up %d keys in %d Gets; want %d, %d, %d", scanned, keys, gets, want, want, wantGets)
	}
}

func TestZOrderSkipScanSeeks(t *testing.T) {
	e, tb, rows := readingsEnv(t, 3000)
	sql := "SELECT sensor_id, ts FROM readings WHERE lat BETWEEN 40.5 AND 40.9 AND lon BETWEEN -74.6 AND -74.2 AND ts >= '2024-01-10' AND ts < '2024-01-30'"
	got := e.mustQuery(sql)
	lo, _ := sqltypes.ParseText(tb.Columns[1].Type, "2024-01-10 00:00:00")
	hi, _ := sqltypes.ParseText(tb.Columns[1].Type, "2024-01-30 00:00:00")
	want := 0
	for _, r := range rows {
		v := values(tb, r)
		if v[3].IsNull() || v[4].IsNull() {
			continue
		}
		if v[3].F >= 40.5 && v[3].F <= 40.9 && v[4].F >= -74.6 && v[4].F <= -74.2 && sqltypes.Compare(v[1], lo) >= 0 && sqltypes.Compare(v[1], hi) < 0 {
			want++
		}
	}
	if len(got) != want || want == 0 {
		t.Fatalf("%d rows, want %d (> 0)", len(got), want)
	}
	items, seeks, scans := 0, 0, 0
	for _, en := range e.log.Entries() {
		if en.Op != kvlog.OpScan || !strings.HasPrefix(en.Partitions[0], "by_place/") {
			t.Fatalf("unexpected request %s", e.log.Format(&en))
		}
		scans++
		items += en.Items
		seeks += len(en.Seeks)
	}
	if seeks == 0 {
		t.Error("the skip-scan never sought")
	}
	// Out-of-box entries are read when the step judges one (then the
	// skip-scan steps up to a few entries towards the next
	// in-box address, cheaper than a seek, before it seeks) or when a
	// range ends: the box's part of the index is read, never the index.
	if items*4 > len(rows) {
		t.Errorf("read %d items for %d rows with %d seeks over %d scans, of an index of %d entries", items, want, seeks, scans, len(rows))
	}
	t.Logf("box: %d rows, %d items read (%.2f per row), %d seeks, %d scans; full table %d rows",
		want, items, float64(items)/float64(want), seeks, scans, len(rows))
}

func TestInsertWritesRowAndEntriesAtomically(t *testing.T) {
	e, tb, _ := readingsEnv(t, 50)
	r := []string{"42", "2025-05-05 05:00:00", "21.5", "40.75", "-73.98", "fresh"}
	e.mustExec(insertSQL("readings", [][]string{r})[0])
	v := values(tb, r)
	ops := []kv.Op{{Kind: kv.OpPut, Key: tb.RowKey(v), Attrs: tb.RowAttrs(v, 1), Cond: kv.CondNotExists}}
	for _, ix := range tb.Indexes {
		ops = append(ops, kv.Op{Kind: kv.OpPut, Key: tb.EntryKey(ix, v), Attrs: tb.EntryAttrs(ix, v)})
	}
	checkLines(t, "INSERT", e.log.Lines(), []string{writeLine(e, ops)})

	// Inserting the same key again fails the row's condition: nothing of
	// the batch is written.
	e.log.Reset()
	r2 := append([]string(nil), r...)
	r2[5] = "other"
	_, _, err := e.query(insertSQL("readings", [][]string{r2})[0])
	if pgerr.CodeOf(err) != pgerr.UniqueViolation {
		t.Fatalf("duplicate insert: %v, want 23505", err)
	}
	if got := e.mustQuery("SELECT note FROM readings WHERE note = 'other' OR note = 'fresh'"); strings.Join(got, ",") != "fresh" {
		t.Errorf("after the failed insert: %v", got)
	}
}

func writeLine(e *env, ops []kv.Op) string {
	var b strings.Builder
	b.WriteString("write atomic")
	for _, op := range ops {
		b.WriteString("\n  " + e.log.FormatOp(op))
	}
	return b.String()
}

const sensorsDDL = `CREATE TABLE sensors (id BIGINT PRIMARY KEY, name TEXT, region TEXT, kind TEXT) WITH (shards = 4)`

func sensorsEnv(t *testing.T) (*env, *catalog.Table) {
	e := newEnv(t, sensorsDDL,
		`CREATE INDEX by_region ON sensors (region)`,
		`CREATE INDEX by_region_kind ON sensors (region, kind)`,
		`CREATE INDEX by_name ON sensors (name)`)
	e.mustExec(`INSERT INTO sensors VALUES (1, 'a', 'eu', 'x'), (2, 'b', 'us', 'y'), (3, 'c', 'eu', 'y')`)
	e.log.Reset()
	return e, e.table("sensors")
}

func sensorRow(tb *catalog.Table, cells ...string) []sqltypes.Value {
	return values(tb, cells)
}

func TestUpdateOfIndexedColumnMovesEntriesInOneBatch(t *testing.T) {
	e, tb := sensorsEnv(t)
	e.mustExec(`UPDATE sensors SET region = 'ap' WHERE id = 3`)
	old := sensorRow(tb, "3", "c", "eu", "y")
	upd := sensorRow(tb, "3", "c", "ap", "y")
	k := tb.RowKey(old)
	// The row is read once, with its version, and replaced only if that
	// version is still current.
	version := kv.Attr{Name: catalog.VersionAttr, Kind: kv.AttrInt, I: 1}
	ops := []kv.Op{{Kind: kv.OpPut, Key: k, Attrs: tb.RowAttrs(upd, 2), Cond: kv.CondAttrEquals, CondAttr: version}}
	for _, ix := range tb.Indexes {
		if ix.Name == "by_name" {
			continue // its entry does not change: no op at all
		}
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: tb.EntryKey(ix, old)}, kv.Op{Kind: kv.OpPut, Key: tb.EntryKey(ix, upd), Attrs: tb.EntryAttrs(ix, upd)})
	}
	want := []string{
		fmt.Sprintf("get %s %s found", e.partitionName(k.Partition), hexOf(k.Sort)),
		writeLine(e, ops),
	}
	if got := e.log.Lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("UPDATE requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := e.mustQuery(`SELECT id FROM sensors WHERE region = 'ap'`); strings.Join(got, ",") != "3" {
		t.Errorf("by new region: %v", got)
	}
	if got := e.mustQuery(`SELECT id FROM sensors WHERE region = 'eu'`); strings.Join(got, ",") != "1" {
		t.Errorf("by old region: %v", got)
	}
}

func TestDeleteRemovesRowAndEntries(t *testing.T) {
	e, tb := sensorsEnv(t)
	e.mustExec(`DELETE FROM sensors WHERE id = 1`)
	old := sensorRow(tb, "1", "a", "eu", "x")
	k := tb.RowKey(old)
	version := kv.Attr{Name: catalog.VersionAttr, Kind: kv.AttrInt, I: 1}
	ops := []kv.Op{{Kind: kv.OpDelete, Key: k, Cond: kv.CondAttrEquals, CondAttr: version}}
	for _, ix := range tb.Indexes {
		ops = append(ops, kv.Op{Kind: kv.OpDelete, Key: tb.EntryKey(ix, old)})
	}
	want := []string{
		fmt.Sprintf("get %s %s found", e.partitionName(k.Partition), hexOf(k.Sort)),
		writeLine(e, ops),
	}
	if got := e.log.Lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("DELETE requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := e.mustQuery(`SELECT id FROM sensors WHERE region = 'eu'`); strings.Join(got, ",") != "3" {
		t.Errorf("after delete, region eu: %v", got)
	}
}

// TestNonCoveringIndexLimitStopsEarly: with a limit, a scan of a
// non-covering index looks up rows as soon as the entries read could meet
// it, and stops there, instead of reading a whole lookup batch.
func TestNonCoveringIndexLimitStopsEarly(t *testing.T) {
	e, tb, rows := readingsEnv(t, 2000)
	var hot [][]string
	for _, r := range rows {
		if r[5] == "hot" {
			hot = append(hot, r)
		}
	}
	sort.Slice(hot, func(i, j int) bool { return hot[i][1] < hot[j][1] }) // timestamps sort as text
	if len(hot) < 100 {
		t.Fatalf("%d hot rows, want >= 100", len(hot))
	}
	const limit = 5
	got := e.mustQuery(fmt.Sprintf("SELECT lat FROM readings WHERE note = 'hot' ORDER BY ts LIMIT %d", limit))
	var want []string
	for _, r := range hot[:limit] {
		want = append(want, r[3])
	}
	same := len(got) == len(want)
	for i := 0; same && i < len(got); i++ {
		g, _ := strconv.ParseFloat(got[i], 64)
		w, _ := strconv.ParseFloat(want[i], 64)
		same = g == w
	}
	if !same {
		t.Fatalf("got %v, want %v", got, want)
	}
	scanned, keys := 0, 0
	for _, en := range e.log.Entries() {
		switch en.Op {
		case kvlog.OpScan:
			scanned += en.Items
		case kvlog.OpGet:
			keys += len(en.Keys)
		}
	}
	if scanned > tb.Shards*limit || keys > tb.Shards*limit {
		t.Errorf("scanned %d entries and looked up %d rows for %d rows from %d shards:\n%s",
			scanned, keys, limit, tb.Shards, strings.Join(e.log.Lines(), "\n"))
	}
}
