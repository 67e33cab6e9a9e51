package metrics

import (
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/zproxy/zproxy/internal/stmtstats"
)

// TopStatements is how many statements (by total execution time) the
// per-statement metrics export by default (LimitStatements changes it):
// each is a label set, so the bound keeps the series count fixed however
// many statements the proxy sees.
const TopStatements = 20

// OtherStatements is the queryid and query label of the one series that
// sums every statement outside the top, so the totals over all series stay
// those of the whole workload.
const OtherStatements = "other"

// maxQueryLabel bounds the query text carried in a label.
const maxQueryLabel = 120

// statementCollector exports pg_stat_statements' top entries at each
// scrape. Statements leave the top and their series disappear, as
// counters of a statement evicted from pg_stat_statements restart.
//
// Its labels are the statement's queryid, its normalised text (from
// parser.Normalize, the one place statement text is stored: no constant,
// password or comment of the client's text is in it) and its access path.
type statementCollector struct {
	store                                  atomic.Pointer[stmtstats.Store]
	top                                    atomic.Int64 // statements with series of their own
	calls, seconds, rows, items, requests  *prometheus.Desc
	capacity, fullScans, mean, planSeconds *prometheus.Desc
}

func newStatementCollector() *statementCollector {
	labels := []string{"queryid", "query", "access_path"}
	d := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, labels, nil) }
	c := &statementCollector{
		calls:       d("zproxy_statement_calls_total", "Executions of each of the top statements (pg_stat_statements.calls)."),
		seconds:     d("zproxy_statement_exec_seconds_total", "Execution time of each of the top statements."),
		planSeconds: d("zproxy_statement_plan_seconds_total", "Planning time of each of the top statements."),
		mean:        d("zproxy_statement_mean_exec_seconds", "Mean execution time of each of the top statements."),
		rows:        d("zproxy_statement_rows_total", "Rows returned or affected by each of the top statements."),
		items:       d("zproxy_statement_items_read_total", "Store items read by each of the top statements."),
		requests:    d("zproxy_statement_store_requests_total", "Store requests of each of the top statements."),
		capacity:    d("zproxy_statement_dynamodb_capacity_total", "DynamoDB capacity units consumed by each of the top statements."),
		fullScans:   d("zproxy_statement_full_scans_total", "Full table scans by each of the top statements."),
	}
	c.top.Store(TopStatements)
	return c
}

// Describe implements prometheus.Collector.
func (c *statementCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.calls, c.seconds, c.planSeconds, c.mean, c.rows, c.items, c.requests, c.capacity, c.fullScans} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *statementCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.store.Load()
	if s == nil {
		return
	}
	es := s.Entries() // most total time first
	top := int(c.top.Load())
	// Entries of several roles share a statement: the busiest one
	// speaks for it, so each queryid is one label set.
	seen := map[int64]bool{}
	var other stmtstats.Entry
	others := 0
	for _, e := range es {
		if !seen[e.QueryID] && len(seen) < top {
			seen[e.QueryID] = true
			c.emit(ch, e, []string{strconv.FormatInt(e.QueryID, 10), queryLabel(e.Query), e.AccessPath()})
			continue
		}
		if seen[e.QueryID] {
			// Another role's entry of an exported statement: its
			// series speaks for the busiest role only, as before.
			continue
		}
		others++
		other.Exec.N += e.Exec.N
		other.Exec.Total += e.Exec.Total
		other.Plan.N += e.Plan.N
		other.Plan.Total += e.Plan.Total
		other.Rows += e.Rows
		other.ItemsRead += e.ItemsRead
		other.Requests += e.Requests
		other.Capacity += e.Capacity
		other.FullScans += e.FullScans
	}
	if others > 0 {
		c.emit(ch, other, []string{OtherStatements, OtherStatements, ""})
	}
}

// emit sends one statement's series.
func (c *statementCollector) emit(ch chan<- prometheus.Metric, e stmtstats.Entry, lv []string) {
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, lv...)
	}
	counter(c.calls, float64(e.Calls()))
	counter(c.seconds, e.Exec.Total/1000)
	counter(c.planSeconds, e.Plan.Total/1000)
	mean := 0.0 // the other series' Timing is a sum, without a running mean
	if e.Exec.N > 0 {
		mean = e.Exec.Total / float64(e.Exec.N)
	}
	ch <- prometheus.MustNewConstMetric(c.mean, prometheus.GaugeValue, mean/1000, lv...)
	counter(c.rows, float64(e.Rows))
	counter(c.items, float64(e.ItemsRead))
	counter(c.requests, float64(e.Requests))
	counter(c.capacity, e.Capacity)
	counter(c.fullScans, float64(e.FullScans))
}

// queryLabel is a normalised statement text cut to maxQueryLabel bytes.
func queryLabel(q string) string {
	if len(q) <= maxQueryLabel {
		return q
	}
	// Cut at a character boundary: a label must be valid UTF-8.
	cut := maxQueryLabel
	for cut > 0 && !utf8.RuneStart(q[cut]) {
		cut--
	}
	return q[:cut] + "…"
}

// LimitStatements sets how many statements have per-statement series of
// their own (n < 0 counts as 0); the rest are summed in the one series
// labelled OtherStatements, so a scrape carries at most n+1 label sets
// per metric.
func (m *Metrics) LimitStatements(n int) {
	if m != nil {
		m.statements.top.Store(int64(max(n, 0)))
	}
}

// WatchStatements exports the top statements of s (the engine's
// pg_stat_statements) at every scrape.
func (m *Metrics) WatchStatements(s *stmtstats.Store) {
	if m != nil {
		m.statements.store.Store(s)
	}
}
