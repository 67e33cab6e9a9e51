package executor

import (
	"context"

	"github.com/zproxy/zproxy/executor/spill"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// A hash join whose build side does not fit in work_mem becomes a grace
// hash join: the build rows (those held so far and the rest) go to hash
// partitions of the spill store by their join keys, then the probe rows do
// too, and each pair of partitions is joined on its own (by a hash join
// that may partition again). A row's matches are all in its partition, so
// every join kind (left, full, semi, anti) keeps its meaning. Rows with a
// NULL key match nothing: they go to runs of their own and come out
// unmatched at the end (NULL-extended for outer joins, as they are for an
// anti join, not at all for inner and semi joins).

// joinSpill is a hash join's partitions.
type joinSpill struct {
	depth        int
	build, probe *partitions
	// nullBuild and nullProbe hold the rows whose key is NULL.
	nullBuild, nullProbe *spill.Run
	// held is what the build rows in memory charged to the budget.
	held int64
	subs []*hashJoinRows
	cur  int
	// nulls reads the NULL-key rows at the end.
	nulls         *runRows
	nullsAreBuild bool
}

// addRow sends a row to its partition, or to the NULL-key run.
func (s *joinSpill) addRow(ec *execCtx, p *partitions, null **spill.Run, k []sqltypes.Value, ok bool, row []sqltypes.Value) error {
	if ok {
		return p.add(hashRow(k), row)
	}
	if *null == nil {
		r, err := ec.newRun()
		if err != nil {
			return err
		}
		*null = r
	}
	return (*null).Add(row)
}

// spillBuild switches the join to partitions when the build side has no
// room: the rows held so far move to the partitions with row. It reports
// false when the join may not spill (then err stands).
func (h *hashJoinRows) spillBuild(err error, k []sqltypes.Value, ok bool, row []sqltypes.Value) (bool, error) {
	if !h.ec.canSpill(err) || h.spill.depth >= maxSpillDepth {
		return false, nil
	}
	s := &h.spill
	s.build, s.probe = newPartitions(h.ec, s.depth), newPartitions(h.ec, s.depth)
	rw := h.em.rw
	for _, kept := range h.build {
		k := kept[rw:]
		if err := s.addRow(h.ec, s.build, &s.nullBuild, k, len(k) > 0, kept[:rw]); err != nil {
			return true, err
		}
	}
	h.build, h.table = nil, nil
	h.mem.release(s.held)
	s.held = 0
	return true, s.addBuild(h.ec, k, ok, row)
}

// addBuild sends a build row to its partition.
func (s *joinSpill) addBuild(ec *execCtx, k []sqltypes.Value, ok bool, row []sqltypes.Value) error {
	return s.addRow(ec, s.build, &s.nullBuild, k, ok, row)
}

// partitionProbe sends the probe rows to their partitions and sets up the
// joins of the partition pairs.
func (h *hashJoinRows) partitionProbe(ctx context.Context) error {
	s := &h.spill
	var key []sqltypes.Value
	err := drain(ctx, h.left, func(row []sqltypes.Value) error {
		k, ok, err := evalKeys(h.node.LeftKeys, h.ec.eval, row, key)
		if err != nil {
			return err
		}
		key = k
		return s.addRow(h.ec, s.probe, &s.nullProbe, k, ok, row)
	})
	if err != nil {
		return err
	}
	for _, p := range []*partitions{s.build, s.probe} {
		rows, bytes := p.totals()
		h.ec.spilled(h.node, rows, bytes)
	}
	for _, r := range []*spill.Run{s.nullBuild, s.nullProbe} {
		if r != nil {
			h.ec.spilled(h.node, r.Len(), r.Bytes())
		}
	}
	for i := range s.build.runs {
		b, p := s.build.runs[i], s.probe.runs[i]
		if b == nil && p == nil {
			continue
		}
		sub := &hashJoinRows{ec: h.ec, mem: h.mem, node: h.node, em: joinEmitter{kind: h.em.kind, lw: h.em.lw, rw: h.em.rw},
			spill: joinSpill{depth: s.depth + 1}, left: &rowsetRows{}, right: &rowsetRows{}}
		if b != nil {
			s.build.runs[i] = nil
			if sub.right, err = newRunRows(b, true); err != nil {
				sub.Close()
				return err
			}
		}
		if p != nil {
			s.probe.runs[i] = nil
			if sub.left, err = newRunRows(p, true); err != nil {
				sub.Close()
				return err
			}
		}
		s.subs = append(s.subs, sub)
	}
	if len(s.subs) == 0 {
		s.subs = []*hashJoinRows{} // joined: nothing on either side
	}
	return nil
}

// nextUnmatched returns the rows whose key is NULL, unmatched: probe rows
// NULL-extended (left, full) or as they are (anti), then build rows
// NULL-extended (full).
func (h *hashJoinRows) nextUnmatched(ctx context.Context) ([]sqltypes.Value, bool, error) {
	s := &h.spill
	for {
		if s.nulls == nil {
			var run *spill.Run
			switch {
			case s.nullProbe != nil && (h.em.kind == ir.LeftJoin || h.em.kind == ir.FullJoin || h.em.kind == ir.AntiJoin):
				run, s.nullProbe, s.nullsAreBuild = s.nullProbe, nil, false
			case s.nullBuild != nil && h.em.kind == ir.FullJoin:
				run, s.nullBuild, s.nullsAreBuild = s.nullBuild, nil, true
			default:
				return nil, false, nil
			}
			rr, err := newRunRows(run, true)
			if err != nil {
				return nil, false, err
			}
			s.nulls = rr
		}
		row, ok, err := s.nulls.Next(ctx)
		if err != nil {
			return nil, false, err
		}
		if ok {
			switch {
			case s.nullsAreBuild:
				return h.em.nullLeft(row), true, nil
			case h.em.kind == ir.AntiJoin:
				return row, true, nil
			}
			return h.em.nullRight(row), true, nil
		}
		s.nulls.Close()
		s.nulls = nil
	}
}

// nextFromPartitions returns the joins of the partitions one after the
// other.
func (h *hashJoinRows) nextFromPartitions(ctx context.Context) ([]sqltypes.Value, bool, error) {
	s := &h.spill
	for s.cur < len(s.subs) {
		row, ok, err := s.subs[s.cur].Next(ctx)
		if err != nil || ok {
			return row, ok, err
		}
		s.subs[s.cur].Close()
		s.subs[s.cur] = nil
		s.cur++
	}
	return h.nextUnmatched(ctx)
}

func (s *joinSpill) close() {
	for _, sub := range s.subs {
		if sub != nil {
			sub.Close()
		}
	}
	s.subs = nil
	for _, p := range []*partitions{s.build, s.probe} {
		if p != nil {
			p.release()
		}
	}
	if s.nulls != nil {
		s.nulls.Close()
	}
	for _, r := range []*spill.Run{s.nullBuild, s.nullProbe} {
		if r != nil {
			r.Release()
		}
	}
}
