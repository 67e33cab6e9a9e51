package executor

import (
	"context"
	"sort"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// windowRows computes window functions: it holds its whole input (charged
// to work_mem), then for each call sorts the rows by the call's PARTITION
// BY and ORDER BY and computes the call partition by partition. Its rows
// are the input rows followed by one value per call, in the order of the
// last call's sort.
type windowRows struct {
	in   Rows
	node *optimizer.Window
	ec   *execCtx
	mem  *memBudget // the rows' (opMem)
	out  [][]sqltypes.Value
	pos  int
	done bool
	// spilled is the result when the input did not fit (windowspill.go).
	spilled Rows
	held    int64
}

func (w *windowRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !w.done {
		w.done = true
		if err := w.compute(ctx); err != nil {
			return nil, false, err
		}
	}
	if w.spilled != nil {
		return w.spilled.Next(ctx)
	}
	if w.pos >= len(w.out) {
		return nil, false, nil
	}
	w.pos++
	return w.out[w.pos-1], true, nil
}

func (w *windowRows) Close() {
	if w.spilled != nil {
		w.spilled.Close()
	}
	w.mem.release(w.held)
	w.held = 0
	w.in.Close()
}

func (w *windowRows) compute(ctx context.Context) error {
	width := len(w.node.Input.Columns())
	ncalls := len(w.node.Calls)
	var rows [][]sqltypes.Value
	for n := 1; ; n++ {
		row, ok, err := w.in.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if n%cancelCheckEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		kept := make([]sqltypes.Value, width+ncalls)
		copy(kept, row)
		if err := w.mem.grow(rowSize(kept)); err != nil {
			if !w.ec.canSpill(err) {
				return err
			}
			return w.computeSpilled(ctx, append(rows, kept))
		}
		w.held += rowSize(kept)
		rows = append(rows, kept)
	}
	order := make([]int, len(rows))
	for ci := range w.node.Calls {
		call := &w.node.Calls[ci]
		// Sort keys of every row: partition values, then order values.
		np, no := len(call.PartitionBy), len(call.OrderBy)
		keys := make([][]sqltypes.Value, len(rows))
		for i, r := range rows {
			k := make([]sqltypes.Value, np+no)
			for j, e := range call.PartitionBy {
				v, err := e.Eval(w.ec.eval, r[:width])
				if err != nil {
					return err
				}
				k[j] = v
			}
			for j, o := range call.OrderBy {
				v, err := o.E.Eval(w.ec.eval, r[:width])
				if err != nil {
					return err
				}
				k[np+j] = v
			}
			keys[i] = k
			order[i] = i
		}
		sortKeys := make([]ir.SortKey, np+no)
		for j := 0; j < np; j++ {
			sortKeys[j] = ir.SortKey{Col: j}
		}
		for j, o := range call.OrderBy {
			sortKeys[np+j] = ir.SortKey{Col: np + j, Desc: o.Desc, NullsFirst: o.NullsFirst}
		}
		sort.SliceStable(order, func(a, b int) bool { return lessBy(sortKeys, keys[order[a]], keys[order[b]]) })
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for start := 0; start < len(order); {
			end := start + 1
			for end < len(order) && rowsEqual(keys[order[start]][:np], keys[order[end]][:np]) {
				end++
			}
			p := &partition{ec: w.ec, call: call, rows: rows, keys: keys, idx: order[start:end], np: np, width: width}
			if err := p.compute(width + ci); err != nil {
				return err
			}
			start = end
		}
	}
	w.out = make([][]sqltypes.Value, len(rows))
	for i, j := range order {
		w.out[i] = rows[j]
	}
	if len(w.node.Calls) == 0 {
		w.out = rows
	}
	return nil
}

// partition is one window partition of one call: idx lists its rows in
// the call's order.
type partition struct {
	ec    *execCtx
	call  *ir.WindowCall
	rows  [][]sqltypes.Value
	keys  [][]sqltypes.Value
	idx   []int
	np    int
	width int
	// peerEnd[i] is one past the last peer of position i.
	peerEnd   []int
	peerStart []int
	// groupOf[i] is the peer group of position i; groupStart[g] its start.
	groupOf    []int
	groupStart []int
}

// peers reports whether positions i and j have equal ORDER BY values.
func (p *partition) peers(i, j int) bool {
	return rowsEqual(p.keys[p.idx[i]][p.np:], p.keys[p.idx[j]][p.np:])
}

func (p *partition) computePeers() {
	n := len(p.idx)
	p.peerStart, p.peerEnd, p.groupOf = make([]int, n), make([]int, n), make([]int, n)
	p.groupStart = p.groupStart[:0]
	for i := 0; i < n; {
		j := i + 1
		for j < n && p.peers(i, j) {
			j++
		}
		for k := i; k < j; k++ {
			p.peerStart[k], p.peerEnd[k], p.groupOf[k] = i, j, len(p.groupStart)
		}
		p.groupStart = append(p.groupStart, i)
		i = j
	}
}

func (p *partition) arg(i, pos int) (sqltypes.Value, error) {
	return p.call.Args[i].Eval(p.ec.eval, p.rows[p.idx[pos]][:p.width])
}

func (p *partition) set(pos, col int, v sqltypes.Value) { p.rows[p.idx[pos]][col] = v }

func (p *partition) compute(col int) error {
	p.computePeers()
	if f, ok := windowFuncs[p.call.Func]; ok {
		return f.compute(p, col)
	}
	return p.frameFunc(col)
}

// frame returns the half-open range [lo, hi) of positions in the frame of
// position i.
func (p *partition) frame(i int) (int, int, error) {
	f := p.call.Frame
	n := len(p.idx)
	offset := func(b ir.FrameBound, start bool) (int64, error) {
		v, err := b.Offset.Eval(p.ec.eval, nil)
		if err != nil {
			return 0, err
		}
		which := "ending"
		if start {
			which = "starting"
		}
		if v.IsNull() {
			return 0, pgerr.New(pgerr.NullValueNotAllowed, "frame %s offset must not be null", which)
		}
		if v.K == sqltypes.KindInt && v.I < 0 || v.K == sqltypes.KindFloat && v.F < 0 {
			return 0, pgerr.New(pgerr.InvalidPrecedingOrFollowingSize, "frame %s offset must not be negative", which)
		}
		if v.K == sqltypes.KindFloat {
			return int64(v.F), nil
		}
		return v.I, nil
	}
	bound := func(b ir.FrameBound, start bool) (int, error) {
		switch b.Kind {
		case ir.UnboundedPreceding:
			return 0, nil
		case ir.UnboundedFollowing:
			return n, nil
		case ir.CurrentRow:
			switch f.Mode {
			case ir.FrameRows:
				if start {
					return i, nil
				}
				return i + 1, nil
			default:
				if start {
					return p.peerStart[i], nil
				}
				return p.peerEnd[i], nil
			}
		}
		switch f.Mode {
		case ir.FrameRows:
			off, err := offset(b, start)
			if err != nil {
				return 0, err
			}
			pos := int64(i)
			if b.Kind == ir.OffsetPreceding {
				pos -= off
			} else {
				pos += off
			}
			if !start {
				pos++
			}
			return int(min(max(pos, 0), int64(n))), nil
		case ir.FrameGroups:
			off, err := offset(b, start)
			if err != nil {
				return 0, err
			}
			g := int64(p.groupOf[i])
			if b.Kind == ir.OffsetPreceding {
				g -= off
			} else {
				g += off
			}
			switch {
			case g < 0:
				return 0, nil
			case g >= int64(len(p.groupStart)):
				return n, nil
			case start:
				return p.groupStart[g], nil
			}
			return p.peerEnd[p.groupStart[g]], nil
		}
		// RANGE with an offset: by value of the one ORDER BY key.
		return p.rangeBound(i, b, start)
	}
	lo, err := bound(f.Start, true)
	if err != nil {
		return 0, 0, err
	}
	hi, err := bound(f.End, false)
	if err != nil {
		return 0, 0, err
	}
	return lo, hi, nil
}

// rangeBound finds a RANGE frame bound with an offset: the first position
// whose key is at least (start) or beyond (end) cur ∓ offset.
func (p *partition) rangeBound(i int, b ir.FrameBound, start bool) (int, error) {
	o := p.call.OrderBy[0]
	offV, err := b.Offset.Eval(p.ec.eval, nil)
	if err != nil {
		return 0, err
	}
	if offV.IsNull() {
		which := "ending"
		if start {
			which = "starting"
		}
		return 0, pgerr.New(pgerr.NullValueNotAllowed, "frame %s offset must not be null", which)
	}
	if offV.AsFloat() < 0 {
		return 0, pgerr.New(pgerr.InvalidPrecedingOrFollowingSize, "invalid preceding or following size in window function")
	}
	cur := p.keys[p.idx[i]][p.np]
	n := len(p.idx)
	if cur.IsNull() {
		// NULLs are peers of each other only.
		if start {
			return p.peerStart[i], nil
		}
		return p.peerEnd[i], nil
	}
	delta := offV.AsFloat()
	if b.Kind == ir.OffsetPreceding {
		delta = -delta
	}
	if o.Desc {
		delta = -delta
	}
	target := cur.AsFloat() + delta
	// in reports whether position j's key is past the bound (in sort order).
	before := func(j int) bool {
		v := p.keys[p.idx[j]][p.np]
		if v.IsNull() {
			return o.NullsFirst
		}
		x := v.AsFloat()
		if o.Desc {
			if start {
				return x > target
			}
			return x >= target
		}
		if start {
			return x < target
		}
		return x <= target
	}
	return sort.Search(n, func(j int) bool { return !before(j) }), nil
}

// excluded reports whether the frame exclusion takes position pos out of
// the frame of position i (EXCLUDE CURRENT ROW, GROUP: i and its peers,
// TIES: its peers but not i).
func (p *partition) excluded(i, pos int) bool {
	switch p.call.Frame.Exclude {
	case "current row":
		return pos == i
	case "group":
		return pos >= p.peerStart[i] && pos < p.peerEnd[i]
	case "ties":
		return pos != i && pos >= p.peerStart[i] && pos < p.peerEnd[i]
	}
	return false
}

// nthInFrame returns the position of the k-th row (from 1; from the end
// when k is negative) of the frame [lo, hi) of position i, exclusions
// applied, or -1.
func (p *partition) nthInFrame(i, lo, hi int, k int64) int {
	step, pos := 1, lo
	if k < 0 {
		step, pos, k = -1, hi-1, -k
	}
	for ; pos >= lo && pos < hi; pos += step {
		if !p.excluded(i, pos) {
			if k--; k == 0 {
				return pos
			}
		}
	}
	return -1
}

// frameFunc computes an aggregate over each row's frame. With a frame that starts at the partition's start
// (and excludes nothing) the aggregate accumulates as the frame end moves;
// otherwise each frame is aggregated anew.
func (p *partition) frameFunc(col int) error {
	c := p.call
	n := len(p.idx)
	running := c.Agg != nil && c.Frame.Start.Kind == ir.UnboundedPreceding && c.Frame.Exclude == ""
	var acc *aggInstance
	fed := 0
	for i := 0; i < n; i++ {
		lo, hi, err := p.frame(i)
		if err != nil {
			return err
		}
		if hi < lo {
			hi = lo
		}
		if c.Agg == nil {
			return pgerr.New(pgerr.FeatureNotSupported, "window function %s is not supported", c.Func)
		}
		if !running || acc == nil {
			acc = newInstance(c.Agg, p.ec.mem, p.ec.eval)
			fed = lo
		}
		for ; fed < hi; fed++ {
			if p.excluded(i, fed) {
				continue
			}
			if err := acc.feed(p.ec.eval, p.rows[p.idx[fed]][:p.width], p.ec.mem); err != nil {
				return err
			}
		}
		v, err := acc.value()
		if err != nil {
			return err
		}
		p.set(i, col, v)
	}
	return nil
}
