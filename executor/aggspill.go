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

// With grouping sets each set spills on its own: a row may feed a group in
// memory for one set and go to another set's partitions, and each spilled
// partition is aggregated for its one set (PostgreSQL 13 spills grouping
// sets the same way).

// aggSpill is an aggregation's spilled partitions, one set of them per
// grouping set, and where it is in them.
type aggSpill struct {
	depth int
	// parts are the partitions of each grouping set (nil: none spilled).
	parts []*partitions
	// set and next are the grouping set and the partition to aggregate
	// next.
	set, next int
	reported  bool
	// held is what the groups in memory charged to the budget, released
	// once they are output rows.
	held int64
	sub  *aggRows
}

// spillRow sends an input row for which grouping set s has no room for a
// new group to that set's partitions. It reports false when the
// aggregation may not spill (then err stands).
func (a *aggRows) spillRow(err error, s int, h uint64, row []sqltypes.Value) (bool, error) {
	if !a.ec.canSpill(err) || a.spill.depth >= maxSpillDepth {
		return false, nil
	}
	if a.spill.parts == nil {
		a.spill.parts = make([]*partitions, len(a.groupingSets()))
	}
	if a.spill.parts[s] == nil {
		a.spill.parts[s] = newPartitions(a.ec, a.spill.depth)
	}
	return true, a.spill.parts[s].add(h, row)
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
	if !s.reported {
		s.reported = true
		var rows, bytes int64
		for _, p := range s.parts {
			if p != nil {
				r, b := p.totals()
				rows, bytes = rows+r, bytes+b
			}
		}
		a.ec.spilled(a.node, rows, bytes)
	}
	sets := a.groupingSets()
	for ; s.set < len(s.parts); s.set, s.next = s.set+1, 0 {
		parts := s.parts[s.set]
		if parts == nil {
			continue
		}
		for ; s.next < len(parts.runs); s.next++ {
			run := parts.runs[s.next]
			if run == nil {
				continue
			}
			parts.runs[s.next] = nil
			s.next++
			in, err := newRunRows(run, true)
			if err != nil {
				return false, err
			}
			sub := &aggRows{in: in, node: a.node, only: [][]int{sets[s.set]}, ec: a.ec, mem: a.mem, spill: aggSpill{depth: s.depth + 1}}
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
	}
	return false, nil
}

func (s *aggSpill) close() {
	if s.sub != nil {
		s.sub.Close()
		s.sub = nil
	}
	for _, p := range s.parts {
		p.release()
	}
	s.parts = nil
}
