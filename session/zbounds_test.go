package session_test

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/session"
	"github.com/zproxy/zproxy/wire"
)

// zbRow is row id of the bounds test: a point in [40, 41) x [-74.5, -73.5)
// and a timestamp that mostly grows with id (each write past the bounds
// widens them) with every 13th row far in the past and every 17th far in
// the future, so the bounds must widen both ways.
func zbRow(id int) (lat, lon float64, ts time.Time) {
	f := func(k float64) float64 { x := float64(id) * k; return x - math.Floor(x) }
	ts = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(id) * time.Minute)
	switch {
	case id%13 == 0:
		ts = ts.AddDate(-30, 0, 0)
	case id%17 == 0:
		ts = ts.AddDate(40, 0, 0)
	}
	return 40 + f(0.6180339887), -74.5 + f(0.7548776662), ts
}

const zbBox = `lat BETWEEN 40.2 AND 40.7 AND lon BETWEEN -74.3 AND -73.8`

func zbInBox(id int) bool {
	lat, lon, _ := zbRow(id)
	return lat >= 40.2 && lat <= 40.7 && lon >= -74.3 && lon <= -73.8
}

// Two proxies (engines) write to one store while queries through both clip
// a box on a (lat, lon, ts) Z-order index, ts unbounded, to the index's
// data bounds: every row whose INSERT had returned before a query began
// must be in its result (the bounds were widened before the row
// committed), and at the end the box equals a full scan's answer.
func TestZBoundsConcurrentWritersMissNoRow(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			store := be.open(t)
			t.Cleanup(func() { store.Close() })
			open := func() *session.Engine {
				eng, err := session.New(ctx, session.Config{Store: store, AllowFullScan: true, TTLSweep: -1, AutoAnalyzeNap: -1})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { eng.Close() })
				return eng
			}
			a := open()
			setup := openSession(t, a)
			mustExec(t, setup, `CREATE TABLE zb (id BIGINT PRIMARY KEY, lat DOUBLE PRECISION, lon DOUBLE PRECISION, ts TIMESTAMP) WITH (shards = 2)`)
			mustExec(t, setup, `CREATE INDEX zb_place ON zb USING zorder (lat, lon, ts) WITH (shards = 2)`)
			b := open() // opened after the schema exists: it loads it
			engines := []*session.Engine{a, b}

			perWriter := 150
			if be.name == "dynamodb" {
				perWriter = 60
			}
			var mu sync.Mutex
			acked := map[int]bool{}
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for w := 0; w < 4; w++ {
				sess := openSession(t, engines[w%2])
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := 0; i < perWriter; i++ {
						id := i*4 + w + 1
						lat, lon, ts := zbRow(id)
						sql := fmt.Sprintf(`INSERT INTO zb VALUES (%d, %v, %v, '%s')`, id, lat, lon, ts.Format("2006-01-02 15:04:05"))
						if _, err := runSQL(ctx, sess, sql); err != nil {
							errs <- fmt.Errorf("%s: %w", sql, err)
							return
						}
						mu.Lock()
						acked[id] = true
						mu.Unlock()
					}
				}(w)
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			readers := []wire.Session{openSession(t, a), openSession(t, b)}
			query := `SELECT id FROM zb WHERE ` + zbBox
			queries := 0
			for finished := false; !finished; queries++ {
				select {
				case <-done:
					finished = true
				default:
				}
				mu.Lock()
				var before []int
				for id := range acked {
					if zbInBox(id) {
						before = append(before, id)
					}
				}
				mu.Unlock()
				got, err := runSQL(ctx, readers[queries%2], query)
				if err != nil {
					t.Fatal(err)
				}
				have := map[string]bool{}
				for _, r := range got {
					have[r] = true
				}
				for _, id := range before {
					if !have[fmt.Sprint(id)] {
						t.Fatalf("query %d missed row %d, inserted before it began (bounds clipped it away)", queries, id)
					}
				}
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			// At rest: the clipped box equals the full scan's answer, on
			// both proxies, and EXPLAIN says the box was clipped.
			want := mustExec(t, readers[0], `SELECT /*+ IGNORE_INDEX(zb, zb_place) */ id FROM zb WHERE `+zbBox)
			sort.Strings(want)
			n := 0
			for id := 1; id <= 4*perWriter; id++ {
				if zbInBox(id) {
					n++
				}
			}
			if len(want) != n {
				t.Fatalf("full scan found %d rows in the box, want %d", len(want), n)
			}
			for _, r := range readers {
				got := mustExec(t, r, query)
				sort.Strings(got)
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("box query found %d rows, full scan %d", len(got), len(want))
				}
				plan := strings.Join(mustExec(t, r, `EXPLAIN `+query), "\n")
				if !strings.Contains(plan, "zb_place") || !strings.Contains(plan, "clipped to the data bounds") {
					t.Fatalf("plan does not clip the box:\n%s", plan)
				}
			}
			t.Logf("%d queries during %d concurrent inserts", queries, 4*perWriter)
		})
	}
}

// COPY FROM widens the bounds too: rows copied in, far outside the rows
// inserted before, are found by a box clipped to the bounds.
func TestZBoundsCopy(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			store := be.open(t)
			defer store.Close()
			_, sess := newSession(t, store)
			mustExec(t, sess, `CREATE TABLE zc (id BIGINT PRIMARY KEY, x BIGINT, y BIGINT)`)
			mustExec(t, sess, `CREATE INDEX zc_xy ON zc USING zorder (x, y)`)
			mustExec(t, sess, `INSERT INTO zc VALUES (1, 10, 10), (2, 20, 20)`)
			var rows [][]sqltypes.Value
			for i := int64(0); i < 50; i++ {
				rows = append(rows, []sqltypes.Value{sqltypes.NewInt(100 + i), sqltypes.NewInt(1 << 40), sqltypes.NewInt(i - 1<<50)})
			}
			if _, err := copyIn(ctx, sess, `COPY zc FROM STDIN`, rows, 16); err != nil {
				t.Fatal(err)
			}
			got := mustExec(t, sess, `SELECT count(*) FROM zc WHERE x > 100`)
			if got[0] != "50" {
				t.Fatalf("box x > 100 found %s rows, want the 50 copied", got[0])
			}
			plan := strings.Join(mustExec(t, sess, `EXPLAIN SELECT count(*) FROM zc WHERE x > 100`), "\n")
			if !strings.Contains(plan, "clipped to the data bounds") {
				t.Fatalf("box not clipped:\n%s", plan)
			}
		})
	}
}
