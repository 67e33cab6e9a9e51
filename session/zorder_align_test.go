package session_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zproxy/zproxy/wire"
)

// TestAlignedZOrderReadsLess checks what WITH (align = 'data') is for: on
// readings whose attributes span very different shares of their code spaces
// (lat and lon floats in a one-degree square, ts in 30 days of
// microseconds), cubes of the data read the same rows through an aligned
// index, the default layout and a full scan, and the aligned index reads
// far fewer items to find them. A hypothetical index aligned from ANALYZE's
// extremes gets the same leads as the one built from the rows.
func TestAlignedZOrderReadsLess(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE readings (id bigint PRIMARY KEY, lat float8, lon float8, ts timestamp NOT NULL)`)
	rng := rand.New(rand.NewPCG(16, 16))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	const rows, span = 10000, 30 * 24 * time.Hour
	for start := 0; start < rows; start += 1000 {
		var vals []string
		for id := start; id < start+1000; id++ {
			ts := base.Add(time.Duration(rng.Int64N(int64(span))))
			vals = append(vals, fmt.Sprintf("(%d, %.6f, %.6f, '%s')", id, 40+rng.Float64(), -74.5+rng.Float64(), ts.Format("2006-01-02 15:04:05.999999")))
		}
		mustExec(t, sess, `INSERT INTO readings VALUES `+strings.Join(vals, ", "))
	}
	mustExec(t, sess, `CREATE INDEX plain ON readings USING zorder (lat, lon, ts)`)
	mustExec(t, sess, `CREATE INDEX aligned ON readings USING zorder (lat, lon, ts) WITH (align = 'data')`)
	def := mustExec(t, sess, `SELECT pg_get_indexdef('aligned'::regclass)`)[0]
	leads := regexp.MustCompile(`WITH \(leads='(\d+,\d+,\d+)'\)$`).FindStringSubmatch(def)
	if leads == nil {
		t.Fatalf("aligned index without leads: %s", def)
	}

	var items [2]int
	for q := 0; q < 20; q++ {
		// A cube of a fifth of each attribute's span: 0.8% of the rows.
		lat, lon := 40+rng.Float64()*0.8, -74.5+rng.Float64()*0.8
		from := base.Add(time.Duration(rng.Int64N(int64(span * 4 / 5))))
		where := fmt.Sprintf(`lat BETWEEN %.4f AND %.4f AND lon BETWEEN %.4f AND %.4f AND ts >= '%s' AND ts < '%s'`,
			lat, lat+0.2, lon, lon+0.2, from.Format(time.DateTime), from.Add(span/5).Format(time.DateTime))
		want := mustExec(t, sess, `SELECT /*+ IGNORE_INDEX(readings, plain, aligned) */ count(*), sum(id) FROM readings WHERE `+where)[0]
		for i, ix := range []string{"plain", "aligned"} {
			sql := fmt.Sprintf(`SELECT /*+ USE_INDEX(readings, %s) */ count(*), sum(id) FROM readings WHERE %s`, ix, where)
			if got := mustExec(t, sess, sql)[0]; got != want {
				t.Fatalf("%s: %s, a full scan %s", sql, got, want)
			}
			n, plan := itemsRead(t, sess, `EXPLAIN ANALYZE `+sql)
			if !strings.Contains(plan, "via zorder index "+ix) {
				t.Fatalf("the hint to %s was not followed:\n%s", ix, plan)
			}
			if shown := strings.Contains(plan, "-bit addresses, leads "+strings.ReplaceAll(leads[1], "'", "")); shown != (ix == "aligned") {
				t.Fatalf("EXPLAIN of %s shows leads: %v\n%s", ix, shown, plan)
			}
			items[i] += n
		}
	}
	t.Logf("items read by 20 cubes: %d with the default layout, %d aligned (leads %s)", items[0], items[1], leads[1])
	if items[1]*3 > items[0]*2 {
		t.Errorf("the aligned index read %d items, the default layout %d: not a third fewer", items[1], items[0])
	}

	mustExec(t, sess, `ANALYZE readings`)
	mustExec(t, sess, `SELECT zproxy_hypothetical_index('CREATE INDEX ON readings USING zorder (lat, lon, ts) WITH (align = ''data'')')`)
	hypo := mustExec(t, sess, `SELECT definition FROM zproxy_hypothetical_indexes`)
	if len(hypo) != 1 || !strings.HasSuffix(hypo[0], fmt.Sprintf("WITH (leads = '%s')", leads[1])) {
		t.Errorf("hypothetical aligned index %q, want the leads %s of the built one", hypo, leads[1])
	}
}

var executionItems = regexp.MustCompile(`(?m)^Execution: .*?(\d+) items read`)

// itemsRead runs an EXPLAIN ANALYZE and returns the statement's items read
// and the plan's text.
func itemsRead(t *testing.T, sess wire.Session, sql string) (int, string) {
	t.Helper()
	plan := strings.Join(mustExec(t, sess, sql), "\n")
	m := executionItems.FindStringSubmatch(plan)
	if m == nil {
		t.Fatalf("no items read in:\n%s", plan)
	}
	n, _ := strconv.Atoi(m[1])
	return n, plan
}
