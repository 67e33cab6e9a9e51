package session_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/pgerr"
)

// TestExplainWAL: EXPLAIN (ANALYZE, WAL) shows on every node PostgreSQL's
// WAL keys, mapped to the items a write hands to the store and their
// bytes (a node's including its inputs', FPI always 0), in the text
// format under the writing node; a read writes nothing; WAL without
// ANALYZE is PostgreSQL's 22023.
func TestExplainWAL(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE w (id int PRIMARY KEY, v text)`)
	mustExec(t, sess, `CREATE INDEX w_v ON w (v)`)
	doc := func(sql string) map[string]any {
		out := mustExec(t, sess, sql)
		var d []struct{ Plan map[string]any }
		if err := json.Unmarshal([]byte(strings.Join(out, "\n")), &d); err != nil {
			t.Fatalf("%v:\n%s", err, strings.Join(out, "\n"))
		}
		return d[0].Plan
	}
	// Ten rows, each a row item and an index entry.
	root := doc(`EXPLAIN (ANALYZE, WAL, FORMAT JSON) INSERT INTO w SELECT g, 'value ' || g FROM generate_series(1, 10) g`)
	if root["Node Type"] != "ModifyTable" || root["WAL Records"].(float64) != 20 || root["WAL FPI"].(float64) != 0 {
		t.Fatalf("the insert's WAL: %v", root)
	}
	if b := root["WAL Bytes"].(float64); b < 20*10 {
		t.Errorf("WAL Bytes %v for 20 items", b)
	}
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		for _, k := range []string{"WAL Records", "WAL FPI", "WAL Bytes"} {
			if _, ok := n[k].(float64); !ok {
				t.Errorf("a %v node without %q", n["Node Type"], k)
			}
		}
		kids, _ := n["Plans"].([]any)
		for _, k := range kids {
			walk(k.(map[string]any))
		}
	}
	walk(root)
	if n := mustExec(t, sess, `SELECT count(*) FROM w`); n[0] != "10" {
		t.Fatalf("EXPLAIN ANALYZE did not insert: %v", n)
	}
	// YAML and XML carry the same keys; a read writes nothing.
	for _, sql := range []string{
		`EXPLAIN (ANALYZE, WAL, FORMAT YAML) DELETE FROM w WHERE id = 1`,
		`EXPLAIN (ANALYZE, WAL, FORMAT XML) DELETE FROM w WHERE id = 2`,
	} {
		out := strings.Join(mustExec(t, sess, sql), "\n")
		if !strings.Contains(out, "WAL Records: 2") && !strings.Contains(out, "<WAL-Records>2</WAL-Records>") {
			t.Errorf("%s:\n%s", sql, out)
		}
	}
	if r := doc(`EXPLAIN (ANALYZE, WAL, FORMAT JSON) SELECT * FROM w`); r["WAL Records"].(float64) != 0 {
		t.Errorf("a read's WAL: %v", r)
	}
	if _, ok := doc(`EXPLAIN (ANALYZE, FORMAT JSON) UPDATE w SET v = 'x' WHERE id = 3`)["WAL Records"]; ok {
		t.Error("WAL keys without WAL")
	}
	// An UPDATE of an indexed column: the row, and the entry's delete and put.
	text := strings.Join(mustExec(t, sess, `EXPLAIN (ANALYZE, WAL) UPDATE w SET v = 'y' WHERE id = 4`), "\n")
	if !strings.Contains(text, "WAL: records=3 bytes=") {
		t.Errorf("text format:\n%s", text)
	}
	// A query whose WITH query writes: the writes run and are counted on
	// the top node.
	if r := doc(`EXPLAIN (ANALYZE, WAL, FORMAT JSON) WITH gone AS (DELETE FROM w WHERE id = 5 RETURNING v) SELECT count(*) FROM gone`); r["WAL Records"].(float64) != 2 {
		t.Errorf("a data-modifying WITH query's WAL: %v", r)
	}
	if n := mustExec(t, sess, `SELECT count(*) FROM w WHERE id = 5`); n[0] != "0" {
		t.Errorf("EXPLAIN ANALYZE did not run the WITH query's DELETE")
	}
	_, err := runSQL(t.Context(), sess, `EXPLAIN (WAL) SELECT 1`)
	if pgerr.CodeOf(err) != pgerr.InvalidParameterValue || err == nil || !strings.Contains(err.Error(), "EXPLAIN option WAL requires ANALYZE") {
		t.Errorf("WAL without ANALYZE: %v", err)
	}
}

// TestExplainSettingsAsPostgres: EXPLAIN (SETTINGS) lists every planner
// setting PostgreSQL flags for EXPLAIN that differs from its boot value,
// by name, whether or not it steers zproxy's plans; the values are
// PostgreSQL 15's answer to the same SETs.
func TestExplainSettingsAsPostgres(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	for _, set := range []string{`SET random_page_cost = 1.1`, `SET work_mem = '8MB'`, `SET enable_seqscan = off`, `SET search_path = public`} {
		mustExec(t, sess, set)
	}
	out := strings.Join(mustExec(t, sess, `EXPLAIN (SETTINGS, FORMAT JSON, COSTS off) SELECT 1`), "\n")
	var doc []struct{ Settings map[string]string }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	want := map[string]string{"enable_seqscan": "off", "random_page_cost": "1.1", "search_path": "public", "work_mem": "8MB"}
	if got, _ := json.Marshal(doc[0].Settings); string(got) != func() string { b, _ := json.Marshal(want); return string(b) }() {
		t.Errorf("Settings %s, want %v", got, want)
	}
	text := mustExec(t, sess, `EXPLAIN (SETTINGS, COSTS off) SELECT 1`)
	if last := text[len(text)-1]; last != "Settings: enable_seqscan = 'off', random_page_cost = '1.1', search_path = 'public', work_mem = '8MB'" {
		t.Errorf("text: %q", last)
	}
}

// TestExplainTextCosts: the text format puts PostgreSQL's
// (cost=startup..total rows=n width=w) on every operator's head line, and
// COSTS off leaves them out; the structured formats carry the same four
// figures on every node.
func TestExplainTextCosts(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE c (id int PRIMARY KEY, g int, v text)`)
	mustExec(t, sess, `INSERT INTO c SELECT n, n % 10, 'v' || n FROM generate_series(1, 200) n`)
	mustExec(t, sess, `ANALYZE c`)
	const q = `SELECT g, count(*) FROM c WHERE id > 10 GROUP BY g ORDER BY 2 DESC LIMIT 3`
	heads := 0
	for i, l := range mustExec(t, sess, `EXPLAIN `+q) {
		if i == 0 || strings.Contains(l, "->  ") { // an operator's head line
			heads++
			if !regexp.MustCompile(`  \(cost=\d+\.\d\d\.\.\d+\.\d\d rows=\d+ width=\d+\)$`).MatchString(l) {
				t.Errorf("head line without its costs: %q", l)
			}
		}
	}
	if heads < 4 {
		t.Errorf("%d operators", heads)
	}
	if out := strings.Join(mustExec(t, sess, `EXPLAIN (COSTS off) `+q), "\n"); strings.Contains(out, "(cost=") {
		t.Errorf("COSTS off:\n%s", out)
	}
	// The scan of an analyzed table: the rows its bounds admit.
	out := strings.Join(mustExec(t, sess, `EXPLAIN (FORMAT JSON) SELECT v FROM c WHERE id > 100`), "\n")
	if !strings.Contains(out, `"Plan Rows": 100,`) {
		t.Errorf("the scan's rows from the statistics:\n%s", out)
	}
}
