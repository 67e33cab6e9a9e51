package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// INTERSECT [ALL] and EXCEPT [ALL] count the right rows in a hash table,
// then stream the left rows: the ALL forms keep a left row while its
// count allows, the others pass the left rows found (INTERSECT) or not
// found (EXCEPT) in the table through a DISTINCT (which spills). When the
// right rows do not fit in work_mem, both sides go to hash partitions of
// the spill store (by the hash of the whole row, so equal rows share a
// partition) and each pair of partitions is one set operation of its own,
// which may partition again, as a grace hash join does.

// setOpRows computes INTERSECT [ALL] and EXCEPT [ALL] (NULLs equal to each
// other, as set operations compare).
type setOpRows struct {
	ec          *execCtx
	mem         *memBudget // the right rows' (opMem)
	node        *optimizer.SetOp
	left, right Rows
	depth       int
	started     bool
	counts      *rowSet
	// out streams the result when the right rows fit.
	out Rows
	// Partitioned: the set operations of the partition pairs.
	lparts, rparts *partitions
	subs           []*setOpRows
	cur            int
}

func (s *setOpRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !s.started {
		s.started = true
		if err := s.start(ctx); err != nil {
			return nil, false, err
		}
	}
	if s.out != nil {
		return s.out.Next(ctx)
	}
	for s.cur < len(s.subs) {
		row, ok, err := s.subs[s.cur].Next(ctx)
		if ok || err != nil {
			return row, ok, err
		}
		s.subs[s.cur].Close()
		s.subs[s.cur] = nil
		s.cur++
	}
	return nil, false, nil
}

// start counts the right rows, partitioning both sides if they do not
// fit, and sets up the output.
func (s *setOpRows) start(ctx context.Context) error {
	s.counts = newRowSet(s.mem)
	err := drain(ctx, s.right, func(row []sqltypes.Value) error {
		if s.rparts != nil {
			return s.rparts.add(hashRow(row), row)
		}
		_, _, err := s.counts.add(row)
		if err != nil && s.ec.canSpill(err) && s.depth < maxSpillDepth {
			return s.partition(row)
		}
		return err
	})
	if err != nil {
		return err
	}
	if s.rparts != nil {
		return s.joinPartitions(ctx)
	}
	n := s.node
	keep := &setFilter{in: s.left, counts: s.counts, op: n.Op, all: n.All}
	if n.All {
		s.out = keep
	} else {
		// The left operand is read whole before the first row, as
		// PostgreSQL's hashed or sorted INTERSECT and EXCEPT read it, so
		// a consumer that stops early (EXISTS, LIMIT) still raises the
		// errors its rows raise; the distinct rows are the set's copies.
		s.out = &distinctRows{in: keep, ec: s.ec, node: n, seen: newRowSet(s.mem), whole: true}
	}
	return nil
}

// partition moves the right rows counted so far, and row, to partitions.
func (s *setOpRows) partition(row []sqltypes.Value) error {
	s.rparts = newPartitions(s.ec, s.depth)
	for _, b := range s.counts.buckets {
		for _, e := range b {
			for k := int64(0); k < e.count; k++ {
				if err := s.rparts.add(hashRow(e.row), e.row); err != nil {
					return err
				}
			}
		}
	}
	s.mem.release(s.counts.held)
	s.counts = newRowSet(s.mem)
	return s.rparts.add(hashRow(row), row)
}

// joinPartitions sends the left rows to partitions and sets up the set
// operation of each pair.
func (s *setOpRows) joinPartitions(ctx context.Context) error {
	s.lparts = newPartitions(s.ec, s.depth)
	if err := drain(ctx, s.left, func(row []sqltypes.Value) error { return s.lparts.add(hashRow(row), row) }); err != nil {
		return err
	}
	for _, p := range []*partitions{s.lparts, s.rparts} {
		rows, bytes := p.totals()
		s.ec.spilled(s.node, rows, bytes)
	}
	for i := range s.lparts.runs {
		l, r := s.lparts.runs[i], s.rparts.runs[i]
		if l == nil {
			continue // no left rows: nothing comes out
		}
		sub := &setOpRows{ec: s.ec, mem: s.mem, node: s.node, depth: s.depth + 1, right: &rowsetRows{}}
		s.lparts.runs[i] = nil
		var err error
		if sub.left, err = newRunRows(l, true); err != nil {
			return err
		}
		s.subs = append(s.subs, sub)
		if r != nil {
			s.rparts.runs[i] = nil
			if sub.right, err = newRunRows(r, true); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *setOpRows) Close() {
	if s.out != nil {
		s.out.Close() // closes left
	} else {
		s.left.Close()
	}
	s.right.Close()
	for _, sub := range s.subs {
		if sub != nil {
			sub.Close()
		}
	}
	s.lparts.release()
	s.rparts.release()
	if s.counts != nil {
		s.mem.release(s.counts.held)
		s.counts = nil
	}
}

// setFilter passes the left rows an INTERSECT or EXCEPT keeps, given the
// right rows' counts: for the ALL forms as often as the counts allow (and
// using them up), otherwise every row found (INTERSECT) or not found
// (EXCEPT), duplicates left to a DISTINCT above.
type setFilter struct {
	in     Rows
	counts *rowSet
	op     ir.SetOpKind
	all    bool
}

func (f *setFilter) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for {
		row, ok, err := f.in.Next(ctx)
		if !ok || err != nil {
			return nil, false, err
		}
		m := f.counts.find(row)
		var keep bool
		switch {
		case f.op == ir.Intersect && f.all:
			if keep = m != nil && m.count > 0; keep {
				m.count--
			}
		case f.op == ir.Intersect:
			keep = m != nil
		case f.all: // EXCEPT ALL
			if m != nil && m.count > 0 {
				m.count--
			} else {
				keep = true
			}
		default: // EXCEPT
			keep = m == nil
		}
		if keep {
			return row, true, nil
		}
	}
}

func (f *setFilter) Close() { f.in.Close() }
