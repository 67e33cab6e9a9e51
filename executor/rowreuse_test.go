package executor_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/wire"
)

// TestScanReusesRowsUnderProjection: a scan under a projection of plain
// columns decodes each batch into the rows of the batch before, so reading
// thousands of rows allocates no row memory per row, and the rows, read
// across many batches, are still each the right one: a full scan, a
// Z-order box scan, a projection with an expression (whose scan makes new
// rows) and one under a sort, each against the rows as generated.
func TestScanReusesRowsUnderProjection(t *testing.T) {
	store, err := zpebble.Open("reuse", zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	e := storeEnv(t, store)
	ctx, eng := e.ctx, e.eng
	e.mustExec(`CREATE TABLE pts (id bigint PRIMARY KEY, x float8 NOT NULL, y float8 NOT NULL, v int, note text) WITH (shards = 1)`)
	const n = 3000
	x := func(id int) float64 { return float64(id%97) / 97 }
	y := func(id int) float64 { return float64(id%89) / 89 }
	for start := 0; start < n; start += 500 {
		var vals []string
		for id := start; id < start+500; id++ {
			vals = append(vals, fmt.Sprintf("(%d, %g, %g, %d, 'n%d')", id, x(id), y(id), id*7, id))
		}
		e.mustExec(`INSERT INTO pts VALUES ` + strings.Join(vals, ", "))
	}
	e.mustExec(`CREATE INDEX pts_z ON pts USING zorder (x, y) INCLUDE (v, note)`)
	e.mustExec(`ANALYZE pts`)

	inBox := func(id int) bool { return x(id) >= 0.2 && x(id) <= 0.7 && y(id) >= 0.1 && y(id) <= 0.9 }
	for _, c := range []struct {
		sql  string
		want func(id int) (string, bool)
	}{
		{`SELECT id, v, note FROM pts`, func(id int) (string, bool) { return fmt.Sprintf("%d|%d|n%d", id, id*7, id), true }},
		{`SELECT id + 1, note FROM pts`, func(id int) (string, bool) { return fmt.Sprintf("%d|n%d", id+1, id), true }},
		{`SELECT /*+ USE_INDEX(pts, pts_z) */ id, v, note FROM pts WHERE x BETWEEN 0.2 AND 0.7 AND y BETWEEN 0.1 AND 0.9`,
			func(id int) (string, bool) { return fmt.Sprintf("%d|%d|n%d", id, id*7, id), inBox(id) }},
		{`SELECT * FROM (SELECT /*+ USE_INDEX(pts, pts_z) */ id, note FROM pts WHERE x BETWEEN 0.2 AND 0.7 AND y BETWEEN 0.1 AND 0.9) s ORDER BY note DESC`,
			func(id int) (string, bool) { return fmt.Sprintf("%d|n%d", id, id), inBox(id) }},
	} {
		got := e.mustQuery(c.sql)
		var want []string
		for id := range n {
			if row, ok := c.want(id); ok {
				want = append(want, row)
			}
		}
		// The scans' orders differ (Z-order, notes as text): compare as sets
		// of rows, each once, and the sorted query's order by its key.
		if strings.Contains(c.sql, "ORDER BY note DESC") {
			for i := 1; i < len(got); i++ {
				if note := func(r string) string { return r[strings.IndexByte(r, '|')+1:] }; note(got[i-1]) < note(got[i]) {
					t.Fatalf("%s: row %d %q before %q", c.sql, i, got[i-1], got[i])
				}
			}
		}
		if len(got) != len(want) || len(got) < 3*128 {
			t.Fatalf("%s: %d rows, want %d (more than three batches)", c.sql, len(got), len(want))
		}
		seen := map[string]int{}
		for _, r := range got {
			seen[r]++
		}
		for _, r := range want {
			if seen[r] != 1 {
				t.Fatalf("%s: row %q returned %d times", c.sql, r, seen[r])
			}
		}
	}

	if raceEnabled {
		return // the race detector changes what is allocated
	}
	sess, err := eng.NewSession(ctx, wire.SessionParams{User: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	for _, sql := range []string{
		`SELECT id, x, v FROM pts`,
		`SELECT /*+ USE_INDEX(pts, pts_z) */ id, v FROM pts WHERE x BETWEEN 0 AND 1 AND y BETWEEN 0 AND 1`,
	} {
		stmts, err := sess.Parse(ctx, sql, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The fewest bytes of five runs: a background flush allocates too.
		least := uint64(1 << 62)
		for range 5 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			rows := readAll(t, ctx, stmts[0], nil)
			runtime.ReadMemStats(&after)
			if rows != n {
				t.Fatalf("%s: %d rows, want %d", sql, rows, n)
			}
			least = min(least, after.TotalAlloc-before.TotalAlloc)
		}
		// A new row a row was 5 values of 56 bytes; the reused ones are
		// the first batch's.
		perRow := float64(least) / n
		t.Logf("%s: %.0f bytes a row", sql, perRow)
		if perRow > 100 {
			t.Errorf("%s: %.0f bytes allocated a row, want at most 100", sql, perRow)
		}
	}
}

// readAll runs a statement and counts its rows, keeping none.
func readAll(t *testing.T, ctx context.Context, st wire.Statement, params []sqltypes.Value) int {
	t.Helper()
	res, err := st.Execute(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	rows := 0
	for {
		_, ok, err := res.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return rows
		}
		rows++
	}
}
