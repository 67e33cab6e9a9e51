package executor

import (
	"bytes"
	"context"
	"math"
	"slices"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/zorder"
)

// nearestRows runs a nearest-neighbour scan (optimizer.ZOrderNearest) of a
// gist index, a Z-order index over a point column's x and y, or an
// optimizer.XZNearest one of an XZ gist index over shapes (runXZ).
//
// A probe first reads the entries that follow the query point's own
// Z-address (and, when too few follow it, the first ones of the index):
// they are real rows, and their density sizes the search. Over a Z-order
// index of more attributes it reads K of them, so that the K-th nearest
// lies within their K-th distance; over a gist index (runCells) a few
// (nearestProbeRows), and the search then reads best-first batches of Z-cells
// (zorder.NearestCells), each one Z-order scan of the cells that can still
// hold one of the K nearest, with the scan's box, residual filter and row
// lookups; over a Z-order index of more attributes (runRings), square
// rings (zorder.NearestSearch). After each batch or ring the candidates
// are cut to the K nearest and every row tied with the K-th, and the
// search stops once the K-th is settled: no unread row can be nearer.
// Those candidates are its rows, nearest first (ties in the order they
// were read); the Sort and Limit above order them by every ORDER BY key
// and take K, or, where the distance is the only key, the Limit alone.
// Over a gist index on the embedded store, with statistics and no
// filter, the square search (nearest_square.go) comes first.
type nearestRows struct {
	ec            *execCtx
	planned, node *optimizer.Scan
	q             *optimizer.NearestQuery
	started       bool
	cands         []nearestCand
	// distFn, when the distance is a plain function call, is evaluated
	// with distArgs as its arguments' buffer: one for the search rather
	// than one an entry read.
	distFn   *ir.Func
	distArgs []sqltypes.Value
	// centreArg is the index of the centre among distFn's arguments (-1
	// when it is none of them), and centre its value, evaluated once when
	// the search starts (fixCentre): a statement constant such as
	// ST_SetSRID(ST_MakePoint($1, $2), 4326) is the same for every entry,
	// and evaluating it cost two calls and their arguments' slices an
	// entry read.
	centreArg     int
	centre        sqltypes.Value
	centreFixed   bool
	pos           int
	rings, ranges int64 // square rings (runRings, runXZ)
	// batches, cells and batchRanges are the best-first batches of
	// runCells, the cells they handed out and their merged ranges.
	batches, cells, batchRanges int64
	// squares and decoded are the square search's squares and the
	// entries it decoded (nearest_square.go).
	squares, decoded int64
	probeK, probed   int
	seq              uint32 // candidates made (newCand)
	// entryCols, when set, are the columns the rings read from the index
	// entries alone (deferred lookups): the distance and the residual
	// filter need no others, so only the final candidates' rows are
	// fetched (fetchRows), not a row per entry read.
	entryCols []int
	// gate, while the square search reads, tests the entries by their
	// keys (nearest_square.go).
	gate *nearestGate
}

type nearestCand struct {
	row  []sqltypes.Value
	dist sqltypes.Value
	// rank and num are dist as trim orders it (distOrder), seq the
	// candidate's place in the order the search read it, which ties
	// keep: a float comparison, not a comparison of values, per step of
	// the sort.
	rank uint8
	num  float64
	seq  uint32
}

// newCand is a candidate of the search: row, read as the search's seq-th,
// at distance d.
func (r *nearestRows) newCand(row []sqltypes.Value, d sqltypes.Value) nearestCand {
	r.seq++
	rank, num := distOrder(d)
	return nearestCand{row: row, dist: d, rank: rank, num: num, seq: r.seq}
}

// distOrder is a distance's place in ORDER BY ... ASC: numbers (rank 0,
// by num), then NaN (1), then NULL (2).
func distOrder(d sqltypes.Value) (rank uint8, num float64) {
	if d.IsNull() {
		return 2, 0
	}
	if f := d.AsFloat(); !math.IsNaN(f) {
		return 0, f
	}
	return 1, 0
}

// compareCands orders candidates by distance, ties in the order they
// were read.
func compareCands(a, b nearestCand) int {
	switch {
	case a.rank != b.rank:
		return int(a.rank) - int(b.rank)
	case a.num < b.num:
		return -1
	case a.num > b.num:
		return 1
	}
	return int(a.seq) - int(b.seq)
}

// sameDist reports whether two candidates are at the same distance.
func sameDist(a, b nearestCand) bool { return a.rank == b.rank && a.num == b.num }

// newNearest opens the search of n, the resolved scan of plan node
// planned (which EXPLAIN ANALYZE's figures are kept against). It runs at
// the first Next, so that its time is the node's.
func (ec *execCtx) newNearest(planned, n *optimizer.Scan) Rows {
	if ec.stats != nil && ec.stats[planned] == nil {
		// The probe's, rings' and batches' scans add their items to it
		// as they close.
		ec.stats[planned] = &optimizer.NodeStats{}
	}
	r := &nearestRows{ec: ec, planned: planned, node: n, q: n.Nearest, centreArg: -1}
	if f, ok := n.Nearest.Dist.(*ir.Func); ok && f.Lazy == nil {
		r.distFn, r.distArgs = f, make([]sqltypes.Value, len(f.Args))
		for i, a := range f.Args {
			if a == n.Nearest.Center {
				r.centreArg = i
			}
		}
	}
	if n.Lookup && n.Lock == ir.LockNone && n.Index != nil {
		cols := ir.Columns(n.Nearest.Dist)
		if n.Residual != nil {
			cols = append(cols, ir.Columns(n.Residual)...)
		}
		cols = withPrimaryKey(n.Table, slices.Compact(slices.Sorted(slices.Values(cols))))
		if n.Table.Covers(n.Index, cols) {
			r.entryCols = cols
		}
	}
	return r
}

