package session_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExplainBuffers: EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) gives every
// node PostgreSQL's buffer keys, the store items read under it as "Shared
// Read Blocks" (a node's count includes its inputs', as PostgreSQL's
// does), so plan viewers show where a statement reads; without BUFFERS
// the keys are absent.
func TestExplainBuffers(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE b (id int PRIMARY KEY, v int)`)
	mustExec(t, sess, `INSERT INTO b SELECT g, g % 7 FROM generate_series(1, 50) g`)
	plan := func(sql string) map[string]any {
		out := mustExec(t, sess, sql)
		var doc []struct{ Plan map[string]any }
		if err := json.Unmarshal([]byte(strings.Join(out, "\n")), &doc); err != nil {
			t.Fatalf("%v:\n%s", err, strings.Join(out, "\n"))
		}
		return doc[0].Plan
	}
	root := plan(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT v, count(*) FROM b WHERE v > 2 GROUP BY v`)
	var scan map[string]any
	var walk func(n map[string]any)
	walk = func(n map[string]any) {
		if _, ok := n["Shared Read Blocks"]; !ok {
			t.Fatalf("a node without buffer keys: %v", n)
		}
		if n["Relation Name"] == "b" {
			scan = n
		}
		kids, _ := n["Plans"].([]any)
		for _, k := range kids {
			walk(k.(map[string]any))
		}
	}
	walk(root)
	if scan == nil || scan["Shared Read Blocks"] != scan["zproxy Items Read"] || scan["Shared Read Blocks"].(float64) != 50 {
		t.Fatalf("the scan's buffers: %v", scan)
	}
	if root["Shared Read Blocks"].(float64) != 50 {
		t.Fatalf("the root's buffers do not include its inputs': %v", root["Shared Read Blocks"])
	}
	if _, ok := plan(`EXPLAIN (ANALYZE, FORMAT JSON) SELECT v FROM b`)["Shared Read Blocks"]; ok {
		t.Fatal("buffer keys without BUFFERS")
	}
}
