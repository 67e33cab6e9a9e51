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
// only, one label set per statement, whatever the store holds.
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
	if n := series(families, "zproxy_statement_calls_total"); n != TopStatements {
		t.Fatalf("%d statement series, want %d", n, TopStatements)
	}
	for _, f := range families {
		if f.GetName() != "zproxy_statement_items_read_total" {
			continue
		}
		for _, mt := range f.GetMetric() {
			for _, l := range mt.GetLabel() {
				if id, _ := strconv.Atoi(l.GetValue()); l.GetName() == "queryid" && id <= 10 {
					t.Errorf("a statement outside the top exported: %s", l.GetValue())
				}
				if l.GetName() == "query" && len(l.GetValue()) > maxQueryLabel+len("…") {
					t.Errorf("query label of %d bytes", len(l.GetValue()))
				}
			}
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