// The best-first search's scale (BenchmarkSpatialNearest, bench/README.md
// "Issue 30: best-first kNN"). The probe reads nearestProbeRows(K)
// entries: only their density is used, and its error falls as the square
// root of their number, so 2√K do (20 at K = 100), and at K = 1 a few more
// than K so that there is a density at all. The first batch reads the disc
// that holds K + nearestFirstSpread·√K rows at the probe's density (half
// the spread of a count of K, so that one batch mostly settles), in cells of 1/nearestCellsPerRadius of its radius but
// none holding fewer than about nearestCellRows rows (a finer cell saves
// less than a row for another request, see below); a batch that leaves fewer than K
// within its disc is followed by one to where that disc's density puts
// the K-th, widened by nearestMargin; after nearestMaxBatches batches
// without K candidates the next reads the rest. Two ranges of a batch
// whose gap holds fewer rows at the probe's density than a cell of the
// batch holds (or nearestGapRows, if more) are read as one: a gap no
// larger than a cell costs no more than the cells, for a request less.
const (
	nearestProbeMin       = 6
	nearestProbeSqrt      = 2.0
	nearestFirstSpread    = 0.5
	nearestCellsPerRadius = 3.0
	nearestMaxBatches     = 24
	nearestMargin         = 1.1
	nearestCellRows       = 0.5
	nearestGapRows        = 1.0
)

// nearestProbeRows is how many entries the probe reads for K nearest:
// nearestProbeMin, or nearestProbeSqrt·√K when more, but no more than K
// once K is past nearestProbeMin.
func nearestProbeRows(k int) int {
	p := max(nearestProbeMin, int(math.Ceil(nearestProbeSqrt*math.Sqrt(float64(k)))))
	return min(p, max(k, nearestProbeMin))
}

// nearestCandsCap bounds the candidates' first capacity (runCells).
const nearestCandsCap = 4096

// nearestSlack widens the probe's radius for the rounding of a ring's box
// around the centre, so that the ring of that radius settles.
const nearestSlack = 1 + 1e-6

// run is the search.
func (r *nearestRows) run(ctx context.Context) error {
	if r.q.XZ != nil {
		return r.runXZ(ctx)
	}
	ec, n, q := r.ec, r.node, r.q
	centre, err := q.Center.Eval(ec.eval, nil)
	if err != nil {
		return err
	}
	r.fixCentre(centre)
	cx, cy, ok := q.Coords(centre)
	if !ok {
		// No point (NULL, an empty geometry): every distance is NULL, so
		// any K rows do; the first ring is the last and reads them all.
		cx, cy = math.NaN(), math.NaN()
	}
	if n.ZSchema.Dims() == 2 {
		if r.squareSearch(cx, cy) {
			if settled, err := r.runSquares(ctx, cx, cy); err != nil || settled {
				if err != nil {
					return err
				}
				return r.finish(ctx)
			}
		}
		return r.runCells(ctx, cx, cy)
	}
	return r.runRings(ctx, cx, cy)
}

