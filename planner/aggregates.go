package planner

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/zproxy/zproxy/catalog"
	"github.com/zproxy/zproxy/catalog/pgcatalog"
	"github.com/zproxy/zproxy/internal/builtins"
	"github.com/zproxy/zproxy/internal/pgerr"
	"github.com/zproxy/zproxy/internal/sqltypes"
	"github.com/zproxy/zproxy/ir"
	"github.com/zproxy/zproxy/parser"
)

// User-defined aggregates (CREATE AGGREGATE). A call resolves among the
// aggregates of its name by PostgreSQL's rules, like a function call, and
// becomes an ir.AggCall whose User holds the transition and final
// functions bound as expressions over rows of their own ([state, args...]),
// so the executor's aggregation (hash, stream, spill, DISTINCT, ORDER BY,
// FILTER, windows) runs them as it runs the built-ins.

// isAggregate reports whether name is an aggregate called as f(args): a
// built-in one or a user-defined one of the binder's schema.
func (b *Binder) isAggregate(name string) bool {
	return IsAggregateName(name) || len(b.userAggregates(name)) > 0
}

// isAggregateCall reports whether call x is an aggregate's: its name is
// an aggregate's, and, where a built-in function has the name too
// (PostGIS's st_makeline: the aggregate of geometries, the function of
// two geometries or of an array), the arguments are not the function's
// (plainCallArgs).
func (b *Binder) isAggregateCall(x *ast.FuncCallExpr) bool {
	name := x.FnName.L
	if !b.isAggregate(name) {
		return false
	}
	return !builtins.Exists(name) || !plainCallArgs(name, x.Args)
}

// plainCallArgs reports whether args, the arguments of a call of a name
// both a built-in aggregate and a built-in function have, are the
// function's: no aggregate overload takes as many, or the one argument is
// an array by its syntax (ARRAY[...], ARRAY(...), array_agg(...), a cast
// to an array type), where PostgreSQL tells the two by the argument's
// type. The calls are told apart before their arguments are bound (the
// query's aggregation depends on it), so an array column passed alone
// still makes the aggregate's call.
func plainCallArgs(name string, args []ast.ExprNode) bool {
	if len(args) > 0 && isDistinctArg(args[0]) {
		return false // f(DISTINCT ...): an aggregate's call
	}
	agg, ok := builtins.LookupAggregate(name)
	if !ok {
		return false // a user's aggregate named as a built-in function
	}
	takes := false
	for _, o := range agg.Overloads {
		takes = takes || len(o.Params) == len(args)
	}
	if !takes {
		return true
	}
	if len(args) != 1 {
		return false
	}
	return arraySyntax(args[0])
}

// arraySyntax reports whether e is written as an array: ARRAY[...],
// ARRAY(...), array_agg(...) (with its ORDER BY or FILTER), or a cast to
// an array type.
func arraySyntax(e ast.ExprNode) bool {
	if _, t, ok := parser.CastOf(e); ok {
		return t.IsArray()
	}
	switch x := e.(type) {
	case *ast.AggregateFuncExpr:
		return strings.EqualFold(x.F, "array_agg")
	case *ast.FuncCallExpr:
		switch x.FnName.L {
		case parser.ArrayFunc, parser.ArraySubFunc, "array_agg":
			return true
		case parser.AggOrderFunc, parser.AggFilterFunc:
			return len(x.Args) > 0 && arraySyntax(x.Args[0])
		}
	}
	return false
}

// userAggregates are the user-defined aggregates named name.
func (b *Binder) userAggregates(name string) []*catalog.Function {
	if b == nil || b.snap == nil || !b.snap.HasFunctions() {
		return nil
	}
	var out []*catalog.Function
	for _, fn := range b.snap.Functions(name) {
		if fn.IsAggregate() {
			out = append(out, fn)
		}
	}
	return out
}

