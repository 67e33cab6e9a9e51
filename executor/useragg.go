package executor

import (
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// userAgg accumulates a user-defined aggregate (CREATE AGGREGATE) as
// PostgreSQL's advance_transition_function does: the state starts at
// INITCOND (or NULL) and each row's arguments go through the transition
// function; a strict one skips rows with a NULL argument, and when there
// is no INITCOND the first row without NULLs becomes the state.
type userAgg struct {
	def   *ir.UserAgg
	ev    *ir.EvalContext
	state sqltypes.Value
	// noState: a strict transition function's state has not started yet
	// (no INITCOND and no row without NULLs seen).
	noState bool
	row     []sqltypes.Value
}

func newUserAgg(def *ir.UserAgg, ev *ir.EvalContext) *userAgg {
	a := &userAgg{def: def, ev: ev, state: sqltypes.Null}
	if def.HasInit {
		a.state = def.Init
	} else {
		a.noState = def.StrictTrans
	}
	return a
}

func (a *userAgg) add(args []sqltypes.Value) error {
	if a.def.StrictTrans {
		for _, v := range args {
			if v.IsNull() {
				return nil
			}
		}
		if a.noState {
			// The first input is the state (CREATE AGGREGATE checked that
			// the first argument's type is the state's).
			a.state, a.noState = args[0], false
			return nil
		}
		if a.state.IsNull() {
			// A strict function's NULL state stays NULL.
			return nil
		}
	}
	a.row = append(append(a.row[:0], a.state), args...)
	v, err := a.def.Trans.Eval(a.ev, a.row)
	if err != nil {
		return err
	}
	a.state = v
	return nil
}

func (a *userAgg) result() (sqltypes.Value, error) {
	if a.def.Final == nil {
		return a.state, nil
	}
	// FINALFUNC_EXTRA's arguments are NULLs; the row has room for them.
	n := max(a.def.FinalWidth, 1)
	row := make([]sqltypes.Value, n)
	for i := range row {
		row[i] = sqltypes.Null
	}
	row[0] = a.state
	return a.def.Final.Eval(a.ev, row)
}
