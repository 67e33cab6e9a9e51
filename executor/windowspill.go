package executor

import (
	"context"

	"github.com/zproxy/zproxy/executor/spill"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// A window whose input does not fit in work_mem works in stages through
// the spill store: for each call, the rows (with the values of the calls
// before) are sorted externally by the call's PARTITION BY and ORDER BY,
// then read back one partition at a time, which alone must fit, and the
// partition's rows with the call's values go to the next stage's run.
// The calls that need no row after the current one's peers (row_number,
// rank, dense_rank, and aggregates over frames from UNBOUNDED PRECEDING to
// CURRENT ROW, the default with ORDER BY: running totals) stream instead:
// they hold one group of peers at a time, so a window without PARTITION BY
// over any number of rows works too.

// computeSpilled finishes the window from the rows read so far (held) and
// the rest of the input.
func (w *windowRows) computeSpilled(ctx context.Context, held [][]sqltypes.Value) error {
	width := len(w.node.Input.Columns())
	ncalls := len(w.node.Calls)
	stage, err := w.ec.writeRun(held)
	if err != nil {
		return err
	}
	w.mem.release(w.held)
	w.held = 0
	err = drain(ctx, w.in, func(row []sqltypes.Value) error {
		kept := make([]sqltypes.Value, width+ncalls)
		copy(kept, row)
		return stage.Add(kept)
	})
	if err == nil {
		err = stage.Finish()
	}
	if err != nil {
		stage.Release()
		return err
	}
	w.ec.spilled(w.node, stage.Len(), stage.Bytes())
	for ci := range w.node.Calls {
		next, err := w.spilledCall(ctx, ci, stage)
		stage.Release()
		if err != nil {
			return err
		}
		stage = next
	}
	if w.spilled, err = newRunRows(stage, true); err != nil {
		stage.Release()
	}
	return err
}

// spilledCall computes call ci over the rows of stage into a new run.
func (w *windowRows) spilledCall(ctx context.Context, ci int, stage *spill.Run) (*spill.Run, error) {
	width := len(w.node.Input.Columns())
	rowWidth := width + len(w.node.Calls)
	call := &w.node.Calls[ci]
	np, no := len(call.PartitionBy), len(call.OrderBy)
	// Sort [row..., partition values..., order values...].
	keys := make([]ir.SortKey, np+no)
	for j := 0; j < np; j++ {
		keys[j] = ir.SortKey{Col: rowWidth + j}
	}
	for j, o := range call.OrderBy {
		keys[np+j] = ir.SortKey{Col: rowWidth + np + j, Desc: o.Desc, NullsFirst: o.NullsFirst}
	}
	es := &externalSort{ec: w.ec, mem: w.mem, node: w.node, keys: keys}
	in, err := newRunRows(stage, false)
	if err != nil {
		return nil, err
	}
	err = drain(ctx, in, func(row []sqltypes.Value) error {
		r := make([]sqltypes.Value, rowWidth, rowWidth+np+no)
		copy(r, row)
		for _, e := range call.PartitionBy {
			v, err := e.Eval(w.ec.eval, r[:width])
			if err != nil {
				return err
			}
			r = append(r, v)
		}
		for _, o := range call.OrderBy {
			v, err := o.E.Eval(w.ec.eval, r[:width])
			if err != nil {
				return err
			}
			r = append(r, v)
		}
		return es.add(ctx, r)
	})
	in.Close()
	if err != nil {
		return nil, err
	}
	sorted, err := es.result(ctx)
	if err != nil {
		return nil, err
	}
	// Sorted in memory, the rows are charged already (to es).
	charge := len(es.runs) > 0
	defer func() {
		sorted.Close()
		w.mem.release(es.held)
	}()
	out, err := w.ec.newRun()
	if err != nil {
		return nil, err
	}
	// Partitions, one at a time; or, for a call that streams, groups of
	// peers.
	var part, pkeys [][]sqltypes.Value
	var partHeld int64
	var stream *windowStream
	if streams(call) {
		stream = &windowStream{ec: w.ec, call: call, width: width, col: width + ci}
	}
	flush := func() error {
		if len(part) == 0 {
			return nil
		}
		if stream != nil {
			if err := stream.next(part, pkeys, np); err != nil {
				return err
			}
		} else {
			idx := make([]int, len(part))
			for i := range idx {
				idx[i] = i
			}
			p := &partition{ec: w.ec, call: call, rows: part, keys: pkeys, idx: idx, np: np, width: width}
			if err := p.compute(width + ci); err != nil {
				return err
			}
		}
		for _, r := range part {
			if err := out.Add(r); err != nil {
				return err
			}
		}
		w.mem.release(partHeld)
		part, pkeys, partHeld = part[:0], pkeys[:0], 0
		return nil
	}
	err = drain(ctx, sorted, func(row []sqltypes.Value) error {
		k := row[rowWidth:]
		if len(part) > 0 {
			newPart := !rowsEqual(pkeys[0][:np], k[:np])
			if newPart || stream != nil && (!stream.needsPeers() || !rowsEqual(pkeys[0][np:], k[np:])) {
				if err := flush(); err != nil {
					return err
				}
			}
			if newPart && stream != nil {
				stream.reset()
			}
		}
		r := copyRow(row)
		if !charge {
			part, pkeys = append(part, r[:rowWidth]), append(pkeys, r[rowWidth:])
			return nil
		}
		if err := w.mem.grow(rowSize(r)); err != nil {
			if pe := pgerr.As(err); pe != nil {
				e := *pe
				e.Detail = "A window partition is held in memory whole: one partition must fit in zproxy.work_mem."
				if stream != nil {
					e.Detail = "A window function's rows with equal ORDER BY values are held in memory together: they must fit in zproxy.work_mem."
				}
				return &e
			}
			return err
		}
		partHeld += rowSize(r)
		part, pkeys = append(part, r[:rowWidth]), append(pkeys, r[rowWidth:])
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err == nil {
		err = out.Finish()
	}
	if err != nil {
		w.mem.release(partHeld)
		out.Release()
		return nil, err
	}
	w.ec.spilled(w.node, out.Len(), out.Bytes())
	return out, nil
}

// streams reports whether call can be computed a group of peers at a time
// (windowStream).
func streams(call *ir.WindowCall) bool {
	if windowFuncs[call.Func].step != nil {
		return true
	}
	f := call.Frame
	return call.Agg != nil && f.Start.Kind == ir.UnboundedPreceding && f.End.Kind == ir.CurrentRow && f.Exclude == ""
}

// windowStream computes a streaming call over a partition's rows in
// order, given one row at a time, or one group of peers at a time when
// needsPeers.
type windowStream struct {
	ec    *execCtx
	call  *ir.WindowCall
	width int
	col   int
	// before counts the partition's rows so far, groups its peer groups;
	// start is the position of the current group's first row, prev its
	// ORDER BY values.
	before, groups, start int64
	prev                  []sqltypes.Value
	acc                   *aggInstance
}

// reset starts a partition.
func (s *windowStream) reset() {
	s.before, s.groups, s.start, s.prev, s.acc = 0, 0, 0, nil, nil
}

// needsPeers: an aggregate over a RANGE or GROUPS frame ending at CURRENT
// ROW takes in all the current row's peers.
func (s *windowStream) needsPeers() bool {
	return s.call.Agg != nil && s.call.Frame.Mode != ir.FrameRows
}

// next sets the call's value in rows (keys: their partition and ORDER BY
// values, np of the first).
func (s *windowStream) next(rows, keys [][]sqltypes.Value, np int) error {
	c := s.call
	step := windowFuncs[c.Func].step
	for i, r := range rows {
		if ok := keys[i][np:]; s.prev == nil || !rowsEqual(s.prev, ok) {
			s.start, s.prev = s.before, copyRow(ok)
			s.groups++
		}
		if step != nil {
			r[s.col] = step(s)
		}
		s.before++
	}
	if c.Agg == nil {
		return nil
	}
	if s.acc == nil {
		s.acc = newInstance(c.Agg, s.ec.mem, s.ec.eval)
	}
	for i, r := range rows {
		if err := s.acc.feed(s.ec.eval, r[:s.width], s.ec.mem); err != nil {
			return err
		}
		if s.needsPeers() && i < len(rows)-1 {
			continue // the frame ends with the last peer
		}
		v, err := s.acc.value()
		if err != nil {
			return err
		}
		if !s.needsPeers() {
			r[s.col] = v
			continue
		}
		for _, p := range rows {
			p[s.col] = v
		}
	}
	return nil
}