// bindUserAggregate resolves call (its arguments bound) among the
// user-defined aggregates of its name; handled is false when a built-in
// aggregate of that name takes the arguments.
func (b *Binder) bindUserAggregate(call *ir.AggCall, users []*catalog.Function) (handled bool, err error) {
	name := string(call.Func)
	types := make([]sqltypes.Type, len(call.Args))
	for i, a := range call.Args {
		types[i] = a.Type()
	}
	if _, ok := builtins.LookupAggregate(name); ok {
		if _, err := aggType(*call); err == nil {
			return false, nil
		}
	}
	var ovs []builtins.Overload
	for _, fn := range users {
		in := fn.InputTypes()
		params := make([]builtins.Param, len(in))
		for i, t := range in {
			params[i] = builtins.T(t)
		}
		ovs = append(ovs, builtins.Overload{Params: params, Result: builtins.Returns(fn.Result), CalledOnNull: true, Routine: fn})
	}
	res, err := builtins.ResolveAmong(name, types, ovs)
	if err != nil {
		return true, err
	}
	fn, ok := res.Routine.(*catalog.Function)
	if !ok || !fn.IsAggregate() {
		return true, builtins.NoFunction(name, types)
	}
	if err := b.coerceArgs(call.Args, res.ArgTypes); err != nil {
		return true, err
	}
	if len(call.Args) > 0 {
		call.Arg = call.Args[0]
	}
	if call.User, err = b.userAggPlan(fn); err != nil {
		return true, err
	}
	b.noteRoutine(fn)
	call.Typ = fn.Result
	return true, nil
}

// userAggPlan binds the aggregate's functions over their rows.
func (b *Binder) userAggPlan(fn *catalog.Function) (*ir.UserAgg, error) {
	def := fn.Aggregate
	in := fn.InputTypes()
	u := &ir.UserAgg{OID: fn.OID, State: def.State}
	row := []ir.Expr{&ir.ColRef{Index: 0, Name: "state", Typ: def.State}}
	for i, t := range in {
		row = append(row, &ir.ColRef{Index: i + 1, Name: "arg", Typ: t})
	}
	var err error
	if u.Trans, u.StrictTrans, err = b.bindSupportCall(def.Trans, row); err != nil {
		return nil, err
	}
	if def.InitCond != nil {
		if u.Init, err = b.initialState(*def.InitCond, def.State); err != nil {
			return nil, err
		}
		u.HasInit = true
	}
	if !def.Final.IsZero() {
		args := row[:1]
		if def.FinalExtra {
			args = row
		}
		if u.Final, _, err = b.bindSupportCall(def.Final, args); err != nil {
			return nil, err
		}
		u.FinalWidth = len(args)
	}
	return u, nil
}

// initialState reads INITCOND's text as a value of the state type.
func (b *Binder) initialState(text string, state sqltypes.Type) (sqltypes.Value, error) {
	e, err := b.coerceTo(&ir.Const{V: sqltypes.NewText(text), Typ: sqltypes.TypeUnknown}, state, true)
	if err != nil {
		return sqltypes.Null, err
	}
	return e.Eval(nil, nil)
}

// bindSupportCall binds a call of an aggregate's support function (a user
// function by OID, else a built-in by name) with args, and reports whether
// the function is strict.
func (b *Binder) bindSupportCall(ref catalog.FuncRef, args []ir.Expr) (ir.Expr, bool, error) {
	types := make([]sqltypes.Type, len(args))
	for i, a := range args {
		types[i] = a.Type()
	}
	if ref.OID != 0 {
		fn, ok := b.snap.FunctionByOID(ref.OID)
		if !ok {
			return nil, false, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", ref.Name)
		}
		res := builtins.Resolved{Overload: &builtins.Overload{Result: builtins.Returns(fn.Result), CalledOnNull: !fn.Strict, Routine: fn},
			ArgTypes: fn.InputTypes(), Result: fn.Result}
		args = slices.Clone(args)
		if err := b.coerceArgs(args, res.ArgTypes); err != nil {
			return nil, false, err
		}
		e, err := b.bindUserCall(fn, args, res)
		return e, fn.Strict, err
	}
	res, err := builtins.Resolve(ref.Name, types)
	if err != nil {
		// A support function takes its arguments' types exactly
		// (lookup_agg_function), an operator's function too.
		if _, exact := operatorOfFunction(ref.Name, args); exact {
			e, _, oerr := b.operatorFunctionCall(ref.Name, args)
			return e, true, oerr
		}
		return nil, false, err
	}
	e, err := b.bindBuiltin(ref.Name, slices.Clone(args))
	return e, !res.CalledOnNull, err
}

