package executor

import (
	"context"
	"math"

	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/zorder"
)

// The square search (runSquares) is the nearest-neighbour search of a gist
// index over points on a store with cheap seeks, where the table's
// statistics give the density of its points: one skip-scan of the square
// that holds K + nearestSquareSpread·√K points at that density, which
// shrinks to the K-th nearest's square as the scan finds nearer points,
// and, where the square held fewer than K within its half-side, a scan of
// a larger one. An entry is tested by its key alone (its Z-address holds
// the point's coordinates): only the entries that can still be among the K
// nearest are decoded. The best-first batches (runCells) cost several
// reads and the arithmetic of their cells; a few dozen entries read in
// one pass cost less than either (bench/README.md, "Issue 30, round
// fourteen").
const (
	// nearestSquareSpread is how many standard deviations of a count of
	// K points the first square's disc holds above K: at K = 10 it holds
	// about 16 and falls short of 10 about one time in twenty, where one
	// deviation fell short one time in six (the tail of the latency,
	// not its median, is what that moved: bench/README.md).
	nearestSquareSpread = 2.0
	// nearestSquareGrowth bounds how much wider a square is than the one
	// before it, which held too few points.
	nearestSquareGrowth = 4.0
	// nearestSquareRounds is how many squares the search reads before it
	// leaves the rest to the best-first batches: squares grown from a
	// density far above the centre's own.
	nearestSquareRounds = 6
	// nearestBoundSlack widens the K-th greatest distance found so far
	// for the rounding between a key's coordinates and the query's
	// distance function.
	nearestBoundSlack = 1 + 1e-9
	// nearestShrink is how much narrower than the square being read the
	// K-th candidate's square must be for the scan to narrow to it.
	nearestShrink = 0.9
)

// nearestGate is the square search's test of index entries by their keys
// (scanRows.gate): an entry is decoded only if its point can be among the
// K nearest, and the scan's box narrows to the square of the K-th
// greatest distance among the entries it admitted.
type nearestGate struct {
	s      *zorder.Schema
	x, y   int
	cx, cy float64
	k      int
	base   zorder.Box
	// half is the half-side of the square being read; box its test of
	// keys, which the scan takes up when it narrows.
	half float64
	box  *zorder.BoxScan
	// read, when set, is the square an earlier round read: its entries
	// were admitted or rejected then.
	read zorder.Box
	// fars is a max-heap of the K least greatest distances of the
	// entries admitted; bound, once there are K, the largest of them
	// widened for rounding (+Inf before): no entry farther than it can be
	// among the K nearest.
	fars  []float64
	bound float64
	// decoded counts the entries admitted.
	decoded int64
}

// square starts a round that reads the square of half-side half.
func (g *nearestGate) square(half float64) zorder.Box {
	g.half = half
	b := g.s.Square(g.base, g.x, g.y, g.cx, g.cy, half)
	g.box = g.s.NewBoxScan(b)
	return b
}

// admit reports whether the scan is to decode the in-box entry with
// address addr.
func (g *nearestGate) admit(addr []byte) bool {
	if g.read != nil && g.s.Contains(g.read, addr) {
		return false
	}
	near, far := g.s.PointDistance(addr, g.x, g.y, g.cx, g.cy)
	if near > g.bound {
		return false
	}
	g.decoded++
	if len(g.fars) < g.k {
		g.fars = append(g.fars, far)
		heapUp(g.fars, len(g.fars)-1)
	} else if far < g.fars[0] {
		g.fars[0] = far
		heapDown(g.fars, 0)
	}
	if len(g.fars) == g.k {
		g.bound = g.fars[0] * nearestBoundSlack
		if g.bound < nearestShrink*g.half {
			g.square(g.bound)
		}
	}
	return true
}

