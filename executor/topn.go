package executor

import (
	"context"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/zorder"
)

// topNRows runs a Z-order scan under ORDER BY col LIMIT k (optimizer.
// TopNQuery) as a best-first search over the index's Z-cells in col's order
// (zorder.TopNCells): each batch reads, as one multi-range Z-order scan of
// the box, every unread cell that can hold a value at a bound along col or
// beyond it, each read whole unless it straddles the bound with more than
// about topNCellRows rows of the box short of it. The first bound is where
// the statistics' rows in the box put the k-th value; once k candidates
// are in, the next is the k-th's own code, and the search stops when the
// k-th lies strictly beyond every unread cell's best code: no row of the
// box not yet read can beat or tie it. Every row of the box a batch reads is a candidate (the
// ranges are read for good) unless k candidates are in and it lies
// strictly short of the k-th; after each batch the candidates are cut to
// the first k by col and every row tied with the k-th, by selection, not
// sorting. The Sort and Limit above order them by every ORDER BY key.
//
// Reading whole cells, not slabs of the box, is what keeps the reads near
// k: a slab thin along col is, in a layout where col's codes vary late in
// the address, a great many tiny cells, and a skip-scan through it lands
// on an entry outside the slab at nearly each of them (bench/README.md,
// issue 29).
type topNRows struct {
	ec            *execCtx
	planned, node *optimizer.Scan
	q             *optimizer.TopNQuery
	started       bool
	cands         [][]sqltypes.Value
	pos           int
}

func (ec *execCtx) newTopN(planned, n *optimizer.Scan) Rows {
	if ec.stats != nil && ec.stats[planned] == nil {
		ec.stats[planned] = &optimizer.NodeStats{}
	}
	return &topNRows{ec: ec, planned: planned, node: n, q: n.TopN}
}

const (
	// topNFirstDepth is the share of the box's codes along the column the
	// first batch reaches when the statistics do not say how many rows
	// the box holds: it is taken to hold k rows.
	topNFirstDepth = 1.0 / 64
	// topNCellRows is about how many rows of the box short of the bound
	// a cell straddling it may hold and still be read whole, where seeks
	// are cheap: a finer cell saves less than its seek (one seek of the
	// scan's one iterator, kv.Rescanner: 1 read 4.3 items per row returned
	// where 2 read 6.4, for the same CPU; 0.1 read 2.8 for 1.4× the CPU,
	// bench/README.md). Where every range is a request, topNCellShare of
	// k; there a cell sticking out of the box is split so too, its items
	// outside the box being read.
	topNCellRows  = 1
	topNCellShare = 1.0 / 16
	// topNMaxCells bounds the cells of one batch split finer than whole
	// on a store with cheap seeks (the budget bounds them elsewhere).
	topNMaxCells = 1024
	// topNDeepen is how much deeper than the rows found so far say k
	// lies the next batch reaches when the one before found fewer than k.
	topNDeepen = 1.25
	// topNSlack is how much further than a batch's bound, as a share of
	// its depth, the bound may move to the edge of a coarser block of
	// codes (topNRows.bound).
	topNSlack = 0.5
)

func (r *topNRows) run(ctx context.Context) error {
	n, q := r.node, r.q
	s := n.ZSchema
	attr := s.Attr(q.Dim)
	lo, hi := n.ZBox[q.Dim].Lo, n.ZBox[q.Dim].Hi
	span := float64(hi-lo) + 1
	cells := s.TopNCells(n.ZBox, q.Dim, q.Desc)
	rows := q.Rows // rows of the box, as far as is known
	if rows <= 0 {
		rows = float64(q.K) / topNFirstDepth
	}
	depth := span * min(1, float64(q.K)/rows)
	cheap := r.ec.ex.Caps.CheapSeek
	var batches, ranges int64
	// slack is how far the bound may move to a coarse block's edge: none
	// once it is the k-th candidate's code, which is no estimate.
	slack := topNSlack
	for {
		bound := r.bound(lo, hi, depth, depth*slack)
		share := topNCellRows / rows
		maxCells := topNMaxCells
		if !cheap {
			share = max(share, topNCellShare*float64(q.K)/rows)
			maxCells = q.Budget
		}
		batch := cells.Batch(bound, share, !cheap, maxCells)
		batches++
		ranges += int64(len(batch))
		// Checked against the whole box: the ranges are read for good, so
		// every row of the box in them is a candidate.
		if err := r.read(ctx, n.ZBox, batch); err != nil {
			return err
		}
		r.trim()
		next, ok := cells.Next()
		if !ok {
			break // the whole box is read
		}
		if len(r.cands) >= q.K {
			kth := catalog.ZCode(attr, r.cands[q.K-1][q.Column])
			if (q.Desc && kth > next) || (!q.Desc && kth < next) {
				break
			}
			// Every cell that can reach the k-th settles it.
			slack = 0
			if q.Desc {
				depth = float64(hi-kth) + 1
			} else {
				depth = float64(kth-lo) + 1
			}
			continue
		}
		// Fewer than k so far: as deep as their density says k lies,
		// and the cells as fine as that density says.
		if m := len(r.cands); m > 0 {
			rows = float64(m) * span / depth
			depth = min(span, depth*topNDeepen*float64(q.K)/float64(m))
		} else {
			depth = min(span, depth*4)
		}
	}
	if st := r.ec.stats[r.planned]; st != nil {
		st.TopNBatches += batches
		st.TopNCells += int64(cells.Cells())
		st.TopNRanges += ranges
	}
	return nil
}

