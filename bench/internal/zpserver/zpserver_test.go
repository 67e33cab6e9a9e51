package zpserver

import (
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

func TestSum(t *testing.T) {
	text := `# TYPE zproxy_store_requests_total counter
zproxy_store_requests_total{backend="dynamodb",op="query"} 3
zproxy_store_requests_total{backend="dynamodb",op="batch_get"} 4
zproxy_store_requests_total{backend="pebble",op="scan"} 5
# TYPE zproxy_rows_read_total counter
zproxy_rows_read_total 7
`
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	m := Metrics(fams)
	cases := []struct {
		name  string
		match map[string]string
		want  float64
	}{
		{"zproxy_store_requests_total", nil, 12},
		{"zproxy_store_requests_total", map[string]string{"backend": "dynamodb"}, 7},
		{"zproxy_store_requests_total", map[string]string{"backend": "dynamodb", "op": "query"}, 3},
		{"zproxy_rows_read_total", nil, 7},
		{"zproxy_missing_total", nil, 0},
	}
	for _, c := range cases {
		if got := m.Sum(c.name, c.match); got != c.want {
			t.Errorf("Sum(%s, %v) = %v, want %v", c.name, c.match, got, c.want)
		}
	}
}
