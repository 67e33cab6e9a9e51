package e2e

import (
	"bufio"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestMetricsEndpoint checks that /metrics serves zproxy's metrics, with
// values that follow what the client did, plus the Go and process
// collectors.
func TestMetricsEndpoint(t *testing.T) {
	requireZproxy(t)
	t.Parallel()
	s := startServer(t, "")
	conn := s.Connect(t)
	mustExec(t, conn, `CREATE TABLE m (id INTEGER NOT NULL, PRIMARY KEY (id))`)
	mustExec(t, conn, `INSERT INTO m VALUES (1), (2), (3)`)
	for i := 1; i <= 3; i++ {
		queryAll(t, conn, "SELECT id FROM m WHERE id = $1", i)
	}
	for range 2 {
		if _, err := conn.Exec(testCtx(t), "SELECT * FROM missing"); sqlstate(err) != "42P01" {
			t.Fatalf("SELECT from a missing table: %v, want 42P01", err)
		}
	}

	samples := scrape(t, s.MetricsURL())
	sum := func(name string, labels ...string) (float64, bool) {
		total, found := 0.0, false
		for series, v := range samples {
			if metricName(series) != name {
				continue
			}
			matches := true
			for _, l := range labels {
				matches = matches && strings.Contains(series, l)
			}
			if matches {
				total += v
				found = true
			}
		}
		return total, found
	}
	checks := []struct {
		name   string
		labels []string
		min    float64
		max    float64
	}{
		{name: "zproxy_queries_total", min: 5, max: 1e9}, // CREATE TABLE, INSERT, 3 SELECTs (+ failed ones, maybe)
		{name: "zproxy_queries_total", labels: []string{`statement="insert"`}, min: 1, max: 1},
		{name: "zproxy_queries_total", labels: []string{`statement="select"`}, min: 3, max: 1e9},
		{name: "zproxy_query_duration_seconds_count", min: 5, max: 1e9},
		{name: "zproxy_query_duration_seconds_bucket", labels: []string{`le="+Inf"`}, min: 5, max: 1e9},
		{name: "zproxy_connections", min: 1, max: 1},
		{name: "zproxy_errors_total", labels: []string{`sqlstate="42P01"`}, min: 2, max: 2},
		{name: "zproxy_store_requests_total", labels: []string{`backend="pebble"`}, min: 1, max: 1e9},
		// The top statements of pg_stat_statements, by normalised text.
		{name: "zproxy_statement_calls_total", labels: []string{`query="SELECT id FROM m WHERE id = $1"`, `access_path="point get"`}, min: 3, max: 3},
		{name: "zproxy_statement_items_read_total", labels: []string{`query="SELECT id FROM m WHERE id = $1"`}, min: 3, max: 3},
		{name: "go_goroutines", min: 1, max: 1e9},
		{name: "process_cpu_seconds_total", min: 0, max: 1e9},
	}
	for _, c := range checks {
		v, ok := sum(c.name, c.labels...)
		if !ok {
			t.Errorf("no %s%v series on /metrics", c.name, c.labels)
			continue
		}
		if v < c.min || v > c.max {
			t.Errorf("%s%v = %v, want in [%v, %v]", c.name, c.labels, v, c.min, c.max)
		}
	}
	s.Stop()
}

// scrape fetches a Prometheus text page and returns series → value.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, body)
	}
	samples := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			t.Fatalf("bad metrics line %q", line)
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("bad metrics line %q: %v", line, err)
		}
		samples[line[:i]] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return samples
}

func metricName(series string) string {
	if i := strings.IndexByte(series, '{'); i >= 0 {
		return series[:i]
	}
	return series
}
