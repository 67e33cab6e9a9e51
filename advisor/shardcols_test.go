package advisor

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
)

// siteLog is (site text: 3 values, sensor int8: 500, ts, v) keyed by key
// (column ordinals), over shards, placed by leading shard columns.
func siteLog(shards, leading int, key ...int) (*catalog.Table, Statistics) {
	t := &catalog.Table{ID: 7, Name: "site_log", Shards: shards, ShardColumns: leading, Columns: []catalog.Column{
		{Name: "site", Type: sqltypes.TypeText}, {Name: "sensor", Type: sqltypes.TypeInt8},
		{Name: "ts", Type: sqltypes.TypeTimestamp}, {Name: "v", Type: sqltypes.TypeFloat8}}}
	for _, c := range key {
		t.PrimaryKey = append(t.PrimaryKey, catalog.KeyColumn{Column: c})
	}
	rng := rand.New(rand.NewPCG(9, 9))
	var sample [][]sqltypes.Value
	for i := 0; i < 3000; i++ {
		sample = append(sample, []sqltypes.Value{sqltypes.NewText(fmt.Sprintf("site-%d", rng.IntN(3))), sqltypes.NewInt(rng.Int64N(500)),
			sqltypes.NewTimestamp(rng.Int64N(365 * 86400e6)), sqltypes.NewFloat(rng.Float64())})
	}
	return t, NewSampleStats(200_000, sample)
}

// latestUses are reads of the newest row of one (site, sensor) or, with
// sensors > 1, of an IN list of sensors: range scans of the key prefix.
func latestUses(t *catalog.Table, site bool, sensors int) []*optimizer.TableUse {
	var out []*optimizer.TableUse
	for i := 0; i < 4; i++ {
		b := map[int]optimizer.ValueSet{}
		if site {
			b[0] = point(sqltypes.NewText(fmt.Sprintf("site-%d", i%3)))
		}
		var set optimizer.ValueSet
		for s := 0; s < sensors; s++ {
			set = append(set, point(sqltypes.NewInt(int64(i*50+s)))...)
		}
		b[1] = set
		u := scan(t, b, 2, 3)
		u.Method, u.Limit = optimizer.RangeScan, 1
		out = append(out, u)
	}
	return out
}

func TestAdviceShardColumns(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shards  int
		leading int
		key     []int
		site    bool // reads bind site too
		sensors int
		want    string // the SQL, "" for no advice
		before  float64
		after   float64
	}{
		{"latest by sensor", 4, 0, []int{1, 2}, false, 1, "ALTER TABLE site_log SET (shard_columns = (sensor))", 4, 1},
		{"IN list of 3", 8, 0, []int{1, 2}, false, 3, "ALTER TABLE site_log SET (shard_columns = (sensor))", 24, 3},
		// site alone has 3 values, too few to spread 4 shards: (site, sensor).
		{"site then sensor", 4, 0, []int{0, 1, 2}, true, 1, "ALTER TABLE site_log SET (shard_columns = (site, sensor))", 4, 1},
		// Reads binding only site gain nothing from (site, sensor).
		{"site only bound", 4, 0, []int{0, 1, 2}, false, 1, "", 0, 0},
		// site and then a time: no prefix short of the key spreads rows.
		{"no spreading prefix", 4, 0, []int{0, 2}, true, 1, "", 0, 0},
		{"one shard", 1, 0, []int{1, 2}, false, 1, "", 0, 0},
		{"already placed", 4, 1, []int{1, 2}, false, 1, "", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, st := siteLog(tc.shards, tc.leading, tc.key...)
			uses := latestUses(tab, tc.site, tc.sensors)
			if !tc.site {
				for _, u := range uses {
					delete(u.Bounds, 0)
				}
			}
			if tc.name == "site only bound" {
				for _, u := range uses {
					u.Bounds[0] = point(sqltypes.NewText("site-1"))
					delete(u.Bounds, 1)
				}
			}
			stmts := []Statement{stmt(1, "SELECT ts, v FROM site_log WHERE ... ORDER BY ts DESC LIMIT 1", 5000, uses...)}
			recs, err := Advise(Input{Tables: []*catalog.Table{tab}, Statements: stmts,
				Stats: func(*catalog.Table) (Statistics, error) { return st, nil }})
			if err != nil {
				t.Fatal(err)
			}
			var got *Recommendation
			for i := range recs {
				if strings.Contains(recs[i].SQL, "shard_columns") {
					got = &recs[i]
				}
			}
			switch {
			case tc.want == "" && got != nil:
				t.Fatalf("unexpected advice:\n%s", Render([]Recommendation{*got}, nil))
			case tc.want == "":
			case got == nil:
				t.Fatalf("no shard_columns advice; got:\n%s", Render(recs, nil))
			case got.SQL != tc.want || got.Kind != KindShards || got.RequestsBefore != tc.before || got.RequestsAfter != tc.after || got.Calls != 5000:
				t.Errorf("got %q (%s), requests %v -> %v, %d calls; want %q, %v -> %v", got.SQL, got.Kind, got.RequestsBefore, got.RequestsAfter, got.Calls, tc.want, tc.before, tc.after)
			}
		})
	}
}

// The cost model knows that a table placed by its shard columns reads one
// shard per bound prefix.
func TestEstimateWithShardColumns(t *testing.T) {
	for _, leading := range []int{0, 1} {
		tab, st := siteLog(4, leading, 1, 2)
		a := &tableAdvisor{t: tab, st: st}
		u := latestUses(tab, false, 2)[0]
		delete(u.Bounds, 0)
		want := map[int]float64{0: 8, 1: 2}[leading]
		if got := a.estimate(u, nil).requests; got != want {
			t.Errorf("shard columns %d: %v requests, want %v", leading, got, want)
		}
	}
}
