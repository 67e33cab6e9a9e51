package optimizer

import (
	"fmt"
	"math"
	"strconv"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/zorder"
)

// Nearest-neighbour search. ORDER BY col <-> constant LIMIT k over a
// column of a planar point type that a gist index covers (catalog.GistKey:
// a Z-order index over the column's x and y) is planned as a scan that
// reads the index ring by ring outward from the constant
// (zorder.NearestSearch) and stops once it holds the k nearest rows that
// pass the scan's filter. The Sort and Limit above stay: the scan hands
// them the candidates (the k nearest and every row tied with the k-th), so
// the order, the tie-breaks of later sort keys and the OFFSET are the
// ordinary operators' and exactly PostgreSQL's. Where the distance is the
// only sort key, the candidates come in its order and the Sort goes
// (yieldsNearest in physical.go).
//
// Over shapes (a gist index XZ-ordering a geometry column of any shape, or
// a box, polygon or circle column: catalog.GistKey.XZ), the scan is an
// XZNearest one: the rings are the query's box grown by each radius, read
// as the XZ2 code ranges of the cells whose enlarged elements meet it
// (zorder.XZNearest), and each row's exact distance decides.

// nearestReq asks a scan for the rows with the k smallest values of dist:
// the first key of an ORDER BY ... LIMIT above it (k counts the OFFSET).
type nearestReq struct {
	dist ir.Expr // over the scan's table row
	k    int
	// why is "ORDER BY dist LIMIT k" as EXPLAIN's reasons name the search,
	// formatted once with the request: a generic plan plans its scan again
	// for every execution from the same request (replanScan), and
	// formatting the distance expression each time cost more than the rest
	// of its reasons.
	why string
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
	// Density is the table's rows per unit of x-y area, set where the
	// table was analyzed and the scan has no filter, 0 otherwise: over
	// the extent of the column's points that ANALYZE found (Points), or,
	// for statistics older than that, over the data's extent (Extent),
	// whose bounds hold every entry widened in coarse cells, so that it is
	// a floor of the mean density (a fifth low over a one-degree square).
	// On a store with cheap seeks it sizes the square search's first
	// square (the executor's runSquares). Where every range read is a store request (no
	// cheap seeks), the executor sizes its probe by it, one cell around
	// the centre, rather than reading a run of the Z-curve whose entries
	// mostly lie outside the disc it then reads; elsewhere it is the floor
	// of the density the probe measures, which a probe through the empty
	// margin of the data's bounds would put far too low.
	Density float64
	// Points is [xlo, xhi, ylo, yhi], the extent of the column's finite
	// points when the table was analyzed (catalog.ColumnStats.Extent),
	// nil otherwise, or where Density is 0.
	Points *[4]float64
	// XZ, on an XZNearest scan, is the index's XZ2 world; XZKey is its key
	// expression (the row's code) over the table row, and Margin how much
	// nearer than its bounding box the distance may call a shape
	// (PostgreSQL's fuzzy comparisons: a point within EPSILON of a polygon
	// is inside it).
	XZ     *zorder.XZ2
	XZKey  ir.Expr
	Margin float64
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
	return &nearestReq{dist: e, k: k, why: "ORDER BY " + e.String() + " LIMIT " + strconv.Itoa(k)}
}