// operatorFunctionCall binds a call of a built-in function that
// implements an operator (int4pl, textcat, jsonb_exists, arraycontains)
// as that operator: PostgreSQL lets any operator's function be called by
// name, and JDBC users write jsonb_exists(doc, 'k') for doc ? 'k' to keep
// the ? from being read as a parameter. The function is chosen among the
// operators' signatures by the rules of any call (exact types, then
// implicit casts; untyped literals take the parameter's type), the
// arguments are cast to it and the operator binds them, kept under an
// ir.OperatorCall that deparses as the call. ok is false when name
// implements no operator of len(args) operands.
func (b *Binder) operatorFunctionCall(name string, args []ir.Expr) (ir.Expr, bool, error) {
	ovs := operatorFunctionOverloads(name, len(args))
	if len(ovs) == 0 {
		return nil, false, nil
	}
	types := make([]sqltypes.Type, len(args))
	for i, a := range args {
		types[i] = a.Type()
	}
	res, err := builtins.ResolveAmong(name, types, ovs)
	if err != nil {
		return nil, true, err
	}
	of := res.Routine.(pgcatalog.OperatorFunc)
	args = slices.Clone(args)
	if err := b.coerceArgs(args, res.ArgTypes); err != nil {
		return nil, true, err
	}
	var e ir.Expr
	if len(args) == 1 {
		e, err = b.bindPrefix(of.Op, args[0])
	} else {
		e, err = b.bindInfix(of.Op, args[0], args[1])
	}
	if pgerr.CodeOf(err) == pgerr.UndefinedFunction {
		// zproxy has the function's name but not its operator for these
		// types: the call's own 42883, not the operator's.
		return nil, true, builtins.NoFunction(name, types)
	}
	if err != nil {
		return nil, true, err
	}
	return &ir.OperatorCall{Name: name, Args: args, E: e}, true, nil
}

// operatorFunctionOverloads are the signatures of n operands of the
// operators the built-in function name implements, as overloads whose
// Routine is the operator (pgcatalog.OperatorFunc). An operator over a
// type zproxy does not have is left out.
func operatorFunctionOverloads(name string, n int) []builtins.Overload {
	var out []builtins.Overload
	for _, of := range pgcatalog.OperatorsOfFunction(name) {
		operands := []uint32{of.Left, of.Right}
		if of.Left == 0 {
			operands = operands[1:] // a prefix operator
		}
		if len(operands) != n {
			continue
		}
		params := make([]builtins.Param, n)
		known := true
		for i, oid := range operands {
			params[i], known = paramOfOID(oid)
			if !known {
				break
			}
		}
		if !known {
			continue
		}
		result := resultOfOID(of.Result)
		out = append(out, builtins.Overload{Params: params, Result: builtins.Returns(result), Volatility: builtins.Immutable, Routine: of})
	}
	return out
}

// paramOfOID is the parameter a pg_proc signature declares with the type
// whose OID is oid: a type zproxy has, or one of its polymorphic
// pseudo-types; ok false for any other.
func paramOfOID(oid uint32) (builtins.Param, bool) {
	if slices.Contains(builtins.Pseudos(), builtins.Pseudo(oid)) {
		p := builtins.Param{Any: true, Pseudo: builtins.Pseudo(oid)}
		if p.Pseudo == builtins.AnyElement {
			p.Pseudo = 0 // the zero Pseudo is anyelement
		}
		return p, true
	}
	t, ok := sqltypes.TypeByOID(oid)
	if !ok || t.ID == sqltypes.Unknown {
		return builtins.Param{}, false
	}
	return builtins.T(t), true
}

// operatorOfFunction finds the operator name implements over args' types.
func operatorOfFunction(name string, args []ir.Expr) (pgcatalog.OperatorFunc, bool) {
	for _, of := range pgcatalog.OperatorsOfFunction(name) {
		switch {
		case len(args) == 1 && of.Left == 0 && of.Right == args[0].Type().OID():
			return of, true
		case len(args) == 2 && of.Left == args[0].Type().OID() && of.Right == args[1].Type().OID():
			return of, true
		}
	}
	return pgcatalog.OperatorFunc{}, false
}

// bindInfix binds l op r over bound operands, as an operator written in
// a query binds.
func (b *Binder) bindInfix(op string, l, r ir.Expr) (ir.Expr, error) {
	switch op {
	case "+", "-", "*", "/", "%", "^":
		return b.bindBuiltinBinary(ir.BinOp(op), l, r)
	}
	return b.bindInfixOp(op, l, r)
}