// runCells is the search over a Z-order index of the point's x and y
// alone (a gist index): a probe sizes it, then best-first batches of
// Z-cells (zorder.NearestCells), each one multi-range read of the cells
// that can still hold one of the K nearest, until the K-th candidate is
// nearer than every unread cell.
func (r *nearestRows) runCells(ctx context.Context, cx, cy float64) error {
	n, q := r.node, r.q
	cells := n.ZSchema.NearestCells(n.ZBox, q.X, q.Y, cx, cy)
	defer cells.Release()
	// The candidates are at most K and their ties after a trim, and a
	// batch adds about K + nearestFirstSpread·√K more: room for both
	// from the start, rather than a slice grown by doubling from the
	// probe's few (bounded, as a LIMIT may be far beyond the rows).
	r.cands = make([]nearestCand, 0, min(2*q.K+nearestProbeRows(q.K), nearestCandsCap))
	// rad is the next batch's radius, side the width below which its cells
	// are read rather than split.
	rad, side := math.Inf(1), math.Inf(1)
	dens := 0.0 // the probe's rows per unit of area, 0 if unknown
	// done is every range read so far, probe included: a gap holding any
	// of it is not read again.
	var done []zorder.Range
	celled := false
	// d0 is the data's least distance from the centre, 0 within it: the
	// radii below are d0 plus how far they reach into the data, so that a
	// centre outside it is searched as finely as one inside.
	d0 := cells.Offset()
	if e := q.Extent; e != nil && q.Density > 0 && !r.ec.ex.Caps.CheapSeek && e[0] <= cx && cx <= e[1] && e[2] <= cy && cy <= e[3] {
		// A centre outside the data's extent keeps the probe along the
		// Z-curve: its entries, however far, bound the search, where a
		// disc grown from an empty cell would take many batches.
		var err error
		if rad, side, dens, done, celled, err = r.probeCell(ctx, cells, cx, cy); err != nil {
			return err
		}
	}
	// A centre outside the data: its probe, from the data's nearest
	// point, reads K, whose K-th distance bounds the search.
	outside := d0 > 0 && !celled
	// bound is a distance within which K rows lie, +Inf if unknown: the
	// probe's p-th when p >= K.
	bound := math.Inf(1)
	// outsideBound is a distance within which K rows lie (the probe's
	// K-th), +Inf if unknown: no batch reaches past it.
	outsideBound := math.Inf(1)
	if finiteF(cx) && finiteF(cy) && !celled {
		p := nearestProbeRows(q.K)
		if outside {
			p = q.K
		}
		probed, radius, err := r.probe(ctx, cx, cy, p)
		if err != nil {
			return err
		}
		area := 0.0
		for _, pr := range probed {
			area += n.ZSchema.RangeAreaIn(pr, q.X, q.Y, n.ZBox)
		}
		m := len(r.cands)
		if p < q.K && radius >= 0 && (m == 0 || !(area > 0) || radius == 0) {
			// A probe of fewer than K that found no density (its rows
			// all at one address, or at the centre): the probe of K,
			// whose K-th distance bounds the search, as before.
			r.cands = r.cands[:0]
			p = q.K
			if probed, radius, err = r.probe(ctx, cx, cy, p); err != nil {
				return err
			}
			area = 0
			for _, pr := range probed {
				area += n.ZSchema.RangeAreaIn(pr, q.X, q.Y, n.ZBox)
			}
			m = len(r.cands)
		}
		for _, pr := range probed {
			cells.MarkRead(pr)
		}
		done = zorder.UnionRanges(done, probed)
		r.trim(q.K)
		if p >= q.K && radius >= 0 {
			bound = radius
		}
		switch {
		case radius > 0 && m > 0 && area > 0:
			// The probe's distances, along the Z-curve from the centre,
			// overstate the K-th nearest's, by 1.4 to 10 times: the first
			// batch reads the disc that holds K (and its spread) at the
			// density the probe found (its rows over the area of the
			// cells it read), and the next, if needed, as far as the
			// density of that disc says, or the K-th candidate's
			// distance.
			dens = max(float64(m)/area, q.Density)
			if _, far, _ := r.candSpan(); far > 0 {
				// On an axis (a coordinate of 0) the Z-cells the probe
				// read span floats of every size, from denormal to
				// 1e38, and their area says nothing: a density of
				// 1e230 sent the search out in batches of doubling
				// radius from 1e-116 (some 380 of them), one of 4e-39
				// read the whole table in one. The probe's rows lie
				// within its farthest's distance, so the density there
				// is at least theirs over that disc, and that distance
				// overstates the K-th nearest's at most
				// nearestProbeOverstate times in area.
				atLeast := float64(m) / (math.Pi * far * far)
				dens = min(max(dens, atLeast), nearestProbeOverstate*atLeast)
			}
			want := float64(q.K) + nearestFirstSpread*math.Sqrt(float64(q.K))
			reach := math.Sqrt(want / (math.Pi * dens))
			rad = min(bound, d0+reach)
			// No finer than cells of about nearestCellRows rows each: a
			// finer cell saves less than a row for another request.
			side = max(reach/nearestCellsPerRadius, math.Sqrt(nearestCellRows/dens))
		case radius > 0:
			rad = d0 + (radius-d0)/4 // no density: where the rings began
			side = (rad - d0) / nearestCellsPerRadius
		case radius == 0 && p >= q.K:
			// K rows at the centre itself: the cells touching it settle them.
			rad = 0
			side = math.Max(math.Max(math.Abs(cx), math.Abs(cy)), 1) * 1e-12
		}
	}
	if finiteF(cx) && finiteF(cy) {
		// A probe cell the statistics sized holds about K/8 rows: within
		// the points' extent ANALYZE found, it is empty as often as a
		// fifth of the time by chance alone, and its batches, sized by
		// the same density, find the K nearest.
		chance := celled && withinExtent(q.Points, cx, cy)
		if near, far, m := r.candSpan(); !outside && (near < 0 && !chance || near > d0 && (rad > d0 && near > d0+nearestFarProbe*(rad-d0) || m > 1 && !chance && near-d0 > nearestFarProbe*(far-near))) {
			// Within the data's bounds but far from its rows (bounds
			// padded in coarse cells, as float codes are near 0, or a
			// hole in the data): the probe found no row (the cell around
			// the centre), or its nearest lies far beyond the disc that
			// was to hold K, or its rows (two or more: one row, as at
			// K = 1 after the trim, has no spread) lie at about one
			// distance, much farther than they spread over (not said of
			// the statistics' probe cell: it holds the centre, so its few
			// rows are near however alike their distances). The search
			// goes as from outside, from the nearest cells that hold a
			// row (Descend).
			outside = true
		}
		if outside {
			// The disc around a distant centre meets the data in a lens
			// whose rows its area does not tell: reach an eighth of the
			// way to the probe's bound, or as far as its candidates
			// spread, then twice as far each batch, and never past the
			// K-th candidate (outsideNext) nor the bound.
			reach := math.Inf(1)
			if !math.IsInf(bound, 1) {
				reach = (bound - d0) / 8
			}
			if near, far, _ := r.candSpan(); far > near {
				reach = min(reach, far-near) // the probe's candidates' spread
			}
			if dens > 0 {
				reach = min(reach, math.Sqrt(float64(q.K)/(math.Pi*dens)))
			}
			if !(reach > 0) || math.IsInf(reach, 1) {
				reach = max(d0, 1) * 1e-6
			}
			// Across the empty margin the data bounds leave: the nearest
			// cells of about the reach's size that hold a row.
			empty := func(rg zorder.Range) (bool, error) { return r.emptyRange(ctx, rg) }
			if err := cells.Descend(reach, nearestDescendAsks, empty); err != nil {
				return err
			}
			d0 = max(d0, cells.Settled())
			rad = d0 + reach
			side = reach / nearestCellsPerRadius
			outsideBound = bound
		}
	}
	// stepped is set once the search has stepped by shortRadius.
	stepped := false
	for batch := 0; !cells.Done(); batch++ {
		ranges := cells.Batch(rad, side)
		if dens > 0 {
			// A gap of less than a cell's rows: as cheap as the cells.
			ranges = r.mergeGaps(cells, ranges, done, dens, max(nearestGapRows, dens*side*side))
		}
		done = zorder.UnionRanges(done, ranges)
		r.batches++
		r.batchRanges += int64(len(ranges))
		r.cells = int64(cells.Cells())
		if len(ranges) > 0 {
			// Checked against the base box: the ranges are read for good,
			// so every row of the base box in them is a candidate.
			if err := r.read(ctx, n.ZBox, ranges, 0, nil); err != nil {
				return err
			}
		}
		r.trim(q.K)
		if d := r.kth(q.K); d >= 0 && d < cells.Settled() {
			break
		}
		if outside {
			rad = r.outsideNext(rad, d0, outsideBound)
			side = math.Max(side, (rad-d0)/nearestCellsPerRadius)
			continue
		}
		short := 0.0
		if dens > 0 && !stepped {
			short = r.shortRadius(q.K, cells.Settled(), d0)
		}
		switch d := r.kth(q.K); {
		case d >= 0 && batch == 0:
			// Every cell within the K-th candidate's distance settles it;
			// a batch reaching only as far as the density of the disc read
			// says the K-th lies may settle it with fewer items.
			rad = min(d, r.densityRadius(q.K, rad, d0))
		case d >= 0:
			// That density was wrong too (a probe's few points tied at
			// the centre make a tiny disc): no more steps from it.
			rad = d
		case batch >= nearestMaxBatches:
			rad = math.Inf(1)
		case short > rad:
			// A few short of K within a disc read whole: only the ring
			// that the disc's own density says holds the rest, in cells
			// as fine as before, where doubling the disc's area (below)
			// would read about K more rows for the last few. Once: a
			// ring that did not settle says the density around is not
			// the disc's (the data thins out or ends, or the table holds
			// fewer than K), and rings of fine cells stepping a tenth or
			// a quarter farther would take many batches of ever more
			// requests, where the doubling coarsens its cells.
			rad, stepped = short, true
		default:
			// Too few candidates yet: a disc of twice the area, or the
			// one that holds K at the density of the candidates there are.
			// At most twice as far a batch: the candidates may be a
			// probe's few, far along the Z-curve.
			rad = d0 + min(max((rad-d0)*math.Sqrt2, side, r.spreadRadius(q.K, d0)-d0), 2*max(rad-d0, side))
			side = math.Max(side, (rad-d0)/nearestCellsPerRadius)
		}
	}
	return r.finish(ctx)
}

