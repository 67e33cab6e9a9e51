package optimizer

import (
	"fmt"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/ir"
)

// Spatial lookup joins. A join whose condition relates a geometry column
// of one table, covered by a gist index, to an expression over the other
// side by a PostGIS predicate the index serves (&&, ST_Intersects,
// ST_Within, ST_Contains, ST_Covers, ST_DWithin) has no equality for a
// lookup join; as a nested loop it would read the indexed table once per
// row. Instead it is an Apply whose inner side is the indexed table
// filtered by the predicate over the outer row: a dynamic scan, planned
// for each outer row with that row's geometry as the constant, so the
// gist index reads the ranges of that geometry's box (a polygon's, grown
// by the distance for ST_Dwithin) and the predicate is checked exactly on
// each row it returns. SELECT z.id, count(*) FROM zones z JOIN pois p ON
// ST_Within(p.geom, z.geom) GROUP BY z.id reads, per zone, the points in
// its box.

// spatialJoinFuncs are the predicates a gist index serves between its
// column and a constant (gistbounds.go), hence per outer row.
var spatialJoinFuncs = map[string]bool{"&&": true, "st_intersects": true, "st_within": true, "st_contains": true,
	"st_covers": true, "st_dwithin": true}

// ruleSpatialLookup: an inner or left join with such a predicate looks up
// the right table by it or, for an inner join, the left one; when both
// could be, the side whose index is over points (so that polygons drive
// a point-in-polygon join).
func ruleSpatialLookup(jc *joinContext) (Node, bool, error) {
	j := jc.j
	if j.Lateral || (j.Kind != ir.InnerJoin && j.Kind != ir.LeftJoin) || jc.hints.hash || jc.hints.merge {
		return nil, false, nil
	}
	lw, rw := len(j.Left.Columns()), len(j.Right.Columns())
	right, rpoints := spatialPredicate(j.On, j.Right, lw)
	var left ir.Expr
	lpoints := false
	if j.Kind == ir.InnerJoin {
		left, lpoints = spatialPredicate(swapSides(j.On, lw, rw), j.Left, rw)
	}
	switch {
	case right != nil && (left == nil || rpoints || !lpoints):
		return jc.b.spatialApply(j.Kind, j.Left, j.Right, j.On, right, lw)
	case left != nil:
		n, ok, err := jc.b.spatialApply(ir.InnerJoin, j.Right, j.Left, swapSides(j.On, lw, rw), left, rw)
		if !ok || err != nil {
			return nil, ok, err
		}
		return restoreOrder(n, lw, rw), true, nil
	}
	return nil, false, nil
}

// spatialPredicate finds a conjunct of on (over [outer (ow columns),
// inner]) that relates a gist-indexed geometry column of inner's table to
// an expression over the outer row alone; points reports whether that
// index is over points.
func spatialPredicate(on ir.Expr, inner ir.Rel, ow int) (c ir.Expr, points bool) {
	s := baseScan(inner)
	if s == nil || ir.HasOuterRef(scanFilter(inner)) || ir.HasSubquery(scanFilter(inner)) {
		return nil, false
	}
	for _, c := range ir.Conjuncts(on) {
		f, ok := c.(*ir.Func)
		if !ok || !spatialJoinFuncs[f.Name] || ir.HasSubquery(f) || len(f.Args) < 2 || len(f.Args) > 3 ||
			(len(f.Args) == 3 && f.Name != "st_dwithin") {
			continue
		}
		for i := 0; i < 2; i++ {
			ref, isCol := columnOperand(f.Args[i])
			if !isCol || ref.Index < ow {
				continue
			}
			ix := gistOn(s.Table, ref.Index-ow)
			outer := true
			for k, a := range f.Args {
				if k != i {
					outer = outer && onlyBelow(a, ow) && !readsVolatileExpr(a)
				}
			}
			if ix != nil && outer {
				return c, ix.Gist.XZ == nil
			}
		}
	}
	return nil, false
}

// gistOn returns a public gist index of t over column col, or nil.
func gistOn(t *catalog.Table, col int) *catalog.Index {
	for _, ix := range t.Indexes {
		if ix.Gist != nil && !ix.Gist.Ordered() && ix.Gist.Column == col && ix.State == catalog.StatePublic && ix.Predicate == "" {
			return ix
		}
	}
	return nil
}

// readsVolatileExpr reports whether e calls a function whose value may
// change within a statement: per outer row it would not be one constant.
func readsVolatileExpr(e ir.Expr) bool {
	volatile := false
	ir.Walk(e, func(x ir.Expr) {
		if f, ok := x.(*ir.Func); ok && f.PerCall {
			volatile = true
		}
	})
	return volatile
}

// spatialApply plans the join of outer with inner as an Apply whose inner
// side is inner filtered by pred, its outer columns read from the outer
// row.
func (b *builder) spatialApply(kind ir.JoinKind, outer, inner ir.Rel, on, pred ir.Expr, ow int) (Node, bool, error) {
	var rest []ir.Expr
	for _, c := range ir.Conjuncts(on) {
		if c != pred {
			rest = append(rest, c)
		}
	}
	inRow := toOuterRefs(pred, ow)
	j := ir.NewJoin(kind, outer, &ir.Filter{Input: inner, Pred: inRow}, andAll(rest))
	// The outer row is read whole: by the join filter, the projection
	// above and the inner side's outer references.
	lneed := make([]bool, ow)
	for i := range lneed {
		lneed[i] = true
	}
	n, _, err := b.apply(j, lneed)
	if err != nil {
		return nil, false, err
	}
	s := baseScan(inner)
	a := n.(*Apply)
	a.Reason = fmt.Sprintf("spatial lookup join: each %s row's geometry bounds a read of gist index %s of %s (%s)",
		relAlias(outer), gistOn(s.Table, spatialColumn(pred, ow)).Name, s.Alias, pred.String())
	return a, true, nil
}

// spatialColumn is the inner column pred reads (spatialPredicate found it).
func spatialColumn(pred ir.Expr, ow int) int {
	for _, a := range pred.(*ir.Func).Args {
		if ref, ok := columnOperand(a); ok && ref.Index >= ow {
			return ref.Index - ow
		}
	}
	return -1
}

// relAlias names a relation in EXPLAIN: its table's alias, or "outer".
func relAlias(r ir.Rel) string {
	if s := baseScan(r); s != nil {
		return s.Alias
	}
	return "outer"
}

// toOuterRefs rewrites e, over [outer (ow columns), inner], over the inner
// row alone, the outer columns read as outer references.
func toOuterRefs(e ir.Expr, ow int) ir.Expr {
	switch x := e.(type) {
	case *ir.ColRef:
		if x.Index < ow {
			return &ir.OuterRef{Depth: 1, Index: x.Index, Name: x.Name, Typ: x.Typ}
		}
		return &ir.ColRef{Index: x.Index - ow, Name: x.Name, Typ: x.Typ}
	}
	kids := e.AppendChildren(nil)
	if len(kids) == 0 {
		return e
	}
	for i, k := range kids {
		kids[i] = toOuterRefs(k, ow)
	}
	return e.WithChildren(kids)
}