// supportFunction resolves CREATE AGGREGATE's support function name for
// arguments of exactly the given types, as PostgreSQL's
// lookup_agg_function does: a user-defined function or a built-in one,
// with its result type.
func (b *Binder) supportFunction(name string, types []sqltypes.Type) (catalog.FuncRef, sqltypes.Type, bool, error) {
	ref := catalog.FuncRef{Name: name, Args: types}
	res, err := builtins.ResolveAmong(name, types, b.userOverloads(name, false))
	if err != nil && len(types) <= 2 {
		args := make([]ir.Expr, len(types))
		for i, t := range types {
			args[i] = &ir.ColRef{Index: i, Typ: t}
		}
		if of, ok := operatorOfFunction(name, args); ok {
			return ref, resultOfOID(of.Result), true, nil
		}
	}
	if err != nil {
		if pgerr.CodeOf(err) == pgerr.UndefinedFunction {
			return ref, sqltypes.Type{}, false, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", name, typeNames(types))
		}
		return ref, sqltypes.Type{}, false, err
	}
	for i, t := range res.ArgTypes {
		if t.OID() != types[i].OID() && !res.Params[min(i, len(res.Params)-1)].Any {
			return ref, sqltypes.Type{}, false, pgerr.New(pgerr.DatatypeMismatch, "function %s(%s) requires run-time type coercion", name, typeNames(res.ArgTypes))
		}
	}
	strict := !res.CalledOnNull
	if fn, ok := res.Routine.(*catalog.Function); ok {
		if fn.ReturnsSet {
			return ref, sqltypes.Type{}, false, pgerr.New(pgerr.DatatypeMismatch, "function %s returns a set", name)
		}
		// Its key: "public.f" (a name qualified by public) is "f".
		ref.Name, ref.OID, strict = fn.Name, fn.OID, fn.Strict
	}
	return ref, res.Result, strict, nil
}

func typeNames(types []sqltypes.Type) string {
	return sqltypes.UnmodifiedNames(types...)
}

