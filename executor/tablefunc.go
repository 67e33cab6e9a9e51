package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/builtins"
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
	case n.Name == "unnest":
		return newUnnest(args, n.Ordinality), nil
	case n.Name == "_pg_expandarray":
		return newExpandArray(args[0], n.Ordinality), nil
	case n.Name == "generate_subscripts":
		return newSubscripts(args, n.Ordinality), nil
	case n.Name == "rows from":
		return ec.newRowsFrom(n, args)
	case n.Name == "regexp_matches", n.Name == "regexp_split_to_table":
		return newRegexRows(n.Name, args, n.Ordinality)
	case n.Name == planner.ScalarTableFunc:
		return &valuesOnce{row: args[:1], ordinality: n.Ordinality}, nil
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

// unnestRows is unnest(a1, a2, ...) in FROM: row i holds element i of each
// array (NULL past an array's end), elements in storage order.
type unnestRows struct {
	arrays     []*sqltypes.ArrayValue
	n, i       int
	ordinality bool
	records    bool // _pg_expandarray: one (element, position) record per row
	out        []sqltypes.Value
}

func newUnnest(args []sqltypes.Value, ordinality bool) Rows {
	u := &unnestRows{ordinality: ordinality}
	for _, a := range args {
		var arr *sqltypes.ArrayValue
		if !a.IsNull() {
			arr = a.Array()
			u.n = max(u.n, len(arr.Elems))
		}
		u.arrays = append(u.arrays, arr)
	}
	return u
}

func (u *unnestRows) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if u.i >= u.n {
		return nil, false, nil
	}
	u.out = u.out[:0]
	for _, a := range u.arrays {
		v := sqltypes.Null
		if a != nil && u.i < len(a.Elems) {
			v = a.Elems[u.i]
		}
		u.out = append(u.out, v)
	}
	u.i++
	if u.records {
		u.out = append(u.out[:0], sqltypes.NewRecord([]sqltypes.Value{u.out[0], sqltypes.NewInt(int64(u.i))}))
	}
	if u.ordinality {
		u.out = append(u.out, sqltypes.NewInt(int64(u.i)))
	}
	return u.out, true, nil
}

func (u *unnestRows) Close() {}

// newExpandArray is information_schema._pg_expandarray(array): one record
// (x, n) per element, n counting from 1.
func newExpandArray(arr sqltypes.Value, ordinality bool) Rows {
	u := &unnestRows{ordinality: ordinality, records: true}
	if !arr.IsNull() {
		a := arr.Array()
		u.arrays = []*sqltypes.ArrayValue{a}
		u.n = len(a.Elems)
	}
	return u
}

// newSubscripts is generate_subscripts(array, dim): the subscripts of the
// dimension, lower bound to upper bound.
func newSubscripts(args []sqltypes.Value, ordinality bool) Rows {
	s := &seriesRows{done: true, ordinality: ordinality, step: 1}
	if args[0].IsNull() || args[1].IsNull() {
		return s
	}
	a := args[0].Array()
	d := int(args[1].I) - 1
	if d < 0 || d >= len(a.Dims) || a.Dims[d] == 0 {
		return s
	}
	s.cur, s.stop = int64(a.LowerBound(d)), int64(a.LowerBound(d))+int64(a.Dims[d])-1
	s.done = false
	return s
}

// rowsFrom zips the rows of several functions (ROWS FROM, and a select
// list's set-returning functions): row i holds each function's row i, NULLs
// for a function that has ended, until all have.
type rowsFrom struct {
	parts      []Rows
	ncols      []int
	done       []bool
	ordinality bool
	n          int64
	out        []sqltypes.Value
}

func (ec *execCtx) newRowsFrom(n *optimizer.TableFunc, args []sqltypes.Value) (Rows, error) {
	r := &rowsFrom{ordinality: n.Ordinality}
	a, c := 0, 0
	for _, p := range n.Parts {
		sub := &optimizer.TableFunc{Name: p.Name, Cols: n.Cols[c : c+p.NCols]}
		for _, v := range args[a : a+p.Args] {
			sub.Args = append(sub.Args, &planner.Const{V: v, Typ: sqltypes.TypeOfValue(v)})
		}
		rows, err := ec.newTableFunc(sub)
		if err != nil {
			r.Close()
			return nil, err
		}
		r.parts, r.ncols, r.done = append(r.parts, rows), append(r.ncols, p.NCols), append(r.done, false)
		a, c = a+p.Args, c+p.NCols
	}
	return r, nil
}

func (r *rowsFrom) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	r.out = r.out[:0]
	any := false
	for i, p := range r.parts {
		var row []sqltypes.Value
		if !r.done[i] {
			var ok bool
			var err error
			if row, ok, err = p.Next(ctx); err != nil {
				return nil, false, err
			}
			r.done[i] = !ok
			any = any || ok
		}
		if r.done[i] {
			for k := 0; k < r.ncols[i]; k++ {
				r.out = append(r.out, sqltypes.Null)
			}
			continue
		}
		r.out = append(r.out, row[:r.ncols[i]]...)
	}
	if !any {
		return nil, false, nil
	}
	r.n++
	if r.ordinality {
		r.out = append(r.out, sqltypes.NewInt(r.n))
	}
	return r.out, true, nil
}

func (r *rowsFrom) Close() {
	for _, p := range r.parts {
		p.Close()
	}
}

// valuesOnce yields one row (a scalar function in FROM).
type valuesOnce struct {
	row        []sqltypes.Value
	ordinality bool
	done       bool
}

func (v *valuesOnce) Next(context.Context) ([]sqltypes.Value, bool, error) {
	if v.done {
		return nil, false, nil
	}
	v.done = true
	if v.ordinality {
		return append(append([]sqltypes.Value(nil), v.row...), sqltypes.NewInt(1)), true, nil
	}
	return v.row, true, nil
}

func (v *valuesOnce) Close() {}

// newRegexRows is regexp_matches (one text[] per match, every match with
// the g flag) and regexp_split_to_table (the pieces between matches).
func newRegexRows(name string, args []sqltypes.Value, ordinality bool) (Rows, error) {
	for _, a := range args {
		if a.IsNull() {
			return &unnestRows{}, nil
		}
	}
	flags := ""
	if len(args) > 2 {
		flags = args[2].S
	}
	var elems []sqltypes.Value
	if name == "regexp_matches" {
		m, err := builtins.RegexMatches(args[0].S, args[1].S, flags)
		if err != nil {
			return nil, err
		}
		elems = m
	} else {
		parts, err := builtins.RegexSplit(args[0].S, args[1].S, flags)
		if err != nil {
			return nil, err
		}
		for _, p := range parts {
			elems = append(elems, sqltypes.NewText(p))
		}
	}
	arr := &sqltypes.ArrayValue{Elems: elems}
	return &unnestRows{arrays: []*sqltypes.ArrayValue{arr}, n: len(elems), ordinality: ordinality}, nil
}