// nearestProbeOverstate bounds the probe's density: at most this many
// times its rows over the disc of its farthest's distance (the probe's
// distances, along the Z-curve, overstate the K-th nearest's by 1.4 to
// 10 times).
const nearestProbeOverstate = 100

// nearestFarProbe is how many times farther than the first batch's reach,
// or than its rows spread over, the probe's nearest row must lie for the
// search to go as from outside the data.
const nearestFarProbe = 8

// nearestDescendAsks bounds the cells a search from outside the data
// asks about, each one request of a row, before its first batch
// (NearestCells.Descend).
const nearestDescendAsks = 256

// emptyRange reports whether the base box has no entry in rg: a read of
// one row, kept by no one (NearestCells.Descend).
func (r *nearestRows) emptyRange(ctx context.Context, rg zorder.Range) (bool, error) {
	var got []nearestCand
	if err := r.read(ctx, r.node.ZBox, []zorder.Range{rg}, 1, &got); err != nil {
		return false, err
	}
	return len(got) == 0, nil
}

// candSpan is the least and the greatest finite distance among the
// candidates (sorted: after trim), -1 and -1 when there is none, and how
// many candidates have one.
func (r *nearestRows) candSpan() (near, far float64, m int) {
	near, far = -1, -1
	for _, c := range r.cands {
		if c.dist.IsNull() || !finiteF(c.dist.AsFloat()) {
			break
		}
		if near < 0 {
			near = c.dist.AsFloat()
		}
		far = c.dist.AsFloat()
		m++
	}
	return near, far, m
}

