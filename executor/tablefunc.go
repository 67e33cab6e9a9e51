package executor

import (
	"context"

	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/optimizer"
	"github.com/zproxy/zproxy/planner"
)

// Set-returning functions: their rows come from the overload's SetFunc
// (package builtins), the same for a function in FROM (TableFunc) and in a
// select list (ProjectSet).

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
func (ec *execCtx) evalArgs(args []planner.Expr, row []sqltypes.Value) ([]sqltypes.Value, error) {
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

// newTableFunc starts a function in FROM; its arguments read no row but
// may read outer rows (the items to its left).
func (ec *execCtx) newTableFunc(n *optimizer.TableFunc) (Rows, error) {
	args, err := ec.evalArgs(n.Args, nil)
	if err != nil {
		return nil, err
	}
	set, err := ec.openSet(n.Fn, args)
	if err != nil {
		return nil, err
	}
	return &tableFuncRows{set: set, ordinality: n.Ordinality}, nil
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
				set, err := p.ec.openSet(c.Fn, args)
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

func (p *projectSetRows) Close() { p.in.Close() }
