package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// An aggregate with DISTINCT or ORDER BY keeps argument rows until it ends
// (count(DISTINCT x), string_agg(s, ',' ORDER BY s)). In an operator's own
// budget (opMem) those rows spill past work_mem to an external sort, as
// PostgreSQL sorts such an aggregate's input:
//
//   - ORDER BY: the rows kept so far and every later one go to the sort,
//     which yields them in order at the end;
//   - DISTINCT (without ORDER BY): the set of values seen stays as it is;
//     values without room in it go to the sort, and at the end each
//     spilled value is fed once (the sort puts equal ones together) unless
//     the set holds it, so every value is counted once;
//   - DISTINCT with ORDER BY: the rows kept so far (one per value in the
//     set) and later values the set does not hold go to the sort, ordered
//     by the ORDER BY keys and then the value, and each run of equal
//     values is fed once. As PostgreSQL requires, the ORDER BY keys are
//     among the arguments, so equal values sort together.

// spillArgs moves the instance's kept rows, and kept, to an external sort
// (or adds kept to it once there); err stands when the budget may not
// spill.
func (in *aggInstance) spillArgs(err error, mem *memBudget, kept []sqltypes.Value) error {
	if in.spilled != nil {
		return in.spilled.add(context.Background(), kept)
	}
	if mem.spill == nil {
		return err
	}
	ec := &execCtx{mem: mem, spill: mem.spill}
	es := &externalSort{ec: ec, mem: mem}
	n := len(in.call.Args)
	if len(in.call.OrderBy) > 0 {
		for i, k := range in.call.OrderBy {
			es.keys = append(es.keys, ir.SortKey{Col: n + i, Desc: k.Desc, NullsFirst: k.NullsFirst})
		}
		if in.distinct != nil {
			es.keys = append(es.keys, ir.SortKey{Col: 0})
		}
	} else {
		es.keys = []ir.SortKey{{Col: 0}}
	}
	in.spilled = es
	// The rows kept so far move over (charged now to es).
	mem.release(in.held)
	in.held = 0
	rows := in.ordered
	in.ordered = nil
	for _, r := range append(rows, kept) {
		if err := es.add(context.Background(), r); err != nil {
			return err
		}
	}
	return nil
}

// feedSpilled feeds the spilled rows to the accumulator, in order.
func (in *aggInstance) feedSpilled() error {
	es := in.spilled
	in.spilled = nil
	ctx := context.Background()
	rows, err := es.result(ctx)
	if err != nil {
		return err
	}
	for _, r := range es.runs {
		in.spilledRows, in.spilledBytes = in.spilledRows+r.Len(), in.spilledBytes+r.Bytes()
	}
	defer func() {
		rows.Close()
		es.mem.release(es.held)
	}()
	var prev []sqltypes.Value
	return drain(ctx, rows, func(r []sqltypes.Value) error {
		// DISTINCT is on the first argument (string_agg(DISTINCT s, ',')).
		repeated := prev != nil && rowsEqual(prev, r[:1])
		if len(in.call.OrderBy) > 0 {
			if in.distinct != nil {
				if repeated {
					return nil
				}
				prev = copyRow(r[:1])
			}
			return in.acc.add(in.sortedArgs(r))
		}
		if repeated || in.distinct.find(r[:1]) != nil {
			return nil
		}
		prev = copyRow(r[:1])
		return in.acc.add(r)
	})
}