// outsideNext is the next batch's radius of a search from a centre at
// distance d0 outside the data, after one of radius rad: as far as the
// candidates found so far, spread over their band, say K lie, no more
// than twice the reach into the data, and never past the K-th
// candidate's distance nor bound (the probe's K-th). It always reaches
// farther than rad while the K-th is unknown.
func (r *nearestRows) outsideNext(rad, d0, bound float64) float64 {
	k := r.q.K
	next := d0 + 2*(rad-d0)
	if near, far, m := r.candSpan(); far > near && m < k {
		next = max(min(next, far+(far-near)*math.Sqrt(float64(k)/float64(m))*nearestMargin), rad+(rad-d0)/4)
	}
	if kth := r.kth(k); kth >= 0 {
		next = min(next, kth)
	}
	return min(next, bound)
}

// Where every range is a store request (DynamoDB), a probe along the
// Z-curve from the centre reads entries that mostly lie outside the disc
// the first batch then reads (at K = 1 six entries for one row), and a
// density from a few entries is so rough that a low count sizes a disc of
// twice the rows it needs (bench/dynamodb/README.md, "kNN probed by one
// cell"). With the statistics' density (NearestQuery.Density: the table's
// rows over the data bounds' extent, which hold every entry and more, so
// a floor of the mean density) the probe is instead the aligned cell
// around the centre expected to hold nearestCellProbeShare of K rows (at
// least nearestCellProbeMin), read whole unless it holds
// nearestCellProbeLimit times what its area can (a cluster); the density
// is its count's over its area, but no lower than the statistics' (an
// overestimate only makes the disc smaller, and a second batch reads the
// rest; an underestimate reads rows beyond the K-th). The batches' cells
// are then about nearestCellRows rows each, with no bound by the radius:
// a request is priced at about an item at the store's fan-out
// (optimizer's rangeRequestWeight), and a cell straddling the disc wastes
// about half its rows, so cells of half a row cost least whatever K
// (100,000 points on DynamoDB Local, 200 centres, items read plus
// requests a query at K = 1 / 10 / 100: cells of a row 8.7 / 29.6 /
// 154.4, of half a row 8.4 / 29.4 / 152.7, of a quarter 8.4 / 29.8 /
// 153.6; bench/README.md, issue 30 round fifteen).
const (
	nearestCellProbeShare = 0.125
	nearestCellProbeMin   = 1.0
	nearestCellProbeLimit = 4.0
)

// probeCell is runCells' probe sized by the statistics' density: it reads
// the cell around the centre, marks what it read whole, and returns the
// first batch's radius and side, the density it measured, the ranges it
// read, and ok false when the centre lies outside the scan's box (the
// Z-curve probe then runs as without statistics).
func (r *nearestRows) probeCell(ctx context.Context, cells *zorder.NearestCells, cx, cy float64) (rad, side, dens float64, done []zorder.Range, ok bool, err error) {
	n, q := r.node, r.q
	rows := max(nearestCellProbeMin, nearestCellProbeShare*float64(q.K))
	rg, ok := n.ZSchema.CellAround(n.ZBox, q.X, q.Y, cx, cy, rows/q.Density)
	if !ok {
		return 0, 0, 0, nil, false, nil
	}
	// The cell's area is between rows' and twice it.
	limit := int(math.Ceil(2 * nearestCellProbeLimit * rows))
	probed, radius, err := r.probeRanges(ctx, []zorder.Range{rg}, limit)
	if err != nil {
		return 0, 0, 0, nil, false, err
	}
	area := 0.0
	for _, pr := range probed {
		area += n.ZSchema.RangeAreaIn(pr, q.X, q.Y, n.ZBox)
		cells.MarkRead(pr)
	}
	m := float64(len(r.cands))
	r.trim(q.K)
	dens = q.Density
	if area > 0 {
		dens = max(m/area, q.Density)
	}
	want := float64(q.K) + nearestFirstSpread*math.Sqrt(float64(q.K))
	rad = math.Sqrt(want / (math.Pi * dens))
	if limit >= q.K && radius >= 0 {
		rad = min(rad, radius) // limit rows, so K, lie within it
	}
	side = math.Sqrt(nearestCellRows / dens)
	return rad, side, dens, zorder.UnionRanges(nil, probed), true, nil
}

// mergeGaps joins consecutive ranges of a batch whose gap holds fewer
// than rows rows at density dens (its area by the cells it is made of):
// reading the gap costs less than another request. A gap that
// holds any of done, the ranges read before, is kept (its entries would
// be read twice); the gaps read are marked read, so that no later batch
// reads them again.
func (r *nearestRows) mergeGaps(cells *zorder.NearestCells, ranges, done []zorder.Range, dens, rows float64) []zorder.Range {
	if len(ranges) < 2 {
		return ranges
	}
	q, s := r.q, r.node.ZSchema
	out := ranges[:1]
	for _, rg := range ranges[1:] {
		last := &out[len(out)-1]
		gap := zorder.Range{Lo: last.Hi, Hi: rg.Lo}
		if last.Hi != nil && !overlaps(gap, done) && dens*s.RangeAreaIn(gap, q.X, q.Y, r.node.ZBox) < rows {
			cells.MarkRead(gap)
			last.Hi = rg.Hi
			continue
		}
		out = append(out, rg)
	}
	return out
}

