package optimizer_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestLargeDisjunctionsArePointGets: an OR of 10,000 (and 30,000) key
// equalities and an IN list of 5,000 key values are point gets on every
// key, never a full scan with a NOTICE suggesting an index on the primary
// key, whose cost would grow with the table instead of the statement.
func TestLargeDisjunctionsArePointGets(t *testing.T) {
	eng := newEngine(t, false)
	ctx := context.Background()
	list := func(n int, sep string, item func(int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = item(i + 1)
		}
		return strings.Join(parts, sep)
	}
	for _, c := range []struct {
		name, where string
		keys        int
	}{
		{"OR of 10,000 equalities", list(10_000, " OR ", func(i int) string { return fmt.Sprintf("id = %d", i) }), 10_000},
		{"OR of 30,000 equalities", list(30_000, " OR ", func(i int) string { return fmt.Sprintf("%d = id", i) }), 30_000},
		{"IN list of 5,000 values", "id IN (" + list(5_000, ", ", func(i int) string { return fmt.Sprint(i * 7) }) + ")", 5_000},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := run(ctx, eng, "EXPLAIN SELECT name FROM sensors WHERE "+c.where)
			if err != nil {
				t.Fatal(err)
			}
			plan := strings.Join(out, "\n")
			if strings.Contains(plan, "NOTICE") || !strings.Contains(plan, "point get") ||
				!strings.Contains(plan, fmt.Sprintf("keys: %d ", c.keys)) {
				t.Fatalf("want a point get on %d keys, no notice; got\n%s", c.keys, firstLines(plan, 12))
			}
		})
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