// heapUp and heapDown keep h a max-heap after h[i] was added or lowered.
func heapUp(h []float64, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !(h[i] > h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func heapDown(h []float64, i int) {
	for {
		l, m := 2*i+1, i
		if l < len(h) && h[l] > h[m] {
			m = l
		}
		if l+1 < len(h) && h[l+1] > h[m] {
			m = l + 1
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// squareSearch reports whether the search can run as squares: a gist
// index of points (two attributes) on a store with cheap seeks, one shard,
// no filter and no lock, a density from the statistics, and the centre
// within the points' extent (a centre outside it meets the data in a lens
// whose points a square's area does not tell).
func (r *nearestRows) squareSearch(cx, cy float64) bool {
	n, q := r.node, r.q
	e := r.squareExtent()
	return r.ec.ex.Caps.CheapSeek && q.Density > 0 && n.Residual == nil && n.Lock == ir.LockNone &&
		len(n.Shards) <= 1 && (!n.Lookup || r.entryCols != nil) &&
		withinExtent(e, cx, cy)
}

// withinExtent reports whether (cx, cy) lies within extent e, [xlo, xhi,
// ylo, yhi] (false for none).
func withinExtent(e *[4]float64, cx, cy float64) bool {
	return e != nil && e[0] <= cx && cx <= e[1] && e[2] <= cy && cy <= e[3]
}

// squareExtent is the extent over which the density holds: the points'
// the statistics found, else the data bounds', nil when neither is known.
func (r *nearestRows) squareExtent() *[4]float64 {
	if r.q.Points != nil {
		return r.q.Points
	}
	return r.q.Extent
}

// runSquares is the square search. It reports whether it settled the K
// nearest; when it did not (squares of too few points, or fewer than K
// points with coordinates), it leaves no candidate, for the best-first
// batches to start over.
func (r *nearestRows) runSquares(ctx context.Context, cx, cy float64) (bool, error) {
	n, q := r.node, r.q
	k := float64(q.K)
	half := math.Sqrt((k + nearestSquareSpread*math.Sqrt(k)) / (math.Pi * q.Density))
	g := &nearestGate{s: n.ZSchema, x: q.X, y: q.Y, cx: cx, cy: cy, k: q.K, base: n.ZBox, bound: math.Inf(1),
		fars: make([]float64, 0, min(q.K, nearestCandsCap))}
	for round := 0; round < nearestSquareRounds; round++ {
		box := g.square(half)
		r.squares++
		err := r.readGated(ctx, box, g)
		r.decoded += g.decoded
		g.decoded = 0
		if err != nil {
			return false, err
		}
		r.trim(q.K)
		if d := r.kth(q.K); d >= 0 && d <= g.half {
			return true, nil
		}
		if e := r.squareExtent(); cx-half <= e[0] && cx+half >= e[1] && cy-half <= e[2] && cy+half >= e[3] {
			break // the square held the whole extent: fewer than K points have coordinates
		}
		// Too few within the square's half-side (it did not narrow): the
		// next square holds K + spread at the density of this one's disc.
		m := 0
		for _, c := range r.cands {
			if c.dist.IsNull() || !(c.dist.AsFloat() <= g.half) {
				break
			}
			m++
		}
		if m == 0 && q.Points == nil {
			// An empty square where the data bounds' density put K: the
			// margin those bounds leave around the data, it may be. The
			// best-first batches find the nearest cells that hold a row.
			break
		}
		// (Within the points' extent ANALYZE found, an empty square is a
		// sparse spot or chance: one of K + 2√K = 3 points at K = 1 is
		// empty one time in twenty; the next is as wide as it may grow.)
		grow := nearestSquareGrowth
		if m > 0 {
			grow = math.Sqrt((k + nearestSquareSpread*math.Sqrt(k)) / float64(m))
		}
		half *= min(max(grow, math.Sqrt2), nearestSquareGrowth)
		// The whole square was read: a scan narrows only once K entries
		// lie within the narrower square, and then settles.
		g.read = box
	}
	clear(r.cands)
	r.cands = r.cands[:0]
	return false, nil
}

// readGated reads the index entries in box, one skip-scan from its least
// address to its greatest, decoding those the gate admits.
func (r *nearestRows) readGated(ctx context.Context, box zorder.Box, g *nearestGate) error {
	ranges := r.node.ZSchema.Ranges(box, 1)
	if len(ranges) == 0 {
		return nil
	}
	r.gate = g
	defer func() { r.gate = nil }()
	return r.read(ctx, box, ranges, 0, nil)
}