// overlaps reports whether range g (bounded) shares an address with any of
// ranges.
func overlaps(g zorder.Range, ranges []zorder.Range) bool {
	for _, d := range ranges {
		if bytes.Compare(d.Lo, g.Hi) < 0 && (d.Hi == nil || bytes.Compare(d.Hi, g.Lo) > 0) {
			return true
		}
	}
	return false
}

// runRings is the search over a Z-order index of more attributes, whose
// cells the others split too: a probe, then square rings
// (zorder.NearestSearch) around the centre.
func (r *nearestRows) runRings(ctx context.Context, cx, cy float64) error {
	n, q := r.node, r.q
	s := n.ZSchema
	r0 := 0.0
	var probed []zorder.Range
	if finiteF(cx) && finiteF(cy) {
		var radius float64
		var err error
		if probed, radius, err = r.probe(ctx, cx, cy, q.K); err != nil {
			return err
		}
		// Rings double from a quarter of the probe's radius: the K-th
		// nearest is often nearer, and the ring at that radius settles
		// whatever it is.
		switch {
		case radius > 0:
			r0 = radius * nearestSlack / 4
		case radius == 0:
			// K rows at the centre itself: the narrowest ring settles them.
			r0 = math.Max(math.Max(math.Abs(cx), math.Abs(cy)), 1) * 1e-12
		}
		r.trim(q.K)
	}
	search := s.NearestSearch(n.ZBox, q.X, q.Y, cx, cy, r0, q.Budget)
	if e := q.Extent; e != nil {
		search.SetExtent(e[0], e[1], e[2], e[3])
	}
	for _, p := range probed {
		search.MarkRead(p)
	}

	for {
		ring, ok := search.Next()
		if !ok {
			break
		}
		r.rings++
		r.ranges += int64(len(ring.Ranges))

		if len(ring.Ranges) > 0 {
			// Checked against the base box, not the ring's: the ranges
			// are read for good, so every row of the base box in them is
			// a candidate, over-cover included.
			if err := r.read(ctx, n.ZBox, ring.Ranges, 0, nil); err != nil {
				return err
			}
		}
		r.trim(q.K)
		if ring.Last || r.settled(q.K, search.Settled()) {
			break
		}
		if len(r.cands) >= q.K {
			// The ring of the K-th candidate's distance settles it.
			if d := r.cands[q.K-1].dist; !d.IsNull() && finiteF(d.AsFloat()) {
				search.Within(d.AsFloat() * nearestSlack)
			}
		}
	}
	return r.finish(ctx)
}

// finish records the search's rings or batches for EXPLAIN ANALYZE and
// fetches the rows of candidates read from index entries alone.
func (r *nearestRows) finish(ctx context.Context) error {
	if st := r.ec.stats[r.planned]; st != nil {
		st.Rings += r.rings
		st.RingRanges += r.ranges
		st.Batches += r.batches
		st.BatchCells += r.cells
		st.BatchRanges += r.batchRanges
		st.Squares += r.squares
		st.SquareDecoded += r.decoded
	}
	if r.entryCols != nil {
		return r.fetchRows(ctx)
	}
	return nil
}

// fetchRows replaces the candidates, read from index entries alone, with
// their table rows, in one batched get by primary key; a row deleted
// since its entry was read is dropped. The candidates keep their order
// (the distance was computed from the entry's copy of the point, which is
// the row's).
func (r *nearestRows) fetchRows(ctx context.Context) error {
	if len(r.cands) == 0 {
		return nil
	}
	n := r.node
	rs := *n
	rs.Method, rs.Index, rs.Lookup, rs.Nearest, rs.Residual, rs.Limit = optimizer.PointGet, nil, false, nil, nil, 0
	rs.ZSchema, rs.ZBox, rs.Ranges = nil, nil, nil
	rs.Points = make([][]byte, len(r.cands))
	for i, c := range r.cands {
		rs.Points[i] = n.Table.RowKey(c.row).Sort
	}
	s := &scanRows{ec: r.ec, node: &rs, statKey: r.planned}
	defer s.Close()
	if err := s.start(ctx); err != nil {
		return err
	}
	// pointGet keeps the order of the keys and drops the missing.
	out := r.cands[:0]
	j := 0
	for {
		row, ok, err := s.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		key := n.Table.RowKey(row).Sort
		for j < len(r.cands) && !bytes.Equal(n.Table.RowKey(r.cands[j].row).Sort, key) {
			j++ // deleted since
		}
		if j == len(r.cands) {
			break
		}
		c := r.cands[j]
		c.row = row
		out = append(out, c)
		j++
	}
	clear(r.cands[len(out):])
	r.cands = out
	return nil
}

