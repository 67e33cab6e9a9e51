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
// it, as pg_catalog comes first on PostgreSQL's search path; an
// extension's function (PostgreSQL keeps it in public) is shadowed in
// turn by a user function of a schema the path puts before public
// (ResolveAhead).

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

// ResolveAhead is ResolveAmong for a function of an extension, which
// PostgreSQL keeps in schema public rather than pg_catalog: the
// user-defined overloads of ahead, from schemas the search path puts
// before public, hide the registry's overloads of the same parameters,
// as those hide the ones of extra.
func ResolveAhead(name string, args []sqltypes.Type, ahead, extra []Overload) (Resolved, error) {
	if len(ahead) == 0 {
		return ResolveAmong(name, args, extra)
	}
	ovs := slices.Clip(ahead)
	for _, o := range registry[name] {
		if !shadowed(ahead, &o) {
			ovs = append(ovs, o)
		}
	}
	for _, u := range extra {
		if !shadowed(ovs, &u) {
			ovs = append(ovs, u)
		}
	}
	return choose(ovs, args, func() error { return NoFunction(name, args) }, func() error {
		return pgerr.New(pgerr.AmbiguousFunction, "function %s(%s) is not unique", name, sqltypes.UnmodifiedNames(args...)).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	})
}

// HasOverload reports whether the registry has an overload of name whose
// parameters are exactly params (no polymorphic or variadic one): a
// user-defined function of that signature in the schema the function
// lives in would be its duplicate.
func HasOverload(name string, params []sqltypes.Type) bool {
	u := Overload{Params: make([]Param, len(params))}
	for i, t := range params {
		u.Params[i] = T(t)
	}
	return shadowed(registry[name], &u)
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

// shadowed reports whether an overload of ovs has u's parameters. In
// ResolveAmong, ovs holds the registry's overloads and the user ones
// added so far: only the registry's shadow (user overloads of one
// signature from several schemas were cut to the first by the search
// path already); in ResolveAhead, ahead's user overloads shadow the
// registry's.
func shadowed(ovs []Overload, u *Overload) bool {
	for i := range ovs {
		o := &ovs[i]
		if o.Routine != nil && u.Routine != nil || len(o.Params) != len(u.Params) || o.Variadic != u.Variadic {
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
