package stmtstats

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestMergeMatchesOneStore: the executions of a statement recorded by
// several proxies and merged (through JSON, as proxies exchange them) give
// the statistics one store recording them all gives.
func TestMergeMatchesOneStore(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	all := New(0)
	parts := []*Store{New(0), New(0), New(0)}
	keys := []Key{{UserID: 10, DBID: 5, QueryID: 1, Toplevel: true}, {UserID: 10, DBID: 5, QueryID: 2, Toplevel: true}, {UserID: 11, DBID: 5, QueryID: 1, Toplevel: true}}
	for i := 0; i < 2000; i++ {
		k := keys[r.IntN(len(keys))]
		x := Exec{Query: "q", Planned: r.IntN(2) == 0, PlanTime: time.Duration(r.IntN(1e6)), ExecTime: time.Duration(r.IntN(5e7)),
			Rows: int64(r.IntN(9)), ItemsRead: int64(r.IntN(50)), Requests: int64(r.IntN(4)), Capacity: float64(r.IntN(8)) / 2,
			AccessPath: []string{"", "pk point", "index range"}[r.IntN(3)], FullScans: int64(r.IntN(2))}
		all.Record(k, x)
		parts[r.IntN(len(parts))].Record(k, x)
	}
	var sets [][]Entry
	for _, p := range parts {
		b, err := json.Marshal(p.Entries())
		if err != nil {
			t.Fatal(err)
		}
		var back []Entry
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		sets = append(sets, back)
	}
	got, want := Merge(sets...), all.Entries()
	if len(got) != len(want) {
		t.Fatalf("%d merged entries, want %d", len(got), len(want))
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	for i := range want {
		g, w := got[i], want[i]
		if g.Key != w.Key || g.Calls() != w.Calls() || g.Plan.N != w.Plan.N || g.Rows != w.Rows || g.ItemsRead != w.ItemsRead ||
			g.Requests != w.Requests || g.Capacity != w.Capacity || g.FullScans != w.FullScans || g.AccessPath() != w.AccessPath() {
			t.Fatalf("entry %d: merged %+v, want %+v", i, g, w)
		}
		for _, pair := range [][2]Timing{{g.Exec, w.Exec}, {g.Plan, w.Plan}} {
			if !near(pair[0].Total, pair[1].Total) || pair[0].Min != pair[1].Min || pair[0].Max != pair[1].Max ||
				!near(pair[0].Mean(), pair[1].Mean()) || !near(pair[0].Stddev(), pair[1].Stddev()) {
				t.Fatalf("entry %d timing: merged %+v (mean %v, sd %v), want %+v (mean %v, sd %v)", i,
					pair[0], pair[0].Mean(), pair[0].Stddev(), pair[1], pair[1].Mean(), pair[1].Stddev())
			}
		}
	}
}