// probe reads limit entries of the base box from the centre's Z-address on
// (and, if fewer follow it, the first of the box before it), keeps them
// as candidates, and returns the address ranges it read whole, which no
// ring or batch reads again, and the limit-th smallest distance among the
// rows it read (-1 when it read fewer, or that distance is no number). An entry at the
// last address it reached is no candidate, since entries sharing that
// address past it were not read.
func (r *nearestRows) probe(ctx context.Context, cx, cy float64, limit int) (read []zorder.Range, radius float64, err error) {
	n, q := r.node, r.q
	s := n.ZSchema
	codes := make([]uint64, s.Dims())
	for d := range codes {
		codes[d] = n.ZBox[d].Lo
	}
	cells, px, py := s.CellsAround(n.ZBox, q.X, q.Y, cx, cy)
	codes[q.X], codes[q.Y] = s.Attr(q.X).Float(px), s.Attr(q.Y).Float(py)
	centre := s.Encode(codes)
	if len(cells) == 0 || !within(cells[0], centre) {
		return r.probeRanges(ctx, []zorder.Range{{Lo: centre}, {Lo: make([]byte, s.AddrLen()), Hi: centre}}, limit)
	}
	// From the centre's address (or, outside the box, its nearest point's)
	// out through the nested cells around it, each side in turn: the
	// entries the probe keeps are the Z-curve's nearest to the centre on
	// both sides, not the box's first ones, which lie at its far corner
	// when the centre is near its top or right edge.
	from := []zorder.Range{{Lo: centre, Hi: cells[0].Hi}, {Lo: cells[0].Lo, Hi: centre}}
	for i := 1; i < len(cells); i++ {
		if cells[i-1].Hi != nil {
			from = append(from, zorder.Range{Lo: cells[i-1].Hi, Hi: cells[i].Hi})
		}
		from = append(from, zorder.Range{Lo: cells[i].Lo, Hi: cells[i-1].Lo})
	}
	return r.probeRanges(ctx, nonEmpty(from), limit)
}

// within reports whether address a lies in rg.
func within(rg zorder.Range, a []byte) bool {
	return bytes.Compare(rg.Lo, a) <= 0 && (rg.Hi == nil || bytes.Compare(a, rg.Hi) < 0)
}

// nonEmpty is ranges without the empty ones.
func nonEmpty(ranges []zorder.Range) []zorder.Range {
	out := ranges[:0]
	for _, rg := range ranges {
		if rg.Hi == nil || bytes.Compare(rg.Lo, rg.Hi) < 0 {
			out = append(out, rg)
		}
	}
	return out
}

// probeRanges is probe's read: limit entries of the base box from ranges
// in turn, each read whole while fewer than limit are found.
func (r *nearestRows) probeRanges(ctx context.Context, from []zorder.Range, limit int) (read []zorder.Range, radius float64, err error) {
	n := r.node
	var dists []sqltypes.Value
	for _, rg := range from {
		var got []nearestCand
		if err := r.read(ctx, n.ZBox, []zorder.Range{rg}, limit-len(dists), &got); err != nil {
			return nil, 0, err
		}
		for _, c := range got {
			dists = append(dists, c.dist)
		}
		if len(dists) < limit {
			// The whole range was read.
			r.cands = append(r.cands, got...)
			read = append(read, rg)
			continue
		}
		last := r.address(got[len(got)-1].row)
		for _, c := range got {
			if bytes.Compare(r.address(c.row), last) < 0 {
				r.cands = append(r.cands, c)
			}
		}
		read = append(read, zorder.Range{Lo: rg.Lo, Hi: last})
		break
	}
	// Read outward from the centre, the ranges are in no order; their
	// callers merge them as a sorted list (zorder.UnionRanges).
	slices.SortFunc(read, func(a, b zorder.Range) int { return bytes.Compare(a.Lo, b.Lo) })
	return read, kthRadius(dists, limit), nil
}

// kthRadius is the k-th smallest of a probe's distances, -1 when it read
// fewer or that distance is no number.
func kthRadius(dists []sqltypes.Value, k int) float64 {
	if len(dists) < k {
		return -1
	}
	slices.SortFunc(dists, compareDist)
	if d := dists[k-1]; !d.IsNull() && finiteF(d.AsFloat()) {
		return d.AsFloat()
	}
	return -1
}

// address is the Z-address of a row's entry in the gist index: the codes
// of its point's x and y (NULL codes for a NULL or non-point value).
func (r *nearestRows) address(row []sqltypes.Value) []byte {
	s, q := r.node.ZSchema, r.q
	codes := make([]uint64, s.Dims())
	if x, y, ok := q.Coords(row[q.Column]); ok {
		codes[q.X], codes[q.Y] = s.Attr(q.X).Float(x), s.Attr(q.Y).Float(y)
	}
	return s.Encode(codes)
}

// read scans ranges of the index within box as a Z-order scan, stopping
// after limit rows when it is positive, and adds the rows it admits with
// their distances to *into (the candidates when nil).
func (r *nearestRows) read(ctx context.Context, box zorder.Box, ranges []zorder.Range, limit int, into *[]nearestCand) error {
	ec, n := r.ec, r.node
	rs := *n
	rs.Method, rs.Nearest, rs.Limit, rs.Ordered = optimizer.ZOrderRanges, nil, limit, limit > 0
	if r.entryCols != nil {
		rs.Lookup, rs.Needed = false, r.entryCols
	}
	switch {
	case r.q.XZ != nil:
		rs.Method = optimizer.RangeScan // an XZ index is a btree over codes
	case ec.ex.Caps.CheapSeek:
		rs.Method = optimizer.ZOrderSkipScan
	}
	rs.ZBox = box
	rs.Ranges = make([]optimizer.KeyRange, len(ranges))
	for i, rg := range ranges {
		rs.Ranges[i] = optimizer.KeyRange{Start: rg.Lo, End: rg.Hi}
	}
	if into == nil {
		into = &r.cands
	}
	s := &scanRows{ec: ec, node: &rs, statKey: r.planned, gate: r.gate}
	defer s.Close()
	if err := s.start(ctx); err != nil {
		return err
	}
	for {
		row, ok, err := s.Next(ctx)
		if err != nil || !ok {
			return err
		}
		d, err := r.distance(row)
		if err != nil {
			return err
		}
		*into = append(*into, r.newCand(row, d))
	}
}

