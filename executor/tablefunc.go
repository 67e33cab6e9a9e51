package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/optimizer"
)

// Functions in FROM come in two kinds: the set-returning overloads of
// the builtins registry (Fn set: their rows come from the overload's
// SetFunc, as in a select list's ProjectSet), and the functions computed
// here by name (unnest, the json functions, regexp_matches, ROWS FROM, a
// scalar function as a one-row relation).

// newTableFunc starts a function in FROM; its arguments read no row but
// may read outer rows (the items to its left).
func (ec *execCtx) newTableFunc(n *optimizer.TableFunc) (Rows, error) {
	args, err := ec.evalArgs(n.Args, nil)
	if err != nil {
		return nil, err
	}
	return ec.openTableFunc(n, args)
}

// openTableFunc starts a function with its argument values.
func (ec *execCtx) openTableFunc(n *optimizer.TableFunc, args []sqltypes.Value) (Rows, error) {
	if n.Fn != nil {
		set, err := ec.openSet(n.Fn, args)
		if err != nil {
			return nil, err
		}
		return &tableFuncRows{set: set, ordinality: n.Ordinality}, nil
	}
	switch {
	case ir.IsJSONTableFunc(n.Name):
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
	case n.Name == ir.ScalarTableFunc:
		return &valuesOnce{row: args[:1], ordinality: n.Ordinality}, nil
	case n.Name == ir.ScalarRowTableFunc:
		// The composite's fields, NULLs for a NULL result.
		row := make([]sqltypes.Value, len(n.Cols))
		if n.Ordinality {
			row = row[:len(row)-1]
		}
		if !args[0].IsNull() {
			copy(row, args[0].Array().Elems)
		}
		return &valuesOnce{row: row, ordinality: n.Ordinality}, nil
	}
	return nil, pgerr.New(pgerr.FeatureNotSupported, "function %s in FROM is not supported", n.Name)
}

// seriesRows counts from cur to stop by step (generate_subscripts).
type seriesRows struct {
	cur, stop, step int64
	done            bool
	ordinality      bool
	n               int64
	out             []sqltypes.Value
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

// newSubscripts is generate_subscripts(array, dim [, reverse]): the
// subscripts of the dimension, lower bound to upper bound (upper to lower
// when reverse).
func newSubscripts(args []sqltypes.Value, ordinality bool) Rows {
	s := &seriesRows{done: true, ordinality: ordinality, step: 1}
	if args[0].IsNull() || args[1].IsNull() || len(args) > 2 && args[2].IsNull() {
		return s
	}
	a := args[0].Array()
	d := int(args[1].I) - 1
	if d < 0 || d >= len(a.Dims) || a.Dims[d] == 0 {
		return s
	}
	s.cur, s.stop = int64(a.LowerBound(d)), int64(a.LowerBound(d))+int64(a.Dims[d])-1
	if len(args) > 2 && args[2].Bool() {
		s.cur, s.stop, s.step = s.stop, s.cur, -1
	}
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
		sub := &optimizer.TableFunc{Name: p.Name, Fn: p.Fn, Cols: n.Cols[c : c+p.NCols]}
		rows, err := ec.openTableFunc(sub, args[a:a+p.Args])
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

// openSet starts one call of a set-returning function with its argument
// values: no rows when a strict function has a NULL argument.
func (ec *execCtx) openSet(fn *builtins.Overload, args []sqltypes.Value) (builtins.SetRows, error) {
	if fn == nil || fn.Set == nil {
		return nil, pgerr.New(pgerr.InternalError, "function is not set-returning")
	}
	if !fn.CalledOnNull {
		for _, a := range args {
			if a.IsNull() {
				return builtins.Table(nil), nil
			}
		}
	}
	return fn.Set.Rows(&ec.eval.Fn, args)
}

// evalArgs evaluates a call's arguments over row.
func (ec *execCtx) evalArgs(args []ir.Expr, row []sqltypes.Value) ([]sqltypes.Value, error) {
	out := make([]sqltypes.Value, len(args))
	for i, a := range args {
		v, err := a.Eval(ec.eval, row)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// tableFuncRows yields a set's rows, numbered WITH ORDINALITY.
type tableFuncRows struct {
	set        builtins.SetRows
	ordinality bool
	n          int64
	out        []sqltypes.Value
}

func (t *tableFuncRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	row, ok, err := t.set.Next()
	if !ok || err != nil {
		return nil, false, err
	}
	if t.n++; t.n%cancelCheckEvery == 0 && ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	if !t.ordinality {
		return row, true, nil
	}
	t.out = append(append(t.out[:0], row...), sqltypes.NewInt(t.n))
	return t.out, true, nil
}

func (t *tableFuncRows) Close() {}

// projectSetRows runs a select list's set-returning calls for each input
// row in lockstep: one output row per step while any set has rows left,
// NULL in the columns of the sets already exhausted.
type projectSetRows struct {
	in   Rows
	node *optimizer.ProjectSet
	ec   *execCtx
	// cur is the input row being expanded (when expanding), sets its
	// calls' rows (nil once exhausted).
	expanding bool
	cur       []sqltypes.Value
	sets      []builtins.SetRows
	out       []sqltypes.Value
	n         int
}

func (p *projectSetRows) Next(ctx context.Context) ([]sqltypes.Value, bool, error) {
	for {
		if p.n++; p.n%cancelCheckEvery == 0 && ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		if !p.expanding {
			row, ok, err := p.in.Next(ctx)
			if !ok || err != nil {
				return nil, false, err
			}
			p.cur = append(p.cur[:0], row...)
			p.expanding = true
			p.sets = p.sets[:0]
			for _, c := range p.node.Calls {
				args, err := p.ec.evalArgs(c.Args, p.cur)
				if err != nil {
					return nil, false, err
				}
				set, err := p.openCall(ctx, c, args)
				if err != nil {
					return nil, false, err
				}
				p.sets = append(p.sets, set)
			}
		}
		p.out = append(p.out[:0], p.cur...)
		live := false
		for i, set := range p.sets {
			v := sqltypes.Null
			if set != nil {
				row, ok, err := set.Next()
				if err != nil {
					return nil, false, err
				}
				if ok {
					v, live = row[0], true
				} else {
					p.sets[i] = nil
				}
			}
			p.out = append(p.out, v)
		}
		if live {
			return p.out, true, nil
		}
		p.expanding = false
	}
}

// openCall starts one call of the select list: through its overload's
// SetFunc, or as the function in FROM it is (SetCall.TF).
func (p *projectSetRows) openCall(ctx context.Context, c ir.SetCall, args []sqltypes.Value) (builtins.SetRows, error) {
	if c.TF == nil {
		return p.ec.openSet(c.Fn, args)
	}
	tf := &optimizer.TableFunc{Name: c.TF.Name, Cols: c.TF.Cols, Parts: c.TF.Parts}
	rows, err := p.ec.openTableFunc(tf, args)
	if err != nil {
		return nil, err
	}
	return builtins.RowsFunc(func() ([]sqltypes.Value, bool, error) {
		row, ok, err := rows.Next(ctx)
		if !ok || err != nil {
			rows.Close()
		}
		return row, ok, err
	}), nil
}

func (p *projectSetRows) Close() { p.in.Close() }
