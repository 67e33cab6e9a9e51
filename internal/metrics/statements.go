package metrics

import (
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/zproxy/zproxy/internal/stmtstats"
)

// TopStatements is how many statements (by total execution time) the
// per-statement metrics export: each is a label set, so the bound keeps
// the series count fixed however many statements the proxy sees.
const TopStatements = 20

// maxQueryLabel bounds the query text carried in a label.
const maxQueryLabel = 120

// statementCollector exports pg_stat_statements' top entries at each
// scrape. Statements leave the top and their series disappear, as
// counters of a statement evicted from pg_stat_statements restart.
type statementCollector struct {
	store                                  atomic.Pointer[stmtstats.Store]
	calls, seconds, rows, items, requests  *prometheus.Desc
	capacity, fullScans, mean, planSeconds *prometheus.Desc
}

func newStatementCollector() *statementCollector {
	labels := []string{"queryid", "query", "access_path"}
	d := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, labels, nil) }
	return &statementCollector{
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
	// Entries of several roles share a statement: the busiest one
	// speaks for it, so each queryid is one label set.
	seen := map[int64]bool{}
	n := 0
	for _, e := range es {
		if n == TopStatements {
			break
		}
		if seen[e.QueryID] {
			continue
		}
		seen[e.QueryID] = true
		q := e.Query
		if len(q) > maxQueryLabel {
			// Cut at a character boundary: a label must be valid UTF-8.
			cut := maxQueryLabel
			for cut > 0 && !utf8.RuneStart(q[cut]) {
				cut--
			}
			q = q[:cut] + "…"
		}
		lv := []string{strconv.FormatInt(e.QueryID, 10), q, e.AccessPath()}
		n++
		counter := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, lv...)
		}
		counter(c.calls, float64(e.Calls()))
		counter(c.seconds, e.Exec.Total/1000)
		counter(c.planSeconds, e.Plan.Total/1000)
		ch <- prometheus.MustNewConstMetric(c.mean, prometheus.GaugeValue, e.Exec.Mean()/1000, lv...)
		counter(c.rows, float64(e.Rows))
		counter(c.items, float64(e.ItemsRead))
		counter(c.requests, float64(e.Requests))
		counter(c.capacity, e.Capacity)
		counter(c.fullScans, float64(e.FullScans))
	}
}

// WatchStatements exports the top statements of s (the engine's
// pg_stat_statements) at every scrape.
func (m *Metrics) WatchStatements(s *stmtstats.Store) {
	if m != nil {
		m.statements.store.Store(s)
	}
}
