package executor_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
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
		least := leastAllocated(t, ctx, sess, sql, n)
		// A new row a row was 5 values of 56 bytes; the reused ones are
		// the first batch's.
		perRow := float64(least) / n
		t.Logf("%s: %.0f bytes a row", sql, perRow)
		if perRow > 100 {
			t.Errorf("%s: %.0f bytes allocated a row, want at most 100", sql, perRow)
		}
	}
}

// leastAllocated is the fewest bytes of five runs of sql, each returning
// rows rows (unless rows < 0), after a first run: a background flush
// allocates too, and the first run plans.
func leastAllocated(t *testing.T, ctx context.Context, sess wire.Session, sql string, rows int) uint64 {
	t.Helper()
	stmts, err := sess.Parse(ctx, sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, ctx, stmts[0], nil)
	least := uint64(1 << 62)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got := readAll(t, ctx, stmts[0], nil)
		runtime.ReadMemStats(&after)
		if rows >= 0 && got != rows {
			t.Fatalf("%s: %d rows, want %d", sql, got, rows)
		}
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
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

// TestScanReusesRowsShortAndFiltered: a reusing scan's row memory is a
// small batch's, whatever it reads: a secondary-index equality that finds
// a hundred rows (a 128-row batch made it allocate and zero room for 120
// rows, each used once) and a scan whose filter rejects most rows (each
// rejected row took more of the slab, so a scan that kept few rows
// allocated a row for every row it read). Both return the rows as
// generated.
func TestScanReusesRowsShortAndFiltered(t *testing.T) {
	store, err := zpebble.Open("reuse-short", zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	e := storeEnv(t, store)
	ctx, eng := e.ctx, e.eng
	e.mustExec(`CREATE TABLE r (id bigint PRIMARY KEY, note text, ts bigint NOT NULL, a float8, b float8, c float8, d float8, v int) WITH (shards = 1)`)
	const n, notes = 4000, 40 // 100 rows a note
	for start := 0; start < n; start += 500 {
		var vals []string
		for id := start; id < start+500; id++ {
			vals = append(vals, fmt.Sprintf("(%d, 'n%d', %d, 1, 2, 3, 4, %d)", id, id%notes, id/notes, id*3))
		}
		e.mustExec(`INSERT INTO r VALUES ` + strings.Join(vals, ", "))
	}
	e.mustExec(`CREATE INDEX r_note ON r (note, ts) INCLUDE (v)`)
	e.mustExec(`ANALYZE r`)

	const (
		oneNote  = `SELECT note, ts, v FROM r WHERE note = 'n7'`
		oneRow   = `SELECT note, ts, v FROM r WHERE note = 'n7' AND ts = 3`
		filtered = `SELECT id, v FROM r WHERE v % 1000 = 0`
	)
	for _, c := range []struct {
		sql  string
		want func(id int) (string, bool)
	}{
		{oneNote, func(id int) (string, bool) { return fmt.Sprintf("n7|%d|%d", id/notes, id*3), id%notes == 7 }},
		{oneRow, func(id int) (string, bool) { return fmt.Sprintf("n7|3|%d", id*3), id == 3*notes+7 }},
		{filtered, func(id int) (string, bool) { return fmt.Sprintf("%d|%d", id, id*3), id*3%1000 == 0 }},
		// Rows kept and rejected in turn, over many batches: a rejected
		// row's memory is the next row's, never a kept one's.
		{`SELECT id, v FROM r WHERE id % 3 <> 1`, func(id int) (string, bool) { return fmt.Sprintf("%d|%d", id, id*3), id%3 != 1 }},
	} {
		got := e.mustQuery(c.sql)
		var want []string
		for id := range n {
			if row, ok := c.want(id); ok {
				want = append(want, row)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %d rows %v, want %d %v", c.sql, len(got), got, len(want), want)
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
	allocated := func(sql string) int64 { return int64(leastAllocated(t, ctx, sess, sql, -1)) }
	// The hundred rows' memory beyond one row's (the statement's own
	// allocations are the same): a row of the table is 8 values of 56
	// bytes, so 16 kB is room for some 36 rows.
	if rows := allocated(oneNote) - allocated(oneRow); rows > 16<<10 {
		t.Errorf("%s: %d bytes more than for one row, want at most 16 kB", oneNote, rows)
	}
	perRow := float64(allocated(filtered)) / n
	if perRow > 100 {
		t.Errorf("%s: %.0f bytes allocated a row read, want at most 100", filtered, perRow)
	}
}