// nearestOperand recognises dist as col <-> center (either way round)
// where the centre is of a planar point type and fixed for one execution,
// and the column a plain column of the row of the same type (a point, a
// geometry) or one of PostgreSQL's shapes an XZ gist index holds (a box,
// polygon or circle, whose <-> point is the distance to the shape).
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
		sameType := cc != nil && c.Typ.ID == other.Type().ID
		if oc == nil || !(sameType || xzShapes[c.Typ.ID] && other.Type().ID == sqltypes.GeoPoint) {
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
func nearestPath(s *scanSpec, orig *catalog.Table, b bounds, view *indexView, opts Options) (*candidate, *NearestQuery) {
	col, center, coords, ok := nearestOperand(s.Nearest.dist)
	if !ok {
		return nil, nil
	}
	for _, ix := range s.Table.Indexes {
		oix := view.index(ix)
		if oix == nil || oix.Gist == nil || oix.Gist.Ordered() || oix.Gist.Column != col || ix.State != catalog.StatePublic {
			continue
		}
		if g := oix.Gist; g.XZ != nil && ix.Kind == catalog.KindBTree {
			bound, err := ir.BindIndex(orig, oix)
			if err != nil || bound == nil || len(bound.Keys) != 1 {
				continue
			}
			margin := 0.0
			if orig.Columns[col].Type.ID != sqltypes.Geometry {
				margin = 4 * geoEpsilon
			}
			return newCandidate(s, b, ix, opts), &NearestQuery{K: s.Nearest.k, Dist: s.Nearest.dist, Center: center, Coords: coords,
				Column: col, XZ: g.XZ, XZKey: bound.Keys[0], Margin: margin, Budget: min(xzBudget(opts), xzNearestBudget)}
		}
		if ix.Kind != catalog.KindZOrder {
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
			if zb := opts.ZBounds.ZBounds(ix); zb != nil {
				data := c.zschema.Universe()
				zb.Clip(data)
				c.dataBox = data
				// The search's cells are the data's: a centre outside
				// them is then known to be (NearestCells.Offset), and
				// no empty reach of the address space is split.
				zb.Clip(c.zbox)
				c.clipped = true
				xlo, xhi, okx := c.zschema.Attr(q.X).FloatSpan(data[q.X])
				ylo, yhi, oky := c.zschema.Attr(q.Y).FloatSpan(data[q.Y])
				if okx && oky {
					q.Extent = &[4]float64{xlo, xhi, ylo, yhi}
				}
			}
		}
		q.Density, q.Points = statsDensity(s, orig, col, opts, q.Extent)
		return c, q
	}
	return nil, nil
}

// statsDensity is the statistics' rows per unit of area, for a
// nearest-neighbour scan of s of column col, 0 when the table was never
// analyzed, the area is none, or a filter makes the rows that qualify
// fewer than the table's (the probe then measures their density itself).
// The area is that of the column's points when ANALYZE found them
// (catalog.ColumnStats.Extent, returned as points), and the rows those
// with a point; else that of extent, the data bounds, which are coarser,
// if any.
func statsDensity(s *scanSpec, t *catalog.Table, col int, opts Options, extent *[4]float64) (density float64, points *[4]float64) {
	if opts.Stats == nil || s.Filter != nil {
		return 0, nil
	}
	ts := opts.Stats(t.ID)
	if ts == nil || !(ts.Rows > 0) {
		return 0, nil
	}
	rows, area := ts.Rows, math.Inf(1)
	if e := extent; e != nil {
		area = (e[1] - e[0]) * (e[3] - e[2])
	}
	if col < len(t.Columns) {
		if cs := ts.Column(&t.Columns[col]); cs != nil && cs.Extent != nil {
			x := cs.Extent
			if a := (x[1] - x[0]) * (x[3] - x[2]); a > 0 && a < area {
				rows, area, points = rows*(1-cs.NullFrac), a, x
			}
		}
	}
	if !(area > 0) || math.IsInf(area, 0) || !(rows > 0) {
		return 0, nil
	}
	return rows / area, points
}

// xzNearestBudget caps a ring's XZ code ranges, on Pebble too: a small
// ring's box meets three or four cells' elements on each level, some 60
// ranges, mostly empty; a larger budget only splits the finest levels
// further (BenchmarkXZNearest: 100,000 polygons, k = 10, 237 seeks a query
// at 256 and 65 at 64 for the same entries read, in less time).
const xzNearestBudget = 64

// xzShapes are PostgreSQL's shapes whose gist index is an XZ one and
// whose <-> a point is a distance a nearest-neighbour search can find
// (box_ops, poly_ops and circle_ops order by it in PostgreSQL).
var xzShapes = map[sqltypes.TypeID]bool{sqltypes.GeoBox: true, sqltypes.GeoPolygon: true, sqltypes.GeoCircle: true}

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