// bindCreateAggregate checks CREATE AGGREGATE's definition as
// PostgreSQL's DefineAggregate and AggregateCreate do and resolves its
// types and support functions.
func bindCreateAggregate(snap *catalog.Snapshot, rs *parser.RoutineStatement) (ir.Statement, error) {
	b := &Binder{snap: snap, stmt: &parser.Statement{}}
	spec := rs.Aggregate
	x := &ir.RoutineChange{RoutineStatement: rs}
	var in []sqltypes.Type
	for _, p := range rs.Params {
		if p.Mode != parser.ModeIn {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "aggregates with OUT, INOUT or VARIADIC arguments are not supported")
		}
		t, err := paramType(snap, p.Type, p.TypeName)
		if err != nil {
			return nil, err
		}
		if t.ID == sqltypes.Record || t.ID == sqltypes.Void || t.ID == sqltypes.Unknown {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "aggregate arguments of type %s are not supported", t)
		}
		in = append(in, t)
		x.Params = append(x.Params, catalog.FuncParam{Name: p.Name, Mode: 'i', Type: t})
	}
	state, err := paramType(snap, spec.SType.Type, spec.SType.TypeName)
	if err != nil {
		return nil, err
	}
	if state.ID == sqltypes.Unknown || state.ID == sqltypes.Void || state.ID == sqltypes.Record {
		return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "aggregate transition data type cannot be %s", state)
	}
	def := &catalog.AggregateDef{State: state, InitCond: spec.InitCond, FinalExtra: spec.FinalExtra, FinalModify: spec.FinalModify,
		MInitCond: spec.MInitCond, MFinalExtra: spec.MFinalExtra, MFinalModify: spec.MFinalModify, SSpace: spec.SSpace, MSSpace: spec.MSSpace}
	if def.FinalModify == 0 {
		def.FinalModify = 'r'
	}
	if def.MFinalModify == 0 {
		def.MFinalModify = 'r'
	}
	transArgs := append([]sqltypes.Type{state}, in...)
	ref, ret, strict, err := b.supportFunction(spec.SFunc, transArgs)
	if err != nil {
		return nil, err
	}
	if ret.OID() != state.OID() {
		return nil, pgerr.New(pgerr.DatatypeMismatch, "return type of transition function %s is not %s", spec.SFunc, state)
	}
	def.Trans = ref
	if strict && spec.InitCond == nil && (len(in) < 1 || in[0].OID() != state.OID()) {
		return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "must not omit initial value when transition function is strict and transition type is not compatible with input type")
	}
	x.Result = state
	if spec.FinalFunc != "" {
		args := []sqltypes.Type{state}
		if spec.FinalExtra {
			args = transArgs
		}
		if def.Final, x.Result, _, err = b.supportFunction(spec.FinalFunc, args); err != nil {
			return nil, err
		}
	}
	if spec.CombineFunc != "" {
		ref, ret, _, err := b.supportFunction(spec.CombineFunc, []sqltypes.Type{state, state})
		if err != nil {
			return nil, err
		}
		if ret.OID() != state.OID() {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "return type of combine function %s is not %s", spec.CombineFunc, state)
		}
		def.Combine = ref
	}
	if spec.SerialFunc != "" || spec.DeserialFunc != "" {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "aggregate serialization functions are not supported")
	}
	if spec.MSFunc != "" || spec.MInvFunc != "" || spec.HasMSType {
		if spec.MSFunc == "" || spec.MInvFunc == "" || !spec.HasMSType {
			return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "aggregate msfunc, minvfunc and mstype must be specified together")
		}
		mstate, err := paramType(snap, spec.MSType.Type, spec.MSType.TypeName)
		if err != nil {
			return nil, err
		}
		def.MState = mstate
		margs := append([]sqltypes.Type{mstate}, in...)
		if def.MTrans, ret, _, err = b.supportFunction(spec.MSFunc, margs); err != nil {
			return nil, err
		}
		if ret.OID() != mstate.OID() {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "return type of transition function %s is not %s", spec.MSFunc, mstate)
		}
		if def.MInvTrans, ret, _, err = b.supportFunction(spec.MInvFunc, margs); err != nil {
			return nil, err
		}
		if ret.OID() != mstate.OID() {
			return nil, pgerr.New(pgerr.DatatypeMismatch, "return type of inverse transition function %s is not %s", spec.MInvFunc, mstate)
		}
		if spec.MFinalFunc != "" {
			args := []sqltypes.Type{mstate}
			if spec.MFinalExtra {
				args = margs
			}
			var mret sqltypes.Type
			if def.MFinal, mret, _, err = b.supportFunction(spec.MFinalFunc, args); err != nil {
				return nil, err
			}
			if mret.OID() != x.Result.OID() {
				return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "moving-aggregate implementation returns type %s, but plain implementation returns type %s", mret, x.Result)
			}
		}
	} else if spec.MFinalFunc != "" || spec.MInitCond != nil {
		return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "aggregate msfunc must be specified when mstype is specified")
	}
	if spec.SortOp != "" {
		if len(in) != 1 {
			return nil, pgerr.New(pgerr.InvalidFunctionDefinition, "sort operator can only be specified for single-argument aggregates")
		}
		oid, ok := sortOperatorOID(spec.SortOp, in[0])
		if !ok {
			return nil, pgerr.New(pgerr.UndefinedFunction, "operator does not exist: %s", sqltypes.OperatorCallName(spec.SortOp, in[0], in[0]))
		}
		def.SortOp = oid
	}
	if spec.InitCond != nil {
		if _, err := b.initialState(*spec.InitCond, state); err != nil {
			return nil, err
		}
	}
	x.AggDef = def
	return x, nil
}

// sortOperatorOID is SORTOP's operator over two values of type t.
func sortOperatorOID(op string, t sqltypes.Type) (uint32, bool) {
	return pgcatalog.OperatorOID(op, t.OID(), t.OID())
}

// bindPrefix binds op e over a bound operand, as a prefix operator
// written in a query binds.
func (b *Binder) bindPrefix(op string, e ir.Expr) (ir.Expr, error) {
	if op == "-" {
		return b.bindNeg(e)
	}
	return b.bindPrefixOp(op, e)
}

// resultOfOID is the type of a built-in type OID.
func resultOfOID(oid uint32) sqltypes.Type {
	t, _ := sqltypes.TypeByOID(oid)
	return t
}
