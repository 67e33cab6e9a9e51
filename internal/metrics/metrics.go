package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics holds every zproxy metric.
type Metrics struct {
	Queries               *prometheus.CounterVec   // zproxy_queries_total{statement,access_path}
	QueryDuration         *prometheus.HistogramVec // zproxy_query_duration_seconds{statement}
	StoreRequests         *prometheus.CounterVec   // zproxy_store_requests_total{backend,op}
	StoreRequestDuration  *prometheus.HistogramVec // zproxy_store_request_duration_seconds{backend,op}
	StoreErrors           *prometheus.CounterVec   // zproxy_store_errors_total{backend,op}
	RowsRead              prometheus.Counter       // zproxy_rows_read_total
	RowsReturned          prometheus.Counter       // zproxy_rows_returned_total
	ZOrderRanges          prometheus.Histogram     // zproxy_zorder_ranges
	ShardFanout           prometheus.Histogram     // zproxy_shard_fanout
	Connections           prometheus.Gauge         // zproxy_connections
	Errors                *prometheus.CounterVec   // zproxy_errors_total{sqlstate}
	DynamoDBCapacityTotal *prometheus.CounterVec   // zproxy_dynamodb_consumed_capacity_total{op}
	DynamoDBThrottled     *prometheus.CounterVec   // zproxy_dynamodb_throttled_total{code}
	CapacityQueued        *prometheus.CounterVec   // zproxy_capacity_queued_seconds_total{kind}
	CapacityBudget        *prometheus.GaugeVec     // zproxy_capacity_budget_units{kind}
	TableCapacity         *prometheus.CounterVec   // zproxy_table_capacity_total{table}

	// statements exports the top statements (statements.go).
	statements *statementCollector
	// storeOps and queryKinds hold the labelled series of the store
	// requests and statements seen so far (children.go).
	storeOps, queryKinds sync.Map
}

// New creates the metrics and registers them with reg.
func New(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Queries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "zproxy_queries_total",
			Help: "Statements executed, by statement kind and access path.",
		}, []string{"statement", "access_path"}),
		QueryDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "zproxy_query_duration_seconds",
			Help:    "Time from receiving a statement to its completion, by statement kind.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10),
		}, []string{"statement"}),
		StoreRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "zproxy_store_requests_total",
			Help: "Requests sent to the backing store, by backend and operation.",
		}, []string{"backend", "op"}),
		StoreRequestDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "zproxy_store_request_duration_seconds",
			Help:    "Latency of backing-store requests, by backend and operation.",
			Buckets: prometheus.ExponentialBuckets(0.00005, 4, 10),
		}, []string{"backend", "op"}),
		StoreErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "zproxy_store_errors_total",
			Help: "Backing-store requests that failed, by backend and operation.",
		}, []string{"backend", "op"}),
		RowsRead: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "zproxy_rows_read_total",
			Help: "Items read from the store (rows and index entries).",
		}),
		RowsReturned: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "zproxy_rows_returned_total",
			Help: "Rows returned to clients.",
		}),
		ZOrderRanges: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "zproxy_zorder_ranges",
			Help:    "Z-address ranges per Z-order index scan.",
			Buckets: prometheus.ExponentialBuckets(1, 2, 12),
		}),
		ShardFanout: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "zproxy_shard_fanout",
			Help:    "Shards touched per table or index access.",
			Buckets: prometheus.ExponentialBuckets(1, 2, 8),
		}),
		Connections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "zproxy_connections",
			Help: "Open client connections.",
		}),
		Errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "zproxy_errors_total",
			Help: "Errors sent to clients, by SQLSTATE.",
		}, []string{"sqlstate"}),
		DynamoDBCapacityTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "zproxy_dynamodb_consumed_capacity_total",
			Help: "DynamoDB capacity units consumed, by operation.",
		}, []string{"op"}),
		DynamoDBThrottled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "zproxy_dynamodb_throttled_total",
			Help: "DynamoDB requests throttled (each retried after a jittered backoff), by error code.",
		}, []string{"code"}),
		CapacityQueued: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "zproxy_capacity_queued_seconds_total",
			Help: "Time requests waited for this proxy's capacity budget, by kind (read, read_bulk, write, write_bulk).",
		}, []string{"kind"}),
		CapacityBudget: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "zproxy_capacity_budget_units",
			Help: "This proxy's share of the table's capacity budget, units a second (0: none), by kind (read, write).",
		}, []string{"kind"}),
		TableCapacity: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "zproxy_table_capacity_total",
			Help: "DynamoDB capacity units the statements of this proxy consumed, by SQL table (reads by the table read, a write's own by its target).",
		}, []string{"table"}),
		statements: newStatementCollector(),
	}
	reg.MustRegister(m.statements)
	reg.MustRegister(m.Queries, m.QueryDuration, m.StoreRequests, m.StoreRequestDuration,
		m.StoreErrors, m.RowsRead, m.RowsReturned, m.ZOrderRanges, m.ShardFanout,
		m.Connections, m.Errors, m.DynamoDBCapacityTotal, m.DynamoDBThrottled, m.CapacityQueued, m.CapacityBudget, m.TableCapacity)
	return m
}

