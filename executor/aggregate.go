package executor

import (
	"context"
	"math"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/planner"
)

// aggState accumulates one aggregate of one group.
type aggState struct {
	count    int64
	sumI     int64
	sumF     float64
	isFloat  bool
	best     sqltypes.Value // min/max
	distinct map[uint64][]sqltypes.Value
}

type group struct {
	key  []sqltypes.Value
	aggs []aggState
}

// aggRows groups its whole input in memory (hash aggregation), then
// returns one row per group: [group values..., aggregate values...].
type aggRows struct {
	in     Rows
	node   *optimizer.Aggregate
	ec     *execCtx
	out    [][]sqltypes.Value
	pos    int
	done   bool
	groups map[uint64][]*group
	n      int
}

func (a *aggRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	if !a.done {
		a.done = true
		if err := a.consume(ctx); err != nil {
			return nil, false, err
		}
	}
	if a.pos >= len(a.out) {
		return nil, false, nil
	}
	a.pos++
	return a.out[a.pos-1], true, nil
}

func (a *aggRows) consume(ctx context.Context) error {
	a.groups = map[uint64][]*group{}
	var order []*group
	key := make([]sqltypes.Value, len(a.node.GroupBy))
	for {
		row, ok, err := a.in.Next(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		for i, g := range a.node.GroupBy {
			if key[i], err = g.Eval(a.ec.eval, row); err != nil {
				return err
			}
		}
		h := hashRow(key)
		var grp *group
		for _, c := range a.groups[h] {
			if rowsEqual(c.key, key) {
				grp = c
				break
			}
		}
		if grp == nil {
			a.n++
			if a.n > MaxSortRows {
				return tooMany()
			}
			grp = &group{key: copyRow(key), aggs: make([]aggState, len(a.node.Aggs))}
			a.groups[h] = append(a.groups[h], grp)
			order = append(order, grp)
		}
		for i, call := range a.node.Aggs {
			if err := accumulate(&grp.aggs[i], call, a.ec.eval, row); err != nil {
				return err
			}
		}
	}
	if len(order) == 0 && len(a.node.GroupBy) == 0 {
		order = append(order, &group{aggs: make([]aggState, len(a.node.Aggs))})
	}
	for _, g := range order {
		out := append(copyRow(g.key), make([]sqltypes.Value, len(a.node.Aggs))...)
		for i, call := range a.node.Aggs {
			out[len(g.key)+i] = finish(&g.aggs[i], call)
		}
		a.out = append(a.out, out)
	}
	return nil
}

func accumulate(st *aggState, call planner.AggCall, ev *planner.EvalContext, row []sqltypes.Value) error {
	if call.Func == planner.AggCountStar {
		st.count++
		return nil
	}
	v, err := call.Arg.Eval(ev, row)
	if err != nil {
		return err
	}
	if v.IsNull() {
		return nil
	}
	if call.Distinct {
		if st.distinct == nil {
			st.distinct = map[uint64][]sqltypes.Value{}
		}
		h := v.Hash(0)
		for _, seen := range st.distinct[h] {
			if sqltypes.Equal(seen, v) {
				return nil
			}
		}
		st.distinct[h] = append(st.distinct[h], v)
	}
	st.count++
	switch call.Func {
	case planner.AggSum, planner.AggAvg:
		if v.K == sqltypes.KindFloat || st.isFloat || call.Func == planner.AggAvg {
			if !st.isFloat {
				st.isFloat = true
				st.sumF = float64(st.sumI)
			}
			st.sumF += v.AsFloat()
			return nil
		}
		s := st.sumI + v.I
		if (s > st.sumI) != (v.I > 0) {
			return pgerr.New(pgerr.NumericValueOutOfRange, "bigint out of range")
		}
		st.sumI = s
	case planner.AggMin:
		if st.count == 1 || sqltypes.Compare(v, st.best) < 0 {
			st.best = v
		}
	case planner.AggMax:
		if st.count == 1 || sqltypes.Compare(v, st.best) > 0 {
			st.best = v
		}
	}
	return nil
}

func finish(st *aggState, call planner.AggCall) sqltypes.Value {
	switch call.Func {
	case planner.AggCount, planner.AggCountStar:
		return sqltypes.NewInt(st.count)
	}
	if st.count == 0 {
		return sqltypes.Null
	}
	switch call.Func {
	case planner.AggSum:
		if st.isFloat {
			return sqltypes.NewFloat(st.sumF)
		}
		return sqltypes.NewInt(st.sumI)
	case planner.AggAvg:
		avg := st.sumF / float64(st.count)
		if math.IsInf(avg, 0) && !math.IsInf(st.sumF, 0) {
			return sqltypes.NewFloat(st.sumF)
		}
		return sqltypes.NewFloat(avg)
	}
	return st.best
}

func (a *aggRows) Close() { a.in.Close() }
