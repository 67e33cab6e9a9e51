package metrics

import (
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// The kept series count what WithLabelValues would have: every request and
// statement in the series of its own labels, errors only where there were
// some.
func TestKeptSeries(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := New(reg)
	calls := []struct {
		backend, op string
		err         error
	}{
		{"pebble", "get", nil},
		{"pebble", "get", nil},
		{"pebble", "scan", errors.New("boom")},
		{"dynamodb", "get", nil},
		{"pebble", "get", errors.New("boom")},
	}
	for _, c := range calls {
		m.ObserveRequest(c.backend, c.op, time.Millisecond, c.err)
	}
	for i := 0; i < 3; i++ {
		m.Query("select", "point get", time.Millisecond, 1, 1)
	}
	m.Query("select", "full scan", time.Millisecond, 5, 1)
	m.Query("insert", "none", time.Millisecond, 0, 0)

	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		family string
		labels map[string]string
		value  float64
	}{
		{"zproxy_store_requests_total", map[string]string{"backend": "pebble", "op": "get"}, 3},
		{"zproxy_store_requests_total", map[string]string{"backend": "pebble", "op": "scan"}, 1},
		{"zproxy_store_requests_total", map[string]string{"backend": "dynamodb", "op": "get"}, 1},
		{"zproxy_store_request_duration_seconds", map[string]string{"backend": "pebble", "op": "get"}, 3},
		{"zproxy_store_errors_total", map[string]string{"backend": "pebble", "op": "get"}, 1},
		{"zproxy_store_errors_total", map[string]string{"backend": "pebble", "op": "scan"}, 1},
		{"zproxy_queries_total", map[string]string{"statement": "select", "access_path": "point get"}, 3},
		{"zproxy_queries_total", map[string]string{"statement": "select", "access_path": "full scan"}, 1},
		{"zproxy_query_duration_seconds", map[string]string{"statement": "select"}, 4},
		{"zproxy_query_duration_seconds", map[string]string{"statement": "insert"}, 1},
		{"zproxy_rows_read_total", nil, 8},
	}
	for _, w := range want {
		got, ok := seriesValue(families, w.family, w.labels)
		if !ok || got != w.value {
			t.Errorf("%s%v = %v (found %v), want %v", w.family, w.labels, got, ok, w.value)
		}
	}
	if n := series(families, "zproxy_store_errors_total"); n != 2 {
		t.Errorf("%d error series, want 2 (none for an operation without errors)", n)
	}
}

// seriesValue is the value of family's series with labels: a counter's
// value, a histogram's count.
func seriesValue(families []*dto.MetricFamily, family string, labels map[string]string) (float64, bool) {
	for _, f := range families {
		if f.GetName() != family {
			continue
		}
	next:
		for _, m := range f.GetMetric() {
			if len(m.GetLabel()) != len(labels) {
				continue
			}
			for _, l := range m.GetLabel() {
				if labels[l.GetName()] != l.GetValue() {
					continue next
				}
			}
			if h := m.GetHistogram(); h != nil {
				return float64(h.GetSampleCount()), true
			}
			return m.GetCounter().GetValue(), true
		}
	}
	return 0, false
}

// BenchmarkObserveRequest is a store request's metrics, as every key
// lookup records them.
func BenchmarkObserveRequest(b *testing.B) {
	m := New(prometheus.NewRegistry())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m.ObserveRequest("pebble", "get", time.Microsecond, nil)
	}
}
