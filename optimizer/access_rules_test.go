package optimizer

import (
	"testing"
	"time"

	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/zorder"
)

// The Z-order range budget follows the store's request cost: where a
// request is dear (a round trip) few ranges, reading more entries outside
// the box; where it is cheap, more ranges, reading fewer. Each choice must
// be the cheapest of the budgets by the cost it reports.
func TestPickBudgetFollowsRequestCost(t *testing.T) {
	s, err := zorder.NewSchema(zorder.Attr{Type: zorder.TypeInt, Width: 20}, zorder.Attr{Type: zorder.TypeInt, Width: 20})
	if err != nil {
		t.Fatal(err)
	}
	box := s.Universe()
	box.Narrow(0, zorder.Interval{Lo: 1000, Hi: 9000})
	box.Narrow(1, zorder.Interval{Lo: 300000, Hi: 301500})
	pick := func(latency time.Duration, rows float64) *candidate {
		c := &candidate{zorder: true, zschema: s, zbox: box, shards: 2, rows: rows}
		c.cover = s.Plan(box, 64)
		c.pickBudget(1e9, Options{Caps: kv.Capabilities{RequestLatency: latency}})
		return c
	}
	dear, cheap := pick(10*time.Millisecond, 1000), pick(time.Microsecond, 1000)
	if dear.ranges >= cheap.ranges {
		t.Errorf("ranges with dear requests %d, with cheap ones %d: want fewer when dear", dear.ranges, cheap.ranges)
	}
	if dear.budgetNote == "" || cheap.budgetNote == "" {
		t.Error("no budget note for EXPLAIN")
	}
	// Many more rows make reading outside the box dearer: more ranges.
	if many := pick(10*time.Millisecond, 1e6); many.ranges < dear.ranges {
		t.Errorf("ranges for 1e6 rows %d < for 1e3 rows %d", many.ranges, dear.ranges)
	}
}

// overCover measures a cover's ranges exactly: 1 for the whole space, and
// the true ratio for a small box deep in a 192-bit space (where a float
// span minus gaps would round to nothing).
func TestOverCover(t *testing.T) {
	s, err := zorder.NewSchema(zorder.Attr{Type: zorder.TypeInt}, zorder.Attr{Type: zorder.TypeInt}, zorder.Attr{Type: zorder.TypeInt})
	if err != nil {
		t.Fatal(err)
	}
	if got := overCover(s.Plan(s.Universe(), 1)); got != 1 {
		t.Errorf("universe: over-cover %v, want 1", got)
	}
	box := s.Universe()
	base := uint64(1) << 63
	box.Narrow(0, zorder.Interval{Lo: base + 1000, Hi: base + 1999})
	box.Narrow(1, zorder.Interval{Lo: base + 5000, Hi: base + 5999})
	box.Narrow(2, zorder.Interval{Lo: base, Hi: base + 1<<20})
	one, many := overCover(s.Plan(box, 1)), overCover(s.Plan(box, 256))
	if one < 10 || many >= one {
		t.Errorf("over-cover of one range %v, of 256 ranges %v: want one >> 1 and more ranges tighter", one, many)
	}
}

// A cover's row over-cover counts only its addresses inside the index's
// data bounds: a 2-D box whose third attribute is clipped to a narrow data
// span has covers that run far beyond that span, and those addresses hold
// no rows.
func TestRowOverCoverWithinDataBounds(t *testing.T) {
	s, err := zorder.NewSchema(zorder.Attr{Type: zorder.TypeInt}, zorder.Attr{Type: zorder.TypeInt}, zorder.Attr{Type: zorder.TypeInt})
	if err != nil {
		t.Fatal(err)
	}
	base := uint64(1) << 63
	data := s.Universe()
	data.Narrow(0, zorder.Interval{Lo: base, Hi: base + 1<<47})
	data.Narrow(1, zorder.Interval{Lo: base, Hi: base + 1<<46})
	data.Narrow(2, zorder.Interval{Lo: base + 3<<40, Hi: base + 5<<40})
	box := append(zorder.Box(nil), data...)
	box.Narrow(0, zorder.Interval{Lo: base + 1<<44, Hi: base + 1<<44 + 1<<43})
	box.Narrow(1, zorder.Interval{Lo: base + 3<<43, Hi: base + 3<<43 + 1<<42})
	without := &candidate{zorder: true, zschema: s, zbox: box}
	with := &candidate{zorder: true, zschema: s, zbox: box, dataBox: data}
	for _, budget := range []int{1, 4, 16, 64} {
		cv := s.Plan(box, budget)
		addrOnly, _ := without.rowOverCover(cv)
		rows, addrs := with.rowOverCover(cv)
		if addrOnly != addrs || rows < 1 || rows > addrs {
			t.Errorf("budget %d: row over-cover %v, address over-cover %v (without bounds %v)", budget, rows, addrs, addrOnly)
		}
		if budget == 1 && rows > addrs/2 {
			t.Errorf("budget 1: row over-cover %v not well below the address over-cover %v", rows, addrs)
		}
	}
}