// bound is the code depth codes along the column from the end the ORDER BY
// starts at, within [lo, hi], moved further along by up to slack codes to
// the edge of as large an aligned block of codes as lies there: cells are
// aligned blocks, so a bound on a coarse block's edge cuts few of them, and
// the batch reads whole cells instead of the rows of straddling ones short
// of the bound.
func (r *topNRows) bound(lo, hi uint64, depth, slack float64) uint64 {
	clamp := func(d float64) uint64 {
		if d-1 >= float64(hi-lo) {
			return hi - lo
		}
		return uint64(max(0, d-1))
	}
	d, far := clamp(depth), clamp(depth+slack)
	if r.q.Desc {
		b, edge := hi-d, hi-far
		for j := 63; j > 0; j-- {
			if c := b &^ (1<<j - 1); c >= edge {
				return c
			}
		}
		return b
	}
	b, edge := lo+d, lo+far
	for j := 63; j > 0; j-- {
		if c := b | (1<<j - 1); c <= edge {
			return c
		}
	}
	return b
}

// read scans ranges of the index within box as a Z-order scan and adds the
// rows it admits to the candidates.
func (r *topNRows) read(ctx context.Context, box zorder.Box, cover []zorder.Range) error {
	if len(cover) == 0 {
		return nil
	}
	ec := r.ec
	rs := *r.node
	rs.TopN, rs.Limit, rs.Ordered, rs.ZBox = nil, 0, false, box
	rs.Ranges = make([]optimizer.KeyRange, len(cover))
	for i, rg := range cover {
		rs.Ranges[i] = optimizer.KeyRange{Start: rg.Lo, End: rg.Hi}
	}
	s := &scanRows{ec: ec, node: &rs, statKey: r.planned}
	defer s.Close()
	if err := s.start(ctx); err != nil {
		return err
	}
	// Once k candidates are in, a row strictly short of the k-th cannot
	// be among the first k: it is not kept, so trim orders fewer.
	var kth sqltypes.Value
	cut := len(r.cands) >= r.q.K
	if cut {
		kth = r.cands[r.q.K-1][r.q.Column]
	}
	for {
		row, ok, err := s.Next(ctx)
		if err != nil || !ok {
			return err
		}
		if cut && r.cmp(row, kth) > 0 {
			continue
		}
		r.cands = append(r.cands, row)
	}
}

// cmp orders a row against a value of the column the ORDER BY's way: < 0
// when the row comes first.
func (r *topNRows) cmp(row []sqltypes.Value, v sqltypes.Value) int {
	c := sqltypes.Compare(row[r.q.Column], v)
	if r.q.Desc {
		return -c
	}
	return c
}

// trim keeps the first k candidates by the column, the ORDER BY's way, and
// every one tied with the k-th, which it leaves at index k-1: later batches
// only add rows further along, so no row past those can be among the first
// k. It selects rather than sorts (the Sort above orders what is left): a
// batch reads several times k rows, and sorting them all was a sixth of the
// query's CPU.
func (r *topNRows) trim() {
	col, k := r.q.Column, r.q.K
	if len(r.cands) < k {
		return
	}
	selectNth(r.cands, k-1, func(a, b []sqltypes.Value) int { return r.cmp(a, b[col]) })
	end := k
	for i := k; i < len(r.cands); i++ {
		if sqltypes.Compare(r.cands[i][col], r.cands[k-1][col]) == 0 {
			r.cands[end], r.cands[i] = r.cands[i], r.cands[end]
			end++
		}
	}
	clear(r.cands[end:])
	r.cands = r.cands[:end]
}

// selectNth reorders rows so that rows[n] is the row a sort by cmp would
// put there, none before it coming after it and none after it before it
// (Hoare's selection: expected linear, where a sort is n log n).
func selectNth(rows [][]sqltypes.Value, n int, cmp func(a, b []sqltypes.Value) int) {
	lo, hi := 0, len(rows)-1
	for lo < hi {
		p := rows[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for cmp(rows[i], p) < 0 {
				i++
			}
			for cmp(rows[j], p) > 0 {
				j--
			}
			if i <= j {
				rows[i], rows[j] = rows[j], rows[i]
				i++
				j--
			}
		}
		// rows[lo..j] are at most p, rows[i..hi] at least p and those
		// between equal to it.
		switch {
		case n <= j:
			hi = j
		case n >= i:
			lo = i
		default:
			return
		}
	}
}

func (r *topNRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
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
	return r.cands[r.pos-1], true, nil
}

func (r *topNRows) Close() { r.cands = nil }
