package optimizer

import (
	"fmt"
	"testing"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// TestCostsComposeAsPostgres feeds the composition of costs the input
// PostgreSQL 15 estimated for a Seq Scan of a table never analyzed
// (cost=0.00..22.70 rows=1270 width=36) and checks that it gives what
// PostgreSQL's EXPLAIN printed above it on the oracle:
//
//	Limit  (cost=46.88..46.89 rows=5 width=36)            -- ORDER BY b LIMIT 5 OFFSET 2
//	  ->  Sort  (cost=46.88..50.05 rows=1270 width=36)
//	HashAggregate  (cost=29.05..31.05 rows=200 width=40)  -- SELECT b, count(*) ... GROUP BY b
//	Aggregate  (cost=25.88..25.89 rows=1 width=8)         -- SELECT count(*)
//	Append  (cost=0.00..58.10 rows=2540 width=36)         -- its UNION ALL with itself
//	Hash Join  (cost=38.58..346.71 rows=8064 width=72)    -- joined with itself on b
func TestCostsComposeAsPostgres(t *testing.T) {
	cols := []ir.Column{{Name: "a", Type: sqltypes.TypeInt4, Col: -1}, {Name: "b", Type: sqltypes.TypeText, Col: -1}}
	scan := func(c *coster) Node {
		v := &Values{Cols: cols}
		c.out[v] = &NodeCost{Total: 22.70, Rows: 1270, Width: 36}
		return v
	}
	str := func(nc *NodeCost) string {
		return fmt.Sprintf("%.2f..%.2f rows=%.0f", nc.Startup, nc.Total, nc.Rows)
	}
	for _, tt := range []struct {
		name string
		plan func(in func() Node) Node
		want string
	}{
		{"sort top 7", func(in func() Node) Node { return &Sort{Input: in(), Keys: []ir.SortKey{{Col: 1}}, Limit: 7} },
			"46.88..50.05 rows=1270"},
		{"limit 5 offset 2", func(in func() Node) Node {
			return &Limit{Input: &Sort{Input: in(), Keys: []ir.SortKey{{Col: 1}}, Limit: 7}, Count: 5, Offset: 2}
		}, "46.88..46.89 rows=5"},
		{"count", func(in func() Node) Node { return &Aggregate{Input: in(), Aggs: []ir.AggCall{{}}} }, "25.88..25.89 rows=1"},
		{"hash aggregate", func(in func() Node) Node {
			return &Aggregate{Input: in(), GroupBy: []ir.Expr{&ir.ColRef{Index: 1, Typ: sqltypes.TypeText}}, Aggs: []ir.AggCall{{}}}
		}, "29.05..31.05 rows=200"},
		{"append", func(in func() Node) Node { return &SetOp{Op: ir.Union, All: true, Left: in(), Right: in(), Cols: cols} },
			"0.00..58.10 rows=2540"},
		{"hash join", func(in func() Node) Node {
			b := &ir.ColRef{Index: 1, Typ: sqltypes.TypeText}
			return &HashJoin{Left: in(), Right: in(), LeftKeys: []ir.Expr{b}, RightKeys: []ir.Expr{b}}
		}, "38.58..346.71 rows=8064"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &coster{out: map[Node]*NodeCost{}, work: map[int]float64{}, writes: map[int]*NodeCost{}}
			n := tt.plan(func() Node { return scan(c) })
			if got := str(c.cost(n)); got != tt.want {
				t.Errorf("%s, want %s", got, tt.want)
			}
		})
	}
}
