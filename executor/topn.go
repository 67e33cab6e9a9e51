package executor

import (
	"context"
	"math"
	"slices"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/zorder"
)

// topNRows runs a Z-order scan under ORDER BY col LIMIT k by slabs
// (optimizer.TopNQuery): it reads the box's slab at the end of col's codes
// the ORDER BY starts from, then deeper slabs, each twice as deep as the one
// before, as ordinary Z-order scans of their covers. Where every item read
// costs (no cheap seeks: DynamoDB), a slab's cover less what earlier slabs
// read is scanned and every row of the box found there is a candidate, the
// over-cover's included (the ranges are read for good); a skip-scan
// (Pebble) seeks through the slab's own box instead. After each slab the
// candidates are cut to the first k by col and every row tied with the
// k-th, and the reads stop once the k-th lies within the slabs read: every
// row of the box not yet read has a code, and so a value, further along.
// The Sort and Limit above order the candidates by every ORDER BY key.
type topNRows struct {
	ec            *execCtx
	planned, node *optimizer.Scan
	q             *optimizer.TopNQuery
	started       bool
	cands         [][]sqltypes.Value
	pos           int
	// frontier is the code along the column up to which the slabs have
	// read the box (the last slab's far end).
	frontier uint64
}

func (ec *execCtx) newTopN(planned, n *optimizer.Scan) Rows {
	if ec.stats != nil && ec.stats[planned] == nil {
		ec.stats[planned] = &optimizer.NodeStats{}
	}
	return &topNRows{ec: ec, planned: planned, node: n, q: n.TopN}
}

// topNFirstSlab is the share of the box's codes along the column the first
// slab spans when the statistics do not say how many rows the box holds.
const topNFirstSlab = 1.0 / 64

func (r *topNRows) run(ctx context.Context) error {
	n, q := r.node, r.q
	s := n.ZSchema
	attr := s.Attr(q.Dim)
	lo, hi := n.ZBox[q.Dim].Lo, n.ZBox[q.Dim].Hi
	span := float64(hi-lo) + 1
	share := topNFirstSlab
	if q.Rows > 0 {
		// Half the estimate's size: a box's estimate is as often several
		// times too small as too large, and a slab too thin costs one
		// more slab, one too thick the rows past K it reads.
		share = optimizer.SlabRows * float64(q.K) / q.Rows / 2
	}
	width := uint64(math.Max(1, math.Min(span, span*share)))
	var done []zorder.Range
	var slabs, ranges int64
	var err error
	skip := r.ec.ex.Caps.CheapSeek
	// [slo, shi] is the slab; next is where the one after it starts.
	for first := true; ; first = false {
		var slo, shi uint64
		if q.Desc {
			shi = hi
			if !first {
				shi = r.frontier - 1
			}
			slo = lo
			if shi-lo >= width {
				slo = shi - width + 1
			}
		} else {
			slo = lo
			if !first {
				slo = r.frontier + 1
			}
			shi = hi
			if hi-slo >= width {
				shi = slo + width - 1
			}
		}
		box := slices.Clone(n.ZBox)
		box[q.Dim] = zorder.Interval{Lo: slo, Hi: shi}
		cover := s.Ranges(box, q.Budget)
		if skip {
			// A skip-scan seeks past what is outside the slab: its
			// ranges may overlap another slab's, which skips them.
			err = r.read(ctx, box, cover)
		} else {
			// Every item of a range costs a read: each range is read
			// once, its rows anywhere in the box kept.
			cover = zorder.SubtractRanges(cover, done)
			err = r.read(ctx, n.ZBox, cover)
			done = zorder.UnionRanges(done, cover)
		}
		if err != nil {
			return err
		}
		slabs++
		ranges += int64(len(cover))
		r.trim()
		if q.Desc {
			r.frontier = slo
		} else {
			r.frontier = shi
		}
		if (q.Desc && slo == lo) || (!q.Desc && shi == hi) {
			break // the whole box is read
		}
		if len(r.cands) >= q.K {
			code := catalog.ZCode(attr, r.cands[q.K-1][q.Column])
			if (q.Desc && code >= slo) || (!q.Desc && code <= shi) {
				break
			}
		}
		if width > math.MaxUint64/2 {
			width = math.MaxUint64
		} else {
			width *= 2
		}
	}
	if st := r.ec.stats[r.planned]; st != nil {
		st.Slabs += slabs
		st.SlabRanges += ranges
	}
	return nil
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
	for {
		row, ok, err := s.Next(ctx)
		if err != nil || !ok {
			return err
		}
		r.cands = append(r.cands, row)
	}
}

// trim orders the candidates by the column, the ORDER BY's way, and keeps
// the first k and every one tied with the k-th: later slabs only add rows
// further along, so no row past those can be among the first k.
func (r *topNRows) trim() {
	col, k := r.q.Column, r.q.K
	slices.SortStableFunc(r.cands, func(a, b []sqltypes.Value) int {
		c := sqltypes.Compare(a[col], b[col])
		if r.q.Desc {
			return -c
		}
		return c
	})
	if len(r.cands) <= k {
		return
	}
	end := k
	for end < len(r.cands) && sqltypes.Compare(r.cands[end][col], r.cands[k-1][col]) == 0 {
		end++
	}
	clear(r.cands[end:])
	r.cands = r.cands[:end]
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
