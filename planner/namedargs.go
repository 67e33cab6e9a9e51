package planner

import (
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
)

// namedArg is an argument given by name, make_interval(days => 3), while
// its call is bound; placeNamedArgs puts it in its position.
type namedArg struct {
	Name string
	E    ir.Expr
}

// namedArg is a placeholder the binder replaces before a plan leaves it: walks
// see it as a leaf.
func (e *namedArg) AppendChildren(dst []ir.Expr) []ir.Expr { return dst }
func (e *namedArg) WithChildren([]ir.Expr) ir.Expr         { return e }

func (e *namedArg) Type() sqltypes.Type { return e.E.Type() }
func (e *namedArg) String() string      { return e.Name + " => " + e.E.String() }
func (e *namedArg) Eval(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.Null, pgerr.New(pgerr.SyntaxError, "named argument %s outside a function call", e.Name)
}

// checkNamedArgs checks a call's argument names before any function is
// looked up, as PostgreSQL's ParseFuncOrColumn does: no name twice, no
// positional argument after a named one.
func checkNamedArgs(args []ir.Expr) error {
	named := false
	for i, a := range args {
		na, ok := a.(*namedArg)
		if !ok {
			if named {
				return pgerr.New(pgerr.SyntaxError, "positional argument cannot follow named argument")
			}
			continue
		}
		named = true
		for _, prev := range args[:i] {
			if p, ok := prev.(*namedArg); ok && p.Name == na.Name {
				return pgerr.New(pgerr.SyntaxError, "argument name \"%s\" used more than once", na.Name)
			}
		}
	}
	return nil
}

// placeNamedArgs orders a call's arguments by the function's parameter
// names: positional ones first, then named ones in any order; parameters
// left out take their defaults (zero for make_interval's, builtins.ParamDefault's
// for the others).
func placeNamedArgs(name string, args []ir.Expr) ([]ir.Expr, error) {
	named := false
	for _, a := range args {
		_, ok := a.(*namedArg)
		named = named || ok
	}
	if !named {
		return args, nil
	}
	noFunc := func() error {
		return noFunction(name, args)
	}
	names, optional := builtins.ParamNames(name)
	out := make([]ir.Expr, len(names))
	last := -1
	for i, a := range args {
		na, ok := a.(*namedArg)
		if !ok {
			if i >= len(out) {
				return nil, noFunc()
			}
			out[i], last = a, max(last, i)
			continue
		}
		k := -1
		for j, n := range names {
			if n == na.Name {
				k = j
			}
		}
		if k < 0 || out[k] != nil {
			return nil, noFunc()
		}
		out[k], last = na.E, max(last, k)
	}
	for i := 0; i <= last; i++ {
		if out[i] == nil {
			if i < len(names)-optional {
				return nil, noFunc()
			}
			if v, t, ok := builtins.ParamDefault(name, i); ok {
				out[i] = &ir.Const{V: v, Typ: t}
				continue
			}
			out[i] = &ir.Const{V: sqltypes.NewInt(0), Typ: sqltypes.TypeInt4}
		}
	}
	return out[:last+1], nil
}

// variadicArg is a call's last argument written VARIADIC, concat_ws(',',
// VARIADIC a), while its call is bound: bindBuiltin resolves the call with
// it as the variadic parameter's whole array (builtins.ResolveSpread).
type variadicArg struct {
	E ir.Expr
}

// variadicArg is a placeholder the binder replaces before a plan leaves
// it: walks see it as a leaf.
func (e *variadicArg) AppendChildren(dst []ir.Expr) []ir.Expr { return dst }
func (e *variadicArg) WithChildren([]ir.Expr) ir.Expr         { return e }

func (e *variadicArg) Type() sqltypes.Type { return e.E.Type() }
func (e *variadicArg) String() string      { return "VARIADIC " + e.E.String() }
func (e *variadicArg) Eval(*ir.EvalContext, []sqltypes.Value) (sqltypes.Value, error) {
	return sqltypes.Null, pgerr.New(pgerr.SyntaxError, "VARIADIC argument outside a function call")
}

// spreadArg reports whether a call's last argument is written VARIADIC,
// and unwraps it.
func spreadArg(args []ir.Expr) ([]ir.Expr, bool) {
	if len(args) == 0 {
		return args, false
	}
	v, ok := args[len(args)-1].(*variadicArg)
	if !ok {
		return args, false
	}
	return append(args[:len(args)-1:len(args)-1], v.E), true
}
