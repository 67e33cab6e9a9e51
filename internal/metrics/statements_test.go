package metrics

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/zproxy/zproxy/internal/stmtstats"
)

// The per-statement metrics carry the top statements by execution time
// only, one label set per statement, and one series for all the rest,
// whatever the store holds.
func TestStatementMetricsTopOnly(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := New(reg)
	s := stmtstats.New(0)
	for i := 1; i <= TopStatements+10; i++ {
		q := fmt.Sprintf("SELECT * FROM t%d WHERE a = $1 %s", i, strings.Repeat("é", 100))
		for role := uint32(1); role <= 2; role++ {
			s.Record(stmtstats.Key{UserID: role, QueryID: int64(i)}, stmtstats.Exec{Query: q, ExecTime: time.Duration(i) * time.Millisecond,
				ItemsRead: int64(10 * i), AccessPath: "full scan", FullScans: 1, Rows: 1})
		}
	}
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err) // also fails on a label that is not valid UTF-8
	}
	if n := series(families, "zproxy_statement_calls_total"); n != 0 {
		t.Fatalf("%d series before the store is watched", n)
	}
	m.WatchStatements(s)
	families, err = reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if n := series(families, "zproxy_statement_calls_total"); n != TopStatements+1 {
		t.Fatalf("%d statement series, want %d and %q", n, TopStatements, OtherStatements)
	}
	for _, f := range families {
		if f.GetName() != "zproxy_statement_items_read_total" {
			continue
		}
		for _, mt := range f.GetMetric() {
			for _, l := range mt.GetLabel() {
				if id, _ := strconv.Atoi(l.GetValue()); l.GetName() == "queryid" && id <= 10 && l.GetValue() != OtherStatements {
					t.Errorf("a statement outside the top exported: %s", l.GetValue())
				}
				if l.GetName() == "query" && len(l.GetValue()) > maxQueryLabel+len("…") {
					t.Errorf("query label of %d bytes", len(l.GetValue()))
				}
			}
		}
	}
}

// LimitStatements bounds the series at its number plus one, and the other
// series sums the statements outside the top, so the sums over all series
// are the workload's.
func TestStatementMetricsLimit(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := New(reg)
	s := stmtstats.New(0)
	m.WatchStatements(s)
	for i := 1; i <= 50; i++ {
		for range i {
			s.Record(stmtstats.Key{UserID: 1, QueryID: int64(i)}, stmtstats.Exec{Query: fmt.Sprintf("SELECT a%d FROM t", i),
				ExecTime: time.Duration(i) * time.Millisecond, Rows: 2})
		}
	}
	for _, limit := range []int{5, 0, 100} {
		m.LimitStatements(limit)
		families, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		want := min(limit, 50)
		if limit < 50 {
			want++
		}
		if n := series(families, "zproxy_statement_calls_total"); n != want {
			t.Errorf("limit %d: %d series, want %d", limit, n, want)
		}
		calls, rows, other := 0.0, 0.0, 0.0
		for _, f := range families {
			for _, mt := range f.GetMetric() {
				isOther := false
				for _, l := range mt.GetLabel() {
					isOther = isOther || l.GetName() == "queryid" && l.GetValue() == OtherStatements
				}
				switch f.GetName() {
				case "zproxy_statement_calls_total":
					calls += mt.GetCounter().GetValue()
					if isOther {
						other = mt.GetCounter().GetValue()
					}
				case "zproxy_statement_rows_total":
					rows += mt.GetCounter().GetValue()
				}
			}
		}
		if calls != 50*51/2 || rows != 50*51 {
			t.Errorf("limit %d: %v calls and %v rows over all series, want %v and %v", limit, calls, rows, 50*51/2, 50*51)
		}
		// The top by execution time are the last statements, i calls of i ms each.
		if wantOther := float64((50 - limit) * (50 - limit + 1) / 2); limit < 50 && other != wantOther {
			t.Errorf("limit %d: other series has %v calls, want %v", limit, other, wantOther)
		}
	}
}

func series(fs []*dto.MetricFamily, name string) int {
	for _, f := range fs {
		if f.GetName() == name {
			return len(f.GetMetric())
		}
	}
	return 0
}
