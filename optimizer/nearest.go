package optimizer

import (
	"fmt"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// Nearest-neighbour search. ORDER BY col <-> constant LIMIT k over a
// column of a planar point type that a gist index covers (catalog.GistKey:
// a Z-order index over the column's x and y) is planned as a scan that
// reads the index ring by ring outward from the constant
// (zorder.NearestSearch) and stops once it holds the k nearest rows that
// pass the scan's filter. The Sort and Limit above stay: the scan hands
// them the candidates (the k nearest and every row tied with the k-th), so
// the order, the tie-breaks of later sort keys and the OFFSET are the
// ordinary operators' and exactly PostgreSQL's.

// nearestReq asks a scan for the rows with the k smallest values of dist:
// the first key of an ORDER BY ... LIMIT above it (k counts the OFFSET).
type nearestReq struct {
	dist ir.Expr // over the scan's table row
	k    int
}

// NearestQuery is what a ZOrderNearest scan searches for.
type NearestQuery struct {
	// K is how many rows the operators above take.
	K int
	// Dist is the sort key, col <-> Center, over the table row; the
	// executor evaluates it on each row read.
	Dist ir.Expr
	// Center is the query point: a constant or a parameter.
	Center ir.Expr
	// Coords gives the coordinates of the centre and of Column's values.
	Coords builtins.PlanarPoint
	// Column is the indexed column's ordinal in the table row.
	Column int
	// X and Y are the Z-order attributes holding the column's x and y.
	X, Y int
	// Extent is the data's extent [xlo, xhi, ylo, yhi] from the index's
	// data bounds, nil when it keeps none.
	Extent *[4]float64
	// Budget bounds each ring's cover.
	Budget int
}

// Describe is the search in EXPLAIN's words.
func (q *NearestQuery) Describe() string {
	return fmt.Sprintf("%d nearest to %s", q.K, q.Center)
}

// nearestOrder returns the nearest-neighbour request for an ORDER BY whose
// first key is the expression key of exprs, under a LIMIT of k rows, or
// nil when it is no such search: an ascending col <-> constant of a planar
// point type, NULLs last (PostgreSQL's default for ASC).
func nearestOrder(order []ir.SortKey, exprs []ir.Expr, k int) *nearestReq {
	if k <= 0 || len(order) == 0 || order[0].Desc || order[0].NullsFirst {
		return nil
	}
	e := exprs[order[0].Col]
	if _, _, _, ok := nearestOperand(e); !ok {
		return nil
	}
	return &nearestReq{dist: e, k: k}
}

// nearestOperand recognises dist as col <-> center (either way round)
// where both sides are of a planar point type, the column is a plain
// column of the row and the centre is fixed for one execution.
func nearestOperand(dist ir.Expr) (col int, center ir.Expr, coords builtins.PlanarPoint, ok bool) {
	f, isFunc := dist.(*ir.Func)
	if !isFunc || f.Name != "<->" || len(f.Args) != 2 {
		return 0, nil, nil, false
	}
	for i, a := range f.Args {
		c, isCol := columnOperand(a)
		other := f.Args[1-i]
		if !isCol || !ir.IsStatementConstant(other) {
			continue
		}
		cc, oc := builtins.PlanarPointOf(c.Typ), builtins.PlanarPointOf(other.Type())
		if cc == nil || oc == nil || c.Typ.ID != other.Type().ID {
			continue
		}
		return c.Index, other, oc, true
	}
	return 0, nil, nil, false
}

// nearestPath returns the candidate of a nearest-neighbour search for the
// scan's request, with the query it runs, or nil when no public gist
// index covers the column (or a partial one's predicate is not implied:
// the view leaves such an index out).
func nearestPath(s *scanSpec, b bounds, view *indexView, opts Options) (*candidate, *NearestQuery) {
	col, center, coords, ok := nearestOperand(s.Nearest.dist)
	if !ok {
		return nil, nil
	}
	for _, ix := range s.Table.Indexes {
		orig := view.index(ix)
		if orig == nil || orig.Gist == nil || orig.Gist.Column != col || ix.State != catalog.StatePublic || ix.Kind != catalog.KindZOrder {
			continue
		}
		// No statistics' estimate: a search reads until it settles, and
		// the cost model sizes it by K (cost.go).
		c := newCandidate(s, b, ix, opts)
		if c.zbox.Empty() {
			continue // the filter admits no row the index holds
		}
		q := &NearestQuery{K: s.Nearest.k, Dist: s.Nearest.dist, Center: center, Coords: coords, Column: col, X: 0, Y: 1, Budget: zBudget(opts)}
		if opts.ZBounds != nil {
			if zb := opts.ZBounds(ix); zb != nil {
				data := c.zschema.Universe()
				zb.Clip(data)
				c.dataBox = data
				xlo, xhi, okx := c.zschema.Attr(q.X).FloatSpan(data[q.X])
				ylo, yhi, oky := c.zschema.Attr(q.Y).FloatSpan(data[q.Y])
				if okx && oky {
					q.Extent = &[4]float64{xlo, xhi, ylo, yhi}
				}
			}
		}
		return c, q
	}
	return nil, nil
}

// columnOperand returns the column an operand reads as it is: a column,
// or a column under a cast that drops only its typmod (geometry(Point,
// 4326) to geometry, which the binder adds to reach an operator).
func columnOperand(e ir.Expr) (*ir.ColRef, bool) {
	if c, ok := e.(*ir.Cast); ok && c.E.Type().ID == c.To.ID && c.To.ID != sqltypes.Array {
		e = c.E
	}
	ref, ok := e.(*ir.ColRef)
	return ref, ok
}