// fixCentre keeps the centre's value, evaluated as the search starts, for
// the distance's centre argument (centreArg).
func (r *nearestRows) fixCentre(v sqltypes.Value) {
	r.centre, r.centreFixed = v, true
}

// distance is the query's distance of row.
func (r *nearestRows) distance(row []sqltypes.Value) (sqltypes.Value, error) {
	if r.distFn != nil {
		if r.centreFixed && r.centreArg >= 0 {
			return r.distFn.EvalFixed(r.ec.eval, row, r.distArgs, r.centreArg, r.centre)
		}
		return r.distFn.EvalWith(r.ec.eval, row, r.distArgs)
	}
	return r.q.Dist.Eval(r.ec.eval, row)
}

// lastDist is the distance of the row Next returned last, as the search
// computed it: a projection above that computes the same expression over
// the same row takes it from here (nearestDistUnder) rather than
// evaluating it again.
func (r *nearestRows) lastDist() sqltypes.Value {
	return r.cands[r.pos-1].dist
}

// compareDist orders distances as ORDER BY ... ASC does: numbers, then
// NaN, then NULL.
func compareDist(a, b sqltypes.Value) int {
	if a.IsNull() || b.IsNull() {
		return -sqltypes.Compare(a, b) // Compare puts NULL first
	}
	return sqltypes.Compare(a, b)
}

// trim sorts the candidates nearest first and keeps the first k and every
// one tied with the k-th: a later ring only adds rows, so no row past
// those can be among the k nearest.
func (r *nearestRows) trim(k int) {
	slices.SortFunc(r.cands, compareCands)
	if len(r.cands) <= k {
		return
	}
	end := k
	for end < len(r.cands) && sameDist(r.cands[end], r.cands[k-1]) {
		end++
	}
	clear(r.cands[end:]) // let the rows go
	r.cands = r.cands[:end]
}

// densityRadius is where the K-th nearest is expected from the number of
// candidates within rad, a disc read whole: the radius holding K at their
// density, widened by nearestMargin.
func (r *nearestRows) densityRadius(k int, rad, d0 float64) float64 {
	m := r.countWithin(rad)
	return d0 + (rad-d0)*math.Sqrt(float64(k)/float64(max(m, 1)))*nearestMargin
}

// countWithin is how many candidates (sorted) lie within distance rad.
func (r *nearestRows) countWithin(rad float64) int {
	m := 0
	for _, c := range r.cands {
		if c.dist.IsNull() || !(c.dist.AsFloat() <= rad) {
			break
		}
		m++
	}
	return m
}

// shortRadius is the radius of the disc expected to hold the k nearest
// when the disc of radius settled, read whole, holds m of them, at least
// half of k but fewer: the disc's density times the area for the k - m
// missing rows and their spread (two standard deviations of their count,
// and one more). 0 when the disc holds fewer than half of k, whose
// density is too rough to step by.
func (r *nearestRows) shortRadius(k int, settled, d0 float64) float64 {
	m := r.countWithin(settled)
	if m >= k || 2*m < k || !(settled > d0) {
		return 0
	}
	need := float64(k - m)
	return d0 + (settled-d0)*math.Sqrt((float64(m)+need+2*math.Sqrt(need)+1)/float64(m))
}

// spreadRadius is the radius that holds k at the density of the fewer
// candidates there are, spread over the disc of the farthest finite one's
// distance (0 when there is none).
func (r *nearestRows) spreadRadius(k int, d0 float64) float64 {
	for i := len(r.cands) - 1; i >= 0; i-- {
		if d := r.cands[i].dist; !d.IsNull() && finiteF(d.AsFloat()) {
			return d0 + max(0, d.AsFloat()-d0)*math.Sqrt(float64(k)/float64(i+1))
		}
	}
	return 0
}

// kth is the K-th candidate's distance, -1 when there are fewer or it
// is no finite number.
func (r *nearestRows) kth(k int) float64 {
	if len(r.cands) < k {
		return -1
	}
	d := r.cands[k-1].dist
	if d.IsNull() || !finiteF(d.AsFloat()) {
		return -1
	}
	return d.AsFloat()
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

func finiteF(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func (r *nearestRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !r.started {
		r.started = true
		if err := r.run(ctx); err != nil {
			return nil, false, err
		}
	}
	if r.pos >= len(r.cands) {
		return nil, false, nil
	}
	r.pos++
	return r.cands[r.pos-1].row, true, nil
}

func (r *nearestRows) Close() { r.cands = nil }
