package executor

import (
	"context"
	"math"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/zorder"
)

// runXZ is the search of an XZNearest scan: a gist index over shapes, a
// btree over each row's XZ2 code (optimizer.NearestQuery.XZ). The rings
// (zorder.XZNearest) are the query's box (a point's, or a query geometry's
// bounding box) grown by each radius; each reads, within the key ranges
// the scan's filter leaves (the node's Ranges, the base), the code ranges
// of its box that no ring or probe read, and keeps every row it admits.
// Once the K-th candidate is no farther than the ring's radius (less the
// query's Margin) no unread shape can be nearer: an unread shape's
// bounding box lies outside the ring's box (zorder.XZNearest). The last
// ring reads whatever of the base is still unread, rows whose key is NULL
// (NULL and empty shapes) included.
func (r *nearestRows) runXZ(ctx context.Context) error {
	ec, n, q := r.ec, r.node, r.q
	centre, err := q.Center.Eval(ec.eval, nil)
	if err != nil {
		return err
	}
	r.fixCentre(centre)
	x0, y0, x1, y1, ok := xzCentreBox(centre)
	if !ok {
		// No box (NULL, an empty geometry): every distance is NULL, so
		// any K rows do; the first ring is the last and reads them all.
		x0, y0, x1, y1 = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	s := *q.XZ
	base := make([]zorder.Range, len(n.Ranges))
	for i, kr := range n.Ranges {
		base[i] = zorder.Range{Lo: kr.Start, Hi: kr.End}
	}
	// outside is the key space less the base: a list less it is the
	// list's part within the base.
	outside := zorder.SubtractRanges([]zorder.Range{{Lo: []byte{}}}, base)
	inBase := func(rs []zorder.Range) []zorder.Range { return zorder.SubtractRanges(rs, outside) }
	keys := func(rs []zorder.XZRange) []zorder.Range {
		out := make([]zorder.Range, len(rs))
		for i, c := range rs {
			out[i] = zorder.Range{Lo: xzKey(c.Lo), Hi: xzKey(c.Hi)}
		}
		return out
	}
	var read []zorder.Range // the key ranges read, sorted and disjoint

	r0 := 0.0
	var probed []zorder.XZRange
	if finiteF(x0) && finiteF(y0) && finiteF(x1) && finiteF(y1) {
		var radius float64
		if probed, radius, err = r.probeXZ(ctx, s, s.Code(x0, y0, x1, y1), inBase); err != nil {
			return err
		}
		switch {
		case radius > 0:
			r0 = radius * nearestSlack / 4
		case radius == 0:
			r0 = math.Max(math.Max(math.Abs(x0), math.Abs(y0)), 1) * 1e-12
		}
		r.trim(q.K)
	}
	search := s.NearestSearch(x0, y0, x1, y1, r0, q.Budget)
	for _, p := range probed {
		search.MarkRead(p)
		read = zorder.UnionRanges(read, keys([]zorder.XZRange{p}))
	}
	for {
		ring, ok := search.Next()
		if !ok {
			break
		}
		var fresh []zorder.Range
		if ring.Last {
			fresh = zorder.SubtractRanges(base, read)
		} else {
			fresh = zorder.SubtractRanges(inBase(keys(ring.Ranges)), read)
		}
		read = zorder.UnionRanges(read, fresh)
		r.rings++
		r.ranges += int64(len(fresh))
		if len(fresh) > 0 {
			if err := r.read(ctx, nil, fresh, 0, nil); err != nil {
				return err
			}
		}
		r.trim(q.K)
		if ring.Last || r.settled(q.K, search.Settled()-q.Margin) {
			break
		}
		if len(r.cands) >= q.K {
			// The ring of the K-th candidate's distance settles it.
			if d := r.cands[q.K-1].dist; !d.IsNull() && finiteF(d.AsFloat()) {
				search.Within(d.AsFloat()*nearestSlack + q.Margin)
			}
		}
	}
	return r.finish(ctx)
}

// probeXZ reads, in code order, the first K rows of the base whose codes
// follow the query box's own (and, if fewer follow, those before it),
// keeps as candidates those whose codes it read whole, and returns the
// code ranges it read whole and the K-th smallest distance among the rows
// it read (-1 when it read fewer, or that distance is no number).
func (r *nearestRows) probeXZ(ctx context.Context, s zorder.XZ2, from int64, inBase func([]zorder.Range) []zorder.Range) (read []zorder.XZRange, radius float64, err error) {
	q := r.q
	var dists []sqltypes.Value
	for _, cr := range []zorder.XZRange{{Lo: from, Hi: s.Codes()}, {Lo: 0, Hi: from}} {
		rs := inBase([]zorder.Range{{Lo: xzKey(cr.Lo), Hi: xzKey(cr.Hi)}})
		var got []nearestCand
		if len(rs) > 0 {
			if err := r.read(ctx, nil, rs, q.K-len(dists), &got); err != nil {
				return nil, 0, err
			}
		}
		for _, c := range got {
			dists = append(dists, c.dist)
		}
		if len(dists) < q.K {
			r.cands = append(r.cands, got...)
			read = append(read, cr)
			continue
		}
		// Rows sharing the last row's code may lie past it, unread.
		last, err := r.xzCode(got[len(got)-1].row)
		if err != nil {
			return nil, 0, err
		}
		for _, c := range got {
			code, err := r.xzCode(c.row)
			if err != nil {
				return nil, 0, err
			}
			if code < last {
				r.cands = append(r.cands, c)
			}
		}
		read = append(read, zorder.XZRange{Lo: cr.Lo, Hi: last})
		break
	}
	return read, kthRadius(dists, q.K), nil
}

// xzCode is the code of a row's entry in the XZ index.
func (r *nearestRows) xzCode(row []sqltypes.Value) (int64, error) {
	v, err := r.q.XZKey.Eval(r.ec.eval, row)
	if err != nil || v.IsNull() {
		return -1, err
	}
	return v.I, nil
}

// xzKey is the index key of the entries of code c onward.
func xzKey(c int64) []byte { return catalog.AppendKeyValue(nil, sqltypes.NewInt(c), false) }

// xzCentreBox is the box a query value stands for: a point's own, a
// geometry's bounding box; ok is false for NULL or an empty geometry.
func xzCentreBox(v sqltypes.Value) (x0, y0, x1, y1 float64, ok bool) {
	switch {
	case v.IsNull():
		return 0, 0, 0, 0, false
	case v.K == sqltypes.KindGeometry:
		g, err := v.Geom()
		if err != nil {
			return 0, 0, 0, 0, false
		}
		b, ok := g.Shape.Bounds()
		return b.MinX, b.MinY, b.MaxX, b.MaxY, ok
	}
	p := v.Point()
	return p.X, p.Y, p.X, p.Y, true
}
