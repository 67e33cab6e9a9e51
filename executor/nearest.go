package executor

import (
	"context"
	"math"
	"slices"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/zorder"
)

// nearestRows runs a nearest-neighbour scan (optimizer.ZOrderNearest): the
// gist index is read ring by ring outward from the query point
// (zorder.NearestSearch), each ring an ordinary Z-order scan of the ranges
// no earlier ring read, with the scan's residual filter and row lookups.
// After each ring the candidates are cut to the K nearest and every row
// tied with the K-th, and the search stops once the K-th is settled: no
// unread row can be nearer. Those candidates are its rows, nearest first;
// the Sort and Limit above order them by every ORDER BY key and take K.
type nearestRows struct {
	cands []nearestCand
	pos   int
}

type nearestCand struct {
	row  []sqltypes.Value
	dist sqltypes.Value
}

// newNearest runs the search of n (the resolved scan of plan node
// planned, which EXPLAIN ANALYZE's figures are kept against) to the end:
// its rows are at most K and ties, so they are held.
func (ec *execCtx) newNearest(ctx context.Context, planned, n *optimizer.Scan) (Rows, error) {
	q := n.Nearest
	centre, err := q.Center.Eval(ec.eval, nil)
	if err != nil {
		return nil, err
	}
	cx, cy, ok := q.Coords(centre)
	if !ok {
		// No point (NULL, an empty geometry): every distance is NULL, so
		// any K rows do; the first ring is the last and reads them all.
		cx, cy = math.NaN(), math.NaN()
	}
	search := n.ZSchema.NearestSearch(n.ZBox, q.X, q.Y, cx, cy, q.Radius, q.Budget)
	if e := q.Extent; e != nil {
		search.SetExtent(e[0], e[1], e[2], e[3])
	}
	out := &nearestRows{}
	var rings, ranges int64
	for {
		ring, ok := search.Next()
		if !ok {
			break
		}
		rings++
		ranges += int64(len(ring.Ranges))
		if len(ring.Ranges) > 0 {
			if err := ec.readRing(ctx, planned, n, ring, out); err != nil {
				return nil, err
			}
		}
		out.trim(q.K)
		if ring.Last || out.settled(q.K, search.Settled()) {
			break
		}
	}
	if st := ec.stats[planned]; st != nil {
		st.Rings += rings
		st.RingRanges += ranges
	}
	return out, nil
}

// readRing reads one ring's new ranges as a Z-order scan and adds the rows
// it admits to the candidates with their distances.
func (ec *execCtx) readRing(ctx context.Context, planned, n *optimizer.Scan, ring zorder.Ring, out *nearestRows) error {
	rs := *n
	rs.Method, rs.Nearest, rs.Limit, rs.Ordered = optimizer.ZOrderRanges, nil, 0, false
	if ec.ex.Caps.CheapSeek {
		rs.Method = optimizer.ZOrderSkipScan
	}
	rs.ZBox = ring.Box
	rs.Ranges = make([]optimizer.KeyRange, len(ring.Ranges))
	for i, r := range ring.Ranges {
		rs.Ranges[i] = optimizer.KeyRange{Start: r.Lo, End: r.Hi}
	}
	s := &scanRows{ec: ec, node: &rs, statKey: planned}
	defer s.Close()
	if err := s.start(ctx); err != nil {
		return err
	}
	for {
		row, ok, err := s.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		d, err := n.Nearest.Dist.Eval(ec.eval, row)
		if err != nil {
			return err
		}
		out.cands = append(out.cands, nearestCand{row: row, dist: d})
	}
}

// compareDist orders distances as ORDER BY ... ASC does: numbers, then
// NaN, then NULL.
func compareDist(a, b sqltypes.Value) int {
	switch {
	case a.IsNull() || b.IsNull():
		return -sqltypes.Compare(a, b) // Compare puts NULL first
	}
	return sqltypes.Compare(a, b)
}

// trim sorts the candidates nearest first and keeps the first k and every
// one tied with the k-th: a later ring only adds rows, so no row past
// those can be among the k nearest.
func (r *nearestRows) trim(k int) {
	slices.SortStableFunc(r.cands, func(a, b nearestCand) int { return compareDist(a.dist, b.dist) })
	if len(r.cands) <= k {
		return
	}
	end := k
	for end < len(r.cands) && compareDist(r.cands[end].dist, r.cands[k-1].dist) == 0 {
		end++
	}
	clear(r.cands[end:]) // let the rows go
	r.cands = r.cands[:end]
}

// settled reports whether the k-th candidate is no farther than radius,
// within which every row has been read.
func (r *nearestRows) settled(k int, radius float64) bool {
	if len(r.cands) < k {
		return false
	}
	d := r.cands[k-1].dist
	if d.IsNull() {
		return false
	}
	f := d.AsFloat()
	return !math.IsNaN(f) && f <= radius
}

func (r *nearestRows) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if r.pos >= len(r.cands) {
		return nil, false, nil
	}
	r.pos++
	return r.cands[r.pos-1].row, true, nil
}

func (r *nearestRows) Close() { r.cands = nil }
