package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/kv"
	"github.com/zproxy/zproxy/optimizer"
)

// merge runs a MERGE (optimizer.Merge), in the transaction its plan asks
// for (Constraints.Txn: all its writes or none). It fires the BEFORE
// STATEMENT triggers of the actions its clauses name (INSERT, UPDATE,
// DELETE, PostgreSQL's order), reads the join once, gives each row the
// first clause of its kind (matched or not) whose condition holds, and
// hands the rows to its DELETE, UPDATE and INSERT, which run as those
// statements do (row triggers, constraints, indexes, partitions) but for
// their statement triggers; the AFTER STATEMENT triggers fire last
// (DELETE, UPDATE, INSERT), with the transition rows of each.
func (ec *execCtx) merge(ctx context.Context, m *optimizer.Merge, stats *kv.Stats) (WriteResult, error) {
	t := m.Table
	named := map[string]bool{}
	for _, a := range m.Actions {
		named[a.Kind] = true
	}
	events := []struct{ kind, event string }{{"insert", "INSERT"}, {"update", "UPDATE"}, {"delete", "DELETE"}}
	for _, e := range events {
		if named[e.kind] {
			if err := ec.fireStatement(t, e.event, "BEFORE"); err != nil {
				return WriteResult{}, err
			}
		}
	}
	rows, err := ec.sourceRows(ctx, m.Join)
	if err != nil {
		return WriteResult{}, err
	}
	w := len(t.Columns)
	decided := make([][]sqltypes.Value, 0, len(rows))
	changed := map[string]bool{} // the target rows an UPDATE or DELETE takes
	for _, row := range rows {
		v, err := m.Matched.Eval(ec.eval, row)
		if err != nil {
			return WriteResult{}, err
		}
		matched := ir.Truthy(v)
		act := -1
		for k, a := range m.Actions {
			if a.Matched != matched {
				continue
			}
			if a.Cond != nil {
				v, err := a.Cond.Eval(ec.eval, row)
				if err != nil {
					return WriteResult{}, err
				}
				if !ir.Truthy(v) {
					continue
				}
			}
			act = k
			break
		}
		if act < 0 || m.Actions[act].Kind == "nothing" {
			continue
		}
		if matched {
			k := string(t.EncodePK(nil, row[:w]))
			if changed[k] {
				return WriteResult{}, pgerr.New(pgerr.CardinalityViolation, "MERGE command cannot affect row a second time").
					WithHint("Ensure that not more than one source row matches any one target row.")
			}
			changed[k] = true
		}
		decided = append(decided, append(row[:len(row):len(row)], sqltypes.NewInt(int64(act))))
	}
	ec.ctes.set(&ec.ctes.shared, m.RowsID, &cteState{rows: decided, done: true})

	// The writes' statement triggers are the MERGE's, fired here.
	ec.merging, ec.mergeChanges = t, map[string][]change{}
	defer func() { ec.merging, ec.mergeChanges = nil, nil }()
	var res WriteResult
	add := func(r WriteResult, err error) error {
		res.Count += r.Count
		return err
	}
	if m.Delete != nil {
		ec.cons = m.Delete.Constraints
		if err := add(ec.delete(ctx, m.Delete, stats)); err != nil {
			return WriteResult{}, err
		}
	}
	if m.Update != nil {
		ec.cons = m.Update.Constraints
		if err := add(ec.update(ctx, m.Update, stats)); err != nil {
			return WriteResult{}, err
		}
	}
	if m.Insert != nil {
		ec.cons = m.Insert.Constraints
		if err := add(ec.insert(ctx, m.Insert, stats)); err != nil {
			return WriteResult{}, err
		}
	}
	ec.cons = m.Constraints
	after := ec.mergeChanges
	ec.merging = nil
	for i := len(events) - 1; i >= 0; i-- {
		if e := events[i]; named[e.kind] {
			if err := ec.fireStatement(t, e.event, "AFTER", after[e.event]...); err != nil {
				return WriteResult{}, err
			}
		}
	}
	return res, nil
}
