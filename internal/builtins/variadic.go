package builtins

import (
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
)

// A call whose last argument is written VARIADIC, concat_ws(',', VARIADIC
// a), passes a variadic function its variadic parameter's array whole
// instead of the elements one by one. PostgreSQL resolves such a call
// among the functions of the name without expanding the variadic ones
// (FuncnameGetCandidates' expand_variadic): a variadic function is then
// a function of its declared parameters, the last an array (or "any"),
// and a function that is not variadic takes the array as its last
// argument, the VARIADIC forgotten.

// ResolveSpread is ResolveAmong for a call whose last argument is written
// VARIADIC: a variadic overload chosen comes back in its Spread form,
// whose Eval spreads the array into the elements the function's own Eval
// takes (a user-defined function's Routine takes the array as it is).
func ResolveSpread(name string, args []sqltypes.Type, extra []Overload) (Resolved, error) {
	var ovs []Overload
	for _, o := range candidates(name, extra) {
		if o.Variadic {
			if o.Set != nil || o.Binary != nil {
				continue
			}
			o = spreadForm(o)
		}
		ovs = append(ovs, o)
	}
	res, err := choose(ovs, args, func() error { return NoFunction(name, args) }, func() error {
		return pgerr.New(pgerr.AmbiguousFunction, "function %s(%s) is not unique", name, sqltypes.UnmodifiedNames(args...)).
			WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
	})
	if err != nil {
		return res, err
	}
	if n := len(args) - 1; res.Spread && res.Params[n].Any && args[n].ElemType().ID == sqltypes.Unknown {
		// "any" takes any argument; VARIADIC's must still be an array.
		return Resolved{}, pgerr.New(pgerr.DatatypeMismatch, "VARIADIC argument must be an array")
	}
	return res, nil
}

// spreadForm is variadic overload o as a call with VARIADIC takes it: its
// declared parameters, the last one the array of the variadic one's type
// ("any" stays "any"), its Eval given the array's elements (flattened, as
// PostgreSQL's variadic "any" functions read a VARIADIC array).
func spreadForm(o Overload) Overload {
	n := len(o.Params) - 1
	last := o.Params[n]
	if !last.Any {
		last = T(sqltypes.ArrayOf(last.Type))
	}
	orig := o
	o.Params = append(o.Params[:n:n], last)
	o.Variadic, o.MinArgs, o.Spread = false, 0, true
	elemTypes := func(types []sqltypes.Type) []sqltypes.Type {
		return append(types[:n:n], types[n].ElemType())
	}
	if orig.Result != nil {
		o.Result = func(types []sqltypes.Type) sqltypes.Type { return orig.Result(elemTypes(types)) }
	}
	if orig.Routine != nil {
		return o // the routine takes its VARIADIC parameter as an array
	}
	// spread gives the function its arguments, the array's elements last;
	// ok is false when the call's result is NULL without a call.
	spread := func(a []sqltypes.Value) ([]sqltypes.Value, bool) {
		if a[n].IsNull() {
			return a[:n:n], orig.NullSpreadEmpty
		}
		elems := a[n].Array().Elems
		if !orig.CalledOnNull {
			for _, e := range elems {
				if e.IsNull() {
					return nil, false // a strict function of a NULL element
				}
			}
		}
		return append(a[:n:n], elems...), true
	}
	if orig.Eval != nil {
		o.Eval = func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
			args, ok := spread(a)
			if !ok {
				return sqltypes.Null, nil
			}
			return orig.Eval(ctx, args)
		}
	}
	if orig.Typed != nil {
		o.Typed = func(types []sqltypes.Type) func(*Context, []sqltypes.Value) (sqltypes.Value, error) {
			fixed, elem := types[:n:n], types[n].ElemType()
			return func(ctx *Context, a []sqltypes.Value) (sqltypes.Value, error) {
				args, ok := spread(a)
				if !ok {
					return sqltypes.Null, nil
				}
				ts := fixed
				for len(ts) < len(args) {
					ts = append(ts, elem)
				}
				return orig.Typed(ts)(ctx, args)
			}
		}
	}
	return o
}
