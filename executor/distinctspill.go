package executor

import (
	"context"
	"slices"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
)

// A DISTINCT whose set of seen keys outgrows work_mem stops adding keys:
// the rows of keys it has not seen go to hash partitions of the spill
// store (by the hash of the key, so all the rows of a key share one
// partition, in input order). Once the input ends the set is dropped, and
// each partition is deduplicated on its own, spilling again with other
// bits of the hash if it still does not fit. A key seen in memory is never
// in a partition, so no row comes out twice; DISTINCT ON keeps each key's
// first row, as the partitions keep the input's order.

// A DISTINCT whose rows must keep the input's order (it is sorted for the
// query's ORDER BY) cannot spill that way: it does not spill. But when the
// sort columns are all key columns, the rows of one key are among the rows
// of equal sort values (the leading ones, when only those are key
// columns), so the set of seen keys is emptied whenever those
// change: it holds the keys of one such group at a time, which usually
// fits (SELECT DISTINCT ON (sensor) ... ORDER BY sensor, ts DESC holds
// one key).

func newDistinct(ec *execCtx, n *optimizer.Distinct, in Rows) *distinctRows {
	d := &distinctRows{in: in, on: n.On, ec: ec, node: n, seen: newRowSet(ec.opMem()), ordered: n.Ordered}
	// The groups are those of the leading sort columns that are key
	// columns (DISTINCT ON (s) ... ORDER BY s, id: of s).
	for _, k := range n.Sorted {
		if len(n.On) > 0 && !slices.Contains(n.On, k.Col) {
			break
		}
		d.sorted = append(d.sorted, k)
	}
	d.grouped = len(d.sorted) > 0
	return d
}

// newGroup reports whether row's sort values differ from the previous
// row's.
func (d *distinctRows) newGroup(row []sqltypes.Value) bool {
	changed := d.prev == nil || compareBy(d.sorted, d.prev, row) != 0
	if changed {
		d.prev = copyRow(row)
	}
	return changed
}

// distinctSpill is a DISTINCT's partitions and where it is in them.
type distinctSpill struct {
	depth  int
	parts  *partitions
	next   int
	sub    *distinctRows
	inDone bool
}

// spillRow sends a row whose key has no room to its partition. It reports
// false when the DISTINCT may not spill (then err stands).
func (d *distinctRows) spillRow(err error, key, row []sqltypes.Value) (bool, error) {
	if !d.ec.canSpill(err) || d.spill.depth >= maxSpillDepth || d.ordered {
		return false, nil
	}
	if d.spill.parts == nil {
		d.spill.parts = newPartitions(d.ec, d.spill.depth)
	}
	return true, d.spill.parts.add(hashRow(key), row)
}

// nextSpilled returns the distinct rows of the partitions, one partition
// after the other.
func (d *distinctRows) nextSpilled(ctx context.Context) ([]sqltypes.Value, bool, error) {
	s := &d.spill
	if s.parts == nil {
		return nil, false, nil
	}
	for {
		if s.sub != nil {
			row, ok, err := s.sub.Next(ctx)
			if ok || err != nil {
				return row, ok, err
			}
			s.sub.Close()
			s.sub = nil
		}
		if s.next == 0 {
			rows, bytes := s.parts.totals()
			d.ec.spilled(d.node, rows, bytes)
			// The keys in memory have no row in the partitions.
			d.seen.mem.release(d.seen.held)
			d.seen = newRowSet(d.seen.mem)
		}
		for s.next < len(s.parts.runs) && s.parts.runs[s.next] == nil {
			s.next++
		}
		if s.next == len(s.parts.runs) {
			return nil, false, nil
		}
		run := s.parts.runs[s.next]
		s.parts.runs[s.next] = nil
		s.next++
		in, err := newRunRows(run, true)
		if err != nil {
			return nil, false, err
		}
		s.sub = &distinctRows{in: in, on: d.on, ec: d.ec, node: d.node, seen: newRowSet(d.seen.mem),
			spill: distinctSpill{depth: s.depth + 1}}
	}
}

func (s *distinctSpill) close() {
	if s.sub != nil {
		s.sub.Close()
		s.sub = nil
	}
	s.parts.release()
	s.parts = nil
}