// ObserveThrottle counts a request DynamoDB throttled.
func (m *Metrics) ObserveThrottle(code string) {
	if m != nil {
		m.DynamoDBThrottled.WithLabelValues(code).Inc()
	}
}

// ObserveQueued records the time a request waited for the capacity budget.
func (m *Metrics) ObserveQueued(kind string, waited time.Duration) {
	if m != nil {
		m.CapacityQueued.WithLabelValues(kind).Add(waited.Seconds())
	}
}

// SetCapacityBudget records this proxy's share of the capacity budget.
func (m *Metrics) SetCapacityBudget(read, write float64) {
	if m != nil {
		m.CapacityBudget.WithLabelValues("read").Set(read)
		m.CapacityBudget.WithLabelValues("write").Set(write)
	}
}

// ObserveRequest records one store request (it implements kv.Observer,
// which cmd/zproxy asserts: metrics sits below every stage and imports none).
func (m *Metrics) ObserveRequest(backend, op string, d time.Duration, err error) {
	if m == nil {
		return
	}
	so := m.storeOp(backend, op)
	so.requests.Inc()
	so.duration.Observe(d.Seconds())
	if err != nil {
		m.StoreErrors.WithLabelValues(backend, op).Inc()
	}
}

// ObserveCapacity records capacity units consumed (kv.Observer).
func (m *Metrics) ObserveCapacity(op string, units float64) {
	if m == nil {
		return
	}
	m.DynamoDBCapacityTotal.WithLabelValues(op).Add(units)
}

// ConnectionOpened records a new client connection.
func (m *Metrics) ConnectionOpened() {
	if m != nil {
		m.Connections.Inc()
	}
}

// ConnectionClosed records a closed client connection.
func (m *Metrics) ConnectionClosed() {
	if m != nil {
		m.Connections.Dec()
	}
}

// Error records an error sent to a client.
func (m *Metrics) Error(sqlstate string) {
	if m != nil {
		m.Errors.WithLabelValues(sqlstate).Inc()
	}
}

// Query records one completed statement.
func (m *Metrics) Query(statement, accessPath string, d time.Duration, rowsRead, rowsReturned int64) {
	if m == nil {
		return
	}
	qk := m.queryKind(statement, accessPath)
	qk.queries.Inc()
	qk.duration.Observe(d.Seconds())
	m.RowsRead.Add(float64(rowsRead))
	m.RowsReturned.Add(float64(rowsReturned))
}

// ZOrderScan records the number of Z-address ranges of one index scan.
func (m *Metrics) ZOrderScan(ranges int) {
	if m != nil {
		m.ZOrderRanges.Observe(float64(ranges))
	}
}

// Fanout records the number of shards one access touched.
func (m *Metrics) Fanout(shards int) {
	if m != nil {
		m.ShardFanout.Observe(float64(shards))
	}
}

// AddTableCapacity records capacity units consumed for a SQL table.
func (m *Metrics) AddTableCapacity(table string, units float64) {
	if m != nil && units > 0 {
		m.TableCapacity.WithLabelValues(table).Add(units)
	}
}

// WatchRowCache exports the embedded store's row cache counters, read from
// stats at every scrape: zproxy_row_cache_hits_total and
// zproxy_row_cache_misses_total, labelled kind="row" (rows read by key)
// and kind="range" (the posting lists gin scans keep).
func WatchRowCache(reg prometheus.Registerer, stats func() (hits, misses, rangeHits, rangeMisses int64)) {
	counter := func(name, help, kind string, f func() int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: name, Help: help, ConstLabels: prometheus.Labels{"kind": kind},
		}, func() float64 { return float64(f()) })
	}
	const hitsHelp = "Lookups the embedded store answered from its row cache."
	const missesHelp = "Lookups the embedded store made in its row cache and answered from the store."
	reg.MustRegister(
		counter("zproxy_row_cache_hits_total", hitsHelp, "row", func() int64 { h, _, _, _ := stats(); return h }),
		counter("zproxy_row_cache_misses_total", missesHelp, "row", func() int64 { _, m, _, _ := stats(); return m }),
		counter("zproxy_row_cache_hits_total", hitsHelp, "range", func() int64 { _, _, h, _ := stats(); return h }),
		counter("zproxy_row_cache_misses_total", missesHelp, "range", func() int64 { _, _, _, m := stats(); return m }),
	)
}
