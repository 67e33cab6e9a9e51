package builtins

import (
	"slices"

	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// User-defined functions join the resolution of built-in ones without the
// registry knowing the catalog (CockroachDB resolves UDFs alongside its
// builtins the same way): the planner turns each function of the called
// name into an Overload whose Routine is the catalog's descriptor and whose
// Eval or Set hands the call to the session's Routines, and ResolveAmong
// chooses among the built-in and the user overloads by the one set of
// rules. A user function with a built-in's exact signature is shadowed by
// it, as pg_catalog comes first on PostgreSQL's search path.

// Routines runs user-defined functions for the statement that calls them
// (the session implements it: it binds and runs the routine's body in the
// caller's transaction).
type Routines interface {
	// CallRoutine runs one call of routine (an Overload's Routine) with
	// its input arguments; it returns the rows of the routine's result
	// (one row of one column for a scalar function).
	CallRoutine(ctx *Context, routine any, args []sqltypes.Value) (SetRows, error)
}

// MaxRoutineDepth bounds how deeply user-defined routines may call each
// other (PostgreSQL's max_stack_depth, 54001, "stack depth limit
// exceeded").
const MaxRoutineDepth = 200

// ResolveAmong is Resolve over the registry's overloads of name and
// extra (user-defined ones, Routine set).
func ResolveAmong(name string, args []sqltypes.Type, extra []Overload) (Resolved, error) {
	if len(extra) == 0 {
		return Resolve(name, args)
	}
	return choose(candidates(name, extra), args, func() error { return NoFunction(name, args) }, func() error {
		return pgerr.New(pgerr.AmbiguousFunction, "function %s(%s) is not unique", name, sqltypes.UnmodifiedNames(args...)).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	})
}

// candidates are the registry's overloads of name and those of extra
// that no registry overload shadows.
func candidates(name string, extra []Overload) []Overload {
	ovs := slices.Clip(registry[name])
	for _, u := range extra {
		if !shadowed(ovs, &u) {
			ovs = append(ovs, u)
		}
	}
	return ovs
}

// shadowed reports whether a registry overload of ovs has u's parameters.
func shadowed(ovs []Overload, u *Overload) bool {
	for i := range ovs {
		o := &ovs[i]
		if o.Routine != nil || len(o.Params) != len(u.Params) || o.Variadic != u.Variadic {
			continue
		}
		same := true
		for j, p := range o.Params {
			q := u.Params[j]
			if p.Any != q.Any || p.Pseudo != q.Pseudo || !p.Any && p.Type.ID != q.Type.ID {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// RoutineCall runs a user-defined routine's call through ctx's Routines.
func RoutineCall(ctx *Context, routine any, args []sqltypes.Value) (SetRows, error) {
	if ctx == nil || ctx.Routines == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "user-defined functions cannot be called here")
	}
	return ctx.Routines.CallRoutine(ctx, routine, args)
}
