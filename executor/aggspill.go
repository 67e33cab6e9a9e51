package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/sqltypes"
)

// A hash aggregation that runs out of work_mem stops making groups: the
// input rows of groups it has not made go to hash partitions of the spill
// store (by the hash of their group key, so a group is either wholly in
// memory or wholly in one partition). Once the input ends and the groups
// in memory are out, each partition is aggregated on its own, spilling
// again (with other bits of the hash) if it still does not fit. This is
// PostgreSQL 13's hash aggregation spill.

// aggSpill is an aggregation's spilled partitions and where it is in them.
type aggSpill struct {
	depth int
	parts *partitions
	next  int
	// held is what the groups in memory charged to the budget, released
	// once they are output rows.
	held int64
	sub  *aggRows
}

// spillRow sends an input row whose group has no room to its partition.
// It reports false when the aggregation may not spill (then err stands).
func (a *aggRows) spillRow(err error, h uint64, row []sqltypes.Value) (bool, error) {
	if !a.ec.canSpill(err) || a.spill.depth >= maxSpillDepth {
		return false, nil
	}
	if a.spill.parts == nil {
		a.spill.parts = newPartitions(a.ec, a.spill.depth)
	}
	return true, a.spill.parts.add(h, row)
}

// nextPartition aggregates the next spilled partition into a.out; more is
// false when none is left.
func (a *aggRows) nextPartition(ctx context.Context) (more bool, err error) {
	s := &a.spill
	if s.parts == nil {
		return false, nil
	}
	if s.sub != nil {
		// A partition that spilled again: its partitions come first.
		more, err := s.sub.nextPartition(ctx)
		if err != nil || more {
			a.out, a.pos = s.sub.out, 0
			return more, err
		}
		s.sub.Close()
		s.sub = nil
	}
	if s.next == 0 {
		rows, bytes := s.parts.totals()
		a.ec.spilled(a.node, rows, bytes)
	}
	for ; s.next < len(s.parts.runs); s.next++ {
		run := s.parts.runs[s.next]
		if run == nil {
			continue
		}
		s.parts.runs[s.next] = nil
		s.next++
		in, err := newRunRows(run, true)
		if err != nil {
			return false, err
		}
		sub := &aggRows{in: in, node: a.node, ec: a.ec, mem: a.mem, spill: aggSpill{depth: s.depth + 1}}
		err = sub.consume(ctx)
		a.out, a.pos = sub.out, 0
		if err == nil && sub.spill.parts != nil {
			// It spilled again: its own partitions follow its groups.
			s.sub = sub
		} else {
			sub.Close()
		}
		return true, err
	}
	return false, nil
}

func (s *aggSpill) close() {
	if s.sub != nil {
		s.sub.Close()
		s.sub = nil
	}
	s.parts.release()
	s.parts = nil
}
