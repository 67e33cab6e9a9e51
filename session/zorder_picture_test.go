package session_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestZOrderRangeItems checks the facts EXPLAIN (ANALYZE, VERBOSE, FORMAT
// JSON) gives a picture of a Z-order read (the console draws it): the
// attributes with the box inside the data's bounds, every range, and the
// items read per range, which add up to no more than the scan's items.
func TestZOrderRangeItems(t *testing.T) {
	_, sess := newSession(t, memStore(t))
	mustExec(t, sess, `CREATE TABLE pts (id bigint PRIMARY KEY, x float8, y float8)`)
	var vals []string
	for i := 0; i < 2000; i++ {
		vals = append(vals, fmt.Sprintf("(%d, %d, %d)", i, i*37%100, i*53%100))
	}
	mustExec(t, sess, `INSERT INTO pts VALUES `+strings.Join(vals, ", "))
	mustExec(t, sess, `CREATE INDEX pts_xy ON pts USING zorder (x, y)`)
	out := mustExec(t, sess, `EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) SELECT id FROM pts WHERE x BETWEEN 10 AND 30 AND y BETWEEN 40 AND 45`)
	var doc []struct {
		Plan map[string]any
	}
	if err := json.Unmarshal([]byte(strings.Join(out, "\n")), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, strings.Join(out, "\n"))
	}
	var scan map[string]any
	var find func(n map[string]any)
	find = func(n map[string]any) {
		if n["zproxy Z-order Ranges"] != nil {
			scan = n
		}
		kids, _ := n["Plans"].([]any)
		for _, k := range kids {
			find(k.(map[string]any))
		}
	}
	find(doc[0].Plan)
	if scan == nil {
		t.Fatalf("no Z-order scan with ranges:\n%s", strings.Join(out, "\n"))
	}
	attrs := scan["zproxy Z-order Attributes"].([]any)
	if len(attrs) != 2 {
		t.Fatalf("attributes: %v", attrs)
	}
	x := attrs[0].(map[string]any)
	if x["Name"] != "x" || x["Box Low Value"] != "10" || x["Box High Value"] != "30" || x["Data Low Value"] == nil {
		t.Errorf("attribute x: %v", x)
	}
	var sum float64
	ranges := scan["zproxy Z-order Ranges"].([]any)
	for _, r := range ranges {
		rm := r.(map[string]any)
		if rm["Start"] == "" || rm["Items Read"] == nil {
			t.Errorf("range %v", rm)
		}
		sum += rm["Items Read"].(float64)
	}
	total := scan["zproxy Items Read"].(float64)
	rows := scan["Actual Rows"].(float64)
	if len(ranges) == 0 || sum < rows || sum > total {
		t.Errorf("%d ranges read %v items: want between the %v rows and the scan's %v items", len(ranges), sum, rows, total)
	}
}
