package executor_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestInvertedUnionAllocs: an OR of tokens (an array's &&) reads its
// lists' keys into one buffer, sorted and rid of repeats there, so it
// allocates about what one token's list of as many rows does (the second
// list's scans a few more), not a set's string a key and a second set for
// the union (about 500 more at 400 rows).
func TestInvertedUnionAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation counts")
	}
	e := newEnv(t,
		`CREATE TABLE u (id INT PRIMARY KEY, tags TEXT[]) WITH (shards = 2)`,
		`CREATE INDEX u_tags ON u USING gin (tags)`)
	// a on every 10th row, b on every 10th from the 5th, and c on both
	// sets of rows: a || b names the rows c does, 400 of 2,000.
	var vals []string
	for id := range 2000 {
		tags := "{x}"
		switch id % 10 {
		case 0:
			tags = "{a,c}"
		case 5:
			tags = "{b,c}"
		}
		vals = append(vals, fmt.Sprintf("(%d, '%s')", id, tags))
	}
	e.mustExec("INSERT INTO u VALUES " + strings.Join(vals, ", "))
	const rows = 400
	allocs := func(q string) float64 {
		if got := len(e.mustQuery(q)); got != rows {
			t.Fatalf("%s: %d rows, want %d", q, got, rows)
		}
		return testing.AllocsPerRun(20, func() { e.mustQuery(q) })
	}
	one := allocs(`SELECT id FROM u WHERE tags @> '{c}'`)
	union := allocs(`SELECT id FROM u WHERE tags && '{a,b}'`)
	t.Logf("one token: %.0f allocations, a || b: %.0f", one, union)
	if union > one+rows/4 {
		t.Errorf("a || b of %d rows: %.0f allocations, one token's list of as many rows %.0f: want at most %d more",
			rows, union, one, rows/4)
	}
}
