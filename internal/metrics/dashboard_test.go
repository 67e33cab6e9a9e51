package metrics

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// dashboardPath is the Grafana dashboard for these metrics.
const dashboardPath = "../../deploy/grafana/zproxy-dashboard.json"

// descRecorder is a Registerer that keeps the descriptors of what is
// registered, so the test knows every metric's name and labels, whether or
// not it has been observed yet.
type descRecorder struct{ descs []*prometheus.Desc }

func (r *descRecorder) Register(c prometheus.Collector) error {
	ch := make(chan *prometheus.Desc, 64)
	go func() { c.Describe(ch); close(ch) }()
	for d := range ch {
		r.descs = append(r.descs, d)
	}
	return nil
}

func (r *descRecorder) MustRegister(cs ...prometheus.Collector) {
	for _, c := range cs {
		_ = r.Register(c)
	}
}

func (r *descRecorder) Unregister(prometheus.Collector) bool { return false }

var (
	fqName    = regexp.MustCompile(`fqName: "([^"]+)"`)
	varLabels = regexp.MustCompile(`variableLabels: \{([^}]*)\}`)
	metricRef = regexp.MustCompile(`\bzproxy_[a-z0-9_]+`)
	byClause  = regexp.MustCompile(`\bby \(([^)]*)\)`)
)

// TestDashboardNamesExistingMetrics checks that every metric the Grafana
// dashboard queries is one zproxy exports (a histogram's _bucket, _sum and
// _count series included), and that every label it groups by is a label
// of a metric in that query, so a renamed metric or label breaks this test
// rather than a panel.
func TestDashboardNamesExistingMetrics(t *testing.T) {
	rec := &descRecorder{}
	New(rec)
	labels := map[string][]string{}
	for _, d := range rec.descs {
		s := d.String()
		m := fqName.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("cannot read a descriptor: %s", s)
		}
		var ls []string
		if v := varLabels.FindStringSubmatch(s); v != nil && v[1] != "" {
			for _, l := range strings.Split(v[1], ",") {
				ls = append(ls, strings.Trim(strings.TrimSpace(l), `"`))
			}
		}
		labels[m[1]] = ls
	}
	raw, err := os.ReadFile(dashboardPath)
	if err != nil {
		t.Fatal(err)
	}
	var dash map[string]any
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("dashboard is not JSON: %v", err)
	}
	var exprs []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && (k == "expr" || k == "definition") {
					exprs = append(exprs, s)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(dash)
	if len(exprs) < 15 {
		t.Fatalf("found %d queries in the dashboard", len(exprs))
	}
	used := map[string]bool{}
	for _, e := range exprs {
		known := map[string]bool{"instance": true, "job": true}
		for _, ref := range metricRef.FindAllString(e, -1) {
			base := ref
			for _, suf := range []string{"_bucket", "_sum", "_count"} {
				if b, ok := strings.CutSuffix(ref, suf); ok && hasName(labels, b) {
					base = b
					if suf == "_bucket" {
						known["le"] = true
					}
				}
			}
			if !hasName(labels, base) {
				t.Errorf("dashboard query names %s, which zproxy does not export: %s", ref, e)
				continue
			}
			used[base] = true
			for _, l := range labels[base] {
				known[l] = true
			}
		}
		for _, m := range byClause.FindAllStringSubmatch(e, -1) {
			for _, l := range strings.Split(m[1], ",") {
				if l = strings.TrimSpace(l); !known[l] {
					t.Errorf("dashboard query groups by %q, a label none of its metrics has: %s", l, e)
				}
			}
		}
	}
	for name := range labels {
		if !used[name] {
			t.Errorf("metric %s is on no dashboard panel", name)
		}
	}
}

func hasName(m map[string][]string, name string) bool { _, ok := m[name]; return ok }
