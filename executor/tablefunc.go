package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/planner"
)

// newTableFunc evaluates a set-returning function's arguments and returns
// its rows as a stream.
func (ec *execCtx) newTableFunc(n *optimizer.TableFunc) (Rows, error) {
	args := make([]sqltypes.Value, len(n.Args))
	for i, a := range n.Args {
		v, err := a.Eval(ec.eval, nil)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	switch {
	case n.Name == "generate_series":
		return newSeries(args, n.Ordinality)
	case planner.IsJSONTableFunc(n.Name):
		rows, err := jsonTableRows(n.Name, args[0])
		if err != nil {
			return nil, err
		}
		return &listRows{rows: rows, ordinality: n.Ordinality}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "function %s in FROM is not supported", n.Name)
}

// seriesRows is generate_series over integers: start, stop and step
// (default 1), inclusive of stop, empty when the step runs away from it.
type seriesRows struct {
	cur, stop, step int64
	done            bool
	ordinality      bool
	n               int64
	out             []sqltypes.Value
}

func newSeries(args []sqltypes.Value, ordinality bool) (Rows, error) {
	for _, a := range args {
		if a.IsNull() {
			return &seriesRows{done: true}, nil
		}
	}
	s := &seriesRows{cur: args[0].I, stop: args[1].I, step: 1, ordinality: ordinality}
	if len(args) > 2 {
		s.step = args[2].I
	}
	if s.step == 0 {
		return nil, pgerr.New(pgerr.InvalidParameterValue, "step size cannot equal zero")
	}
	s.done = s.step > 0 && s.cur > s.stop || s.step < 0 && s.cur < s.stop
	return s, nil
}

func (s *seriesRows) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if s.done {
		return nil, false, nil
	}
	v := s.cur
	next := s.cur + s.step
	// Stop on reaching the end or on overflow.
	if s.step > 0 && (next > s.stop || next < s.cur) || s.step < 0 && (next < s.stop || next > s.cur) {
		s.done = true
	}
	s.cur = next
	s.n++
	s.out = append(s.out[:0], sqltypes.NewInt(v))
	if s.ordinality {
		s.out = append(s.out, sqltypes.NewInt(s.n))
	}
	return s.out, true, nil
}

func (s *seriesRows) Close() {}
