package executor_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/zproxy/zproxy/kv"
	zpebble "github.com/zproxy/zproxy/kv/pebble"
	"github.com/zproxy/zproxy/session"
)

// scanCountingStore counts the Scans opened on it and hands out its inner
// store's iterators as they are, so they stay kv.Rescanners.
type scanCountingStore struct {
	kv.Store
	scans atomic.Int64
}

func (s *scanCountingStore) Scan(ctx context.Context, req kv.ScanRequest) kv.Iterator {
	s.scans.Add(1)
	return s.Store.Scan(ctx, req)
}

// storeRequests finds the store requests (one a range) of EXPLAIN ANALYZE's
// scan line.
var storeRequests = regexp.MustCompile(`z-order skip-scan .*store requests=(\d+)`)

// TestZOrderScanRescansOneIterator: a Z-order scan of many ranges on a store
// whose iterators can move between ranges (kv.Rescanner) opens one iterator
// per shard stream, not one per range, and returns what a full scan does,
// forward, in reverse (ORDER BY ... DESC through the index) and under a
// LIMIT.
func TestZOrderScanRescansOneIterator(t *testing.T) {
	inner, err := zpebble.Open("rescan", zpebble.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	store := &scanCountingStore{Store: inner}
	// The env's engine, on this store rather than a request log (whose
	// iterators do not move between ranges).
	e := storeEnv(t, store)
	query := e.mustQuery
	query(`CREATE TABLE pts (id bigint PRIMARY KEY, x float8 NOT NULL, y float8 NOT NULL, v int) WITH (shards = 1)`)
	rng := rand.New(rand.NewPCG(29, 7))
	for start := 0; start < 4000; start += 500 {
		var vals []string
		for id := start; id < start+500; id++ {
			vals = append(vals, fmt.Sprintf("(%d, %.4f, %.4f, %d)", id, rng.Float64(), rng.Float64(), rng.IntN(1000)))
		}
		query(`INSERT INTO pts VALUES ` + strings.Join(vals, ", "))
	}
	query(`CREATE INDEX pts_z ON pts USING zorder (x, y) INCLUDE (v)`)
	query(`ANALYZE pts`)
	multi := 0
	for q := 0; q < 30; q++ {
		x, y, side := rng.Float64()*0.8, rng.Float64()*0.8, []float64{0.02, 0.1, 0.2}[q%3]
		where := fmt.Sprintf(`x BETWEEN %.4f AND %.4f AND y BETWEEN %.4f AND %.4f`, x, x+side, y, y+side)
		for _, sel := range []string{
			`SELECT %s id, x, y, v FROM pts WHERE %s ORDER BY id`,
			`SELECT %s count(*), sum(v) FROM pts WHERE %s`,
			`SELECT %s id FROM pts WHERE %s ORDER BY x DESC, id LIMIT 5`,
		} {
			want := query(fmt.Sprintf(sel, "/*+ IGNORE_INDEX(pts, pts_z) */", where))
			sql := fmt.Sprintf(sel, "/*+ USE_INDEX(pts, pts_z) */", where)
			plan := strings.Join(query("EXPLAIN ANALYZE "+sql), "\n")
			if !strings.Contains(plan, "z-order") {
				t.Fatalf("%s does not read the Z-order index:\n%s", sql, plan)
			}
			before := store.scans.Load()
			got := query(sql)
			if scans := store.scans.Load() - before; scans != 1 {
				t.Errorf("%s opened %d iterators, want 1 (one shard):\n%s", sql, scans, plan)
			}
			if m := storeRequests.FindStringSubmatch(plan); m != nil && m[1] != "1" {
				multi++
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%s:\n%q\na full scan:\n%q", sql, got, want)
			}
		}
	}
	if multi == 0 {
		t.Fatal("no query read more than one range: the test tests nothing")
	}
}

// storeEnv is an env whose engine runs on store itself, not on a request
// log, closed when the test ends.
func storeEnv(t *testing.T, store kv.Store) *env {
	t.Helper()
	t.Cleanup(func() { store.Close() })
	ctx := context.Background()
	eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true, AutoAnalyzeNap: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return &env{t: t, ctx: ctx, eng: eng, names: map[string]string{}}
}
